/* The Prometheus textfile through the API (vq_set_prometheus_file): it is
 * replaced when each window closes (the file read between two windows
 * shows the last closed one and the frames so far), a write failing mid-run
 * is one warning through the log callback while scoring goes on, the file
 * comes back at the next window once the folder does, the end of the run
 * is written, no temporary file is left, and the refused calls. The values
 * themselves are checked against numpy by tests/prometheus/. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../common/unit_check.h"
#include "../common/flat_picture.h"
#include "vqhip.h"


static unsigned n_warn;
static char last_warn[512];

static void on_log(void *opaque, VqLogLevel level, const char *msg)
{
    (void)opaque;
    if (level == VQ_LOG_LEVEL_WARNING && strstr(msg, "prometheus file")) {
        n_warn++;
        snprintf(last_warn, sizeof(last_warn), "%s", msg);
    }
}

static VqContext *open_ctx(void)
{
    VqConfig cfg = vq_default_config();
    cfg.backend = VQ_BACKEND_CPU;
    cfg.n_threads = 2;
    cfg.log = on_log;
    VqContext *ctx = NULL;
    CHECK(!vq_open(&ctx, &cfg));
    CHECK(!vq_use_feature(ctx, "name=psnr:enable_chroma=false"));
    return ctx;
}

/* The value of the sample line that starts with `prefix` (name and
 * labels), or -1 when the file or the line is missing. */
static double sample(const char *path, const char *prefix)
{
    FILE *f = fopen(path, "r");
    char line[512];
    double v = -1;
    size_t n = strlen(prefix);
    while (f && fgets(line, sizeof(line), f))
        if (!strncmp(line, prefix, n) && line[n] == ' ')
            v = strtod(line + n + 1, NULL);
    if (f)
        fclose(f);
    return v;
}

static unsigned files_in(const char *dir)
{
    DIR *d = opendir(dir);
    unsigned n = 0;
    for (struct dirent *e; d && (e = readdir(d));)
        n += e->d_name[0] != '.';
    if (d)
        closedir(d);
    return n;
}

#define IDX "vqhip_window_index{job=\"t\"}"
#define SCORED "vqhip_frames_scored_total{job=\"t\"}"
#define DONE "vqhip_run_done{job=\"t\"}"

/* Windows of 3 frames over 10 frames: 0-2, 3-5, 6-8, 9 (partial). The
 * folder vanishes after window 0 and comes back before window 2. */
static void windows_and_failure(const char *dir)
{
    char path[1024];
    snprintf(path, sizeof(path), "%s/vqhip.prom", dir);
    VqContext *ctx = open_ctx();
    VqWindowConfig wc = { .frames = 3 };
    CHECK(!vq_use_windows(ctx, &wc));
    int e = vq_set_prometheus_file(ctx, path, "job=t");
    CHECK_MSG(!e, "%s", vq_last_error(ctx));
    /* written at once: the run's start, no window yet */
    CHECK(sample(path, DONE) == 0 && sample(path, SCORED) == 0);
    CHECK(sample(path, IDX) == -1);
    FlatPicture r, d;
    flat_picture(&r, 100);
    for (unsigned i = 0; i < 10; i++) {
        if (i == 8)
            CHECK(!mkdir(dir, 0755));
        flat_picture(&d, 101 + i % 5);
        CHECK(!vq_submit(ctx, &r.pic, &d.pic));
        if (i == 9)
            CHECK(!vq_flush(ctx));
        VqFrameScores fs;
        e = vq_receive_wait(ctx, &fs);
        CHECK_MSG(!e && fs.index == i && fs.n == 1, "frame %u: %d", i, e);
        if (i == 1)   /* window 0 is open: nothing new */
            CHECK(sample(path, SCORED) == 0);
        if (i == 2 || i == 4) { /* window 0 closed */
            CHECK_MSG(sample(path, IDX) == 0 && sample(path, SCORED) == 3,
                      "after frame %u: index %g, scored %g", i,
                      sample(path, IDX), sample(path, SCORED));
            CHECK(sample(path, DONE) == 0);
        }
        if (i == 4) { /* the folder goes away before window 1 closes */
            CHECK(!unlink(path));
            CHECK(!rmdir(dir));
        }
        if (i == 5)
            CHECK_MSG(n_warn == 1 && strstr(last_warn, "scoring goes on"),
                      "%u warnings: %s", n_warn, last_warn);
        if (i == 8) { /* back at window 2 */
            CHECK(sample(path, IDX) == 2 && sample(path, SCORED) == 9);
            CHECK_MSG(n_warn == 2 && strstr(last_warn, "written again"),
                      "%u warnings: %s", n_warn, last_warn);
        }
    }
    VqFrameScores fs;
    CHECK(vq_receive(ctx, &fs) == VQ_EOF);
    CHECK(sample(path, IDX) == 3 && sample(path, SCORED) == 10);
    CHECK(sample(path, "vqhip_window_partial{job=\"t\"}") == 1);
    CHECK(sample(path, DONE) == 1);
    CHECK(sample(path, "vqhip_backend_info{job=\"t\",backend=\"cpu\"}") == 1);
    CHECK_MSG(files_in(dir) == 1, "%u files in the folder", files_in(dir));
    vq_close(&ctx);
    unlink(path);
}

