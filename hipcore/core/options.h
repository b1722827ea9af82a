/*
 * Option tables in the shape of libvmaf's: one entry per option, stored at an
 * offset in the owner's private struct. Specs use libvmaf's syntax,
 * "name=psnr:enable_chroma=true" (a bare first word is the name).
 */
#ifndef VQHIP_OPTIONS_H
#define VQHIP_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

#include "base/error.h"

typedef enum VqOptType {
    VQ_OPT_BOOL,   /* stored as bool */
    VQ_OPT_INT,    /* stored as int */
    VQ_OPT_DOUBLE, /* stored as double */
    VQ_OPT_ENUM,   /* one of `choices` by name, stored as its index (int) */
    VQ_OPT_STRING, /* stored as char[VQ_OPT_STRING_SIZE], zero padded */
} VqOptType;

/* Room for a string option's value, terminator included. Values are kept
 * inside the owner's struct (no ownership to track) and zero padded, so two
 * structs with equal values compare equal byte for byte. Large enough for a
 * directory path (cambi's heatmaps_path). */
#define VQ_OPT_STRING_SIZE 512

enum {
    /* A non-default value changes the output names, as libvmaf's
     * VMAF_OPT_FLAG_FEATURE_PARAM does ("integer_adm2_egl_1"). */
    VQ_OPT_FEATURE_PARAM = 1 << 0,
};

typedef struct VqOption {
    const char *name;
    const char *help;
    const char *alias; /* short key used in output names; NULL = name */
    size_t offset;
    VqOptType type;
    union {
        bool b;
        int i;
        double d;
        const char *s;
    } def;
    double min, max;   /* for INT and DOUBLE */
    unsigned flags;
    /* ENUM: the names, stored as the index; STRING: the accepted values
     * (NULL accepts any value that fits VQ_OPT_STRING_SIZE). NULL
     * terminated. */
    const char *const *choices;
} VqOption;

/* key=value list parsed from a spec, in the given order. */
#define VQ_SPEC_MAX_ENTRIES 32
typedef struct VqSpec {
    unsigned n;
    char *key[VQ_SPEC_MAX_ENTRIES];
    char *val[VQ_SPEC_MAX_ENTRIES];
    char *buf;
} VqSpec;

/* Splits "a=1:b=2" (a bare first word w means name=w). */
int vq_spec_parse(VqSpec *spec, const char *text, VqErrBuf *e);
void vq_spec_free(VqSpec *spec);
const char *vq_spec_get(const VqSpec *spec, const char *key);

void vq_opt_set_defaults(const VqOption *opts, void *obj);
/* Sets one option from its text value; unknown keys and bad values are errors
 * that list what is valid. owner names the extractor or model in messages. */
int vq_opt_set(const VqOption *opts, void *obj, const char *owner,
               const char *key, const char *val, VqErrBuf *e);
const VqOption *vq_opt_find(const VqOption *opts, const char *key);
/* Writes "opt1, opt2, ..." into buf. */
void vq_opt_list(const VqOption *opts, char *buf, size_t size);
/* Bytes an option's value occupies in its owner's struct. */
size_t vq_opt_size(const VqOption *opt);
/* Nonzero when the value in obj equals the option's default. */
int vq_opt_is_default(const VqOption *opt, const void *obj);
/* An option's value in obj as text a spec takes back: true/false, the
 * integer, the double with %.17g (exact), the enum's name, the string.
 * Call with the C locale active. */
void vq_opt_format(const VqOption *opt, const void *obj, char *buf,
                   size_t size);
/* Output name for a provided feature, suffixed libvmaf's way by every
 * FEATURE_PARAM option that is not at its default (keys sorted
 * alphabetically; "_key" for bools, "_key_%d" for ints, "_key_%g" for
 * doubles, "_key_<name>" for enums, "_key_value" for strings). Caller
 * frees. */
char *vq_opt_output_name(const char *base, const VqOption *opts,
                         const void *obj);

#endif
