/*
 * libFuzzer target for the CLI's Y4M (and raw) reader: any bytes as a file.
 * Every frame read is handed to a CPU context, so sizes and formats that
 * the header claims meet libvqhip's picture checks too.
 *
 *   build-fuzz/tests/fuzz/fuzz_y4m tests/fuzz/corpus_y4m -max_len=8192
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vqhip.h"
#include "yuv_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!size)
        return 0;
    /* fmemopen needs a writable buffer */
    char *copy = malloc(size);
    if (!copy)
        return 0;
    memcpy(copy, data, size);
    FILE *f = fmemopen(copy, size, "rb");
    if (!f) {
        free(copy);
        return 0;
    }
    /* Raw input (no YUV4MPEG2 header) as a tiny 420 clip. */
    YuvInput in;
    char err[256];
    if (yuv_open_stream(&in, f, "fuzz.y4m", VQ_PIX_FMT_420, 8, 8, 8, err,
                        sizeof(err))) {
        yuv_close(&in);
        free(copy);
        return 0;
    }
    VqConfig cfg = vq_default_config();
    cfg.backend = VQ_BACKEND_CPU;
    cfg.n_threads = 1;
    cfg.log_level = VQ_LOG_LEVEL_ERROR;
    cfg.skip_unsupported = 1;
    VqContext *ctx = NULL;
    if (!vq_open(&ctx, &cfg) && !vq_use_feature(ctx, "psnr") &&
        !vq_use_feature(ctx, "motion")) {
        VqPicture pic;
        VqFrameScores fs;
        for (int n = 0; n < 16 && yuv_read(&in, &pic, err, sizeof(err)) == 1;
             n++) {
            if (vq_submit(ctx, &pic, &pic))
                continue;
            while (!vq_receive(ctx, &fs))
                ;
        }
        if (!vq_flush(ctx))
            while (!vq_receive(ctx, &fs))
                ;
    }
    vq_close(&ctx);
    yuv_close(&in);
    free(copy);
    return 0;
}
