/*
 * Integer ADM: GPU against CPU, bit for bit, through the public API, and a
 * benchmark.
 *
 * Every case (size, bit depth, pixel format, fill, option set) scores the
 * same generated frames with a CPU context and with a strict HIP context
 * and requires identical output values (compared as bit patterns). Frames
 * have junk in their stride padding. Exits 77 only when no GPU is present
 * (vq_gpu_count); a GPU that fails to open or run is a failure.
 *
 * usage: adm_check [--seed N] [--quick]
 *        adm_check --bench W H BPC FRAMES [SPEC] [cpu|hip]
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../common/gpu_present.h"
#include "vqhip.h"

typedef enum Fill { FILL_RANDOM, FILL_NEAR, FILL_ZERO, FILL_MAX, FILL_EXTREME,
                    FILL_SMOOTH, FILL_SAME, FILL_N } Fill;
static const char *const fill_name[FILL_N] = {
    "random", "near", "zero", "max", "extreme", "smooth", "same"
};

typedef struct Pics {
    VqPicture ref, dis;
    uint8_t *buf[2][3];
} Pics;

static uint64_t rng_state;

static uint32_t rnd(void)
{
    rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (uint32_t)(rng_state >> 33);
}

static unsigned plane_w(VqPixFmt f, unsigned w, int p)
{
    return p && f != VQ_PIX_FMT_444 ? (w + 1) >> 1 : w;
}

static unsigned plane_h(VqPixFmt f, unsigned h, int p)
{
    return p && f == VQ_PIX_FMT_420 ? (h + 1) >> 1 : h;
}

static unsigned sample(Fill fill, unsigned maxv, unsigned x, unsigned y,
                       unsigned frame, int dis, unsigned refv)
{
    switch (fill) {
    case FILL_RANDOM: return rnd() % (maxv + 1);
    case FILL_NEAR: {
        if (!dis)
            return rnd() % (maxv + 1);
        int d = (int)(rnd() % 41) - 20;
        int v = (int)refv + d * (int)(maxv / 255 ? maxv / 255 : 1);
        return v < 0 ? 0 : (v > (int)maxv ? maxv : (unsigned)v);
    }
    case FILL_ZERO: return dis ? maxv : 0;
    case FILL_MAX: return dis ? 0 : maxv;
    case FILL_EXTREME: return rnd() & 1 ? maxv : 0;
    case FILL_SMOOTH: {
        double v = 0.5 + 0.45 * sin(x / 6.0 + frame) * cos(y / 9.0);
        unsigned s = (unsigned)(v * maxv);
        if (dis)
            s = (unsigned)fmin(maxv, fmax(0, (double)s + (int)(rnd() % 7) - 3));
        return s;
    }
    case FILL_SAME: return dis ? refv : rnd() % (maxv + 1);
    default: return 0;
    }
}

/* Fills both pictures; stride padding gets random junk. */
static int make_pics(Pics *pk, VqPixFmt fmt, unsigned w, unsigned h,
                     unsigned bpc, Fill fill, unsigned frame)
{
    unsigned bps = bpc > 8 ? 2 : 1, maxv = (1u << bpc) - 1;
    int np = fmt == VQ_PIX_FMT_GRAY ? 1 : 3;
    VqPicture *pic[2] = { &pk->ref, &pk->dis };
    for (int i = 0; i < 2; i++) {
        pic[i]->fmt = fmt;
        pic[i]->bpc = bpc;
        pic[i]->w = w;
        pic[i]->h = h;
        for (int p = 0; p < np; p++) {
            unsigned pw = plane_w(fmt, w, p), ph = plane_h(fmt, h, p);
            size_t stride = (size_t)pw * bps + 40;
            if (!pk->buf[i][p])
                pk->buf[i][p] = malloc(stride * ph);
            if (!pk->buf[i][p])
                return -1;
            for (size_t k = 0; k < stride * ph; k++)
                pk->buf[i][p][k] = (uint8_t)rnd();
            pic[i]->data[p] = pk->buf[i][p];
            pic[i]->stride[p] = (ptrdiff_t)stride;
        }
    }
    for (int p = 0; p < np; p++) {
        unsigned pw = plane_w(fmt, w, p), ph = plane_h(fmt, h, p);
        for (unsigned y = 0; y < ph; y++)
            for (unsigned x = 0; x < pw; x++) {
                unsigned r = sample(fill, maxv, x, y, frame, 0, 0);
                unsigned d = sample(fill, maxv, x, y, frame, 1, r);
                uint8_t *rr = pk->buf[0][p] + y * pk->ref.stride[p];
                uint8_t *dd = pk->buf[1][p] + y * pk->dis.stride[p];
                if (bps == 1) {
                    rr[x] = (uint8_t)r;
                    dd[x] = (uint8_t)d;
                } else {
                    ((uint16_t *)(void *)rr)[x] = (uint16_t)r;
                    ((uint16_t *)(void *)dd)[x] = (uint16_t)d;
                }
            }
    }
    return 0;
}

