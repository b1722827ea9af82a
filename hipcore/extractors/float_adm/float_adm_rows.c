/* float_adm's row functions (float_adm_rows.h), compiled for the x86-64
 * baseline and for AVX2, and the choice between them. */
#include "float_adm_priv.h"
#include "../float_simd.h"

#define FN(name) name##_base
#define ATTR
#include "float_adm_rows.h"
#undef FN
#undef ATTR

#if VQ_FSIMD_AVX2
#define FN(name) name##_avx2
#define ATTR VQ_FSIMD_TARGET_AVX2
#include "float_adm_rows.h"
#undef FN
#undef ATTR
#endif

void vq_fadm_row_fns(VqFAdmRowFns *fns)
{
    fns->csf_row = fadm_csf_row_base;
    fns->cm_row = fadm_cm_row_base;
    fns->den_row = fadm_den_row_base;
    fns->name = "baseline";
#if VQ_FSIMD_AVX2
    if (!vq_fsimd_baseline_only && vq_fsimd_have_avx2()) {
        fns->csf_row = fadm_csf_row_avx2;
        fns->cm_row = fadm_cm_row_avx2;
        fns->den_row = fadm_den_row_avx2;
        fns->name = "avx2";
    }
#endif
}
