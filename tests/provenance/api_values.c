/*
 * The values a run gives through the library API (vq_receive per frame,
 * vq_pooled per output), printed exactly (C99 hex floats), for
 * provenance_test.py to compare with the CLI's --precision 17 log.
 *   api_values REF.yuv DIS.yuv W H FRAMES  (8-bit 4:2:0, CPU backend,
 *   model vmaf_v0.6.1 and feature psnr, as the test runs the CLI)
 * Prints "frame N NAME HEX" and "pooled NAME POOL HEX" lines.
 */
#include <stdio.h>
#include <stdlib.h>

#include "vqhip.h"

static int fail(VqContext *ctx, const char *what, int err)
{
    fprintf(stderr, "api_values: %s: %s (%s)\n", what,
            ctx ? vq_last_error(ctx) : "", vq_strerror(err));
    return 1;
}

static int drain(VqContext *ctx)
{
    VqFrameScores fs;
    int r;
    while ((r = vq_receive(ctx, &fs)) == 0)
        for (unsigned i = 0; i < fs.n; i++)
            printf("frame %u %s %a\n", fs.index, fs.scores[i].name,
                   fs.scores[i].value);
    return r == VQ_EAGAIN || r == VQ_EOF ? 0 : r;
}

int main(int argc, char **argv)
{
    if (argc != 6) {
        fprintf(stderr, "usage: api_values REF DIS W H FRAMES\n");
        return 2;
    }
    unsigned w = (unsigned)atoi(argv[3]), h = (unsigned)atoi(argv[4]);
    unsigned n = (unsigned)atoi(argv[5]);
    size_t ysize = (size_t)w * h, csize = ysize / 4, fsize = ysize + 2 * csize;
    unsigned char *buf[2] = { malloc(fsize), malloc(fsize) };
    FILE *in[2] = { fopen(argv[1], "rb"), fopen(argv[2], "rb") };
    if (!buf[0] || !buf[1] || !in[0] || !in[1]) {
        fprintf(stderr, "api_values: cannot read the inputs\n");
        return 1;
    }
    VqConfig cfg = vq_default_config();
    cfg.backend = VQ_BACKEND_CPU;
    VqContext *ctx = NULL;
    int r = vq_open(&ctx, &cfg);
    if (r)
        return fail(ctx, "vq_open", r);
    if ((r = vq_use_model(ctx, "version=vmaf_v0.6.1")) ||
        (r = vq_use_feature(ctx, "name=psnr")))
        return fail(ctx, "select", r);
    VqPicture pic[2];
    for (unsigned k = 0; k < 2; k++)
        pic[k] = (VqPicture){ .fmt = VQ_PIX_FMT_420, .bpc = 8, .w = w, .h = h,
                              .data = { buf[k], buf[k] + ysize,
                                        buf[k] + ysize + csize },
                              .stride = { w, w / 2, w / 2 } };
    for (unsigned i = 0; i < n; i++) {
        if (fread(buf[0], 1, fsize, in[0]) != fsize ||
            fread(buf[1], 1, fsize, in[1]) != fsize) {
            fprintf(stderr, "api_values: short input at frame %u\n", i);
            return 1;
        }
        if ((r = vq_submit(ctx, &pic[0], &pic[1])) || (r = drain(ctx)))
            return fail(ctx, "vq_submit", r);
    }
    if ((r = vq_flush(ctx)) || (r = drain(ctx)))
        return fail(ctx, "vq_flush", r);
    static const char *const pools[] = { "mean", "min", "max", "harmonic_mean" };
    for (unsigned i = 0; i < vq_output_count(ctx); i++)
        for (unsigned p = 0; p < 4; p++) {
            double v;
            if (!vq_pooled(ctx, vq_output_name(ctx, i), (VqPool)p, &v))
                printf("pooled %s %s %a\n", vq_output_name(ctx, i), pools[p], v);
        }
    vq_close(&ctx);
    fclose(in[0]);
    fclose(in[1]);
    free(buf[0]);
    free(buf[1]);
    return 0;
}
