/*
 * The model engine against libvmaf's logged scores. For each golden log the
 * model's inputs are taken from the log (libvmaf's own feature values),
 * the model predicts every frame, and each output is compared with the
 * score libvmaf logged for that frame, plus the pooled values.
 *
 * Tolerance: logged values carry 6 decimals, so every input is known only
 * to +-5e-7 and every logged output is rounded by up to 5e-7. The model
 * arithmetic itself is bit-exact with libvmaf (test_model_ref), so the only
 * difference left comes from the inputs' rounding. Per frame and output the
 * test evaluates the model at every corner of the box input +-5e-7 and
 * allows the largest change seen there, plus 5e-7 for the output's own
 * rounding. (DESIGN.md's 1e-4 for vmaf is about exact inputs; here the
 * propagated rounding alone reaches a few 1e-5 on steep frames.)
 *
 * usage: test_model_golden <golden json dir> <models dir>; exits 77 when
 * the golden logs are absent, 1 when the models are.
 */
#include <dirent.h>
#include <json-c/json.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>

#include "model/model.h"
#include "model_stub_fex.h"
#include "model_test.h"

#define IN_ROUNDING 5e-7
#define OUT_ROUNDING 5e-7
#define MAX_IN 16
#define MAX_OUT 32

typedef struct GoldenModel {
    const char *log_suffix;
    const char *spec;
} GoldenModel;

/* What the golden README says each log was made with. */
static const GoldenModel golden_models[] = {
    { ".json", "version=vmaf_v0.6.1" },
    { ".models.json", "version=vmaf_4k_v0.6.1:name=vmaf_4k_v0.6.1" },
    { ".models.json", "version=vmaf_v0.6.1neg:name=vmaf_v0.6.1neg" },
    { ".models.json", "version=vmaf_b_v0.6.3:name=vmaf_b_v0.6.3" },
    { ".models.json", "version=vmaf_float_v0.6.1:name=vmaf_float_v0.6.1" },
    { ".v1.json", "version=vmaf_v1.0.16_3d0h" },
};

static bool has_suffix(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && !strcmp(s + n - k, suffix);
}

/* ".models.json" and ".v1.json" logs are not main logs. */
static bool log_kind(const char *file, const char *suffix)
{
    if (!strcmp(suffix, ".json"))
        return has_suffix(file, ".json") && !has_suffix(file, ".models.json") &&
               !has_suffix(file, ".v1.json");
    return has_suffix(file, suffix);
}

static bool frame_value(struct json_object *frames, unsigned i,
                        const char *name, double *v)
{
    struct json_object *fr = json_object_array_get_idx(frames, i), *mt, *o;
    if (!json_object_object_get_ex(fr, "metrics", &mt) ||
        !json_object_object_get_ex(mt, name, &o) || !o)
        return false;
    *v = json_object_get_double(o);
    return true;
}

/* Predicts one frame from inputs x into out[]. */
static int predict(VqModel *m, const double *x, double *out)
{
    VqCollector c = { 0 };
    VqErrBuf e;
    for (unsigned i = 0; i < vq_model_input_count(m); i++) {
        const char *spec, *name;
        vq_model_input(m, i, &spec, &name);
        vq_collector_set(&c, vq_collector_series(&c, name, "cpu"), 0, x[i]);
    }
    int err = vq_model_predict(m, &c, 0, "cpu", &e);
    for (unsigned k = 0; !err && k < vq_model_output_count(m); k++)
        vq_collector_get(&c, vq_collector_find(&c, vq_model_output_name(m, k)),
                         0, &out[k]);
    vq_collector_free(&c);
    return err;
}

typedef struct Summary {
    unsigned values;
    double max_err, max_tol, max_ratio;
} Summary;

static void check_pooled(VqCollector *c, VqModel *m, struct json_object *log,
                         unsigned n, double tol_frames[][MAX_OUT],
                         const char *what)
{
    struct json_object *pooled;
    json_object_object_get_ex(log, "pooled_metrics", &pooled);
    for (unsigned k = 0; k < vq_model_output_count(m); k++) {
        const char *name = vq_model_output_name(m, k);
        struct json_object *p, *o;
        CHECK_MSG(json_object_object_get_ex(pooled, name, &p), "%s: no pooled %s",
              what, name);
        double tol_max = 0, h, x;
        for (unsigned i = 0; i < n; i++)
            tol_max = fmax(tol_max, tol_frames[i][k]);
        vq_collector_pool(c, name, VQ_POOL_HARMONIC_MEAN, n, &h);
        /* |dH/dx_i| = (H + 1)^2 / (n (x_i + 1)^2) */
        double tol_h = OUT_ROUNDING;
        for (unsigned i = 0; i < n; i++) {
            vq_collector_get(c, vq_collector_find(c, name), i, &x);
            tol_h += (h + 1) * (h + 1) / (n * (x + 1) * (x + 1)) *
                     tol_frames[i][k];
        }
        static const char *const key[4] = { "mean", "min", "max",
                                            "harmonic_mean" };
        static const VqPool pool[4] = { VQ_POOL_MEAN, VQ_POOL_MIN,
                                        VQ_POOL_MAX, VQ_POOL_HARMONIC_MEAN };
        for (unsigned q = 0; q < 4; q++) {
            double v, tol = q == 3 ? tol_h : tol_max + OUT_ROUNDING;
            vq_collector_pool(c, name, pool[q], n, &v);
            CHECK_MSG(json_object_object_get_ex(p, key[q], &o) && o &&
                  fabs(v - json_object_get_double(o)) <= tol,
                  "%s: pooled %s %s = %.6f, libvmaf %.6f (tolerance %.2g)",
                  what, name, key[q], v, o ? json_object_get_double(o) : NAN,
                  tol);
        }
    }
}

