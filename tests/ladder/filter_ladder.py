#!/usr/bin/python3
"""The vqhip filter's inputs=N: N distorted renditions against one
reference in one filter, each scored as its own pair run.

usage: filter_ladder.py FFMPEG WORK_DIR

Clips made with FFmpeg's own filters (testsrc2; per rendition noise, a
blur, or a scale down and back up), written as Y4M so that every run reads
the same samples. With vmaf_v0.6.1 + psnr + float_ssim + motion + cambi:
  - inputs=N (N = 2, 5): each rendition's JSON log (log_precision=17)
    equals, byte for byte but the "fps" line, the log of the pair run
    [dK][ref]vqhip; the metadata lavfi.vqhip.<label>.<name> of every output
    frame equals the pair run's lavfi.vqhip.<name> (metadata=print), the
    output has the first rendition's frame count (also taken with -map
    into a Y4M file), and labels= names keys and logs (%s);
  - inputs=1 given explicitly: the log and keys of the plain filter;
  - a rendition that ends early: its log equals the pair run on the short
    clip (which ends with it), a warning says so, the others go on;
  - refused, with a message naming what: a rendition of another size or
    bit depth, inputs=N > 1 with a log_path without %d or %s, window= with N > 1.
Exit 77 (skip) when FFMPEG has no vqhip filter or another filter used.
"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'common'))
from ffmpeg_filters import missing_filters  # noqa: E402
import checks  # noqa: E402
from checks import check  # noqa: E402

W, H, FRAMES = 256, 144, 12
SHORT = 7
FEATURES = ("model=version=vmaf_v0.6.1:feature='name=psnr|name=float_ssim|"
            "name=motion|name=cambi'")
VQ = "backend=cpu:log_fmt=json:log_precision=17:" + FEATURES
# per rendition: the filters that make it from the reference
RENDITIONS = [
    'noise=alls=6:allf=t',
    'gblur=sigma=1.2',
    'scale=128:72:flags=bilinear,scale=%d:%d:flags=bicubic' % (W, H),
    'noise=alls=14,avgblur=sizeX=2',
    'scale=192:108:flags=bicubic,scale=%d:%d:flags=bicubic' % (W, H),
]
checks.show_passes()


def run(ff, args, rc=0):
    p = subprocess.run([ff, '-nostdin', '-hide_banner', '-y'] + args,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True)
    if (p.returncode != 0) != (rc != 0):
        sys.stderr.write(p.stderr[-3000:])
        raise SystemExit('FAIL: ffmpeg %s exited %d' % (' '.join(args),
                                                        p.returncode))
    return p


def make_clips(ff, work):
    ref = os.path.join(work, 'ref.y4m')
    run(ff, ['-f', 'lavfi', '-i', 'testsrc2=size=%dx%d:rate=25' % (W, H),
             '-frames:v', str(FRAMES), '-pix_fmt', 'yuv420p', ref])
    dis = []
    for i, chain in enumerate(RENDITIONS):
        out = os.path.join(work, 'd%d.y4m' % (i + 1))
        run(ff, ['-i', ref, '-vf', chain, '-pix_fmt', 'yuv420p', out])
        dis.append(out)
    short = os.path.join(work, 'short.y4m')
    run(ff, ['-i', dis[1], '-frames:v', str(SHORT), short])
    small = os.path.join(work, 'small.y4m')
    run(ff, ['-i', ref, '-vf', 'scale=128:72', '-pix_fmt', 'yuv420p', small])
    deep = os.path.join(work, 'deep.y4m')
    run(ff, ['-i', dis[0], '-pix_fmt', 'yuv420p10le', '-strict', '-1', deep])
    return ref, dis, short, small, deep


def log_lines(path):
    with open(path) as f:
        return [l for l in f if not l.startswith('  "fps":')]


def frames_meta(path):
    """[{key: value}] per output frame of metadata=print's file."""
    frames = []
    for line in open(path).read().splitlines():
        if re.match(r'frame:\d+\s', line):
            frames.append({})
        elif '=' in line and frames:
            k, v = line.split('=', 1)
            frames[-1][k] = v
    return frames


