#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "context.h"
#include "cpu.h"

VqConfig vq_default_config(void)
{
    VqConfig cfg;
    memset(&cfg, 0, sizeof(cfg));
    cfg.backend = VQ_BACKEND_AUTO;
    cfg.depth = 0; /* chosen when the extractors are set up (pipeline.c) */
    cfg.log_level = VQ_LOG_LEVEL_WARNING;
    return cfg;
}

const char *vq_version(void)
{
    return VQHIP_VERSION_STRING;
}

void vq_log(const VqContext *ctx, VqLogLevel level, const char *fmt, ...)
{
    if (level > ctx->cfg.log_level)
        return;
    char msg[VQ_ERR_MSG_SIZE];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    if (ctx->cfg.log)
        ctx->cfg.log(ctx->cfg.log_opaque, level, msg);
    else
        fprintf(stderr, "vqhip: %s\n", msg);
}

const char *vq_model_dir(void)
{
    const char *env = getenv("VQHIP_MODEL_DIR");
    return env && *env ? env : NULL;
}

int vq_open(VqContext **pctx, const VqConfig *cfg)
{
    if (!pctx)
        return VQ_EINVAL;
    VqContext *ctx = calloc(1, sizeof(*ctx));
    *pctx = ctx;
    if (!ctx)
        return VQ_ENOMEM;
    ctx->cfg = cfg ? *cfg : vq_default_config();
    if (ctx->cfg.depth > VQ_MAX_DEPTH)
        return vq_fail(&ctx->err, VQ_EINVAL, "depth %u is above the maximum %d",
                       ctx->cfg.depth, VQ_MAX_DEPTH);
    if (ctx->cfg.backend != VQ_BACKEND_AUTO &&
        ctx->cfg.backend != VQ_BACKEND_HIP && ctx->cfg.backend != VQ_BACKEND_CPU)
        return vq_fail(&ctx->err, VQ_EINVAL, "unknown backend %d",
                       (int)ctx->cfg.backend);
    ctx->coll.n_subsample = ctx->cfg.n_subsample;
    const char *bad_mask = vq_cpu_mask_env_error();
    if (bad_mask)
        vq_log(ctx, VQ_LOG_LEVEL_WARNING,
               "VQHIP_CPU_MASK=%s not understood (avx2, avx512, all, none, "
               "comma separated, or a number): the CPU path uses its C code",
               bad_mask);
    char cpu_names[64];
    vq_log(ctx, VQ_LOG_LEVEL_INFO, "CPU SIMD variants: %s",
           vq_cpu_flags_string(vq_cpu_flags(), cpu_names, sizeof(cpu_names)));

    if (ctx->cfg.backend != VQ_BACKEND_CPU) {
        VqErrBuf why;
        vq_err_clear(&why);
        double t = vq_now();
        int err = vq_gpu_open(&ctx->gpu, ctx->cfg.device, ctx->cfg.use_current_context,
                              &why);
        ctx->t_gpu_open = vq_now() - t;
        if (err) {
            if (ctx->cfg.strict)
                return vq_fail(&ctx->err, err,
                               "GPU backend unavailable (strict): %s", why.msg);
            vq_log(ctx, VQ_LOG_LEVEL_WARNING,
                   "GPU backend unavailable, using the CPU: %s", why.msg);
        } else {
            vq_gpu_set_errbuf(ctx->gpu, &ctx->err);
            vq_log(ctx, VQ_LOG_LEVEL_INFO, "GPU %d: %s (%s, wave size %d)",
                   ctx->cfg.device, vq_gpu_name(ctx->gpu), vq_gpu_platform(),
                   vq_gpu_wave_size(ctx->gpu));
        }
    }
    return 0;
}

static void fex_free(VqFex *fex)
{
    if (!fex)
        return;
    if (fex->desc->close && fex->priv)
        fex->desc->close(fex);
    for (unsigned k = 0; k < fex->n_outputs; k++)
        free(fex->out_name[k]);
    free(fex->priv);
    free(fex);
}

