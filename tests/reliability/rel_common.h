/* Helpers shared by the reliability tests: synthetic clips, a run that
 * keeps every frame's scores, and their bitwise comparison. */
#ifndef VQHIP_REL_COMMON_H
#define VQHIP_REL_COMMON_H

#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/unit_check.h"
#include "vqhip.h"

#define REL_MAX_FRAMES 64
#define REL_MAX_OUT 48

/* One frame pair in a caller-owned buffer: 4:2:0 planar (8 or 10 bits) or
 * P010-style semi-planar, strides wider than the rows (with junk). */
typedef struct RelFrame {
    uint8_t *buf;
    VqPicture ref, dis;
} RelFrame;

static inline uint32_t rel_rand(uint32_t *s)
{
    *s = *s * 1664525u + 1013904223u;
    return *s >> 8;
}

/* A moving gradient with noise; dis = ref blurred-ish plus noise. */
static inline void rel_frame(RelFrame *f, VqPixFmt fmt, unsigned bpc, unsigned w,
                      unsigned h, unsigned index)
{
    unsigned bps = bpc > 8 ? 2 : 1, maxv = (1u << bpc) - 1;
    unsigned cw = (w + 1) / 2, ch = (h + 1) / 2;
    int semi = fmt == VQ_PIX_FMT_P010;
    unsigned shift = semi ? 16 - bpc : 0;
    size_t ys = (size_t)w * bps + 24, cs = (size_t)cw * bps * (semi ? 2 : 1) + 40;
    size_t one = ys * h + 2 * cs * ch;
    f->buf = malloc(2 * one);
    uint32_t seed = 12345u + index * 7919u;
    for (size_t i = 0; i < 2 * one; i++)
        f->buf[i] = (uint8_t)rel_rand(&seed); /* junk in the padding */
    for (unsigned k = 0; k < 2; k++) {
        VqPicture *p = k ? &f->dis : &f->ref;
        uint8_t *base = f->buf + k * one;
        memset(p, 0, sizeof(*p));
        p->fmt = fmt;
        p->bpc = bpc;
        p->w = w;
        p->h = h;
        p->data[0] = base;
        p->stride[0] = (ptrdiff_t)ys;
        p->data[1] = base + ys * h;
        p->stride[1] = (ptrdiff_t)cs;
        if (!semi) {
            p->data[2] = base + ys * h + cs * ch;
            p->stride[2] = (ptrdiff_t)cs;
        }
        unsigned np = semi ? 2 : 3;
        for (unsigned pl = 0; pl < np; pl++) {
            unsigned pw = pl ? cw * (semi ? 2 : 1) : w, ph = pl ? ch : h;
            for (unsigned y = 0; y < ph; y++)
                for (unsigned x = 0; x < pw; x++) {
                    unsigned v = (x * 3 + y * 2 + index * 5) % (maxv / 2) +
                                 maxv / 4;
                    if (k)
                        v = v + rel_rand(&seed) % (maxv / 16 + 1);
                    if (v > maxv)
                        v = maxv;
                    uint8_t *row = (uint8_t *)p->data[pl] + y * p->stride[pl];
                    if (bps == 1)
                        row[x] = (uint8_t)v;
                    else
                        ((uint16_t *)(void *)row)[x] = (uint16_t)(v << shift);
                }
        }
    }
}

typedef struct RelScores {
    unsigned n_frames, n_out;
    char name[REL_MAX_OUT][64];
    double v[REL_MAX_FRAMES][REL_MAX_OUT];
    char backend[REL_MAX_FRAMES][16];
    int err;
    char msg[1024];
    VqRunInfo info;
    unsigned lent_missing; /* lent frames not given back by vq_close */
} RelScores;

/* A frame lent with vq_submit_retained: the library frees it. */
typedef struct RelLent {
    void *buf;
    atomic_uint *back;
} RelLent;

static inline void rel_lent_back(void *opaque)
{
    RelLent *l = opaque;
    free(l->buf);
    atomic_fetch_add(l->back, 1);
    free(l);
}

