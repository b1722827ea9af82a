/*
 * Extractor lookup for model tests: the build's own extractor when it has
 * one, else a stand-in that carries only libvmaf's option table entries a
 * shipped model sets (name, output-name alias, default, range) and the
 * output names. Stand-ins never run; they let a model whose extractors are
 * not written yet be loaded, named and predicted from logged values.
 */
#ifndef VQHIP_TESTS_MODEL_STUB_FEX_H
#define VQHIP_TESTS_MODEL_STUB_FEX_H

#include "extractor.h"

const VqFexDesc *vq_test_fex_find(const char *name);
/* Only the stand-ins (never the build's extractors). */
const VqFexDesc *vq_test_stub_find(const char *name);

#endif
