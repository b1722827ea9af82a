/*
 * Integer ADM: the AVX2 and AVX-512 DSP functions (adm_dsp.h) that are
 * written with intrinsics, one template (adm_simd_tmpl.h) instantiated for
 * each vector width.
 */
#include <stdbool.h>

#include "../../../kernels/adm/adm.h"
#include "adm_dsp.h"

#if VQ_ARCH_X86_64
#define VQ_SIMD_W 256
#include "../common/simd_x86.h"
#include "adm_simd_tmpl.h"
#define VQ_SIMD_UNDEF
#include "../common/simd_x86.h"

#define VQ_SIMD_W 512
#include "../common/simd_x86.h"
#include "adm_simd_tmpl.h"
#define VQ_SIMD_UNDEF
#include "../common/simd_x86.h"
#endif
