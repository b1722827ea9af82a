#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alerts.h"
#include "base/grow.h"

/* The token at p, for messages: up to the next blank, at most 24 bytes. */
static const char *token(const char *p, char *buf, size_t size)
{
    size_t n = 0;
    while (p[n] && !isspace((unsigned char)p[n]) && n + 1 < size && n < 24)
        n++;
    if (!n)
        return "end of rule";
    memcpy(buf, p, n);
    buf[n] = 0;
    return buf;
}

static const char *blank(const char *p)
{
    while (isspace((unsigned char)*p))
        p++;
    return p;
}

static bool name_char(char c)
{
    return isalnum((unsigned char)c) || c == '_' || c == '-';
}

/* A finite decimal number at *p; false when there is none. */
static bool number(const char **p, double *out)
{
    char *end;
    errno = 0;
    if (!**p || isspace((unsigned char)**p))
        return false;
    double v = strtod(*p, &end);
    if (end == *p || errno || !isfinite(v))
        return false;
    *p = end;
    *out = v;
    return true;
}

/* One rule, text [s, e); 0 or VQ_EINVAL with the message in err. */
static int parse_rule(VqAlertRule *r, const char *s, const char *e,
                      VqErrBuf *err)
{
    char seg[512], tok[32];
    size_t len = (size_t)(e - s);
    if (len >= sizeof(seg))
        return vq_fail(err, VQ_EINVAL, "alert rule too long (%zu bytes)", len);
    memcpy(seg, s, len);
    seg[len] = 0;
    const char *p = blank(seg);
    if (!*p)
        return vq_fail(err, VQ_EINVAL, "alert: empty rule in '%.*s'",
                       (int)len, s);
    *r = (VqAlertRule){ .k = 1, .src = -1 };

    const char *q = p;
    while (name_char(*q))
        q++;
    if (*q == '=' && q > p) {
        if ((size_t)(q - p) >= sizeof(r->name))
            return vq_fail(err, VQ_EINVAL, "alert '%s': name too long", seg);
        memcpy(r->name, p, (size_t)(q - p));
        p = blank(q + 1);
    }
    const char *subj = p;
    while (name_char(*p) || *p == '.')
        p++;
    size_t n_subj = (size_t)(p - subj);
    if (!n_subj)
        return vq_fail(err, VQ_EINVAL, "alert '%s': expected OUTPUT or "
                       "OUTPUT.STAT at '%s'", seg, token(subj, tok, sizeof(tok)));
    if (n_subj >= sizeof(r->output))
        return vq_fail(err, VQ_EINVAL, "alert '%s': '%.*s' is too long", seg,
                       (int)n_subj, subj);
    memcpy(r->output, subj, n_subj);
    r->output[n_subj] = 0;
    char *dot = strchr(r->output, '.');
    if (dot) {
        *dot = 0;
        r->window = true;
        if (!r->output[0] || vq_stat_parse(dot + 1, &r->stat))
            return vq_fail(err, VQ_EINVAL, "alert '%s': '%s' is not a "
                           "statistic (mean, min, max, harmonic_mean, median, "
                           "percP, belowT)", seg, dot + 1);
    }
    if (!r->name[0])
        snprintf(r->name, sizeof(r->name), "%.*s", (int)n_subj, subj);

    p = blank(p);
    if (*p != '<' && *p != '>')
        return vq_fail(err, VQ_EINVAL, "alert '%s': expected '<' or '>' at "
                       "'%s'", seg, token(p, tok, sizeof(tok)));
    r->below = *p == '<';
    p = blank(p + 1);
    if (!number(&p, &r->level))
        return vq_fail(err, VQ_EINVAL, "alert '%s': '%s' is not a number",
                       seg, token(p, tok, sizeof(tok)));
    r->clear = r->level;
    bool have_for = false, have_clear = false;
    for (p = blank(p); *p; p = blank(p)) {
        const char *w = p;
        if (!strncmp(p, "for", 3) && !name_char(p[3]) && !have_for) {
            p = blank(p + 3);
            char *end;
            errno = 0;
            unsigned long k = isdigit((unsigned char)*p) ? strtoul(p, &end, 10) : 0;
            if (!k || errno || k > 1000000 || name_char(*end) || *end == '.')
                return vq_fail(err, VQ_EINVAL, "alert '%s': 'for' takes a "
                               "count from 1 to 1000000, not '%s'", seg,
                               token(p, tok, sizeof(tok)));
            r->k = (unsigned)k;
            p = end;
            have_for = true;
        } else if (!strncmp(p, "clear", 5) && !name_char(p[5]) && !have_clear) {
            p = blank(p + 5);
            char want = r->below ? '>' : '<';
            if (*p != want)
                return vq_fail(err, VQ_EINVAL, "alert '%s': expected '%c' "
                               "after 'clear' at '%s'", seg, want,
                               token(p, tok, sizeof(tok)));
            p = blank(p + 1);
            if (!number(&p, &r->clear))
                return vq_fail(err, VQ_EINVAL, "alert '%s': '%s' is not a "
                               "number", seg, token(p, tok, sizeof(tok)));
            have_clear = true;
        } else {
            return vq_fail(err, VQ_EINVAL, "alert '%s': unexpected '%s' "
                           "(after the level: 'for K', 'clear %cC')", seg,
                           token(w, tok, sizeof(tok)), r->below ? '>' : '<');
        }
        if (*p && !isspace((unsigned char)*p))
            return vq_fail(err, VQ_EINVAL, "alert '%s': unexpected '%s'", seg,
                           token(p, tok, sizeof(tok)));
    }
    if (r->below ? r->clear < r->level : r->clear > r->level)
        return vq_fail(err, VQ_EINVAL, "alert '%s': the clear level %g is "
                       "%s the level %g", seg, r->clear,
                       r->below ? "below" : "above", r->level);
    snprintf(r->text, sizeof(r->text), "%s%s%s%c%.17g for %u clear%c%.17g",
             r->output, r->window ? "." : "", r->window ? r->stat.name : "",
             r->below ? '<' : '>', r->level, r->k, r->below ? '>' : '<',
             r->clear);
    return 0;
}

