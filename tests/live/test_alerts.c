/* Alerts and the stats stream through the API (vq_add_alert,
 * vq_receive_alert, vq_alert_count/state, vq_set_stats_sink) on frames
 * whose distortion is known by construction: frames 10-19 are 20 levels
 * off their reference (psnr_y 22.1 dB), the others 1 level (48.1 dB).
 * The expected events follow from that and the rules alone. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../common/unit_check.h"
#include "../common/flat_picture.h"
#include "vqhip.h"

#define N 24

typedef struct Sink {
    int fail;
    unsigned lines, window, alert, frame, summary, bad;
    int complete;          /* the summary's "complete" */
} Sink;

static int sink_write(void *opaque, const char *line, size_t len)
{
    Sink *s = opaque;
    if (s->fail)
        return -1;
    s->lines++;
    static const char head[] = "{\"schema\":\"" VQ_STATS_SCHEMA "\",";
    s->bad += !len || line[len - 1] != '\n' || memchr(line, '\n', len - 1) ||
              strncmp(line, head, sizeof(head) - 1);
    s->window += !!strstr(line, "\"type\":\"window\"");
    s->alert += !!strstr(line, "\"type\":\"alert\"");
    s->frame += !!strstr(line, "\"type\":\"frame\"");
    s->summary += !!strstr(line, "\"type\":\"summary\"");
    if (strstr(line, "\"type\":\"summary\""))
        s->complete = strstr(line, "\"complete\":true") ? 1
                      : strstr(line, "\"complete\":false") ? 0 : -1;
    return 0;
}

static void quiet(void *o, VqLogLevel l, const char *m)
{
    (void)o;
    (void)l;
    (void)m;
}

static VqContext *open_ctx(Sink *sink)
{
    VqConfig cfg = vq_default_config();
    cfg.backend = VQ_BACKEND_CPU;
    cfg.n_threads = 2;
    cfg.log = quiet;
    VqContext *ctx = NULL;
    CHECK(!vq_open(&ctx, &cfg));
    CHECK(!vq_use_feature(ctx, "name=psnr:enable_chroma=false"));
    VqWindowConfig wc = { .frames = 4, .stats = "mean|min" };
    CHECK(!vq_use_windows(ctx, &wc));
    int e = vq_add_alert(ctx, "f=psnr_y<30 for 2 clear>40; "
                              "w=psnr_y.mean<30 for 2 clear>40");
    CHECK_MSG(!e, "%s", vq_last_error(ctx));
    CHECK(!vq_set_stats_sink(ctx, sink_write, sink, 0));
    return ctx;
}

typedef struct Ev {
    const char *name;
    int raised;
    unsigned frame;
    int window;
} Ev;

/* Runs the frames; events into ev (at most 8), their count. */
static unsigned run(VqContext *ctx, Ev *ev)
{
    FlatPicture ref, dis;
    unsigned n_ev = 0;
    VqFrameScores fs;
    VqAlertEvent a;
    for (unsigned i = 0; i < N; i++) {
        flat_picture(&ref, 100);
        flat_picture(&dis, i >= 10 && i < 20 ? 120 : 101);
        CHECK(!vq_submit(ctx, &ref.pic, &dis.pic));
        if (i == N - 1)
            CHECK(!vq_flush(ctx));
        while (!vq_receive_wait(ctx, &fs)) {
            while (!vq_receive_alert(ctx, &a)) {
                if (n_ev < 8)
                    ev[n_ev] = (Ev){ a.name, a.raised, a.frame, a.window };
                n_ev++;
                CHECK(a.raised ? a.value < 30 : a.value > 40);
            }
            if (fs.index == 15) {
                VqAlertState st;
                CHECK(!vq_alert_state(ctx, 0, &st) && st.active &&
                      st.n_raised == 1 && !strcmp(st.name, "f"));
                CHECK(!vq_alert_state(ctx, 1, &st) && !st.active &&
                      st.n_raised == 0 && !strcmp(st.name, "w"));
            }
        }
    }
    return n_ev;
}

