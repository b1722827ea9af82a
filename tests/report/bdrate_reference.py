"""BD-rate for the tests, written apart from tools/report/report_bdrate.c and
without numpy or scipy: PCHIP slopes as scipy.interpolate.PchipInterpolator
computes them, each cubic piece written out as a polynomial and integrated
with its antiderivative (the tool uses Simpson's rule on the Hermite form).

    BD-rate(A -> B) = (10 ** D - 1) * 100, D = mean over the common quality
    range of log10 rate_B(q) - log10 rate_A(q).
"""
import math


def _sign(v):
    return (v > 0) - (v < 0)


def pchip_slopes(x, y):
    n = len(x)
    h = [x[i + 1] - x[i] for i in range(n - 1)]
    m = [(y[i + 1] - y[i]) / h[i] for i in range(n - 1)]
    if n == 2:
        return [m[0], m[0]]
    d = [0.0] * n
    for k in range(1, n - 1):
        if _sign(m[k - 1]) != _sign(m[k]) or m[k - 1] == 0 or m[k] == 0:
            d[k] = 0.0
        else:
            w1, w2 = 2 * h[k] + h[k - 1], h[k] + 2 * h[k - 1]
            d[k] = (w1 + w2) / (w1 / m[k - 1] + w2 / m[k])

    def edge(h0, h1, m0, m1):
        e = ((2 * h0 + h1) * m0 - h0 * m1) / (h0 + h1)
        if _sign(e) != _sign(m0):
            return 0.0
        if _sign(m0) != _sign(m1) and abs(e) > 3 * abs(m0):
            return 3 * m0
        return e

    d[0] = edge(h[0], h[1], m[0], m[1])
    d[-1] = edge(h[-1], h[-2], m[-1], m[-2])
    return d


def pchip_integral(x, y, lo, hi):
    d = pchip_slopes(x, y)
    total = 0.0
    for k in range(len(x) - 1):
        a, b = max(lo, x[k]), min(hi, x[k + 1])
        if b <= a:
            continue
        hk = x[k + 1] - x[k]
        m = (y[k + 1] - y[k]) / hk
        # p(t) = c0 + c1 t + c2 t^2 + c3 t^3, t = q - x_k
        c0, c1 = y[k], d[k]
        c2 = (3 * m - 2 * d[k] - d[k + 1]) / hk
        c3 = (d[k] + d[k + 1] - 2 * m) / hk ** 2

        def prim(t):
            return c0 * t + c1 * t ** 2 / 2 + c2 * t ** 3 / 3 + c3 * t ** 4 / 4
        total += prim(b - x[k]) - prim(a - x[k])
    return total


def bd_rate(a, b):
    """a, b: [(kbps, quality)]; the percentage for B against A."""
    def curve(points):
        pts = sorted(points, key=lambda p: p[1])
        return [p[1] for p in pts], [math.log10(p[0]) for p in pts]
    xa, ya = curve(a)
    xb, yb = curve(b)
    lo, hi = max(xa[0], xb[0]), min(xa[-1], xb[-1])
    diff = (pchip_integral(xb, yb, lo, hi) - pchip_integral(xa, ya, lo, hi)) / (hi - lo)
    return (10 ** diff - 1) * 100
