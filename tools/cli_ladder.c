/*
 * The CLI's ladder (docs/LADDER.md): the reference is read once per frame
 * and handed with every rendition's frame to the library's ladder
 * (vq_ladder_submit_retained); each rendition has its own context, its own
 * summary lines (prefixed "[label] ") and its own log, whose values equal
 * those of `vqhip -r REF -d RENDITION` with the same options.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_args.h"
#include "cli_ladder.h"
#include "cli_run.h"
#include "cli_stats.h"
#include "frame_reader.h"
#include "cli_input.h"
#include "yuv_input.h"

#define LABEL_MAX 128
#define PATH_MAX_LEN 4096

void cli_ladder_label(const char *path, char *out, size_t size)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    const char *dot = strrchr(base, '.');
    size_t len = dot && dot != base ? (size_t)(dot - base) : strlen(base);
    snprintf(out, size, "%.*s", (int)len, base);
}

/* The state of one run. */
typedef struct Run {
    const CliLadderArgs *a;
    VqLadder *l;
    YuvInput ref, *dis;
    FrameReader *rr, **rd;
    char (*label)[LABEL_MAX];
    char (*log)[PATH_MAX_LEN];
    char (*why)[1024]; /* a rendition's read error: it ended there */
    unsigned n_failed; /* renditions that ended on a read error */
    FILE *out;
} Run;

/* The frames of one reference frame lent to the ladder; bit i of taken:
 * rendition i's reader gave a frame. */
typedef struct GiveBack {
    Run *run;
    unsigned seq;
    uint64_t taken;
} GiveBack;

static void give_back(void *opaque)
{
    /* copied first: once the frames are back, the reading thread may
     * reuse *gb for a later frame */
    GiveBack gb = *(GiveBack *)opaque;
    for (unsigned i = 0; i < gb.run->a->n; i++)
        if (gb.taken >> i & 1)
            frame_reader_give_back(gb.run->rd[i], gb.seq);
    frame_reader_give_back(gb.run->rr, gb.seq);
}

static int drain(Run *run, unsigned i)
{
    VqContext *ctx = vq_ladder_context(run->l, i);
    VqFrameScores fs;
    int r;
    while ((r = vq_receive(ctx, &fs)) == 0) {
        if (run->a->quiet)
            continue;
        fprintf(run->out, "[%s] frame %u:", run->label[i], fs.index);
        for (unsigned k = 0; k < fs.n; k++)
            fprintf(run->out, " %s=%f", fs.scores[k].name, fs.scores[k].value);
        fprintf(run->out, "\n");
    }
    return r == VQ_EAGAIN || r == VQ_EOF ? 0 : r;
}

static int drain_all(Run *run)
{
    for (unsigned i = 0; i < run->a->n; i++) {
        int r = drain(run, i);
        if (r) {
            fprintf(stderr, "vqhip: rendition %u (%s): %s\n", i + 1,
                    run->label[i], vq_last_error(vq_ladder_context(run->l, i)));
            return r;
        }
    }
    return 0;
}

/* Labels, log paths (checked, all different) and inputs, their geometry
 * the reference's. 0 or an exit status (said on stderr). */
