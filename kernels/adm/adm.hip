/*
 * Integer ADM kernels (see ../adm.h). One block scores a TX x TY tile of a
 * scale's bands. It loads the input samples the tile and a one-sample halo
 * need (2 TY + 6 rows, 2 TX + 6 columns, mirrored like libvmaf's DWT index
 * tables), runs the vertical then the horizontal DWT pass in shared memory,
 * decouples and CSF-weights every tile and halo position, then masks the
 * tile's positions with their 3x3 neighbourhood. Intermediates keep the CPU
 * path's widths (int16 at scale 0, int32 above). Per-row sums go to global
 * row counters with 64-bit atomics; integer sums make the order irrelevant.
 *
 * In a ladder (docs/LADDER.md) a scale runs in two kernels instead: once per
 * frame ADM_REF on the reference alone (its detail bands at every position,
 * its approximation, its denominator row sums), then per rendition ADM_DIS,
 * which reads the bands where ADM_PAIR computes them and does the rest the
 * same way; the rows launch takes the denominator's rows from the
 * reference's, so the record is the same integers.
 */
#include "adm_pos.h"

template <bool S0, typename TIn, int MODE>
__global__ void __launch_bounds__(ADM_THREADS) adm_scale_kernel(AdmKArgs a)
{
    /* which pictures this mode reads */
    constexpr bool R1 = MODE != ADM_DIS, R2 = MODE != ADM_REF;
    typedef typename AdmT<S0>::In In;
    typedef typename AdmT<S0>::V V;
    typedef AdmSmem<S0> M;
    __shared__ __align__(16) unsigned char smem[M::bytes];
    In *in_r = (In *)smem;
    In *in_d = in_r + ADM_IN_R * ADM_IN_C;
    V *v_lo_r = (V *)(smem + M::in_bytes);
    V *v_hi_r = v_lo_r + ADM_OR * ADM_IN_C;
    V *v_lo_d = v_hi_r + ADM_OR * ADM_IN_C;
    V *v_hi_d = v_lo_d + ADM_OR * ADM_IN_C;
    int32_t *f_n = (int32_t *)smem; /* after the vertical pass */
    int32_t *f_m = f_n + ADM_OR * ADM_OC;
    unsigned long long *red = (unsigned long long *)smem; /* at the end */

    const VqAdmScale &sc = a.sc;
    const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * ADM_TX + tx;
    const int j0 = blockIdx.x * ADM_TX, i0 = blockIdx.y * ADM_TY;
    const bool need = a.hvd && j0 < sc.right && j0 + ADM_TX > sc.left &&
                      i0 < sc.bottom && i0 + ADM_TY > sc.top;
    /* ADM_REF writes the bands of every position (a rendition's block
     * reads its halo's) and needs no halo of its own */
    const bool bands_r = MODE == ADM_REF ? a.hvd != 0 : need;
    const bool halo = MODE != ADM_REF && need;

    /* Input tile: rows 2 i0 - 3 .., columns 2 j0 - 3 .., mirrored, and
     * clamped where only positions outside the bands would read. Each of
     * the first ADM_LOADERS threads keeps one column and walks its rows. */
    const int yb = 2 * i0 - 3, xb = 2 * j0 - 3;
    const bool inside = yb >= 0 && yb + ADM_IN_R <= sc.in_h && xb >= 0 &&
                        xb + ADM_IN_C <= sc.in_w;
    if (tid < ADM_LOADERS && inside) {
        /* no index is mirrored or clamped: a pointer walks the column */
        const int lx = tid % ADM_IN_C, ly0 = tid / ADM_IN_C;
        const char *pr = (const char *)a.ref + (size_t)(yb + ly0) * a.ref_pitch +
                         (size_t)(xb + lx) * sizeof(TIn);
        const char *pd = (const char *)a.dis + (size_t)(yb + ly0) * a.dis_pitch +
                         (size_t)(xb + lx) * sizeof(TIn);
#pragma unroll
        for (int it = 0; it < ADM_LOAD_ITERS; it++) {
            const int ly = ly0 + it * ADM_LOAD_ROWS;
            const size_t dy = (size_t)(it * ADM_LOAD_ROWS);
            if (ly < ADM_IN_R) {
                if (R1)
                    in_r[ly * ADM_IN_C + lx] =
                        (In)*(const TIn *)(pr + dy * a.ref_pitch);
                if (R2)
                    in_d[ly * ADM_IN_C + lx] =
                        (In)*(const TIn *)(pd + dy * a.dis_pitch);
            }
        }
    } else if (tid < ADM_LOADERS) {
        const int lx = tid % ADM_IN_C;
        int x = vq_adm_mirror(xb + lx, sc.in_w);
        x = x < 0 ? 0 : (x >= sc.in_w ? sc.in_w - 1 : x);
#pragma unroll
        for (int it = 0; it < ADM_LOAD_ITERS; it++) {
            const int ly = tid / ADM_IN_C + it * ADM_LOAD_ROWS;
            if (ly < ADM_IN_R) {
                int y = vq_adm_mirror(yb + ly, sc.in_h);
                y = y < 0 ? 0 : (y >= sc.in_h ? sc.in_h - 1 : y);
                if (R1)
                    in_r[ly * ADM_IN_C + lx] =
                        (In)adm_load<TIn>(a.ref, a.ref_pitch, y, x);
                if (R2)
                    in_d[ly * ADM_IN_C + lx] =
                        (In)adm_load<TIn>(a.dis, a.dis_pitch, y, x);
            }
        }
    }
    __syncthreads();

    /* Vertical pass for the tile rows (and the halo rows when needed). */
    const int o0 = halo ? 0 : 1, n_v = (halo ? ADM_OR : ADM_TY) * ADM_IN_C;
#pragma unroll
    for (int it = 0; it < (ADM_OR * ADM_IN_C + ADM_THREADS - 1) / ADM_THREADS; it++) {
        int idx = tid + it * ADM_THREADS;
        if (idx >= n_v)
            break;
        int o = o0 + idx / ADM_IN_C, lx = idx - (idx / ADM_IN_C) * ADM_IN_C;
        const In *cr = in_r + 2 * o * ADM_IN_C + lx;
        const In *cd = in_d + 2 * o * ADM_IN_C + lx;
        int v = o * ADM_IN_C + lx;
        if (S0) {
            if (R1)
                v_lo_r[v] = vq_adm_dwt0_vlo(cr[0], cr[ADM_IN_C],
                                            cr[2 * ADM_IN_C], cr[3 * ADM_IN_C],
                                            a.bpc);
            if (R2)
                v_lo_d[v] = vq_adm_dwt0_vlo(cd[0], cd[ADM_IN_C],
                                            cd[2 * ADM_IN_C], cd[3 * ADM_IN_C],
                                            a.bpc);
            if (R1 && bands_r)
                v_hi_r[v] = vq_adm_dwt0_vhi(cr[0], cr[ADM_IN_C], cr[2 * ADM_IN_C],
                                            cr[3 * ADM_IN_C], a.bpc);
            if (R2 && need)
                v_hi_d[v] = vq_adm_dwt0_vhi(cd[0], cd[ADM_IN_C], cd[2 * ADM_IN_C],
                                            cd[3 * ADM_IN_C], a.bpc);
        } else {
            int sh = vq_adm_dwt_vshift(sc.scale);
            if (R1)
                v_lo_r[v] = vq_adm_dwt_lo(cr[0], cr[ADM_IN_C], cr[2 * ADM_IN_C],
                                          cr[3 * ADM_IN_C], sh);
            if (R2)
                v_lo_d[v] = vq_adm_dwt_lo(cd[0], cd[ADM_IN_C], cd[2 * ADM_IN_C],
                                          cd[3 * ADM_IN_C], sh);
            if (R1 && bands_r)
                v_hi_r[v] = vq_adm_dwt_hi(cr[0], cr[ADM_IN_C], cr[2 * ADM_IN_C],
                                          cr[3 * ADM_IN_C], sh);
            if (R2 && need)
                v_hi_d[v] = vq_adm_dwt_hi(cd[0], cd[ADM_IN_C], cd[2 * ADM_IN_C],
                                          cd[3 * ADM_IN_C], sh);
        }
    }
    __syncthreads();

    /* Horizontal pass. This thread's own position first (it keeps the
     * values the masking needs), then the halo positions. */
    const int i = i0 + ty, j = j0 + tx;
    const bool valid = i < sc.h && j < sc.w;
    const bool scored = need && valid && i >= sc.top && i < sc.bottom &&
                        j >= sc.left && j < sc.right;
    AdmPos p;
    int32_t fc_n = 0, fc_m = 0;
    for (int b = 0; b < 3; b++)
        p.den[b] = 0;
    if (valid) {
        const int ctr = (ty + 1) * ADM_IN_C + 2 * (tx + 1);
        int32_t lo_r[4] = {}, lo_d[4] = {}, hi_r[4] = {}, hi_d[4] = {};
        for (int k = 0; k < 4; k++) {
            if (R1)
                lo_r[k] = v_lo_r[ctr + k];
            if (R2)
                lo_d[k] = v_lo_d[ctr + k];
        }
        const size_t off = (size_t)i * a.out_pitch + j;
        if (R1 && a.out_ref) {
            if (S0) {
                ((V *)a.out_ref)[off] = vq_adm_dwt0_hlo(lo_r[0], lo_r[1], lo_r[2], lo_r[3]);
            } else {
                int sh = vq_adm_dwt_hshift(sc.scale);
                ((V *)a.out_ref)[off] = vq_adm_dwt_lo(lo_r[0], lo_r[1], lo_r[2], lo_r[3], sh);
            }
        }
        if (R2 && a.out_dis) {
            if (S0) {
                ((V *)a.out_dis)[off] = vq_adm_dwt0_hlo(lo_d[0], lo_d[1], lo_d[2], lo_d[3]);
            } else {
                int sh = vq_adm_dwt_hshift(sc.scale);
                ((V *)a.out_dis)[off] = vq_adm_dwt_lo(lo_d[0], lo_d[1], lo_d[2], lo_d[3], sh);
            }
        }
        if (bands_r) {
            for (int k = 0; k < 4; k++) {
                if (R1)
                    hi_r[k] = v_hi_r[ctr + k];
                if (R2)
                    hi_d[k] = v_hi_d[ctr + k];
            }
            int32_t o[3];
            adm_ref_bands<S0, MODE>(a, lo_r, hi_r, i, j, o);
            if (MODE == ADM_REF) {
                const size_t plane = (size_t)sc.w * (size_t)sc.h;
                int32_t *at = a.bands + (size_t)i * sc.w + j;
                for (int b = 0; b < 3; b++) {
                    at[b * plane] = o[b];
                    if (scored)
                        p.den[b] = S0 ? vq_adm_den0(o[b])
                                      : vq_adm_den123(o[b], sc.den_sq_shift,
                                                      sc.den_sq_add,
                                                      sc.den_cub_shift,
                                                      sc.den_cub_add);
                }
            } else {
                adm_details<S0>(a, o, lo_d, hi_d, MODE == ADM_PAIR && scored,
                                &fc_n, &fc_m, p);
            }
        }
    }
    if (halo && tid < ADM_HALO) {
        int o, c;
        if (tid < ADM_OC) {
            o = 0;
            c = tid;
        } else if (tid < 2 * ADM_OC) {
            o = ADM_OR - 1;
            c = tid - ADM_OC;
        } else if (tid < 2 * ADM_OC + ADM_TY) {
            o = 1 + tid - 2 * ADM_OC;
            c = 0;
        } else {
            o = 1 + tid - 2 * ADM_OC - ADM_TY;
            c = ADM_OC - 1;
        }
        int gi = i0 - 1 + o, gj = j0 - 1 + c;
        if (gi >= 0 && gi < sc.h && gj >= 0 && gj < sc.w) {
            const int base = o * ADM_IN_C + 2 * c;
            int32_t lo_r[4] = {}, lo_d[4], hi_r[4] = {}, hi_d[4];
            for (int k = 0; k < 4; k++) {
                if (R1) {
                    lo_r[k] = v_lo_r[base + k];
                    hi_r[k] = v_hi_r[base + k];
                }
                lo_d[k] = v_lo_d[base + k];
                hi_d[k] = v_hi_d[base + k];
            }
            AdmPos hp;
            int32_t hf_n, hf_m, ob[3];
            adm_ref_bands<S0, MODE>(a, lo_r, hi_r, gi, gj, ob);
            adm_details<S0>(a, ob, lo_d, hi_d, false, &hf_n, &hf_m, hp);
            f_n[o * ADM_OC + c] = hf_n;
            f_m[o * ADM_OC + c] = hf_m;
        }
    }
    if (halo && valid) {
        f_n[(ty + 1) * ADM_OC + tx + 1] = fc_n;
        f_m[(ty + 1) * ADM_OC + tx + 1] = fc_m;
    }
    __syncthreads();

    /* Contrast masking of this thread's position. */
    uint64_t q[VQ_ADM_NQ];
    for (int k = 0; k < VQ_ADM_NQ; k++)
        q[k] = 0;
    if (MODE == ADM_REF) {
        for (int b = 0; b < 3; b++)
            q[VQ_ADM_Q_DEN + b] = p.den[b];
    } else if (scored) {
        int up = vq_adm_mirror(i - 1, sc.h) - (i0 - 1);
        int dn = vq_adm_mirror(i + 1, sc.h) - (i0 - 1);
        int lf = vq_adm_mirror(j - 1, sc.w) - (j0 - 1);
        int rt = vq_adm_mirror(j + 1, sc.w) - (j0 - 1);
        int thr_n = (int32_t)((uint32_t)adm_ring8(f_n, up, ty + 1, dn, lf, tx + 1, rt) +
                              (uint32_t)p.ctr_n);
        int thr_m = (int32_t)((uint32_t)adm_ring8(f_m, up, ty + 1, dn, lf, tx + 1, rt) +
                              (uint32_t)p.ctr_m);
        for (int b = 0; b < 3; b++) {
            uint32_t rf = sc.rfactor[b];
            int cs = sc.cm_cub_shift[b];
            int64_t ca = sc.cm_cub_add[b];
            if (S0) {
                q[VQ_ADM_Q_NUM + b] = (uint64_t)vq_adm_cm0(p.rst[b], rf, thr_n, b, cs, ca);
                if (a.aim)
                    q[VQ_ADM_Q_AIM + b] = (uint64_t)vq_adm_cm0(p.add[b], rf, thr_m, b, cs, ca);
            } else {
                q[VQ_ADM_Q_NUM + b] = (uint64_t)vq_adm_cm123(p.rst[b], rf, thr_n, cs, ca);
                if (a.aim)
                    q[VQ_ADM_Q_AIM + b] = (uint64_t)vq_adm_cm123(p.add[b], rf, thr_m, cs, ca);
            }
            q[VQ_ADM_Q_DEN + b] = p.den[b];
        }
    }
    if (!need)
        return; /* uniform per block: nothing to sum */
    __syncthreads();

    /* Row sums over the tile's columns, one thread per row and quantity,
     * then one atomic each. A thread starts at its own offset in the row,
     * so the threads of a wave read different banks. */
    for (int k = 0; k < VQ_ADM_NQ; k++)
        red[k * ADM_THREADS + tid] = q[k];
    __syncthreads();
    if (tid < VQ_ADM_NQ * ADM_TY) {
        const int k = tid / ADM_TY, r = tid - k * ADM_TY;
        const unsigned long long *row = red + k * ADM_THREADS + r * ADM_TX;
        unsigned long long v = 0;
#pragma unroll 8
        for (int c = 0; c < ADM_TX; c++)
            v += row[(unsigned)(c + tid) % ADM_TX];
        if (v && i0 + r < sc.h)
            atomicAdd(&a.rows[(size_t)k * sc.h + i0 + r], v);
    }
}

