/*
 * vqhip: scores a distorted video against its reference from raw YUV, Y4M
 * or (built with FFmpeg's libraries) other video files, like libvmaf's `vmaf` tool, and writes libvmaf-style logs.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "catalog.h"
#include "cli_align.h"
#include "cli_args.h"
#include "cli_ladder.h"
#include "cli_live.h"
#include "cli_options.h"
#include "cli_run.h"
#include "cli_stats.h"
#include "frame_reader.h"
#include "verify_log.h"
#include "vqhip.h"
#include "cli_input.h"
#include "yuv_input.h"

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

/* One pair run's state, from its inputs to its log. */
typedef struct PairRun {
    CliArgs *a;
    VerifyPlan plan;  /* --verify-log */
    FILE *out;        /* console lines: stderr when stdout carries the log
                         or the stats stream */
    YuvInput ref, dis;
    VqContext *ctx;
    FrameReader *rr, *rd;
    GiveBack back[FRAME_READER_MAX_BUFFERS];
    unsigned n;       /* pairs taken */
    int r;            /* the run's libvqhip error */
    int status;       /* an exit status set with r */
    int reported;     /* r's message was printed */
    int started;      /* the log is this run's */
    int read_err;
    char why[1024];   /* why the run is incomplete */
} PairRun;

/* Options a pair run refuses together. -1, or the exit status. */
static int pair_check(const CliArgs *a)
{
    if (a->align.offset_given && a->align.sync != CLI_SYNC_OFF) {
        fprintf(stderr, "vqhip: --offset and --sync: give one\n");
        return CLI_EXIT_USAGE;
    }
    if (!strcmp(a->ref_path, "-") && !strcmp(a->dis_path, "-")) {
        fprintf(stderr, "vqhip: the reference and the distorted video cannot "
                "both be read from standard input\n");
        return CLI_EXIT_USAGE;
    }
    return -1;
}

/* --verify-log: the log's models, extractors (all their options),
 * subsampling, precision and frames; its own log to compare with. -1, or
 * the exit status. */
static int take_verify_plan(PairRun *p)
{
    CliArgs *a = p->a;
    if (a->log_path || a->n_models || a->n_features || a->no_prediction ||
        a->frame_cnt || a->precision) {
        fprintf(stderr, "vqhip: --verify-log takes its models, features, "
                "frames and precision from the log: no -o, --model, "
                "--feature, --no_prediction, --frame_cnt or --precision\n");
        return CLI_EXIT_USAGE;
    }
    int vst = verify_plan(&p->plan, a->verify_log);
    if (vst)
        return vst;
    for (unsigned i = 0; i < p->plan.n_model; i++)
        a->models[a->n_models++] = p->plan.model[i];
    for (unsigned i = 0; i < p->plan.n_feature; i++)
        a->features[a->n_features++] = p->plan.feature[i];
    a->no_prediction = 1;
    a->cfg.n_subsample = p->plan.subsample;
    if (!a->backend_given)
        a->cfg.backend = (VqBackend)p->plan.backend;
    a->frame_cnt = p->plan.frames;
    a->precision = p->plan.precision;
    a->log_path = p->plan.rerun;
    a->log_fmt = VQ_LOG_JSON;
    a->quiet = 1;
    return -1;
}

/* The log's place, the stats stream, both inputs and their alignment. -1,
 * or the exit status (0: --sync only printed the offset). */
static int open_inputs(PairRun *p)
{
    CliArgs *a = p->a;
    if (a->log_path && cli_check_log_path(a->log_path, a->ref_path, a->dis_path))
        return CLI_EXIT_ERROR;
    int ost = cli_stats_open(&a->st, cli_log_on_stdout(a->log_path));
    if (ost)
        return ost;
    /* From here on a failure that writes no log removes an earlier one. */
    p->out = cli_log_on_stdout(a->log_path) || a->st.sink.is_stdout ? stderr
                                                                     : stdout;
    char err[512];
    if (cli_input_open(&p->ref, a->ref_path, a->fmt, a->bpc, a->w, a->h, err,
                       sizeof(err)) ||
        cli_input_open(&p->dis, a->dis_path, a->fmt, a->bpc, a->w, a->h, err,
                       sizeof(err))) {
        fprintf(stderr, "vqhip: %s\n", err);
        yuv_close(&p->ref);
        yuv_close(&p->dis);
        cli_discard_log(a->log_path);
        return CLI_EXIT_INPUT;
    }
    a->align.backend = a->cfg.backend;
    a->align.device = a->cfg.device;
    int aligned = cli_align_inputs(&a->align, &p->ref, &p->dis, stdout);
    if (aligned) {
        /* 1: --sync only printed the offset; the log is not touched */
        if (aligned != 1)
            cli_discard_log(a->log_path);
        yuv_close(&p->ref);
        yuv_close(&p->dis);
        return aligned == 1 ? 0 : aligned;
    }
    return -1;
}

