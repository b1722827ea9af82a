/* The public offset search (vq_sync_*): core/align.c behind a handle. */
#include <stdio.h>
#include <stdlib.h>

#include "core/align.h"

struct VqSync {
    VqAlign align;
    char error[192];
};

int vq_sync_open(VqSync **sync, const VqSyncConfig *cfg)
{
    if (!sync)
        return VQ_EINVAL;
    *sync = calloc(1, sizeof(**sync));
    if (!*sync)
        return VQ_ENOMEM;
    vq_align_init(&(*sync)->align, cfg);
    return 0;
}

unsigned vq_sync_needed(const VqSync *sync)
{
    return sync ? sync->align.need : 0;
}

int vq_sync_add(VqSync *sync, int distorted, const VqPicture *pic)
{
    if (!sync)
        return VQ_EINVAL;
    if (vq_align_add(&sync->align, distorted, pic, sync->error,
                     sizeof(sync->error)))
        return VQ_EINVAL;
    return 0;
}

int vq_sync_find(VqSync *sync, VqSyncResult *res)
{
    if (!sync || !res)
        return VQ_EINVAL;
    vq_align_find(&sync->align, res);
    return 0;
}

const char *vq_sync_error(const VqSync *sync)
{
    return sync ? sync->error : "no search";
}

void vq_sync_close(VqSync **sync)
{
    if (!sync || !*sync)
        return;
    vq_align_free(&(*sync)->align);
    free(*sync);
    *sync = NULL;
}
