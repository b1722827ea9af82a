#!/usr/bin/env python3
"""Video files read through FFmpeg (tools/av_input.c, docs/CLI.md).

(a) the CLI's log of an MP4 (libx264, B-frames) and an MKV (mpeg4,
    B-frames) pair equals, byte for byte (fps aside), its log of the same
    files decoded to Y4M by the ffmpeg program first;
(b) catalog plans of 3 and 7 segments over those inputs merge to the
    single run's log; an H.264 elementary stream (no timestamps) is
    counted by decoding;
(c) the keyframe seek gives, frame for frame, the hashes of the ffmpeg
    program's decode (Python hashes the Y4M frames), as does the decode
    from the start, at every start frame; the seek is taken where a
    closed GOP allows it;
(d) audio only, garbage, a truncated MP4, an RGB stream are refused with a
    message, no crash;
(e) --hwdec: auto gives the software decode's log (hardware where it opens,
    else software with a one-line note), a named type either does too or
    fails with its message (never another log), an unknown type is a usage
    error that lists this FFmpeg's types; a catalog item's --hwdec auto
    merges to the same log.

usage: av_input_test.py VQHIP AV_FRAMES WORKDIR (exit 77: no ffmpeg with
libx264 and mpeg4)
"""
import os
import re
import shutil
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'common'))
import checks  # noqa: E402
from subproc import ffmpeg, run  # noqa: E402
from checks import check  # noqa: E402

VQHIP, AV_FRAMES, WORK = (os.path.abspath(a) for a in sys.argv[1:4])
N = 37  # frames: neither GOP (10, 12) nor the segments divide it


def normalise(text):
    text = re.sub(r'"fps": [^,\n]*,', '"fps": X,', text)
    return re.sub(r'<fyi fps="[^"]*" />', '<fyi fps="X" />', text)


def read(path):
    with open(path) as f:
        return f.read()


