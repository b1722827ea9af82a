/*
 * libvmaf feature names, as model files use them, and the vqhip extractor
 * and output that provide each. The names and their providers follow the
 * provided_features lists of libvmaf's extractors; the output names follow
 * its aliases (libvmaf/src/feature/alias.c), which is what its logs show.
 * An extractor option that is not at its default suffixes the output name;
 * that suffix is computed by the core from the extractor's own option
 * table, so the name a model reads is the name the extractor writes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model_priv.h"

typedef struct FeatureSource {
    const char *libvmaf;
    const char *fex;
    const char *output;
} FeatureSource;

#define SCALES(fex, pre, post, out)                                          \
    { pre "0" post, fex, out "0" }, { pre "1" post, fex, out "1" },          \
    { pre "2" post, fex, out "2" }, { pre "3" post, fex, out "3" }
#define SAME(fex, name) { name, fex, name }
#define SAME_SCALES(fex, name) SCALES(fex, name, "", name)

static const FeatureSource sources[] = {
    /* integer adm */
    { "VMAF_integer_feature_adm2_score", "adm", "integer_adm2" },
    { "VMAF_integer_feature_aim_score", "adm", "integer_aim" },
    { "VMAF_integer_feature_adm3_score", "adm", "integer_adm3" },
    SAME_SCALES("adm", "integer_adm_scale"),
    SAME("adm", "integer_adm"),
    SAME("adm", "integer_adm_num"),
    SAME("adm", "integer_adm_den"),
    SAME_SCALES("adm", "integer_adm_num_scale"),
    SAME_SCALES("adm", "integer_adm_den_scale"),
    /* integer vif */
    SCALES("vif", "VMAF_integer_feature_vif_scale", "_score",
           "integer_vif_scale"),
    SAME("vif", "integer_vif"),
    SAME("vif", "integer_vif_num"),
    SAME("vif", "integer_vif_den"),
    SAME_SCALES("vif", "integer_vif_num_scale"),
    SAME_SCALES("vif", "integer_vif_den_scale"),
    /* integer motion (the SAD score has no alias in libvmaf's logs) */
    SAME("motion", "VMAF_integer_feature_motion_sad_score"),
    { "VMAF_integer_feature_motion_score", "motion", "integer_motion" },
    { "VMAF_integer_feature_motion2_score", "motion", "integer_motion2" },
    { "VMAF_integer_feature_motion3_score", "motion", "integer_motion3" },
    /* float adm */
    { "VMAF_feature_adm2_score", "float_adm", "adm2" },
    { "VMAF_feature_aim_score", "float_adm", "aim" },
    { "VMAF_feature_adm3_score", "float_adm", "adm3" },
    SCALES("float_adm", "VMAF_feature_adm_scale", "_score", "adm_scale"),
    SAME("float_adm", "adm_num"),
    SAME("float_adm", "adm_den"),
    SAME("float_adm", "adm_scale0"),
    SAME_SCALES("float_adm", "adm_num_scale"),
    SAME_SCALES("float_adm", "adm_den_scale"),
    /* float vif */
    SCALES("float_vif", "VMAF_feature_vif_scale", "_score", "vif_scale"),
    SAME("float_vif", "vif"),
    SAME("float_vif", "vif_num"),
    SAME("float_vif", "vif_den"),
    SAME_SCALES("float_vif", "vif_num_scale"),
    SAME_SCALES("float_vif", "vif_den_scale"),
    /* float motion */
    { "VMAF_feature_motion_score", "float_motion", "motion" },
    { "VMAF_feature_motion2_score", "float_motion", "motion2" },
    { "VMAF_feature_motion3_score", "float_motion", "motion3" },
    /* the v1.0.16 models' extra features */
    { "Cambi_feature_cambi_score", "cambi", "cambi" },
    { "Speed_chroma_feature_speed_chroma_u_score", "speed_chroma",
      "speed_chroma_u" },
    { "Speed_chroma_feature_speed_chroma_v_score", "speed_chroma",
      "speed_chroma_v" },
    { "Speed_chroma_feature_speed_chroma_uv_score", "speed_chroma",
      "speed_chroma_uv" },
    { "Speed_temporal_feature_speed_temporal_score", "speed_temporal",
      "speed_temporal" },
    /* the rest of libvmaf's extractors */
    SAME("psnr", "psnr_y"),
    SAME("psnr", "psnr_cb"),
    SAME("psnr", "psnr_cr"),
    SAME("float_psnr", "float_psnr"),
    SAME("float_ansnr", "float_ansnr"),
    SAME("float_ssim", "float_ssim"),
    SAME("float_ms_ssim", "float_ms_ssim"),
    SAME("ciede", "ciede2000"),
    SAME("psnr_hvs", "psnr_hvs_y"),
    SAME("psnr_hvs", "psnr_hvs_cb"),
    SAME("psnr_hvs", "psnr_hvs_cr"),
    SAME("psnr_hvs", "psnr_hvs"),
};

