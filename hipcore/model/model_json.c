/*
 * libvmaf's JSON model format:
 *
 *   { "model_dict": { "model_type": "LIBSVMNUSVR", "norm_type":
 *       "linear_rescale", "feature_names": [...], "slopes": [...],
 *       "intercepts": [...], "feature_opts_dicts": [{...}, ...],
 *       "score_clip": [lo, hi], "score_transform": {...},
 *       "chroma_correction_parameter": c, "model": "<libsvm text>" } }
 *
 * or a bootstrap collection { "0": {"model_dict": ...}, "1": ..., ... }
 * where "0" is the main model and "1".."N" are its members. Keys libvmaf
 * ignores are ignored; everything libvmaf reads is checked here, so that a
 * model that loads cannot fail or misbehave at prediction time.
 */
#include <json-c/json.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model_priv.h"

typedef struct Ctx {
    VqErrBuf *e;
    unsigned flags;
    char where[32]; /* "" or "member 3: " */
} Ctx;

#define FAIL(c, ...) fail_at(c, __VA_ARGS__)

static int fail_at(const Ctx *c, const char *fmt, ...) VQ_PRINTF(2, 3);
static int fail_at(const Ctx *c, const char *fmt, ...)
{
    char msg[VQ_ERR_MSG_SIZE];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    return vq_fail(c->e, VQ_EMODEL, "%s%s", c->where, msg);
}

static bool is_number(struct json_object *o)
{
    return json_object_is_type(o, json_type_double) ||
           json_object_is_type(o, json_type_int);
}

static int get_finite(const Ctx *c, struct json_object *o, const char *what,
                      double *out)
{
    if (!is_number(o))
        return FAIL(c, "%s is not a number", what);
    double v = json_object_get_double(o);
    if (!isfinite(v))
        return FAIL(c, "%s is not finite", what);
    *out = v;
    return 0;
}

static const char *get_string(struct json_object *md, const char *key)
{
    struct json_object *o;
    if (!json_object_object_get_ex(md, key, &o) ||
        !json_object_is_type(o, json_type_string))
        return NULL;
    return json_object_get_string(o);
}

static int parse_feature_names(const Ctx *c, struct json_object *md,
                               VqSvr *s)
{
    struct json_object *a;
    if (!json_object_object_get_ex(md, "feature_names", &a))
        return FAIL(c, "no feature_names");
    if (!json_object_is_type(a, json_type_array))
        return FAIL(c, "feature_names is not an array");
    size_t n = json_object_array_length(a);
    if (!n || n > VQ_MODEL_MAX_FEATURES)
        return FAIL(c, "feature_names has %zu entries (1..%d expected)", n,
                    VQ_MODEL_MAX_FEATURES);
    s->feature = calloc(n, sizeof(*s->feature));
    if (!s->feature)
        return vq_fail(c->e, VQ_ENOMEM, "out of memory");
    s->n_features = (unsigned)n;
    for (unsigned i = 0; i < n; i++) {
        struct json_object *o = json_object_array_get_idx(a, i);
        if (!json_object_is_type(o, json_type_string) ||
            !json_object_get_string_len(o))
            return FAIL(c, "feature_names[%u] is not a name", i);
        const char *name = json_object_get_string(o);
        if (strlen(name) != (size_t)json_object_get_string_len(o))
            return FAIL(c, "feature_names[%u] holds a NUL character", i);
        s->feature[i].name = strdup(name);
        if (!s->feature[i].name)
            return vq_fail(c->e, VQ_ENOMEM, "out of memory");
    }
    return 0;
}

