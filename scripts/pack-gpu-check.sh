#!/bin/sh
# Packs what a GPU machine without FFmpeg or network needs to verify vqhip
# into the repository's ignored .device/ folder:
#   .device/build/        NVIDIA builds of tests/checkgpu, tools/vqhip_bench
#                         and tools/vqhip (static libvqhip with its built-in
#                         models, static json-c and CUDA runtime; the CLI
#                         with the static FFmpeg below: video files, NVDEC)
#   .device/decode/       H.264 and 10-bit HEVC clips for --hwdec cuda
#   .device/fate/build/   a static FFmpeg (the newest series, or with
#                         FATE_SERIES=debian Debian 12's 5.1) linked with the
#                         NVIDIA libvqhip, and FATE's helper programs
#                         (tests/base64, ...) that fate-run.sh calls
#   .device/fate/build/src/tests/  fate-run.sh, its awk scripts, the
#                         references (where FFmpeg's out-of-tree build has
#                         its "src" link to the source)
#   .device/fate/run.sh   the vqhip FATE tests as plain commands:
#                         "run.sh cpu" (make fate-vqhip), "run.sh hip"
#                         (make fate-vqhip-hip)
#   .device/check-bundle.sh  the ldd check below
#   .device/run.sh        the bundle check, FATE on the CPU, then (with a
#                         GPU) FATE on the GPU and scripts/gpu-check.sh
#
# Every packed binary may need only glibc's libraries (libc, libm, libdl,
# libpthread, librt, the loader and the vDSO), libstdc++ and libgcc: the
# GPU machine runs another distribution. This script checks that with ldd
# before it declares the bundle ready, and .device/run.sh checks it again
# there.
#
# Usage (here):        scripts/pack-gpu-check.sh
# Then (GPU machine, repository root, .device carried there):
#                      .device/run.sh [checkgpu args, default --seed 1:
#                                      the full set]
# BENCH_SECONDS is passed on to scripts/gpu-check.sh.
set -eu

repo=$(cd "$(dirname "$0")/.." && pwd)
dev=$repo/.device
arch=${NVIDIA_ARCH:-sm_90}
# One FFmpeg travels (64 MB a call): run the FATE check once per series.
series=${FATE_SERIES:-newest}
case $series in debian|newest) ;; *) echo "FATE_SERIES: debian or newest" >&2; exit 2 ;; esac
nvargs="-Dhip_platform=nvidia -Dnvidia_arch=$arch -Dprefer_static=true"
export JOBS=${JOBS:-2}

# --- FFmpeg with the NVIDIA libvqhip -------------------------------------------
# Without zlib (its shared library would be one more dependency; the FATE
# tests do not use it). Its static libraries (with NVDEC) are installed for
# the CLI below; the filter's libvqhip needs no FFmpeg (-Dlibav=disabled).
avlibs=$repo/.ffmpeg/avlibs-$series-nvidia
VQHIP_VARIANT=nvidia VQHIP_MESON_ARGS="$nvargs -Dlibav=disabled" \
    FFMPEG_EXTRA_ARGS=--disable-zlib VQHIP_FFMPEG_CUDA=1 \
    VQHIP_FFMPEG_LIBS="$avlibs" "$repo/scripts/build-ffmpeg.sh" "$series"
ffbuild=$repo/.ffmpeg/build/$series-nvidia
ffsrc=$repo/.ffmpeg/src/$series

# --- the tools, built for NVIDIA ---------------------------------------------
# The CLI reads video files through that FFmpeg, linked statically (the GPU
# machine has no FFmpeg libraries), with --hwdec cuda (NVDEC).
nvbuild=$repo/build-nv-pack
# (meson keeps pkg_config_path across reconfigurations, PKG_CONFIG_PATH not)
nvargs="$nvargs -Dlibav=enabled -Dlibav_static=true -Dpkg_config_path=$avlibs/lib/pkgconfig"
if [ ! -f "$nvbuild/build.ninja" ]; then
    # shellcheck disable=SC2086 # nvargs is a list of options
    meson setup "$nvbuild" "$repo" --buildtype=release $nvargs
else
    # shellcheck disable=SC2086 # nvargs is a list of options
    meson setup --reconfigure "$nvbuild" "$repo" --buildtype=release $nvargs >/dev/null
fi
ninja -C "$nvbuild" -j "$JOBS"
# FATE's helper programs (fate-run.sh reports through tests/base64)
utils="base64 tiny_psnr tiny_ssim audiomatch"
# shellcheck disable=SC2046 # one make target per helper
make -C "$ffbuild" -j "$JOBS" $(printf 'tests/%s ' $utils) >/dev/null

rm -rf "$dev"
fsrc=$dev/fate/build/src
mkdir -p "$dev/build/tests" "$dev/build/tools" \
         "$fsrc/tests/ref/fate" "$dev/fate/build/tests/data/fate"
