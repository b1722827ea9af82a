/*
 * A ladder's speed_chroma on the CPU (docs/LADDER.md): the reference's
 * results of both chroma planes are a per-frame product, computed once and
 * read by every rendition. speed_chroma scores 0 on small frames, so this
 * runs on 960x544 ones (test_ladder's are too small to tell a wrong
 * product from a right one): a reference with textured chroma of its own
 * in each plane, three renditions blurring it differently, 4:2:0 8-bit
 * and 10-bit. Checked: each rendition's speed_chroma values equal its pair
 * run's bit for bit and are not all zero; the product computed once per
 * frame and taken once per frame and rendition (vq_ladder_share_info).
 */
#include <stdlib.h>
#include <string.h>

#include "../common/unit_check.h"
#include "vqhip.h"

#define W 960
#define H 544
#define FRAMES 3
#define N 3
#define CW (W / 2)
#define CH (H / 2)

/* A picture's planes: 8-bit, and the same values x 4 + 1 as 10-bit. */
typedef struct Pic {
    uint8_t y[W * H], u[CW * CH], v[CW * CH];
    uint16_t y16[W * H], u16[CW * CH], v16[CW * CH];
} Pic;

static Pic *ref, *dis; /* ref[FRAMES], dis[N * FRAMES] */

static void make(void)
{
    ref = calloc(FRAMES, sizeof(*ref));
    dis = calloc(N * FRAMES, sizeof(*dis));
    for (int t = 0; t < FRAMES; t++) {
        Pic *r = &ref[t];
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++)
                r->y[y * W + x] = (uint8_t)((x * 3 + y * 2 + t * 5) % 200 + 20);
        for (int y = 0; y < CH; y++)
            for (int x = 0; x < CW; x++) {
                r->u[y * CW + x] = (uint8_t)(100 + ((x * 5 + t * 3) ^ (y * 3)) % 50);
                r->v[y * CW + x] = (uint8_t)(90 + (x * y / 7 + 11 * t) % 70);
            }
        for (int i = 0; i < N; i++) {
            Pic *d = &dis[i * FRAMES + t];
            *d = *r;
            /* U: a horizontal blur of 1 + i columns; V: a vertical one */
            for (int y = 0; y < CH; y++)
                for (int x = 0; x < CW; x++) {
                    int xs = x + 1 + i < CW ? x + 1 + i : x;
                    int ys = y + 1 + i < CH ? y + 1 + i : y;
                    d->u[y * CW + x] = (uint8_t)((r->u[y * CW + x] +
                                                  r->u[y * CW + xs] + 1) / 2);
                    d->v[y * CW + x] = (uint8_t)((r->v[y * CW + x] +
                                                  3 * r->v[ys * CW + x] + 2) / 4);
                }
        }
    }
    for (int k = 0; k < FRAMES * (N + 1); k++) {
        Pic *p = k < FRAMES ? &ref[k] : &dis[k - FRAMES];
        for (int j = 0; j < W * H; j++)
            p->y16[j] = (uint16_t)(p->y[j] * 4 + 1);
        for (int j = 0; j < CW * CH; j++) {
            p->u16[j] = (uint16_t)(p->u[j] * 4 + 1);
            p->v16[j] = (uint16_t)(p->v[j] * 4 + 1);
        }
    }
}

static VqPicture picture(const Pic *p, unsigned bpc)
{
    VqPicture q = { .fmt = VQ_PIX_FMT_420, .bpc = bpc, .w = W, .h = H };
    int wide = bpc > 8;
    q.data[0] = wide ? (const void *)p->y16 : (const void *)p->y;
    q.data[1] = wide ? (const void *)p->u16 : (const void *)p->u;
    q.data[2] = wide ? (const void *)p->v16 : (const void *)p->v;
    q.stride[0] = (ptrdiff_t)W << wide;
    q.stride[1] = q.stride[2] = (ptrdiff_t)CW << wide;
    return q;
}

