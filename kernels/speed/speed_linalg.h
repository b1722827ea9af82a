/*
 * The 25x25 linear algebra of SpEED's parameter estimation, as libvmaf's
 * speed.c does it in single precision: the eigenvalues of the covariance
 * matrix (Householder reduction to tridiagonal form, then implicit QR steps
 * with Wilkinson shifts and Givens rotations), and the solution of K X = Y
 * through a Householder QR factorisation built with explicit 25x25 matrix
 * products.
 *
 * Exactness: every expression keeps libvmaf's operand types (float, or double
 * where a double constant or sqrt enters) and evaluation order; with no FMA
 * contraction the results are the same bits on every platform. The CPU calls
 * the whole-matrix functions below; the kernels run the same element helpers
 * (one thread per element for products and updates, one thread for the
 * sequential parts), so each element sees the same operations in the same
 * order.
 */
#ifndef VQHIP_KERNELS_SPEED_LINALG_H
#define VQHIP_KERNELS_SPEED_LINALG_H

#include "speed_math.h"

#ifdef __cplusplus
extern "C" {
#endif

#define VQ_SPEED_N 25             /* elements of a 5x5 block */
#define VQ_SPEED_EIG_EPS 1e-6     /* libvmaf's EIGENVALUE_EPS */
#define VQ_SPEED_EIG_MAX_ITERS 500

static inline VQ_HOST_DEVICE float vq_speed_absf(float x)
{
    return x < 0.0f ? -x : (x == 0.0f ? 0.0f : x);
}

static inline VQ_HOST_DEVICE int vq_speed_sign(float x)
{
    return x >= 0 ? 1 : -1;
}

static inline VQ_HOST_DEVICE float vq_speed_hypot(float x, float y)
{
    return vq_speed_sqrtf(x * x + y * y);
}

/* ---- reduction to tridiagonal form -------------------------------------- */

/* Householder vector of column col below row start (scaled in place, its
 * first entry replaced by beta); returns tau (0: nothing to annihilate).
 * Sequential: one thread. */
static inline VQ_HOST_DEVICE float vq_speed_householder(float *a, int col,
                                                        int start)
{
    const int n = VQ_SPEED_N;
    if (n - start == 1)
        return 0.0f;
    float norm = 0;
    for (int i = start + 1; i < n; i++)
        norm += a[i * n + col] * a[i * n + col];
    const float xnorm = vq_speed_sqrtf(norm);
    if (xnorm == 0.0f)
        return 0.0f;
    const float alpha = a[start * n + col];
    const float beta = (float)-vq_speed_sign(alpha) * vq_speed_hypot(alpha, xnorm);
    const float tau = (beta - alpha) / beta;
    const float s = alpha - beta;
    if (s != 0.0f) {
        for (int i = start; i < n; i++)
            a[i * n + col] /= s;
        a[start * n + col] = beta;
    }
    return tau;
}

/* x[row] of x = tau A v over [start, n). */
static inline VQ_HOST_DEVICE float vq_speed_tri_row(const float *a,
                                                   const float *v, float tau,
                                                   int row, int start)
{
    float x = 0.0f;
    for (int j = start; j < VQ_SPEED_N; j++)
        x += tau * a[row * VQ_SPEED_N + j] * v[j];
    return x;
}

/* alpha = -tau (x . v) / 2 over [start, n). Sequential. */
static inline VQ_HOST_DEVICE float vq_speed_tri_alpha(const float *x,
                                                     const float *v, float tau,
                                                     int start)
{
    float xv = 0;
    for (int i = start; i < VQ_SPEED_N; i++)
        xv += x[i] * v[i];
    return (float)(-0.5 * tau * xv);
}

/* A[r][c] -= x[r] v[c] + v[r] x[c] */
static inline VQ_HOST_DEVICE float vq_speed_tri_update(float a, const float *x,
                                                      const float *v, int r,
                                                      int c)
{
    return a - (x[r] * v[c] + v[r] * x[c]);
}

/* Whole reduction (CPU). a: the matrix, destroyed; d, sd: the diagonal and
 * subdiagonal; v, x: n floats each. */
static inline VQ_HOST_DEVICE void vq_speed_tridiagonal(float *a, float *d,
                                                       float *sd, float *v,
                                                       float *x)
{
    const int n = VQ_SPEED_N;
    for (int i = 0; i < n - 2; i++) {
        const float tau = vq_speed_householder(a, i, i + 1);
        for (int j = i + 1; j < n; j++)
            v[j] = a[j * n + i];
        if (tau != 0.0f) {
            a[(i + 1) * n + i] = v[i + 1];
            v[i + 1] = 1.0f;
            for (int r = i + 1; r < n; r++)
                x[r] = vq_speed_tri_row(a, v, tau, r, i + 1);
            const float alpha = vq_speed_tri_alpha(x, v, tau, i + 1);
            for (int r = i + 1; r < n; r++)
                x[r] += alpha * v[r];
            for (int r = i + 1; r < n; r++)
                for (int c = i + 1; c < n; c++)
                    a[r * n + c] = vq_speed_tri_update(a[r * n + c], x, v, r, c);
        }
    }
    for (int i = 0; i < n; i++)
        d[i] = a[i * n + i];
    for (int i = 0; i < n - 1; i++)
        sd[i] = a[(i + 1) * n + i];
}

/* ---- eigenvalues of the tridiagonal matrix (sequential) ------------------ */

static inline VQ_HOST_DEVICE void vq_speed_chop(const float *d, float *sd,
                                               int n)
{
    for (int i = 0; i < n - 1; i++)
        if (vq_speed_absf(sd[i]) <
            VQ_SPEED_EIG_EPS * (vq_speed_absf(d[i]) + vq_speed_absf(d[i + 1])))
            sd[i] = 0.0f;
}

static inline VQ_HOST_DEVICE float vq_speed_trailing(const float *d,
                                                    const float *sd, int n)
{
    const float ta = d[n - 2], tb = d[n - 1], tab = sd[n - 2];
    const float dt = (float)((ta - tb) / 2.0);
    if (dt > 0)
        return tb - tab * (tab / (dt + vq_speed_hypot(dt, tab)));
    if (dt == 0)
        return tb - vq_speed_absf(tab);
    return tb + tab * (tab / (-dt + vq_speed_hypot(dt, tab)));
}

static inline VQ_HOST_DEVICE void vq_speed_givens(float a, float b, float *c,
                                                  float *s)
{
    if (b == 0) {
        *c = 1;
        *s = 0;
    } else if (vq_speed_absf(b) > vq_speed_absf(a)) {
        const float t = -a / b;
        const float s1 = (float)(1.0 / vq_speed_sqrt((double)(1 + t * t)));
        *s = s1;
        *c = s1 * t;
    } else {
        const float t = -b / a;
        const float c1 = (float)(1.0 / vq_speed_sqrt((double)(1 + t * t)));
        *c = c1;
        *s = c1 * t;
    }
}

/* One implicit QR step on the unreduced block d[0..n), sd[0..n-1). */
static inline VQ_HOST_DEVICE void vq_speed_qr_step(float *d, float *sd, int n)
{
    float mu = vq_speed_trailing(d, sd, n);
    if (VQ_SPEED_EIG_EPS * vq_speed_absf(mu) >
        vq_speed_absf(d[0]) + vq_speed_absf(sd[0]))
        mu = 0;
    float x = d[0] - mu, z = sd[0];
    float bk = 0, zk = 0;
    float ap = d[0], bp = sd[0], aq = d[1];
    float c, s;
    if (n == 2) {
        vq_speed_givens(x, z, &c, &s);
        const float ap1 = c * (c * ap - s * bp) + s * (s * aq - c * bp);
        const float bp1 = c * (s * ap + c * bp) - s * (s * bp + c * aq);
        const float aq1 = s * (s * ap + c * bp) + c * (s * bp + c * aq);
        d[0] = ap1;
        sd[0] = bp1;
        d[1] = aq1;
        return;
    }
    float bq = sd[1];
    for (int k = 0; k < n - 1; k++) {
        vq_speed_givens(x, z, &c, &s);
        const float bk1 = c * bk - s * zk;
        const float ap1 = c * (c * ap - s * bp) + s * (s * aq - c * bp);
        const float bp1 = c * (s * ap + c * bp) - s * (s * bp + c * aq);
        const float zp1 = -s * bq;
        const float aq1 = s * (s * ap + c * bp) + c * (s * bp + c * aq);
        const float bq1 = c * bq;
        bk = bp1;
        zk = zp1;
        ap = aq1;
        bp = bq1;
        if (k < n - 2)
            aq = d[k + 2];
        if (k < n - 3)
            bq = sd[k + 2];
        d[k] = ap1;
        if (k > 0)
            sd[k - 1] = bk1;
        if (k < n - 2)
            sd[k + 1] = bp;
        x = bk;
        z = zk;
    }
    d[n - 1] = ap;
    sd[n - 2] = bk;
}

/* Eigenvalues of the symmetric tridiagonal (d, sd), left in d; returns the
 * number of QR steps taken. */
static inline VQ_HOST_DEVICE int vq_speed_tridiag_eig(float *d, float *sd)
{
    const int n = VQ_SPEED_N;
    vq_speed_chop(d, sd, n);
    int b = n - 1, iter = 0;
    while (b > 0 && iter < VQ_SPEED_EIG_MAX_ITERS) {
        if (sd[b - 1] == 0.0f) {
            b--;
            continue;
        }
        int a = b - 1;
        while (a > 0 && sd[a - 1] != 0.0f)
            a--;
        vq_speed_qr_step(d + a, sd + a, b - a + 1);
        vq_speed_chop(d + a, sd + a, b - a + 1);
        iter++;
    }
    return iter;
}

/* ---- QR factorisation with explicit reflectors ------------------------- */

/* tz after libvmaf's matrix_minor(tz, k): rows and columns before k become
 * the identity's. */
static inline VQ_HOST_DEVICE float vq_speed_minor(float v, int i, int j, int k)
{
    return (i < k || j < k) ? (i == j ? 1.0f : 0.0f) : v;
}

static inline VQ_HOST_DEVICE float vq_speed_norm(const float *v)
{
    float sum = 0;
    for (int i = 0; i < VQ_SPEED_N; i++)
        sum += v[i] * v[i];
    return vq_speed_sqrtf(sum);
}

/* The unit reflector vector of step k from column k of tz; the sign comes
 * from the original matrix a, as in libvmaf. Sequential. */
static inline VQ_HOST_DEVICE void vq_speed_reflector(const float *tz,
                                                     const float *a, int k,
                                                     float *vec)
{
    const int n = VQ_SPEED_N;
    for (int i = 0; i < n; i++)
        vec[i] = tz[i * n + k];
    const float norm = vq_speed_norm(vec);
    vec[k] += (float)vq_speed_sign(a[k * n + k]) * norm;
    const float d = vq_speed_norm(vec);
    for (int i = 0; i < n; i++)
        vec[i] = vec[i] / d;
}

/* Element (i, j) of I - 2 v v^T. */
static inline VQ_HOST_DEVICE float vq_speed_reflect_elem(const float *v, int i,
                                                        int j)
{
    float e = -2.0f * v[i] * v[j];
    if (i == j)
        e += 1;
    return e;
}

/* Element (i, j) of x y (rows of x times columns of y, y with ycols
 * columns), summed from k = 0 as libvmaf's matrix_mul. */
static inline VQ_HOST_DEVICE float vq_speed_mul_elem(const float *x,
                                                    const float *y, int ycols,
                                                    int i, int j)
{
    float acc = 0;
    for (int k = 0; k < VQ_SPEED_N; k++)
        acc += x[i * VQ_SPEED_N + k] * y[k * ycols + j];
    return acc;
}

/* dst = x y for 25x25 matrices (CPU), in libvmaf's i, k, j loop order,
 * which gives each element the sum of vq_speed_mul_elem. */
static inline VQ_HOST_DEVICE void vq_speed_matmul(float *dst, const float *x,
                                                  const float *y)
{
    const int n = VQ_SPEED_N;
    for (int i = 0; i < n * n; i++)
        dst[i] = 0;
    for (int i = 0; i < n; i++)
        for (int k = 0; k < n; k++) {
            const float xik = x[i * n + k];
            for (int j = 0; j < n; j++)
                dst[i * n + j] += xik * y[k * n + j];
        }
}

/*
 * A = P^T R (CPU): P is the product of the reflectors (libvmaf's Q after
 * its two transposes), R = P A. tz, tq, tmp: 625 floats each.
 */
static inline VQ_HOST_DEVICE void vq_speed_qr(const float *a, float *p,
                                              float *r, float *tz, float *tq,
                                              float *tmp)
{
    const int n = VQ_SPEED_N;
    float vec[VQ_SPEED_N];
    for (int i = 0; i < n * n; i++) {
        tz[i] = a[i];
        p[i] = (i / n == i % n) ? 1.0f : 0.0f;
    }
    for (int k = 0; k < n - 1; k++) {
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++)
                tz[i * n + j] = vq_speed_minor(tz[i * n + j], i, j, k);
        vq_speed_reflector(tz, a, k, vec);
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++)
                tq[i * n + j] = vq_speed_reflect_elem(vec, i, j);
        vq_speed_matmul(tmp, tq, tz);
        for (int i = 0; i < n * n; i++)
            tz[i] = tmp[i];
        vq_speed_matmul(tmp, tq, p);
        for (int i = 0; i < n * n; i++)
            p[i] = tmp[i];
    }
    vq_speed_matmul(r, p, a);
}

