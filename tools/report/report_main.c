/*
 * vqhip_report: libvmaf-layout logs in, one self-contained HTML page out.
 * Exit status: 0 written, 1 bad input (the page is still written when only a
 * BD-rate could not be computed), 2 usage error.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "report_bdrate.h"
#include "report_image.h"
#include "report_media.h"
#include "report_options.h"

#define USAGE_ERR(...) (fprintf(stderr, "vqhip_report: " __VA_ARGS__), \
                        REPORT_EXIT_USAGE)
#define INPUT_ERR(...) (fprintf(stderr, "vqhip_report: " __VA_ARGS__), \
                        REPORT_EXIT_INPUT)

/* The log named by s[0..len): its path as given, else its label. */
static long find_input(const Report *r, const char *s, size_t len)
{
    for (int by_label = 0; by_label < 2; by_label++)
        for (size_t i = 0; i < r->n_in; i++) {
            const char *n = by_label ? r->in[i].label : r->in[i].log.path;
            if (n && strlen(n) == len && !strncmp(n, s, len))
                return (long)i;
        }
    return -1;
}

/* "LOG=VALUE" with LOG a log's path or label (any '=' may split it); else
 * the k-th such argument without LOG= goes to the k-th log. */
static long arg_target(const Report *r, const char *arg, const char **value,
                       size_t *positional)
{
    for (const char *eq = strchr(arg, '='); eq; eq = strchr(eq + 1, '=')) {
        long i = find_input(r, arg, (size_t)(eq - arg));
        if (i >= 0) {
            *value = eq + 1;
            return i;
        }
    }
    *value = arg;
    return *positional < r->n_in ? (long)(*positional)++ : -1;
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

static int set_labels(Report *r, const ReportOptions *o)
{
    /* a log's file name, or its path where two logs share the name */
    for (size_t i = 0; i < r->n_in; i++) {
        const char *base = base_name(r->in[i].log.path);
        r->in[i].label = base;
        for (size_t j = 0; j < r->n_in; j++)
            if (j != i && !strcmp(base, base_name(r->in[j].log.path)))
                r->in[i].label = r->in[i].log.path;
    }
    for (size_t k = 0; k < o->labels.n; k++) {
        const char *arg = o->labels.v[k], *eq = strchr(arg, '=');
        long i = -1;
        for (; eq && i < 0; eq = i < 0 ? strchr(eq + 1, '=') : eq)
            for (size_t j = 0; j < r->n_in && i < 0; j++)
                if (strlen(r->in[j].log.path) == (size_t)(eq - arg) &&
                    !strncmp(r->in[j].log.path, arg, (size_t)(eq - arg)))
                    i = (long)j;
        if (i < 0 || !eq[1])
            return USAGE_ERR("--label %s: expected LOG=NAME with LOG a log's "
                             "path as given\n", arg);
        r->in[i].label = eq + 1;
    }
    for (size_t i = 0; i < r->n_in; i++)
        for (size_t j = i + 1; j < r->n_in; j++)
            if (!strcmp(r->in[i].label, r->in[j].label))
                return USAGE_ERR("two logs are named '%s': tell them apart "
                                 "with --label\n", r->in[i].label);
    return 0;
}

static int per_log_args(Report *r, const ReportOptions *o)
{
    size_t pos = 0;
    for (size_t k = 0; k < o->dis.n; k++) {
        const char *v;
        long i = arg_target(r, o->dis.v[k], &v, &pos);
        if (i < 0)
            return USAGE_ERR("--dis %s: more --dis than logs\n", o->dis.v[k]);
        r->in[i].dis_path = v;
    }
    pos = 0;
    for (size_t k = 0; k < o->heatmaps.n; k++) {
        const char *v;
        long i = arg_target(r, o->heatmaps.v[k], &v, &pos);
        if (i < 0)
            return USAGE_ERR("--cambi-heatmaps %s: more directories than "
                             "logs\n", o->heatmaps.v[k]);
        r->in[i].heatmap_dir = v;
    }
    pos = 0;
    for (size_t k = 0; k < o->bitrates.n; k++) {
        const char *arg = o->bitrates.v[k], *eq = strrchr(arg, '='), *v = arg;
        long i = eq ? find_input(r, arg, (size_t)(eq - arg)) : -1;
        if (i >= 0)
            v = eq + 1;
        else if (!eq && pos < r->n_in)
            i = (long)pos++;
        char *end;
        double kbps = strtod(v, &end);
        if (i < 0 || !*v || *end || !(kbps > 0) || !isfinite(kbps))
            return USAGE_ERR("--bitrate %s: expected LOG=KBPS with LOG a log's "
                             "path or label and KBPS > 0\n", arg);
        r->in[i].kbps = kbps;
        r->in[i].kbps_source = "--bitrate";
    }
    return 0;
}

static int starts(const char *s, const char *p)
{
    return !strncmp(s, p, strlen(p));
}

static int compute(Report *r, const ReportOptions *o)
{
    const ReportLog *first = &r->in[0].log;
    r->primary = o->primary ? o->primary
               : report_log_find(first, "vmaf") >= 0 ? "vmaf"
               : first->series[0].name;
    r->high_is_worse = o->worst_is ? !strcmp(o->worst_is, "high")
        : starts(r->primary, "cambi") || starts(r->primary, "mse") ||
          strstr(r->primary, "_mse") || starts(r->primary, "aim") ||
          starts(r->primary, "integer_aim");
    int found = 0;
    for (size_t i = 0; i < r->n_in; i++) {
        ReportInput *in = &r->in[i];
        ReportLog *l = &in->log;
        in->stats = calloc(l->n_series, sizeof(*in->stats));
        in->worst = calloc(o->worst ? o->worst : 1, sizeof(*in->worst));
        if (!in->stats || !in->worst)
            return INPUT_ERR("out of memory\n");
        for (size_t s = 0; s < l->n_series; s++)
            if (report_stats_compute(l->series[s].values, l->n_frames,
                                     &in->stats[s]))
                return INPUT_ERR("out of memory\n");
        in->primary = report_log_find(l, r->primary);
        found |= in->primary >= 0;
        if (in->primary < 0)
            in->primary = 0;
        in->n_worst = report_worst(l->series[in->primary].values, l->n_frames,
                                   o->worst, r->high_is_worse, in->worst);
        if (l->n_frames != first->n_frames) {
            snprintf(in->note, sizeof(in->note), "%s has %zu frames and %s "
                     "has %zu: compare the curves where both have frames.",
                     in->label, l->n_frames, r->in[0].label, first->n_frames);
            fprintf(stderr, "vqhip_report: note: %s\n", in->note);
        }
    }
    if (!found)
        return USAGE_ERR("--primary %s: no log has this output\n", r->primary);
    /* every output, the primary first, then in the logs' order */
    r->outputs = calloc(1, sizeof(*r->outputs));
    if (!r->outputs)
        return INPUT_ERR("out of memory\n");
    r->outputs[r->n_outputs++] = r->primary;
    for (size_t i = 0; i < r->n_in; i++)
        for (size_t s = 0; s < r->in[i].log.n_series; s++) {
            const char *name = r->in[i].log.series[s].name;
            size_t k = 0;
            while (k < r->n_outputs && strcmp(r->outputs[k], name))
                k++;
            if (k < r->n_outputs)
                continue;
            const char **grown = realloc(r->outputs, (r->n_outputs + 1) *
                                         sizeof(*grown));
            if (!grown)
                return INPUT_ERR("out of memory\n");
            r->outputs = grown;
            r->outputs[r->n_outputs++] = name;
        }
    return 0;
}

/* The worst frames' numbers, ascending and distinct, and where each worst
 * frame went in that list. */
static size_t sorted_frames(const ReportInput *in, unsigned *frames, size_t *at)
{
    size_t n = 0;
    for (size_t k = 0; k < in->n_worst; k++) {
        unsigned fn = in->log.frame_num[in->worst[k]];
        size_t j = 0;
        while (j < n && frames[j] < fn)
            j++;
        if (j == n || frames[j] != fn) {
            memmove(frames + j + 1, frames + j, (n - j) * sizeof(*frames));
            frames[j] = fn;
            n++;
        }
    }
    for (size_t k = 0; k < in->n_worst; k++)
        for (at[k] = 0; frames[at[k]] != in->log.frame_num[in->worst[k]];)
            at[k]++;
    return n;
}

typedef enum { IMG_REF, IMG_DIS, IMG_HEAT } ImageKind;

static int images(ReportInput *in, ImageKind kind, const char *path,
                  unsigned width, char ***out)
{
    unsigned *frames = calloc(in->n_worst + 1, sizeof(*frames));
    size_t *at = calloc(in->n_worst + 1, sizeof(*at));
    char **uris = calloc(in->n_worst + 1, sizeof(*uris));
    *out = calloc(in->n_worst + 1, sizeof(**out));
    if (!frames || !at || !uris || !*out) {
        free(frames), free(at), free(uris);
        return INPUT_ERR("out of memory\n");
    }
    char err[1024] = "";
    size_t n = sorted_frames(in, frames, at);
    int rc = kind == IMG_HEAT
        ? report_cambi_heatmaps(path, frames, n, width, uris, &in->heat_top,
                                err, sizeof(err))
        : report_media_thumbnails(path, frames, n, width, uris, err,
                                  sizeof(err));
    size_t missing = 0;
    for (size_t k = 0; !rc && k < in->n_worst; k++) {
        /* the same frame twice: the first keeps the picture */
        size_t first = 0;
        while (at[first] != at[k])
            first++;
        (*out)[k] = first == k ? uris[at[k]] : strdup(uris[at[k]] ? uris[at[k]] : "");
        if ((*out)[k] && !*(*out)[k]) {
            free((*out)[k]);
            (*out)[k] = NULL;
        }
        missing += !(*out)[k];
    }
    if (missing)
        fprintf(stderr, "vqhip_report: note: %s: %zu of %s's worst frames are "
                "past its end\n", path, missing, in->label);
    free(frames);
    free(at);
    free(uris);
    return rc ? INPUT_ERR("%s\n", err) : 0;
}

static int media(Report *r, const ReportOptions *o)
{
    char err[1024];
    r->fps = o->fps;
    r->fps_source = "--fps";
    for (size_t i = 0; i < r->n_in; i++) {
        ReportInput *in = &r->in[i];
        if (!in->dis_path)
            continue;
        double kbps, fps;
        if (report_media_probe(in->dis_path, &kbps, &fps, err, sizeof(err)))
            return INPUT_ERR("%s\n", err);
        if (!isfinite(in->kbps) && isfinite(kbps)) {
            in->kbps = kbps;
            in->kbps_source = "container";
        }
        if (!isfinite(r->fps) && isfinite(fps)) {
            r->fps = fps;
            r->fps_source = "the distorted file's container";
        }
    }
    if (o->ref && !isfinite(r->fps)) {
        double kbps, fps;
        if (report_media_probe(o->ref, &kbps, &fps, err, sizeof(err)))
            return INPUT_ERR("%s\n", err);
        r->fps = fps;
        r->fps_source = "the reference's container";
    }
    for (size_t i = 0; i < r->n_in; i++) {
        ReportInput *in = &r->in[i];
        int rc = 0;
        if (o->ref)
            rc = images(in, IMG_REF, o->ref, o->thumb_width, &in->ref_img);
        if (!rc && in->dis_path)
            rc = images(in, IMG_DIS, in->dis_path, o->thumb_width, &in->dis_img);
        if (!rc && in->heatmap_dir)
            rc = images(in, IMG_HEAT, in->heatmap_dir, o->thumb_width,
                        &in->heat_img);
        if (rc)
            return rc;
    }
    return 0;
}

static long find_ladder(const Report *r, const char *s, size_t len)
{
    for (size_t k = 0; k < r->n_ladders; k++)
        if (strlen(r->ladders[k].name) == len && !strncmp(r->ladders[k].name, s, len))
            return (long)k;
    return -1;
}

static int ladders(Report *r, const ReportOptions *o)
{
    size_t n = o->ladders.n;
    int implicit = !n;
    if (implicit) /* no --ladder: every log with a bitrate is one ladder */
        for (size_t i = 0; i < r->n_in; i++)
            n += isfinite(r->in[i].kbps) && !n;
    r->ladders = calloc(n + 1, sizeof(*r->ladders));
    if (!r->ladders)
        return INPUT_ERR("out of memory\n");
    for (size_t k = 0; k < n; k++) {
        ReportLadder *l = &r->ladders[r->n_ladders++];
        l->inputs = calloc(r->n_in, sizeof(*l->inputs));
        if (!l->inputs)
            return INPUT_ERR("out of memory\n");
        if (implicit) {
            l->name = "all logs";
            for (size_t i = 0; i < r->n_in; i++)
                if (isfinite(r->in[i].kbps))
                    l->inputs[l->n++] = i;
            continue;
        }
        const char *arg = o->ladders.v[k], *eq = strchr(arg, '=');
        if (!eq || eq == arg || !eq[1])
            return USAGE_ERR("--ladder %s: expected NAME=LOG,LOG,...\n", arg);
        char *name = strndup(arg, (size_t)(eq - arg));
        if (!name)
            return INPUT_ERR("out of memory\n");
        l->name = name;
        if (find_ladder(r, name, strlen(name)) != (long)k)
            return USAGE_ERR("--ladder %s: a second ladder named %s\n", arg, name);
        for (const char *p = eq + 1; *p;) {
            size_t len = strcspn(p, ",");
            long i = find_input(r, p, len);
            if (i < 0 || l->n == r->n_in)
                return USAGE_ERR("--ladder %s: '%.*s' is not a log's path or "
                                 "label\n", arg, (int)len, p);
            if (!isfinite(r->in[i].kbps))
                return USAGE_ERR("--ladder %s: %s has no bitrate: give "
                                 "--bitrate or --dis\n", arg, r->in[i].label);
            l->inputs[l->n++] = (size_t)i;
            p += len + (p[len] == ',');
        }
    }
    r->bd = calloc(o->bd.n + 1, sizeof(*r->bd));
    if (!r->bd)
        return INPUT_ERR("out of memory\n");
    int failed = 0;
    for (size_t k = 0; k < o->bd.n; k++) {
        const char *arg = o->bd.v[k], *comma = strchr(arg, ',');
        long a = comma ? find_ladder(r, arg, (size_t)(comma - arg)) : -1;
        long b = comma ? find_ladder(r, comma + 1, strlen(comma + 1)) : -1;
        if (a < 0 || b < 0)
            return USAGE_ERR("--bd-rate %s: expected A,B with A and B the names "
                             "of ladders given with --ladder\n", arg);
        ReportBd *bd = &r->bd[r->n_bd++];
        bd->a = r->ladders[a].name;
        bd->b = r->ladders[b].name;
        ReportRQPoint *pts = calloc(r->n_in * 2 + 1, sizeof(*pts));
        if (!pts)
            return INPUT_ERR("out of memory\n");
        const ReportLadder *la = &r->ladders[a], *lb = &r->ladders[b];
        for (size_t j = 0; j < la->n; j++)
            pts[j] = (ReportRQPoint){ r->in[la->inputs[j]].kbps,
                r->in[la->inputs[j]].stats[r->in[la->inputs[j]].primary].mean };
        for (size_t j = 0; j < lb->n; j++)
            pts[la->n + j] = (ReportRQPoint){ r->in[lb->inputs[j]].kbps,
                r->in[lb->inputs[j]].stats[r->in[lb->inputs[j]].primary].mean };
        bd->ok = !report_bd_rate(pts, la->n, pts + la->n, lb->n, &bd->percent,
                                 &bd->lo, &bd->hi, bd->err, sizeof(bd->err));
        free(pts);
        if (!bd->ok) {
            fprintf(stderr, "vqhip_report: --bd-rate %s: %s\n", arg, bd->err);
            failed = 1;
        }
    }
    return failed ? REPORT_EXIT_INPUT : 0;
}

static int write_page(const Report *r, const char *path)
{
    if (!strcmp(path, "-"))
        return report_write_html(r, stdout) ? INPUT_ERR("cannot write the page "
                                                        "to standard output\n") : 0;
    /* written aside and renamed: never a half page under the real name */
    size_t len = strlen(path) + 6;
    char *tmp = malloc(len);
    if (!tmp)
        return INPUT_ERR("out of memory\n");
    snprintf(tmp, len, "%s.part", path);
    FILE *f = fopen(tmp, "w");
    int rc = !f || report_write_html(r, f);
    rc |= f && fclose(f);
    if (!rc && rename(tmp, path))
        rc = 1;
    if (rc) {
        remove(tmp);
        fprintf(stderr, "vqhip_report: %s: cannot write the page\n", path);
    }
    free(tmp);
    return rc ? REPORT_EXIT_INPUT : 0;
}

static void free_report(Report *r)
{
    for (size_t i = 0; i < r->n_in; i++) {
        ReportInput *in = &r->in[i];
        char **imgs[] = { in->ref_img, in->dis_img, in->heat_img };
        for (int k = 0; k < 3; k++) {
            for (size_t j = 0; imgs[k] && j < in->n_worst; j++)
                free(imgs[k][j]);
            free(imgs[k]);
        }
        free(in->stats);
        free(in->worst);
        report_log_free(&in->log);
    }
    for (size_t k = 0; k < r->n_ladders; k++) {
        free(r->ladders[k].inputs);
        if (strcmp(r->ladders[k].name, "all logs"))
            free((char *)r->ladders[k].name);
    }
    free(r->ladders);
    free(r->bd);
    free(r->outputs);
    free(r->in);
}

int main(int argc, char **argv)
{
    ReportOptions o;
    int rc = report_options_parse(argc, argv, &o);
    if (rc || o.done) {
        report_options_free(&o);
        return rc;
    }
    Report r = { .ref_path = o.ref, .thumb_width = o.thumb_width };
    char title[512];
    r.in = calloc(o.logs.n, sizeof(*r.in));
    if (!r.in) {
        report_options_free(&o);
        return INPUT_ERR("out of memory\n");
    }
    for (size_t i = 0; i < o.logs.n && !rc; i++) {
        char err[1024];
        r.in[i].kbps = NAN;
        if (report_log_load(o.logs.v[i], &r.in[i].log, err, sizeof(err)))
            rc = INPUT_ERR("%s\n", err);
        r.n_in++;
    }
    if (!rc)
        rc = set_labels(&r, &o);
    if (!rc)
        rc = per_log_args(&r, &o);
    if (!rc)
        rc = compute(&r, &o);
    if (!rc)
        rc = media(&r, &o);
    int bd_failed = 0;
    if (!rc) {
        rc = ladders(&r, &o);
        bd_failed = rc == REPORT_EXIT_INPUT;
    }
    if (!rc || bd_failed) {
        snprintf(title, sizeof(title), "vqhip report: %s%s", r.in[0].label,
                 r.n_in > 1 ? " and more" : "");
        r.title = o.title ? o.title : title;
        int wrc = write_page(&r, o.output);
        rc = wrc ? wrc : rc;
    }
    free_report(&r);
    report_options_free(&o);
    return rc;
}
