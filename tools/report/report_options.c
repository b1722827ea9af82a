#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_media.h"
#include "report_options.h"

#ifndef VQR_VERSION
#define VQR_VERSION "unknown"
#endif

static void usage(FILE *f)
{
    fprintf(f,
        "usage: vqhip_report -o REPORT.html [options] LOG [LOG...]\n"
        "Writes one self-contained HTML page from libvmaf-layout logs (JSON, XML\n"
        "or CSV, from vqhip or libvmaf).\n"
        "  -o, --output FILE           the page to write ('-': standard output)\n"
        "      --title TEXT            the page's title\n"
        "      --label LOG=NAME        a log's name on the page (default: its file name)\n"
        "      --primary NAME          the output that ranks worst frames and gives a\n"
        "                              ladder's quality (default: vmaf, else the first)\n"
        "      --worst N               worst frames per log (default 10)\n"
        "      --worst-is low|high     which end of the primary output is worse\n"
        "                              (default: high for cambi, mse, aim; else low)\n"
        "      --fps FPS               the video's frame rate, for timestamps\n"
        "      --ref FILE              reference video: thumbnails of the worst frames\n"
        "      --dis [LOG=]FILE        a log's distorted video: thumbnails, and its\n"
        "                              bitrate when --bitrate does not give it\n"
        "                              (repeatable; without LOG= in the logs' order)\n"
        "      --thumb-width N         thumbnail width in pixels (default 480)\n"
        "      --cambi-heatmaps [LOG=]DIR  cambi's heatmaps_path directory of a log:\n"
        "                              the heatmaps of its worst frames\n"
        "      --bitrate LOG=KBPS      a log's bitrate in kbit/s (repeatable)\n"
        "      --ladder NAME=LOG,LOG,...  a ladder (one encoder's renditions)\n"
        "      --bd-rate A,B           BD-rate of ladder B against ladder A\n"
        "      --version, --help\n"
        "LOG in LOG=... is a log's path as given, or its label.\n"
        "Exit status: 0 written, 1 bad input, 2 usage error.\n");
}

static int push(ReportArgs *a, const char *s)
{
    const char **v = realloc(a->v, (a->n + 1) * sizeof(*v));
    if (!v)
        return -1;
    a->v = v;
    a->v[a->n++] = s;
    return 0;
}

static int parse_uint(const char *opt, const char *arg, unsigned max,
                      unsigned *out)
{
    char *end;
    errno = 0;
    unsigned long v = strtoul(arg, &end, 10);
    if (!*arg || *end || errno || arg[0] == '-' || v > max) {
        fprintf(stderr, "vqhip_report: %s: '%s' is not a whole number from 0 "
                "to %u\n", opt, arg, max);
        return -1;
    }
    *out = (unsigned)v;
    return 0;
}

enum {
    OPT_TITLE = 256, OPT_LABEL, OPT_PRIMARY, OPT_WORST, OPT_WORST_IS, OPT_FPS,
    OPT_REF, OPT_DIS, OPT_THUMB, OPT_HEAT, OPT_BITRATE, OPT_LADDER, OPT_BD,
    OPT_VERSION, OPT_HELP,
};

static const struct option long_opts[] = {
    { "output", required_argument, NULL, 'o' },
    { "title", required_argument, NULL, OPT_TITLE },
    { "label", required_argument, NULL, OPT_LABEL },
    { "primary", required_argument, NULL, OPT_PRIMARY },
    { "worst", required_argument, NULL, OPT_WORST },
    { "worst-is", required_argument, NULL, OPT_WORST_IS },
    { "fps", required_argument, NULL, OPT_FPS },
    { "ref", required_argument, NULL, OPT_REF },
    { "dis", required_argument, NULL, OPT_DIS },
    { "thumb-width", required_argument, NULL, OPT_THUMB },
    { "cambi-heatmaps", required_argument, NULL, OPT_HEAT },
    { "bitrate", required_argument, NULL, OPT_BITRATE },
    { "ladder", required_argument, NULL, OPT_LADDER },
    { "bd-rate", required_argument, NULL, OPT_BD },
    { "version", no_argument, NULL, OPT_VERSION },
    { "help", no_argument, NULL, OPT_HELP },
    { NULL, 0, NULL, 0 },
};

