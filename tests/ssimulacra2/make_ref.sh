#!/usr/bin/env bash
# make_ref.sh - reference ssimulacra2 scores for the golden clips from
# libjxl's own `ssimulacra2` tool (built outside this repository).
#
# For every clip pair of ../shared/golden (regenerated raw clips), each frame
# of both inputs is converted to RGB by FFmpeg's zscale filter (zimg,
# bilinear chroma, no dither) with the colour interpretation listed below,
# and scored by the tool twice:
#   libjxl_png16  from 16-bit PNGs without colour chunks (libjxl reads them
#                 as sRGB): zimg rounds and clips to 16 bits;
#   libjxl_float  from PFMs (32-bit float, read as sRGB too) of zimg's float
#                 output clipped to [0,1] by a few lines of python: the same
#                 pixels without the 16-bit rounding.
# Odd sizes (which zimg refuses for subsampled chroma) are padded by one
# column/row before zscale and cropped after: the padded luma sample
# touches no kept pixel and the chroma planes keep their size, so the kept
# pixels are those of the odd-size picture.
#
# usage: make_ref.sh SSIMULACRA2_TOOL CLIPS_DIR [OUT.tsv]
#   SSIMULACRA2_TOOL  libjxl's tools/ssimulacra2 binary
#   CLIPS_DIR         the golden clips (../shared/golden/make_clips.sh CLIPS_DIR)
# Writes OUT.tsv (default: ref_libjxl.tsv next to this script).
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
TOOL=${1:?usage: make_ref.sh SSIMULACRA2_TOOL CLIPS_DIR [OUT.tsv]}
CLIPS=${2:?usage: make_ref.sh SSIMULACRA2_TOOL CLIPS_DIR [OUT.tsv]}
OUT=${3:-$HERE/ref_libjxl.tsv}
MANIFEST=$CLIPS/manifest.tsv
[ -f "$MANIFEST" ] || { echo "no $MANIFEST (run make_clips.sh $CLIPS)" >&2; exit 1; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
FF=(ffmpeg -hide_banner -nostdin -loglevel error -y -threads 1 -filter_threads 1)

# Colour interpretation per clip: matrix range chroma_location, as vqhip's
# names (the picture's fields; "unspecified" = what vqhip guesses for it),
# then zscale's names for the same. vqhip guesses bt709 from 1280 wide or
# 577 high, else bt601; unspecified range is limited, siting left.
interp() {
  case "$1" in
    g01_*) echo "unspecified unspecified unspecified 470bg limited left" ;;
    g02_*) echo "unspecified unspecified unspecified 709 limited left" ;;
    g03_*) echo "bt2020nc full center 2020_ncl full center" ;;
    g04_*) echo "bt709 limited topleft 709 limited topleft" ;;
    g05_*) echo "bt709 limited left 709 limited left" ;;
    g06_*) echo "bt601 full unspecified 470bg full left" ;;
    g07_*) echo "bt709 limited left 709 limited left" ;;
    g08_*) echo "unspecified unspecified unspecified 470bg limited left" ;;
    g09_*) echo "bt709 limited left 709 limited left" ;;
    *) echo "unknown clip $1" >&2; exit 1 ;;
  esac
}

# pad_odd IN OUT W H BYTES_PER_SAMPLE CHROMA_W CHROMA_H FRAMES: repeats the
# last luma column/row so the size is even; the chroma planes are unchanged
# ((w+1)/2 wide already).
pad_odd() {
  python3 - "$@" <<'PY'
import sys
src, dst, w, h, bps, cw, ch, frames = sys.argv[1], sys.argv[2], *map(int, sys.argv[3:])
pw, ph = w + (w & 1), h + (h & 1)
with open(src, 'rb') as f, open(dst, 'wb') as o:
    for _ in range(frames):
        y = f.read(w * h * bps)
        rows = [y[r * w * bps:(r + 1) * w * bps] for r in range(h)]
        rows = [r + r[-bps:] * (pw - w) for r in rows]
        rows += rows[-1:] * (ph - h)
        o.write(b''.join(rows))
        o.write(f.read(2 * cw * ch * bps))
PY
}

