/* A build without FFmpeg's libraries: video inputs are refused. */
#include <stdio.h>

#include "report_media.h"

int report_media_available(void)
{
    return 0;
}

int report_media_probe(const char *path, double *kbps, double *fps,
                       char *err, size_t errlen)
{
    (void)kbps;
    (void)fps;
    snprintf(err, errlen, "%s: this vqhip_report was built without FFmpeg's "
             "libraries (libavformat, libavcodec, libswscale, libavutil)",
             path);
    return -1;
}

int report_media_thumbnails(const char *path, const unsigned *frames, size_t n,
                            unsigned width, char **uris, char *err,
                            size_t errlen)
{
    (void)frames;
    (void)n;
    (void)width;
    (void)uris;
    return report_media_probe(path, NULL, NULL, err, errlen);
}
