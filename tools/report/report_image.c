#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef VQR_HAVE_ZLIB
#include <zlib.h>
#endif

#include "report_image.h"

char *report_data_uri(const char *mime, const unsigned char *data, size_t len)
{
    static const char tab[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t head = strlen(mime) + 13; /* "data:" ";base64," */
    char *out = malloc(head + (len + 2) / 3 * 4 + 1);
    if (!out)
        return NULL;
    char *p = out + sprintf(out, "data:%s;base64,", mime);
    size_t i = 0;
    for (; i + 2 < len; i += 3) {
        uint32_t v = (uint32_t)data[i] << 16 | (uint32_t)data[i + 1] << 8 | data[i + 2];
        *p++ = tab[v >> 18];
        *p++ = tab[(v >> 12) & 63];
        *p++ = tab[(v >> 6) & 63];
        *p++ = tab[v & 63];
    }
    if (i < len) {
        uint32_t v = (uint32_t)data[i] << 16 | (i + 1 < len ? (uint32_t)data[i + 1] << 8 : 0);
        *p++ = tab[v >> 18];
        *p++ = tab[(v >> 12) & 63];
        *p++ = i + 1 < len ? tab[(v >> 6) & 63] : '=';
        *p++ = '=';
    }
    *p = '\0';
    return out;
}

/* Black, purple, red, orange, pale yellow: dark means no banding. */
static const unsigned char heat_anchors[5][3] = {
    { 0, 0, 4 }, { 87, 16, 110 }, { 188, 55, 84 }, { 249, 142, 9 },
    { 252, 255, 164 },
};

static void heat_rgb(unsigned i, unsigned char rgb[3])
{
    double t = i / 255.0 * 4;
    unsigned k = t >= 4 ? 3 : (unsigned)t;
    double f = t - k;
    for (int c = 0; c < 3; c++)
        rgb[c] = (unsigned char)(heat_anchors[k][c] +
                                 (heat_anchors[k + 1][c] - heat_anchors[k][c]) * f + 0.5);
}

void report_heat_colour(unsigned i, char out[8])
{
    static const char hex[] = "0123456789abcdef";
    unsigned char rgb[3];
    heat_rgb(i, rgb);
    out[0] = '#';
    for (int c = 0; c < 3; c++) {
        out[1 + 2 * c] = hex[rgb[c] >> 4];
        out[2 + 2 * c] = hex[rgb[c] & 15];
    }
    out[7] = '\0';
}

static uint32_t crc32_png(const unsigned char *p, size_t n, uint32_t crc)
{
    static uint32_t table[256];
    if (!table[1])
        for (uint32_t i = 0; i < 256; i++) {
            uint32_t c = i;
            for (int k = 0; k < 8; k++)
                c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
            table[i] = c;
        }
    crc = ~crc;
    for (size_t i = 0; i < n; i++)
        crc = table[(crc ^ p[i]) & 255] ^ (crc >> 8);
    return ~crc;
}

static unsigned char *put32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)(v >> 24);
    p[1] = (unsigned char)(v >> 16);
    p[2] = (unsigned char)(v >> 8);
    p[3] = (unsigned char)v;
    return p + 4;
}

/* A zlib stream of raw: compressed with zlib when the build has it, else
 * deflate's stored blocks. */
static unsigned char *zlib_stream(const unsigned char *raw, size_t n, size_t *len)
{
#ifdef VQR_HAVE_ZLIB
    uLongf cap = compressBound((uLong)n);
    unsigned char *out = malloc(cap);
    if (out && compress2(out, &cap, raw, (uLong)n, 9) != Z_OK) {
        free(out);
        return NULL;
    }
    *len = cap;
    return out;
#else
    size_t blocks = n / 65535 + 1;
    unsigned char *out = malloc(2 + blocks * 5 + n + 4), *p = out;
    if (!out)
        return NULL;
    *p++ = 0x78;
    *p++ = 0x01;
    uint32_t a = 1, b = 0;
    for (size_t i = 0; i < n; i++) {
        a = (a + raw[i]) % 65521;
        b = (b + a) % 65521;
    }
    for (size_t at = 0, k = 0; k < blocks; k++) {
        size_t m = n - at < 65535 ? n - at : 65535;
        *p++ = k + 1 == blocks;
        *p++ = (unsigned char)m;
        *p++ = (unsigned char)(m >> 8);
        *p++ = (unsigned char)~m;
        *p++ = (unsigned char)(~m >> 8);
        memcpy(p, raw + at, m);
        p += m;
        at += m;
    }
    p = put32(p, b << 16 | a);
    *len = (size_t)(p - out);
    return out;
#endif
}

static unsigned char *chunk(unsigned char *p, const char *type,
                            const unsigned char *data, size_t n)
{
    p = put32(p, (uint32_t)n);
    memcpy(p, type, 4);
    if (n)
        memcpy(p + 4, data, n);
    uint32_t crc = crc32_png(p, n + 4, 0);
    return put32(p + 4 + n, crc);
}

unsigned char *report_png_heat(const unsigned char *pix, unsigned w, unsigned h,
                               size_t *len)
{
    size_t raw_n = (size_t)(w + 1) * h, z_n = 0;
    unsigned char *raw = malloc(raw_n ? raw_n : 1);
    if (!raw)
        return NULL;
    for (unsigned y = 0; y < h; y++) {
        raw[(size_t)y * (w + 1)] = 0; /* filter: none */
        memcpy(raw + (size_t)y * (w + 1) + 1, pix + (size_t)y * w, w);
    }
    unsigned char *z = zlib_stream(raw, raw_n, &z_n);
    free(raw);
    unsigned char *out = z ? malloc(8 + 25 + 780 + 12 + z_n + 12) : NULL;
    if (!out) {
        free(z);
        return NULL;
    }
    static const unsigned char sig[8] = { 137, 'P', 'N', 'G', 13, 10, 26, 10 };
    unsigned char ihdr[13], pal[768];
    memcpy(out, sig, 8);
    put32(ihdr, w);
    put32(ihdr + 4, h);
    ihdr[8] = 8;  /* bits */
    ihdr[9] = 3;  /* palette */
    ihdr[10] = ihdr[11] = ihdr[12] = 0;
    for (unsigned i = 0; i < 256; i++)
        heat_rgb(i, pal + 3 * i);
    unsigned char *p = chunk(out + 8, "IHDR", ihdr, 13);
    p = chunk(p, "PLTE", pal, 768);
    p = chunk(p, "IDAT", z, z_n);
    p = chunk(p, "IEND", NULL, 0);
    free(z);
    *len = (size_t)(p - out);
    return out;
}
