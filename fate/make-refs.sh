#!/bin/sh
# Writes the FATE references in fate/ref/ from independent sources, never
# from vqhip: FFmpeg's own psnr filter, libvmaf's vmaf tool (C path:
# --cpumask 255) on the same frames as raw video, and for the passthrough
# test the distorted input alone. See fate/vqhip.mak for the mapping.
#
# Usage: [S2_TOOL=PATH/TO/libjxl/ssimulacra2] fate/make-refs.sh PATH/TO/ffmpeg
#        [PATH/TO/libvmaf/tools/vmaf]
# The ffmpeg needs the lavfi filters testsrc2, split, avgblur, format, scale,
# extractplanes, psnr and metadata, the rawvideo and framecrc muxers
# (scripts/build-ffmpeg.sh builds one). Without the vmaf tool, the references
# that come from libvmaf are left as they are.
set -eu

ffmpeg=${1:?usage: $0 PATH/TO/ffmpeg [PATH/TO/vmaf]}
vmaf=${2:-}
refdir=$(cd "$(dirname "$0")" && pwd)/ref
mkdir -p "$refdir"

# The inputs of tests/fate-run.sh's refcmp_metadata, with psnr as the metric.
psnr_metadata() { # PIXFMT
    "$ffmpeg" -nostdin -nostats -loglevel error -auto_conversion_filters \
        -lavfi "testsrc2=size=300x200:rate=1:duration=5,format=$1,split[ref][tmp];[tmp]avgblur=4[enc];[enc][ref]psnr,metadata=print:file=-" \
        -f null /dev/null
}

# Renames vf_psnr's values to vqhip's outputs.
#   float=1      also float_psnr, from psnr.y
#   subsample=N  only frames 0, N, 2N, ... carry scores
to_vqhip() { # float subsample
    awk -v float="$1" -v subsample="$2" '
        function flush() {
            if (!have)
                return
            if (frame % subsample == 0) {
                if (y != "") print "lavfi.vqhip.psnr_y=" y
                if (u != "") print "lavfi.vqhip.psnr_cb=" u
                if (v != "") print "lavfi.vqhip.psnr_cr=" v
                if (float) print "lavfi.vqhip.float_psnr=" y
            }
            print "lavfi.vqhip.backend=cpu"
            y = u = v = ""
        }
        /^frame:/ {
            flush()
            print
            frame = substr($1, 7) + 0
            have = 1
            next
        }
        /^lavfi\.psnr\.psnr\.y=/ { y = substr($0, index($0, "=") + 1) }
        /^lavfi\.psnr\.psnr\.u=/ { u = substr($0, index($0, "=") + 1) }
        /^lavfi\.psnr\.psnr\.v=/ { v = substr($0, index($0, "=") + 1) }
        END { flush() }'
}

no_psnr()   { grep -v '^lavfi\.vqhip\.psnr_' ; }

psnr_metadata yuv420p     | to_vqhip 1 1           > "$refdir/filter-vqhip-psnr-yuv420p"
psnr_metadata yuv422p10le | to_vqhip 1 1           > "$refdir/filter-vqhip-psnr-yuv422p10"
psnr_metadata yuv444p12le | to_vqhip 0 1           > "$refdir/filter-vqhip-psnr-yuv444p12"
psnr_metadata yuv420p16le,extractplanes=y | to_vqhip 0 1 > "$refdir/filter-vqhip-psnr-gray16"
psnr_metadata yuv420p,extractplanes=y     | to_vqhip 1 1 | no_psnr > "$refdir/filter-vqhip-float-psnr-gray"
psnr_metadata yuv420p     | to_vqhip 0 2           > "$refdir/filter-vqhip-psnr-subsample"
# p010 frames are scored as the same samples in yuv420p10le (the p010
# tests convert to p010le after format=yuv420p10le).
psnr_metadata yuv420p10le | to_vqhip 1 1           > "$refdir/filter-vqhip-psnr-yuv420p10"

# libvmaf's per-frame CSV (Frame,name,...) as metadata=print lines.
csv_to_vqhip() {
    awk -F, 'NR == 1 { for (i = 2; i <= NF; i++) name[i] = $i; next }
        {
            printf "frame:%-4d pts:%-7d pts_time:%d\n", $1, $1, $1
            for (i = 2; i <= NF; i++)
                if (name[i] != "") print "lavfi.vqhip." name[i] "=" $i
            print "lavfi.vqhip.backend=cpu"
        }'
}

