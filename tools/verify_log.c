/* vqhip --verify-log (verify_log.h). Both logs are written by the same
 * writer at the same precision, so equal values print the same text and
 * parse to the same double: comparing the doubles compares the text. */
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_args.h"
#include "verify_log.h"

static json_object *load(const char *path)
{
    json_object *j = json_object_from_file(path);
    if (!j)
        fprintf(stderr, "vqhip: --verify-log: cannot read '%s' as a JSON log "
                "(%s)\n", path, json_util_get_last_err());
    return j;
}

static json_object *get(json_object *o, const char *key)
{
    json_object *v = NULL;
    return o && json_object_object_get_ex(o, key, &v) ? v : NULL;
}

static int add_specs(json_object *arr, char **out, unsigned *n)
{
    for (size_t i = 0; arr && i < json_object_array_length(arr); i++) {
        const char *s = json_object_get_string(get(json_object_array_get_idx(arr, i),
                                                   "spec"));
        if (!s || *n == VERIFY_MAX_SPECS || !(out[*n] = strdup(s)))
            return -1;
        (*n)++;
    }
    return 0;
}

int verify_plan(VerifyPlan *p, const char *log)
{
    memset(p, 0, sizeof(*p));
    p->log = log;
    json_object *j = load(log);
    if (!j)
        return CLI_EXIT_INPUT;
    json_object *v = get(j, "vqhip"), *cfg = get(v, "config");
    json_object *frames = get(j, "frames");
    int st = 0;
    if (!v || !cfg || !get(v, "models") || !get(v, "extractors") || !frames) {
        fprintf(stderr, "vqhip: --verify-log: '%s' has no vqhip provenance "
                "(a JSON log of vqhip 0.1.0 with models and extractors)\n", log);
        st = CLI_EXIT_INPUT;
    } else if (add_specs(get(v, "models"), p->model, &p->n_model) ||
               add_specs(get(v, "extractors"), p->feature, &p->n_feature)) {
        fprintf(stderr, "vqhip: --verify-log: the log's specs cannot be read\n");
        st = CLI_EXIT_INPUT;
    }
    p->subsample = (unsigned)json_object_get_int(get(cfg, "subsample"));
    p->precision = (unsigned)json_object_get_int(get(v, "precision"));
    const char *b = json_object_get_string(get(cfg, "backend"));
    p->backend = b && !strcmp(b, "hip") ? VQ_BACKEND_HIP :
                 b && !strcmp(b, "cpu") ? VQ_BACKEND_CPU : VQ_BACKEND_AUTO;
    /* every frame up to the last logged one (temporal features read the
     * frames before) */
    for (size_t i = 0; frames && i < json_object_array_length(frames); i++) {
        int n = json_object_get_int(get(json_object_array_get_idx(frames, i),
                                        "frameNum"));
        if (n >= 0 && (unsigned)n + 1 > p->frames)
            p->frames = (unsigned)n + 1;
    }
    if (!st && !p->frames) {
        fprintf(stderr, "vqhip: --verify-log: '%s' logs no frame\n", log);
        st = CLI_EXIT_INPUT;
    }
    json_object_put(j);
    if (!st) {
        const char *dir = getenv("TMPDIR");
        snprintf(p->rerun, sizeof(p->rerun), "%s/vqhip-verify-XXXXXX",
                 dir && *dir && strlen(dir) < 40 ? dir : "/tmp");
        int fd = mkstemp(p->rerun);
        if (fd < 0) {
            perror("vqhip: --verify-log: a temporary file");
            p->rerun[0] = '\0';
            st = CLI_EXIT_ERROR;
        } else {
            close(fd);
        }
    }
    return st;
}

/* One value: equal doubles, or both null (non-finite). */
static int same(json_object *a, json_object *b)
{
    if (!a || !b)
        return a == b;
    if (json_object_is_type(a, json_type_null) || json_object_is_type(b, json_type_null))
        return json_object_is_type(a, json_type_null) &&
               json_object_is_type(b, json_type_null);
    return json_object_get_double(a) == json_object_get_double(b);
}

static void report(unsigned *bad, const char *where, const char *name,
                   json_object *want, json_object *got)
{
    if ((*bad)++ < 10)
        printf("verify-log: %s %s: the log has %s, the re-run %s\n", where, name,
               want ? json_object_to_json_string(want) : "nothing",
               got ? json_object_to_json_string(got) : "nothing");
}

int verify_compare(const VerifyPlan *p)
{
    json_object *a = load(p->log), *b = a ? load(p->rerun) : NULL;
    if (!a || !b) {
        json_object_put(a);
        return CLI_EXIT_ERROR;
    }
    json_object *fa = get(a, "frames"), *fb = get(b, "frames");
    unsigned bad = 0, n_val = 0, n_frames = 0;
    size_t k = 0, nb = fb ? json_object_array_length(fb) : 0;
    for (size_t i = 0; i < json_object_array_length(fa); i++) {
        json_object *f = json_object_array_get_idx(fa, i);
        int num = json_object_get_int(get(f, "frameNum"));
        while (k < nb && json_object_get_int(get(json_object_array_get_idx(fb, k),
                                                  "frameNum")) < num)
            k++;
        json_object *g = k < nb ? json_object_array_get_idx(fb, k) : NULL;
        char where[32];
        snprintf(where, sizeof(where), "frame %d", num);
        if (!g || json_object_get_int(get(g, "frameNum")) != num) {
            report(&bad, where, "(every value)", f, NULL);
            continue;
        }
        n_frames++;
        json_object_object_foreach(get(f, "metrics"), name, val) {
            n_val++;
            json_object *other = get(get(g, "metrics"), name);
            if (!same(val, other))
                report(&bad, where, name, val, other);
        }
    }
    json_object_object_foreach(get(a, "pooled_metrics"), name, pools) {
        json_object_object_foreach(pools, pool, val) {
            char where[96];
            snprintf(where, sizeof(where), "pooled %s", pool);
            n_val++;
            json_object *other = get(get(get(b, "pooled_metrics"), name), pool);
            if (!same(val, other))
                report(&bad, where, name, val, other);
        }
    }
    if (p->precision)
        printf("verify-log: %u values of %u frames compared at %u significant "
               "digits: ", n_val, n_frames, p->precision);
    else
        printf("verify-log: %u values of %u frames compared at libvmaf's "
               "precision (%%.6f): ", n_val, n_frames);
    printf(bad ? "%u differ\n" : "all match\n", bad);
    json_object_put(a);
    json_object_put(b);
    return bad ? CLI_EXIT_MISMATCH : 0;
}

void verify_free(VerifyPlan *p)
{
    if (p->rerun[0])
        remove(p->rerun);
    for (unsigned i = 0; i < p->n_model; i++)
        free(p->model[i]);
    for (unsigned i = 0; i < p->n_feature; i++)
        free(p->feature[i]);
}
