/*
 * vqhip run-item DIR [--index N]: scores one work item of DIR/items.tsv
 * (a title's frames [first, end), decoding [decode_first, decode_end) so
 * that temporal extractors see the neighbours a single run gives them)
 * and writes DIR/parts/NNNN.part atomically. docs/SCALE.md: the part
 * format, the exit codes.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tool_clock.h"
#include "catalog.h"
#include "cli_input.h"

#define MAX_OUT 128

typedef struct Kept {
    unsigned first, n, n_names, sub;
    char *name[MAX_OUT];
    double *value;     /* n frames x MAX_OUT */
    uint8_t *has;
} Kept;

static int name_id(Kept *k, const char *name)
{
    for (unsigned i = 0; i < k->n_names; i++)
        if (!strcmp(k->name[i], name))
            return (int)i;
    if (k->n_names == MAX_OUT || !(k->name[k->n_names] = strdup(name)))
        return -1;
    return (int)k->n_names++;
}

/* The scores received so far; those of the item's own scored frames kept. */
static int drain(VqContext *ctx, unsigned dec_first, Kept *k)
{
    VqFrameScores fs;
    int r;
    while ((r = vq_receive(ctx, &fs)) == 0) {
        unsigned g = fs.index + dec_first;
        if (g < k->first || g >= k->first + k->n || g % k->sub)
            continue;
        for (unsigned i = 0; i < fs.n; i++) {
            int id = name_id(k, fs.scores[i].name);
            if (id < 0)
                return VQ_ENOMEM;
            size_t at = (size_t)(g - k->first) * MAX_OUT + (unsigned)id;
            k->value[at] = fs.scores[i].value;
            k->has[at] = 1;
        }
    }
    return r == VQ_EAGAIN || r == VQ_EOF ? 0 : r;
}

static int write_part(const char *dir, const CatItem *it, const CatOpts *o,
                      VqContext *ctx, const Kept *k, double seconds,
                      const YuvInput *in, char *err, size_t errsz)
{
    char path[CAT_FIELD + 64], tmp[CAT_FIELD + 96];
    snprintf(path, sizeof(path), "%s/parts/%04u.part", dir, it->index);
    snprintf(tmp, sizeof(tmp), "%s/parts/.%04u.part.%ld.tmp", dir, it->index,
             (long)getpid());
    unsigned n_out = vq_output_count(ctx);
    int map[MAX_OUT];
    for (unsigned j = 0; j < n_out; j++) {
        map[j] = -1;
        for (unsigned i = 0; i < k->n_names; i++)
            if (!strcmp(k->name[i], vq_output_name(ctx, j)))
                map[j] = (int)i;
    }
    FILE *f = fopen(tmp, "w");
    if (!f) {
        snprintf(err, errsz, "cannot write '%.400s': %s", tmp, strerror(errno));
        return -1;
    }
    fprintf(f, "vqhip-part\t1\nversion\t%s\nrevision\t%s\n", vq_version(),
            vq_revision());
    fprintf(f, "item\t%u\ntitle\t%s\noptions\t%s\nframes\t%u\nrange\t%u\t%u\n",
            it->index, it->title, it->opts, it->frames, it->first, it->end);
    fprintf(f, "geometry\t%u\t%u\t%d\t%u\n", in->w, in->h, (int)in->fmt,
            in->bpc);
    fprintf(f, "backend\t%s\t%s\nconfig_backend\t%s\nseconds\t%a\n",
            vq_backend_name(ctx), vq_device_name(ctx),
            cat_backend_name(o->backend), seconds);
    const char *sha;
    for (unsigned i = 0; (sha = vq_model_sha256(ctx, i)); i++)
        fprintf(f, "model\t%s\n", sha);
    for (unsigned j = 0; j < n_out; j++)
        fprintf(f, "output\t%s\t%s\n", vq_output_name(ctx, j),
                vq_output_backend(ctx, vq_output_name(ctx, j)));
    /* the integer sums behind the aggregates (psnr's apsnr): merge adds
     * them, exactly, and computes the aggregates from the totals */
    for (unsigned i = 0; i < vq_sums_count(ctx); i++) {
        VqSums s;
        if (vq_sums(ctx, i, &s))
            continue;
        fprintf(f, "sums\t%u\t%s", i, s.name);
        for (unsigned j = 0; j < s.n; j++)
            fprintf(f, "\t%" PRIu64, s.v[j]);
        fputc('\n', f);
    }
    unsigned written = 0;
    for (unsigned g = k->first; g < k->first + k->n; g++) {
        if (g % k->sub)
            continue;
        /* hex floats: every double exactly, NaN and infinities included */
        fprintf(f, "frame\t%u", g);
        for (unsigned j = 0; j < n_out; j++) {
            size_t at = (size_t)(g - k->first) * MAX_OUT + (unsigned)map[j];
            if (map[j] >= 0 && k->has[at])
                fprintf(f, "\t%a", k->value[at]);
            else
                fputs("\t-", f);
        }
        fputc('\n', f);
        written++;
    }
    fprintf(f, "end\t%u\n", written);
    int bad = ferror(f) | fflush(f) | fsync(fileno(f));
    bad |= fclose(f);
    if (!bad && rename(tmp, path))
        bad = 1;
    if (bad) {
        snprintf(err, errsz, "cannot write '%.400s': %s", path, strerror(errno));
        unlink(tmp);
        return -1;
    }
    return 0;
}

