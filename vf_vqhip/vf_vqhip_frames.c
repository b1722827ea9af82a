/*
 * Copyright (c) 2026 the vqhip authors
 *
 * This file is part of FFmpeg.
 *
 * FFmpeg is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Lesser General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 *
 * FFmpeg is distributed in the hope that it will be useful,
 * but WITHOUT ANY WARRANTY; without even the implied warranty of
 * MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU
 * Lesser General Public License for more details.
 *
 * You should have received a copy of the GNU Lesser General Public
 * License along with FFmpeg; if not, write to the Free Software
 * Foundation, Inc., 51 Franklin Street, Fifth Floor, Boston, MA 02110-1301 USA
 */

/**
 * @file
 * vqhip filter: frames handed to libvqhip. Host frames are lent to it;
 * CUDA frames are read in place on the GPU, DRM PRIME and VAAPI frames
 * imported by dma-buf.
 */

#include <string.h>

#include "config.h"

#include "libavutil/hwcontext.h"
#include "libavutil/mem.h"
#include "libavutil/pixdesc.h"
#include "avfilter.h"
#include "filters.h"
#include "vf_vqhip.h"

#if CONFIG_LIBDRM
#include "libavutil/hwcontext_drm.h"
#endif

/* The yuvj formats are full range whatever the frame says. */
int ff_vqhip_is_yuvj(int format)
{
    return format == AV_PIX_FMT_YUVJ420P || format == AV_PIX_FMT_YUVJ422P ||
           format == AV_PIX_FMT_YUVJ444P;
}

enum AVColorRange ff_vqhip_frame_range(const AVFrame *f)
{
    return ff_vqhip_is_yuvj(f->format) ? AVCOL_RANGE_JPEG : f->color_range;
}

/* The frame's colour description (ssimulacra2 converts to RGB with it):
 * AVFrame's numbers are the ones vq_picture_set_color takes. */
static void set_color(VqPicture *pic, const AVFrame *f)
{
    vq_picture_set_color(pic, f->colorspace, ff_vqhip_frame_range(f),
                         f->chroma_location);
}

void ff_vqhip_wrap_picture(VqPicture *pic, const AVFrame *f,
                           const VQHIPContext *s)
{
    memset(pic, 0, sizeof(*pic));
    pic->fmt = s->vq_fmt;
    pic->bpc = s->bpc;
    pic->w   = f->width;
    pic->h   = f->height;
    for (int p = 0; p < s->n_stored; p++) {
        pic->data[p]   = f->data[p];
        pic->stride[p] = f->linesize[p];
    }
    set_color(pic, f);
    pic->pts = f->pts; /* the distorted one's is read (windows of seconds) */
}

/* A pair of frames lent to libvqhip (vq_submit_retained,
 * vq_submit_device_retained): its references are dropped when libvqhip has
 * read the planes, from whichever thread it calls back on (AVFrame
 * references are thread-safe). */
typedef struct LentPair {
    AVFrame *ref, *dis;
} LentPair;

static void lent_pair_free(void *opaque)
{
    LentPair *p = opaque;
    av_frame_free(&p->ref);
    av_frame_free(&p->dis);
    av_free(p);
}

/* New references to both frames, or NULL (out of memory). */
static LentPair *lent_pair(const AVFrame *ref, const AVFrame *dis)
{
    LentPair *lp = av_mallocz(sizeof(*lp));
    if (lp) {
        lp->ref = av_frame_clone(ref);
        lp->dis = av_frame_clone(dis);
    }
    if (lp && (!lp->ref || !lp->dis)) {
        lent_pair_free(lp);
        lp = NULL;
    }
    return lp;
}

#if CONFIG_CUDA
/* CUDA frames (hwupload_cuda, -hwaccel cuda) go to libvqhip's device input
 * without a copy through the host, when libvqhip runs on NVIDIA. Its
 * streams and buffers then live in the frames' CUDA context, which is made
 * current around every call into libvqhip. */
