/*
 * float_adm on the device, three kernels per scale:
 *   dwt:   one thread per band sample of ref and dis: the four source
 *          columns' vertical lo/hi sums, then the four bands;
 *   csf:   one thread per sample of the outer rectangle: decouple, then
 *          the csf and csf filter values of a and r (12 images);
 *   terms: one thread per pixel of the inner rectangle: its nine terms
 *          (masking thresholds from the 3x3 csf filter values around it)
 *          into nine term images;
 * then one launch sums every row of every scale's term images, left to
 * right (float_row_sum.h).
 * The arithmetic is kernels/float_adm/float_adm.h's, so every row sum equals
 * the CPU path's bit for bit.
 */
#include "../hip_device.h"
#include "../float_row_sum.h"
#include "float_adm.h"


struct FaBands {
    float *p[8]; /* ref a, h, v, d, dis a, h, v, d */
};

struct FaWork {
    float *p[12]; /* ca[3], fa[3], cr[3], fr[3] */
};

struct FaTermImages {
    float *p[VQ_FADM_NQ]; /* num h, v, d, aim h, v, d, den h, v, d */
};

template <typename T>
__device__ __forceinline__ float fa_load(const VqDevPlane &p, float scale,
                                         int y, int x)
{
    const T *row = (const T *)((const char *)p.data + (size_t)y * p.pitch);
    return vq_fpix(row[x], scale);
}

template <>
__device__ __forceinline__ float fa_load<float>(const VqDevPlane &p,
                                                float scale, int y, int x)
{
    (void)scale;
    return ((const float *)((const char *)p.data + (size_t)y * p.pitch))[x];
}

template <typename T>
__device__ void fa_dwt_one(const VqDevPlane &src, float scale, int i, int j,
                           int in_w, int in_h, float out[4])
{
    const float lo[4] = { VQ_FADM_LO }, hi[4] = { VQ_FADM_HI };
    int ry[4];
    for (int k = 0; k < 4; k++)
        ry[k] = vq_float_adm_dwt_idx(i, k, in_h);
    float vlo[4], vhi[4];
    for (int k = 0; k < 4; k++) {
        const int cx = vq_float_adm_dwt_idx(j, k, in_w);
        const float s0 = fa_load<T>(src, scale, ry[0], cx);
        const float s1 = fa_load<T>(src, scale, ry[1], cx);
        const float s2 = fa_load<T>(src, scale, ry[2], cx);
        const float s3 = fa_load<T>(src, scale, ry[3], cx);
        vlo[k] = vq_float_adm_dot4(lo, s0, s1, s2, s3);
        vhi[k] = vq_float_adm_dot4(hi, s0, s1, s2, s3);
    }
    out[0] = vq_float_adm_dot4(lo, vlo[0], vlo[1], vlo[2], vlo[3]); /* a */
    out[1] = vq_float_adm_dot4(lo, vhi[0], vhi[1], vhi[2], vhi[3]); /* h */
    out[2] = vq_float_adm_dot4(hi, vlo[0], vlo[1], vlo[2], vlo[3]); /* v */
    out[3] = vq_float_adm_dot4(hi, vhi[0], vhi[1], vhi[2], vhi[3]); /* d */
}

template <typename T>
__global__ void fa_dwt_kernel(VqDevPlane ref, VqDevPlane dis, float scale,
                              int w, int h, FaBands b, size_t pitch)
{
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    const int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (j >= w || i >= h)
        return;
    const size_t o = (size_t)i * (pitch / sizeof(float)) + j;
    float out[4];
    fa_dwt_one<T>(ref, scale, i, j, (int)ref.w, (int)ref.h, out);
    for (int k = 0; k < 4; k++)
        b.p[k][o] = out[k];
    fa_dwt_one<T>(dis, scale, i, j, (int)dis.w, (int)dis.h, out);
    for (int k = 0; k < 4; k++)
        b.p[4 + k][o] = out[k];
}