/* Every output value of every frame a context gives, in order. */
typedef struct Got {
    unsigned n;
    double v[FRAMES * 4];
} Got;

static void take(VqContext *ctx, Got *g)
{
    VqFrameScores fs;
    while (vq_receive(ctx, &fs) == 0)
        for (unsigned k = 0; k < fs.n && g->n < FRAMES * 4; k++)
            g->v[g->n++] = fs.scores[k].value;
}

static VqConfig config(void)
{
    VqConfig cfg = vq_default_config();
    cfg.backend = VQ_BACKEND_CPU;
    cfg.n_threads = 2;
    return cfg;
}

static void run(unsigned bpc)
{
    VqConfig cfg = config();
    Got want[N], got[N];
    memset(want, 0, sizeof(want));
    memset(got, 0, sizeof(got));
    for (unsigned i = 0; i < N; i++) {
        VqContext *ctx;
        int r = vq_open(&ctx, &cfg);
        if (!r)
            r = vq_use_feature(ctx, "speed_chroma");
        for (unsigned t = 0; !r && t < FRAMES; t++) {
            VqPicture rp = picture(&ref[t], bpc);
            VqPicture dp = picture(&dis[i * FRAMES + t], bpc);
            r = vq_submit(ctx, &rp, &dp);
        }
        if (!r)
            r = vq_flush(ctx);
        take(ctx, &want[i]);
        CHECK_MSG(!r, "pair run %u: %s", i, vq_last_error(ctx));
        vq_close(&ctx);
    }
    VqLadder *l;
    int r = vq_ladder_open(&l, &cfg, N);
    for (unsigned i = 0; !r && i < N; i++)
        r = vq_use_feature(vq_ladder_context(l, i), "speed_chroma");
    for (unsigned t = 0; !r && t < FRAMES; t++) {
        VqPicture rp = picture(&ref[t], bpc), dp[N];
        const VqPicture *d[N];
        for (unsigned i = 0; i < N; i++) {
            dp[i] = picture(&dis[i * FRAMES + t], bpc);
            d[i] = &dp[i];
        }
        r = vq_ladder_submit(l, &rp, d);
    }
    if (!r)
        r = vq_ladder_flush(l);
    CHECK_MSG(!r, "ladder, %u bits: %s", bpc, vq_ladder_last_error(l));
    int nonzero = 0;
    for (unsigned i = 0; i < N; i++) {
        take(vq_ladder_context(l, i), &got[i]);
        CHECK_MSG(got[i].n == want[i].n && got[i].n == FRAMES * 3,
                  "%u bits, rendition %u: %u values, the pair run %u", bpc,
                  i + 1, got[i].n, want[i].n);
        for (unsigned k = 0; k < got[i].n && k < want[i].n; k++) {
            CHECK_MSG(!memcmp(&got[i].v[k], &want[i].v[k], sizeof(double)),
                      "%u bits, rendition %u, value %u: %.17g, the pair "
                      "run's %.17g", bpc, i + 1, k, got[i].v[k], want[i].v[k]);
            nonzero |= got[i].v[k] != 0;
        }
    }
    CHECK_MSG(nonzero, "%u bits: every speed_chroma value is 0", bpc);
    VqLadderShare sh;
    CHECK_MSG(!vq_ladder_share_info(l, &sh) && sh.extractors == 1 &&
              sh.computed == FRAMES && sh.used == (uint64_t)N * FRAMES,
              "%u bits: %u extractors shared, computed %llu, used %llu",
              bpc, sh.extractors, (unsigned long long)sh.computed,
              (unsigned long long)sh.used);
    vq_ladder_close(&l);
}

int main(void)
{
    make();
    CHECK_MSG(ref && dis, "out of memory");
    if (ref && dis) {
        run(8);
        run(10);
    }
    free(ref);
    free(dis);
    TEST_END();
}