static int prepare(Run *run)
{
    const CliLadderArgs *a = run->a;
    char err[1024];
    for (unsigned i = 0; i < a->n; i++) {
        cli_ladder_label(a->dis_paths[i], run->label[i], LABEL_MAX);
        if (!a->log_path)
            continue;
        if (vq_ladder_log_path(run->log[i], PATH_MAX_LEN, a->log_path, i,
                               run->label[i], err, sizeof(err))) {
            fprintf(stderr, "vqhip: %s\n", err);
            return CLI_EXIT_USAGE;
        }
        for (unsigned k = 0; k < i; k++)
            if (!strcmp(run->log[k], run->log[i])) {
                fprintf(stderr, "vqhip: renditions %u and %u would write the "
                        "same log '%s' (same label): use %%d in the log path\n",
                        k + 1, i + 1, run->log[i]);
                return CLI_EXIT_USAGE;
            }
        if (cli_check_log_path(run->log[i], a->ref_path, a->dis_paths[i]))
            return CLI_EXIT_ERROR;
    }
    if (cli_input_open(&run->ref, a->ref_path, a->fmt, a->bpc, a->w, a->h, err,
                 sizeof(err))) {
        fprintf(stderr, "vqhip: %s\n", err);
        return CLI_EXIT_INPUT;
    }
    const YuvInput *r = &run->ref;
    for (unsigned i = 0; i < a->n; i++) {
        YuvInput *d = &run->dis[i];
        if (cli_input_open(d, a->dis_paths[i], a->fmt, a->bpc, a->w, a->h, err,
                     sizeof(err))) {
            fprintf(stderr, "vqhip: %s\n", err);
            return CLI_EXIT_INPUT;
        }
        if (d->fmt != r->fmt || d->bpc != r->bpc || d->w != r->w ||
            d->h != r->h) {
            fprintf(stderr, "vqhip: rendition %u (%s) is %ux%u at %u bits, "
                    "the reference %ux%u at %u bits%s: every distorted video "
                    "of a ladder must have the reference's size, pixel format "
                    "and bit depth (scale it back first)\n", i + 1,
                    a->dis_paths[i], d->w, d->h, d->bpc, r->w, r->h, r->bpc,
                    d->fmt != r->fmt ? ", and another pixel format" : "");
            return CLI_EXIT_INPUT;
        }
        if (r->range && d->range && r->range != d->range)
            fprintf(stderr, "vqhip: warning: the reference is %s range and "
                    "rendition %u (%s) %s range: scores compare unlike "
                    "samples\n", r->range == 2 ? "full" : "limited", i + 1,
                    a->dis_paths[i], d->range == 2 ? "full" : "limited");
    }
    return 0;
}

/* Every rendition's models and features, as the pair run chooses them. */
static int select_all(Run *run)
{
    const CliLadderArgs *a = run->a;
    int r = 0;
    for (unsigned i = 0; !r && i < a->n; i++) {
        VqContext *ctx = vq_ladder_context(run->l, i);
        r = vq_set_log_precision(ctx, (int)a->precision);
        if (!r && !a->n_models && !a->n_features && !a->no_prediction)
            r = vq_use_model(ctx, "version=vmaf_v0.6.1");
        for (unsigned k = 0; !r && k < a->n_models; k++)
            r = vq_use_model(ctx, a->models[k]);
        for (unsigned k = 0; !r && k < a->n_features; k++)
            r = cli_use_feature(ctx, a->features[k]);
        if (!r && a->st->pools)
            r = vq_log_pools(ctx, a->st->pools);
        if (r)
            fprintf(stderr, "vqhip: %s (%s)\n", vq_last_error(ctx),
                    vq_strerror(r));
    }
    return r;
}


/* Reads and submits every frame. *n: reference frames submitted; why: a
 * read error or a signal. */
