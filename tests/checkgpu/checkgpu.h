/*
 * checkgpu: GPU vs CPU parity harness in the style of dav1d's checkasm.
 * Each extractor with a GPU path has one ParityCase (cases.c): the option
 * sets to try, the smallest size it accepts and how many frames a run needs
 * (temporal extractors need several).
 */
#ifndef VQHIP_CHECKGPU_H
#define VQHIP_CHECKGPU_H

typedef struct ParityCase {
    const char *name;
    const char *const *specs; /* NULL terminated feature specs */
    unsigned min_w, min_h;
    unsigned frames;
} ParityCase;

extern const ParityCase parity_cases[];

/* Sizes a case is tried at besides the common ones (e.g. odd sizes above a
 * large minimum, 4K): sizes ends with { 0, 0 }; the list ends with a NULL
 * name. */
typedef struct ParitySizes {
    const char *name;
    const unsigned (*sizes)[2];
} ParitySizes;

extern const ParitySizes parity_extra_sizes[];

#endif