# libvmaf's integer motion (libvmaf 3.2.0 here) on the refcmp_metadata
# frames; 1 frame per second, so pts equals the frame number.
if [ -n "$vmaf" ]; then
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    src="testsrc2=size=300x200:rate=1:duration=5,format=yuv420p"
    "$ffmpeg" -nostdin -loglevel error -lavfi "$src" -f rawvideo "$tmp/ref.yuv"
    "$ffmpeg" -nostdin -loglevel error -lavfi "$src,avgblur=4" -f rawvideo "$tmp/dis.yuv"
    "$vmaf" -q -r "$tmp/ref.yuv" -d "$tmp/dis.yuv" -w 300 -h 200 -p 420 -b 8 \
        --feature motion --no_prediction --cpumask 255 --csv -o "$tmp/motion.csv"
    csv_to_vqhip < "$tmp/motion.csv" > "$refdir/filter-vqhip-motion"
    # VMAF (the filter's default model) and its input features. The values
    # are libvmaf's; only the order of the lines, which refcmp-metadata.awk
    # compares line by line, is taken from the filter's own output (keys
    # only: the values there are discarded).
    "$vmaf" -q -r "$tmp/ref.yuv" -d "$tmp/dis.yuv" -w 300 -h 200 -p 420 -b 8 \
        -m version=vmaf_v0.6.1 --cpumask 255 --csv -o "$tmp/vmaf.csv"
    "$ffmpeg" -nostdin -nostats -loglevel error \
        -lavfi "$src,split[ref][tmp];[tmp]avgblur=4[enc];[enc][ref]vqhip=backend=cpu,metadata=print:file=-" \
        -f null /dev/null | sed 's/=.*//' > "$tmp/order.txt"
    awk -F, 'NR == FNR {
            if (FNR == 1) { for (i = 2; i <= NF; i++) name[i] = $i; next }
            for (i = 2; i <= NF; i++) if (name[i] != "") val[$1, name[i]] = $i
            next
        }
        /^frame:/ { frame = substr($1, 7) + 0
                    printf "frame:%-4d pts:%-7d pts_time:%d\n", frame, frame, frame
                    next }
        $0 == "lavfi.vqhip.backend" { print $0 "=cpu"; next }
        { key = substr($0, 13)
          if (!((frame, key) in val)) { print "no libvmaf value for " key > "/dev/stderr"; exit 1 }
          print $0 "=" val[frame, key] }' "$tmp/vmaf.csv" "$tmp/order.txt" \
        > "$refdir/filter-vqhip-vmaf"
    # float_vif, float_adm, float_motion and vmaf_float_v0.6.1 (libvmaf's
    # values; the order of the lines from the filter's output, as above).
    float_ref() { # PIXFMT VMAF_P VMAF_B VQHIP_OPTIONS VMAF_ARGS... > REF
        fmt=$1 p=$2 b=$3 opts=$4
        shift 4
        fsrc="testsrc2=size=300x200:rate=1:duration=5,format=$fmt"
        "$ffmpeg" -nostdin -loglevel error -y -lavfi "$fsrc" -f rawvideo "$tmp/fref.yuv"
        "$ffmpeg" -nostdin -loglevel error -y -lavfi "$fsrc,avgblur=4" -f rawvideo "$tmp/fdis.yuv"
        "$vmaf" -q -r "$tmp/fref.yuv" -d "$tmp/fdis.yuv" -w 300 -h 200 -p "$p" \
            -b "$b" --cpumask 255 --csv -o "$tmp/float.csv" "$@"
        "$ffmpeg" -nostdin -nostats -loglevel error \
            -lavfi "$fsrc,split[ref][tmp];[tmp]avgblur=4[enc];[enc][ref]vqhip=backend=cpu:$opts,metadata=print:file=-" \
            -f null /dev/null | sed 's/=.*//' > "$tmp/forder.txt"
        awk -F, 'NR == FNR {
                if (FNR == 1) { for (i = 2; i <= NF; i++) name[i] = $i; next }
                for (i = 2; i <= NF; i++) if (name[i] != "") val[$1, name[i]] = $i
                next
            }
            /^frame:/ { frame = substr($1, 7) + 0
                        printf "frame:%-4d pts:%-7d pts_time:%d\n", frame, frame, frame
                        next }
            $0 == "lavfi.vqhip.backend" { print $0 "=cpu"; next }
            { key = substr($0, 13)
              if (!((frame, key) in val)) { print "no libvmaf value for " key > "/dev/stderr"; exit 1 }
              print $0 "=" val[frame, key] }' "$tmp/float.csv" "$tmp/forder.txt"
    }
    ffeat='feature=name=float_vif|name=float_adm|name=float_motion'
    float_ref yuv420p 420 8 "$ffeat" --feature float_vif --feature float_adm \
        --feature float_motion --no_prediction > "$refdir/filter-vqhip-float-yuv420p"
    float_ref yuv422p10le 422 10 "$ffeat" --feature float_vif --feature float_adm \
        --feature float_motion --no_prediction > "$refdir/filter-vqhip-float-yuv422p10"
    float_ref yuv420p 420 8 model=version=vmaf_float_v0.6.1 \
        -m version=vmaf_float_v0.6.1 > "$refdir/filter-vqhip-vmaf-float"