/* Per-row rounding of one scale's quantity, then the sum over rows. */
__global__ void __launch_bounds__(256) adm_rows_kernel(VqAdmParams p,
                                                       unsigned long long *rows,
                                                       const unsigned long long *den,
                                                       size_t off0, size_t off1,
                                                       size_t off2, size_t off3,
                                                       VqAdmAcc *acc)
{
    __shared__ unsigned long long part[256];
    const int k = blockIdx.x, s = blockIdx.y;
    const VqAdmScale &sc = p.sc[s];
    size_t off = s == 0 ? off0 : s == 1 ? off1 : s == 2 ? off2 : off3;
    unsigned long long *r = rows + off + (size_t)k * sc.h;
    /* a ladder's rendition: the denominator's rows are the reference's
     * (den, the same layout), read and kept */
    const unsigned long long *rd =
        den && k >= VQ_ADM_Q_DEN ? den + off + (size_t)k * sc.h : NULL;
    unsigned long long sum = 0;
    for (int y = threadIdx.x; y < sc.h; y += blockDim.x) {
        unsigned long long v = rd ? rd[y] : r[y];
        r[y] = 0;
        if (k < VQ_ADM_Q_DEN)
            sum += (unsigned long long)vq_adm_row_signed(v, sc.cm_row_shift,
                                                         sc.cm_row_add);
        else
            sum += vq_adm_row_unsigned(v, sc.den_row_shift, sc.den_row_add);
    }
    part[threadIdx.x] = sum;
    __syncthreads();
    for (unsigned st = blockDim.x / 2; st > 0; st >>= 1) {
        if (threadIdx.x < st)
            part[threadIdx.x] += part[threadIdx.x + st];
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        int b = k % 3;
        if (k < VQ_ADM_Q_AIM)
            acc->num[s][b] = (int64_t)part[0];
        else if (k < VQ_ADM_Q_DEN)
            acc->aim[s][b] = (int64_t)part[0];
        else
            acc->den[s][b] = part[0];
    }
}

