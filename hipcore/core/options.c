#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/c_locale.h"
#include "options.h"

int vq_spec_parse(VqSpec *spec, const char *text, VqErrBuf *e)
{
    memset(spec, 0, sizeof(*spec));
    if (!text || !*text)
        return vq_fail(e, VQ_EINVAL, "empty specification");
    spec->buf = strdup(text);
    if (!spec->buf)
        return vq_fail(e, VQ_ENOMEM, "out of memory");

    char *save = NULL;
    for (char *tok = strtok_r(spec->buf, ":", &save); tok;
         tok = strtok_r(NULL, ":", &save)) {
        if (spec->n == VQ_SPEC_MAX_ENTRIES) {
            int r = vq_fail(e, VQ_EINVAL, "too many options in '%s'", text);
            vq_spec_free(spec);
            return r;
        }
        char *eq = strchr(tok, '=');
        if (!eq) {
            if (spec->n) {
                int r = vq_fail(e, VQ_EINVAL,
                                "'%s' in '%s' is not of the form key=value",
                                tok, text);
                vq_spec_free(spec);
                return r;
            }
            spec->key[0] = "name";
            spec->val[0] = tok;
        } else {
            *eq = '\0';
            spec->key[spec->n] = tok;
            spec->val[spec->n] = eq + 1;
            if (!*tok) {
                int r = vq_fail(e, VQ_EINVAL, "empty key in '%s'", text);
                vq_spec_free(spec);
                return r;
            }
        }
        for (unsigned i = 0; i < spec->n; i++) {
            if (!strcmp(spec->key[i], spec->key[spec->n])) {
                int r = vq_fail(e, VQ_EINVAL, "'%s' given twice in '%s'",
                                spec->key[i], text);
                vq_spec_free(spec);
                return r;
            }
        }
        spec->n++;
    }
    if (!spec->n) {
        vq_spec_free(spec);
        return vq_fail(e, VQ_EINVAL, "empty specification");
    }
    return 0;
}

void vq_spec_free(VqSpec *spec)
{
    free(spec->buf);
    memset(spec, 0, sizeof(*spec));
}

const char *vq_spec_get(const VqSpec *spec, const char *key)
{
    for (unsigned i = 0; i < spec->n; i++)
        if (!strcmp(spec->key[i], key))
            return spec->val[i];
    return NULL;
}

void vq_opt_set_defaults(const VqOption *opts, void *obj)
{
    for (const VqOption *o = opts; o && o->name; o++) {
        char *p = (char *)obj + o->offset;
        switch (o->type) {
        case VQ_OPT_BOOL: *(bool *)p = o->def.b; break;
        case VQ_OPT_INT: *(int *)p = o->def.i; break;
        case VQ_OPT_DOUBLE: *(double *)p = o->def.d; break;
        case VQ_OPT_ENUM: *(int *)p = o->def.i; break;
        case VQ_OPT_STRING:
            memset(p, 0, VQ_OPT_STRING_SIZE);
            if (o->def.s)
                snprintf(p, VQ_OPT_STRING_SIZE, "%s", o->def.s);
            break;
        }
    }
}

size_t vq_opt_size(const VqOption *o)
{
    switch (o->type) {
    case VQ_OPT_BOOL: return sizeof(bool);
    case VQ_OPT_INT: return sizeof(int);
    case VQ_OPT_DOUBLE: return sizeof(double);
    case VQ_OPT_ENUM: return sizeof(int);
    case VQ_OPT_STRING: return VQ_OPT_STRING_SIZE;
    }
    return 0;
}

static void list_choices(const char *const *choices, char *buf, size_t size)
{
    size_t len = 0;
    buf[0] = '\0';
    for (unsigned i = 0; choices[i] && len < size; i++) {
        int n = snprintf(buf + len, size - len, "%s%s", i ? ", " : "",
                         choices[i]);
        if (n < 0)
            break;
        len += (size_t)n;
    }
}