extern "C" int vq_float_adm_dwt_launch(VqStream stream, const VqDevPlane *src_ref,
                                  const VqDevPlane *src_dis, unsigned bpc,
                                  const VqFloatAdmDims *dims, unsigned scale,
                                  float *const band[8], size_t pitch)
{
    FaBands b;
    for (int k = 0; k < 8; k++)
        b.p[k] = band[k];
    const int w = (int)dims->w[scale], h = (int)dims->h[scale];
    dim3 block(32, 8), grid(vq_div_ceil(w, 32), vq_div_ceil(h, 8));
    hipStream_t s = vq_hip_stream(stream);
    float pix_scale = vq_fpix_scale(bpc);
    if (bpc == 0)
        fa_dwt_kernel<float><<<grid, block, 0, s>>>(*src_ref, *src_dis,
                                                    pix_scale, w, h, b, pitch);
    else if (bpc > 8)
        fa_dwt_kernel<uint16_t><<<grid, block, 0, s>>>(*src_ref, *src_dis,
                                                       pix_scale, w, h, b, pitch);
    else
        fa_dwt_kernel<uint8_t><<<grid, block, 0, s>>>(*src_ref, *src_dis,
                                                      pix_scale, w, h, b, pitch);
    return vq_launch_status();
}

__global__ void fa_csf_kernel(FaBands b, size_t pitch, VqFloatAdmDims d,
                              int scale, const uint16_t *rcp_tab, FaWork wk)
{
    const VqFloatAdmRect o = d.outer[scale];
    const int j = o.left + (int)(blockIdx.x * blockDim.x + threadIdx.x);
    const int i = o.top + (int)(blockIdx.y * blockDim.y + threadIdx.y);
    if (j >= o.right || i >= o.bottom)
        return;
    const size_t at = (size_t)i * (pitch / sizeof(float)) + j;
    float ov[3], tv[3], r[3], a[3];
    for (int k = 0; k < 3; k++) {
        ov[k] = b.p[1 + k][at];
        tv[k] = b.p[5 + k][at];
    }
    vq_float_adm_decouple(&d, rcp_tab, ov, tv, r, a);
    for (int k = 0; k < 3; k++) {
        const float rf = d.rfactor[scale][k];
        const float ca = rf * a[k], cr = rf * r[k];
        wk.p[k][at] = ca;
        wk.p[3 + k][at] = vq_float_adm_csf_f(ca);
        wk.p[6 + k][at] = cr;
        wk.p[9 + k][at] = vq_float_adm_csf_f(cr);
    }
}

/* One pixel of the inner rectangle per thread: its nine terms into the
 * term images (quantity q at out.p[q][(i - top) * tpitch + j - left]). */
__global__ void fa_terms_kernel(FaBands b, size_t pitch, VqFloatAdmDims d,
                                int scale, FaWork wk, FaTermImages out,
                                int tpitch)
{
    const VqFloatAdmRect in = d.inner[scale];
    const int j = in.left + (int)(blockIdx.x * blockDim.x + threadIdx.x);
    const int i = in.top + (int)(blockIdx.y * blockDim.y + threadIdx.y);
    if (j >= in.right || i >= in.bottom)
        return;
    const int w = (int)d.w[scale], h = (int)d.h[scale];
    const size_t ps = pitch / sizeof(float);
    const size_t u = (size_t)vq_float_adm_prev(i) * ps;
    const size_t m = (size_t)i * ps;
    const size_t l = (size_t)vq_float_adm_next(i, h) * ps;
    const int jl = vq_float_adm_prev(j), jr = vq_float_adm_next(j, w);
    float thr_num = 0.0, thr_aim = 0.0;
    if (!d.bypass_cm)
        for (int k = 0; k < 3; k++) {
            const float *fa = wk.p[3 + k], *fr = wk.p[9 + k];
            thr_num += vq_float_adm_thr_band(fa + u, fa + m, fa + l,
                                        wk.p[k][m + j], jl, j, jr);
            thr_aim += vq_float_adm_thr_band(fr + u, fr + m, fr + l,
                                        wk.p[6 + k][m + j], jl, j, jr);
        }
    const size_t o = (size_t)(i - in.top) * tpitch + (j - in.left);
    for (int k = 0; k < 3; k++) {
        const float rf = d.rfactor[scale][k];
        out.p[VQ_FADM_NUM + k][o] =
            vq_float_adm_cm_term(&d, wk.p[6 + k][m + j], thr_num);
        out.p[VQ_FADM_AIM + k][o] =
            vq_float_adm_cm_term(&d, wk.p[k][m + j], thr_aim);
        out.p[VQ_FADM_DEN + k][o] =
            vq_float_adm_den_term(&d, rf, b.p[1 + k][m + j]);
    }
}

