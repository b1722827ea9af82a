/* What the catalog verbs share (catalog.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "catalog.h"
#include "cli_args.h"
#include "cli_input.h"

unsigned cat_split(char *line, char **field, unsigned max)
{
    line[strcspn(line, "\r\n")] = '\0';
    unsigned n = 0;
    char *p = line;
    while (n < max) {
        field[n++] = p;
        char *t = strchr(p, '\t');
        if (!t)
            break;
        *t = '\0';
        p = t + 1;
    }
    return n;
}

static int parse_u(const char *s, unsigned long min, unsigned long max,
                   unsigned *out)
{
    char *end;
    errno = 0;
    unsigned long v = strtoul(s ? s : "", &end, 10);
    if (!s || !*s || *end || errno || v < min || v > max || *s == '-')
        return -1;
    *out = (unsigned)v;
    return 0;
}

/* Options a catalog item may carry, as vqhip's (docs/SCALE.md). */
int cat_opts_parse(const char *text, CatOpts *o, char *err, size_t errsz)
{
    memset(o, 0, sizeof(*o));
    o->bpc = 8;
    o->fmt = VQ_PIX_FMT_420;
    o->backend = VQ_BACKEND_AUTO;
    o->log_fmt = VQ_LOG_XML;
    o->hwdec = "none";
    if (strlen(text) >= sizeof(o->buf)) {
        snprintf(err, errsz, "options too long");
        return -1;
    }
    strcpy(o->buf, text);
    char *save = NULL;
    for (char *t = strtok_r(o->buf, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
        const char *v = NULL;
        int bad = 0;
        if (!strcmp(t, "--no_prediction")) { o->no_prediction = 1; continue; }
        if (!strcmp(t, "--xml")) { o->log_fmt = VQ_LOG_XML; continue; }
        if (!strcmp(t, "--json")) { o->log_fmt = VQ_LOG_JSON; continue; }
        if (!strcmp(t, "--csv")) { o->log_fmt = VQ_LOG_CSV; continue; }
        if (!strcmp(t, "--sub")) { o->log_fmt = VQ_LOG_SUB; continue; }
        v = strtok_r(NULL, " ", &save);
        if (!v) {
            snprintf(err, errsz, "option '%s' needs a value", t);
            return -1;
        }
        if (!strcmp(t, "-w") || !strcmp(t, "--width"))
            bad = parse_u(v, 1, 16384, &o->w);
        else if (!strcmp(t, "-h") || !strcmp(t, "--height"))
            bad = parse_u(v, 1, 16384, &o->h);
        else if (!strcmp(t, "-b") || !strcmp(t, "--bitdepth"))
            bad = parse_u(v, 8, 16, &o->bpc);
        else if (!strcmp(t, "-p") || !strcmp(t, "--pixel_format"))
            bad = yuv_parse_pix_fmt(v, &o->fmt);
        else if (!strcmp(t, "--subsample"))
            bad = parse_u(v, 1, 1u << 30, &o->subsample);
        else if (!strcmp(t, "--precision"))
            bad = parse_u(v, 0, 17, &o->precision);
        else if (!strcmp(t, "--hwdec")) {
            if (cli_input_hwdec(v, err, errsz))
                return -1;
            o->hwdec = v;
        } else if (!strcmp(t, "--backend")) {
            if (!strcmp(v, "auto")) o->backend = VQ_BACKEND_AUTO;
            else if (!strcmp(v, "hip")) o->backend = VQ_BACKEND_HIP;
            else if (!strcmp(v, "cpu")) o->backend = VQ_BACKEND_CPU;
            else bad = 1;
        } else if (!strcmp(t, "--model") || !strcmp(t, "--feature")) {
            int m = t[2] == 'm';
            if ((m ? o->n_model : o->n_feature) == CAT_MAX_SPECS)
                bad = 1;
            else if (m)
                o->model[o->n_model++] = v;
            else
                o->feature[o->n_feature++] = v;
        } else {
            snprintf(err, errsz, "option '%s' is not one an item takes "
                     "(docs/SCALE.md)", t);
            return -1;
        }
        if (bad) {
            snprintf(err, errsz, "bad value '%s' for %s", v, t);
            return -1;
        }
    }
    return 0;
}

const char *cat_backend_name(VqBackend b)
{
    return b == VQ_BACKEND_HIP ? "hip" : b == VQ_BACKEND_CPU ? "cpu" : "auto";
}

int cat_open(const CatOpts *o, VqBackend backend, unsigned subsample,
             VqContext **ctx, char *err, size_t errsz)
{
    VqConfig cfg = vq_default_config();
    cfg.backend = backend;
    cfg.n_subsample = subsample;
    int r = vq_open(ctx, &cfg);
    if (!r)
        r = vq_set_log_precision(*ctx, (int)o->precision);
    if (!r && !o->n_model && !o->n_feature && !o->no_prediction)
        r = vq_use_model(*ctx, "version=vmaf_v0.6.1");
    for (unsigned i = 0; !r && i < o->n_model; i++)
        r = vq_use_model(*ctx, o->model[i]);
    for (unsigned i = 0; !r && i < o->n_feature; i++)
        r = cli_use_feature(*ctx, o->feature[i]);
    if (r)
        snprintf(err, errsz, "%s (%s)", vq_last_error(*ctx), vq_strerror(r));
    return r;
}

int cat_items_read(const char *dir, CatItem **items, unsigned *n, char *err,
                   size_t errsz)
{
    char path[CAT_FIELD + 32], line[6 * CAT_FIELD];
    snprintf(path, sizeof(path), "%s/items.tsv", dir);
    *items = NULL;
    *n = 0;
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errsz, "cannot read '%s': %s", path, strerror(errno));
        return -1;
    }
    unsigned cap = 0, lineno = 0;
    int bad = 0;
    while (!bad && fgets(line, sizeof(line), f)) {
        lineno++;
        if (line[0] == '#' || line[0] == '\n')
            continue;
        char *fl[12];
        if (cat_split(line, fl, 12) != 11) {
            bad = 1;
            break;
        }
        if (*n == cap) {
            cap = cap ? 2 * cap : 64;
            CatItem *p = realloc(*items, cap * sizeof(*p));
            if (!p) {
                bad = 1;
                break;
            }
            *items = p;
        }
        CatItem *it = &(*items)[*n];
        unsigned *u[] = { &it->index, &it->first, &it->end, &it->dec_first,
                          &it->dec_end, &it->frames };
        for (unsigned k = 0; k < 6 && !bad; k++)
            bad = parse_u(fl[k == 0 ? 0 : k + 1], 0, 1u << 30, u[k]);
        snprintf(it->title, sizeof(it->title), "%s", fl[1]);
        snprintf(it->ref, sizeof(it->ref), "%s", fl[7]);
        snprintf(it->dis, sizeof(it->dis), "%s", fl[8]);
        snprintf(it->log, sizeof(it->log), "%s", fl[9]);
        snprintf(it->opts, sizeof(it->opts), "%s", fl[10]);
        bad |= it->index != *n;
        (*n)++;
    }
    fclose(f);
    if (bad) {
        snprintf(err, errsz, "'%s' line %u: not an item line (11 fields, "
                 "items numbered from 0 in order)", path, lineno);
        free(*items);
        *items = NULL;
        *n = 0;
        return -1;
    }
    return 0;
}

