/*
 * The feature-extractor descriptor: everything the core knows about one
 * extractor. One static VqFexDesc per hipcore/extractors/<name>.c, listed in
 * registry.c.
 *
 * Per frame, an extractor turns a reference/distorted pair into an
 * accumulator record of acc_size bytes (integer sums, or per-block partials
 * in a fixed order). The CPU path fills it with cpu_run; the GPU path fills
 * the same record on the device with gpu_run and the core copies it back.
 * One finalize, shared by both backends, turns the record into output values.
 * That is what makes integer features bit-exact between backends.
 */
#ifndef VQHIP_EXTRACTOR_H
#define VQHIP_EXTRACTOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "options.h"
#include "picture.h"

struct VqCollector;
struct VqGpu;
struct VqDevFrame;
struct VqThreadPool;

/* A ladder's pass on the CPU (VqFexDesc.ladder_run, docs/LADDER.md): the
 * records of several renditions' frames of one reference picture, computed
 * together, so that the reference's part of each row band is computed
 * once and read by every rendition while it is still in the cache. */
#define VQ_LADDER_PASS_MAX 64
typedef struct VqLadderPass {
    const VqFrame *ref;
    const VqFrame *dis[VQ_LADDER_PASS_MAX]; /* NULL: not in this pass */
    void *acc[VQ_LADDER_PASS_MAX];          /* their records, zeroed */
    unsigned n;
    void *work;       /* ladder_work_size(fex, n, parts) bytes, 64-byte
                         aligned, kept between frames, not cleared */
    unsigned parts;   /* row bands, run concurrently on pool */
    struct VqThreadPool *pool; /* NULL: the bands in turn */
} VqLadderPass;

/* Above this many luma samples a frame's kernels fill a large GPU on
 * their own, and extractors whose frames are independent (vif, adm) keep
 * one set of device state instead of two: on an H200, vmaf_v0.6.1 from
 * device frames ran 15% faster at 1080p with two sets and 1.4% slower at
 * 4K (sizes in between not measured). */
#define VQ_GPU_SETS_MAX_PIXELS (2560u * 1440u)

typedef enum VqExactness {
    VQ_EXACT_BITWISE = 0, /* GPU output == CPU output, bit for bit */
    VQ_EXACT_TOLERANCE,   /* |GPU - CPU| <= tolerance */
} VqExactness;

enum {
    /* Needs every frame in order (never subsampled). */
    VQ_FEX_TEMPORAL = 1 << 0,
    /* Reads the pictures' colour description (VqFormat matrix, range,
     * chroma_loc): init checks it; a change later in the run is warned
     * about. After vq_configure, init runs again at the first pair with
     * that pair's description (same layout; docs/EXTRACTORS.md). */
    VQ_FEX_USES_COLOR = 1 << 1,
    /* The accumulator record depends on the reference pictures (this
     * frame's and earlier ones) and the options alone: in a ladder whose
     * renditions compute it on the CPU, cpu_run computes it once for all
     * of them through fex->share (core/refshare.h), on state the share
     * owns (freed with desc->ref_state_free). */
    VQ_FEX_REF_SHARED = 1 << 2,
    /* Frames are independent, and part of each frame's work depends on
     * the reference picture alone: in a ladder whose renditions compute
     * it on the CPU, cpu_run takes that part from fex->cache (a product
     * per frame, core/refcache.h, of desc->ref_product_size bytes),
     * computed once for all of them. */
    VQ_FEX_REF_PRODUCT = 1 << 3,
};

#define VQ_FEX_MAX_OUTPUTS 32

typedef struct VqFex VqFex;