template <bool S0, typename TIn, int MODE>
static int adm_launch_scale(VqStream stream, const AdmKArgs &a)
{
    dim3 grid(vq_div_ceil((unsigned)a.sc.w, ADM_TX),
              vq_div_ceil((unsigned)a.sc.h, ADM_TY));
    dim3 block(ADM_TX, ADM_TY);
    adm_scale_kernel<S0, TIn, MODE>
        <<<grid, block, 0, vq_hip_stream(stream)>>>(a);
    return vq_launch_status();
}

/* One scale: the pictures' planes at scale 0, else the previous scale's
 * approximations (ref_prev, dis_prev: pitch prev_pitch elements). */
template <int MODE>
static int adm_launch_mode(VqStream stream, const VqAdmParams *p, int scale,
                           AdmKArgs &a, const VqDevPlane *ref,
                           const VqDevPlane *dis, const void *ref_prev,
                           const void *dis_prev, size_t prev_pitch)
{
    a.sc = p->sc[scale];
    a.bpc = p->bpc;
    a.hvd = !(scale == 0 && p->skip_scale0);
    a.aim = !p->skip_aim;
    a.egl = p->egl;
    a.egl_int = p->egl_int;
    a.cos1_sq = p->cos1_sq;
    if (scale == 0) {
        a.ref = ref->data;
        a.dis = dis->data;
        a.ref_pitch = ref->pitch;
        a.dis_pitch = dis->pitch;
        if (p->bpc > 8)
            return adm_launch_scale<true, uint16_t, MODE>(stream, a);
        return adm_launch_scale<true, uint8_t, MODE>(stream, a);
    }
    a.ref = ref_prev;
    a.dis = dis_prev;
    size_t elem = scale == 1 ? sizeof(int16_t) : sizeof(int32_t);
    a.ref_pitch = a.dis_pitch = prev_pitch * elem;
    if (scale == 1)
        return adm_launch_scale<false, int16_t, MODE>(stream, a);
    return adm_launch_scale<false, int32_t, MODE>(stream, a);
}

