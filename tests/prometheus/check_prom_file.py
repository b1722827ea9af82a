#!/usr/bin/python3
"""The CLI's Prometheus textfile (--prom-file), checked by Debian's
promtool and against a recomputation from the run's per-frame log.

usage: check_prom_file.py VQHIP WORK_DIR

Writes check_windows.py's 25 fps clip, runs tools/vqhip with windows and
--prom-file (windows of 10 frames; of 37; of 0.5 s with --subsample 3;
of 2 frames with --subsample 5, whose last window has no scored frame:
NaN; no windows), and checks:
  - `promtool check metrics` accepts the file (no lint problem either);
  - the file, read by a parser of the text format written here (escapes
    \\\\, \\" and \\n in label values), holds every statistic of the LAST
    window, equal bit for bit to the statistic recomputed with numpy and
    plain Python (check_windows.stat) from the JSON log's per-frame values
    (--precision max); the window's index, frames, scored frames, partial
    flag and end time; frames scored / not scored as counted from the
    frame numbers and --subsample; backend "cpu", no fallback, run done;
    in a build without a GPU (VQHIP_PLATFORM_NONE), on its fake GPU:
    backend "hip", and with a fault injected (VQHIP_FAULT=launch@5)
    "hip+cpu" with vqhip_gpu_fallback 1;
  - every sample carries the user's labels (--prom-labels), escaped and
    read back to the same strings;
  - no temporary file is left next to it;
  - an unwritable folder and a bad label fail at start-up with a message.
Exit 77 (skip) when promtool is missing.
"""
import json
import math
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'common'))
import checks  # noqa: E402
from checks import check  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'windows'))
import check_windows as cw  # noqa: E402

STATS = ['mean', 'min', 'max', 'harmonic_mean', 'median', 'perc1', 'perc5',
         'perc20']
THRESHOLDS = ['75.5', '90']
LABELS = 'job=enc|instance=ch "5" \\ left'
LABEL_VALUES = {'job': 'enc', 'instance': 'ch "5" \\ left'}


def unescape(v):
    return re.sub(r'\\(.)', lambda m: {'n': '\n'}.get(m.group(1), m.group(1)),
                  v)


