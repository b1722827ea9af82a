/*
 * checkasm entry of ssimulacra2's CPU variants (ssimulacra2_priv.h):
 * its variants are whole-frame functions, so the table here has one entry,
 * filled from the flags as vq_ssimulacra2_cpu_choose fills it from the CPU. The
 * records of a frame pair (every scale's sums) are compared bit for bit, on
 * random pictures of the checked widths (8 and up: the smallest frame
 * ssimulacra2 takes), odd heights, every layout and depth.
 */
#include <stdlib.h>
#include <string.h>

#include "checkasm.h"
#include "extractors/ssimulacra2/ssimulacra2_priv.h"
#include "picture.h"

typedef struct S2Table {
    VqSsimulacra2CpuFrame frame;
} S2Table;

static void s2_table_init(S2Table *t, unsigned flags)
{
    t->frame = vq_ssimulacra2_cpu_frame_c;
#if VQ_S2_HAVE_AVX2
    __builtin_cpu_init();
    if ((flags & VQ_CPU_AVX2) && __builtin_cpu_supports("fma"))
        t->frame = vq_ssimulacra2_cpu_frame_avx2;
#else
    (void)flags;
#endif
}

/* One picture of random samples (mode: ca_fill_*), planes in ca buffers. */
static VqPicture make_pic(VqPixFmt pf, unsigned bpc, unsigned w, unsigned h,
                          int mode)
{
    VqPicture p = { .fmt = pf, .bpc = bpc, .w = w, .h = h };
    const unsigned bps = bpc > 8 ? 2 : 1;
    const unsigned n_planes = pf == VQ_PIX_FMT_GRAY ? 1 : 3;
    for (unsigned k = 0; k < n_planes; k++) {
        unsigned pw = w, ph = h;
        if (k && pf != VQ_PIX_FMT_444)
            pw = (w + 1) / 2;
        if (k && pf == VQ_PIX_FMT_420)
            ph = (h + 1) / 2;
        const size_t stride = (size_t)(pw + (ca_rand() % 5)) * bps;
        void *d = ca_buf_alloc(stride * ph);
        for (unsigned y = 0; y < ph; y++) {
            if (bps == 1)
                ca_fill_u8((uint8_t *)d + y * stride, pw, mode);
            else
                ca_fill_u16((uint16_t *)(void *)((uint8_t *)d + y * stride),
                            pw, bpc, mode);
        }
        p.data[k] = d;
        p.stride[k] = (ptrdiff_t)stride;
    }
    return p;
}

/* The frames, colour conversions, blur and sizes of one picture pair, as
 * the extractor sets them up; nonzero when the pair cannot be scored. */
typedef struct S2Pair {
    VqFormat fmt;
    VqFrame fr, fd;
    VqSsimulacra2Params par;
    VqSsimulacra2Dims dims;
} S2Pair;

static int s2_pair(S2Pair *s, const VqPicture *r, const VqPicture *d)
{
    VqErrBuf e = { 0 };
    memset(s, 0, sizeof(*s));
    if (vq_format_from_picture(&s->fmt, r, "ref", &e) ||
        vq_format_set_color(&s->fmt, r, d) ||
        vq_frame_from_picture(&s->fr, &s->fmt, r, "ref", &e) ||
        vq_frame_from_picture(&s->fd, &s->fmt, d, "dis", &e) ||
        vq_ssimulacra2_color(&s->par.color[0], &s->fmt, 0, 0, 0, &e) ||
        vq_ssimulacra2_color(&s->par.color[1], &s->fmt, 1, 0, 0, &e))
        return -1;
    vq_ssimulacra2_blur_coeffs(&s->par.blur, 1.5);
    s->par.neg_bias_cbrt = vq_ssimulacra2_neg_bias_cbrt();
    vq_ssimulacra2_dims(&s->dims, r->w, r->h);
    return 0;
}

static void check_frame(CaFn ref_fn, CaFn new_fn)
{
    static const VqPixFmt fmts[] = { VQ_PIX_FMT_420, VQ_PIX_FMT_422,
                                     VQ_PIX_FMT_444, VQ_PIX_FMT_GRAY };
    static const unsigned depths[] = { 8, 10, 12, 16 };
    VqSsimulacra2CpuFrame ref = (VqSsimulacra2CpuFrame)ref_fn, fn = (VqSsimulacra2CpuFrame)new_fn;
    for (unsigned i = 0; i < ca_n_widths; i++) {
        const unsigned w = ca_widths[i];
        if (w < 8)
            continue;
        const unsigned h = w == CA_WIDE ? 9 : 8 + (ca_rand() % 24);
        const VqPixFmt pf = fmts[i % 4];
        const unsigned bpc = depths[(i / 4) % 4];
        /* mostly random pictures, some flat or extreme ones */
        const int mr = i % 7 ? CA_FILL_RANDOM : (int)(i / 7) % CA_FILL_MODES;
        const int md = i % 5 ? CA_FILL_RANDOM : (int)(i / 5) % CA_FILL_MODES;
        VqPicture r = make_pic(pf, bpc, w, h, mr);
        VqPicture d = make_pic(pf, bpc, w, h, md);
        r.chroma_loc = d.chroma_loc = (VqChromaLoc)(i % 7);
        S2Pair sp;
        ca_context("%ux%u %s %u-bit, %s reference, %s distorted", w, h,
                   vq_pix_fmt_name(pf), bpc, ca_fill_names[mr],
                   ca_fill_names[md]);
        if (s2_pair(&sp, &r, &d)) {
            const uint8_t one = 1, zero = 0; /* a setup failure fails */
            ca_check("setup", &zero, &one, 1, 1, false);
            ca_buf_free_all();
            continue;
        }
        const size_t n = sp.dims.n_doubles;
        const size_t ss = vq_ssimulacra2_cpu_scratch_size(&sp.dims);
        double *a = ca_buf_alloc(8 * n), *b = ca_buf_alloc(8 * n);
        void *scr = aligned_alloc(64, (ss + 63) & ~(size_t)63);
        if (!scr)
            abort();
        memset(scr, 0, ss);
        ref(&sp.par, &sp.dims, &sp.fmt, &sp.fr, &sp.fd, scr, a);
        memset(scr, 0x5a, ss); /* stale scratch must not matter */
        fn(&sp.par, &sp.dims, &sp.fmt, &sp.fr, &sp.fd, scr, b);
        free(scr);
        ca_check_u64("record", a, b, n);
        ca_buf_free_all();
    }
}

static void bench_frame(CaFn f)
{
    VqSsimulacra2CpuFrame fn = (VqSsimulacra2CpuFrame)f;
    VqPicture r = make_pic(VQ_PIX_FMT_420, 8, 256, 144, CA_FILL_RANDOM);
    VqPicture d = make_pic(VQ_PIX_FMT_420, 8, 256, 144, CA_FILL_RANDOM);
    S2Pair sp;
    if (s2_pair(&sp, &r, &d))
        return;
    const size_t ss = vq_ssimulacra2_cpu_scratch_size(&sp.dims);
    double *rec = ca_buf_alloc(8 * sp.dims.n_doubles);
    void *scr = aligned_alloc(64, (ss + 63) & ~(size_t)63);
    if (!scr)
        abort();
    CA_BENCH(fn(&sp.par, &sp.dims, &sp.fmt, &sp.fr, &sp.fd, scr, rec));
    free(scr);
}

static const CaFunc s2_funcs[] = {
    { "frame", offsetof(S2Table, frame), check_frame, bench_frame },
    { 0 }
};

CA_TABLE(ssimulacra2, S2Table, s2_table_init, s2_funcs);
