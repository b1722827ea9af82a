#!/usr/bin/python3
"""The CLI's ladder (several -d against one -r) against its pair runs.

usage: check_ladder.py VQHIP WORK_DIR

Writes a Y4M reference and five renditions of it (noise, blur, both,
quantisation, a shorter one) with numpy, then for ladders of 1, 2 and 5
renditions runs

    vqhip -r REF -d D1 [-d D2 ...] -o log_%d.json ...

with vmaf_v0.6.1 (integer motion, VIF, ADM), psnr, float_ssim, ssim,
float_motion and cambi with full_ref (the reference's part shared), and
requires every rendition's log
byte-identical to the log of the pair run `vqhip -r REF -d Di` with the
same options (the pair run is the existing, verified path): JSON at
--precision max (every double exact) and CSV at libvmaf's default
precision; the per-rendition summary lines equal the
pair run's summary prefixed by "[label] ". The short rendition ends early:
its log covers its own frames and a warning names it. Logs are compared
without their "fps" line (the run's speed). Refused, with a
message that says why: a rendition of another size, one of another bit
depth, renditions with N > 1 and a log path without %d or %s, two
renditions that would write the same log, --window with a ladder. A
rendition cut short (a truncated file) ends at its bad frame with its
pair run's log (incomplete, exit 3) while the others go on. The ladder of
five runs again with integer motion and ADM added with the options of
vmaf_v1.0.16_3d0h (whose speed_chroma needs larger frames) and motion's
five-frame window: instances next to the model's, each sharing its own
reference work, on one
thread and on three (the renditions' shared reference work taken by
whichever thread of whichever rendition comes first).
"""
import json
import os
import re
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'common'))
import checks  # noqa: E402
from checks import check  # noqa: E402

W, H, FRAMES, SHORT = 256, 144, 10, 6
# VQHIP_TEST_BACKEND=hip: the same checks on the GPU (the GPU run's ladder
# check); the default is the CPU path.
FEATURES = ['--backend', os.environ.get('VQHIP_TEST_BACKEND', 'cpu'),
            '--model', 'version=vmaf_v0.6.1', '--feature', 'psnr',
            '--feature', 'float_ssim', '--feature', 'ssim',
            '--feature', 'float_motion',
            '--feature', 'name=cambi:full_ref=true']


