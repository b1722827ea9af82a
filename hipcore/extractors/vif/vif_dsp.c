/* Integer VIF: the DSP table (vif_dsp.h). */
#include "vif_dsp.h"

void vq_vif_dsp_init(VqVifDsp *c, unsigned flags)
{
    c->stat_row = vq_vif_stat_row_c;
    c->down_row = vq_vif_down_row_c;
    c->plain_terms = vq_vif_plain_terms_c;
    c->log_terms = vq_vif_log_terms_c;
    c->stat_ref_row = vq_vif_stat_ref_row_c;
    c->stat_dis_row = vq_vif_stat_dis_row_c;
    c->down_one_row = vq_vif_down_one_row_c;
#if VQ_ARCH_X86_64
    if (flags & VQ_CPU_AVX2) {
        c->stat_row = vq_vif_stat_row_avx2;
        c->down_row = vq_vif_down_row_avx2;
        c->plain_terms = vq_vif_plain_terms_avx2;
        c->log_terms = vq_vif_log_terms_avx2;
        c->stat_ref_row = vq_vif_stat_ref_row_avx2;
        c->stat_dis_row = vq_vif_stat_dis_row_avx2;
        c->down_one_row = vq_vif_down_one_row_avx2;
    }
    if (flags & VQ_CPU_AVX512) {
        c->stat_row = vq_vif_stat_row_avx512;
        c->down_row = vq_vif_down_row_avx512;
        c->plain_terms = vq_vif_plain_terms_avx512;
        c->log_terms = vq_vif_log_terms_avx512;
        c->stat_ref_row = vq_vif_stat_ref_row_avx512;
        c->stat_dis_row = vq_vif_stat_dis_row_avx512;
        c->down_one_row = vq_vif_down_one_row_avx512;
    }
#else
    (void)flags;
#endif
}
