/*
 * libsvm's text model format, as embedded in libvmaf's JSON models:
 *
 *   svm_type nu_svr
 *   kernel_type rbf
 *   gamma 0.04
 *   nr_class 2
 *   total_sv 211
 *   rho -1.33133
 *   SV
 *   <coef> <index>:<value> <index>:<value> ...     (total_sv lines)
 *
 * Only regression with an RBF kernel is accepted; every number must be a
 * finite decimal and every index within 1..dim, increasing along a line.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model_priv.h"

#define VQ_SVM_MAX_SV 1000000u

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

int vq_parse_finite(const char *s, const char **end, double *out)
{
    const char *p = s;
    if (*p == '+' || *p == '-')
        p++;
    const char *mant = p;
    while (is_digit(*p))
        p++;
    size_t n_int = (size_t)(p - mant);
    size_t n_frac = 0;
    if (*p == '.') {
        p++;
        while (is_digit(p[n_frac]))
            n_frac++;
        p += n_frac;
    }
    if (!n_int && !n_frac)
        return -1;
    if (*p == 'e' || *p == 'E') {
        const char *q = p + 1;
        if (*q == '+' || *q == '-')
            q++;
        if (is_digit(*q)) {
            while (is_digit(*q))
                q++;
            p = q;
        }
    }
    /* strtod reads the same span: the syntax above is a subset of its own. */
    char buf[128];
    size_t len = (size_t)(p - s);
    if (len >= sizeof(buf))
        return -1;
    memcpy(buf, s, len);
    buf[len] = '\0';
    char *stop = NULL;
    double v = strtod(buf, &stop);
    if (stop != buf + len || !isfinite(v))
        return -1;
    *out = v;
    *end = p;
    return 0;
}

/* One line of the text without its terminator (and without a trailing \r). */
typedef struct Line {
    const char *p;
    size_t len;
    unsigned no;
} Line;

typedef struct Cursor {
    const char *p, *end;
    unsigned no;
} Cursor;

static bool next_line(Cursor *c, Line *l)
{
    if (c->p >= c->end)
        return false;
    const char *nl = memchr(c->p, '\n', (size_t)(c->end - c->p));
    const char *stop = nl ? nl : c->end;
    l->p = c->p;
    l->len = (size_t)(stop - c->p);
    if (l->len && l->p[l->len - 1] == '\r')
        l->len--;
    l->no = ++c->no;
    c->p = nl ? nl + 1 : c->end;
    return true;
}

static bool is_blank(char c)
{
    return c == ' ' || c == '\t';
}

/* Splits off the next blank-separated word of a line into buf. */
static bool next_word(Line *l, char *buf, size_t size)
{
    while (l->len && is_blank(*l->p)) {
        l->p++;
        l->len--;
    }
    size_t n = 0;
    while (n < l->len && !is_blank(l->p[n]))
        n++;
    if (!n || n >= size)
        return false;
    memcpy(buf, l->p, n);
    buf[n] = '\0';
    l->p += n;
    l->len -= n;
    return true;
}

static int word_number(Line *l, const char *key, double *out, VqErrBuf *e)
{
    char w[128];
    const char *end;
    if (!next_word(l, w, sizeof(w)) || vq_parse_finite(w, &end, out) || *end)
        return vq_fail(e, VQ_EMODEL, "libsvm model line %u: '%s' needs a "
                       "finite number", l->no, key);
    return 0;
}

static bool rest_is_blank(const Line *l)
{
    for (size_t i = 0; i < l->len; i++)
        if (!is_blank(l->p[i]))
            return false;
    return true;
}

typedef struct Header {
    bool has_gamma, has_rho, has_nr_class, has_total;
    double gamma, rho, nr_class, total;
} Header;

