/*
 * vqhip_bench: frames per second per extractor, for the whole set, and for
 * the default VMAF model, at 576x324, 1080p and 4K, on each backend.
 * Frames are synthetic 4:2:0 pairs held in host memory (a ring of eight),
 * so the GPU numbers include the upload of every frame; 8-bit unless
 * --bpc says otherwise.
 *
 * usage: vqhip_bench [--backend cpu|hip|all] [--size WxH]... [--feature SPEC]...
 *                    [--model SPEC]... [--seconds S] [--max-frames N]
 *                    [--threads N] [--depth N] [--input host|pinned|device|lent]
 *                    [--streams N] [--verify N] [--bpc N]
 *
 * --model: benchmark these models (each one item) instead of the default
 * items (each extractor, all of them, vmaf_v0.6.1, vmaf_v1.0.16_3d0h).
 * --input: where the frames are: ordinary host memory (vq_submit copies
 * them into its pinned staging), pinned buffers from vq_host_alloc
 * (uploaded by DMA without that copy), device memory (vq_submit_device:
 * copied device to device), or device memory lent to the kernels
 * (vq_submit_device_retained: read in place). Device frames are laid out
 * as FFmpeg's CUDA frames (pitches a multiple of VQ_DEVICE_ALIGN).
 * --streams N: N contexts scoring at once, each on its own thread (one GPU
 * shared by N live streams); the fps printed is their sum, and the slowest
 * stream's fps follows it.
 * --verify N: every N-th GPU frame also computed on the CPU and compared
 * (VqConfig.verify), to measure what the self-check costs.
 * --bpc N: N-bit samples (8 to 16; above 8 in 16-bit words), the 8-bit
 * pictures scaled up with low bits that vary per sample, so that the
 * high-depth paths (16-bit tiles, wider sums) are what runs.
 * --depth 1 also makes every frame wait for its scores before the next one
 * is submitted (vq_receive_wait, as the filter with depth=1): the fps of a
 * live monitor, on either backend.
 */
#include <pthread.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gpu/gpu.h"
#include "vqhip.h"

#define RING 8
#define MAX_STREAMS 64

enum { INPUT_HOST, INPUT_PINNED, INPUT_DEVICE, INPUT_LENT };
#define MAX_ITEMS 64

typedef struct Frames {
    unsigned w, h;
    uint8_t *buf[RING][2];
    VqPicture pic[RING][2];
} Frames;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static unsigned opt_bpc = 8;

/* Bytes of one sample, and of one 4:2:0 frame of w x h at the bench's depth. */
static size_t sample_bytes(void)
{
    return opt_bpc > 8 ? 2 : 1;
}

static size_t frame_bytes(unsigned w, unsigned h)
{
    size_t cw = (w + 1) / 2, ch = (h + 1) / 2;
    return ((size_t)w * h + 2 * cw * ch) * sample_bytes();
}

/* Sample i of a plane at the bench's depth: an 8-bit value v scaled up,
 * with low bits from a hash of (i, salt). */
static void put_sample(uint8_t *plane, size_t i, int v, unsigned salt)
{
    if (opt_bpc == 8) {
        plane[i] = (uint8_t)v;
        return;
    }
    unsigned low = opt_bpc - 8;
    uint32_t hash = (uint32_t)i * 2654435761u + salt * 40503u;
    ((uint16_t *)plane)[i] =
        (uint16_t)(((unsigned)v << low) | ((hash >> 16) & ((1u << low) - 1)));
}

/* Reference: drifting sine texture; distorted: the reference with a
 * deterministic, content-dependent error (quantisation plus noise). */
