/* --offset and --sync: which frames of the two inputs are paired. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "tool_clock.h"
#include "cli_align.h"
#include "cli_args.h"
#ifdef VQHIP_HAVE_LIBAV
#include "av_input.h"
#endif

#define MAX_OFFSET 100000

int cli_align_option(CliAlign *a, const char *opt, const char *arg)
{
    if (!strcmp(opt, "offset")) {
        char *end;
        errno = 0;
        long v = strtol(arg, &end, 10);
        if (!*arg || *end || errno || v < -MAX_OFFSET || v > MAX_OFFSET) {
            fprintf(stderr, "vqhip: --offset: '%s' is not a number from %d "
                    "to %d\n", arg, -MAX_OFFSET, MAX_OFFSET);
            return -1;
        }
        a->offset = (int)v;
        a->offset_given = 1;
        return 0;
    }
    if (!strcmp(opt, "sync")) {
        if (!strcmp(arg, "off"))
            a->sync = CLI_SYNC_OFF;
        else if (!strcmp(arg, "auto"))
            a->sync = CLI_SYNC_AUTO;
        else if (!strcmp(arg, "only"))
            a->sync = CLI_SYNC_ONLY;
        else {
            fprintf(stderr, "vqhip: --sync: '%s' is not off, auto or only\n",
                    arg);
            return -1;
        }
        return 0;
    }
    if (!strcmp(opt, "sync_range"))
        return cli_parse_uint("--sync_range", arg, 1, 1000, &a->range);
    if (!strcmp(opt, "sync_frames"))
        return cli_parse_uint("--sync_frames", arg, 1, 1000, &a->frames);
    if (!strcmp(opt, "sync_bench"))
        return cli_parse_uint("--sync_bench", arg, 1, 1000, &a->bench);
    return cli_realign_option(&a->re, opt, arg);
}

/* Back to the first frame: a regular file seeks to pos (where its frames
 * began), a video file read through FFmpeg is opened again. */
static int go_back(YuvInput *in, off_t pos, const char *name)
{
    char err[512] = "";
    if (in->f) {
        clearerr(in->f);
        if (!fseeko(in->f, pos, SEEK_SET))
            return 0;
        snprintf(err, sizeof(err), "%s", strerror(errno));
    }
#ifdef VQHIP_HAVE_LIBAV
    else if (!av_input_rewind(in, err, sizeof(err)))
        return 0;
#endif
    fprintf(stderr, "vqhip: --sync: cannot go back to the %s's first "
            "frame: %s\n", name, err);
    return CLI_EXIT_INPUT;
}

/* Reads the first frames' luma into the search and goes back to the
 * first frame: the inputs must be regular files or video files read
 * through FFmpeg (which are regular files too). */
static int feed(VqSync *s, YuvInput *in, int distorted, unsigned need,
                const char *name)
{
    struct stat st;
    off_t pos = 0;
    if (in->f) {
        pos = ftello(in->f);
        if (in->f == stdin || pos < 0 || fstat(fileno(in->f), &st) ||
            !S_ISREG(st.st_mode) || in->n_prefix) {
            fprintf(stderr, "vqhip: --sync: the %s is not a regular file: "
                    "the search reads its first frames and starts again "
                    "(give --offset instead)\n", name);
            return CLI_EXIT_USAGE;
        }
    }
    unsigned skip = in->skip;
    in->skip = in->fmt == VQ_PIX_FMT_GRAY ? 0 : 6; /* luma only */
    char err[256] = "";
    int r = 1;
    for (unsigned i = 0; i < need && r > 0; i++) {
        VqPicture pic;
        r = yuv_read(in, &pic, err, sizeof(err));
        if (r > 0 && vq_sync_add(s, distorted, &pic)) {
            fprintf(stderr, "vqhip: --sync: %s\n", vq_sync_error(s));
            r = -2;
        }
    }
    in->skip = skip;
    if (r == -1)
        fprintf(stderr, "vqhip: --sync: the %s: %s\n", name, err);
    if (r < 0)
        return CLI_EXIT_INPUT;
    return go_back(in, pos, name);
}

