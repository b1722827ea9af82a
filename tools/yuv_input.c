#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "yuv_input.h"

int yuv_parse_pix_fmt(const char *s, VqPixFmt *fmt)
{
    if (!strcmp(s, "420") || !strcmp(s, "yuv420p"))
        *fmt = VQ_PIX_FMT_420;
    else if (!strcmp(s, "422") || !strcmp(s, "yuv422p"))
        *fmt = VQ_PIX_FMT_422;
    else if (!strcmp(s, "444") || !strcmp(s, "yuv444p"))
        *fmt = VQ_PIX_FMT_444;
    else if (!strcmp(s, "400") || !strcmp(s, "gray"))
        *fmt = VQ_PIX_FMT_GRAY;
    else
        return -1;
    return 0;
}

/* A Y4M size: digits only, 1..YUV_MAX_SIDE (no wrap-around, no sign). */
static int parse_side(const char *t, unsigned *out)
{
    char *end;
    errno = 0;
    unsigned long v = strtoul(t, &end, 10);
    if (*t < '0' || *t > '9' || *end || errno || !v || v > YUV_MAX_SIDE)
        return -1;
    *out = (unsigned)v;
    return 0;
}

/* Y4M colourspace tag -> format and depth ("420p10", "444", "mono12", ...). */
/* The 4:2:0 chroma siting a Y4M colourspace names (FFmpeg's reader's
 * mapping, so that the CLI and the filter score the same file alike). */
static VqChromaLoc y4m_chroma_loc(const char *c)
{
    if (!strcmp(c, "420") || !strcmp(c, "420jpeg"))
        return VQ_CHROMA_LOC_CENTER;
    if (!strcmp(c, "420mpeg2"))
        return VQ_CHROMA_LOC_LEFT;
    if (!strcmp(c, "420paldv"))
        return VQ_CHROMA_LOC_TOPLEFT;
    return VQ_CHROMA_LOC_UNSPECIFIED;
}

static int parse_y4m_colorspace(const char *c, VqPixFmt *fmt, unsigned *bpc)
{
    static const struct { const char *prefix; VqPixFmt fmt; } tags[] = {
        { "420", VQ_PIX_FMT_420 }, { "422", VQ_PIX_FMT_422 },
        { "444", VQ_PIX_FMT_444 }, { "mono", VQ_PIX_FMT_GRAY },
    };
    for (unsigned i = 0; i < sizeof(tags) / sizeof(tags[0]); i++) {
        size_t n = strlen(tags[i].prefix);
        if (strncmp(c, tags[i].prefix, n))
            continue;
        *fmt = tags[i].fmt;
        const char *rest = c + n;
        if (!*rest || !strcmp(rest, "jpeg") || !strcmp(rest, "mpeg2") ||
            !strcmp(rest, "paldv")) {
            *bpc = 8;
        } else if (*rest == 'p' || (*fmt == VQ_PIX_FMT_GRAY && *rest)) {
            const char *d = rest + (*rest == 'p');
            if (!strcmp(d, "10") || !strcmp(d, "12") || !strcmp(d, "16"))
                *bpc = (unsigned)atoi(d);
            else
                return -1;
        } else {
            return -1;
        }
        return 0;
    }
    return -1;
}

static int read_y4m_header(YuvInput *in, char *err, size_t errsz)
{
    /* the magic "YUV4MPEG2 " was read by yuv_open_stream */
    char line[512] = "YUV4MPEG2 ";
    if (!fgets(line + 10, sizeof(line) - 10, in->f)) {
        snprintf(err, errsz, "Y4M header cut off");
        return -1;
    }
    if (!strchr(line, '\n')) {
        snprintf(err, errsz, "Y4M header longer than %zu bytes or cut off",
                 sizeof(line) - 2);
        return -1;
    }
    in->fmt = VQ_PIX_FMT_420;
    in->bpc = 8;
    in->w = in->h = 0;
    char *save = NULL;
    for (char *tok = strtok_r(line + 9, " \n", &save); tok;
         tok = strtok_r(NULL, " \n", &save)) {
        if ((tok[0] == 'W' && parse_side(tok + 1, &in->w)) ||
            (tok[0] == 'H' && parse_side(tok + 1, &in->h))) {
            snprintf(err, errsz, "Y4M size '%s' is not a number from 1 to %d",
                     tok, YUV_MAX_SIDE);
            return -1;
        }
        if (tok[0] == 'F') {
            /* frame rate num:den; a malformed one is left unknown (0) */
            unsigned long num, den;
            char *end;
            num = strtoul(tok + 1, &end, 10);
            den = *end == ':' ? strtoul(end + 1, &end, 10) : 0;
            if (!*end && num && den && num <= 0xffffffffUL &&
                den <= 0xffffffffUL) {
                in->fps_num = (unsigned)num;
                in->fps_den = (unsigned)den;
            }
        }
        if (!strcmp(tok, "XCOLORRANGE=FULL"))
            in->range = 2;
        else if (!strcmp(tok, "XCOLORRANGE=LIMITED"))
            in->range = 1;
        else if (tok[0] == 'C' && parse_y4m_colorspace(tok + 1, &in->fmt, &in->bpc)) {
            snprintf(err, errsz, "unsupported Y4M colourspace '%s'", tok + 1);
            return -1;
        } else if (tok[0] == 'C') {
            in->chroma_loc = y4m_chroma_loc(tok + 1);
        }
    }
    if (!in->w || !in->h) {
        snprintf(err, errsz, "Y4M header without width or height");
        return -1;
    }
    return 0;
}

