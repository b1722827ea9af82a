/*
 * Hostile input through the library: every case ends in a clear error (the
 * message is checked) or documented behaviour, and a run that refused a bad
 * picture goes on with good ones. Also: features and models whose outputs
 * would collide, sizes below an extractor's minimum at configure time,
 * skip_unsupported, logs that cannot be written, logs of empty runs.
 */
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rel_common.h"

static VqContext *open_cpu(const char *features, const char *model)
{
    VqConfig cfg = vq_default_config();
    cfg.backend = VQ_BACKEND_CPU;
    cfg.log_level = VQ_LOG_LEVEL_ERROR;
    VqContext *ctx = NULL;
    int err = vq_open(&ctx, &cfg);
    char list[256];
    snprintf(list, sizeof(list), "%s", features ? features : "");
    char *save = NULL;
    for (char *t = strtok_r(list, "|", &save); !err && t;
         t = strtok_r(NULL, "|", &save))
        err = vq_use_feature(ctx, t);
    if (!err && model)
        err = vq_use_model(ctx, model);
    CHECK_MSG(!err, "%s", vq_last_error(ctx));
    return ctx;
}

#define EXPECT_ERR(call, code, text)                                        \
    do {                                                                    \
        int e_ = (call);                                                    \
        CHECK_MSG(e_ == (code) && strstr(vq_last_error(ctx), (text)),       \
                  "%s: %d '%s'", #call, e_, vq_last_error(ctx));            \
    } while (0)

static void test_pictures(void)
{
    VqContext *ctx = open_cpu("psnr|vif", NULL);
    RelFrame f;
    rel_frame(&f, VQ_PIX_FMT_420, 8, 64, 48, 0);
    CHECK(vq_submit(ctx, &f.ref, &f.dis) == 0);
    VqPicture bad = f.dis;
    bad.data[1] = NULL;
    EXPECT_ERR(vq_submit(ctx, &f.ref, &bad), VQ_EINVAL, "plane 1 is NULL");
    bad = f.dis;
    bad.stride[0] = -bad.stride[0];
    EXPECT_ERR(vq_submit(ctx, &f.ref, &bad), VQ_EINVAL, "stride");
    bad = f.dis;
    bad.stride[2] = 10; /* below the 32-byte chroma row */
    EXPECT_ERR(vq_submit(ctx, &f.ref, &bad), VQ_EINVAL, "smaller than its row");
    bad = f.dis;
    bad.w = 66; /* the size changed mid-stream */
    EXPECT_ERR(vq_submit(ctx, &f.ref, &bad), VQ_EINVAL, "but the run is");
    bad = f.dis;
    bad.fmt = VQ_PIX_FMT_444;
    EXPECT_ERR(vq_submit(ctx, &f.ref, &bad), VQ_EINVAL, "but the run is");
    bad = f.dis;
    bad.bpc = 10;
    EXPECT_ERR(vq_submit(ctx, &f.ref, &bad), VQ_EINVAL, "but the run is");
    bad = f.dis;
    bad.bpc = 9;
    EXPECT_ERR(vq_submit(ctx, &f.ref, &bad), VQ_EINVAL, "bits per sample");
    bad = f.dis;
    bad.fmt = (VqPixFmt)77;
    EXPECT_ERR(vq_submit(ctx, &f.ref, &bad), VQ_EINVAL, "unknown pixel format");
    bad = f.dis;
    bad.w = 0;
    EXPECT_ERR(vq_submit(ctx, &f.ref, &bad), VQ_EINVAL, "outside 1x1");
    bad.w = 20000;
    EXPECT_ERR(vq_submit(ctx, &f.ref, &bad), VQ_EINVAL, "outside 1x1");
    EXPECT_ERR(vq_submit(ctx, NULL, &f.dis), VQ_EINVAL, "NULL");
    /* a bad picture is refused; the run goes on */
    CHECK(vq_submit(ctx, &f.ref, &f.dis) == 0);
    CHECK(vq_flush(ctx) == 0);
    VqFrameScores fs;
    unsigned n = 0;
    while (vq_receive(ctx, &fs) == 0)
        n++;
    CHECK_MSG(n == 2, "%u frames", n);
    free(f.buf);
    vq_close(&ctx);

    /* 16-bit samples must be 2-byte aligned */
    ctx = open_cpu("psnr", NULL);
    rel_frame(&f, VQ_PIX_FMT_420, 10, 64, 48, 0);
    bad = f.dis;
    bad.stride[0] += 1;
    EXPECT_ERR(vq_submit(ctx, &f.ref, &bad), VQ_EINVAL, "2-byte aligned");
    free(f.buf);
    vq_close(&ctx);
}

static void test_sizes(void)
{
    /* below adm's minimum: said at configure time, with the minimum */
    VqContext *ctx = open_cpu("psnr|adm", NULL);
    VqPicture g = { .fmt = VQ_PIX_FMT_420, .bpc = 8, .w = 24, .h = 24 };
    EXPECT_ERR(vq_configure(ctx, &g), VQ_EUNSUPPORTED, "33");
    vq_close(&ctx);
    /* skip_unsupported: psnr goes on, adm's outputs are absent */
    VqConfig cfg = vq_default_config();
    cfg.backend = VQ_BACKEND_CPU;
    cfg.skip_unsupported = 1;
    cfg.log_level = VQ_LOG_LEVEL_ERROR;
    CHECK(vq_open(&ctx, &cfg) == 0);
    CHECK(vq_use_feature(ctx, "psnr") == 0 && vq_use_feature(ctx, "adm") == 0);
    CHECK_MSG(vq_configure(ctx, &g) == 0, "%s", vq_last_error(ctx));
    RelFrame f;
    rel_frame(&f, VQ_PIX_FMT_420, 8, 24, 24, 0);
    CHECK(vq_submit(ctx, &f.ref, &f.dis) == 0 && vq_flush(ctx) == 0);
    VqFrameScores fs;
    CHECK(vq_receive(ctx, &fs) == 0);
    CHECK(fs.n == 3 && !strcmp(fs.scores[0].name, "psnr_y"));
    vq_close(&ctx);
    /* ... unless a model needs it */
    CHECK(vq_open(&ctx, &cfg) == 0);
    CHECK(vq_use_model(ctx, "version=vmaf_v0.6.1") == 0);
    EXPECT_ERR(vq_configure(ctx, &g), VQ_EUNSUPPORTED, "adm");
    EXPECT_ERR(vq_submit(ctx, &f.ref, &f.dis), VQ_ESTATE, "earlier error");
    free(f.buf);
    vq_close(&ctx);
}

static void test_collisions(void)
{
    VqContext *ctx = open_cpu("psnr", NULL);
    EXPECT_ERR(vq_use_feature(ctx, "name=psnr:enable_chroma=false"),
               VQ_EINVAL, "writes 'psnr_y'");
    /* a model named like a feature output */
    EXPECT_ERR(vq_use_model(ctx, "version=vmaf_v0.6.1:name=psnr_y"), VQ_EINVAL,
               "writes 'psnr_y'");
    vq_close(&ctx);
    ctx = open_cpu(NULL, "version=vmaf_v0.6.1");
    EXPECT_ERR(vq_use_model(ctx, "version=vmaf_v0.6.1neg:name=integer_adm2"),
               VQ_EINVAL, "integer_adm2");
    /* the same feature once more, identical: fine */
    CHECK(vq_use_feature(ctx, "adm") == 0);
    /* other options that keep the output names: refused */
    EXPECT_ERR(vq_use_feature(ctx, "name=adm:debug=true"), VQ_EINVAL,
               "integer_adm2");
    /* options that rename the outputs: fine */
    CHECK_MSG(vq_use_feature(ctx, "name=adm:adm_enhn_gain_limit=1.2") == 0,
              "%s", vq_last_error(ctx));
    vq_close(&ctx);
}

static void test_models(void)
{
    VqContext *ctx = open_cpu("psnr", NULL);
    EXPECT_ERR(vq_use_model(ctx, "path=/nonexistent/m.json"), VQ_ENOTFOUND,
               "/nonexistent/m.json");
    EXPECT_ERR(vq_use_model(ctx, "version=no_such_model"), VQ_ENOTFOUND,
               "no_such_model");
    char path[] = "/tmp/vqhip-badmodel-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0 && write(fd, "{\"model_dict\": [1, 2", 20) == 20);
    close(fd);
    char spec[128];
    snprintf(spec, sizeof(spec), "path=%s", path);
    CHECK(vq_use_model(ctx, spec) == VQ_EMODEL);
    chmod(path, 0);
    if (access(path, R_OK)) /* root reads anything */
        CHECK(vq_use_model(ctx, spec) == VQ_EIO);
    remove(path);
    EXPECT_ERR(vq_use_feature(ctx, "no_such_feature"), VQ_ENOTFOUND,
               "valid features");
    EXPECT_ERR(vq_use_feature(ctx, "name=psnr:no_such_option=1"), VQ_ENOTFOUND,
               "no_such_option");
    EXPECT_ERR(vq_use_feature(ctx, "name=psnr:enable_chroma=maybe"), VQ_EINVAL,
               "maybe");
    vq_close(&ctx);
}