# GPU tests: parity, GPU against libvmaf's numbers, layouts and device
# pictures, and the golden test on the GPU backend
gpu_tests="checkgpu layout_test acc_parity adm_check motion_test vif_libvmaf
           cambi_libvmaf golden_check speed/speed_test speed/motion_v2_test
           s2_golden reliability/test_faults reliability/test_device_lent
           reliability/test_sample_range_device test_ladder
           test_sync_backends"
for t in $gpu_tests; do
    cp "$nvbuild/tests/$t" "$dev/build/tests/"
done
cp "$repo/tests/speed/data/speed_model.json" "$dev/build/tests/"
cp "$nvbuild/tools/vqhip_bench" "$nvbuild/tools/vqhip" "$nvbuild/tools/vqhip_soak" \
   "$nvbuild/tools/vqhip_latency" "$nvbuild/tools/vqhip_ladder_bench" \
   "$dev/build/tools/"
# Golden data for golden_check on the GPU: the logs and caveats, and the
# small clips (compressed; the big ones stay here: 64 MB travel limit).
golden=${VQHIP_GOLDEN_DIR:-$repo/../shared/golden}
clips=$repo/build/tests/golden-clips
# The clips the tests' build made, else made here with the golden set's own
# generator (as tests/golden/run_golden.sh does): a bundle without them
# would fail every golden check on the GPU machine.
if ! cmp -s "$golden/manifest.tsv" "$clips/manifest.tsv" 2>/dev/null; then
    clips=$nvbuild/golden-clips
    if ! cmp -s "$golden/manifest.tsv" "$clips/manifest.tsv" 2>/dev/null; then
        rm -rf "$clips"
        mkdir -p "$clips"
        "$golden/make_clips.sh" "$clips" ||
            { echo "pack-gpu-check: the golden clips could not be made" >&2; exit 1; }
    fi
fi
mkdir -p "$dev/golden/json" "$dev/golden/clips"
cp "$golden/manifest.tsv" "$golden/caveats.tsv" "$dev/golden/"
cp "$golden/json/"*.json "$dev/golden/json/"
cp "$repo/tests/golden/caveats.tsv" "$dev/golden/repo-caveats.tsv"
cp -r "$repo/tests/golden/ref" "$dev/golden/ref"
cp "$repo/tests/ssimulacra2/ref_libjxl.tsv" "$dev/golden/ssimulacra2_libjxl.tsv"
for c in g01_576x324_420p_plasma_crf35 g06_960x540_444p_spectrum_shift1 \
         g07_203x117_420p_plasma_blur_noise g08_320x240_420p_flat_grey; do
    for k in ref dis; do
        [ -f "$clips/${c}_$k.yuv" ] ||
            { echo "pack-gpu-check: no clip $clips/${c}_$k.yuv" >&2; exit 1; }
        gzip -1 -c "$clips/${c}_$k.yuv" > "$dev/golden/clips/${c}_$k.yuv.gz"
    done
done
# Video files for the hardware-decoding check (tests/avinput/check_hwdec.sh),
# encoded once with Debian's ffmpeg (libx264, libx265) and kept.
dclips=$nvbuild/decode-clips
if [ ! -f "$dclips/done" ]; then
    rm -rf "$dclips"
    mkdir -p "$dclips"
    enc() { /usr/bin/ffmpeg -nostdin -v error -y "$@"; }
    src=testsrc2=size=1920x1080:rate=25
    enc -f lavfi -i "$src" -frames:v 48 -pix_fmt yuv420p -c:v libx264 \
        -crf 8 -g 24 -bf 2 "$dclips/ref.mp4" &&
    i=1 && for q in 24 32 40; do
        enc -i "$dclips/ref.mp4" -vf noise=alls=6:allf=t -c:v libx264 -crf $q \
            -g 24 -bf 2 "$dclips/r$i.mp4" || exit 1
        i=$((i + 1))
    done &&
    enc -f lavfi -i "$src" -frames:v 24 -pix_fmt yuv420p10le -c:v libx265 \
        -x265-params log-level=error -crf 6 "$dclips/ref10.mkv" &&
    enc -i "$dclips/ref10.mkv" -vf gblur=sigma=1.5 -pix_fmt yuv420p10le \
        -c:v libx265 -x265-params log-level=error -crf 30 "$dclips/dis10.mkv" &&
    touch "$dclips/done" ||
        { echo "pack-gpu-check: the decode clips could not be made" >&2; exit 1; }
fi
mkdir -p "$dev/decode"
cp "$dclips/"*.mp4 "$dclips/"*.mkv "$dev/decode/"

