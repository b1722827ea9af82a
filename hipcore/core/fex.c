#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fex.h"

/* "psnr, float_psnr, ..." for the unknown-feature message. */
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

void vq_fex_free(VqFex *fex)
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

int vq_fex_create(const VqSpec *spec, VqCollector *coll, VqErrBuf *err,
                  VqFex **out)
{
    *out = NULL;
    const char *name = vq_spec_get(spec, "name");
    if (!name)
        return vq_fail(err, VQ_EINVAL, "feature spec without a name");
    const VqFexDesc *desc = vq_fex_find(name);
    if (!desc) {
        char list[1024];
        list_extractors(list, sizeof(list));
        return vq_fail(err, VQ_ENOTFOUND,
                       "unknown feature '%s'; valid features: %s", name, list);
    }
    VqFex *fex = calloc(1, sizeof(*fex));
    if (!fex || !(fex->priv = calloc(1, desc->priv_size ? desc->priv_size : 1))) {
        free(fex);
        return vq_fail(err, VQ_ENOMEM, "out of memory");
    }
    fex->desc = desc;
    fex->coll = coll;
    fex->err = err;
    vq_opt_set_defaults(desc->options, fex->priv);
    for (unsigned i = 0; i < spec->n; i++) {
        if (!strcmp(spec->key[i], "name"))
            continue;
        int e = vq_opt_set(desc->options, fex->priv, desc->name, spec->key[i],
                           spec->val[i], err);
        if (e) {
            vq_fex_free(fex);
            return e;
        }
    }
    for (const char *const *o = desc->outputs; *o; o++) {
        if (fex->n_outputs == VQ_FEX_MAX_OUTPUTS) {
            vq_fex_free(fex);
            return vq_fail(err, VQ_EINVAL, "%s: too many outputs", name);
        }
        fex->out_name[fex->n_outputs] =
            vq_opt_output_name(*o, desc->options, fex->priv);
        fex->out_id[fex->n_outputs] = -1;
        if (!fex->out_name[fex->n_outputs++]) {
            vq_fex_free(fex);
            return vq_fail(err, VQ_ENOMEM, "out of memory");
        }
    }
    *out = fex;
    return 0;
}

bool vq_fex_same_options(const VqFex *a, const VqFex *b)
{
    for (const VqOption *o = a->desc->options; o && o->name; o++) {
        if (memcmp((char *)a->priv + o->offset, (char *)b->priv + o->offset,
                   vq_opt_size(o)))
            return false;
    }
    return true;
}