static int make_frames(Frames *fr, unsigned w, unsigned h)
{
    memset(fr, 0, sizeof(*fr));
    fr->w = w;
    fr->h = h;
    const size_t bps = sample_bytes(), size = frame_bytes(w, h);
    size_t cw = (w + 1) / 2, ch = (h + 1) / 2, n = size / bps;
    uint32_t noise = 12345;
    for (unsigned f = 0; f < RING; f++) {
        for (unsigned k = 0; k < 2; k++) {
            uint8_t *b = malloc(size);
            if (!b)
                return -1;
            fr->buf[f][k] = b;
            for (unsigned y = 0; y < h; y++)
                for (unsigned x = 0; x < w; x++) {
                    double v = 128 + 60 * sin((x + 3.0 * f) / 17.0) *
                               cos((y - 2.0 * f) / 23.0) +
                               40 * sin((x + y) / 7.0 + f);
                    int s = (int)v;
                    if (k) {
                        noise = noise * 1664525u + 1013904223u;
                        s = (s & ~7) + (int)(noise >> 29) - 4;
                    }
                    put_sample(b, (size_t)y * w + x,
                               s < 0 ? 0 : s > 255 ? 255 : s, 2 * f + k);
                }
            for (size_t i = (size_t)w * h; i < n; i++)
                put_sample(b, i, (int)(128 + ((i * 7 + f * 3 + k) % 32)),
                           2 * f + k);
            VqPicture *p = &fr->pic[f][k];
            p->fmt = VQ_PIX_FMT_420;
            p->bpc = opt_bpc;
            p->w = w;
            p->h = h;
            p->data[0] = b;
            p->data[1] = b + (size_t)w * h * bps;
            p->data[2] = b + ((size_t)w * h + cw * ch) * bps;
            p->stride[0] = (ptrdiff_t)(w * bps);
            p->stride[1] = p->stride[2] = (ptrdiff_t)(cw * bps);
        }
    }
    return 0;
}

static void free_frames(Frames *fr)
{
    for (unsigned f = 0; f < RING; f++)
        for (unsigned k = 0; k < 2; k++)
            free(fr->buf[f][k]);
}

typedef struct Item {
    char label[64];
    const char *features[MAX_ITEMS];
    unsigned n_features;
    const char *model;
} Item;

static unsigned opt_threads, opt_depth, opt_input, opt_streams = 1, opt_verify;

/* The frames as a context gets them: the shared host ring, or a copy of it
 * in pinned or device memory. */
typedef struct Input {
    VqPicture pic[RING][2];
    VqDevicePicture dev[RING][2];
    void *mem[RING][2];
    VqGpu *gpu;
} Input;

static void rebase(VqPicture *dst, const VqPicture *src, const uint8_t *from,
                   uint8_t *to)
{
    *dst = *src;
    for (unsigned c = 0; c < 3; c++)
        dst->data[c] = to + ((const uint8_t *)src->data[c] - from);
}

/* A device copy of a host picture laid out as FFmpeg's CUDA frames are:
 * one allocation, each plane's pitch and offset a multiple of
 * VQ_DEVICE_ALIGN. */
static int device_copy(Input *in, void **mem, const VqPicture *src,
                       VqPicture *dst)
{
    size_t pitch[3], off[3], total = 0;
    unsigned rows[3] = { src->h, (src->h + 1) / 2, (src->h + 1) / 2 };
    for (unsigned c = 0; c < 3; c++) {
        pitch[c] = ((size_t)src->stride[c] + VQ_DEVICE_ALIGN - 1) /
                   VQ_DEVICE_ALIGN * VQ_DEVICE_ALIGN;
        off[c] = total;
        total += pitch[c] * rows[c];
    }
    if (vq_gpu_malloc(in->gpu, mem, total, "frame"))
        return -1;
    *dst = *src;
    for (unsigned c = 0; c < 3; c++) {
        uint8_t *d = (uint8_t *)*mem + off[c];
        if (vq_gpu_upload2d(in->gpu, vq_gpu_upload_stream(in->gpu), d,
                            pitch[c], src->data[c], (size_t)src->stride[c],
                            (size_t)src->stride[c], rows[c]))
            return -1;
        dst->data[c] = d;
        dst->stride[c] = (ptrdiff_t)pitch[c];
    }
    return vq_gpu_sync(in->gpu, vq_gpu_upload_stream(in->gpu));
}

static int input_open(Input *in, VqContext *ctx, const Frames *fr)
{
    memset(in, 0, sizeof(*in));
    size_t size = frame_bytes(fr->w, fr->h);
    VqErrBuf err;
    const int device = opt_input == INPUT_DEVICE || opt_input == INPUT_LENT;
    if (device && vq_gpu_open(&in->gpu, 0, 0, &err)) {
        fprintf(stderr, "vqhip_bench: %s\n", err.msg);
        return -1;
    }
    for (unsigned f = 0; f < RING; f++)
        for (unsigned k = 0; k < 2; k++) {
            const VqPicture *src = &fr->pic[f][k];
            if (opt_input == INPUT_HOST) {
                in->pic[f][k] = *src;
                continue;
            }
            if (device) {
                if (device_copy(in, &in->mem[f][k], src, &in->pic[f][k]))
                    return -1;
                in->dev[f][k].pic = in->pic[f][k];
                continue;
            }
            in->mem[f][k] = vq_host_alloc(ctx, size);
            if (!in->mem[f][k])
                return -1;
            memcpy(in->mem[f][k], fr->buf[f][k], size);
            rebase(&in->pic[f][k], src, fr->buf[f][k], in->mem[f][k]);
        }
    return 0;
}