static int file_has(const char *path, const char *text)
{
    FILE *f = fopen(path, "r");
    char buf[8192] = "";
    size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;
    buf[n] = '\0';
    if (f)
        fclose(f);
    return f && strstr(buf, text);
}

static void test_logs(void)
{
    char dir[] = "/tmp/vqhip-logs-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char path[128], tmpname[160];
    snprintf(path, sizeof(path), "%s/run.json", dir);
    /* an earlier run's log is replaced, even by a run without frames */
    FILE *old = fopen(path, "w");
    fputs("{\"earlier\": true}\n", old);
    fclose(old);
    VqContext *ctx = open_cpu("psnr", NULL);
    CHECK(vq_write_log(ctx, path, VQ_LOG_JSON) == 0);
    CHECK(file_has(path, "\"complete\": false") && !file_has(path, "earlier"));
    vq_close(&ctx);
    /* a complete run says so; no temporary file is left */
    ctx = open_cpu("psnr", NULL);
    RelFrame f;
    rel_frame(&f, VQ_PIX_FMT_420, 8, 32, 32, 0);
    CHECK(vq_submit(ctx, &f.ref, &f.dis) == 0 && vq_flush(ctx) == 0);
    VqFrameScores fs;
    while (vq_receive(ctx, &fs) == 0)
        ;
    CHECK(vq_write_log(ctx, path, VQ_LOG_JSON) == 0);
    CHECK(file_has(path, "\"complete\": true"));
    snprintf(tmpname, sizeof(tmpname), "%s.tmp-%ld", path, (long)getpid());
    CHECK(access(tmpname, F_OK) != 0);
    vq_set_incomplete(ctx, "interrupted");
    CHECK(vq_write_log(ctx, path, VQ_LOG_XML) == 0);
    CHECK(file_has(path, "complete=\"false\" incomplete=\"interrupted\""));
    /* a full disk: an error, and the old log is left whole */
    EXPECT_ERR(vq_write_log(ctx, "/dev/full", VQ_LOG_JSON), VQ_EIO,
               "No space left");
    struct stat st;
    CHECK(stat("/dev/full", &st) == 0 && S_ISCHR(st.st_mode));
    EXPECT_ERR(vq_write_log(ctx, "/nonexistent/dir/log.json", VQ_LOG_JSON),
               VQ_EIO, "cannot write log");
    free(f.buf);
    vq_close(&ctx);
    remove(path);
    rmdir(dir);
}

int main(void)
{
    test_pictures();
    test_sizes();
    test_collisions();
    test_models();
    test_logs();
    TEST_END();
}