static int video_option(const char *name)
{
    if (report_media_available())
        return 0;
    fprintf(stderr, "vqhip_report: %s needs FFmpeg's libraries (libavformat, "
            "libavcodec, libswscale, libavutil), and this build has none: "
            "install their development packages and rebuild\n", name);
    return -1;
}

int report_options_parse(int argc, char **argv, ReportOptions *o)
{
    memset(o, 0, sizeof(*o));
    o->worst = 10;
    o->thumb_width = 480;
    o->fps = NAN;
    opterr = 0;
    int c, bad = 0;
    while (!bad && (c = getopt_long(argc, argv, ":o:", long_opts, NULL)) != -1) {
        switch (c) {
        case 'o': o->output = optarg; break;
        case OPT_TITLE: o->title = optarg; break;
        case OPT_PRIMARY: o->primary = optarg; break;
        case OPT_REF: o->ref = optarg; bad = video_option("--ref"); break;
        case OPT_LABEL: bad = push(&o->labels, optarg); break;
        case OPT_DIS: bad = video_option("--dis") || push(&o->dis, optarg); break;
        case OPT_HEAT: bad = push(&o->heatmaps, optarg); break;
        case OPT_BITRATE: bad = push(&o->bitrates, optarg); break;
        case OPT_LADDER: bad = push(&o->ladders, optarg); break;
        case OPT_BD: bad = push(&o->bd, optarg); break;
        case OPT_WORST: bad = parse_uint("--worst", optarg, 1000, &o->worst); break;
        case OPT_THUMB:
            bad = parse_uint("--thumb-width", optarg, 4096, &o->thumb_width) ||
                  o->thumb_width < 16;
            if (o->thumb_width < 16)
                fprintf(stderr, "vqhip_report: --thumb-width: at least 16\n");
            break;
        case OPT_WORST_IS:
            o->worst_is = optarg;
            if (strcmp(optarg, "low") && strcmp(optarg, "high")) {
                fprintf(stderr, "vqhip_report: --worst-is: 'low' or 'high', not "
                        "'%s'\n", optarg);
                bad = 1;
            }
            break;
        case OPT_FPS: {
            char *end;
            o->fps = strtod(optarg, &end);
            if (!*optarg || *end || !(o->fps > 0) || !isfinite(o->fps)) {
                fprintf(stderr, "vqhip_report: --fps: '%s' is not a positive "
                        "number\n", optarg);
                bad = 1;
            }
            break;
        }
        case OPT_VERSION:
            printf("vqhip_report %s (video input: %s)\n", VQR_VERSION,
                   report_media_available() ? "FFmpeg" : "none");
            o->done = 1;
            return REPORT_EXIT_OK;
        case OPT_HELP:
            usage(stdout);
            o->done = 1;
            return REPORT_EXIT_OK;
        case ':':
            fprintf(stderr, "vqhip_report: %s needs a value\n", argv[optind - 1]);
            bad = 1;
            break;
        default:
            if (optopt)
                fprintf(stderr, "vqhip_report: unknown option -%c\n", optopt);
            else
                fprintf(stderr, "vqhip_report: unknown option %s\n",
                        argv[optind - 1]);
            bad = 1;
        }
    }
    for (int i = optind; !bad && i < argc; i++)
        bad = push(&o->logs, argv[i]);
    if (!bad && !o->logs.n) {
        fprintf(stderr, "vqhip_report: no log given\n");
        bad = 1;
    }
    if (!bad && !o->output) {
        fprintf(stderr, "vqhip_report: no output: give -o REPORT.html\n");
        bad = 1;
    }
    if (bad) {
        fprintf(stderr, "Try 'vqhip_report --help'.\n");
        return REPORT_EXIT_USAGE;
    }
    return REPORT_EXIT_OK;
}

void report_options_free(ReportOptions *o)
{
    ReportArgs *all[] = { &o->logs, &o->labels, &o->dis, &o->heatmaps,
                          &o->bitrates, &o->ladders, &o->bd };
    for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
        free(all[i]->v);
}
