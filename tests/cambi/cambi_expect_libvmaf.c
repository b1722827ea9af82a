/*
 * Reference numbers from upstream libvmaf for cambi_expect.h and
 * cambi_models_expect.h; not part of the build (cambi_expect.sh compiles it
 * against a libvmaf the caller names). It drives libvmaf's public API on
 * raw 4:2:0 files and prints every requested score of every frame with
 * %.17g, which reads back as the same double.
 *
 * usage: cambi_expect_libvmaf REF DIS W H BPC FRAMES
 *            (--feature NAME[=k=v:k=v] | --model VERSION)... --key NAME...
 * A --model's score is asked for with --key model:VERSION.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libvmaf/libvmaf.h>

#define MAX_MODELS 8

static int read_frame(FILE *f, VmafPicture *p, unsigned bps)
{
    for (unsigned c = 0; c < 3; c++) {
        for (unsigned y = 0; y < p->h[c]; y++) {
            uint8_t *row = (uint8_t *)p->data[c] + y * p->stride[c];
            if (fread(row, bps, p->w[c], f) != p->w[c])
                return -1;
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 8) {
        fprintf(stderr, "usage: %s REF DIS W H BPC FRAMES (--feature F | "
                        "--model V)... --key K...\n", argv[0]);
        return 2;
    }
    unsigned w = (unsigned)atoi(argv[3]), h = (unsigned)atoi(argv[4]);
    unsigned bpc = (unsigned)atoi(argv[5]), frames = (unsigned)atoi(argv[6]);
    VmafConfiguration cfg = { .log_level = VMAF_LOG_LEVEL_ERROR,
                              .n_threads = 1 };
    VmafContext *vmaf = NULL;
    if (vmaf_init(&vmaf, cfg))
        return 1;
    VmafModel *model[MAX_MODELS];
    const char *model_name[MAX_MODELS];
    unsigned n_model = 0;
    const char *keys[32];
    unsigned n_keys = 0;
    for (int i = 7; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--feature")) {
            char *spec = strdup(argv[i + 1]), *opts = strchr(spec, '=');
            VmafFeatureDictionary *d = NULL;
            if (opts) {
                *opts++ = '\0';
                for (char *kv = strtok(opts, ":"); kv; kv = strtok(NULL, ":")) {
                    char *v = strchr(kv, '=');
                    if (!v)
                        return 2;
                    *v++ = '\0';
                    vmaf_feature_dictionary_set(&d, kv, v);
                }
            }
            if (vmaf_use_feature(vmaf, spec, d)) {
                fprintf(stderr, "feature %s refused\n", spec);
                return 1;
            }
        } else if (!strcmp(argv[i], "--model") && n_model < MAX_MODELS) {
            VmafModelConfig mc = { .name = argv[i + 1] };
            if (vmaf_model_load(&model[n_model], &mc, argv[i + 1]) ||
                vmaf_use_features_from_model(vmaf, model[n_model])) {
                fprintf(stderr, "model %s refused\n", argv[i + 1]);
                return 1;
            }
            model_name[n_model++] = argv[i + 1];
        } else if (!strcmp(argv[i], "--key") && n_keys < 32) {
            keys[n_keys++] = argv[i + 1];
        }
    }
    FILE *fr = fopen(argv[1], "rb"), *fd = fopen(argv[2], "rb");
    if (!fr || !fd)
        return 1;
    unsigned bps = bpc > 8 ? 2 : 1, n = 0;
    for (; n < frames; n++) {
        VmafPicture r, d;
        if (vmaf_picture_alloc(&r, VMAF_PIX_FMT_YUV420P, bpc, w, h) ||
            vmaf_picture_alloc(&d, VMAF_PIX_FMT_YUV420P, bpc, w, h))
            return 1;
        if (read_frame(fr, &r, bps) || read_frame(fd, &d, bps))
            return 1;
        if (vmaf_read_pictures(vmaf, &r, &d, n)) {
            fprintf(stderr, "frame %u refused\n", n);
            return 1;
        }
    }
    vmaf_read_pictures(vmaf, NULL, NULL, 0);
    for (unsigned i = 0; i < n; i++) {
        printf("%u", i);
        for (unsigned k = 0; k < n_keys; k++) {
            double v = 0;
            int err;
            if (!strncmp(keys[k], "model:", 6)) {
                unsigned m = 0;
                while (m < n_model && strcmp(model_name[m], keys[k] + 6))
                    m++;
                err = m == n_model || vmaf_score_at_index(vmaf, model[m], &v, i);
            } else {
                err = vmaf_feature_score_at_index(vmaf, keys[k], &v, i);
            }
            if (err)
                printf(" ERR");
            else
                printf(" %.17g", v);
        }
        printf("\n");
    }
    vmaf_close(vmaf);
    return 0;
}
