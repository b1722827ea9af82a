#!/usr/bin/env python3
"""vqhip's SHA-256 (hipcore/base/sha256.c) against Python's hashlib on inputs
around the 64-byte block and 56-byte padding boundaries, an empty one, a
large one and a model file.

usage: sha256_test.py SHA256_TOOL WORK_DIR [MODEL.json ...]
"""
import hashlib
import os
import random
import subprocess
import sys


def main(argv):
    tool, work, extra = argv[1], argv[2], argv[3:]
    os.makedirs(work, exist_ok=True)
    rng = random.Random(37)
    inputs = {'empty': b'', 'abc': b'abc',
              'fips': b'abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq'}
    for n in (1, 55, 56, 57, 63, 64, 65, 119, 120, 127, 128, 129, 1000, 100003):
        inputs['rand%d' % n] = bytes(rng.randrange(256) for _ in range(n))
    paths = []
    for name, data in inputs.items():
        p = os.path.join(work, name + '.bin')
        with open(p, 'wb') as f:
            f.write(data)
        paths.append(p)
    paths += extra
    out = subprocess.run([tool] + paths, capture_output=True, text=True)
    if out.returncode:
        print(out.stderr)
        return 1
    got = dict(reversed(line.split(' ', 1)) for line in out.stdout.splitlines())
    bad = 0
    for p in paths:
        with open(p, 'rb') as f:
            want = hashlib.sha256(f.read()).hexdigest()
        ok = got.get(p) == want
        bad += not ok
        print('%s %s (%d bytes)' % ('ok  ' if ok else 'FAIL', os.path.basename(p),
                                     os.path.getsize(p)))
        if not ok:
            print('     want %s\n     got  %s' % (want, got.get(p)))
    # the known FIPS 180-2 vectors, independent of hashlib too
    known = {'abc': 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
             'empty': 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'}
    for name, want in known.items():
        if got.get(os.path.join(work, name + '.bin')) != want:
            print('FAIL %s: not the published digest' % name)
            bad += 1
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