def pair_run(ff, work, tag, dis, ref):
    log = os.path.join(work, tag + '.json')
    meta = os.path.join(work, tag + '.meta')
    run(ff, ['-i', dis, '-i', ref, '-lavfi',
             '[0:v][1:v]vqhip=%s:log_path=%s,metadata=print:file=%s'
             % (VQ, log, meta), '-f', 'null', '-'])
    return log_lines(log), frames_meta(meta)


def ladder_run(ff, work, tag, dis, ref, opts='', rc=0,
               log='%(tag)s_%%d.json'):
    args = []
    for d in dis + [ref]:
        args += ['-i', d]
    pads = ''.join('[%d:v]' % i for i in range(len(dis) + 1))
    log = os.path.join(work, log % {'tag': tag})
    meta = os.path.join(work, tag + '.meta')
    graph = '%svqhip=inputs=%d:%s:log_path=%s%s,metadata=print:file=%s' % (
        pads, len(dis), VQ, log, opts, meta)
    p = run(ff, args + ['-lavfi', graph, '-f', 'null', '-'], rc)
    return p, meta


def same_meta(ladder, pair, label, what):
    """Every pair-run key lavfi.vqhip.NAME is lavfi.vqhip.LABEL.NAME on the
    ladder's frame of the same number, with the same value."""
    ok = len(pair) <= len(ladder) and len(pair) > 0
    for i, keys in enumerate(pair):
        for k, v in keys.items():
            if not k.startswith('lavfi.vqhip.'):
                continue
            lk = k if label is None else \
                'lavfi.vqhip.%s.%s' % (label, k[len('lavfi.vqhip.'):])
            if ladder[i].get(lk) != v:
                ok = False
    check(ok, what)