static int score(Run *run, unsigned n_buf, unsigned *pn, char *why,
                 size_t whysz, int *read_err)
{
    const CliLadderArgs *a = run->a;
    GiveBack *back = calloc(n_buf, sizeof(*back));
    const VqPicture **dp = calloc(a->n, sizeof(*dp));
    VqPicture *pics = calloc(a->n, sizeof(*pics));
    int r = back && dp && pics ? 0 : VQ_ENOMEM;
    unsigned n = 0, live = a->n;
    char err[512];
    while (!r && !cli_interrupted && live) {
        VqPicture rp;
        int got = frame_reader_next(run->rr, &rp, err, sizeof(err));
        if (got == FRAME_READER_CANCELLED)
            break;
        if (got < 0) {
            snprintf(why, whysz, "frame %u of %s: %s", n, a->ref_path, err);
            fprintf(stderr, "vqhip: %s\n", why);
            *read_err = VQ_EIO;
            break;
        }
        uint64_t taken = 0;
        for (unsigned i = 0; i < a->n && !*read_err; i++) {
            dp[i] = NULL;
            if (vq_ladder_ended(run->l, i))
                continue;
            int b = frame_reader_next(run->rd[i], &pics[i], err, sizeof(err));
            if (b > 0 && got > 0) {
                taken |= (uint64_t)1 << i;
                pics[i].pts = n;
                dp[i] = &pics[i];
                continue;
            }
            if (b > 0) /* the reference ended: this frame goes back */
                frame_reader_give_back(run->rd[i], n);
            if (b == FRAME_READER_CANCELLED)
                continue;
            if (b < 0) {
                /* as its pair run: the frames before are scored, its log
                 * says where it stopped; the other renditions go on */
                snprintf(run->why[i], sizeof(run->why[i]), "frame %u of %s: "
                         "%s", n, a->dis_paths[i], err);
                fprintf(stderr, "vqhip: rendition %u: %s\n", i + 1,
                        run->why[i]);
                run->n_failed++;
                live--;
                r = vq_ladder_end(run->l, i);
            } else if (b > 0 && (!a->frame_cnt || n < a->frame_cnt)) {
                fprintf(stderr, "vqhip: warning: %s has %u frames, %s has "
                        "more: only the first %u are scored\n", a->ref_path,
                        n, a->dis_paths[i], n);
            } else if (!b && got > 0) {
                fprintf(stderr, "vqhip: warning: rendition %u (%s) has %u "
                        "frames, the reference more: its log covers its %u "
                        "frames\n", i + 1, a->dis_paths[i], n, n);
                live--;
                r = vq_ladder_end(run->l, i);
            }
        }
        if (!got || *read_err || cli_interrupted || !taken) {
            if (got > 0) {
                frame_reader_give_back(run->rr, n);
                for (unsigned i = 0; i < a->n; i++)
                    if (taken >> i & 1)
                        frame_reader_give_back(run->rd[i], n);
            }
            if (!got || *read_err || cli_interrupted)
                break;
            continue; /* every rendition ended */
        }
        GiveBack *gb = &back[n % n_buf];
        *gb = (GiveBack){ run, n, taken };
        if (!r)
            r = vq_ladder_submit_retained(run->l, &rp, dp, give_back, gb);
        else
            give_back(gb);
        if (r)
            fprintf(stderr, "vqhip: %s\n", vq_ladder_last_error(run->l));
        if (!r)
            r = drain_all(run);
        n++;
    }
    frame_reader_stop(&run->rr);
    for (unsigned i = 0; i < a->n; i++)
        frame_reader_stop(&run->rd[i]);
    free(back);
    free(dp);
    free(pics);
    *pn = n;
    return r;
}

/* Rendition i's summary, each line "[label] " and the pair run's line. */
static void summary(Run *run, unsigned i, const char *why)
{
    VqContext *ctx = vq_ladder_context(run->l, i);
    FILE *out = run->out;
    const char *lb = run->label[i];
    VqRunInfo info;
    vq_run_info(ctx, &info);
    fprintf(out, "[%s] backend: %s%s%s\n", lb, vq_backend_name(ctx),
            *vq_device_name(ctx) ? " on " : "", vq_device_name(ctx));
    if (info.fell_back)
        fprintf(out, "[%s] GPU fault: frames %u and later were computed on "
                "the CPU (%s)\n", lb, info.fallback_frame,
                info.fallback_reason);
    if (info.verify)
        fprintf(out, "[%s] verify: %u frames checked on the CPU, %u "
                "mismatched\n", lb, info.verified, info.mismatches);
    if (*why)
        fprintf(out, "[%s] incomplete: %s\n", lb, why);
    for (unsigned k = 0; k < vq_output_count(ctx); k++) {
        fprintf(out, "[%s] ", lb);
        cli_print_pooled(ctx, out, vq_output_name(ctx, k), run->a->st->pools);
    }
    for (unsigned k = 0; k < vq_aggregate_count(ctx); k++) {
        VqScore sc;
        vq_aggregate(ctx, k, &sc);
        fprintf(out, "[%s] %s: %f\n", lb, sc.name, sc.value);
    }
}

