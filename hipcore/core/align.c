/* Offset search between two videos' first frames (docs/ALIGNMENT.md). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/align.h"

#define DEFAULT_RANGE 30
#define DEFAULT_FRAMES 30
#define DEFAULT_MIN_CONFIDENCE 0.1
/* Below this mean squared difference (8-bit units squared) between
 * consecutive reference frames, the content is taken as static. */
#define STATIC_MSE 0.01

void vq_align_init(VqAlign *a, const VqSyncConfig *cfg)
{
    memset(a, 0, sizeof(*a));
    a->range = cfg && cfg->range ? cfg->range : DEFAULT_RANGE;
    a->frames = cfg && cfg->frames ? cfg->frames : DEFAULT_FRAMES;
    a->need = a->range + a->frames;
    a->min_confidence = cfg && cfg->min_confidence > 0 ? cfg->min_confidence
                                                       : DEFAULT_MIN_CONFIDENCE;
}

static int is_msb(VqPixFmt f)
{
    return f == VQ_PIX_FMT_P010 || f == VQ_PIX_FMT_P210 || f == VQ_PIX_FMT_P410;
}

/* The grid's geometry from the first picture: blocks of a power-of-two
 * side, the largest that leaves at least 160 x 90 of them (1080p: 8, 4K:
 * 16); the right and bottom rest that fills no block is left out. */
static int set_geometry(VqAlign *a, const VqPicture *pic, char *why,
                        size_t why_size)
{
    unsigned b = 1;
    while (pic->w / (2 * b) >= 160 && pic->h / (2 * b) >= 90)
        b *= 2;
    a->w = pic->w;
    a->h = pic->h;
    a->block = b;
    a->gw = pic->w / b;
    a->gh = pic->h / b;
    size_t n = (size_t)a->need * a->gw * a->gh;
    a->grid[0] = malloc(n * sizeof(float));
    a->grid[1] = malloc(n * sizeof(float));
    a->sum = malloc(a->gw * sizeof(*a->sum));
    if (!a->grid[0] || !a->grid[1] || !a->sum) {
        snprintf(why, why_size, "cannot allocate %zu bytes for the search",
                 2 * n * sizeof(float));
        free(a->grid[0]);
        free(a->grid[1]);
        free(a->sum);
        a->grid[0] = a->grid[1] = NULL;
        a->sum = NULL;
        return -1;
    }
    return 0;
}

/* The factor from a block's sample sum to its mean in 8-bit units. */
static double sum_scale(const VqAlign *a, const VqPicture *pic)
{
    unsigned bits = is_msb(pic->fmt) ? 16 : pic->bpc;
    return 1.0 / ((double)a->block * a->block * (double)(1u << (bits - 8)));
}

int vq_align_wide(const VqPicture *pic)
{
    return pic->bpc > 8 || is_msb(pic->fmt);
}

/* Block means of the luma plane, in 8-bit units: the same integer sums as
 * the GPU's (kernels/block_sums.hip), made floats as vq_align_put_sums does. */
static void reduce(const VqAlign *a, const VqPicture *pic, float *out)
{
    int wide = vq_align_wide(pic);
    double scale = sum_scale(a, pic);
    unsigned b = a->block;
    uint64_t *sum = a->sum;
    for (unsigned gy = 0; gy < a->gh; gy++) {
        memset(sum, 0, a->gw * sizeof(*sum));
        for (unsigned y = gy * b; y < (gy + 1) * b; y++) {
            const uint8_t *row = (const uint8_t *)pic->data[0] + (ptrdiff_t)y * pic->stride[0];
            for (unsigned gx = 0; gx < a->gw; gx++) {
                uint64_t s = 0;
                if (wide) {
                    const uint16_t *p = (const uint16_t *)row + (size_t)gx * b;
                    for (unsigned k = 0; k < b; k++)
                        s += p[k];
                } else {
                    const uint8_t *p = row + (size_t)gx * b;
                    for (unsigned k = 0; k < b; k++)
                        s += p[k];
                }
                sum[gx] += s;
            }
        }
        for (unsigned gx = 0; gx < a->gw; gx++)
            out[(size_t)gy * a->gw + gx] = (float)(sum[gx] * scale);
    }
}

/* A picture of luma samples of the first one's size (which sets the
 * grid): 0, or -1 and a message in why. */
int vq_align_check(VqAlign *a, const VqPicture *pic, char *why,
                   size_t why_size)
{
    if (!pic || !pic->data[0] || !pic->w || !pic->h ||
        (pic->bpc != 8 && pic->bpc != 10 && pic->bpc != 12 && pic->bpc != 16)) {
        snprintf(why, why_size, "a picture without luma samples, size or a "
                 "depth of 8, 10, 12 or 16 bits");
        return -1;
    }
    if (!a->grid[0] && set_geometry(a, pic, why, why_size))
        return -1;
    if (pic->w != a->w || pic->h != a->h) {
        snprintf(why, why_size, "a %ux%u picture after %ux%u ones: both "
                 "inputs must have one size", pic->w, pic->h, a->w, a->h);
        return -1;
    }
    return 0;
}

int vq_align_put(VqAlign *a, int distorted, unsigned slot,
                 const VqPicture *pic, char *why, size_t why_size)
{
    if (vq_align_check(a, pic, why, why_size))
        return -1;
    reduce(a, pic, vq_align_grid(a, distorted, slot));
    return 0;
}

