#!/bin/sh
# Makes tests/golden/ref/ (its README says what each log is): libvmaf's vmaf
# tool on the golden clips, float_ansnr on all nine and ciede on a 4:4:4
# copy of g05 and g07 in which every chroma sample is repeated. Needs the
# tool of a libvmaf built outside this repository (built with
# -Denable_float=true) and the golden clips.
#
#   tests/golden/make_ref.sh VMAF_TOOL [CLIPS_DIR]
#
# CLIPS_DIR: the golden clips (default: build/tests/golden-clips, which the
# golden test makes). The logs differ from the committed ones only in
# libvmaf's "fps" line.
set -eu
vmaf=${1:?usage: make_ref.sh VMAF_TOOL [CLIPS_DIR]}
repo=$(cd "$(dirname "$0")/../.." && pwd)
golden=${VQHIP_GOLDEN_DIR:-$repo/../shared/golden}
clips=${2:-$repo/build/tests/golden-clips}
out=$repo/tests/golden/ref
cmp -s "$golden/manifest.tsv" "$clips/manifest.tsv" ||
    { echo "make_ref: no golden clips in $clips (run the golden test)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# repack IN OUT W H FMT BPC FRAMES MODE: a raw file in FFmpeg's layout (chroma
# ceil(w/2) wide, ceil(h/2) high for 4:2:0) as libvmaf's tool reads it.
#   MODE drop: chroma w>>1 by h>>1 (4:2:0; w>>1 by h for 4:2:2): the last
#              column and row of an odd size left out, as libvmaf leaves
#              them out of a standard-layout picture (golden README quirk 1)
#   MODE 444:  4:4:4, luma as is, chroma of luma sample (x, y) the sample
#              (min(x >> 1, cw - 1), min(y >> sy, ch - 1)) of libvmaf's
#              chroma planes (cw x ch as above, sy 1 for 4:2:0, 0 for 4:2:2)
repack() {
    python3 - "$@" <<'EOF'
import sys
src, dst, w, h, fmt, bpc, frames, mode = sys.argv[1:]
w, h, bpc, frames = int(w), int(h), int(bpc), int(frames)
b = 2 if bpc > 8 else 1
sx, sy = (fmt != '444'), (fmt == '420')
fw, fh = (w + sx) >> sx, (h + sy) >> sy   # the file's chroma planes
cw, ch = w >> sx, h >> sy                 # libvmaf's
luma, chroma = w * h * b, fw * fh * b
with open(src, 'rb') as f, open(dst, 'wb') as o:
    for _ in range(frames):
        frame = f.read(luma + 2 * chroma)
        o.write(frame[:luma])
        for p in range(2):
            plane = frame[luma + p * chroma:luma + (p + 1) * chroma]
            row = lambda y: plane[y * fw * b:(y + 1) * fw * b]
            if mode == 'drop':
                o.write(b''.join(row(y)[:cw * b] for y in range(ch)))
                continue
            cols = [min(x >> sx, cw - 1) * b + k for x in range(w)
                    for k in range(b)]
            for y in range(h):
                r = row(min(y >> sy, ch - 1))
                o.write(bytes(r[i] for i in cols))
EOF
}

# run NAME OUT.json FORMAT REF DIS FEATURE: the tool on one pair
run() {
    "$vmaf" -r "$4" -d "$5" -w "$w" -h "$h" -p "$3" -b "$bpc" \
        --feature "$6" --no_prediction --threads 1 --quiet --json -o "$2" \
        > /dev/null
    echo "make_ref: $(basename "$2")"
}

tail -n +2 "$golden/manifest.tsv" |
while IFS='	' read -r name w h pix_fmt bpc fmt frames ref _ dis _ _; do
    for k in ref dis; do
        f=$ref
        [ $k = dis ] && f=$dis
        repack "$clips/$f" "$tmp/$k.yuv" "$w" "$h" "$fmt" "$bpc" "$frames" drop
    done
    run "$name" "$out/$name.float_ansnr.json" "$fmt" "$tmp/ref.yuv" \
        "$tmp/dis.yuv" float_ansnr
    case $name in g05_*|g07_*)
        for k in ref dis; do
            f=$ref
            [ $k = dis ] && f=$dis
            repack "$clips/$f" "$tmp/$k.444" "$w" "$h" "$fmt" "$bpc" \
                "$frames" 444
        done
        run "$name" "$out/$name.ciede444.json" 444 "$tmp/ref.444" \
            "$tmp/dis.444" ciede ;;
    esac
done