/* Receives what is ready; returns 0 or the error that stopped the run. */
static inline int rel_take(VqContext *ctx, RelScores *out, int wait)
{
    VqFrameScores fs;
    int r;
    while ((r = wait ? vq_receive_wait(ctx, &fs) : vq_receive(ctx, &fs)) == 0) {
        if (fs.index >= REL_MAX_FRAMES)
            continue;
        for (unsigned i = 0; i < fs.n && i < REL_MAX_OUT; i++) {
            unsigned j = 0;
            while (j < out->n_out && strcmp(out->name[j], fs.scores[i].name))
                j++;
            if (j == out->n_out && out->n_out < REL_MAX_OUT)
                snprintf(out->name[out->n_out++], 64, "%s", fs.scores[i].name);
            if (j < REL_MAX_OUT)
                out->v[fs.index][j] = fs.scores[i].value;
        }
        snprintf(out->backend[fs.index], 16, "%s", fs.backend);
        out->n_frames = fs.index + 1;
    }
    return r == VQ_EAGAIN || r == VQ_EOF ? 0 : r;
}

/* Scores n frames with cfg and the given features/model; with lend, the
 * frames are lent (vq_submit_retained) instead of copied. */
static inline void rel_run_ex(RelScores *out, const VqConfig *cfg,
                              const char *features, const char *model,
                              VqPixFmt fmt, unsigned bpc, unsigned w,
                              unsigned h, unsigned n, int lend)
{
    memset(out, 0, sizeof(*out));
    atomic_uint back;
    atomic_init(&back, 0);
    unsigned lent = 0;
    VqContext *ctx = NULL;
    int err = vq_open(&ctx, cfg);
    char list[512];
    snprintf(list, sizeof(list), "%s", features ? features : "");
    char *save = NULL;
    for (char *t = strtok_r(list, "|", &save); !err && t;
         t = strtok_r(NULL, "|", &save))
        err = vq_use_feature(ctx, t);
    if (!err && model)
        err = vq_use_model(ctx, model);
    for (unsigned i = 0; !err && i < n; i++) {
        RelFrame f;
        rel_frame(&f, fmt, bpc, w, h, i);
        RelLent *l = lend ? malloc(sizeof(*l)) : NULL;
        if (l) {
            *l = (RelLent){ f.buf, &back };
            lent++;
            err = vq_submit_retained(ctx, &f.ref, &f.dis, rel_lent_back, l);
        } else {
            err = vq_submit(ctx, &f.ref, &f.dis);
            free(f.buf);
        }
        if (!err)
            err = rel_take(ctx, out, i % 3 == 0);
    }
    if (!err)
        err = vq_flush(ctx);
    if (!err)
        err = rel_take(ctx, out, 1);
    out->err = err;
    snprintf(out->msg, sizeof(out->msg), "%s", vq_last_error(ctx));
    vq_run_info(ctx, &out->info);
    vq_close(&ctx);
    out->lent_missing = lent - atomic_load(&back);
}

static inline void rel_run(RelScores *out, const VqConfig *cfg,
                           const char *features, const char *model,
                           VqPixFmt fmt, unsigned bpc, unsigned w, unsigned h,
                           unsigned n)
{
    rel_run_ex(out, cfg, features, model, fmt, bpc, w, h, n, 0);
}

/* Sample (x, y) of a high-bit-depth picture's plane. */
static inline uint16_t *rel_sample16(VqPicture *p, unsigned plane, unsigned x,
                                     unsigned y)
{
    return (uint16_t *)(void *)((uint8_t *)p->data[plane] +
                                y * p->stride[plane]) + x;
}

/* Bitwise equality of every frame's scores; prints the first differences. */
static inline int rel_same(const RelScores *a, const RelScores *b, const char *what)
{
    int bad = a->n_frames != b->n_frames || a->n_out != b->n_out;
    if (bad)
        printf("%s: %u frames x %u outputs vs %u x %u\n", what, a->n_frames,
               a->n_out, b->n_frames, b->n_out);
    for (unsigned i = 0; !bad && i < a->n_frames; i++)
        for (unsigned j = 0; j < a->n_out; j++) {
            unsigned k = 0;
            while (k < b->n_out && strcmp(a->name[j], b->name[k]))
                k++;
            if (k == b->n_out || memcmp(&a->v[i][j], &b->v[i][k],
                                        sizeof(double))) {
                if (bad++ < 5)
                    printf("%s: frame %u %s: %.17g vs %.17g\n", what, i,
                           a->name[j], a->v[i][j],
                           k < b->n_out ? b->v[i][k] : -1.0);
            }
        }
    return !bad;
}

#endif
