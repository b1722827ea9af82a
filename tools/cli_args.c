/* The CLI's usage text and the argument checks done before a run. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_args.h"
#include "cli_input.h"

void cli_usage(FILE *f)
{
    fprintf(f,
        "usage: vqhip -r REF -d DIS [-d DIS2 ...] [options]\n"
        "  -r, --reference FILE   reference video: .yuv raw, .y4m ('-' = stdin), or\n"
        "                         a file FFmpeg reads (MP4, MKV ...; see below)\n"
        "  -d, --distorted FILE   distorted video; several: a ladder, all scored\n"
        "                         against REF in one pass (-o must then hold %%d or\n"
        "                         %%s: the rendition's number or label) (docs/LADDER.md)\n"
        "  -w, --width N          raw input width\n"
        "  -h, --height N         raw input height\n"
        "  -p, --pixel_format F   raw input format: 420, 422, 444, 400\n"
        "  -b, --bitdepth N       raw input bits per sample: 8, 10, 12, 16\n"
        "      --hwdec MODE       decode video files on hardware: none (default),\n"
        "                         auto (where it opens, else software), cuda, vaapi ...\n"
        "      --feature SPEC     e.g. psnr, psnr=enable_chroma=false (libvmaf's tool)\n"
        "                         or name=psnr:enable_chroma=false (repeatable)\n"
        "      --model SPEC       e.g. version=vmaf_v0.6.1 or path=m.json:name=m (repeatable)\n"
        "      --no_prediction    no model (default: version=vmaf_v0.6.1 when no --feature)\n"
        "      --backend B        auto (default), hip, cpu\n"
        "      --device N         GPU index\n"
        "      --strict           fail instead of falling back to the CPU\n"
        "      --depth N          GPU frames in flight\n"
        "      --threads N        CPU worker threads (0: one per core; at most 1024)\n"
        "      --subsample N      compute non-temporal features every N frames\n"
        "      --frame_cnt N      stop after N frames\n"
        "      --offset N         skip the distorted video's first N frames (N < 0:\n"
        "                         the reference's first -N) (docs/ALIGNMENT.md)\n"
        "      --sync auto|only   find that offset from the first frames' luma and\n"
        "                         score with it (only: print it and exit)\n"
        "      --sync_range N     offsets -N..N (default 30)\n"
        "      --sync_frames N    frames compared at each offset (default 30)\n"
        "      --sync_bench N     time N searches, for the search's cost\n"
        "      --realign          find frames dropped or repeated mid-stream and pair\n"
        "                         the later frames again (docs/ALIGNMENT.md)\n"
        "      --realign_window N pairs that must agree before re-aligning (default 3)\n"
        "      --zero-copy        read frames into pinned memory the GPU reads in place\n"
        "                         (faster; a GPU fault with frames in flight then ends the run)\n"
        "      --verify N         also compute every N-th GPU frame on the CPU and compare\n"
        "      --hold_mb N        open the GPU while the first frames are read: up to N MiB\n"
        "                         of them wait for it (default 0: open it before reading)\n"
        "      --window N|Ts      statistics of windows of N frames or T seconds\n"
        "                         (e.g. 50, 2s): printed as they close, in the log\n"
        "      --window_stats L   the windows' statistics, '|'-separated (default\n"
        "                         mean|min|max): mean min max harmonic_mean median\n"
        "                         percP (numpy.percentile, e.g. perc5) belowT\n"
        "      --thresholds L     numbers, '|'-separated: each T adds belowT (share\n"
        "                         of the frames below T)\n"
        "      --fps N[/D]        frame rate for windows of seconds (default: the\n"
        "                         Y4M header's)\n"
        "      --pool L           the run's statistics (e.g. mean|perc5|min): in the\n"
        "                         summary and added to the log's pooled metrics\n"
        "      --prom-file F      Prometheus text format file (node_exporter's\n"
        "                         textfile collector), replaced at each window\n"
        "                         and at the end\n"
        "      --prom-labels L    labels of its samples: job=enc|instance=ch5\n"
        "      --alert RULES      alerts, e.g. 'vmaf.mean<70 for 3 clear>75' (a window\n"
        "                         statistic) or 'vmaf<30 for 5' (frames); ';' or '|'\n"
        "                         between rules; repeatable (docs/LIVE.md)\n"
        "      --stats-url URL    NDJSON stats stream: a file, - or pipe:1 (stdout),\n"
        "                         udp://HOST:PORT, tcp://HOST:PORT\n"
        "      --stats-frames     also a stream line per frame\n"
        "      --live             never hold the input back for the scores: a pair that\n"
        "                         arrives while --depth frames are in flight is not\n"
        "                         scored (temporal features only) (docs/LIVE.md)\n"
        "      --realtime FPS     take frames no faster than FPS (a file read as a\n"
        "                         live source)\n"
        "  -o, --output FILE      log file (a ladder: e.g. log_%%s.json, one a rendition)\n"
        "      --xml | --json | --csv | --sub   log format (default xml)\n"
        "      --precision N|max  log values with N significant digits (1-17; max,\n"
        "                         17, is exact); default (0): libvmaf's %%.6f\n"
        "      --verify-log LOG   re-run the frames of a vqhip JSON log with the models,\n"
        "                         options, subsampling and precision it records and\n"
        "                         compare every value (give -r, -d and the raw geometry)\n"
        "  -q, --quiet            no per-frame lines\n"
        "      --list             list the features and their options\n"
        "      --help | --version\n"
        "exit status: 0 scored, 1 error while scoring or writing the log, or\n"
        "--stats-url cannot be opened, 2 bad option (an alert rule, a URL), 3\n"
        "unreadable input, 4 unsupported feature, model or format, 5 GPU\n"
        "failure with --strict, 6 --verify-log found a difference, 128+N\n"
        "stopped by signal N (docs/CLI.md)\n");
    cli_input_about(f);
}

/* A whole decimal number in [min, max], or a message and -1. */
int cli_parse_uint(const char *opt, const char *arg, unsigned long min,
                      unsigned long max, unsigned *out)
{
    char *end;
    errno = 0;
    unsigned long v = strtoul(arg, &end, 10);
    if (!*arg || *end || errno || arg[0] == '-' || arg[0] == '+' ||
        v < min || v > max) {
        fprintf(stderr, "vqhip: %s: '%s' is not a number from %lu to %lu\n",
                opt, arg, min, max);
        return -1;
    }
    *out = (unsigned)v;
    return 0;
}

