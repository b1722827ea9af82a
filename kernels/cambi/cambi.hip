/*
 * CAMBI kernels. Per image: check (10/12-bit), preprocess, spatial mask,
 * five scale images, then one c-value launch for every scale of every
 * image, the optional heatmaps and three radix-select pooling levels.
 *
 * The c-value kernel is built for a GPU with few compute units and a
 * 64 KiB LDS: a block owns 64 columns and a segment of rows of one scale,
 * one thread per column. Each thread keeps its column's window histogram
 * (counts of each sample value among the masked samples of the window
 * around it) in LDS, private to it, and slides it down the segment: a row
 * entering and a row leaving the windows are staged in LDS once, a block
 * scan marks where each run of equal values starts, and each thread walks
 * its own window of 2 pad + 1 entries run by run (one or two runs across
 * a band, rather than 2 pad + 1 entries), adding each run's length. No
 * atomics, no global traffic but the rows and the c-values. The histogram holds 224 consecutive values; a segment whose
 * samples span more is done in several passes over value ranges.
 */
#include <limits.h>

#include "../hip_device.h"
#include "cambi.h"

#define CAMBI_TW 64     /* columns per c-value block = its threads */
#define CAMBI_SLOTS 224 /* histogram values per pass: 28 KiB of LDS, so that
                           two blocks fit a 64 KiB CU */
#define CAMBI_ROWBUF (CAMBI_TW + 2 * VQ_CAMBI_MAX_PAD)
#define CAMBI_POOL_THREADS 256
#define CAMBI_MASK_TILE 32

/* ---- check, preprocess --------------------------------------------------- */

__global__ void cambi_check(VqDevPlane p, unsigned maxv,
                            unsigned long long *n_bad)
{
    __shared__ unsigned part[CAMBI_POOL_THREADS];
    unsigned cnt = 0;
    for (unsigned y = blockIdx.x; y < p.h; y += gridDim.x) {
        const uint16_t *r = (const uint16_t *)((const char *)p.data + (size_t)y * p.pitch);
        for (unsigned x = threadIdx.x; x < p.w; x += blockDim.x)
            cnt += r[x] > maxv;
    }
    part[threadIdx.x] = cnt;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s)
            part[threadIdx.x] += part[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0 && part[0])
        atomicAdd(n_bad, (unsigned long long)part[0]);
}

template <typename T>
__global__ void cambi_pre(VqDevPlane p, unsigned bpc, const int *xmap,
                          const int *ymap, unsigned w, unsigned h, int anti,
                          uint16_t *out, unsigned pitch)
{
    unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h)
        return;
    auto load = [&](unsigned r, unsigned c) -> unsigned {
        unsigned rr = ymap ? (unsigned)ymap[r] : r;
        unsigned cc = xmap ? (unsigned)xmap[c] : c;
        const T *row = (const T *)((const char *)p.data + (size_t)rr * p.pitch);
        return vq_cambi_to10(row[cc], bpc);
    };
    unsigned v = load(y, x);
    if (anti) {
        bool rx = x + 1 < w, ry = y + 1 < h;
        if (rx && ry)
            v = (v + load(y, x + 1) + load(y + 1, x) + load(y + 1, x + 1)) >> 2;
        else if (ry)
            v = (v + load(y + 1, x)) >> 1;
        else if (rx)
            v = (v + load(y, x + 1)) >> 1;
    }
    out[(size_t)y * pitch + x] = (uint16_t)v;
}

/* ---- spatial mask: 32x32 outputs per block, 7x7 zero-derivative counts -- */

