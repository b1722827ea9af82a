/* Forwarding header: the extractors' include lines (hipcore/extractors/)
 * name hipcore/picture.h; the header is core/picture.h, which new code
 * includes. This file goes once the extractors do too (tests/layers/). */
#ifndef VQHIP_SHIM_PICTURE_H
#define VQHIP_SHIM_PICTURE_H

#include "core/picture.h"

#endif