int vq_alerts_parse(VqAlerts *a, const char *text, VqErrBuf *err)
{
    if (!text || !*blank(text))
        return vq_fail(err, VQ_EINVAL, "alert: no rule given");
    unsigned n0 = a->n;
    const char *s = text;
    for (;;) {
        const char *e = s + strcspn(s, ";|");
        VqAlertRule *rules = vq_grow(a->rules, a->n, &a->cap,
                                     sizeof(*rules), 4);
        if (!rules) {
            a->n = n0;
            return vq_fail(err, VQ_ENOMEM, "out of memory");
        }
        a->rules = rules;
        VqAlertRule *r = &a->rules[a->n];
        int ret = parse_rule(r, s, e, err);
        for (unsigned i = 0; !ret && i < a->n; i++)
            if (!strcmp(a->rules[i].name, r->name))
                ret = vq_fail(err, VQ_EINVAL, "alert '%.*s': a rule named "
                              "'%s' exists: give this one a name (NAME=rule)",
                              (int)(e - s), s, r->name);
        if (ret) {
            a->n = n0;
            return ret;
        }
        a->n++;
        if (!*e)
            return 0;
        s = e + 1;
    }
}

int vq_alerts_feed(VqAlerts *a, unsigned ri, double v, unsigned frame,
                   int window, double pts)
{
    VqAlertRule *r = &a->rules[ri];
    if (isnan(v))
        return 0;
    bool change;
    if (r->active) {
        change = r->below ? v > r->clear : v < r->clear;
    } else {
        bool bad = r->below ? v < r->level : v > r->level;
        r->run = bad ? r->run + 1 : 0;
        change = r->run >= r->k;
    }
    if (!change)
        return 0;
    if (a->n_ev == a->cap_ev) {
        if (a->head) {
            /* the events handed out leave the queue */
            memmove(a->ev, a->ev + a->head, (a->n_ev - a->head) * sizeof(*a->ev));
            a->n_ev -= a->head;
            a->head = 0;
        }
        VqAlertEv *ev = vq_grow(a->ev, a->n_ev, &a->cap_ev, sizeof(*ev), 16);
        if (!ev)
            return VQ_ENOMEM;
        a->ev = ev;
    }
    r->active = !r->active;
    r->run = 0;
    if (r->active)
        r->n_raised++;
    a->ev[a->n_ev++] = (VqAlertEv){ ri, r->active, frame, window, pts, v };
    return 1;
}

const VqAlertEv *vq_alerts_next(VqAlerts *a)
{
    return a->head < a->n_ev ? &a->ev[a->head++] : NULL;
}

void vq_alerts_free(VqAlerts *a)
{
    free(a->rules);
    free(a->ev);
    memset(a, 0, sizeof(*a));
}
