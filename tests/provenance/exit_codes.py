#!/usr/bin/env python3
"""The CLI's exit status, case by case (docs/CLI.md's table): each case's
status and a message naming the problem on stderr.

usage: exit_codes.py VQHIP WORK_DIR
VQHIP_PLATFORM_NONE=1 (a build without a HIP platform) adds the fake
device's cases: a GPU fault under --strict.
"""
import json
import os
import subprocess
import sys


def main(argv):
    vqhip, work = argv[1], argv[2]
    os.makedirs(work, exist_ok=True)
    w, h, n = 64, 48, 3
    frame = bytes((x * 3 + y) & 255 for y in range(h) for x in range(w)) + \
        bytes([128]) * (w * h // 2)
    noisy = bytes((b + (i * 7919) % 5) & 255 for i, b in enumerate(frame))
    ref, dis, empty = (os.path.join(work, x) for x in ('ref.yuv', 'dis.yuv', 'empty.yuv'))
    for path, data in ((ref, frame * n), (dis, noisy * n), (empty, b'')):
        with open(path, 'wb') as f:
            f.write(data)
    bad_y4m = os.path.join(work, 'bad.y4m')
    with open(bad_y4m, 'wb') as f:
        f.write(b'YUV4MPEG2 W64 H48 C420p9\n')
    raw = ['-w', str(w), '-h', str(h), '-q']
    clip = ['-r', ref, '-d', dis] + raw
    fake = {'VQHIP_FAKE_GPU': '1'}
    cases = [
        # name, args, extra environment, status, message on stderr
        ('success', clip + ['--backend', 'cpu'], {}, 0, ''),
        ('success with a log', clip + ['--json', '-o', os.path.join(work, 'ok.json')], {}, 0, ''),
        ('--help', ['--help'], {}, 0, ''),
        ('unknown option', clip + ['--nosuch'], {}, 2, 'unrecognized option'),
        ('malformed number', clip + ['--threads', 'x'], {}, 2, 'not a number'),
        ('--precision out of range', clip + ['--precision', '18'], {}, 2, 'not 0 to 17 or max'),
        ('no distorted input', ['-r', ref] + raw, {}, 2, 'usage'),
        ('unknown backend', clip + ['--backend', 'tpu'], {}, 2, 'unknown backend'),
        ('bad feature option value', clip + ['--feature', 'psnr=enable_chroma=maybe'], {}, 2,
         'not a boolean'),
        ('missing input file', ['-r', os.path.join(work, 'nosuch.yuv'), '-d', dis] + raw, {}, 3,
         'No such file'),
        ('empty input', ['-r', empty, '-d', dis] + raw, {}, 3, 'no frames read'),
        ('unsupported Y4M', ['-r', bad_y4m, '-d', bad_y4m], {}, 3, 'unsupported Y4M'),
        ('unknown feature', clip + ['--feature', 'nosuch'], {}, 4, 'valid features'),
        ('unknown feature option', clip + ['--feature', 'psnr=nosuch=1'], {}, 4,
         'has no option'),
        ('unknown model', clip + ['--model', 'version=vmaf_nosuch'], {}, 4, 'no model version'),
        ('GPU strict failure: no such device', clip + ['--backend', 'hip', '--strict',
                                                        '--device', '255'], {}, 5, 'strict'),
        ('log not writable', clip + ['-o', os.path.join(work, 'no', 'dir', 'x.xml')], {}, 1,
         'cannot write the log'),
        ('log write error', clip + ['-o', '/dev/full'], {}, 1, 'No space left'),
    ]
    if os.environ.get('VQHIP_PLATFORM_NONE'):
        cases += [
            ('GPU strict failure: a fault at frame 1 (fake device)',
             clip + ['--backend', 'hip', '--strict', '--no_prediction', '--feature', 'psnr'],
             dict(fake, VQHIP_FAULT='launch@1'), 5, 'injected'),
            ('GPU fault without --strict: CPU takes over (fake device)',
             clip + ['--backend', 'hip', '--no_prediction', '--feature', 'psnr'],
             dict(fake, VQHIP_FAULT='launch@1'), 0, ''),
            ('feature without a GPU path under --strict (fake device)',
             clip + ['--backend', 'hip', '--strict'], fake, 4, 'no GPU path'),
        ]
    # --verify-log of a log whose first value was moved: 6
    good = os.path.join(work, 'v.json')
    subprocess.run([vqhip] + clip + ['--backend', 'cpu', '--feature', 'psnr', '--json',
                                     '--precision', '17', '-o', good], check=True,
                   capture_output=True)
    with open(good) as f:
        log = json.load(f)
    log['frames'][0]['metrics']['psnr_y'] += 1
    moved = os.path.join(work, 'moved.json')
    with open(moved, 'w') as f:
        json.dump(log, f)
    cases += [
        ('--verify-log: every value matches', clip + ['--verify-log', good], {}, 0, ''),
        ('--verify-log: a value differs', clip + ['--verify-log', moved], {}, 6, ''),
    ]
    failed = 0
    for name, args, env, want, pattern in cases:
        if not os.path.exists('/dev/full') and '/dev/full' in args:
            print('skip %s: no /dev/full' % name)
            continue
        e = dict(os.environ, **env)
        p = subprocess.run([vqhip] + args, capture_output=True, text=True, env=e)
        ok = p.returncode == want and pattern in p.stderr
        if want == 6:
            ok = ok and 'differ' in p.stdout
        if want and want != 6 and not p.stderr.strip():
            ok = False
        failed += not ok
        print('%s %-55s exit %d (want %d)' % ('ok  ' if ok else 'FAIL', name, p.returncode, want))
        if not ok:
            print('     | ' + '\n     | '.join(p.stderr.strip().splitlines()[-4:]))
    print('%d cases, %d failed' % (len(cases), failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
