/* Drops and repeats mid-stream (docs/ALIGNMENT.md#drops-and-repeats). */
#include <string.h>

#include "core/realign.h"

#define DEFAULT_WINDOW 3
#define DEFAULT_RATIO 0.5
#define DEFAULT_MIN_GAP 2.0

void vq_realign_state_init(VqRealignState *s, const VqRealignConfig *cfg)
{
    memset(s, 0, sizeof(*s));
    s->window = cfg && cfg->window ? cfg->window : DEFAULT_WINDOW;
    s->ratio = cfg && cfg->ratio > 0 ? cfg->ratio : DEFAULT_RATIO;
    s->min_gap = cfg && cfg->min_gap > 0 ? cfg->min_gap : DEFAULT_MIN_GAP;
    /* the frame before the head (for telling a repeat), the head and
     * window frames past it */
    s->cap = s->window + 2;
    VqSyncConfig storage = { .range = 1, .frames = s->cap - 1 };
    vq_align_init(&s->g, &storage);
}

static const float *grid(const VqRealignState *s, int i,
                         unsigned long long frame)
{
    return vq_align_grid(&s->g, i, (unsigned)(frame % s->cap));
}

int vq_realign_state_add(VqRealignState *s, int distorted,
                         const VqPicture *pic, char *why, size_t why_size)
{
    int i = distorted ? 1 : 0;
    if (s->added[i] - s->head[i] >= s->window + 1)
        return 1;
    if (vq_align_put(&s->g, i, (unsigned)(s->added[i] % s->cap), pic, why,
                     why_size))
        return -1;
    s->added[i]++;
    return 0;
}

int vq_realign_state_decide(VqRealignState *s, VqRealignEvent *ev)
{
    unsigned long long r = s->head[0], d = s->head[1];
    if (s->added[0] == r || s->added[1] == d)
        return -1;
    /* near an input's end there is no window to confirm with */
    if (s->added[0] - r < s->window + 1 || s->added[1] - d < s->window + 1)
        return 0;
    const VqAlign *g = &s->g;
    int dir = 0;
    double sum0 = 0, sumn = 0;
    for (unsigned t = 0; t < s->window; t++) {
        double e0 = vq_align_mse(g, grid(s, 0, r + t), grid(s, 1, d + t));
        /* the reference's next frame: the distorted video lost one */
        double em = vq_align_mse(g, grid(s, 0, r + t + 1), grid(s, 1, d + t));
        /* the distorted video's next frame: it has an extra one */
        double ep = vq_align_mse(g, grid(s, 0, r + t), grid(s, 1, d + t + 1));
        double e = em < ep ? em : ep;
        int here = em == ep ? 0 : em < ep ? -1 : 1;
        if (!here || !(e <= s->ratio * e0 && e0 - e >= s->min_gap) ||
            (t && here != dir))
            return 0;
        dir = here;
        sum0 += e0;
        sumn += e;
    }
    int i = dir < 0 ? 0 : 1; /* the input whose head frame is left out */
    unsigned long long h = s->head[i];
    /* A repeat: the frame left out is as close to the one before it as
     * the matching pairs are to each other (an exact repeat: 0). */
    int repeat = h > 0 && vq_align_mse(g, grid(s, i, h - 1), grid(s, i, h)) <=
                          sumn / s->window;
    memset(ev, 0, sizeof(*ev));
    ev->delta = dir;
    ev->offset = s->offset + dir;
    ev->ref_frame = r;
    ev->dis_frame = d;
    /* a lost distorted frame and a repeated reference frame look alike
     * to the pairs (and an extra distorted frame and a lost reference
     * one): the repeat test tells them apart */
    ev->input = (dir < 0) ^ repeat;
    ev->repeat = repeat;
    ev->mse_pair = sum0 / s->window;
    ev->mse_neighbour = sumn / s->window;
    s->head[i]++;
    s->offset += dir;
    return 1;
}

int vq_realign_state_pop(VqRealignState *s)
{
    if (s->added[0] == s->head[0] || s->added[1] == s->head[1])
        return -1;
    s->head[0]++;
    s->head[1]++;
    return 0;
}

void vq_realign_state_free(VqRealignState *s)
{
    vq_align_free(&s->g);
    memset(s, 0, sizeof(*s));
}
