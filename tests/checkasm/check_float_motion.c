/* checkasm entries of float_motion's DSP table (float_motion_dsp.h). */
#include <string.h>

#include "checkasm.h"
#include "extractors/float_motion/float_motion_dsp.h"

static const float taps5[] = { VQ_FMOTION_TAPS5 };
static const float taps3[] = { VQ_FMOTION_TAPS3 };
static const float taps1[] = { VQ_FMOTION_TAPS1 };

static float *plane(size_t n, int mode)
{
    float *p = ca_buf_alloc(4 * n);
    for (size_t k = 0; k < n; k++)
        p[k] = ca_fill_centred(mode);
    return p;
}

static void check_blur(CaFn ref_fn, CaFn new_fn)
{
    vq_float_motion_blur_fn ref = (vq_float_motion_blur_fn)ref_fn;
    vq_float_motion_blur_fn fn = (vq_float_motion_blur_fn)new_fn;
    for (int nt = 0; nt < 3; nt++)
        for (int mode = 0; mode < CA_FILL_MODES; mode++)
            for (unsigned i = 0; i < ca_n_widths; i++) {
                const unsigned w = ca_widths[i];
                if (w < VQ_FMOTION_MIN_SIDE)
                    continue;
                const unsigned h = VQ_FMOTION_MIN_SIDE + ca_rand() % 9;
                VqFloatMotionTaps t = { .n = nt == 1 ? 3 : 5 };
                const float *f = nt == 0 ? taps5 : nt == 1 ? taps3 : taps1;
                for (int k = 0; k < t.n; k++)
                    t.f[k] = f[k];
                const size_t n = (size_t)w * h, nv = w + 4 + 8;
                const float *src = plane(n, mode);
                float *a = ca_buf_alloc(4 * (n + 8));
                float *b = ca_buf_alloc(4 * (n + 8));
                ca_fill_bytes(a, 4 * (n + 8));
                memcpy(b, a, 4 * (n + 8));
                float *va = ca_buf_alloc(4 * nv), *vb = ca_buf_alloc(4 * nv);
                ca_context("%d taps, %s samples, %ux%u", t.n,
                           ca_fill_names[mode], w, h);
                ref(src, w, h, &t, va, a);
                fn(src, w, h, &t, vb, b);
                ca_check_u32("blurred plane", a, b, n + 8);
                ca_buf_free_all();
            }
}

static void check_sad_rows(CaFn ref_fn, CaFn new_fn)
{
    vq_float_motion_sad_rows_fn ref = (vq_float_motion_sad_rows_fn)ref_fn;
    vq_float_motion_sad_rows_fn fn = (vq_float_motion_sad_rows_fn)new_fn;
    for (int mode = 0; mode < CA_FILL_MODES; mode++)
        for (unsigned i = 0; i < ca_n_widths; i++) {
            const unsigned w = ca_widths[i];
            const unsigned h = w == CA_WIDE ? 9 : 1 + ca_rand() % 20;
            const size_t n = (size_t)w * h;
            const float *pa = plane(n, mode);
            const float *pb = plane(n, (mode + 1) % CA_FILL_MODES);
            float *a = ca_buf_alloc(4 * (h + 8)), *b = ca_buf_alloc(4 * (h + 8));
            ca_fill_bytes(a, 4 * (h + 8));
            memcpy(b, a, 4 * (h + 8));
            ca_context("%s samples, %ux%u", ca_fill_names[mode], w, h);
            ref(pa, pb, w, h, a);
            fn(pa, pb, w, h, b);
            ca_check_u32("row sums", a, b, h + 8);
            ca_buf_free_all();
        }
}

enum { BENCH_W = 1920, BENCH_H = 16 };

static void bench_blur(CaFn f)
{
    vq_float_motion_blur_fn fn = (vq_float_motion_blur_fn)f;
    VqFloatMotionTaps t = { .n = 5 };
    for (int k = 0; k < 5; k++)
        t.f[k] = taps5[k];
    const float *src = plane((size_t)BENCH_W * BENCH_H, CA_FILL_RANDOM);
    float *dst = ca_buf_alloc(4 * BENCH_W * BENCH_H);
    float *vrow = ca_buf_alloc(4 * (BENCH_W + 4));
    CA_BENCH(fn(src, BENCH_W, BENCH_H, &t, vrow, dst));
}

static void bench_sad_rows(CaFn f)
{
    vq_float_motion_sad_rows_fn fn = (vq_float_motion_sad_rows_fn)f;
    const float *a = plane((size_t)BENCH_W * BENCH_H, CA_FILL_RANDOM);
    const float *b = plane((size_t)BENCH_W * BENCH_H, CA_FILL_RANDOM);
    float *rows = ca_buf_alloc(4 * BENCH_H);
    CA_BENCH(fn(a, b, BENCH_W, BENCH_H, rows));
}

static const CaFunc fmotion_funcs[] = {
    { "blur", offsetof(VqFloatMotionDsp, blur), check_blur, bench_blur },
    { "sad_rows", offsetof(VqFloatMotionDsp, sad_rows), check_sad_rows,
      bench_sad_rows },
    { 0 }
};

CA_TABLE(float_motion, VqFloatMotionDsp, vq_float_motion_dsp_init, fmotion_funcs);
