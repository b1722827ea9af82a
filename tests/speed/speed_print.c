/*
 * speed_print: per-frame values of vqhip's outputs at full precision (%.17g)
 * for raw YUV (FFmpeg's layout) or Y4M files, in the layout of
 * tools that print libvmaf's values the same way: one line
 * per frame, tab separated, a header line with the output names.
 *
 * usage: speed_print REF DIS W H 420|422|444|400 BPC [--backend cpu|hip]
 *                    SPEC...
 * Used by tests/speed/speed_expect.sh to line vqhip up with libvmaf.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vqhip.h"
#include "yuv_input.h"

#define MAX_OUT 64
#define MAX_FRAMES 4096

int main(int argc, char **argv)
{
    if (argc < 8) {
        fprintf(stderr, "usage: speed_print REF DIS W H 420|422|444|400 BPC "
                        "[--backend cpu|hip] SPEC...\n");
        return 2;
    }
    VqPixFmt fmt;
    if (yuv_parse_pix_fmt(argv[5], &fmt)) {
        fprintf(stderr, "bad pixel format %s\n", argv[5]);
        return 2;
    }
    unsigned w = (unsigned)atoi(argv[3]), h = (unsigned)atoi(argv[4]);
    unsigned bpc = (unsigned)atoi(argv[6]);
    VqConfig cfg = vq_default_config();
    cfg.backend = VQ_BACKEND_CPU;
    int a = 7;
    if (a + 1 < argc && !strcmp(argv[a], "--backend")) {
        cfg.backend = !strcmp(argv[a + 1], "hip") ? VQ_BACKEND_HIP
                                                  : VQ_BACKEND_CPU;
        cfg.strict = cfg.backend == VQ_BACKEND_HIP;
        a += 2;
    }
    VqContext *ctx = NULL;
    if (vq_open(&ctx, &cfg)) {
        fprintf(stderr, "%s\n", vq_last_error(ctx));
        return 1;
    }
    for (; a < argc; a++)
        if (vq_use_feature(ctx, argv[a])) {
            fprintf(stderr, "%s\n", vq_last_error(ctx));
            vq_close(&ctx);
            return 1;
        }
    YuvInput ir, id;
    char err[256];
    if (yuv_open(&ir, argv[1], fmt, bpc, w, h, err, sizeof(err)) ||
        yuv_open(&id, argv[2], fmt, bpc, w, h, err, sizeof(err))) {
        fprintf(stderr, "%s\n", err);
        vq_close(&ctx);
        return 1;
    }
    static double val[MAX_FRAMES][MAX_OUT];
    unsigned n = 0;
    int rc = 0;
    VqPicture pr, pd;
    while (!rc && n < MAX_FRAMES && yuv_read(&ir, &pr, err, sizeof(err)) == 1 &&
           yuv_read(&id, &pd, err, sizeof(err)) == 1) {
        rc = vq_submit(ctx, &pr, &pd);
        n++;
    }
    if (!rc)
        rc = vq_flush(ctx);
    VqFrameScores fs;
    while (!rc && !(rc = vq_receive(ctx, &fs)))
        for (unsigned k = 0; k < fs.n && fs.index < MAX_FRAMES; k++)
            for (unsigned o = 0; o < vq_output_count(ctx) && o < MAX_OUT; o++)
                if (!strcmp(vq_output_name(ctx, o), fs.scores[k].name))
                    val[fs.index][o] = fs.scores[k].value;
    if (rc != VQ_EOF) {
        fprintf(stderr, "%s\n", vq_last_error(ctx));
        return 1;
    }
    unsigned no = vq_output_count(ctx) < MAX_OUT ? vq_output_count(ctx) : MAX_OUT;
    printf("frame");
    for (unsigned o = 0; o < no; o++)
        printf("\t%s", vq_output_name(ctx, o));
    printf("\n");
    for (unsigned f = 0; f < n; f++) {
        printf("%u", f);
        for (unsigned o = 0; o < no; o++)
            printf("\t%.17g", val[f][o]);
        printf("\n");
    }
    yuv_close(&ir);
    yuv_close(&id);
    vq_close(&ctx);
    return 0;
}