static int score(const char *dir, const CatItem *it, const CatOpts *o,
                 YuvInput *ri, YuvInput *di, char *err, size_t errsz)
{
    VqContext *ctx = NULL;
    Kept k = { .first = it->first, .n = it->end - it->first,
               .sub = o->subsample ? o->subsample : 1 };
    k.value = calloc((size_t)k.n * MAX_OUT, sizeof(double));
    k.has = calloc((size_t)k.n * MAX_OUT, 1);
    int st = CAT_EXIT_SOFTWARE, r = k.value && k.has ? 0 : VQ_ENOMEM;
    /* every frame is submitted (n_subsample 1); those outside the item or
     * off the title's n_subsample grid are marked not scored: temporal
     * extractors still see them, as in a single run */
    if (!r && cat_open(o, o->backend, 1, &ctx, err, errsz)) {
        /* the GPU asked for and not to be had now: try again later */
        st = o->backend == VQ_BACKEND_HIP ? CAT_EXIT_TEMPFAIL
                                          : CAT_EXIT_DATAERR;
        goto done;
    }
    if (!r) {
        VqPicture g = { .fmt = ri->fmt, .bpc = ri->bpc, .w = ri->w, .h = ri->h };
        r = vq_configure(ctx, &g);
        ri->skip = di->skip = r ? 0 : ~vq_planes_read(ctx) & 7u;
    }
    if (!r && (cat_skip_frames(ri, it->dec_first, err, errsz) ||
               cat_skip_frames(di, it->dec_first, err, errsz))) {
        st = CAT_EXIT_DATAERR;
        goto done;
    }
    double t0 = tool_now();
    for (unsigned i = it->dec_first; !r && i < it->dec_end; i++) {
        VqPicture rp, dp;
        int a = yuv_read(ri, &rp, err, errsz);
        int b = a == 1 ? yuv_read(di, &dp, err, errsz) : a;
        if (a != 1 || b != 1) {
            if (a == 0 || b == 0)
                snprintf(err, errsz, "frame %u: an input ended early (it "
                         "changed since the plan?)", i);
            st = CAT_EXIT_DATAERR;
            goto done;
        }
        if (i < it->first || i >= it->end || i % k.sub)
            r = vq_skip_next(ctx);
        if (!r)
            r = vq_submit(ctx, &rp, &dp);
        if (!r)
            r = drain(ctx, it->dec_first, &k);
    }
    if (!r)
        r = vq_flush(ctx);
    if (!r)
        r = drain(ctx, it->dec_first, &k);
    double seconds = tool_now() - t0;
    VqRunInfo info;
    if (!r && !vq_run_info(ctx, &info) && info.fell_back) {
        snprintf(err, errsz, "a GPU fault moved the item to the CPU (%s): "
                 "try again", info.fallback_reason);
        st = CAT_EXIT_TEMPFAIL;
        goto done;
    }
    if (r) {
        snprintf(err, errsz, "%s (%s)", vq_last_error(ctx), vq_strerror(r));
        st = r == VQ_EUNSUPPORTED || r == VQ_EINVAL ? CAT_EXIT_DATAERR
                                                     : CAT_EXIT_SOFTWARE;
        goto done;
    }
    st = write_part(dir, it, o, ctx, &k, seconds, ri, err, errsz)
         ? CAT_EXIT_TEMPFAIL : 0;
done:
    vq_close(&ctx);
    for (unsigned i = 0; i < k.n_names; i++)
        free(k.name[i]);
    free(k.value);
    free(k.has);
    return st;
}

