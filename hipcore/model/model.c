/*
 * Model specs and files: "version=vmaf_v0.6.1" (a folder's <version>.json,
 * a built-in model or an installed file: find_version) or "path=file.json",
 * plus name=, enable_transform, disable_clip and libvmaf's per-extractor
 * overloads "<extractor>.<option>=<value>".
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/c_locale.h"
#include "base/sha256.h"
#include "builtin_models.h"
#include "model_priv.h"

#define VQ_MODEL_MAX_OVERLOADS 16

typedef struct ModelSpec {
    char *buf;
    const char *version, *path, *name;
    unsigned flags;
    VqModelOverload ov[VQ_MODEL_MAX_OVERLOADS];
    unsigned n_ov;
} ModelSpec;

static int parse_flag(const char *key, const char *val, bool *out,
                      VqErrBuf *e)
{
    if (!val || !strcmp(val, "true") || !strcmp(val, "1")) {
        *out = true;
        return 0;
    }
    if (!strcmp(val, "false") || !strcmp(val, "0")) {
        *out = false;
        return 0;
    }
    return vq_fail(e, VQ_EINVAL, "model option %s: '%s' is not true or false",
                   key, val);
}

static int spec_entry(ModelSpec *s, char *key, char *val, bool first,
                      VqErrBuf *e)
{
    if (!val && first && strcmp(key, "enable_transform") &&
        strcmp(key, "disable_clip")) {
        s->version = key; /* a bare first word is the version */
        return 0;
    }
    if (!strcmp(key, "enable_transform") || !strcmp(key, "disable_clip")) {
        bool on = false;
        int err = parse_flag(key, val, &on, e);
        unsigned bit = key[0] == 'e' ? VQ_MODEL_ENABLE_TRANSFORM :
                                       VQ_MODEL_DISABLE_CLIP;
        s->flags = on ? s->flags | bit : s->flags & ~bit;
        return err;
    }
    if (!val || !*val)
        return vq_fail(e, VQ_EINVAL, "model option '%s' needs a value", key);
    const char **slot = !strcmp(key, "version") ? &s->version :
                        !strcmp(key, "path") ? &s->path :
                        !strcmp(key, "name") ? &s->name : NULL;
    if (slot) {
        if (*slot)
            return vq_fail(e, VQ_EINVAL, "model option '%s' given twice", key);
        *slot = val;
        return 0;
    }
    char *dot = strchr(key, '.');
    if (!dot || dot == key || !dot[1] || strchr(dot + 1, '.'))
        return vq_fail(e, VQ_EINVAL, "unknown model option '%s' (valid: "
                       "version, path, name, enable_transform, disable_clip, "
                       "<extractor>.<option>)", key);
    if (s->n_ov == VQ_MODEL_MAX_OVERLOADS)
        return vq_fail(e, VQ_EINVAL, "more than %d feature overloads",
                       VQ_MODEL_MAX_OVERLOADS);
    *dot = '\0';
    s->ov[s->n_ov++] = (VqModelOverload){ key, dot + 1, val };
    return 0;
}

static int spec_parse(ModelSpec *s, const char *text, VqErrBuf *e)
{
    memset(s, 0, sizeof(*s));
    s->buf = strdup(text ? text : "");
    if (!s->buf)
        return vq_fail(e, VQ_ENOMEM, "out of memory");
    bool first = true;
    char *save = NULL;
    for (char *tok = strtok_r(s->buf, ":", &save); tok;
         tok = strtok_r(NULL, ":", &save), first = false) {
        char *eq = strchr(tok, '=');
        if (eq)
            *eq = '\0';
        if (!*tok)
            return vq_fail(e, VQ_EINVAL, "model spec '%s': empty key", text);
        int err = spec_entry(s, tok, eq ? eq + 1 : NULL, first, e);
        if (err)
            return err;
    }
    return 0;
}

