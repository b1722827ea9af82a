/*
 * vqhip: scores a distorted video against its reference from raw YUV or Y4M
 * files, like libvmaf's `vmaf` tool, and writes libvmaf-style logs.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "frame_reader.h"
#include "vqhip.h"
#include "yuv_input.h"

#define MAX_SPECS 32

static void usage(FILE *f)
{
    fprintf(f,
        "usage: vqhip -r REF -d DIS [options]\n"
        "  -r, --reference FILE   reference video (.yuv raw or .y4m; '-' = stdin)\n"
        "  -d, --distorted FILE   distorted video\n"
        "  -w, --width N          raw input width\n"
        "  -h, --height N         raw input height\n"
        "  -p, --pixel_format F   raw input format: 420, 422, 444, 400\n"
        "  -b, --bitdepth N       raw input bits per sample: 8, 10, 12, 16\n"
        "      --feature SPEC     e.g. psnr, psnr=enable_chroma=false (libvmaf's tool)\n"
        "                         or name=psnr:enable_chroma=false (repeatable)\n"
        "      --model SPEC       e.g. version=vmaf_v0.6.1 or path=m.json:name=m (repeatable)\n"
        "      --no_prediction    no model (default: version=vmaf_v0.6.1 when no --feature)\n"
        "      --backend B        auto (default), hip, cpu\n"
        "      --device N         GPU index\n"
        "      --strict           fail instead of falling back to the CPU\n"
        "      --depth N          GPU frames in flight\n"
        "      --threads N        CPU worker threads\n"
        "      --subsample N      compute non-temporal features every N frames\n"
        "      --frame_cnt N      stop after N frames\n"
        "  -o, --output FILE      log file\n"
        "      --xml | --json | --csv | --sub   log format (default xml)\n"
        "  -q, --quiet            no per-frame lines\n"
        "      --list             list the features and their options\n"
        "      --help\n");
}

/* Frame buffers the GPU uploads from directly. */
static void *host_alloc(void *ctx, size_t size) { return vq_host_alloc(ctx, size); }
static void host_free(void *ctx, void *p) { vq_host_free(ctx, p); }

static unsigned cpu_count(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (unsigned)n : 1;
}

/* A frame pair lent to libvqhip (vq_submit_retained), given back to the
 * readers when libvqhip is done with it, possibly from one of its
 * threads and out of order. */
typedef struct GiveBack {
    FrameReader *ref, *dis;
    unsigned seq;
} GiveBack;

static void give_back(void *opaque)
{
    GiveBack *gb = opaque;
    frame_reader_give_back(gb->ref, gb->seq);
    frame_reader_give_back(gb->dis, gb->seq);
}

static void print_frame(const VqFrameScores *fs)
{
    printf("frame %u:", fs->index);
    for (unsigned i = 0; i < fs->n; i++)
        printf(" %s=%f", fs->scores[i].name, fs->scores[i].value);
    printf("\n");
}

static int drain(VqContext *ctx, int quiet)
{
    VqFrameScores fs;
    int r;
    while ((r = vq_receive(ctx, &fs)) == 0)
        if (!quiet)
            print_frame(&fs);
    return r == VQ_EAGAIN || r == VQ_EOF ? 0 : r;
}

/* libvmaf's tool writes a feature as NAME=key=value:key=value, the library
 * and the filter as name=NAME:key=value (or NAME:key=value); both work. */
static int use_feature(VqContext *ctx, const char *spec)
{
    const char *eq = strchr(spec, '='), *colon = strchr(spec, ':');
    if (!eq || (colon && colon < eq) || !strncmp(spec, "name=", 5))
        return vq_use_feature(ctx, spec);
    char buf[2048];
    int n = snprintf(buf, sizeof(buf), "name=%.*s:%s", (int)(eq - spec), spec,
                     eq + 1);
    if (n < 0 || (size_t)n >= sizeof(buf)) {
        fprintf(stderr, "vqhip: feature spec too long: %s\n", spec);
        return VQ_EINVAL;
    }
    return vq_use_feature(ctx, buf);
}

