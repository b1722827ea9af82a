/* The four log layouts, checked for libvmaf's structure and keys. */
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/unit_check.h"
#include "vqhip.h"

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = calloc(1, 1 << 16);
    if (buf)
        fread(buf, 1, (1 << 16) - 1, f);
    fclose(f);
    return buf;
}

static unsigned count(const char *s, const char *needle)
{
    unsigned n = 0;
    for (const char *p = s; p && (p = strstr(p, needle)); p++)
        n++;
    return n;
}

int main(void)
{
    VqConfig cfg = vq_default_config();
    cfg.backend = VQ_BACKEND_CPU;
    VqContext *ctx = NULL;
    CHECK(!vq_open(&ctx, &cfg));
    CHECK(!vq_use_feature(ctx, "name=psnr:enable_apsnr=true"));
    unsigned w = 16, h = 8;
    uint8_t ref[16 * 8 * 3 / 2], dis[16 * 8 * 3 / 2];
    for (unsigned f = 0; f < 3; f++) {
        for (unsigned i = 0; i < sizeof(ref); i++) {
            ref[i] = (uint8_t)(i * 3);
            dis[i] = (uint8_t)(i * 3 + f + (i & 1));
        }
        VqPicture r = { .fmt = VQ_PIX_FMT_420, .bpc = 8, .w = w, .h = h,
                        .data = { ref, ref + w * h, ref + w * h * 5 / 4 },
                        .stride = { (ptrdiff_t)w, (ptrdiff_t)w / 2,
                                    (ptrdiff_t)w / 2 } };
        VqPicture d = r;
        d.data[0] = dis;
        d.data[1] = dis + w * h;
        d.data[2] = dis + w * h * 5 / 4;
        CHECK(!vq_submit(ctx, &r, &d));
    }
    CHECK(!vq_flush(ctx));
    VqFrameScores fs;
    while (!vq_receive(ctx, &fs))
        ;

    char path[] = "/tmp/vqhip-log-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    close(fd);

    CHECK(!vq_write_log(ctx, path, VQ_LOG_JSON));
    json_object *j = json_object_from_file(path);
    CHECK(j != NULL);
    json_object *frames = json_object_object_get(j, "frames");
    CHECK(json_object_object_get(j, "version") && json_object_object_get(j, "fps"));
    CHECK(frames && json_object_array_length(frames) == 3);
    for (unsigned i = 0; frames && i < 3; i++) {
        json_object *fr = json_object_array_get_idx(frames, i);
        CHECK(json_object_get_int(json_object_object_get(fr, "frameNum")) == (int)i);
        json_object *m = json_object_object_get(fr, "metrics");
        CHECK(json_object_object_length(m) == 3);
        CHECK(json_object_object_get(m, "psnr_cr") != NULL);
    }
    json_object *pm = json_object_object_get(json_object_object_get(j, "pooled_metrics"),
                                             "psnr_y");
    CHECK(pm && json_object_object_length(pm) == 4);
    CHECK(json_object_object_get(pm, "harmonic_mean") != NULL);
    json_object *agg = json_object_object_get(j, "aggregate_metrics");
    CHECK(agg && json_object_object_get(agg, "apsnr_y"));
    json_object *vq = json_object_object_get(j, "vqhip");
    CHECK(vq && !strcmp(json_object_get_string(json_object_object_get(vq, "backend")),
                        "cpu"));
    json_object_put(j);

    CHECK(!vq_write_log(ctx, path, VQ_LOG_XML));
    char *s = slurp(path);
    CHECK(s && strstr(s, "<VMAF version=\"") == s);
    CHECK(s && strstr(s, "<params qualityWidth=\"16\" qualityHeight=\"8\" />"));
    CHECK(count(s, "<frame frameNum=") == 3);
    CHECK(s && strstr(s, "<metric name=\"psnr_y\" min=\""));
    CHECK(s && strstr(s, "<aggregate_metrics apsnr_y=\""));
    CHECK(s && strstr(s, "</VMAF>\n"));
    free(s);

    CHECK(!vq_write_log(ctx, path, VQ_LOG_CSV));
    s = slurp(path);
    CHECK(s && strstr(s, "Frame,psnr_y,psnr_cb,psnr_cr,\n") == s);
    CHECK(count(s, "\n") == 4);
    CHECK(s && strstr(s, "\n2,"));
    free(s);

    CHECK(!vq_write_log(ctx, path, VQ_LOG_SUB));
    s = slurp(path);
    CHECK(s && strstr(s, "{0}{1}frame: 0|psnr_y: ") == s);
    CHECK(count(s, "\n") == 3);
    free(s);

    CHECK(vq_write_log(ctx, "/nonexistent-dir/x.json", VQ_LOG_JSON) == VQ_EIO);
    CHECK(vq_write_log(ctx, path, (VqLogFmt)9) == VQ_EINVAL);
    unlink(path);
    vq_close(&ctx);
    TEST_END();
}
