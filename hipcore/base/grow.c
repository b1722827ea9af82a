#include <limits.h>
#include <stdint.h>
#include <stdlib.h>

#include "grow.h"

void *vq_grow(void *items, unsigned n, unsigned *cap, size_t elem,
              unsigned first)
{
    if (n < *cap)
        return items;
    if (*cap > UINT_MAX / 2)
        return NULL;
    unsigned room = *cap ? 2 * *cap : first;
    if (elem && room > SIZE_MAX / elem)
        return NULL;
    void *p = realloc(items, (size_t)room * elem);
    if (p)
        *cap = room;
    return p;
}