extern "C" int vq_float_adm_terms_launch(VqStream stream, float *const band[8],
                                    size_t pitch, const VqFloatAdmDims *dims,
                                    unsigned scale, const uint16_t *rcp_tab,
                                    float *const work[12],
                                    float *const terms[VQ_FADM_NQ],
                                    size_t tpitch)
{
    FaBands b;
    FaWork wk;
    FaTermImages out;
    for (int k = 0; k < 8; k++)
        b.p[k] = band[k];
    for (int k = 0; k < 12; k++)
        wk.p[k] = work[k];
    for (int k = 0; k < VQ_FADM_NQ; k++)
        out.p[k] = terms[k];
    const VqFloatAdmRect *o = &dims->outer[scale];
    hipStream_t s = vq_hip_stream(stream);
    dim3 block(32, 8);
    dim3 grid(vq_div_ceil((unsigned)(o->right - o->left), 32),
              vq_div_ceil((unsigned)(o->bottom - o->top), 8));
    fa_csf_kernel<<<grid, block, 0, s>>>(b, pitch, *dims, (int)scale, rcp_tab,
                                         wk);
    int err = vq_launch_status();
    const VqFloatAdmRect *in = &dims->inner[scale];
    if (err || in->bottom <= in->top || in->right <= in->left)
        return err;
    dim3 tgrid(vq_div_ceil((unsigned)(in->right - in->left), 32),
               vq_div_ceil((unsigned)(in->bottom - in->top), 8));
    fa_terms_kernel<<<tgrid, block, 0, s>>>(b, pitch, *dims, (int)scale, wk,
                                            out, (int)tpitch);
    return vq_launch_status();
}

struct FaRowSegs {
    VqRowSeg seg[VQ_FADM_SCALES * VQ_FADM_NQ];
};

__global__ void __launch_bounds__(VQ_RSUM_CW, 4)
fa_row_sum_kernel(FaRowSegs segs)
{
    const VqRowSeg &s = segs.seg[blockIdx.y];
    const int y0 = (int)blockIdx.x * VQ_RSUM_ROWS;
    if (y0 < s.h)
        vq_row_sum_block(s, y0);
}

extern "C" int vq_float_adm_row_sums_launch(VqStream stream,
                                       const VqFloatAdmDims *dims,
                                       unsigned first_scale,
                                       const VqFloatAdmTermImages *t, float *rows)
{
    FaRowSegs segs;
    unsigned n = 0, hmax = 0;
    for (unsigned sc = first_scale; sc < VQ_FADM_SCALES; sc++) {
        const VqFloatAdmRect *in = &dims->inner[sc];
        const int w = in->right > in->left ? in->right - in->left : 0;
        const int h = (int)dims->rows[sc];
        for (unsigned q = 0; q < VQ_FADM_NQ; q++)
            segs.seg[n++] = { t->img[sc][q], rows + dims->off[sc] +
                              q * dims->rows[sc], w, h, (int)t->pitch[sc] };
        hmax = dims->rows[sc] > hmax ? dims->rows[sc] : hmax;
    }
    if (!n || !hmax)
        return 0;
    dim3 grid(vq_div_ceil(hmax, VQ_RSUM_ROWS), n);
    fa_row_sum_kernel<<<grid, VQ_RSUM_CW, 0, vq_hip_stream(stream)>>>(segs);
    return vq_launch_status();
}
