/*
 * libvmaf's model files built into the library (-Dbuiltin_models=true, the
 * default): scripts/embed-models.py writes the table from the JSON files in
 * models/ at build time. version=<name> finds them with no file on disk.
 */
#ifndef VQHIP_BUILTIN_MODELS_H
#define VQHIP_BUILTIN_MODELS_H

#include <stddef.h>

typedef struct VqBuiltinModel {
    const char *version; /* file name without .json; NULL ends the table */
    const char *json;    /* the file's bytes (not NUL-terminated JSON text
                            in general: use size) */
    size_t size;
} VqBuiltinModel;

extern const VqBuiltinModel vq_builtin_models[];

#endif
