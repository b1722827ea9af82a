#!/usr/bin/python3
"""The vqhip filter's Prometheus textfile (prom_file=, prom_labels=).

usage: filter_prom.py FFMPEG WORK_DIR [VQHIP]

Runs FFmpeg's vqhip filter on check_windows.py's clip with windows (of 10
frames; of 0.5 s with n_subsample=3), prom_file= and a JSON log with
log_precision=17, and checks, as check_prom_file.py does for the CLI:
promtool accepts the file; every statistic of the last window equals,
bit for bit, the recomputation from the log's per-frame values (numpy and
plain Python); the window's facts, the frame counters, backend "cpu", the
labels. With VQHIP (tools/vqhip), the CLI run with the same options on
the same clip writes the same file, byte for byte. An unwritable folder
makes FFmpeg fail before the first frame, saying so.
Exit 77 (skip) when FFMPEG has no vqhip filter or promtool is missing.
"""
import math
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'common'))
import checks  # noqa: E402
from checks import check  # noqa: E402
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_prom_file as cpf  # noqa: E402

cw = cpf.cw
STATS = ['mean', 'min', 'max', 'harmonic_mean', 'median', 'perc5']
LABELS = {'job': 'enc', 'instance': 'ch5'}


def ffmpeg(ff, work, opts):
    graph = "[0:v][1:v]vqhip=backend=cpu:feature=name=psnr:%s" % opts
    return subprocess.run([ff, '-nostdin', '-hide_banner', '-v', 'info',
                           '-i', work + '/dis.y4m', '-i', work + '/ref.y4m',
                           '-lavfi', graph, '-f', 'null', '-'],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True)


def run_case(ff, vqhip, work, tag, window, slots, sub):
    d = os.path.join(work, tag)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    prom, log = d + '/vqhip.prom', d + '/run.json'
    labels = '|'.join('%s=%s' % kv for kv in LABELS.items())
    p = ffmpeg(ff, work, "window=%s:stats='%s':thresholds=80:"
               "n_subsample=%d:log_fmt=json:log_precision=17:log_path=%s:"
               "prom_file=%s:prom_labels='%s'"
               % (window, '|'.join(STATS), sub, log, prom, labels))
    if p.returncode:
        sys.stderr.write(p.stderr[-3000:])
        raise SystemExit('FAIL: ffmpeg exited %d' % p.returncode)
    cpf.promtool_ok(tag, prom)
    check(sorted(os.listdir(d)) == ['run.json', 'vqhip.prom'],
          '%s: files left: %s' % (tag, os.listdir(d)))
    with open(prom) as f:
        text = f.read()
    samples, _, _ = cpf.parse(text)
    vals, facts, _ = cpf.expected(log, slots, sub, STATS + ['below80'])
    cpf.check_samples(tag, samples, vals, facts, True, LABELS)
    if vqhip:
        cli_prom = d + '/cli.prom'
        cw.run(vqhip, ['-r', work + '/ref.y4m', '-d', work + '/dis.y4m',
                       '--feature', 'psnr', '--backend', 'cpu', '--window',
                       window, '--window_stats', '|'.join(STATS),
                       '--thresholds', '80', '--subsample', str(sub), '-q',
                       '--prom-file', cli_prom, '--prom-labels', labels])
        with open(cli_prom) as f:
            check(f.read() == text, '%s: the CLI writes the same file' % tag)
    print('%s: %d samples checked' % (tag, sum(len(v) for v in samples.values())))


def main():
    ff, work = sys.argv[1], sys.argv[2]
    vqhip = sys.argv[3] if len(sys.argv) > 3 else None
    if not shutil.which('promtool'):
        print('SKIP: no promtool (Debian: apt-get install prometheus)')
        return 77
    try:
        p = subprocess.run([ff, '-hide_banner', '-h', 'filter=vqhip'],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True)
    except OSError:
        print('SKIP: no FFmpeg at %s' % ff)
        return 77
    if p.returncode or 'prom_file' not in p.stdout:
        print('SKIP: %s has no vqhip filter with prom_file' % ff)
        return 77
    os.makedirs(work, exist_ok=True)
    cw.write_clip(work + '/ref.y4m', work + '/dis.y4m')
    n = cw.FRAMES
    run_case(ff, vqhip, work, 'frames10', '10', [i // 10 for i in range(n)], 1)
    run_case(ff, vqhip, work, 'sec0.5_sub3', '0.5s',
             [math.floor((float(i) * 1 / cw.FPS) / 0.5) for i in range(n)], 3)
    p = ffmpeg(ff, work, 'window=10:prom_file=%s/no/such/dir/x.prom' % work)
    check(p.returncode != 0 and 'prometheus file' in p.stderr,
          'unwritable folder: exit %d, %s' % (p.returncode, p.stderr[-500:]))
    return checks.finish()


if __name__ == '__main__':
    sys.exit(main())