/* slopes / intercepts: [model value, one per feature]. */
static int parse_rescale(const Ctx *c, struct json_object *md, const char *key,
                         VqSvr *s, bool slopes)
{
    struct json_object *a;
    bool have = json_object_object_get_ex(md, key, &a);
    if (!have)
        return s->norm == VQ_NORM_NONE ? 0 :
            FAIL(c, "norm_type linear_rescale needs %s", key);
    if (!json_object_is_type(a, json_type_array))
        return FAIL(c, "%s is not an array", key);
    size_t n = json_object_array_length(a);
    if (n != (size_t)s->n_features + 1)
        return FAIL(c, "%s has %zu values; %u features need %u (the score's "
                    "first, then one per feature)", key, n, s->n_features,
                    s->n_features + 1);
    for (unsigned i = 0; i < n; i++) {
        char what[48];
        snprintf(what, sizeof(what), "%s[%u]", key, i);
        double v = 0;
        int err = get_finite(c, json_object_array_get_idx(a, i), what, &v);
        if (err)
            return err;
        if (!i && slopes)
            s->slope = v;
        else if (!i)
            s->intercept = v;
        else if (slopes)
            s->feature[i - 1].slope = v;
        else
            s->feature[i - 1].intercept = v;
    }
    return 0;
}

static int parse_opts_dicts(const Ctx *c, struct json_object *md, VqSvr *s)
{
    struct json_object *a;
    if (!json_object_object_get_ex(md, "feature_opts_dicts", &a))
        return 0;
    if (!json_object_is_type(a, json_type_array))
        return FAIL(c, "feature_opts_dicts is not an array");
    size_t n = json_object_array_length(a);
    if (n != s->n_features)
        return FAIL(c, "feature_opts_dicts has %zu entries for %u features",
                    n, s->n_features);
    for (unsigned i = 0; i < n; i++) {
        struct json_object *d = json_object_array_get_idx(a, i);
        if (!json_object_is_type(d, json_type_object))
            return FAIL(c, "feature_opts_dicts[%u] is not an object", i);
        json_object_object_foreach(d, key, v) {
            const char *val;
            bool numeric = false;
            if (is_number(v)) {
                double dv = json_object_get_double(v);
                if (!isfinite(dv))
                    return FAIL(c, "feature_opts_dicts[%u].%s is not finite",
                                i, key);
                val = json_object_get_string(v);
                numeric = true;
            } else if (json_object_is_type(v, json_type_boolean)) {
                val = json_object_get_boolean(v) ? "true" : "false";
            } else if (json_object_is_type(v, json_type_string)) {
                val = json_object_get_string(v);
            } else {
                return FAIL(c, "feature_opts_dicts[%u].%s must be a number, "
                            "boolean or string", i, key);
            }
            int err = vq_model_feature_set_opt(&s->feature[i], key, val,
                                               numeric, false, c->e);
            if (err)
                return err == VQ_ENOMEM ? err :
                    FAIL(c, "feature_opts_dicts[%u]: %s", i, c->e->msg);
        }
    }
    return 0;
}

static int parse_clip(const Ctx *c, struct json_object *md, VqSvr *s)
{
    struct json_object *a;
    if (!json_object_object_get_ex(md, "score_clip", &a))
        return 0;
    if (!json_object_is_type(a, json_type_array) ||
        json_object_array_length(a) != 2)
        return FAIL(c, "score_clip is not [min, max]");
    int err = get_finite(c, json_object_array_get_idx(a, 0), "score_clip[0]",
                         &s->clip.min);
    if (!err)
        err = get_finite(c, json_object_array_get_idx(a, 1), "score_clip[1]",
                         &s->clip.max);
    if (err)
        return err;
    if (s->clip.min > s->clip.max)
        return FAIL(c, "score_clip [%g, %g] is empty", s->clip.min,
                    s->clip.max);
    s->clip.enabled = !(c->flags & VQ_MODEL_DISABLE_CLIP);
    return 0;
}

/* "true"/"false" as libvmaf writes them; a JSON boolean is taken too. */
static int get_flag(const Ctx *c, struct json_object *t, const char *key,
                    bool *out)
{
    struct json_object *o;
    if (!json_object_object_get_ex(t, key, &o))
        return 0;
    if (json_object_is_type(o, json_type_boolean)) {
        *out = json_object_get_boolean(o);
        return 0;
    }
    const char *v = json_object_is_type(o, json_type_string) ?
        json_object_get_string(o) : "";
    if (strcmp(v, "true") && strcmp(v, "false"))
        return FAIL(c, "score_transform.%s is not \"true\" or \"false\"", key);
    *out = !strcmp(v, "true");
    return 0;
}