static void refused(const char *dir)
{
    char path[1024], bad[1024];
    snprintf(path, sizeof(path), "%s/x.prom", dir);
    snprintf(bad, sizeof(bad), "%s/none/x.prom", dir);
    VqContext *ctx = open_ctx();
    CHECK(vq_set_prometheus_file(ctx, bad, NULL) == VQ_EIO);
    CHECK(strstr(vq_last_error(ctx), "none/x.prom"));
    CHECK(vq_set_prometheus_file(ctx, path, "a=1|a=2") == VQ_EINVAL);
    CHECK(vq_set_prometheus_file(ctx, path, "output=x") == VQ_EINVAL);
    CHECK(vq_set_prometheus_file(ctx, path, "__a=x") == VQ_EINVAL);
    CHECK(vq_set_prometheus_file(ctx, path, "1a=x") == VQ_EINVAL);
    CHECK(vq_set_prometheus_file(ctx, path, "a") == VQ_EINVAL);
    CHECK(vq_set_prometheus_file(ctx, "", NULL) == VQ_EINVAL);
    CHECK(files_in(dir) == 0);
    CHECK(!vq_set_prometheus_file(ctx, path, "a=\"q\\\n"));
    CHECK(vq_set_prometheus_file(ctx, path, NULL) == VQ_ESTATE);
    /* the label value escaped: \" \\ \n */
    CHECK(sample(path, "vqhip_run_done{a=\"\\\"q\\\\\\n\"}") == 0);
    vq_close(&ctx);
    unlink(path);

    ctx = open_ctx();
    FlatPicture r;
    flat_picture(&r, 100);
    CHECK(!vq_submit(ctx, &r.pic, &r.pic));
    CHECK(vq_set_prometheus_file(ctx, path, NULL) == VQ_ESTATE);
    vq_close(&ctx);
    CHECK(files_in(dir) == 0);
}

int main(void)
{
    const char *tmp = getenv("TMPDIR");
    char buf[512];
    snprintf(buf, sizeof(buf), "%s/vqhip_prom_XXXXXX", tmp && *tmp ? tmp : "/tmp");
    char *base = mkdtemp(buf);
    CHECK(base);
    if (!base)
        TEST_END();
    char sub[600];
    snprintf(sub, sizeof(sub), "%s/textfile", base);
    CHECK(!mkdir(sub, 0755));
    windows_and_failure(sub);
    refused(sub);
    rmdir(sub);
    rmdir(base);
    TEST_END();
}
