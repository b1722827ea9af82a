/*
 * GPU vs CPU accumulator records, byte for byte, for one extractor.
 *
 * Drives an extractor's descriptor directly (init, cpu_run, gpu_init,
 * gpu_run) on generated frames, and compares the record gpu_run leaves in
 * device memory with the one cpu_run fills. Comparing the records is
 * stronger than comparing printed values: both backends share finalize, so
 * equal records mean equal outputs. Device planes get junk in their pitch
 * padding; host planes get junk in their stride padding.
 *
 * usage: acc_parity [--feature SPEC] [--size WxH] [--bpc N] [--fmt F]
 *                   [--frames N] [--seed N] [--fill NAME] [--bench N]
 * Without --size (and --bench) it runs its table of cases for the feature.
 * Exit: 0 all equal, 1 a difference or error (a GPU that is present but
 * does not open is an error), 77 no GPU present.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../common/gpu_present.h"
#include "extractor.h"
#include "gpu/gpu.h"
#include "picture.h"

typedef enum Fill { FILL_RANDOM, FILL_ZERO, FILL_MAX, FILL_EXTREME,
                    FILL_SMOOTH, FILL_NOISY_COPY, N_FILLS } Fill;
static const char *const fill_names[N_FILLS] = {
    "random", "zero", "max", "extreme", "smooth", "noisy_copy"
};

static uint64_t rng_state;
static uint32_t rnd(void)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rng_state >> 33);
}

typedef struct HostPic {
    uint8_t *buf[3];
    VqPicture pic;
} HostPic;

static unsigned sample_value(Fill f, unsigned maxv, unsigned x, unsigned y,
                             unsigned frame, int is_dis, unsigned ref_v)
{
    switch (f) {
    case FILL_ZERO: return 0;
    case FILL_MAX: return maxv;
    case FILL_EXTREME: {
        unsigned v[4] = { 0, 1, maxv - 1, maxv };
        return v[rnd() & 3];
    }
    case FILL_SMOOTH: {
        unsigned base = (unsigned)(((x * 7 + y * 3 + frame * 5) % 256) *
                                   (double)maxv / 255.0);
        if (is_dis)
            base = (base + (rnd() % 5)) > maxv ? maxv : base + rnd() % 5;
        return base;
    }
    case FILL_NOISY_COPY: {
        if (!is_dis)
            return rnd() % (maxv + 1);
        int v = (int)ref_v + (int)(rnd() % 33) - 16;
        return v < 0 ? 0 : v > (int)maxv ? maxv : (unsigned)v;
    }
    default: return rnd() % (maxv + 1);
    }
}

/* Fills a picture; padding after each row holds junk. */
static int make_pic(HostPic *hp, const VqPicture *ref, VqPixFmt fmt,
                    unsigned bpc, unsigned w, unsigned h, Fill fill,
                    unsigned frame)
{
    memset(hp, 0, sizeof(*hp));
    hp->pic.fmt = fmt;
    hp->pic.bpc = bpc;
    hp->pic.w = w;
    hp->pic.h = h;
    unsigned bps = bpc > 8 ? 2 : 1, maxv = (1u << bpc) - 1;
    unsigned np = fmt == VQ_PIX_FMT_GRAY ? 1 : 3;
    for (unsigned p = 0; p < np; p++) {
        unsigned pw = p ? (fmt == VQ_PIX_FMT_444 ? w : (w + 1) >> 1) : w;
        unsigned ph = p ? (fmt == VQ_PIX_FMT_420 ? (h + 1) >> 1 : h) : h;
        size_t stride = (size_t)pw * bps + 24 + (rnd() % 4) * 2;
        hp->buf[p] = malloc(stride * ph);
        if (!hp->buf[p])
            return -1;
        for (size_t i = 0; i < stride * ph; i++)
            hp->buf[p][i] = (uint8_t)rnd();
        for (unsigned y = 0; y < ph; y++)
            for (unsigned x = 0; x < pw; x++) {
                unsigned rv = 0;
                if (ref) {
                    const uint8_t *row = (const uint8_t *)ref->data[p] +
                                         y * ref->stride[p];
                    rv = bps == 1 ? row[x] : ((const uint16_t *)row)[x];
                }
                unsigned v = sample_value(fill, maxv, x, y, frame, ref != NULL,
                                          rv);
                uint8_t *row = hp->buf[p] + y * stride;
                if (bps == 1)
                    row[x] = (uint8_t)v;
                else
                    ((uint16_t *)row)[x] = (uint16_t)v;
            }
        hp->pic.data[p] = hp->buf[p];
        hp->pic.stride[p] = (ptrdiff_t)stride;
    }
    return 0;
}