__global__ void cambi_mask(const uint16_t *img, unsigned pitch, unsigned w,
                           unsigned h, unsigned index, uint8_t *mask,
                           unsigned mask_pitch)
{
    const int R = VQ_CAMBI_MASK_RADIUS, T = CAMBI_MASK_TILE;
    const int RW = T + 2 * R; /* region of derivatives: RW x RW */
    __shared__ uint16_t im[T + 2 * R + 1][T + 2 * R + 1];
    __shared__ uint8_t dv[T + 2 * R][T + 2 * R];
    __shared__ uint8_t vs[T][T + 2 * R];
    const int x0 = blockIdx.x * T, y0 = blockIdx.y * T;
    const int tid = threadIdx.y * blockDim.x + threadIdx.x;
    const int nt = blockDim.x * blockDim.y;
    for (int i = tid; i < (RW + 1) * (RW + 1); i += nt) {
        int r = y0 - R + i / (RW + 1), c = x0 - R + i % (RW + 1);
        im[i / (RW + 1)][i % (RW + 1)] =
            r >= 0 && r < (int)h && c >= 0 && c < (int)w
            ? img[(size_t)r * pitch + c] : 0;
    }
    __syncthreads();
    for (int i = tid; i < RW * RW; i += nt) {
        int a = i / RW, b = i % RW;
        int r = y0 - R + a, c = x0 - R + b;
        uint8_t d = 0;
        if (r >= 0 && r < (int)h && c >= 0 && c < (int)w) {
            unsigned v = im[a][b];
            bool hz = c == (int)w - 1 || v == im[a][b + 1];
            bool vt = r == (int)h - 1 || v == im[a + 1][b];
            d = hz && vt;
        }
        dv[a][b] = d;
    }
    __syncthreads();
    for (int i = tid; i < T * RW; i += nt) {
        int a = i / RW, b = i % RW;
        unsigned s = 0;
        for (int k = 0; k <= 2 * R; k++)
            s += dv[a + k][b];
        vs[a][b] = (uint8_t)s;
    }
    __syncthreads();
    for (int i = tid; i < T * T; i += nt) {
        int a = i / T, b = i % T;
        int r = y0 + a, c = x0 + b;
        if (r >= (int)h || c >= (int)w)
            continue;
        unsigned s = 0;
        for (int k = 0; k <= 2 * R; k++)
            s += vs[a][b + k];
        mask[(size_t)r * mask_pitch + c] = s > index;
    }
}

/* ---- scales: (decimation by 2 and) the 3x3 mode filter ----------------- */

__global__ void cambi_scale(const uint16_t *in, unsigned in_pitch, int dec,
                            uint16_t *out, unsigned out_pitch, unsigned w,
                            unsigned h)
{
    unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h)
        return;
    auto d = [&](unsigned r, unsigned c) -> uint16_t {
        return in[(size_t)(r << dec) * in_pitch + (c << dec)];
    };
    uint16_t v;
    if (y == 0 || y + 1 >= h) {
        v = d(y, x);
    } else {
        auto hm = [&](unsigned r) -> uint16_t {
            return x == 0 || x + 1 >= w ? d(r, x)
                 : vq_cambi_mode3(d(r, x - 1), d(r, x), d(r, x + 1));
        };
        v = vq_cambi_mode3(hm(y - 1), hm(y), hm(y + 1));
    }
    out[(size_t)y * out_pitch + x] = v;
}

/* ---- c-values ---------------------------------------------------------------- */

