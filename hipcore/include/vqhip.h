/*
 * vqhip — video quality metrics (the VMAF family) on the GPU through HIP,
 * with a CPU reference path for every metric.
 *
 * This is the only public header. It holds no HIP types: a program that uses
 * libvqhip needs neither HIP nor CUDA headers to compile.
 *
 * Typical use:
 *
 *     VqConfig cfg = vq_default_config();
 *     VqContext *ctx;
 *     if (vq_open(&ctx, &cfg) < 0) ...
 *     vq_use_feature(ctx, "name=psnr:enable_chroma=true");
 *     vq_use_model(ctx, "version=vmaf_v0.6.1");
 *     for each frame: vq_submit(ctx, &ref, &dis);
 *                     while (vq_receive(ctx, &frame) == 0) use frame;
 *     vq_flush(ctx);  while (vq_receive(ctx, &frame) == 0) use frame;
 *     vq_pooled(ctx, "vmaf", VQ_POOL_MEAN, &mean);
 *     vq_write_log(ctx, "log.json", VQ_LOG_JSON);
 *     vq_close(&ctx);
 *
 * Every function returns 0 (or a count) on success and a negative VQ_E* code
 * on failure; vq_last_error() then says what was wrong. Nothing in the
 * library exits or aborts the process.
 */
#ifndef VQHIP_H
#define VQHIP_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define VQHIP_VERSION_MAJOR 0
#define VQHIP_VERSION_MINOR 1
#define VQHIP_VERSION_PATCH 0

/* What libvqhip exports: the functions declared here, nothing else (the
 * library is built with hidden visibility and a version script made from
 * the VQ_API declarations of this header). */
#if defined(__GNUC__) || defined(__clang__)
#define VQ_API __attribute__((visibility("default")))
#else
#define VQ_API
#endif

/* Error codes (always negative). */
enum {
    VQ_EINVAL = -1,       /* bad argument, option or picture */
    VQ_ENOMEM = -2,       /* out of host or device memory */
    VQ_EAGAIN = -3,       /* vq_receive: no frame is complete yet */
    VQ_EOF = -4,          /* vq_receive: flushed and every frame delivered */
    VQ_EDEVICE = -5,      /* GPU runtime error, or no usable GPU */
    VQ_EUNSUPPORTED = -6, /* valid request this build or input cannot serve */
    VQ_EIO = -7,          /* file could not be read or written */
    VQ_ENOTFOUND = -8,    /* unknown feature, option or model */
    VQ_EMODEL = -9,       /* malformed model file */
    VQ_ESTATE = -10,      /* call not valid in the context's current state */
};

typedef enum VqBackend {
    VQ_BACKEND_AUTO = 0, /* GPU if the probe kernel runs, else CPU (with a warning) */
    VQ_BACKEND_HIP,      /* GPU; without strict, features lacking a GPU path run on the CPU */
    VQ_BACKEND_CPU,      /* CPU reference path only */
} VqBackend;

typedef enum VqPixFmt {
    VQ_PIX_FMT_GRAY = 0, /* luma only */
    VQ_PIX_FMT_420,      /* planar Y, Cb, Cr */
    VQ_PIX_FMT_422,
    VQ_PIX_FMT_444,
    /* Semi-planar: data[0] is Y, data[1] holds Cb and Cr interleaved
     * (Cb Cr Cb Cr ..., a row of 2 * chroma-width samples), data[2] is
     * unused. Samples are in the low bits, as in the planar formats
     * (FFmpeg's nv12, nv16, nv24; nv20 at 10 bits). */
    VQ_PIX_FMT_NV12,     /* 4:2:0 */
    VQ_PIX_FMT_NV16,     /* 4:2:2 */
    VQ_PIX_FMT_NV24,     /* 4:4:4 */
    /* Semi-planar like NV*, with every sample (luma too) in the high bpc
     * bits of a 16-bit word (FFmpeg's p010/p012/p016, p210.., p410..):
     * bpc 10, 12 or 16. */
    VQ_PIX_FMT_P010,     /* 4:2:0 */
    VQ_PIX_FMT_P210,     /* 4:2:2 */
    VQ_PIX_FMT_P410,     /* 4:4:4 */
} VqPixFmt;

typedef enum VqPool {
    VQ_POOL_MEAN = 0,
    VQ_POOL_MIN,
    VQ_POOL_MAX,
    VQ_POOL_HARMONIC_MEAN, /* n / sum(1 / (x + 1)) - 1, as libvmaf */
} VqPool;

typedef enum VqLogFmt {
    VQ_LOG_XML = 0,
    VQ_LOG_JSON,
    VQ_LOG_CSV,
    VQ_LOG_SUB,
} VqLogFmt;

typedef enum VqLogLevel {
    VQ_LOG_LEVEL_ERROR = 0,
    VQ_LOG_LEVEL_WARNING,
    VQ_LOG_LEVEL_INFO,
    VQ_LOG_LEVEL_DEBUG,
} VqLogLevel;