static void run_log(const char *dir, const char *file, const GoldenModel *gm,
                    const char *models_dir, Summary *sum)
{
    char path[1024], what[1200];
    snprintf(path, sizeof(path), "%s/%s", dir, file);
    snprintf(what, sizeof(what), "%s [%s]", file, gm->spec);
    struct json_object *log = json_object_from_file(path), *frames;
    CHECK_MSG(log && json_object_object_get_ex(log, "frames", &frames),
          "cannot read %s", path);
    if (!log)
        return;
    VqErrBuf e;
    VqModel *m;
    int err = vq_model_open_ex(&m, gm->spec, models_dir, vq_test_fex_find, &e);
    CHECK_MSG(!err, "%s: %s", what, e.msg);
    const unsigned n = (unsigned)json_object_array_length(frames);
    const unsigned n_in = vq_model_input_count(m);
    const unsigned n_out = vq_model_output_count(m);
    double (*tol)[MAX_OUT] = calloc(n ? n : 1, sizeof(*tol));
    VqCollector c = { 0 };
    for (unsigned i = 0; !err && i < n && n_in <= MAX_IN && n_out <= MAX_OUT;
         i++) {
        double x[MAX_IN], xc[MAX_IN], out[MAX_OUT], oc[MAX_OUT];
        for (unsigned j = 0; j < n_in; j++) {
            const char *spec, *name;
            vq_model_input(m, j, &spec, &name);
            if (!frame_value(frames, i, name, &x[j])) {
                CHECK_MSG(0, "%s frame %u: the log has no %s (the name the "
                      "model's input gets here)", what, i, name);
                err = 1;
                break;
            }
        }
        if (err || predict(m, x, out)) {
            CHECK_MSG(0, "%s frame %u: prediction failed", what, i);
            break;
        }
        for (unsigned k = 0; k < n_out; k++)
            tol[i][k] = 0;
        for (unsigned corner = 0; corner < 1u << n_in; corner++) {
            for (unsigned j = 0; j < n_in; j++)
                xc[j] = x[j] + ((corner >> j & 1) ? IN_ROUNDING : -IN_ROUNDING);
            predict(m, xc, oc);
            for (unsigned k = 0; k < n_out; k++)
                tol[i][k] = fmax(tol[i][k], fabs(oc[k] - out[k]));
        }
        for (unsigned k = 0; k < n_out; k++) {
            const char *name = vq_model_output_name(m, k);
            double g;
            vq_collector_set(&c, vq_collector_series(&c, name, "cpu"), i,
                             out[k]);
            if (!frame_value(frames, i, name, &g)) {
                CHECK_MSG(0, "%s frame %u: the log has no %s", what, i, name);
                continue;
            }
            const double diff = fabs(out[k] - g), t = tol[i][k] + OUT_ROUNDING;
            CHECK_MSG(diff <= t, "%s frame %u %s: %.9f, libvmaf %.6f (difference "
                  "%.3g, tolerance %.3g)", what, i, name, out[k], g, diff, t);
            sum->values++;
            sum->max_err = fmax(sum->max_err, diff);
            sum->max_tol = fmax(sum->max_tol, t);
            sum->max_ratio = fmax(sum->max_ratio, diff / t);
            tol[i][k] = t - OUT_ROUNDING;
        }
    }
    if (!err && n)
        check_pooled(&c, m, log, n, tol, what);
    vq_collector_free(&c);
    free(tol);
    vq_model_close(&m);
    json_object_put(log);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s <golden json dir> <models dir>\n", argv[0]);
        return 2;
    }
    struct stat st;
    if (stat(argv[2], &st) || !S_ISDIR(st.st_mode)) {
        printf("no models at %s: the repository's models/ folder is needed\n",
               argv[2]);
        return 1;
    }
    if (stat(argv[1], &st) || !S_ISDIR(st.st_mode)) {
        printf("skip: no golden logs at %s\n", argv[1]);
        return VQ_TEST_SKIP;
    }
    unsigned n_logs = 0;
    for (size_t g = 0; g < sizeof(golden_models) / sizeof(golden_models[0]);
         g++) {
        Summary sum = { 0 };
        DIR *d = opendir(argv[1]);
        for (struct dirent *de; d && (de = readdir(d));) {
            if (!log_kind(de->d_name, golden_models[g].log_suffix))
                continue;
            run_log(argv[1], de->d_name, &golden_models[g], argv[2], &sum);
            n_logs++;
        }
        if (d)
            closedir(d);
        printf("%-50s %4u values, max |diff| %.2e, max tolerance %.2e, "
               "max diff/tolerance %.3f\n", golden_models[g].spec, sum.values,
               sum.max_err, sum.max_tol, sum.max_ratio);
    }
    if (!n_logs) {
        printf("skip: no golden logs in %s\n", argv[1]);
        return VQ_TEST_SKIP;
    }
    printf("%d failures\n", n_fail);
    return n_fail ? 1 : 0;
}