def parse(text):
    """Prometheus text format: ({name: {frozenset(labels): value}},
    {name: type}, [names in HELP order])."""
    samples, types, helps = {}, {}, []
    for line in text.splitlines():
        if line.startswith('# HELP '):
            helps.append(line.split()[2])
            continue
        if line.startswith('# TYPE '):
            _, _, name, typ = line.split()
            types[name] = typ
            continue
        m = re.match(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$', line)
        if not m:
            raise ValueError('not a sample line: %r' % line)
        labels = {}
        rest = m.group(2) or ''
        for lm in re.finditer(r'([a-zA-Z_]\w*)="((?:[^"\\]|\\.)*)",?', rest):
            labels[lm.group(1)] = unescape(lm.group(2))
        samples.setdefault(m.group(1), {})[frozenset(labels.items())] = \
            float(m.group(3))
    return samples, types, helps


def expected(log_path, slots, sub, stats):
    """The last window's values recomputed from the log: {(output, stat):
    value} and its facts, and the run's frame counts."""
    with open(log_path) as f:
        j = json.load(f)
    frames = {fr['frameNum']: fr['metrics'] for fr in j['frames']}
    outputs = list(j['pooled_metrics'])
    n = len(slots)
    last = [i for i in range(n) if slots[i] == slots[-1]]
    scored = [i for i in last if i % sub == 0]
    vals = {}
    for o in outputs:
        xs = [frames[i][o] for i in scored]
        for s in stats:
            vals[(o, s)] = cw.stat(s, xs) if xs else float('nan')
    facts = {
        'vqhip_window_index': float(len(set(slots)) - 1),
        'vqhip_window_frames': float(len(last)),
        'vqhip_window_frames_scored': float(len(scored)),
        'vqhip_window_end_seconds': float(last[-1]) * 1 / cw.FPS,
        'vqhip_frames_scored_total': float(len(range(0, n, sub))),
        'vqhip_frames_not_scored_total': float(n - len(range(0, n, sub))),
        'vqhip_gpu_fallback': 0.0,
        'vqhip_run_done': 1.0,
    }
    return vals, facts, frames


def check_samples(tag, samples, vals, facts, partial, extra_labels,
                  backend='cpu', fallback=0.0):
    base = dict(extra_labels)
    facts = dict(facts, vqhip_gpu_fallback=fallback)
    for (o, s), e in vals.items():
        key = frozenset(dict(base, output=o, stat=s).items())
        got = samples.get('vqhip_window_stat', {}).get(key)
        check(got is not None and cw.same(got, e),
              '%s: vqhip_window_stat{output=%s,stat=%s} %r, recomputed %r'
              % (tag, o, s, got, e))
    n_stat = len(samples.get('vqhip_window_stat', {}))
    check(n_stat == len(vals), '%s: %d window statistics, expected %d'
          % (tag, n_stat, len(vals)))
    for name, e in dict(facts, vqhip_window_partial=float(partial)).items():
        got = samples.get(name, {}).get(frozenset(base.items()))
        check(got == e, '%s: %s %r, expected %r' % (tag, name, got, e))
    key = frozenset(dict(base, backend=backend).items())
    check(samples.get('vqhip_backend_info', {}).get(key) == 1.0 and
          len(samples.get('vqhip_backend_info', {})) == 1,
          '%s: vqhip_backend_info{backend="%s"} 1 alone: %s'
          % (tag, backend, samples.get('vqhip_backend_info')))


def promtool_ok(tag, path):
    p = subprocess.run(['promtool', 'check', 'metrics'], stdin=open(path),
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True)
    check(p.returncode == 0 and not p.stdout.strip(),
          '%s: promtool check metrics: exit %d %s'
          % (tag, p.returncode, p.stdout))


def run_case(vqhip, work, tag, args, slots, sub, partial, backend='cpu',
             fallback=0.0):
    prom_dir = os.path.join(work, tag)
    shutil.rmtree(prom_dir, ignore_errors=True)
    os.makedirs(prom_dir)
    prom = os.path.join(prom_dir, 'vqhip.prom')
    log = os.path.join(work, tag + '.json')
    cw.run(vqhip, ['-r', work + '/ref.y4m', '-d', work + '/dis.y4m',
                   '--feature', 'psnr', '--backend',
                   'cpu' if backend == 'cpu' else 'hip', '--no_prediction',
                   '--subsample', str(sub), '--precision', 'max', '--json',
                   '-o', log, '-q', '--prom-file', prom,
                   '--prom-labels', LABELS] + args)
    promtool_ok(tag, prom)
    check(os.listdir(prom_dir) == ['vqhip.prom'], '%s: files left: %s'
          % (tag, os.listdir(prom_dir)))
    with open(prom) as f:
        samples, types, helps = parse(f.read())
    for name in samples:
        check(name in types and name in helps, '%s: %s has HELP and TYPE'
              % (tag, name))
    check(types.get('vqhip_frames_scored_total') == 'counter',
          '%s: frames scored is a counter' % tag)
    stats = STATS + ['below' + t for t in THRESHOLDS]
    vals, facts, _ = expected(log, slots, sub, stats)
    if args:
        check_samples(tag, samples, vals, facts, partial, LABEL_VALUES,
                      backend, fallback)
    else:
        base = frozenset(LABEL_VALUES.items())
        check(not [s for s in samples if s.startswith('vqhip_window')],
              '%s: no window metrics without windows' % tag)
        for name in ('vqhip_frames_scored_total', 'vqhip_run_done'):
            check(samples.get(name, {}).get(base) == facts[name],
                  '%s: %s' % (tag, name))
    print('%s: %d samples checked' % (tag, sum(len(v) for v in samples.values())))


def fails_at_start(vqhip, work, tag, args, status, words):
    p = subprocess.run([vqhip, '-r', work + '/ref.y4m', '-d', work + '/dis.y4m',
                        '--backend', 'cpu', '-q'] + args,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    check(p.returncode == status and words in p.stderr,
          '%s: exit %d (expected %d), stderr %r' % (tag, p.returncode, status,
                                                     p.stderr))
    check('frame ' not in p.stdout and 'vmaf:' not in p.stdout,
          '%s: nothing scored' % tag)


def main():
    vqhip, work = sys.argv[1], sys.argv[2]
    if not shutil.which('promtool'):
        print('SKIP: no promtool (Debian: apt-get install prometheus)')
        return 77
    os.makedirs(work, exist_ok=True)
    cw.write_clip(work + '/ref.y4m', work + '/dis.y4m')
    n = cw.FRAMES
    win = ['--window_stats', '|'.join(STATS), '--thresholds',
           '|'.join(THRESHOLDS)]
    # windows of 10 frames: the last is 30-36, partial
    run_case(vqhip, work, 'frames10', ['--window', '10'] + win,
             [i // 10 for i in range(n)], 1, True)
    # windows of 0.5 s: the last is 25-36 (1.0 s to 1.44 s); subsample 3
    run_case(vqhip, work, 'sec0.5_sub3', ['--window', '0.5s'] + win,
             [math.floor((float(i) * 1 / cw.FPS) / 0.5) for i in range(n)],
             3, True)
    # windows of 37 frames: one, complete, not partial
    run_case(vqhip, work, 'frames37', ['--window', '37'] + win,
             [0] * n, 1, False)
    # windows of 2 frames with --subsample 5: the last (frame 36) has no
    # scored frame, its statistics are NaN
    run_case(vqhip, work, 'frames2_sub5', ['--window', '2'] + win,
             [i // 2 for i in range(n)], 5, True)
    run_case(vqhip, work, 'no_windows', [], [0] * n, 1, False)

    # alert rules whose state is known by construction: a PSNR mean is
    # always below 1000 (raised at the first window, never cleared) and
    # never below 0; the state at the end of the run
    prom = work + '/alerts.prom'
    p = subprocess.run([vqhip, '-r', work + '/ref.y4m', '-d', work + '/dis.y4m',
                        '--backend', 'cpu', '-q', '--feature', 'psnr',
                        '--window', '10', '--prom-file', prom,
                        '--prom-labels', 'job=a',
                        '--alert', 'always=psnr_y.mean<1000 for 1 clear>2000',
                        '--alert', 'never=psnr_y.mean<0 for 1'],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    check(p.returncode == 0, 'alerts: exit %d %s' % (p.returncode, p.stderr))
    if p.returncode == 0:
        promtool_ok('alerts', prom)
        samples, types = parse(open(prom).read())[:2]
        def alert(name, metric):
            return samples.get(metric, {}).get(
                frozenset({('job', 'a'), ('alert', name)}))
        check(types.get('vqhip_alert_active') == 'gauge' and
              types.get('vqhip_alert_raised_total') == 'counter',
              'alerts: metric types %r' % types)
        check(alert('always', 'vqhip_alert_active') == 1 and
              alert('always', 'vqhip_alert_raised_total') == 1,
              'alerts: the rule always true is raised once')
        check(alert('never', 'vqhip_alert_active') == 0 and
              alert('never', 'vqhip_alert_raised_total') == 0,
              'alerts: the rule never true is not raised')
    fails_at_start(vqhip, work, 'reserved label alert',
                   ['--prom-file', work + '/x.prom', '--prom-labels',
                    'alert=1'], 2, "prometheus label 'alert=1'")

    if os.environ.get('VQHIP_PLATFORM_NONE'):
        # the fake GPU of a build without one (hipcore/gpu/fake_gpu.c):
        # backend hip; with a fault injected at frame 5, the CPU takes over
        os.environ['VQHIP_FAKE_GPU'] = '1'
        run_case(vqhip, work, 'fake_gpu', ['--window', '10'] + win,
                 [i // 10 for i in range(n)], 1, True, 'hip', 0.0)
        os.environ['VQHIP_FAULT'] = 'launch@5'
        run_case(vqhip, work, 'fake_gpu_fault', ['--window', '10'] + win,
                 [i // 10 for i in range(n)], 1, True, 'hip+cpu', 1.0)
        del os.environ['VQHIP_FAKE_GPU'], os.environ['VQHIP_FAULT']
    fails_at_start(vqhip, work, 'missing folder',
                   ['--prom-file', work + '/no/such/folder/x.prom'], 1,
                   'prometheus file')
    with open(work + '/a_file', 'w') as f:
        f.write('x')
    fails_at_start(vqhip, work, 'folder is a file',
                   ['--prom-file', work + '/a_file/x.prom'], 1,
                   'prometheus file')
    fails_at_start(vqhip, work, 'reserved label',
                   ['--prom-file', work + '/x.prom', '--prom-labels',
                    'stat=1'], 2, "prometheus label 'stat=1'")
    fails_at_start(vqhip, work, 'label without a value',
                   ['--prom-file', work + '/x.prom', '--prom-labels',
                    'job'], 2, "prometheus label 'job'")
    return checks.finish()


if __name__ == '__main__':
    sys.exit(main())
