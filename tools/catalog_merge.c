/*
 * vqhip merge DIR --title T --log PATH [--log-fmt xml|json|csv|sub]: the
 * title's parts checked (all there, none twice, one build, one set of
 * options and model hashes, frames contiguous) and written as the log a
 * single run writes (vq_import_*: pooled values from every frame).
 */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "catalog.h"

#define HEAD 8192

typedef struct Part {
    char file[300];
    unsigned item, first, end, frames, n_frames;
    unsigned n_sums;   /* its sums lines (aggregates' state) */
    double seconds;
    char head[HEAD];   /* the lines every part of a title shares */
    char outs[HEAD];   /* its outputs (none in a part without a scored
                          frame: its extractors never wrote) */
    char backend[64], device[128], config[16];
    unsigned w, h, fmt, bpc;
} Part;

static int part_fail(char *err, size_t errsz, const char *file, const char *what)
{
    snprintf(err, errsz, "part '%s': %s", file, what);
    return -1;
}

/* Reads a part; with ctx, imports its frames (and with outputs, its
 * outputs first). */
static int part_read(const char *dir, Part *p, VqContext *ctx, bool outputs,
                     char *err, size_t errsz)
{
    char path[CAT_FIELD + 320], line[65536];
    snprintf(path, sizeof(path), "%s/parts/%s", dir, p->file);
    FILE *f = fopen(path, "r");
    if (!f)
        return part_fail(err, errsz, p->file, strerror(errno));
    size_t hl = 0, ol = 0;
    int ended = 0, bad = 0;
    bool import_failed = false; /* the library refused a frame or sums */
    unsigned n_out = 0, lineno = 0;
    VqScore sc[256];
    char *names[256] = { 0 };
    p->head[0] = p->outs[0] = '\0';
    p->n_frames = p->n_sums = 0;
    while (!bad && fgets(line, sizeof(line), f)) {
        lineno++;
        if (!strchr(line, '\n') || ended) {
            bad = 1;
            break;
        }
        char copy[sizeof(line)];
        strcpy(copy, line);
        char *fl[260];
        unsigned nf = cat_split(line, fl, 260);
        const char *k = fl[0];
        if (!strcmp(k, "frame")) {
            char *end;
            unsigned g = (unsigned)strtoul(fl[1], &end, 10);
            if (nf != 2 + n_out || *end || g < p->first || g >= p->end) {
                bad = 1;
                break;
            }
            unsigned n = 0;
            for (unsigned j = 0; j < n_out; j++) {
                if (!strcmp(fl[2 + j], "-"))
                    continue;
                sc[n].name = names[j];
                sc[n++].value = strtod(fl[2 + j], &end);
                bad |= *end != '\0';
            }
            if (!bad && ctx && vq_import_frame(ctx, g, n, sc)) {
                import_failed = true;
                break;
            }
            p->n_frames++;
            continue;
        }
        if (!strcmp(k, "sums")) {
            /* sums <i> <extractor> <values>: decimal, uint64 */
            VqSums s = { .name = nf > 2 ? fl[2] : "" };
            char *end = NULL;
            unsigned i = nf > 1 ? (unsigned)strtoul(fl[1], &end, 10) : 0;
            bad = nf < 4 || nf > 3 + VQ_SUMS_MAX || *end || i != p->n_sums;
            s.n = nf - 3;
            for (unsigned j = 0; !bad && j < s.n; j++) {
                s.v[j] = strtoull(fl[3 + j], &end, 10);
                bad = *end != '\0' || fl[3 + j][0] == '-';
            }
            if (!bad && ctx && vq_import_sums(ctx, i, &s)) {
                import_failed = true;
                break;
            }
            p->n_sums++;
            continue;
        }
        if (!strcmp(k, "end")) {
            ended = nf == 2 && (unsigned)strtoul(fl[1], NULL, 10) == p->n_frames;
            bad = !ended;
            continue;
        }
        if (!strcmp(k, "item") && nf == 2)
            p->item = (unsigned)strtoul(fl[1], NULL, 10);
        else if (!strcmp(k, "range") && nf == 3) {
            p->first = (unsigned)strtoul(fl[1], NULL, 10);
            p->end = (unsigned)strtoul(fl[2], NULL, 10);
        } else if (!strcmp(k, "seconds") && nf == 2)
            p->seconds = strtod(fl[1], NULL);
        else {
            /* shared by every part of the title: compared whole */
            if (!strcmp(k, "frames") && nf == 2)
                p->frames = (unsigned)strtoul(fl[1], NULL, 10);
            else if (!strcmp(k, "backend") && nf == 3) {
                snprintf(p->backend, sizeof(p->backend), "%s", fl[1]);
                snprintf(p->device, sizeof(p->device), "%s", fl[2]);
            } else if (!strcmp(k, "config_backend") && nf == 2)
                snprintf(p->config, sizeof(p->config), "%s", fl[1]);
            else if (!strcmp(k, "geometry") && nf == 5)
                bad = sscanf(fl[1], "%u", &p->w) != 1 ||
                      sscanf(fl[2], "%u", &p->h) != 1 ||
                      sscanf(fl[3], "%u", &p->fmt) != 1 ||
                      sscanf(fl[4], "%u", &p->bpc) != 1;
            else if (!strcmp(k, "output") && nf == 3 && n_out < 256) {
                names[n_out] = strdup(fl[1]);
                bad = !names[n_out] || ol + strlen(copy) >= HEAD ||
                      (ctx && outputs && vq_import_output(ctx, fl[1], fl[2]));
                n_out++;
                if (!bad) {
                    strcpy(p->outs + ol, copy);
                    ol += strlen(copy);
                }
                continue;
            } else if (strcmp(k, "vqhip-part") && strcmp(k, "version") &&
                       strcmp(k, "revision") && strcmp(k, "title") &&
                       strcmp(k, "options") && strcmp(k, "model"))
                bad = 1;
            size_t len = strlen(copy);
            if (hl + len >= HEAD)
                bad = 1;
            else {
                memcpy(p->head + hl, copy, len + 1);
                hl += len;
            }
        }
    }
    fclose(f);
    for (unsigned j = 0; j < n_out; j++)
        free(names[j]);
    if (import_failed) {
        snprintf(err, errsz, "part '%s': %s", p->file, vq_last_error(ctx));
        return -1;
    }
    if (bad || !ended) {
        snprintf(err, errsz, "part '%s': malformed or truncated at line %u",
                 p->file, lineno);
        return -1;
    }
    return 0;
}

