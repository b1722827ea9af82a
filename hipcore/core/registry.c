/* Every extractor this build knows, from the one list in the top-level
 * meson.build (extractor_list.h: VQ_EXTRACTOR_LIST), and the layout of
 * their accumulator records. */
#include <string.h>

#include "extractor.h"
#include "extractor_list.h"

#define X(name) extern const VqFexDesc vq_fex_##name;
VQ_EXTRACTOR_LIST
#undef X

#define X(name) &vq_fex_##name,
static const VqFexDesc *const registry[] = { VQ_EXTRACTOR_LIST NULL };
#undef X

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

size_t vq_acc_layout(VqFex *const *fex, unsigned n, bool gpu)
{
    size_t total = 0;
    for (unsigned i = 0; i < n; i++) {
        if (fex[i]->on_gpu != gpu)
            continue;
        fex[i]->acc_off = total;
        total += (fex[i]->acc_size + VQ_ACC_ALIGN - 1) &
                 ~(size_t)(VQ_ACC_ALIGN - 1);
    }
    return total;
}
