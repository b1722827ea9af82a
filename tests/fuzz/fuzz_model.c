/*
 * libFuzzer target for the model parser: any bytes as a model file. A model
 * that loads is also predicted on a few frames of extreme inputs, so the
 * prediction of whatever the parser accepts is exercised too. Stand-in
 * extractors (tests/model/model_stub_fex.c) make option tables reachable.
 * Inputs that do not start with '{' go to the embedded libsvm text parser
 * alone, where mutations need no JSON escaping.
 *
 *   CC=clang meson setup build-fuzz -Dfuzzing=true -Dhip_platform=none
 *   ninja -C build-fuzz
 *   cp -r tests/fuzz/corpus build-fuzz/corpus
 *   build-fuzz/tests/fuzz/fuzz_model build-fuzz/corpus \
 *       -dict=tests/fuzz/model.dict -max_len=4096
 *
 * An input that crashed goes to tests/model/data/bad/ once fixed; every build
 * replays that folder and the corpus (test model_fuzz_replay).
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "model/model.h"
#include "model/model_priv.h"
#include "model_stub_fex.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const specs[4] = {
    NULL, "disable_clip", "enable_transform:name=f", "adm.adm_csf_mode=2"
};

static void fuzz_svm_text(const uint8_t *data, size_t size)
{
    VqSvm svm;
    VqErrBuf e;
    const unsigned dim = 1 + (unsigned)(size % 8);
    if (vq_svm_parse(&svm, (const char *)data, size, dim, &e))
        return;
    static const double x[8] = { 0.5, 0, 1, -1, 1e300, -1e300, 0.25, 2 };
    (void)vq_svm_predict(&svm, x);
    vq_svm_free(&svm);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size && data[0] != '{') {
        fuzz_svm_text(data, size);
        return 0;
    }
    /* The size picks the spec, so that any valid model file is a valid
     * corpus entry as it is. */
    VqModel *m = NULL;
    VqErrBuf e;
    int err = vq_model_load_buffer(&m, (const char *)data, size, specs[size & 3],
                                   vq_test_stub_find, &e);
    if (err)
        return 0;
    static const double values[4] = { 0.5, 0.0, -1e300, 1e300 };
    VqCollector c = { 0 };
    for (unsigned frame = 0; frame < 5; frame++) {
        for (unsigned i = 0; i < vq_model_input_count(m); i++) {
            const char *fspec, *name;
            vq_model_input(m, i, &fspec, &name);
            double v = frame == 4 ? NAN : values[(frame + i) & 3];
            vq_collector_set(&c, vq_collector_series(&c, name, "cpu"), frame,
                             v);
        }
        vq_model_predict(m, &c, frame, "cpu", &e);
    }
    vq_collector_free(&c);
    vq_model_close(&m);
    return 0;
}