static void input_close(Input *in, VqContext *ctx)
{
    for (unsigned f = 0; f < RING; f++)
        for (unsigned k = 0; k < 2; k++) {
            if (opt_input == INPUT_PINNED)
                vq_host_free(ctx, in->mem[f][k]);
            else if (opt_input != INPUT_HOST)
                vq_gpu_free(in->gpu, in->mem[f][k]);
        }
    vq_gpu_close(&in->gpu);
}

/* Lent frames come back here; the ring's frames are never rewritten. */
static void lent_back(void *opaque)
{
    (void)opaque;
}

static int submit(VqContext *ctx, const Input *in, unsigned k)
{
    if (opt_input == INPUT_LENT)
        return vq_submit_device_retained(ctx, &in->dev[k][0], &in->dev[k][1],
                                         lent_back, NULL);
    if (opt_input == INPUT_DEVICE)
        return vq_submit_device(ctx, &in->dev[k][0], &in->dev[k][1]);
    return vq_submit(ctx, &in->pic[k][0], &in->pic[k][1]);
}

/* Returns fps, or a negative error. */
static double bench(const Item *it, VqBackend backend, const Frames *fr,
                    double seconds, unsigned max_frames, char *backend_used)
{
    VqConfig cfg = vq_default_config();
    cfg.backend = backend;
    cfg.strict = backend == VQ_BACKEND_HIP;
    cfg.log_level = VQ_LOG_LEVEL_ERROR;
    cfg.n_threads = opt_threads;
    if (opt_depth)
        cfg.depth = opt_depth;
    cfg.verify = opt_verify;
    VqContext *ctx = NULL;
    int e = vq_open(&ctx, &cfg);
    for (unsigned i = 0; !e && i < it->n_features; i++)
        e = vq_use_feature(ctx, it->features[i]);
    if (!e && it->model)
        e = vq_use_model(ctx, it->model);
    Input in;
    if (!e && input_open(&in, ctx, fr))
        e = VQ_ENOMEM;
    unsigned n = 0, received = 0;
    VqFrameScores fs;
    double t0 = now(), t = t0;
    /* One untimed frame first: first-use allocations and JIT are not fps. */
    if (!e)
        e = submit(ctx, &in, 0);
    while (!e && !vq_receive(ctx, &fs))
        received++;
    t0 = now();
    /* --depth 1: as the filter with depth=1, every frame's work is waited
     * for before the next frame is submitted (the live-monitoring case,
     * on the CPU too) */
    int (*receive)(VqContext *, VqFrameScores *) =
        opt_depth == 1 ? vq_receive_wait : vq_receive;
    while (!e && n < max_frames && (t - t0 < seconds || n < 2 * RING)) {
        unsigned k = (n + 1) % RING;
        e = submit(ctx, &in, k);
        while (!e && !receive(ctx, &fs))
            received++;
        n++;
        if (!(n % 4))
            t = now();
    }
    if (!e)
        e = vq_flush(ctx);
    int r;
    while (!e && !(r = vq_receive(ctx, &fs)))
        received++;
    t = now();
    snprintf(backend_used, 16, "%s", e ? "-" : vq_backend_name(ctx));
    if (e)
        fprintf(stderr, "vqhip_bench: %s: %s\n", it->label, vq_last_error(ctx));
    input_close(&in, ctx);
    vq_close(&ctx);
    if (e)
        return e;
    return n / (t - t0);
}

typedef struct StreamJob {
    const Item *it;
    VqBackend backend;
    const Frames *fr;
    double seconds;
    unsigned max_frames;
    char used[16];
    double fps;
} StreamJob;

static void *stream_main(void *arg)
{
    StreamJob *j = arg;
    j->fps = bench(j->it, j->backend, j->fr, j->seconds, j->max_frames,
                   j->used);
    return NULL;
}

/* opt_streams contexts at once; returns the sum of their fps, *slowest the
 * smallest. */
