#!/usr/bin/env python3
"""--sync with video files read through FFmpeg (tools/cli_align.c,
docs/ALIGNMENT.md).

The clips are lossless (FFV1 in MKV) and their frames are known: a
testsrc2 source S written raw by the ffmpeg program, a blurred copy of it
as the distorted video. Python cuts the raw frames so that one input has
k = 3 extra frames at its start, and the ffmpeg program encodes the cuts.

(a) `--sync only` on the MKV pair says offset +3 (the distorted video has
    the extra frames) or -3 (the reference has them) on stderr, and prints
    offset=K on stdout; so with one input a Y4M file;
(b) `--sync auto` on the MKV pair gives the per-frame scores and pooled
    metrics of `--offset K` on the same files, of `--sync auto` on raw YUV
    files the ffmpeg program decoded from them (the fseeko path), and of a
    plain run on raw files Python trimmed by hand; with the default search
    (60 frames, more than the clips hold: the search reads to the end
    before it starts again) as well as a shorter one (30 frames);
(c) `--sync auto --realign` on the MKV pair still scores every pair;
(d) where the ffmpeg program has libx264: a distorted MP4 and H.264
    elementary stream with B-frames, --sync auto == --offset 3.

usage: av_sync_test.py VQHIP WORKDIR (exit 77: no ffmpeg with ffv1)
"""
import json
import os
import re
import shutil
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'common'))
import checks  # noqa: E402
from subproc import ffmpeg, run  # noqa: E402
from checks import check  # noqa: E402

VQHIP, WORK = (os.path.abspath(a) for a in sys.argv[1:3])
W, H, K = 176, 144, 3
N = 40  # frames of the shorter input
FS = W * H * 3 // 2


def raw_in(path):
    return ['-f', 'rawvideo', '-pix_fmt', 'yuv420p', '-s', '%dx%d' % (W, H),
            '-r', '25', '-i', path]


def write(path, data):
    with open(path, 'wb') as f:
        f.write(data)


def read(path):
    with open(path, 'rb') as f:
        return f.read()


if not shutil.which('ffmpeg'):
    checks.skip('no ffmpeg program')
if ' ffv1 ' not in run(['ffmpeg', '-hide_banner', '-encoders']).stdout:
    checks.skip('ffmpeg has no ffv1 encoder')
if os.path.isdir(WORK):
    shutil.rmtree(WORK)
os.makedirs(WORK)
os.chdir(WORK)

ffmpeg('-f', 'lavfi', '-i', 'testsrc2=size=%dx%d:rate=25' % (W, H),
       '-frames:v', str(N + K), '-pix_fmt', 'yuv420p', '-f', 'rawvideo',
       'src.yuv')
ffmpeg(*raw_in('src.yuv'), '-vf', 'gblur=sigma=1.2', '-f', 'rawvideo',
       'blur.yuv')
src, blur = read('src.yuv'), read('blur.yuv')
check(len(src) == len(blur) == (N + K) * FS, 'the sources hold %d frames'
      % (N + K))
# the cuts: 'long' has the K extra frames, 'short' starts K frames later
write('ref_long.yuv', src)
write('ref_short.yuv', src[K * FS:])
write('dis_long.yuv', blur)
write('dis_short.yuv', blur[K * FS:])
for name in ('ref_long', 'ref_short', 'dis_long', 'dis_short'):
    ffmpeg(*raw_in(name + '.yuv'), '-c:v', 'ffv1', name + '.mkv')
    # the raw files the CLI compares against: the ffmpeg program's decode
    ffmpeg('-i', name + '.mkv', '-f', 'rawvideo', '-pix_fmt', 'yuv420p',
           name + '.dec.yuv')
    check(read(name + '.dec.yuv') == read(name + '.yuv'),
          '%s.mkv is lossless' % name)
ffmpeg(*raw_in('ref_short.yuv'), 'ref_short.y4m')

RAW = ['-w', str(W), '-h', str(H), '-p', '420', '-b', '8']
OPTS = ['--model', 'version=vmaf_v0.6.1', '--feature', 'psnr', '--feature',
        'motion=motion_five_frame_window=true']
SHORT = ['--sync_range', '10', '--sync_frames', '20']  # reads 30 of 40+
# (reference, distorted, the offset the search must find)
CASES = [('ref_short', 'dis_long', K), ('ref_long', 'dis_short', -K)]

