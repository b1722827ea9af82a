/*
 * vqhip: scores a distorted video against its reference from raw YUV, Y4M
 * or (built with FFmpeg's libraries) other video files, like libvmaf's `vmaf` tool, and writes libvmaf-style logs.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "catalog.h"
#include "cli_align.h"
#include "cli_args.h"
#include "cli_ladder.h"
#include "cli_live.h"
#include "cli_run.h"
#include "cli_stats.h"
#include "frame_reader.h"
#include "verify_log.h"
#include "vqhip.h"
#include "cli_input.h"
#include "yuv_input.h"

#define MAX_SPECS VERIFY_MAX_SPECS

/* Frame buffers the GPU uploads from directly (--zero-copy), or plain. */
static void *host_alloc(void *ctx, size_t size)
{
    void *p = vq_host_alloc(ctx, size);
    if (p)
        memset(p, 0, size);
    return p;
}
static void host_free(void *ctx, void *p) { vq_host_free(ctx, p); }
/* zeroed: the planes a reader skips stay zero, never stale */

/* A frame pair lent to libvqhip (vq_submit_retained), given back to the
 * readers when libvqhip is done with it, possibly from one of its
 * threads and out of order. */
typedef struct GiveBack {
    FrameReader *ref, *dis;
    unsigned seq[2]; /* each reader's (--realign: they differ) */
} GiveBack;

static void give_back(void *opaque)
{
    GiveBack *gb = opaque;
    frame_reader_give_back(gb->ref, gb->seq[0]);
    frame_reader_give_back(gb->dis, gb->seq[1]);
}

static void print_frame(FILE *out, const VqFrameScores *fs, int skipped)
{
    fprintf(out, "frame %u%s:", fs->index, skipped ? " (not scored)" : "");
    for (unsigned i = 0; i < fs->n; i++)
        fprintf(out, " %s=%f", fs->scores[i].name, fs->scores[i].value);
    fprintf(out, "\n");
}

static int drain(VqContext *ctx, int quiet, FILE *out, CliLive *lv)
{
    VqFrameScores fs;
    int r;
    while ((r = vq_receive(ctx, &fs)) == 0) {
        int skipped = cli_live_was_skipped(lv, fs.index);
        if (!quiet)
            print_frame(out, &fs, skipped);
        cli_print_windows(ctx, out);
        cli_print_alerts(ctx);
    }
    cli_print_windows(ctx, out); /* the last one closes at VQ_EOF */
    cli_print_alerts(ctx);
    return r == VQ_EAGAIN || r == VQ_EOF ? 0 : r;
}