void vq_close(VqContext **pctx)
{
    if (!pctx || !*pctx)
        return;
    VqContext *ctx = *pctx;
    const char *stats = getenv("VQHIP_STATS");
    bool print = stats && *stats && strcmp(stats, "0") && ctx->n_submitted;
    double t_close = vq_now();
    if (print) {
        double n = ctx->n_gpu_frames ? ctx->n_gpu_frames : 1;
        fprintf(stderr, "vqhip stats: %u frames in %.3f s (%.1f fps); per GPU "
                "frame: host copy %.3f ms, enqueue %.3f ms, waiting %.3f ms; "
                "CPU extractors' submit %.3f ms/frame\n", ctx->n_submitted,
                vq_run_seconds(ctx), ctx->n_delivered / vq_run_seconds(ctx),
                1e3 * ctx->t_copy / n, 1e3 * ctx->t_enqueue / n,
                1e3 * ctx->t_wait / n, 1e3 * ctx->t_cpu / ctx->n_submitted);
        if (ctx->gpu) {
            fprintf(stderr, "vqhip stats: start-up: opening the GPU %.3f s "
                    "(runtime and context %.3f, streams %.3f, probe kernel "
                    "%.3f), extractors' set-up %.3f s; the first frame's "
                    "scores %.3f s after its submission\n", ctx->t_gpu_open,
                    vq_gpu_open_time(ctx->gpu, VQ_GPU_OPEN_CONTEXT),
                    vq_gpu_open_time(ctx->gpu, VQ_GPU_OPEN_STREAMS),
                    vq_gpu_open_time(ctx->gpu, VQ_GPU_OPEN_PROBE), ctx->t_setup,
                    ctx->t_first);
            /* what crossed between host and device, per GPU frame: with
             * pictures in device memory both plane figures are 0 */
            VqGpuTraffic t, t0 = ctx->traffic_setup;
            vq_gpu_traffic(ctx->gpu, &t);
            fprintf(stderr, "vqhip stats: bytes per GPU frame: planes host to "
                    "device %.0f, device to device %.0f, device to host %.0f; "
                    "results device to host %.0f\n",
                    (t.planes_up - t0.planes_up) / n,
                    (t.planes_device - t0.planes_device) / n,
                    (t.planes_down - t0.planes_down) / n,
                    (t.results_down - t0.results_down) / n);
        }
    }
    vq_bind(ctx); /* what cannot be made current is released all the same */
    vq_pipeline_stop(ctx);
    for (unsigned i = 0; i < ctx->n_fex; i++)
        fex_free(ctx->fex[i]);
    for (unsigned i = 0; i < ctx->n_model; i++)
        vq_model_close(&ctx->model[i]);
    vq_gpu_close(&ctx->gpu);
    vq_collector_free(&ctx->coll);
    free(ctx->frame_scores);
    free(ctx->dl);
    while (ctx->n_host_buf)
        vq_host_free(ctx, ctx->host_buf[0].ptr);
    free(ctx->host_buf);
    if (print)
        fprintf(stderr, "vqhip stats: closing took %.3f s\n",
                vq_now() - t_close);
    free(ctx);
    *pctx = NULL;
}

unsigned vq_planes_read(const VqContext *ctx)
{
    unsigned planes = 0;
    for (unsigned i = 0; ctx && ctx->started && i < ctx->n_fex; i++)
        planes |= ctx->fex[i]->planes;
    return planes;
}

const char *vq_last_error(const VqContext *ctx)
{
    return ctx ? ctx->err.msg : "no context";
}

static void list_extractors(char *buf, size_t size)
{
    size_t len = 0;
    buf[0] = '\0';
    for (const VqFexDesc *const *d = vq_fex_registry(); *d && len < size; d++) {
        int n = snprintf(buf + len, size - len, "%s%s", len ? ", " : "",
                         (*d)->name);
        if (n < 0)
            break;
        len += (size_t)n;
    }
}

