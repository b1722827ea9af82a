/*
 * What a run computes: the extractors and models selected (vq_use_feature,
 * vq_use_model) and the collector their outputs go to. Fixed once the run
 * starts, except that skip_unsupported may drop extractors then.
 */
#ifndef VQHIP_RUN_SELECTION_H
#define VQHIP_RUN_SELECTION_H

#include <stdbool.h>

#include "base/error.h"
#include "core/collector.h"
#include "core/fex.h"
#include "model/model.h"

#define VQ_MAX_MODELS 16

typedef struct VqSelection {
    VqFexList fexs;
    VqModel *model[VQ_MAX_MODELS];
    unsigned n_model;
    VqCollector coll;  /* every output's values */
    VqErrBuf *err;
} VqSelection;

void vq_selection_init(VqSelection *s, VqErrBuf *err, unsigned n_subsample);
/* Frees the extractors and models (then the collector: vq_selection_free). */
void vq_selection_close(VqSelection *s);
void vq_selection_free(VqSelection *s);

/* Adds an extractor from its spec, or finds the identical one already
 * selected (*found, may be NULL). */
int vq_selection_add_feature(VqSelection *s, const char *spec, VqFex **found);
/* Adds a model and the extractors it reads; model files are looked for in
 * model_dir (NULL: the built-in models and the installed folder). */
int vq_selection_add_model(VqSelection *s, const char *spec,
                           const char *model_dir);
/* Whether a model reads one of fex's outputs. */
bool vq_selection_model_needs(const VqSelection *s, const VqFex *fex);
/* Removes extractor i (before the run starts). */
void vq_selection_drop(VqSelection *s, unsigned i);

#endif
