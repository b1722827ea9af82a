/*
 * checkgpu: every registered extractor's GPU path against its CPU path.
 *
 * For each parity case, option set, bit depth, pixel format, size and fill,
 * the same frames go through a CPU context and a GPU context (strict, so a
 * fallback is an error); every output of every frame, and every aggregate,
 * must be bit-identical (or within the extractor's declared tolerance), and
 * the GPU context must report "hip" for each output. The CPU context's
 * pictures carry one junk pattern in their stride padding and the GPU's
 * another, so reading padding shows up as a mismatch.
 *
 * Both backends must deliver every submitted frame, each with outputs.
 *
 * usage: checkgpu [--test NAME[,NAME...]] [--seed N] [--quick] [--fills N]
 *                 [--digest FILE] [--jobs N] [--list] [--verbose] [--lend]
 * --digest FILE: a line per configuration with a hash of every GPU value
 * (frames and aggregates, NaN as one pattern), so that two devices'
 * outputs (the emulated one and a GPU) are compared bit for bit
 * (sort both, then diff).
 * --fills N: each size, depth and format with N of the fills, a different
 * N at each depth and format, so that every fill still meets every size
 * (the emulated device's runs, where a configuration costs far more).
 * --lend: the GPU context's pictures are copied into device memory first
 * (pitches a multiple of VQ_DEVICE_ALIGN, the picture's junk continuing
 * into the padding) and lent with vq_submit_device_retained, so the
 * kernels read the caller's planes in place; every pair must be given back.
 *        checkgpu --cases   (only the rule below; needs no GPU)
 *        checkgpu --device  (whether a GPU is present: exit 0, 77 none,
 *                            1 the runtime failed)
 * The full set (no --quick) adds 1920x1080 and 3840x2160. Without --seed
 * the seed is the time; it is printed either way, and a failure reproduces
 * with the same --seed.
 * Exit: 0 all passed, 1 a mismatch or error (a GPU that is present but does
 * not open is an error), 77 no GPU present.
 */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../common/dev_picture.h"
#include "../common/gpu_present.h"
#include "checkgpu.h"
#include "extractor.h"
#include "gpu/gpu.h"
#include "vqhip.h"

typedef enum Fill { FILL_RANDOM, FILL_ZERO, FILL_MAX, FILL_EXTREME,
                    FILL_NEAR_EXTREME, FILL_NOISY_GRADIENT, FILL_FLAT,
                    FILL_SMOOTH, N_FILLS } Fill;
static const char *const fill_names[] = { "random", "zero", "max", "extreme",
                                          "near-extreme", "noisy-gradient",
                                          "flat", "smooth" };

/* Per thread: configurations run on several threads (--jobs). */
static _Thread_local uint64_t rng_state;
static uint64_t rng(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545F4914F6CDD1DULL;
}

typedef struct Pic {
    VqPicture pic;
    uint8_t *buf[3];
} Pic;

static unsigned verbose, quick, n_fail, n_cases;
static unsigned fills_per_layout = N_FILLS;
static FILE *digest;
/* n_fail, n_cases and what a failure prints */
static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;

static unsigned sample_value(Fill fill, unsigned max, unsigned x, unsigned y,
                             unsigned frame, int dis)
{
    switch (fill) {
    case FILL_ZERO: return 0;
    case FILL_MAX: return max;
    case FILL_EXTREME: return rng() & 1 ? max : 0;
    case FILL_NEAR_EXTREME: {
        static const int d[4] = { 0, 1, -1, 0 };
        unsigned r = (unsigned)(rng() & 3);
        return r < 2 ? (unsigned)d[r] : max - (r == 3);
    }
    case FILL_NOISY_GRADIENT: {
        long v = (long)((x * 3 + y * 5 + frame * 7) % (max + 1));
        if (dis)
            v += (long)(rng() % 9) - 4;
        return v < 0 ? 0 : v > (long)max ? max : (unsigned)v;
    }
    /* one mid-dark grey: every sample in one histogram bin */
    case FILL_FLAT: return max / 5 + frame;
    /* a slow dark ramp, one step every 24 samples, the distorted copy
     * quantised to even values: wide bands (CAMBI's c-values at their
     * densest) */
    case FILL_SMOOTH: {
        unsigned v = ((x + 2 * y) / 24 + 3 * frame) % (max / 4 + 1) + max / 16;
        return dis ? v & ~1u : v;
    }
    default: return (unsigned)(rng() % (max + 1));
    }
}

