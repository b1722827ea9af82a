/*
 * checkasm: every SIMD variant of every DSP function against its C
 * function, bit for bit, on random and extreme inputs of many widths.
 *
 * Table-driven: each extractor with a DSP table (hipcore/cpu.h) has one
 * check_<name>.c defining a CaTable: its table's size and init function,
 * and one CaFunc per function of the table. For each function the harness
 * fills the table at each instruction-set level (C, +avx2, +avx512); a
 * level whose pointer differs from the level below is a variant, which runs
 * against the C function when the CPU has it.
 *
 * A CaFunc's check(ref, fn) calls both functions on the same inputs (from
 * ca_rand and the ca_fill_* helpers, so that a seed repeats a run), over
 * the widths of ca_widths and the extremes of each bit depth, and compares
 * every output with ca_check (outputs in buffers of ca_buf_alloc a little
 * longer than the output and filled alike beforehand, compared whole, so
 * that writes past the end are differences too).
 */
#ifndef VQHIP_TESTS_CHECKASM_H
#define VQHIP_TESTS_CHECKASM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cpu.h"

/* A DSP function of any signature; check and bench cast it back. */
typedef void (*CaFn)(void);

typedef struct CaFunc {
    const char *name;   /* "stat_row": the table's field */
    size_t offset;      /* offsetof(table type, field) */
    void (*check)(CaFn ref, CaFn fn);
    /* --bench (may be NULL): typical inputs, then CA_BENCH(call of fn) */
    void (*bench)(CaFn fn);
} CaFunc;

typedef struct CaTable {
    const char *name; /* the extractor */
    size_t size;      /* sizeof its table */
    void (*init)(void *table, unsigned flags);
    const CaFunc *funcs; /* ends with a NULL name */
} CaTable;

/* The widths a check covers: 1 .. 70, then a large odd one. */
extern const unsigned ca_widths[];
extern const unsigned ca_n_widths;
#define CA_WIDE 4099

/* Random numbers, seeded per function and variant (--seed). */
uint32_t ca_rand(void);
uint64_t ca_rand64(void);

/* How samples are filled: random, all zero, all at the maximum, or zeros
 * and maxima mixed at random. */
enum { CA_FILL_RANDOM, CA_FILL_ZERO, CA_FILL_MAX, CA_FILL_EXTREMES,
       CA_FILL_MODES };
extern const char *const ca_fill_names[CA_FILL_MODES];
void ca_fill_u8(uint8_t *p, size_t n, int mode);
void ca_fill_u16(uint16_t *p, size_t n, unsigned bpc, int mode);
/* n rows of w samples (8-bit for bpc 8, else 16-bit), each in its own ca
 * buffer. */
void ca_fill_rows(const void **rows, unsigned n, size_t w, unsigned bpc,
                  int mode);
/* A signed value in [-max, max] (an intermediate result of a filter): max
 * for CA_FILL_MAX, 0, max or -max for CA_FILL_EXTREMES. */
int32_t ca_fill_signed(int mode, int32_t max);
/* A sample as the float extractors see one (an 8-bit or scaled 16-bit
 * value minus 128): [-128, 128) in steps of 1/256, or 0 / an extreme. */
float ca_fill_centred(int mode);
/* random bytes (output buffers: fill ref's and fn's alike with memcpy) */
void ca_fill_bytes(void *p, size_t n);

/* Zeroed memory of exactly this size (so that the sanitizer build catches
 * reads and writes past it: give each input row its own). Freed after each
 * check, or earlier by ca_buf_free_all. */
void *ca_buf_alloc(size_t bytes);
void ca_buf_free_all(void);

/* What the inputs of the next comparisons were ("s=2 w=37 bpc=10"). */
void ca_context(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* Compares n elements of size elem (1, 2, 4 or 8; signed when sgn) of the
 * C function's output with the variant's; a difference is a failure of the
 * variant, reported with the context. Returns true when equal. */
bool ca_check(const char *what, const void *ref, const void *got, size_t n,
              size_t elem, bool sgn);
#define ca_check_u16(what, a, b, n) ca_check(what, a, b, n, 2, false)
#define ca_check_i32(what, a, b, n) ca_check(what, a, b, n, 4, true)
#define ca_check_u32(what, a, b, n) ca_check(what, a, b, n, 4, false)
#define ca_check_i64(what, a, b, n) ca_check(what, a, b, n, 8, true)
#define ca_check_u64(what, a, b, n) ca_check(what, a, b, n, 8, false)

/* --bench: calls `call` repeatedly for a while and records the time of one
 * call. */
void ca_bench_begin(void);
bool ca_bench_more(void);
void ca_bench_end(unsigned long calls);
#define CA_BENCH(call)                                                        \
    do {                                                                      \
        unsigned long ca_calls_ = 0;                                          \
        ca_bench_begin();                                                     \
        do {                                                                  \
            for (int ca_k_ = 0; ca_k_ < 16; ca_k_++)                          \
                call;                                                         \
            ca_calls_ += 16;                                                  \
        } while (ca_bench_more());                                            \
        ca_bench_end(ca_calls_);                                              \
    } while (0)

/* Defines a CaTable named ca_table_<name> for a table of type T filled by
 * init_fn(T *, unsigned flags). */
#define CA_TABLE(name, T, init_fn, funcs_array)                               \
    static void ca_init_##name(void *t, unsigned flags)                       \
    {                                                                         \
        init_fn((T *)t, flags);                                               \
    }                                                                         \
    const CaTable ca_table_##name = { #name, sizeof(T), ca_init_##name,       \
                                      funcs_array }

/* The tables checked (checkasm.c lists them). */
extern const CaTable ca_table_adm;
extern const CaTable ca_table_adm_rows;
extern const CaTable ca_table_float_adm;
extern const CaTable ca_table_float_vif;
extern const CaTable ca_table_cambi;
extern const CaTable ca_table_motion;
extern const CaTable ca_table_motion_v2;
extern const CaTable ca_table_psnr;
extern const CaTable ca_table_vif;
extern const CaTable ca_table_float_ssim;
extern const CaTable ca_table_float_ms_ssim;
extern const CaTable ca_table_ssim;
extern const CaTable ca_table_psnr_hvs;
extern const CaTable ca_table_ciede;
extern const CaTable ca_table_speed;
extern const CaTable ca_table_ssimulacra2;
extern const CaTable ca_table_float_motion;
extern const CaTable ca_table_float_moment;
extern const CaTable ca_table_float_ansnr;

#endif