static double bench_streams(const Item *it, VqBackend backend,
                            const Frames *fr, double seconds,
                            unsigned max_frames, char *used, double *slowest)
{
    static StreamJob job[MAX_STREAMS];
    pthread_t th[MAX_STREAMS];
    unsigned n = opt_streams;
    for (unsigned i = 0; i < n; i++) {
        job[i] = (StreamJob){ it, backend, fr, seconds, max_frames, "", 0 };
        if (pthread_create(&th[i], NULL, stream_main, &job[i]))
            return -1;
    }
    double sum = 0;
    *slowest = INFINITY;
    for (unsigned i = 0; i < n; i++) {
        pthread_join(th[i], NULL);
        if (job[i].fps < 0)
            sum = -1;
        if (sum >= 0)
            sum += job[i].fps;
        if (job[i].fps < *slowest)
            *slowest = job[i].fps;
    }
    snprintf(used, 16, "%s", job[0].used);
    return sum;
}

/* A decimal integer from lo to hi into *out; -1 (and *out unchanged) if s
 * is not one. */
static int parse_in_range(const char *s, long lo, long hi, unsigned *out)
{
    char *end;
    long n = strtol(s, &end, 10);
    if (!*s || *end || n < lo || n > hi)
        return -1;
    *out = (unsigned)n;
    return 0;
}