/* The log can be written and is not an input (checked before the run, not
 * after it). */
int cli_check_log_path(const char *path, const char *ref, const char *dis)
{
    const char *inputs[] = { ref, dis };
    char msg[1024];
    if (vq_check_log_path(path, inputs, 2, msg, sizeof(msg))) {
        fprintf(stderr, "vqhip: %s\n", msg);
        return -1;
    }
    return 0;
}

/* A failed run that wrote no log leaves none at its path: an earlier run's
 * log there would look like this one's (docs/LOGS.md). */
void cli_discard_log(const char *path)
{
    int r = path ? vq_discard_log(path) : 0;
    if (r > 0)
        fprintf(stderr, "vqhip: removed the earlier log '%s': this run wrote "
                "none\n", path);
    else if (r < 0)
        fprintf(stderr, "vqhip: warning: could not remove the earlier log "
                "'%s': it is not this run's\n", path);
}

/* Whether the log goes where the summary would: standard output, by name
 * ("-") or as the same file. */
int cli_log_on_stdout(const char *path)
{
    struct stat a, b;
    if (!path)
        return 0;
    if (!strcmp(path, "-"))
        return 1;
    return !fstat(STDOUT_FILENO, &a) && !stat(path, &b) &&
           a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

int cli_exit_code(int vq_err)
{
    switch (vq_err) {
    case 0: return CLI_EXIT_OK;
    case VQ_EUNSUPPORTED:
    case VQ_ENOTFOUND:
    case VQ_EMODEL: return CLI_EXIT_UNSUPPORTED;
    case VQ_EDEVICE: return CLI_EXIT_GPU;
    default: return CLI_EXIT_ERROR;
    }
}

/* libvmaf's tool writes a feature as NAME=key=value:key=value, the library
 * and the filter as name=NAME:key=value (or NAME:key=value); both work. */
int cli_use_feature(VqContext *ctx, const char *spec)
{
    const char *eq = strchr(spec, '='), *colon = strchr(spec, ':');
    if (!eq || (colon && colon < eq) || !strncmp(spec, "name=", 5))
        return vq_use_feature(ctx, spec);
    char buf[2048];
    int n = snprintf(buf, sizeof(buf), "name=%.*s:%s", (int)(eq - spec), spec,
                     eq + 1);
    if (n < 0 || (size_t)n >= sizeof(buf)) {
        fprintf(stderr, "vqhip: feature spec too long: %s\n", spec);
        return VQ_EINVAL;
    }
    return vq_use_feature(ctx, buf);
}
