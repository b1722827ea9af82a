/* motion_v2's CPU stage. */
#include "motion_v2_priv.h"

#include "core/refshare.h"

/* ---- CPU path ----------------------------------------------------------- */

/* The SAD of a frame: per row the vertical pass, the mirrored taps, the
 * horizontal pass (through the DSP table chosen at init). */
static uint64_t sad_cpu(const VqMotionV2Dsp *dsp, const Mv2Rows *f,
                        int32_t *vrow)
{
    const int w = f->w, h = f->h;
    int32_t *v = vrow + 2; /* v[-2], v[-1], v[w], v[w+1]: mirrored taps */
    uint64_t sad = 0;
    for (int i = 0; i < h; i++) {
        const void *p[5], *c[5];
        for (int k = 0; k < 5; k++) {
            const int y = vq_motion_v2_mirror(i - 2 + k, h);
            p[k] = f->prev + (size_t)y * f->prev_pitch;
            c[k] = f->cur + (ptrdiff_t)y * f->cur_stride;
        }
        if (f->bytes == 1)
            dsp->vert_u8(v, (const uint8_t *const *)p,
                         (const uint8_t *const *)c, (size_t)w);
        else
            dsp->vert_u16(v, (const uint16_t *const *)p,
                          (const uint16_t *const *)c, (size_t)w,
                          (unsigned)f->bpc);
        v[-2] = v[2];
        v[-1] = v[1];
        v[w] = v[w - 2];
        v[w + 1] = v[w - 3];
        sad += dsp->hor_sad(vrow, (size_t)w);
    }
    return sad;
}

void motion_v2_free_kept(Mv2Kept *k)
{
    for (unsigned i = 0; i < MV2_MAX_KEPT; i++) {
        free(k->kept[i]);
        k->kept[i] = NULL;
    }
    free(k->vrow);
    k->vrow = NULL;
}

void motion_v2_free_shared(void *state)
{
    motion_v2_free_kept(state);
    free(state);
}

/* Frame index's SAD into acc, on the state k. */
static int mv2_frame(VqFex *fex, Mv2Kept *k, const VqPlane *cur,
                     unsigned index, void *acc)
{
    MotionV2Priv *s = fex->priv;
    if (!k->kept[0]) {
        bool ok = (k->vrow = malloc((cur->w + 4) * sizeof(int32_t))) != NULL;
        for (unsigned i = 0; i < s->n_kept; i++)
            ok = ok && (k->kept[i] = malloc(s->row_bytes * cur->h)) != NULL;
        if (!ok) {
            motion_v2_free_kept(k);
            return vq_fail(fex->err, VQ_ENOMEM, "motion_v2: out of memory");
        }
    }
    if (index >= s->window) {
        const Mv2Rows f = {
            .prev = k->kept[(index - s->window) % s->n_kept],
            .prev_pitch = s->row_bytes, .cur = cur->data,
            .cur_stride = cur->stride, .w = (int)cur->w, .h = (int)cur->h,
            .bytes = (int)fex->fmt.bytes_per_sample, .bpc = (int)fex->fmt.bpc,
        };
        ((VqMotionV2Acc *)acc)->sad = sad_cpu(&s->dsp, &f, k->vrow);
    }
    uint8_t *store = k->kept[index % s->n_kept];
    for (unsigned y = 0; y < cur->h; y++)
        memcpy(store + y * s->row_bytes, cur->data + (ptrdiff_t)y * cur->stride,
               s->row_bytes);
    return 0;
}

typedef struct Mv2Shared {
    VqFex *fex;
    const VqPlane *cur;
    unsigned index;
} Mv2Shared;

/* The ladder's computation (VqRefComputeFn) on the share's state. */
static int mv2_shared_frame(void *arg, void **state, void *rec)
{
    Mv2Shared *m = arg;
    if (!*state && !(*state = calloc(1, sizeof(Mv2Kept))))
        return vq_fail(m->fex->err, VQ_ENOMEM, "motion_v2: out of memory");
    return mv2_frame(m->fex, *state, m->cur, m->index, rec);
}

int motion_v2_cpu_run(VqFex *fex, const VqFrame *ref,
                      const VqFrame *dis, unsigned index, void *acc,
                      void *scratch)
{
    (void)dis;
    (void)scratch;
    MotionV2Priv *s = fex->priv;
    if (s->force_zero)
        return 0;
    if (!fex->share)
        return mv2_frame(fex, &s->cpu, &ref->plane[0], index, acc);
    Mv2Shared m = { fex, &ref->plane[0], index };
    return vq_refshare_get(fex->share, fex->share_user, index, acc,
                           mv2_shared_frame, &m, fex->err);
}
