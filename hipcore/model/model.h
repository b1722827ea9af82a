/*
 * VMAF models: libvmaf's JSON model format (libsvm nu-SVR with an RBF
 * kernel, linear feature rescale, score transform, clip; bootstrap
 * collections). The core asks a model which extractor outputs it reads,
 * makes sure those extractors run, and calls vq_model_predict() for each
 * frame once every input of that frame is final.
 */
#ifndef VQHIP_MODEL_H
#define VQHIP_MODEL_H

#include "../collector.h"
#include "../error.h"

typedef struct VqModel VqModel;

/* spec: "version=vmaf_v0.6.1" (looked up in model_dir as <version>.json) or
 * "path=file.json", plus optional ":name=<output name>",
 * ":enable_transform=true|false", ":disable_clip=true|false". */
int vq_model_open(VqModel **m, const char *spec, const char *model_dir,
                  VqErrBuf *e);
void vq_model_close(VqModel **m);

/* Name of the model's main output (the "name=" given, or "vmaf"). */
const char *vq_model_name(const VqModel *m);

/* The model's inputs: for input i, an extractor spec in libvmaf's syntax
 * ("name=adm:adm_enhn_gain_limit=1") and the output name that extractor
 * writes for it ("integer_adm2_egl_1"). */
unsigned vq_model_input_count(const VqModel *m);
int vq_model_input(const VqModel *m, unsigned i, const char **fex_spec,
                   const char **output);

/* Reads the inputs of frame `index` from the collector and writes the
 * model's outputs there (backend is recorded as the outputs' backend). */
int vq_model_predict(VqModel *m, VqCollector *c, unsigned index,
                     const char *backend, VqErrBuf *e);

#endif
