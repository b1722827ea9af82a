/* Windows through the API (vq_use_windows, vq_receive_window): when a
 * window closes, what it holds (frames, seconds with skipped and
 * backward timestamps, n_subsample), its mean/min/max against the frames'
 * own scores from vq_receive, and the refused configurations. The
 * percentiles and the other statistics are checked against numpy by
 * tests/windows/check_windows.py. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../common/unit_check.h"
#include "../common/flat_picture.h"
#include "vqhip.h"

#define MAXF 16

static VqContext *open_ctx(unsigned sub, VqWindowConfig *wc)
{
    VqConfig cfg = vq_default_config();
    cfg.backend = VQ_BACKEND_CPU;
    cfg.n_threads = 2;
    cfg.n_subsample = sub;
    VqContext *ctx = NULL;
    CHECK(!vq_open(&ctx, &cfg));
    CHECK(!vq_use_feature(ctx, "name=psnr:enable_chroma=false"));
    int e = vq_use_windows(ctx, wc);
    CHECK_MSG(!e, "%s", vq_last_error(ctx));
    return ctx;
}

/* psnr_y of every frame, from vq_receive */
static double score[MAXF];

static int receive_one(VqContext *ctx)
{
    VqFrameScores fs;
    int r = vq_receive_wait(ctx, &fs);
    if (!r) {
        /* no scores on frames n_subsample leaves out */
        CHECK_MSG(fs.n == 0 || (fs.n == 1 && !strcmp(fs.scores[0].name, "psnr_y")),
                  "frame %u: %u scores, %s", fs.index, fs.n, fs.n ? fs.scores[0].name : "");
        score[fs.index] = fs.n ? fs.scores[0].value : NAN;
        return (int)fs.index;
    }
    return r;
}

/* One window against the frames it should hold. */
static void check_window(const VqWindow *w, unsigned index, unsigned first,
                         unsigned last, unsigned sub, int partial)
{
    CHECK_MSG(w->index == index && w->first_frame == first &&
              w->last_frame == last && w->n_frames == last - first + 1 &&
              w->partial == partial, "window %u: %u-%u (%u) partial %d",
              w->index, w->first_frame, w->last_frame, w->n_frames,
              w->partial);
    double sum = 0, min = INFINITY, max = -INFINITY;
    unsigned n = 0;
    for (unsigned i = first; i <= last; i++) {
        if (i % sub)
            continue;
        sum += score[i];
        min = score[i] < min ? score[i] : min;
        max = score[i] > max ? score[i] : max;
        n++;
    }
    CHECK_MSG(w->n_scored == n, "window %u: %u scored, expected %u",
              w->index, w->n_scored, n);
    CHECK(w->n == 3);
    for (unsigned k = 0; k < w->n && k < 3; k++) {
        const VqWindowStat *s = &w->stats[k];
        double want = !strcmp(s->stat, "mean") ? sum / n :
                      !strcmp(s->stat, "min") ? min : max;
        CHECK(!strcmp(s->output, "psnr_y"));
        if (!n)
            CHECK_MSG(isnan(s->value), "window %u: %s %g", w->index,
                      s->stat, s->value);
        else
            CHECK_MSG(s->value == want, "window %u %s: %.17g, expected "
                      "%.17g", w->index, s->stat, s->value, want);
    }
}

/* Windows of 3 frames: each closes with its third frame; the last (6-7)
 * with the last frame received after vq_flush, partial. */
static void frames_windows(void)
{
    VqWindowConfig wc = { .frames = 3 };
    VqContext *ctx = open_ctx(1, &wc);
    FlatPicture r, d;
    flat_picture(&r, 100);
    VqWindow w;
    unsigned next = 0;
    for (unsigned i = 0; i < 8; i++) {
        flat_picture(&d, 100 + (i * 7) % 11 + 1);
        CHECK(!vq_submit(ctx, &r.pic, &d.pic));
        if (i == 7)
            CHECK(!vq_flush(ctx));
        int f;
        while ((f = receive_one(ctx)) >= 0) {
            int closes = f % 3 == 2 || f == 7;
            int got = vq_receive_window(ctx, &w);
            CHECK_MSG(got == (closes ? 0 : VQ_EAGAIN), "after frame %d: %d",
                      f, got);
            if (!got) {
                check_window(&w, next, next * 3, (unsigned)f, 1, f == 7);
                next++;
            }
            CHECK(vq_receive_window(ctx, &w) == VQ_EAGAIN);
        }
    }
    CHECK(next == 3);
    vq_close(&ctx);
}

/* Windows of 0.3 s at a time base of 1/10: pts 0 1 2 | 5 | 7 | 30 31 29 32;
 * empty windows are skipped, 29 (going back) stays in the open one, the
 * last closes at VQ_EOF (no frame after flush is received after it). */