int vq_align_add(VqAlign *a, int distorted, const VqPicture *pic, char *why,
                 size_t why_size)
{
    int i = distorted ? 1 : 0;
    if (vq_align_check(a, pic, why, why_size))
        return -1;
    if (a->n[i] >= a->need)
        return 0;
    reduce(a, pic, vq_align_grid(a, i, a->n[i]));
    a->n[i]++;
    return 0;
}

int vq_align_add_sums(VqAlign *a, int distorted, const VqPicture *pic,
                      const uint64_t *sums)
{
    int i = distorted ? 1 : 0;
    if (a->n[i] >= a->need)
        return 0;
    double scale = sum_scale(a, pic);
    float *out = vq_align_grid(a, i, a->n[i]);
    for (size_t k = 0; k < (size_t)a->gw * a->gh; k++)
        out[k] = (float)(sums[k] * scale);
    a->n[i]++;
    return 0;
}

int vq_align_full(const VqAlign *a, int distorted)
{
    return a->n[distorted ? 1 : 0] >= a->need;
}

float *vq_align_grid(const VqAlign *a, int distorted, unsigned slot)
{
    return a->grid[distorted ? 1 : 0] + (size_t)slot * a->gw * a->gh;
}

double vq_align_mse(const VqAlign *a, const float *x, const float *y)
{
    size_t n = (size_t)a->gw * a->gh;
    double s = 0;
    for (size_t i = 0; i < n; i++) {
        double d = (double)x[i] - (double)y[i];
        s += d * d;
    }
    return s / (double)n;
}

#define grid_mse vq_align_mse

/* The mean squared difference at offset k over m frames. */
static double offset_mse(const VqAlign *a, int k, unsigned m)
{
    size_t g = (size_t)a->gw * a->gh;
    unsigned r0 = k < 0 ? (unsigned)-k : 0, d0 = k > 0 ? (unsigned)k : 0;
    double s = 0;
    for (unsigned i = 0; i < m; i++)
        s += grid_mse(a, a->grid[0] + (r0 + i) * g, a->grid[1] + (d0 + i) * g);
    return s / m;
}

/* Frames compared at offset k: up to `frames`, as many as both inputs
 * hold; 0 when fewer than half of `frames` (at least 1) are there. */
static unsigned compared_at(const VqAlign *a, int k)
{
    unsigned r0 = k < 0 ? (unsigned)-k : 0, d0 = k > 0 ? (unsigned)k : 0;
    if (r0 >= a->n[0] || d0 >= a->n[1])
        return 0;
    unsigned m = a->frames;
    if (a->n[0] - r0 < m)
        m = a->n[0] - r0;
    if (a->n[1] - d0 < m)
        m = a->n[1] - d0;
    unsigned least = a->frames / 2 ? a->frames / 2 : 1;
    return m >= least ? m : 0;
}

void vq_align_find(const VqAlign *a, VqSyncResult *res)
{
    memset(res, 0, sizeof(*res));
    size_t g = (size_t)a->gw * a->gh;
    unsigned tried = 0;
    int best = 0, second = 0;
    double best_mse = INFINITY, second_mse = INFINITY;
    res->lo = 1;
    res->hi = -1;
    /* offsets in the order 0, 1, -1, 2, -2, ...: a tie keeps the smaller */
    for (unsigned j = 0; j <= 2 * a->range; j++) {
        int k = j % 2 ? (int)(j + 1) / 2 : -(int)(j / 2);
        unsigned m = compared_at(a, k);
        if (!m)
            continue;
        double e = offset_mse(a, k, m);
        tried++;
        res->lo = k < res->lo ? k : res->lo;
        res->hi = k > res->hi ? k : res->hi;
        if (e < best_mse) {
            second = best;
            second_mse = best_mse;
            best = k;
            best_mse = e;
            res->compared = m;
        } else if (e < second_mse) {
            second = k;
            second_mse = e;
        }
    }
    double motion = 0;
    for (unsigned i = 0; i + 1 < a->n[0]; i++)
        motion += grid_mse(a, a->grid[0] + i * g, a->grid[0] + (i + 1) * g);
    motion = a->n[0] > 1 ? motion / (a->n[0] - 1) : 0;
    res->motion = motion;
    if (tried < 2) {
        snprintf(res->why, sizeof(res->why), "too few frames (%u of the "
                 "reference, %u of the distorted video) to compare offsets",
                 a->n[0], a->n[1]);
        return;
    }
    res->best_mse = best_mse;
    res->second_mse = second_mse;
    res->confidence = second_mse > 0 ? (second_mse - best_mse) / second_mse : 0;
    if (motion < STATIC_MSE) {
        double mean = 0, var = 0;
        for (size_t i = 0; i < g; i++)
            mean += a->grid[0][i];
        mean /= (double)g;
        for (size_t i = 0; i < g; i++)
            var += (a->grid[0][i] - mean) * (a->grid[0][i] - mean);
        snprintf(res->why, sizeof(res->why), "the reference's first %u frames "
                 "%s: every offset matches as well", a->n[0],
                 var / (double)g < STATIC_MSE ? "are flat (one level)"
                                              : "do not change (static content)");
        return;
    }
    if (res->confidence < a->min_confidence) {
        snprintf(res->why, sizeof(res->why), "no offset stands out: the best, "
                 "%+d, matches only %.1f%% better than %+d (confidence %.3f, "
                 "below %.3f)", best, 100 * res->confidence, second,
                 res->confidence, a->min_confidence);
        return;
    }
    res->found = 1;
    res->offset = best;
}

void vq_align_free(VqAlign *a)
{
    free(a->grid[0]);
    free(a->grid[1]);
    free(a->sum);
    memset(a, 0, sizeof(*a));
}
