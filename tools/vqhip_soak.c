/*
 * vqhip_soak: a long run through libvqhip on synthetic frames, for
 * leaks, drift and silent device errors over days-long encodes.
 *
 * K distinct frame pairs are cycled. Once every output is past its start-up
 * (frame 2K on), frame i must score exactly as frame i - K did: any
 * difference is a silent error (the HIP fork lost GPU commands on about one
 * gfx1036 frame in 10,000) and is counted. Peak and current RSS (and,
 * through VQHIP_SOAK_PROBE, a command such as nvidia-smi for device memory)
 * are printed at frame 1,000, every --every frames and at the end.
 *
 *   vqhip_soak --frames 20000 --size 1920x1080 --backend hip [--verify 100]
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tool_clock.h"
#include "synth_pairs.h"
#include "vqhip.h"

#define K 8
#define MAX_OUT 64

static unsigned long arg_num(const char *opt, const char *v)
{
    char *end;
    errno = 0;
    unsigned long n = strtoul(v, &end, 10);
    if (!*v || *end || errno || v[0] == '-') {
        fprintf(stderr, "vqhip_soak: %s: '%s' is not a number\n", opt, v);
        exit(2);
    }
    return n;
}

/* VmRSS and VmHWM (peak) of this process, KiB. */
static void rss(long *cur, long *peak)
{
    char line[256];
    FILE *f = fopen("/proc/self/status", "r");
    *cur = *peak = -1;
    while (f && fgets(line, sizeof(line), f)) {
        if (!strncmp(line, "VmRSS:", 6))
            *cur = atol(line + 6);
        else if (!strncmp(line, "VmHWM:", 6))
            *peak = atol(line + 6);
    }
    if (f)
        fclose(f);
}

static void checkpoint(unsigned frames, double t0, unsigned drift)
{
    long cur, peak;
    rss(&cur, &peak);
    printf("soak: %u frames, %.1f fps, RSS %ld KiB, peak RSS %ld KiB, "
           "drift %u\n", frames, frames / (tool_now() - t0), cur, peak, drift);
    const char *probe = getenv("VQHIP_SOAK_PROBE");
    if (probe && *probe) {
        fflush(stdout);
        printf("soak: device memory (%s): ", probe);
        fflush(stdout);
        if (system(probe))
            printf("(probe failed)\n");
    }
    fflush(stdout);
}

int main(int argc, char **argv)
{
    unsigned long n_frames = 1000, every = 0, w = 576, h = 324;
    const char *features = NULL, *model = "version=vmaf_v0.6.1";
    VqConfig cfg = vq_default_config();
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : "";
        if (!strcmp(a, "--frames"))
            n_frames = arg_num(a, v), i++;
        else if (!strcmp(a, "--every"))
            every = arg_num(a, v), i++;
        else if (!strcmp(a, "--size")) {
            if (sscanf(v, "%lux%lu", &w, &h) != 2 || !w || !h ||
                w > 16384 || h > 16384) {
                fprintf(stderr, "vqhip_soak: --size WxH\n");
                return 2;
            }
            i++;
        } else if (!strcmp(a, "--backend")) {
            cfg.backend = !strcmp(v, "cpu") ? VQ_BACKEND_CPU :
                          !strcmp(v, "hip") ? VQ_BACKEND_HIP : VQ_BACKEND_AUTO;
            i++;
        } else if (!strcmp(a, "--strict"))
            cfg.strict = 1;
        else if (!strcmp(a, "--depth"))
            cfg.depth = (unsigned)arg_num(a, v), i++;
        else if (!strcmp(a, "--threads"))
            cfg.n_threads = (unsigned)arg_num(a, v), i++;
        else if (!strcmp(a, "--verify"))
            cfg.verify = (unsigned)arg_num(a, v), i++;
        else if (!strcmp(a, "--feature"))
            features = v, model = NULL, i++;
        else if (!strcmp(a, "--model"))
            model = v, i++;
        else {
            fprintf(stderr, "usage: vqhip_soak [--frames N] [--every N] "
                    "[--size WxH] [--backend auto|hip|cpu] [--strict] "
                    "[--depth N] [--threads N] [--verify N] "
                    "[--feature SPEC] [--model SPEC]\n");
            return 2;
        }
    }
    VqContext *ctx = NULL;
    int err = vq_open(&ctx, &cfg);
    if (!err && features)
        err = vq_use_feature(ctx, features);
    if (!err && model)
        err = vq_use_model(ctx, model);
    if (err) {
        fprintf(stderr, "vqhip_soak: %s\n", vq_last_error(ctx));
        vq_close(&ctx);
        return 1;
    }
    /* K frame pairs: a moving pattern and a noisy copy */
    unsigned char *buf = malloc(synth_pairs_size((unsigned)w, (unsigned)h, K));
    if (!buf)
        return 1;
    VqPicture ref[K], dis[K];
    synth_pairs(buf, (unsigned)w, (unsigned)h, K, ref, dis);
    static double first[K][MAX_OUT];
    unsigned drift = 0, got = 0;
    double t0 = tool_now();
    for (unsigned long i = 0; i <= n_frames && !err; i++) {
        if (i < n_frames)
            err = vq_submit(ctx, &ref[i % K], &dis[i % K]);
        else
            err = vq_flush(ctx);
        VqFrameScores fs;
        int r;
        while (!err && (r = vq_receive(ctx, &fs)) == 0) {
            unsigned j = fs.index;
            for (unsigned o = 0; o < fs.n && o < MAX_OUT; o++) {
                double v = fs.scores[o].value;
                if (j >= K && j < 2 * K)
                    first[j % K][o] = v;
                /* the last frame's temporal outputs differ (no next one) */
                else if (j >= 2 * K && j + 1 < n_frames &&
                         memcmp(&v, &first[j % K][o], sizeof(v))) {
                    if (drift++ < 10)
                        fprintf(stderr, "soak: frame %u %s = %.17g, not %.17g "
                                "(frame %u)\n", j, fs.scores[o].name, v,
                                first[j % K][o], K + j % K);
                }
            }
            got++;
            if (got == 1000 || (every && got % every == 0))
                checkpoint(got, t0, drift);
        }
        if (!err && r != VQ_EAGAIN && r != VQ_EOF)
            err = r;
    }
    VqRunInfo info;
    vq_run_info(ctx, &info);
    if (err)
        fprintf(stderr, "vqhip_soak: %s\n", vq_last_error(ctx));
    checkpoint(got, t0, drift);
    printf("soak: backend %s%s%s; %u frames received of %lu; drift %u; "
           "verify %u checked, %u mismatched; %s\n", vq_backend_name(ctx),
           *vq_device_name(ctx) ? " on " : "", vq_device_name(ctx), got,
           n_frames, drift, info.verified, info.mismatches,
           info.fell_back ? info.fallback_reason : "no GPU fault");
    vq_close(&ctx);
    free(buf);
    return err || drift || got != n_frames ? 1 : 0;
}