# (a) --sync only
for ref, dis, k in CASES:
    for r_ext, d_ext in (('mkv', 'mkv'), ('y4m', 'mkv'), ('mkv', 'yuv')):
        if r_ext == 'y4m' and ref != 'ref_short':
            continue
        extra = RAW if 'yuv' in (r_ext, d_ext) else []
        for search in ([], SHORT):
            r = run([VQHIP, '-r', ref + '.' + r_ext, '-d', dis + '.' + d_ext,
                     '--sync', 'only'] + extra + search)
            m = re.search(r'vqhip: sync: offset ([+-]?\d+) ', r.stderr)
            what = '(a) %s.%s %s.%s %s' % (ref, r_ext, dis, d_ext,
                                           ' '.join(search))
            check(r.returncode == 0 and m and int(m.group(1)) == k,
                  '%s: stderr says %s, want %+d (exit %d: %s)' %
                  (what, m and m.group(1), k, r.returncode, r.stderr))
            check(r.stdout.startswith('offset=%d ' % k) and
                  'found=1' in r.stdout, '%s: stdout %r' % (what, r.stdout))


def scores(args, what):
    """The per-frame scores and pooled metrics of a JSON log."""
    log = 'log%d.json' % len(os.listdir('.'))
    r = run([VQHIP, '-q', '--json', '-o', log] + OPTS + args)
    check(r.returncode == 0, '%s: exit %d: %s' % (what, r.returncode,
                                                  r.stderr))
    if r.returncode:
        return None
    with open(log) as f:
        j = json.load(f)
    return {'frames': j['frames'], 'pooled': j['pooled_metrics']}


# (b) --sync auto == --offset K == raw files (searched, and trimmed by hand)
# the pairs Python cut: both inputs start at source frame K
want = scores(['-r', 'ref_short.yuv', '-d', 'dis_short.yuv'] + RAW,
              'trimmed raw')
check(want is not None and len(want['frames']) == N,
      '(b) the trimmed run scores %d frames' % N)
for ref, dis, k in CASES:
    offset = scores(['-r', ref + '.mkv', '-d', dis + '.mkv', '--offset',
                     str(k)], '--offset %d' % k)
    check(offset == want, '(b) %s %s: --offset %d on the MKVs differs from '
          'the trimmed raw run' % (ref, dis, k))
    for search in ([], SHORT):
        what = '(b) %s %s --sync auto %s' % (ref, dis, ' '.join(search))
        got = scores(['-r', ref + '.mkv', '-d', dis + '.mkv', '--sync',
                      'auto'] + search, what)
        check(got is not None and got == want,
              '%s: differs from the trimmed raw run' % what)
        raw = scores(['-r', ref + '.dec.yuv', '-d', dis + '.dec.yuv',
                      '--sync', 'auto'] + RAW + search, what + ' raw')
        check(got is not None and got == raw,
              '%s: differs from --sync auto on the raw decode' % what)

# (c) --realign with --sync auto: no event on a clean pair, every pair
for ref, dis, k in CASES:
    got = scores(['-r', ref + '.mkv', '-d', dis + '.mkv', '--sync', 'auto',
                  '--realign'] + SHORT, '(c) %s %s --realign' % (ref, dis))
    check(got is not None and got == want,
          '(c) %s %s: --sync auto --realign differs from the trimmed run'
          % (ref, dis))

# (d) lossy clips with B-frames (libx264, MP4 and an elementary stream
# with no timestamps): the search stops mid-GOP, and the frames scored after
# it are those --offset K gives on the same file
if 'libx264' in run(['ffmpeg', '-hide_banner', '-encoders']).stdout:
    for out in ('dis_long.mp4', 'dis_long.h264'):
        ffmpeg(*raw_in('dis_long.yuv'), '-c:v', 'libx264', '-crf', '30',
               '-g', '12', '-bf', '3', '-pix_fmt', 'yuv420p', out)
        base = ['-r', 'ref_short.mkv', '-d', out] + SHORT
        got = scores(base + ['--sync', 'auto'], '(d) %s --sync auto' % out)
        offset = scores(base + ['--offset', str(K)], '(d) %s --offset' % out)
        check(got is not None and got == offset and len(got['frames']) == N,
              '(d) %s: --sync auto differs from --offset %d' % (out, K))
else:
    print('(d) skipped: no libx264 encoder')

sys.exit(checks.finish())