static void free_pics(Pics *pk)
{
    for (int i = 0; i < 2; i++)
        for (int p = 0; p < 3; p++)
            free(pk->buf[i][p]);
    memset(pk, 0, sizeof(*pk));
}

#define MAX_FRAMES 4
#define MAX_OUT 32

typedef struct Run {
    unsigned n_out;
    char name[MAX_OUT][96];
    double v[MAX_FRAMES][MAX_OUT];
} Run;

/* Scores nf frames; returns 0, 77 (no GPU) or 1. */
static int run_ctx(VqBackend be, const char *spec, VqPixFmt fmt, unsigned w,
                   unsigned h, unsigned bpc, Fill fill, unsigned nf,
                   uint64_t seed, Run *out)
{
    VqConfig cfg = vq_default_config();
    cfg.backend = be;
    cfg.strict = 1;
    cfg.n_threads = 1;
    VqContext *ctx = NULL;
    int r = vq_open(&ctx, &cfg);
    if (r < 0) {
        fprintf(stderr, "%s: open failed: %s\n",
                be == VQ_BACKEND_HIP ? "hip" : "cpu",
                ctx ? vq_last_error(ctx) : vq_strerror(r));
        vq_close(&ctx);
        return 1;
    }
    r = vq_use_feature(ctx, spec);
    Pics pk;
    memset(&pk, 0, sizeof(pk));
    memset(out, 0, sizeof(*out));
    unsigned got = 0;
    for (unsigned f = 0; !r && f < nf; f++) {
        rng_state = seed + f;
        if (make_pics(&pk, fmt, w, h, bpc, fill, f)) {
            r = VQ_ENOMEM;
            break;
        }
        r = vq_submit(ctx, &pk.ref, &pk.dis);
        if (!r && f == nf - 1)
            r = vq_flush(ctx);
        VqFrameScores fs;
        while (!r && vq_receive(ctx, &fs) == 0) {
            out->n_out = fs.n < MAX_OUT ? fs.n : MAX_OUT;
            for (unsigned k = 0; k < out->n_out; k++) {
                snprintf(out->name[k], sizeof(out->name[k]), "%s",
                         fs.scores[k].name);
                out->v[fs.index][k] = fs.scores[k].value;
            }
            got++;
        }
    }
    if (r < 0) {
        fprintf(stderr, "%s %s: %s\n", be == VQ_BACKEND_HIP ? "hip" : "cpu",
                spec, vq_last_error(ctx));
        free_pics(&pk);
        vq_close(&ctx);
        return 1;
    }
    free_pics(&pk);
    vq_close(&ctx);
    if (got != nf) {
        fprintf(stderr, "%s: %u of %u frames\n", spec, got, nf);
        return 1;
    }
    return 0;
}

static int same_bits(double a, double b)
{
    return !memcmp(&a, &b, sizeof(a)) || (isnan(a) && isnan(b));
}

static const char *const specs[] = {
    "name=adm:debug=true",
    "name=adm:adm_enhn_gain_limit=1",
    "name=adm:adm_enhn_gain_limit=1.5:adm_noise_weight=0",
    ("name=adm:adm_csf_mode=2:adm_dlm_weight=0.7:adm_enhn_gain_limit=1"
     ":adm_noise_weight=0.02:adm_min_val=0.5"),
    "name=adm:adm_csf_mode=1:adm_csf_scale=2:debug=true",
    "name=adm:adm_csf_mode=3:adm_ref_display_height=2160:adm_norm_view_dist=3",
    "name=adm:adm_skip_scale0=true:adm_skip_aim=true:debug=true",
};

typedef struct Size { unsigned w, h; } Size;

static int check_case(const char *spec, VqPixFmt fmt, unsigned w, unsigned h,
                      unsigned bpc, Fill fill, unsigned nf, uint64_t seed)
{
    static Run cpu, gpu;
    int r = run_ctx(VQ_BACKEND_CPU, spec, fmt, w, h, bpc, fill, nf, seed, &cpu);
    if (r)
        return r;
    r = run_ctx(VQ_BACKEND_HIP, spec, fmt, w, h, bpc, fill, nf, seed, &gpu);
    if (r)
        return r;
    int bad = cpu.n_out != gpu.n_out;
    for (unsigned f = 0; f < nf; f++)
        for (unsigned k = 0; k < cpu.n_out && k < gpu.n_out; k++)
            if (strcmp(cpu.name[k], gpu.name[k]) ||
                !same_bits(cpu.v[f][k], gpu.v[f][k])) {
                if (bad++ < 4)
                    printf("  frame %u %s: cpu %.17g, hip %.17g\n", f,
                           cpu.name[k], cpu.v[f][k], gpu.v[f][k]);
            }
    printf("%s %ux%u %u-bit fmt %d %s seed %llu: %s\n", spec, w, h, bpc,
           (int)fmt, fill_name[fill], (unsigned long long)seed,
           bad ? "MISMATCH" : "ok");
    return bad ? 1 : 0;
}

