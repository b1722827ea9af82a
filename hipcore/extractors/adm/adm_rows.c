/*
 * Integer ADM: the C functions of the DSP table for the denominator,
 * decoupling, CSF and contrast masking of a row (adm_dsp.h), on the shared
 * per-sample helpers of kernels/adm/adm_fixed.h.
 */
#include "../../../kernels/adm/adm.h"
#include "adm_dsp.h"

decl_adm_den0_fn(vq_adm_den0_c)
{
    uint64_t sum = 0;
    for (int j = j0; j < j1; j++)
        sum += vq_adm_den0(o[j]);
    return sum;
}

decl_adm_den123_fn(vq_adm_den123_c)
{
    uint64_t sum = 0;
    for (int j = j0; j < j1; j++)
        sum += vq_adm_den123(o[j], sq_shift, sq_add, cub_shift, cub_add);
    return sum;
}

decl_adm_decouple_fn(vq_adm_decouple0_c)
{
    const int32_t *recip = p->recip;
    for (int j = c0; j < c1; j++) {
        int angle = vq_adm_angle_flag16(o[VQ_ADM_H][j], o[VQ_ADM_V][j],
                                        t[VQ_ADM_H][j], t[VQ_ADM_V][j],
                                        p->cos1_sq);
        for (int b = 0; b < 3; b++) {
            int32_t ob = o[b][j], tb = t[b][j];
            int32_t k = vq_adm_k0(ob, tb, recip[ob]);
            int32_t rst = vq_adm_restore0(ob, tb, k, angle, p->egl, p->egl_int);
            xr[b][j] = rst;
            xa[b][j] = (int16_t)(tb - rst);
        }
    }
}

decl_adm_decouple_fn(vq_adm_decouple123_c)
{
    const int32_t *recip = p->recip;
    for (int j = c0; j < c1; j++) {
        int angle = vq_adm_angle_flag(o[VQ_ADM_H][j], o[VQ_ADM_V][j],
                                      t[VQ_ADM_H][j], t[VQ_ADM_V][j],
                                      p->cos1_sq);
        for (int b = 0; b < 3; b++) {
            int32_t ob = o[b][j], tb = t[b][j];
            int shift;
            uint32_t msb = vq_adm_best15((uint32_t)vq_adm_abs32(ob), &shift);
            int64_t k = vq_adm_k123(ob, tb, recip[msb], shift);
            int32_t rst = vq_adm_restore123(ob, tb, k, angle, p->egl,
                                            p->egl_int);
            xr[b][j] = rst;
            xa[b][j] = (int32_t)((uint32_t)tb - (uint32_t)rst);
        }
    }
}

decl_adm_csf_fn(vq_adm_csf0_c)
{
    for (int j = c0; j < c1; j++) {
        int32_t fn = 0, fm = 0, cn = 0, cm = 0;
        for (int b = 0; b < 3; b++) {
            int32_t n = vq_adm_csf0(xa[b][j], rf[b], b);
            int32_t m = vq_adm_csf0(xr[b][j], rf[b], b);
            fn += vq_adm_flt0(n);
            fm += vq_adm_flt0(m);
            cn += vq_adm_ctr0(n);
            cm += vq_adm_ctr0(m);
        }
        f_n[j] = fn;
        f_m[j] = fm;
        ctr_n[j] = cn;
        ctr_m[j] = cm;
    }
}

decl_adm_csf_fn(vq_adm_csf123_c)
{
    for (int j = c0; j < c1; j++) {
        uint32_t fn = 0, fm = 0, cn = 0, cm = 0;
        for (int b = 0; b < 3; b++) {
            int32_t n = vq_adm_csf123(xa[b][j], rf[b]);
            int32_t m = vq_adm_csf123(xr[b][j], rf[b]);
            fn += (uint32_t)vq_adm_flt123(n);
            fm += (uint32_t)vq_adm_flt123(m);
            cn += (uint32_t)vq_adm_ctr123(n);
            cm += (uint32_t)vq_adm_ctr123(m);
        }
        f_n[j] = (int32_t)fn;
        f_m[j] = (int32_t)fm;
        ctr_n[j] = (int32_t)cn;
        ctr_m[j] = (int32_t)cm;
    }
}

decl_adm_cm0_fn(vq_adm_cm0_c)
{
    uint64_t sum = 0;
    for (int j = j0; j < j1; j++)
        sum += (uint64_t)vq_adm_cm0(x[j], rf, thr[j], band, cub_shift, cub_add);
    return sum;
}

decl_adm_cm123_fn(vq_adm_cm123_c)
{
    uint64_t sum = 0;
    for (int j = j0; j < j1; j++)
        sum += (uint64_t)vq_adm_cm123(x[j], rf, thr[j], cub_shift, cub_add);
    return sum;
}