int cat_count_frames(YuvInput *in, const char *path, unsigned *n, char *err,
                     size_t errsz)
{
    if (in->src)
        return in->src->count(in, n, err, errsz);
    struct stat st;
    off_t start = ftello(in->f);
    if (start < 0 || fstat(fileno(in->f), &st) || !S_ISREG(st.st_mode)) {
        snprintf(err, errsz, "'%s': not a regular file: its frame count "
                 "cannot be established", path);
        return -1;
    }
    off_t left = st.st_size - start;
    if (!in->y4m) {
        if (left % (off_t)in->frame_size) {
            snprintf(err, errsz, "'%s': %lld bytes are not a whole number of "
                     "%zu-byte frames (wrong size or format?)", path,
                     (long long)left, in->frame_size);
            return -1;
        }
        *n = (unsigned)(left / (off_t)in->frame_size);
        return 0;
    }
    unsigned k = 0;
    int r = 0;
    while (ftello(in->f) < st.st_size) {
        if (cat_skip_frames(in, 1, err, errsz) || ftello(in->f) > st.st_size) {
            snprintf(err, errsz, "'%s': Y4M frame %u is malformed or "
                     "truncated: the frame count cannot be established", path, k);
            r = -1;
            break;
        }
        k++;
    }
    *n = k;
    if (fseeko(in->f, start, SEEK_SET) && !r) {
        snprintf(err, errsz, "'%s': cannot seek: %s", path, strerror(errno));
        r = -1;
    }
    return r;
}

int cat_skip_frames(YuvInput *in, unsigned k, char *err, size_t errsz)
{
    if (in->src)
        return in->src->skip(in, k, err, errsz);
    if (!in->y4m) {
        if (fseeko(in->f, (off_t)k * (off_t)in->frame_size, SEEK_CUR)) {
            snprintf(err, errsz, "cannot seek: %s", strerror(errno));
            return -1;
        }
        return 0;
    }
    char line[256];
    for (unsigned i = 0; i < k; i++) {
        if (!fgets(line, sizeof(line), in->f) || strncmp(line, "FRAME", 5) ||
            !strchr(line, '\n') ||
            fseeko(in->f, (off_t)in->frame_size, SEEK_CUR)) {
            snprintf(err, errsz, "Y4M frame header missing or malformed");
            return -1;
        }
    }
    return 0;
}

int cat_env_index(unsigned *index, const char **from)
{
    static const char *const vars[] = { "SLURM_ARRAY_TASK_ID",
        "JOB_COMPLETION_INDEX", "AWS_BATCH_JOB_ARRAY_INDEX" };
    for (unsigned i = 0; i < 3; i++) {
        const char *v = getenv(vars[i]);
        if (v && *v) {
            *from = vars[i];
            return parse_u(v, 0, 1u << 30, index) ? -1 : 1;
        }
    }
    return 0;
}