static double now(clockid_t clk)
{
    struct timespec t;
    clock_gettime(clk, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static int bench(unsigned w, unsigned h, unsigned bpc, unsigned nf,
                 const char *spec, VqBackend be)
{
    VqConfig cfg = vq_default_config();
    cfg.backend = be;
    cfg.strict = 1;
    cfg.n_threads = 1;
    VqContext *ctx = NULL;
    int r = vq_open(&ctx, &cfg);
    if (!r)
        r = vq_use_feature(ctx, spec);
    Pics pk[2];
    memset(pk, 0, sizeof(pk));
    for (int i = 0; !r && i < 2; i++) {
        rng_state = 1234 + i;
        if (make_pics(&pk[i], VQ_PIX_FMT_420, w, h, bpc, FILL_NEAR, i))
            r = VQ_ENOMEM;
    }
    double t0 = 0, c0 = 0;
    VqFrameScores fs;
    for (unsigned f = 0; !r && f < nf + 10; f++) {
        if (f == 10) {
            t0 = now(CLOCK_MONOTONIC);
            c0 = now(CLOCK_PROCESS_CPUTIME_ID);
        }
        r = vq_submit(ctx, &pk[f & 1].ref, &pk[f & 1].dis);
        while (!r && vq_receive(ctx, &fs) == 0)
            ;
    }
    if (!r)
        r = vq_flush(ctx);
    while (!r && vq_receive(ctx, &fs) == 0)
        ;
    double t = now(CLOCK_MONOTONIC) - t0;
    double c = now(CLOCK_PROCESS_CPUTIME_ID) - c0;
    if (r < 0 && r != VQ_EOF)
        fprintf(stderr, "bench: %s\n", ctx ? vq_last_error(ctx) : vq_strerror(r));
    else
        printf("bench %s %ux%u %u-bit %s: %u frames, %.1f fps (%.1f per CPU second)\n",
               spec, w, h, bpc, be == VQ_BACKEND_HIP ? "hip" : "cpu", nf, nf / t,
               nf / c);
    for (int i = 0; i < 2; i++)
        free_pics(&pk[i]);
    vq_close(&ctx);
    return r < 0 && r != VQ_EOF;
}

int main(int argc, char **argv)
{
    uint64_t seed = 1;
    int quick = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--bench") && i + 4 < argc) {
            const char *spec = i + 5 < argc ? argv[i + 5] : "adm";
            VqBackend be = i + 6 < argc && !strcmp(argv[i + 6], "cpu")
                               ? VQ_BACKEND_CPU : VQ_BACKEND_HIP;
            return bench((unsigned)atoi(argv[i + 1]), (unsigned)atoi(argv[i + 2]),
                         (unsigned)atoi(argv[i + 3]), (unsigned)atoi(argv[i + 4]),
                         spec, be);
        } else if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
            seed = strtoull(argv[++i], NULL, 0);
        } else if (!strcmp(argv[i], "--quick")) {
            quick = 1;
        }
    }
    int present = vq_test_gpu_present("adm_check");
    if (present)
        return present;
    printf("adm_check: seed %llu\n", (unsigned long long)seed);
    static const Size sizes[] = { { 33, 33 }, { 35, 37 }, { 203, 117 },
                                  { 64, 48 }, { 417, 241 } };
    static const unsigned depths[] = { 8, 10, 12, 16 };
    int fails = 0;
    unsigned n_sizes = quick ? 3 : sizeof(sizes) / sizeof(sizes[0]);
    for (unsigned s = 0; s < n_sizes; s++)
        for (unsigned d = 0; d < 4; d++)
            for (int f = 0; f < FILL_N; f++) {
                fails += check_case(specs[0], VQ_PIX_FMT_420, sizes[s].w,
                                    sizes[s].h, depths[d], (Fill)f, 2,
                                    seed + f) != 0;
            }
    for (unsigned k = 1; k < sizeof(specs) / sizeof(specs[0]); k++)
        for (unsigned d = 0; d < 4; d += quick ? 3 : 1) {
            fails += check_case(specs[k], VQ_PIX_FMT_444, 203, 117, depths[d],
                                FILL_NEAR, 2, seed + k) != 0;
            fails += check_case(specs[k], VQ_PIX_FMT_GRAY, 33, 35, depths[d],
                                FILL_EXTREME, 2, seed + k) != 0;
        }
    if (!quick)
        fails += check_case(specs[0], VQ_PIX_FMT_420, 1920, 1080, 8,
                            FILL_NEAR, 2, seed) != 0;
    printf("%s: %d failing case(s)\n", fails ? "FAIL" : "PASS", fails);
    return fails ? 1 : 0;
}
