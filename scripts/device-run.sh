#!/bin/sh
# GPU verification on a machine without FFmpeg or network, from the bundle
# scripts/pack-gpu-check.sh makes (.device/, carried into the repository root
# there). Runs from the repository root:
#
#   .device/run.sh [checks]      checks: any of the words below (default: all)
#     bundle   the binaries need only glibc, libstdc++ and libgcc (ldd)
#     fate     FATE on the CPU and on the GPU backend (CUDA frames included)
#     tests    GPU tests against the CPU and libvmaf's numbers, layouts and
#              pictures in device memory, the golden test on the GPU,
#              ssimulacra2 against libjxl's scores, device faults
#     parity   checkgpu, the full set (--seed 1; PARITY_ARGS adds arguments,
#              e.g. "--test cambi,ciede")
#     junk     the same with junk in the device planes' pitch padding
#              (VQHIP_PITCH_JUNK=1)
#     digest   checkgpu's quick set with two fills per layout (as the
#              emulated device runs it in CI), writing a hash of every GPU
#              value per configuration to $DIGEST (default digest.txt):
#              compared with the emulated device's, the same kernels must
#              give the same bits on both
#     lent     the same with the pictures lent in device memory
#              (checkgpu --lend: the kernels read the caller's planes,
#              junk in their padding)
#     bench    vqhip_bench on the GPU (every extractor, the models, frames
#              in host, pinned and device memory, several streams) and on
#              the CPU (vmaf_v0.6.1, all cores)
#     soak     20,000 1080p frames on the GPU (scripts/long-run.sh gpu: strict,
#              verify every 100th, RSS and device memory at 1,000 and at
#              the end), and what verify=1, 10, 100 cost (vmaf_v0.6.1)
#     io       the CLI and ffmpeg -lavfi vqhip on raw files against reading
#              the same files (cat; ffmpeg without vqhip); CUDA frames from
#              hwupload, with VQHIP_STATS's byte counts (no plane crosses the
#              host)
#     filter   tests/reliability/filter-check.sh on the GPU backend (the
#              filter's behaviour: errors, framesync, enable=, -frames:v,
#              faults) and tests/reliability/cli-check.sh (the CLI's)
#     ladder   the ladder on the GPU: every rendition's log equal to its
#              pair run's for N = 1, 2, 5 (tests/ladder/check_ladder.py;
#              test_ladder hip, also with a hang part way),
#              and vqhip_ladder_bench (one pass against N pair runs, N = 1,
#              3, 6, 1080p and 4K, vmaf_v0.6.1 and vmaf_v1.0.16_3d0h)
#     live     vqhip_latency on the GPU: arrival to NDJSON line at 1080p25
#              and 2160p25, every frame scored at 1080p25, and how many
#              live 1080p25 streams at once keep every frame scored
#     align    the offset search on the GPU (test_sync_backends: its result
#              = the CPU's; check_align.py with the GPU build; --sync_bench
#              at 1080p and 4K, the luma reduced on the GPU and on the CPU)
#     decode   the CLI's --hwdec cuda (NVDEC) against software decoding: an
#              8-bit H.264 pair, a 10-bit HEVC pair, a ladder of three
#              renditions and their pair runs, logs equal, wall times
#              (tests/avinput/check_hwdec.sh)
#     item     plan / run-item / merge with the GPU build
#              (tests/catalog/catalog_test.py: merged logs equal one run's)
#     cpu      the CPU path against libvmaf's vmaf tool on 1 thread and all
#              cores, 1080p and 4K (scripts/cpu-vs-libvmaf.sh), when
#              LIBVMAF names a libvmaf build carried there (never part of
#              the bundle); not in the default set
#
# Ends with a table: one line per check, ok or FAILED. Exit 0 when all
# passed, 1 otherwise, 77 when no GPU is present (then nothing GPU ran).
cd "$(dirname "$0")/.." || exit 1
D=.device
if [ ! -d $D/build ]; then
    command -v xz >/dev/null || { echo "run.sh: xz is needed to unpack the bundle"; exit 1; }
    xz -dc $D/bundle.tar.xz | tar -C $D -xf - || exit 1