cp "$ffsrc/tests/"*.sh "$ffsrc/tests/"*.awk "$fsrc/tests/"
cp "$ffsrc/tests/ref/fate/filter-vqhip-"* "$fsrc/tests/ref/fate/"
cp "$ffbuild/ffmpeg" "$ffbuild/ffprobe" "$dev/fate/build/"
for u in $utils; do
    cp "$ffbuild/tests/$u" "$dev/fate/build/tests/"
done

# --- the FATE tests as plain commands ----------------------------------------
# make -n prints each test's fate-run.sh call (FFmpeg's out-of-tree build
# names its source ./src); absolute paths become paths relative to
# .device/fate/build, where the script runs.
fate_group() { # fate_group GROUP MAKE_TARGET
    echo "if [ \"\$group\" = $1 ]; then"
    make -C "$ffbuild" -n "$2" 2>/dev/null | grep 'fate-run\.sh' |
        sed "s#$ffsrc#./src#g; s#$ffbuild#.#g" |
        while IFS= read -r cmd; do
            name=$(echo "$cmd" | awk '{ print $2 }')
            printf '    if %s >%s.out 2>&1; then\n' "$cmd" "$name"
            echo "        echo \"PASS $name\"; pass=\$((pass + 1))"
            echo "    else"
            echo "        echo \"FAIL $name\"; tail -n 8 $name.out; tail -n 12 tests/data/fate/${name#fate-}.err 2>/dev/null; fail=\$((fail + 1))"
            echo "    fi"
        done
    echo "fi"
}
{
    echo '#!/bin/sh'
    echo '# Generated by scripts/pack-gpu-check.sh from "make -n fate-vqhip" (cpu)'
    echo '# and "make -n fate-vqhip-hip" (hip). usage: run.sh cpu|hip'
    echo 'group=${1:-}'
    echo 'case $group in cpu|hip) ;; *) echo "usage: $0 cpu|hip" >&2; exit 2 ;; esac'
    echo 'cd "$(dirname "$0")/build" || exit 1'
    echo 'pass=0; fail=0'
    fate_group cpu fate-vqhip
    fate_group hip fate-vqhip-hip
    echo 'echo "fate ($group): $pass passed, $fail failed"'
    echo '[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]'
} > "$dev/fate/run.sh"
for g in cpu hip; do
    sed -n "/^if \[ \"\$group\" = $g \]/,/^fi$/p" "$dev/fate/run.sh" |
        grep -q PASS ||
        { echo "pack-gpu-check: no FATE tests found for $g" >&2; exit 1; }
done

# --- the bundle check ----------------------------------------------------------
cat > "$dev/check-bundle.sh" <<'EOF'
#!/bin/sh
# Every packed binary needs only glibc's libraries, libstdc++ and libgcc
# (ldd; a static binary needs nothing).
cd "$(dirname "$0")" || exit 1
allowed='^(linux-vdso\.so\.1|/lib64/ld-linux-x86-64\.so\.2|ld-linux-x86-64\.so\.2|libc\.so\.6|libm\.so\.6|libdl\.so\.2|libpthread\.so\.0|librt\.so\.1|libstdc\+\+\.so\.6|libgcc_s\.so\.1)$'
bad=0 n=0
for f in build/tests/* build/tools/* fate/build/ffmpeg fate/build/ffprobe \
         fate/build/tests/base64 fate/build/tests/tiny_psnr \
         fate/build/tests/tiny_ssim fate/build/tests/audiomatch; do
    case $f in *.json) continue ;; esac
    if [ ! -x "$f" ]; then
        echo "bundle: $f is missing"; bad=1; continue
    fi
    n=$((n + 1))
    out=$(ldd "$f" 2>&1)
    case $out in *"not a dynamic executable"*) continue ;; esac
    extra=$(echo "$out" | awk '{ print $1 }' | grep -Ev "$allowed" || true)
    missing=$(echo "$out" | grep 'not found' || true)
    if [ -n "$extra$missing" ]; then
        echo "bundle: $f needs more than glibc, libstdc++ and libgcc:"
        echo "$out" | sed 's/^/    /'
        bad=1
    fi
done
echo "bundle: $n binaries checked with ldd, $([ $bad -eq 0 ] && echo ok || echo FAILED)"
exit $bad
EOF

cp "$repo/scripts/device-run.sh" "$dev/run.sh"
chmod +x "$dev/run.sh" "$dev/fate/run.sh" "$dev/check-bundle.sh"
"$dev/check-bundle.sh"
# The statically linked binaries share most of their bytes (libvqhip, its
# kernels, the CUDA runtime): one xz archive is a tenth of their size, well
# inside the 64 MB a device call carries. run.sh unpacks it there.
tar -C "$dev" -cf - build fate | xz -6 -T "$JOBS" > "$dev/bundle.tar.xz"
rm -rf "$dev/build" "$dev/fate"
echo "pack-gpu-check: $(du -sh "$dev" | cut -f1) in .device; on the GPU machine: .device/run.sh"
