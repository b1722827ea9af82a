/*
 * Integer ADM kernels: one fused launch per DWT scale (DWT of both
 * pictures, decoupling, CSF, contrast masking and denominator, tiled with a
 * one-sample halo) and one launch that applies libvmaf's per-row rounding
 * and writes the accumulator record. The per-sample arithmetic is in
 * adm/adm_fixed.h, shared with the CPU path.
 */
#ifndef VQHIP_KERNELS_ADM_H
#define VQHIP_KERNELS_ADM_H

#include "adm_fixed.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Device memory the kernels work in, allocated once per run. */
typedef struct VqAdmDevBufs {
    /* Approximation bands feeding scales 1..3: [0] int16 (scale 0's
     * output), [1] and [2] int32; ref and dis; pitch in elements. */
    void *a_ref[3], *a_dis[3];
    size_t a_pitch[3];
    /* Per-row 64-bit sums, VQ_ADM_NQ x h per scale starting at
     * rows_off[scale]; zero between frames (the rows launch clears them). */
    uint64_t *rows;
    size_t rows_off[4];
    /* libvmaf's div_lookup on the device: recip[d] = 2^30 / |d| with the
     * sign of d (vq_adm_recip), for d = -32768..32768 (the pointer is at
     * d = 0). A lookup costs the kernels less than the integer division. */
    const int32_t *recip;
} VqAdmDevBufs;

/* Number of uint64 row sums VqAdmDevBufs.rows needs, and the offsets. */
static inline size_t vq_adm_rows_layout(const VqAdmParams *p, size_t off[4])
{
    size_t n = 0;
    for (int k = 0; k < 4; k++) {
        off[k] = n;
        n += (size_t)VQ_ADM_NQ * (size_t)p->sc[k].h;
    }
    return n;
}

/* A ladder's reference part of one frame (device memory; docs/LADDER.md):
 * per scale its detail bands (V, H, D planes of w x h, rows of w), its
 * approximations (as VqAdmDevBufs.a_ref) and its denominator's row sums
 * (VqAdmDevBufs.rows' layout, zeroed before the frame's first scale). */
typedef struct VqAdmRefBufs {
    int32_t *bands[4];
    void *approx[3];
    size_t a_pitch[3];
    uint64_t *rows;
    size_t rows_off[4];
} VqAdmRefBufs;

/* Scale `scale` of one frame: reads the pictures' luma (scale 0) or the
 * previous approximation bands, adds its row sums to b->rows. */
int vq_adm_scale_launch(VqStream stream, const VqAdmParams *p, int scale,
                        const VqDevPlane *ref, const VqDevPlane *dis,
                        const VqAdmDevBufs *b);
/* The same split in a ladder: the reference's part into r, once per
 * frame; then per rendition the rest, reading r, into b. */
int vq_adm_ref_scale_launch(VqStream stream, const VqAdmParams *p, int scale,
                            const VqDevPlane *ref, const VqAdmRefBufs *r);
int vq_adm_dis_scale_launch(VqStream stream, const VqAdmParams *p, int scale,
                            const VqDevPlane *dis, const VqAdmRefBufs *r,
                            const VqAdmDevBufs *b);

/* After the four scales: rounds and sums the rows into *acc (device
 * memory) and clears the row sums; a ladder's rendition takes the
 * denominator's rows from r (NULL: its own). */
int vq_adm_rows_launch(VqStream stream, const VqAdmParams *p,
                       const VqAdmDevBufs *b, const VqAdmRefBufs *r,
                       VqAdmAcc *acc);

#ifdef __cplusplus
}
#endif

#endif