const char *vq_model_feature_extractor(const char *libvmaf_name,
                                       const char **base_output)
{
    for (size_t i = 0; i < sizeof(sources) / sizeof(sources[0]); i++) {
        if (!strcmp(sources[i].libvmaf, libvmaf_name)) {
            *base_output = sources[i].output;
            return sources[i].fex;
        }
    }
    return NULL;
}

int vq_model_feature_set_opt(VqModelFeature *f, const char *key,
                             const char *val, bool numeric, bool replace,
                             VqErrBuf *e)
{
    char norm[64];
    if (numeric) {
        /* libvmaf's dictionary keeps numbers as "%g" of their float value
         * (VMAF_DICT_NORMALIZE_NUMERICAL_VALUES); the extractor then parses
         * that text, and the output name is made from the parsed value. */
        char *end = NULL;
        double d = strtof(val, &end);
        if (end != val) {
            snprintf(norm, sizeof(norm), "%g", d);
            val = norm;
        }
    }
    if (!*key || strpbrk(key, ":=\\") || !strcmp(key, "name"))
        return vq_fail(e, VQ_EMODEL, "feature %s: bad option name '%s'",
                       f->name, key);
    if (!*val || strpbrk(val, ":=\\"))
        return vq_fail(e, VQ_EMODEL, "feature %s: option %s: value '%s' "
                       "cannot be passed on", f->name, key, val);
    for (unsigned i = 0; i < f->n_opts; i++) {
        if (strcmp(f->opt_key[i], key))
            continue;
        if (!replace)
            return strcmp(f->opt_val[i], val) ?
                vq_fail(e, VQ_EMODEL, "feature %s: option %s given twice",
                        f->name, key) : 0;
        char *v = strdup(val);
        if (!v)
            return vq_fail(e, VQ_ENOMEM, "out of memory");
        free(f->opt_val[i]);
        f->opt_val[i] = v;
        return 0;
    }
    if (f->n_opts == VQ_MODEL_MAX_FEATURE_OPTS)
        return vq_fail(e, VQ_EMODEL, "feature %s: more than %d options",
                       f->name, VQ_MODEL_MAX_FEATURE_OPTS);
    f->opt_key[f->n_opts] = strdup(key);
    f->opt_val[f->n_opts] = strdup(val);
    if (!f->opt_key[f->n_opts] || !f->opt_val[f->n_opts]) {
        free(f->opt_key[f->n_opts]);
        free(f->opt_val[f->n_opts]);
        return vq_fail(e, VQ_ENOMEM, "out of memory");
    }
    f->n_opts++;
    return 0;
}

static bool provides(const VqFexDesc *d, const char *output)
{
    for (const char *const *o = d->outputs; o && *o; o++)
        if (!strcmp(*o, output))
            return true;
    return false;
}

