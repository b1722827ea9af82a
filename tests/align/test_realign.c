/*
 * vq_realign_* (docs/ALIGNMENT.md, "Drops and repeats mid-stream") through
 * the public API, on flat frames: every block mean is the frame's level,
 * so each term of the rule is a squared level difference known here. The
 * caller's loop of the CLI is played: frames added window + 1 ahead of the
 * head pair, the decision taken, the pair popped. The truth is in the
 * level sequences: a frame lost or repeated at K is found at the pair K,
 * the pairs after are the right frames; a misalignment shorter than the
 * window, or one whose difference is below min_gap, gives no event.
 */
#include <string.h>

#include "../common/unit_check.h"
#include "vqhip.h"

#define W 32
#define H 18
#define N 24
#define K 7

typedef struct Pair { int r, d; } Pair;

static void flat(VqPicture *p, unsigned char *buf, int level)
{
    memset(p, 0, sizeof(*p));
    p->fmt = VQ_PIX_FMT_GRAY;
    p->bpc = 8;
    p->w = W;
    p->h = H;
    memset(buf, level, W * H);
    p->data[0] = buf;
    p->stride[0] = W;
}

/* Plays the CLI's loop; the pairs scored in pairs[], the events in ev[].
 * Returns the number of pairs. */
static int play(const int *ref, int nr, const int *dis, int nd,
                Pair *pairs, VqRealignEvent *ev, int *n_ev)
{
    static unsigned char buf[W * H];
    VqRealign *r = NULL;
    CHECK_MSG(vq_realign_open(&r, NULL) == 0 && vq_realign_ahead(r) == 4, "open");
    int ar = 0, ad = 0, hr = 0, hd = 0, np = 0;
    *n_ev = 0;
    for (;;) {
        VqPicture p;
        while (ar < nr && ar - hr < 4) {
            flat(&p, buf, ref[ar++]);
            CHECK_MSG(vq_realign_add(r, 0, &p) == 0, "add ref %d", ar - 1);
        }
        while (ad < nd && ad - hd < 4) {
            flat(&p, buf, dis[ad++]);
            CHECK_MSG(vq_realign_add(r, 1, &p) == 0, "add dis %d", ad - 1);
        }
        if (hr == ar || hd == ad)
            break;
        VqRealignEvent e;
        int st = vq_realign_decide(r, &e);
        if (st == 1) {
            CHECK_MSG((int)e.ref_frame == hr && (int)e.dis_frame == hd,
                  "event at the head pair");
            if (*n_ev < 4)
                ev[(*n_ev)++] = e;
            if (e.delta < 0)
                hr++;
            else
                hd++;
            continue;
        }
        CHECK_MSG(st == 0, "decide %d", st);
        pairs[np++] = (Pair){ hr++, hd++ };
        CHECK_MSG(vq_realign_pop(r) == 0, "pop");
    }
    VqRealignEvent e;
    CHECK_MSG(vq_realign_decide(r, &e) == VQ_EINVAL, "no head pair: EINVAL");
    vq_realign_close(&r);
    CHECK_MSG(r == NULL, "closed");
    return np;
}

static int level(int t) { return 20 + 7 * t; } /* consecutive: 49 apart */

