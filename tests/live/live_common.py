"""What the live-monitoring tests share: a clip with a known bad stretch,
the statistics and alert events recomputed independently of libvqhip from
a run's per-frame log, and the NDJSON stream's checks.

The alert rules are simulated here from docs/LIVE.md's definition (raise
after K bad values in a row, clear at the first value past the clear
level, NaN changes nothing), never from vqhip's own events.
"""
import json
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'common'))
from checks import check  # noqa: E402
import schema  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'windows'))
import check_windows as cw  # noqa: E402

W, H, FRAMES, FPS = 176, 144, 100, 25
BAD = range(40, 60)       # frames replaced by heavy noise
WINDOW = 10
STATS = ['mean', 'min', 'max', 'median', 'perc5']
SCHEMA = 'vqhip.stats/1'

# (rule text, name, output, stat or None, below, level, k, clear)
RULES = [
    ('vmaf.mean<60 for 2 clear>70', 'vmaf.mean', 'vmaf', 'mean', True, 60, 2, 70),
    ('low=vmaf<50 for 3 clear>80', 'low', 'vmaf', None, True, 50, 3, 80),
    ('p5=vmaf.perc5 < 55', 'p5', 'vmaf', 'perc5', True, 55, 1, 55),
    ('never=psnr_y.max>99 for 1 clear<90', 'never', 'psnr_y', 'max', False, 99, 1, 90),
]


