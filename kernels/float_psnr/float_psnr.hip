#include "float_psnr.h"
#include "../plane_sum.h"

struct FloatPsnrTerm {
    __device__ unsigned long long operator()(unsigned r, unsigned d) const
    {
        return vq_float_psnr_term(r, d);
    }
};

extern "C" int vq_float_psnr_launch(VqStream stream, const VqDevPlane *ref,
                                    const VqDevPlane *dis, unsigned bpc,
                                    uint64_t *sum)
{
    return vq_plane_sum(stream, ref, dis, bpc, sum, FloatPsnrTerm());
}