static int parse_knots(const Ctx *c, struct json_object *a, VqSvr *s)
{
    if (!json_object_is_type(a, json_type_array))
        return FAIL(c, "score_transform.knots is not an array");
    size_t n = json_object_array_length(a);
    if (!n)
        return 0;
    if (n < 2 || n > VQ_MODEL_MAX_KNOTS)
        return FAIL(c, "score_transform.knots has %zu points (2..%d "
                    "expected)", n, VQ_MODEL_MAX_KNOTS);
    s->transform.knot_x = calloc(n, sizeof(double));
    s->transform.knot_y = calloc(n, sizeof(double));
    if (!s->transform.knot_x || !s->transform.knot_y)
        return vq_fail(c->e, VQ_ENOMEM, "out of memory");
    s->transform.n_knots = (unsigned)n;
    for (unsigned i = 0; i < n; i++) {
        struct json_object *k = json_object_array_get_idx(a, i);
        if (!json_object_is_type(k, json_type_array) ||
            json_object_array_length(k) != 2)
            return FAIL(c, "score_transform.knots[%u] is not [x, y]", i);
        int err = get_finite(c, json_object_array_get_idx(k, 0), "a knot",
                             &s->transform.knot_x[i]);
        if (!err)
            err = get_finite(c, json_object_array_get_idx(k, 1), "a knot",
                             &s->transform.knot_y[i]);
        if (err)
            return err;
        /* libvmaf gives up on the whole mapping otherwise. */
        if (i && !(s->transform.knot_x[i - 1] < s->transform.knot_x[i] &&
                   s->transform.knot_y[i - 1] <= s->transform.knot_y[i]))
            return FAIL(c, "score_transform.knots must have increasing x "
                        "and non-decreasing y (knot %u)", i);
    }
    return 0;
}

static int parse_transform(const Ctx *c, struct json_object *md, VqSvr *s)
{
    struct json_object *t, *o;
    if (!json_object_object_get_ex(md, "score_transform", &t))
        return 0;
    if (!json_object_is_type(t, json_type_object))
        return FAIL(c, "score_transform is not an object");
    if (json_object_object_get_ex(t, "enabled", &o)) {
        if (!json_object_is_type(o, json_type_boolean))
            return FAIL(c, "score_transform.enabled is not true or false");
        s->transform.enabled = json_object_get_boolean(o);
    }
    if (c->flags & VQ_MODEL_ENABLE_TRANSFORM)
        s->transform.enabled = true;
    static const char *const pk[3] = { "p0", "p1", "p2" };
    for (unsigned i = 0; i < 3; i++) {
        if (!json_object_object_get_ex(t, pk[i], &o) || !o)
            continue; /* absent or null */
        char what[32];
        snprintf(what, sizeof(what), "score_transform.%s", pk[i]);
        int err = get_finite(c, o, what, &s->transform.p[i]);
        if (err)
            return err;
        s->transform.has_p[i] = true;
    }
    if (json_object_object_get_ex(t, "knots", &o) && o) {
        int err = parse_knots(c, o, s);
        if (err)
            return err;
    }
    int err = get_flag(c, t, "out_lte_in", &s->transform.out_lte_in);
    return err ? err : get_flag(c, t, "out_gte_in", &s->transform.out_gte_in);
}

/* libvmaf corrects the speed_chroma feature from the adm3 one when the
 * model has a chroma_correction_parameter; it finds both by substring. */
