/*
 * The pictures' colour description during a run, for the extractors that
 * read it (VQ_FEX_USES_COLOR): the first pair's holds for the run.
 */
#ifndef VQHIP_RUN_COLOR_H
#define VQHIP_RUN_COLOR_H

#include <stdbool.h>

#include "core/picture.h"
#include "run_env.h"

typedef struct VqColor {
    bool pending; /* vq_configure: the first pair gives the colour */
    bool warned;  /* a later pair's colour description differed */
} VqColor;

/* For each valid pair (frame `index`) before it is scored. After
 * vq_configure (pending), the first pair's colour description becomes the
 * run's (*fmt, the format env->fmt points to, and the extractors' copies);
 * a later change is warned about once. */
int vq_color_pair(VqColor *c, const VqRunEnv *env, VqFormat *fmt,
                  const VqPicture *ref, const VqPicture *dis, unsigned index);

#endif