size_t vq_list_features(char *buf, size_t size)
{
    size_t need = 0;
    for (const VqFexDesc *const *d = vq_fex_registry(); *d; d++) {
        char opts[1024];
        vq_opt_list((*d)->options, opts, sizeof(opts));
        int n = snprintf(buf && size > need ? buf + need : NULL,
                         buf && size > need ? size - need : 0,
                         "%s: %s\n", (*d)->name, opts);
        if (n > 0)
            need += (size_t)n;
    }
    return need;
}

/* Creates an extractor instance from a parsed spec; *out is NULL on error. */
static int fex_create(VqContext *ctx, const VqSpec *spec, VqFex **out)
{
    *out = NULL;
    const char *name = vq_spec_get(spec, "name");
    if (!name)
        return vq_fail(&ctx->err, VQ_EINVAL, "feature spec without a name");
    const VqFexDesc *desc = vq_fex_find(name);
    if (!desc) {
        char list[1024];
        list_extractors(list, sizeof(list));
        return vq_fail(&ctx->err, VQ_ENOTFOUND,
                       "unknown feature '%s'; valid features: %s", name, list);
    }
    VqFex *fex = calloc(1, sizeof(*fex));
    if (!fex || !(fex->priv = calloc(1, desc->priv_size ? desc->priv_size : 1))) {
        free(fex);
        return vq_fail(&ctx->err, VQ_ENOMEM, "out of memory");
    }
    fex->desc = desc;
    fex->coll = &ctx->coll;
    fex->err = &ctx->err;
    vq_opt_set_defaults(desc->options, fex->priv);
    for (unsigned i = 0; i < spec->n; i++) {
        if (!strcmp(spec->key[i], "name"))
            continue;
        int err = vq_opt_set(desc->options, fex->priv, desc->name, spec->key[i],
                             spec->val[i], &ctx->err);
        if (err) {
            fex_free(fex);
            return err;
        }
    }
    for (const char *const *o = desc->outputs; *o; o++) {
        if (fex->n_outputs == VQ_FEX_MAX_OUTPUTS) {
            fex_free(fex);
            return vq_fail(&ctx->err, VQ_EINVAL, "%s: too many outputs", name);
        }
        fex->out_name[fex->n_outputs] =
            vq_opt_output_name(*o, desc->options, fex->priv);
        fex->out_id[fex->n_outputs] = -1;
        if (!fex->out_name[fex->n_outputs++]) {
            fex_free(fex);
            return vq_fail(&ctx->err, VQ_ENOMEM, "out of memory");
        }
    }
    *out = fex;
    return 0;
}

bool vq_fex_needed_by_model(const VqContext *ctx, const VqFex *fex)
{
    for (unsigned i = 0; i < ctx->n_model; i++)
        for (unsigned j = 0; j < vq_model_input_count(ctx->model[i]); j++) {
            const char *spec, *output;
            vq_model_input(ctx->model[i], j, &spec, &output);
            for (unsigned k = 0; k < fex->n_outputs; k++)
                if (!strcmp(fex->out_name[k], output))
                    return true;
        }
    return false;
}

void vq_fex_drop(VqContext *ctx, unsigned i)
{
    fex_free(ctx->fex[i]);
    memmove(&ctx->fex[i], &ctx->fex[i + 1],
            (ctx->n_fex - i - 1) * sizeof(ctx->fex[0]));
    ctx->n_fex--;
}

static int same_options(const VqFex *a, const VqFex *b)
{
    for (const VqOption *o = a->desc->options; o && o->name; o++) {
        if (memcmp((char *)a->priv + o->offset, (char *)b->priv + o->offset,
                   vq_opt_size(o)))
            return 0;
    }
    return 1;
}

/* Whether output `name` is written by an extractor other than `self` or by
 * a model; names the writer in *who. */