/* The context: models, features, the stats outputs, the geometry. */
static void open_context(PairRun *p)
{
    CliArgs *a = p->a;
    CliStats *st = &a->st;
    /* frame n's pts is n, in units of one frame */
    if (!st->fps_num) {
        st->fps_num = p->dis.fps_num;
        st->fps_den = p->dis.fps_den;
    }
    st->wc.time_base_num = st->fps_den;
    st->wc.time_base_den = st->fps_num;
    a->align.re.fps_num = st->fps_num; /* --realign's events' times */
    a->align.re.fps_den = st->fps_den;
    int r = vq_open(&p->ctx, &a->cfg);
    if (!r)
        r = vq_set_log_precision(p->ctx, (int)a->precision);
    /* Models first, then features, as libvmaf's tool: the log lists
     * outputs in that order. */
    if (!r && !a->n_models && !a->n_features && !a->no_prediction)
        r = vq_use_model(p->ctx, "version=vmaf_v0.6.1");
    for (unsigned i = 0; !r && i < a->n_models; i++)
        r = vq_use_model(p->ctx, a->models[i]);
    for (unsigned i = 0; !r && i < a->n_features; i++)
        r = cli_use_feature(p->ctx, a->features[i]);
    if (!r && st->windows && st->wc.seconds && !st->fps_num) {
        fprintf(stderr, "vqhip: --window %gs: the frame rate is unknown "
                "(raw input): give --fps\n", st->wc.seconds);
        r = VQ_EINVAL;
        p->reported = 1;
    }
    if (!r)
        r = cli_stats_setup(p->ctx, st);
    /* --sync's result in the log and the stats stream (set up above) */
    if (!r && a->align.searched)
        r = vq_note_sync(p->ctx, &a->align.res, a->align.res.found);
    p->started = !r;
    if (r == VQ_EINVAL)
        p->status = CLI_EXIT_USAGE; /* a bad --feature or --model spec */
    /* The run starts before the first frame is read, so that the readers
     * know which planes the extractors read: they skip the others (VMAF
     * reads luma only, a third less of a 4:2:0 file). */
    if (!r) {
        VqPicture geometry = { .fmt = p->ref.fmt, .bpc = p->ref.bpc,
                               .w = p->ref.w, .h = p->ref.h };
        r = vq_configure(p->ctx, &geometry);
        p->ref.skip = p->dis.skip = r ? 0 : ~vq_planes_read(p->ctx) & 7u;
    }
    p->r = r;
}

/* Both inputs are read on their own threads, ahead of the frames being
 * scored, enough frames for one in flight per CPU worker. The CPU backend
 * reads them in place (vq_submit_retained); without a GPU, raw files are
 * mapped and read in place. With --zero-copy they are read into pinned
 * buffers the GPU uploads from in place (no host copy), but then a GPU
 * fault with frames in flight cannot be recovered from (nothing holds
 * their pixels): the default keeps the library's own copies for the GPU. */
static unsigned start_readers(PairRun *p)
{
    CliArgs *a = p->a;
    unsigned n_buf = (a->cfg.n_threads ? a->cfg.n_threads : cli_cpu_count()) + 2;
    if (n_buf > FRAME_READER_MAX_BUFFERS)
        n_buf = FRAME_READER_MAX_BUFFERS;
    n_buf = cli_live_buffers(&a->lv, p->ctx, n_buf, FRAME_READER_MAX_BUFFERS);
    n_buf += cli_realign_held(&a->align.re); /* the read-ahead */
    a->align.re.ctx = p->ctx;
    n_buf = n_buf < FRAME_READER_MAX_BUFFERS ? n_buf : FRAME_READER_MAX_BUFFERS;
    /* --realign: --frame_cnt counts pairs, some input frames left out */
    a->align.re.max_pairs = a->frame_cnt;
    FrameReaderConfig rc = { .n_buffers = n_buf,
                             .max_frames = a->align.re.on ? 0 : a->frame_cnt,
                             .map = p->ctx && !vq_device_name(p->ctx)[0],
                             .alloc = a->zero_copy ? host_alloc : cli_plain_alloc,
                             .release = a->zero_copy ? host_free : cli_plain_free,
                             .opaque = p->ctx, .cancel = &cli_interrupted };
    char err[512];
    if (!p->r && (frame_reader_start(&p->rr, &p->ref, &rc, err, sizeof(err)) ||
                  frame_reader_start(&p->rd, &p->dis, &rc, err, sizeof(err)))) {
        fprintf(stderr, "vqhip: %s\n", err);
        p->r = VQ_ENOMEM;
        p->reported = 1;
    }
    return n_buf;
}

