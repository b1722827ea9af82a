#include <stddef.h>
#include <string.h>

#include "model_stub_fex.h"

typedef struct StubPriv {
    double d[8];
    int i[4];
    bool b[2];
} StubPriv;

#define D(n) offsetof(StubPriv, d) + (n) * sizeof(double)
#define I(n) offsetof(StubPriv, i) + (n) * sizeof(int)
#define PARAM VQ_OPT_FEATURE_PARAM

/* Option names, aliases, defaults and ranges from libvmaf's integer_adm.c,
 * integer_vif.c, integer_motion.c, float_adm.c, float_vif.c, float_motion.c,
 * cambi.c and speed.c (commit f85a8536). */
static const VqOption adm_opts[] = {
    { .name = "adm_enhn_gain_limit", .alias = "egl", .offset = D(0),
      .type = VQ_OPT_DOUBLE, .def.d = 100.0, .min = 1.0, .max = 100.0,
      .flags = PARAM },
    { .name = "adm_dlm_weight", .alias = "dlmw", .offset = D(1),
      .type = VQ_OPT_DOUBLE, .def.d = 0.5, .min = 0.0, .max = 1.0,
      .flags = PARAM },
    { .name = "adm_norm_view_dist", .alias = "nvd", .offset = D(2),
      .type = VQ_OPT_DOUBLE, .def.d = 3.0, .min = 0.75, .max = 24.0,
      .flags = PARAM },
    { .name = "adm_noise_weight", .alias = "nw", .offset = D(3),
      .type = VQ_OPT_DOUBLE, .def.d = 0.03125, .min = 0.0, .max = 1500.0,
      .flags = PARAM },
    { .name = "adm_min_val", .alias = "min", .offset = D(4),
      .type = VQ_OPT_DOUBLE, .def.d = 0.0, .min = 0.0, .max = 1.0,
      .flags = PARAM },
    { .name = "adm_ref_display_height", .alias = "rdh", .offset = I(0),
      .type = VQ_OPT_INT, .def.i = 1080, .min = 1, .max = 4320,
      .flags = PARAM },
    { .name = "adm_csf_mode", .alias = "csf", .offset = I(1),
      .type = VQ_OPT_INT, .def.i = 0, .min = 0, .max = 3, .flags = PARAM },
    { .name = "debug", .offset = offsetof(StubPriv, b), .type = VQ_OPT_BOOL },
    { 0 }
};
static const VqOption vif_opts[] = {
    { .name = "vif_enhn_gain_limit", .alias = "egl", .offset = D(0),
      .type = VQ_OPT_DOUBLE, .def.d = 100.0, .min = 1.0, .max = 100.0,
      .flags = PARAM },
    { 0 }
};
static const VqOption motion_opts[] = {
    { .name = "motion_max_val", .alias = "mmxv", .offset = D(0),
      .type = VQ_OPT_DOUBLE, .def.d = 10000.0, .min = 0.0, .max = 10000.0,
      .flags = PARAM },
    { 0 }
};
static const VqOption cambi_opts[] = {
    { .name = "cambi_max_val", .alias = "cmxv", .offset = D(0),
      .type = VQ_OPT_DOUBLE, .def.d = 1000.0, .min = 0.0, .max = 1000.0,
      .flags = PARAM },
    { .name = "cambi_vis_lum_threshold", .alias = "vlt", .offset = D(1),
      .type = VQ_OPT_DOUBLE, .def.d = 0.0, .min = 0.0, .max = 300.0,
      .flags = PARAM },
    { .name = "cambi_high_res_speedup", .alias = "hrs", .offset = I(0),
      .type = VQ_OPT_INT, .def.i = 0, .min = 0, .max = 2160,
      .flags = PARAM },
    { 0 }
};
static const VqOption speed_opts[] = {
    { .name = "speed_kernelscale", .alias = "ks", .offset = D(0),
      .type = VQ_OPT_DOUBLE, .def.d = 1.0, .min = 0.1, .max = 4.0,
      .flags = PARAM },
    { .name = "speed_sigma_nn", .alias = "snn", .offset = D(1),
      .type = VQ_OPT_DOUBLE, .def.d = 0.29, .min = 0.1, .max = 2.0,
      .flags = PARAM },
    { .name = "speed_nn_floor", .alias = "nnf", .offset = D(2),
      .type = VQ_OPT_DOUBLE, .def.d = 0.0, .min = 0.0, .max = 1.0,
      .flags = PARAM },
    { .name = "speed_max_val", .alias = "mxv", .offset = D(3),
      .type = VQ_OPT_DOUBLE, .def.d = 1000.0, .min = 0.0, .max = 1000.0,
      .flags = PARAM },
    { .name = "speed_weight_var_mode", .alias = "wvm", .offset = I(0),
      .type = VQ_OPT_INT, .def.i = 0, .min = 0, .max = 6, .flags = PARAM },
    { 0 }
};

static const char *const adm_out[] = {
    "integer_adm2", "integer_aim", "integer_adm3", "integer_adm_scale0",
    "integer_adm_scale1", "integer_adm_scale2", "integer_adm_scale3", NULL
};
static const char *const vif_out[] = {
    "integer_vif_scale0", "integer_vif_scale1", "integer_vif_scale2",
    "integer_vif_scale3", NULL
};
static const char *const motion_out[] = {
    "integer_motion2", "integer_motion3", NULL
};
static const char *const float_adm_out[] = {
    "adm2", "aim", "adm3", "adm_scale0", "adm_scale1", "adm_scale2",
    "adm_scale3", NULL
};
static const char *const float_vif_out[] = {
    "vif_scale0", "vif_scale1", "vif_scale2", "vif_scale3", NULL
};
static const char *const float_motion_out[] = {
    "motion", "motion2", "motion3", NULL
};
static const char *const cambi_out[] = { "cambi", NULL };
static const char *const speed_out[] = {
    "speed_chroma_u", "speed_chroma_v", "speed_chroma_uv", NULL
};

#define STUB(n, o, out) { .name = n, .options = o, \
                          .priv_size = sizeof(StubPriv), .outputs = out }
static const VqFexDesc stubs[] = {
    STUB("adm", adm_opts, adm_out),
    STUB("vif", vif_opts, vif_out),
    STUB("motion", motion_opts, motion_out),
    STUB("float_adm", adm_opts, float_adm_out),
    STUB("float_vif", vif_opts, float_vif_out),
    STUB("float_motion", motion_opts, float_motion_out),
    STUB("cambi", cambi_opts, cambi_out),
    STUB("speed_chroma", speed_opts, speed_out),
};

const VqFexDesc *vq_test_stub_find(const char *name)
{
    for (size_t i = 0; i < sizeof(stubs) / sizeof(stubs[0]); i++)
        if (!strcmp(stubs[i].name, name))
            return &stubs[i];
    return NULL;
}

const VqFexDesc *vq_test_fex_find(const char *name)
{
    const VqFexDesc *d = vq_fex_find(name);
    return d ? d : vq_test_stub_find(name);
}
