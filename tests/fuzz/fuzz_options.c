/*
 * libFuzzer target for feature specs and their option values: any text as
 * vq_use_feature()'s argument (the CLI's --feature, the filter's feature=
 * entries). A spec that is accepted is also started on a small picture and
 * scored, so whatever option values the parser lets through reach the
 * extractors' init and their CPU code.
 *
 *   build-fuzz/tests/fuzz/fuzz_options tests/fuzz/corpus_options
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"
#include "vqhip.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    VqSpec spec;
    VqErrBuf e;
    if (!vq_spec_parse(&spec, text, &e))
        vq_spec_free(&spec);
    VqConfig cfg = vq_default_config();
    cfg.backend = VQ_BACKEND_CPU;
    cfg.n_threads = 1;
    cfg.log_level = VQ_LOG_LEVEL_ERROR;
    cfg.skip_unsupported = size & 1;
    VqContext *ctx = NULL;
    if (!vq_open(&ctx, &cfg) && !vq_use_feature(ctx, text)) {
        static uint8_t pix[64 * 48 * 3 / 2];
        for (size_t i = 0; i < sizeof(pix); i++)
            pix[i] = (uint8_t)(i * 7 + size);
        VqPicture p = { .fmt = VQ_PIX_FMT_420, .bpc = 8, .w = 64, .h = 48,
                        .data = { pix, pix + 64 * 48, pix + 64 * 48 + 32 * 24 },
                        .stride = { 64, 32, 32 } };
        VqFrameScores fs;
        for (int k = 0; k < 3 && !vq_submit(ctx, &p, &p); k++)
            while (!vq_receive(ctx, &fs))
                ;
        if (!vq_flush(ctx))
            while (!vq_receive(ctx, &fs))
                ;
    }
    vq_close(&ctx);
    free(text);
    return 0;
}