static bool output_taken(const VqContext *ctx, const VqFex *self,
                         const VqModel *self_model, const char *name,
                         const char **who)
{
    for (unsigned i = 0; i < ctx->n_fex; i++) {
        const VqFex *o = ctx->fex[i];
        for (unsigned k = 0; o != self && k < o->n_outputs; k++)
            if (!strcmp(o->out_name[k], name)) {
                *who = o->desc->name;
                return true;
            }
    }
    for (unsigned i = 0; i < ctx->n_model; i++) {
        const VqModel *m = ctx->model[i];
        for (unsigned k = 0; m != self_model && k < vq_model_output_count(m);
             k++)
            if (!strcmp(vq_model_output_name(m, k), name)) {
                *who = vq_model_name(m);
                return true;
            }
    }
    return false;
}

/* Adds an extractor, or finds the identical one already selected. */
static int use_feature(VqContext *ctx, const char *text, VqFex **found)
{
    if (ctx->started)
        return vq_fail(&ctx->err, VQ_ESTATE,
                       "features must be chosen before the first picture");
    VqSpec spec;
    int err = vq_spec_parse(&spec, text, &ctx->err);
    if (err)
        return err;
    VqFex *fex;
    err = fex_create(ctx, &spec, &fex);
    vq_spec_free(&spec);
    if (err)
        return err;
    for (unsigned i = 0; i < ctx->n_fex; i++) {
        VqFex *o = ctx->fex[i];
        if (o->desc == fex->desc && same_options(o, fex)) {
            fex_free(fex);
            if (found)
                *found = o;
            return 0;
        }
    }
    if (ctx->n_fex == VQ_MAX_FEX) {
        fex_free(fex);
        return vq_fail(&ctx->err, VQ_EINVAL, "too many features");
    }
    /* Two writers of one output would overwrite each other's values. */
    for (unsigned k = 0; k < fex->n_outputs; k++) {
        const char *who;
        if (!output_taken(ctx, fex, NULL, fex->out_name[k], &who))
            continue;
        err = vq_fail(&ctx->err, VQ_EINVAL, "'%s' writes '%s', which %s%s "
                      "already writes (selected with other options that do "
                      "not change the output's name): select it once, or with "
                      "options that name its outputs apart", text,
                      fex->out_name[k], strcmp(who, fex->desc->name) ?
                      "model or feature " : "feature ", who);
        fex_free(fex);
        return err;
    }
    fex->order = ctx->n_fex;
    ctx->fex[ctx->n_fex++] = fex;
    if (found)
        *found = fex;
    return 0;
}

int vq_use_feature(VqContext *ctx, const char *spec)
{
    if (!ctx || !spec)
        return VQ_EINVAL;
    return use_feature(ctx, spec, NULL);
}

int vq_use_model(VqContext *ctx, const char *spec)
{
    if (!ctx || !spec)
        return VQ_EINVAL;
    if (ctx->started)
        return vq_fail(&ctx->err, VQ_ESTATE,
                       "models must be chosen before the first picture");
    if (ctx->n_model == VQ_MAX_MODELS)
        return vq_fail(&ctx->err, VQ_EINVAL, "too many models");
    VqModel *m = NULL;
    int err = vq_model_open(&m, spec, vq_model_dir(), &ctx->err);
    if (err)
        return err;
    for (unsigned i = 0; i < ctx->n_model; i++) {
        if (!strcmp(vq_model_name(ctx->model[i]), vq_model_name(m))) {
            err = vq_fail(&ctx->err, VQ_EINVAL,
                          "two models are named '%s': give each its own "
                          "name=", vq_model_name(m));
            vq_model_close(&m);
            return err;
        }
    }
    for (unsigned i = 0; i < vq_model_input_count(m); i++) {
        const char *fspec, *output;
        VqFex *fex = NULL;
        vq_model_input(m, i, &fspec, &output);
        err = use_feature(ctx, fspec, &fex);
        unsigned k = 0;
        while (!err && k < fex->n_outputs && strcmp(fex->out_name[k], output))
            k++;
        if (!err && k == fex->n_outputs)
            err = vq_fail(&ctx->err, VQ_EMODEL,
                          "model '%s' needs '%s', which extractor %s does "
                          "not provide", vq_model_name(m), output,
                          fex->desc->name);
        if (err) {
            char why[VQ_ERR_MSG_SIZE];
            snprintf(why, sizeof(why), "%s", ctx->err.msg);
            vq_fail(&ctx->err, err, "model '%s' input '%s': %s",
                    vq_model_name(m), output, why);
            vq_model_close(&m);
            return err;
        }
    }
    for (unsigned k = 0; k < vq_model_output_count(m); k++) {
        const char *who, *name = vq_model_output_name(m, k);
        if (output_taken(ctx, NULL, m, name, &who)) {
            err = vq_fail(&ctx->err, VQ_EINVAL, "model '%s' writes '%s', "
                          "which %s already writes: give the model another "
                          "name=", vq_model_name(m), name, who);
            vq_model_close(&m);
            return err;
        }
    }
    ctx->model[ctx->n_model++] = m;
    return 0;
}