typedef struct VqConfig {
    VqBackend backend;
    int device;          /* GPU index for the HIP backend */
    int strict;          /* nonzero: any fallback to the CPU is an error */
    unsigned depth;      /* frames in flight on the GPU (1..16); 0 = chosen by the
                          * library: 4, or twice the frames an extractor runs at
                          * once on the GPU (ssimulacra2, SpEED: 8) */
    unsigned n_subsample;/* compute non-temporal features on every n-th frame; 0/1 = all
                          * (a frame also goes unscored after vq_skip_next) */
    unsigned n_threads;  /* CPU worker threads; 0 = one per core (8 at most when
                          * every extractor runs on the GPU) */
    /* Diagnostics (warnings such as a fallback to the CPU). NULL: stderr. */
    void (*log)(void *opaque, VqLogLevel level, const char *msg);
    void *log_opaque;
    VqLogLevel log_level; /* messages above this level are dropped */
    /* Nonzero: use the GPU context that is current on the calling thread
     * (e.g. FFmpeg's CUDA context, made current around every call) instead
     * of selecting `device`'s primary context. NVIDIA platform. */
    int use_current_context;
    /* Self-check of the GPU: every verify-th frame is also computed on the
     * CPU and compared (bit for bit for exact features, within the
     * feature's tolerance otherwise); on a mismatch the CPU's values are
     * used and the mismatch is logged and counted (vq_run_info). 0: off. */
    unsigned verify;
    /* Nonzero: an extractor that cannot score the pictures' size or format
     * (VQ_EUNSUPPORTED at the start, with a message saying its minimum) is
     * left out with a warning and the others go on; unless a model needs
     * it. 0: the run fails. */
    int skip_unsupported;
    /*
     * Opening the GPU in the background. Nonzero: vq_open returns at once
     * and the GPU runtime starts on a thread of its own (tenths of a
     * second, on some systems seconds) while the caller selects features
     * and models, calls vq_configure and submits pairs:
     *  - Until the GPU is open, vq_submit and vq_submit_retained hold the
     *    pairs (each checked as usual first): vq_submit copies the planes
     *    the features read, vq_submit_retained keeps the caller's planes
     *    and releases them once they were scored. At most open_hold_bytes
     *    of planes wait (vq_default_config: VQ_DEFAULT_OPEN_HOLD_BYTES; 0:
     *    the first pair waits); a pair that would go past it waits in its
     *    call for the open. vq_run_info counts held pairs as submitted.
     *  - Once the GPU is open, the next call that looks (vq_submit*,
     *    vq_receive) scores the held pairs first, in order;
     *    vq_receive_wait, vq_flush, vq_submit_device*, vq_host_alloc and
     *    vq_import_dmabuf wait for the open. An error in a held pair (a
     *    model's NaN, say) is returned by the call that scores it.
     *  - If the GPU cannot be opened the run goes on on the CPU, with the
     *    warning of an open in vq_open; with strict, the call that finds
     *    out fails (VQ_EDEVICE, "GPU backend unavailable (strict): ...")
     *    and so does the run.
     *  - vq_configure checks the size and format and starts the extractors
     *    at once; their backends are chosen once the GPU is open. Until
     *    then vq_backend_name and vq_device_name give "" and
     *    vq_output_backend NULL.
     * No effect with backend CPU, or with use_current_context (that
     * context is current on the caller's thread: the GPU opens in vq_open).
     */
    int open_async;
    size_t open_hold_bytes;
} VqConfig;

/* VqConfig.open_hold_bytes of vq_default_config(): 512 MiB. */
#define VQ_DEFAULT_OPEN_HOLD_BYTES ((size_t)512 << 20)

/*
 * Colour description of a picture, as FFmpeg's AVFrame carries it. Zero is
 * "unspecified" everywhere, so a zero-initialised VqPicture keeps working.
 * Only extractors that convert to RGB read it (ssimulacra2); what they do
 * with unspecified values is in the README.
 */
typedef enum VqMatrix {
    VQ_MATRIX_UNSPECIFIED = 0,
    VQ_MATRIX_BT709,       /* ITU-R BT.709 */
    VQ_MATRIX_BT601,       /* BT.601 = BT.470BG = SMPTE 170M */
    VQ_MATRIX_SMPTE240M,
    VQ_MATRIX_FCC,
    VQ_MATRIX_BT2020_NCL,
    VQ_MATRIX_YCGCO,
    VQ_MATRIX_OTHER,       /* known to the caller, not to vqhip (RGB, ICtCp, BT.2020 CL ...) */
} VqMatrix;

typedef enum VqRange {
    VQ_RANGE_UNSPECIFIED = 0,
    VQ_RANGE_LIMITED,      /* "tv": Y 16..235, Cb/Cr 16..240 (scaled for > 8 bits) */
    VQ_RANGE_FULL,         /* "pc" */
} VqRange;

/* Where 4:2:0 / 4:2:2 chroma samples sit relative to luma (AVChromaLocation). */
typedef enum VqChromaLoc {
    VQ_CHROMA_LOC_UNSPECIFIED = 0,
    VQ_CHROMA_LOC_LEFT,        /* MPEG-2: co-sited with the left luma, vertically between rows */
    VQ_CHROMA_LOC_CENTER,      /* MPEG-1 / JPEG */
    VQ_CHROMA_LOC_TOPLEFT,
    VQ_CHROMA_LOC_TOP,
    VQ_CHROMA_LOC_BOTTOMLEFT,
    VQ_CHROMA_LOC_BOTTOM,
} VqChromaLoc;

/*
 * A picture as the caller holds it: planar Y, Cb, Cr (only Y for GRAY;
 * semi-planar layouts: see VqPixFmt),
 * samples of bpc bits (8: one byte each; 10, 12, 16: two bytes, native
 * endianness, value in the low bits). Chroma planes are (w+1)>>1 wide for
 * 4:2:0 and 4:2:2 and (h+1)>>1 high for 4:2:0 (FFmpeg's layout). Strides
 * are in bytes, at least the plane's row size, and may hold junk after the
 * row. The memory is only read during vq_submit().
 */
typedef struct VqPicture {
    VqPixFmt fmt;
    unsigned bpc;
    unsigned w, h;
    const void *data[3];
    ptrdiff_t stride[3];
    /* Colour description (0: unspecified). Taken from the first pair of a
     * run (a later change is logged as a warning); the reference and the
     * distorted picture may differ. Read only by extractors that convert
     * to RGB, which refuse values outside the enums. */
    VqMatrix matrix;
    VqRange range;
    VqChromaLoc chroma_loc;
    /* Timestamp in VqWindowConfig.time_base units, read from the
     * distorted picture of each pair for windows of seconds.
     * Nondecreasing; a frame whose pts goes back stays in the window
     * that is open. */
    int64_t pts;
} VqPicture;

/*
 * Sets pic's matrix, range and chroma_loc from the numbers FFmpeg's AVFrame
 * and most containers carry: matrix_coefficients as ITU-T H.273 (1 BT.709,
 * 2 unspecified, 4 FCC, 5 and 6 BT.601, 7 SMPTE 240M, 8 YCgCo, 9 BT.2020
 * NCL; other known values are VQ_MATRIX_OTHER), range as AVColorRange (1
 * limited, 2 full, else unspecified), chroma_location as AVChromaLocation
 * (H.264's chroma_sample_loc_type + 1: 1 left ... 6 bottom, else
 * unspecified).
 */
VQ_API void vq_picture_set_color(VqPicture *pic, int matrix_coefficients,
                                 int range, int chroma_location);

typedef struct VqScore {
    const char *name;  /* log name, e.g. "psnr_y", "integer_vif_scale0", "vmaf" */
    double value;      /* may be +-inf or NaN (written "null" in logs) */
} VqScore;

