/*
 * Logs never harm other files and never hang: vq_write_log does not write
 * through links planted at temporary names, vq_check_log_path refuses a log
 * that is an input and does not open a named pipe, vq_discard_log removes
 * only regular files, model names that would break a layout are refused,
 * and a model path that is a named pipe is refused without blocking.
 */
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rel_common.h"

static char dir[] = "/tmp/vqhip-ls.XXXXXX";
static char victim[512];
static const char content[] = "precious contents\n";

static void path_of(char *buf, size_t n, const char *name)
{
    snprintf(buf, n, "%s/%s", dir, name);
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    CHECK(f);
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

static int victim_intact(void)
{
    char buf[64] = "";
    FILE *f = fopen(victim, "r");
    if (!f)
        return 0;
    size_t n = fread(buf, 1, sizeof(buf) - 1, f);
    fclose(f);
    buf[n] = '\0';
    return !strcmp(buf, content);
}

/* A context that has scored two frames with psnr. */
static VqContext *scored(void)
{
    VqConfig cfg = vq_default_config();
    cfg.backend = VQ_BACKEND_CPU;
    VqContext *ctx = NULL;
    if (vq_open(&ctx, &cfg) || vq_use_feature(ctx, "name=psnr"))
        return ctx;
    for (unsigned i = 0; i < 2; i++) {
        RelFrame f;
        rel_frame(&f, VQ_PIX_FMT_420, 8, 32, 16, i);
        CHECK(!vq_submit(ctx, &f.ref, &f.dis));
        free(f.buf);
    }
    CHECK(!vq_flush(ctx));
    VqFrameScores fs;
    while (!vq_receive(ctx, &fs))
        ;
    return ctx;
}

/* Symbolic links to the victim at the names a temporary log had or could
 * be guessed to have: the write goes elsewhere, the victim is untouched. */
static void planted_links(void)
{
    char log[512], name[600];
    path_of(log, sizeof(log), "run.json");
    const char *suffix[] = { ".tmp", ".tmp-%ld", ".vqtmp", ".vqtmp-%ld",
                             ".tmp-%08lx", ".part", ".new", "~" };
    for (unsigned i = 0; i < sizeof(suffix) / sizeof(*suffix); i++) {
        char s[32];
        snprintf(s, sizeof(s), suffix[i], (long)getpid());
        snprintf(name, sizeof(name), "%s%s", log, s);
        CHECK(!symlink(victim, name));
    }
    VqContext *ctx = scored();
    CHECK(ctx);
    for (int fmt = VQ_LOG_XML; ctx && fmt <= VQ_LOG_SUB; fmt++) {
        CHECK_MSG(!vq_write_log(ctx, log, (VqLogFmt)fmt), "%s",
                  vq_last_error(ctx));
        CHECK(victim_intact());
    }
    char msg[256];
    CHECK(!vq_check_log_path(log, NULL, 0, msg, sizeof(msg)));
    CHECK(victim_intact());
    struct stat st;
    CHECK(!lstat(log, &st) && S_ISREG(st.st_mode) && st.st_size > 0);
    vq_close(&ctx);
}

/* The log is an input (the same file, a hard link, a symbolic link). */
static void log_is_input(void)
{
    char ref[512], hard[512], soft[512], other[512], msg[512];
    path_of(ref, sizeof(ref), "ref.y4m");
    path_of(hard, sizeof(hard), "hard.y4m");
    path_of(soft, sizeof(soft), "soft.y4m");
    path_of(other, sizeof(other), "other.xml");
    write_file(ref, content);
    CHECK(!link(ref, hard));
    CHECK(!symlink(ref, soft));
    const char *inputs[] = { "-", ref };
    const char *tries[] = { ref, hard, soft };
    for (unsigned i = 0; i < 3; i++) {
        int r = vq_check_log_path(tries[i], inputs, 2, msg, sizeof(msg));
        CHECK_MSG(r == VQ_EINVAL && strstr(msg, "is the input"), "%s: %d %s",
                  tries[i], r, msg);
    }
    CHECK(!vq_check_log_path(other, inputs, 2, msg, sizeof(msg)));
    CHECK(!vq_check_log_path("-", inputs, 2, msg, sizeof(msg)));
    CHECK(vq_check_log_path("/nonexistent-dir/x.xml", NULL, 0, msg,
                            sizeof(msg)) == VQ_EIO && *msg);
    CHECK(vq_check_log_path(dir, NULL, 0, msg, sizeof(msg)) == VQ_EINVAL &&
          strstr(msg, "folder"));
}

/* A named pipe at the log path: checked without being opened (an open
 * would block here, with no reader: the alarm ends the test). */
static void fifo_log(void)
{
    char fifo[512], msg[256];
    path_of(fifo, sizeof(fifo), "log.fifo");
    CHECK(!mkfifo(fifo, 0600));
    alarm(10);
    CHECK(!vq_check_log_path(fifo, NULL, 0, msg, sizeof(msg)));
    alarm(0);
    CHECK(vq_discard_log(fifo) == 0);
    struct stat st;
    CHECK(!lstat(fifo, &st) && S_ISFIFO(st.st_mode));
}

static void discard(void)
{
    char log[512], link_to[512];
    path_of(log, sizeof(log), "old.xml");
    path_of(link_to, sizeof(link_to), "link.xml");
    write_file(log, "<VMAF/>\n");
    CHECK(vq_discard_log(log) == 1);
    CHECK(access(log, F_OK));
    CHECK(vq_discard_log(log) == 0); /* absent: nothing to do */
    CHECK(!symlink(victim, link_to));
    CHECK(vq_discard_log(link_to) == 0);
    CHECK(!access(link_to, F_OK));
    CHECK(victim_intact());
}

/* A log name the folder takes, up to NAME_MAX, is written (the temporary
 * name beside it would be longer than NAME_MAX: it is cut to fit), and no
 * temporary file is left behind. */
static void long_names(void)
{
    VqContext *ctx = scored();
    CHECK(ctx);
    for (size_t len = 200; len <= NAME_MAX; len += 55) {
        char name[NAME_MAX + 1], log[NAME_MAX + 600], msg[512];
        memset(name, 'x', len);
        memcpy(name + len - 5, ".json", 6);
        path_of(log, sizeof(log), name);
        CHECK_MSG(!vq_check_log_path(log, NULL, 0, msg, sizeof(msg)),
                  "%zu characters: %s", len, msg);
        CHECK_MSG(!vq_write_log(ctx, log, VQ_LOG_JSON), "%zu: %s", len,
                  vq_last_error(ctx));
        struct stat st;
        CHECK(!stat(log, &st) && S_ISREG(st.st_mode) && st.st_size > 0);
        CHECK(!unlink(log));
    }
    DIR *d = opendir(dir);
    CHECK(d);
    for (struct dirent *e; (e = readdir(d));)
        CHECK_MSG(e->d_name[0] != 'x' || !strstr(e->d_name, ".vqtmp-"),
                  "left behind: %s", e->d_name);
    closedir(d);
    vq_close(&ctx);
}

/* Each character that some layout would need escaped, in a model name. */
static void model_names(void)
{
    static const char bad[] = "\"',\t\n\\ <>&=;{}|/#%";
    VqConfig cfg = vq_default_config();
    cfg.backend = VQ_BACKEND_CPU;
    for (const char *c = bad; *c; c++) {
        VqContext *ctx = NULL;
        CHECK(!vq_open(&ctx, &cfg));
        char spec[64];
        snprintf(spec, sizeof(spec), "version=vmaf_v0.6.1:name=a%cb", *c);
        int r = vq_use_model(ctx, spec);
        CHECK_MSG(r == VQ_EINVAL && strstr(vq_last_error(ctx), "model name"),
                  "char 0x%02x: %d %s", (unsigned char)*c, r,
                  vq_last_error(ctx));
        CHECK(vq_output_count(ctx) == 0);
        vq_close(&ctx);
    }
    const char *refused[] = { "1abc", "-x", ".x", /* 65 characters */
        "a2345678901234567890123456789012345678901234567890123456789012345" };
    const char *fine[] = { "vmaf", "my-model.v2_x", "_m", /* 64 */
        "a234567890123456789012345678901234567890123456789012345678901234" };
    for (unsigned i = 0; i < 4; i++) {
        for (unsigned good = 0; good < 2; good++) {
            VqContext *ctx = NULL;
            CHECK(!vq_open(&ctx, &cfg));
            char spec[128];
            snprintf(spec, sizeof(spec), "version=vmaf_v0.6.1:name=%s",
                     good ? fine[i] : refused[i]);
            int r = vq_use_model(ctx, spec);
            CHECK_MSG(good ? !r : r == VQ_EINVAL, "%s: %d %s", spec, r,
                      vq_last_error(ctx));
            vq_close(&ctx);
        }
    }
}

/* A model path that is a named pipe with no writer: refused at once. */
static void fifo_model(void)
{
    char fifo[512], spec[600];
    path_of(fifo, sizeof(fifo), "model.fifo");
    CHECK(!mkfifo(fifo, 0600));
    snprintf(spec, sizeof(spec), "path=%s", fifo);
    VqConfig cfg = vq_default_config();
    cfg.backend = VQ_BACKEND_CPU;
    VqContext *ctx = NULL;
    CHECK(!vq_open(&ctx, &cfg));
    alarm(10);
    int r = vq_use_model(ctx, spec);
    alarm(0);
    CHECK_MSG(r < 0 && strstr(vq_last_error(ctx), "not a regular file"),
              "%d %s", r, vq_last_error(ctx));
    vq_close(&ctx);
    /* a directory too */
    CHECK(!vq_open(&ctx, &cfg));
    snprintf(spec, sizeof(spec), "path=%s", dir);
    CHECK(vq_use_model(ctx, spec) < 0);
    vq_close(&ctx);
}

int main(void)
{
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    path_of(victim, sizeof(victim), "victim.txt");
    write_file(victim, content);
    planted_links();
    log_is_input();
    fifo_log();
    discard();
    long_names();
    model_names();
    fifo_model();
    char cmd[600];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
    if (system(cmd))
        printf("note: could not remove %s\n", dir);
    TEST_END();
}
