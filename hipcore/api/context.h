/*
 * The context behind the public VqContext handle: what the caller chose
 * (features, models), the run that scores them, and what the API hands
 * out. Only the API's files see this struct; every stage below takes the
 * narrower state it works on (run/pipeline.h).
 */
#ifndef VQHIP_API_CONTEXT_H
#define VQHIP_API_CONTEXT_H

#include <stdio.h>

#include "base/error.h"
#include "run/alerts.h"
#include "run/host_bufs.h"
#include "run/pipeline.h"
#include "run/selection.h"
#include "run/windows.h"
#include "vqhip.h"

/* vq_set_stats_sink's sink (write NULL: none). */
typedef struct VqStatsSink {
    VqWriteFn write;
    void *opaque;
    unsigned flags;
    unsigned n_lost;       /* lines write() refused */
    bool summary_done;
} VqStatsSink;

/* vq_set_next_frame_number's numbers (frame_numbers.c): pairs from
 * seg[i].index on are numbered from seg[i].number on in the logs. */
typedef struct VqFrameNumbers {
    struct { unsigned index, number; } *seg;
    unsigned n, cap;
    bool pending;          /* `next` names the next pair accepted */
    unsigned next;
} VqFrameNumbers;

struct VqContext {
    VqErrBuf err;          /* vq_last_error */
    VqSelection sel;       /* features and models chosen; their outputs */
    VqPipeline run;        /* the frames' way through the backends */
    VqHostBufs host;       /* vq_host_alloc's buffers */
    VqScore *frame_scores; /* vq_receive's scores of one frame */
    unsigned frame_scores_cap;
    unsigned n_received_scored; /* frames received that were scored */
    char incomplete[256];  /* vq_set_incomplete's reason */
    VqWindows win;         /* vq_use_windows */
    VqWindowStat *win_stats; /* vq_receive_window's statistics */
    unsigned win_stats_cap;
    VqStat *log_pools;     /* vq_log_pools: the logs' extra pools */
    unsigned n_log_pools;
    int log_precision;     /* vq_set_log_precision: 0 libvmaf's format */
    struct VqProm *prom;   /* vq_set_prometheus_file (prometheus.c) */
    VqAlerts alerts;       /* vq_add_alert; its queue feeds vq_receive_alert */
    VqStatsSink sink;      /* vq_set_stats_sink */
    struct VqRealignNote *realign; /* vq_note_realign's events */
    unsigned n_realign, realign_cap;
    bool has_sync;         /* vq_note_sync was called */
    bool sync_applied;
    VqSyncResult sync;     /* its search's result */
    unsigned win_live;     /* windows whose line and rules are done */
    VqFrameNumbers fnum;   /* vq_set_next_frame_number */
    struct {               /* import mode (import.c) */
        bool on, frames_begun, ended;
        unsigned n_frames;
        char device[64];   /* vq_device_name's answer */
    } import;
    /* A rendition of a ladder (ladder.c): the ladder owns the context
     * (vq_close leaves it alone) and is the only way pictures come in
     * (ladder_submitting is set around its vq_submit* calls), so every
     * rendition sees the same reference pictures in the same order. */
    struct VqLadder *ladder;
    unsigned ladder_index;
    bool ladder_submitting;
};

/* submit.c: VQ_ESTATE with a message when pictures come to a ladder's
 * rendition other than through the ladder; else 0. */
int vq_ladder_guard(VqContext *ctx);
/* frame_numbers.c: pair `index` was accepted (a pending number becomes
 * its); the number the logs give pair `index`; vq_close's part. */
int vq_frame_numbers_accepted(VqContext *ctx, unsigned index);
unsigned vq_log_frame_number(const VqContext *ctx, unsigned index);
void vq_frame_numbers_free(VqContext *ctx);

/* live.c: frame `index` was delivered (its windows, frame rules, the
 * stream's lines; end: it was the last, as vq_live_end); the run ended
 * (the open window closes, the summary line); vq_close's part (the
 * summary of a run cut short). */
int vq_live_delivered(VqContext *ctx, unsigned index, bool end);
int vq_live_end(VqContext *ctx);
void vq_live_close(VqContext *ctx);
/* ndjson.c: the stream's lines (ctx->sink.write is set). */
void vq_ndjson_frame(VqContext *ctx, unsigned index, double t);
void vq_ndjson_window(VqContext *ctx, unsigned wi);
void vq_ndjson_alert(VqContext *ctx, const VqAlertEv *ev);
void vq_ndjson_summary(VqContext *ctx, bool complete);

/* realign_log.c: vq_note_realign's events in the logs; vq_close's part. */
typedef struct VqRealignNote {
    unsigned frame;
    double t;
    VqRealignEvent ev;
} VqRealignNote;
void vq_log_realign_json(const VqContext *ctx, FILE *f);
void vq_log_realign_xml(const VqContext *ctx, FILE *f);
void vq_realign_notes_free(VqContext *ctx);
/* ndjson.c */
void vq_ndjson_realign(VqContext *ctx, const VqRealignNote *n);

/* sync_log.c: vq_note_sync's result in the logs; ndjson.c: its line. */
void vq_log_sync_json(const VqContext *ctx, FILE *f);
void vq_log_sync_xml(const VqContext *ctx, FILE *f);
void vq_ndjson_sync(VqContext *ctx);
/* log_writer.c: free text (error messages) as a JSON string / an XML
 * attribute (` key="text"`). */
void vq_log_json_str(FILE *f, const char *text);
void vq_log_xml_attr(FILE *f, const char *key, const char *text);

/* windows.c: the windows' part of vq_close. */
void vq_windows_api_free(VqContext *ctx);

/* prometheus.c: frame `index` was delivered (UINT_MAX: none, the run
 * ended at VQ_EOF); the file is replaced when a window closed or the run
 * ended (end). */
typedef struct VqProm VqProm;
void vq_prom_frame(VqContext *ctx, unsigned index, bool end);
void vq_prom_free(VqProm *pr);

/* log_writer.c: a number in a log; log_windows.c: the windows' section. */
void vq_log_put_num(FILE *f, double v, int json, int digits);
void vq_log_windows_json(VqContext *ctx, FILE *f);
void vq_log_windows_xml(VqContext *ctx, FILE *f);

/* log_provenance.c: vqhip's provenance keys inside the log's "vqhip"
 * object (JSON) or <vqhip> element (XML), at the given indent. */
void vq_log_provenance_json(const VqContext *ctx, FILE *f);
void vq_log_provenance_xml(const VqContext *ctx, FILE *f);
/* Prints a JSON string's contents / an XML attribute value, escaped. */
void vq_log_json_text(FILE *f, const char *text);
void vq_log_xml_text(FILE *f, const char *text);

/* stats.c: VQHIP_STATS=1 prints where the time went at vq_close. */
bool vq_stats_wanted(const VqContext *ctx);
void vq_stats_print(const VqContext *ctx);
void vq_stats_print_close(double seconds);

#endif