unsigned vq_model_count(const VqContext *ctx)
{
    return ctx ? ctx->n_model : 0;
}

const char *vq_model_output(const VqContext *ctx, unsigned i)
{
    return ctx && i < ctx->n_model ? vq_model_name(ctx->model[i]) : NULL;
}

unsigned vq_output_count(const VqContext *ctx)
{
    return ctx ? ctx->coll.n : 0;
}

const char *vq_output_name(const VqContext *ctx, unsigned i)
{
    int id = ctx ? vq_collector_nth(&ctx->coll, i) : VQ_EINVAL;
    return id >= 0 ? ctx->coll.series[id].name : NULL;
}

const char *vq_output_backend(const VqContext *ctx, const char *name)
{
    if (!ctx || !name)
        return NULL;
    int id = vq_collector_find(&ctx->coll, name);
    if (id >= 0)
        return ctx->coll.series[id].backend;
    /* Not written yet: answer from the extractor that provides it. */
    for (unsigned i = 0; ctx->started && i < ctx->n_fex; i++)
        for (unsigned k = 0; k < ctx->fex[i]->n_outputs; k++)
            if (!strcmp(ctx->fex[i]->out_name[k], name))
                return ctx->fex[i]->on_gpu ? "hip" : "cpu";
    return NULL;
}

const char *vq_backend_name(const VqContext *ctx)
{
    return ctx ? ctx->backend_name : "";
}

const char *vq_device_name(const VqContext *ctx)
{
    return ctx && ctx->gpu ? vq_gpu_name(ctx->gpu) : "";
}

int vq_pooled(VqContext *ctx, const char *name, VqPool pool, double *out)
{
    if (!ctx || !name || !out)
        return VQ_EINVAL;
    int err = vq_collector_pool(&ctx->coll, name, pool, ctx->n_delivered, out);
    if (err == VQ_ENOTFOUND)
        return vq_fail(&ctx->err, err, "no output named '%s'", name);
    if (err)
        return vq_fail(&ctx->err, err, "'%s' has no value for some frame "
                       "(or no frame was received)", name);
    return 0;
}

unsigned vq_aggregate_count(const VqContext *ctx)
{
    return ctx ? ctx->coll.n_aggregate : 0;
}

int vq_aggregate(const VqContext *ctx, unsigned i, VqScore *out)
{
    if (!ctx || !out || i >= ctx->coll.n_aggregate)
        return VQ_EINVAL;
    *out = ctx->coll.aggregate[i];
    return 0;
}

int vq_pool_from_name(const char *name, VqPool *pool)
{
    static const char *const names[] = { "mean", "min", "max", "harmonic_mean" };
    for (unsigned i = 0; name && i < 4; i++) {
        if (!strcmp(name, names[i])) {
            *pool = (VqPool)i;
            return 0;
        }
    }
    return VQ_EINVAL;
}

int vq_log_fmt_from_name(const char *name, VqLogFmt *fmt)
{
    static const char *const names[] = { "xml", "json", "csv", "sub" };
    for (unsigned i = 0; name && i < 4; i++) {
        if (!strcmp(name, names[i])) {
            *fmt = (VqLogFmt)i;
            return 0;
        }
    }
    return VQ_EINVAL;
}