fi
B=$D/build
T=$B/tests
[ $# -gt 0 ] || set -- bundle fate filter tests parity digest junk ladder live align decode item bench soak io
summary=$(mktemp)
fail=0

record() { # record NAME RC SECONDS
    if [ "$2" -eq 0 ]; then r=ok; else r="FAILED (exit $2)"; fail=1; fi
    printf '%-34s %-18s %5s s\n' "$1" "$r" "$3" >> "$summary"
}

check() { # check NAME COMMAND...
    name=$1
    shift
    echo
    echo "== $name"
    t0=$(date +%s)
    "$@"
    rc=$?
    record "$name" "$rc" $(( $(date +%s) - t0 ))
    return $rc
}

wants() { for w in $selected; do [ "$w" = "$1" ] && return 0; done; return 1; }
selected="$*"

echo "== machine"
nvidia-smi -L 2>/dev/null || echo "nvidia-smi: not found"
grep -m1 'model name' /proc/cpuinfo
echo "cores: $(nproc)"

if wants bundle; then
    check "bundle (ldd)" $D/check-bundle.sh
fi
$T/checkgpu --device
gpu=$?
if [ "$gpu" -eq 77 ]; then
    echo "run.sh: no GPU present: the GPU checks were not run"
    cat "$summary"
    [ "$fail" -eq 0 ] && exit 77
    exit 1
fi
record "GPU present and opens" "$gpu" 0

if wants fate; then
    $D/fate/build/ffmpeg -hide_banner -version | head -n 1
    check "FATE, CPU backend" $D/fate/run.sh cpu
    check "FATE, GPU backend (+CUDA frames)" $D/fate/run.sh hip
fi

if wants filter; then
    check "filter checks, GPU backend" env VQHIP_MODEL_DIR="$PWD/models" \
        tests/reliability/filter-check.sh $D/fate/build/ffmpeg --gpu
    # the CLI's checks; its fault and skipped-plane cases then run on the
    # real GPU (VQHIP_FAKE_GPU means nothing to a build with a platform)
    check "CLI checks, GPU backend" env VQHIP_MODEL_DIR="$PWD/models" \
        tests/reliability/cli-check.sh $B/tools/vqhip
fi

if wants tests; then
    check "layouts, device pictures" $T/layout_test --gpu
    check "integer motion vs libvmaf" $T/motion_test --gpu
    check "integer vif vs libvmaf" $T/vif_libvmaf --gpu
    check "integer adm GPU=CPU" $T/adm_check
    check "vif records byte for byte" $T/acc_parity --feature vif
    check "cambi vs libvmaf" $T/cambi_libvmaf --backend hip
    check "cambi records, 4K" $T/acc_parity \
        --feature name=cambi:full_ref=true --size 3840x2160 --fill smooth \
        --frames 2 --bench 20
    check "SpEED vs libvmaf" $T/speed_test $T/speed_model.json --backend hip
    check "motion_v2 SAD = motion SAD" $T/motion_v2_test --backend hip
    # The golden clips that travel (the big ones stay behind: 64 MB limit).
    gdir=$D/golden
    clips=$(mktemp -d)
    for f in "$gdir"/clips/*.gz; do
        gzip -dc "$f" > "$clips/$(basename "$f" .gz)"
    done
    for c in g01 g06 g07 g08; do
        check "golden $c on the GPU" $T/golden_check "$gdir" "$clips" \
            --clip "$c" --backend hip --caveats "$gdir/repo-caveats.tsv" \
            --extra "$gdir/ref"
    done
    # ssimulacra2 on the GPU against libjxl's scores (and the CPU's bits)
    cp "$gdir/manifest.tsv" "$clips/"
    for c in g01 g06 g07 g08; do
        check "ssimulacra2 $c on the GPU" $T/s2_golden "$gdir" "$clips" \
            "$gdir/ssimulacra2_libjxl.tsv" --backend hip --clip "$c"
    done
    rm -rf "$clips"
    # device faults on the real GPU: fallback to the CPU, strict, verify
    check "GPU faults, fallback, verify" $T/test_faults --gpu
    # device pictures read in place: scores, release, faults
    check "lent device pictures" $T/test_device_lent --gpu
    # samples above the bit depth in device pictures: the host picture's
    # refusal and message, found by the range kernel
    check "device pictures, samples out of range" env VQHIP_MODEL_DIR="$PWD/models" \
        $T/test_sample_range_device --gpu
fi

if wants parity; then
    # shellcheck disable=SC2086 # PARITY_ARGS is a list of arguments
    check "parity (checkgpu full set)" $T/checkgpu --seed 1 ${PARITY_ARGS:-}
fi

if wants junk; then
    # Again with junk in every device plane's pitch padding: a kernel that
    # reads past a row's samples then differs from the CPU.
    # shellcheck disable=SC2086 # PARITY_ARGS is a list of arguments
    check "parity, junk in pitch padding" env VQHIP_PITCH_JUNK=1 \
        $T/checkgpu --seed 1 ${PARITY_ARGS:-}
fi

if wants digest; then
    check "parity digest (quick, 2 fills)" $T/checkgpu --quick --seed 1 \
        --fills 2 --digest "${DIGEST:-digest.txt}"
fi

if wants lent; then
    # shellcheck disable=SC2086 # PARITY_ARGS is a list of arguments
    check "parity, device pictures lent" $T/checkgpu --seed 1 --lend \
        ${PARITY_ARGS:-}
fi

if wants ladder; then
    # the library's ladder with the automatic backend (the GPU here)
    check "ladder = pair runs (library, GPU)" $T/test_ladder
    # the reference staged once per frame for every rendition on the GPU,
    # and a device hang part way (the renditions fall back to the CPU)
    check "ladder = pair runs (library, GPU backend)" $T/test_ladder hip
    check "ladder = pair runs (GPU hang at frame 3)" \
        env VQHIP_FAULT=hang@3 VQHIP_GPU_TIMEOUT=0.5 $T/test_ladder hip
    check "ladder = pair runs on the GPU (N = 1, 2, 5)" \
        env VQHIP_TEST_BACKEND=hip python3 tests/ladder/check_ladder.py \
        $B/tools/vqhip "$(mktemp -d)"
    for size in 1920x1080 3840x2160; do
        check "ladder bench, $size" $B/tools/vqhip_ladder_bench --backend auto \
            --size $size --frames "${LADDER_FRAMES:-120}" \
            --model vmaf_v0.6.1 --model vmaf_v1.0.16_3d0h
    done
fi

if wants live; then
    lat=$B/tools/vqhip_latency
    check "live latency, 1080p25" $lat --backend hip --size 1920x1080 --fps 25 --seconds 10
    check "live latency, 2160p25" $lat --backend hip --size 3840x2160 --fps 25 --seconds 10
    check "every frame scored, 1080p25" $lat --backend hip --size 1920x1080 \
        --fps 25 --seconds 10 --no-live
    # live streams at once: the coverage says whether every frame was scored
    for n in ${LIVE_STREAMS:-16 32 48 64}; do
        check "$n live 1080p25 streams" $lat --backend hip --size 1920x1080 \
            --fps 25 --seconds "${LIVE_SECONDS:-8}" --streams "$n"
    done
fi

if wants align; then
    check "offset search, GPU reduction = CPU's" $T/test_sync_backends
    check "offset search (check_align.py), GPU build" \
        python3 tests/align/check_align.py $B/tools/vqhip "$(mktemp -d)"
    ff=$D/fate/build/ffmpeg
    dir=$(mktemp -d)
    sync_one() { # sync_one SIZE: 90 frames, the distorted 7 frames later
        src="testsrc2=s=$1:r=25:d=3.6"
        $ff -nostdin -v error -f lavfi -i "$src" -pix_fmt yuv420p -f rawvideo \
            -y "$dir/ref.yuv" &&
        $ff -nostdin -v error -f lavfi -i "$src,trim=start_frame=7,noise=alls=8:allf=t" \
            -pix_fmt yuv420p -f rawvideo -y "$dir/dis.yuv" || return 1
        w=${1%x*} h=${1#*x}
        $B/tools/vqhip -r "$dir/ref.yuv" -d "$dir/dis.yuv" -w "$w" -h "$h" \
            -p 420 -b 8 --backend hip --sync only &&
        $B/tools/vqhip -r "$dir/ref.yuv" -d "$dir/dis.yuv" -w "$w" -h "$h" \
            -p 420 -b 8 --backend hip --sync only --sync_bench 5 &&
        $B/tools/vqhip -r "$dir/ref.yuv" -d "$dir/dis.yuv" -w "$w" -h "$h" \
            -p 420 -b 8 --backend cpu --sync only --sync_bench 5
    }
    check "offset search cost, 1080p" sync_one 1920x1080
    check "offset search cost, 2160p" sync_one 3840x2160
    rm -rf "$dir"
fi

if wants decode; then
    check "NVDEC decoding = software decoding" tests/avinput/check_hwdec.sh \
        $B/tools/vqhip $D/decode "$(mktemp -d)"
fi

if wants item; then
    check "work items and merge, GPU build" python3 tests/catalog/catalog_test.py \
        $B/tools/vqhip "$PWD/models" "$(mktemp -d)"
    # one item's whole cost on a GPU node (start-up included): 25 1080p
    # frames scored by `run-item` on the GPU and on the CPU
    item_startup() {
        dir=$(mktemp -d) vq=$PWD/$B/tools/vqhip
        ff=$D/fate/build/ffmpeg
        src=testsrc2=s=1920x1080:r=25:d=1
        $ff -nostdin -v error -f lavfi -i $src -pix_fmt yuv420p -y "$dir/ref.y4m" &&
        $ff -nostdin -v error -f lavfi -i "$src,gblur=sigma=1.5" -pix_fmt yuv420p \
            -y "$dir/dis.y4m" || return 1
        printf 'gpu\tref.y4m\tdis.y4m\tg.json\t--json --backend hip\n' > "$dir/m.tsv"
        printf 'cpu\tref.y4m\tdis.y4m\tc.json\t--json --backend cpu\n' >> "$dir/m.tsv"
        (cd "$dir" && "$vq" plan m.tsv --out p) || return 1
        # (not t0: check's own variable; sh has no local ones)
        for i in 0 1; do
            i0=$(date +%s.%N)
            (cd "$dir" && "$vq" run-item p --index $i) || return 1
            echo "run-item $i ($(sed -n "$((i + 1))p" "$dir/m.tsv" | cut -f1) backend): $(echo "$(date +%s.%N) $i0" | awk '{ printf "%.2f", $1 - $2 }') s"
        done
        rm -rf "$dir"
    }
    check "work item start-up, 25 1080p frames" item_startup
fi

if wants bench; then
    s=${BENCH_SECONDS:-1}
    check "bench: every extractor, GPU" $B/tools/vqhip_bench --backend hip \
        --size 1920x1080 --size 3840x2160 --seconds "$s"
    for input in host pinned device lent; do
        check "bench: models, $input frames" $B/tools/vqhip_bench \
            --backend hip --input $input --size 1920x1080 --size 3840x2160 \
            --seconds "$s" --model version=vmaf_v0.6.1 \
            --model version=vmaf_float_v0.6.1 \
            --model version=vmaf_v1.0.16_3d0h
    done
    for n in 8 32 64; do
        check "bench: $n streams of 1080p" $B/tools/vqhip_bench \
            --backend hip --streams $n --size 1920x1080 --seconds 2 \
            --model version=vmaf_v0.6.1
    done
    # 10-bit pictures in device memory: the range check on the GPU
    for bpc in 8 10; do
        check "bench: vmaf_v0.6.1, lent $bpc-bit frames" $B/tools/vqhip_bench \
            --backend hip --input lent --bpc $bpc --size 1920x1080 \
            --size 3840x2160 --seconds "$s" --model version=vmaf_v0.6.1
    done
    check "bench: CPU, all cores" $B/tools/vqhip_bench --backend cpu \
        --size 1920x1080 --seconds 2 --model version=vmaf_v0.6.1
fi

if wants cpu; then
    if [ -x "${LIBVMAF:-}" ]; then
        ff=$D/fate/build/ffmpeg
        dir=/dev/shm/vqhip-cpu
        mkdir -p "$dir"
        cpu_one() { # cpu_one SIZE FRAMES THREADS
            w=${1%x*} h=${1#*x}
            src="testsrc2=s=$1:r=24:d=$(( $2 / 24 ))"
            [ -f "$dir/ref$1-$2.yuv" ] ||
                { $ff -nostdin -v error -f lavfi -i "$src" -pix_fmt yuv420p \
                      -f rawvideo -y "$dir/ref$1-$2.yuv" &&
                  $ff -nostdin -v error -f lavfi \
                      -i "$src,gblur=sigma=1.2,noise=alls=12:allf=t" \
                      -pix_fmt yuv420p -f rawvideo -y "$dir/dis$1-$2.yuv"; } || return 1
            VQHIP=$B/tools/vqhip scripts/cpu-vs-libvmaf.sh "$LIBVMAF" \
                "$dir/ref$1-$2.yuv" "$dir/dis$1-$2.yuv" "$w" "$h" "$3" 3 \
                --model version=vmaf_v0.6.1
        }
        n=$(nproc)
        check "CPU vs libvmaf: 1080p, 1 thread" cpu_one 1920x1080 48 1
        check "CPU vs libvmaf: 1080p, $n threads" cpu_one 1920x1080 240 "$n"
        check "CPU vs libvmaf: 4K, 1 thread" cpu_one 3840x2160 24 1
        check "CPU vs libvmaf: 4K, $n threads" cpu_one 3840x2160 96 "$n"
        rm -rf "$dir"
    else
        echo "cpu: LIBVMAF names no libvmaf vmaf tool: not run"
    fi
fi

if wants soak; then
    check "long run: 20,000 1080p frames, GPU" scripts/long-run.sh gpu $B 20000
    for n in 0 1 10 100; do
        check "bench: vmaf_v0.6.1, verify=$n" $B/tools/vqhip_bench \
            --backend hip --size 1920x1080 --seconds "${BENCH_SECONDS:-1}" \
            --model version=vmaf_v0.6.1 --verify $n
    done
fi

if wants io; then
    # Raw files in memory; wall-clock time of each reader of the same files.
    ff=$D/fate/build/ffmpeg
    dir=/dev/shm/vqhip-io
    mkdir -p "$dir"
    timeit() { t0=$(date +%s.%N); "$@" >/dev/null 2>&1; rc=$?
               awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { print b - a }'
               return $rc; }
    io_one() { # io_one SIZE FRAMES
        size=$1 n=$2
        src="testsrc2=size=$size:rate=25:duration=$((n / 25))"
        $ff -nostdin -v error -lavfi "$src,format=yuv420p" -f rawvideo -y "$dir/ref.yuv" &&
        $ff -nostdin -v error -lavfi "$src,format=yuv420p,avgblur=2" -f rawvideo -y "$dir/dis.yuv" ||
            return 1
        w=${size%x*} h=${size#*x}
        raw="-f rawvideo -pix_fmt yuv420p -s $size"
        # ffmpeg reading both files, or scoring them, each read $1 + 1 times
        ff_read() { $ff -nostdin -stream_loop "$1" $raw -i "$dir/ref.yuv" \
                        -stream_loop "$1" $raw -i "$dir/dis.yuv" \
                        -map 0:v -map 1:v -f null -; }
        ff_vqhip() { $ff -nostdin -stream_loop "$1" $raw -i "$dir/dis.yuv" \
                         -stream_loop "$1" $raw -i "$dir/ref.yuv" \
                         -lavfi "[0:v][1:v]vqhip=backend=hip:strict=1" -f null -; }
        # IO_ROUNDS rounds (default 3), interleaved; each figure is the
        # median over the rounds. The runs over the files read L + 1 times
        # (-stream_loop L, L = IO_LOOPS, default 4) give the steady state:
        # minus the single pass of the same round, start-up (the CUDA
        # runtime's ~0.3 s, VQHIP_STATS shows) cancels.
        rounds=${IO_ROUNDS:-3} loops=${IO_LOOPS:-4}
        cli() { $B/tools/vqhip -r "$dir/ref.yuv" -d "$dir/dis.yuv" \
                -w "$w" -h "$h" -p 420 -b 8 -q --backend hip --strict "$@"; }
        rows=$dir/rows
        : > "$rows"
        round=0
        while [ "$round" -lt "$rounds" ]; do
            round=$((round + 1))
            tc=$(timeit cat "$dir/ref.yuv" "$dir/dis.yuv")
            # VMAF reads luma only: the CLI skips the chroma planes
            tv=$(timeit cli) || return 1
            tz=$(timeit cli --zero-copy) || return 1
            # psnr reads every plane: the CLI reads what cat reads
            ta=$(timeit cli --feature psnr) || return 1
            tr=$(timeit ff_read 0)
            tf=$(timeit ff_vqhip 0) || return 1
            trl=$(timeit ff_read "$loops")
            tfl=$(timeit ff_vqhip "$loops") || return 1
            echo "$tc $tv $tz $ta $tr $tf $trl $tfl" >> "$rows"
        done
        # per round: rates, then the medians
        awk -v n="$n" -v L="$loops" -v size="$size" '
            function med(col,   k, m, v, i, j, t) {
                m = 0
                for (k = 1; k <= NR; k++) v[++m] = a[k, col]
                for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++)
                    if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
                return m % 2 ? v[(m + 1) / 2] : (v[m / 2] + v[m / 2 + 1]) / 2
            }
            { for (c = 1; c <= 8; c++) a[NR, c] = $c
              a[NR, 9] = $1 / $2; a[NR, 10] = $1 / $3; a[NR, 11] = $1 / $4
              a[NR, 12] = $5 / $6
              a[NR, 13] = n * L / ($7 - $5); a[NR, 14] = n * L / ($8 - $6)
              a[NR, 15] = ($7 - $5) / ($8 - $6)
              printf "%s round %d: cat %.0f, CLI %.0f, --zero-copy %.0f, psnr %.0f;" \
                     " ffmpeg reading %.0f, vqhip %.0f; steady reading %.0f, vqhip %.0f fps\n",
                     size, NR, n / $1, n / $2, n / $3, n / $4, n / $5, n / $6,
                     a[NR, 13], a[NR, 14] }
            END {
              printf "%s, %d frames (medians of %d rounds): cat %.0f fps, CLI %.0f fps" \
                     " (%.2f of cat), with --zero-copy %.2f of cat, psnr (every plane" \
                     " read) %.2f of cat; ffmpeg reading %.0f fps, ffmpeg -lavfi vqhip" \
                     " %.0f fps (%.2f of reading)\n", size, n, NR, n / med(1),
                     n / med(2), med(9), med(10), med(11), n / med(5), n / med(6),
                     med(12)
              printf "%s, steady state (frames %d..%d): ffmpeg reading %.0f fps," \
                     " ffmpeg -lavfi vqhip %.0f fps (%.2f of reading)\n", size, n,
                     (L + 1) * n, med(13), med(14), med(15) }' "$rows"
        # where the filter's time goes in a steady-state run
        VQHIP_STATS=1 ff_vqhip "$loops" 2>&1 | grep 'vqhip stats: [0-9]'
    }
    # What a run costs before its first frame: vqhip (GPU context, kernels,
    # staging) against FFmpeg's own psnr filter, one small frame each.
    startup() {
        one="testsrc2=s=64x64:d=0.04"
        tq=$(timeit $ff -nostdin -f lavfi -i "$one" -f lavfi -i "$one" \
             -lavfi "[0:v][1:v]vqhip=backend=hip:strict=1" -f null -) || return 1
        tp=$(timeit $ff -nostdin -f lavfi -i "$one" -f lavfi -i "$one" \
             -lavfi "[0:v][1:v]psnr" -f null -)
        echo "one 64x64 frame: ffmpeg with vqhip ${tq} s, with psnr ${tp} s"
        # where vqhip's start-up goes, with the runtime's module loading
        # lazy (CUDA's default) and eager
        for m in "" LAZY EAGER; do
            VQHIP_STATS=1 CUDA_MODULE_LOADING=$m $ff -nostdin -f lavfi -i "$one" \
                -f lavfi -i "$one" -lavfi "[0:v][1:v]vqhip=backend=hip:strict=1" \
                -f null - 2>&1 | grep 'start-up' | sed "s/^/${m:-default}: /"
        done
        t=$(timeit $B/tools/vqhip --help)
        echo "the CLI's --help (no GPU opened): $t s"
    }
    check "io: start-up" startup
    check "io: 1080p raw files" io_one 1920x1080 1500
    check "io: 4K raw files" io_one 3840x2160 400
    # Frames uploaded once by FFmpeg (hwupload), scored from device memory:
    # the byte counts of VQHIP_STATS show that no plane crosses to or from
    # the host inside vqhip.
    cuda_one() { # cuda_one SIZE FRAMES
        src="testsrc2=size=$1:rate=25:duration=$(($2 / 25)),format=yuv420p"
        VQHIP_STATS=1 $ff -nostdin -v error -init_hw_device cuda=gpu \
            -filter_hw_device gpu -f lavfi -i "$src,avgblur=2" -f lavfi -i "$src" \
            -lavfi "[0]hwupload[d];[1]hwupload[r];[d][r]vqhip=backend=hip:strict=1" \
            -f null - 2>&1 | grep 'vqhip stats' > "$dir/cuda.txt"
        cat "$dir/cuda.txt"
        grep -q 'planes host to device 0, device to device [0-9]*, device to host 0;' \
            "$dir/cuda.txt"
    }
    check "io: CUDA frames, no host copy (1080p)" cuda_one 1920x1080 250
    rm -rf "$dir"
fi

echo
echo "== summary"
cat "$summary"
rm -f "$summary"
[ "$fail" -eq 0 ] && echo "run.sh: all passed" || echo "run.sh: FAILED"
exit "$fail"
