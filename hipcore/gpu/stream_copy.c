#include "stream_copy.h"

#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

static atomic_int stream_copy_users;

void vq_stream_copy_user(int delta)
{
    atomic_fetch_add_explicit(&stream_copy_users, delta, memory_order_relaxed);
}

#if defined(__SSE2__)
#include <emmintrin.h>

/* Rows shorter than this go through memcpy: the head and tail alignment
 * would cost more than the stores save. */
#define VQ_STREAM_MIN 256

void vq_stream_copy(void *dst, const void *src, size_t n)
{
    uint8_t *d = dst;
    const uint8_t *s = src;
    if (n < VQ_STREAM_MIN ||
        atomic_load_explicit(&stream_copy_users, memory_order_relaxed) >
            VQ_STREAM_COPY_MAX_USERS) {
        memcpy(d, s, n);
        return;
    }
    /* head: up to the destination's first 16-byte boundary */
    size_t head = (16 - ((uintptr_t)d & 15)) & 15;
    memcpy(d, s, head);
    d += head;
    s += head;
    n -= head;
    for (; n >= 64; n -= 64, d += 64, s += 64) {
        __m128i a = _mm_loadu_si128((const __m128i *)s);
        __m128i b = _mm_loadu_si128((const __m128i *)(s + 16));
        __m128i c = _mm_loadu_si128((const __m128i *)(s + 32));
        __m128i e = _mm_loadu_si128((const __m128i *)(s + 48));
        _mm_stream_si128((__m128i *)d, a);
        _mm_stream_si128((__m128i *)(d + 16), b);
        _mm_stream_si128((__m128i *)(d + 32), c);
        _mm_stream_si128((__m128i *)(d + 48), e);
    }
    for (; n >= 16; n -= 16, d += 16, s += 16)
        _mm_stream_si128((__m128i *)d, _mm_loadu_si128((const __m128i *)s));
    memcpy(d, s, n);
}

void vq_stream_copy_done(void)
{
    _mm_sfence();
}

#else

void vq_stream_copy(void *dst, const void *src, size_t n)
{
    memcpy(dst, src, n);
}

void vq_stream_copy_done(void)
{
}

#endif

static void copy_rows(void *arg, unsigned i)
{
    const VqCopyTask *t = &((VqCopyJob *)arg)->task[i];
    uint8_t *d = t->dst;
    const uint8_t *s = t->src;
    for (unsigned y = 0; y < t->rows; y++, d += t->dst_pitch, s += t->stride)
        vq_stream_copy(d, s, t->row);
    vq_stream_copy_done();
}

void vq_copy_job_add(VqCopyJob *job, uint8_t *dst, size_t dst_pitch,
                     const VqPlane *src, size_t row, unsigned h,
                     unsigned bands_left)
{
    unsigned per = (unsigned)(VQ_COPY_BAND_BYTES / (row ? row : 1));
    if (per < 1)
        per = 1;
    while (per * (size_t)bands_left < h)
        per++;
    for (unsigned y = 0; y < h && job->n < VQ_MAX_COPY_TASKS; y += per) {
        VqCopyTask *t = &job->task[job->n++];
        t->dst = dst + y * dst_pitch;
        t->src = src->data + (ptrdiff_t)y * src->stride;
        t->stride = src->stride;
        t->row = row;
        t->dst_pitch = dst_pitch;
        t->rows = h - y < per ? h - y : per;
    }
}

void vq_copy_job_run(VqCopyJob *job, VqThreadPool *pool)
{
    vq_parallel_for(pool, job->n, copy_rows, job);
    job->n = 0;
}