int ff_vqhip_cuda_enter(AVFilterContext *ctx)
{
    VQHIPContext *s = ctx->priv;

    if (s->cuda) {
        CudaFunctions *cu = s->cuda->internal->cuda_dl;
        if (cu->cuCtxPushCurrent(s->cuda->cuda_ctx) != CUDA_SUCCESS) {
            av_log(ctx, AV_LOG_ERROR, "cannot make the CUDA context current\n");
            return AVERROR_EXTERNAL;
        }
    }
    return 0;
}

void ff_vqhip_cuda_leave(AVFilterContext *ctx)
{
    VQHIPContext *s = ctx->priv;

    if (s->cuda) {
        CUcontext dummy;
        s->cuda->internal->cuda_dl->cuCtxPopCurrent(&dummy);
    }
}

/* The frames' software format; both inputs must share one CUDA context. */
static const AVPixFmtDescriptor *cuda_sw_format(AVFilterContext *ctx,
                                                AVFilterLink *link)
{
    VQHIPContext *s = ctx->priv;
    FilterLink *l = ff_filter_link(link);
    AVHWFramesContext *frames;
    AVCUDADeviceContext *dev;

    if (!l->hw_frames_ctx) {
        av_log(ctx, AV_LOG_ERROR, "CUDA frames without a frames "
               "context on input %s\n", link == ctx->inputs[0]
               ? "main" : "reference");
        return NULL;
    }
    frames = (AVHWFramesContext *)l->hw_frames_ctx->data;
    dev = frames->device_ctx->hwctx;
    if (s->cuda && s->cuda->cuda_ctx != dev->cuda_ctx) {
        av_log(ctx, AV_LOG_ERROR, "the main and reference CUDA frames "
               "come from different CUDA contexts (each hwupload_cuda, "
               "and each input decoded without -hwaccel_device, makes "
               "its own): give both one device, e.g. -init_hw_device "
               "cuda=gpu -filter_hw_device gpu with hwupload, or "
               "-hwaccel_device gpu\n");
        return NULL;
    }
    s->cuda = dev;
    return av_pix_fmt_desc_get(frames->sw_format);
}

static int cuda_submit(AVFilterContext *ctx, const AVFrame *ref,
                       const AVFrame *dis)
{
    VQHIPContext *s = ctx->priv;
    /* data[] of CUDA frames are device pointers, written on the device
     * context's stream. */
    VqDevicePicture dr = { .device = s->device, .stream = s->cuda->stream };
    VqDevicePicture dd = dr;
    LentPair *lp;
    int err;

    ff_vqhip_wrap_picture(&dr.pic, ref, s);
    ff_vqhip_wrap_picture(&dd.pic, dis, s);
    /* The kernels read the frames in place while references to them are
     * held (the pool of CUDA frames grows on demand); copied device to
     * device only when no reference can be made. */
    lp = lent_pair(ref, dis);
    err = lp ? vq_submit_device_retained(s->vq, &dr, &dd, lent_pair_free, lp)
             : vq_submit_device(s->vq, &dr, &dd);
    return err < 0 ? ff_vqhip_report_error(ctx, err, "vq_submit_device") : 0;
}
#else
int ff_vqhip_cuda_enter(AVFilterContext *ctx)
{
    return 0;
}

void ff_vqhip_cuda_leave(AVFilterContext *ctx)
{
}
#endif

#if CONFIG_LIBDRM
/* DRM PRIME frames (and VAAPI frames, mapped to DRM PRIME) are imported
 * into HIP by dma-buf file descriptor and read in place (libvqhip on AMD).
 * An imported frame's planes, in layer order, are device pointers into its
 * imported objects. */
typedef struct DRMImport {
    AVFrame *mapped;
    VqImport *imp[AV_DRM_MAX_PLANES];
} DRMImport;