static int parse_chroma(const Ctx *c, struct json_object *md, VqSvr *s)
{
    struct json_object *o;
    if (!json_object_object_get_ex(md, "chroma_correction_parameter", &o))
        return 0;
    int err = get_finite(c, o, "chroma_correction_parameter",
                         &s->chroma.param);
    if (err)
        return err;
    if (s->chroma.param == 0)
        return FAIL(c, "chroma_correction_parameter 0 (libvmaf writes no "
                    "score at all for it)");
    int guiding = -1, guided = -1;
    for (unsigned i = 0; i < s->n_features; i++) {
        const char *name = s->feature[i].name;
        bool g1 = strstr(name, "adm3") != NULL;
        bool g2 = strstr(name, "speed_chroma") != NULL;
        if ((g1 && guiding >= 0) || (g2 && guided >= 0) || (g1 && g2))
            return FAIL(c, "chroma correction: more than one feature named "
                        "*%s*", g1 ? "adm3" : "speed_chroma");
        if (g1)
            guiding = (int)i;
        if (g2)
            guided = (int)i;
    }
    if (guiding < 0 || guided < 0)
        return FAIL(c, "chroma_correction_parameter needs a feature named "
                    "*adm3* and one named *speed_chroma*");
    if (s->norm == VQ_NORM_LINEAR_RESCALE &&
        (s->feature[guiding].slope == 0 || s->feature[guided].slope == 0))
        return FAIL(c, "chroma correction: zero slope");
    s->chroma.enabled = true;
    s->chroma.guiding = (unsigned)guiding;
    s->chroma.guided = (unsigned)guided;
    return 0;
}

static int parse_model_dict(const Ctx *c, struct json_object *top, VqSvr *s)
{
    struct json_object *md;
    if (!json_object_is_type(top, json_type_object) ||
        !json_object_object_get_ex(top, "model_dict", &md))
        return FAIL(c, "no model_dict");
    if (!json_object_is_type(md, json_type_object))
        return FAIL(c, "model_dict is not an object");

    const char *type = get_string(md, "model_type");
    if (!type)
        return FAIL(c, "no model_type");
    if (!strcmp(type, "LIBSVMNUSVR"))
        s->type = VQ_SVR_PLAIN;
    else if (!strcmp(type, "BOOTSTRAP_LIBSVMNUSVR"))
        s->type = VQ_SVR_BOOTSTRAP;
    else if (!strcmp(type, "RESIDUEBOOTSTRAP_LIBSVMNUSVR"))
        s->type = VQ_SVR_RESIDUE_BOOTSTRAP;
    else
        return FAIL(c, "model_type '%s' is not supported", type);

    const char *norm = get_string(md, "norm_type");
    if (!norm)
        return FAIL(c, "no norm_type");
    if (!strcmp(norm, "linear_rescale"))
        s->norm = VQ_NORM_LINEAR_RESCALE;
    else if (!strcmp(norm, "none"))
        s->norm = VQ_NORM_NONE;
    else
        return FAIL(c, "norm_type '%s' is not supported", norm);

    int err = parse_feature_names(c, md, s);
    if (!err)
        err = parse_rescale(c, md, "slopes", s, true);
    if (!err)
        err = parse_rescale(c, md, "intercepts", s, false);
    if (!err && s->norm == VQ_NORM_LINEAR_RESCALE && s->slope == 0)
        err = FAIL(c, "slopes[0] is 0 (the score cannot be denormalized)");
    if (!err)
        err = parse_opts_dicts(c, md, s);
    if (!err)
        err = parse_clip(c, md, s);
    if (!err)
        err = parse_transform(c, md, s);
    if (!err)
        err = parse_chroma(c, md, s);
    if (err)
        return err;

    struct json_object *svm;
    if (!json_object_object_get_ex(md, "model", &svm) ||
        !json_object_is_type(svm, json_type_string))
        return FAIL(c, "no libsvm model text (\"model\")");
    err = vq_svm_parse(&s->svm, json_object_get_string(svm),
                       (size_t)json_object_get_string_len(svm),
                       s->n_features, c->e);
    return err == VQ_EMODEL ? FAIL(c, "%s", c->e->msg) : err;
}

