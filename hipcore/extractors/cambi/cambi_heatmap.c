/*
 * heatmaps_path: libvmaf's per-scale c-value maps of the distorted picture,
 * written the same way: one file per scale,
 * <path>/cambi_heatmap_scale_<k>_<w>x<h>_16b.gray (the name's size halves
 * from the encode size per scale), frame after frame of native-endian
 * 16-bit samples, (uint16)(c * 65535 / (max weight * window^2 / 4)). The
 * directory is created like mkdir -p.
 */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "cambi_priv.h"

static int mkdir_p(const char *path)
{
    char buf[1024];
    size_t len = strlen(path);
    if (len >= sizeof(buf))
        return -1;
    memcpy(buf, path, len + 1);
    for (size_t i = 1; i <= len; i++) {
        if (buf[i] != '/' && buf[i] != '\0')
            continue;
        char c = buf[i];
        buf[i] = '\0';
        if (mkdir(buf, 0770) && errno != EEXIST)
            return -1;
        buf[i] = c;
    }
    struct stat st;
    return stat(path, &st) || !S_ISDIR(st.st_mode) ? -1 : 0;
}

int cambi_heatmaps_open(VqFex *fex)
{
    CambiPriv *s = fex->priv;
    if (mkdir_p(s->heatmaps_path))
        return vq_fail(fex->err, VQ_EIO, "cambi: cannot create the heatmaps "
                       "directory %s: %s", s->heatmaps_path, strerror(errno));
    unsigned w = s->img[0].w, h = s->img[0].h;
    for (unsigned k = 0; k < VQ_CAMBI_SCALES; k++) {
        char path[1200];
        snprintf(path, sizeof(path), "%s/cambi_heatmap_scale_%u_%ux%u_16b.gray",
                 s->heatmaps_path, k, w, h);
        s->heat[k] = fopen(path, "wb");
        if (!s->heat[k])
            return vq_fail(fex->err, VQ_EIO, "cambi: cannot open heatmap %s: "
                           "%s", path, strerror(errno));
        w = (w + 1) >> 1;
        h = (h + 1) >> 1;
    }
    return 0;
}

void cambi_heatmaps_close(CambiPriv *s)
{
    for (unsigned k = 0; k < VQ_CAMBI_SCALES; k++) {
        if (s->heat[k])
            fclose(s->heat[k]);
        s->heat[k] = NULL;
    }
}

void cambi_heatmap_row(const CambiPriv *s, const float *c, unsigned n,
                       uint16_t *out)
{
    for (unsigned i = 0; i < n; i++)
        out[i] = vq_cambi_heat(s->heat_scale, c[i]);
}

/* Frame `index` goes at its place in each file (frames skipped by
 * n_subsample leave their place empty, as libvmaf's seeks do). */
int cambi_heatmaps_write(VqFex *fex, const void *acc, unsigned index)
{
    CambiPriv *s = fex->priv;
    const uint8_t *p = (const uint8_t *)acc + sizeof(VqCambiAcc);
    for (unsigned k = 0; k < VQ_CAMBI_SCALES; k++) {
        off_t at = (off_t)index * (off_t)s->heat_size[k];
        if (fseeko(s->heat[k], at, SEEK_SET) ||
            fwrite(p, 1, s->heat_size[k], s->heat[k]) != s->heat_size[k] ||
            fflush(s->heat[k]))
            return vq_fail(fex->err, VQ_EIO, "cambi: cannot write heatmap "
                           "scale %u of frame %u: %s", k, index,
                           strerror(errno));
        p += s->heat_size[k];
    }
    return 0;
}
