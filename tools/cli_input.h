/* Opening an input of the CLI: raw YUV, Y4M, or (built with FFmpeg's
 * libraries) any video file libavformat reads (docs/CLI.md). */
#ifndef VQHIP_TOOLS_CLI_INPUT_H
#define VQHIP_TOOLS_CLI_INPUT_H

#include <stdio.h>

#include "yuv_input.h"

/* As yuv_open, or through FFmpeg when av_input_claims(path) (then fmt,
 * bpc, w and h are the stream's, the given ones ignored). */
int cli_input_open(YuvInput *in, const char *path, VqPixFmt fmt, unsigned bpc,
                   unsigned w, unsigned h, char *err, size_t errsz);
/* --hwdec for every video file opened after it: none, auto or one of
 * FFmpeg's hardware types (tools/av_hwdec.h). 0, or -1 and a message. */
int cli_input_hwdec(const char *mode, char *err, size_t errsz);
/* One line: whether video files are read through FFmpeg, its versions. */
void cli_input_about(FILE *f);

#endif