int main(int argc, char **argv)
{
    unsigned sizes[8][2] = { { 576, 324 }, { 1920, 1080 }, { 3840, 2160 } };
    unsigned n_sizes = 3, user_sizes = 0, max_frames = 2000;
    double seconds = 2.0;
    const char *backend_arg = "all";
    Item items[MAX_ITEMS];
    unsigned n_items = 0;
    const char *user_features[MAX_ITEMS];
    unsigned n_user = 0;
    const char *user_models[8];
    unsigned n_models = 0;
    /* the integer options, each range-checked */
    const struct {
        const char *name, *what;
        long lo, hi;
        unsigned *out;
    } ints[] = {
        { "--max-frames", "frames per run", 1, 1000000000, &max_frames },
        /* the library refuses threads it cannot use */
        { "--threads", "CPU threads, 0: one per core", 0, 4096, &opt_threads },
        { "--depth", "frames in flight, 0: the library's choice", 0, 1000,
          &opt_depth },
        { "--verify", "a frame interval, 0: off", 0, 1000000, &opt_verify },
        { "--bpc", "bits per sample", 8, 16, &opt_bpc },
        { "--streams", "streams at once", 1, MAX_STREAMS, &opt_streams },
    };
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        size_t k = 0;
        while (k < sizeof(ints) / sizeof(ints[0]) && strcmp(a, ints[k].name))
            k++;
        if (k < sizeof(ints) / sizeof(ints[0]) && v) {
            if (parse_in_range(argv[++i], ints[k].lo, ints[k].hi, ints[k].out)) {
                fprintf(stderr, "%s: %s (%ld to %ld)\n", a, ints[k].what,
                        ints[k].lo, ints[k].hi);
                return 1;
            }
        } else if (!strcmp(a, "--backend") && v) backend_arg = argv[++i];
        else if (!strcmp(a, "--size") && v && n_sizes < 8) {
            if (!user_sizes++)
                n_sizes = 0;
            if (sscanf(argv[++i], "%ux%u", &sizes[n_sizes][0], &sizes[n_sizes][1]) == 2)
                n_sizes++;
        } else if (!strcmp(a, "--feature") && v && n_user < MAX_ITEMS)
            user_features[n_user++] = argv[++i];
        else if (!strcmp(a, "--model") && v && n_models < 8)
            user_models[n_models++] = argv[++i];
        else if (!strcmp(a, "--seconds") && v) seconds = atof(argv[++i]);
        else if (!strcmp(a, "--input") && v) {
            const char *m = argv[++i];
            opt_input = !strcmp(m, "pinned") ? INPUT_PINNED
                      : !strcmp(m, "device") ? INPUT_DEVICE
                      : !strcmp(m, "lent") ? INPUT_LENT : INPUT_HOST;
            if (opt_input == INPUT_HOST && strcmp(m, "host")) {
                fprintf(stderr, "--input: host, pinned, device or lent\n");
                return 1;
            }
        } else {
            fprintf(stderr, "usage: vqhip_bench [--backend cpu|hip|all] [--size WxH]... "
                            "[--feature SPEC]... [--model SPEC]... [--seconds S] "
                            "[--max-frames N] [--threads N] [--depth N] "
                            "[--input host|pinned|device|lent] [--streams N] [--verify N] "
                            "[--bpc N]\n");
            return 1;
        }
    }

    /* Items: each extractor alone, all of them together, the default model. */
    Item all;
    memset(&all, 0, sizeof(all));
    snprintf(all.label, sizeof(all.label), "all features");
    if (n_user) {
        for (unsigned i = 0; i < n_user; i++)
            all.features[all.n_features++] = user_features[i];
    } else if (!n_models) {
        size_t len = vq_list_features(NULL, 0);
        char *list = malloc(len + 1);
        if (!list)
            return 1;
        vq_list_features(list, len + 1);
        char *save = NULL;
        for (char *line = strtok_r(list, "\n", &save); line && n_items < MAX_ITEMS - 2;
             line = strtok_r(NULL, "\n", &save)) {
            char *colon = strchr(line, ':');
            if (colon)
                *colon = '\0';
            Item *it = &items[n_items++];
            memset(it, 0, sizeof(*it));
            snprintf(it->label, sizeof(it->label), "%s", line);
            it->features[it->n_features++] = strdup(line);
            all.features[all.n_features++] = it->features[0];
        }
        free(list);
    }
    if (n_user || !n_models)
        items[n_items++] = all;
    Item vmaf;
    memset(&vmaf, 0, sizeof(vmaf));
    snprintf(vmaf.label, sizeof(vmaf.label), "vmaf_v0.6.1");
    vmaf.model = "version=vmaf_v0.6.1";
    if (!n_user && !n_models) {
        items[n_items++] = vmaf;
        snprintf(vmaf.label, sizeof(vmaf.label), "vmaf_v1.0.16_3d0h");
        vmaf.model = "version=vmaf_v1.0.16_3d0h";
        items[n_items++] = vmaf;
    }
    for (unsigned m = 0; m < n_models && n_items < MAX_ITEMS; m++) {
        memset(&vmaf, 0, sizeof(vmaf));
        const char *v = strstr(user_models[m], "version=");
        snprintf(vmaf.label, sizeof(vmaf.label), "%.24s",
                 v ? v + strlen("version=") : user_models[m]);
        vmaf.model = user_models[m];
        items[n_items++] = vmaf;
    }

    if (opt_input >= INPUT_DEVICE && !strcmp(backend_arg, "all"))
        backend_arg = "hip"; /* device frames need the GPU backend */
    VqBackend backends[2];
    unsigned n_backends = 0;
    if (strcmp(backend_arg, "cpu"))
        backends[n_backends++] = VQ_BACKEND_HIP;
    if (strcmp(backend_arg, "hip"))
        backends[n_backends++] = VQ_BACKEND_CPU;
    printf("frames in %s memory%s, %u-bit\n",
           opt_input == INPUT_HOST     ? "host"
           : opt_input == INPUT_PINNED ? "pinned host"
           : opt_input == INPUT_DEVICE ? "device (copied)"
                                       : "device (lent, read in place)",
           opt_streams > 1 ? ", several streams at once" : "", opt_bpc);
    if (opt_streams > 1)
        printf("%-11s %-8s %-24s %10s %12s\n", "size", "backend", "features",
               "fps (sum)", "slowest");
    else
        printf("%-11s %-8s %-24s %10s\n", "size", "backend", "features", "fps");
    for (unsigned s = 0; s < n_sizes; s++) {
        Frames fr;
        if (make_frames(&fr, sizes[s][0], sizes[s][1])) {
            fprintf(stderr, "out of memory\n");
            return 1;
        }
        char size[32];
        snprintf(size, sizeof(size), "%ux%u", sizes[s][0], sizes[s][1]);
        for (unsigned b = 0; b < n_backends; b++) {
            for (unsigned i = 0; i < n_items; i++) {
                char used[16];
                double slowest = 0;
                double fps = opt_streams > 1
                    ? bench_streams(&items[i], backends[b], &fr, seconds,
                                    max_frames, used, &slowest)
                    : bench(&items[i], backends[b], &fr, seconds, max_frames,
                            used);
                if (fps < 0)
                    printf("%-11s %-8s %-24s %10s\n", size,
                           backends[b] == VQ_BACKEND_HIP ? "hip" : "cpu",
                           items[i].label, "n/a");
                else if (opt_streams > 1)
                    printf("%-11s %-8s %-24s %10.1f %12.1f\n", size, used,
                           items[i].label, fps, slowest);
                else
                    printf("%-11s %-8s %-24s %10.1f\n", size, used,
                           items[i].label, fps);
                fflush(stdout);
            }
        }
        free_frames(&fr);
    }
    return 0;
}