int main(int argc, char **argv)
{
    /* vqhip plan | run-item | merge: the catalog verbs (docs/SCALE.md) */
    if (argc > 1 && !strcmp(argv[1], "plan"))
        return catalog_plan_main(argc - 1, argv + 1);
    if (argc > 1 && !strcmp(argv[1], "run-item"))
        return catalog_item_main(argc - 1, argv + 1);
    if (argc > 1 && !strcmp(argv[1], "merge"))
        return catalog_merge_main(argc - 1, argv + 1);
    const char *ref_path = NULL, *dis_path = NULL, *log_path = NULL;
    const char *dis_paths[VQ_LADDER_MAX];
    unsigned n_dis = 0;
    const char *verify_log = NULL;
    int backend_given = 0;
    const char *features[MAX_SPECS], *models[MAX_SPECS];
    unsigned n_features = 0, n_models = 0, w = 0, h = 0, bpc = 8;
    unsigned frame_cnt = 0, precision = 0;
    int quiet = 0, no_prediction = 0, zero_copy = 0;
    VqPixFmt fmt = VQ_PIX_FMT_420;
    VqLogFmt log_fmt = VQ_LOG_XML;
    VqConfig cfg = vq_default_config();

    enum { O_FEATURE = 256, O_MODEL, O_NOPRED, O_BACKEND, O_DEVICE, O_STRICT,
           O_DEPTH, O_THREADS, O_SUB, O_FRAMES, O_XML, O_JSON, O_CSV, O_SUBFMT,
           O_LIST, O_HELP, O_VERIFY, O_ZEROCOPY, O_HOLD, O_WINDOW, O_WSTATS,
           O_THRESH, O_FPS, O_POOL, O_PRECISION, O_VERIFY_LOG, O_ALIGN, O_PROM,
           O_PROM_LABELS, O_ALERT, O_STATS_URL, O_STATS_FRAMES, O_LIVE,
           O_VERSION };
    CliAlign align = { 0 };
    CliStats st = { 0 };
    CliLive lv = { 0 };
    static const struct option longopts[] = {
        { "reference", required_argument, NULL, 'r' },
        { "distorted", required_argument, NULL, 'd' },
        { "width", required_argument, NULL, 'w' },
        { "height", required_argument, NULL, 'h' },
        { "pixel_format", required_argument, NULL, 'p' },
        { "bitdepth", required_argument, NULL, 'b' },
        { "output", required_argument, NULL, 'o' },
        { "quiet", no_argument, NULL, 'q' },
        { "feature", required_argument, NULL, O_FEATURE },
        { "model", required_argument, NULL, O_MODEL },
        { "no_prediction", no_argument, NULL, O_NOPRED },
        { "backend", required_argument, NULL, O_BACKEND },
        { "device", required_argument, NULL, O_DEVICE },
        { "strict", no_argument, NULL, O_STRICT },
        { "depth", required_argument, NULL, O_DEPTH },
        { "threads", required_argument, NULL, O_THREADS },
        { "subsample", required_argument, NULL, O_SUB },
        { "frame_cnt", required_argument, NULL, O_FRAMES },
        { "xml", no_argument, NULL, O_XML },
        { "json", no_argument, NULL, O_JSON },
        { "csv", no_argument, NULL, O_CSV },
        { "sub", no_argument, NULL, O_SUBFMT },
        { "verify", required_argument, NULL, O_VERIFY },
        { "zero-copy", no_argument, NULL, O_ZEROCOPY },
        { "hold_mb", required_argument, NULL, O_HOLD },
        { "window", required_argument, NULL, O_WINDOW },
        { "window_stats", required_argument, NULL, O_WSTATS },
        { "thresholds", required_argument, NULL, O_THRESH },
        { "fps", required_argument, NULL, O_FPS },
        { "pool", required_argument, NULL, O_POOL },
        { "prom-file", required_argument, NULL, O_PROM },
        { "prom-labels", required_argument, NULL, O_PROM_LABELS },
        { "precision", required_argument, NULL, O_PRECISION },
        { "verify-log", required_argument, NULL, O_VERIFY_LOG },
        { "offset", required_argument, NULL, O_ALIGN },
        { "sync", required_argument, NULL, O_ALIGN },
        { "sync_range", required_argument, NULL, O_ALIGN },
        { "sync_frames", required_argument, NULL, O_ALIGN },
        { "sync_bench", required_argument, NULL, O_ALIGN },
        { "realign", no_argument, NULL, O_ALIGN },
        { "realign_window", required_argument, NULL, O_ALIGN },
        { "alert", required_argument, NULL, O_ALERT },
        { "stats-url", required_argument, NULL, O_STATS_URL },
        { "stats-frames", no_argument, NULL, O_STATS_FRAMES },
        { "live", no_argument, NULL, O_LIVE },
        { "realtime", required_argument, NULL, O_LIVE },
        { "list", no_argument, NULL, O_LIST },
        { "help", no_argument, NULL, O_HELP },
        { "version", no_argument, NULL, O_VERSION },
        { NULL, 0, NULL, 0 },
    };
    int c, li = 0;
    while ((c = getopt_long(argc, argv, "r:d:w:h:p:b:o:q", longopts, &li)) != -1) {
        switch (c) {
        case 'r': ref_path = optarg; break;
        case 'd':
            if (n_dis == VQ_LADDER_MAX) {
                fprintf(stderr, "vqhip: at most %d distorted videos\n",
                        VQ_LADDER_MAX);
                return CLI_EXIT_USAGE;
            }
            dis_paths[n_dis++] = dis_path = optarg;
            break;
        case 'w':
            if (cli_parse_uint("--width", optarg, 1, 16384, &w))
                return CLI_EXIT_USAGE;
            break;
        case 'h':
            if (cli_parse_uint("--height", optarg, 1, 16384, &h))
                return CLI_EXIT_USAGE;
            break;
        case 'p':
            if (yuv_parse_pix_fmt(optarg, &fmt)) {
                fprintf(stderr, "unknown pixel format '%s'\n", optarg);
                return CLI_EXIT_USAGE;
            }
            break;
        case 'b':
            if (cli_parse_uint("--bitdepth", optarg, 8, 16, &bpc))
                return CLI_EXIT_USAGE;
            break;
        case 'o': log_path = optarg; break;
        case 'q': quiet = 1; break;
        case O_FEATURE:
        case O_MODEL:
            if ((c == O_FEATURE ? n_features : n_models) == MAX_SPECS) {
                fprintf(stderr, "too many --feature/--model options\n");
                return CLI_EXIT_USAGE;
            }
            if (c == O_FEATURE)
                features[n_features++] = optarg;
            else
                models[n_models++] = optarg;
            break;
        case O_NOPRED: no_prediction = 1; break;
        case O_BACKEND:
            backend_given = 1;
            if (!strcmp(optarg, "auto")) cfg.backend = VQ_BACKEND_AUTO;
            else if (!strcmp(optarg, "hip")) cfg.backend = VQ_BACKEND_HIP;
            else if (!strcmp(optarg, "cpu")) cfg.backend = VQ_BACKEND_CPU;
            else {
                fprintf(stderr, "unknown backend '%s' (auto, hip, cpu)\n", optarg);
                return CLI_EXIT_USAGE;
            }
            break;
        case O_DEVICE: {
            unsigned dev;
            if (cli_parse_uint("--device", optarg, 0, 255, &dev))
                return CLI_EXIT_USAGE;
            cfg.device = (int)dev;
            break;
        }
        case O_STRICT: cfg.strict = 1; break;
        case O_DEPTH:
            if (cli_parse_uint("--depth", optarg, 1, 16, &cfg.depth))
                return CLI_EXIT_USAGE;
            break;
        case O_THREADS:
            if (cli_parse_uint("--threads", optarg, 0, 1024, &cfg.n_threads))
                return CLI_EXIT_USAGE;
            break;
        case O_SUB:
            if (cli_parse_uint("--subsample", optarg, 1, 1u << 30, &cfg.n_subsample))
                return CLI_EXIT_USAGE;
            break;
        case O_FRAMES:
            if (cli_parse_uint("--frame_cnt", optarg, 1, 1u << 30, &frame_cnt))
                return CLI_EXIT_USAGE;
            break;
        case O_ZEROCOPY: zero_copy = 1; break;
        case O_HOLD: {
            /* the GPU opens on a thread of the library's (open_async) */
            unsigned mb;
            if (cli_parse_uint("--hold_mb", optarg, 0, 65536, &mb))
                return CLI_EXIT_USAGE;
            cfg.open_async = mb > 0;
            cfg.open_hold_bytes = (size_t)mb << 20;
            break;
        }
        case O_VERIFY:
            if (cli_parse_uint("--verify", optarg, 0, 1u << 30, &cfg.verify))
                return CLI_EXIT_USAGE;
            break;
        case O_WINDOW:
            if (cli_parse_window(optarg, &st.wc))
                return CLI_EXIT_USAGE;
            st.windows = 1;
            break;
        case O_WSTATS: st.wc.stats = optarg; break;
        case O_THRESH: st.wc.thresholds = optarg; break;
        case O_FPS:
            if (cli_parse_fps(optarg, &st.fps_num, &st.fps_den))
                return CLI_EXIT_USAGE;
            break;
        case O_POOL: st.pools = optarg; break;
        case O_PROM: st.prom_file = optarg; break;
        case O_PROM_LABELS: st.prom_labels = optarg; break;
        case O_ALERT:
            if (st.n_alerts == CLI_MAX_ALERTS) {
                fprintf(stderr, "vqhip: too many --alert options\n");
                return CLI_EXIT_USAGE;
            }
            st.alerts[st.n_alerts++] = optarg;
            break;
        case O_STATS_URL: st.stats_url = optarg; break;
        case O_STATS_FRAMES: st.stats_frames = 1; break;
        case O_LIVE:
            if (cli_live_option(&lv, longopts[li].name, optarg))
                return CLI_EXIT_USAGE;
            break;
        case O_XML: log_fmt = VQ_LOG_XML; break;
        case O_JSON: log_fmt = VQ_LOG_JSON; break;
        case O_CSV: log_fmt = VQ_LOG_CSV; break;
        case O_SUBFMT: log_fmt = VQ_LOG_SUB; break;
        case O_LIST: {
            size_t n = vq_list_features(NULL, 0);
            char *buf = malloc(n + 1);
            if (buf) {
                vq_list_features(buf, n + 1);
                fputs(buf, stdout);
                free(buf);
            }
            return 0;
        }
        case O_VERIFY_LOG: verify_log = optarg; break;
        case O_ALIGN:
            if (cli_align_option(&align, longopts[li].name, optarg))
                return CLI_EXIT_USAGE;
            break;
        case O_PRECISION:
            if (cli_parse_precision(optarg, &precision))
                return CLI_EXIT_USAGE;
            break;
        case O_HELP: cli_usage(stdout); return 0;
        case O_VERSION:
            printf("vqhip %s (%s)\n", vq_version(), vq_revision());
            cli_input_about(stdout);
            return 0;
        default: cli_usage(stderr); return CLI_EXIT_USAGE;
        }
    }
    if (!ref_path || !dis_path || optind < argc) {
        if (optind < argc)
            fprintf(stderr, "vqhip: unexpected argument '%s'\n", argv[optind]);
        cli_usage(stderr);
        return CLI_EXIT_USAGE;
    }
    if (n_dis > 1) {
        CliLadderArgs la = {
            .ref_path = ref_path, .dis_paths = dis_paths, .n = n_dis,
            .log_path = log_path, .log_fmt = log_fmt, .precision = precision,
            .features = features, .n_features = n_features, .models = models,
            .n_models = n_models, .quiet = quiet, .no_prediction = no_prediction,
            .fmt = fmt, .bpc = bpc, .w = w, .h = h, .frame_cnt = frame_cnt,
            .cfg = cfg, .st = &st, .align = &align, .verify_log = verify_log,
            .zero_copy = zero_copy, .live = lv.on || lv.pace_fps > 0,
        };
        return cli_ladder_run(&la);
    }
    if (align.offset_given && align.sync != CLI_SYNC_OFF) {
        fprintf(stderr, "vqhip: --offset and --sync: give one\n");
        return CLI_EXIT_USAGE;
    }
    if (!strcmp(ref_path, "-") && !strcmp(dis_path, "-")) {
        fprintf(stderr, "vqhip: the reference and the distorted video cannot "
                "both be read from standard input\n");
        return CLI_EXIT_USAGE;
    }
    VerifyPlan plan = { 0 };
    if (verify_log) {
        /* the log's models, extractors (all their options), subsampling,
         * precision and frames; its own log to compare with */
        if (log_path || n_models || n_features || no_prediction || frame_cnt ||
            precision) {
            fprintf(stderr, "vqhip: --verify-log takes its models, features, "
                    "frames and precision from the log: no -o, --model, "
                    "--feature, --no_prediction, --frame_cnt or --precision\n");
            return CLI_EXIT_USAGE;
        }
        int vst = verify_plan(&plan, verify_log);
        if (vst) {
            verify_free(&plan);
            return vst;
        }
        for (unsigned i = 0; i < plan.n_model; i++)
            models[n_models++] = plan.model[i];
        for (unsigned i = 0; i < plan.n_feature; i++)
            features[n_features++] = plan.feature[i];
        no_prediction = 1;
        cfg.n_subsample = plan.subsample;
        if (!backend_given)
            cfg.backend = (VqBackend)plan.backend;
        frame_cnt = plan.frames;
        precision = plan.precision;
        log_path = plan.rerun;
        log_fmt = VQ_LOG_JSON;
        quiet = 1;
    }
    if (log_path && cli_check_log_path(log_path, ref_path, dis_path))
        return CLI_EXIT_ERROR;
    int ost = cli_stats_open(&st, cli_log_on_stdout(log_path));
    if (ost)
        return ost;
    /* From here on a failure that writes no log removes an earlier one. */
    FILE *out = cli_log_on_stdout(log_path) || st.sink.is_stdout ? stderr
                                                                  : stdout;

    char err[512];
    YuvInput ref, dis;
    memset(&dis, 0, sizeof(dis));
    if (cli_input_open(&ref, ref_path, fmt, bpc, w, h, err, sizeof(err)) ||
        cli_input_open(&dis, dis_path, fmt, bpc, w, h, err, sizeof(err))) {
        fprintf(stderr, "vqhip: %s\n", err);
        yuv_close(&ref);
        yuv_close(&dis);
        cli_discard_log(log_path);
        return CLI_EXIT_INPUT;
    }
    int aligned = cli_align_inputs(&align, &ref, &dis, stdout);
    if (aligned) {
        /* 1: --sync only printed the offset; the log is not touched */
        if (aligned != 1)
            cli_discard_log(log_path);
        yuv_close(&ref);
        yuv_close(&dis);
        return aligned == 1 ? 0 : aligned;
    }

    /* frame n's pts is n, in units of one frame */
    if (!st.fps_num) {
        st.fps_num = dis.fps_num;
        st.fps_den = dis.fps_den;
    }
    st.wc.time_base_num = st.fps_den;
    st.wc.time_base_den = st.fps_num;
    align.re.fps_num = st.fps_num; /* --realign's events' times */
    align.re.fps_den = st.fps_den;
    VqContext *ctx = NULL;
    int reported = 0, status = 0; /* status: an exit status set with r */
    int r = vq_open(&ctx, &cfg);
    if (!r)
        r = vq_set_log_precision(ctx, (int)precision);
    /* Models first, then features, as libvmaf's tool: the log lists
     * outputs in that order. */
    if (!r && !n_models && !n_features && !no_prediction)
        r = vq_use_model(ctx, "version=vmaf_v0.6.1");
    for (unsigned i = 0; !r && i < n_models; i++)
        r = vq_use_model(ctx, models[i]);
    for (unsigned i = 0; !r && i < n_features; i++)
        r = cli_use_feature(ctx, features[i]);
    if (!r && st.windows && st.wc.seconds && !st.fps_num) {
        fprintf(stderr, "vqhip: --window %gs: the frame rate is unknown "
                "(raw input): give --fps\n", st.wc.seconds);
        r = VQ_EINVAL;
        reported = 1;
    }
    if (!r)
        r = cli_stats_setup(ctx, &st);
    /* --sync's result in the log and the stats stream (set up above) */
    if (!r && align.searched)
        r = vq_note_sync(ctx, &align.res, align.res.found);
    int started = !r; /* from here on the log is this run's */
    if (r == VQ_EINVAL)
        status = CLI_EXIT_USAGE; /* a bad --feature or --model spec */
    /* The run starts before the first frame is read, so that the readers
     * know which planes the extractors read: they skip the others (VMAF
     * reads luma only, a third less of a 4:2:0 file). */
    if (!r) {
        VqPicture geometry = { .fmt = ref.fmt, .bpc = ref.bpc, .w = ref.w,
                               .h = ref.h };
        r = vq_configure(ctx, &geometry);
        ref.skip = dis.skip = r ? 0 : ~vq_planes_read(ctx) & 7u;
    }

    /* Both inputs are read on their own threads, ahead of the frames being
     * scored, enough frames for one in flight per CPU worker. The CPU
     * backend reads them in place (vq_submit_retained); without a GPU, raw
     * files are mapped and read in place. With --zero-copy they are read
     * into pinned buffers the GPU uploads from in place (no host copy),
     * but then a GPU fault with frames in flight cannot be recovered from
     * (nothing holds their pixels): the default keeps the library's own
     * copies for the GPU. */
    FrameReader *rr = NULL, *rd = NULL;
    unsigned n_buf = (cfg.n_threads ? cfg.n_threads : cli_cpu_count()) + 2;
    if (n_buf > FRAME_READER_MAX_BUFFERS)
        n_buf = FRAME_READER_MAX_BUFFERS;
    n_buf = cli_live_buffers(&lv, ctx, n_buf, FRAME_READER_MAX_BUFFERS);
    n_buf += cli_realign_held(&align.re); /* the read-ahead */
    align.re.ctx = ctx;
    n_buf = n_buf < FRAME_READER_MAX_BUFFERS ? n_buf : FRAME_READER_MAX_BUFFERS;
    /* --realign: --frame_cnt counts pairs, some input frames left out */
    align.re.max_pairs = frame_cnt;
    FrameReaderConfig rc = { .n_buffers = n_buf,
                             .max_frames = align.re.on ? 0 : frame_cnt,
                             .map = ctx && !vq_device_name(ctx)[0],
                             .alloc = zero_copy ? host_alloc : cli_plain_alloc,
                             .release = zero_copy ? host_free : cli_plain_free,
                             .opaque = ctx, .cancel = &cli_interrupted };
    GiveBack back[FRAME_READER_MAX_BUFFERS];
    if (!r && (frame_reader_start(&rr, &ref, &rc, err, sizeof(err)) ||
               frame_reader_start(&rd, &dis, &rc, err, sizeof(err)))) {
        fprintf(stderr, "vqhip: %s\n", err);
        r = VQ_ENOMEM;
        reported = 1;
    }
    if (ref.range && dis.range && ref.range != dis.range)
        fprintf(stderr, "vqhip: warning: the reference is %s range and the "
                "distorted video %s range: scores compare unlike samples\n",
                ref.range == 2 ? "full" : "limited",
                dis.range == 2 ? "full" : "limited");
    cli_catch_interrupts();
    unsigned n = 0;
    int read_err = 0;
    char why[1024] = "";
    while (!r && !cli_interrupted) {
        VqPicture rp, dp;
        char err_d[256] = "";
        cli_live_pace(&lv, n, &cli_interrupted);
        int a, b;
        unsigned seq[2];
        cli_realign_next(&align.re, rr, rd, n, &rp, &dp, seq, &a, &b, err,
                         err_d, sizeof(err_d));
        /* a frame taken from one input alone goes back unscored */
        if ((a <= 0 || b <= 0) && a > 0)
            frame_reader_give_back(rr, seq[0]);
        if ((a <= 0 || b <= 0) && b > 0)
            frame_reader_give_back(rd, seq[1]);
        if (a == FRAME_READER_CANCELLED || b == FRAME_READER_CANCELLED)
            break; /* a signal, while an input gave nothing */
        if (a < 0 || b < 0) {
            snprintf(why, sizeof(why), "frame %u of %s: %s", n,
                     a < 0 ? ref_path : dis_path, a < 0 ? err : err_d);
            fprintf(stderr, "vqhip: %s\n", why);
            read_err = VQ_EIO; /* the frames before it are still scored */
            break;
        }
        if (a != b && (!frame_cnt || n < frame_cnt))
            fprintf(stderr, "vqhip: warning: %s has %u frames, %s has more: "
                    "only the first %u are scored\n", a ? dis_path : ref_path,
                    n, a ? ref_path : dis_path, n);
        if (!a || !b)
            break;
        GiveBack *gb = &back[n % n_buf];
        *gb = (GiveBack){ rr, rd, { seq[0], seq[1] } };
        dp.pts = n;
        /* --live: the frames done received first, then maybe skipped */
        if (lv.on && !(r = drain(ctx, quiet, out, &lv)))
            r = cli_live_skip(&lv, ctx, n);
        if (r)
            give_back(gb);
        else
            r = vq_submit_retained(ctx, &rp, &dp, give_back, gb);
        if (!r)
            r = drain(ctx, quiet, out, &lv);
        n++;
    }
    cli_realign_finish(&align.re);
    frame_reader_stop(&rr);
    frame_reader_stop(&rd);
    if (cli_interrupted)
        snprintf(why, sizeof(why), "interrupted by signal %d after %u frames",
                 (int)cli_interrupted, n);
    if (!r && n)
        r = vq_flush(ctx);
    if (!r && n)
        r = drain(ctx, quiet, out, &lv);
    if (!r && read_err) {
        r = read_err;
        reported = 1;
        status = CLI_EXIT_INPUT;
    }
    if (!r && !n) {
        snprintf(why, sizeof(why), "no frames read (an input is empty)");
        fprintf(stderr, "vqhip: %s\n", why);
        r = VQ_EIO;
        reported = 1;
        status = CLI_EXIT_INPUT;
    }
    if (r && !reported) {
        snprintf(why, sizeof(why), "%s", vq_last_error(ctx));
        fprintf(stderr, "vqhip: %s (%s)\n", *why ? why : vq_strerror(r),
                vq_strerror(r));
        reported = 1;
    }
    VqRunInfo info;
    vq_run_info(ctx, &info);
    if (!r || read_err) {
        fprintf(out, "backend: %s%s%s\n", vq_backend_name(ctx),
               *vq_device_name(ctx) ? " on " : "", vq_device_name(ctx));
        cli_live_summary(&lv, ctx, out);
        if (info.fell_back)
            fprintf(out, "GPU fault: frames %u and later were computed on the CPU "
                   "(%s)\n", info.fallback_frame, info.fallback_reason);
        if (info.verify)
            fprintf(out, "verify: %u frames checked on the CPU, %u mismatched\n",
                   info.verified, info.mismatches);
        if (*why)
            fprintf(out, "incomplete: %s\n", why);
        for (unsigned i = 0; i < vq_output_count(ctx); i++)
            cli_print_pooled(ctx, out, vq_output_name(ctx, i), st.pools);
        for (unsigned i = 0; i < vq_aggregate_count(ctx); i++) {
            VqScore s;
            vq_aggregate(ctx, i, &s);
            fprintf(out, "%s: %f\n", s.name, s.value);
        }
    }
    /* The log says what this run did, complete or not; it never keeps an
     * earlier run's contents. */
    int logged = 0;
    if (log_path && ctx && started) {
        if (*why)
            vq_set_incomplete(ctx, why);
        int werr = vq_write_log(ctx, log_path, log_fmt);
        if (werr) {
            fprintf(stderr, "vqhip: %s\n", vq_last_error(ctx));
            if (!r)
                status = CLI_EXIT_ERROR;
            r = r ? r : werr;
        }
        logged = !werr;
    }
    if (r && !logged)
        cli_discard_log(log_path);
    vq_close(&ctx); /* a run cut short: the stream's summary */
    stats_sink_close(&st.sink);
    yuv_close(&ref);
    yuv_close(&dis);
    if (verify_log) {
        if (!r && !status && !cli_interrupted)
            status = verify_compare(&plan);
        verify_free(&plan);
    }
    if (cli_interrupted)
        return 128 + (int)cli_interrupted;
    return status ? status : cli_exit_code(r);
}
