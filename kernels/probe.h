/* Start-up probe: proves that kernels built for this device run on it. */
#ifndef VQHIP_KERNELS_PROBE_H
#define VQHIP_KERNELS_PROBE_H

#include "vq_kernel_api.h"

#ifdef __cplusplus
extern "C" {
#endif

#define VQ_PROBE_N 256

/* Writes vq_probe_expected(i) to out[i] for i < VQ_PROBE_N and the device's
 * wave size to out[VQ_PROBE_N]; out holds VQ_PROBE_N + 1 words. */
int vq_probe_launch(VqStream stream, uint32_t *out);

static inline VQ_HOST_DEVICE uint32_t vq_probe_expected(uint32_t i)
{
    return (i * 2654435761u) ^ 0x5bd1e995u;
}

#ifdef __cplusplus
}
#endif

#endif
