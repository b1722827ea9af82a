#!/usr/bin/env python3
"""Make an encoding ladder from a source with FFmpeg, score it in one pass, print a table.

usage: ladder-example.py [--source FILE] [--out DIR] [--ladder H:KBPS,...]
                         [--vqhip PATH] [--ffmpeg PATH] [--model VERSION]
                         [--threads N] [--seconds S] [--keep-y4m]

Steps (docs/LADDER.md, "A ladder from a source, scored in one pass"):

1. The source: --source FILE, or else a generated clip (ffmpeg's testsrc2,
   1920x1080, --seconds long at 25 fps, x264 at CRF 12) written to OUT/source.mp4.
2. The ladder: one x264 encode per rung (HEIGHT:KBPS), the width from the
   source's aspect ratio (rounded to even), rungs taller than the source left
   out: OUT/r<HEIGHT>p.mp4. Single-pass ABR: -b:v KBPS, -maxrate 1.5x, -bufsize 2x.
3. One pass: ffmpeg decodes the source and each rendition, scales each
   rendition back to the source's size with bicubic (scale=W:H:flags=bicubic),
   and writes Y4M into a named pipe (OUT/fifo/); one `vqhip -r SRC -d R1 -d
   R2 ...` reads them all at once and writes one JSON log per rendition
   (OUT/logs/<label>.json). No decoded frame touches the disk (--keep-y4m
   writes regular files instead).
4. The table: per rendition its encoded size, its bitrate (file bytes * 8 /
   duration, container included; duration = frames / the source's frame
   rate), and from its log VMAF's mean, perc5 (numpy.percentile's default
   "linear" method, computed by vqhip: --pool 'mean|perc5|min') and min.

Only the standard library; ffmpeg needs libx264 (Debian's /usr/bin/ffmpeg has it).
Exit status: 0, 2 on bad arguments, 3 when a tool fails, 77 when ffmpeg lacks libx264.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
from fractions import Fraction

DEFAULT_LADDER = '1080:4500,720:2500,540:1400,432:900,360:600,270:350'


def die(msg, code=3):
    print('ladder-example: ' + msg, file=sys.stderr)
    sys.exit(code)


def run(cmd, **kw):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)
    if r.returncode != 0:
        die('%s failed (exit %d):\n%s' % (cmd[0], r.returncode, r.stderr[-2000:]))
    return r.stdout


def parse_ladder(text):
    rungs = []
    for item in text.split(','):
        try:
            h, kbps = item.split(':')
            rungs.append((int(h), int(kbps)))
        except ValueError:
            die('bad --ladder item %r (HEIGHT:KBPS)' % item, 2)
        if rungs[-1][0] < 2 or rungs[-1][0] % 2 or rungs[-1][1] < 1:
            die('bad --ladder item %r (even height, kb/s >= 1)' % item, 2)
    return rungs


def probe(ffprobe, path):
    out = run([ffprobe, '-v', 'error', '-select_streams', 'v:0', '-show_entries',
               'stream=width,height,r_frame_rate', '-of', 'json', path])
    s = json.loads(out)['streams'][0]
    return int(s['width']), int(s['height']), Fraction(s['r_frame_rate'])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--source', help='source video (default: a generated testsrc2 clip)')
    ap.add_argument('--out', default='ladder-out', help='output folder')
    ap.add_argument('--ladder', default=DEFAULT_LADDER, help='HEIGHT:KBPS,... (%(default)s)')
    ap.add_argument('--vqhip', default='build/tools/vqhip', help='the vqhip CLI')
    ap.add_argument('--ffmpeg', default='/usr/bin/ffmpeg', help='an ffmpeg with libx264')
    ap.add_argument('--model', default='vmaf_v0.6.1')
    ap.add_argument('--threads', type=int, default=2, help='vqhip --threads and x264 threads')
    ap.add_argument('--seconds', type=float, default=2.0, help='length of the generated clip')
    ap.add_argument('--gen-size', default='1920x1080', help='size of the generated clip')
    ap.add_argument('--keep-y4m', action='store_true',
                    help='write the decoded Y4M files to OUT/y4m/ instead of pipes')
    a = ap.parse_args()

    ffmpeg = a.ffmpeg
    ffprobe = os.path.join(os.path.dirname(ffmpeg), 'ffprobe') if os.path.dirname(ffmpeg) \
        else 'ffprobe'
    if not shutil.which(ffmpeg) or not shutil.which(ffprobe):
        die('%s or %s not found' % (ffmpeg, ffprobe), 77)
    if 'libx264' not in run([ffmpeg, '-hide_banner', '-encoders']):
        die('%s has no libx264 encoder' % ffmpeg, 77)
    if not os.access(a.vqhip, os.X_OK):
        die('%s is not an executable (build it: meson setup build && ninja -C build)'
            % a.vqhip, 2)
    rungs = parse_ladder(a.ladder)
    os.makedirs(os.path.join(a.out, 'logs'), exist_ok=True)
    x264_threads = ['-threads', str(a.threads)]

    src = a.source
    if not src:
        src = os.path.join(a.out, 'source.mp4')
        run([ffmpeg, '-nostdin', '-y', '-v', 'error', '-f', 'lavfi', '-i',
             'testsrc2=size=%s:rate=25:duration=%g' % (a.gen_size, a.seconds),
             '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '12', '-pix_fmt', 'yuv420p',
             *x264_threads, src])
    sw, sh, fps = probe(ffprobe, src)

    renditions = []  # (label, path, width, height, kbps)
    for h, kbps in rungs:
        if h > sh:
            print('ladder-example: %dp left out (the source is %dp)' % (h, sh), file=sys.stderr)
            continue
        w = int(round(h * sw / sh / 2)) * 2
        label = 'r%dp' % h
        path = os.path.join(a.out, label + '.mp4')
        run([ffmpeg, '-nostdin', '-y', '-v', 'error', '-i', src,
             '-vf', 'scale=%d:%d:flags=bicubic' % (w, h), '-an',
             '-c:v', 'libx264', '-preset', 'veryfast', '-b:v', '%dk' % kbps,
             '-maxrate', '%dk' % (kbps * 3 // 2), '-bufsize', '%dk' % (kbps * 2),
             '-pix_fmt', 'yuv420p', *x264_threads, path])
        renditions.append((label, path, w, h, kbps))
    if not renditions:
        die('no rendition fits the source (%dx%d)' % (sw, sh), 2)

    # Decoders: the source as it is, each rendition scaled back with bicubic.
    io_dir = os.path.join(a.out, 'y4m' if a.keep_y4m else 'fifo')
    os.makedirs(io_dir, exist_ok=True)
    jobs = [('source', src, None)] + [(r[0], r[1], 'scale=%d:%d:flags=bicubic' % (sw, sh))
                                      for r in renditions]
    decoders = []
    y4m = {}
    for label, path, vf in jobs:
        dst = os.path.join(io_dir, label + '.y4m')
        if os.path.lexists(dst):
            os.remove(dst)
        if not a.keep_y4m:
            os.mkfifo(dst)
        y4m[label] = dst
        cmd = [ffmpeg, '-nostdin', '-y', '-v', 'error', '-i', path]
        cmd += ['-vf', vf] if vf else []
        cmd += ['-pix_fmt', 'yuv420p', '-f', 'yuv4mpegpipe']
        if a.keep_y4m:
            run(cmd + [dst])
        else:
            # The shell opens the pipe before ffmpeg starts, so vqhip's open()
            # always returns, and reads an end if ffmpeg fails.
            decoders.append(subprocess.Popen(['sh', '-c', 'exec "$@" - > "$0"', dst] + cmd,
                                             stderr=subprocess.PIPE, text=True))

    cmd = [a.vqhip, '-r', y4m['source']]
    for r in renditions:
        cmd += ['-d', y4m[r[0]]]
    cmd += ['--model', 'version=' + a.model, '--threads', str(a.threads),
            '--pool', 'mean|perc5|min', '--precision', 'max', '--json',
            '-o', os.path.join(a.out, 'logs', '%s.json'), '-q']
    if len(renditions) == 1:  # one -d: the log path is taken as it is
        cmd[-2] = os.path.join(a.out, 'logs', renditions[0][0] + '.json')
    vq = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    errors = []
    for d in decoders:
        if vq.returncode != 0:
            d.kill()
        _, err = d.communicate()
        if d.returncode > 0:
            errors.append(err[-1000:])
    if not a.keep_y4m:
        shutil.rmtree(io_dir)
    if vq.returncode != 0 or errors:
        die('vqhip exit %d:\n%s\n%s' % (vq.returncode, vq.stderr[-2000:],
                                         ''.join('ffmpeg (decoding): ' + e for e in errors)))

    rows = []
    for label, path, w, h, kbps in renditions:
        with open(os.path.join(a.out, 'logs', label + '.json')) as f:
            log = json.load(f)
        vmaf = log['pooled_metrics']['vmaf']
        frames = len(log['frames'])
        kbs = os.path.getsize(path) * 8 / (frames / fps) / 1000
        rows.append((label, '%dx%d' % (w, h), '%d' % kbps, '%.0f' % kbs,
                     '%.3f' % vmaf['mean'], '%.3f' % vmaf['perc5'], '%.3f' % vmaf['min']))
    head = ('rendition', 'size', 'target kb/s', 'kb/s', 'VMAF mean', 'p5', 'min')
    widths = [max(len(x[i]) for x in rows + [head]) for i in range(len(head))]
    print('source %s: %dx%d, %s fps, %d frames; model %s' % (
        src, sw, sh, fps, frames, a.model))
    for row in [head] + rows:
        print('  '.join(c.rjust(wd) if i else c.ljust(wd)
                        for i, (c, wd) in enumerate(zip(row, widths))).rstrip())


if __name__ == '__main__':
    main()
