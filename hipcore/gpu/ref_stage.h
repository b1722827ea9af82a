/*
 * A ladder's reference pictures staged once for all its renditions' runs
 * (docs/LADDER.md): a ring of slots, each with the reference's host copy
 * and its device planes as the kernels read them, uploaded on a stream of
 * the ladder's own, with the event those uploads end with. A rendition's
 * slot reads the planes through its view (vq_staging_upload_shared) and
 * holds one count of the picture's users until the slot is reused or the
 * run flushed or closed; a ring slot is staged again only once no run
 * holds it. Every run of the ladder uses the same device.
 *
 * Extractors whose record depends on the reference alone (VQ_FEX_REF_SHARED:
 * the motions) run on the stage itself, on instances of its own: once per
 * frame, on the ladder's compute stream, into the slot's records; a
 * rendition's run copies its record instead of running its kernels
 * (VqFex.gpu_shared_rec). Their device state follows the frames, so they
 * see every frame: a full ring is then an error.
 *
 * Extractors that split their frames (desc->gpu_ref_size: VIF, ...) have
 * their reference part computed there too, per frame, into the slot's
 * products; a rendition's run reads it (VqFex.gpu_shared_prod and
 * desc->gpu_run_split). Frames are independent there: a frame the ring
 * had no slot for is computed whole by each run.
 */
#ifndef VQHIP_REF_STAGE_H
#define VQHIP_REF_STAGE_H

#include "core/extractor.h"
#include "staging.h"

typedef struct VqRefStage VqRefStage;

#define VQ_REF_STAGE_MAX_FEX 8

/* `depth` slots of the planes in `planes` of format fmt, and instances of
 * the n_fex extractors fexs (a rendition's, configured: descriptor,
 * options, format) whose records the stage computes, and of the n_prod
 * extractors prods whose reference products it computes. */
int vq_ref_stage_open(VqRefStage **rs, VqGpu *gpu, const VqFormat *fmt,
                      unsigned planes, unsigned depth,
                      const VqFex *const *fexs, unsigned n_fex,
                      const VqFex *const *prods, unsigned n_prod,
                      VqThreadPool *pool, VqErrBuf *e);
/* The extractors whose records, and whose products, it computes. */
unsigned vq_ref_stage_fex_count(const VqRefStage *rs);
unsigned vq_ref_stage_product_count(const VqRefStage *rs);
/* Closes the stage's extractor instances (their work done), before the
 * runs whose extractors they copied close: nothing is put after it. */
void vq_ref_stage_stop_fex(VqRefStage *rs);
/* After every run that used it closed (no users left). */
void vq_ref_stage_close(VqRefStage **rs);
/* Copies and uploads `ref` into the next slot for `users` runs and runs
 * the stage's extractors on it as frame `index` (the runs' index for it).
 * *out is NULL when that slot is still held (the runs then upload the
 * reference themselves: a ring deeper than any run's staging never is;
 * with extractors on the stage that is VQ_EDEVICE). */
int vq_ref_stage_put(VqRefStage *rs, const VqFrame *ref, unsigned index,
                     unsigned users, VqSharedRef **out);
/* Pictures staged, runs' frames that read one, records of the stage's
 * extractors the runs copied and products they read
 * (vq_ladder_share_info). */
void vq_ref_stage_counts(const VqRefStage *rs, uint64_t *staged,
                         uint64_t *used, uint64_t *records,
                         uint64_t *products);

/* One staged picture as a run's slot sees it: its device planes, its host
 * copy (caller's layout: what a fallback or verify= reads), the event
 * its uploads and the stage's kernels end with, record k of the stage's
 * extractors (device memory, their acc_size). */
VqDevFrame vq_shared_ref_view(const VqSharedRef *r);
VqFrame vq_shared_ref_held(const VqSharedRef *r);
VqEvent vq_shared_ref_event(const VqSharedRef *r);
const void *vq_shared_ref_record(const VqSharedRef *r, unsigned k);
/* A run copied a record (counted). */
void vq_shared_ref_record_used(VqSharedRef *r);
/* Product k of the stage's splitting extractors (device memory, their
 * gpu_ref_size), and a run's use of one (counted). */
const void *vq_shared_ref_product(const VqSharedRef *r, unsigned k);
void vq_shared_ref_product_used(VqSharedRef *r);
/* A run took the picture into a slot (counted). */
void vq_shared_ref_took(VqSharedRef *r);
/* One user done with it (a slot giving it back, or a run that did not
 * take it). */
void vq_shared_ref_release(VqSharedRef *r);

#endif