static int parse_header(Cursor *c, Header *h, VqErrBuf *e)
{
    Line l;
    char key[64], val[64];
    for (;;) {
        if (!next_line(c, &l))
            return vq_fail(e, VQ_EMODEL, "libsvm model: no 'SV' line "
                           "(truncated model?)");
        if (rest_is_blank(&l))
            continue;
        if (!next_word(&l, key, sizeof(key)))
            return vq_fail(e, VQ_EMODEL, "libsvm model line %u: word too "
                           "long", l.no);
        if (!strcmp(key, "SV")) {
            if (!rest_is_blank(&l))
                return vq_fail(e, VQ_EMODEL, "libsvm model line %u: text "
                               "after 'SV'", l.no);
            return 0;
        }
        int err = 0;
        if (!strcmp(key, "svm_type")) {
            if (!next_word(&l, val, sizeof(val)))
                return vq_fail(e, VQ_EMODEL, "libsvm model line %u: "
                               "svm_type without a value", l.no);
            if (strcmp(val, "nu_svr") && strcmp(val, "epsilon_svr"))
                return vq_fail(e, VQ_EMODEL, "libsvm model: svm_type '%s' is "
                               "not supported (a VMAF model is nu_svr)", val);
        } else if (!strcmp(key, "kernel_type")) {
            if (!next_word(&l, val, sizeof(val)))
                return vq_fail(e, VQ_EMODEL, "libsvm model line %u: "
                               "kernel_type without a value", l.no);
            if (strcmp(val, "rbf"))
                return vq_fail(e, VQ_EMODEL, "libsvm model: kernel_type '%s' "
                               "is not supported (only rbf)", val);
        } else if (!strcmp(key, "gamma")) {
            err = word_number(&l, key, &h->gamma, e);
            h->has_gamma = true;
        } else if (!strcmp(key, "rho")) {
            err = word_number(&l, key, &h->rho, e);
            h->has_rho = true;
        } else if (!strcmp(key, "nr_class")) {
            err = word_number(&l, key, &h->nr_class, e);
            h->has_nr_class = true;
        } else if (!strcmp(key, "total_sv")) {
            err = word_number(&l, key, &h->total, e);
            h->has_total = true;
        } else if (!strcmp(key, "degree") || !strcmp(key, "coef0") ||
                   !strcmp(key, "probA") || !strcmp(key, "probB") ||
                   !strcmp(key, "label") || !strcmp(key, "nr_sv")) {
            continue; /* not used by an RBF regression */
        } else {
            return vq_fail(e, VQ_EMODEL, "libsvm model line %u: unknown "
                           "key '%s'", l.no, key);
        }
        if (err)
            return err;
        if (!rest_is_blank(&l))
            return vq_fail(e, VQ_EMODEL, "libsvm model line %u: more than "
                           "one value for '%s'", l.no, key);
    }
}

static int parse_sv_line(Line *l, VqSvm *svm, unsigned row, VqErrBuf *e)
{
    char w[160];
    if (!next_word(l, w, sizeof(w)))
        return vq_fail(e, VQ_EMODEL, "libsvm model line %u: support vector "
                       "%u has no coefficient", l->no, row + 1);
    const char *end;
    if (vq_parse_finite(w, &end, &svm->coef[row]) || *end)
        return vq_fail(e, VQ_EMODEL, "libsvm model line %u: bad coefficient "
                       "'%s'", l->no, w);
    double *sv = svm->sv + (size_t)row * svm->dim;
    unsigned last = 0;
    while (next_word(l, w, sizeof(w))) {
        char *colon = strchr(w, ':');
        unsigned long idx = 0;
        const char *p = w;
        for (; is_digit(*p); p++)
            if (idx <= svm->dim) /* saturates: anything above is rejected */
                idx = idx * 10 + (unsigned long)(*p - '0');
        if (p == w || p != colon)
            return vq_fail(e, VQ_EMODEL, "libsvm model line %u: '%s' is not "
                           "<index>:<value>", l->no, w);
        if (idx < 1 || idx > svm->dim)
            return vq_fail(e, VQ_EMODEL, "libsvm model line %u: feature index "
                           "%s out of range (the model has %u features)",
                           l->no, w, svm->dim);
        if (idx <= last)
            return vq_fail(e, VQ_EMODEL, "libsvm model line %u: feature "
                           "indices must increase", l->no);
        last = (unsigned)idx;
        if (vq_parse_finite(colon + 1, &end, &sv[idx - 1]) || *end)
            return vq_fail(e, VQ_EMODEL, "libsvm model line %u: bad value in "
                           "'%s'", l->no, w);
    }
    if (!rest_is_blank(l))
        return vq_fail(e, VQ_EMODEL, "libsvm model line %u: word too long",
                       l->no);
    return 0;
}