static int parse_top(VqModel *m, struct json_object *top, VqErrBuf *e)
{
    Ctx c = { .e = e, .flags = m->flags };
    if (!json_object_is_type(top, json_type_object))
        return vq_fail(e, VQ_EMODEL, "the model is not a JSON object");
    struct json_object *o;
    if (json_object_object_get_ex(top, "model_dict", &o)) {
        m->svr = calloc(1, sizeof(*m->svr));
        if (!m->svr)
            return vq_fail(e, VQ_ENOMEM, "out of memory");
        m->n_svr = 1;
        return parse_model_dict(&c, top, &m->svr[0]);
    }
    unsigned n = 0;
    char key[16];
    for (;; n++) {
        snprintf(key, sizeof(key), "%u", n);
        if (!json_object_object_get_ex(top, key, &o) ||
            n > VQ_MODEL_MAX_MEMBERS)
            break;
    }
    if (!n)
        return vq_fail(e, VQ_EMODEL, "no model_dict, and not a bootstrap "
                       "collection (keys \"0\", \"1\", ...)");
    if (n < 2)
        return vq_fail(e, VQ_EMODEL, "bootstrap collection without members "
                       "(only \"0\")");
    if (n > VQ_MODEL_MAX_MEMBERS + 1)
        return vq_fail(e, VQ_EMODEL, "bootstrap collection with more than "
                       "%d members", VQ_MODEL_MAX_MEMBERS);
    m->svr = calloc(n, sizeof(*m->svr));
    if (!m->svr)
        return vq_fail(e, VQ_ENOMEM, "out of memory");
    m->n_svr = n;
    m->bootstrap = true;
    for (unsigned i = 0; i < n; i++) {
        snprintf(key, sizeof(key), "%u", i);
        json_object_object_get_ex(top, key, &o);
        snprintf(c.where, sizeof(c.where), "model \"%u\": ", i);
        int err = parse_model_dict(&c, o, &m->svr[i]);
        if (err)
            return err;
        if (i > 1 && m->svr[i].type != m->svr[1].type)
            return FAIL(&c, "members of one collection must have one "
                        "model_type");
    }
    if (m->svr[1].type == VQ_SVR_PLAIN)
        return vq_fail(e, VQ_EMODEL, "bootstrap collection whose members are "
                       "not BOOTSTRAP_LIBSVMNUSVR or "
                       "RESIDUEBOOTSTRAP_LIBSVMNUSVR");
    return 0;
}

int vq_model_parse_json(VqModel *m, const char *data, size_t len,
                        VqErrBuf *e)
{
    if (len > VQ_MODEL_MAX_FILE_SIZE || len > (size_t)INT32_MAX)
        return vq_fail(e, VQ_EMODEL, "model larger than %u bytes",
                       VQ_MODEL_MAX_FILE_SIZE);
    struct json_tokener *tok = json_tokener_new_ex(16);
    if (!tok)
        return vq_fail(e, VQ_ENOMEM, "out of memory");
    json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
    struct json_object *top = json_tokener_parse_ex(tok, data, (int)len);
    enum json_tokener_error jerr = json_tokener_get_error(tok);
    size_t end = json_tokener_get_parse_end(tok);
    json_tokener_free(tok);
    int err = 0;
    if (jerr == json_tokener_continue || (!top && jerr == json_tokener_success))
        err = vq_fail(e, VQ_EMODEL, "JSON ends early (truncated file?)");
    else if (jerr != json_tokener_success)
        err = vq_fail(e, VQ_EMODEL, "JSON error at byte %zu: %s", end,
                      json_tokener_error_desc(jerr));
    for (size_t i = end; !err && i < len; i++)
        if (!strchr(" \t\r\n", data[i]))
            err = vq_fail(e, VQ_EMODEL, "text after the JSON value at byte "
                          "%zu", i);
    if (!err)
        err = parse_top(m, top, e);
    json_object_put(top);
    return err;
}

void vq_model_free_svr(VqSvr *s)
{
    for (unsigned i = 0; s->feature && i < s->n_features; i++) {
        VqModelFeature *f = &s->feature[i];
        free(f->name);
        for (unsigned k = 0; k < f->n_opts; k++) {
            free(f->opt_key[k]);
            free(f->opt_val[k]);
        }
    }
    free(s->feature);
    free(s->transform.knot_x);
    free(s->transform.knot_y);
    vq_svm_free(&s->svm);
    memset(s, 0, sizeof(*s));
}