typedef struct VqFrameScores {
    unsigned index;        /* frame number, counted from 0 in submit order */
    unsigned n;
    const VqScore *scores; /* valid until the next vq_receive() or vq_close() */
    const char *backend;   /* where this frame was computed: "hip", "cpu" or
                              "hip+cpu" (after a GPU fault: "cpu") */
} VqFrameScores;

typedef struct VqContext VqContext;

VQ_API VqConfig vq_default_config(void);

/* Opens a context. On failure *ctx may still be set so that vq_last_error()
 * can explain; vq_close() it either way. */
VQ_API int vq_open(VqContext **ctx, const VqConfig *cfg);
VQ_API void vq_close(VqContext **ctx);

/* What went wrong in the last failing call ("" if nothing). */
VQ_API const char *vq_last_error(const VqContext *ctx);
VQ_API const char *vq_strerror(int err);
VQ_API const char *vq_version(void);
/* The source revision the library was built from ("git describe" at build
 * time: a tag or commit, "-dirty" for uncommitted changes; "unknown" when
 * built outside git). */
VQ_API const char *vq_revision(void);

/* How many GPUs this build's HIP runtime sees: 0 when none is present (no
 * device, no GPU driver, or a build without a HIP platform), VQ_EDEVICE when
 * the runtime fails in another way. `why` (may be NULL) gets a one-line
 * explanation. Tells "no GPU here" from "a GPU that does not work", which
 * vq_open() reports alike. */
VQ_API int vq_gpu_count(char *why, size_t why_size);

/* Feature selection, before the first picture, in libvmaf's syntax:
 * "psnr", "name=psnr:enable_chroma=true:enable_mse=true". */
VQ_API int vq_use_feature(VqContext *ctx, const char *spec);
/* Model selection: "version=vmaf_v0.6.1", "path=my.json:name=mine",
 * optionally ":enable_transform=true", ":disable_clip=true". */
VQ_API int vq_use_model(VqContext *ctx, const char *spec);

/* Lists every feature extractor this build knows, with its options, into buf
 * (one per line, "name: opt1 opt2 ..."); returns the length needed. */
VQ_API size_t vq_list_features(char *buf, size_t size);

/* Optional, before the first picture: sets the run's pixel format, depth
 * and size from `geometry` (its planes are not read) and starts the
 * extractors, so that one that cannot score that size or format says so
 * now (VQ_EUNSUPPORTED), e.g. when a filter graph is configured. Pictures
 * must then match it. The colour description (matrix, range, chroma_loc)
 * is taken from the first pair submitted, not from `geometry`. */
VQ_API int vq_configure(VqContext *ctx, const VqPicture *geometry);

/* The planes the selected extractors read, bit p for plane p, once the run
 * has started (vq_configure or the first pair; 0 before). A reader may
 * leave the other planes' samples unread: libvqhip never looks at them,
 * though their pointers and strides must still be set. */
VQ_API unsigned vq_planes_read(const VqContext *ctx);

/* Feeds one reference/distorted pair. Both pictures must have the same format,
 * bit depth and size as the first pair. Returns 0, or a negative error. */
VQ_API int vq_submit(VqContext *ctx, const VqPicture *ref, const VqPicture *dis);

/*
 * Live mode's relief valve: the next pair accepted (by any vq_submit*
 * call) is not scored. Only the temporal extractors (motion, ...) run on
 * it, so every scored frame's temporal features still use its true
 * neighbours and equal a full run's; the pair has no model score and no
 * other feature, and it is left out of the log's frames, the pooled
 * values, the windows' statistics (VqWindow.n_scored counts the frames
 * scored), the alerts and the Prometheus counters, exactly like a frame
 * that n_subsample leaves out. vq_receive still hands it out in order (with
 * the temporal features only). Calling it twice before a pair is the same
 * as once. Returns 0, VQ_EINVAL or VQ_ENOMEM (1 bit per frame is kept).
 */
VQ_API int vq_skip_next(VqContext *ctx);
/*
 * The frame number the logs give the next pair accepted (by any vq_submit*
 * call); the pairs after it count on from it (n + 1, ...) until it is set
 * again. For a caller that scores part of a video (the filter's enable=):
 * the log's frames then carry the video's numbers. Only the logs' frame
 * numbers change (frameNum in JSON and XML, Frame in CSV, the subtitles'
 * frames); VqFrameScores.index, the windows and the live outputs keep the
 * submit order. Without it, pairs are numbered 0, 1, ... in submit order.
 * A pair refused by its submit call takes no number. Returns 0 or
 * VQ_EINVAL.
 */
VQ_API int vq_set_next_frame_number(VqContext *ctx, unsigned n);

/*
 * As vq_submit, without the copy that vq_submit makes of every frame the
 * CPU backend scores on its worker threads: the planes stay where they
 * are and libvqhip reads them after vq_submit_retained returns, until it
 * calls release(opaque). release is called exactly once per call (also
 * when the call fails), from any thread: a libvqhip worker, or inside this
 * or a later libvqhip call (at the latest vq_close). It must be
 * thread-safe and must not call libvqhip. Frames can be released in
 * another order than they were submitted.
 */
typedef void (*VqReleaseFn)(void *opaque);
VQ_API int vq_submit_retained(VqContext *ctx, const VqPicture *ref,
                       const VqPicture *dis, VqReleaseFn release,
                       void *opaque);
/*
 * A picture in GPU memory: pic.data[] are device pointers (CUDA or HIP) on
 * GPU `device`, which must be the context's; pitches in pic.stride[]. Work
 * already queued on `stream` (the producer's hipStream_t/cudaStream_t, e.g.
 * a decoder's or FFmpeg's CUDA stream; NULL when the planes are complete)
 * is waited for on the GPU, not on the host. The planes are read by
 * device-to-device copies or conversion kernels before vq_submit_device()
 * returns; nothing crosses the host. Needs a context on the GPU backend;
 * extractors that run on the CPU get a downloaded copy.
 */
typedef struct VqDevicePicture {
    VqPicture pic;
    int device;
    void *stream;
} VqDevicePicture;

VQ_API int vq_submit_device(VqContext *ctx, const VqDevicePicture *ref,
                     const VqDevicePicture *dis);