else
    echo "make-refs: no vmaf tool given: filter-vqhip-motion left as it is" >&2
fi

# SpEED and motion_v2: libvmaf's values (C path) for refcmp_metadata's
# frames in PIXFMT, in the order of the filter's own lines (keys only, as
# for vmaf above). motion_v2's reference is libvmaf's integer motion under
# motion_v2's names: its SAD score must equal motion's.
#   libvmaf_ref TEST PIXFMT BITS LIBVMAF_FEATURE VQHIP_FEATURE [SED_RENAME]
libvmaf_ref() {
    lsrc="testsrc2=size=300x200:rate=1:duration=5,format=$2"
    "$ffmpeg" -y -nostdin -loglevel error -auto_conversion_filters -lavfi "$lsrc" \
        -f rawvideo "$tmp/lref.yuv"
    "$ffmpeg" -y -nostdin -loglevel error -auto_conversion_filters \
        -lavfi "$lsrc,avgblur=4" -f rawvideo "$tmp/ldis.yuv"
    case $2 in yuv444*) lp=444 ;; yuv422*) lp=422 ;; *) lp=420 ;; esac
    "$vmaf" -q -r "$tmp/lref.yuv" -d "$tmp/ldis.yuv" -w 300 -h 200 -p $lp -b "$3" \
        --feature "$4" --no_prediction --cpumask 255 --csv -o "$tmp/l.csv"
    sed -i "1{${6:-}}" "$tmp/l.csv"
    "$ffmpeg" -nostdin -nostats -loglevel error -auto_conversion_filters \
        -lavfi "$lsrc,split[ref][tmp];[tmp]avgblur=4[enc];[enc][ref]vqhip=backend=cpu:feature=$5,metadata=print:file=-" \
        -f null /dev/null | sed 's/=.*//' > "$tmp/lorder.txt"
    awk -F, 'NR == FNR {
            if (FNR == 1) { for (i = 2; i <= NF; i++) name[i] = $i; next }
            for (i = 2; i <= NF; i++) if (name[i] != "") val[$1, name[i]] = $i
            next
        }
        /^frame:/ { frame = substr($1, 7) + 0
                    printf "frame:%-4d pts:%-7d pts_time:%d\n", frame, frame, frame
                    next }
        $0 == "lavfi.vqhip.backend" { print $0 "=cpu"; next }
        { key = substr($0, 13)
          if (!((frame, key) in val)) { print "no libvmaf value for " key > "/dev/stderr"; exit 1 }
          print $0 "=" val[frame, key] }' "$tmp/l.csv" "$tmp/lorder.txt" \
        > "$refdir/filter-vqhip-$1"
    sed 's/^lavfi\.vqhip\.backend=cpu$/lavfi.vqhip.backend=hip/' \
        "$refdir/filter-vqhip-$1" > "$refdir/filter-vqhip-hip-$1"
}
if [ -n "$vmaf" ]; then
    v1016="speed_sigma_nn=0.19:speed_nn_floor=0.1:speed_weight_var_mode=5:speed_max_val=45"
    libvmaf_ref speed-chroma yuv444p 8 speed_chroma name=speed_chroma
    libvmaf_ref speed-chroma-v1016 yuv444p10le 10 "speed_chroma=$v1016" \
        "name=speed_chroma\\\\:$(echo "$v1016" | sed 's/:/\\\\:/g')"
    libvmaf_ref speed-temporal yuv420p 8 speed_temporal name=speed_temporal
    libvmaf_ref motion-v2 yuv420p 8 motion name=motion_v2 \
        's/VMAF_integer_feature_motion_sad_score/motion_v2_sad_score/;s/integer_motion2/motion2_v2_score/;s/integer_motion3/motion3_v2_score/'
    # CAMBI: 8-bit, and 10-bit with full_ref (cambi_source, cambi_full_reference)
    libvmaf_ref cambi yuv420p 8 cambi name=cambi
    libvmaf_ref cambi-full-ref-yuv420p10 yuv420p10le 10 cambi=full_ref=true \
        'name=cambi\\:full_ref=true'
