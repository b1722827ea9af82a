#!/usr/bin/python3
"""scripts/ladder-example.py against pair runs of the CLI.

usage: check_ladder_example.py SCRIPT VQHIP WORK_DIR

Runs the example on a generated 320x180, 1 s source with a three-rung
ladder (180p, 120p, 90p; the 360p rung is taller than the source and must
be left out), then for every rendition decodes its .mp4 here with
/usr/bin/ffmpeg (scale back with bicubic, as the docs say), runs the pair
`vqhip -r SOURCE -d RENDITION` and requires:
- one table row per rendition, in ladder order, no row for 360p;
- the size column equal to ffprobe's width x height of the .mp4;
- the kb/s column equal to file bytes * 8 / (frames / 25) / 1000, with
  ffprobe's frame count;
- VMAF mean, p5 and min equal to numpy's mean, percentile(x, 5) and min of
  the pair run's per-frame vmaf, printed to three decimals as the table is;
- the example's per-rendition log holding the pair run's per-frame vmaf,
  bit for bit (the pipes carried the same frames).
Exits 77 when /usr/bin/ffmpeg or its libx264 is missing.
"""
import json
import os
import re
import shutil
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'common'))
import checks  # noqa: E402
from checks import check  # noqa: E402

FFMPEG, FFPROBE = '/usr/bin/ffmpeg', '/usr/bin/ffprobe'
LADDER = [(360, 600), (180, 300), (120, 150), (90, 80)]
W, H = 320, 180


def sh(cmd):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        print(' '.join(cmd), '\n', r.stderr)
        sys.exit(1)
    return r.stdout


def main():
    script, vqhip, work = sys.argv[1:4]
    if not (os.access(FFMPEG, os.X_OK) and os.access(FFPROBE, os.X_OK)):
        checks.skip('no ' + FFMPEG)
    if 'libx264' not in sh([FFMPEG, '-hide_banner', '-encoders']):
        checks.skip('no libx264 in ' + FFMPEG)
    shutil.rmtree(work, ignore_errors=True)
    out = os.path.join(work, 'out')
    table = sh([sys.executable, script, '--out', out, '--vqhip', vqhip,
                '--ffmpeg', FFMPEG, '--gen-size', '%dx%d' % (W, H), '--seconds', '1',
                '--threads', '1',
                '--ladder', ','.join('%d:%d' % r for r in LADDER)])
    print(table)
    rows = [ln.split() for ln in table.splitlines()[2:]]
    expect = [r for r in LADDER if r[0] <= H]
    check(len(rows) == len(expect), 'one row per rendition: %d rows' % len(rows))
    src_y4m = os.path.join(work, 'source.y4m')
    sh([FFMPEG, '-nostdin', '-y', '-v', 'error', '-i', os.path.join(out, 'source.mp4'),
        '-pix_fmt', 'yuv420p', '-f', 'yuv4mpegpipe', src_y4m])
    for (h, kbps), row in zip(expect, rows):
        label = 'r%dp' % h
        mp4 = os.path.join(out, label + '.mp4')
        check(row[0] == label, 'row label %s, want %s' % (row[0], label))
        st = json.loads(sh([FFPROBE, '-v', 'error', '-count_frames', '-select_streams', 'v:0',
                            '-show_entries', 'stream=width,height,nb_read_frames',
                            '-of', 'json', mp4]))['streams'][0]
        check(row[1] == '%dx%d' % (st['width'], st['height']),
              '%s size %s, ffprobe %dx%d' % (label, row[1], st['width'], st['height']))
        check(re.fullmatch(r'\d+x%d' % h, row[1]) is not None, '%s height' % label)
        check(row[2] == str(kbps), '%s target %s' % (label, row[2]))
        kbs = os.path.getsize(mp4) * 8 / (int(st['nb_read_frames']) / 25) / 1000
        check(row[3] == '%.0f' % kbs, '%s kb/s %s, recomputed %.0f' % (label, row[3], kbs))

        dis_y4m = os.path.join(work, label + '.y4m')
        sh([FFMPEG, '-nostdin', '-y', '-v', 'error', '-i', mp4,
            '-vf', 'scale=%d:%d:flags=bicubic' % (W, H),
            '-pix_fmt', 'yuv420p', '-f', 'yuv4mpegpipe', dis_y4m])
        pair_log = os.path.join(work, label + '.pair.json')
        sh([vqhip, '-r', src_y4m, '-d', dis_y4m, '--model', 'version=vmaf_v0.6.1',
            '--precision', 'max', '--json', '-o', pair_log, '-q'])
        with open(pair_log) as f:
            pair = [fr['metrics']['vmaf'] for fr in json.load(f)['frames']]
        with open(os.path.join(out, 'logs', label + '.json')) as f:
            ladder = [fr['metrics']['vmaf'] for fr in json.load(f)['frames']]
        check(len(pair) == int(st['nb_read_frames']), '%s: %d frames scored' % (label, len(pair)))
        check(ladder == pair, '%s: the ladder log\'s per-frame vmaf is the pair run\'s' % label)
        x = np.array(pair, dtype=np.float64)
        want = ['%.3f' % v for v in (x.mean(), np.percentile(x, 5), x.min())]
        check(row[4:7] == want, '%s mean/p5/min %s, numpy over the pair run %s'
              % (label, row[4:7], want))
    return checks.finish()


if __name__ == '__main__':
    sys.exit(main())
