/* Forwarding header: the extractors' include lines (hipcore/extractors/)
 * name hipcore/extractor.h; the header is core/extractor.h, which new code
 * includes. This file goes once the extractors do too (tests/layers/). */
#ifndef VQHIP_SHIM_EXTRACTOR_H
#define VQHIP_SHIM_EXTRACTOR_H

#include "core/extractor.h"

#endif