static int set_string(const VqOption *o, char *p, const char *owner,
                      const char *val, VqErrBuf *e)
{
    if (o->choices) {
        unsigned i = 0;
        while (o->choices[i] && strcmp(o->choices[i], val))
            i++;
        if (!o->choices[i]) {
            char list[256];
            list_choices(o->choices, list, sizeof(list));
            return vq_fail(e, VQ_EINVAL,
                           "%s option %s: '%s' is not one of: %s", owner,
                           o->name, val, list);
        }
    }
    size_t len = strlen(val);
    if (!len || len >= VQ_OPT_STRING_SIZE)
        return vq_fail(e, VQ_EINVAL,
                       "%s option %s: the value must have 1 to %d characters",
                       owner, o->name, VQ_OPT_STRING_SIZE - 1);
    memset(p, 0, VQ_OPT_STRING_SIZE);
    memcpy(p, val, len);
    return 0;
}

const VqOption *vq_opt_find(const VqOption *opts, const char *key)
{
    for (const VqOption *o = opts; o && o->name; o++)
        if (!strcmp(o->name, key) || (o->alias && !strcmp(o->alias, key)))
            return o;
    return NULL;
}

void vq_opt_list(const VqOption *opts, char *buf, size_t size)
{
    size_t len = 0;
    if (!size)
        return;
    buf[0] = '\0';
    for (const VqOption *o = opts; o && o->name; o++) {
        int n = snprintf(buf + len, size - len, "%s%s", len ? ", " : "", o->name);
        if (n < 0 || (size_t)n >= size - len)
            return;
        len += (size_t)n;
    }
    if (!len)
        snprintf(buf, size, "(none)");
}

static int parse_bool(const char *v, bool *out)
{
    if (!strcasecmp(v, "true") || !strcmp(v, "1") || !strcasecmp(v, "yes")) {
        *out = true;
        return 0;
    }
    if (!strcasecmp(v, "false") || !strcmp(v, "0") || !strcasecmp(v, "no")) {
        *out = false;
        return 0;
    }
    return -1;
}

int vq_opt_set(const VqOption *opts, void *obj, const char *owner,
               const char *key, const char *val, VqErrBuf *e)
{
    const VqOption *o = vq_opt_find(opts, key);
    if (!o) {
        char list[512];
        vq_opt_list(opts, list, sizeof(list));
        return vq_fail(e, VQ_ENOTFOUND,
                       "%s has no option '%s'; valid options: %s",
                       owner, key, list);
    }
    char *p = (char *)obj + o->offset;
    char *end = NULL;
    switch (o->type) {
    case VQ_OPT_BOOL:
        if (parse_bool(val, (bool *)p))
            return vq_fail(e, VQ_EINVAL,
                           "%s option %s: '%s' is not a boolean (true/false)",
                           owner, o->name, val);
        return 0;
    case VQ_OPT_INT: {
        errno = 0;
        long v = strtol(val, &end, 0);
        if (errno || end == val || *end || v < o->min || v > o->max)
            return vq_fail(e, VQ_EINVAL,
                           "%s option %s: '%s' is not an integer in [%g, %g]",
                           owner, o->name, val, o->min, o->max);
        *(int *)p = (int)v;
        return 0;
    }
    case VQ_OPT_DOUBLE: {
        CLocale loc;
        c_locale_enter(&loc);
        errno = 0;
        double v = strtod(val, &end);
        c_locale_leave(&loc);
        if (errno || end == val || *end || !isfinite(v) || v < o->min ||
            v > o->max)
            return vq_fail(e, VQ_EINVAL,
                           "%s option %s: '%s' is not a number in [%g, %g]",
                           owner, o->name, val, o->min, o->max);
        *(double *)p = v;
        return 0;
    }
    case VQ_OPT_ENUM: {
        char list[256];
        size_t len = 0;
        list[0] = '\0';
        for (int i = 0; o->choices && o->choices[i]; i++) {
            if (!strcmp(o->choices[i], val)) {
                *(int *)p = i;
                return 0;
            }
            int n = snprintf(list + len, sizeof(list) - len, "%s%s",
                             i ? ", " : "", o->choices[i]);
            if (n > 0 && (size_t)n < sizeof(list) - len)
                len += (size_t)n;
        }
        return vq_fail(e, VQ_EINVAL, "%s option %s: '%s' is not one of %s",
                       owner, o->name, val, list);
    }
    case VQ_OPT_STRING:
        return set_string(o, p, owner, val, e);
    }
    return vq_fail(e, VQ_EINVAL, "%s option %s: unknown type", owner, o->name);
}