int vq_svm_parse(VqSvm *svm, const char *text, size_t len, unsigned dim,
                 VqErrBuf *e)
{
    memset(svm, 0, sizeof(*svm));
    if (memchr(text, '\0', len))
        return vq_fail(e, VQ_EMODEL, "libsvm model: NUL character in text");
    Cursor c = { text, text + len, 0 };
    Header h = { 0 };
    int err = parse_header(&c, &h, e);
    if (err)
        return err;
    if (!h.has_gamma || !h.has_rho || !h.has_total || !h.has_nr_class)
        return vq_fail(e, VQ_EMODEL, "libsvm model: missing %s",
                       !h.has_gamma ? "gamma" : !h.has_rho ? "rho" :
                       !h.has_total ? "total_sv" : "nr_class");
    if (h.nr_class != 2)
        return vq_fail(e, VQ_EMODEL, "libsvm model: nr_class %g (a "
                       "regression model has 2)", h.nr_class);
    if (h.gamma < 0)
        return vq_fail(e, VQ_EMODEL, "libsvm model: gamma %g < 0", h.gamma);
    if (h.total < 1 || h.total > VQ_SVM_MAX_SV || h.total != floor(h.total))
        return vq_fail(e, VQ_EMODEL, "libsvm model: total_sv %g is not a "
                       "count in 1..%u", h.total, VQ_SVM_MAX_SV);
    if (dim < 1)
        return vq_fail(e, VQ_EMODEL, "libsvm model for no feature");

    /* Count the lines left before allocating, so that a large total_sv in a
     * short text fails cleanly. */
    unsigned lines = 0;
    for (const char *p = c.p; p < c.end && lines <= h.total; lines++) {
        const char *nl = memchr(p, '\n', (size_t)(c.end - p));
        p = nl ? nl + 1 : c.end;
    }
    if (lines < h.total)
        return vq_fail(e, VQ_EMODEL, "libsvm model: total_sv is %g but only "
                       "%u support vector lines follow (truncated model?)",
                       h.total, lines);

    svm->gamma = h.gamma;
    svm->rho = h.rho;
    svm->dim = dim;
    svm->n_sv = (unsigned)h.total;
    svm->coef = calloc(svm->n_sv, sizeof(*svm->coef));
    svm->sv = calloc((size_t)svm->n_sv * dim, sizeof(*svm->sv));
    if (!svm->coef || !svm->sv) {
        vq_svm_free(svm);
        return vq_fail(e, VQ_ENOMEM, "out of memory");
    }
    Line l;
    for (unsigned i = 0; i < svm->n_sv; i++) {
        next_line(&c, &l);
        err = parse_sv_line(&l, svm, i, e);
        if (err) {
            vq_svm_free(svm);
            return err;
        }
    }
    while (next_line(&c, &l)) {
        if (!rest_is_blank(&l)) {
            const unsigned n_sv = svm->n_sv;
            vq_svm_free(svm);
            return vq_fail(e, VQ_EMODEL, "libsvm model line %u: more support "
                           "vectors than total_sv %u", l.no, n_sv);
        }
    }
    return 0;
}

void vq_svm_free(VqSvm *svm)
{
    free(svm->coef);
    free(svm->sv);
    memset(svm, 0, sizeof(*svm));
}

double vq_svm_predict(const VqSvm *svm, const double *x)
{
    const unsigned dim = svm->dim;
    const double neg_gamma = -svm->gamma;
    double sum = 0;
    for (unsigned i = 0; i < svm->n_sv; i++) {
        const double *sv = svm->sv + (size_t)i * dim;
        double dist = 0;
        for (unsigned j = 0; j < dim; j++) {
            double d = x[j] - sv[j];
            dist += d * d;
        }
        sum += svm->coef[i] * exp(neg_gamma * dist);
    }
    return sum - svm->rho;
}
