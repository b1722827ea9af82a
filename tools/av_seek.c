/*
 * FFmpeg inputs (av_input.h): counting and seeking. Frame numbers are presentation order as a
 * decode from the start counts them: frame k is the k-th frame the decoder
 * gives. Counting (plan, run-item) reads every packet of the stream once,
 * without decoding, into a table. When every frame has a distinct pts,
 * the table ranks the frames in presentation order, and each frame decoded
 * later is checked against it (its pts is the table's at its count), so a
 * decoder that gives more or fewer frames than packets is refused instead
 * of shifting the numbering. Otherwise the count is a full decode.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "av_input.h"
#include "av_input_priv.h"

static int cmp_i64(const void *x, const void *y)
{
    int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
    return a < b ? -1 : a > b;
}

/* Ranks the frames by pts when every one has a distinct one. */
static void rank_frames(AvIn *a)
{
    a->ranked = 0;
    a->sorted = malloc((a->n_frames + 1) * sizeof(*a->sorted));
    if (!a->sorted)
        return;
    unsigned k = 0;
    for (unsigned i = 0; i < a->n_tab; i++) {
        if (a->tab[i].pts == AV_NOPTS_VALUE)
            return;
        if (!a->tab[i].discard)
            a->sorted[k++] = a->tab[i].pts;
    }
    qsort(a->sorted, k, sizeof(*a->sorted), cmp_i64);
    for (unsigned i = 1; i < k; i++)
        if (a->sorted[i] == a->sorted[i - 1])
            return;
    for (unsigned i = 0; i < a->n_tab; i++) {
        unsigned lo = 0, hi = k;
        while (lo < hi) {
            unsigned mid = (lo + hi) / 2;
            if (a->sorted[mid] < a->tab[i].pts)
                lo = mid + 1;
            else
                hi = mid;
        }
        a->tab[i].rank = lo;
    }
    a->ranked = 1;
}

int av_seek_count(YuvInput *in, unsigned *n, char *err, size_t errsz)
{
    AvIn *a = in->priv;
    unsigned cap = 0;
    int r;
    a->n_tab = 0;
    while ((r = av_read_frame(a->fmt, a->pkt)) >= 0) {
        AVPacket *p = a->pkt;
        if (p->stream_index == a->si && a->n_tab == cap) {
            Pkt *t = realloc(a->tab, (cap = cap ? 2 * cap : 4096) * sizeof(*t));
            if (!t) {
                av_packet_unref(p);
                snprintf(err, errsz, "out of memory");
                return -1;
            }
            a->tab = t;
        }
        if (p->stream_index == a->si) {
            if (p->flags & AV_PKT_FLAG_CORRUPT) {
                av_packet_unref(p);
                snprintf(err, errsz, "'%s': packet %u is corrupt: the frame "
                         "count cannot be established", a->path, a->n_tab);
                return -1;
            }
            a->tab[a->n_tab++] = (Pkt){ p->pts, p->dts, p->pos,
                !!(p->flags & AV_PKT_FLAG_KEY),
                !!(p->flags & AV_PKT_FLAG_DISCARD), 0 };
        }
        av_packet_unref(p);
    }
    if (r != AVERROR_EOF)
        return av_err(err, errsz, a, "reading its packets (the frame count "
                     "cannot be established)", r);
    int64_t listed = a->fmt->streams[a->si]->nb_frames;
    if (listed > 0 && listed > (int64_t)a->n_tab) {
        snprintf(err, errsz, "'%s': its index lists %lld frames, %u could be "
                 "read (truncated?): the frame count cannot be established",
                 a->path, (long long)listed, a->n_tab);
        return -1;
    }
    a->n_frames = 0;
    for (unsigned i = 0; i < a->n_tab; i++)
        a->n_frames += !a->tab[i].discard;
    rank_frames(a);
    av_close_stream(a);
    if (av_open_stream(a, err, errsz))
        return -1;
    if (!a->ranked) {
        /* no pts to rank by: the count is the decoder's */
        unsigned k = 0;
        while ((r = av_decode_next(a, err, errsz)) > 0) {
            av_frame_unref(a->frame);
            k++;
        }
        if (r < 0)
            return -1;
        a->n_frames = k;
        av_close_stream(a);
        if (av_open_stream(a, err, errsz))
            return -1;
    }
    a->counted = 1;
    *n = a->n_frames;
    return 0;
}

