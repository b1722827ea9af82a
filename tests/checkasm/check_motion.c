/* checkasm entries of integer motion's DSP table (motion_dsp.h). */
#include <string.h>

#include "../../kernels/motion/motion.h"
#include "checkasm.h"
#include "extractors/motion/motion_dsp.h"

/* Output rows with 8 more values, the same random contents for both. */
static void make_out(size_t n, int16_t *out[4])
{
    for (unsigned k = 0; k < 4; k++)
        out[k] = ca_buf_alloc(2 * n);
    ca_fill_bytes(out[0], 2 * n);
    for (unsigned k = 1; k < 4; k++)
        memcpy(out[k], out[0], 2 * n);
}

static void check_vblur(CaFn ref_fn, CaFn new_fn, unsigned bpc0,
                        unsigned bpc1)
{
    for (unsigned bpc = bpc0; bpc <= bpc1; bpc++)
        for (int mp = 0; mp < CA_FILL_MODES; mp++)
            for (int mc = 0; mc < CA_FILL_MODES; mc++)
                for (unsigned i = 0; i < ca_n_widths; i++) {
                    size_t w = ca_widths[i], n_out = w + 8;
                    const void *p[5], *c[5];
                    ca_fill_rows(p, 5, w, bpc, mp);
                    ca_fill_rows(c, 5, w, bpc, mc);
                    int16_t *out[4];
                    make_out(n_out, out);
                    ca_context("%u-bit, %s previous, %s current, w %zu", bpc,
                               ca_fill_names[mp], ca_fill_names[mc], w);
                    if (bpc == 8) {
                        vq_motion_vblur_u8_fn ref =
                            (vq_motion_vblur_u8_fn)ref_fn;
                        vq_motion_vblur_u8_fn fn =
                            (vq_motion_vblur_u8_fn)new_fn;
                        ref(out[0], out[1], (const uint8_t *const *)p,
                            (const uint8_t *const *)c, w);
                        fn(out[2], out[3], (const uint8_t *const *)p,
                           (const uint8_t *const *)c, w);
                    } else {
                        vq_motion_vblur_u16_fn ref =
                            (vq_motion_vblur_u16_fn)ref_fn;
                        vq_motion_vblur_u16_fn fn =
                            (vq_motion_vblur_u16_fn)new_fn;
                        ref(out[0], out[1], (const uint16_t *const *)p,
                            (const uint16_t *const *)c, w, bpc);
                        fn(out[2], out[3], (const uint16_t *const *)p,
                           (const uint16_t *const *)c, w, bpc);
                    }
                    ca_check("hi", out[0], out[2], n_out, 2, true);
                    ca_check("lo", out[1], out[3], n_out, 2, true);
                    ca_buf_free_all();
                }
}

static void check_vblur_u8(CaFn ref, CaFn fn)
{
    check_vblur(ref, fn, 8, 8);
}

static void check_vblur_u16(CaFn ref, CaFn fn)
{
    check_vblur(ref, fn, 9, 16);
}

static void check_hblur_sad(CaFn ref_fn, CaFn new_fn)
{
    vq_motion_hblur_sad_fn ref = (vq_motion_hblur_sad_fn)ref_fn;
    vq_motion_hblur_sad_fn fn = (vq_motion_hblur_sad_fn)new_fn;
    for (unsigned round = 0; round < 4; round++)
        for (int mode = 0; mode < CA_FILL_MODES; mode++)
            for (unsigned i = 0; i <= ca_n_widths; i++) {
                /* and the widest frame at the largest values */
                size_t w = i < ca_n_widths ? ca_widths[i] : 16384;
                int m = i < ca_n_widths ? mode : CA_FILL_MAX;
                /* w + 4 values and the one the contract lets
                 * variants read after them */
                int16_t *hi = ca_buf_alloc(2 * (w + 5));
                int16_t *lo = ca_buf_alloc(2 * (w + 5));
                for (size_t j = 0; j < w + 5; j++) {
                    int32_t v = ca_fill_signed(m, 65535);
                    hi[j] = vq_motion_hi(v);
                    lo[j] = vq_motion_lo(v);
                }
                ca_context("%s values, w %zu", ca_fill_names[m], w);
                uint32_t a = ref(hi, lo, w), b = fn(hi, lo, w);
                ca_check_u32("sad", &a, &b, 1);
                ca_buf_free_all();
            }
}

enum { BENCH_W = 1920 };

static void bench_vblur(CaFn f, unsigned bpc)
{
    const void *p[5], *c[5];
    ca_fill_rows(p, 5, BENCH_W, bpc, CA_FILL_RANDOM);
    ca_fill_rows(c, 5, BENCH_W, bpc, CA_FILL_RANDOM);
    int16_t *out[4];
    make_out(BENCH_W, out);
    if (bpc == 8) {
        vq_motion_vblur_u8_fn fn = (vq_motion_vblur_u8_fn)f;
        CA_BENCH(fn(out[0], out[1], (const uint8_t *const *)p,
                    (const uint8_t *const *)c, BENCH_W));
    } else {
        vq_motion_vblur_u16_fn fn = (vq_motion_vblur_u16_fn)f;
        CA_BENCH(fn(out[0], out[1], (const uint16_t *const *)p,
                    (const uint16_t *const *)c, BENCH_W, bpc));
    }
}

static void bench_vblur_u8(CaFn f)
{
    bench_vblur(f, 8);
}

static void bench_vblur_u16(CaFn f)
{
    bench_vblur(f, 10);
}

static void bench_hblur_sad(CaFn f)
{
    vq_motion_hblur_sad_fn fn = (vq_motion_hblur_sad_fn)f;
    int16_t *hi = ca_buf_alloc(2 * (BENCH_W + 5));
    int16_t *lo = ca_buf_alloc(2 * (BENCH_W + 5));
    for (size_t j = 0; j < BENCH_W + 5; j++) {
        int32_t v = ca_fill_signed(CA_FILL_RANDOM, 65535);
        hi[j] = vq_motion_hi(v);
        lo[j] = vq_motion_lo(v);
    }
    volatile uint32_t sink;
    CA_BENCH(sink = fn(hi, lo, BENCH_W));
    (void)sink;
}

static const CaFunc motion_funcs[] = {
    { "vblur_u8", offsetof(VqMotionDsp, vblur_u8), check_vblur_u8,
      bench_vblur_u8 },
    { "vblur_u16", offsetof(VqMotionDsp, vblur_u16), check_vblur_u16,
      bench_vblur_u16 },
    { "hblur_sad", offsetof(VqMotionDsp, hblur_sad), check_hblur_sad,
      bench_hblur_sad },
    { 0 }
};

CA_TABLE(motion, VqMotionDsp, vq_motion_dsp_init, motion_funcs);
