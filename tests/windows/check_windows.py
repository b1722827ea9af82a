#!/usr/bin/python3
"""Windows and run statistics of the CLI, recomputed from its own per-frame
log with numpy and plain Python.

usage: check_windows.py VQHIP WORK_DIR

Writes a 25 fps Y4M clip whose distortion changes from frame to frame,
runs tools/vqhip with windows (of frames, of seconds, with --subsample),
--pool and --precision max, reads the per-frame values of the JSON log
(17 significant digits: the run's doubles) and recomputes, independently
of libvqhip:
  - which frames each window holds (frame index, or the timestamp i / 25
    for windows of seconds), its counts, times and partial flag;
  - every statistic of every window and output, and of the whole run:
    mean, harmonic mean (libvmaf's n / sum(1 / (x + 1)) - 1) and the
    shares below thresholds with sums in frame order, min and max, the
    median and percentiles with numpy.percentile (method "linear");
and requires them equal to the log's, bit for bit; the console's window
and summary lines equal to them as printed (%f); a log at libvmaf's
default precision to hold libvmaf's pooled keys and the extra pools.
"""
import json
import math
import os
import re
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'common'))
import checks  # noqa: E402
from checks import check  # noqa: E402

W, H, FRAMES, FPS = 176, 144, 37, 25
STATS = ['mean', 'min', 'max', 'harmonic_mean', 'median', 'perc1', 'perc5',
         'perc10', 'perc20', 'perc95']
THRESHOLDS = ['60', '75.5', '90']
POOLS = ['mean', 'perc5', 'min', 'median', 'perc20', 'below80', 'perc1']


