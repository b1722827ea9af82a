#!/usr/bin/python3
"""The CLI's --offset and --sync on clips whose offset is known by
construction.

usage: check_align.py VQHIP WORK_DIR

A 176x144 clip of a smoothed random texture that moves every frame; the
distorted video is the reference with noise, with k extra frames at its
start (k = 3: three frames from before the reference's first) or without
the reference's first -k (k = -5). Checks:
  - --sync only prints offset=k found=1 and exits 0; the mean squared
    differences and the confidence it reports equal a numpy recomputation
    of their definition (docs/ALIGNMENT.md; at this size the search's grid
    is the luma plane itself);
  - --sync auto and --offset k write the same JSON log (precision max) as
    a run on the pair trimmed by cutting bytes in Python, byte for byte
    but the "fps" line (the run's speed);
  - the same for Y4M inputs (frames skipped by reading);
  - a static and a flat clip: no offset picked (said, found=0), and
    --sync auto scores the inputs as given (the log of a plain run);
  - --sync on standard input and --offset with --sync are refused (2);
  - the search's result is in the logs (docs/LOGS.md): the JSON log's
    "vqhip"."sync", the XML log's <sync> and the NDJSON stream's "sync"
    line (--stats-url) say what stderr says (the offset, whether it was
    applied, the confidence and differences as printed, the offsets tried,
    the frames compared; or why none was picked), the differences equal
    the numpy recomputation, the three records agree value for value, and
    docs/log.schema.json and docs/stats.schema.json accept them; without
    the record line the log is the trimmed pair's.
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
import schema  # noqa: E402
from checks import check  # noqa: E402

checks.show_passes()
W, H, N = 176, 144, 50
RANGE, FRAMES = 30, 30
FS = W * H * 3 // 2


def texture():
    rng = np.random.default_rng(7)
    c = rng.integers(0, 256, (H + 120, W + 300)).astype(np.float64)
    for _ in range(2):
        c = (c + np.roll(c, 1, 0) + np.roll(c, 1, 1) + np.roll(c, -1, 0)) / 4
    return c


CANVAS = texture()


def frame(t):
    """Luma of frame t (t may be negative: frames before the reference's)."""
    y = CANVAS[40 + t:40 + t + H, 100 + 3 * t:100 + 3 * t + W]
    return np.clip(np.rint(y), 0, 255).astype(np.uint8)


def noisy(ys, seed):
    rng = np.random.default_rng(seed)
    return [np.clip(np.rint(y + rng.normal(0, 4, y.shape)), 0, 255)
            .astype(np.uint8) for y in ys]


def write_raw(path, ys):
    chroma = np.full(W * H // 2, 128, np.uint8).tobytes()
    with open(path, 'wb') as f:
        for y in ys:
            f.write(y.tobytes() + chroma)


def to_y4m(raw, path):
    data = open(raw, 'rb').read()
    with open(path, 'wb') as f:
        f.write(b'YUV4MPEG2 W%d H%d F25:1 Ip A1:1 C420jpeg\n' % (W, H))
        for i in range(len(data) // FS):
            f.write(b'FRAME\n' + data[i * FS:(i + 1) * FS])


def run(vqhip, args, rc=0):
    p = subprocess.run([vqhip] + args, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    if p.returncode != rc:
        sys.stderr.write(p.stderr)
        raise SystemExit('FAIL: vqhip %s exited %d, not %d'
                         % (' '.join(args), p.returncode, rc))
    return p


def geometry(path):
    return [] if path.endswith('.y4m') else ['-w', str(W), '-h', str(H)]


def score(vqhip, ref, dis, log, extra=()):
    run(vqhip, ['-r', ref, '-d', dis, '--json', '--precision', 'max', '-q',
                '-o', log] + geometry(ref) + list(extra))
    with open(log) as f:
        return [l for l in f if not l.startswith('  "fps":')]


def without_sync(lines):
    """The log's lines but its "vqhip"."sync" record (one line)."""
    return [l for l in lines if not l.startswith('    "sync": {')]


SYNC_SAID = re.compile(
    r'sync: offset ([-+]\d+) \(.*?\), confidence ([0-9.]+): mean squared '
    r'luma difference ([0-9.]+), next best ([0-9.]+); offsets (-?\d+)\.\.'
    r'(-?\d+) over (\d+) frames')
REFUSAL_SAID = re.compile(r'sync: no offset picked: (.*?); (?:scoring|the '
                          r'pairs are scored)')


def said_record(stderr):
    """The search's result as stderr says it, in the log's terms, with
    the numbers as printed (%.3f): compare the log's rounded the same way."""
    m = SYNC_SAID.search(stderr)
    if m:
        return {'found': True, 'applied': True, 'offset': int(m.group(1)),
                'confidence': m.group(2), 'mse_best': m.group(3),
                'mse_next': m.group(4), 'lo': int(m.group(5)),
                'hi': int(m.group(6)), 'frames': int(m.group(7))}
    m = REFUSAL_SAID.search(stderr)
    return m and {'found': False, 'applied': False, 'offset': 0,
                  'why': m.group(1)}


def as_said(rec):
    """A log's sync record with its differences printed as stderr does."""
    if not rec:
        return rec
    out = dict(rec)
    out.pop('motion', None)
    if not rec.get('found'):
        for k in ('confidence', 'mse_best', 'mse_next', 'lo', 'hi', 'frames'):
            out.pop(k, None)
    else:
        for k in ('confidence', 'mse_best', 'mse_next'):
            out[k] = '%.3f' % rec[k]
    return out


def schema_errors(doc, name):
    return schema.errors(doc, name)


def check_sync_record(tool_run, work, tag, numpy_mse=None):
    """tool_run(fmt, log, stream) runs the tool with --sync auto (or
    sync=auto) writing a log of fmt ('json', 'xml') and the NDJSON stream
    (or None), and gives back its stderr. numpy_mse: (best, second)."""
    log = os.path.join(work, tag + '_sync.json')
    stream = os.path.join(work, tag + '_sync.ndjson')
    err = tool_run('json', log, stream)
    said = said_record(err)
    with open(log) as f:
        doc = json.load(f)
    rec = doc['vqhip'].get('sync')
    check(said and as_said(rec) == said,
          '%s: the JSON log\'s "sync" says what stderr says (%s; stderr: %s)'
          % (tag, rec, said))
    if numpy_mse and rec:
        best, second = numpy_mse
        check(abs(rec['mse_best'] - best) <= 1e-9 * best and
              abs(rec['mse_next'] - second) <= 1e-9 * second and
              rec['confidence'] == (rec['mse_next'] - rec['mse_best']) /
              rec['mse_next'],
              '%s: the log\'s differences = numpy %r, %r; its confidence '
              '= (next - best) / next' % (tag, best, second))
    errs = schema_errors(doc, 'log.schema.json')
    check(not errs, '%s: log.schema.json accepts the log %s' % (tag, errs[:3]))
    with open(stream) as f:
        lines = [json.loads(l) for l in f]
    syncs = [l for l in lines if l.get('type') == 'sync']
    line = dict(syncs[0]) if len(syncs) == 1 else {}
    for k in ('schema', 'type'):
        line.pop(k, None)
    check(line == rec, '%s: the NDJSON stream has one "sync" line, the '
          'log\'s record value for value (%s)' % (tag, syncs))
    errs = [e for l in lines for e in schema_errors(l, 'stats.schema.json')]
    check(lines and not errs, '%s: stats.schema.json accepts the stream %s'
          % (tag, errs[:3]))
    xml = os.path.join(work, tag + '_sync.xml')
    tool_run('xml', xml, None)
    import xml.etree.ElementTree as ET
    el = ET.parse(xml).getroot().findall('./vqhip/sync')
    want = {k: (str(v).lower() if isinstance(v, bool) else
                v if isinstance(v, str) else repr(v) if isinstance(v, float)
                else str(v)) for k, v in rec.items()} if rec else None
    got = dict(el[0].attrib) if len(el) == 1 else None
    # %.17g and Python's repr print the same double alike but for the
    # exponent's form: compare the values
    same = got is not None and want is not None and got.keys() == want.keys() \
        and all(float(got[k]) == float(want[k]) if k in FLOAT_KEYS else
                got[k] == want[k] for k in got)
    check(same, '%s: the XML log\'s <sync> = the JSON log\'s record (%s)'
          % (tag, got))


FLOAT_KEYS = ('confidence', 'mse_best', 'mse_next', 'motion')


def trim(src, dst, frames):
    data = open(src, 'rb').read()
    with open(dst, 'wb') as f:
        f.write(data[frames * FS:])


def mse_at(ref, dis, k):
    """Mean over the frames compared of the mean squared luma difference at
    offset k, or None where fewer than FRAMES / 2 frames overlap."""
    r0, d0 = max(0, -k), max(0, k)
    m = min(FRAMES, RANGE + FRAMES - r0, RANGE + FRAMES - d0,
            len(ref) - r0, len(dis) - d0)
    if m < FRAMES // 2:
        return None
    return np.mean([np.mean((ref[r0 + i].astype(np.float64) -
                             dis[d0 + i].astype(np.float64)) ** 2)
                    for i in range(m)])


def check_offset(vqhip, work, k):
    ref_y = [frame(t) for t in range(N)]
    dis_y = noisy([frame(t) for t in range(-k, N)], 11)
    ref = os.path.join(work, 'ref.yuv')
    dis = os.path.join(work, 'dis%+d.yuv' % k)
    write_raw(ref, ref_y)
    write_raw(dis, dis_y)
    geo = ['-w', str(W), '-h', str(H)]
    p = run(vqhip, ['-r', ref, '-d', dis, '--sync', 'only'] + geo)
    got = dict(kv.split('=') for kv in p.stdout.split())
    check(got.get('offset') == str(k) and got.get('found') == '1',
          'k=%+d: --sync only prints offset=%d found=1 (%s)'
          % (k, k, p.stdout.strip()))
    errs = {j: mse_at(ref_y, dis_y, j) for j in range(-RANGE, RANGE + 1)}
    errs = {j: e for j, e in errs.items() if e is not None}
    order = sorted(errs, key=lambda j: (errs[j], abs(j), -j))
    best, second = errs[order[0]], errs[order[1]]
    conf = (second - best) / second
    check(order[0] == k, 'k=%+d: numpy finds the same best offset' % k)
    check(got.get('confidence') == '%.6f' % conf,
          'k=%+d: confidence %s = numpy (second - best) / second %.6f'
          % (k, got.get('confidence'), conf))
    m = re.search(r'difference ([0-9.]+), next best ([0-9.]+)', p.stderr)
    check(m and m.group(1) == '%.3f' % best and m.group(2) == '%.3f' % second,
          'k=%+d: reported differences %s = numpy %.3f, %.3f'
          % (k, m.groups() if m else None, best, second))

    # scores of the aligned run = scores of the trimmed pair, bit for bit
    cut = os.path.join(work, 'cut%+d.yuv' % k)
    if k > 0:
        trim(dis, cut, k)
        want = score(vqhip, ref, cut, os.path.join(work, 'want.json'))
    else:
        trim(ref, cut, -k)
        want = score(vqhip, cut, dis, os.path.join(work, 'want.json'))
    auto = score(vqhip, ref, dis, os.path.join(work, 'auto.json'),
                 ['--sync', 'auto'])
    manual = score(vqhip, ref, dis, os.path.join(work, 'manual.json'),
                   ['--offset', str(k)])
    n_frames = sum(1 for l in want if '"frameNum"' in l)
    pairs = min(len(ref_y) - max(0, -k), len(dis_y) - max(0, k))
    check(n_frames == pairs, 'k=%+d: the trimmed run scores %d frames'
          % (k, pairs))
    # a pipe: the skipped frames are read (after the bytes read to look
    # for a Y4M header)
    piped = os.path.join(work, 'piped.json')
    cat = subprocess.Popen(['cat', dis], stdout=subprocess.PIPE)
    subprocess.run([vqhip, '-r', ref, '-d', '-', '--offset', str(k),
                    '--json', '--precision', 'max', '-q', '-o', piped,
                    '-w', str(W), '-h', str(H)], stdin=cat.stdout,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    cat.stdout.close()
    cat.wait()
    with open(piped) as f:
        check([l for l in f if not l.startswith('  "fps":')] == want,
              'k=%+d: --offset on a pipe: the trimmed pair\'s log' % k)
    off_by_one = score(vqhip, ref, dis, os.path.join(work, 'off.json'),
                       ['--offset', str(k + 1)])
    check(off_by_one != want, 'k=%+d: --offset %d (one off) is another log'
          % (k, k + 1))
    check(without_sync(auto) == want and auto != want,
          'k=%+d: --sync auto log = trimmed pair\'s log but its sync record'
          % k)

    def cli(fmt, log, stream):
        extra = ['--stats-url', stream] if stream else []
        return run(vqhip, ['-r', ref, '-d', dis, '--' + fmt, '-q', '-o', log,
                           '--sync', 'auto'] + geo + extra).stderr
    check_sync_record(cli, work, 'cli%+d' % k, (best, second))
    check(manual == want, 'k=%+d: --offset %d log = trimmed pair\'s log'
          % (k, k))

    # Y4M: the frames skipped are read, not seeked over in a mapping
    ref4, dis4, cut4 = (os.path.join(work, n) for n in
                        ('ref.y4m', 'dis.y4m', 'cut.y4m'))
    to_y4m(ref, ref4)
    to_y4m(dis, dis4)
    to_y4m(cut, cut4)
    want4 = (score(vqhip, ref4, cut4, os.path.join(work, 'want4.json'))
             if k > 0 else
             score(vqhip, cut4, dis4, os.path.join(work, 'want4.json')))
    got4 = score(vqhip, ref4, dis4, os.path.join(work, 'got4.json'),
                 ['--offset', str(k)])
    check(got4 == want4 and got4[-5:] == want[-5:],
          'k=%+d: Y4M --offset log = trimmed Y4M pair\'s log' % k)
    auto4 = score(vqhip, ref4, dis4, os.path.join(work, 'auto4.json'),
                  ['--sync', 'auto'])
    check(without_sync(auto4) == want4, 'k=%+d: Y4M --sync auto log = '
          'trimmed Y4M pair\'s log but its sync record' % k)


def check_refused(vqhip, work, name, ys, why):
    ref = os.path.join(work, name + '_ref.yuv')
    dis = os.path.join(work, name + '_dis.yuv')
    write_raw(ref, ys)
    write_raw(dis, noisy(ys[:3] + ys, 5) if name == 'static' else ys[:3] + ys)
    geo = ['-w', str(W), '-h', str(H)]
    p = run(vqhip, ['-r', ref, '-d', dis, '--sync', 'only'] + geo)
    check(p.stdout.startswith('offset=0 ') and 'found=0' in p.stdout,
          '%s: --sync only picks no offset (%s)' % (name, p.stdout.strip()))
    check(why in p.stderr, '%s: it says "%s"' % (name, why))
    plain = score(vqhip, ref, dis, os.path.join(work, 'plain.json'))
    auto = score(vqhip, ref, dis, os.path.join(work, 'auto.json'),
                 ['--sync', 'auto'])
    check(without_sync(auto) == plain,
          '%s: --sync auto scores the inputs as given' % name)

    def cli(fmt, log, stream):
        extra = ['--stats-url', stream] if stream else []
        return run(vqhip, ['-r', ref, '-d', dis, '--' + fmt, '-q', '-o', log,
                           '--sync', 'auto'] + geo + extra).stderr
    check_sync_record(cli, work, 'cli_' + name)


def main():
    vqhip, work = sys.argv[1], sys.argv[2]
    os.makedirs(work, exist_ok=True)
    check_offset(vqhip, work, 3)
    check_offset(vqhip, work, -5)
    check_refused(vqhip, work, 'static', [frame(0)] * N, 'static content')
    check_refused(vqhip, work, 'flat', [np.full((H, W), 90, np.uint8)] * N,
                  'flat (one level)')
    ref = os.path.join(work, 'ref.yuv')
    geo = ['-w', str(W), '-h', str(H)]
    with open(ref, 'rb') as f:
        p = subprocess.run([vqhip, '-r', ref, '-d', '-', '--sync', 'auto'] +
                           geo, stdin=f, capture_output=True, text=True)
    check(p.returncode == 2 and 'not a regular file' in p.stderr,
          '--sync on standard input is refused (2)')
    p = run(vqhip, ['-r', ref, '-d', ref, '--sync', 'auto', '--offset', '1']
            + geo, rc=2)
    check(True, '--offset with --sync is refused (2)')
    return checks.finish()


if __name__ == '__main__':
    sys.exit(main())
