/* Forwarding header: the extractors' include lines (hipcore/extractors/)
 * name hipcore/cpu.h; the header is base/cpu.h, which new code
 * includes. This file goes once the extractors do too (tests/layers/). */
#ifndef VQHIP_SHIM_CPU_H
#define VQHIP_SHIM_CPU_H

#include "base/cpu.h"

#endif
