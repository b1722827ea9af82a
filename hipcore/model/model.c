/* Placeholder until the model engine lands: every model request is refused
 * with a clear message. */
#include "model.h"

int vq_model_open(VqModel **m, const char *spec, const char *model_dir,
                  VqErrBuf *e)
{
    (void)model_dir;
    *m = NULL;
    return vq_fail(e, VQ_EUNSUPPORTED,
                   "model '%s': the model engine is not part of this build yet",
                   spec);
}

void vq_model_close(VqModel **m) { *m = NULL; }
const char *vq_model_name(const VqModel *m) { (void)m; return ""; }
unsigned vq_model_input_count(const VqModel *m) { (void)m; return 0; }
int vq_model_input(const VqModel *m, unsigned i, const char **fex_spec,
                   const char **output)
{
    (void)m; (void)i; *fex_spec = *output = ""; return VQ_EINVAL;
}
int vq_model_predict(VqModel *m, VqCollector *c, unsigned index,
                     const char *backend, VqErrBuf *e)
{
    (void)m; (void)c; (void)index; (void)backend;
    return vq_fail(e, VQ_EUNSUPPORTED, "no model engine");
}
