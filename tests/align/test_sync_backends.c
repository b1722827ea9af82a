/*
 * The offset search reduces the luma on the GPU where one opens
 * (api/sync.c): its result must be the CPU's bit for bit. Textured frames
 * moving from frame to frame, a size that leaves a rest of columns and rows
 * outside the blocks, 8-bit, 10-bit and P010, the distorted video k frames
 * ahead or behind: both backends find k (the truth by construction) and
 * every field of their results is equal; again with the frames copied to
 * device memory (rows padded with junk) and added as device pictures.
 * Exit 77 where no GPU opens.
 * The CPU run alone is a test on every build: it must find k.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/dev_picture.h"
#include "gpu/gpu.h"
#include "vqhip.h"

#define W 700 /* blocks of 4: 175 x 97, 0 columns and 2 rows left over */
#define H 390
#define RANGE 3
#define FRAMES 6
#define N (RANGE + FRAMES)

/* frame t of the source: a texture that drifts, plus noise */
static unsigned level(unsigned t, unsigned x, unsigned y)
{
    uint32_t h = (x * 73856093u) ^ (y * 19349663u) ^ (t * 83492791u);
    h ^= h >> 13;
    h *= 0x5bd1e995u;
    h ^= h >> 15;
    unsigned wave = ((x + 7 * t) / 9 + (y + 3 * t) / 11) % 2 ? 170 : 60;
    return (wave + (h & 63)) & 255;
}

/* noisy: the distorted video's coding noise, so that no offset matches
 * exactly */
static uint16_t chroma[W * H]; /* zeros: every picture's chroma */

static void fill(VqPicture *p, void *buf, unsigned t, int noisy, VqPixFmt fmt,
                 unsigned bpc)
{
    memset(p, 0, sizeof(*p));
    p->fmt = fmt;
    p->bpc = bpc;
    p->w = W;
    p->h = H;
    p->data[0] = buf;
    p->data[1] = chroma;
    p->stride[1] = fmt == VQ_PIX_FMT_P010 ? 2 * W : bpc > 8 ? W : W / 2;
    if (fmt != VQ_PIX_FMT_P010) {
        p->data[2] = chroma;
        p->stride[2] = p->stride[1];
    }
    if (bpc == 8) {
        uint8_t *s = buf;
        for (unsigned y = 0; y < H; y++)
            for (unsigned x = 0; x < W; x++)
                s[(size_t)y * W + x] = (uint8_t)(level(t, x, y) +
                                                 (noisy ? (x * y + t) % 5 : 0));
        p->stride[0] = W;
        return;
    }
    unsigned shift = fmt == VQ_PIX_FMT_P010 ? 8 : bpc - 8;
    uint16_t *s = buf;
    for (unsigned y = 0; y < H; y++)
        for (unsigned x = 0; x < W; x++)
            s[(size_t)y * W + x] = (uint16_t)(((level(t, x, y) +
                                                (noisy ? (x * y + t) % 5 : 0))
                                               << shift) | ((x + y + t) & 3));
    p->stride[0] = 2 * W;
}

/* The search on one backend; the distorted video has k extra frames
 * (k > 0) or lacks -k of the reference's first ones. */
static VqGpu *gpu; /* device mode: the copies' GPU */

/* pic into the search: as it is, or (gpu set) a device copy of it */
static int add(VqSync *s, int distorted, const VqPicture *pic)
{
    if (!gpu)
        return vq_sync_add(s, distorted, pic);
    VqTestDevPic d;
    int err = vq_test_dev_picture(gpu, pic, 256, 64, &d);
    if (!err)
        err = vq_gpu_sync(gpu, vq_gpu_upload_stream(gpu));
    if (!err)
        err = vq_sync_add_device(s, distorted, &d.dp);
    vq_test_dev_picture_free(gpu, &d);
    return err;
}