/*
 * As vq_submit_device, without the device-to-device copy: the kernels read
 * the planes where they are, after vq_submit_device_retained returns,
 * until libvqhip calls release(opaque) once the frame's GPU work is done
 * (the rules of vq_submit_retained: exactly once per call, also when the
 * call fails, at the latest in vq_close; thread-safe; no libvqhip calls).
 * A plane is read in place when the kernels read it as it is stored
 * (planar samples in the low bits: not NV12/P010's interleaved chroma, not
 * MSB-aligned samples) and its address and pitch are multiples of
 * VQ_DEVICE_ALIGN bytes, as CUDA and HIP allocations and FFmpeg's CUDA
 * frames are; any other plane is copied or converted on the GPU as by
 * vq_submit_device. The planes must not change until release.
 */
#define VQ_DEVICE_ALIGN 256
VQ_API int vq_submit_device_retained(VqContext *ctx, const VqDevicePicture *ref,
                              const VqDevicePicture *dis, VqReleaseFn release,
                              void *opaque);
/*
 * Host memory for pictures (e.g. a reader's frame buffers), pinned for the
 * context's GPU. Pictures whose planes all lie in such buffers are uploaded
 * straight from them by DMA, without vq_submit's copy into its staging
 * memory; vq_submit then returns once the upload is done, after which the
 * buffer may be refilled. Without a GPU it is plain memory. Free with
 * vq_host_free() before vq_close() (vq_close frees what is left).
 */
VQ_API void *vq_host_alloc(VqContext *ctx, size_t size);
VQ_API void vq_host_free(VqContext *ctx, void *ptr);

/*
 * Frames shared by file descriptor (dma-buf: a VAAPI surface exported as
 * DRM PRIME, a DRM PRIME frame), imported into the GPU's address space so
 * that vq_submit_device reads them in place (AMD platform; elsewhere
 * VQ_EUNSUPPORTED). *dev is the device address of the object's first byte
 * (planes at their offsets, pitch-linear layouts only). The fd is not
 * consumed; release the import once the frame was submitted.
 */
typedef struct VqImport VqImport;
VQ_API int vq_import_dmabuf(VqContext *ctx, int fd, size_t size, VqImport **imp,
                     void **dev);
VQ_API void vq_import_release(VqContext *ctx, VqImport **imp);

/* No more pictures: temporal features of the last frame become final. */
VQ_API int vq_flush(VqContext *ctx);
/* Next frame's scores in frame order: 0 and *out set, VQ_EAGAIN when the next
 * frame is not complete yet, VQ_EOF after vq_flush() when all were delivered. */
VQ_API int vq_receive(VqContext *ctx, VqFrameScores *out);
/* As vq_receive, but first waits for the GPU and CPU work already submitted,
 * so VQ_EAGAIN means the next frame needs more input (a temporal feature
 * waiting for the following frame), never that work is still running. */
VQ_API int vq_receive_wait(VqContext *ctx, VqFrameScores *out);

/* After the run: pooled value of one output over all (subsampled) frames. */
VQ_API int vq_pooled(VqContext *ctx, const char *name, VqPool pool, double *out);
/* Aggregate outputs (apsnr_y, ...): count, and the i-th name/value. */
VQ_API unsigned vq_aggregate_count(const VqContext *ctx);
VQ_API int vq_aggregate(const VqContext *ctx, unsigned i, VqScore *out);
/* Aggregate sums: the exact integer state an extractor's aggregates are
 * computed from (psnr's enable_apsnr: each plane's summed squared error,
 * then each plane's pixel count), so that the runs of a title's segments
 * merge to the single run's aggregates. After the run: vq_sums_count
 * extractors have sums, vq_sums gives the i-th (its extractor's name, n
 * values). Import mode: vq_import_sums, between vq_import_begin and
 * vq_import_end, adds one run's i-th sums (same name and n; sums add
 * modulo 2^64, as within a run); vq_import_end computes the aggregates
 * from the totals. */
#define VQ_SUMS_MAX 8
typedef struct VqSums {
    const char *name;
    unsigned n;
    uint64_t v[VQ_SUMS_MAX];
} VqSums;
VQ_API unsigned vq_sums_count(const VqContext *ctx);
VQ_API int vq_sums(const VqContext *ctx, unsigned i, VqSums *out);
VQ_API int vq_import_sums(VqContext *ctx, unsigned i, const VqSums *in);
/* Models in the order they were added, by their main output's name
 * ("vmaf", or the name= given). */
VQ_API unsigned vq_model_count(const VqContext *ctx);
VQ_API const char *vq_model_output(const VqContext *ctx, unsigned i);
/* The SHA-256 (hex) of model i's definition, as the logs print it; NULL
 * past the last model. */
VQ_API const char *vq_model_sha256(const VqContext *ctx, unsigned i);
/* Output names in log order, and their count. */
VQ_API unsigned vq_output_count(const VqContext *ctx);
VQ_API const char *vq_output_name(const VqContext *ctx, unsigned i);
/* Which backend computed an output ("hip" or "cpu"), by output name, after
 * the first vq_submit(); NULL for an unknown name. */
VQ_API const char *vq_output_backend(const VqContext *ctx, const char *name);
/* "hip", "cpu" or "hip+cpu" for the context as a whole (after the first
 * vq_submit()), and the GPU's name ("" without one). */
VQ_API const char *vq_backend_name(const VqContext *ctx);
VQ_API const char *vq_device_name(const VqContext *ctx);

/* How the run went, for summaries and reports. */
typedef struct VqRunInfo {
    unsigned submitted, received; /* submitted: pairs accepted (held
                                     ones included: open_async) */
    int complete;            /* flushed, every frame received, no error, not
                                marked incomplete */
    const char *incomplete;  /* why not ("" when complete) */
    int fell_back;           /* a GPU fault moved the run to the CPU */
    unsigned fallback_frame; /* first frame computed on the CPU after it */
    const char *fallback_reason;
    unsigned verify;         /* verify= every N-th frame (0: off) */
    unsigned verified;       /* frames checked on the CPU */
    unsigned mismatches;     /* of those, frames where the GPU differed */
    unsigned depth;          /* frames in flight (VqConfig.depth, or the
                                library's choice once the first pair was
                                submitted; 0 before) */
    unsigned lag;            /* a frame's scores wait for this many later
                                frames (temporal features: motion's 1;
                                0 without any, or before the run started) */
    uint64_t bytes_to_device; /* picture planes copied host to device for
                                 frames so far (0 on the CPU) */
    unsigned scored;         /* of the frames received, those scored (not
                                left out by n_subsample or vq_skip_next):
                                coverage is scored / received */
} VqRunInfo;
VQ_API int vq_run_info(const VqContext *ctx, VqRunInfo *info);
/* Marks the run as incomplete (e.g. interrupted by a signal): the log says
 * so. */
