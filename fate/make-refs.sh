#!/bin/sh
# Writes the FATE references in fate/ref/ from independent sources, never
# from vqhip: FFmpeg's own psnr filter, libvmaf's vmaf tool (C path:
# --cpumask 255) on the same frames as raw video, and for the passthrough
# test the distorted input alone. See fate/vqhip.mak for the mapping.
#
# Usage: fate/make-refs.sh PATH/TO/ffmpeg [PATH/TO/libvmaf/tools/vmaf]
# The ffmpeg needs the lavfi filters testsrc2, split, avgblur, format, scale,
# extractplanes, psnr and metadata, the rawvideo and framecrc muxers
# (tools/build-ffmpeg.sh builds one). Without the vmaf tool, the references
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
else
    echo "make-refs: no vmaf tool given: filter-vqhip-motion left as it is" >&2
fi

# The GPU tests compare with the same values; only the backend differs.
for t in psnr-yuv420p psnr-yuv422p10 psnr-yuv444p12 psnr-gray16 float-psnr-gray psnr-subsample psnr-yuv420p10 motion vmaf; do
    sed 's/^lavfi\.vqhip\.backend=cpu$/lavfi.vqhip.backend=hip/' \
        "$refdir/filter-vqhip-$t" > "$refdir/filter-vqhip-hip-$t"
done

# float_moment, float_ansnr, psnr_hvs, ciede: libvmaf's values on the
# refcmp_metadata frames in the test's format (C path), one line per value
# in the order the filter writes its keys (as for filter-vqhip-vmaf).
libvmaf_feature_ref() { # TEST PIXFMT VMAF_P VMAF_B FEATURE
    f_src="testsrc2=size=300x200:rate=1:duration=5,format=$2"
    "$ffmpeg" -nostdin -loglevel error -lavfi "$f_src" -f rawvideo "$tmp/$1.ref"
    "$ffmpeg" -nostdin -loglevel error -lavfi "$f_src,avgblur=4" -f rawvideo "$tmp/$1.dis"
    "$vmaf" -q -r "$tmp/$1.ref" -d "$tmp/$1.dis" -w 300 -h 200 -p "$3" -b "$4" \
        --feature "$5" --no_prediction --cpumask 255 --csv -o "$tmp/$1.csv"
    "$ffmpeg" -nostdin -nostats -loglevel error \
        -lavfi "$f_src,split[ref][tmp];[tmp]avgblur=4[enc];[enc][ref]vqhip=backend=cpu:feature=name=$5,metadata=print:file=-" \
        -f null /dev/null | sed 's/=.*//' > "$tmp/$1.order"
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
          print $0 "=" val[frame, key] }' "$tmp/$1.csv" "$tmp/$1.order" \
        > "$refdir/filter-vqhip-$1"
    sed 's/^lavfi\.vqhip\.backend=cpu$/lavfi.vqhip.backend=hip/' \
        "$refdir/filter-vqhip-$1" > "$refdir/filter-vqhip-hip-$1"
}
if [ -n "$vmaf" ]; then
    libvmaf_feature_ref float-moment yuv422p10le 422 10 float_moment
    libvmaf_feature_ref float-ansnr yuv420p 420 8 float_ansnr
    libvmaf_feature_ref psnr-hvs yuv420p10le 420 10 psnr_hvs
    libvmaf_feature_ref ciede yuv420p10le 420 10 ciede
fi

# The frames vqhip must pass on untouched: the distorted input alone.
"$ffmpeg" -nostdin -nostats -loglevel error -noauto_conversion_filters \
    -lavfi "testsrc2=size=300x200:rate=1:duration=5,format=yuv420p,avgblur=4" \
    -bitexact -f framecrc - > "$refdir/filter-vqhip-passthrough"

echo "make-refs: wrote $(ls "$refdir" | wc -l) references in $refdir"