def ref_frames():
    yy, xx = np.mgrid[0:H, 0:W]
    out = []
    for t in range(FRAMES):
        y = ((xx * 3 + t * 5) ^ (yy * 2 + t)) & 255
        y = (y // 2 + (xx + 2 * yy + 7 * t) % 100).astype(np.int32) & 255
        # a smooth ramp below: where coarse steps band (CAMBI)
        y[H // 2:] = 60 + (xx[H // 2:] * 32) // W + t
        u = np.full((H // 2, W // 2), 110 + t, np.int32)
        v = np.full((H // 2, W // 2), 140 - t, np.int32)
        out.append((y, u, v))
    return out


def blur(p):
    q = p.astype(np.float64)
    q = (np.roll(q, 1, 0) + 2 * q + np.roll(q, -1, 0)) / 4
    q = (np.roll(q, 1, 1) + 2 * q + np.roll(q, -1, 1)) / 4
    return np.rint(q).astype(np.int32)


def write_y4m(path, frames, bits=8):
    tag = b'' if bits == 8 else b'p%d' % bits
    with open(path, 'wb') as f:
        f.write(b'YUV4MPEG2 W%d H%d F25:1 Ip A1:1 C420%s\n' %
                (frames[0][0].shape[1], frames[0][0].shape[0],
                 tag if tag else b'jpeg'))
        dt = np.uint8 if bits == 8 else np.uint16
        for planes in frames:
            f.write(b'FRAME\n')
            for p in planes:
                f.write(np.clip(p, 0, (1 << bits) - 1).astype(dt).tobytes())


def renditions(ref):
    rng = np.random.default_rng(35)
    noisy = lambda a, p: p + np.rint(rng.normal(0, a, p.shape)).astype(
        np.int32)
    out = {
        'noise': [(noisy(6, y), u, v) for y, u, v in ref],
        'blur': [(blur(y), u, v) for y, u, v in ref],
        'blurnoise': [(noisy(3, blur(y)), noisy(2, u), v) for y, u, v in ref],
        'quant': [((y // 3) * 3 + 1, (u // 8) * 8, v) for y, u, v in ref],
        'short': [(noisy(10, y), u, v) for y, u, v in ref[:SHORT]],
    }
    return out


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True)
    return p.returncode, p.stdout, p.stderr


def read(path):
    """A log's bytes, its "fps" line (the run's speed) left out."""
    with open(path, 'rb') as f:
        return re.sub(rb'\n *"fps": [0-9.]+,\n', b'\n', f.read())


def pair(vqhip, work, ref, dis, label, fmt, extra):
    log = os.path.join(work, 'pair_%s.%s' % (label, fmt))
    rc, out, err = run([vqhip, '-r', ref, '-d', dis, '-o', log, '--' + fmt,
                        '-q'] + extra + FEATURES)
    check(rc == 0, 'pair run %s %s: rc %d: %s' % (label, fmt, rc, err))
    return log, out


def ladder_case(vqhip, work, ref, dis, labels, fmt, extra):
    pat = os.path.join(work, 'ladder%d_%%d_%%s.%s' % (len(dis), fmt))
    if len(dis) == 1:  # today's CLI: the path is taken as it is
        pat = os.path.join(work, 'ladder1.%s' % fmt)
    cmd = [vqhip, '-r', ref, '-o', pat, '--' + fmt, '-q'] + extra + FEATURES
    for d in dis:
        cmd += ['-d', d]
    rc, out, err = run(cmd)
    check(rc == 0, 'ladder of %d (%s): rc %d: %s' % (len(dis), fmt, rc, err))
    for i, (d, label) in enumerate(zip(dis, labels)):
        plog, pout = pair(vqhip, work, ref, d, label, fmt, extra)
        llog = pat.replace('%d', str(i + 1)).replace('%s', label)
        if not os.path.exists(llog):
            check(False, 'ladder of %d: no log %s' % (len(dis), llog))
            continue
        check(read(llog) == read(plog), 'ladder of %d, rendition %d (%s), '
              '%s: the log differs from the pair run\'s' %
              (len(dis), i + 1, label, fmt))
        mine = [l[len('[%s] ' % label):] for l in out.splitlines()
                if l.startswith('[%s] ' % label)]
        if len(dis) == 1:
            mine = out.splitlines()
        check(mine and mine == pout.splitlines(),
              'ladder of %d, %s: summary %r, pair run\'s %r' %
              (len(dis), label, mine, pout.splitlines()))
        if fmt == 'json':
            frames = json.loads(read(llog))['frames']
            want = SHORT if label == 'short' else FRAMES
            check(len(frames) == want, '%s: %d frames in the log, want %d' %
                  (label, len(frames), want))
    if 'short' in labels:
        check('short' in err and 'has %d frames' % SHORT in err,
              'no warning about the short rendition: %r' % err)


def refused(vqhip, cmd, words, what):
    rc, out, err = run([vqhip] + cmd)
    check(rc != 0, '%s: accepted (rc 0)' % what)
    for w in words:
        check(w in err, '%s: message %r lacks %r' % (what, err.strip(), w))


def main():
    vqhip, work = sys.argv[1], sys.argv[2]
    os.makedirs(work, exist_ok=True)
    ref = ref_frames()
    ref_path = os.path.join(work, 'ref.y4m')
    write_y4m(ref_path, ref)
    rend = renditions(ref)
    paths = {}
    for label, frames in rend.items():
        paths[label] = os.path.join(work, label + '.y4m')
        write_y4m(paths[label], frames)
    labels = list(rend)
    precise = ['--precision', 'max']
    # one rendition: the pair run itself (the log path is taken literally)
    ladder_case(vqhip, work, ref_path, [paths['noise']], ['noise'], 'json',
                precise)
    ladder_case(vqhip, work, ref_path, [paths['blur'], paths['short']],
                ['blur', 'short'], 'json', precise)
    five = [paths[l] for l in labels]
    ladder_case(vqhip, work, ref_path, five, labels, 'json', precise)
    ladder_case(vqhip, work, ref_path, five, labels, 'csv', [])
    for threads in ('1', '3'):
        ladder_case(vqhip, work, ref_path, five, labels, 'json',
                    precise + ['--threads', threads, '--feature',
                               'name=motion:motion_max_val=18',
                               '--feature', 'name=motion:mffw=true:mma=true',
                               '--feature', 'name=adm:adm_csf_mode=2',
                               '--feature', 'motion_v2'])

    # a rendition that cannot be read to its end: its log is its pair
    # run's (both stop at the bad frame and say so), the others go on
    trunc = os.path.join(work, 'trunc.y4m')
    with open(paths['blur'], 'rb') as f, open(trunc, 'wb') as g:
        g.write(f.read()[:os.path.getsize(paths['blur']) * 2 // 5])
    pat = os.path.join(work, 'bad_%s.json')
    rc, out, err = run([vqhip, '-r', ref_path, '-d', paths['noise'], '-d',
                        trunc, '-o', pat, '--json', '-q'] + precise + FEATURES)
    check(rc == 3 and 'rendition 2: frame ' in err and 'trunc.y4m' in err,
          'a truncated rendition: rc %d, %r' % (rc, err))
    for label, d, want_rc in (('noise', paths['noise'], 0), ('trunc', trunc, 3)):
        plog = os.path.join(work, 'bad_pair_%s.json' % label)
        prc, _, _ = run([vqhip, '-r', ref_path, '-d', d, '-o', plog, '--json',
                         '-q'] + precise + FEATURES)
        check(prc == want_rc, 'pair run of %s: rc %d' % (label, prc))
        llog = pat.replace('%s', label)
        check(os.path.exists(llog) and read(llog) == read(plog),
              'truncated case, %s: the log differs from the pair run\'s' %
              label)

    small = os.path.join(work, 'small.y4m')
    write_y4m(small, [(y[:, :W - 16], u[:, :(W - 16) // 2],
                       v[:, :(W - 16) // 2]) for y, u, v in ref])
    deep = os.path.join(work, 'deep.y4m')
    write_y4m(deep, [(y * 4, u * 4, v * 4) for y, u, v in ref], bits=10)
    base = ['-r', ref_path, '-d', paths['noise']]
    refused(vqhip, base + ['-d', small, '-o', os.path.join(work, 'x%d.json')],
            ['rendition 2', 'small.y4m', '%dx%d' % (W - 16, H)],
            'a rendition of another size')
    refused(vqhip, base + ['-d', deep, '-o', os.path.join(work, 'x%d.json')],
            ['rendition 2', 'deep.y4m', '10 bits'],
            'a rendition of another bit depth')
    refused(vqhip, base + ['-d', paths['blur'], '-o',
                           os.path.join(work, 'one.json')],
            ['%d', '%s', 'one.json'], 'a ladder with one log path')
    refused(vqhip, base + ['-d', paths['noise'], '-o',
                           os.path.join(work, 'same_%s.json')],
            ['same log', '%d'], 'two renditions writing the same log')
    refused(vqhip, base + ['-d', paths['blur'], '--window', '5', '-o',
                           os.path.join(work, 'w%d.json')],
            ['--window', 'several'], '--window with a ladder')
    refused(vqhip, base + ['-d', paths['blur'], '--live', '-o',
                           os.path.join(work, 'l%d.json')],
            ['--live', 'several'], '--live with a ladder')
    refused(vqhip, base + ['-d', paths['blur'], '--realign', '-o',
                           os.path.join(work, 'r%d.json')],
            ['--realign', 'several'], '--realign with a ladder')
    return checks.finish()


if __name__ == '__main__':
    sys.exit(main())