static void discard_logs(const Run *run)
{
    for (unsigned i = 0; run->a->log_path && i < run->a->n; i++)
        cli_discard_log(run->log[i]);
}

/* What a ladder cannot do yet, and inputs it cannot read: 0, or the
 * exit status (said on stderr). */
static int check_options(const CliLadderArgs *a)
{
    const CliStats *st = a->st;
    const char *unsupported =
        a->verify_log ? "--verify-log" :
        a->align->offset_given || a->align->sync != CLI_SYNC_OFF ?
            "--offset/--sync" :
        a->align->re.on ? "--realign" :
        st->windows ? "--window" : st->n_alerts ? "--alert" :
        st->prom_file ? "--prom-file" : st->stats_url ? "--stats-url" :
        a->zero_copy ? "--zero-copy" :
        a->live ? "--live/--realtime" : NULL;
    if (unsupported) {
        fprintf(stderr, "vqhip: %s is not available with several distorted "
                "videos (a ladder) yet: score that rendition alone\n",
                unsupported);
        return CLI_EXIT_USAGE;
    }
    unsigned stdin_inputs = !strcmp(a->ref_path, "-");
    for (unsigned i = 0; i < a->n; i++)
        stdin_inputs += !strcmp(a->dis_paths[i], "-");
    if (stdin_inputs > 1) {
        fprintf(stderr, "vqhip: only one input can be read from standard "
                "input\n");
        return CLI_EXIT_USAGE;
    }
    return 0;
}

