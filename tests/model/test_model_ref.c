/*
 * The model engine against libvmaf's own model code, bit for bit: each
 * case of data/model_ref_vectors.txt lists inputs and the outputs libvmaf
 * computed for them (see the file's header for how they were produced).
 *
 * usage: test_model_ref <tests/model/data> <models dir (the repository's
 * models/)>; a missing models dir is a failure, not a skip.
 */
#include <math.h>
#include <string.h>
#include <sys/stat.h>

#include "model/model.h"
#include "model_stub_fex.h"
#include "model_test.h"

#define MAX_VALUES 64

static unsigned parse_values(char *p, double *v)
{
    unsigned n = 0;
    char *end;
    while (n < MAX_VALUES) {
        double x = strtod(p, &end);
        if (end == p)
            break;
        v[n++] = x;
        p = end;
    }
    return n;
}

typedef struct Case {
    char model[128], where[16], spec[128];
    unsigned rows;
} Case;

static int run_case(const Case *cs, FILE *f, const char *data_dir,
                    const char *models_dir, unsigned *n_values)
{
    char spec[512];
    const bool shipped = !strcmp(cs->where, "models");
    snprintf(spec, sizeof(spec), shipped ? "version=%s%s" : "path=%s/%s.json%s",
             shipped ? cs->model : data_dir, shipped ? cs->spec : cs->model,
             shipped ? "" : cs->spec);
    VqErrBuf e;
    VqModel *m;
    int err = vq_model_open_ex(&m, spec, models_dir, vq_test_fex_find, &e);
    CHECK_MSG(!err, "%s: %s", spec, e.msg);
    if (err)
        return -1;
    VqCollector c = { 0 };
    const unsigned n_in = vq_model_input_count(m);
    const unsigned n_out = vq_model_output_count(m);
    char line[8192];
    double in[MAX_VALUES], out[MAX_VALUES];
    for (unsigned r = 0; r < cs->rows; r++) {
        if (!fgets(line, sizeof(line), f) || strncmp(line, "in ", 3) ||
            parse_values(line + 3, in) != n_in) {
            CHECK_MSG(0, "%s row %u: bad 'in' line (the model has %u inputs)",
                  spec, r, n_in);
            break;
        }
        if (!fgets(line, sizeof(line), f) || strncmp(line, "out ", 4) ||
            parse_values(line + 4, out) != n_out) {
            CHECK_MSG(0, "%s row %u: bad 'out' line (the model has %u outputs)",
                  spec, r, n_out);
            break;
        }
        for (unsigned i = 0; i < n_in; i++) {
            const char *fspec, *name;
            vq_model_input(m, i, &fspec, &name);
            vq_collector_set(&c, vq_collector_series(&c, name, "cpu"), r,
                             in[i]);
        }
        err = vq_model_predict(m, &c, r, "cpu", &e);
        CHECK_MSG(!err, "%s row %u: %s", spec, r, e.msg);
        for (unsigned k = 0; !err && k < n_out; k++) {
            const char *name = vq_model_output_name(m, k);
            double v = NAN;
            vq_collector_get(&c, vq_collector_find(&c, name), r, &v);
            CHECK_MSG(v == out[k], "%s row %u %s: %.17g, libvmaf %.17g "
                  "(difference %.3g)", spec, r, name, v, out[k], v - out[k]);
            (*n_values)++;
        }
    }
    vq_collector_free(&c);
    vq_model_close(&m);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s <data dir> <models dir>\n", argv[0]);
        return 2;
    }
    const char *data_dir = argv[1], *models_dir = argv[2];
    struct stat st;
    if (stat(models_dir, &st) || !S_ISDIR(st.st_mode)) {
        fprintf(stderr, "no models at %s: the repository's models/ folder "
                "is needed\n", models_dir);
        return 1;
    }
    char path[1024];
    snprintf(path, sizeof(path), "%s/model_ref_vectors.txt", data_dir);
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", path);
        return 1;
    }
    char line[8192];
    unsigned n_cases = 0, n_values = 0;
    while (fgets(line, sizeof(line), f)) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        Case cs;
        if (sscanf(line, "case %127s %15s %127s %u", cs.model, cs.where,
                   cs.spec, &cs.rows) != 4) {
            CHECK_MSG(0, "bad line in %s: %s", path, line);
            break;
        }
        if (!strcmp(cs.spec, "-"))
            cs.spec[0] = '\0';
        if (run_case(&cs, f, data_dir, models_dir, &n_values))
            break;
        n_cases++;
    }
    fclose(f);
    printf("%u cases, %u outputs compared bit for bit with libvmaf", n_cases,
           n_values);
    printf("; %d failures\n", n_fail);
    return n_fail ? 1 : 0;
}
