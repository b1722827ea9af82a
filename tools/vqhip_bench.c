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
 * shared by N live streams). All are opened first, start at one instant and
 * stop submitting at one deadline; the figure is every stream's frames over
 * that one window (which ends when the last stream has its last scores),
 * then the slowest stream's frames over the same window.
 * Every line also gives the bytes of picture planes sent host to device per
 * second (the library's counters), to hold against the link's speed.
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

#include "tool_clock.h"
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

/* One context's run: opened with its frames and one untimed frame scored
 * (first-use allocations and JIT are not fps), then timed. */
typedef struct Run {
    VqContext *ctx;
    Input in;
    int input_open, err;
    unsigned scored;      /* frames received in the timed part */
    uint64_t up0;         /* bytes host to device when it began */
    char used[16];
} Run;

static int run_open(Run *r, const Item *it, VqBackend backend,
                    const Frames *fr)
{
    memset(r, 0, sizeof(*r));
    VqConfig cfg = vq_default_config();
    cfg.backend = backend;
    cfg.strict = backend == VQ_BACKEND_HIP;
    cfg.log_level = VQ_LOG_LEVEL_ERROR;
    cfg.n_threads = opt_threads;
    if (opt_depth)
        cfg.depth = opt_depth;
    cfg.verify = opt_verify;
    int e = vq_open(&r->ctx, &cfg);
    for (unsigned i = 0; !e && i < it->n_features; i++)
        e = vq_use_feature(r->ctx, it->features[i]);
    if (!e && it->model)
        e = vq_use_model(r->ctx, it->model);
    if (!e && input_open(&r->in, r->ctx, fr))
        e = VQ_ENOMEM;
    r->input_open = !e;
    VqFrameScores fs;
    if (!e)
        e = submit(r->ctx, &r->in, 0);
    while (!e && !vq_receive(r->ctx, &fs)) {
    }
    VqRunInfo info;
    if (!e && !vq_run_info(r->ctx, &info))
        r->up0 = info.bytes_to_device;
    r->err = e;
    if (e)
        fprintf(stderr, "vqhip_bench: %s: %s\n", it->label,
                vq_last_error(r->ctx));
    return e;
}

/* Submits frames until the deadline (and at least 2 * RING, at most
 * max_frames), then flushes and receives every score; counts the frames
 * received. --depth 1: as the filter with depth=1, every frame's work is
 * waited for before the next frame is submitted (the live-monitoring case,
 * on the CPU too). */
static int run_timed(Run *r, double deadline, unsigned max_frames)
{
    int (*receive)(VqContext *, VqFrameScores *) =
        opt_depth == 1 ? vq_receive_wait : vq_receive;
    VqFrameScores fs;
    unsigned n = 0;
    double t = tool_now();
    int e = r->err;
    while (!e && n < max_frames && (t < deadline || n < 2 * RING)) {
        e = submit(r->ctx, &r->in, (n + 1) % RING);
        while (!e && !receive(r->ctx, &fs))
            r->scored++;
        n++;
        if (!(n % 4))
            t = tool_now();
    }
    if (!e)
        e = vq_flush(r->ctx);
    while (!e && !vq_receive(r->ctx, &fs))
        r->scored++;
    if (e)
        fprintf(stderr, "vqhip_bench: %s\n", vq_last_error(r->ctx));
    return r->err = e;
}

/* Bytes of planes sent host to device in the timed part. */
static uint64_t run_bytes_up(const Run *r)
{
    VqRunInfo info;
    return r->ctx && !vq_run_info(r->ctx, &info) ? info.bytes_to_device - r->up0
                                                 : 0;
}

static void run_close(Run *r)
{
    snprintf(r->used, sizeof(r->used), "%s",
             r->err ? "-" : vq_backend_name(r->ctx));
    if (r->input_open)
        input_close(&r->in, r->ctx);
    vq_close(&r->ctx);
}

/* What a measurement found: frames scored per second over the common
 * window, the slowest stream's rate over the same window, bytes of planes
 * sent to the device per second. */
typedef struct Rate {
    double fps, slowest, up_per_s;
} Rate;

/* One context; returns 0 or a negative error. */
static int bench(const Item *it, VqBackend backend, const Frames *fr,
                 double seconds, unsigned max_frames, char *used, Rate *rate)
{
    Run r;
    int e = run_open(&r, it, backend, fr);
    double t0 = tool_now();
    if (!e)
        e = run_timed(&r, t0 + seconds, max_frames);
    double t = tool_now() - t0;
    rate->fps = rate->slowest = r.scored / t;
    rate->up_per_s = run_bytes_up(&r) / t;
    run_close(&r);
    snprintf(used, 16, "%s", r.used);
    return e;
}

/* --streams: every stream opens, then all start together (a barrier, one
 * start time) and stop submitting at one deadline; the window ends when
 * the last stream has received its last scores. Rates are frames over that
 * one window, never a sum of rates over windows that differ. */
typedef struct StreamJob {
    const Item *it;
    VqBackend backend;
    const Frames *fr;
    double seconds;
    unsigned max_frames;
    pthread_barrier_t *start;
    double *t0;
    Run run;
    double end;
} StreamJob;

static void *stream_main(void *arg)
{
    StreamJob *j = arg;
    run_open(&j->run, j->it, j->backend, j->fr);
    if (pthread_barrier_wait(j->start) == PTHREAD_BARRIER_SERIAL_THREAD)
        *j->t0 = tool_now();
    pthread_barrier_wait(j->start); /* every stream reads the same t0 */
    run_timed(&j->run, *j->t0 + j->seconds, j->max_frames);
    j->end = tool_now();
    return NULL;
}

static int bench_streams(const Item *it, VqBackend backend, const Frames *fr,
                         double seconds, unsigned max_frames, char *used,
                         Rate *rate)
{
    static StreamJob job[MAX_STREAMS];
    pthread_t th[MAX_STREAMS];
    pthread_barrier_t start;
    double t0 = 0;
    unsigned n = opt_streams, started = 0;
    if (pthread_barrier_init(&start, NULL, n))
        return -1;
    for (; started < n; started++) {
        job[started] = (StreamJob){ it, backend, fr, seconds, max_frames,
                                    &start, &t0, { 0 }, 0 };
        if (pthread_create(&th[started], NULL, stream_main, &job[started]))
            break;
    }
    if (started < n) {
        /* the barrier would never open: nothing is started */
        fprintf(stderr, "vqhip_bench: could not start %u threads\n", n);
        exit(1);
    }
    int e = 0;
    double end = 0;
    unsigned total = 0, least = ~0u;
    uint64_t up = 0;
    for (unsigned i = 0; i < n; i++) {
        pthread_join(th[i], NULL);
        if (job[i].run.err)
            e = job[i].run.err;
        end = job[i].end > end ? job[i].end : end;
        total += job[i].run.scored;
        least = job[i].run.scored < least ? job[i].run.scored : least;
        up += run_bytes_up(&job[i].run);
    }
    for (unsigned i = 0; i < n; i++)
        run_close(&job[i].run);
    pthread_barrier_destroy(&start);
    rate->fps = total / (end - t0);
    rate->slowest = least / (end - t0);
    rate->up_per_s = up / (end - t0);
    snprintf(used, 16, "%s", job[0].run.used);
    return e;
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
        printf("%u streams started together, stopped at one deadline: fps is "
               "every stream's frames over the one window\n%-11s %-8s %-24s "
               "%10s %12s %14s\n", opt_streams, "size", "backend", "features",
               "fps (all)", "slowest", "to GPU MB/s");
    else
        printf("%-11s %-8s %-24s %10s %14s\n", "size", "backend", "features",
               "fps", "to GPU MB/s");
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
                Rate r;
                int e = opt_streams > 1
                    ? bench_streams(&items[i], backends[b], &fr, seconds,
                                    max_frames, used, &r)
                    : bench(&items[i], backends[b], &fr, seconds, max_frames,
                            used, &r);
                if (e)
                    printf("%-11s %-8s %-24s %10s\n", size,
                           backends[b] == VQ_BACKEND_HIP ? "hip" : "cpu",
                           items[i].label, "n/a");
                else if (opt_streams > 1)
                    printf("%-11s %-8s %-24s %10.1f %12.1f %14.1f\n", size,
                           used, items[i].label, r.fps, r.slowest,
                           r.up_per_s / 1e6);
                else
                    printf("%-11s %-8s %-24s %10.1f %14.1f\n", size, used,
                           items[i].label, r.fps, r.up_per_s / 1e6);
                fflush(stdout);
            }
        }
        free_frames(&fr);
    }
    return 0;
}