/* Stored size of plane c (FFmpeg's rounded-up chroma) and plane count. */
static unsigned plane_count(const VqPicture *pic)
{
    return pic->fmt == VQ_PIX_FMT_GRAY ? 1 : 3;
}

static void plane_size(const VqPicture *pic, unsigned c, unsigned *w,
                       unsigned *h)
{
    unsigned ssx = pic->fmt == VQ_PIX_FMT_420 || pic->fmt == VQ_PIX_FMT_422;
    unsigned ssy = pic->fmt == VQ_PIX_FMT_420;
    *w = c ? (pic->w + ssx) >> ssx : pic->w;
    *h = c ? (pic->h + ssy) >> ssy : pic->h;
}

/* Fills the picture's content (same for both copies) from the current
 * generator state; padding is written separately. */
static void fill_content(Pic *p, Fill fill, unsigned frame, int dis)
{
    const VqPicture *pic = &p->pic;
    unsigned max = (1u << pic->bpc) - 1, bps = pic->bpc > 8 ? 2 : 1;
    for (unsigned c = 0; c < plane_count(pic); c++) {
        unsigned w, h;
        plane_size(pic, c, &w, &h);
        for (unsigned y = 0; y < h; y++) {
            uint8_t *row = p->buf[c] + (size_t)y * (size_t)pic->stride[c];
            for (unsigned x = 0; x < w; x++) {
                unsigned v = sample_value(fill, max, x, y, frame, dis);
                if (bps == 1)
                    row[x] = (uint8_t)v;
                else
                    ((uint16_t *)(void *)row)[x] = (uint16_t)v;
            }
        }
    }
}

static void fill_padding(Pic *p, uint8_t junk)
{
    const VqPicture *pic = &p->pic;
    unsigned bps = pic->bpc > 8 ? 2 : 1;
    for (unsigned c = 0; c < plane_count(pic); c++) {
        unsigned w, h;
        plane_size(pic, c, &w, &h);
        for (unsigned y = 0; y < h; y++) {
            uint8_t *row = p->buf[c] + (size_t)y * (size_t)pic->stride[c];
            for (size_t x = (size_t)w * bps; x < (size_t)pic->stride[c]; x++)
                row[x] = (uint8_t)(junk ^ (x * 37 + y * 11));
        }
    }
}

static int pic_alloc(Pic *p, VqPixFmt fmt, unsigned bpc, unsigned w, unsigned h)
{
    memset(p, 0, sizeof(*p));
    p->pic.fmt = fmt;
    p->pic.bpc = bpc;
    p->pic.w = w;
    p->pic.h = h;
    unsigned bps = bpc > 8 ? 2 : 1;
    for (unsigned c = 0; c < plane_count(&p->pic); c++) {
        unsigned pw, ph;
        plane_size(&p->pic, c, &pw, &ph);
        size_t stride = ((size_t)pw * bps + 1 + (rng() % 48)) & ~(size_t)1;
        p->buf[c] = malloc(stride * ph);
        if (!p->buf[c])
            return -1;
        p->pic.data[c] = p->buf[c];
        p->pic.stride[c] = (ptrdiff_t)stride;
    }
    return 0;
}

static void pic_free(Pic *p)
{
    for (unsigned c = 0; c < 3; c++)
        free(p->buf[c]);
}

typedef struct Result {
    unsigned n_received;  /* frames vq_receive delivered */
    unsigned n_frames;    /* highest frame index delivered + 1 */
    unsigned n_out[64];
    char *name[64][64];
    double value[64][64];
    unsigned n_agg;
    VqScore agg[16];
    char backend_ok;
    char err[512];
} Result;

static void result_free(Result *r)
{
    for (unsigned f = 0; f < r->n_frames && f < 64; f++)
        for (unsigned k = 0; k < r->n_out[f]; k++)
            free(r->name[f][k]);
    for (unsigned k = 0; k < r->n_agg; k++)
        free((char *)r->agg[k].name);
}

