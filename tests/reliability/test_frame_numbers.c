/*
 * vq_set_next_frame_number: the logs number the pairs as the caller says
 * (a pair refused by its submit takes no number, a second call before a
 * pair replaces the first), with the values a run without it logs; without
 * it, 0, 1, ... in submit order. Checked in the CSV log (the Frame column)
 * and the JSON log (frameNum).
 */
#include <unistd.h>

#include "rel_common.h"

#define N 6

/* One run of N good pairs (and one refused) with psnr; numbered: calls
 * vq_set_next_frame_number around them. */
static VqContext *run(int numbered)
{
    VqConfig cfg = vq_default_config();
    cfg.backend = VQ_BACKEND_CPU;
    cfg.log_level = VQ_LOG_LEVEL_ERROR;
    VqContext *ctx = NULL;
    int err = vq_open(&ctx, &cfg);
    if (!err)
        err = vq_use_feature(ctx, "name=psnr");
    for (unsigned i = 0; !err && i < N; i++) {
        RelFrame f;
        rel_frame(&f, VQ_PIX_FMT_420, 8, 64, 48, i);
        if (numbered && i == 2)
            err = vq_set_next_frame_number(ctx, 10);
        if (numbered && i == 4) {
            err = vq_set_next_frame_number(ctx, 7);
            if (!err)
                err = vq_set_next_frame_number(ctx, 40);
        }
        if (!err && i == 2) {
            VqPicture bad = f.dis; /* refused: no number taken */
            bad.data[0] = NULL;
            CHECK(vq_submit(ctx, &f.ref, &bad) < 0);
        }
        if (!err)
            err = vq_submit(ctx, &f.ref, &f.dis);
        free(f.buf);
    }
    if (!err)
        err = vq_flush(ctx);
    VqFrameScores fs;
    while (!err && !vq_receive(ctx, &fs))
        ;
    CHECK_MSG(!err, "%s", ctx ? vq_last_error(ctx) : "open");
    return ctx;
}

/* The log's frame numbers (first CSV field) and the rest of each row. */
static unsigned read_csv(const char *path, unsigned *num, char rest[][256])
{
    FILE *f = fopen(path, "r");
    char line[512];
    unsigned n = 0;
    if (!f)
        return 0;
    if (fgets(line, sizeof(line), f)) /* header */
        while (n < N + 1 && fgets(line, sizeof(line), f)) {
            char *comma = strchr(line, ',');
            if (!comma)
                break;
            num[n] = (unsigned)strtoul(line, NULL, 10);
            snprintf(rest[n], 256, "%s", comma);
            n++;
        }
    fclose(f);
    return n;
}

int main(void)
{
    char dir[] = "/tmp/vqhip-fnum.XXXXXX", a[64], b[64], j[64];
    CHECK(mkdtemp(dir));
    snprintf(a, sizeof(a), "%s/n.csv", dir);
    snprintf(b, sizeof(b), "%s/plain.csv", dir);
    snprintf(j, sizeof(j), "%s/n.json", dir);
    VqContext *numbered = run(1), *plain = run(0);
    CHECK(numbered && plain);
    CHECK(!vq_write_log(numbered, a, VQ_LOG_CSV));
    CHECK(!vq_write_log(plain, b, VQ_LOG_CSV));
    CHECK(!vq_write_log(numbered, j, VQ_LOG_JSON));
    unsigned na[N + 1], nb[N + 1];
    char ra[N + 1][256], rb[N + 1][256];
    const unsigned want[N] = { 0, 1, 10, 11, 40, 41 };
    CHECK(read_csv(a, na, ra) == N && read_csv(b, nb, rb) == N);
    for (unsigned i = 0; i < N; i++) {
        CHECK_MSG(na[i] == want[i], "row %u: frame %u, want %u", i, na[i],
                  want[i]);
        CHECK_MSG(nb[i] == i, "plain row %u: frame %u", i, nb[i]);
        CHECK_MSG(!strcmp(ra[i], rb[i]), "row %u: '%s' != '%s'", i, ra[i],
                  rb[i]);
    }
    FILE *f = fopen(j, "r");
    char text[16384];
    size_t len = f ? fread(text, 1, sizeof(text) - 1, f) : 0;
    text[len] = 0;
    if (f)
        fclose(f);
    CHECK(strstr(text, "\"frameNum\": 41,") && strstr(text, "\"frameNum\": 10,") &&
          !strstr(text, "\"frameNum\": 2,"));
    vq_close(&numbered);
    vq_close(&plain);
    unlink(a);
    unlink(b);
    unlink(j);
    rmdir(dir);
    TEST_END();
}