typedef struct VqFexDesc {
    const char *name;
    const VqOption *options;     /* NULL-name terminated; may be NULL */
    size_t priv_size;            /* options + CPU state, zeroed at creation */
    const char *const *outputs;  /* base output names, NULL terminated */
    unsigned flags;              /* VQ_FEX_* */
    VqExactness exactness;
    double tolerance;            /* for VQ_EXACT_TOLERANCE */

    /* Checks the format against the options; sets fex->planes,
     * fex->acc_size, fex->scratch_size and fex->lag; allocates CPU state. */
    int (*init)(VqFex *fex, const VqFormat *fmt);
    /* CPU path: fills acc (acc_size bytes, zeroed by the caller). Frames may
     * run concurrently on worker threads: cpu_run may read priv but writes
     * only acc and scratch (fex->scratch_size bytes, 64-byte aligned, one
     * buffer per worker, kept between frames, not cleared). A VQ_FEX_TEMPORAL
     * extractor's frames run one at a time in frame order, so it may also
     * keep state in priv. */
    int (*cpu_run)(VqFex *fex, const VqFrame *ref, const VqFrame *dis,
                   unsigned index, void *acc, void *scratch);
    /* GPU path (NULL when there is none): device state, then per frame the
     * kernels that fill acc_dev (zeroed on the stream before) on the
     * compute stream. */
    /* Frames whose GPU work may run at the same time (0 or 1: one after
     * the other). With more, gpu_init finds the number the core offers in
     * fex->gpu_sets and keeps that many sets of device state (it may lower
     * it); each gpu_run then uses set fex->gpu_seq % fex->gpu_sets, and the
     * core puts every frame of one set on one stream, in frame order.
     * Work that spans frames (a temporal extractor's previous picture)
     * orders itself across sets with events. */
    unsigned gpu_sets;
    int (*gpu_init)(VqFex *fex, struct VqGpu *gpu);
    int (*gpu_run)(VqFex *fex, struct VqGpu *gpu,
                   const struct VqDevFrame *ref, const struct VqDevFrame *dis,
                   unsigned index, void *acc_dev);
    void (*gpu_close)(VqFex *fex, struct VqGpu *gpu);
    /* Shared by both backends: accumulator record -> outputs (vq_fex_emit).
     * Called on one thread, in frame order; may update priv, but keeps no
     * state behind pointers (verify= saves and restores priv around dry
     * runs). */
    int (*finalize)(VqFex *fex, const void *acc, unsigned index);
    /* End of stream: last temporal outputs and aggregates. */
    int (*flush)(VqFex *fex);
    /* Aggregates that merge (psnr's apsnr; NULL for the others): sums
     * copies the integer sums the aggregates are computed from into out
     * (at most VQ_FEX_MAX_SUMS) and returns how many (0: no aggregate,
     * the option is off); add_sums adds another run's (same count);
     * aggregate writes the aggregates from the sums, as flush does at the
     * end of a run (import mode calls it at vq_import_end instead). */
    unsigned (*sums)(const VqFex *fex, uint64_t *out);
    void (*add_sums)(VqFex *fex, const uint64_t *in);
    int (*aggregate)(VqFex *fex);
    void (*close)(VqFex *fex);
    /* VQ_FEX_REF_SHARED: frees the state a ladder's share holds. */
    void (*ref_state_free)(void *state);
    /* VQ_FEX_REF_PRODUCT: the product's size for this instance's frames
     * (after init; 0: not shared for these frames). */
    size_t (*ref_product_size)(const VqFex *fex);
    /* VQ_FEX_REF_PRODUCT, instead of ref_product_size: the ladder computes
     * each frame of every rendition itself, with ladder_run, on an
     * instance of the renditions' configuration, before the frame reaches
     * them; each rendition's cpu_run takes its record from fex->cache
     * (vq_fex_ladder_record). ladder_work_size: the work memory of a pass
     * of n renditions in `parts` bands (0: frames not shared). */
    size_t (*ladder_work_size)(const VqFex *fex, unsigned n, unsigned parts);
    int (*ladder_run)(const VqFex *fex, const VqLadderPass *pass);
    /* A ladder on the GPU (gpu/ref_stage.h): the device bytes of a frame's
     * reference product for this instance's frames (0: not split);
     * gpu_ref_run, on an instance of the ladder's own, computes it from
     * the reference alone (once per frame, on the compute stream);
     * gpu_run_split, per rendition, fills acc_dev as gpu_run does, reading
     * the product instead of computing that part. */
    size_t (*gpu_ref_size)(const VqFex *fex);
    int (*gpu_ref_run)(VqFex *fex, struct VqGpu *gpu,
                       const struct VqDevFrame *ref, unsigned index,
                       void *prod_dev);
    int (*gpu_run_split)(VqFex *fex, struct VqGpu *gpu,
                         const struct VqDevFrame *ref,
                         const struct VqDevFrame *dis, unsigned index,
                         const void *prod_dev, void *acc_dev);
} VqFexDesc;

#define VQ_FEX_MAX_SUMS 8

