#!/usr/bin/python3
"""The CLI's live mode (--live, --realtime), both inputs read from pipes
(the reference from standard input, the distorted video from a FIFO),
against offline runs (no --live, the same clips read from files).

usage: cli_livemode.py VQHIP WORK_DIR

  a) 960x540, 48 frames paced at 1000 fps (--realtime 1000, --threads 2):
     far faster than two threads score vmaf_v0.6.1 at that size on any
     CPU, so frames are skipped. Asserted (none of it depends on timing):
     the summary line, the NDJSON summary, the log's frames and its
     not_scored list and the console's "(not scored)" lines agree on which
     frames were scored; some were skipped, frame 0 was scored; every
     scored frame's values in the log and in the stream equal the offline
     log's bit for bit (--precision max), and every skipped frame's stream
     line holds only the temporal outputs (motion), with the offline
     values.
  b) 176x144, 30 frames paced at 10 fps with --depth 8: scoring a frame
     takes a few ms, so skipping one would need 7 frames (0.7 s) unscored
     at once: coverage 100% and the log equals the offline log (all but
     its "fps" line, a speed).
Prints the coverage of a).
"""
import json
import os
import re
import subprocess
import sys
import threading

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'common'))
import checks  # noqa: E402
from checks import check  # noqa: E402