static int collect(VqContext *ctx, Result *r, int flushed, int want_hip)
{
    VqFrameScores fs;
    int e;
    while (!(e = vq_receive(ctx, &fs))) {
        if (fs.index != r->n_received || fs.index >= 64 || fs.n > 64) {
            snprintf(r->err, sizeof(r->err), "frame %u delivered as the %u-th "
                     "(%u outputs)", fs.index, r->n_received, fs.n);
            return VQ_EINVAL;
        }
        r->n_received++;
        r->n_frames = fs.index + 1;
        for (unsigned k = 0; k < fs.n; k++) {
            r->name[fs.index][k] = strdup(fs.scores[k].name);
            r->value[fs.index][k] = fs.scores[k].value;
            const char *b = vq_output_backend(ctx, fs.scores[k].name);
            if (want_hip && (!b || strcmp(b, "hip")))
                r->backend_ok = 0;
        }
        r->n_out[fs.index] = fs.n;
    }
    if (e == VQ_EAGAIN && !flushed)
        return 0;
    if (e == VQ_EOF)
        return 0;
    snprintf(r->err, sizeof(r->err), "%s", vq_last_error(ctx));
    return e;
}

/* --lend: device copies of the GPU context's pictures, made through a
 * device handle of each worker thread. */
static int lend;
static _Thread_local VqGpu *lend_gpu;
static _Thread_local VqErrBuf lend_err;

/* A device copy at pitches of VQ_DEVICE_ALIGN (lent in place), junk in the
 * padding. */
static int dev_pic(VqTestDevPic *d, const VqPicture *p, char *why, size_t sz)
{
    memset(d, 0, sizeof(*d));
    if (!lend_gpu && vq_gpu_open(&lend_gpu, 0, 0, &lend_err)) {
        snprintf(why, sz, "--lend: %.400s", lend_err.msg);
        return VQ_EDEVICE;
    }
    int e = vq_test_dev_picture(lend_gpu, p, VQ_DEVICE_ALIGN, 0, d);
    if (e)
        snprintf(why, sz, "--lend: %.400s",
                 e == VQ_EDEVICE ? lend_err.msg : "no memory or a bad picture");
    return e;
}

static void dev_pic_free(VqTestDevPic *d)
{
    vq_test_dev_picture_free(lend_gpu, d);
}

static void lent_back(void *opaque)
{
    atomic_fetch_add((atomic_uint *)opaque, 1);
}

/* Frame f of a run: lent device copies (--lend, GPU) or the host pair. */
static int submit_pair(VqContext *ctx, int lent, Pic *ref, Pic *dis,
                       VqTestDevPic *dp, atomic_uint *back, Result *r)
{
    if (!lent)
        return vq_submit(ctx, &ref->pic, &dis->pic);
    int e = dev_pic(&dp[0], &ref->pic, r->err, sizeof(r->err));
    if (!e)
        e = dev_pic(&dp[1], &dis->pic, r->err, sizeof(r->err));
    if (e) {
        dev_pic_free(&dp[0]);
        dev_pic_free(&dp[1]);
        return e;
    }
    return vq_submit_device_retained(ctx, &dp[0].dp, &dp[1].dp, lent_back,
                                     back);
}