static void seconds_windows(void)
{
    static const int64_t pts[] = { 0, 1, 2, 5, 7, 30, 31, 29, 32 };
    VqWindowConfig wc = { .seconds = 0.3, .time_base_num = 1,
                          .time_base_den = 10 };
    VqContext *ctx = open_ctx(1, &wc);
    FlatPicture r, d;
    flat_picture(&r, 90);
    int closed_after[9];
    for (unsigned i = 0; i < 9; i++) {
        flat_picture(&d, 92 + i);
        d.pic.pts = pts[i];
        CHECK(!vq_submit(ctx, &r.pic, &d.pic));
        int f = receive_one(ctx);
        CHECK(f == (int)i);
        VqWindow w;
        closed_after[i] = vq_receive_window(ctx, &w) ? -1 : (int)w.index;
        if (closed_after[i] == 0) {
            check_window(&w, 0, 0, 2, 1, 0);
            CHECK(w.start == 0.0 && w.end == 0.2);
        } else if (closed_after[i] == 1) {
            check_window(&w, 1, 3, 3, 1, 0);
            CHECK(w.start == 0.5 && w.end == 0.5);
        } else if (closed_after[i] == 2) {
            check_window(&w, 2, 4, 4, 1, 0);
        }
    }
    /* closed by frames 3, 4 and 5: the first frames past them */
    int want[9] = { -1, -1, -1, 0, 1, 2, -1, -1, -1 };
    for (unsigned i = 0; i < 9; i++)
        CHECK_MSG(closed_after[i] == want[i], "after frame %u: window %d",
                  i, closed_after[i]);
    CHECK(!vq_flush(ctx));
    CHECK(receive_one(ctx) == VQ_EOF);
    VqWindow w;
    CHECK(!vq_receive_window(ctx, &w));
    check_window(&w, 3, 5, 8, 1, 1);
    CHECK(w.start == 3.0 && w.end == 3.2);
    CHECK(vq_receive_window(ctx, &w) == VQ_EAGAIN);
    vq_close(&ctx);
}

/* n_subsample 4, windows of 2: frames 2-3 hold no scored frame (NaN). */
static void subsampled_windows(void)
{
    VqWindowConfig wc = { .frames = 2 };
    VqContext *ctx = open_ctx(4, &wc);
    FlatPicture r, d;
    flat_picture(&r, 60);
    for (unsigned i = 0; i < 6; i++) {
        flat_picture(&d, 61 + i);
        CHECK(!vq_submit(ctx, &r.pic, &d.pic));
    }
    CHECK(!vq_flush(ctx));
    while (receive_one(ctx) >= 0)
        ;
    VqWindow w;
    for (unsigned k = 0; k < 3; k++) {
        CHECK(!vq_receive_window(ctx, &w));
        check_window(&w, k, 2 * k, 2 * k + 1, 4, 0);
    }
    CHECK(vq_receive_window(ctx, &w) == VQ_EAGAIN);
    vq_close(&ctx);
}

static void refused(void)
{
    VqConfig cfg = vq_default_config();
    cfg.backend = VQ_BACKEND_CPU;
    VqContext *ctx = NULL;
    CHECK(!vq_open(&ctx, &cfg));
    VqWindowConfig wc = { .seconds = 2 };
    CHECK(vq_use_windows(ctx, &wc) == VQ_EINVAL); /* no time base */
    CHECK(strstr(vq_last_error(ctx), "time_base") != NULL);
    wc = (VqWindowConfig){ .frames = 5, .seconds = 2 };
    CHECK(vq_use_windows(ctx, &wc) == VQ_EINVAL);
    wc = (VqWindowConfig){ 0 };
    CHECK(vq_use_windows(ctx, &wc) == VQ_EINVAL);
    const char *bad[] = { "perc101", "perc", "foo", "mean||min", "below",
                          "perc5x" };
    for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        wc = (VqWindowConfig){ .frames = 5, .stats = bad[i] };
        CHECK_MSG(vq_use_windows(ctx, &wc) == VQ_EINVAL, "%s", bad[i]);
    }
    wc = (VqWindowConfig){ .frames = 5, .thresholds = "60|x" };
    CHECK(vq_use_windows(ctx, &wc) == VQ_EINVAL);
    CHECK(strstr(vq_last_error(ctx), "belowx") != NULL);
    CHECK(vq_log_pools(ctx, "mean|perc200") == VQ_EINVAL);
    CHECK(vq_set_log_precision(ctx, 18) == VQ_EINVAL);
    CHECK(!vq_use_feature(ctx, "name=psnr:enable_chroma=false"));
    FlatPicture r;
    flat_picture(&r, 50);
    CHECK(!vq_submit(ctx, &r.pic, &r.pic));
    wc = (VqWindowConfig){ .frames = 5 };
    CHECK(vq_use_windows(ctx, &wc) == VQ_ESTATE);
    CHECK(!vq_flush(ctx));
    while (receive_one(ctx) >= 0)
        ;
    double v;
    CHECK(vq_pooled_stat(ctx, "psnr_y", "perc5", &v) == 0);
    CHECK(vq_pooled_stat(ctx, "psnr_y", "nope", &v) == VQ_EINVAL);
    CHECK(vq_pooled_stat(ctx, "nope", "perc5", &v) == VQ_ENOTFOUND);
    CHECK(vq_receive_window(ctx, &(VqWindow){ 0 }) == VQ_EAGAIN);
    vq_close(&ctx);
}

int main(void)
{
    frames_windows();
    seconds_windows();
    subsampled_windows();
    refused();
    TEST_END();
}
