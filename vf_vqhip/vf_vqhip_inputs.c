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
 * vqhip filter: the inputs checked as their links are configured: sizes,
 * pixel formats and bit depths that must match, conversions FFmpeg
 * inserted, frame rates and sample aspect ratios that differ.
 */

#include <string.h>

#include "libavutil/pixdesc.h"
#include "avfilter.h"
#include "filters.h"
#include "vf_vqhip.h"

/* libvqhip's name for a software pixel format, its bit depth and how many
 * planes its frames have. */
static int pix_fmt_map(const AVPixFmtDescriptor *desc, VqPixFmt *fmt,
                       unsigned *bpc, int *n_stored)
{
    static const VqPixFmt semi[2][3] = {
        { VQ_PIX_FMT_NV12, VQ_PIX_FMT_NV16, VQ_PIX_FMT_NV24 },
        { VQ_PIX_FMT_P010, VQ_PIX_FMT_P210, VQ_PIX_FMT_P410 },
    };
    int sub = desc->log2_chroma_h ? 0 : desc->log2_chroma_w ? 1 : 2;

    *bpc = desc->comp[0].depth;
    if (desc->nb_components == 1) {
        *fmt = VQ_PIX_FMT_GRAY;
        *n_stored = 1;
    } else if (desc->comp[1].plane == desc->comp[2].plane) {
        /* Cb then Cr; samples in the high bits when shifted (p010). */
        if (desc->comp[1].offset > desc->comp[2].offset)
            return AVERROR(EINVAL);
        *fmt = semi[desc->comp[0].shift > 0][sub];
        *n_stored = 2;
    } else {
        *fmt = sub == 0 ? VQ_PIX_FMT_420 : sub == 1 ? VQ_PIX_FMT_422
                                                    : VQ_PIX_FMT_444;
        *n_stored = 3;
    }
    return 0;
}

static void describe_link(char *buf, size_t size, const AVFilterLink *link)
{
    const AVPixFmtDescriptor *desc = av_pix_fmt_desc_get(link->format);

    snprintf(buf, size, "%dx%d %s (%d-bit)", link->w, link->h,
             desc ? desc->name : "none", desc ? desc->comp[0].depth : 0);
}

/* yuvj formats as the yuv format of the same layout. */
static int plain_format(int format)
{
    switch (format) {
    case AV_PIX_FMT_YUVJ420P: return AV_PIX_FMT_YUV420P;
    case AV_PIX_FMT_YUVJ422P: return AV_PIX_FMT_YUV422P;
    case AV_PIX_FMT_YUVJ444P: return AV_PIX_FMT_YUV444P;
    default:                  return format;
    }
}

/* A format FFmpeg converted on its own before the filter (a scale filter
 * it inserted: 9- and 14-bit samples to 10 and 16 bits, ...) changes the
 * samples scored: said, once per input, where it changes the bit depth or
 * the range (a conversion from RGB is what such input needs). */
static void warn_conversion(AVFilterContext *ctx, AVFilterLink *link,
                            const char *which)
{
    AVFilterContext *src = link->src;
    const AVPixFmtDescriptor *from, *to;

    if (!src || !src->filter || strcmp(src->filter->name, "scale") ||
        strncmp(src->name, "auto_", 5) || src->nb_inputs != 1 ||
        !src->inputs[0])
        return;
    from = av_pix_fmt_desc_get(src->inputs[0]->format);
    to = av_pix_fmt_desc_get(link->format);
    if (!from || !to || (from->flags & AV_PIX_FMT_FLAG_RGB) ||
        (from->comp[0].depth == to->comp[0].depth &&
         ff_vqhip_is_yuvj(src->inputs[0]->format) ==
         ff_vqhip_is_yuvj(link->format)))
        return;
    av_log(ctx, AV_LOG_WARNING, "the %s input's frames are %s, converted to "
           "%s by a scale filter FFmpeg inserted before vqhip (vqhip takes "
           "8-, 10-, 12- and 16-bit samples as they are): the scores are of "
           "the converted samples\n", which, from->name, to->name);
}

/* inputs=N > 1: rendition k's input against the reference's: the same
 * size and format, software frames. */
static int check_rendition(AVFilterContext *ctx, int k)
{
    VQHIPContext *s = ctx->priv;
    AVFilterLink *link = ctx->inputs[k], *reflink = ctx->inputs[REF_INPUT(s)];
    const AVPixFmtDescriptor *desc = av_pix_fmt_desc_get(link->format);
    const AVPixFmtDescriptor *ref_desc = av_pix_fmt_desc_get(reflink->format);
    char text[128], ref_text[128];

    if (!desc || !ref_desc || (desc->flags & AV_PIX_FMT_FLAG_HWACCEL) ||
        (ref_desc->flags & AV_PIX_FMT_FLAG_HWACCEL)) {
        av_log(ctx, AV_LOG_ERROR, "inputs=%d takes software frames only: "
               "download hardware frames (hwdownload) or score each "
               "rendition in a filter of its own\n", s->nb_renditions);
        return AVERROR(ENOSYS);
    }
    warn_conversion(ctx, link, s->label[k]);
    if (link->w == reflink->w && link->h == reflink->h &&
        plain_format(link->format) == plain_format(reflink->format))
        return 0;
    describe_link(text, sizeof(text), link);
    describe_link(ref_text, sizeof(ref_text), reflink);
    av_log(ctx, AV_LOG_ERROR, "Rendition %s (input %d of inputs=%d) is %s "
           "but the reference input is %s: size, pixel format and bit depth "
           "must be the same.\n", s->label[k], k + 1, s->nb_renditions, text,
           ref_text);
    if (link->w != reflink->w || link->h != reflink->h)
        av_log(ctx, AV_LOG_ERROR, "Upscale the rendition to the "
               "reference's size before vqhip, e.g. "
               "[%s_in]scale=%d:%d:flags=bicubic[%s]\n", s->label[k],
               reflink->w, reflink->h, s->label[k]);
    return AVERROR(EINVAL);
}