static void free_pic(HostPic *hp)
{
    for (unsigned p = 0; p < 3; p++)
        free(hp->buf[p]);
}

typedef struct Case {
    unsigned w, h, bpc;
    VqPixFmt fmt;
    Fill fill;
    unsigned frames;
} Case;

static VqErrBuf err;

static VqFex *fex_new(const char *spec_text)
{
    VqSpec spec;
    if (vq_spec_parse(&spec, spec_text, &err))
        return NULL;
    const char *name = vq_spec_get(&spec, "name");
    const VqFexDesc *desc = name ? vq_fex_find(name) : NULL;
    VqFex *fex = desc ? calloc(1, sizeof(*fex)) : NULL;
    if (fex)
        fex->priv = calloc(1, desc->priv_size ? desc->priv_size : 1);
    if (!fex || !fex->priv) {
        vq_fail(&err, VQ_EINVAL, "no extractor '%s'", name ? name : "");
        vq_spec_free(&spec);
        free(fex);
        return NULL;
    }
    fex->desc = desc;
    fex->err = &err;
    vq_opt_set_defaults(desc->options, fex->priv);
    for (unsigned i = 0; i < spec.n; i++)
        if (strcmp(spec.key[i], "name") &&
            vq_opt_set(desc->options, fex->priv, name, spec.key[i],
                       spec.val[i], &err)) {
            vq_spec_free(&spec);
            free(fex->priv);
            free(fex);
            return NULL;
        }
    vq_spec_free(&spec);
    return fex;
}

static void fex_free(VqFex *fex)
{
    if (fex->desc->close)
        fex->desc->close(fex);
    free(fex->priv);
    free(fex);
}

/* Device copy of a frame: pitched planes, padding filled with junk. */
typedef struct DevPic {
    void *dev[3];
    VqDevFrame view;
} DevPic;

static int upload_pic(VqGpu *gpu, DevPic *dp, const VqFormat *fmt,
                      const VqFrame *fr)
{
    memset(dp, 0, sizeof(*dp));
    dp->view.bpc = fmt->bpc;
    VqStream s = vq_gpu_compute_stream(gpu);
    for (unsigned p = 0; p < fmt->n_planes; p++) {
        /* the stored plane, as the core stages it (odd sizes: FFmpeg's
         * rounded-up chroma) */
        unsigned sh = fmt->sh[p];
        size_t row = (size_t)fmt->sw[p] * fmt->bytes_per_sample, pitch = 0;
        if (vq_gpu_malloc_pitch(gpu, &dp->dev[p], &pitch, row ? row : 1,
                                sh ? sh : 1, "test plane"))
            return -1;
        uint8_t *tmp = malloc(pitch * (sh ? sh : 1));
        if (!tmp)
            return -1;
        for (size_t i = 0; i < pitch * sh; i++)
            tmp[i] = (uint8_t)rnd();
        for (unsigned y = 0; y < sh; y++)
            memcpy(tmp + y * pitch, fr->plane[p].data + y * fr->plane[p].stride,
                   row);
        int e = vq_gpu_upload2d(gpu, s, dp->dev[p], pitch, tmp, pitch, pitch,
                                sh);
        if (!e)
            e = vq_gpu_sync(gpu, s);
        free(tmp);
        if (e)
            return -1;
        dp->view.plane[p].data = dp->dev[p];
        dp->view.plane[p].pitch = pitch;
        dp->view.plane[p].w = fmt->w[p];
        dp->view.plane[p].h = fmt->h[p];
    }
    return 0;
}