int main(int argc, char **argv)
{
    const char *ref_path = NULL, *dis_path = NULL, *log_path = NULL;
    const char *features[MAX_SPECS], *models[MAX_SPECS];
    unsigned n_features = 0, n_models = 0, w = 0, h = 0, bpc = 8;
    unsigned frame_cnt = 0;
    int quiet = 0, no_prediction = 0;
    VqPixFmt fmt = VQ_PIX_FMT_420;
    VqLogFmt log_fmt = VQ_LOG_XML;
    VqConfig cfg = vq_default_config();

    enum { O_FEATURE = 256, O_MODEL, O_NOPRED, O_BACKEND, O_DEVICE, O_STRICT,
           O_DEPTH, O_THREADS, O_SUB, O_FRAMES, O_XML, O_JSON, O_CSV, O_SUBFMT,
           O_LIST, O_HELP };
    static const struct option longopts[] = {
        { "reference", required_argument, NULL, 'r' },
        { "distorted", required_argument, NULL, 'd' },
        { "width", required_argument, NULL, 'w' },
        { "height", required_argument, NULL, 'h' },
        { "pixel_format", required_argument, NULL, 'p' },
        { "bitdepth", required_argument, NULL, 'b' },
        { "output", required_argument, NULL, 'o' },
        { "quiet", no_argument, NULL, 'q' },
        { "feature", required_argument, NULL, O_FEATURE },
        { "model", required_argument, NULL, O_MODEL },
        { "no_prediction", no_argument, NULL, O_NOPRED },
        { "backend", required_argument, NULL, O_BACKEND },
        { "device", required_argument, NULL, O_DEVICE },
        { "strict", no_argument, NULL, O_STRICT },
        { "depth", required_argument, NULL, O_DEPTH },
        { "threads", required_argument, NULL, O_THREADS },
        { "subsample", required_argument, NULL, O_SUB },
        { "frame_cnt", required_argument, NULL, O_FRAMES },
        { "xml", no_argument, NULL, O_XML },
        { "json", no_argument, NULL, O_JSON },
        { "csv", no_argument, NULL, O_CSV },
        { "sub", no_argument, NULL, O_SUBFMT },
        { "list", no_argument, NULL, O_LIST },
        { "help", no_argument, NULL, O_HELP },
        { NULL, 0, NULL, 0 },
    };
    int c;
    while ((c = getopt_long(argc, argv, "r:d:w:h:p:b:o:q", longopts, NULL)) != -1) {
        switch (c) {
        case 'r': ref_path = optarg; break;
        case 'd': dis_path = optarg; break;
        case 'w': w = (unsigned)atoi(optarg); break;
        case 'h': h = (unsigned)atoi(optarg); break;
        case 'p':
            if (yuv_parse_pix_fmt(optarg, &fmt)) {
                fprintf(stderr, "unknown pixel format '%s'\n", optarg);
                return 1;
            }
            break;
        case 'b': bpc = (unsigned)atoi(optarg); break;
        case 'o': log_path = optarg; break;
        case 'q': quiet = 1; break;
        case O_FEATURE:
        case O_MODEL:
            if ((c == O_FEATURE ? n_features : n_models) == MAX_SPECS) {
                fprintf(stderr, "too many --feature/--model options\n");
                return 1;
            }
            if (c == O_FEATURE)
                features[n_features++] = optarg;
            else
                models[n_models++] = optarg;
            break;
        case O_NOPRED: no_prediction = 1; break;
        case O_BACKEND:
            if (!strcmp(optarg, "auto")) cfg.backend = VQ_BACKEND_AUTO;
            else if (!strcmp(optarg, "hip")) cfg.backend = VQ_BACKEND_HIP;
            else if (!strcmp(optarg, "cpu")) cfg.backend = VQ_BACKEND_CPU;
            else {
                fprintf(stderr, "unknown backend '%s' (auto, hip, cpu)\n", optarg);
                return 1;
            }
            break;
        case O_DEVICE: cfg.device = atoi(optarg); break;
        case O_STRICT: cfg.strict = 1; break;
        case O_DEPTH: cfg.depth = (unsigned)atoi(optarg); break;
        case O_THREADS: cfg.n_threads = (unsigned)atoi(optarg); break;
        case O_SUB: cfg.n_subsample = (unsigned)atoi(optarg); break;
        case O_FRAMES: frame_cnt = (unsigned)atoi(optarg); break;
        case O_XML: log_fmt = VQ_LOG_XML; break;
        case O_JSON: log_fmt = VQ_LOG_JSON; break;
        case O_CSV: log_fmt = VQ_LOG_CSV; break;
        case O_SUBFMT: log_fmt = VQ_LOG_SUB; break;
        case O_LIST: {
            size_t n = vq_list_features(NULL, 0);
            char *buf = malloc(n + 1);
            if (buf) {
                vq_list_features(buf, n + 1);
                fputs(buf, stdout);
                free(buf);
            }
            return 0;
        }
        case O_HELP: usage(stdout); return 0;
        default: usage(stderr); return 1;
        }
    }
    if (!ref_path || !dis_path) {
        usage(stderr);
        return 1;
    }

    char err[512];
    YuvInput ref, dis;
    if (yuv_open(&ref, ref_path, fmt, bpc, w, h, err, sizeof(err)) ||
        yuv_open(&dis, dis_path, fmt, bpc, w, h, err, sizeof(err))) {
        fprintf(stderr, "vqhip: %s\n", err);
        return 1;
    }

    VqContext *ctx = NULL;
    int r = vq_open(&ctx, &cfg);
    /* Models first, then features, as libvmaf's tool: the log lists
     * outputs in that order. */
    if (!r && !n_models && !n_features && !no_prediction)
        r = vq_use_model(ctx, "version=vmaf_v0.6.1");
    for (unsigned i = 0; !r && i < n_models; i++)
        r = vq_use_model(ctx, models[i]);
    for (unsigned i = 0; !r && i < n_features; i++)
        r = use_feature(ctx, features[i]);

    /* Both inputs are read on their own threads, ahead of the frames being
     * scored, into buffers the GPU uploads from without a host copy and
     * the CPU backend reads in place (vq_submit_retained): enough of them
     * for a frame in flight per CPU worker. */
    FrameReader *rr = NULL, *rd = NULL;
    unsigned n_buf = (cfg.n_threads ? cfg.n_threads : cpu_count()) + 2;
    if (n_buf > FRAME_READER_MAX_BUFFERS)
        n_buf = FRAME_READER_MAX_BUFFERS;
    /* without a GPU, raw files are mapped and read in place */
    FrameReaderConfig rc = { .n_buffers = n_buf, .max_frames = frame_cnt,
                             .map = ctx && !vq_device_name(ctx)[0],
                             .alloc = host_alloc, .release = host_free,
                             .opaque = ctx };
    GiveBack back[FRAME_READER_MAX_BUFFERS];
    if (!r && (frame_reader_start(&rr, &ref, &rc, err, sizeof(err)) ||
               frame_reader_start(&rd, &dis, &rc, err, sizeof(err)))) {
        fprintf(stderr, "vqhip: %s\n", err);
        r = VQ_ENOMEM;
    }
    unsigned n = 0;
    while (!r) {
        VqPicture rp, dp;
        char err_d[256] = "";
        int a = frame_reader_next(rr, &rp, err, sizeof(err));
        int b = frame_reader_next(rd, &dp, err_d, sizeof(err_d));
        if (a <= 0 || b <= 0) {
            /* a frame taken from one input alone goes back unscored */
            if (a > 0)
                frame_reader_give_back(rr, n);
            if (b > 0)
                frame_reader_give_back(rd, n);
            if (a < 0 || b < 0) {
                fprintf(stderr, "vqhip: frame %u: %s\n", n, a < 0 ? err : err_d);
                r = VQ_EIO;
            }
            break;
        }
        GiveBack *gb = &back[n % n_buf];
        *gb = (GiveBack){ rr, rd, n };
        r = vq_submit_retained(ctx, &rp, &dp, give_back, gb);
        if (!r)
            r = drain(ctx, quiet);
        n++;
    }
    frame_reader_stop(&rr);
    frame_reader_stop(&rd);
    if (!r)
        r = vq_flush(ctx);
    if (!r)
        r = drain(ctx, quiet);
    if (!r && !n) {
        fprintf(stderr, "vqhip: no frames read\n");
        r = VQ_EIO;
    }
    if (!r) {
        printf("backend: %s%s%s\n", vq_backend_name(ctx),
               *vq_device_name(ctx) ? " on " : "", vq_device_name(ctx));
        for (unsigned i = 0; i < vq_output_count(ctx); i++) {
            double mean;
            const char *name = vq_output_name(ctx, i);
            if (!vq_pooled(ctx, name, VQ_POOL_MEAN, &mean))
                printf("%s: %f\n", name, mean);
        }
        for (unsigned i = 0; i < vq_aggregate_count(ctx); i++) {
            VqScore s;
            vq_aggregate(ctx, i, &s);
            printf("%s: %f\n", s.name, s.value);
        }
        if (log_path)
            r = vq_write_log(ctx, log_path, log_fmt);
    }
    if (r)
        fprintf(stderr, "vqhip: %s (%s)\n", vq_last_error(ctx), vq_strerror(r));
    vq_close(&ctx);
    yuv_close(&ref);
    yuv_close(&dis);
    return r ? 1 : 0;
}