int ff_vqhip_check_input_ref(AVFilterLink *inlink)
{
    AVFilterContext *ctx = inlink->dst;
    VQHIPContext *s = ctx->priv;
    AVFilterLink *mainlink = ctx->inputs[0], *reflink = ctx->inputs[REF_INPUT(s)];
    const AVPixFmtDescriptor *desc = ff_vqhip_link_sw_format(ctx, mainlink);
    const AVPixFmtDescriptor *ref_desc =
        desc ? ff_vqhip_link_sw_format(ctx, reflink) : NULL;

    if (!desc || !ref_desc) {
        /* hardware frames whose format or device cannot be used (said) */
        av_log(ctx, AV_LOG_ERROR, "the %s input's frames cannot be read\n",
               !desc ? "main" : "reference");
        return AVERROR(EINVAL);
    }
    for (int k = 0; k < s->nb_renditions && s->nb_renditions > 1; k++) {
        int ret = check_rendition(ctx, k);
        if (ret < 0)
            return ret;
    }
    if (s->nb_renditions == 1)
        warn_conversion(ctx, mainlink, "main");
    warn_conversion(ctx, reflink, "reference");
    if (mainlink->w != reflink->w || mainlink->h != reflink->h ||
        plain_format(mainlink->format) != plain_format(reflink->format) ||
        plain_format(av_pix_fmt_desc_get_id(desc)) !=
        plain_format(av_pix_fmt_desc_get_id(ref_desc))) {
        char main_desc[128], ref_text[128];
        describe_link(main_desc, sizeof(main_desc), mainlink);
        describe_link(ref_text, sizeof(ref_text), reflink);
        av_log(ctx, AV_LOG_ERROR, "The main input is %s but the reference "
               "input is %s: size, pixel format and bit depth must be the "
               "same.\n", main_desc, ref_text);
        if (mainlink->w != reflink->w || mainlink->h != reflink->h)
            /* a ladder rendition: scored at the reference's size, upscaled
             * (docs/ALIGNMENT.md: which model for which size) */
            av_log(ctx, AV_LOG_ERROR, "Upscale the distorted video to the "
                   "reference's size, e.g. with the distorted video as input "
                   "0 and the reference as input 1: -filter_complex "
                   "\"[0:v]scale=%d:%d:flags=bicubic[d];[d][1:v]vqhip\" "
                   "(vmaf_v0.6.1 for 1080p viewing, vmaf_4k_v0.6.1 for "
                   "4K).\n", reflink->w, reflink->h);
        return AVERROR(EINVAL);
    }
    if (pix_fmt_map(desc, &s->vq_fmt, &s->bpc, &s->n_stored) < 0) {
        av_log(ctx, AV_LOG_ERROR, "pixel format %s is not supported\n",
               desc->name);
        return AVERROR(EINVAL);
    }
    return 0;
}

/* Inputs that can be compared only after a conversion: said, with the
 * filter that converts (frames are paired by timestamp, and the metrics
 * compare samples as they are). */
void ff_vqhip_check_links(AVFilterContext *ctx)
{
    VQHIPContext *s = ctx->priv;
    AVFilterLink *mainlink = ctx->inputs[0], *reflink = ctx->inputs[REF_INPUT(s)];
    FilterLink *ml = ff_filter_link(mainlink), *rl = ff_filter_link(reflink);
    AVRational sar_m = mainlink->sample_aspect_ratio;
    AVRational sar_r = reflink->sample_aspect_ratio;

    if (ml->frame_rate.num > 0 && rl->frame_rate.num > 0 &&
        av_cmp_q(ml->frame_rate, rl->frame_rate))
        av_log(ctx, AV_LOG_WARNING, "the main input has %d/%d frames a "
               "second and the reference %d/%d: frames are paired by "
               "timestamp, so some are paired with a repeated frame or left "
               "out. Convert the main input with fps=%d/%d.\n",
               ml->frame_rate.num, ml->frame_rate.den, rl->frame_rate.num,
               rl->frame_rate.den, rl->frame_rate.num, rl->frame_rate.den);
    if (!sar_m.num || !sar_m.den)
        sar_m = (AVRational){ 1, 1 };
    if (!sar_r.num || !sar_r.den)
        sar_r = (AVRational){ 1, 1 };
    if (av_cmp_q(sar_m, sar_r))
        av_log(ctx, AV_LOG_WARNING, "the main input's sample aspect ratio is "
               "%d:%d and the reference's %d:%d: the pictures are shown at "
               "other shapes. Scale the main input to the reference's "
               "geometry, or add setsar=%d/%d where it is only mislabelled.\n",
               sar_m.num, sar_m.den, sar_r.num, sar_r.den, sar_r.num,
               sar_r.den);
}