/* Runs frames through one backend. */
static int run_backend(VqBackend backend, const char *spec, Pic *ref, Pic *dis,
                       unsigned n_frames, Result *r)
{
    memset(r, 0, sizeof(*r));
    r->backend_ok = 1;
    VqConfig cfg = vq_default_config();
    cfg.backend = backend;
    cfg.strict = backend == VQ_BACKEND_HIP;
    cfg.log_level = VQ_LOG_LEVEL_ERROR;
    VqContext *ctx = NULL;
    int e = vq_open(&ctx, &cfg);
    if (!e)
        e = vq_use_feature(ctx, spec);
    const int lent = lend && backend == VQ_BACKEND_HIP;
    VqTestDevPic *dp = lent ? calloc(2 * (size_t)n_frames, sizeof(*dp)) : NULL;
    atomic_uint back;
    atomic_init(&back, 0);
    unsigned n_lent = 0;
    if (lent && !dp)
        e = VQ_ENOMEM;
    for (unsigned f = 0; !e && f < n_frames; f++) {
        e = submit_pair(ctx, lent, &ref[f], &dis[f], dp ? dp + 2 * f : NULL,
                        &back, r);
        n_lent += lent && dp[2 * f].mem[0];
        if (!e)
            e = collect(ctx, r, 0, backend == VQ_BACKEND_HIP);
    }
    if (!e)
        e = vq_flush(ctx);
    if (!e)
        e = collect(ctx, r, 1, backend == VQ_BACKEND_HIP);
    if (e && !r->err[0])
        snprintf(r->err, sizeof(r->err), "%s", vq_last_error(ctx));
    for (unsigned k = 0; !e && k < vq_aggregate_count(ctx) && k < 16; k++) {
        vq_aggregate(ctx, k, &r->agg[k]);
        r->agg[k].name = strdup(r->agg[k].name);
        r->n_agg = k + 1;
    }
    vq_close(&ctx);
    if (lent) {
        if (!e && atomic_load(&back) != n_lent) {
            snprintf(r->err, sizeof(r->err), "%u of %u lent pairs given back",
                     atomic_load(&back), n_lent);
            e = VQ_ESTATE;
        }
        for (unsigned i = 0; dp && i < 2 * n_frames; i++)
            dev_pic_free(&dp[i]);
        free(dp);
    }
    return e;
}

static int values_match(double a, double b, const VqFexDesc *d)
{
    /* NaN against NaN agrees whatever the sign and payload bits (x86 and
     * the GPU make different ones; every log prints the same): libvmaf's
     * speed_temporal is NaN on some frames too */
    if (isnan(a) || isnan(b))
        return isnan(a) && isnan(b);
    if (d->exactness == VQ_EXACT_BITWISE)
        return !memcmp(&a, &b, sizeof(a));
    if (isinf(a) || isinf(b))
        return a == b;
    return fabs(a - b) <= d->tolerance;
}

static void report(const char *what, const char *spec, unsigned bpc,
                   VqPixFmt fmt, unsigned w, unsigned h, Fill fill,
                   uint64_t seed)
{
    static const char *const fmts[] = { "gray", "4:2:0", "4:2:2", "4:4:4" };
    if (n_fail++ < 20)
        printf("FAIL %s: [%s] %u-bit %s %ux%u %s (case seed %llu)\n", what, spec,
               bpc, fmts[fmt], w, h, fill_names[fill],
               (unsigned long long)seed);
}

static int compare(const Result *c, const Result *g, const VqFexDesc *d,
                   unsigned n_submitted, char *why, size_t sz)
{
    if (!g->backend_ok) {
        snprintf(why, sz, "an output was not computed on the GPU");
        return 0;
    }
    /* nothing received on both sides must not compare equal */
    if (c->n_received != n_submitted || g->n_received != n_submitted) {
        snprintf(why, sz, "%u frames submitted, %u received on the CPU, %u "
                 "on the GPU", n_submitted, c->n_received, g->n_received);
        return 0;
    }
    for (unsigned f = 0; f < c->n_frames; f++) {
        if (!c->n_out[f]) {
            snprintf(why, sz, "frame %u has no outputs", f);
            return 0;
        }
    }
    if (c->n_frames != g->n_frames) {
        snprintf(why, sz, "%u frames on the CPU, %u on the GPU", c->n_frames,
                 g->n_frames);
        return 0;
    }
    for (unsigned f = 0; f < c->n_frames; f++) {
        if (c->n_out[f] != g->n_out[f]) {
            snprintf(why, sz, "frame %u: %u outputs on the CPU, %u on the GPU",
                     f, c->n_out[f], g->n_out[f]);
            return 0;
        }
        for (unsigned k = 0; k < c->n_out[f]; k++) {
            double a = c->value[f][k], b = g->value[f][k];
            if (strcmp(c->name[f][k], g->name[f][k]) ||
                !values_match(a, b, d)) {
                snprintf(why, sz, "frame %u %s: CPU %.17g (%a), GPU %s %.17g (%a)",
                         f, c->name[f][k], a, a, g->name[f][k], b, b);
                return 0;
            }
        }
    }
    if (c->n_agg != g->n_agg) {
        snprintf(why, sz, "%u aggregates on the CPU, %u on the GPU", c->n_agg,
                 g->n_agg);
        return 0;
    }
    for (unsigned k = 0; k < c->n_agg; k++) {
        if (strcmp(c->agg[k].name, g->agg[k].name) ||
            !values_match(c->agg[k].value, g->agg[k].value, d)) {
            snprintf(why, sz, "aggregate %s: CPU %.17g, GPU %.17g",
                     c->agg[k].name, c->agg[k].value, g->agg[k].value);
            return 0;
        }
    }
    return 1;
}