/* ---- per block: solve, variance, entropy --------------------------------- */

/* Nonzero when libvmaf would call the matrix singular: an eigenvalue below
 * the threshold, or (the solve's check) a small diagonal entry of R. */
static inline VQ_HOST_DEVICE int vq_speed_singular(const float *eig,
                                                   const float *r)
{
    for (int i = 0; i < VQ_SPEED_N; i++)
        if (eig[i] < VQ_SPEED_EIG_EPS)
            return 1;
    for (int i = VQ_SPEED_N - 1; i >= 0; i--)
        if (vq_speed_absf(r[i * VQ_SPEED_N + i]) < VQ_SPEED_EIG_EPS)
            return 1;
    return 0;
}

/*
 * One block column y (the block's 25 samples, row-major): x = R^-1 P y (or 0
 * when singular), then the variance S = sum_k x_k y_k / 25 and the entropy
 * sum_k log2(max(eig_k, 0) S + sigma_nn) + log2(2 pi e), each step rounded
 * as libvmaf's float arrays round it.
 */
static inline VQ_HOST_DEVICE void vq_speed_block(const float *p,
                                                 const float *r,
                                                 const float *eig,
                                                 int singular, const float *y,
                                                 float sigma_nn, float *var,
                                                 float *ent)
{
    const int n = VQ_SPEED_N;
    float b[VQ_SPEED_N], x[VQ_SPEED_N];
    if (singular) {
        for (int i = 0; i < n; i++)
            x[i] = 0.0f;
    } else {
        for (int i = 0; i < n; i++) {
            float acc = 0;
            for (int k = 0; k < n; k++)
                acc += p[i * n + k] * y[k];
            b[i] = acc;
        }
        for (int i = n - 1; i >= 0; i--) {
            float t = b[i];
            for (int k = i + 1; k < n; k++)
                t -= x[k] * r[i * n + k];
            x[i] = t / r[i * n + i];
        }
    }
    float s = (x[0] * y[0]) / (float)n;
    for (int i = 1; i < n; i++)
        s += (x[i] * y[i]) / (float)n;
    float e = 0;
    for (int k = 0; k < n; k++) {
        const float l = eig[k] < 0 ? 0 : eig[k];
        e = (float)((double)e + (vq_speed_log2((double)(l * s + sigma_nn)) +
                                 VQ_SPEED_LOG2_2PIE));
    }
    *var = s;
    *ent = e;
}

#ifdef __cplusplus
}
#endif

#endif
