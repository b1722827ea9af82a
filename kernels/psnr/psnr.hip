#include "../plane_sum.h"
#include "psnr.h"

struct PsnrTerm {
    __device__ unsigned long long operator()(unsigned r, unsigned d) const
    {
        return vq_psnr_term(r, d);
    }
};

extern "C" int vq_psnr_sse_launch(VqStream stream, const VqDevPlane *ref,
                                  const VqDevPlane *dis, unsigned bpc,
                                  uint64_t *sse)
{
    return vq_plane_sum(stream, ref, dis, bpc, sse, PsnrTerm());
}
