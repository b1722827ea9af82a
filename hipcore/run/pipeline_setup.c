/*
 * The start of a run: the format and the extractors from the first picture
 * (prepare), then each extractor's backend, the threads, the CPU run and
 * the GPU's staging (start), and the models' place in the log.
 */
#include <stdio.h>
#include <string.h>

#include "base/clock.h"
#include "pipeline_priv.h"

int vq_pipeline_prepare(VqPipeline *p, const VqPicture *ref,
                        const VqPicture *dis)
{
    VqSelection *sel = p->sel;
    int err = vq_format_from_picture(&p->fmt, ref, "reference", p->err);
    if (!err && dis)
        err = vq_format_set_color(&p->fmt, ref, dis);
    if (err)
        return err;
    if (!sel->fexs.n && !sel->n_model)
        return vq_fail(p->err, VQ_EINVAL,
                       "no feature or model was selected");
    for (unsigned i = 0; i < sel->fexs.n; i++) {
        VqFex *fex = sel->fexs.fex[i];
        fex->fmt = p->fmt;
        err = fex->desc->init(fex, &p->fmt);
        /* skip_unsupported: an extractor that cannot score this size or
         * format is left out, unless a model needs it */
        if (err == VQ_EUNSUPPORTED && p->cfg.skip_unsupported &&
            !vq_selection_model_needs(sel, fex)) {
            vq_log(&p->log, VQ_LOG_LEVEL_WARNING, "%s (skip_unsupported: "
                   "its outputs are left out)", p->err->msg);
            vq_selection_drop(sel, i--);
            err = 0;
        }
        if (err)
            return err;
    }
    if (!sel->fexs.n && !sel->n_model)
        return vq_fail(p->err, VQ_EUNSUPPORTED, "no selected feature can "
                       "score %ux%u pictures", p->fmt.w[0], p->fmt.h[0]);
    p->prepared = true;
    return 0;
}

static const char *model_backend(const VqPipeline *p, const VqModel *m)
{
    unsigned n = vq_model_input_count(m);
    for (unsigned i = 0; i < n; i++) {
        const char *spec, *output;
        vq_model_input(m, i, &spec, &output);
        const char *b = vq_pipeline_output_backend(p, output);
        if (!b || strcmp(b, "hip"))
            return "cpu";
    }
    return "hip";
}

/* Models' outputs after every extractor's (core/fex.h: VQ_RANK_*): each
 * model's main output in the order the models were selected, then the
 * others (bootstrap members, bagging, stddev, interval), model by model,
 * as libvmaf's tool writes them when it pools the scores at the end. */
static int rank_models(VqPipeline *p)
{
    const VqSelection *sel = p->sel;
    for (unsigned i = 0; i < sel->n_model; i++) {
        const VqModel *m = sel->model[i];
        for (unsigned k = 0; k < vq_model_output_count(m); k++) {
            uint64_t rank = k ? VQ_RANK_STAGE(3) | VQ_RANK_OWNER(i) | k
                              : VQ_RANK_STAGE(2) | VQ_RANK_OWNER(i);
            int id = vq_collector_series_ranked(&p->sel->coll,
                                                vq_model_output_name(m, k),
                                                p->model_backend[i], rank);
            if (id < 0)
                return vq_fail(p->err, id, "out of memory");
        }
    }
    return 0;
}

