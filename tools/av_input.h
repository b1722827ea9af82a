/*
 * Video files FFmpeg's libavformat and libavcodec read (MP4, MKV, ...): the
 * first video stream decoded, in presentation order, behind YuvInput
 * (yuv_input.h: yuv_read_into, cat_count_frames, cat_skip_frames and
 * yuv_close go to it). Built only with FFmpeg's libraries (meson -Dlibav).
 */
#ifndef VQHIP_TOOLS_AV_INPUT_H
#define VQHIP_TOOLS_AV_INPUT_H

#include <stddef.h>

#include "yuv_input.h"

/* Whether path is read through FFmpeg: a regular file, not named .yuv or
 * .y4m, not starting with the Y4M magic, that libavformat recognises or
 * that is named as a container (.mp4, .mkv, ...). Pipes and standard input
 * stay raw or Y4M. */
int av_input_claims(const char *path);
/* Opens path's first video stream (not a cover picture): 0, or -1 and a
 * message (no video stream, a pixel format vqhip does not read, ...). */
int av_input_open(YuvInput *in, const char *path, char *err, size_t errsz);
/* cat_skip_frames with a choice: from the start of an input just opened
 * and counted, make frame k the next one read; fast 0 decodes from the
 * start and drops k frames (always exact), fast 1 seeks to a keyframe
 * where the packet index shows it is safe (falling back to decoding from
 * the start where not). *used_fast (may be NULL): whether it seeked. */
int av_input_skip(YuvInput *in, unsigned k, int fast, int *used_fast,
                  char *err, size_t errsz);
/* Back to the first frame from wherever the input is (frames read,
 * frames skipped): the demuxer and decoder are opened again, so the next
 * frame read is frame 0 exactly as a fresh open gives it (the count, when
 * taken, is kept). 0, or -1 and a message. */
int av_input_rewind(YuvInput *in, char *err, size_t errsz);
/* FFmpeg's library versions, e.g. "libavformat 59.27.100, libavcodec
 * 59.37.100". */
const char *av_input_versions(void);

#endif