def y4m_frames(path):
    """The frame payloads of a Y4M file."""
    with open(path, 'rb') as f:
        data = f.read()
    head, _, rest = data.partition(b'\n')
    tags = dict((t[:1], t[1:]) for t in head.split()[1:])
    w, h = int(tags[b'W']), int(tags[b'H'])
    size = w * h + 2 * ((w + 1) // 2) * ((h + 1) // 2)
    frames = []
    while rest:
        line, _, rest = rest.partition(b'\n')
        assert line.startswith(b'FRAME')
        frames.append(rest[:size])
        rest = rest[size:]
    return frames


def fnv(data):
    h = 1469598103934665603
    for b in data:
        h = ((h ^ b) * 1099511628211) & 0xFFFFFFFFFFFFFFFF
    return '%016x' % h


if not shutil.which('ffmpeg'):
    checks.skip('no ffmpeg program')
enc = run(['ffmpeg', '-hide_banner', '-encoders']).stdout
if 'libx264' not in enc or ' mpeg4 ' not in enc:
    checks.skip('ffmpeg has no libx264 or mpeg4 encoder')
if os.path.isdir(WORK):
    shutil.rmtree(WORK)
os.makedirs(WORK)
os.chdir(WORK)

SRC = ['-f', 'lavfi', '-i', 'testsrc2=size=176x144:rate=25', '-frames:v',
       str(N), '-pix_fmt', 'yuv420p']
X264 = ['-c:v', 'libx264', '-g', '10', '-keyint_min', '10', '-bf', '2',
        '-sc_threshold', '0']
# closed GOPs (mpeg4's are open unless asked: leading B-frames follow
# each I-frame, which the seek must then not start from)
MPEG4 = ['-c:v', 'mpeg4', '-g', '12', '-bf', '2', '-flags', '+cgop',
         '-sc_threshold', '1000000000']
ffmpeg(*SRC, *X264, '-crf', '18', 'ref.mp4')
ffmpeg(*SRC, *X264, '-crf', '40', 'dis.mp4')
ffmpeg(*SRC, *MPEG4, '-q:v', '3', 'ref.mkv')
ffmpeg(*SRC, *MPEG4, '-q:v', '25', 'dis.mkv')
ffmpeg(*SRC, '-c:v', 'libx264', '-g', '10', '-bf', '3', '-x264-params',
       'open-gop=1', 'open.mkv')
ffmpeg(*SRC, *X264, '-crf', '18', 'ref.h264')
ffmpeg(*SRC, *X264, '-crf', '40', 'dis.h264')
for name in ('ref.mp4', 'dis.mp4', 'ref.mkv', 'dis.mkv', 'open.mkv',
             'ref.h264', 'dis.h264'):
    ffmpeg('-i', name, '-fps_mode', 'passthrough', name + '.y4m')
    check(len(y4m_frames(name + '.y4m')) == N, '%s: ffmpeg decodes %d frames'
          % (name, N))

OPTS = ['--model', 'version=vmaf_v0.6.1', '--feature', 'psnr', '--feature',
        'motion=motion_five_frame_window=true']

# (a) MP4 / MKV pair against the ffmpeg program's Y4M decode
for ext in ('mp4', 'mkv'):
    for fmt in ('json', 'xml'):
        logs = []
        for ref, dis in (('ref.' + ext, 'dis.' + ext),
                         ('ref.%s.y4m' % ext, 'dis.%s.y4m' % ext)):
            log = '%s.%s.%s' % (ref, 'single', fmt)
            r = run([VQHIP, '-r', ref, '-d', dis, '-q', '-o', log, '--' + fmt]
                    + OPTS)
            check(r.returncode == 0, '%s run: %s' % (ref, r.stderr))
            logs.append(normalise(read(log)) if r.returncode == 0 else None)
        check(logs[0] is not None and logs[0] == logs[1],
              '(a) %s %s log differs from the Y4M decode\'s' % (ext, fmt))
        check(logs[0] is not None and logs[0].count('frameNum') == N,
              '(a) %s %s log has %d frames' % (ext, fmt, N))

# (b) catalog segments over MP4, MKV and H.264 elementary inputs
with open('manifest.tsv', 'w') as f:
    for ext in ('mp4', 'mkv', 'h264'):
        f.write('t%s\tref.%s\tdis.%s\tt%s.json\t--json %s\n' %
                (ext, ext, ext, ext, ' '.join(OPTS)))
for cuts in ('12,25', '4,9,15,21,26,33'):
    plan = 'plan' + str(len(cuts.split(',')) + 1)
    r = run([VQHIP, 'plan', 'manifest.tsv', '--out', plan, '--cuts', cuts])
    check(r.returncode == 0, '(b) plan %s: %s' % (cuts, r.stderr))
    items = [l.split('\t') for l in read(plan + '/items.tsv').splitlines()
             if not l.startswith('#')]
    check(len(items) == 3 * (len(cuts.split(',')) + 1), '(b) items %s' % cuts)
    check(all(int(i[6]) == N for i in items), '(b) plan counts %d frames' % N)
    for i in range(len(items)):
        r = run([VQHIP, 'run-item', plan, '--index', str(i)])
        check(r.returncode == 0, '(b) run-item %d: %s' % (i, r.stderr))
    for ext in ('mp4', 'mkv', 'h264'):
        log = '%s/t%s.json' % (plan, ext)
        r = run([VQHIP, 'merge', plan, '--title', 't' + ext, '--log', log,
                 '--log-fmt', 'json'])
        check(r.returncode == 0, '(b) merge %s: %s' % (ext, r.stderr))
        single = 'ref.%s.single.json' % ext
        if ext == 'h264':
            single = 'h264.single.json'
            run([VQHIP, '-r', 'ref.h264', '-d', 'dis.h264', '-q', '-o', single,
                 '--json'] + OPTS)
        check(r.returncode == 0 and
              normalise(read(log)) == normalise(read(single)),
              '(b) %s: %s segments merge to a log other than the single '
              'run\'s' % (ext, len(cuts.split(',')) + 1))

# (c) keyframe seek == decode from the start == the ffmpeg program's decode
for name in ('ref.mp4', 'dis.mp4', 'ref.mkv', 'open.mkv', 'ref.h264'):
    want = [fnv(f) for f in y4m_frames(name + '.y4m')]
    fast_used = []
    for k in range(N):
        for mode in ('fast', 'decode') if k % 4 == 0 else ('fast',):
            r = run([AV_FRAMES, name, mode, str(k), '6'])
            lines = r.stdout.split('\n')
            got = [l.split()[2] for l in lines if l.startswith('frame ')]
            check(r.returncode == 0 and lines[0] == 'count %d' % N and
                  got == want[k:k + 6],
                  '(c) %s %s from frame %d: %s %s' % (name, mode, k,
                                                       got, r.stderr))
            if mode == 'fast' and r.returncode == 0:
                fast_used.append(lines[1] == 'fast 1')
    print('%s: keyframe seek taken for %d of %d start frames' %
          (name, sum(fast_used), N))
    gop = {'ref.mp4': 10, 'dis.mp4': 10, 'ref.mkv': 12}.get(name)
    if gop:
        # closed GOPs: a keyframe to start from at or before every frame
        # from the second GOP on
        check(fast_used[gop:] == [True] * (N - gop),
              '(c) %s: the seek was not taken from frame %d on' % (name, gop))
    if name in ('ref.h264', 'open.mkv'):
        # no timestamps; open GOPs (x264's open-gop): no clean start
        check(not any(fast_used), '(c) %s: seeked where it is unsafe' % name)

# (d) refused with a message, no crash
ffmpeg('-f', 'lavfi', '-i', 'sine=duration=1', '-c:a', 'aac', 'audio.mp4')
with open('garbage.mp4', 'wb') as f:
    f.write(bytes((i * 7919 + 13) % 251 for i in range(20000)))
ffmpeg(*SRC, *X264, '-movflags', '+faststart', 'fast.mp4')
data = open('fast.mp4', 'rb').read()
with open('truncated.mp4', 'wb') as f:
    f.write(data[:len(data) * 6 // 10])
ffmpeg(*SRC[:-2], '-c:v', 'libx264rgb', 'rgb.mkv')
REFUSED = {'audio.mp4': 'no video stream',
           'garbage.mp4': 'not a file FFmpeg reads',
           'truncated.mp4': 'cannot be established',
           'rgb.mkv': '-pix_fmt yuv420p'}
for name, words in REFUSED.items():
    r = run([VQHIP, '-r', name, '-d', 'dis.mp4', '-q'])
    if name == 'truncated.mp4':
        # a single run scores the frames it reads and says so (exit 3);
        # the plan, which needs the count, refuses it
        check(r.returncode == 3 and 'incomplete' in r.stdout + r.stderr,
              '(d) %s single run: %d %s' % (name, r.returncode, r.stderr))
        with open('bad.tsv', 'w') as f:
            f.write('bad\t%s\tdis.mp4\tbad.json\t\n' % name)
        r = run([VQHIP, 'plan', 'bad.tsv', '--out', 'badplan'])
        check(r.returncode == 65 and words in r.stderr,
              '(d) %s plan: %d %s' % (name, r.returncode, r.stderr))
    else:
        check(r.returncode == 3 and words in r.stderr,
              '(d) %s: %d %s' % (name, r.returncode, r.stderr))
    print('%s: %s' % (name, r.stderr.strip().split('\n')[-1]))

# (e) hardware decoding: the same frames wherever it runs
for ext in ('mp4', 'h264'):
    single = 'ref.mp4.single.json' if ext == 'mp4' else 'h264.single.json'
    for mode in ('auto', 'cuda', 'vaapi'):
        log = 'hw_%s_%s.json' % (mode, ext)
        r = run([VQHIP, '-r', 'ref.' + ext, '-d', 'dis.' + ext, '-q', '-o', log,
                 '--json', '--hwdec', mode] + OPTS)
        if r.returncode == 0:
            check(normalise(read(log)) == normalise(read(single)),
                  '(e) --hwdec %s %s: a log other than software decoding\'s'
                  % (mode, ext))
            software = 'decoding in software' in r.stderr
            check(mode == 'auto' or not software,
                  '(e) --hwdec %s fell back to software' % mode)
        else:
            check(mode != 'auto' and r.returncode == 3 and
                  ("--hwdec %s:" % mode) in r.stderr,
                  '(e) --hwdec %s %s: exit %d, %s' % (mode, ext, r.returncode,
                                                     r.stderr))
        print('--hwdec %s %s: %s' % (mode, ext, 'ok' if not r.returncode else
                                     r.stderr.strip().split('\n')[-1]))
r = run([VQHIP, '-r', 'ref.mp4', '-d', 'dis.mp4', '--hwdec', 'no-such'])
check(r.returncode == 2 and "'no-such'" in r.stderr and 'none, auto' in
      r.stderr, '(e) unknown --hwdec: %d %s' % (r.returncode, r.stderr))
with open('hw.tsv', 'w') as f:
    f.write('hw\tref.mp4\tdis.mp4\thw.json\t--json --hwdec auto %s\n'
            % ' '.join(OPTS))
r = run([VQHIP, 'plan', 'hw.tsv', '--out', 'hwplan', '--cuts', '20'])
check(r.returncode == 0, '(e) plan --hwdec auto: %s' % r.stderr)
for i in range(2):
    r = run([VQHIP, 'run-item', 'hwplan', '--index', str(i)])
    check(r.returncode == 0, '(e) run-item --hwdec auto %d: %s' % (i, r.stderr))
r = run([VQHIP, 'merge', 'hwplan', '--title', 'hw', '--log', 'hwplan/hw.json',
         '--log-fmt', 'json'])
check(r.returncode == 0 and os.path.exists('hwplan/hw.json') and
      normalise(read('hwplan/hw.json')) == normalise(read('ref.mp4.single.json')),
      '(e) the --hwdec auto items merge to another log: %s' % r.stderr)
with open('hwbad.tsv', 'w') as f:
    f.write('hw\tref.mp4\tdis.mp4\thw.json\t--hwdec no-such\n')
r = run([VQHIP, 'plan', 'hwbad.tsv', '--out', 'hwbadplan'])
check(r.returncode != 0 and "'no-such'" in r.stderr,
      '(e) a plan with --hwdec no-such: %d %s' % (r.returncode, r.stderr))

sys.exit(checks.finish())