VQ_API void vq_set_incomplete(VqContext *ctx, const char *reason);

/* Segments (docs/SCALE.md): after vq_configure, the frames a segment
 * [a, b) of a longer title must decode around itself so that every value
 * of its own frames equals a single run's: `before` frames before a (from
 * max(0, a - before)) and `after` after b. 0 and 0 without temporal
 * extractors. Generous by design: more context never changes a value. */
VQ_API int vq_segment_context(const VqContext *ctx, unsigned *before,
                              unsigned *after);

/* Import mode: a context that writes the log of values computed elsewhere
 * (the parts of a title scored in segments: vqhip merge). Open the
 * context with the same config (n_subsample included), models, features
 * and log precision as the runs that computed the values, then:
 *   vq_import_begin   the title's geometry, frame count and run facts;
 *   vq_import_output  every output in log order (vq_output_name's order
 *                     of the runs), with the backend that computed it;
 *   vq_import_frame   each scored frame's values (any order, once each);
 *   vq_import_end     checks every scored frame of [0, n_frames) has every
 *                     output, then the run counts as flushed;
 * after which vq_write_log, vq_pooled and vq_pooled_stat work unchanged,
 * pooling over all imported frames. No frame can be submitted. */
typedef struct VqImportRun {
    unsigned n_frames;       /* frames of the whole title */
    const char *backend;     /* the runs' vq_backend_name ("cpu", "hip") */
    const char *device;      /* their vq_device_name ("" on the CPU) */
    VqBackend backend_choice; /* their VqConfig.backend (the log's config) */
    double seconds;          /* scoring time, for the log's fps (0: null) */
} VqImportRun;
VQ_API int vq_import_begin(VqContext *ctx, const VqPicture *geometry,
                           const VqImportRun *run);
VQ_API int vq_import_output(VqContext *ctx, const char *name,
                            const char *backend);
VQ_API int vq_import_frame(VqContext *ctx, unsigned index, unsigned n,
                           const VqScore *scores);
VQ_API int vq_import_end(VqContext *ctx);

/* Writes the log of everything received so far, in libvmaf's layout. The
 * file appears complete or not at all: it is written under a temporary
 * name beside `path` and renamed. "-" writes to standard output. */
VQ_API int vq_write_log(VqContext *ctx, const char *path, VqLogFmt fmt);
/* Significant digits of the values vq_write_log prints, per frame and
 * pooled: 1 to 17 prints "%.<digits>g" (17 writes every double exactly);
 * 0 (the default) keeps libvmaf's "%.6f" (or "%.16f" below 1e-6). */
VQ_API int vq_set_log_precision(VqContext *ctx, int digits);
/* Before a run: whether a log can be written at `path` (its folder takes a
 * new file, or the pipe or device there is writable; nothing is opened at
 * a pipe) and is none of the n_inputs files in `inputs` (same device and
 * inode, through any link; NULL entries and "-" are skipped). 0, or a
 * negative VQ_E* code with a message in msg. Needs no context. */
VQ_API int vq_check_log_path(const char *path, const char *const *inputs,
                             unsigned n_inputs, char *msg, size_t msg_size);
/* After a failed run: removes the regular file at `path` (an earlier run's
 * log that would otherwise look current). 1 when it removed one; 0 when
 * there was none or it was a pipe, a device or a symbolic link (left
 * alone); VQ_EIO when it could not be removed. */
VQ_API int vq_discard_log(const char *path);
VQ_API int vq_log_fmt_from_name(const char *name, VqLogFmt *fmt);
VQ_API int vq_pool_from_name(const char *name, VqPool *pool);

/*
 * Statistics by name, for runs (vq_pooled_stat, vq_log_pools) and windows
 * (vq_use_windows), over the values of the frames scored (with n_subsample,
 * frames i % n_subsample == 0 only), in frame order:
 *   mean, min, max, harmonic_mean  as vq_pooled (libvmaf's formulas)
 *   median                         perc50
 *   percP (0 <= P <= 100, e.g. perc5, perc99.9)
 *        numpy.percentile(x, P) with its default method "linear": with x
 *        sorted ascending, q = P / 100, h = (n - 1) * q, i = floor(h),
 *        g = h - i: x[n-1] when h >= n - 1, else x[i] + (x[i+1] - x[i]) * g
 *        when g < 0.5, else x[i+1] - (x[i+1] - x[i]) * (1 - g); NaN when
 *        any value is NaN
 *   belowT (e.g. below60)          the share of values x < T, 0 to 1
 * A list separates names by '|': "mean|perc5|min".
 */
/* One output's statistic over the whole run, as vq_pooled. The values are
 * those the run keeps for its log (8 bytes per frame and output): the
 * percentiles sort a copy of them (another 8 MB per million frames, for
 * the time of the call). */
VQ_API int vq_pooled_stat(VqContext *ctx, const char *name, const char *stat,
                          double *out);
/* Statistics the logs add to each output's pooled values, after libvmaf's
 * min, max, mean and harmonic_mean (which are always written; a name among
 * those is not repeated): extra keys in JSON, extra attributes in XML. */
VQ_API int vq_log_pools(VqContext *ctx, const char *list);

/*
 * Windows: the run cut into tumbling windows of `frames` frames (frames
 * kN .. kN+N-1, in submit order) or of `seconds` seconds (by the distorted
 * pictures' pts: frame i is in window floor(t_i / seconds), with
 * t_i = (pts_i - pts_0) * time_base_num / time_base_den computed in
 * double; windows that no frame falls in are skipped). When a window
 * closes, its statistics of every output are computed from its scored
 * frames; vq_receive_window hands them out, and the JSON and XML logs
 * list them. A window closes with the frame that completes it (frames),
 * or the first frame past it (seconds), once that frame was received;
 * the last one closes when the run ends (with the last frame received
 * after vq_flush, or at VQ_EOF) and is marked partial, unless it was
 * complete (frames).
 * Memory: the open window's values (8 bytes per scored frame and output)
 * and, per closed window, its statistics (8 bytes per output and
 * statistic) for the log.
 */