extern "C" int vq_adm_scale_launch(VqStream stream, const VqAdmParams *p,
                                   int scale, const VqDevPlane *ref,
                                   const VqDevPlane *dis, const VqAdmDevBufs *b)
{
    AdmKArgs a = {};
    a.out_ref = scale < 3 ? b->a_ref[scale] : NULL;
    a.out_dis = scale < 3 ? b->a_dis[scale] : NULL;
    a.out_pitch = scale < 3 ? b->a_pitch[scale] : 0;
    a.rows = (unsigned long long *)(b->rows + b->rows_off[scale]);
    a.recip = b->recip;
    return adm_launch_mode<ADM_PAIR>(
        stream, p, scale, a, ref, dis, scale ? b->a_ref[scale - 1] : NULL,
        scale ? b->a_dis[scale - 1] : NULL, scale ? b->a_pitch[scale - 1] : 0);
}

extern "C" int vq_adm_ref_scale_launch(VqStream stream, const VqAdmParams *p,
                                       int scale, const VqDevPlane *ref,
                                       const VqAdmRefBufs *r)
{
    AdmKArgs a = {};
    a.bands = r->bands[scale];
    a.out_ref = scale < 3 ? r->approx[scale] : NULL;
    a.out_pitch = scale < 3 ? r->a_pitch[scale] : 0;
    a.rows = (unsigned long long *)(r->rows + r->rows_off[scale]);
    const void *prev = scale ? r->approx[scale - 1] : NULL;
    return adm_launch_mode<ADM_REF>(stream, p, scale, a, ref, ref, prev, prev,
                                    scale ? r->a_pitch[scale - 1] : 0);
}

