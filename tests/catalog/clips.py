"""The catalog tests' clips: a moving texture with a scene cut at frame 11,
noise added for the distorted one (seed > 0); integers only. tile > 1
repeats each frame tile x tile times (a larger frame, as cheap to make)."""


def clip(path, seed, W, H, N, y4m=False, tile=1):
    """A moving texture (and noise for the distorted one): integers only."""
    out = bytearray()
    if y4m:
        out += b'YUV4MPEG2 W%d H%d F25:1 Ip A1:1 C420jpeg\n' % (W * tile,
                                                              H * tile)
    state = seed
    for t in range(N):
        # a scene cut at frame 11: motion's neighbours matter there
        k = 5 * t + (40 if t >= 11 else 0)
        y = bytearray(W * H)
        for r in range(H):
            for c in range(W):
                v = (((c + k) ^ (r + 2 * t)) & 31) * 4 + (c * 60) // W
                if seed:
                    state = (state * 1103515245 + 12345) & 0x7FFFFFFF
                    v += (state >> 16) % 9 - 4
                y[r * W + c] = max(0, min(255, v))
        uv = bytes(((c + r + t) & 255) for r in range(H // 2)
                   for c in range(W // 2))
        if y4m:
            out += b'FRAME\n'
        out += _tile(y, W, tile) + 2 * _tile(uv, W // 2, tile)
    with open(path, 'wb') as f:
        f.write(out)


def _tile(plane, width, tile):
    rows = [bytes(plane[i:i + width]) * tile
            for i in range(0, len(plane), width)]
    return b''.join(rows) * tile
