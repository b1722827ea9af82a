/*
 * CAMBI's CPU c-values and exact top-k pooling.
 *
 * The c-values need, for each masked sample, how many masked samples of
 * each value near its own lie in the (2 pad + 1)^2 window around it
 * (clipped to the picture). As libvmaf, a histogram per column holds those
 * counts for the current row's windows, hist[value - base][x], and moving
 * down one row adds the row entering the windows and removes the row
 * leaving them. A run of equal values a..b in such a row changes column x
 * by the overlap of [a, b] with [x - pad, x + pad], so each run is one
 * pass over its span (a trapezoid) rather than one range per sample.
 *
 * The run updates, and the contrast terms, go through the DSP table
 * (cambi_dsp.h).
 */
#include <string.h>

#include "cambi_priv.h"

/* ---- histogram events ------------------------------------------------------- */

/* One row's events: value - base of each masked in-band sample,
 * VQ_CAMBI_NONE elsewhere. */
static void event_row(const VqCambiLuts *L, const uint16_t *restrict img,
                      const uint8_t *restrict mask, unsigned w,
                      uint16_t *restrict ev)
{
    const unsigned base = (unsigned)L->base, band = (unsigned)L->band;
    for (unsigned x = 0; x < w; x++) {
        unsigned u = (unsigned)img[x] - base;
        ev[x] = mask[x] && u < band ? (uint16_t)u : (uint16_t)VQ_CAMBI_NONE;
    }
}

/* A sample entering where an equal one leaves changes nothing. */
static void cancel_events(uint16_t *restrict add, uint16_t *restrict rm,
                          unsigned w)
{
    for (unsigned x = 0; x < w; x++) {
        uint16_t none = add[x] == rm[x] ? (uint16_t)0xFFFF : 0;
        add[x] |= none;
        rm[x] |= none;
    }
}

static int all_none(const uint16_t *ev)
{
    uint64_t v;
    memcpy(&v, ev, sizeof(v));
    return v == ~(uint64_t)0;
}

static void apply_events(const CambiPriv *s, uint16_t *hist,
                         const uint16_t *ev, unsigned w, unsigned pad, int sign)
{
    for (unsigned x = 0; x < w;) {
        while (x + 4 <= w && all_none(ev + x))
            x += 4;
        if (x >= w)
            break;
        uint16_t u = ev[x];
        unsigned e = x;
        while (e + 1 < w && ev[e + 1] == u)
            e++;
        if (u != VQ_CAMBI_NONE)
            s->dsp.add_run(hist + (size_t)u * w, (int)x, (int)e, (int)pad,
                           (int)w, sign);
        x = e + 1;
    }
}

/* ---- c-values ------------------------------------------------------------------ */

/* Level-1 pooling statistics of c[0..n) (see cambi_topk_sum). */
static void level1_add(const float *c, unsigned n, CambiTopkHist *t)
{
    for (unsigned k = 0; k < n; k++) {
        uint32_t key = vq_cambi_key(c[k]);
        if (!key)
            continue;
        unsigned b = (unsigned)vq_cambi_bin(1, key, 0);
        t->cnt1[b]++;
        t->sum1[b] += vq_cambi_fixed(key);
    }
}

/* c-values of one row; a run of masked samples of one value shares its
 * histogram rows, so each contrast step is one pass over the run. */
static void cvalue_row(const CambiPriv *s, const uint16_t *hist, unsigned w,
                       const uint16_t *img, const uint8_t *mask,
                       const uint16_t *zero, float *c, CambiTopkHist *t)
{
    const VqCambiLuts *L = &s->luts;
    memset(c, 0, w * sizeof(*c));
    for (unsigned x = 0; x < w;) {
        uint64_t m8;
        while (x + 8 <= w && (memcpy(&m8, mask + x, 8), !m8))
            x += 8;
        if (x >= w)
            break;
        unsigned v = img[x];
        if (!mask[x] || !vq_cambi_in_band(L, v)) {
            x++;
            continue;
        }
        unsigned e = x + 1;
        while (e < w && mask[e] && img[e] == v)
            e++;
        const int u = (int)v - L->base;
        const uint16_t *h0 = hist + (size_t)u * w + x;
        for (int d = 0; d < L->nd; d++) {
            /* (the band always holds u + d + 1 when d is active) */
            if (!vq_cambi_active(L, v, d) || u + d + 1 >= L->band)
                continue;
            const uint16_t *h1 = hist + (size_t)(u + d + 1) * w + x;
            const uint16_t *h2 = u - d - 1 >= 0
                               ? hist + (size_t)(u - d - 1) * w + x : zero;
            s->dsp.terms(c + x, h0, h1, h2, e - x, L->weight[d], s->recip);
        }
        level1_add(c + x, e - x, t);
        x = e;
    }
}

