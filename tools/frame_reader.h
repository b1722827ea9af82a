/* Reading an input file on its own thread, ahead of its consumer, into a
 * ring of frame buffers (for the CLI: both inputs are read in parallel, into
 * buffers libvqhip uploads from directly, while the GPU works). */
#ifndef VQHIP_TOOLS_FRAME_READER_H
#define VQHIP_TOOLS_FRAME_READER_H

#include <signal.h>
#include <stddef.h>

#include "vqhip.h"
#include "yuv_input.h"

typedef struct FrameReader FrameReader;

/* Buffers come from alloc(opaque, size) and go back through
 * release(opaque, ptr); max_frames 0: until the end of the file;
 * n_buffers at most FRAME_READER_MAX_BUFFERS. */
#define FRAME_READER_MAX_BUFFERS 64
typedef struct FrameReaderConfig {
    unsigned n_buffers;
    unsigned max_frames;
    int map; /* read a raw file in place (yuv_map), without a thread, if it
                can be mapped; the frames are then valid until the stop */
    void *(*alloc)(void *opaque, size_t size);
    void (*release)(void *opaque, void *ptr);
    void *opaque;
    /* When set and *cancel becomes nonzero (a signal handler's flag),
     * frame_reader_next stops waiting and returns FRAME_READER_CANCELLED,
     * even while the input is a pipe that gives nothing. */
    volatile sig_atomic_t *cancel;
} FrameReaderConfig;

#define FRAME_READER_CANCELLED (-2)

/* Starts reading `in` (owned by the reader until frame_reader_stop). */
int frame_reader_start(FrameReader **r, YuvInput *in,
                       const FrameReaderConfig *cfg, char *err, size_t errsz);
/* The next frame, in order: 1 and *pic (valid until frame_reader_release),
 * 0 at the end, -1 on a read error (message in err),
 * FRAME_READER_CANCELLED once *cfg.cancel is set. */
int frame_reader_next(FrameReader *r, VqPicture *pic, char *err, size_t errsz);
/* Gives the oldest frame returned by frame_reader_next back for refilling. */
void frame_reader_release(FrameReader *r);
/* Gives frame `seq` (0 for the first one frame_reader_next returned) back,
 * in any order and from any thread; its buffer is refilled once every
 * frame before it is back too. */
void frame_reader_give_back(FrameReader *r, unsigned seq);
/* Waits until every frame taken is given back, then stops the thread (a
 * thread blocked reading a stalled pipe is interrupted: the frame it was
 * reading is dropped) and frees the buffers. */
void frame_reader_stop(FrameReader **r);

#endif
