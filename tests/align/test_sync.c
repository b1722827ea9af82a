/*
 * vq_sync_* (the offset search of docs/ALIGNMENT.md) through the public
 * API, on flat frames whose levels change from frame to frame: every
 * block mean is the frame's level, so the mean squared difference at each
 * offset is a sum of squared level differences, computed here from the
 * definition. The same frames at 10 bits and in P010 give the same
 * result; a static clip and pictures of another size are refused.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../common/unit_check.h"
#include "vqhip.h"

#define W 64
#define H 36
#define RANGE 4
#define FRAMES 6
#define N (RANGE + FRAMES)

static int ref_level(int t) { return 20 + 3 * t + (t * t) % 7; }

/* distorted frame m: the reference's frame m - k, or other levels first */
static int dis_level(int m, int k)
{
    return m - k >= 0 ? ref_level(m - k) : 240 - 5 * m;
}

/* a flat picture of the level, in 8-bit units, as fmt at bpc bits */
static void fill(VqPicture *p, void *buf, int level, VqPixFmt fmt, unsigned bpc)
{
    memset(p, 0, sizeof(*p));
    p->fmt = fmt;
    p->bpc = bpc;
    p->w = W;
    p->h = H;
    p->data[0] = buf;
    if (bpc == 8) {
        memset(buf, level, W * H);
        p->stride[0] = W;
    } else {
        unsigned shift = fmt == VQ_PIX_FMT_P010 ? 8 : bpc - 8;
        uint16_t *s = buf;
        for (int i = 0; i < W * H; i++)
            s[i] = (uint16_t)(level << shift);
        p->stride[0] = 2 * W;
    }
}

/* The definition: offsets -RANGE..RANGE, FRAMES pairs (fewer at the end,
 * none below FRAMES / 2), the mean over pairs of the squared difference. */
static double expected_mse(int j, int k, int n, int *pairs)
{
    int r0 = j < 0 ? -j : 0, d0 = j > 0 ? j : 0;
    int m = FRAMES;
    if (n - r0 < m)
        m = n - r0;
    if (n - d0 < m)
        m = n - d0;
    *pairs = m >= FRAMES / 2 ? m : 0;
    double s = 0;
    for (int i = 0; i < m; i++) {
        double d = ref_level(r0 + i) - dis_level(d0 + i, k);
        s += d * d;
    }
    return m ? s / m : 0;
}

/* n frames of each input: N, or fewer (an input that ends early) */
static void run(int k, int n, VqPixFmt fmt, unsigned bpc, const char *what)
{
    VqSyncConfig cfg = { .range = RANGE, .frames = FRAMES };
    VqSync *s = NULL;
    VqSyncResult r;
    void *buf = malloc(2 * W * H);
    CHECK_MSG(vq_sync_open(&s, &cfg) == 0 && vq_sync_needed(s) == N, "%s: open",
          what);
    for (int t = 0; t < n; t++) {
        VqPicture p;
        fill(&p, buf, ref_level(t), fmt, bpc);
        CHECK_MSG(vq_sync_add(s, 0, &p) == 0, "%s: add ref %d", what, t);
        fill(&p, buf, dis_level(t, k), fmt, bpc);
        CHECK_MSG(vq_sync_add(s, 1, &p) == 0, "%s: add dis %d", what, t);
    }
    CHECK_MSG(vq_sync_find(s, &r) == 0, "%s: find", what);
    double second = INFINITY;
    int lo = 0, hi = 0, pairs;
    for (int j = -RANGE; j <= RANGE; j++) {
        double e = expected_mse(j, k, n, &pairs);
        if (!pairs)
            continue;
        lo = j < lo ? j : lo;
        hi = j > hi ? j : hi;
        if (j != k && e < second)
            second = e;
    }
    expected_mse(k, k, n, &pairs);
    CHECK_MSG(r.found == 1 && r.offset == k, "%s: offset %d found %d (want %d)",
          what, r.offset, r.found, k);
    CHECK_MSG(r.best_mse == 0 && r.second_mse == second && r.confidence == 1.0,
          "%s: best %.17g second %.17g (want %.17g) confidence %.17g", what,
          r.best_mse, r.second_mse, second, r.confidence);
    CHECK_MSG(r.lo == lo && r.hi == hi && (int)r.compared == pairs,
          "%s: offsets %d..%d over %u (want %d..%d over %d)", what, r.lo, r.hi,
          r.compared, lo, hi, pairs);
    vq_sync_close(&s);
    CHECK_MSG(s == NULL, "%s: closed", what);
    free(buf);
}

static void refused(void)
{
    VqSyncConfig cfg = { .range = RANGE, .frames = FRAMES };
    VqSync *s = NULL;
    VqSyncResult r;
    uint8_t buf[W * H * 2];
    VqPicture p;
    vq_sync_open(&s, &cfg);
    for (int t = 0; t < N; t++) {
        fill(&p, buf, 77, VQ_PIX_FMT_GRAY, 8);
        vq_sync_add(s, 0, &p);
        fill(&p, buf, t < 2 ? 10 : 77, VQ_PIX_FMT_GRAY, 8);
        vq_sync_add(s, 1, &p);
    }
    vq_sync_find(s, &r);
    CHECK_MSG(!r.found && r.offset == 0 && strstr(r.why, "flat"),
          "flat: found %d offset %d why '%s'", r.found, r.offset, r.why);
    p.w = W / 2;
    CHECK_MSG(vq_sync_add(s, 0, &p) == VQ_EINVAL &&
          strstr(vq_sync_error(s), "32x36"), "another size: '%s'",
          vq_sync_error(s));
    vq_sync_close(&s);
    vq_sync_open(&s, &cfg);
    vq_sync_find(s, &r);
    CHECK_MSG(!r.found && strstr(r.why, "too few"), "no frames: '%s'", r.why);
    vq_sync_close(&s);
}

int main(void)
{
    run(2, N, VQ_PIX_FMT_GRAY, 8, "k=2 8-bit");
    run(-3, N, VQ_PIX_FMT_420, 8, "k=-3 8-bit 4:2:0");
    run(-3, N, VQ_PIX_FMT_420, 10, "k=-3 10-bit");
    run(4, N, VQ_PIX_FMT_P010, 10, "k=4 p010");
    run(0, N, VQ_PIX_FMT_GRAY, 12, "k=0 12-bit");
    /* 6 frames: offsets +-4 have 2 pairs, fewer than FRAMES / 2 */
    run(1, 6, VQ_PIX_FMT_GRAY, 8, "k=1 6 frames");
    run(-2, 7, VQ_PIX_FMT_GRAY, 16, "k=-2 7 frames 16-bit");
    refused();
    printf("test_sync: %u checks, %u failures\n", n_checks, n_fail);
    return n_fail ? 1 : 0;
}
