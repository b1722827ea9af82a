#!/usr/bin/python3
"""The CLI's --realign on clips with a dropped or a repeated frame at a
known position (docs/ALIGNMENT.md, "Drops and repeats mid-stream").

usage: check_realign.py VQHIP WORK_DIR

A 176x144 reference of 70 frames: a smoothed random texture moving every
frame, a scene cut to another texture at frame 25, a static section
(frames 45..54: one picture) and motion again. The distorted videos are
the reference with noise (every frame its own), and
  - one frame dropped at frame K_DROP (distorted frame K_DROP is reference
    frame K_DROP + 1 from there on);
  - one frame repeated at frame K_REP (distorted frame K_REP repeats
    distorted frame K_REP - 1, an exact copy).
Checks:
  - the event is said on stderr at frame K (the read-ahead finds it at
    the pair where it happened), with the input, the kind and the delta,
    and the mean squared differences it reports equal a numpy
    recomputation of the rule's terms (at this size the grid is the luma
    plane itself);
  - the JSON log (precision max) of the --realign run equals, byte for
    byte but the "fps" line and its "realign" record, that of a plain run on the correctly paired
    files made here (the reference without frame K_DROP; the distorted
    video without its repeated frame), and the plain run on the given
    pair is another log (the test can fail);
  - the JSON log records the event in "vqhip"."realign" (frame, time,
    input, kind, delta, offset, frames) and docs/log.schema.json accepts
    it; the XML log has it as <realign> in <vqhip>;
  - --verify-log with --realign finds every value equal; --frame_cnt 20
    counts pairs (the correctly paired run's first 20);
  - the NDJSON stream (--stats-url) carries the event as a "realign" line
    with the frame, its time (--fps 25: K / 25 s) and the delta;
  - the same with the distorted video read from a pipe;
  - a frame dropped inside the static section is found where the motion
    resumes, as the reference's repeat (a still frame repeats the one
    before it), with the same checks;
  - the clean pair (with its scene cut and static section) gives no event
    and the same log with and without --realign;
  - --realign_window 0 is refused (2).
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
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_align import W, H, noisy, run, score, write_raw  # noqa: E402

N, CUT, STATIC = 70, 25, (45, 55)
K_DROP, K_REP = 12, 33
WINDOW = 3  # the library's default confirmation window


def canvas(seed):
    rng = np.random.default_rng(seed)
    c = rng.integers(0, 256, (H + 160, W + 320)).astype(np.float64)
    for _ in range(2):
        c = (c + np.roll(c, 1, 0) + np.roll(c, 1, 1) + np.roll(c, -1, 0)) / 4
    return c


A, B = canvas(7), canvas(8)


def frame(t):
    if STATIC[0] <= t < STATIC[1]:
        t = STATIC[0]
    c, u = (A, t) if t < CUT else (B, t - CUT)
    y = c[20 + u:20 + u + H, 10 + 3 * u:10 + 3 * u + W]
    return np.clip(np.rint(y), 0, 255).astype(np.uint8)


def mse(x, y):
    return np.mean((x.astype(np.float64) - y.astype(np.float64)) ** 2)


def events(stderr):
    return [l for l in stderr.splitlines() if l.startswith('vqhip: realign: frame')]


def without_record(text):
    """The log's lines but the "fps" line and the lines of its "vqhip".
    "realign" record (from its key to the line closing the array)."""
    lines = text.splitlines(True)
    a = next((i for i, l in enumerate(lines) if l == '    "realign": [\n'),
             None)
    if a is not None:
        b = lines.index('    ],\n', a) + 1
        lines = lines[:a] + lines[b:]
    return [l for l in lines if not l.startswith('  "fps":')]


def check_event(vqhip, work, name, ref_y, dis_y, k, what, delta, want_pair,
                input_kind=None):
    """want_pair: the correctly paired (reference, distorted) frame lists;
    input_kind: the event's (input, kind), by default the distorted video's
    drop (delta -1) or repeat (+1)."""
    inp, kind = input_kind or ('distorted', 'drop' if delta < 0 else 'repeat')
    ref, dis = (os.path.join(work, '%s_%s.yuv' % (name, s)) for s in ('ref', 'dis'))
    write_raw(ref, ref_y)
    write_raw(dis, dis_y)
    wref, wdis = (os.path.join(work, '%s_want_%s.yuv' % (name, s)) for s in ('ref', 'dis'))
    write_raw(wref, want_pair[0])
    write_raw(wdis, want_pair[1])
    want = score(vqhip, wref, wdis, os.path.join(work, name + '_want.json'))
    plain = score(vqhip, ref, dis, os.path.join(work, name + '_plain.json'))
    check(plain != want, '%s: without --realign the log differs from the '
          'correctly paired run\'s' % name)
    stream = os.path.join(work, name + '.ndjson')
    log = os.path.join(work, name + '_realign.json')
    p = run(vqhip, ['-r', ref, '-d', dis, '--json', '--precision', 'max',
                    '-q', '-o', log, '-w', str(W), '-h', str(H), '--realign',
                    '--fps', '25', '--stats-url', stream])
    with open(log) as f:
        text = f.read()
    got = without_record(text)
    check(got == want, '%s: --realign log = the correctly paired run\'s log '
          '(%d frames) but its "realign" record'
          % (name, sum(1 for l in want if '"frameNum"' in l)))
    rec = json.loads(text)['vqhip'].get('realign')
    check(rec == [{'frame': k, 'time': k / 25, 'input': inp,
                   'kind': kind, 'delta': delta,
                   'offset': delta, 'ref_frame': k, 'dis_frame': k}],
          '%s: the log records the event (%s)' % (name, rec))
    errs = schema.errors(json.loads(text), 'log.schema.json')
    check(not errs, '%s: docs/log.schema.json accepts the log %s'
          % (name, errs[:3]))
    # --verify-log re-runs it (with --realign again): every value equal
    v = run(vqhip, ['-r', ref, '-d', dis, '-w', str(W), '-h', str(H),
                    '--verify-log', log, '--realign'])
    check(re.search(r'verify-log: \d+ values of %d frames compared.*: all '
                    r'match' % min(map(len, want_pair)),
                    v.stdout + v.stderr),
          '%s: --verify-log with --realign: all match' % name)
    # --frame_cnt counts pairs: 20 pairs, the correctly paired run's 20
    got20 = without_record(''.join(score(
        vqhip, ref, dis, os.path.join(work, name + '_20.json'),
        ['--realign', '--frame_cnt', '20'])))
    want20 = score(vqhip, wref, wdis, os.path.join(work, name + '_w20.json'),
                   ['--frame_cnt', '20'])
    check(got20 == want20 and sum('"frameNum"' in l for l in got20) == 20,
          '%s: --frame_cnt 20 --realign: 20 pairs, the correctly paired '
          'run\'s' % name)
    xml = os.path.join(work, name + '_realign.xml')
    run(vqhip, ['-r', ref, '-d', dis, '--xml', '-q', '-o', xml, '-w', str(W),
                '-h', str(H), '--realign'])
    import xml.etree.ElementTree as ET
    el = ET.parse(xml).getroot().findall('./vqhip/realign')
    check(len(el) == 1 and el[0].get('frame') == str(k) and
          el[0].get('delta') == str(delta) and el[0].get('time') is None,
          '%s: the XML log has <realign frame="%d" delta="%d"> (no time: '
          'raw input without --fps) (%s)' % (name, k, delta,
                                             [e.attrib for e in el]))
    # the distorted video from a pipe: the same log (the read-ahead never
    # seeks)
    piped = os.path.join(work, name + '_piped.json')
    with open(dis, 'rb') as f:
        q = subprocess.run([vqhip, '-r', ref, '-d', '-', '--json',
                            '--precision', 'max', '-q', '-o', piped, '-w',
                            str(W), '-h', str(H), '--realign'], stdin=f,
                           capture_output=True, text=True)
    with open(piped) as f:
        check(q.returncode == 0 and len(events(q.stderr)) == 1 and
              without_record(f.read()) == want,
              '%s: the distorted video from a pipe: the same log' % name)
    ev = events(p.stderr)
    check(len(ev) == 1, '%s: one event said (%s)' % (name, ev))
    m = re.match(r'vqhip: realign: frame (\d+) \(([0-9.]+) s\): (.*?); pairs '
                 r're-aligned by ([-+]\d+) .*difference ([0-9.]+), ([0-9.]+) '
                 r're-aligned$', ev[0] if ev else '')
    check(m and int(m.group(1)) == k and m.group(2) == '%.3f' % (k / 25),
          '%s: the event is at frame %d, %.3f s (%s)'
          % (name, k, k / 25, m.groups() if m else None))
    check(m and m.group(3) == what and int(m.group(4)) == delta,
          '%s: "%s", re-aligned by %+d' % (name, what, delta))
    # the rule's terms at the pairs k .. k + WINDOW - 1, as given
    e0 = np.mean([mse(ref_y[k + t], dis_y[k + t]) for t in range(WINDOW)])
    r0, d0 = (1, 0) if delta < 0 else (0, 1)
    en = np.mean([mse(ref_y[k + t + r0], dis_y[k + t + d0])
                  for t in range(WINDOW)])
    check(m and m.group(5) == '%.3f' % e0 and m.group(6) == '%.3f' % en,
          '%s: the differences said %s = numpy %.3f, %.3f'
          % (name, m.groups()[4:] if m else None, e0, en))
    with open(stream) as f:
        lines = [json.loads(l) for l in f]
    # docs/stats.schema.json accepts every line
    errs = [e for l in lines for e in schema.errors(l, 'stats.schema.json')]
    check(lines and not errs, '%s: stats.schema.json accepts the stream\'s '
          '%d lines %s' % (name, len(lines), errs[:3]))
    re_lines = [l for l in lines if l.get('type') == 'realign']
    check(len(re_lines) == 1 and re_lines[0]['frame'] == k and
          re_lines[0]['input'] == inp and re_lines[0]['kind'] == kind and
          re_lines[0]['time'] == k / 25 and re_lines[0]['delta'] == delta and
          re_lines[0]['schema'] == 'vqhip.stats/1',
          '%s: the NDJSON stream has the event (%s)' % (name, re_lines))


def main():
    vqhip, work = sys.argv[1], sys.argv[2]
    os.makedirs(work, exist_ok=True)
    ref_y = [frame(t) for t in range(N)]
    dis_all = noisy(ref_y, 11)

    # clean, with a scene cut and a static section: nothing changes
    ref, dis = (os.path.join(work, 'clean_%s.yuv' % s) for s in ('ref', 'dis'))
    write_raw(ref, ref_y)
    write_raw(dis, dis_all)
    plain = score(vqhip, ref, dis, os.path.join(work, 'clean_plain.json'))
    log = os.path.join(work, 'clean_realign.json')
    p = run(vqhip, ['-r', ref, '-d', dis, '--json', '--precision', 'max',
                    '-q', '-o', log, '-w', str(W), '-h', str(H), '--realign'])
    with open(log) as f:
        got = [l for l in f if not l.startswith('  "fps":')]
    check(got == plain, 'clean: --realign log = plain log, byte for byte')
    check(not events(p.stderr) and 'realign' not in p.stderr,
          'clean (scene cut at %d, static %d..%d): no event' % (CUT, *STATIC))

    # one frame dropped by the distorted video at K_DROP
    dis_y = dis_all[:K_DROP] + dis_all[K_DROP + 1:]
    check_event(vqhip, work, 'drop', ref_y, dis_y, K_DROP,
                'the distorted video dropped a frame', -1,
                (ref_y[:K_DROP] + ref_y[K_DROP + 1:], dis_y))
    # one frame repeated by the distorted video at K_REP
    dis_y = dis_all[:K_REP] + [dis_all[K_REP - 1]] + dis_all[K_REP:]
    check_event(vqhip, work, 'repeat', ref_y, dis_y, K_REP,
                'the distorted video repeated a frame', 1,
                (ref_y, dis_all))

    # a frame dropped inside the static section (50, in 45..54) changes no
    # pair there; it is found where motion resumes (pair 55 - 1 = 54: the
    # reference's still frame 54 has no partner), and, a still frame being
    # a repeat of the one before, read as the reference's repeat
    dis_y = dis_all[:50] + dis_all[51:]
    check_event(vqhip, work, 'static_drop', ref_y, dis_y, STATIC[1] - 1,
                'the reference repeated a frame', -1,
                (ref_y[:50] + ref_y[51:], dis_y), ('reference', 'repeat'))

    p = run(vqhip, ['-r', ref, '-d', dis, '-w', str(W), '-h', str(H),
                    '--realign', '--realign_window', '0'], rc=2)
    check(True, '--realign_window 0 is refused (2)')
    return checks.finish()


if __name__ == '__main__':
    sys.exit(main())
