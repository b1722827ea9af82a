/*
 * float_adm's contrast sensitivity weights per scale and band, as libvmaf's
 * adm_tools.c computes them (adm_csf_s and its siblings): Watson's
 * noise-floor model (adm_csf_mode 0 and 3..9), Barten's CSF (1) or the DLM
 * paper's CSF (2), each replaced by adm_f1s<scale> / adm_f2s<scale> when
 * those are set. Every expression keeps libvmaf's mix of float and double
 * (adm_tools.h, barten_csf_tools.h, adm_csf_tools.h); the weights are
 * host constants that both backends use.
 */
#include "../common/adm_csf.h"
#include "float_adm_priv.h"

void vq_float_adm_rfactors(const FAdmPriv *s, int scale, float rf[3])
{
    const double lum = 100.0; /* DEFAULT_ADM_CSF_LUMINANCE_LEVEL */
    const double nvd = s->norm_view_dist;
    const int rdh = s->ref_display_height;
    float f1, f2;
    if (s->csf_mode == 1) {
        f1 = vq_adm_barten_csf(scale, nvd, rdh, lum, s->csf_scale);
        f2 = vq_adm_barten_csf(scale, nvd, rdh, lum, s->csf_diag_scale);
    } else if (s->csf_mode == 2) {
        f1 = vq_adm_dlm_csf(scale, nvd, rdh, 0);
        f2 = vq_adm_dlm_csf(scale, nvd, rdh, 45);
    } else {
        f1 = 1.0f / vq_adm_watson_q(scale, 1, nvd, rdh);
        f2 = 1.0f / vq_adm_watson_q(scale, 2, nvd, rdh);
    }
    if (s->f1[scale] >= 0)
        f1 = s->f1[scale];
    if (s->f2[scale] >= 0)
        f2 = s->f2[scale];
    rf[0] = rf[1] = f1;
    rf[2] = f2;
}
