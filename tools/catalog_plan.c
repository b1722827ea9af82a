/*
 * vqhip plan MANIFEST --out DIR [--segment-frames F | --cuts A,B,..]:
 * the manifest's titles as numbered work items in DIR/items.tsv (and an
 * empty DIR/parts/ for run-item's part files). docs/SCALE.md.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "catalog.h"
#include "cli_input.h"

#define MAX_CUTS 1024

/* A manifest path, relative to the manifest's folder unless absolute. */
static void resolve(char *out, size_t size, const char *manifest,
                    const char *path)
{
    const char *slash = strrchr(manifest, '/');
    if (path[0] == '/' || !slash)
        snprintf(out, size, "%s", path);
    else
        snprintf(out, size, "%.*s/%s", (int)(slash - manifest), manifest, path);
}

static int frames_of(const char *path, const CatOpts *o, YuvInput *in,
                     unsigned *n, char *err, size_t errsz)
{
    if (cli_input_hwdec(o->hwdec, err, errsz) ||
        cli_input_open(in, path, o->fmt, o->bpc, o->w, o->h, err, errsz))
        return -1;
    return cat_count_frames(in, path, n, err, errsz);
}

/* The frames segment [a, b) decodes: before and after it, in [0, n). */
static void put_item(FILE *f, unsigned *index, const char *title, unsigned a,
                     unsigned b, unsigned n, unsigned before, unsigned after,
                     const char *ref, const char *dis, const char *log,
                     const char *opts)
{
    unsigned da = a > before ? a - before : 0;
    unsigned db = n - b > after ? b + after : n;
    fprintf(f, "%u\t%s\t%u\t%u\t%u\t%u\t%u\t%s\t%s\t%s\t%s\n", (*index)++,
            title, a, b, da, db, n, ref, dis, log, opts);
}

static int plan_title(FILE *out, unsigned *index, char **fl, unsigned nf,
                      const char *manifest, unsigned seg, const unsigned *cuts,
                      unsigned n_cuts, char *err, size_t errsz)
{
    char ref[CAT_FIELD], dis[CAT_FIELD];
    const char *opts = nf > 4 ? fl[4] : "";
    CatOpts o;
    if (strchr(fl[0], ' ') || !*fl[0] || !*fl[3]) {
        snprintf(err, errsz, "title '%s': a title (no spaces) and a log name "
                 "are needed", fl[0]);
        return CAT_EXIT_DATAERR;
    }
    if (cat_opts_parse(opts, &o, err, errsz))
        return CAT_EXIT_DATAERR;
    resolve(ref, sizeof(ref), manifest, fl[1]);
    resolve(dis, sizeof(dis), manifest, fl[2]);
    YuvInput ri, di;
    memset(&ri, 0, sizeof(ri));
    memset(&di, 0, sizeof(di));
    unsigned nr = 0, nd = 0, before = 0, after = 0;
    char e2[512];
    int bad = frames_of(ref, &o, &ri, &nr, e2, sizeof(e2)) ||
              frames_of(dis, &o, &di, &nd, e2, sizeof(e2));
    VqContext *ctx = NULL;
    if (!bad) {
        VqPicture g = { .fmt = ri.fmt, .bpc = ri.bpc, .w = ri.w, .h = ri.h };
        bad = cat_open(&o, VQ_BACKEND_CPU, 1, &ctx, e2, sizeof(e2)) ||
              vq_configure(ctx, &g) ||
              vq_segment_context(ctx, &before, &after);
        if (bad && ctx)
            snprintf(e2, sizeof(e2), "%s", vq_last_error(ctx));
    }
    vq_close(&ctx);
    yuv_close(&ri);
    yuv_close(&di);
    if (bad) {
        snprintf(err, errsz, "title '%s': %s", fl[0], e2);
        return CAT_EXIT_DATAERR;
    }
    unsigned n = nr < nd ? nr : nd;
    if (nr != nd)
        fprintf(stderr, "vqhip plan: warning: title '%s': %u reference and "
                "%u distorted frames: %u are scored, as a single run does\n",
                fl[0], nr, nd, n);
    if (!n) {
        snprintf(err, errsz, "title '%s': no frames", fl[0]);
        return CAT_EXIT_DATAERR;
    }
    unsigned a = 0;
    for (unsigned k = 0; k < n_cuts; k++)
        if (cuts[k] > a && cuts[k] < n) {
            put_item(out, index, fl[0], a, cuts[k], n, before, after, ref, dis,
                     fl[3], opts);
            a = cuts[k];
        }
    while (a < n) {
        unsigned b = n_cuts || !seg || n - a <= seg ? n : a + seg;
        put_item(out, index, fl[0], a, b, n, before, after, ref, dis, fl[3],
                 opts);
        a = b;
    }
    return 0;
}