static void one_event(const char *what, const int *ref, int nr,
                      const int *dis, int nd, int delta, int input,
                      int repeat, int mse_pair)
{
    Pair pairs[2 * N];
    VqRealignEvent ev[4];
    int n_ev, np = play(ref, nr, dis, nd, pairs, ev, &n_ev);
    CHECK_MSG(n_ev == 1, "%s: %d events", what, n_ev);
    if (n_ev != 1)
        return;
    CHECK_MSG(ev[0].ref_frame == K && ev[0].dis_frame == K, "%s: at pair %llu/%llu",
          what, ev[0].ref_frame, ev[0].dis_frame);
    CHECK_MSG(ev[0].delta == delta && ev[0].offset == delta, "%s: delta %d",
          what, ev[0].delta);
    CHECK_MSG(ev[0].input == input && ev[0].repeat == repeat,
          "%s: input %d repeat %d", what, ev[0].input, ev[0].repeat);
    CHECK_MSG(ev[0].mse_pair == mse_pair && ev[0].mse_neighbour == 0,
          "%s: mse %g, %g", what, ev[0].mse_pair, ev[0].mse_neighbour);
    /* every pair scored is of one level */
    int bad = 0;
    for (int i = 0; i < np; i++)
        bad += ref[pairs[i].r] != dis[pairs[i].d];
    CHECK_MSG(!bad && np == (nr < nd ? nr : nd), "%s: %d pairs, %d mismatched",
          what, np, bad);
}

int main(void)
{
    int base[N + 1], drop[N], rep[N + 1], glitch[N], slow[N], slow_drop[N];
    for (int t = 0; t <= N; t++)
        base[t] = level(t);
    /* the distorted video loses frame K */
    for (int t = 0; t < N; t++)
        drop[t] = level(t < K ? t : t + 1);
    one_event("distorted drop", base, N + 1, drop, N, -1, 1, 0, 49);
    /* the distorted video repeats frame K - 1 at K */
    for (int t = 0; t <= N; t++)
        rep[t] = level(t < K ? t : t - 1);
    one_event("distorted repeat", base, N, rep, N + 1, 1, 1, 1, 49);
    /* the reference repeats, the distorted video loses nothing */
    one_event("reference repeat", rep, N + 1, base, N, -1, 0, 1, 49);
    /* the reference loses frame K */
    one_event("reference drop", drop, N, base, N + 1, 1, 0, 0, 49);

    /* pairs K, K + 1 off (fewer than the window of 3): no event */
    for (int t = 0; t < N; t++)
        glitch[t] = level(t == K || t == K + 1 ? t + 1 : t);
    Pair pairs[2 * N];
    VqRealignEvent ev[4];
    int n_ev, np = play(base, N, glitch, N, pairs, ev, &n_ev);
    CHECK_MSG(n_ev == 0 && np == N, "glitch of 2 pairs: %d events", n_ev);
    /* levels 1 apart: a drop's difference 1 is below min_gap 2: none */
    for (int t = 0; t < N; t++) {
        slow[t] = 100 + t;
        slow_drop[t] = 100 + (t < K ? t : t + 1);
    }
    np = play(slow, N, slow_drop, N, pairs, ev, &n_ev);
    CHECK_MSG(n_ev == 0 && np == N, "slow content: %d events", n_ev);
    /* static: every term 0 */
    int still[N];
    for (int t = 0; t < N; t++)
        still[t] = 90;
    np = play(still, N, still, N, pairs, ev, &n_ev);
    CHECK_MSG(n_ev == 0 && np == N, "static content: %d events", n_ev);

    /* the read-ahead is bounded; another size is refused */
    VqRealign *r = NULL;
    VqRealignConfig cfg = { .window = 2 };
    static unsigned char buf[2 * W * H];
    VqPicture p;
    CHECK_MSG(vq_realign_open(&r, &cfg) == 0 && vq_realign_ahead(r) == 3,
          "window 2: 3 ahead");
    for (int i = 0; i < 3; i++) {
        flat(&p, buf, 50);
        CHECK_MSG(vq_realign_add(r, 0, &p) == 0, "add %d", i);
    }
    CHECK_MSG(vq_realign_add(r, 0, &p) == VQ_EAGAIN, "a 4th ahead: EAGAIN");
    p.w = 2 * W;
    CHECK_MSG(vq_realign_add(r, 1, &p) == VQ_EINVAL &&
          strstr(vq_realign_error(r), "one size"), "another size: EINVAL");
    vq_realign_close(&r);
    printf("%u checks, %u failed\n", n_checks, n_fail);
    return n_fail ? 1 : 0;
}