static int open_input(const char *path, const CatOpts *o, YuvInput *in,
                      unsigned *n, char *err, size_t errsz)
{
    if (access(path, R_OK) && errno == ENOENT) {
        snprintf(err, errsz, "'%s': not there (yet)", path);
        return CAT_EXIT_TEMPFAIL;
    }
    if (cli_input_hwdec(o->hwdec, err, errsz) ||
        cli_input_open(in, path, o->fmt, o->bpc, o->w, o->h, err, errsz) ||
        cat_count_frames(in, path, n, err, errsz))
        return CAT_EXIT_DATAERR;
    return 0;
}

int catalog_item_main(int argc, char **argv)
{
    static const struct option lo[] = {
        { "index", required_argument, NULL, 'i' },
        { NULL, 0, NULL, 0 },
    };
    unsigned index = 0;
    int have = 0, c;
    const char *from = "--index";
    while ((c = getopt_long(argc, argv, "", lo, NULL)) != -1) {
        char *end;
        if (c != 'i')
            return CAT_EXIT_USAGE;
        index = (unsigned)strtoul(optarg, &end, 10);
        if (*end || !*optarg || *optarg == '-') {
            fprintf(stderr, "vqhip run-item: --index: a number\n");
            return CAT_EXIT_USAGE;
        }
        have = 1;
    }
    if (optind + 1 != argc) {
        fprintf(stderr, "usage: vqhip run-item DIR [--index N]\n");
        return CAT_EXIT_USAGE;
    }
    if (!have && (have = cat_env_index(&index, &from)) < 0) {
        fprintf(stderr, "vqhip run-item: %s is not a number\n", from);
        return CAT_EXIT_USAGE;
    }
    if (!have) {
        fprintf(stderr, "vqhip run-item: no --index, and none of "
                "SLURM_ARRAY_TASK_ID, JOB_COMPLETION_INDEX, "
                "AWS_BATCH_JOB_ARRAY_INDEX is set\n");
        return CAT_EXIT_USAGE;
    }
    const char *dir = argv[optind];
    char err[1024];
    CatItem *items;
    unsigned n_items;
    if (cat_items_read(dir, &items, &n_items, err, sizeof(err))) {
        fprintf(stderr, "vqhip run-item: %s\n", err);
        return errno == ENOENT ? CAT_EXIT_TEMPFAIL : CAT_EXIT_DATAERR;
    }
    if (index >= n_items) {
        fprintf(stderr, "vqhip run-item: item %u (from %s): the plan has "
                "items 0 to %u\n", index, from, n_items - 1);
        free(items);
        return CAT_EXIT_USAGE;
    }
    const CatItem *it = &items[index];
    CatOpts o;
    YuvInput ri, di;
    memset(&ri, 0, sizeof(ri));
    memset(&di, 0, sizeof(di));
    unsigned nr = 0, nd = 0;
    int st = cat_opts_parse(it->opts, &o, err, sizeof(err)) ? CAT_EXIT_DATAERR : 0;
    if (!st)
        st = open_input(it->ref, &o, &ri, &nr, err, sizeof(err));
    if (!st)
        st = open_input(it->dis, &o, &di, &nd, err, sizeof(err));
    if (!st && (nr < nd ? nr : nd) != it->frames) {
        snprintf(err, sizeof(err), "the inputs have %u and %u frames, the "
                 "plan says %u: they changed since the plan", nr, nd,
                 it->frames);
        st = CAT_EXIT_DATAERR;
    }
    if (!st)
        st = score(dir, it, &o, &ri, &di, err, sizeof(err));
    if (st)
        fprintf(stderr, "vqhip run-item: item %u (%s, frames %u-%u): %s\n",
                index, it->title, it->first, it->end, err);
    yuv_close(&ri);
    yuv_close(&di);
    free(items);
    return st;
}
