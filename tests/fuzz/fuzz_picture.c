/*
 * libFuzzer target for picture submission: the bytes choose each
 * picture's format, depth, size (up to 80x80), strides (negative, too
 * small, odd, huge), missing planes and the backend (the CPU, or in a build
 * without a HIP platform the fake device, whose staging copies the planes).
 * Every plane lies in its own allocation of exactly the bytes its declared
 * geometry covers, so reading one byte outside it is an AddressSanitizer
 * error: libvqhip must refuse what it cannot read safely and read nothing
 * beyond a plane.
 *
 *   build-fuzz/tests/fuzz/fuzz_picture tests/fuzz/corpus_picture
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "vqhip.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct Cursor {
    const uint8_t *p;
    size_t n;
} Cursor;

static unsigned take(Cursor *c)
{
    if (!c->n)
        return 0;
    c->n--;
    return *c->p++;
}

/* A picture from the bytes; its planes are allocated in buf[]. */
static void make_picture(Cursor *c, VqPicture *pic, uint8_t *buf[3],
                         const VqPicture *like)
{
    static const unsigned depths[4] = { 8, 10, 12, 16 };
    memset(pic, 0, sizeof(*pic));
    unsigned sel = take(c);
    if (like && (sel & 0x80)) {
        *pic = *like; /* same geometry as the first (the usual case) */
    } else {
        pic->fmt = (VqPixFmt)(take(c) % 11);
        pic->bpc = depths[take(c) & 3];
        pic->w = take(c) % 81;
        pic->h = take(c) % 81;
    }
    int semi = pic->fmt >= VQ_PIX_FMT_NV12 && pic->fmt <= VQ_PIX_FMT_P410;
    unsigned bps = pic->bpc > 8 ? 2 : 1;
    unsigned sx = pic->fmt == VQ_PIX_FMT_420 || pic->fmt == VQ_PIX_FMT_422 ||
                  pic->fmt == VQ_PIX_FMT_NV12 || pic->fmt == VQ_PIX_FMT_NV16 ||
                  pic->fmt == VQ_PIX_FMT_P010 || pic->fmt == VQ_PIX_FMT_P210;
    unsigned sy = pic->fmt == VQ_PIX_FMT_420 || pic->fmt == VQ_PIX_FMT_NV12 ||
                  pic->fmt == VQ_PIX_FMT_P010;
    unsigned np = pic->fmt == VQ_PIX_FMT_GRAY ? 1 : semi ? 2 : 3;
    for (unsigned p = 0; p < 3; p++) {
        buf[p] = NULL;
        if (p >= np)
            continue;
        size_t pw = p ? (pic->w + sx) >> sx : pic->w;
        size_t ph = p ? (pic->h + sy) >> sy : pic->h;
        size_t row = pw * bps * (p && semi ? 2 : 1);
        unsigned s = take(c);
        ptrdiff_t stride = (ptrdiff_t)row + (s & 15);
        if (s & 0x10)
            stride = -stride;
        if (s & 0x20)
            stride = (ptrdiff_t)row - 1 - (s & 3);
        if ((s & 0x40) && row)
            stride = (ptrdiff_t)1 << 40; /* far beyond any buffer */
        /* the bytes the declared geometry covers, and not one more */
        size_t len = ph && stride > 0 && stride < (1 << 20)
                     ? (size_t)stride * (ph - 1) + row : 1;
        buf[p] = malloc(len ? len : 1);
        if (!buf[p])
            continue;
        for (size_t i = 0; i < len; i++)
            buf[p][i] = (uint8_t)take(c);
        if (!(s & 0x80) || !(sel & 1)) /* sometimes a missing plane */
            pic->data[p] = buf[p];
        pic->stride[p] = stride;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    Cursor c = { data, size };
    setenv("VQHIP_FAKE_GPU", "1", 0); /* only builds without a HIP platform */
    unsigned mode = take(&c);
    VqConfig cfg = vq_default_config();
    cfg.backend = mode & 1 ? VQ_BACKEND_HIP : VQ_BACKEND_CPU;
    cfg.n_threads = 1 + (mode >> 1 & 1);
    cfg.depth = 1 + (mode >> 2 & 3);
    cfg.verify = mode >> 4 & 3;
    cfg.log_level = VQ_LOG_LEVEL_ERROR;
    cfg.skip_unsupported = 1;
    VqContext *ctx = NULL;
    if (vq_open(&ctx, &cfg) || vq_use_feature(ctx, "psnr") ||
        vq_use_feature(ctx, "vif") || vq_use_feature(ctx, "adm") ||
        vq_use_feature(ctx, "motion")) {
        vq_close(&ctx);
        return 0;
    }
    VqPicture first;
    int have_first = 0;
    VqFrameScores fs;
    for (unsigned n = 0; n < 4 && c.n; n++) {
        VqPicture ref, dis;
        uint8_t *rb[3], *db[3];
        make_picture(&c, &ref, rb, have_first ? &first : NULL);
        make_picture(&c, &dis, db, &ref);
        if (!have_first) {
            first = ref;
            have_first = 1;
        }
        if (!vq_submit(ctx, &ref, &dis))
            while (!vq_receive(ctx, &fs))
                ;
        for (unsigned p = 0; p < 3; p++) {
            free(rb[p]);
            free(db[p]);
        }
    }
    if (!vq_flush(ctx))
        while (!vq_receive(ctx, &fs))
            ;
    vq_close(&ctx);
    return 0;
}
