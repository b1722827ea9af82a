/* float_vif's row functions (float_vif_rows.h), compiled for the x86-64
 * baseline and for AVX2, and the choice between them. */
#include <math.h>

#include "float_vif_priv.h"
#include "../float_simd.h"

#define FN(name) name##_base
#define ATTR
#include "float_vif_rows.h"
#undef FN
#undef ATTR

#if VQ_FSIMD_AVX2
#define FN(name) name##_avx2
#define ATTR VQ_FSIMD_TARGET_AVX2
#include "float_vif_rows.h"
#undef FN
#undef ATTR
#endif

void vq_fvif_row_fns(VqFVifRowFns *fns)
{
    fns->vert = fvif_vert_base;
    fns->horiz = fvif_horiz_base;
    fns->stats = fvif_stats_base;
    fns->name = "baseline";
#if VQ_FSIMD_AVX2
    if (!vq_fsimd_baseline_only && vq_fsimd_have_avx2()) {
        fns->vert = fvif_vert_avx2;
        fns->horiz = fvif_horiz_avx2;
        fns->stats = fvif_stats_avx2;
        fns->name = "avx2";
    }
#endif
}