static const AVPixFmtDescriptor *drm_sw_format(AVFilterContext *ctx,
                                               AVFilterLink *link)
{
    FilterLink *l = ff_filter_link(link);

    if (!l->hw_frames_ctx)
        return NULL;
    return av_pix_fmt_desc_get(((AVHWFramesContext *)l->hw_frames_ctx->data)->sw_format);
}

static void drm_release(VQHIPContext *s, DRMImport *d)
{
    for (int i = 0; i < AV_DRM_MAX_PLANES; i++)
        vq_import_release(s->vq, &d->imp[i]);
    av_frame_free(&d->mapped);
}

static int drm_import(AVFilterContext *ctx, const AVFrame *f, DRMImport *d,
                      VqDevicePicture *pic)
{
    VQHIPContext *s = ctx->priv;
    const AVDRMFrameDescriptor *desc;
    void *base[AV_DRM_MAX_PLANES] = { 0 };
    int n = 0, ret;

    memset(d, 0, sizeof(*d));
    if (f->format == AV_PIX_FMT_VAAPI) {
        if (!(d->mapped = av_frame_alloc()))
            return AVERROR(ENOMEM);
        d->mapped->format = AV_PIX_FMT_DRM_PRIME;
        if ((ret = av_hwframe_map(d->mapped, f, AV_HWFRAME_MAP_READ)) < 0) {
            av_log(ctx, AV_LOG_ERROR, "cannot map a VAAPI frame to DRM PRIME\n");
            return ret;
        }
        f = d->mapped;
    }
    desc = (const AVDRMFrameDescriptor *)f->data[0];
    for (int i = 0; i < desc->nb_objects; i++) {
        /* DRM_FORMAT_MOD_LINEAR is 0: other layouts are tiled. */
        if (desc->objects[i].format_modifier != 0) {
            av_log(ctx, AV_LOG_ERROR, "DRM frame object %d is not "
                   "pitch-linear (modifier 0x%"PRIx64"): use hwdownload\n",
                   i, desc->objects[i].format_modifier);
            return AVERROR(ENOSYS);
        }
        ret = vq_import_dmabuf(s->vq, desc->objects[i].fd,
                               desc->objects[i].size, &d->imp[i], &base[i]);
        if (ret < 0)
            return ff_vqhip_report_error(ctx, ret, "vq_import_dmabuf");
    }
    memset(pic, 0, sizeof(*pic));
    pic->device = s->device;
    pic->pic.fmt = s->vq_fmt;
    pic->pic.bpc = s->bpc;
    pic->pic.w = f->width;
    pic->pic.h = f->height;
    set_color(&pic->pic, f);
    for (int l = 0; l < desc->nb_layers; l++)
        for (int p = 0; p < desc->layers[l].nb_planes && n < 3; p++, n++) {
            const AVDRMPlaneDescriptor *pl = &desc->layers[l].planes[p];
            pic->pic.data[n] = (const uint8_t *)base[pl->object_index] + pl->offset;
            pic->pic.stride[n] = pl->pitch;
        }
    if (n != s->n_stored) {
        av_log(ctx, AV_LOG_ERROR, "DRM frame has %d planes, %d expected\n",
               n, s->n_stored);
        return AVERROR(EINVAL);
    }
    return 0;
}

static int drm_submit(AVFilterContext *ctx, const AVFrame *ref,
                      const AVFrame *dis)
{
    VQHIPContext *s = ctx->priv;
    DRMImport ir, id;
    VqDevicePicture dr, dd;
    int ret = drm_import(ctx, ref, &ir, &dr);

    if (ret >= 0)
        ret = drm_import(ctx, dis, &id, &dd);
    else
        memset(&id, 0, sizeof(id));
    /* vq_submit_device has read the planes when it returns. */
    if (ret >= 0 && (ret = vq_submit_device(s->vq, &dr, &dd)) < 0)
        ret = ff_vqhip_report_error(ctx, ret, "vq_submit_device");
    drm_release(s, &ir);
    drm_release(s, &id);
    return ret < 0 ? ret : 0;
}
#endif

