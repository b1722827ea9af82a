#!/usr/bin/env python3
"""Writes the reference and distorted clips of the log-layout test.

usage: make_clip.py REF.yuv DIS.yuv

320x180 yuv420p, 8-bit, 6 frames: a moving XOR texture over a gradient,
and a copy with a box blur and pseudo-random noise (a fixed linear
congruential generator) on luma and small steps on chroma. Integer arithmetic only, so every machine writes
the same bytes; the committed libvmaf logs were made from them.
"""
import sys

W, H, FRAMES = 320, 180, 6


def planes(t):
    y = bytearray(W * H)
    for r in range(H):
        for c in range(W):
            v = ((c + 3 * t) ^ (r - 2 * t)) & 63
            y[r * W + c] = (v + (c * 160) // W + (r * 32) // H) & 255
    cw, ch = W // 2, H // 2
    u = bytearray((c + 2 * r + t) & 255 for r in range(ch) for c in range(cw))
    v = bytearray((3 * c - r + 128) & 255 for r in range(ch) for c in range(cw))
    return y, u, v


def distort(y, seed):
    out = bytearray(len(y))
    state = seed
    for r in range(H):
        for c in range(W):
            s = n = 0
            for dr in (-1, 0, 1):
                for dc in (-1, 0, 1):
                    rr, cc = r + dr, c + dc
                    if 0 <= rr < H and 0 <= cc < W:
                        s += y[rr * W + cc]
                        n += 1
            state = (state * 1103515245 + 12345) & 0x7FFFFFFF
            noise = (state >> 16) % 9 - 4
            out[r * W + c] = min(255, max(0, s // n + noise))
    return out


def main(argv):
    if len(argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    with open(argv[1], 'wb') as ref, open(argv[2], 'wb') as dis:
        for t in range(FRAMES):
            y, u, v = planes(t)
            ref.write(y + u + v)
            du = bytearray(min(255, b + (i % 7 == 0)) for i, b in enumerate(u))
            dv = bytearray(max(0, b - (i % 5 == 0)) for i, b in enumerate(v))
            dis.write(distort(y, 1 + t) + du + dv)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