/* The search, said on stderr; *offset is the one to apply (0 when none
 * was picked). */
static int search(CliAlign *a, YuvInput *ref, YuvInput *dis,
                  FILE *out, int *offset)
{
    VqSyncConfig cfg = { .range = a->range, .frames = a->frames,
                         .backend = a->backend, .device = a->device };
    VqSyncResult res;
    VqSync *s = NULL;
    memset(&res, 0, sizeof(res));
    int st = 0;
    double t0 = tool_now(), t_open = 0;
    unsigned runs = a->bench ? a->bench : 1, added = 0;
    const char *where = "cpu";
    for (unsigned run = 0; !st && run < runs; run++) {
        vq_sync_close(&s);
        double t1 = tool_now();
        if (vq_sync_open(&s, &cfg)) {
            fprintf(stderr, "vqhip: --sync: out of memory\n");
            return CLI_EXIT_ERROR;
        }
        t_open += tool_now() - t1;
        where = vq_sync_backend(s);
        if (run == 0 && a->backend == VQ_BACKEND_HIP && !strcmp(where, "cpu"))
            fprintf(stderr, "vqhip: --sync: %s\n", vq_sync_error(s));
        unsigned need = vq_sync_needed(s);
        st = feed(s, ref, 0, need, "reference");
        if (!st)
            st = feed(s, dis, 1, need, "distorted video");
        if (!st)
            vq_sync_find(s, &res);
        added += need;
    }
    double t = tool_now() - t0 - t_open;
    vq_sync_close(&s);
    if (st)
        return st;
    if (a->bench)
        fprintf(stderr, "vqhip: --sync_bench: %u searches of up to %u frames "
                "of each input in %.3f s: %.1f frames/s (both inputs' frames "
                "read and reduced on the %s, offsets compared; opening each "
                "search %.3f s more)\n", runs, added / runs, t,
                t > 0 ? 2.0 * added / t : 0.0,
                strcmp(where, "hip") ? "CPU" : "GPU", t_open / runs);
    if (res.found)
        fprintf(stderr, "vqhip: sync: offset %+d (%s), confidence %.3f: "
                "mean squared luma difference %.3f, next best %.3f; offsets "
                "%d..%d over %u frames\n", res.offset,
                res.offset > 0 ? "the distorted video's first frames skipped" :
                res.offset < 0 ? "the reference's first frames skipped" :
                "the inputs are aligned", res.confidence, res.best_mse,
                res.second_mse, res.lo, res.hi, res.compared);
    else
        fprintf(stderr, "vqhip: sync: no offset picked: %s; scoring the "
                "inputs as given\n", res.why);
    if (a->sync == CLI_SYNC_ONLY)
        fprintf(out, "offset=%d confidence=%.6f found=%d\n",
                res.found ? res.offset : 0, res.confidence, res.found);
    *offset = res.found ? res.offset : 0;
    a->res = res;
    a->searched = 1;
    return 0;
}

static int skip_frames(YuvInput *in, unsigned n, const char *name)
{
    char err[256] = "";
    for (unsigned i = 0; i < n; i++) {
        VqPicture pic;
        int r = yuv_read(in, &pic, err, sizeof(err));
        if (r < 0) {
            fprintf(stderr, "vqhip: skipping the %s's first %u frames: "
                    "frame %u: %s\n", name, n, i, err);
            return CLI_EXIT_INPUT;
        }
        if (!r)
            break; /* shorter than the offset: no pair, said later */
    }
    return 0;
}

int cli_align_inputs(CliAlign *a, YuvInput *ref, YuvInput *dis,
                     FILE *out)
{
    int offset = a->offset;
    if (a->sync != CLI_SYNC_OFF) {
        int st = search(a, ref, dis, out, &offset);
        if (st)
            return st;
        if (a->sync == CLI_SYNC_ONLY)
            return 1;
    }
    if (offset > 0)
        return skip_frames(dis, (unsigned)offset, "distorted video");
    if (offset < 0)
        return skip_frames(ref, (unsigned)-offset, "reference");
    return 0;
}