typedef struct VqWindowConfig {
    unsigned frames;        /* windows of this many frames, or */
    double seconds;         /* of this many seconds (needs a time base) */
    /* The unit of VqPicture.pts in seconds, time_base_num / time_base_den
     * (FFmpeg's time_base; 1/25 for 25 frames a second numbered 0, 1,
     * ...). 0/0: pts is not read (then windows of seconds are refused,
     * and VqWindow.start/end are NaN). */
    unsigned time_base_num, time_base_den;
    const char *stats;      /* statistics, '|'-separated; NULL or "":
                               "mean|min|max" */
    const char *thresholds; /* numbers, '|'-separated: each T adds belowT */
} VqWindowConfig;
/* Before the first pair. */
VQ_API int vq_use_windows(VqContext *ctx, const VqWindowConfig *wc);

typedef struct VqWindowStat {
    const char *output;     /* "vmaf", "psnr_y", ... */
    const char *stat;       /* "mean", "perc5", "below60", ... */
    double value;           /* NaN when no frame of the window was scored */
} VqWindowStat;

typedef struct VqWindow {
    unsigned index;         /* 0, 1, ... in order */
    unsigned first_frame, last_frame; /* frame indices, inclusive */
    unsigned n_frames;      /* frames in it */
    unsigned n_scored;      /* of those, frames in its statistics */
    double start, end;      /* seconds of its first and last frame's pts
                               (NaN without a time base) */
    int partial;            /* closed by the end of the run, incomplete */
    unsigned n;             /* outputs x statistics, output-major */
    const VqWindowStat *stats; /* valid until the next vq_receive_window
                                  or vq_close */
} VqWindow;
/* The next window that closed: 0, or VQ_EAGAIN when none is waiting.
 * Call it after each frame received: a window that a frame closed is
 * waiting once vq_receive has returned that frame. */
VQ_API int vq_receive_window(VqContext *ctx, VqWindow *out);


/* Frame alignment at the start (docs/ALIGNMENT.md): which offset between
 * the reference and the distorted video makes their first frames match.
 * Independent of a VqContext. Each input's first frames are
 * reduced, as they are added, to block means of their luma (a grid of
 * about 160..320 x 90..180 blocks), so the search holds
 * 2 * (range + frames) such grids, never the frames. For each offset k in
 * -range..range it compares reference frame i + max(0, -k) with distorted
 * frame i + max(0, k) for up to `frames` frames i, by the mean squared
 * difference of the grids (in 8-bit units squared, whatever the depth). */
typedef struct VqSyncConfig {
    unsigned range;         /* offsets -range..range (0: 30) */
    unsigned frames;        /* frames compared at each offset (0: 30) */
    double min_confidence;  /* below it no offset is picked (0: 0.1) */
    VqBackend backend;      /* where the luma is reduced to block means:
                               AUTO and HIP the GPU `device` where it opens
                               (else the CPU, vq_sync_error says why), CPU
                               the CPU; the result is the same bit for bit */
    int device;
    int use_current_context; /* the GPU of the context current on the
                               calling thread (as VqConfig's) */
} VqSyncConfig;

typedef struct VqSyncResult {
    int found;              /* 1: offset is the best match; 0: none was
                               picked (why says why): score unshifted */
    int offset;             /* > 0: the distorted video has `offset` extra
                               frames at its start (skip them); < 0: the
                               reference has -offset extra frames */
    double confidence;      /* (second - best) / second: 0 a tie, 1 an exact
                               match where every other offset differs */
    double best_mse, second_mse; /* of the best and the second best offset */
    double motion;          /* mean squared difference of consecutive
                               reference frames (static content: ~0) */
    unsigned compared;      /* frames compared at the best offset */
    int lo, hi;             /* offsets tried */
    char why[192];
    const char *backend;    /* where the luma was reduced: "hip" or "cpu" */
} VqSyncResult;

typedef struct VqSync VqSync;
VQ_API int vq_sync_open(VqSync **sync, const VqSyncConfig *cfg);
/* Frames of each input the search reads: range + frames. */
VQ_API unsigned vq_sync_needed(const VqSync *sync);
/* The next frame of the reference (distorted = 0) or the distorted video
 * (1); frames past vq_sync_needed are ignored. Every picture has the first
 * one's size. VQ_EINVAL for another size or an unreadable picture. */
VQ_API int vq_sync_add(VqSync *sync, int distorted, const VqPicture *pic);
/* Searches the frames added so far (all of them, or fewer at an input's
 * end). 0 and *res (res->found may be 0), or VQ_EINVAL. */
VQ_API int vq_sync_find(VqSync *sync, VqSyncResult *res);
/* As vq_sync_add, for a picture in the search's GPU's memory (a hardware
 * decoder's frame), read where it is after the work on pic->stream (NULL:
 * none) is done. VQ_ESTATE when the search has no GPU (vq_sync_backend
 * "cpu"), VQ_EDEVICE when the GPU fails (the search cannot go on). */
VQ_API int vq_sync_add_device(VqSync *sync, int distorted,
                              const VqDevicePicture *pic);
/* What the last failed vq_sync_add said, or why the GPU is not used. */
VQ_API const char *vq_sync_error(const VqSync *sync);
/* Where the luma is being reduced: "hip" or "cpu" (a GPU that fails
 * mid-search leaves the rest to the CPU). */
VQ_API const char *vq_sync_backend(const VqSync *sync);
VQ_API void vq_sync_close(VqSync **sync);

/* Drops and repeats mid-stream (docs/ALIGNMENT.md#drops-and-repeats): a
 * frame lost or repeated by one input shifts every later pair. The
 * detector is fed both inputs' frames in order, `window` + 1 frames ahead
 * of the pair about to be scored (the head pair), and decides for the head
 * pair whether to pair it as it is or to leave out one input's head frame.
 * It compares the block means of the luma (the grid of vq_sync_*): for the
 * window pairs from the head, the pair's mean squared difference e0 and
 * those with the reference's next frame (e-: the distorted video lost a
 * frame) and with the distorted video's next frame (e+: it has an extra
 * one). A neighbour "matches clearly better" at a pair when
 * e <= ratio * e0 and e0 - e >= min_gap; an event needs that at every one
 * of the window pairs, for the same neighbour. Independent of a
 * VqContext; CPU only. */
