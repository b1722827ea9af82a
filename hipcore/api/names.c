/* The library's version, error texts, and names of enum values. */
#include <string.h>

#include "context.h"
#include "gpu/gpu.h"
#include "revision.h"

const char *vq_version(void)
{
    return VQHIP_VERSION_STRING;
}

const char *vq_revision(void)
{
    return VQHIP_REVISION;
}

const char *vq_strerror(int err)
{
    switch (err) {
    case 0: return "success";
    case VQ_EINVAL: return "invalid argument";
    case VQ_ENOMEM: return "out of memory";
    case VQ_EAGAIN: return "no frame ready yet";
    case VQ_EOF: return "end of stream";
    case VQ_EDEVICE: return "GPU device error";
    case VQ_EUNSUPPORTED: return "not supported";
    case VQ_EIO: return "I/O error";
    case VQ_ENOTFOUND: return "not found";
    case VQ_EMODEL: return "invalid model";
    case VQ_ESTATE: return "call not valid in this state";
    default: return "unknown error";
    }
}

void vq_picture_set_color(VqPicture *pic, int matrix_coefficients,
                          int range, int chroma_location)
{
    /* H.273 MatrixCoefficients (Table 4); 0 (identity: RGB) and the rest
     * are not a YCbCr matrix vqhip converts */
    switch (matrix_coefficients) {
    case 1: pic->matrix = VQ_MATRIX_BT709; break;
    case 2: pic->matrix = VQ_MATRIX_UNSPECIFIED; break;
    case 4: pic->matrix = VQ_MATRIX_FCC; break;
    case 5:
    case 6: pic->matrix = VQ_MATRIX_BT601; break;
    case 7: pic->matrix = VQ_MATRIX_SMPTE240M; break;
    case 8: pic->matrix = VQ_MATRIX_YCGCO; break;
    case 9: pic->matrix = VQ_MATRIX_BT2020_NCL; break;
    default: pic->matrix = VQ_MATRIX_OTHER; break;
    }
    pic->range = range == 1 ? VQ_RANGE_LIMITED : range == 2 ? VQ_RANGE_FULL
                                                            : VQ_RANGE_UNSPECIFIED;
    /* VqChromaLoc is numbered as AVChromaLocation */
    pic->chroma_loc = chroma_location >= VQ_CHROMA_LOC_LEFT &&
                      chroma_location <= VQ_CHROMA_LOC_BOTTOM
                      ? (VqChromaLoc)chroma_location : VQ_CHROMA_LOC_UNSPECIFIED;
}

int vq_gpu_count(char *why, size_t why_size)
{
    return vq_gpu_devices(why, why_size);
}

int vq_pool_from_name(const char *name, VqPool *pool)
{
    static const char *const names[] = { "mean", "min", "max", "harmonic_mean" };
    for (unsigned i = 0; name && i < 4; i++) {
        if (!strcmp(name, names[i])) {
            *pool = (VqPool)i;
            return 0;
        }
    }
    return VQ_EINVAL;
}

int vq_log_fmt_from_name(const char *name, VqLogFmt *fmt)
{
    static const char *const names[] = { "xml", "json", "csv", "sub" };
    for (unsigned i = 0; name && i < 4; i++) {
        if (!strcmp(name, names[i])) {
            *fmt = (VqLogFmt)i;
            return 0;
        }
    }
    return VQ_EINVAL;
}
