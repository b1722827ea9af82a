/* The CLI's inputs: raw and Y4M here, other files through FFmpeg. */
#include <stdio.h>
#include <string.h>

#include "cli_input.h"
#ifdef VQHIP_HAVE_LIBAV
#include <libavutil/hwcontext.h>

#include "av_hwdec.h"
#include "av_input.h"
#endif

int cli_input_open(YuvInput *in, const char *path, VqPixFmt fmt, unsigned bpc,
                   unsigned w, unsigned h, char *err, size_t errsz)
{
#ifdef VQHIP_HAVE_LIBAV
    if (av_input_claims(path))
        return av_input_open(in, path, err, errsz);
#endif
    int r = yuv_open(in, path, fmt, bpc, w, h, err, errsz);
    if (r && in->f && in->f != stdin && !in->y4m && (!w || !h)) {
        /* not Y4M, no raw geometry: say what else it could have been */
#ifdef VQHIP_HAVE_LIBAV
        const char *why = "FFmpeg does not recognise it as a video file";
#else
        const char *why = "this vqhip is built without FFmpeg's libraries "
                          "(meson -Dlibav=enabled), which read MP4, MKV ...";
#endif
        snprintf(err, errsz, "'%s': not Y4M, and %s; as raw YUV it needs "
                 "--width and --height", path, why);
    }
    return r;
}

int cli_input_hwdec(const char *mode, char *err, size_t errsz)
{
#ifdef VQHIP_HAVE_LIBAV
    return av_hwdec_select(mode, err, errsz);
#else
    if (!strcmp(mode, "none"))
        return 0;
    snprintf(err, errsz, "--hwdec %s: this vqhip is built without FFmpeg's "
             "libraries (meson -Dlibav=enabled), so it decodes no video "
             "files", mode);
    return -1;
#endif
}

void cli_input_about(FILE *f)
{
#ifdef VQHIP_HAVE_LIBAV
    fprintf(f, "video files: MP4, MKV and the rest FFmpeg reads (%s); "
            "hardware decoding with --hwdec:", av_input_versions());
    enum AVHWDeviceType t = AV_HWDEVICE_TYPE_NONE;
    while ((t = av_hwdevice_iterate_types(t)) != AV_HWDEVICE_TYPE_NONE)
        fprintf(f, " %s", av_hwdevice_get_type_name(t));
    fprintf(f, "\n");
#else
    fprintf(f, "video files: raw YUV and Y4M only (built without FFmpeg's "
            "libraries: meson -Dlibav)\n");
#endif
}