/* FNV-1a over the GPU's output names and value bits. */
static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001b3ULL;
    return h;
}

static uint64_t value_hash(uint64_t h, const char *name, double v)
{
    if (isnan(v))
        v = NAN;
    h = fnv(h, name, strlen(name) + 1);
    return fnv(h, &v, sizeof(v));
}

static void write_digest(const Result *g, const char *name, const char *spec,
                         unsigned bpc, VqPixFmt fmt, unsigned w, unsigned h,
                         Fill fill, int status)
{
    uint64_t x = 0xcbf29ce484222325ULL;
    for (unsigned f = 0; f < g->n_frames && f < 64; f++)
        for (unsigned k = 0; k < g->n_out[f]; k++)
            x = value_hash(x, g->name[f][k], g->value[f][k]);
    for (unsigned k = 0; k < g->n_agg; k++)
        x = value_hash(x, g->agg[k].name, g->agg[k].value);
    pthread_mutex_lock(&out_lock);
    fprintf(digest, "%s\t%s\t%u\t%d\t%ux%u\t%s\t%s\t%016llx\n", name, spec,
            bpc, (int)fmt, w, h, fill_names[fill],
            status ? "error" : "ok", (unsigned long long)x);
    pthread_mutex_unlock(&out_lock);
}

/* One configuration: returns 0 ok, 1 mismatch, 2 not applicable. */
static int check_one(const ParityCase *pc, const char *spec, unsigned bpc,
                     VqPixFmt fmt, unsigned w, unsigned h, Fill fill,
                     uint64_t seed)
{
    const VqFexDesc *d = vq_fex_find(pc->name);
    Pic ref[16], dis[16], ref2[16], dis2[16];
    unsigned n = pc->frames < 16 ? pc->frames : 16, ok_alloc = 1;
    for (unsigned f = 0; f < n; f++) {
        rng_state = seed;
        /* all four always allocated, so that pic_free below is uniform */
        if (pic_alloc(&ref[f], fmt, bpc, w, h))
            ok_alloc = 0;
        if (pic_alloc(&dis[f], fmt, bpc, w, h))
            ok_alloc = 0;
        if (pic_alloc(&ref2[f], fmt, bpc, w, h))
            ok_alloc = 0;
        if (pic_alloc(&dis2[f], fmt, bpc, w, h))
            ok_alloc = 0;
    }
    int ret = 1;
    if (ok_alloc) {
        rng_state = seed;
        for (unsigned f = 0; f < n; f++) {
            uint64_t s = rng();
            rng_state = s;
            fill_content(&ref[f], fill, f, 0);
            fill_content(&dis[f], fill, f, 1);
            rng_state = s;
            fill_content(&ref2[f], fill, f, 0);
            fill_content(&dis2[f], fill, f, 1);
            fill_padding(&ref[f], 0x5a);
            fill_padding(&dis[f], 0xa5);
            fill_padding(&ref2[f], 0xc3);
            fill_padding(&dis2[f], 0x3c);
        }
        Result *cpu = calloc(1, sizeof(*cpu)), *gpu = calloc(1, sizeof(*gpu));
        int ec = cpu ? run_backend(VQ_BACKEND_CPU, spec, ref, dis, n, cpu) : -1;
        int eg = gpu ? run_backend(VQ_BACKEND_HIP, spec, ref2, dis2, n, gpu) : -1;
        if (digest && gpu)
            write_digest(gpu, pc->name, spec, bpc, fmt, w, h, fill, eg);
        char why[1024];
        if (ec == VQ_EUNSUPPORTED && eg == VQ_EUNSUPPORTED) {
            ret = 2; /* the extractor refuses this input on both backends */
        } else if (ec || eg) {
            pthread_mutex_lock(&out_lock);
            report(pc->name, spec, bpc, fmt, w, h, fill, seed);
            printf("     CPU: %s\n     GPU: %s\n", ec ? cpu->err : "ok",
                   eg ? gpu->err : "ok");
            pthread_mutex_unlock(&out_lock);
        } else if (!compare(cpu, gpu, d, n, why, sizeof(why))) {
            pthread_mutex_lock(&out_lock);
            report(pc->name, spec, bpc, fmt, w, h, fill, seed);
            printf("     %s\n", why);
            pthread_mutex_unlock(&out_lock);
        } else {
            ret = 0;
        }
        if (cpu)
            result_free(cpu);
        if (gpu)
            result_free(gpu);
        free(cpu);
        free(gpu);
    } else {
        pthread_mutex_lock(&out_lock);
        printf("FAIL %s: out of memory\n", pc->name);
        n_fail++;
        pthread_mutex_unlock(&out_lock);
    }
    for (unsigned f = 0; f < n; f++) {
        pic_free(&ref[f]);
        pic_free(&dis[f]);
        pic_free(&ref2[f]);
        pic_free(&dis2[f]);
    }
    return ret;
}

