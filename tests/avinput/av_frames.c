/*
 * av_frames FILE fast|decode K N: opens FILE through tools/av_input.c,
 * counts it, goes to frame K (fast: a keyframe seek where safe; decode:
 * from the start) and prints "count C", "fast 0|1", then frames K.. K+N-1
 * (or to the end) as "frame I HASH": FNV-1a 64 of the frame's planes,
 * rows packed (a Y4M frame's payload).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "av_input.h"

int main(int argc, char **argv)
{
    if (argc != 5 || (strcmp(argv[2], "fast") && strcmp(argv[2], "decode"))) {
        fprintf(stderr, "usage: av_frames FILE fast|decode K N\n");
        return 2;
    }
    unsigned k = (unsigned)strtoul(argv[3], NULL, 10);
    unsigned n = (unsigned)strtoul(argv[4], NULL, 10), count = 0;
    char err[1024];
    YuvInput in;
    int used = 0, st = 1;
    if (av_input_open(&in, argv[1], err, sizeof(err)) ||
        in.src->count(&in, &count, err, sizeof(err)) ||
        av_input_skip(&in, k, !strcmp(argv[2], "fast"), &used, err,
                      sizeof(err)))
        goto done;
    printf("count %u\nfast %d\n", count, used);
    for (unsigned i = 0; i < n; i++) {
        VqPicture pic;
        int r = yuv_read(&in, &pic, err, sizeof(err));
        if (r < 0)
            goto done;
        if (!r)
            break;
        uint64_t h = 1469598103934665603ull;
        unsigned bps = pic.bpc > 8 ? 2 : 1;
        for (unsigned p = 0; p < 3; p++)
            for (unsigned y = 0; y < in.plane_h[p]; y++)
                for (unsigned x = 0; x < in.plane_w[p] * bps; x++) {
                    h ^= ((const unsigned char *)pic.data[p])
                             [(size_t)y * (size_t)pic.stride[p] + x];
                    h *= 1099511628211ull;
                }
        printf("frame %u %016" PRIx64 "\n", k + i, h);
    }
    st = 0;
done:
    if (st)
        fprintf(stderr, "av_frames: %s\n", err);
    yuv_close(&in);
    return st;
}