int vq_opt_is_default(const VqOption *o, const void *obj)
{
    const char *p = (const char *)obj + o->offset;
    switch (o->type) {
    case VQ_OPT_BOOL: return *(const bool *)p == o->def.b;
    case VQ_OPT_INT: return *(const int *)p == o->def.i;
    case VQ_OPT_DOUBLE: return *(const double *)p == o->def.d;
    case VQ_OPT_ENUM: return *(const int *)p == o->def.i;
    case VQ_OPT_STRING: return !strcmp(p, o->def.s ? o->def.s : "");
    }
    return 1;
}

void vq_opt_format(const VqOption *o, const void *obj, char *buf, size_t size)
{
    const char *p = (const char *)obj + o->offset;
    switch (o->type) {
    case VQ_OPT_BOOL: snprintf(buf, size, "%s", *(const bool *)p ? "true" : "false"); return;
    case VQ_OPT_INT: snprintf(buf, size, "%d", *(const int *)p); return;
    case VQ_OPT_DOUBLE: snprintf(buf, size, "%.17g", *(const double *)p); return;
    case VQ_OPT_ENUM: snprintf(buf, size, "%s", o->choices[*(const int *)p]); return;
    case VQ_OPT_STRING: snprintf(buf, size, "%s", p); return;
    }
    snprintf(buf, size, "?");
}

static int cmp_opt_name(const void *a, const void *b)
{
    const VqOption *const *x = a, *const *y = b;
    return strcmp((*x)->name, (*y)->name);
}

char *vq_opt_output_name(const char *base, const VqOption *opts,
                         const void *obj)
{
    const VqOption *changed[64];
    unsigned n = 0;
    for (const VqOption *o = opts; o && o->name && n < 64; o++)
        if ((o->flags & VQ_OPT_FEATURE_PARAM) && !vq_opt_is_default(o, obj))
            changed[n++] = o;
    qsort(changed, n, sizeof(changed[0]), cmp_opt_name);

    char buf[512];
    CLocale loc;
    c_locale_enter(&loc);
    size_t len = (size_t)snprintf(buf, sizeof(buf), "%s", base);
    for (unsigned i = 0; i < n && len < sizeof(buf); i++) {
        const VqOption *o = changed[i];
        const char *key = o->alias ? o->alias : o->name;
        const char *p = (const char *)obj + o->offset;
        int w = 0;
        switch (o->type) {
        case VQ_OPT_BOOL:
            w = snprintf(buf + len, sizeof(buf) - len, "_%s", key);
            break;
        case VQ_OPT_INT:
            w = snprintf(buf + len, sizeof(buf) - len, "_%s_%d", key,
                         *(const int *)p);
            break;
        case VQ_OPT_DOUBLE:
            w = snprintf(buf + len, sizeof(buf) - len, "_%s_%g", key,
                         *(const double *)p);
            break;
        case VQ_OPT_ENUM:
            w = snprintf(buf + len, sizeof(buf) - len, "_%s_%s", key,
                         o->choices[*(const int *)p]);
            break;
        case VQ_OPT_STRING:
            w = snprintf(buf + len, sizeof(buf) - len, "_%s_%s", key, p);
            break;
        }
        if (w < 0)
            break;
        len += (size_t)w;
    }
    c_locale_leave(&loc);
    return strdup(buf);
}