/* Every extractor with a GPU path must have a parity case, and every case
 * must name a registered extractor. Checked before the GPU is looked for,
 * so it holds on machines without one. */
static size_t registry_size(void)
{
    size_t n = 0;
    for (const VqFexDesc *const *d = vq_fex_registry(); *d; d++)
        n++;
    return n;
}

static unsigned check_cases(void)
{
    unsigned bad = 0;
    for (const VqFexDesc *const *d = vq_fex_registry(); *d; d++) {
        const ParityCase *pc = parity_cases;
        while (pc->name && strcmp(pc->name, (*d)->name))
            pc++;
        if ((*d)->gpu_run && !pc->name) {
            printf("FAIL %s has a GPU path but no parity case\n", (*d)->name);
            bad++;
        }
    }
    for (const ParityCase *pc = parity_cases; pc->name; pc++) {
        if (!vq_fex_find(pc->name)) {
            printf("FAIL parity case %s names no registered extractor\n",
                   pc->name);
            bad++;
        }
    }
    return bad;
}

/* The GPU that vq_gpu_count() says is present, opened as the cases will
 * open it; false (with the reason) when it does not open. */
static int gpu_opens(char *why, size_t sz)
{
    VqConfig cfg = vq_default_config();
    cfg.backend = VQ_BACKEND_HIP;
    cfg.strict = 1;
    cfg.log_level = VQ_LOG_LEVEL_ERROR;
    VqContext *ctx = NULL;
    int e = vq_open(&ctx, &cfg);
    snprintf(why, sz, "%s", e ? vq_last_error(ctx) : vq_device_name(ctx));
    vq_close(&ctx);
    return !e;
}

/* One option set's configurations, run on `jobs` threads. */
#define MAX_BATCH 2048
typedef struct Config {
    unsigned bpc;
    VqPixFmt fmt;
    unsigned w, h;
    Fill fill;
    uint64_t seed;
} Config;

typedef struct Batch {
    const ParityCase *pc;
    const char *spec;
    Config cfg[MAX_BATCH];
    unsigned n, next, ran, na;
} Batch;

static void *batch_worker(void *arg)
{
    Batch *b = arg;
    for (;;) {
        pthread_mutex_lock(&out_lock);
        unsigned i = b->next < b->n ? b->next++ : b->n;
        pthread_mutex_unlock(&out_lock);
        if (i == b->n) {
            if (lend_gpu)
                vq_gpu_close(&lend_gpu);
            return NULL;
        }
        const Config *c = &b->cfg[i];
        int r = check_one(b->pc, b->spec, c->bpc, c->fmt, c->w, c->h, c->fill,
                          c->seed);
        pthread_mutex_lock(&out_lock);
        b->ran += r == 0;
        b->na += r == 2;
        pthread_mutex_unlock(&out_lock);
    }
}