__global__ __launch_bounds__(CAMBI_TW) void cambi_cvalues(VqCambiJobs jobs,
                                                          VqCambiLuts L,
                                                          const float *recip)
{
    __shared__ uint16_t hist[CAMBI_SLOTS * CAMBI_TW];
    __shared__ uint16_t ev_in[CAMBI_ROWBUF], ev_out[CAMBI_ROWBUF];
    __shared__ uint8_t rs_in[CAMBI_ROWBUF], rs_out[CAMBI_ROWBUF];
    __shared__ int scan_in[2][CAMBI_TW], scan_out[2][CAMBI_TW];
    __shared__ int qmin, qmax;

    unsigned j = 0;
    while (j + 1 < jobs.n && blockIdx.x >= jobs.job[j + 1].first_block)
        j++;
    const VqCambiScaleJob J = jobs.job[j];
    const unsigned lb = blockIdx.x - J.first_block;
    const int w = (int)J.w, h = (int)J.h, pad = (int)J.pad;
    const int x0 = (int)(lb % J.blocks_x) * CAMBI_TW;
    const int y0 = (int)(lb / J.blocks_x * J.seg_rows);
    const int y1 = y0 + (int)J.seg_rows < h ? y0 + (int)J.seg_rows : h;
    const int t = (int)threadIdx.x, x = x0 + t;
    const bool col_ok = x < w;

    auto msk = [&](int c, int r) -> bool {
        return J.mask[((size_t)r << J.mask_shift) * J.mask_pitch +
                      ((size_t)c << J.mask_shift)] != 0;
    };
    auto img = [&](int c, int r) -> unsigned {
        return J.img[(size_t)r * J.img_pitch + c];
    };

    /* the values this block queries */
    if (t == 0) {
        qmin = INT_MAX;
        qmax = -1;
    }
    __syncthreads();
    int lmin = INT_MAX, lmax = -1;
    for (int y = y0; col_ok && y < y1; y++) {
        unsigned v = img(x, y);
        if (msk(x, y) && vq_cambi_in_band(&L, v)) {
            lmin = (int)v < lmin ? (int)v : lmin;
            lmax = (int)v > lmax ? (int)v : lmax;
        }
    }
    if (lmax >= 0) {
        atomicMin(&qmin, lmin);
        atomicMax(&qmax, lmax);
    }
    __syncthreads();
    const int vmin = qmin, vmax = qmax;
    if (vmax < 0) {
        for (int y = y0; col_ok && y < y1; y++)
            J.cvals[(size_t)y * w + x] = 0.0f;
        return;
    }

    const int lq = CAMBI_SLOTS - 2 * L.nd;
    for (int qlo = vmin; qlo <= vmax; qlo += lq) {
        const int sbase = qlo - L.nd, qhi = qlo + lq;
        for (int s = 0; s < CAMBI_SLOTS; s++)
            hist[s * CAMBI_TW + t] = 0;

        /* adds row ra and removes row rr (-1: none) from the windows */
        auto slot_of = [&](int c, int r) -> unsigned {
            if (r < 0 || !msk(c, r))
                return VQ_CAMBI_NONE;
            unsigned u = img(c, r);
            int s = (int)u - sbase;
            return vq_cambi_in_band(&L, u) && s >= 0 && s < CAMBI_SLOTS
                 ? (unsigned)s : VQ_CAMBI_NONE;
        };
        /* rs[i]: where the run holding entry i starts. Each thread takes
         * entries 2t, 2t + 1 (the buffer has at most 2 * CAMBI_TW); run
         * starts are a max-scan of "i if entry i differs from i - 1". */
        const int len = CAMBI_TW + 2 * pad;
        auto starts = [&]() {
            auto flag = [&](const uint16_t *ev, int i) -> int {
                return i < len && (i == 0 || ev[i] != ev[i - 1]) ? i : 0;
            };
            const int i0 = 2 * t, i1 = 2 * t + 1;
            int a0 = flag(ev_in, i0), a1 = flag(ev_in, i1);
            int b0 = flag(ev_out, i0), b1 = flag(ev_out, i1);
            a1 = a1 > a0 ? a1 : a0;
            b1 = b1 > b0 ? b1 : b0;
            int buf = 0;
            scan_in[0][t] = a1;
            scan_out[0][t] = b1;
            __syncthreads();
            for (int off = 1; off < CAMBI_TW; off <<= 1) {
                int va = scan_in[buf][t], vb = scan_out[buf][t];
                if (t >= off) {
                    int pa = scan_in[buf][t - off], pb = scan_out[buf][t - off];
                    va = pa > va ? pa : va;
                    vb = pb > vb ? pb : vb;
                }
                scan_in[buf ^ 1][t] = va;
                scan_out[buf ^ 1][t] = vb;
                buf ^= 1;
                __syncthreads();
            }
            int ea = t ? scan_in[buf][t - 1] : 0, eb = t ? scan_out[buf][t - 1] : 0;
            if (i0 < len) {
                rs_in[i0] = (uint8_t)(a0 > ea ? a0 : ea);
                rs_out[i0] = (uint8_t)(b0 > eb ? b0 : eb);
            }
            if (i1 < len) {
                rs_in[i1] = (uint8_t)(a1 > ea ? a1 : ea);
                rs_out[i1] = (uint8_t)(b1 > eb ? b1 : eb);
            }
            __syncthreads();
        };
        /* thread t's window is entries t .. t + 2 pad: from its last entry
         * back, one step per run */
        auto run = [&](const uint16_t *ev, const uint8_t *rs, int sign) {
            for (int pos = t + 2 * pad; pos >= t;) {
                int start = rs[pos] > t ? rs[pos] : t;
                unsigned s = ev[pos];
                if (s != VQ_CAMBI_NONE)
                    hist[s * CAMBI_TW + t] = (uint16_t)(hist[s * CAMBI_TW + t] +
                                                        sign * (pos - start + 1));
                pos = start - 1;
            }
        };
        auto events = [&](int ra, int rr) {
            __syncthreads();
            for (int i = t; i < CAMBI_TW + 2 * pad; i += CAMBI_TW) {
                int c = x0 - pad + i;
                unsigned sa = VQ_CAMBI_NONE, sr = VQ_CAMBI_NONE;
                if (c >= 0 && c < w) {
                    sa = slot_of(c, ra);
                    sr = slot_of(c, rr);
                }
                if (sa == sr)
                    sa = sr = VQ_CAMBI_NONE;
                ev_in[i] = (uint16_t)sa;
                ev_out[i] = (uint16_t)sr;
            }
            __syncthreads();
            starts();
            if (col_ok) {
                run(ev_in, rs_in, 1);
                run(ev_out, rs_out, -1);
            }
        };

        for (int r = y0 - pad > 0 ? y0 - pad : 0; r < y0 + pad && r < h; r++)
            events(r, -1);
        for (int y = y0; y < y1; y++) {
            int ra = y + pad < h ? y + pad : -1;
            int rr = y > y0 && y - pad - 1 >= 0 ? y - pad - 1 : -1;
            if (ra >= 0 || rr >= 0)
                events(ra, rr);
            if (!col_ok)
                continue;
            unsigned v = img(x, y);
            bool query = msk(x, y) && vq_cambi_in_band(&L, v);
            if (query && (int)v >= qlo && (int)v < qhi) {
                const int u0 = (int)v - sbase;
                const unsigned p0 = hist[u0 * CAMBI_TW + t];
                float c = 0.0f;
                for (int d = 0; d < L.nd; d++) {
                    if (!vq_cambi_active(&L, v, d) ||
                        (int)v - L.base + d + 1 >= L.band)
                        continue;
                    unsigned p1 = hist[(u0 + d + 1) * CAMBI_TW + t];
                    unsigned p2 = (int)v - d - 1 >= L.base
                                ? hist[(u0 - d - 1) * CAMBI_TW + t] : 0u;
                    unsigned pm = p1 > p2 ? p1 : p2;
                    float term = vq_cambi_term(L.weight[d], p0, pm, recip[p0 + pm]);
                    if (term > c)
                        c = term;
                }
                J.cvals[(size_t)y * w + x] = c;
            } else if (!query && qlo == vmin) {
                J.cvals[(size_t)y * w + x] = 0.0f;
            }
        }
        __syncthreads();
    }
}