def write_clip(ref_path, dis_path):
    rng = np.random.default_rng(1234)
    hdr = b'YUV4MPEG2 W%d H%d F%d:1 Ip A1:1 C420jpeg\n' % (W, H, FPS)
    yy, xx = np.mgrid[0:H, 0:W]
    with open(ref_path, 'wb') as fr, open(dis_path, 'wb') as fd:
        fr.write(hdr)
        fd.write(hdr)
        for t in range(FRAMES):
            y = ((xx * 3 + t * 2) ^ (yy * 5 - t)) & 255
            y = (y // 2 + (xx + yy + 4 * t) % 96).astype(np.int32) & 255
            u = np.full((H // 2, W // 2), 128 - t, np.int32)
            v = np.full((H // 2, W // 2), 120 + t, np.int32)
            # noise from nothing to strong and back: a wide range of scores
            amp = 2 + 40 * abs(math.sin(t * 0.37))
            noise = rng.normal(0, amp, y.shape)
            yd = np.clip(np.rint(y + noise), 0, 255).astype(np.int32)
            for f, planes in ((fr, (y, u, v)), (fd, (yd, u, v))):
                f.write(b'FRAME\n')
                for p in planes:
                    f.write(p.astype(np.uint8).tobytes())


def run(vqhip, args):
    p = subprocess.run([vqhip] + args, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    if p.returncode:
        sys.stderr.write(p.stderr)
        raise SystemExit('FAIL: vqhip %s exited %d' % (' '.join(args),
                                                         p.returncode))
    return p.stdout


def seq_sum(xs):
    s = 0.0
    for x in xs:
        s += x
    return s


def stat(name, xs):
    """A statistic of the values xs (in frame order), defined independently
    of libvqhip (docs/LIBRARY.md, 'Statistics')."""
    n = len(xs)
    if name == 'mean':
        return seq_sum(xs) / n
    if name == 'min':
        return min(xs)
    if name == 'max':
        return max(xs)
    if name == 'harmonic_mean':
        return n / seq_sum(1.0 / (x + 1.0) for x in xs) - 1.0
    if name == 'median':
        return float(np.percentile(np.array(xs, dtype=np.float64), 50))
    if name.startswith('perc'):
        return float(np.percentile(np.array(xs, dtype=np.float64),
                                   float(name[4:])))
    if name.startswith('below'):
        t = float(name[5:])
        return sum(1 for x in xs if x < t) / n
    raise ValueError(name)


def same(a, b):
    if a is None or b is None:
        return a is None and b is None
    return a == b or (math.isnan(a) and math.isnan(b))


def expected_windows(slots, sub, partial_last):
    """slots[i]: window slot of frame i. Tumbling windows in order, skipped
    slots make no window; only frames i % sub == 0 enter statistics."""
    wins = []
    for i, s in enumerate(slots):
        if not wins or s != wins[-1]['slot']:
            wins.append({'slot': s, 'frames': []})
        wins[-1]['frames'].append(i)
    for k, w in enumerate(wins):
        w['partial'] = k == len(wins) - 1 and partial_last(w)
        w['scored'] = [i for i in w['frames'] if i % sub == 0]
    return wins


def check_run(vqhip, work, tag, window_arg, slots, sub, partial_last):
    log = os.path.join(work, tag + '.json')
    out = run(vqhip, ['-r', work + '/ref.y4m', '-d', work + '/dis.y4m',
                      '--feature', 'psnr', '--model', 'version=vmaf_v0.6.1',
                      '--backend', 'cpu', '--window', window_arg,
                      '--window_stats', '|'.join(STATS),
                      '--thresholds', '|'.join(THRESHOLDS),
                      '--pool', '|'.join(POOLS), '--subsample', str(sub),
                      '--precision', 'max', '--json', '-o', log, '-q'])
    with open(log) as f:
        j = json.load(f)
    frames = {fr['frameNum']: fr['metrics'] for fr in j['frames']}
    check(sorted(frames) == list(range(0, FRAMES, sub)),
          '%s: the log lists frames %s' % (tag, sorted(frames)))
    outputs = list(j['pooled_metrics'])
    stats = STATS + ['below' + t for t in THRESHOLDS]
    wins = expected_windows(slots, sub, partial_last)
    got = j['windows']['list']
    check(len(got) == len(wins), '%s: %d windows, expected %d'
          % (tag, len(got), len(wins)))
    console = [l for l in out.splitlines() if l.startswith('window ')]
    check(len(console) == len(wins), '%s: %d window lines' % (tag, len(console)))
    n_checked = 0
    for k, (w, g) in enumerate(zip(wins, got)):
        fr = w['frames']
        head = (g['index'], g['first_frame'], g['last_frame'], g['frames'],
                g['scored'], g['partial'], g['start'], g['end'])
        want = (k, fr[0], fr[-1], len(fr), len(w['scored']), w['partial'],
                float(fr[0]) / FPS, float(fr[-1]) / FPS)
        check(head == want, '%s window %d: %s, expected %s' % (tag, k, head, want))
        line = 'window %d: frames %d-%d, %d scored, %.3f-%.3f s%s:' % (
            k, fr[0], fr[-1], len(w['scored']), want[6], want[7],
            ' (partial)' if w['partial'] else '')
        for o in outputs:
            xs = [frames[i][o] for i in w['scored']]
            line += '%s %s' % (';' if o != outputs[0] else '', o)
            for s in stats:
                e = stat(s, xs) if xs else float('nan')
                v = g['metrics'][o][s]
                v = float('nan') if v is None else v
                check(same(v, e), '%s window %d %s %s: %r, recomputed %r'
                      % (tag, k, o, s, v, e))
                line += ' %s=%f' % (s, e)
                n_checked += 1
        if k < len(console):
            check(console[k] == line, '%s console: %r\n  expected %r'
                  % (tag, console[k], line))
    # the whole run: the pooled section's extra keys and the summary lines
    summary = {l.split(':')[0]: l for l in out.splitlines()
               if ':' in l and l.split(':')[0] in outputs}
    for o in outputs:
        xs = [frames[i][o] for i in sorted(frames)]
        line = o + ':'
        for p in POOLS + ['max', 'harmonic_mean']:
            e = stat(p, xs)
            check(same(j['pooled_metrics'][o][p], e), '%s run %s %s: %r, '
                  'recomputed %r' % (tag, o, p, j['pooled_metrics'][o][p], e))
            n_checked += 1
        for p in POOLS:
            line += ' %s=%f' % (p, stat(p, xs))
        check(summary.get(o) == line, '%s summary %r, expected %r'
              % (tag, summary.get(o), line))
    print('%s: %d windows, %d statistics equal to the recomputation'
          % (tag, len(got), n_checked))
    return j


def main():
    vqhip, work = sys.argv[1], sys.argv[2]
    os.makedirs(work, exist_ok=True)
    write_clip(work + '/ref.y4m', work + '/dis.y4m')
    n = FRAMES
    # windows of 10 frames: 0-9, 10-19, 20-29, 30-36 (partial)
    j = check_run(vqhip, work, 'frames10', '10', [i // 10 for i in range(n)],
                  1, lambda w: len(w['frames']) < 10)
    vmaf = [fr['metrics']['vmaf'] for fr in j['frames']]
    check(max(vmaf) - min(vmaf) > 20, 'the clip spans a range of VMAF '
          'scores (%f to %f)' % (min(vmaf), max(vmaf)))
    # windows of 0.6 s at 25 fps: frame i at i / 25 s; the last is partial
    check_run(vqhip, work, 'sec0.6', '0.6s',
              [math.floor((float(i) * 1 / FPS) / 0.6) for i in range(n)], 1,
              lambda w: True)
    # with --subsample 3: only frames 0, 3, 6, ... enter the statistics
    check_run(vqhip, work, 'sub3', '4', [i // 4 for i in range(n)], 3,
              lambda w: len(w['frames']) < 4)

    # libvmaf's precision: libvmaf's four pooled keys as before, the extra
    # pools after them, as printed
    log = work + '/default.json'
    run(vqhip, ['-r', work + '/ref.y4m', '-d', work + '/dis.y4m',
                '--backend', 'cpu', '--pool', 'perc5|mean|median', '--json',
                '-o', log, '-q'])
    with open(log) as f:
        text = f.read()
    d = json.loads(text)
    check('windows' not in d, 'no windows section without --window')
    for o, pooled in d['pooled_metrics'].items():
        check(list(pooled) == ['min', 'max', 'mean', 'harmonic_mean', 'perc5',
                               'median'], '%s pooled keys %s' % (o, list(pooled)))
        xs = [fr['metrics'][o] for fr in j['frames']]
        for p in ('perc5', 'median'):
            want = '"%s": %.6f' % (p, stat(p, xs))
            check(want in text, 'default log: %s not in the log' % want)
    return checks.finish()


if __name__ == '__main__':
    sys.exit(main())