int yuv_open(YuvInput *in, const char *path, VqPixFmt fmt, unsigned bpc,
             unsigned w, unsigned h, char *err, size_t errsz)
{
    memset(in, 0, sizeof(*in));
    FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
    if (!f) {
        snprintf(err, errsz, "cannot open '%s': %s", path, strerror(errno));
        return -1;
    }
    return yuv_open_stream(in, f, path, fmt, bpc, w, h, err, errsz);
}

int yuv_open_stream(YuvInput *in, FILE *f, const char *path, VqPixFmt fmt,
                    unsigned bpc, unsigned w, unsigned h, char *err,
                    size_t errsz)
{
    memset(in, 0, sizeof(*in));
    in->f = f;
    size_t len = strlen(path);
    int ext = len > 4 && !strcmp(path + len - 4, ".y4m");
    /* Y4M by its whole magic: a raw frame may well start with 'Y'. The
     * bytes read to find out are put back: by a seek in a file, else kept
     * as the first bytes of the first frame (in->prefix). */
    static const char magic[] = "YUV4MPEG2 ";
    size_t k = 0;
    int c;
    while (k < Y4M_MAGIC_LEN && (c = fgetc(in->f)) != EOF) {
        in->prefix[k++] = (unsigned char)c;
        if (c != magic[k - 1])
            break;
    }
    in->y4m = k == Y4M_MAGIC_LEN && !memcmp(in->prefix, magic, k);
    if (!in->y4m && ext) {
        snprintf(err, errsz, "'%s': not a Y4M file (no \"YUV4MPEG2 \" "
                 "header)", path);
        return -1;
    }
    if (!in->y4m && k) {
        if (k == 1 && ungetc(in->prefix[0], in->f) != EOF)
            k = 0;
        else if (!fseeko(in->f, -(off_t)k, SEEK_CUR))
            k = 0;
        clearerr(in->f);
        in->n_prefix = k;
    }
    if (in->y4m) {
        if (read_y4m_header(in, err, errsz))
            return -1;
    } else {
        in->fmt = fmt;
        in->bpc = bpc;
        in->w = w;
        in->h = h;
        if (!w || !h || w > YUV_MAX_SIDE || h > YUV_MAX_SIDE) {
            snprintf(err, errsz, "'%s': raw input needs --width and --height "
                     "(1 to %d)", path, YUV_MAX_SIDE);
            return -1;
        }
    }
    return yuv_set_geometry(in, path, err, errsz);
}

int yuv_set_geometry(YuvInput *in, const char *path, char *err, size_t errsz)
{
    if (in->bpc != 8 && in->bpc != 10 && in->bpc != 12 && in->bpc != 16) {
        snprintf(err, errsz, "'%s': %u-bit samples are not supported", path,
                 in->bpc);
        return -1;
    }
    unsigned bps = in->bpc > 8 ? 2 : 1;
    unsigned ssx = in->fmt == VQ_PIX_FMT_420 || in->fmt == VQ_PIX_FMT_422;
    unsigned ssy = in->fmt == VQ_PIX_FMT_420;
    unsigned np = in->fmt == VQ_PIX_FMT_GRAY ? 1 : 3;
    in->frame_size = 0;
    for (unsigned p = 0; p < np; p++) {
        in->plane_w[p] = p ? (in->w + ssx) >> ssx : in->w;
        in->plane_h[p] = p ? (in->h + ssy) >> ssy : in->h;
        in->plane_size[p] = (size_t)in->plane_w[p] * in->plane_h[p] * bps;
        in->frame_size += in->plane_size[p];
    }
    in->buf = malloc(in->frame_size);
    if (!in->buf) {
        snprintf(err, errsz, "'%s': cannot allocate a %ux%u frame (%zu bytes)",
                 path, in->w, in->h, in->frame_size);
        return -1;
    }
    return 0;
}

