/*
 * VMAF models: libvmaf's JSON model format (libsvm nu-SVR with an RBF
 * kernel, linear feature rescale, score transform, clip; bootstrap
 * collections). The core asks a model which extractor outputs it reads,
 * makes sure those extractors run, and calls vq_model_predict() for each
 * frame once every input of that frame is final.
 */
#ifndef VQHIP_MODEL_H
#define VQHIP_MODEL_H

#include <stddef.h>

#include "core/collector.h"
#include "base/error.h"
#include "core/extractor.h"

typedef struct VqModel VqModel;

/* Finds an extractor descriptor by name (vq_fex_find for the real build). */
typedef const VqFexDesc *(*VqFexLookup)(const char *name);

/* spec: "version=vmaf_v0.6.1" (looked up in model_dir as <version>.json; a
 * bare first word is a version too) or "path=file.json", plus optional
 * ":name=<output name>" (default "vmaf"), ":enable_transform[=true|false]",
 * ":disable_clip[=true|false]" and libvmaf's feature overloads
 * ":<extractor>.<option>=<value>" (e.g. "adm.adm_enhn_gain_limit=1"), which
 * set that option on every model feature the extractor computes.
 * Errors: VQ_ENOTFOUND (no such version or file), VQ_EMODEL (malformed
 * model), VQ_EUNSUPPORTED (a feature this build has no extractor for),
 * VQ_EINVAL (bad spec), VQ_EIO, VQ_ENOMEM; *m is NULL then. */
int vq_model_open(VqModel **m, const char *spec, const char *model_dir,
                  VqErrBuf *e);
/* The same, with extractors looked up through `find`. */
int vq_model_open_ex(VqModel **m, const char *spec, const char *model_dir,
                     VqFexLookup find, VqErrBuf *e);
/* A model from JSON text in memory; spec as above without version/path
 * (may be NULL). */
int vq_model_load_buffer(VqModel **m, const char *data, size_t len,
                         const char *spec, VqFexLookup find, VqErrBuf *e);
void vq_model_close(VqModel **m);

/* Name of the model's main output (the "name=" given, or "vmaf"). */
const char *vq_model_name(const VqModel *m);

/* Where a model came from, for the logs: the spec it was opened with, its
 * version= (NULL for path= or a buffer), "built-in", "file" or "buffer",
 * and the SHA-256 of the JSON bytes it was read from (64 hex digits). */
typedef struct VqModelOrigin {
    const char *spec, *version, *origin, *sha256;
} VqModelOrigin;
void vq_model_origin(const VqModel *m, VqModelOrigin *o);

/* The model's inputs: for input i, an extractor spec in libvmaf's syntax
 * ("name=adm:adm_enhn_gain_limit=1") and the output name that extractor
 * writes for it ("integer_adm2_egl_1"). */
unsigned vq_model_input_count(const VqModel *m);
int vq_model_input(const VqModel *m, unsigned i, const char **fex_spec,
                   const char **output);

/* Every output the model writes per frame, in libvmaf's order: the name;
 * for a bootstrap model also <name>_0001.. (one per member), <name>_bagging,
 * <name>_stddev, <name>_ci_p95_lo, <name>_ci_p95_hi. */
unsigned vq_model_output_count(const VqModel *m);
const char *vq_model_output_name(const VqModel *m, unsigned k);

/* Reads the inputs of frame `index` from the collector and writes the
 * model's outputs there (backend is recorded as the outputs' backend; the
 * collector keeps the pointer, so pass a string that outlives it). */
int vq_model_predict(VqModel *m, VqCollector *c, unsigned index,
                     const char *backend, VqErrBuf *e);

#endif