int main(void)
{
    Sink sink = { 0 };
    VqContext *ctx = open_ctx(&sink);
    Ev ev[8];
    unsigned n = run(ctx, ev);
    /* f: bad frames 10..19, raised at the 2nd (11), cleared at 20;
     * w: windows 12-15 and 16-19 have mean 22.1 (8-11: 35.1 is not below
     * 30), raised with window 4 (frame 19), cleared by window 5 (23) */
    static const Ev want[] = { { "f", 1, 11, -1 }, { "w", 1, 19, 4 },
                               { "f", 0, 20, -1 }, { "w", 0, 23, 5 } };
    CHECK_MSG(n == 4, "%u events", n);
    for (unsigned i = 0; i < n && i < 4; i++)
        CHECK_MSG(!strcmp(ev[i].name, want[i].name) &&
                  ev[i].raised == want[i].raised &&
                  ev[i].frame == want[i].frame &&
                  ev[i].window == want[i].window,
                  "event %u: %s %d frame %u window %d", i, ev[i].name,
                  ev[i].raised, ev[i].frame, ev[i].window);
    CHECK(vq_alert_count(ctx) == 2);
    VqAlertState st;
    CHECK(!vq_alert_state(ctx, 1, &st) && !st.active && st.n_raised == 1 &&
          !strcmp(st.rule, "psnr_y.mean<30 for 2 clear>40"));
    CHECK(vq_alert_state(ctx, 2, &st) == VQ_EINVAL);
    CHECK_MSG(sink.lines == 6 + 4 + 1 && sink.window == 6 && sink.alert == 4 &&
              sink.summary == 1 && !sink.frame && !sink.bad,
              "lines %u: %u window, %u alert, %u summary, %u frame, %u bad",
              sink.lines, sink.window, sink.alert, sink.summary, sink.frame,
              sink.bad);
    CHECK(vq_add_alert(ctx, "psnr_y<3") == VQ_ESTATE);
    vq_close(&ctx);
    CHECK(sink.summary == 1 && sink.complete == 1); /* not again at vq_close */

    /* a run cut short (no vq_flush): vq_close writes its summary, with
     * frame lines asked for */
    Sink cut = { 0 };
    ctx = open_ctx(&cut);
    CHECK(!vq_set_stats_sink(ctx, sink_write, &cut, VQ_STATS_FRAMES));
    for (unsigned i = 0; i < 6; i++) {
        FlatPicture ref, dis;
        VqFrameScores fs;
        flat_picture(&ref, 100);
        flat_picture(&dis, 101);
        CHECK(!vq_submit(ctx, &ref.pic, &dis.pic));
        while (!vq_receive_wait(ctx, &fs))
            ;
    }
    CHECK(!cut.summary);
    vq_close(&ctx);
    CHECK_MSG(cut.frame == 6 && cut.window == 1 && cut.summary == 1 &&
              cut.complete == 0 && !cut.bad, "cut short: %u frame, %u window, "
              "%u summary, complete %d", cut.frame, cut.window, cut.summary,
              cut.complete);

    /* a sink that fails: every frame and event still comes */
    Sink broken = { .fail = 1 };
    ctx = open_ctx(&broken);
    CHECK(run(ctx, ev) == 4);
    VqRunInfo info;
    CHECK(!vq_run_info(ctx, &info) && info.received == N);
    vq_close(&ctx);

    /* strict syntax: nothing added, the bad token named */
    VqConfig cfg = vq_default_config();
    cfg.backend = VQ_BACKEND_CPU;
    CHECK(!vq_open(&ctx, &cfg));
    static const char *bad[][2] = {
        { "psnr_y<30 for", "'for' takes a count from 1 to 1000000, not 'end of rule'" },
        { "psnr_y<30 x", "unexpected 'x'" },
        { "psnr_y 30", "expected '<' or '>' at '30'" },
        { "<30", "expected OUTPUT or OUTPUT.STAT at '<30'" },
        { "psnr_y<1e999", "'1e999' is not a number" },
        { "", "no rule given" },
    };
    for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        int e = vq_add_alert(ctx, bad[i][0]);
        CHECK_MSG(e == VQ_EINVAL && strstr(vq_last_error(ctx), bad[i][1]),
                  "'%s': %d %s", bad[i][0], e, vq_last_error(ctx));
    }
    CHECK(!vq_add_alert(ctx, "a=psnr_y<3|b=psnr_y>90 clear<80"));
    CHECK(vq_add_alert(ctx, "c=psnr_y<3|a=psnr_y<4") == VQ_EINVAL);
    CHECK(vq_alert_count(ctx) == 2); /* c was not added either */
    vq_close(&ctx);
    TEST_END();
}