/* The value of header key `key` ("title", ...) into out. */
static void head_value(const Part *p, const char *key, char *out, size_t size)
{
    size_t kl = strlen(key);
    out[0] = '\0';
    for (const char *l = p->head; *l; l = strchr(l, '\n') + 1) {
        if (!strncmp(l, key, kl) && l[kl] == '\t') {
            snprintf(out, size, "%.*s", (int)strcspn(l + kl + 1, "\n"),
                     l + kl + 1);
            return;
        }
    }
}

static int by_first(const void *a, const void *b)
{
    const Part *x = a, *y = b;
    return x->first < y->first ? -1 : x->first > y->first;
}

/* The title's parts from DIR/parts, checked against the plan and each
 * other. 0, or an exit status with the reason in err. */
static int gather(const char *dir, const char *title, const CatItem *items,
                  unsigned n_items, Part **parts, unsigned *n, char *err,
                  size_t errsz)
{
    char path[CAT_FIELD + 16], t[300];
    snprintf(path, sizeof(path), "%s/parts", dir);
    DIR *d = opendir(path);
    if (!d) {
        snprintf(err, errsz, "cannot read '%s': %s", path, strerror(errno));
        return CAT_EXIT_TEMPFAIL;
    }
    unsigned cap = 0;
    int st = 0;
    struct dirent *e;
    while (!st && (e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (e->d_name[0] == '.' || len < 6 || len >= sizeof((*parts)->file) ||
            strcmp(e->d_name + len - 5, ".part"))
            continue;
        if (*n == cap) {
            cap = cap ? 2 * cap : 16;
            Part *np = realloc(*parts, cap * sizeof(*np));
            if (!np) {
                snprintf(err, errsz, "out of memory");
                st = CAT_EXIT_SOFTWARE;
                break;
            }
            *parts = np;
        }
        Part *p = &(*parts)[*n];
        memset(p, 0, sizeof(*p));
        snprintf(p->file, sizeof(p->file), "%s", e->d_name);
        if (part_read(dir, p, NULL, false, err, errsz)) {
            st = CAT_EXIT_DATAERR;
            break;
        }
        head_value(p, "title", t, sizeof(t));
        *n += !strcmp(t, title);
    }
    closedir(d);
    if (st)
        return st;
    Part *ps = *parts;
    qsort(ps, *n, sizeof(*ps), by_first);
    /* each part against its plan item and the first part */
    for (unsigned i = 0; i < *n; i++) {
        const Part *p = &ps[i];
        char opts[CAT_FIELD];
        head_value(p, "options", opts, sizeof(opts));
        if (i && ps[i - 1].item == p->item) {
            snprintf(err, errsz, "item %u has two parts: '%s' and '%s' (one "
                     "is a stray copy: remove it)", p->item, ps[i - 1].file,
                     p->file);
            return CAT_EXIT_DATAERR;
        }
        if (p->item >= n_items || strcmp(items[p->item].title, title) ||
            items[p->item].first != p->first || items[p->item].end != p->end ||
            items[p->item].frames != p->frames ||
            strcmp(items[p->item].opts, opts)) {
            snprintf(err, errsz, "part '%s' (item %u, frames %u-%u) is not "
                     "an item of this plan (another plan, or the plan "
                     "changed)", p->file, p->item, p->first, p->end);
            return CAT_EXIT_DATAERR;
        }
        const Part *q = &ps[0];
        for (unsigned j = 0; j < i && p->n_frames; j++)
            if (ps[j].n_frames) {
                q = &ps[j];
                break;
            }
        int differ = p->n_frames && q->n_frames && strcmp(p->outs, q->outs);
        if (i && (strcmp(p->head, ps[0].head) || differ)) {
            if (!differ)
                q = &ps[0];
            const char *a = differ ? q->outs : q->head;
            const char *b = differ ? p->outs : p->head;
            const char *start = a;
            while (*a && *a == *b)
                a++, b++;
            while (a > start && a[-1] != '\n')
                a--, b--;
            snprintf(err, errsz, "parts '%s' and '%s' are inconsistent "
                     "(build, options, models or outputs): '%.*s' against "
                     "'%.*s'", q->file, p->file, (int)strcspn(a, "\n"), a,
                     (int)strcspn(b, "\n"), b);
            return CAT_EXIT_DATAERR;
        }
    }
    /* then completeness: every item of the title, frames contiguous */
    char missing[512] = "";
    size_t ml = 0;
    unsigned n_missing = 0, at = 0, k = 0;
    for (unsigned i = 0; i < n_items; i++) {
        if (strcmp(items[i].title, title))
            continue;
        if (k < *n && ps[k].item == i) {
            if (ps[k].first != at) {
                snprintf(err, errsz, "part '%s' starts at frame %u, the "
                         "previous one ends at %u", ps[k].file, ps[k].first,
                         at);
                return CAT_EXIT_DATAERR;
            }
            at = ps[k++].end;
            continue;
        }
        at = items[i].end;
        if (ml < sizeof(missing) - 64)
            ml += (size_t)snprintf(missing + ml, sizeof(missing) - ml,
                                   "%s%04u.part (frames %u-%u)",
                                   n_missing ? ", " : "", i, items[i].first,
                                   items[i].end);
        n_missing++;
    }
    if (!n_missing && !*n) {
        snprintf(err, errsz, "no item of the plan is called '%s'", title);
        return CAT_EXIT_USAGE;
    }
    if (n_missing) {
        snprintf(err, errsz, "%u of the title's parts missing: %s", n_missing,
                 missing);
        return CAT_EXIT_TEMPFAIL;
    }
    return 0;
}

/* The log from the checked parts. */
static int write_merged(const char *dir, Part *ps, unsigned n, const char *log,
                        int log_fmt, char *err, size_t errsz)
{
    char opts_text[CAT_FIELD], rev[256];
    CatOpts o;
    head_value(&ps[0], "options", opts_text, sizeof(opts_text));
    head_value(&ps[0], "revision", rev, sizeof(rev));
    if (cat_opts_parse(opts_text, &o, err, errsz))
        return CAT_EXIT_DATAERR;
    if (strcmp(rev, vq_revision())) {
        snprintf(err, errsz, "the parts were scored by revision %s, this "
                 "vqhip is %s: merge with the build that scored them", rev,
                 vq_revision());
        return CAT_EXIT_DATAERR;
    }
    VqContext *ctx = NULL;
    if (cat_open(&o, VQ_BACKEND_CPU, o.subsample, &ctx, err, errsz)) {
        vq_close(&ctx);
        return CAT_EXIT_DATAERR;
    }
    double seconds = 0;
    for (unsigned i = 0; i < n; i++)
        seconds += ps[i].seconds;
    VqImportRun run = {
        .n_frames = ps[0].frames, .backend = ps[0].backend,
        .device = ps[0].device, .seconds = seconds,
        .backend_choice = !strcmp(ps[0].config, "hip") ? VQ_BACKEND_HIP
                        : !strcmp(ps[0].config, "cpu") ? VQ_BACKEND_CPU
                                                       : VQ_BACKEND_AUTO,
    };
    VqPicture g = { .fmt = (VqPixFmt)ps[0].fmt, .bpc = ps[0].bpc, .w = ps[0].w,
                    .h = ps[0].h };
    int st = CAT_EXIT_DATAERR;
    if (vq_import_begin(ctx, &g, &run)) {
        snprintf(err, errsz, "%s", vq_last_error(ctx));
        goto done;
    }
    /* the models this merge loaded are the ones the parts used */
    char want[HEAD];
    size_t wl = 0;
    const char *sha;
    for (unsigned i = 0; (sha = vq_model_sha256(ctx, i)) && wl < HEAD - 80; i++)
        wl += (size_t)snprintf(want + wl, HEAD - wl, "model\t%s\n", sha);
    want[wl] = '\0';
    char have[HEAD];
    size_t hl = 0;
    for (const char *l = ps[0].head; *l; l = strchr(l, '\n') + 1)
        if (!strncmp(l, "model\t", 6) && hl < HEAD - 80)
            hl += (size_t)snprintf(have + hl, HEAD - hl, "%.*s\n",
                                   (int)strcspn(l, "\n"), l);
    have[hl] = '\0';
    if (strcmp(want, have)) {
        snprintf(err, errsz, "the parts' model hashes differ from the models "
                 "this merge loads (another model file of the same name?)");
        goto done;
    }
    /* the outputs of a part with frames (the others have none) */
    unsigned with = 0;
    while (with < n - 1 && !ps[with].n_frames)
        with++;
    if (part_read(dir, &ps[with], ctx, true, err, errsz))
        goto done;
    for (unsigned i = 0; i < n; i++)
        if (i != with && part_read(dir, &ps[i], ctx, false, err, errsz))
            goto done;
    /* every part carries the sums of every aggregate (a part without
     * them would leave its frames out of the aggregates) */
    for (unsigned i = 0; i < n; i++)
        if (ps[i].n_sums != vq_sums_count(ctx)) {
            snprintf(err, errsz, "part '%s': %u aggregate sums, the options "
                     "have %u", ps[i].file, ps[i].n_sums, vq_sums_count(ctx));
            goto done;
        }
    if (vq_import_end(ctx)) {
        snprintf(err, errsz, "%s", vq_last_error(ctx));
        goto done;
    }
    if (vq_write_log(ctx, log, log_fmt < 0 ? o.log_fmt : (VqLogFmt)log_fmt)) {
        snprintf(err, errsz, "%s", vq_last_error(ctx));
        st = CAT_EXIT_TEMPFAIL;
        goto done;
    }
    st = 0;
done:
    vq_close(&ctx);
    return st;
}

int catalog_merge_main(int argc, char **argv)
{
    static const struct option lo[] = {
        { "title", required_argument, NULL, 't' },
        { "log", required_argument, NULL, 'l' },
        { "log-fmt", required_argument, NULL, 'f' },
        { NULL, 0, NULL, 0 },
    };
    const char *title = NULL, *log = NULL;
    int log_fmt = -1, c;
    while ((c = getopt_long(argc, argv, "", lo, NULL)) != -1) {
        switch (c) {
        case 't': title = optarg; break;
        case 'l': log = optarg; break;
        case 'f':
            log_fmt = !strcmp(optarg, "xml") ? VQ_LOG_XML
                    : !strcmp(optarg, "json") ? VQ_LOG_JSON
                    : !strcmp(optarg, "csv") ? VQ_LOG_CSV
                    : !strcmp(optarg, "sub") ? VQ_LOG_SUB : -2;
            if (log_fmt == -2) {
                fprintf(stderr, "vqhip merge: --log-fmt: xml, json, csv or "
                        "sub\n");
                return CAT_EXIT_USAGE;
            }
            break;
        default: return CAT_EXIT_USAGE;
        }
    }
    if (optind + 1 != argc || !title || !log) {
        fprintf(stderr, "usage: vqhip merge DIR --title T --log PATH "
                "[--log-fmt xml|json|csv|sub]\n");
        return CAT_EXIT_USAGE;
    }
    const char *dir = argv[optind];
    char err[2048];
    CatItem *items = NULL;
    Part *parts = NULL;
    unsigned n_items = 0, n = 0;
    int st = cat_items_read(dir, &items, &n_items, err, sizeof(err))
             ? CAT_EXIT_DATAERR : 0;
    if (!st)
        st = gather(dir, title, items, n_items, &parts, &n, err, sizeof(err));
    if (!st)
        st = write_merged(dir, parts, n, log, log_fmt, err, sizeof(err));
    if (st)
        fprintf(stderr, "vqhip merge: title '%s': %s\n", title, err);
    free(items);
    free(parts);
    return st;
}