# to_pfm RAW W H PREFIX: gbrpf32le frames -> PREFIX<n>.pfm (n from 1), each
# sample clipped to [0,1] as the 16-bit PNG's integers are.
to_pfm() {
  python3 - "$@" <<'PY'
import array, sys
src, w, h, prefix = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
n = w * h
data = open(src, 'rb').read()
for f in range(len(data) // (12 * n)):
    gbr = []
    for p in range(3):
        a = array.array('f')
        a.frombytes(data[(3 * f + p) * 4 * n:(3 * f + p + 1) * 4 * n])
        if sys.byteorder != 'little':
            a.byteswap()
        gbr.append(array.array('f', (0.0 if v < 0.0 else 1.0 if v > 1.0 else v
                                     for v in a)))
    g, b, r = gbr
    with open('%s%d.pfm' % (prefix, f + 1), 'wb') as o:
        o.write(b'PF\n%d %d\n%s\n' % (w, h, b'-1.0' if sys.byteorder == 'little' else b'1.0'))
        row = array.array('f', bytes(12 * w))
        for y in range(h - 1, -1, -1):  # PFM rows run bottom to top
            row[0::3] = r[y * w:(y + 1) * w]
            row[1::3] = g[y * w:(y + 1) * w]
            row[2::3] = b[y * w:(y + 1) * w]
            o.write(row.tobytes())
PY
}

# rgb FILE W H PIXFMT ZMATRIX ZRANGE ZLOC PREFIX: PREFIX<n>.png and .pfm
rgb() {
  local file=$1 w=$2 h=$3 pf=$4 zm=$5 zr=$6 zl=$7 prefix=$8
  local post="" pw=$w ph=$h
  case "$pf" in
    yuv420p*) pw=$(( (w + 1) / 2 * 2 )); ph=$(( (h + 1) / 2 * 2 )) ;;
    yuv422p*) pw=$(( (w + 1) / 2 * 2 )) ;;
  esac
  if [ "$pw" != "$w" ] || [ "$ph" != "$h" ]; then
    local bps=1 cw=$(( (w + 1) / 2 )) ch=$h frames
    case "$pf" in *le) bps=2 ;; esac
    case "$pf" in yuv420p*) ch=$(( (h + 1) / 2 )) ;; esac
    frames=$(( $(stat -c %s "$file") / ((w * h + 2 * cw * ch) * bps) ))
    pad_odd "$file" "$TMP/padded.yuv" "$w" "$h" "$bps" "$cw" "$ch" "$frames"
    file=$TMP/padded.yuv
    post=",crop=$w:$h:0:0"
  fi
  local z="zscale=matrixin=$zm:rangein=$zr:chromalin=$zl:filter=bilinear:dither=none"
  "${FF[@]}" -f rawvideo -pix_fmt "$pf" -s "${pw}x${ph}" -i "$file" \
    -vf "$z,format=gbrp16le${post},scale=flags=accurate_rnd+bitexact,format=rgb48be" \
    -f image2 -c:v png "$prefix%d.png"
  "${FF[@]}" -f rawvideo -pix_fmt "$pf" -s "${pw}x${ph}" -i "$file" \
    -vf "$z,format=gbrpf32le${post}" -f rawvideo "$TMP/float.raw"
  to_pfm "$TMP/float.raw" "$w" "$h" "$prefix"
  rm -f "$TMP/float.raw"
}

{
  printf '# ssimulacra2 of libjxl %s on zscale RGB of the golden clips (tests/ssimulacra2/README.md)\n' \
    "${LIBJXL_COMMIT:-unknown}"
  printf 'name\tframe\tmatrix\trange\tchroma_loc\tlibjxl_float\tlibjxl_png16\n'
} > "$OUT"
tail -n +2 "$MANIFEST" | while IFS=$'\t' read -r name w h pf bd vp frames ref rs dis ds desc; do
  read -r m r l zm zr zl <<<"$(interp "$name")"
  rm -f "$TMP"/*.png "$TMP"/*.pfm
  rgb "$CLIPS/$ref" "$w" "$h" "$pf" "$zm" "$zr" "$zl" "$TMP/r"
  rgb "$CLIPS/$dis" "$w" "$h" "$pf" "$zm" "$zr" "$zl" "$TMP/d"
  for ((f = 1; f <= frames; f++)); do
    sf=$("$TOOL" "$TMP/r$f.pfm" "$TMP/d$f.pfm")
    sp=$("$TOOL" "$TMP/r$f.png" "$TMP/d$f.png")
    printf '%s\t%d\t%s\t%s\t%s\t%s\t%s\n' "$name" $((f - 1)) "$m" "$r" "$l" "$sf" "$sp" >> "$OUT"
  done
  echo "  $name: $frames frames" >&2
done
echo "wrote $OUT" >&2
