#include <stdlib.h>
#include <string.h>

#include "held.h"

/* Whether stored plane sp (the caller's layout) holds samples of planes. */
static bool stored_needed(const VqFormat *fmt, unsigned planes, unsigned sp)
{
    unsigned mask = fmt->semiplanar && sp == 1 ? VQ_PLANE_U | VQ_PLANE_V
                                               : 1u << sp;
    return planes & mask;
}

static unsigned n_stored(const VqFormat *fmt)
{
    return fmt->semiplanar ? 2 : fmt->n_planes;
}

size_t vq_held_pair_bytes(const VqFormat *fmt, unsigned planes)
{
    size_t n = 0;
    for (unsigned sp = 0; sp < n_stored(fmt); sp++)
        if (stored_needed(fmt, planes, sp))
            n += vq_raw_row_bytes(fmt, sp) * fmt->sh[sp];
    return 2 * n;
}

/* A copy of one picture's needed planes at dst; the others point at dst
 * too (never read: vq_planes_read). */
static void copy_picture(const VqFormat *fmt, unsigned planes,
                         const VqPicture *pic, const VqFrame *f, uint8_t *dst,
                         VqPicture *out)
{
    *out = *pic;
    size_t off = 0;
    for (unsigned sp = 0; sp < n_stored(fmt); sp++) {
        size_t row = vq_raw_row_bytes(fmt, sp);
        out->data[sp] = dst;
        out->stride[sp] = (ptrdiff_t)row;
        if (!stored_needed(fmt, planes, sp))
            continue;
        out->data[sp] = dst + off;
        for (unsigned y = 0; y < fmt->sh[sp]; y++)
            memcpy(dst + off + y * row,
                   f->plane[sp].data + (ptrdiff_t)y * f->plane[sp].stride, row);
        off += row * fmt->sh[sp];
    }
}

int vq_held_push(VqHeld *h, const VqFormat *fmt, unsigned planes,
                 const VqPicture *ref, const VqPicture *dis, const VqFrame *r,
                 const VqFrame *d, VqReleaseFn release, void *opaque,
                 VqErrBuf *err)
{
    if (h->n == h->cap) {
        unsigned cap = h->cap ? 2 * h->cap : 16;
        VqHeldPair *p = malloc(cap * sizeof(*p));
        if (!p)
            return vq_fail(err, VQ_ENOMEM, "out of memory");
        for (unsigned i = 0; i < h->n; i++)
            p[i] = h->pair[(h->head + i) % h->cap];
        free(h->pair);
        h->pair = p;
        h->head = 0;
        h->cap = cap;
    }
    VqHeldPair hp = { *ref, *dis, NULL, release, opaque,
                      vq_held_pair_bytes(fmt, planes) };
    if (!release) {
        size_t half = hp.bytes / 2;
        hp.copy = malloc(hp.bytes ? hp.bytes : 1);
        if (!hp.copy)
            return vq_fail(err, VQ_ENOMEM, "out of memory");
        copy_picture(fmt, planes, ref, r, hp.copy, &hp.ref);
        copy_picture(fmt, planes, dis, d, hp.copy + half, &hp.dis);
    }
    h->pair[(h->head + h->n) % h->cap] = hp;
    h->n++;
    h->total++;
    h->bytes += hp.bytes;
    return 0;
}

bool vq_held_pop(VqHeld *h, VqHeldPair *out)
{
    if (!h->n)
        return false;
    *out = h->pair[h->head];
    h->head = (h->head + 1) % h->cap;
    h->n--;
    h->bytes -= out->bytes;
    return true;
}

void vq_held_pair_free(VqHeldPair *p)
{
    if (p->copy)
        free(p->copy);
    else if (p->release)
        p->release(p->opaque);
    p->copy = NULL;
    p->release = NULL;
}

void vq_held_clear(VqHeld *h)
{
    VqHeldPair p;
    while (vq_held_pop(h, &p))
        vq_held_pair_free(&p);
    free(h->pair);
    h->pair = NULL;
    h->cap = h->head = 0;
}