struct VqFex {
    const VqFexDesc *desc;
    void *priv;
    VqFormat fmt;
    unsigned planes;        /* VQ_PLANE_* bits the extractor reads */
    unsigned lag;           /* frame i is final once frame i + lag was
                               finalized, or at flush (motion2: 1) */
    size_t acc_size;
    size_t acc_off;         /* offset of this extractor's record in its
                               backend's per-frame buffer (vq_acc_layout) */
    size_t scratch_size;    /* per-worker CPU scratch (see cpu_run) */
    size_t part_scratch_size; /* per-thread scratch of vq_fex_parallel */
    unsigned order;         /* selection order in its context (0 first);
                               the log order follows it, as libvmaf's */
    bool on_gpu;            /* chosen backend for this run */
    bool gpu_ready;         /* gpu_init succeeded, gpu_close not yet called */
    void *gpu_priv;         /* owned by the extractor's gpu_* functions */
    unsigned gpu_sets;      /* sets of device state (desc->gpu_sets) */
    unsigned gpu_seq;       /* GPU runs before this one (set: gpu_seq %
                               gpu_sets) */
    unsigned gpu_lane0;     /* the lane of set 0 */
    unsigned n_finalized;   /* frames passed through finalize (or skipped) */
    bool flushed;
    unsigned n_outputs;
    char *out_name[VQ_FEX_MAX_OUTPUTS]; /* resolved log names */
    int out_id[VQ_FEX_MAX_OUTPUTS];     /* collector series, -1 until written */
    struct VqCollector *coll;
    VqErrBuf *err;
    struct VqCpuRun *cpu;   /* the core's CPU run, for vq_fex_parallel */
    unsigned cpu_index;     /* this extractor's index in that run */
    struct VqRefShare *share; /* VQ_FEX_REF_SHARED in a ladder: the
                               renditions' shared reference work (NULL:
                               computed here); set before the first frame */
    struct VqRefCache *cache; /* VQ_FEX_REF_PRODUCT in a ladder: the
                               frames' reference products (NULL: computed
                               here); set before the first frame */
    unsigned share_user;    /* this rendition's user number in share or
                               cache */
    unsigned gpu_shared_rec; /* in a ladder on the GPU, k + 1: the ladder
                               computes this extractor's record once per
                               frame (record k of the staged reference,
                               gpu/ref_stage.h) and gpu_run is not called;
                               0: computed here */
    unsigned gpu_shared_prod; /* in a ladder on the GPU, k + 1: the ladder
                               computes this extractor's reference product
                               once per frame (product k of the staged
                               reference) and gpu_run_split reads it; 0:
                               gpu_run */
};

/*
 * Work inside one frame, split (rows in bands): called from cpu_run, runs
 * fn(arg, part, scratch) for every part in [0, n) on the context's worker
 * threads, the calling one included, and returns when all have run.
 * scratch is fex->part_scratch_size bytes (64-byte aligned, kept, not
 * cleared) of the thread that runs the part, distinct from cpu_run's
 * scratch. Parts run in any order and concurrently: each writes only
 * memory of its own (its own accumulator record, say, that cpu_run then
 * adds in a fixed order, or its own rows of a shared image) and does not
 * call vq_fex_parallel. Returns 0, or VQ_ENOMEM with no part run.
 */
typedef void (*VqFexPartFn)(void *arg, unsigned part, void *scratch);
int vq_fex_parallel(VqFex *fex, unsigned n, VqFexPartFn fn, void *arg);

/* How many threads vq_fex_parallel's parts can run on (1: no workers, or
 * cpu_run called outside the CPU run's jobs: the fake device, verify=, a
 * fallback's warm-up, where the parts would run one after the other). */
unsigned vq_fex_threads(const VqFex *fex);
/* How many row bands to split rows into: one per band_rows rows, at most
 * two per thread and max_parts, at least one (one without threads). */
unsigned vq_fex_bands(const VqFex *fex, unsigned rows, unsigned band_rows,
                      unsigned max_parts);

/* In a ladder whose pass computes this extractor (desc->ladder_run):
 * copies this rendition's record of frame index into acc and returns 0;
 * 1 when the pass has none for it (cpu_run computes the frame). */
int vq_fex_ladder_record(VqFex *fex, unsigned index, void *acc);

/* Writes output k (index into desc->outputs) of frame `index`. */
int vq_fex_emit(VqFex *fex, unsigned k, unsigned index, double value);
/* Writes an aggregate value (e.g. apsnr_y) under output k's name. */
int vq_fex_emit_aggregate(VqFex *fex, const char *name, double value);

/* Accumulator records of one backend's extractors (those with on_gpu ==
 * gpu) share one buffer per frame: sets each one's acc_off, a multiple of
 * VQ_ACC_ALIGN, and returns the buffer's size. The only place the layout
 * is computed; the GPU and CPU paths both read fex->acc_off. */
#define VQ_ACC_ALIGN 256
size_t vq_acc_layout(VqFex *const *fex, unsigned n, bool gpu);

/* Registry. */
const VqFexDesc *vq_fex_find(const char *name);
const VqFexDesc *const *vq_fex_registry(void);

#endif