/* ---- pooling: histogram of one radix level, then the selection ------------- */

__global__ void cambi_pool_hist(VqCambiPoolJobs jobs, unsigned level,
                                VqCambiPoolWork *work)
{
    __shared__ unsigned cnt[1024];
    __shared__ unsigned long long sum[1024];
    VqCambiPoolWork *W = work + blockIdx.y;
    if (W->done)
        return;
    const VqCambiPoolJob J = jobs.job[blockIdx.y];
    const uint32_t prefix = W->prefix;
    const unsigned nb = vq_cambi_bins(level);
    for (unsigned i = threadIdx.x; i < nb; i += blockDim.x) {
        cnt[i] = 0;
        sum[i] = 0;
    }
    __syncthreads();
    int cur = -1;
    unsigned cc = 0;
    unsigned long long cs = 0;
    const uint64_t step = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < J.n;
         i += step) {
        uint32_t key = vq_cambi_key(J.cvals[i]);
        if (!key)
            continue;
        int b = vq_cambi_bin(level, key, prefix);
        if (b < 0)
            continue;
        if (b != cur) {
            if (cur >= 0) {
                atomicAdd(&cnt[cur], cc);
                atomicAdd(&sum[cur], cs);
            }
            cur = b;
            cc = 0;
            cs = 0;
        }
        cc++;
        cs += vq_cambi_fixed(key);
    }
    if (cur >= 0) {
        atomicAdd(&cnt[cur], cc);
        atomicAdd(&sum[cur], cs);
    }
    __syncthreads();
    uint32_t *gcnt = level == 1 ? W->cnt1 : level == 2 ? W->cnt2 : W->cnt3;
    uint64_t *gsum = level == 1 ? W->sum1 : level == 2 ? W->sum2 : NULL;
    for (unsigned i = threadIdx.x; i < nb; i += blockDim.x) {
        if (!cnt[i])
            continue;
        atomicAdd((unsigned *)&gcnt[i], cnt[i]);
        if (gsum)
            atomicAdd((unsigned long long *)&gsum[i], sum[i]);
    }
}

