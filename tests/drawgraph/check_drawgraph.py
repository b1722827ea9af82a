#!/usr/bin/python3
"""FFmpeg's own drawgraph plots the vqhip filter's per-frame metadata
(docs/LIVE.md, "Watching it: drawgraph"): the plotted points are where
the per-frame values of the run's log put them.

usage: check_drawgraph.py FFMPEG WORK_DIR

Runs `vqhip=...:log_path=LOG,drawgraph=m1=lavfi.vqhip.psnr_y:mode=dot:
slide=picture:...` on check_windows.py's clip (37 frames, PSNR spread
over some 25 dB) into a PNG, reads the PNG back through FFmpeg as raw
8-bit gray (no PNG library here), and recomputes each frame's point from
the JSON log (log_precision=17): the metadata string is the value as %f,
drawgraph reads it as a float and puts frame i's dot in column i (the
graph is wider than the run: one frame a column) at row
int((h - 1) * (1 - (v - min) / (max - min))) in float arithmetic, as
libavfilter/f_drawgraph.c does. Requires each of the 37 columns to have
exactly that one lit pixel, every other pixel dark, and the dots to span
many rows (a flat line would not test the placement).
Exit 77 (skip) when FFMPEG has no vqhip filter or no drawgraph filter.
"""
import json
import os
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'common'))
from ffmpeg_filters import missing_filters  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'windows'))
import check_windows as cw  # noqa: E402

GW, GH = 64, 101          # the graph: wider than the clip's 37 frames
VMIN, VMAX = 10.0, 50.0   # the clip's psnr_y lies within


def expected_row(text):
    """Row of a metadata value ("%f" text) in f_drawgraph.c's float math."""
    f32 = np.float32
    vf = f32(text)
    vf = min(max(vf, f32(VMIN)), f32(VMAX))     # av_clipf
    t = f32(f32(vf - f32(VMIN)) / f32(f32(VMAX) - f32(VMIN)))
    return int(f32(f32(GH - 1) * f32(f32(1) - t)))  # truncated, as C's int


def main():
    ff, work = sys.argv[1], sys.argv[2]
    try:
        missing = missing_filters(ff, ['vqhip', 'drawgraph'])
    except OSError:
        missing = ['vqhip']
    if missing:
        print('SKIP: %s lacks the vqhip or the drawgraph filter' % ff)
        return 77
    os.makedirs(work, exist_ok=True)
    cw.write_clip(work + '/ref.y4m', work + '/dis.y4m')
    log, png = work + '/run.json', work + '/graph.png'
    if os.path.exists(png):
        os.unlink(png)
    graph = ('[0:v][1:v]vqhip=backend=cpu:feature=name=psnr:log_fmt=json:'
             'log_precision=17:log_path=%s,'
             'drawgraph=m1=lavfi.vqhip.psnr_y:fg1=0xffffffff:bg=black:'
             'min=%g:max=%g:mode=dot:slide=picture:size=%dx%d'
             % (log, VMIN, VMAX, GW, GH))
    subprocess.run([ff, '-nostdin', '-hide_banner', '-v', 'error', '-y',
                    '-i', work + '/dis.y4m', '-i', work + '/ref.y4m',
                    '-lavfi', graph, '-frames:v', '1', '-update', '1', png],
                   check=True)
    raw = subprocess.run([ff, '-nostdin', '-hide_banner', '-v', 'error',
                          '-i', png, '-f', 'rawvideo', '-pix_fmt', 'gray', '-'],
                         check=True, stdout=subprocess.PIPE).stdout
    if len(raw) != GW * GH:
        print('FAIL: the PNG is %d bytes of gray, expected %dx%d'
              % (len(raw), GW, GH))
        return 1
    img = np.frombuffer(raw, np.uint8).reshape(GH, GW)
    lit = img > 127
    with open(log) as f:
        frames = json.load(f)['frames']
    values = [fr['metrics']['psnr_y'] for fr in frames]
    want = np.zeros_like(lit)
    rows = []
    for i, v in enumerate(values):
        rows.append(expected_row('%f' % v))
        want[rows[-1], i] = True
    failures = []
    if len(values) != cw.FRAMES:
        failures.append('the log has %d frames' % len(values))
    if len(set(rows)) < 15:
        failures.append('the dots span only %d rows' % len(set(rows)))
    for x in range(GW):
        got = list(np.nonzero(lit[:, x])[0])
        exp = list(np.nonzero(want[:, x])[0])
        if got != exp:
            failures.append('column %d: lit rows %s, expected %s (value %s)'
                            % (x, got, exp,
                               values[x] if x < len(values) else None))
    for f in failures:
        print('FAIL', f)
    if failures:
        return 1
    print('drawgraph: %d dots where the log puts them (rows %d-%d), the '
          'rest of the %dx%d graph dark' % (len(rows), min(rows), max(rows),
                                             GW, GH))
    return 0


if __name__ == '__main__':
    sys.exit(main())
