#!/usr/bin/python3
"""The vqhip filter's windows (window=, stats=, thresholds=, pool=),
recomputed from the same run's per-frame values.

usage: filter_windows.py FFMPEG WORK_DIR

Runs FFmpeg's vqhip filter on check_windows.py's clip (25 fps, a
distortion that changes from frame to frame) with windows of frames and of
seconds, metadata=print and a JSON log with log_precision=17, and checks:
  - every frame's lavfi.vqhip.<output> metadata equals its log value as %f;
  - each window's metadata sits on the frame that closes it (windows of
    frames: its last frame; of seconds: the first frame past it; the last,
    partial window: the last frame) with its extent;
  - each lavfi.vqhip.window.<output>.<stat> equals, as %f, the statistic
    recomputed with numpy and plain Python (check_windows.stat) from the
    log's per-frame values, and the log's windows section equals it
    exactly;
  - the summary's "<output> score: mean=... perc5=..." lines equal the
    recomputed run statistics as %f.
Exit 77 (skip) when FFMPEG has no vqhip filter.
"""
import json
import math
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'common'))
from ffmpeg_filters import missing_filters  # noqa: E402
import checks  # noqa: E402
from checks import check  # noqa: E402
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_windows as cw  # noqa: E402

STATS = ['mean', 'min', 'max', 'harmonic_mean', 'median', 'perc5', 'perc20']
POOLS = ['mean', 'perc5', 'min', 'below80']


def read_metadata(path):
    """metadata=print's file: {frame number: {key: value}}."""
    frames, cur = {}, None
    with open(path) as f:
        for line in f:
            m = re.match(r'frame:(\d+)\s', line)
            if m:
                cur = frames.setdefault(int(m.group(1)), {})
            elif '=' in line and cur is not None:
                k, v = line.rstrip('\n').split('=', 1)
                cur[k] = v
    return frames


def run_case(ff, work, tag, window, closes_at, sub):
    log = os.path.join(work, tag + '.json')
    meta = os.path.join(work, tag + '.meta')
    graph = ("[0:v][1:v]vqhip=backend=cpu:feature=name=psnr:"
             "model=version=vmaf_v0.6.1:window=%s:stats='%s':thresholds=80:"
             "pool='%s':n_subsample=%d:log_fmt=json:log_precision=17:"
             "log_path=%s,metadata=print:file=%s"
             % (window, '|'.join(STATS), '|'.join(POOLS), sub, log, meta))
    p = subprocess.run([ff, '-nostdin', '-hide_banner', '-v', 'info',
                        '-i', work + '/dis.y4m', '-i', work + '/ref.y4m',
                        '-lavfi', graph, '-f', 'null', '-'],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True)
    if p.returncode:
        sys.stderr.write(p.stderr[-3000:])
        raise SystemExit('FAIL: ffmpeg exited %d' % p.returncode)
    with open(log) as f:
        j = json.load(f)
    md = read_metadata(meta)
    values = {fr['frameNum']: fr['metrics'] for fr in j['frames']}
    outputs = list(j['pooled_metrics'])
    n = cw.FRAMES
    check(sorted(md) == list(range(n)), '%s: metadata of %d frames' % (tag, len(md)))
    for i, m in md.items():
        for o in outputs:
            key = 'lavfi.vqhip.' + o
            if i in values:
                check(m.get(key) == '%f' % values[i][o], '%s frame %d %s: %s, '
                      'log %r' % (tag, i, o, m.get(key), values[i][o]))
            elif o in ('vmaf', 'psnr_y'):
                # frames n_subsample leaves out: no model or psnr score
                # (motion's outputs are computed on every frame)
                check(key not in m, '%s frame %d (not scored) has %s' % (tag, i, key))
    stats = STATS + ['below80']
    wins = cw.expected_windows(closes_at['slots'], sub, closes_at['partial'])
    check(len(j['windows']['list']) == len(wins), '%s: %d windows in the log'
          % (tag, len(j['windows']['list'])))
    carriers = sorted(i for i, m in md.items() if 'lavfi.vqhip.window.index' in m)
    want_carriers = [closes_at['frame'](w, k == len(wins) - 1)
                     for k, w in enumerate(wins)]
    check(carriers == want_carriers, '%s: window metadata on frames %s, '
          'expected %s' % (tag, carriers, want_carriers))
    n_checked = 0
    for k, w in enumerate(wins):
        m = md.get(want_carriers[k], {})
        g = j['windows']['list'][k] if k < len(j['windows']['list']) else {}
        head = [m.get('lavfi.vqhip.window.' + x) for x in
                ('index', 'first_frame', 'last_frame', 'frames', 'scored', 'partial')]
        want = [str(x) for x in (k, w['frames'][0], w['frames'][-1],
                                 len(w['frames']), len(w['scored']),
                                 int(w['partial']))]
        check(head == want, '%s window %d: %s, expected %s' % (tag, k, head, want))
        for o in outputs:
            xs = [values[i][o] for i in w['scored']]
            for s in stats:
                e = cw.stat(s, xs)
                got = m.get('lavfi.vqhip.window.%s.%s' % (o, s))
                check(got == '%f' % e, '%s window %d %s %s: %s, recomputed %r'
                      % (tag, k, o, s, got, e))
                check(g.get('metrics', {}).get(o, {}).get(s) == e,
                      '%s window %d %s %s in the log: %r, recomputed %r'
                      % (tag, k, o, s, g.get('metrics', {}).get(o, {}).get(s), e))
                n_checked += 1
    lines = {l.split('] ', 1)[-1] for l in p.stderr.splitlines()}
    for o in outputs:
        xs = [values[i][o] for i in sorted(values)]
        want = '%s score:%s' % (o, ''.join(' %s=%f' % (q, cw.stat(q, xs))
                                           for q in POOLS))
        check(want in lines, '%s: no summary line %r' % (tag, want))
    print('%s: %d windows, %d statistics as recomputed' % (tag, len(wins), n_checked))


def main():
    ff, work = sys.argv[1], sys.argv[2]
    if missing_filters(ff, ['vqhip']):
        print('skip: %s has no vqhip filter' % ff)
        return 77
    os.makedirs(work, exist_ok=True)
    cw.write_clip(work + '/ref.y4m', work + '/dis.y4m')
    n = cw.FRAMES
    # windows of 10 frames: each on its last frame; 30-36 partial on frame 36
    run_case(ff, work, 'frames10', '10', {
        'slots': [i // 10 for i in range(n)],
        'partial': lambda w: len(w['frames']) < 10,
        'frame': lambda w, last: w['frames'][-1]}, 1)
    # windows of 0.6 s: on the first frame past each; the last on frame 36
    run_case(ff, work, 'sec0.6', '0.6s', {
        'slots': [math.floor((float(i) * 1 / cw.FPS) / 0.6) for i in range(n)],
        'partial': lambda w: True,
        'frame': lambda w, last: n - 1 if last else w['frames'][-1] + 1}, 1)
    # n_subsample=3 with windows of 4 frames
    run_case(ff, work, 'sub3', '4', {
        'slots': [i // 4 for i in range(n)],
        'partial': lambda w: len(w['frames']) < 4,
        'frame': lambda w, last: w['frames'][-1]}, 3)
    return checks.finish()


if __name__ == '__main__':
    sys.exit(main())
