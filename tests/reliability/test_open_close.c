/*
 * Contexts opened, used and closed many times (default 10,000; argument 1
 * sets it): under LeakSanitizer (the sanitizer build) any leak fails the
 * test at exit; without it, the process's peak RSS must stay flat (the
 * last quarter of the iterations may not raise it by more than 4 MiB).
 * Several contexts live at once too.
 */
#include <stdlib.h>
#include <sys/resource.h>

#include "rel_common.h"

static long peak_rss_kib(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

static int one_run(unsigned i, RelFrame *f)
{
    VqConfig cfg = vq_default_config();
    cfg.backend = VQ_BACKEND_CPU;
    cfg.n_threads = 1 + i % 3;
    cfg.log_level = VQ_LOG_LEVEL_ERROR;
    VqContext *ctx = NULL;
    int err = vq_open(&ctx, &cfg);
    /* every 8th a model (parsed each time), else features */
    if (!err)
        err = i % 8 ? vq_use_feature(ctx, i % 2 ? "psnr" : "name=vif")
                    : vq_use_model(ctx, "version=vmaf_v0.6.1");
    for (unsigned k = 0; !err && k < 2; k++)
        err = vq_submit(ctx, &f->ref, &f->dis);
    if (!err && i % 5) /* some are closed without a flush */
        err = vq_flush(ctx);
    VqFrameScores fs;
    while (!err && vq_receive(ctx, &fs) == 0)
        ;
    if (err)
        printf("iteration %u: %s\n", i, vq_last_error(ctx));
    vq_close(&ctx);
    return err;
}

int main(int argc, char **argv)
{
    unsigned n = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 10000;
    RelFrame f;
    rel_frame(&f, VQ_PIX_FMT_420, 8, 48, 40, 1);
    long rss_q3 = 0;
    for (unsigned i = 0; i < n; i++) {
        CHECK(one_run(i, &f) == 0);
        if (i == n - n / 4)
            rss_q3 = peak_rss_kib();
        if (n_fail)
            break;
    }
    long rss_end = peak_rss_kib();
    printf("%u contexts opened and closed; peak RSS %ld KiB at 3/4, %ld KiB "
           "at the end\n", n, rss_q3, rss_end);
    CHECK(rss_end - rss_q3 < 4096);
    /* several at once, interleaved */
    VqContext *ctx[4];
    VqConfig cfg = vq_default_config();
    cfg.backend = VQ_BACKEND_CPU;
    for (unsigned k = 0; k < 4; k++) {
        CHECK(vq_open(&ctx[k], &cfg) == 0);
        CHECK(vq_use_feature(ctx[k], "psnr") == 0);
    }
    for (unsigned i = 0; i < 8; i++)
        for (unsigned k = 0; k < 4; k++)
            CHECK(vq_submit(ctx[k], &f.ref, &f.dis) == 0);
    for (unsigned k = 0; k < 4; k++) {
        VqFrameScores fs;
        unsigned got = 0;
        CHECK(vq_flush(ctx[k]) == 0);
        while (vq_receive(ctx[k], &fs) == 0)
            got++;
        CHECK(got == 8);
        vq_close(&ctx[k]);
    }
    free(f.buf);
    TEST_END();
}
