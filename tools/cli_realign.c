/* --realign: pairs re-aligned after a dropped or repeated frame. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli_args.h"
#include "cli_realign.h"

int cli_realign_option(CliRealign *p, const char *opt, const char *arg)
{
    if (!strcmp(opt, "realign")) {
        p->on = 1;
        return 0;
    }
    if (!strcmp(opt, "realign_window"))
        return cli_parse_uint("--realign_window", arg, 1,
                              CLI_REALIGN_AHEAD_MAX - 1, &p->window);
    return -1;
}

unsigned cli_realign_held(CliRealign *p)
{
    if (!p->on)
        return 0;
    if (!p->det) {
        VqRealignConfig cfg = { .window = p->window };
        if (vq_realign_open(&p->det, &cfg)) {
            fprintf(stderr, "vqhip: --realign: out of memory: the pairs "
                    "are not re-aligned\n");
            p->on = 0;
            return 0;
        }
        p->ahead = vq_realign_ahead(p->det);
    }
    return p->ahead;
}

/* Reads each input ahead to p->ahead frames (or its end). */
static void fill(CliRealign *p)
{
    for (int i = 0; i < 2; i++) {
        while (p->qn[i] < p->ahead && p->end[i] > 0) {
            VqPicture *pic = &p->pic[i][p->qn[i]];
            int r = frame_reader_next(p->rd[i], pic, p->err[i],
                                      sizeof(p->err[i]));
            if (r <= 0) {
                p->end[i] = r;
                break;
            }
            p->seq[i][p->qn[i]++] = p->taken[i]++;
            if (vq_realign_add(p->det, i, pic)) {
                snprintf(p->err[i], sizeof(p->err[i]), "--realign: %s",
                         vq_realign_error(p->det));
                p->qn[i]--;
                frame_reader_give_back(p->rd[i], p->seq[i][p->qn[i]]);
                p->end[i] = -1;
            }
        }
    }
}

/* Takes input i's head frame out of the read-ahead. */
static void take(CliRealign *p, int i, VqPicture *pic, unsigned *seq)
{
    *pic = p->pic[i][0];
    *seq = p->seq[i][0];
    p->qn[i]--;
    memmove(p->pic[i], p->pic[i] + 1, p->qn[i] * sizeof(p->pic[i][0]));
    memmove(p->seq[i], p->seq[i] + 1, p->qn[i] * sizeof(p->seq[i][0]));
}

static void report(CliRealign *p, unsigned n, const VqRealignEvent *ev)
{
    static const char *what[2][2] = {
        { "the reference dropped a frame", "the reference repeated a frame" },
        { "the distorted video dropped a frame",
          "the distorted video repeated a frame" },
    };
    int left = ev->delta < 0 ? 0 : 1; /* the input whose frame is left out */
    unsigned long long f = left ? ev->dis_frame : ev->ref_frame;
    double t = p->fps_num ? (double)n * p->fps_den / p->fps_num : -1;
    char when[48] = "";
    if (t >= 0)
        snprintf(when, sizeof(when), " (%.3f s)", t);
    fprintf(stderr, "vqhip: realign: frame %u%s: %s; pairs re-aligned by "
            "%+d (%s frame %llu left out, offset now %+d): mean squared "
            "luma difference %.3f, %.3f re-aligned\n", n, when,
            what[ev->input][ev->repeat], ev->delta,
            left ? "distorted" : "reference", f, ev->offset, ev->mse_pair,
            ev->mse_neighbour);
    p->events++;
    /* the log's record and the NDJSON line */
    if (p->ctx && vq_note_realign(p->ctx, n, t >= 0 ? t : NAN, ev))
        fprintf(stderr, "vqhip: realign: the event could not be recorded "
                "for the log (out of memory)\n");
}

void cli_realign_next(CliRealign *p, FrameReader *rr, FrameReader *rd,
                      unsigned n, VqPicture *rp, VqPicture *dp,
                      unsigned seq[2], int *a, int *b, char *err_r,
                      char *err_d, size_t err_size)
{
    if (!p->on || !p->det) {
        *a = frame_reader_next(rr, rp, err_r, err_size);
        *b = frame_reader_next(rd, dp, err_d, err_size);
        seq[0] = seq[1] = n;
        return;
    }
    if (p->max_pairs && n >= p->max_pairs) {
        *a = *b = 0; /* --frame_cnt pairs scored */
        return;
    }
    if (!p->rd[0]) {
        p->rd[0] = rr;
        p->rd[1] = rd;
        p->end[0] = p->end[1] = 1;
    }
    fill(p);
    while (p->qn[0] && p->qn[1]) {
        VqRealignEvent ev;
        if (vq_realign_decide(p->det, &ev) != 1)
            break;
        /* one head frame has no partner: back to its reader unscored */
        int i = ev.delta < 0 ? 0 : 1;
        VqPicture pic;
        unsigned s;
        take(p, i, &pic, &s);
        frame_reader_give_back(p->rd[i], s);
        report(p, n, &ev);
        fill(p);
    }
    *a = p->qn[0] ? 1 : p->end[0];
    *b = p->qn[1] ? 1 : p->end[1];
    if (*a > 0)
        take(p, 0, rp, &seq[0]);
    if (*b > 0)
        take(p, 1, dp, &seq[1]);
    if (*a > 0 && *b > 0)
        vq_realign_pop(p->det);
    if (*a < 0)
        snprintf(err_r, err_size, "%s", p->err[0]);
    if (*b < 0)
        snprintf(err_d, err_size, "%s", p->err[1]);
}

void cli_realign_finish(CliRealign *p)
{
    for (int i = 0; i < 2; i++) {
        while (p->qn[i]) {
            VqPicture pic;
            unsigned s;
            take(p, i, &pic, &s);
            frame_reader_give_back(p->rd[i], s);
        }
    }
    if (p->on && p->events)
        fprintf(stderr, "vqhip: realign: %u event%s; the frames left out "
                "were not scored\n", p->events, p->events == 1 ? "" : "s");
    vq_realign_close(&p->det);
}