/* Every pair read, submitted and its scores printed as they come. */
static void score(PairRun *p)
{
    CliArgs *a = p->a;
    unsigned n_buf = start_readers(p);
    if (p->ref.range && p->dis.range && p->ref.range != p->dis.range)
        fprintf(stderr, "vqhip: warning: the reference is %s range and the "
                "distorted video %s range: scores compare unlike samples\n",
                p->ref.range == 2 ? "full" : "limited",
                p->dis.range == 2 ? "full" : "limited");
    cli_catch_interrupts();
    int r = p->r;
    unsigned n = 0;
    char err[512];
    while (!r && !cli_interrupted) {
        VqPicture rp, dp;
        char err_d[256] = "";
        cli_live_pace(&a->lv, n, &cli_interrupted);
        int ra, rb;
        unsigned seq[2];
        cli_realign_next(&a->align.re, p->rr, p->rd, n, &rp, &dp, seq, &ra, &rb,
                         err, err_d, sizeof(err_d));
        /* a frame taken from one input alone goes back unscored */
        if ((ra <= 0 || rb <= 0) && ra > 0)
            frame_reader_give_back(p->rr, seq[0]);
        if ((ra <= 0 || rb <= 0) && rb > 0)
            frame_reader_give_back(p->rd, seq[1]);
        if (ra == FRAME_READER_CANCELLED || rb == FRAME_READER_CANCELLED)
            break; /* a signal, while an input gave nothing */
        if (ra < 0 || rb < 0) {
            snprintf(p->why, sizeof(p->why), "frame %u of %s: %s", n,
                     ra < 0 ? a->ref_path : a->dis_path, ra < 0 ? err : err_d);
            fprintf(stderr, "vqhip: %s\n", p->why);
            p->read_err = VQ_EIO; /* the frames before it are still scored */
            break;
        }
        if (ra != rb && (!a->frame_cnt || n < a->frame_cnt))
            fprintf(stderr, "vqhip: warning: %s has %u frames, %s has more: "
                    "only the first %u are scored\n",
                    ra ? a->dis_path : a->ref_path, n,
                    ra ? a->ref_path : a->dis_path, n);
        if (!ra || !rb)
            break;
        GiveBack *gb = &p->back[n % n_buf];
        *gb = (GiveBack){ p->rr, p->rd, { seq[0], seq[1] } };
        dp.pts = n;
        /* --live: the frames done received first, then maybe skipped */
        if (a->lv.on && !(r = drain(p->ctx, a->quiet, p->out, &a->lv)))
            r = cli_live_skip(&a->lv, p->ctx, n);
        if (r)
            give_back(gb);
        else
            r = vq_submit_retained(p->ctx, &rp, &dp, give_back, gb);
        if (!r)
            r = drain(p->ctx, a->quiet, p->out, &a->lv);
        n++;
    }
    cli_realign_finish(&a->align.re);
    frame_reader_stop(&p->rr);
    frame_reader_stop(&p->rd);
    if (cli_interrupted)
        snprintf(p->why, sizeof(p->why), "interrupted by signal %d after %u "
                 "frames", (int)cli_interrupted, n);
    if (!r && n)
        r = vq_flush(p->ctx);
    if (!r && n)
        r = drain(p->ctx, a->quiet, p->out, &a->lv);
    if (!r && p->read_err) {
        r = p->read_err;
        p->reported = 1;
        p->status = CLI_EXIT_INPUT;
    }
    if (!r && !n) {
        snprintf(p->why, sizeof(p->why), "no frames read (an input is empty)");
        fprintf(stderr, "vqhip: %s\n", p->why);
        r = VQ_EIO;
        p->reported = 1;
        p->status = CLI_EXIT_INPUT;
    }
    p->n = n;
    p->r = r;
}

