/*
 * Runs features and models on a raw planar YUV pair (FFmpeg's layout: chroma
 * planes (w+1)>>1 wide, and (h+1)>>1 high for 4:2:0; two bytes per sample
 * above 8 bits) and writes vqhip's log, in libvmaf's layout.
 *
 *   yuv_run -r ref.yuv -d dis.yuv -w W -h H -p 420|422|444|400 -b BPC
 *           [-f feature]... [-m model]... [-B cpu|hip|auto] [-n frames]
 *           -o log.json
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vqhip.h"

#define MAX_SPECS 16

typedef struct Args {
    const char *ref, *dis, *out;
    unsigned w, h, bpc, frames;
    VqPixFmt fmt;
    const char *feature[MAX_SPECS], *model[MAX_SPECS];
    unsigned n_feature, n_model;
    VqBackend backend;
} Args;

static int usage(const char *why)
{
    fprintf(stderr, "yuv_run: %s\n"
            "usage: yuv_run -r REF -d DIS -w W -h H -p 420|422|444|400 -b BPC "
            "[-f FEATURE]... [-m MODEL]... [-B cpu|hip|auto] [-n FRAMES] "
            "-o LOG.json\n", why);
    return 2;
}

static int parse_args(Args *a, int argc, char **argv)
{
    memset(a, 0, sizeof(*a));
    a->fmt = VQ_PIX_FMT_420;
    a->bpc = 8;
    a->backend = VQ_BACKEND_CPU;
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        if (i + 1 >= argc || o[0] != '-' || !o[1] || o[2])
            return usage("bad arguments");
        const char *v = argv[++i];
        switch (o[1]) {
        case 'r': a->ref = v; break;
        case 'd': a->dis = v; break;
        case 'o': a->out = v; break;
        case 'w': a->w = (unsigned)strtoul(v, NULL, 10); break;
        case 'h': a->h = (unsigned)strtoul(v, NULL, 10); break;
        case 'b': a->bpc = (unsigned)strtoul(v, NULL, 10); break;
        case 'n': a->frames = (unsigned)strtoul(v, NULL, 10); break;
        case 'p':
            a->fmt = !strcmp(v, "420") ? VQ_PIX_FMT_420
                   : !strcmp(v, "422") ? VQ_PIX_FMT_422
                   : !strcmp(v, "444") ? VQ_PIX_FMT_444 : VQ_PIX_FMT_GRAY;
            break;
        case 'f':
            if (a->n_feature == MAX_SPECS)
                return usage("too many features");
            a->feature[a->n_feature++] = v;
            break;
        case 'm':
            if (a->n_model == MAX_SPECS)
                return usage("too many models");
            a->model[a->n_model++] = v;
            break;
        case 'B':
            a->backend = !strcmp(v, "hip") ? VQ_BACKEND_HIP
                       : !strcmp(v, "auto") ? VQ_BACKEND_AUTO : VQ_BACKEND_CPU;
            break;
        default:
            return usage("unknown option");
        }
    }
    if (!a->ref || !a->dis || !a->out || !a->w || !a->h)
        return usage("-r, -d, -o, -w and -h are required");
    return 0;
}

typedef struct RawFrame {
    unsigned char *buf;
    size_t size;
    VqPicture pic;
} RawFrame;

static int frame_alloc(RawFrame *f, const Args *a)
{
    unsigned n_planes = a->fmt == VQ_PIX_FMT_GRAY ? 1 : 3;
    unsigned ssx = a->fmt == VQ_PIX_FMT_420 || a->fmt == VQ_PIX_FMT_422;
    unsigned ssy = a->fmt == VQ_PIX_FMT_420;
    size_t bps = a->bpc > 8 ? 2 : 1, off[3], size = 0;
    memset(f, 0, sizeof(*f));
    for (unsigned p = 0; p < n_planes; p++) {
        unsigned pw = p ? (a->w + ssx) >> ssx : a->w;
        unsigned ph = p ? (a->h + ssy) >> ssy : a->h;
        off[p] = size;
        f->pic.stride[p] = (ptrdiff_t)(pw * bps);
        size += (size_t)pw * ph * bps;
    }
    f->buf = malloc(size);
    if (!f->buf)
        return -1;
    f->size = size;
    f->pic.fmt = a->fmt;
    f->pic.bpc = a->bpc;
    f->pic.w = a->w;
    f->pic.h = a->h;
    for (unsigned p = 0; p < n_planes; p++)
        f->pic.data[p] = f->buf + off[p];
    return 0;
}

static int run(VqContext *ctx, const Args *a, FILE *fr, FILE *fd)
{
    RawFrame r, d;
    int err = -1;
    if (frame_alloc(&r, a) || frame_alloc(&d, a))
        goto done;
    for (unsigned n = 0; !a->frames || n < a->frames; n++) {
        if (fread(r.buf, 1, r.size, fr) != r.size ||
            fread(d.buf, 1, d.size, fd) != d.size)
            break;
        if ((err = vq_submit(ctx, &r.pic, &d.pic)) < 0)
            goto done;
        VqFrameScores fs;
        while (vq_receive(ctx, &fs) == 0)
            ;
    }
    if ((err = vq_flush(ctx)) < 0)
        goto done;
    VqFrameScores fs;
    while (vq_receive(ctx, &fs) == 0)
        ;
    err = vq_write_log(ctx, a->out, VQ_LOG_JSON);
done:
    free(r.buf);
    free(d.buf);
    return err;
}

int main(int argc, char **argv)
{
    Args a;
    if (parse_args(&a, argc, argv))
        return 2;
    FILE *fr = fopen(a.ref, "rb"), *fd = fopen(a.dis, "rb");
    if (!fr || !fd) {
        fprintf(stderr, "yuv_run: cannot open %s\n", !fr ? a.ref : a.dis);
        return 1;
    }
    VqConfig cfg = vq_default_config();
    cfg.backend = a.backend;
    cfg.strict = a.backend == VQ_BACKEND_HIP;
    VqContext *ctx = NULL;
    int err = vq_open(&ctx, &cfg);
    for (unsigned i = 0; err >= 0 && i < a.n_feature; i++)
        err = vq_use_feature(ctx, a.feature[i]);
    for (unsigned i = 0; err >= 0 && i < a.n_model; i++)
        err = vq_use_model(ctx, a.model[i]);
    if (err >= 0)
        err = run(ctx, &a, fr, fd);
    if (err < 0)
        fprintf(stderr, "yuv_run: %s (%s)\n", vq_last_error(ctx),
                vq_strerror(err));
    vq_close(&ctx);
    fclose(fr);
    fclose(fd);
    return err < 0 ? 1 : 0;
}
