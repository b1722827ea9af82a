#!/bin/sh
# vqhip_bench --streams counts every stream's frames over one common window.
# On the emulated device each launch takes at least VQHIP_EMU_KERNEL_US and
# launches run one at a time, so the device scores at most as many frames a
# second as one stream that keeps it busy, plus what the host's own work
# per frame (which one stream does between launches) hides: the long
# launches make that a few per cent. N streams together must not report
# more than 1.15 times one stream. Opening a context takes VQHIP_EMU_OPEN_MS, one at
# a time, so streams that start as soon as they are open start apart: a
# sum of per-stream rates over their own windows then counts the device's
# time more than once (each stream ran alone for part of its window).
#   tests/bench/streams_window.sh VQHIP_BENCH
set -u
bench=${1:?usage: streams_window.sh VQHIP_BENCH}
export VQHIP_EMU_KERNEL_US=10000 VQHIP_EMU_OPEN_MS=300
fps() { # fps STREAMS: the "fps (all)" or "fps" column
    "$bench" --backend hip --size 64x48 --feature psnr --seconds 1.5 \
        --streams "$1" |
        awk -v n="$1" '$1 == "64x48" { print (n > 1 ? $(NF - 2) : $(NF - 1)) }'
}
one=$(fps 1) four=$(fps 4) eight=$(fps 8)
echo "emulated device, psnr 64x48, each launch >= ${VQHIP_EMU_KERNEL_US} us:" \
     "1 stream $one fps, 4 streams $four fps, 8 streams $eight fps"
python3 - "$one" "$four" "$eight" <<'PY'
import sys
try:
    one, four, eight = (float(x) for x in sys.argv[1:])
except ValueError:
    sys.exit("FAIL: a run printed no figure")
bad = [n for n, v in ((4, four), (8, eight)) if v > 1.15 * one or v < 0.5 * one]
if bad:
    sys.exit("FAIL: %s streams report a rate the serial device cannot give "
             "(one stream: %.1f fps)" % (bad, one))
print("ok: every figure within the one device's rate")
PY