static void run_batch(Batch *b, unsigned jobs)
{
    pthread_t th[64];
    unsigned started = 0;
    for (; started < jobs && started < 64; started++)
        if (pthread_create(&th[started], NULL, batch_worker, b))
            break;
    if (!started)
        batch_worker(b);
    for (unsigned i = 0; i < started; i++)
        pthread_join(th[i], NULL);
}

/* --test takes one name or several separated by commas */
static int name_in_list(const char *name, const char *list)
{
    size_t n = strlen(name);
    for (const char *p = list; *p;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len == n && !strncmp(p, name, n))
            return 1;
        if (!end)
            break;
        p = end + 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    const char *only = NULL;
    int cases_only = 0;
    uint64_t seed = (uint64_t)time(NULL);
    /* configurations in parallel: each one's contexts use several CPU
     * threads already, so a quarter of the cores */
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    unsigned jobs = cores >= 8 ? (unsigned)(cores / 4) : 1;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--test") && i + 1 < argc)
            only = argv[++i];
        else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
            seed = strtoull(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--cases"))
            cases_only = 1;
        else if (!strcmp(argv[i], "--device")) {
            char why[256];
            int n = vq_gpu_count(why, sizeof(why));
            printf("checkgpu: %s\n", why);
            return n > 0 ? 0 : n == 0 ? VQ_TEST_EXIT_SKIP : 1;
        }
        else if (!strcmp(argv[i], "--quick"))
            quick = 1;
        else if (!strcmp(argv[i], "--digest") && i + 1 < argc) {
            digest = fopen(argv[++i], "w");
            if (!digest) {
                fprintf(stderr, "checkgpu: cannot write %s\n", argv[i]);
                return 1;
            }
        } else if (!strcmp(argv[i], "--fills") && i + 1 < argc) {
            fills_per_layout = (unsigned)strtoul(argv[++i], NULL, 0);
            if (!fills_per_layout || fills_per_layout > N_FILLS) {
                fprintf(stderr, "checkgpu: --fills takes 1 to %d\n", N_FILLS);
                return 1;
            }
        } else if (!strcmp(argv[i], "--jobs") && i + 1 < argc)
            jobs = (unsigned)strtoul(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--verbose"))
            verbose = 1;
        else if (!strcmp(argv[i], "--lend"))
            lend = 1;
        else if (!strcmp(argv[i], "--list")) {
            for (const ParityCase *pc = parity_cases; pc->name; pc++)
                printf("%s\n", pc->name);
            return 0;
        } else {
            fprintf(stderr, "usage: checkgpu [--test NAME[,NAME...]] [--seed N] [--quick] [--fills N] [--digest FILE] [--jobs N] "
                            "[--list] [--verbose] [--lend] | --cases | --device\n");
            return 1;
        }
    }
    n_fail += check_cases();
    if (only) {
        /* every name given must be a parity case: a typo tests nothing */
        char names[1024];
        snprintf(names, sizeof(names), "%s", only);
        for (char *save, *t = strtok_r(names, ",", &save); t;
             t = strtok_r(NULL, ",", &save)) {
            const ParityCase *pc = parity_cases;
            while (pc->name && strcmp(pc->name, t))
                pc++;
            if (!pc->name) {
                fprintf(stderr, "checkgpu: --test %s: no such parity case "
                                "(see --list)\n", t);
                return 1;
            }
        }
    }
    if (cases_only) {
        printf("checkgpu: %zu extractors, %u problem(s) with parity cases\n",
               registry_size(), n_fail);
        return n_fail ? 1 : 0;
    }
    if (n_fail)
        return 1;
    int present = vq_test_gpu_present("checkgpu");
    if (present)
        return present;
    char dev[512];
    if (!gpu_opens(dev, sizeof(dev))) {
        printf("checkgpu: FAIL: a GPU is present but does not open: %s\n",
               dev);
        return 1;
    }
    printf("checkgpu: %s, seed %llu%s", dev, (unsigned long long)seed,
           quick ? ", quick set" : ", full set");
    if (fills_per_layout < N_FILLS)
        printf(", %u of the %d fills per size and layout", fills_per_layout,
               N_FILLS);
    printf("\n");

    static const unsigned depths[] = { 8, 10, 12, 16 };
    static const VqPixFmt fmts[] = { VQ_PIX_FMT_420, VQ_PIX_FMT_422,
                                     VQ_PIX_FMT_444, VQ_PIX_FMT_GRAY };
    /* { 0, 0 }: the case's minimum; more sizes per case: parity_extra_sizes */
    static const unsigned sizes[][2] = { { 0, 0 }, { 7, 5 }, { 33, 17 },
                                         { 64, 36 }, { 1920, 1080 },
                                         { 3840, 2160 } };
    for (const ParityCase *pc = parity_cases; pc->name; pc++) {
        if (only && !name_in_list(pc->name, only))
            continue;
        for (const char *const *spec = pc->specs; *spec; spec++) {
            unsigned before = n_fail;
            const unsigned (*extra)[2] = NULL;
            for (const ParitySizes *ps = parity_extra_sizes; ps->name; ps++)
                if (!strcmp(ps->name, pc->name))
                    extra = ps->sizes;
            unsigned n_extra = 0;
            while (extra && extra[n_extra][0])
                n_extra++;
            const unsigned n_common = sizeof(sizes) / sizeof(sizes[0]);
            Batch batch = { .pc = pc, .spec = *spec };
            for (unsigned s = 0; s < n_common + n_extra; s++) {
                const unsigned *wh = s < n_common ? sizes[s]
                                                  : extra[s - n_common];
                unsigned w = s ? wh[0] : pc->min_w;
                unsigned h = s ? wh[1] : pc->min_h;
                if (w < pc->min_w || h < pc->min_h)
                    continue;
                int big = w * h > 100000, huge = w * h > 4000000;
                for (unsigned b = 0; b < 4; b++)
                    for (unsigned f = 0; f < 4; f++)
                        for (unsigned fill = 0; fill < N_FILLS; fill++) {
                            /* 1080p: every depth and format with the random
                             * and noisy-gradient fills, 4:2:0 with the flat
                             * and smooth ones (CAMBI's fullest histograms);
                             * 4K: every depth, 4:2:0, random and smooth
                             * (the CPU side of the big sizes is where the
                             * full set's time goes); --quick: neither */
                            if (big && quick)
                                continue;
                            if (big && (fill == FILL_FLAT || fill == FILL_SMOOTH) &&
                                fmts[f] != VQ_PIX_FMT_420)
                                continue;
                            if (big && fill != FILL_RANDOM &&
                                fill != FILL_NOISY_GRADIENT &&
                                fill != FILL_FLAT && fill != FILL_SMOOTH)
                                continue;
                            if (huge && (fmts[f] != VQ_PIX_FMT_420 ||
                                         (fill != FILL_RANDOM &&
                                          fill != FILL_SMOOTH)))
                                continue;
                            /* --fills N: the fills i, i + 8/N, ... from
                                 * i = layout + size */
                            unsigned rot = (fill + N_FILLS - (b * 4 + f + s) %
                                            N_FILLS) % N_FILLS;
                            if (rot % (N_FILLS / fills_per_layout) ||
                                rot / (N_FILLS / fills_per_layout) >=
                                    fills_per_layout)
                                continue;
                            if (batch.n == MAX_BATCH)
                                continue;
                            batch.cfg[batch.n++] = (Config){
                                depths[b], fmts[f], w, h, (Fill)fill,
                                seed ^ (0x9E3779B97F4A7C15ULL *
                                        (1 + s * 1000 + b * 100 + f * 10 + fill))
                            };
                        }
            }
            run_batch(&batch, jobs);
            n_cases += batch.n;
            printf("%-4s %-14s %-60s %4u passed, %u not applicable\n",
                   n_fail == before ? "ok" : "FAIL", pc->name, *spec,
                   batch.ran, batch.na);
            fflush(stdout);
            if (!batch.ran && n_fail == before) {
                printf("FAIL %s [%s]: no configuration ran\n", pc->name, *spec);
                n_fail++;
            }
        }
    }
    printf("checkgpu: %u configurations, %u failure(s)\n", n_cases, n_fail);
    if (digest && fclose(digest)) {
        printf("checkgpu: FAIL: the digest file could not be written\n");
        n_fail++;
    }
    return n_fail ? 1 : 0;
}
