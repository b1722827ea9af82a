/*
 * What every stage of a run reads (the CPU run, the GPU run, verify=, the
 * fallback, the colour check): the extractors, the pictures' format, the
 * frames scored, where errors and diagnostics go. The pipeline owns it and
 * fills it when the run starts; the stages keep a pointer to it.
 */
#ifndef VQHIP_RUN_ENV_H
#define VQHIP_RUN_ENV_H

#include "base/error.h"
#include "base/log.h"
#include "core/fex.h"
#include "core/picture.h"

typedef struct VqRunEnv {
    const VqFexList *fexs;   /* the run's extractors, in selection order */
    const VqFormat *fmt;     /* the pictures' format */
    const VqCollector *coll; /* which frames are scored (vq_collector_scored) */
    VqErrBuf *err;
    const VqLogger *log;
} VqRunEnv;

/* Whether extractor fex computes frame index in this run. */
static inline bool vq_env_runs_on(const VqRunEnv *env, const VqFex *fex,
                                  unsigned index)
{
    return vq_fex_runs_on(fex, env->coll, index);
}

#endif