extern "C" int vq_adm_dis_scale_launch(VqStream stream, const VqAdmParams *p,
                                       int scale, const VqDevPlane *dis,
                                       const VqAdmRefBufs *r,
                                       const VqAdmDevBufs *b)
{
    AdmKArgs a = {};
    a.bands = r->bands[scale];
    a.out_dis = scale < 3 ? b->a_dis[scale] : NULL;
    a.out_pitch = scale < 3 ? b->a_pitch[scale] : 0;
    a.rows = (unsigned long long *)(b->rows + b->rows_off[scale]);
    a.recip = b->recip;
    const void *prev = scale ? b->a_dis[scale - 1] : NULL;
    return adm_launch_mode<ADM_DIS>(stream, p, scale, a, dis, dis, prev, prev,
                                    scale ? b->a_pitch[scale - 1] : 0);
}

extern "C" int vq_adm_rows_launch(VqStream stream, const VqAdmParams *p,
                                  const VqAdmDevBufs *b,
                                  const VqAdmRefBufs *r, VqAdmAcc *acc)
{
    dim3 grid(VQ_ADM_NQ, 4);
    adm_rows_kernel<<<grid, 256, 0, vq_hip_stream(stream)>>>(
        *p, (unsigned long long *)b->rows,
        r ? (const unsigned long long *)r->rows : NULL, b->rows_off[0],
        b->rows_off[1], b->rows_off[2], b->rows_off[3], acc);
    return vq_launch_status();
}