/* One block per job. Threads own groups of bins, the highest bins first;
 * an inclusive scan of the groups' counts finds the group holding the
 * need-th largest value, whose thread finds the bin. */
__global__ __launch_bounds__(CAMBI_POOL_THREADS) void cambi_pool_select(
    VqCambiPoolJobs jobs, unsigned level, VqCambiPoolWork *work,
    VqCambiAcc *acc)
{
    __shared__ unsigned long long gc[CAMBI_POOL_THREADS], gs[CAMBI_POOL_THREADS];
    VqCambiPoolWork *W = work + blockIdx.x;
    if (W->done)
        return;
    const VqCambiPoolJob J = jobs.job[blockIdx.x];
    /* the state as the level before left it, read before the one thread
     * that selects rewrites it */
    const uint64_t w_need = W->need, w_sum = W->sum;
    const uint32_t w_prefix = W->prefix;
    const unsigned nb = vq_cambi_bins(level), t = threadIdx.x;
    const unsigned g = nb / CAMBI_POOL_THREADS;
    const uint32_t *cnt = level == 1 ? W->cnt1 : level == 2 ? W->cnt2 : W->cnt3;
    const uint64_t *sum = level == 1 ? W->sum1 : level == 2 ? W->sum2 : NULL;
    auto bin_sum = [&](unsigned b) -> unsigned long long {
        return sum ? sum[b]
                   : cnt[b] * vq_cambi_fixed(vq_cambi_prefix(3, w_prefix, b));
    };
    const unsigned hi = nb - t * g, lo = hi - g;
    unsigned long long c = 0, s = 0;
    for (unsigned b = lo; b < hi; b++) {
        c += cnt[b];
        s += bin_sum(b);
    }
    gc[t] = c;
    gs[t] = s;
    __syncthreads();
    for (unsigned off = 1; off < CAMBI_POOL_THREADS; off <<= 1) {
        unsigned long long ac = t >= off ? gc[t - off] : 0;
        unsigned long long as = t >= off ? gs[t - off] : 0;
        __syncthreads();
        gc[t] += ac;
        gs[t] += as;
        __syncthreads();
    }
    unsigned long long *out =
        (unsigned long long *)(&acc->topk_sum[0][0] + J.slot);
    if (level == 1 && gc[CAMBI_POOL_THREADS - 1] <= J.k) {
        /* the rest of the k are zeros */
        if (t == 0) {
            *out = gs[CAMBI_POOL_THREADS - 1];
            W->done = 1;
        }
        return;
    }
    const unsigned long long need = level == 1 ? J.k : w_need;
    const unsigned long long before = t ? gc[t - 1] : 0;
    if (!(before < need && need <= gc[t]))
        return;
    unsigned long long above = before, taken = w_sum + (t ? gs[t - 1] : 0);
    unsigned b = hi;
    while (b-- > lo) {
        if (above + cnt[b] >= need)
            break;
        above += cnt[b];
        taken += bin_sum(b);
    }
    const unsigned long long rest = need - above;
    if (level == 3 || rest == cnt[b]) {
        *out = taken + (level == 3
                        ? rest * vq_cambi_fixed(vq_cambi_prefix(3, w_prefix, b))
                        : bin_sum(b));
        W->done = 1;
    } else {
        W->need = rest;
        W->sum = taken;
        W->prefix = vq_cambi_prefix(level, w_prefix, b);
    }
}

__global__ void cambi_heatmap(const float *c, uint64_t n, double scale,
                              uint16_t *out)
{
    const uint64_t step = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += step)
        out[i] = vq_cambi_heat(scale, c[i]);
}

/* ---- launchers ---------------------------------------------------------------- */

