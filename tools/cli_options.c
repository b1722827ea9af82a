/* The vqhip CLI's options (cli_options.h). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_args.h"
#include "cli_input.h"
#include "cli_options.h"
#include "yuv_input.h"

int cli_parse_args(CliArgs *a, int argc, char **argv)
{
    memset(a, 0, sizeof(*a));
    a->bpc = 8;
    a->fmt = VQ_PIX_FMT_420;
    a->log_fmt = VQ_LOG_XML;
    a->cfg = vq_default_config();

    enum { O_FEATURE = 256, O_MODEL, O_NOPRED, O_BACKEND, O_DEVICE, O_STRICT,
           O_DEPTH, O_THREADS, O_SUB, O_FRAMES, O_XML, O_JSON, O_CSV, O_SUBFMT,
           O_LIST, O_HELP, O_VERIFY, O_ZEROCOPY, O_HOLD, O_WINDOW, O_WSTATS,
           O_THRESH, O_FPS, O_POOL, O_PRECISION, O_VERIFY_LOG, O_ALIGN, O_PROM,
           O_PROM_LABELS, O_ALERT, O_STATS_URL, O_STATS_FRAMES, O_LIVE,
           O_VERSION, O_HWDEC };
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
        { "verify", required_argument, NULL, O_VERIFY },
        { "zero-copy", no_argument, NULL, O_ZEROCOPY },
        { "hold_mb", required_argument, NULL, O_HOLD },
        { "window", required_argument, NULL, O_WINDOW },
        { "window_stats", required_argument, NULL, O_WSTATS },
        { "thresholds", required_argument, NULL, O_THRESH },
        { "fps", required_argument, NULL, O_FPS },
        { "pool", required_argument, NULL, O_POOL },
        { "prom-file", required_argument, NULL, O_PROM },
        { "prom-labels", required_argument, NULL, O_PROM_LABELS },
        { "precision", required_argument, NULL, O_PRECISION },
        { "verify-log", required_argument, NULL, O_VERIFY_LOG },
        { "offset", required_argument, NULL, O_ALIGN },
        { "sync", required_argument, NULL, O_ALIGN },
        { "sync_range", required_argument, NULL, O_ALIGN },
        { "sync_frames", required_argument, NULL, O_ALIGN },
        { "sync_bench", required_argument, NULL, O_ALIGN },
        { "realign", no_argument, NULL, O_ALIGN },
        { "realign_window", required_argument, NULL, O_ALIGN },
        { "alert", required_argument, NULL, O_ALERT },
        { "stats-url", required_argument, NULL, O_STATS_URL },
        { "stats-frames", no_argument, NULL, O_STATS_FRAMES },
        { "live", no_argument, NULL, O_LIVE },
        { "realtime", required_argument, NULL, O_LIVE },
        { "list", no_argument, NULL, O_LIST },
        { "help", no_argument, NULL, O_HELP },
        { "version", no_argument, NULL, O_VERSION },
        { "hwdec", required_argument, NULL, O_HWDEC },
        { NULL, 0, NULL, 0 },
    };
    int c, li = 0;
    while ((c = getopt_long(argc, argv, "r:d:w:h:p:b:o:q", longopts, &li)) != -1) {
        switch (c) {
        case 'r': a->ref_path = optarg; break;
        case 'd':
            if (a->n_dis == VQ_LADDER_MAX) {
                fprintf(stderr, "vqhip: at most %d distorted videos\n",
                        VQ_LADDER_MAX);
                return CLI_EXIT_USAGE;
            }
            a->dis_paths[a->n_dis++] = a->dis_path = optarg;
            break;
        case 'w':
            if (cli_parse_uint("--width", optarg, 1, 16384, &a->w))
                return CLI_EXIT_USAGE;
            break;
        case 'h':
            if (cli_parse_uint("--height", optarg, 1, 16384, &a->h))
                return CLI_EXIT_USAGE;
            break;
        case 'p':
            if (yuv_parse_pix_fmt(optarg, &a->fmt)) {
                fprintf(stderr, "unknown pixel format '%s'\n", optarg);
                return CLI_EXIT_USAGE;
            }
            break;
        case 'b':
            if (cli_parse_uint("--bitdepth", optarg, 8, 16, &a->bpc))
                return CLI_EXIT_USAGE;
            break;
        case 'o': a->log_path = optarg; break;
        case 'q': a->quiet = 1; break;
        case O_FEATURE:
        case O_MODEL:
            if ((c == O_FEATURE ? a->n_features : a->n_models) == CLI_MAX_SPECS) {
                fprintf(stderr, "too many --feature/--model options\n");
                return CLI_EXIT_USAGE;
            }
            if (c == O_FEATURE)
                a->features[a->n_features++] = optarg;
            else
                a->models[a->n_models++] = optarg;
            break;
        case O_NOPRED: a->no_prediction = 1; break;
        case O_BACKEND:
            a->backend_given = 1;
            if (!strcmp(optarg, "auto")) a->cfg.backend = VQ_BACKEND_AUTO;
            else if (!strcmp(optarg, "hip")) a->cfg.backend = VQ_BACKEND_HIP;
            else if (!strcmp(optarg, "cpu")) a->cfg.backend = VQ_BACKEND_CPU;
            else {
                fprintf(stderr, "unknown backend '%s' (auto, hip, cpu)\n", optarg);
                return CLI_EXIT_USAGE;
            }
            break;
        case O_DEVICE: {
            unsigned dev;
            if (cli_parse_uint("--device", optarg, 0, 255, &dev))
                return CLI_EXIT_USAGE;
            a->cfg.device = (int)dev;
            break;
        }
        case O_STRICT: a->cfg.strict = 1; break;
        case O_DEPTH:
            if (cli_parse_uint("--depth", optarg, 1, 16, &a->cfg.depth))
                return CLI_EXIT_USAGE;
            break;
        case O_THREADS:
            if (cli_parse_uint("--threads", optarg, 0, 1024, &a->cfg.n_threads))
                return CLI_EXIT_USAGE;
            break;
        case O_SUB:
            if (cli_parse_uint("--subsample", optarg, 1, 1u << 30, &a->cfg.n_subsample))
                return CLI_EXIT_USAGE;
            break;
        case O_FRAMES:
            if (cli_parse_uint("--frame_cnt", optarg, 1, 1u << 30, &a->frame_cnt))
                return CLI_EXIT_USAGE;
            break;
        case O_ZEROCOPY: a->zero_copy = 1; break;
        case O_HOLD: {
            /* the GPU opens on a thread of the library's (open_async) */
            unsigned mb;
            if (cli_parse_uint("--hold_mb", optarg, 0, 65536, &mb))
                return CLI_EXIT_USAGE;
            a->cfg.open_async = mb > 0;
            a->cfg.open_hold_bytes = (size_t)mb << 20;
            break;
        }
        case O_VERIFY:
            if (cli_parse_uint("--verify", optarg, 0, 1u << 30, &a->cfg.verify))
                return CLI_EXIT_USAGE;
            break;
        case O_WINDOW:
            if (cli_parse_window(optarg, &a->st.wc))
                return CLI_EXIT_USAGE;
            a->st.windows = 1;
            break;
        case O_WSTATS: a->st.wc.stats = optarg; break;
        case O_THRESH: a->st.wc.thresholds = optarg; break;
        case O_FPS:
            if (cli_parse_fps(optarg, &a->st.fps_num, &a->st.fps_den))
                return CLI_EXIT_USAGE;
            break;
        case O_POOL: a->st.pools = optarg; break;
        case O_PROM: a->st.prom_file = optarg; break;
        case O_PROM_LABELS: a->st.prom_labels = optarg; break;
        case O_ALERT:
            if (a->st.n_alerts == CLI_MAX_ALERTS) {
                fprintf(stderr, "vqhip: too many --alert options\n");
                return CLI_EXIT_USAGE;
            }
            a->st.alerts[a->st.n_alerts++] = optarg;
            break;
        case O_STATS_URL: a->st.stats_url = optarg; break;
        case O_STATS_FRAMES: a->st.stats_frames = 1; break;
        case O_LIVE:
            if (cli_live_option(&a->lv, longopts[li].name, optarg))
                return CLI_EXIT_USAGE;
            break;
        case O_XML: a->log_fmt = VQ_LOG_XML; break;
        case O_JSON: a->log_fmt = VQ_LOG_JSON; break;
        case O_CSV: a->log_fmt = VQ_LOG_CSV; break;
        case O_SUBFMT: a->log_fmt = VQ_LOG_SUB; break;
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
        case O_VERIFY_LOG: a->verify_log = optarg; break;
        case O_ALIGN:
            if (cli_align_option(&a->align, longopts[li].name, optarg))
                return CLI_EXIT_USAGE;
            break;
        case O_PRECISION:
            if (cli_parse_precision(optarg, &a->precision))
                return CLI_EXIT_USAGE;
            break;
        case O_HWDEC: {
            char err[512];
            if (cli_input_hwdec(optarg, err, sizeof(err))) {
                fprintf(stderr, "vqhip: %s\n", err);
                return CLI_EXIT_USAGE;
            }
            break;
        }
        case O_HELP: cli_usage(stdout); return 0;
        case O_VERSION:
            printf("vqhip %s (%s)\n", vq_version(), vq_revision());
            cli_input_about(stdout);
            return 0;
        default: cli_usage(stderr); return CLI_EXIT_USAGE;
        }
    }
    if (!a->ref_path || !a->dis_path || optind < argc) {
        if (optind < argc)
            fprintf(stderr, "vqhip: unexpected argument '%s'\n", argv[optind]);
        cli_usage(stderr);
        return CLI_EXIT_USAGE;
    }
    return -1;
}