/* Hands a frame pair to libvqhip; returns 0 or an AVERROR (logged). */
int ff_vqhip_submit(AVFilterContext *ctx, const AVFrame *ref,
                    const AVFrame *dis)
{
    VQHIPContext *s = ctx->priv;
    VqPicture r, d;
    LentPair *lp;
    int err;

    switch (ref->format) {
#if CONFIG_CUDA
    case AV_PIX_FMT_CUDA:
        return cuda_submit(ctx, ref, dis);
#endif
#if CONFIG_LIBDRM
    case AV_PIX_FMT_DRM_PRIME:
    case AV_PIX_FMT_VAAPI:
        return drm_submit(ctx, ref, dis);
#endif
    }
    ff_vqhip_wrap_picture(&r, ref, s);
    ff_vqhip_wrap_picture(&d, dis, s);
    /* The CPU backend reads the planes in place, holding references,
     * instead of copying every frame for its worker threads. */
    lp = lent_pair(ref, dis);
    err = lp ? vq_submit_retained(s->vq, &r, &d, lent_pair_free, lp)
             : vq_submit(s->vq, &r, &d);
    return err < 0 ? ff_vqhip_report_error(ctx, err, "vq_submit") : 0;
}

/* Submits this event's new frames of renditions 1..N-1 with the reference
 * frame the main's frame is scored against; sets next_mask. */
int ff_vqhip_submit_renditions(AVFilterContext *ctx, const AVFrame *ref)
{
    VQHIPContext *s = ctx->priv;

    for (int k = 1; k < s->nb_renditions; k++) {
        const AVFrame *f = s->r_new[k];
        VqPicture r, d;
        LentPair *lp;
        int err;
        if (!f)
            continue;
        if (f->width != s->run_w || f->height != s->run_h) {
            av_log(ctx, AV_LOG_ERROR, "rendition %s: a frame of %dx%d arrived "
                   "in a run of %dx%d: the size changed mid-stream. Scale "
                   "it to the reference's size.\n", s->label[k], f->width,
                   f->height, s->run_w, s->run_h);
            snprintf(s->why, sizeof(s->why), "rendition %s: the frame size "
                     "changed", s->label[k]);
            s->state = STATE_FAILED;
            return AVERROR(EINVAL);
        }
        ff_vqhip_wrap_picture(&r, ref, s);
        ff_vqhip_wrap_picture(&d, f, s);
        lp = lent_pair(ref, f);
        err = lp ? vq_submit_retained(s->rvq[k], &r, &d, lent_pair_free, lp)
                 : vq_submit(s->rvq[k], &r, &d);
        if (err < 0)
            return ff_vqhip_report_rendition_error(ctx, k, err, "vq_submit");
        s->r_submitted[k]++;
        s->next_mask |= 1u << k;
    }
    return 0;
}

/* Whether the main input carries hardware frames (known once the inputs
 * are configured; init's check opens before that, on the CPU). */
int ff_vqhip_hw_input(AVFilterContext *ctx)
{
    const AVPixFmtDescriptor *desc;

    if (!ctx->inputs[0] || ctx->inputs[0]->format < 0)
        return 0;
    desc = av_pix_fmt_desc_get(ctx->inputs[0]->format);
    return desc && (desc->flags & AV_PIX_FMT_FLAG_HWACCEL);
}

/* The software format behind a link: the frames' format for hardware
 * frames (NULL, said, when they cannot be used). */
const AVPixFmtDescriptor *ff_vqhip_link_sw_format(AVFilterContext *ctx,
                                                  AVFilterLink *link)
{
    switch (link->format) {
#if CONFIG_CUDA
    case AV_PIX_FMT_CUDA:
        return cuda_sw_format(ctx, link);
#endif
#if CONFIG_LIBDRM
    case AV_PIX_FMT_DRM_PRIME:
    case AV_PIX_FMT_VAAPI:
        return drm_sw_format(ctx, link);
#endif
    default:
        return av_pix_fmt_desc_get(link->format);
    }
}