/* Extractor spec ("name=adm:k=v...") and output name for one feature. */
static int describe(const VqModel *m, const VqModelFeature *f,
                    VqFexLookup find, char **spec, char **output,
                    VqErrBuf *e)
{
    *spec = *output = NULL;
    const char *base;
    const char *fex = vq_model_feature_extractor(f->name, &base);
    if (!fex)
        return vq_fail(e, VQ_EMODEL, "model %s: unknown feature '%s' (no "
                       "libvmaf extractor provides it)", m->label, f->name);
    const VqFexDesc *d = find ? find(fex) : NULL;
    if (!d)
        return vq_fail(e, VQ_EUNSUPPORTED, "model %s needs feature %s (%s), "
                       "which this build does not have yet", m->label, fex,
                       f->name);
    if (!provides(d, base))
        return vq_fail(e, VQ_EUNSUPPORTED, "model %s needs %s (%s) from "
                       "extractor %s, which does not provide it", m->label,
                       base, f->name, fex);

    void *priv = calloc(1, d->priv_size ? d->priv_size : 1);
    if (!priv)
        return vq_fail(e, VQ_ENOMEM, "out of memory");
    vq_opt_set_defaults(d->options, priv);
    size_t len = strlen("name=") + strlen(fex) + 1;
    for (unsigned i = 0; i < f->n_opts; i++) {
        VqErrBuf why;
        vq_err_clear(&why);
        int err = vq_opt_set(d->options, priv, fex, f->opt_key[i],
                             f->opt_val[i], &why);
        if (err) {
            free(priv);
            return vq_fail(e, err == VQ_ENOMEM ? err : VQ_EMODEL,
                           "model %s, feature %s: %s", m->label, f->name,
                           why.msg);
        }
        len += strlen(f->opt_key[i]) + strlen(f->opt_val[i]) + 2;
    }
    *output = vq_opt_output_name(base, d->options, priv);
    free(priv);
    *spec = malloc(len);
    if (!*output || !*spec) {
        free(*output);
        free(*spec);
        *spec = *output = NULL;
        return vq_fail(e, VQ_ENOMEM, "out of memory");
    }
    size_t at = (size_t)snprintf(*spec, len, "name=%s", fex);
    for (unsigned i = 0; i < f->n_opts; i++)
        at += (size_t)snprintf(*spec + at, len - at, ":%s=%s", f->opt_key[i],
                               f->opt_val[i]);
    return 0;
}

static int add_input(VqModel *m, VqModelFeature *f, char *spec, char *output)
{
    for (unsigned i = 0; i < m->n_input; i++) {
        if (!strcmp(m->input[i].output, output)) {
            f->input = i;
            free(spec);
            free(output);
            return 0;
        }
    }
    VqModelInput *in = realloc(m->input, (m->n_input + 1) * sizeof(*in));
    char *name = strdup(f->name);
    if (!in || !name) {
        if (in)
            m->input = in;
        free(name);
        free(spec);
        free(output);
        return VQ_ENOMEM;
    }
    m->input = in;
    in[m->n_input] = (VqModelInput){ .libvmaf_name = name, .fex_spec = spec,
                                     .output = output, .series = -1 };
    f->input = m->n_input++;
    return 0;
}

static int apply_overloads(const VqModel *m, const VqModelOverload *ov,
                           unsigned n_ov, VqErrBuf *e)
{
    for (unsigned k = 0; k < n_ov; k++) {
        bool used = false;
        char *end = NULL;
        (void)strtof(ov[k].val, &end);
        bool numeric = end != ov[k].val && !*end;
        for (unsigned s = 0; s < m->n_svr; s++) {
            VqSvr *svr = &m->svr[s];
            for (unsigned i = 0; i < svr->n_features; i++) {
                const char *base;
                const char *fex =
                    vq_model_feature_extractor(svr->feature[i].name, &base);
                if (!fex || strcmp(fex, ov[k].fex))
                    continue;
                int err = vq_model_feature_set_opt(&svr->feature[i],
                                                   ov[k].key, ov[k].val,
                                                   numeric, true, e);
                if (err)
                    return err;
                used = true;
            }
        }
        if (!used)
            return vq_fail(e, VQ_EINVAL, "model %s: no feature of it is "
                           "computed by '%s' (in %s.%s)", m->label,
                           ov[k].fex, ov[k].fex, ov[k].key);
    }
    return 0;
}

int vq_model_resolve(VqModel *m, VqFexLookup find,
                     const VqModelOverload *ov, unsigned n_ov, VqErrBuf *e)
{
    int err = apply_overloads(m, ov, n_ov, e);
    if (err)
        return err;
    for (unsigned s = 0; s < m->n_svr; s++) {
        VqSvr *svr = &m->svr[s];
        for (unsigned i = 0; i < svr->n_features; i++) {
            char *spec, *output;
            err = describe(m, &svr->feature[i], find, &spec, &output, e);
            if (err)
                return err;
            if (add_input(m, &svr->feature[i], spec, output))
                return vq_fail(e, VQ_ENOMEM, "out of memory");
        }
    }
    return 0;
}