/* Chooses each extractor's backend and sets up GPU staging. */
static int choose_backends(VqPipeline *p)
{
    const VqFexList *fexs = &p->sel->fexs;
    unsigned planes = 0, n_gpu = 0, n_cpu = 0, history = 0, n_sets = 0;
    unsigned max_sets = 1;
    VqGpu *gpu = p->gpu;
    bool fake = gpu && vq_gpu_is_fake(gpu);
    /* the fake device has one stream */
    unsigned lane_cap = gpu && !fake ? vq_staging_lane_cap() : 0;
    for (unsigned i = 0; i < fexs->n; i++) {
        VqFex *fex = fexs->fex[i];
        fex->on_gpu = false;
        fex->gpu_seq = 0;
        fex->gpu_sets = 1;
        if (lane_cap >= 2 && fex->desc->gpu_sets > 1)
            fex->gpu_sets = fex->desc->gpu_sets < lane_cap ? fex->desc->gpu_sets
                                                           : lane_cap;
        if (gpu && vq_fex_has_gpu(gpu, fex)) {
            int err = fex->desc->gpu_init && !fake
                      ? fex->desc->gpu_init(fex, gpu) : 0;
            fex->gpu_ready = true;
            if (err) {
                if (p->cfg.strict)
                    return err;
                vq_log(&p->log, VQ_LOG_LEVEL_WARNING,
                       "%s: GPU setup failed, computing it on the CPU: %s",
                       fex->desc->name, p->err->msg);
                vq_fex_gpu_close(gpu, fex);
            } else {
                fex->on_gpu = true;
            }
        } else if (gpu) {
            if (p->cfg.strict)
                return vq_fail(p->err, VQ_EUNSUPPORTED,
                               "%s has no GPU path (strict)", fex->desc->name);
            vq_log(&p->log, VQ_LOG_LEVEL_WARNING,
                   "%s has no GPU path yet: computed on the CPU",
                   fex->desc->name);
        }
        if (fex->on_gpu) {
            if (!fex->gpu_sets)
                fex->gpu_sets = 1;
            fex->gpu_lane0 = n_sets;
            n_sets += fex->gpu_sets;
            if (fex->gpu_sets > max_sets)
                max_sets = fex->gpu_sets;
            n_gpu++;
            planes |= fex->planes;
            if ((fex->desc->flags & VQ_FEX_TEMPORAL) && fex->lag > history)
                history = fex->lag < VQ_MAX_HISTORY ? fex->lag : VQ_MAX_HISTORY;
        } else {
            n_cpu++;
        }
    }
    snprintf(p->backend_name, sizeof(p->backend_name), "%s",
             n_gpu && n_cpu ? "hip+cpu" : n_gpu ? "hip" : "cpu");
    unsigned threads = p->cfg.n_threads;
    /* every core this process may use; with every extractor on the GPU the
     * workers only copy frames into staging, where all 16 cores of the
     * H200's host were slower than 8 (1080p vmaf_v0.6.1: 2765 fps with 16,
     * 3955 with 8, 3923 with 4; at 4K 8 and 4 alike, 2 threads far less) */
    if (!threads)
        threads = n_cpu || vq_cpu_count() < 8 ? vq_cpu_count() : 8;
    if (threads > 1 && vq_threadpool_open(&p->pool, threads))
        return vq_fail(p->err, VQ_ENOMEM, "cannot start %u threads", threads);
    /* An extractor whose frames run at once needs them in flight: with K
     * sets, 2K frames (one set's next frame is queued while it works). */
    if (!p->cfg.depth)
        p->cfg.depth = 2 * max_sets > VQ_DEFAULT_DEPTH ? 2 * max_sets
                                                       : VQ_DEFAULT_DEPTH;
    if (p->cfg.depth > VQ_MAX_DEPTH)
        p->cfg.depth = VQ_MAX_DEPTH;
    p->gpu_run.depth = p->cfg.depth;
    size_t acc_gpu = vq_acc_layout(fexs->fex, fexs->n, true);
    int err = vq_cpu_open(&p->cpu, &p->env, p->pool);
    /* Slots beyond the frames in flight keep the host copies of the frames
     * before them that a temporal extractor's CPU path would need (to
     * verify a frame, or to take over after a fault). */
    if (!err && n_gpu)
        err = vq_gpu_run_start(&p->gpu_run, planes, p->cfg.depth + history,
                               acc_gpu, p->pool, n_sets, lane_cap);
    if (err == VQ_EDEVICE && n_gpu)
        err = vq_pipeline_fallback(p);
    return err;
}

/* Once prepared and the GPU's fate known: backends, the models' place. */
static int choose(VqPipeline *p)
{
    p->running = true;
    int err = choose_backends(p);
    if (err)
        return err;
    /* the extractors' set-up uploads (tables) are not frame traffic */
    if (p->gpu)
        vq_gpu_traffic(p->gpu, &p->times.traffic_setup);
    for (unsigned i = 0; i < p->sel->n_model; i++)
        p->model_backend[i] = model_backend(p, p->sel->model[i]);
    return rank_models(p);
}

int vq_pipeline_start(VqPipeline *p, const VqPicture *ref,
                      const VqPicture *dis)
{
    double t = vq_now();
    int err = p->prepared ? 0 : vq_pipeline_prepare(p, ref, dis);
    if (!err)
        err = choose(p);
    p->times.setup += vq_now() - t;
    return err;
}

void vq_pipeline_stop_stages(VqPipeline *p)
{
    vq_cpu_close(&p->cpu); /* waits for its tasks */
    vq_threadpool_close(&p->pool);
    vq_gpu_run_stop(&p->gpu_run);
}

int vq_pipeline_fallback(VqPipeline *p)
{
    int err = vq_fallback(&p->fallback, &p->env, p->cfg.strict, &p->gpu_run,
                          &p->cpu, p->n_submitted);
    if (err)
        return err;
    snprintf(p->backend_name, sizeof(p->backend_name), "hip+cpu");
    for (unsigned i = 0; i < p->sel->n_model; i++)
        p->model_backend[i] = "cpu";
    return 0;
}
