#include <stdio.h>
#include <string.h>

#include "selection.h"

void vq_selection_init(VqSelection *s, VqErrBuf *err, unsigned n_subsample)
{
    memset(s, 0, sizeof(*s));
    s->err = err;
    s->coll.n_subsample = n_subsample;
}

void vq_selection_close(VqSelection *s)
{
    for (unsigned i = 0; i < s->fexs.n; i++)
        vq_fex_free(s->fexs.fex[i]);
    s->fexs.n = 0;
    for (unsigned i = 0; i < s->n_model; i++)
        vq_model_close(&s->model[i]);
    s->n_model = 0;
}

void vq_selection_free(VqSelection *s)
{
    vq_selection_close(s);
    vq_collector_free(&s->coll);
}

bool vq_selection_model_needs(const VqSelection *s, const VqFex *fex)
{
    for (unsigned i = 0; i < s->n_model; i++)
        for (unsigned j = 0; j < vq_model_input_count(s->model[i]); j++) {
            const char *spec, *output;
            vq_model_input(s->model[i], j, &spec, &output);
            for (unsigned k = 0; k < fex->n_outputs; k++)
                if (!strcmp(fex->out_name[k], output))
                    return true;
        }
    return false;
}

void vq_selection_drop(VqSelection *s, unsigned i)
{
    VqFexList *l = &s->fexs;
    vq_fex_free(l->fex[i]);
    memmove(&l->fex[i], &l->fex[i + 1], (l->n - i - 1) * sizeof(l->fex[0]));
    l->n--;
}

/* Whether output `name` is written by an extractor other than `self` or by
 * a model; names the writer in *who. */
static bool output_taken(const VqSelection *s, const VqFex *self,
                         const VqModel *self_model, const char *name,
                         const char **who)
{
    for (unsigned i = 0; i < s->fexs.n; i++) {
        const VqFex *o = s->fexs.fex[i];
        for (unsigned k = 0; o != self && k < o->n_outputs; k++)
            if (!strcmp(o->out_name[k], name)) {
                *who = o->desc->name;
                return true;
            }
    }
    for (unsigned i = 0; i < s->n_model; i++) {
        const VqModel *m = s->model[i];
        for (unsigned k = 0; m != self_model && k < vq_model_output_count(m);
             k++)
            if (!strcmp(vq_model_output_name(m, k), name)) {
                *who = vq_model_name(m);
                return true;
            }
    }
    return false;
}

int vq_selection_add_feature(VqSelection *s, const char *text, VqFex **found)
{
    VqSpec spec;
    int err = vq_spec_parse(&spec, text, s->err);
    if (err)
        return err;
    VqFex *fex;
    err = vq_fex_create(&spec, &s->coll, s->err, &fex);
    vq_spec_free(&spec);
    if (err)
        return err;
    VqFexList *l = &s->fexs;
    for (unsigned i = 0; i < l->n; i++) {
        VqFex *o = l->fex[i];
        if (o->desc == fex->desc && vq_fex_same_options(o, fex)) {
            vq_fex_free(fex);
            if (found)
                *found = o;
            return 0;
        }
    }
    if (l->n == VQ_MAX_FEX) {
        vq_fex_free(fex);
        return vq_fail(s->err, VQ_EINVAL, "too many features");
    }
    /* Two writers of one output would overwrite each other's values. */
    for (unsigned k = 0; k < fex->n_outputs; k++) {
        const char *who;
        if (!output_taken(s, fex, NULL, fex->out_name[k], &who))
            continue;
        err = vq_fail(s->err, VQ_EINVAL, "'%s' writes '%s', which %s%s "
                      "already writes (selected with other options that do "
                      "not change the output's name): select it once, or with "
                      "options that name its outputs apart", text,
                      fex->out_name[k], strcmp(who, fex->desc->name) ?
                      "model or feature " : "feature ", who);
        vq_fex_free(fex);
        return err;
    }
    fex->order = l->n;
    l->fex[l->n++] = fex;
    if (found)
        *found = fex;
    return 0;
}

int vq_selection_add_model(VqSelection *s, const char *spec,
                           const char *model_dir)
{
    if (s->n_model == VQ_MAX_MODELS)
        return vq_fail(s->err, VQ_EINVAL, "too many models");
    VqModel *m = NULL;
    int err = vq_model_open(&m, spec, model_dir, s->err);
    if (err)
        return err;
    for (unsigned i = 0; i < s->n_model; i++) {
        if (!strcmp(vq_model_name(s->model[i]), vq_model_name(m))) {
            err = vq_fail(s->err, VQ_EINVAL,
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
        err = vq_selection_add_feature(s, fspec, &fex);
        unsigned k = 0;
        while (!err && k < fex->n_outputs && strcmp(fex->out_name[k], output))
            k++;
        if (!err && k == fex->n_outputs)
            err = vq_fail(s->err, VQ_EMODEL,
                          "model '%s' needs '%s', which extractor %s does "
                          "not provide", vq_model_name(m), output,
                          fex->desc->name);
        if (err) {
            char why[VQ_ERR_MSG_SIZE];
            snprintf(why, sizeof(why), "%s", s->err->msg);
            vq_fail(s->err, err, "model '%s' input '%s': %s",
                    vq_model_name(m), output, why);
            vq_model_close(&m);
            return err;
        }
    }
    for (unsigned k = 0; k < vq_model_output_count(m); k++) {
        const char *who, *name = vq_model_output_name(m, k);
        if (output_taken(s, NULL, m, name, &who)) {
            err = vq_fail(s->err, VQ_EINVAL, "model '%s' writes '%s', "
                          "which %s already writes: give the model another "
                          "name=", vq_model_name(m), name, who);
            vq_model_close(&m);
            return err;
        }
    }
    s->model[s->n_model++] = m;
    return 0;
}
