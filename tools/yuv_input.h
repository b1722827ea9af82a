/* Reading raw planar YUV (FFmpeg's layout) and Y4M files into VqPictures. */
#ifndef VQHIP_TOOLS_YUV_INPUT_H
#define VQHIP_TOOLS_YUV_INPUT_H

#include <stdio.h>

#include "vqhip.h"

struct YuvInput;

/* A reader of another kind of input (tools/av_input.c: FFmpeg's), behind
 * the same calls: yuv_read_into, cat_count_frames, cat_skip_frames,
 * yuv_close go to it. */
typedef struct YuvSource {
    int (*read_into)(struct YuvInput *in, unsigned char *buf, VqPicture *pic,
                     char *err, size_t errsz);
    /* the frames from the start, the position kept (at the start) */
    int (*count)(struct YuvInput *in, unsigned *n, char *err, size_t errsz);
    /* from the start: the next frame read is frame k */
    int (*skip)(struct YuvInput *in, unsigned k, char *err, size_t errsz);
    void (*close)(struct YuvInput *in);
} YuvSource;

typedef struct YuvInput {
    FILE *f;                /* NULL for a src input */
    const YuvSource *src;   /* NULL: raw or Y4M, read here */
    void *priv;             /* src's */
    int y4m;
    VqPixFmt fmt;
    unsigned bpc, w, h;
    int range;              /* Y4M XCOLORRANGE: 0 unknown, 1 limited, 2 full */
    VqChromaLoc chroma_loc; /* Y4M C420jpeg/C420/C420mpeg2/C420paldv, as
                               FFmpeg's Y4M reader takes them */
    unsigned fps_num, fps_den; /* Y4M F: frames a second num/den (0: unknown) */
    size_t plane_size[3];   /* bytes of each stored plane */
    unsigned plane_w[3], plane_h[3];
    unsigned char *buf;     /* one frame */
    size_t frame_size;
    unsigned char *map;     /* the whole file, after yuv_map */
    size_t map_size;
    size_t map_first;       /* offset of frame 0 in the map: where the
                               file stood at yuv_map (--offset) */
    /* Planes (bit p: plane p) whose samples yuv_read_into may leave unread
     * (the consumer never looks at them): in a regular file they are
     * skipped with a seek; a pipe reads them all. */
    unsigned skip;
    /* Bytes read from a pipe while looking for the Y4M magic: the start of
     * the first raw frame. */
    unsigned char prefix[10];
    size_t n_prefix;
} YuvInput;

#define Y4M_MAGIC_LEN 10

/* Largest side accepted (as libvqhip). */
#define YUV_MAX_SIDE 16384

/* Opens path; for raw files fmt/bpc/w/h describe the layout, for .y4m files
 * (or a "YUV4MPEG2 " header) they come from the header and the given values
 * are ignored. Returns 0 or a message in err. */
int yuv_open(YuvInput *in, const char *path, VqPixFmt fmt, unsigned bpc,
             unsigned w, unsigned h, char *err, size_t errsz);
/* As yuv_open on an open stream (owned: yuv_close closes it unless it is
 * stdin); path names it in messages and by its .y4m extension. */
int yuv_open_stream(YuvInput *in, FILE *f, const char *path, VqPixFmt fmt,
                    unsigned bpc, unsigned w, unsigned h, char *err,
                    size_t errsz);
/* The plane sizes, frame_size and buf of in->fmt, bpc, w, h (set by
 * yuv_open_stream; for src readers). */
int yuv_set_geometry(YuvInput *in, const char *path, char *err, size_t errsz);
/* 1: a frame was read into pic; 0: end of file; -1: error (message in err). */
int yuv_read(YuvInput *in, VqPicture *pic, char *err, size_t errsz);
/* As yuv_read, into buf (in->frame_size bytes) instead of in->buf. */
int yuv_read_into(YuvInput *in, unsigned char *buf, VqPicture *pic, char *err,
                  size_t errsz);
/* Maps a raw input that is a regular file into memory, so that its frames
 * are read in place (yuv_map_frame) instead of copied by the kernel: 0, or
 * -1 when it cannot be mapped (then it is read as before). Frame 0 is the
 * one at the file's position (after frames skipped by --offset). */
int yuv_map(YuvInput *in);
/* Frame k of a mapped input: 1 and *pic (valid until yuv_close); 0 after
 * the last frame; -1 for a truncated frame (message in err). */
int yuv_map_frame(YuvInput *in, size_t k, VqPicture *pic, char *err,
                  size_t errsz);
void yuv_close(YuvInput *in);
int yuv_parse_pix_fmt(const char *s, VqPixFmt *fmt);

#endif
