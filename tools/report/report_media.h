/*
 * The video side of the report, through FFmpeg's libraries when the build
 * has them (report_media_ffmpeg.c), or refusals (report_media_none.c).
 */
#ifndef VQHIP_REPORT_MEDIA_H
#define VQHIP_REPORT_MEDIA_H

#include <stddef.h>

/* Nonzero when this build reads video files. */
int report_media_available(void);

/* What the container says about its first video stream: the video bitrate
 * in kbps (the stream's, else the file's size over its duration; NAN if
 * unknown) and the frame rate (NAN if unknown). Returns 0, or -1 with a
 * message. */
int report_media_probe(const char *path, double *kbps, double *fps,
                       char *err, size_t errlen);

/* Decodes `path` from its start, counting decoded frames in presentation
 * order (timestamps are not trusted), and for each frame index in
 * frames[0..n) (ascending, distinct) makes a JPEG data URI ("data:image/
 * jpeg;base64,...") scaled to `width` pixels wide; uris[i] stays NULL when
 * the file has fewer frames. Returns 0, or -1 with a message. */
int report_media_thumbnails(const char *path, const unsigned *frames, size_t n,
                            unsigned width, char **uris, char *err,
                            size_t errlen);

#endif