int cli_ladder_run(const CliLadderArgs *a)
{
    int bad = check_options(a);
    if (bad)
        return bad;
    Run run = { .a = a, .out = stdout };
    run.dis = calloc(a->n, sizeof(*run.dis));
    run.rd = calloc(a->n, sizeof(*run.rd));
    run.label = calloc(a->n, sizeof(*run.label));
    run.log = calloc(a->n, sizeof(*run.log));
    run.why = calloc(a->n, sizeof(*run.why));
    int status = 0;
    if (!run.dis || !run.rd || !run.label || !run.log || !run.why) {
        fprintf(stderr, "vqhip: out of memory\n");
        status = CLI_EXIT_ERROR;
    }
    if (!status)
        status = prepare(&run);
    if (status) {
        if (status != CLI_EXIT_USAGE)
            discard_logs(&run);
        goto done;
    }
    /* From here on a failure that writes no log removes an earlier one. */
    int r = vq_ladder_open(&run.l, &a->cfg, a->n);
    if (r)
        fprintf(stderr, "vqhip: %s\n", vq_ladder_last_error(run.l));
    if (!r)
        r = select_all(&run);
    if (r == VQ_EINVAL)
        status = CLI_EXIT_USAGE; /* a bad --feature or --model spec */
    int started = !r;
    if (!r) {
        VqPicture geometry = { .fmt = run.ref.fmt, .bpc = run.ref.bpc,
                               .w = run.ref.w, .h = run.ref.h };
        r = vq_ladder_configure(run.l, &geometry);
        if (r)
            fprintf(stderr, "vqhip: %s\n", vq_ladder_last_error(run.l));
        /* the readers skip the planes no extractor reads */
        unsigned skip = r ? 0 : ~vq_planes_read(vq_ladder_context(run.l, 0)) & 7u;
        run.ref.skip = skip;
        for (unsigned i = 0; i < a->n; i++)
            run.dis[i].skip = skip;
    }
    unsigned n_buf = (a->cfg.n_threads ? a->cfg.n_threads : cli_cpu_count()) + 2;
    if (n_buf > FRAME_READER_MAX_BUFFERS)
        n_buf = FRAME_READER_MAX_BUFFERS;
    VqContext *ctx0 = vq_ladder_context(run.l, 0);
    FrameReaderConfig rc = { .n_buffers = n_buf, .max_frames = a->frame_cnt,
                             .map = ctx0 && !vq_device_name(ctx0)[0],
                             .alloc = cli_plain_alloc, .release = cli_plain_free,
                             .cancel = &cli_interrupted };
    char err[512], why[1024] = "";
    int reported = r != 0, read_err = 0;
    if (!r && frame_reader_start(&run.rr, &run.ref, &rc, err, sizeof(err)))
        r = VQ_ENOMEM;
    for (unsigned i = 0; !r && i < a->n; i++)
        if (frame_reader_start(&run.rd[i], &run.dis[i], &rc, err, sizeof(err)))
            r = VQ_ENOMEM;
    if (r && !reported) {
        fprintf(stderr, "vqhip: %s\n", err);
        reported = 1;
    }
    cli_catch_interrupts();
    unsigned n = 0;
    if (!r) {
        r = score(&run, n_buf, &n, why, sizeof(why), &read_err);
        reported = r != 0;
    } else {
        frame_reader_stop(&run.rr);
        for (unsigned i = 0; i < a->n; i++)
            frame_reader_stop(&run.rd[i]);
    }
    if (cli_interrupted)
        snprintf(why, sizeof(why), "interrupted by signal %d after %u frames",
                 (int)cli_interrupted, n);
    if (!r && n) {
        r = vq_ladder_flush(run.l);
        if (r) {
            fprintf(stderr, "vqhip: %s\n", vq_ladder_last_error(run.l));
            reported = 1;
        }
    }
    if (!r && n)
        r = drain_all(&run);
    if (!r && read_err) {
        r = read_err;
        status = CLI_EXIT_INPUT;
    }
    if (!r && !n) {
        snprintf(why, sizeof(why), "no frames read (an input is empty)");
        fprintf(stderr, "vqhip: %s\n", why);
        r = VQ_EIO;
        status = CLI_EXIT_INPUT;
    }
    if (r && !reported && !read_err && status != CLI_EXIT_INPUT)
        fprintf(stderr, "vqhip: %s\n", vq_strerror(r));
    int logged = 0;
    for (unsigned i = 0; run.l && i < a->n; i++) {
        VqContext *ctx = vq_ladder_context(run.l, i);
        VqRunInfo info;
        vq_run_info(ctx, &info);
        int empty = started && !info.submitted;
        if (empty && !r) {
            fprintf(stderr, "vqhip: rendition %u (%s): no frames read (the "
                    "file is empty)\n", i + 1, a->dis_paths[i]);
            status = CLI_EXIT_INPUT;
        }
        const char *reason = *why ? why : run.why[i];
        if ((!r || read_err) && !empty)
            summary(&run, i, reason);
        if (!a->log_path || !started || empty)
            continue;
        if (*reason)
            vq_set_incomplete(ctx, reason);
        if (vq_write_log(ctx, run.log[i], a->log_fmt)) {
            fprintf(stderr, "vqhip: rendition %u: %s\n", i + 1,
                    vq_last_error(ctx));
            status = status ? status : CLI_EXIT_ERROR;
        } else {
            logged++;
        }
    }
    if (r && !logged)
        discard_logs(&run);
    if (!status && !r && run.n_failed)
        status = CLI_EXIT_INPUT;
    if (!status)
        status = cli_interrupted ? 128 + (int)cli_interrupted : cli_exit_code(r);
done:
    vq_ladder_close(&run.l);
    yuv_close(&run.ref);
    for (unsigned i = 0; run.dis && i < a->n; i++)
        yuv_close(&run.dis[i]);
    free(run.dis);
    free(run.rd);
    free(run.label);
    free(run.log);
    free(run.why);
    return status;
}