static int search(VqBackend backend, int k, VqPixFmt fmt, unsigned bpc,
                  void *buf, VqSyncResult *res, const char **where)
{
    VqSyncConfig cfg = { .range = RANGE, .frames = FRAMES, .backend = backend };
    VqSync *s = NULL;
    if (vq_sync_open(&s, &cfg))
        return -1;
    *where = vq_sync_backend(s);
    for (int i = 0; i < N; i++) {
        /* an input's extra first frames are other content (frames 1000+) */
        int r = k < 0 && i < -k ? 1000 + i : i + (k < 0 ? k : 0);
        int d = k > 0 && i < k ? 2000 + i : i - (k > 0 ? k : 0);
        VqPicture pic;
        fill(&pic, buf, (unsigned)r, 0, fmt, bpc);
        if (add(s, 0, &pic))
            goto fail;
        fill(&pic, buf, (unsigned)d, 1, fmt, bpc);
        if (add(s, 1, &pic))
            goto fail;
    }
    vq_sync_find(s, res);
    *where = res->backend;
    vq_sync_close(&s);
    return 0;
fail:
    fprintf(stderr, "vq_sync_add: %s\n", vq_sync_error(s));
    vq_sync_close(&s);
    return -1;
}

/* One format and offset: the CPU's search finds k; the GPU's (host or
 * device pictures) equals it field by field. 1 on a failure; *compared:
 * whether a GPU ran. */
static int one_case(VqPixFmt fmt, unsigned bpc, const char *name, int k,
                    void *buf, int *compared)
{
    VqSyncResult cpu, hip;
    const char *wc, *wh;
    VqGpu *dev = gpu;
    gpu = NULL; /* the CPU's run reads host pictures */
    int err = search(VQ_BACKEND_CPU, k, fmt, bpc, buf, &cpu, &wc);
    gpu = dev;
    if (err || search(VQ_BACKEND_HIP, k, fmt, bpc, buf, &hip, &wh))
        return 1;
    int cpu_bad = strcmp(wc, "cpu") || !cpu.found || cpu.offset != k;
    *compared = !strcmp(wh, "hip");
    if (!*compared) {
        printf("%s %-6s k=%+d: cpu offset %+d (found %d); no GPU\n",
               cpu_bad ? "FAIL" : "ok  ", name, k, cpu.offset, cpu.found);
        return cpu_bad;
    }
    int bad = cpu_bad ||
              hip.found != cpu.found || hip.offset != cpu.offset ||
              memcmp(&hip.confidence, &cpu.confidence, sizeof(double)) ||
              memcmp(&hip.best_mse, &cpu.best_mse, sizeof(double)) ||
              memcmp(&hip.second_mse, &cpu.second_mse, sizeof(double)) ||
              memcmp(&hip.motion, &cpu.motion, sizeof(double)) ||
              hip.compared != cpu.compared || hip.lo != cpu.lo ||
              hip.hi != cpu.hi || strcmp(hip.why, cpu.why);
    printf("%s %-6s k=%+d %s: cpu offset %+d (found %d) mse %.17g motion "
           "%.17g; gpu offset %+d (found %d) mse %.17g motion %.17g\n",
           bad ? "FAIL" : "ok  ", name, k, gpu ? "device" : "host  ",
           cpu.offset, cpu.found, cpu.best_mse, cpu.motion, hip.offset,
           hip.found, hip.best_mse, hip.motion);
    return bad;
}

int main(void)
{
    static const struct { VqPixFmt fmt; unsigned bpc; const char *name; } fmts[] = {
        { VQ_PIX_FMT_420, 8, "8-bit" },
        { VQ_PIX_FMT_420, 10, "10-bit" },
        { VQ_PIX_FMT_P010, 10, "P010" },
    };
    void *buf = malloc((size_t)W * H * 2);
    int failures = 0, cases = 0;
    if (!buf)
        return 1;
    for (int device = 0; device < 2; device++) {
        VqErrBuf e;
        if (device && (!cases || vq_gpu_open(&gpu, 0, 0, &e)))
            break; /* no GPU: the host run said so */
        for (unsigned f = 0; f < sizeof(fmts) / sizeof(fmts[0]); f++)
            for (int k = -2; k <= 2; k += 2) {
                int compared = 0;
                failures += one_case(fmts[f].fmt, fmts[f].bpc, fmts[f].name, k,
                                     buf, &compared);
                cases += compared;
            }
    }
    if (gpu)
        vq_gpu_close(&gpu);
    free(buf);
    printf("%d failures; %d cases compared with the GPU\n", failures, cases);
    if (failures)
        return 1;
    return cases ? 0 : 77; /* no GPU opened: only the CPU was checked */
}
