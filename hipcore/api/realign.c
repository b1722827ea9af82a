/* The public drop and repeat detector (vq_realign_*): core/realign.c
 * behind a handle. */
#include <stdio.h>
#include <stdlib.h>

#include "core/realign.h"

struct VqRealign {
    VqRealignState state;
    char error[192];
};

int vq_realign_open(VqRealign **r, const VqRealignConfig *cfg)
{
    if (!r)
        return VQ_EINVAL;
    *r = calloc(1, sizeof(**r));
    if (!*r)
        return VQ_ENOMEM;
    vq_realign_state_init(&(*r)->state, cfg);
    return 0;
}

unsigned vq_realign_ahead(const VqRealign *r)
{
    return r ? r->state.window + 1 : 0;
}

int vq_realign_add(VqRealign *r, int distorted, const VqPicture *pic)
{
    if (!r)
        return VQ_EINVAL;
    int st = vq_realign_state_add(&r->state, distorted, pic, r->error,
                                  sizeof(r->error));
    if (st > 0) {
        snprintf(r->error, sizeof(r->error), "the %s's frames are %u ahead "
                 "of the head pair already", distorted ? "distorted video" :
                 "reference", r->state.window + 1);
        return VQ_EAGAIN;
    }
    return st ? VQ_EINVAL : 0;
}

int vq_realign_decide(VqRealign *r, VqRealignEvent *ev)
{
    if (!r || !ev)
        return VQ_EINVAL;
    int st = vq_realign_state_decide(&r->state, ev);
    if (st < 0)
        snprintf(r->error, sizeof(r->error), "no head pair: an input has no "
                 "frame added past the last pair");
    return st < 0 ? VQ_EINVAL : st;
}

int vq_realign_pop(VqRealign *r)
{
    if (!r || vq_realign_state_pop(&r->state))
        return VQ_EINVAL;
    return 0;
}

const char *vq_realign_error(const VqRealign *r)
{
    return r ? r->error : "no detector";
}

void vq_realign_close(VqRealign **r)
{
    if (!r || !*r)
        return;
    vq_realign_state_free(&(*r)->state);
    free(*r);
    *r = NULL;
}
