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

/* Names of the cases that also run at 3840x2160 (8 and 10 bits, 4:2:0,
 * two fills; not with --quick), NULL terminated. */
extern const char *const parity_uhd[];

#endif