else
    echo "make-refs: no vmaf tool given: SpEED, motion_v2 and CAMBI references left as they are" >&2
fi

# ssimulacra2: libjxl's own ssimulacra2 tool (S2_TOOL=path, built outside
# this repository) on zscale's RGB of the refcmp_metadata frames (made by
# the ffmpeg under test), converted with the colour description setparams
# gives them (chroma siting unspecified: left, zscale's default) by an
# ffmpeg with zscale (ZSCALE_FFMPEG, default: ffmpeg on PATH, e.g.
# Debian's), as 32-bit float clipped to [0,1] in PFM files (libjxl reads
# them as sRGB), as tests/ssimulacra2/make_ref.sh makes its libjxl_float.
s2_pfm() { # RAW_GBRPF32 W H PREFIX
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
        for y in range(h - 1, -1, -1):
            row[0::3] = r[y * w:(y + 1) * w]
            row[1::3] = g[y * w:(y + 1) * w]
            row[2::3] = b[y * w:(y + 1) * w]
            o.write(row.tobytes())
PY
}
s2_ref() { # PIXFMT+SETPARAMS RAW_PIXFMT ZSCALE_IN_ARGS OUT
    s2=$(mktemp -d)
    "$ffmpeg" -nostdin -loglevel error -auto_conversion_filters \
        -lavfi "testsrc2=size=300x200:rate=1:duration=5,format=$1,split[ref][tmp];[tmp]avgblur=4[enc]" \
        -map '[ref]' -f rawvideo -pix_fmt "$2" "$s2/ref.yuv" \
        -map '[enc]' -f rawvideo -pix_fmt "$2" "$s2/dis.yuv"
    for k in ref dis; do
        "${ZSCALE_FFMPEG:-ffmpeg}" -nostdin -loglevel error -f rawvideo -pix_fmt "$2" -s 300x200 \
            -i "$s2/$k.yuv" -vf "zscale=$3:filter=bilinear:dither=none,format=gbrpf32le" \
            -f rawvideo "$s2/$k.f32"
        s2_pfm "$s2/$k.f32" 300 200 "$s2/$k"
    done
    for f in 0 1 2 3 4; do
        printf 'frame:%-4d pts:%-7d pts_time:%d\n' $f $f $f
        printf 'lavfi.vqhip.ssimulacra2=%.6f\n' \
            "$("$S2_TOOL" "$s2/ref$((f + 1)).pfm" "$s2/dis$((f + 1)).pfm")"
        echo "lavfi.vqhip.backend=cpu"
    done > "$4"
    rm -rf "$s2"
}
if [ -n "${S2_TOOL:-}" ]; then
    s2_ref "yuv420p,setparams=colorspace=bt709:range=tv" yuv420p \
        "matrixin=709:rangein=limited:chromalin=left" \
        "$refdir/filter-vqhip-ssimulacra2-yuv420p"
    s2_ref "yuv444p10le,setparams=colorspace=bt2020nc:range=pc" yuv444p10le \
        "matrixin=2020_ncl:rangein=full" \
        "$refdir/filter-vqhip-ssimulacra2-yuv444p10"
else
    echo "make-refs: no S2_TOOL (libjxl's ssimulacra2): ssimulacra2 references left as they are" >&2
fi

# The GPU tests compare with the same values; only the backend differs.
for t in psnr-yuv420p psnr-yuv422p10 psnr-yuv444p12 psnr-gray16 float-psnr-gray psnr-subsample psnr-yuv420p10 motion vmaf \
         float-yuv420p float-yuv422p10 vmaf-float ssimulacra2-yuv420p ssimulacra2-yuv444p10; do
    sed 's/^lavfi\.vqhip\.backend=cpu$/lavfi.vqhip.backend=hip/' \
        "$refdir/filter-vqhip-$t" > "$refdir/filter-vqhip-hip-$t"