typedef struct VqRealignConfig {
    unsigned window;        /* consecutive pairs that must agree (0: 3) */
    double ratio;           /* (0: 0.5) */
    double min_gap;         /* 8-bit units squared (0: 2.0) */
} VqRealignConfig;

typedef struct VqRealignEvent {
    int delta;              /* -1: the reference's head frame is left out
                               (the distorted video lost a frame, or the
                               reference repeated one); +1: the distorted
                               video's head frame is left out */
    int offset;             /* the sum of the deltas so far: the offset,
                               in --offset's sense, now applied */
    unsigned long long ref_frame, dis_frame; /* the head pair: frames of
                               each input, 0 for the first added */
    int input;              /* the input that lost or repeated a frame:
                               0 the reference, 1 the distorted video */
    int repeat;             /* 1: the frame left out repeats the one before
                               it (as close to it as the pairs that match
                               are to each other); 0: a frame was lost */
    double mse_pair, mse_neighbour; /* means over the window */
} VqRealignEvent;

typedef struct VqRealign VqRealign;
VQ_API int vq_realign_open(VqRealign **r, const VqRealignConfig *cfg);
/* Frames of each input the detector needs from the head pair: window + 1
 * (fewer at an input's end: then it pairs as it is). */
VQ_API unsigned vq_realign_ahead(const VqRealign *r);
/* The next frame of the reference (distorted = 0) or the distorted video
 * (1). VQ_EAGAIN when vq_realign_ahead frames past the head are held
 * already; VQ_EINVAL for another size or an unreadable picture. */
VQ_API int vq_realign_add(VqRealign *r, int distorted, const VqPicture *pic);
/* The decision for the head pair: 0: pair the head frames (then
 * vq_realign_pop); 1 and *ev: leave out one input's head frame (done: the
 * next head pair is the re-aligned one; decide again). VQ_EINVAL when an
 * input has no frame. */
VQ_API int vq_realign_decide(VqRealign *r, VqRealignEvent *ev);
/* The head pair was scored: the next frames of both inputs are the head. */
VQ_API int vq_realign_pop(VqRealign *r);
VQ_API const char *vq_realign_error(const VqRealign *r);
VQ_API void vq_realign_close(VqRealign **r);
/* Records an event for the run's log (JSON: "vqhip"."realign"; XML:
 * <realign> in <vqhip>) and, with a stats stream, writes its "realign"
 * line: `frame` is the first pair scored after it (the log's frame
 * number), `t` its time in seconds (NaN: unknown). 0, or VQ_EINVAL /
 * VQ_ENOMEM. */
VQ_API int vq_note_realign(VqContext *ctx, unsigned frame, double t,
                           const VqRealignEvent *ev);
/* Records the offset search's result for the run's log (JSON:
 * "vqhip"."sync"; XML: <sync> in <vqhip>) and, with a stats stream set
 * already, writes its "sync" line. applied: 1 when the run scores the
 * pairs with res->offset (the offset found), 0 when it scores the inputs
 * as given. A later call replaces the record. 0, or VQ_EINVAL. */
VQ_API int vq_note_sync(VqContext *ctx, const VqSyncResult *res,
                        int applied);

/*
 * Prometheus: the run's state in Prometheus' text exposition format
 * (0.0.4) at `path`, for node_exporter's textfile collector (name it
 * *.prom in the collector's folder). The file is replaced atomically (a
 * temporary "<path>.<pid>.tmp" in the same folder, fsync'ed, renamed over
 * it) now, when a window closes (vq_use_windows) and when the run ends:
 *   vqhip_window_stat{output=,stat=}   the last window's statistics
 *   vqhip_window_index, _frames, _frames_scored, _partial, _end_seconds
 *   vqhip_frames_scored_total, vqhip_frames_not_scored_total (frames
 *       received without scores: n_subsample, skipped)
 *   vqhip_backend_info{backend="cpu|hip|hip+cpu"} 1 (once known)
 *   vqhip_gpu_fallback (0/1), vqhip_run_done (0/1)
 * `labels` (NULL or "") adds labels to every sample: "job=enc|instance=ch5"
 * ('|'-separated name=value; values escaped as the format wants). Before
 * the first pair, once: the file is written here, so an unwritable folder
 * fails now (VQ_EIO). A write that fails later is logged as a warning and
 * tried again at the next window; scoring goes on.
 */
VQ_API int vq_set_prometheus_file(VqContext *ctx, const char *path,
                                  const char *labels);

/*
 * Alerts: rules over a window statistic or a frame value, with hysteresis
 * (docs/LIVE.md). A rule:
 *
 *     [NAME=]OUTPUT[.STAT] OP LEVEL [for K] [clear OP2 CLEAR]
 *
 * e.g. "vmaf.mean<70 for 3 clear>75" or "lowq=vmaf<30 for 5". OUTPUT.STAT
 * names a statistic of the windows (vq_use_windows first; STAT among its
 * statistics); OUTPUT alone, the output's value on each scored frame. OP is
 * '<' (raise when the value is below LEVEL) or '>' (above); the rule
 * raises after K (default 1) such windows or scored frames in a row, and
 * clears at the first value past CLEAR on the other side (OP2 is the
 * other operator; default CLEAR = LEVEL). A NaN value changes nothing.
 * NAME ([A-Za-z0-9_-], default "OUTPUT.STAT" or "OUTPUT") must be unique.
 * Several rules are separated by ';' or '|'. Before the first pair; an
 * unknown OUTPUT is reported by the first vq_receive (VQ_ENOTFOUND).
 */
VQ_API int vq_add_alert(VqContext *ctx, const char *rules);

typedef struct VqAlertEvent {
    const char *name;       /* the rule's name */
    const char *rule;       /* its text, without the name */
    int raised;             /* 1 raised, 0 cleared */
    unsigned frame;         /* the frame whose value changed it, or the
                               last frame of the window that did */
    int window;             /* that window's index, or -1 (frame rule) */
    double pts;             /* seconds of that frame (window rules: the
                               window's end; NaN without a time base) */
    double value;           /* the value that changed it */
} VqAlertEvent;
/* The next alert event, in order: 0, or VQ_EAGAIN. Events of a frame wait
 * once vq_receive returned it (windows' events: as vq_receive_window). */
