#ifndef VQHIP_BASE_GROW_H
#define VQHIP_BASE_GROW_H

#include <stddef.h>

/* Room for one more item in an array that holds n items of elem bytes in
 * room for *cap: the array itself while n < *cap, else the array moved to
 * room for twice *cap (first when *cap is 0) and *cap updated. NULL when
 * memory runs out: the array and *cap are then as they were. */
void *vq_grow(void *items, unsigned n, unsigned *cap, size_t elem,
              unsigned first);

#endif