/* The summary on the console: backend, fallback, verify, pooled scores. */
static void print_summary(PairRun *p)
{
    VqContext *ctx = p->ctx;
    FILE *out = p->out;
    VqRunInfo info;
    vq_run_info(ctx, &info);
    fprintf(out, "backend: %s%s%s\n", vq_backend_name(ctx),
            *vq_device_name(ctx) ? " on " : "", vq_device_name(ctx));
    cli_live_summary(&p->a->lv, ctx, out);
    if (info.fell_back)
        fprintf(out, "GPU fault: frames %u and later were computed on the CPU "
                "(%s)\n", info.fallback_frame, info.fallback_reason);
    if (info.verify)
        fprintf(out, "verify: %u frames checked on the CPU, %u mismatched\n",
                info.verified, info.mismatches);
    if (*p->why)
        fprintf(out, "incomplete: %s\n", p->why);
    for (unsigned i = 0; i < vq_output_count(ctx); i++)
        cli_print_pooled(ctx, out, vq_output_name(ctx, i), p->a->st.pools);
    for (unsigned i = 0; i < vq_aggregate_count(ctx); i++) {
        VqScore s;
        vq_aggregate(ctx, i, &s);
        fprintf(out, "%s: %f\n", s.name, s.value);
    }
}

/* The log (it says what this run did, complete or not, and never keeps an
 * earlier run's contents), the end of everything, the exit status. */
static int finish(PairRun *p)
{
    CliArgs *a = p->a;
    int r = p->r;
    if (r && !p->reported) {
        snprintf(p->why, sizeof(p->why), "%s", vq_last_error(p->ctx));
        fprintf(stderr, "vqhip: %s (%s)\n", *p->why ? p->why : vq_strerror(r),
                vq_strerror(r));
        p->reported = 1;
    }
    if (!r || p->read_err)
        print_summary(p);
    int logged = 0;
    if (a->log_path && p->ctx && p->started) {
        if (*p->why)
            vq_set_incomplete(p->ctx, p->why);
        int werr = vq_write_log(p->ctx, a->log_path, a->log_fmt);
        if (werr) {
            fprintf(stderr, "vqhip: %s\n", vq_last_error(p->ctx));
            if (!r)
                p->status = CLI_EXIT_ERROR;
            r = r ? r : werr;
        }
        logged = !werr;
    }
    if (r && !logged)
        cli_discard_log(a->log_path);
    vq_close(&p->ctx); /* a run cut short: the stream's summary */
    stats_sink_close(&a->st.sink);
    yuv_close(&p->ref);
    yuv_close(&p->dis);
    if (a->verify_log && !r && !p->status && !cli_interrupted)
        p->status = verify_compare(&p->plan);
    if (cli_interrupted)
        return 128 + (int)cli_interrupted;
    return p->status ? p->status : cli_exit_code(r);
}

static int pair_run(CliArgs *a)
{
    PairRun *p = calloc(1, sizeof(*p));
    if (!p) {
        fprintf(stderr, "vqhip: out of memory\n");
        return CLI_EXIT_ERROR;
    }
    p->a = a;
    int st = pair_check(a);
    if (st < 0 && a->verify_log)
        st = take_verify_plan(p);
    if (st < 0)
        st = open_inputs(p);
    if (st < 0) {
        open_context(p);
        score(p);
        st = finish(p);
    }
    verify_free(&p->plan);
    free(p);
    return st;
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
    static CliArgs a; /* large (the option lists): not on the stack */
    int st = cli_parse_args(&a, argc, argv);
    if (st >= 0)
        return st;
    if (a.n_dis > 1) {
        CliLadderArgs la = {
            .ref_path = a.ref_path, .dis_paths = a.dis_paths, .n = a.n_dis,
            .log_path = a.log_path, .log_fmt = a.log_fmt,
            .precision = a.precision, .features = a.features,
            .n_features = a.n_features, .models = a.models,
            .n_models = a.n_models, .quiet = a.quiet,
            .no_prediction = a.no_prediction, .fmt = a.fmt, .bpc = a.bpc,
            .w = a.w, .h = a.h, .frame_cnt = a.frame_cnt, .cfg = a.cfg,
            .st = &a.st, .align = &a.align, .verify_log = a.verify_log,
            .zero_copy = a.zero_copy, .live = a.lv.on || a.lv.pace_fps > 0,
        };
        return cli_ladder_run(&la);
    }
    return pair_run(&a);
}
