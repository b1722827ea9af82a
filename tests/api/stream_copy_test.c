/*
 * Staging copies (hipcore/gpu/stream_copy.c): every length and alignment
 * writes exactly the source's bytes and nothing around them, with the
 * non-temporal stores (few staging buffers open) and with ordinary stores
 * (more than VQ_STREAM_COPY_MAX_USERS open).
 */
#include <stdint.h>
#include <string.h>

#include "gpu/stream_copy.h"
#include "../common/unit_check.h"

#define GUARD 64
#define MAX_N 1200

static unsigned copy_cases(const char *mode)
{
    static uint8_t src[MAX_N + 64], dst[MAX_N + 64 + 2 * GUARD];
    unsigned bad = 0;
    uint32_t x = 12345;
    for (size_t i = 0; i < sizeof(src); i++) {
        x = x * 1664525u + 1013904223u;
        src[i] = (uint8_t)(x >> 24);
    }
    static const size_t lens[] = { 0, 1, 15, 16, 17, 63, 64, 65, 255, 256,
                                   257, 319, 320, 321, 1000, MAX_N };
    for (unsigned l = 0; l < sizeof(lens) / sizeof(lens[0]); l++)
        for (unsigned so = 0; so < 17; so++)
            for (unsigned d_off = 0; d_off < 17; d_off++) {
                const size_t n = lens[l];
                memset(dst, 0xa5, sizeof(dst));
                uint8_t *d = dst + GUARD + d_off;
                vq_stream_copy(d, src + so, n);
                vq_stream_copy_done();
                int ok = !memcmp(d, src + so, n);
                for (uint8_t *p = dst; p < d; p++)
                    ok &= *p == 0xa5;
                for (uint8_t *p = d + n; p < dst + sizeof(dst); p++)
                    ok &= *p == 0xa5;
                if (!ok && bad++ < 5)
                    printf("%s: length %zu, source offset %u, destination "
                           "offset %u: wrong bytes\n", mode, n, so, d_off);
            }
    return bad;
}

int main(void)
{
    CHECK(copy_cases("non-temporal") == 0);
    vq_stream_copy_user(VQ_STREAM_COPY_MAX_USERS + 1);
    CHECK(copy_cases("ordinary") == 0);
    vq_stream_copy_user(-(VQ_STREAM_COPY_MAX_USERS + 1));
    CHECK(copy_cases("non-temporal again") == 0);
    TEST_END();
}