def write_clip(path_ref, path_dis, w, h, n):
    """A moving pattern; the distorted copy with noise whose strength
    changes from frame to frame (VMAF varies)."""
    rng = np.random.default_rng(33)
    yy, xx = np.mgrid[0:h, 0:w]
    c = np.full((h // 2, w // 2), 128, np.uint8).tobytes()
    hdr = b'YUV4MPEG2 W%d H%d F25:1 Ip A1:1 C420jpeg\n' % (w, h)
    with open(path_ref, 'wb') as fr, open(path_dis, 'wb') as fd:
        fr.write(hdr)
        fd.write(hdr)
        for t in range(n):
            y = (((xx * 3 + t * 2) ^ (yy * 5 - t)) & 255).astype(np.int32)
            d = np.clip(y + rng.normal(0, 2 + (t % 5) * 3, y.shape), 0, 255)
            fr.write(b'FRAME\n' + y.astype(np.uint8).tobytes() + c + c)
            fd.write(b'FRAME\n' + d.astype(np.uint8).tobytes() + c + c)


def feed(src, dst_open):
    """Copies file src into the pipe dst_open() opens, then closes it."""
    def run():
        try:
            with open(src, 'rb') as f, dst_open() as out:
                while True:
                    b = f.read(1 << 20)
                    if not b:
                        break
                    out.write(b)
        except BrokenPipeError:
            pass
    t = threading.Thread(target=run, daemon=True)
    t.start()
    return t


def run(vqhip, work, tag, ref, dis, extra, piped):
    """One run: its console output. piped: the reference through
    standard input and the distorted video through a FIFO."""
    args = [vqhip, '--threads', '2', '--json', '--precision', 'max',
            '-o', '%s/%s.json' % (work, tag),
            '--stats-url', '%s/%s.ndjson' % (work, tag), '--stats-frames']
    args += extra
    if not piped:
        p = subprocess.run(args + ['-r', ref, '-d', dis], text=True,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=120)
    else:
        fifo = '%s/%s.fifo' % (work, tag)
        if os.path.exists(fifo):
            os.unlink(fifo)
        os.mkfifo(fifo)
        with open('%s/%s.out' % (work, tag), 'w+') as out, \
                open('%s/%s.err' % (work, tag), 'w+') as err:
            proc = subprocess.Popen(args + ['-r', '-', '-d', fifo],
                                    stdin=subprocess.PIPE, stdout=out,
                                    stderr=err)
            feeders = [feed(ref, lambda: proc.stdin),
                       feed(dis, lambda: open(fifo, 'wb'))]
            proc.wait(timeout=120)
            for t in feeders:
                t.join(10)
            out.seek(0)
            err.seek(0)
            p = subprocess.CompletedProcess(args, proc.returncode, out.read(),
                                            err.read())
    if p.returncode:
        sys.stderr.write(p.stderr[-3000:])
        raise SystemExit('FAIL: %s: vqhip exited %d' % (tag, p.returncode))
    return p.stdout


def log_frames(work, tag):
    with open('%s/%s.json' % (work, tag)) as f:
        log = json.load(f)
    return log, {fr['frameNum']: fr['metrics'] for fr in log['frames']}


def stream(work, tag):
    with open('%s/%s.ndjson' % (work, tag)) as f:
        lines = [json.loads(l) for l in f if l.strip()]
    return {l['frame']: l['values'] for l in lines if l['type'] == 'frame'}, \
        lines[-1]


def ranges(frames):
    """'4-12,15' of sorted frame numbers (the log's not_scored)."""
    out, i = [], 0
    while i < len(frames):
        j = i
        while j + 1 < len(frames) and frames[j + 1] == frames[j] + 1:
            j += 1
        out.append('%d' % frames[i] if i == j else
                   '%d-%d' % (frames[i], frames[j]))
        i = j + 1
    return ','.join(out)


LIVE_LINE = re.compile(r'^live: (\d+) of (\d+) frames scored '
                       r'\(coverage ([0-9.]+)%\)', re.M)
TEMPORAL = {'integer_motion2', 'integer_motion3',
            'VMAF_integer_feature_motion_sad_score'}


def case_fast(vqhip, work):
    n = 48
    ref, dis = work + '/fast_ref.y4m', work + '/fast_dis.y4m'
    write_clip(ref, dis, 960, 540, n)
    run(vqhip, work, 'fast_off', ref, dis, [], False)
    off_log, off = log_frames(work, 'fast_off')
    check(sorted(off) == list(range(n)), 'a) offline log: every frame')
    out = run(vqhip, work, 'fast_live', ref, dis,
              ['--live', '--realtime', '1000'], True)
    log, live = log_frames(work, 'fast_live')
    lines, summary = stream(work, 'fast_live')
    m = LIVE_LINE.search(out)
    if not check(m, 'a) the summary has a live: line'):
        return
    scored, frames = int(m.group(1)), int(m.group(2))
    console_skipped = [int(x) for x in
                       re.findall(r'^frame (\d+) \(not scored\):', out, re.M)]
    skipped = sorted(set(range(n)) - set(live))
    print('a) 960x540 at 1000 fps: %d of %d frames scored (%.1f%%)'
          % (scored, frames, 100.0 * scored / max(frames, 1)))
    check(frames == n, 'a) live: %d frames, not %d' % (frames, n))
    check(0 < scored < n, 'a) some frames skipped, frame 0 scored '
          '(%d of %d scored)' % (scored, n))
    check(0 in live, 'a) frame 0 is scored')
    check(len(live) == scored, 'a) the log has the %d scored frames, not %d'
          % (scored, len(live)))
    check(console_skipped == skipped, 'a) console (not scored) lines %s, '
          'log misses %s' % (console_skipped, skipped))
    fr = log['vqhip']['frames']
    check(fr['scored'] == scored and fr['n_not_scored'] == n - scored and
          fr['not_scored'] == ranges(skipped),
          'a) the log\'s frames section %s' % fr)
    check(summary.get('type') == 'summary' and summary['frames'] == n and
          summary['scored'] == scored and
          summary['coverage'] == scored / n,
          'a) NDJSON summary %s' % {k: summary.get(k) for k in
                                    ('frames', 'scored', 'coverage')})
    check('%.1f' % (100.0 * scored / n) == m.group(3),
          'a) coverage printed %s%%' % m.group(3))
    check(sorted(lines) == list(range(n)), 'a) a stream line per frame')
    for i in range(n):
        if i in live:
            check(live[i] == off[i], 'a) frame %d: log values differ from '
                  'the offline log' % i)
            check(lines.get(i) == off[i], 'a) frame %d: stream values differ '
                  'from the offline log' % i)
        else:
            v = lines.get(i, {})
            check(v and set(v) <= TEMPORAL and 'vmaf' not in v,
                  'a) skipped frame %d: stream values %s' % (i, sorted(v)))
            check(all(v[k] == off[i][k] for k in v),
                  'a) skipped frame %d: motion differs from offline' % i)
    check(off_log['vqhip']['frames']['scored'] == n, 'a) offline: all scored')


def case_slow(vqhip, work):
    n = 30
    ref, dis = work + '/slow_ref.y4m', work + '/slow_dis.y4m'
    write_clip(ref, dis, 176, 144, n)
    run(vqhip, work, 'slow_off', ref, dis, ['--depth', '8'], False)
    out = run(vqhip, work, 'slow_live', ref, dis,
              ['--live', '--realtime', '10', '--depth', '8'], True)
    m = LIVE_LINE.search(out)
    check(m and m.group(1) == m.group(2) == str(n) and m.group(3) == '100.0',
          'b) coverage 100%%: %s' % (m.group(0) if m else 'no live: line'))
    check('(not scored)' not in out, 'b) no frame left unscored')
    _, summary = stream(work, 'slow_live')
    check(summary.get('scored') == n and summary.get('coverage') == 1,
          'b) NDJSON summary scored %s' % summary.get('scored'))

    def body(tag):
        with open('%s/%s.json' % (work, tag)) as f:
            return [l for l in f if not l.startswith('  "fps": ')]
    a, b = body('slow_off'), body('slow_live')
    check(a == b, 'b) the live log differs from the offline log')


def main():
    vqhip, work = sys.argv[1], sys.argv[2]
    os.makedirs(work, exist_ok=True)
    case_fast(vqhip, work)
    case_slow(vqhip, work)
    return checks.finish()


if __name__ == '__main__':
    sys.exit(main())