def main():
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    ff, work = sys.argv[1], sys.argv[2]
    try:
        missing = missing_filters(ff, ['vqhip', 'testsrc2', 'noise', 'gblur',
                                       'avgblur', 'scale', 'metadata'])
    except OSError:
        missing = ['(no ffmpeg)']
    if missing:
        print('skip: %s has no %s' % (ff, ', '.join(missing)))
        return 77
    os.makedirs(work, exist_ok=True)
    ref, dis, short, small, deep = make_clips(ff, work)

    pairs = [pair_run(ff, work, 'pair%d' % (i + 1), d, ref)
             for i, d in enumerate(dis)]
    check(all(len(m) == FRAMES for _, m in pairs) and
          all('lavfi.vqhip.cambi' in m[0] and 'lavfi.vqhip.float_ssim' in m[0]
              for _, m in pairs), 'pair runs: %d frames with their keys'
          % FRAMES)
    # the pair runs differ from one another: equal logs below mean something
    check(len(set(''.join(l) for l, _ in pairs)) == len(pairs),
          'the renditions score differently')

    # inputs=1, given: the plain filter
    _, meta = ladder_run(ff, work, 'one', dis[:1], ref,
                         log='%(tag)s.json')
    check(log_lines(os.path.join(work, 'one.json')) == pairs[0][0],
          'inputs=1: the log of the plain filter')
    one = frames_meta(meta)
    same_meta(one, pairs[0][1], None, 'inputs=1: keys lavfi.vqhip.NAME, '
              'values of the plain filter')

    for n in (2, 5):
        p, meta = ladder_run(ff, work, 'lad%d' % n, dis[:n], ref)
        lad = frames_meta(meta)
        check(len(lad) == FRAMES, 'inputs=%d: %d frames out' % (n, FRAMES))
        for k in range(n):
            log = os.path.join(work, 'lad%d_%d.json' % (n, k + 1))
            check(log_lines(log) == pairs[k][0],
                  'inputs=%d: d%d\'s log equals its pair run\'s' % (n, k + 1))
            same_meta(lad, pairs[k][1], 'd%d' % (k + 1),
                      'inputs=%d: lavfi.vqhip.d%d.* equal the pair run\'s'
                      % (n, k + 1))
        check(not any(k.startswith('lavfi.vqhip.vmaf') for k in lad[0]),
              'inputs=%d: no unlabelled score keys' % n)

    # labels= and %s
    p, meta = ladder_run(ff, work, 'lab', dis[:2], ref, ':labels=lo|hi',
                         log='%(tag)s_%%s.json')
    lab = frames_meta(meta)
    check(log_lines(os.path.join(work, 'lab_hi.json')) == pairs[1][0],
          'labels=lo|hi: log_path with %s names hi\'s log')
    same_meta(lab, pairs[0][1], 'lo', 'labels=lo|hi: lavfi.vqhip.lo.*')

    # the filter's output taken with -map into a file
    out = os.path.join(work, 'map.y4m')
    meta = os.path.join(work, 'map.meta')
    run(ff, ['-i', dis[0], '-i', dis[1], '-i', ref, '-filter_complex',
             '[0:v][1:v][2:v]vqhip=inputs=2:%s,metadata=print:file=%s[out]'
             % (VQ, meta), '-map', '[out]', '-f', 'yuv4mpegpipe', out])
    mapped = frames_meta(meta)
    check(open(out, 'rb').read().count(b'FRAME') == FRAMES and
          len(mapped) == FRAMES, '-map [out]: %d frames written' % FRAMES)
    same_meta(mapped, pairs[1][1], 'd2', '-map [out]: lavfi.vqhip.d2.*')

    # a rendition that ends early
    short_log, short_meta = pair_run(ff, work, 'pair_short', short, ref)
    check(len(short_meta) == SHORT, 'short pair run: %d frames' % SHORT)
    p, meta = ladder_run(ff, work, 'early', [dis[0], short, dis[2]], ref)
    early = frames_meta(meta)
    check(len(early) == FRAMES, 'early end: the output goes on, %d frames'
          % FRAMES)
    check(log_lines(os.path.join(work, 'early_2.json')) == short_log,
          'early end: its log equals the short pair run\'s')
    check(log_lines(os.path.join(work, 'early_1.json')) == pairs[0][0] and
          log_lines(os.path.join(work, 'early_3.json')) == pairs[2][0],
          'early end: the others\' logs equal their pair runs\'')
    check(all('lavfi.vqhip.d2.vmaf' in f for f in early[:SHORT]) and
          not any('lavfi.vqhip.d2.vmaf' in f for f in early[SHORT:]) and
          all('lavfi.vqhip.d3.vmaf' in f for f in early),
          'early end: d2\'s keys on its %d frames only' % SHORT)
    check(re.search(r'rendition d2: %d of %d frames scored' % (SHORT, FRAMES),
                    p.stderr) is not None, 'early end: warned')

    # refused
    p, _ = ladder_run(ff, work, 'size', [dis[0], small], ref, rc=1)
    check('Rendition d2' in p.stderr and '128x72' in p.stderr,
          'a rendition of another size: refused, naming it')
    p, _ = ladder_run(ff, work, 'depth', [dis[0], dis[1], deep], ref, rc=1)
    check('Rendition d3' in p.stderr and '10-bit' in p.stderr,
          'a rendition of another bit depth: refused, naming it')
    p, _ = ladder_run(ff, work, 'nopat', dis[:2], ref, rc=1,
                      log='%(tag)s.json')
    check('%d' in p.stderr and '%s' in p.stderr and 'inputs=2' in p.stderr,
          'inputs=2, log_path without %d or %s: refused')
    p, _ = ladder_run(ff, work, 'win', dis[:2], ref, ':window=5', rc=1)
    check('window= does not work with inputs=2' in p.stderr,
          'window= with inputs=2: refused')

    return checks.finish()


if __name__ == '__main__':
    sys.exit(main())
