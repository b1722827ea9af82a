/* checkasm entries of ciede's DSP table (ciede_dsp.h). */
#include <stdlib.h>
#include <string.h>

#include "checkasm.h"
#include "extractors/ciede/ciede_dsp.h"

/* n samples of one row, each row in its own buffer of the exact size. */
static const uint8_t *make_row(unsigned n, unsigned bpc, int mode)
{
    if (bpc == 8) {
        uint8_t *p = ca_buf_alloc(n);
        ca_fill_u8(p, n, mode);
        return p;
    }
    uint16_t *p = ca_buf_alloc(n * sizeof(uint16_t));
    ca_fill_u16(p, n, bpc, mode);
    return (const uint8_t *)p;
}

static void check_one(vq_ciede_row_fn ref, vq_ciede_row_fn fn, unsigned w,
                      unsigned ss_x, unsigned bpc, int mode_r, int mode_d)
{
    unsigned cw = ss_x ? (w >> 1 ? w >> 1 : 1) : w;
    const uint8_t *row[6];
    for (int k = 0; k < 6; k++)
        row[k] = make_row(k % 3 ? cw : w, bpc, k < 3 ? mode_r : mode_d);
    ca_context("w %u, ss_x %u, %u-bit, %s reference, %s distorted", w, ss_x,
               bpc, ca_fill_names[mode_r], ca_fill_names[mode_d]);
    /* the row adds to the record: start both from the same contents */
    VqCiedeAcc a, b;
    ca_fill_bytes(&a, sizeof(a));
    memcpy(&b, &a, sizeof(b));
    void *scratch = malloc(vq_ciede_row_scratch(w));
    if (!scratch)
        exit(2);
    unsigned bps = bpc > 8 ? 2 : 1;
    ref(row, bps, w, ss_x, cw, bpc, scratch, &a);
    fn(row, bps, w, ss_x, cw, bpc, scratch, &b);
    free(scratch);
    ca_check_u64("record", &a, &b, sizeof(a) / sizeof(uint64_t));
    ca_buf_free_all();
}

static void check_row(CaFn ref_fn, CaFn new_fn)
{
    vq_ciede_row_fn ref = (vq_ciede_row_fn)ref_fn, fn = (vq_ciede_row_fn)new_fn;
    for (unsigned bpc = 8; bpc <= 16; bpc++)
        for (unsigned ss_x = 0; ss_x < 2; ss_x++) {
            for (int mr = 0; mr < CA_FILL_MODES; mr++)
                for (int md = 0; md < CA_FILL_MODES; md++)
                    for (unsigned i = (unsigned)(mr + md) % 5; i < ca_n_widths; i += 5)
                        check_one(ref, fn, ca_widths[i], ss_x, bpc, mr, md);
            check_one(ref, fn, CA_WIDE, ss_x, bpc, CA_FILL_RANDOM,
                      CA_FILL_RANDOM);
        }
}

static void bench_row(CaFn f)
{
    vq_ciede_row_fn fn = (vq_ciede_row_fn)f;
    const uint8_t *row[6];
    for (int k = 0; k < 6; k++)
        row[k] = make_row(k % 3 ? 960 : 1920, 8, CA_FILL_RANDOM);
    void *scratch = malloc(vq_ciede_row_scratch(1920));
    if (!scratch)
        exit(2);
    VqCiedeAcc acc;
    memset(&acc, 0, sizeof(acc));
    CA_BENCH(fn(row, 1, 1920, 1, 960, 8, scratch, &acc));
    free(scratch);
}

static const CaFunc ciede_funcs[] = {
    { "row", offsetof(VqCiedeDsp, row), check_row, bench_row },
    { 0 }
};

CA_TABLE(ciede, VqCiedeDsp, vq_ciede_dsp_init, ciede_funcs);
