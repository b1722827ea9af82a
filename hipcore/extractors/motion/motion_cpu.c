/* motion's CPU stage. */
#include "motion_priv.h"

#include "core/refshare.h"

/* ---- CPU path ---------------------------------------------------------- */

/* Fills the two mirrored taps on each side of a row at [2, w + 2). */
static void mirror_row_edges(int16_t *row, size_t w)
{
    int16_t *v = row + VQ_MOTION_RADIUS;
    row[0] = v[2];
    row[1] = v[1];
    v[w] = v[w - 2];
    v[w + 1] = v[w - 3];
}

/* The SAD of rows [y0, y1). */
static uint64_t motion_sad_cpu(const MotionPriv *s, const VqFormat *fmt,
                               const uint8_t *prev, const VqPlane *cur,
                               int16_t *scratch, unsigned y0, unsigned y1)
{
    const unsigned w = cur->w, h = cur->h, bpc = fmt->bpc;
    int16_t *hi = scratch, *lo = scratch + w + 2 * VQ_MOTION_RADIUS;
    uint64_t sad = 0;
    for (unsigned i = y0; i < y1; i++) {
        const void *pr[5], *cr[5];
        for (int k = 0; k < 5; k++) {
            int row = vq_motion_mirror((int)i - VQ_MOTION_RADIUS + k, (int)h);
            pr[k] = prev + (size_t)row * s->row_bytes;
            cr[k] = cur->data + (ptrdiff_t)row * cur->stride;
        }
        if (fmt->bytes_per_sample == 1)
            s->dsp.vblur_u8(hi + VQ_MOTION_RADIUS, lo + VQ_MOTION_RADIUS,
                            (const uint8_t *const *)pr,
                            (const uint8_t *const *)cr, w);
        else
            s->dsp.vblur_u16(hi + VQ_MOTION_RADIUS, lo + VQ_MOTION_RADIUS,
                             (const uint16_t *const *)pr,
                             (const uint16_t *const *)cr, w, bpc);
        mirror_row_edges(hi, w);
        mirror_row_edges(lo, w);
        sad += s->dsp.hblur_sad(hi, lo, w);
    }
    return sad;
}

void motion_free_kept(MotionKept *k)
{
    for (unsigned i = 0; i < MOTION_MAX_PLANES; i++) {
        free(k->plane[i]);
        k->plane[i] = NULL;
    }
}

void motion_free_shared(void *state)
{
    motion_free_kept(state);
    free(state);
}

/* Rows in bands (vq_fex_parallel): each band's SAD, and its rows of the
 * current frame copied into the store (never the plane read as prev). */
#define MOTION_MAX_PARTS 64
#define MOTION_BAND_ROWS 32

typedef struct MotionBands {
    const MotionPriv *s;
    const VqFormat *fmt;
    const uint8_t *prev; /* NULL: nothing to score */
    const VqPlane *cur;
    uint8_t *store;
    unsigned n;
    uint64_t sad[MOTION_MAX_PARTS];
} MotionBands;

static void motion_band(void *arg, unsigned part, void *scratch)
{
    MotionBands *b = arg;
    unsigned h = b->cur->h;
    unsigned y0 = (unsigned)((uint64_t)h * part / b->n);
    unsigned y1 = (unsigned)((uint64_t)h * (part + 1) / b->n);
    if (b->prev)
        b->sad[part] = motion_sad_cpu(b->s, b->fmt, b->prev, b->cur, scratch,
                                      y0, y1);
    for (unsigned y = y0; y < y1; y++)
        memcpy(b->store + y * b->s->row_bytes,
               b->cur->data + (ptrdiff_t)y * b->cur->stride, b->s->row_bytes);
}

/* Frame index's SAD into a from the planes in k. */
static int motion_sad_frame(VqFex *fex, MotionKept *k, const VqPlane *cur,
                            unsigned index, VqMotionAcc *a, void *scratch)
{
    MotionPriv *s = fex->priv;
    if (!k->plane[0]) {
        for (unsigned i = 0; i < s->n_planes_kept; i++)
            k->plane[i] = malloc(s->row_bytes * cur->h);
        for (unsigned i = 0; i < s->n_planes_kept; i++)
            if (!k->plane[i]) {
                motion_free_kept(k);
                return vq_fail(fex->err, VQ_ENOMEM, "motion: out of memory");
            }
    }
    MotionBands b = { .s = s, .fmt = &fex->fmt, .cur = cur };
    if (index >= s->min_idx)
        b.prev = k->plane[(index - s->min_idx) % s->n_planes_kept];
    b.store = k->plane[index % s->n_planes_kept];
    unsigned n = vq_fex_threads(fex) > 1 ? cur->h / MOTION_BAND_ROWS : 1;
    if (n > 2 * vq_fex_threads(fex))
        n = 2 * vq_fex_threads(fex);
    b.n = n < 1 ? 1 : n > MOTION_MAX_PARTS ? MOTION_MAX_PARTS : n;
    if (b.n == 1) {
        motion_band(&b, 0, scratch);
    } else {
        int err = vq_fex_parallel(fex, b.n, motion_band, &b);
        if (err)
            return vq_fail(fex->err, err, "motion: out of memory");
    }
    for (unsigned i = 0; b.prev && i < b.n; i++)
        a->sad += b.sad[i];
    return 0;
}

typedef struct MotionShared {
    VqFex *fex;
    const VqPlane *cur;
    unsigned index;
    void *scratch;
} MotionShared;

/* The ladder's computation (VqRefComputeFn) on the share's planes. */
static int motion_shared_frame(void *arg, void **state, void *rec)
{
    MotionShared *m = arg;
    if (!*state && !(*state = calloc(1, sizeof(MotionKept))))
        return vq_fail(m->fex->err, VQ_ENOMEM, "motion: out of memory");
    return motion_sad_frame(m->fex, *state, m->cur, m->index, rec, m->scratch);
}

int motion_cpu_run(VqFex *fex, const VqFrame *ref, const VqFrame *dis,
                   unsigned index, void *acc, void *scratch)
{
    (void)dis;
    MotionPriv *s = fex->priv;
    if (s->force_zero)
        return 0;
    if (!fex->share)
        return motion_sad_frame(fex, &s->kept, &ref->plane[0], index, acc,
                                scratch);
    MotionShared m = { fex, &ref->plane[0], index, scratch };
    return vq_refshare_get(fex->share, fex->share_user, index, acc,
                           motion_shared_frame, &m, fex->err);
}