done

# float_ssim and float_ms_ssim: libvmaf's values (C path) on the
# refcmp_metadata frames written as raw video. ssim: libvmaf has no such
# extractor, and FFmpeg's ssim filter cannot be aligned with it (vf_ssim
# averages 8x8 box windows on a 4-sample grid; vqhip's ssim is a 9-tap
# Gaussian at every sample), so its reference comes from
# tests/ssim/ssim_direct.c, a direct 2-D evaluation of the definition that
# shares no code with vqhip (compiled here with cc).
ssim_tmp=$(mktemp -d)
ssim_raw() { # PIXFMT: ref.yuv and dis.yuv of the refcmp_metadata frames
    src="testsrc2=size=300x200:rate=1:duration=5,format=$1"
    "$ffmpeg" -nostdin -loglevel error -lavfi "$src" -f rawvideo -y "$ssim_tmp/ref.yuv"
    "$ffmpeg" -nostdin -loglevel error -lavfi "$src,avgblur=4" -f rawvideo -y "$ssim_tmp/dis.yuv"
}
if [ -n "$vmaf" ]; then
    ssim_raw yuv420p
    "$vmaf" -q -r "$ssim_tmp/ref.yuv" -d "$ssim_tmp/dis.yuv" -w 300 -h 200 -p 420 -b 8 \
        --feature float_ssim --no_prediction --cpumask 255 --csv -o "$ssim_tmp/fssim.csv"
    csv_to_vqhip < "$ssim_tmp/fssim.csv" > "$refdir/filter-vqhip-float-ssim"
    ssim_raw yuv422p10le
    "$vmaf" -q -r "$ssim_tmp/ref.yuv" -d "$ssim_tmp/dis.yuv" -w 300 -h 200 -p 422 -b 10 \
        --feature float_ms_ssim --no_prediction --cpumask 255 --csv -o "$ssim_tmp/fms.csv"
    csv_to_vqhip < "$ssim_tmp/fms.csv" > "$refdir/filter-vqhip-float-ms-ssim"
else
    echo "make-refs: no vmaf tool given: float_ssim/float_ms_ssim references left as they are" >&2
fi
cc -O2 -DSSIM_DIRECT_MAIN -o "$ssim_tmp/ssim_direct" \
    "$(dirname "$0")/../tests/ssim/ssim_direct.c" -lm
ssim_raw yuv444p12le
"$ssim_tmp/ssim_direct" "$ssim_tmp/ref.yuv" "$ssim_tmp/dis.yuv" 300 200 444 12 |
    awk '{ printf "frame:%-4d pts:%-7d pts_time:%d\n", $1, $1, $1
           print "lavfi.vqhip.ssim=" $2
           print "lavfi.vqhip.backend=cpu" }' > "$refdir/filter-vqhip-ssim"
rm -rf "$ssim_tmp"
for t in float-ssim float-ms-ssim ssim; do
    sed 's/^lavfi\.vqhip\.backend=cpu$/lavfi.vqhip.backend=hip/' \
        "$refdir/filter-vqhip-$t" > "$refdir/filter-vqhip-hip-$t"
done

# float_moment, float_ansnr, psnr_hvs, ciede: libvmaf's values on the
# refcmp_metadata frames in the test's format (C path), as for SpEED above.
if [ -n "$vmaf" ]; then
    libvmaf_ref float-moment yuv422p10le 10 float_moment name=float_moment
    libvmaf_ref float-ansnr yuv420p 8 float_ansnr name=float_ansnr
    libvmaf_ref psnr-hvs yuv420p10le 10 psnr_hvs name=psnr_hvs
    libvmaf_ref ciede yuv420p10le 10 ciede name=ciede
fi

# The frames vqhip must pass on untouched: the distorted input alone.
"$ffmpeg" -nostdin -nostats -loglevel error -noauto_conversion_filters \
    -lavfi "testsrc2=size=300x200:rate=1:duration=5,format=yuv420p,avgblur=4" \
    -bitexact -f framecrc - > "$refdir/filter-vqhip-passthrough"

echo "make-refs: wrote $(ls "$refdir" | wc -l) references in $refdir"