void cambi_cvalues(const CambiPriv *s, const uint16_t *img,
                   const uint8_t *mask, unsigned w, unsigned h, unsigned pad,
                   uint16_t *hist, uint16_t *rows, float *c, CambiTopkHist *t)
{
    const VqCambiLuts *L = &s->luts;
    memset(t->cnt1, 0, sizeof(t->cnt1));
    memset(t->sum1, 0, sizeof(t->sum1));
    if (!L->band) {
        memset(c, 0, (size_t)w * h * sizeof(*c));
        return;
    }
    uint16_t *ev = rows, *ev_rm = rows + w, *zero = rows + 2 * (size_t)w;
    memset(zero, 0, w * sizeof(*zero));
    memset(hist, 0, (size_t)L->band * w * sizeof(*hist));
    for (unsigned r = 0; r < pad; r++) {
        event_row(L, img + (size_t)r * w, mask + (size_t)r * w, w, ev);
        apply_events(s, hist, ev, w, pad, 1);
    }
    for (unsigned i = 0; i < h; i++) {
        bool add = i + pad < h, rm = i >= pad + 1;
        if (add)
            event_row(L, img + (size_t)(i + pad) * w,
                      mask + (size_t)(i + pad) * w, w, ev);
        if (rm)
            event_row(L, img + (size_t)(i - pad - 1) * w,
                      mask + (size_t)(i - pad - 1) * w, w, ev_rm);
        if (add && rm)
            cancel_events(ev, ev_rm, w);
        if (rm)
            apply_events(s, hist, ev_rm, w, pad, -1);
        if (add)
            apply_events(s, hist, ev, w, pad, 1);
        cvalue_row(s, hist, w, img + (size_t)i * w, mask + (size_t)i * w,
                   zero, c + (size_t)i * w, t);
    }
}

/* ---- exact top-k pooling ---------------------------------------------------------- */

void cambi_topk_level1(const float *c, uint64_t n, CambiTopkHist *t)
{
    memset(t->cnt1, 0, sizeof(t->cnt1));
    memset(t->sum1, 0, sizeof(t->sum1));
    for (uint64_t i = 0; i < n; i += 1u << 30) {
        uint64_t m = n - i < (1u << 30) ? n - i : (1u << 30);
        level1_add(c + i, (unsigned)m, t);
    }
}

/* Finds, from the highest bin down, the bin holding the need-th largest
 * value; adds the sums of the bins above it to *taken and returns the bin,
 * with *need reduced by the counts above it. */
static unsigned select_bin(const uint32_t *cnt, const uint64_t *sum,
                           unsigned bins, uint64_t *need, uint64_t *taken)
{
    uint64_t above = 0;
    unsigned b = bins;
    while (b-- > 0) {
        if (above + cnt[b] >= *need)
            break;
        above += cnt[b];
        *taken += sum[b];
    }
    *need -= above;
    return b;
}

uint64_t cambi_topk_sum(float *c, uint64_t n, uint64_t k, CambiTopkHist *t)
{
    uint64_t nonzero = 0, total = 0;
    for (unsigned b = 0; b < 512; b++) {
        nonzero += t->cnt1[b];
        total += t->sum1[b];
    }
    if (nonzero <= k) /* the rest of the k are zeros */
        return total;
    uint64_t need = k, taken = 0;
    unsigned b1 = select_bin(t->cnt1, t->sum1, 512, &need, &taken);
    if (need == t->cnt1[b1])
        return taken + t->sum1[b1];
    /* level 2 over bin b1; its values are gathered at the front of c (the
     * c-values are not needed after pooling) for level 3 */
    const uint32_t p1 = vq_cambi_prefix(1, 0, b1);
    uint64_t m = 0;
    memset(t->cnt, 0, sizeof(t->cnt));
    memset(t->sum, 0, sizeof(t->sum));
    for (uint64_t i = 0; i < n; i++) {
        uint32_t key = vq_cambi_key(c[i]);
        int b = key ? vq_cambi_bin(2, key, p1) : -1;
        if (b < 0)
            continue;
        t->cnt[b]++;
        t->sum[b] += vq_cambi_fixed(key);
        c[m++] = c[i];
    }
    unsigned b2 = select_bin(t->cnt, t->sum, 1024, &need, &taken);
    if (need == t->cnt[b2])
        return taken + t->sum[b2];
    const uint32_t p2 = vq_cambi_prefix(2, p1, b2);
    memset(t->cnt, 0, 512 * sizeof(t->cnt[0]));
    for (uint64_t i = 0; i < m; i++) {
        int b = vq_cambi_bin(3, vq_cambi_key(c[i]), p2);
        if (b >= 0)
            t->cnt[b]++;
    }
    for (unsigned b = 0; b < 512; b++)
        t->sum[b] = t->cnt[b] * vq_cambi_fixed(vq_cambi_prefix(3, p2, b));
    unsigned b3 = select_bin(t->cnt, t->sum, 512, &need, &taken);
    return taken + need * vq_cambi_fixed(vq_cambi_prefix(3, p2, b3));
}
