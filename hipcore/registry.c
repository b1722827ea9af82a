/* Every extractor this build knows: one line each in VQ_EXTRACTORS. */
#include <string.h>

#include "extractor.h"

#define VQ_EXTRACTORS(X) \
    X(psnr)              \
    X(float_psnr)        \
    X(adm)               \
    X(motion)            \
    X(vif)

#define VQ_DECLARE(name) extern const VqFexDesc vq_fex_##name;
#define VQ_ENTRY(name) &vq_fex_##name,
VQ_EXTRACTORS(VQ_DECLARE)

static const VqFexDesc *const registry[] = { VQ_EXTRACTORS(VQ_ENTRY) NULL };

const VqFexDesc *const *vq_fex_registry(void)
{
    return registry;
}

const VqFexDesc *vq_fex_find(const char *name)
{
    for (const VqFexDesc *const *d = registry; *d; d++)
        if (!strcmp((*d)->name, name))
            return *d;
    return NULL;
}