static int parse_cuts(const char *s, unsigned *cuts, unsigned *n)
{
    char *end;
    *n = 0;
    while (*s) {
        if (*n == MAX_CUTS)
            return -1;
        unsigned long v = strtoul(s, &end, 10);
        if (end == s || (*end && *end != ',') ||
            (*n && v <= cuts[*n - 1]))
            return -1;
        cuts[(*n)++] = (unsigned)v;
        s = *end ? end + 1 : end;
    }
    return 0;
}

int catalog_plan_main(int argc, char **argv)
{
    static const struct option lo[] = {
        { "out", required_argument, NULL, 'o' },
        { "segment-frames", required_argument, NULL, 'F' },
        { "cuts", required_argument, NULL, 'C' },
        { "slurm", no_argument, NULL, 'S' },
        { "parallel", no_argument, NULL, 'P' },
        { "k8s", no_argument, NULL, 'K' },
        { "aws-batch", no_argument, NULL, 'A' },
        { "gpu", no_argument, NULL, 'G' },
        { "gres", required_argument, NULL, 'g' },
        { "throttle", required_argument, NULL, 't' },
        { "partition", required_argument, NULL, 'p' },
        { "time", required_argument, NULL, 'T' },
        { "image", required_argument, NULL, 'i' },
        { "claim", required_argument, NULL, 'c' },
        { "gpu-resource", required_argument, NULL, 'R' },
        { "parallelism", required_argument, NULL, 'j' },
        { "queue", required_argument, NULL, 'q' },
        { "vqhip", required_argument, NULL, 'V' },
        { NULL, 0, NULL, 0 },
    };
    CatEngines eng = { 0 };
    const char *dir = NULL;
    unsigned seg = 0, cuts[MAX_CUTS], n_cuts = 0;
    int c;
    while ((c = getopt_long(argc, argv, "o:", lo, NULL)) != -1) {
        char *end;
        switch (c) {
        case 'o': dir = optarg; break;
        case 'F':
            seg = (unsigned)strtoul(optarg, &end, 10);
            if (*end || !seg) {
                fprintf(stderr, "vqhip plan: --segment-frames: a count "
                        "above 0\n");
                return CAT_EXIT_USAGE;
            }
            break;
        case 'C':
            if (parse_cuts(optarg, cuts, &n_cuts)) {
                fprintf(stderr, "vqhip plan: --cuts: increasing frame "
                        "numbers, comma separated\n");
                return CAT_EXIT_USAGE;
            }
            break;
        case 'S': eng.slurm = 1; break;
        case 'P': eng.parallel = 1; break;
        case 'K': eng.k8s = 1; break;
        case 'A': eng.aws = 1; break;
        case 'G': eng.gpu = 1; break;
        case 'g': eng.gres = optarg; eng.gpu = 1; break;
        case 'p': eng.partition = optarg; break;
        case 'T': eng.time = optarg; break;
        case 'i': eng.image = optarg; break;
        case 'c': eng.claim = optarg; break;
        case 'R': eng.gpu_resource = optarg; eng.gpu = 1; break;
        case 'q': eng.queue = optarg; break;
        case 'V': eng.vqhip = optarg; break;
        case 't':
        case 'j': {
            unsigned long v = strtoul(optarg, &end, 10);
            if (*end || !v || v > 1000000 || strpbrk(optarg, "-+ ")) {
                fprintf(stderr, "vqhip plan: --%s: a count above 0\n",
                        c == 't' ? "throttle" : "parallelism");
                return CAT_EXIT_USAGE;
            }
            *(c == 't' ? &eng.throttle : &eng.parallelism) = (unsigned)v;
            break;
        }
        default: return CAT_EXIT_USAGE;
        }
    }
    if (optind + 1 != argc || !dir) {
        fprintf(stderr, "usage: vqhip plan MANIFEST --out DIR "
                "[--segment-frames F | --cuts A,B,...]\n"
                "  [--slurm [--gres G] [--throttle K] [--partition P] "
                "[--time T]] [--parallel]\n"
                "  [--k8s --image I --claim PVC [--parallelism P]] "
                "[--aws-batch --image I [--queue Q]]\n"
                "  [--gpu] [--gpu-resource R] [--vqhip PATH]\n");
        return CAT_EXIT_USAGE;
    }
    const char *manifest = argv[optind];
    char path[CAT_FIELD + 32], tmp[CAT_FIELD + 32], err[1024];
    snprintf(path, sizeof(path), "%s/parts", dir);
    if ((mkdir(dir, 0777) && errno != EEXIST) ||
        (mkdir(path, 0777) && errno != EEXIST)) {
        fprintf(stderr, "vqhip plan: cannot make '%s': %s\n", path,
                strerror(errno));
        return CAT_EXIT_DATAERR;
    }
    FILE *m = fopen(manifest, "r");
    if (!m) {
        fprintf(stderr, "vqhip plan: cannot read '%s': %s\n", manifest,
                strerror(errno));
        return CAT_EXIT_DATAERR;
    }
    snprintf(path, sizeof(path), "%s/items.tsv", dir);
    snprintf(tmp, sizeof(tmp), "%s/items.tsv.tmp", dir);
    FILE *out = fopen(tmp, "w");
    if (!out) {
        fclose(m);
        fprintf(stderr, "vqhip plan: cannot write '%s': %s\n", tmp,
                strerror(errno));
        return CAT_EXIT_DATAERR;
    }
    fprintf(out, "# vqhip plan 1: index\ttitle\tfirst\tend\tdecode_first\t"
            "decode_end\tframes\treference\tdistorted\tlog\toptions\n");
    char line[5 * CAT_FIELD];
    unsigned index = 0, lineno = 0;
    int st = 0;
    while (!st && fgets(line, sizeof(line), m)) {
        lineno++;
        if (line[0] == '#' || line[strspn(line, " \t\r\n")] == '\0')
            continue;
        char *fl[6];
        unsigned nf = cat_split(line, fl, 6);
        if (nf < 4 || nf > 5) {
            snprintf(err, sizeof(err), "line %u: title, reference, distorted, "
                     "log[, options] separated by tabs", lineno);
            st = CAT_EXIT_DATAERR;
            break;
        }
        st = plan_title(out, &index, fl, nf, manifest, seg, cuts, n_cuts, err,
                        sizeof(err));
    }
    fclose(m);
    if (fclose(out) && !st) {
        snprintf(err, sizeof(err), "cannot write '%.400s'", tmp);
        st = CAT_EXIT_DATAERR;
    }
    if (!st && rename(tmp, path)) {
        snprintf(err, sizeof(err), "cannot rename to '%.400s': %s", path,
                 strerror(errno));
        st = CAT_EXIT_DATAERR;
    }
    if (st) {
        remove(tmp);
        fprintf(stderr, "vqhip plan: %s: %s\n", manifest, err);
        return st;
    }
    if (cat_engines_write(dir, &eng, err, sizeof(err))) {
        fprintf(stderr, "vqhip plan: the engine files: %s\n", err);
        return CAT_EXIT_DATAERR;
    }
    printf("%u items in %s\n", index, path);
    return 0;
}