VQ_API int vq_receive_alert(VqContext *ctx, VqAlertEvent *out);
/* The rules and their current state. */
typedef struct VqAlertState {
    const char *name, *rule;
    int active;             /* raised and not cleared */
    unsigned n_raised;      /* times it was raised */
} VqAlertState;
VQ_API unsigned vq_alert_count(const VqContext *ctx);
VQ_API int vq_alert_state(const VqContext *ctx, unsigned i, VqAlertState *out);

/*
 * A stats stream (docs/LIVE.md, "NDJSON stream"): one JSON object a line,
 * each handed to write() once as a whole line ending in '\n', as soon as
 * its data exists: a window when it closes, an alert event when it
 * happens, each frame with VQ_STATS_FRAMES, and a summary when the run
 * ends (the last frame after vq_flush), or at vq_close for a run cut short
 * ("complete": false). write() returns 0, or a negative value when the
 * line was not written: the first failure is reported as a warning, later
 * lines are still tried, scoring and the log go on. The sink must stay
 * valid until vq_close. Before the first pair.
 */
typedef int (*VqWriteFn)(void *opaque, const char *line, size_t len);
#define VQ_STATS_FRAMES 1u  /* also a line per frame */
#define VQ_STATS_SCHEMA "vqhip.stats/1"
VQ_API int vq_set_stats_sink(VqContext *ctx, VqWriteFn write, void *opaque,
                             unsigned flags);

/*
 * A ladder: one reference scored against several distorted renditions of
 * it (an encoding ladder, each rendition scaled back to the reference's
 * size) in one pass (docs/LADDER.md). Each rendition has a context of its
 * own (vq_ladder_context) on which everything is chosen and read as for a
 * pair: vq_use_feature, vq_use_model, vq_log_pools, vq_use_windows,
 * vq_add_alert, vq_receive, vq_pooled, vq_write_log ... Pictures go in
 * through the ladder only (vq_submit* on a rendition's context is refused,
 * VQ_ESTATE): every rendition then sees the same reference, which lets the
 * library compute work that depends on the reference alone once for all
 * renditions. Every rendition's scores and log equal those of its pair
 * run (vq_submit of the same reference and that rendition) bit for bit.
 *
 * All renditions must select the same features (same options) and models,
 * in the same order; at vq_ladder_configure or the first vq_ladder_submit
 * a difference is refused (VQ_EINVAL, "rendition 3: ..."), as is a
 * distorted picture whose format, bit depth or size differs from the
 * reference's. Errors are read with vq_ladder_last_error (a rendition's
 * own failure is copied there, prefixed with its index). Renditions are
 * counted from 0 in the API; messages name them from 1, as the CLI does.
 */
typedef struct VqLadder VqLadder;

/* Opens n renditions (1..VQ_LADDER_MAX), each a context opened with cfg.
 * On failure *l may still be set for vq_ladder_last_error; close it. */
#define VQ_LADDER_MAX 64
VQ_API int vq_ladder_open(VqLadder **l, const VqConfig *cfg, unsigned n);
VQ_API void vq_ladder_close(VqLadder **l);
VQ_API unsigned vq_ladder_count(const VqLadder *l);
/* Rendition i's context (NULL when out of range). Owned by the ladder:
 * vq_close on it does nothing. */
VQ_API VqContext *vq_ladder_context(VqLadder *l, unsigned i);
VQ_API const char *vq_ladder_last_error(const VqLadder *l);
/* Optional, before the first picture: checks that the renditions agree
 * and calls vq_configure(geometry) on each. */
VQ_API int vq_ladder_configure(VqLadder *l, const VqPicture *geometry);
/* One reference picture and the distorted picture of every rendition that
 * has not ended (dis[i]; ignored, may be NULL, for an ended one). */
VQ_API int vq_ladder_submit(VqLadder *l, const VqPicture *ref,
                            const VqPicture *const *dis);
/* As vq_ladder_submit, without copies (vq_submit_retained's rules): the
 * reference and every dis[i] submitted stay readable until release(opaque),
 * called exactly once (also when the call fails) once every rendition is
 * done with them. */
VQ_API int vq_ladder_submit_retained(VqLadder *l, const VqPicture *ref,
                                     const VqPicture *const *dis,
                                     VqReleaseFn release, void *opaque);
/* Rendition i has no more pictures (it is shorter than the reference): it
 * is flushed (vq_flush on its context) and later submits skip it. Calling
 * it again does nothing. */
VQ_API int vq_ladder_end(VqLadder *l, unsigned i);
/* Whether rendition i ended (vq_ladder_end or vq_ladder_flush). */
VQ_API int vq_ladder_ended(const VqLadder *l, unsigned i);
/* No more pictures: every rendition not yet ended is flushed. */
VQ_API int vq_ladder_flush(VqLadder *l);
/* Rendition i's log file (i from 0) from a pattern shared by the ladder:
 * %d becomes i + 1, %s the label, %% a '%'. The pattern must hold %d or %s
 * (each rendition has a log of its own). 0, or VQ_EINVAL with the reason
 * in why (a '%' followed by anything else, no %d/%s, out too small). */
VQ_API int vq_ladder_log_path(char *out, size_t size, const char *pattern,
                              unsigned i, const char *label, char *why,
                              size_t why_size);
/* Work that depends on the reference alone, done once for the whole ladder
 * (docs/LADDER.md, "What is shared"), so far: `extractors` selected
 * extractors share some, `computed` times it was done (once per frame and
 * extractor), `used` times a rendition took it (once per frame, extractor
 * and rendition: computed ones included). All 0 where nothing is shared
 * (one rendition). On the GPU: `gpu_staged`
 * reference pictures copied and uploaded once for every rendition (0
 * unless every running rendition scores on the GPU), `gpu_staged_used`
 * renditions' frames whose kernels read one. The extractors whose record
 * depends on the reference alone (the motions) are computed on the GPU by
 * the ladder, once per staged picture, and so is the reference's part of
 * those that split their frames (VIF, ...): they count among the others. */
typedef struct VqLadderShare {
    unsigned extractors;
    uint64_t computed, used;
    uint64_t gpu_staged, gpu_staged_used;
} VqLadderShare;
VQ_API int vq_ladder_share_info(const VqLadder *l, VqLadderShare *info);

#ifdef __cplusplus
}
#endif

#endif /* VQHIP_H */