extern "C" int vq_cambi_check_launch(VqStream s, const VqDevPlane *luma,
                                     unsigned bpc, uint64_t *n_bad)
{
    unsigned blocks = luma->h < 1024 ? luma->h : 1024;
    cambi_check<<<blocks, CAMBI_POOL_THREADS, 0, vq_hip_stream(s)>>>(
        *luma, (1u << bpc) - 1, (unsigned long long *)n_bad);
    return vq_launch_status();
}

extern "C" int vq_cambi_pre_launch(VqStream s, const VqDevPlane *luma,
                                   unsigned bpc, const int *xmap,
                                   const int *ymap, unsigned w, unsigned h,
                                   int anti_dither, uint16_t *out,
                                   unsigned out_pitch)
{
    dim3 block(32, 8), grid(vq_div_ceil(w, 32), vq_div_ceil(h, 8));
    if (bpc > 8)
        cambi_pre<uint16_t><<<grid, block, 0, vq_hip_stream(s)>>>(
            *luma, bpc, xmap, ymap, w, h, anti_dither, out, out_pitch);
    else
        cambi_pre<uint8_t><<<grid, block, 0, vq_hip_stream(s)>>>(
            *luma, bpc, xmap, ymap, w, h, anti_dither, out, out_pitch);
    return vq_launch_status();
}

extern "C" int vq_cambi_mask_launch(VqStream s, const uint16_t *img,
                                    unsigned pitch, unsigned w, unsigned h,
                                    unsigned mask_index, uint8_t *mask,
                                    unsigned mask_pitch)
{
    dim3 block(32, 8), grid(vq_div_ceil(w, CAMBI_MASK_TILE),
                            vq_div_ceil(h, CAMBI_MASK_TILE));
    cambi_mask<<<grid, block, 0, vq_hip_stream(s)>>>(img, pitch, w, h,
                                                      mask_index, mask,
                                                      mask_pitch);
    return vq_launch_status();
}

extern "C" int vq_cambi_scale_launch(VqStream s, const uint16_t *in,
                                     unsigned in_pitch, int decimate,
                                     uint16_t *out, unsigned out_pitch,
                                     unsigned w, unsigned h)
{
    dim3 block(32, 8), grid(vq_div_ceil(w, 32), vq_div_ceil(h, 8));
    cambi_scale<<<grid, block, 0, vq_hip_stream(s)>>>(in, in_pitch, decimate,
                                                       out, out_pitch, w, h);
    return vq_launch_status();
}

extern "C" int vq_cambi_cvalues_launch(VqStream s, const VqCambiJobs *jobs,
                                       const VqCambiLuts *luts,
                                       const float *recip)
{
    if (!jobs->n_blocks)
        return 0;
    cambi_cvalues<<<jobs->n_blocks, CAMBI_TW, 0, vq_hip_stream(s)>>>(
        *jobs, *luts, recip);
    return vq_launch_status();
}

extern "C" int vq_cambi_pool_launch(VqStream s, const VqCambiPoolJobs *jobs,
                                    unsigned level, VqCambiPoolWork *work,
                                    VqCambiAcc *acc)
{
    uint64_t most = 0;
    for (unsigned j = 0; j < jobs->n; j++)
        most = jobs->job[j].n > most ? jobs->job[j].n : most;
    uint64_t per = (uint64_t)CAMBI_POOL_THREADS * 16;
    unsigned bx = (unsigned)((most + per - 1) / per);
    bx = bx < 1 ? 1 : bx > 256 ? 256 : bx;
    dim3 grid(bx, jobs->n);
    cambi_pool_hist<<<grid, CAMBI_POOL_THREADS, 0, vq_hip_stream(s)>>>(
        *jobs, level, work);
    int err = vq_launch_status();
    if (err)
        return err;
    cambi_pool_select<<<jobs->n, CAMBI_POOL_THREADS, 0, vq_hip_stream(s)>>>(
        *jobs, level, work, acc);
    return vq_launch_status();
}

extern "C" int vq_cambi_heatmap_launch(VqStream s, const float *cvals,
                                       uint64_t n, double scale, uint16_t *out)
{
    unsigned blocks = (unsigned)((n + 255) / 256);
    blocks = blocks > 1024 ? 1024 : blocks < 1 ? 1 : blocks;
    cambi_heatmap<<<blocks, 256, 0, vq_hip_stream(s)>>>(cvals, n, scale, out);
    return vq_launch_status();
}
