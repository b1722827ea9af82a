/* checkasm entries of motion_v2's DSP table (motion_v2_dsp.h). */
#include <string.h>

#include "checkasm.h"
#include "extractors/motion_v2/motion_v2_dsp.h"

static void check_vert(CaFn ref_fn, CaFn new_fn, unsigned bpc0, unsigned bpc1)
{
    for (unsigned bpc = bpc0; bpc <= bpc1; bpc++)
        for (int mp = 0; mp < CA_FILL_MODES; mp++)
            for (int mc = 0; mc < CA_FILL_MODES; mc++)
                for (unsigned i = 0; i < ca_n_widths; i++) {
                    size_t w = ca_widths[i], n_out = w + 8;
                    const void *p[5], *c[5];
                    ca_fill_rows(p, 5, w, bpc, mp);
                    ca_fill_rows(c, 5, w, bpc, mc);
                    int32_t *a = ca_buf_alloc(4 * n_out);
                    int32_t *b = ca_buf_alloc(4 * n_out);
                    ca_fill_bytes(a, 4 * n_out);
                    memcpy(b, a, 4 * n_out);
                    ca_context("%u-bit, %s previous, %s current, w %zu", bpc,
                               ca_fill_names[mp], ca_fill_names[mc], w);
                    if (bpc == 8) {
                        ((vq_motion_v2_vert_u8_fn)ref_fn)(
                            a, (const uint8_t *const *)p,
                            (const uint8_t *const *)c, w);
                        ((vq_motion_v2_vert_u8_fn)new_fn)(
                            b, (const uint8_t *const *)p,
                            (const uint8_t *const *)c, w);
                    } else {
                        ((vq_motion_v2_vert_u16_fn)ref_fn)(
                            a, (const uint16_t *const *)p,
                            (const uint16_t *const *)c, w, bpc);
                        ((vq_motion_v2_vert_u16_fn)new_fn)(
                            b, (const uint16_t *const *)p,
                            (const uint16_t *const *)c, w, bpc);
                    }
                    ca_check_i32("v", a, b, n_out);
                    ca_buf_free_all();
                }
}

static void check_vert_u8(CaFn ref, CaFn fn)
{
    check_vert(ref, fn, 8, 8);
}

static void check_vert_u16(CaFn ref, CaFn fn)
{
    check_vert(ref, fn, 9, 16);
}

static void check_hor_sad(CaFn ref_fn, CaFn new_fn)
{
    vq_motion_v2_hor_sad_fn ref = (vq_motion_v2_hor_sad_fn)ref_fn;
    vq_motion_v2_hor_sad_fn fn = (vq_motion_v2_hor_sad_fn)new_fn;
    for (unsigned round = 0; round < 4; round++)
        for (int mode = 0; mode < CA_FILL_MODES; mode++)
            for (unsigned i = 0; i <= ca_n_widths; i++) {
                /* and the widest frame at the largest values */
                size_t w = i < ca_n_widths ? ca_widths[i] : 65536;
                int m = i < ca_n_widths ? mode : CA_FILL_MAX;
                int32_t *v = ca_buf_alloc(4 * (w + 4));
                for (size_t j = 0; j < w + 4; j++)
                    v[j] = ca_fill_signed(m, 65535);
                ca_context("%s values, w %zu", ca_fill_names[m], w);
                uint32_t a = ref(v, w), b = fn(v, w);
                ca_check_u32("sad", &a, &b, 1);
                ca_buf_free_all();
            }
}

enum { BENCH_W = 1920 };

static void bench_vert(CaFn f, unsigned bpc)
{
    const void *p[5], *c[5];
    ca_fill_rows(p, 5, BENCH_W, bpc, CA_FILL_RANDOM);
    ca_fill_rows(c, 5, BENCH_W, bpc, CA_FILL_RANDOM);
    int32_t *v = ca_buf_alloc(4 * BENCH_W);
    if (bpc == 8) {
        vq_motion_v2_vert_u8_fn fn = (vq_motion_v2_vert_u8_fn)f;
        CA_BENCH(fn(v, (const uint8_t *const *)p, (const uint8_t *const *)c,
                    BENCH_W));
    } else {
        vq_motion_v2_vert_u16_fn fn = (vq_motion_v2_vert_u16_fn)f;
        CA_BENCH(fn(v, (const uint16_t *const *)p, (const uint16_t *const *)c,
                    BENCH_W, bpc));
    }
}

static void bench_vert_u8(CaFn f)
{
    bench_vert(f, 8);
}

static void bench_vert_u16(CaFn f)
{
    bench_vert(f, 10);
}

static void bench_hor_sad(CaFn f)
{
    vq_motion_v2_hor_sad_fn fn = (vq_motion_v2_hor_sad_fn)f;
    int32_t *v = ca_buf_alloc(4 * (BENCH_W + 4));
    for (size_t j = 0; j < BENCH_W + 4; j++)
        v[j] = ca_fill_signed(CA_FILL_RANDOM, 65535);
    volatile uint32_t sink;
    CA_BENCH(sink = fn(v, BENCH_W));
    (void)sink;
}

static const CaFunc motion_v2_funcs[] = {
    { "vert_u8", offsetof(VqMotionV2Dsp, vert_u8), check_vert_u8,
      bench_vert_u8 },
    { "vert_u16", offsetof(VqMotionV2Dsp, vert_u16), check_vert_u16,
      bench_vert_u16 },
    { "hor_sad", offsetof(VqMotionV2Dsp, hor_sad), check_hor_sad,
      bench_hor_sad },
    { 0 }
};

CA_TABLE(motion_v2, VqMotionV2Dsp, vq_motion_v2_dsp_init, motion_v2_funcs);
