/*
 * Inside of the model engine: one libvmaf JSON model file becomes a VqModel
 * holding one regression model (VqSvr), or for a bootstrap collection the
 * main model followed by its members.
 *
 *   model_json.c  JSON -> VqSvr (structure and values, checked)
 *   svm.c         the libsvm text model embedded in it, RBF prediction
 *   features.c    libvmaf feature names and options -> vqhip extractors,
 *                 their specs and output names
 *   predict.c     per-frame prediction in libvmaf's order of operations
 *   model.c       specs, files, the VqModel life cycle
 */
#ifndef VQHIP_MODEL_PRIV_H
#define VQHIP_MODEL_PRIV_H

#include <stdbool.h>
#include <stddef.h>

#include "core/extractor.h"
#include "model.h"

#define VQ_MODEL_MAX_FEATURES 64
#define VQ_MODEL_MAX_FEATURE_OPTS 32
#define VQ_MODEL_MAX_KNOTS 64
#define VQ_MODEL_MAX_MEMBERS 9999 /* "<name>_%04d" */
#define VQ_MODEL_MAX_FILE_SIZE (64u << 20)

typedef enum VqNorm {
    VQ_NORM_NONE = 0,
    VQ_NORM_LINEAR_RESCALE,
} VqNorm;

typedef enum VqSvrType {
    VQ_SVR_PLAIN = 0,          /* LIBSVMNUSVR */
    VQ_SVR_BOOTSTRAP,          /* BOOTSTRAP_LIBSVMNUSVR */
    VQ_SVR_RESIDUE_BOOTSTRAP,  /* RESIDUEBOOTSTRAP_LIBSVMNUSVR */
} VqSvrType;

/* A libsvm epsilon/nu regression model with an RBF kernel. Support vectors
 * are stored dense: libsvm's sparse walk adds x*x for an index a support
 * vector omits, which is exactly (x - 0)^2 in the same index order. */
typedef struct VqSvm {
    double gamma, rho;
    unsigned n_sv, dim;
    double *coef; /* n_sv */
    double *sv;   /* n_sv rows of dim values */
} VqSvm;

/* Parses libsvm's model text for a model of `dim` features. */
int vq_svm_parse(VqSvm *svm, const char *text, size_t len, unsigned dim,
                 VqErrBuf *e);
void vq_svm_free(VqSvm *svm);
/* sum_i coef_i * exp(-gamma * |x - sv_i|^2) - rho, summed in libsvm's order. */
double vq_svm_predict(const VqSvm *svm, const double *x);

/* Parses a decimal number (JSON / C syntax, no hex, inf or nan) that must be
 * finite; *end is set past it. Call with the C locale active. */
int vq_parse_finite(const char *s, const char **end, double *out);

typedef struct VqModelFeature {
    char *name;                /* libvmaf's feature name */
    double slope, intercept;   /* linear rescale */
    unsigned n_opts;           /* feature_opts_dicts entry, as libvmaf keeps */
    char *opt_key[VQ_MODEL_MAX_FEATURE_OPTS]; /* it: numbers as "%g" of the */
    char *opt_val[VQ_MODEL_MAX_FEATURE_OPTS]; /* float value */
    unsigned input;            /* index into VqModel.input once resolved */
} VqModelFeature;

typedef struct VqSvr {
    VqSvrType type;
    VqNorm norm;
    double slope, intercept;   /* score denormalization */
    unsigned n_features;
    VqModelFeature *feature;
    VqSvm svm;
    struct {
        bool enabled;
        double min, max;
    } clip;
    struct {
        bool enabled;
        bool has_p[3];
        double p[3];           /* p0 + p1 y + p2 y^2 */
        unsigned n_knots;      /* 0: no piecewise-linear stage */
        double *knot_x, *knot_y;
        bool out_lte_in, out_gte_in;
    } transform;
    struct {
        bool enabled;          /* chroma_correction_parameter */
        double param;
        unsigned guiding;      /* the feature named *adm3* */
        unsigned guided;       /* the feature named *speed_chroma* */
    } chroma;
} VqSvr;

typedef struct VqModelInput {
    char *libvmaf_name;  /* first model feature that asked for it */
    char *fex_spec;      /* "name=adm:adm_enhn_gain_limit=1" */
    char *output;        /* "integer_adm2_egl_1" */
    int series;          /* collector id, -1 until found */
} VqModelInput;

enum {
    VQ_MODEL_DISABLE_CLIP = 1 << 0,     /* libvmaf's VMAF_MODEL_FLAG_* */
    VQ_MODEL_ENABLE_TRANSFORM = 1 << 1,
};

struct VqModel {
    char *label;         /* version or path, for messages */
    char *spec;          /* the spec it was opened with ("" for a buffer) */
    char *version;       /* version=, or NULL */
    const char *origin;  /* "built-in", "file" or "buffer" */
    char sha256[65];     /* of the JSON bytes read (logs' provenance) */
    char *name;          /* main output name */
    unsigned flags;      /* VQ_MODEL_* */
    bool bootstrap;      /* svr[1..n_svr-1] are bootstrap members */
    VqSvr *svr;
    unsigned n_svr;
    VqModelInput *input;
    unsigned n_input;
    /* Outputs in libvmaf's order: name; bootstrap adds name_0001..name_NNNN,
     * name_bagging, name_stddev, name_ci_p95_lo, name_ci_p95_hi. */
    char **out_name;
    int *out_series;
    unsigned n_out;
    double *scratch;     /* features of one model, then member scores */
};

/* Feature overload from the spec, "adm.adm_enhn_gain_limit=1". */
typedef struct VqModelOverload {
    const char *fex, *key, *val;
} VqModelOverload;

/* model_json.c: fills m->svr, m->n_svr, m->bootstrap from JSON text. */
int vq_model_parse_json(VqModel *m, const char *data, size_t len,
                        VqErrBuf *e);

/* features.c */
/* Stores a feature option the way libvmaf's dictionary does (numbers become
 * "%g" of their float value); replaces an existing key when `replace`. */
int vq_model_feature_set_opt(VqModelFeature *f, const char *key,
                             const char *val, bool numeric, bool replace,
                             VqErrBuf *e);
/* Maps every feature to an extractor input (m->input). */
int vq_model_resolve(VqModel *m, VqFexLookup find,
                     const VqModelOverload *ov, unsigned n_ov, VqErrBuf *e);
/* The vqhip extractor and base output for a libvmaf feature name, or NULL. */
const char *vq_model_feature_extractor(const char *libvmaf_name,
                                       const char **base_output);

/* predict.c */
int vq_model_setup_outputs(VqModel *m, VqErrBuf *e);

void vq_model_free_svr(VqSvr *s);

#endif
