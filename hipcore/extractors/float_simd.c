/* The switch of float_simd.h shared by the float extractors' CPU paths. */
#include "float_simd.h"

bool vq_fsimd_baseline_only;