static void free_dev(VqGpu *gpu, DevPic *dp)
{
    for (unsigned p = 0; p < 3; p++)
        vq_gpu_free(gpu, dp->dev[p]);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Runs one case; bench > 0 also times both paths. Returns 0 when every
 * frame's records are equal. */
static int run_case(VqGpu *gpu, const char *spec, const Case *c, unsigned bench)
{
    VqFex *fex = fex_new(spec);
    if (!fex) {
        printf("FAIL %s: %s\n", spec, err.msg);
        return 1;
    }
    int fail = 0;
    HostPic ref, dis;
    DevPic dref = { 0 }, ddis = { 0 };
    VqFrame fr, fd;
    void *scratch = NULL, *acc_cpu = NULL, *acc_gpu = NULL, *acc_dev = NULL;
    char label[256];
    snprintf(label, sizeof(label), "%s %ux%u %s %u-bit %s", spec, c->w, c->h,
             vq_pix_fmt_name(c->fmt), c->bpc, fill_names[c->fill]);
    if (make_pic(&ref, NULL, c->fmt, c->bpc, c->w, c->h, c->fill, 0) ||
        vq_format_from_picture(&fex->fmt, &ref.pic, "reference", &err) ||
        fex->desc->init(fex, &fex->fmt)) {
        printf("FAIL %s: init: %s\n", label, err.msg);
        free_pic(&ref);
        fex_free(fex);
        return 1;
    }
    free_pic(&ref);
    scratch = fex->scratch_size ? aligned_alloc(64, (fex->scratch_size + 63) &
                                                        ~(size_t)63) : NULL;
    acc_cpu = calloc(1, fex->acc_size);
    acc_gpu = calloc(1, fex->acc_size);
    if ((fex->scratch_size && !scratch) || !acc_cpu || !acc_gpu ||
        vq_gpu_malloc(gpu, &acc_dev, fex->acc_size, "test record") ||
        (fex->desc->gpu_init && fex->desc->gpu_init(fex, gpu))) {
        printf("FAIL %s: setup: %s\n", label, err.msg);
        fail = 1;
    }
    for (unsigned i = 0; !fail && i < c->frames; i++) {
        if (make_pic(&ref, NULL, c->fmt, c->bpc, c->w, c->h, c->fill, i) ||
            make_pic(&dis, &ref.pic, c->fmt, c->bpc, c->w, c->h, c->fill, i)) {
            printf("FAIL %s: out of memory\n", label);
            fail = 1;
            break;
        }
        VqStream s = vq_gpu_compute_stream(gpu);
        if (vq_frame_from_picture(&fr, &fex->fmt, &ref.pic, "ref", &err) ||
            vq_frame_from_picture(&fd, &fex->fmt, &dis.pic, "dis", &err) ||
            upload_pic(gpu, &dref, &fex->fmt, &fr) ||
            upload_pic(gpu, &ddis, &fex->fmt, &fd)) {
            printf("FAIL %s: frame %u: %s\n", label, i, err.msg);
            fail = 1;
        }
        memset(acc_cpu, 0, fex->acc_size);
        if (!fail && fex->desc->cpu_run(fex, &fr, &fd, i, acc_cpu, scratch)) {
            printf("FAIL %s: cpu_run: %s\n", label, err.msg);
            fail = 1;
        }
        if (!fail && (vq_gpu_memset(gpu, s, acc_dev, 0, fex->acc_size) ||
                      fex->desc->gpu_run(fex, gpu, &dref.view, &ddis.view, i,
                                         acc_dev) ||
                      vq_gpu_download(gpu, s, acc_gpu, acc_dev, fex->acc_size) ||
                      vq_gpu_sync(gpu, s))) {
            printf("FAIL %s: gpu_run: %s\n", label, err.msg);
            fail = 1;
        }
        if (!fail && memcmp(acc_cpu, acc_gpu, fex->acc_size)) {
            printf("FAIL %s: frame %u: records differ (seed %llu)\n", label, i,
                   (unsigned long long)rng_state);
            const int64_t *a = acc_cpu, *b = acc_gpu;
            for (size_t k = 0; k < fex->acc_size / 8; k++)
                if (a[k] != b[k])
                    printf("     word %zu: cpu %lld gpu %lld\n", k,
                           (long long)a[k], (long long)b[k]);
            fail = 1;
        }
        if (!fail && bench && i + 1 == c->frames) {
            double t0 = now();
            for (unsigned k = 0; k < bench; k++)
                fex->desc->gpu_run(fex, gpu, &dref.view, &ddis.view, i, acc_dev);
            vq_gpu_sync(gpu, s);
            double tg = (now() - t0) / bench;
            unsigned nc = bench < 4 ? bench : 4;
            t0 = now();
            for (unsigned k = 0; k < nc; k++)
                fex->desc->cpu_run(fex, &fr, &fd, i, acc_cpu, scratch);
            double tc = (now() - t0) / nc;
            printf("bench %s: gpu %.3f ms (%.0f fps), cpu %.2f ms (%.1f fps)\n",
                   label, tg * 1e3, 1.0 / tg, tc * 1e3, 1.0 / tc);
        }
        free_dev(gpu, &dref);
        free_dev(gpu, &ddis);
        free_pic(&ref);
        free_pic(&dis);
    }
    if (!fail)
        printf("ok   %s (%u frames)\n", label, c->frames);
    if (fex->desc->gpu_close)
        fex->desc->gpu_close(fex, gpu);
    vq_gpu_free(gpu, acc_dev);
    free(scratch);
    free(acc_cpu);
    free(acc_gpu);
    fex_free(fex);
    return fail;
}

static int parse_fmt(const char *s, VqPixFmt *f)
{
    static const char *const n[] = { "400", "420", "422", "444" };
    for (int i = 0; i < 4; i++)
        if (!strcmp(s, n[i])) {
            *f = (VqPixFmt)i;
            return 0;
        }
    return -1;
}

int main(int argc, char **argv)
{
    const char *spec = "vif";
    Case one = { 0, 0, 8, VQ_PIX_FMT_420, FILL_RANDOM, 2 };
    unsigned bench = 0, seed = 1;
    for (int i = 1; i + 1 < argc; i += 2) {
        const char *k = argv[i], *v = argv[i + 1];
        if (!strcmp(k, "--feature")) spec = v;
        else if (!strcmp(k, "--size")) sscanf(v, "%ux%u", &one.w, &one.h);
        else if (!strcmp(k, "--bpc")) one.bpc = (unsigned)atoi(v);
        else if (!strcmp(k, "--fmt") && !parse_fmt(v, &one.fmt)) {}
        else if (!strcmp(k, "--frames")) one.frames = (unsigned)atoi(v);
        else if (!strcmp(k, "--seed")) seed = (unsigned)atoi(v);
        else if (!strcmp(k, "--bench")) bench = (unsigned)atoi(v);
        else if (!strcmp(k, "--fill")) {
            for (int f = 0; f < N_FILLS; f++)
                if (!strcmp(v, fill_names[f]))
                    one.fill = (Fill)f;
        } else {
            fprintf(stderr, "unknown argument %s\n", k);
            return 1;
        }
    }
    rng_state = seed;
    int present = vq_test_gpu_present("acc_parity");
    if (present)
        return present;
    VqGpu *gpu = NULL;
    if (vq_gpu_open(&gpu, 0, 0, &err)) {
        printf("FAIL: a GPU is present but does not open: %s\n", err.msg);
        return 1;
    }
    printf("device: %s (wave size %d), seed %u\n", vq_gpu_name(gpu),
           vq_gpu_wave_size(gpu), seed);
    unsigned fails = 0;
    if (one.w) {
        fails += run_case(gpu, spec, &one, bench);
    } else {
        static const unsigned sizes[][2] = {
            { 8, 8 }, { 15, 9 }, { 9, 15 }, { 12, 40 }, { 40, 12 },
            { 16, 16 }, { 17, 16 }, { 33, 17 }, { 37, 45 }, { 64, 48 },
            { 203, 117 }, { 1920, 1080 },
        };
        static const unsigned depths[] = { 8, 10, 12, 16 };
        static const VqPixFmt fmts[] = { VQ_PIX_FMT_420, VQ_PIX_FMT_444 };
        for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++)
            for (size_t d = 0; d < 4; d++)
                for (int f = 0; f < N_FILLS; f++) {
                    Case c = { sizes[s][0], sizes[s][1], depths[d],
                               fmts[(s + d) & 1], (Fill)f,
                               sizes[s][0] > 500 ? 1 : 2 };
                    fails += run_case(gpu, spec, &c, 0);
                }
    }
    vq_gpu_close(&gpu);
    printf("%u failure(s)\n", fails);
    return fails ? 1 : 0;
}
