/*
 * CAMBI's heatmaps (hipcore/extractors/cambi/cambi_heatmap.c writes them as
 * libvmaf does): per scale one file of native-endian 16-bit samples, frame
 * after frame at index * w * h * 2. Only scale 0, at the encode size, is
 * shown: the other scales are the same picture coarser.
 */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "report_image.h"

static int find_scale0(const char *dir, char *path, size_t pathlen,
                       unsigned *w, unsigned *h, char *err, size_t errlen)
{
    DIR *d = opendir(dir);
    if (!d) {
        snprintf(err, errlen, "%s: cannot open the CAMBI heatmaps directory: "
                 "%s", dir, strerror(errno));
        return -1;
    }
    int found = 0;
    for (struct dirent *e; !found && (e = readdir(d));) {
        int used = -1;
        if (sscanf(e->d_name, "cambi_heatmap_scale_0_%ux%u_16b.gray%n", w, h,
                   &used) == 2 && used == (int)strlen(e->d_name) && *w && *h) {
            snprintf(path, pathlen, "%s/%s", dir, e->d_name);
            found = 1;
        }
    }
    closedir(d);
    if (!found)
        snprintf(err, errlen, "%s: no cambi_heatmap_scale_0_<w>x<h>_16b.gray "
                 "(written by cambi's heatmaps_path option)", dir);
    return found ? 0 : -1;
}

/* Reads frame `index` and keeps the maximum of each s x s block. */
static int read_pooled(FILE *f, unsigned index, unsigned w, unsigned h,
                       unsigned s, uint16_t *row, uint16_t *out)
{
    unsigned ow = (w + s - 1) / s;
    size_t frame_bytes = (size_t)w * h * 2;
    if (fseeko(f, (off_t)index * (off_t)frame_bytes, SEEK_SET))
        return -1;
    memset(out, 0, (size_t)ow * ((h + s - 1) / s) * sizeof(*out));
    for (unsigned y = 0; y < h; y++) {
        if (fread(row, 2, w, f) != w)
            return -1;
        uint16_t *o = out + (size_t)(y / s) * ow;
        for (unsigned x = 0; x < w; x++)
            if (row[x] > o[x / s])
                o[x / s] = row[x];
    }
    return 0;
}

int report_cambi_heatmaps(const char *dir, const unsigned *frames, size_t n,
                          unsigned width, char **uris, double *top,
                          char *err, size_t errlen)
{
    char path[4096];
    unsigned w, h;
    *top = 0;
    if (find_scale0(dir, path, sizeof(path), &w, &h, err, errlen))
        return -1;
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    unsigned s = width && w > width ? (w + width - 1) / width : 1;
    unsigned ow = (w + s - 1) / s, oh = (h + s - 1) / s;
    size_t plane = (size_t)ow * oh;
    uint16_t *row = malloc((size_t)w * sizeof(*row));
    uint16_t *maps = malloc((n ? n : 1) * plane * sizeof(*maps));
    unsigned char *ok = calloc(n ? n : 1, 1), *pix = malloc(plane);
    int rc = -1;
    if (!row || !maps || !ok || !pix) {
        snprintf(err, errlen, "out of memory");
        goto out;
    }
    unsigned peak = 0;
    for (size_t i = 0; i < n; i++) {
        uint16_t *m = maps + i * plane;
        ok[i] = !read_pooled(f, frames[i], w, h, s, row, m);
        for (size_t k = 0; ok[i] && k < plane; k++)
            peak = m[k] > peak ? m[k] : peak;
    }
    for (size_t i = 0; i < n; i++) {
        if (!ok[i])
            continue;
        const uint16_t *m = maps + i * plane;
        for (size_t k = 0; k < plane; k++)
            pix[k] = peak ? (unsigned char)((m[k] * 255u + peak / 2) / peak) : 0;
        size_t len;
        unsigned char *png = report_png_heat(pix, ow, oh, &len);
        uris[i] = png ? report_data_uri("image/png", png, len) : NULL;
        free(png);
        if (!uris[i]) {
            snprintf(err, errlen, "out of memory");
            goto out;
        }
    }
    *top = peak / 65535.0;
    rc = 0;
out:
    fclose(f);
    free(row);
    free(maps);
    free(ok);
    free(pix);
    return rc;
}
