#!/usr/bin/python3
"""The vqhip filter's live=1 (never stall the encode) on the CPU backend,
with paced input (ffmpeg -re: read at 25 fps), against offline runs
(no pacing, live=0) of the same synthetic clips.

usage: filter_livemode.py FFMPEG WORK_DIR

  a) 96x64, 3 s: the CPU keeps up, so every frame is scored (summary line
     and NDJSON summary: coverage 100%) and the JSON log's frames equal
     the offline log's, value for value (log_precision=17);
  b) 1920x1080 at 60 fps (1080p60) vmaf_v0.6.1, 4 s, n_threads=2: the CPU
     cannot keep up (2 threads score 25 to 36 frames a second here; without
     live=1 the run takes 1.7x the input's duration or more). ffmpeg's wall
     time stays under 1.5x the input's duration, every frame goes out in
     order, coverage < 100% is reported (summary line, NDJSON summary),
     the frames not scored carry lavfi.vqhip.live.scored=0 and no model
     score, and every scored frame's values (motion included) equal the
     offline run's for that frame.
Prints the pass-through rate and the coverage of b). Exit 77 (skip) when
FFMPEG has no vqhip, testsrc2 or noise filter.
"""
import json
import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'common'))
from ffmpeg_filters import missing_filters  # noqa: E402
import checks  # noqa: E402
from checks import check  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'windows'))
from filter_windows import read_metadata  # noqa: E402


def run(ff, work, tag, size, secs, model, live, fps=25):
    """One run of a testsrc2 clip (the distorted one with noise added);
    live: read at the input's rate (-re, fps) with live=1. Its wall
    time and stderr."""
    src = 'testsrc2=s=%s:r=%d:d=%d,format=yuv420p' % (size, fps, secs)
    pace = ['-re'] if live else []
    g = ("[0:v][1:v]vqhip=backend=cpu:%s:live=%d:log_fmt=json:"
         "log_precision=17:log_path=%s/%s.json:"
         "stats_url=%s/%s.ndjson,metadata=print:file=%s/%s.meta"
         % (model, live, work, tag, work, tag, work, tag))
    t = time.monotonic()
    p = subprocess.run([ff, '-nostdin', '-hide_banner', '-v', 'info'] +
                       pace + ['-f', 'lavfi', '-i', src + ',noise=alls=8'] +
                       pace + ['-f', 'lavfi', '-i', src,
                               '-lavfi', g, '-f', 'null', '-'],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, timeout=120)
    wall = time.monotonic() - t
    if p.returncode:
        sys.stderr.write(p.stderr[-3000:])
        raise SystemExit('FAIL: %s: ffmpeg exited %d' % (tag, p.returncode))
    return wall, p.stderr


def frames_of(work, tag):
    with open('%s/%s.json' % (work, tag)) as f:
        return {fr['frameNum']: fr['metrics'] for fr in json.load(f)['frames']}


def summary_of(work, tag):
    with open('%s/%s.ndjson' % (work, tag)) as f:
        lines = [json.loads(l) for l in f if l.strip()]
    return lines[-1] if lines else {}


def coverage_line(err):
    m = re.search(r'live: (\d+) of (\d+) frames scored \(coverage ([\d.]+)%\)',
                  err)
    return (int(m.group(1)), int(m.group(2))) if m else None


def keeps_up(ff, work):
    # depth=8: up to 8 frames (320 ms at 25 fps) may wait for their
    # scores before a frame is skipped, so a busy machine's scheduling
    # delays are not taken for a scorer that cannot keep up
    model = 'feature=name=psnr:model=version=vmaf_v0.6.1:depth=8'
    _, err = run(ff, work, 'small_live', '96x64', 3, model, 1)
    run(ff, work, 'small_off', '96x64', 3, model, 0)
    live, off = frames_of(work, 'small_live'), frames_of(work, 'small_off')
    check(len(off) == 75 and live == off, 'a) live log (%d frames) != offline '
          'log (%d frames)' % (len(live), len(off)))
    check(coverage_line(err) == (75, 75), 'a) summary line: %s'
          % (coverage_line(err),))
    s = summary_of(work, 'small_live')
    check(s.get('frames') == 75 and s.get('scored') == 75 and
          s.get('coverage') == 1, 'a) NDJSON summary %s' % str(s)[:200])
    md = read_metadata('%s/small_live.meta' % work)
    check(sorted(md) == list(range(75)) and
          all(m.get('lavfi.vqhip.live.scored') == '1' for m in md.values()),
          'a) lavfi.vqhip.live.scored on every frame')


def falls_behind(ff, work):
    # two worker threads: the same shortfall on a machine of any size
    model = 'model=version=vmaf_v0.6.1:n_threads=2'
    secs, fps = 4, 60
    n = secs * fps
    wall, err = run(ff, work, 'hd_live', '1920x1080', secs, model, 1, fps)
    live = frames_of(work, 'hd_live')
    cov = coverage_line(err)
    print('b) 1920x1080 live=1: %d frames in %.2f s (%.1f fps; the input: '
          '%d s at %d fps); %s frames scored' % (n, wall, n / wall, secs, fps,
                                                  cov))
    check(wall < 1.5 * secs, 'b) wall time %.2f s for a %d s input' %
          (wall, secs))
    check(cov is not None and cov[1] == n and 0 < cov[0] < n,
          'b) summary line: %s' % (cov,))
    check(cov is not None and len(live) == cov[0], 'b) %d frames in the log, '
          'summary says %s' % (len(live), cov))
    s = summary_of(work, 'hd_live')
    check(s.get('frames') == n and s.get('scored') == len(live) and
          s.get('coverage') == len(live) / n, 'b) NDJSON summary %s'
          % str(s)[:200])
    md = read_metadata('%s/hd_live.meta' % work)
    check(sorted(md) == list(range(n)), 'b) frames out: %d' % len(md))
    for i, m in md.items():
        scored = m.get('lavfi.vqhip.live.scored')
        check(scored == ('1' if i in live else '0') and
              ('lavfi.vqhip.vmaf' in m) == (i in live),
              'b) frame %d: live.scored=%s, vmaf %s' % (i, scored,
                                                         m.get('lavfi.vqhip.vmaf')))
    t = time.monotonic()
    run(ff, work, 'hd_off', '1920x1080', secs, model, 0, fps)
    t = time.monotonic() - t
    print('b) the offline run: %d frames in %.2f s (%.1f fps)' % (n, t, n / t))
    off = frames_of(work, 'hd_off')
    check(len(off) == n, 'b) offline log: %d frames' % len(off))
    for i, v in sorted(live.items()):
        check(v == off.get(i), 'b) frame %d: live %s, offline %s' %
              (i, v, off.get(i)))


def main():
    ff, work = sys.argv[1], sys.argv[2]
    for f in missing_filters(ff, ['vqhip', 'testsrc2', 'noise'])[:1]:
        print('skip: %s has no %s filter' % (ff, f))
        return 77
    os.makedirs(work, exist_ok=True)
    keeps_up(ff, work)
    falls_behind(ff, work)
    return checks.finish()


if __name__ == '__main__':
    sys.exit(main())