/* Packet d is a keyframe every earlier packet (decode order) precedes and
 * every later one follows in presentation order: decoding from it gives
 * frames rank(d), rank(d) + 1, ... */
static unsigned clean_cut(const AvIn *a, unsigned k)
{
    unsigned best = 0;
    int64_t before = INT64_MIN;
    int64_t *after = malloc((a->n_tab + 1) * sizeof(*after));
    if (!after)
        return 0;
    after[a->n_tab] = INT64_MAX;
    for (unsigned i = a->n_tab; i-- > 0;)
        after[i] = a->tab[i].pts < after[i + 1] ? a->tab[i].pts : after[i + 1];
    for (unsigned d = 0; d < a->n_tab; d++) {
        const Pkt *t = &a->tab[d];
        if (t->key && !t->discard && before < t->pts && t->pts < after[d + 1] &&
            t->rank <= k)
            best = d;
        before = t->pts > before ? t->pts : before;
    }
    free(after);
    return best;
}

/* Seeks to packet d: reads on from where the demuxer lands at or before
 * it, dropping the packets before d. 0, or -1 when it lands after d. */
static int seek_to(AvIn *a, unsigned d)
{
    const Pkt *t = &a->tab[d];
    int64_t ts[4] = { t->pts, t->dts, 0, 0 };
    unsigned n_ts = 2;
    for (unsigned i = d, found = 0; i-- > 0 && found < 2;)
        if (a->tab[i].key && a->tab[i].dts != AV_NOPTS_VALUE)
            ts[n_ts++] = a->tab[i].dts, found++;
    for (unsigned attempt = 0; attempt < n_ts; attempt++) {
        if (ts[attempt] == AV_NOPTS_VALUE ||
            av_seek_frame(a->fmt, a->si, ts[attempt], AVSEEK_FLAG_BACKWARD) < 0)
            continue;
        unsigned j = a->n_tab;
        while (av_read_frame(a->fmt, a->pkt) >= 0) {
            AVPacket *p = a->pkt;
            if (p->stream_index != a->si) {
                av_packet_unref(p);
                continue;
            }
            if (j == a->n_tab) { /* where it landed */
                for (j = 0; j < a->n_tab; j++)
                    if (a->tab[j].pos == p->pos && a->tab[j].pts == p->pts)
                        break;
                if (j > d)
                    j = a->n_tab;
            } else if (a->tab[j].pos != p->pos || a->tab[j].pts != p->pts) {
                j = a->n_tab;
            }
            if (j == a->n_tab || j == d)
                break; /* packet d in hand, or a landing to try again */
            j++;
            av_packet_unref(p);
        }
        if (j == d) {
            avcodec_flush_buffers(a->dec);
            int r = avcodec_send_packet(a->dec, a->pkt);
            av_packet_unref(a->pkt);
            if (r < 0)
                return -1;
            a->next_pkt = d + 1;
            a->check_pkt = 1;
            return 0;
        }
        av_packet_unref(a->pkt);
    }
    return -1;
}

int av_input_skip(YuvInput *in, unsigned k, int fast, int *used_fast,
                  char *err, size_t errsz)
{
    AvIn *a = in->priv;
    if (used_fast)
        *used_fast = 0;
    if (a->next || !a->counted) {
        snprintf(err, errsz, "'%s': skipping needs a counted input at its "
                 "start", a->path);
        return -1;
    }
    if (k > a->n_frames) {
        snprintf(err, errsz, "'%s': frame %u is past the end (%u frames)",
                 a->path, k, a->n_frames);
        return -1;
    }
    a->want = k;
    unsigned d = fast && a->ranked ? clean_cut(a, k) : 0;
    if (!d)
        return 0; /* decoded from the start, frames before k dropped */
    if (seek_to(a, d)) {
        /* the demuxer could not land at or before it: start again */
        av_close_stream(a);
        if (av_open_stream(a, err, errsz))
            return -1;
        a->want = k;
        return 0;
    }
    a->next = a->tab[d].rank;
    if (used_fast)
        *used_fast = 1;
    return 0;
}

int av_seek_skip(YuvInput *in, unsigned k, char *err, size_t errsz)
{
    return av_input_skip(in, k, 1, NULL, err, errsz);
}

int av_input_rewind(YuvInput *in, char *err, size_t errsz)
{
    AvIn *a = in->priv;
    /* a seek to the start would do for most files, but not for those with
     * no index or timestamps (an elementary stream): reopening is exact
     * for every kind */
    av_close_stream(a);
    return av_open_stream(a, err, errsz);
}