/* The planes of one frame stored at buf. */
static void fill_picture(const YuvInput *in, unsigned char *buf, VqPicture *pic)
{
    memset(pic, 0, sizeof(*pic));
    pic->fmt = in->fmt;
    pic->bpc = in->bpc;
    pic->w = in->w;
    pic->h = in->h;
    /* what the Y4M header says (ssimulacra2 reads them; raw: unknown) */
    pic->range = in->range == 2 ? VQ_RANGE_FULL :
                 in->range == 1 ? VQ_RANGE_LIMITED : VQ_RANGE_UNSPECIFIED;
    pic->chroma_loc = in->chroma_loc;
    unsigned bps = in->bpc > 8 ? 2 : 1;
    size_t off = 0;
    for (unsigned p = 0; p < (in->fmt == VQ_PIX_FMT_GRAY ? 1u : 3u); p++) {
        pic->data[p] = buf + off;
        pic->stride[p] = (ptrdiff_t)in->plane_w[p] * bps;
        off += in->plane_size[p];
    }
}

/* fread, after the bytes taken from a pipe to look for the Y4M magic. */
static size_t in_read(YuvInput *in, unsigned char *buf, size_t n)
{
    size_t done = 0;
    if (in->n_prefix) {
        done = n < in->n_prefix ? n : in->n_prefix;
        memcpy(buf, in->prefix, done);
        memmove(in->prefix, in->prefix + done, in->n_prefix - done);
        in->n_prefix -= done;
    }
    return done + fread(buf + done, 1, n - done, in->f);
}

/* One frame's planes into buf, the planes in in->skip seeked over in a
 * regular file (a seek past the end is caught by comparing with the file's
 * size). Returns the bytes read or skipped, as fread would count them. */
static size_t read_planes(YuvInput *in, unsigned char *buf)
{
    struct stat st;
    off_t pos = ftello(in->f);
    int seekable = pos >= 0 && !fstat(fileno(in->f), &st) &&
                   S_ISREG(st.st_mode);
    size_t done = 0;
    for (unsigned p = 0; p < 3 && done < in->frame_size; p++) {
        size_t n = in->plane_size[p];
        if (seekable && (in->skip & (1u << p))) {
            off_t left = st.st_size - pos - (off_t)done;
            size_t step = left <= 0 ? 0 : (off_t)n < left ? n : (size_t)left;
            if (step && fseeko(in->f, (off_t)step, SEEK_CUR))
                return done;
            done += step;
            if (step < n) {
                fgetc(in->f); /* sets the end-of-file mark, as fread would */
                return done;
            }
            continue;
        }
        size_t got = in_read(in, buf + done, n);
        done += got;
        if (got < n)
            return done;
    }
    return done;
}

int yuv_read(YuvInput *in, VqPicture *pic, char *err, size_t errsz)
{
    return yuv_read_into(in, in->buf, pic, err, errsz);
}

int yuv_read_into(YuvInput *in, unsigned char *buf, VqPicture *pic, char *err,
                  size_t errsz)
{
    if (in->src)
        return in->src->read_into(in, buf, pic, err, errsz);
    if (in->y4m) {
        char line[256];
        if (!fgets(line, sizeof(line), in->f))
            return 0;
        if (strncmp(line, "FRAME", 5) || !strchr(line, '\n')) {
            snprintf(err, errsz, "Y4M frame header missing or malformed");
            return -1;
        }
    }
    size_t got = in->skip ? read_planes(in, buf)
                          : in_read(in, buf, in->frame_size);
    if (got == 0 && feof(in->f))
        return 0;
    if (got != in->frame_size) {
        if (ferror(in->f))
            snprintf(err, errsz, "read error: %s", strerror(errno));
        else
            snprintf(err, errsz, "truncated frame (%zu of %zu bytes): the file "
                     "ends inside it (wrong size or format?)", got,
                     in->frame_size);
        return -1;
    }
    fill_picture(in, buf, pic);
    return 1;
}

int yuv_map(YuvInput *in)
{
    struct stat st;
    if (in->src || !in->f)
        return -1;
    off_t pos = ftello(in->f);
    if (in->y4m || in->f == stdin || fstat(fileno(in->f), &st) ||
        !S_ISREG(st.st_mode) || st.st_size <= 0 || pos < 0 || in->n_prefix)
        return -1;
    void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE,
                   fileno(in->f), 0);
    if (m == MAP_FAILED)
        return -1;
    posix_madvise(m, (size_t)st.st_size, POSIX_MADV_SEQUENTIAL);
    in->map = m;
    in->map_size = (size_t)st.st_size;
    in->map_first = (size_t)pos;
    return 0;
}

int yuv_map_frame(YuvInput *in, size_t k, VqPicture *pic, char *err,
                  size_t errsz)
{
    size_t off = in->map_first + k * in->frame_size;
    if (off >= in->map_size)
        return 0;
    if (in->map_size - off < in->frame_size) {
        snprintf(err, errsz, "truncated frame (%zu of %zu bytes)",
                 in->map_size - off, in->frame_size);
        return -1;
    }
    fill_picture(in, in->map + off, pic);
    return 1;
}

void yuv_close(YuvInput *in)
{
    if (in->src)
        in->src->close(in);
    if (in->map)
        munmap(in->map, in->map_size);
    if (in->f && in->f != stdin)
        fclose(in->f);
    free(in->buf);
    memset(in, 0, sizeof(*in));
}
