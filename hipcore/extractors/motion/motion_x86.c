/*
 * Integer motion: the AVX2 and AVX-512 row passes (motion_dsp.h), one
 * template (motion_simd_tmpl.h) instantiated for each vector width.
 */
#include "../../../kernels/motion/motion.h"
#include "motion_dsp.h"

#if VQ_ARCH_X86_64
#define VQ_SIMD_W 256
#include "../common/simd_x86.h"
#include "motion_simd_tmpl.h"
#define VQ_SIMD_UNDEF
#include "../common/simd_x86.h"

#define VQ_SIMD_W 512
#include "../common/simd_x86.h"
#include "motion_simd_tmpl.h"
#define VQ_SIMD_UNDEF
#include "../common/simd_x86.h"
#endif