static void list_models(const char *dir, char *buf, size_t size)
{
    size_t len = 0;
    buf[0] = '\0';
    DIR *d = opendir(dir);
    for (struct dirent *de; d && (de = readdir(d));) {
        size_t n = strlen(de->d_name);
        if (n <= 5 || strcmp(de->d_name + n - 5, ".json") || len >= size)
            continue;
        int w = snprintf(buf + len, size - len, "%s%.*s", len ? ", " : "",
                         (int)(n - 5), de->d_name);
        if (w > 0)
            len += (size_t)w;
    }
    if (d)
        closedir(d);
    if (!len)
        snprintf(buf, size, "none");
}

static int read_file(const char *path, char **data, size_t *len, int missing,
                     VqErrBuf *e)
{
    *data = NULL;
    /* Opened without waiting (a named pipe would block the open until a
     * writer came), then refused unless it is a regular file. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return vq_fail(e, errno == ENOENT ? missing : VQ_EIO,
                       "cannot open model file %s: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
        close(fd);
        return vq_fail(e, VQ_EIO, "model file %s is not a regular file", path);
    }
    int fl = fcntl(fd, F_GETFL);
    FILE *f = fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) ? NULL :
              fdopen(fd, "rb");
    if (!f) {
        int er = errno;
        close(fd);
        return vq_fail(e, VQ_EIO, "cannot open model file %s: %s", path,
                       strerror(er));
    }
    int err = 0;
    if ((unsigned long long)st.st_size > VQ_MODEL_MAX_FILE_SIZE)
        err = vq_fail(e, VQ_EMODEL, "model file %s is larger than %u bytes",
                      path, VQ_MODEL_MAX_FILE_SIZE);
    else if (!(*data = malloc((size_t)st.st_size + 1)))
        err = vq_fail(e, VQ_ENOMEM, "out of memory");
    else if ((*len = fread(*data, 1, (size_t)st.st_size, f)) !=
             (size_t)st.st_size)
        err = vq_fail(e, VQ_EIO, "cannot read model file %s", path);
    fclose(f);
    if (err) {
        free(*data);
        *data = NULL;
    }
    return err;
}

/* <dir>/<version>.json into *data (malloc'd); VQ_ENOTFOUND when absent. */
static int read_version_file(const char *dir, const char *version,
                             char **data, size_t *len, VqErrBuf *e)
{
    size_t size = strlen(dir) + strlen(version) + 7;
    char *file = malloc(size);
    if (!file)
        return vq_fail(e, VQ_ENOMEM, "out of memory");
    snprintf(file, size, "%s/%s.json", dir, version);
    int err = read_file(file, data, len, VQ_ENOTFOUND, e);
    free(file);
    return err;
}

static void list_builtin(char *buf, size_t size)
{
    size_t len = 0;
    buf[0] = '\0';
    for (const VqBuiltinModel *b = vq_builtin_models; b->version && len < size;
         b++) {
        int w = snprintf(buf + len, size - len, "%s%s", len ? ", " : "",
                         b->version);
        if (w > 0)
            len += (size_t)w;
    }
    if (!len)
        snprintf(buf, size, "none (built with -Dbuiltin_models=false)");
}

/*
 * version=<name>: <model_dir>/<name>.json when model_dir is given (the
 * context passes VQHIP_MODEL_DIR), else or when it is not there the
 * built-in model of that name, else <install dir>/<name>.json. A built-in
 * model is returned in *text without a copy; a file in *data.
 */
static int find_version(const char *version, const char *model_dir,
                        char **data, const char **text, size_t *len,
                        VqErrBuf *e)
{
    int err = VQ_ENOTFOUND;
    if (model_dir && *model_dir) {
        err = read_version_file(model_dir, version, data, len, e);
        if (err != VQ_ENOTFOUND)
            return err;
    }
    for (const VqBuiltinModel *b = vq_builtin_models; b->version; b++) {
        if (!strcmp(b->version, version)) {
            *text = b->json;
            *len = b->size;
            return 0;
        }
    }
    err = read_version_file(VQHIP_MODEL_INSTALL_DIR, version, data, len, e);
    if (err != VQ_ENOTFOUND)
        return err;
    char given[1024] = "", builtin[1024], installed[1024];
    if (model_dir && *model_dir) {
        char there[768];
        list_models(model_dir, there, sizeof(there));
        snprintf(given, sizeof(given), "%s (models there: %s), ", model_dir,
                 there);
    }
    list_builtin(builtin, sizeof(builtin));
    list_models(VQHIP_MODEL_INSTALL_DIR, installed, sizeof(installed));
    return vq_fail(e, VQ_ENOTFOUND, "no model version '%s' in %sthe built-in "
                   "models (%s) or %s (models there: %s); path= reads any "
                   "file, VQHIP_MODEL_DIR names a folder to look in first",
                   version, given, builtin, VQHIP_MODEL_INSTALL_DIR,
                   installed);
}

/* Messages quote names and values from the file: keep them one printable
 * line whatever bytes the file holds. */
static int printable(int err, VqErrBuf *e)
{
    for (char *p = e && err ? e->msg : ""; *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7f)
            *p = '?';
    return err;
}

/* A model's name becomes a key in JSON, an attribute name in XML, a CSV
 * column and a subtitle field: only characters that need no escaping in
 * any of them (an XML name's subset), so no layout is broken or shifted. */
static int check_name(const char *name, VqErrBuf *e)
{
    size_t n = strlen(name);
    bool ok = n && n <= 64 && !(name[0] >= '0' && name[0] <= '9') &&
              name[0] != '-' && name[0] != '.';
    for (size_t i = 0; ok && i < n; i++) {
        unsigned char c = (unsigned char)name[i];
        ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
             (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.';
    }
    if (ok)
        return 0;
    char shown[80];
    size_t k = 0;
    for (size_t i = 0; name[i] && k + 5 < sizeof(shown); i++) {
        unsigned char c = (unsigned char)name[i];
        k += (size_t)snprintf(shown + k, sizeof(shown) - k,
                              c < 0x20 || c >= 0x7f ? "\\x%02x" : "%c", c);
    }
    return vq_fail(e, VQ_EINVAL, "model name '%s' is not valid: 1 to 64 "
                   "letters, digits, '_', '-' or '.', not starting with a "
                   "digit, '-' or '.' (it names columns and keys in the logs)",
                   shown);
}

static int build(VqModel **pm, const char *data, size_t len,
                 const ModelSpec *s, const char *spec, const char *origin,
                 const char *label, VqFexLookup find, VqErrBuf *e)
{
    if (s->name) {
        int err = check_name(s->name, e);
        if (err)
            return err;
    }
    VqModel *m = *pm = calloc(1, sizeof(*m));
    if (!m)
        return vq_fail(e, VQ_ENOMEM, "out of memory");
    m->label = strdup(label);
    m->name = strdup(s->name ? s->name : "vmaf");
    m->spec = strdup(spec ? spec : "");
    m->version = s->version ? strdup(s->version) : NULL;
    m->origin = origin;
    m->flags = s->flags;
    if (!m->label || !m->name || !m->spec || (s->version && !m->version))
        return vq_fail(e, VQ_ENOMEM, "out of memory");
    vq_sha256_hex(data, len, m->sha256);
    CLocale loc;
    c_locale_enter(&loc);
    int err = vq_model_parse_json(m, data, len, e);
    if (err == VQ_EMODEL) {
        char why[VQ_ERR_MSG_SIZE];
        snprintf(why, sizeof(why), "%s", e ? e->msg : "");
        vq_fail(e, err, "model %s: %s", label, why);
    }
    if (!err)
        err = vq_model_resolve(m, find, s->ov, s->n_ov, e);
    c_locale_leave(&loc);
    return err ? err : vq_model_setup_outputs(m, e);
}

int vq_model_open_ex(VqModel **pm, const char *spec, const char *model_dir,
                     VqFexLookup find, VqErrBuf *e)
{
    if (!pm)
        return vq_fail(e, VQ_EINVAL, "vq_model_open: no model pointer");
    *pm = NULL;
    ModelSpec s;
    int err = spec_parse(&s, spec, e);
    if (!err && !s.version == !s.path)
        err = vq_fail(e, VQ_EINVAL, "model spec '%s' needs one of version= "
                      "or path=", spec ? spec : "");
    if (!err && s.version && (strchr(s.version, '/') || s.version[0] == '.'))
        err = vq_fail(e, VQ_EINVAL, "model version '%s' is a name, not a "
                      "path (use path=)", s.version);
    char *data = NULL;
    const char *text = NULL;
    size_t len = 0;
    if (!err && s.version)
        err = find_version(s.version, model_dir, &data, &text, &len, e);
    else if (!err)
        err = read_file(s.path, &data, &len, VQ_ENOTFOUND, e);
    if (data)
        text = data;
    if (!err)
        err = build(pm, text, len, &s, spec, data ? "file" : "built-in",
                    s.version ? s.version : s.path, find, e);
    if (err)
        vq_model_close(pm);
    free(data);
    free(s.buf);
    return printable(err, e);
}

int vq_model_open(VqModel **m, const char *spec, const char *model_dir,
                  VqErrBuf *e)
{
    return vq_model_open_ex(m, spec, model_dir, vq_fex_find, e);
}

int vq_model_load_buffer(VqModel **pm, const char *data, size_t len,
                         const char *spec, VqFexLookup find, VqErrBuf *e)
{
    if (!pm || (!data && len))
        return vq_fail(e, VQ_EINVAL, "vq_model_load_buffer: bad arguments");
    *pm = NULL;
    ModelSpec s;
    int err = spec && *spec ? spec_parse(&s, spec, e) : 0;
    if (!spec || !*spec)
        memset(&s, 0, sizeof(s));
    if (!err && (s.version || s.path))
        err = vq_fail(e, VQ_EINVAL, "vq_model_load_buffer: no version= or "
                      "path= here");
    if (!err)
        err = build(pm, data ? data : "", len, &s, spec, "buffer",
                    "(buffer)", find, e);
    if (err)
        vq_model_close(pm);
    free(s.buf);
    return printable(err, e);
}

void vq_model_close(VqModel **pm)
{
    VqModel *m = pm ? *pm : NULL;
    if (!m)
        return;
    for (unsigned i = 0; m->svr && i < m->n_svr; i++)
        vq_model_free_svr(&m->svr[i]);
    free(m->svr);
    for (unsigned i = 0; i < m->n_input; i++) {
        free(m->input[i].libvmaf_name);
        free(m->input[i].fex_spec);
        free(m->input[i].output);
    }
    free(m->input);
    for (unsigned k = 0; m->out_name && k < m->n_out; k++)
        free(m->out_name[k]);
    free(m->out_name);
    free(m->out_series);
    free(m->scratch);
    free(m->label);
    free(m->spec);
    free(m->version);
    free(m->name);
    free(m);
    *pm = NULL;
}

const char *vq_model_name(const VqModel *m)
{
    return m ? m->name : "";
}

void vq_model_origin(const VqModel *m, VqModelOrigin *o)
{
    *o = (VqModelOrigin){ m->spec, m->version, m->origin, m->sha256 };
}

unsigned vq_model_input_count(const VqModel *m)
{
    return m ? m->n_input : 0;
}

int vq_model_input(const VqModel *m, unsigned i, const char **fex_spec,
                   const char **output)
{
    if (!m || i >= m->n_input) {
        *fex_spec = *output = "";
        return VQ_EINVAL;
    }
    *fex_spec = m->input[i].fex_spec;
    *output = m->input[i].output;
    return 0;
}

unsigned vq_model_output_count(const VqModel *m)
{
    return m ? m->n_out : 0;
}

const char *vq_model_output_name(const VqModel *m, unsigned k)
{
    return m && k < m->n_out ? m->out_name[k] : NULL;
}