def write_clip(ref_path, dis_path):
    """A moving pattern, mildly noisy, with the frames of BAD drowned in
    noise (sigma 60): VMAF near 100 outside, far below 60 inside."""
    rng = np.random.default_rng(33)
    hdr = b'YUV4MPEG2 W%d H%d F%d:1 Ip A1:1 C420jpeg\n' % (W, H, FPS)
    yy, xx = np.mgrid[0:H, 0:W]
    c = np.full((H // 2, W // 2), 128, np.uint8).tobytes()
    with open(ref_path, 'wb') as fr, open(dis_path, 'wb') as fd:
        fr.write(hdr)
        fd.write(hdr)
        for t in range(FRAMES):
            y = ((xx * 3 + t * 2) ^ (yy * 5 - t)) & 255
            y = (y // 2 + (xx + yy + 4 * t) % 96).astype(np.int32) & 255
            sigma = 60 if t in BAD else 1.5
            d = np.clip(y + rng.normal(0, sigma, y.shape), 0, 255)
            for f, p in ((fr, y), (fd, d)):
                f.write(b'FRAME\n' + p.astype(np.uint8).tobytes() + c + c)


def windows_of(values):
    """Windows of WINDOW frames and their statistics, from the log."""
    slots = [i // WINDOW for i in range(len(values))]
    wins = cw.expected_windows(slots, 1, lambda w: len(w['frames']) < WINDOW)
    for w in wins:
        w['stats'] = {o: {s: cw.stat(s, [values[i][o] for i in w['scored']])
                          for s in STATS} for o in values[0]}
    return wins


def expected_events(values, wins):
    """Every rule's events, in the order they happen: per frame, its frame
    rules, then the rules of the window it closed."""
    state = {r[1]: {'active': False, 'run': 0, 'raised': 0} for r in RULES}
    events = []

    def feed(rule, v, frame, window, pts):
        _, name, _, _, below, level, k, clear = rule
        st = state[name]
        if v is None or math.isnan(v):
            return
        if st['active']:
            change = v > clear if below else v < clear
        else:
            bad = v < level if below else v > level
            st['run'] = st['run'] + 1 if bad else 0
            change = st['run'] >= k
        if change:
            st['active'] = not st['active']
            st['run'] = 0
            st['raised'] += st['active']
            events.append({'name': name, 'state': 'raised' if st['active']
                           else 'cleared', 'frame': frame, 'window': window,
                           'pts': pts, 'value': v})

    closes = {w['frames'][-1]: k for k, w in enumerate(wins)}
    for i in range(len(values)):
        for r in RULES:
            if r[3] is None:
                feed(r, values[i][r[2]], i, None, i / FPS)
        if i in closes:
            k = closes[i]
            for r in RULES:
                if r[3] is not None:
                    feed(r, wins[k]['stats'][r[2]][r[3]], i, k, i / FPS)
    return events, state


def read_ndjson(text, what):
    lines = []
    for n, line in enumerate(text.splitlines()):
        try:
            lines.append(json.loads(line))
        except ValueError:
            check(False, '%s line %d is not JSON: %r' % (what, n, line[:80]))
    for l in lines:
        check(l.get('schema') == SCHEMA, '%s: schema %r' % (what, l.get('schema')))
    # docs/stats.schema.json accepts every line
    for n, l in enumerate(lines):
        errs = schema.errors(l, 'stats.schema.json')
        check(not errs, '%s line %d against stats.schema.json: %s' % (what, n, errs[:3]))
    return lines


def check_stream(lines, values, wins, events, state, what, frames=False):
    """The stream's lines against the recomputation: windows equal bit for
    bit, alert events at the expected frames, frame lines, the summary
    last, in the order the data came."""
    got_w = [l for l in lines if l['type'] == 'window']
    check(len(got_w) == len(wins), '%s: %d window lines, expected %d'
          % (what, len(got_w), len(wins)))
    n_stat = 0
    for k, (g, w) in enumerate(zip(got_w, wins)):
        head = [g.get(x) for x in ('window', 'first_frame', 'last_frame',
                                   'frames', 'scored', 'partial', 'end')]
        want = [k, w['frames'][0], w['frames'][-1], len(w['frames']),
                len(w['scored']), w['partial'], w['frames'][-1] / FPS]
        check(head == want, '%s window %d: %s, expected %s' % (what, k, head, want))
        for o, st in w['stats'].items():
            for s, e in st.items():
                v = g.get('values', {}).get(o, {}).get(s)
                check(v == e, '%s window %d %s.%s: %r, recomputed %r'
                      % (what, k, o, s, v, e))
                n_stat += 1
    got_e = [{x: l.get(x) for x in ('name', 'state', 'frame', 'window', 'pts',
                                    'value')}
             for l in lines if l['type'] == 'alert']
    check(got_e == events, '%s: alert events\n  %s\nexpected\n  %s'
          % (what, got_e, events))
    got_f = [l for l in lines if l['type'] == 'frame']
    if frames:
        check([l['frame'] for l in got_f] == list(range(len(values))),
              '%s: frame lines' % what)
        for l in got_f[:len(values)]:
            check(l['values'] == values[l['frame']] and
                  l['pts'] == l['frame'] / FPS, '%s frame %d: %s' %
                  (what, l['frame'], l))
    else:
        check(not got_f, '%s: frame lines without asking' % what)
    # order: a window's line comes before the first frame line after it
    pos = {('w', l['window']): n for n, l in enumerate(lines) if l['type'] == 'window'}
    for n, l in enumerate(lines):
        if l['type'] == 'frame' and l['frame'] % WINDOW == 0 and l['frame']:
            k = l['frame'] // WINDOW - 1
            check(pos.get(('w', k), 10**9) < n, '%s: window %d after frame %d'
                  % (what, k, l['frame']))
    s = lines[-1] if lines else {}
    check(s.get('type') == 'summary' and s.get('complete') is True and
          s.get('frames') == len(values) and s.get('windows') == len(wins) and
          s.get('lost_lines') == 0 and s.get('coverage') == 1 and
          s.get('scored') == len(values), '%s: summary %s' % (what, str(s)[:300]))
    for o in values[0]:
        xs = [values[i][o] for i in range(len(values))]
        p = s.get('pooled', {}).get(o, {})
        check(p.get('mean') == cw.stat('mean', xs) and
              p.get('min') == min(xs) and p.get('max') == max(xs),
              '%s summary %s: %s' % (what, o, p))
    want_alerts = [{'name': r[1], 'active': state[r[1]]['active'],
                    'raised': state[r[1]]['raised']} for r in RULES]
    check([{x: a[x] for x in ('name', 'active', 'raised')}
           for a in s.get('alerts', [])] == want_alerts,
          '%s: summary alerts %s, expected %s' % (what, s.get('alerts'), want_alerts))
    return n_stat


def check_events_sane(events):
    """The clip's truth: the rules fire inside the bad stretch (or the
    window that holds its end), each raise is cleared after it, and the
    rule that cannot fire does not."""
    names = {e['name'] for e in events}
    check(names == {'vmaf.mean', 'low', 'p5'}, 'rules that fired: %s' % names)
    for e in events:
        if e['state'] == 'raised':
            check(BAD.start <= e['frame'] < BAD.stop, 'raised outside the bad '
                  'stretch: %s' % e)
        else:
            check(BAD.stop <= e['frame'] < BAD.stop + 2 * WINDOW,
                  'cleared at an unexpected frame: %s' % e)
