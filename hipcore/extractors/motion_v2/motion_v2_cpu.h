/* motion_v2's CPU variants (motion_v2.c): its SAD compiled for the x86-64
 * baseline, for AVX2 and for AVX-512 from the same source, one chosen per
 * run (the best the CPU has, below vq_motion_v2_cpu_cap). */
#ifndef VQHIP_EXTRACTORS_MOTION_V2_CPU_H
#define VQHIP_EXTRACTORS_MOTION_V2_CPU_H

enum { VQ_MV2_CPU_BEST = 0, VQ_MV2_CPU_BASELINE, VQ_MV2_CPU_AVX2 };

/* Tests set this to run a lower variant than the CPU could (VQ_MV2_CPU_*). */
extern int vq_motion_v2_cpu_cap;

#endif
