/*
 * Pictures inside the page: data URIs and a small PNG writer for the CAMBI
 * heatmaps (which need no FFmpeg).
 */
#ifndef VQHIP_REPORT_IMAGE_H
#define VQHIP_REPORT_IMAGE_H

#include <stddef.h>

/* "data:<mime>;base64,<data>", NUL-terminated; NULL when out of memory. */
char *report_data_uri(const char *mime, const unsigned char *data, size_t len);

/* An 8-bit palette PNG of w x h indices, with the report's heat palette
 * (index 0 black, 255 pale yellow). Returns a malloc'd file image, or NULL. */
unsigned char *report_png_heat(const unsigned char *pix, unsigned w, unsigned h,
                               size_t *len);

/* The heat palette's colour for index i, as "#rrggbb" (for the legend). */
void report_heat_colour(unsigned i, char out[8]);

/* CAMBI's scale-0 heatmaps of frames[0..n) from `dir` (heatmaps_path; the
 * file cambi_heatmap_scale_0_<w>x<h>_16b.gray), scaled down to at most
 * `width` pixels by the maximum of each block, one colour scale for all (its
 * top value in *top, as a fraction of the file's full scale). uris[i] stays
 * NULL for a frame past the file's end. Returns 0, or -1 with a message. */
int report_cambi_heatmaps(const char *dir, const unsigned *frames, size_t n,
                          unsigned width, char **uris, double *top,
                          char *err, size_t errlen);

#endif
