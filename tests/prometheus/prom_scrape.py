#!/usr/bin/python3
"""A real Prometheus scrapes the CLI's --prom-file through node_exporter's
textfile collector, on loopback, and its query API returns the last
window's statistics recomputed from the run's per-frame log.

usage: prom_scrape.py VQHIP WORK_DIR

Starts prometheus-node-exporter on 127.0.0.1:<free port> with only the
textfile collector reading WORK_DIR/textfile, and prometheus on
127.0.0.1:<free port> scraping it every second (a generated config,
storage in WORK_DIR); runs tools/vqhip with windows of 10 frames,
--subsample 2 and --prom-file into that folder, with a label unique to
this run; then asks /api/v1/query until vqhip_run_done{run=...} is 1
(at most 60 s) and checks every vqhip_window_stat sample equals the
statistic of the last window recomputed from the JSON log with numpy and
plain Python (bit for bit: Prometheus prints a float's shortest exact
form), and the frame counters, the backend and the labels. Both daemons
are stopped by their PID on every way out (finally, SIGTERM, SIGINT).
Exit 77 (skip) only when prometheus or prometheus-node-exporter is missing.
"""
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'common'))
import checks  # noqa: E402
from checks import check  # noqa: E402
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_prom_file as cpf  # noqa: E402

cw = cpf.cw
STATS = ['mean', 'min', 'max', 'harmonic_mean', 'median', 'perc5', 'below30']
DEADLINE = 60
daemons = []


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


def start(args, log_path):
    log = open(log_path, 'w')
    p = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT,
                         stdin=subprocess.DEVNULL)
    daemons.append(p)
    return p


def stop_all():
    for p in daemons:
        if p.poll() is None:
            os.kill(p.pid, signal.SIGTERM)
    for p in daemons:
        try:
            p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.kill(p.pid, signal.SIGKILL)
            p.wait()


def on_signal(sig, frame):
    raise SystemExit('interrupted by signal %d' % sig)


def get(url):
    with urllib.request.urlopen(url, timeout=5) as r:
        return r.read().decode()


def wait_ready(url, p, what, log_path):
    end = time.monotonic() + DEADLINE
    while time.monotonic() < end:
        if p.poll() is not None:
            sys.stderr.write(open(log_path).read()[-3000:])
            raise SystemExit('FAIL: %s exited %d' % (what, p.returncode))
        try:
            get(url)
            return
        except OSError:
            time.sleep(0.2)
    raise SystemExit('FAIL: %s not ready in %d s' % (what, DEADLINE))


def query(prom_port, q):
    url = 'http://127.0.0.1:%d/api/v1/query?query=%s' % (
        prom_port, urllib.parse.quote(q))
    d = json.loads(get(url))
    if d.get('status') != 'success':
        raise SystemExit('FAIL: query %s: %s' % (q, d))
    return d['data']['result']


def run(vqhip, work):
    textdir = os.path.join(work, 'textfile')
    os.makedirs(textdir)
    ne_port, prom_port = free_port(), free_port()
    ne_log, prom_log = work + '/node_exporter.log', work + '/prometheus.log'
    ne = start(['prometheus-node-exporter',
                '--web.listen-address=127.0.0.1:%d' % ne_port,
                '--collector.disable-defaults', '--collector.textfile',
                '--collector.textfile.directory=' + textdir], ne_log)
    with open(work + '/prometheus.yml', 'w') as f:
        f.write('global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\n'
                '  evaluation_interval: 1s\n'
                'scrape_configs:\n  - job_name: vqhip\n'
                '    honor_labels: true\n'
                '    static_configs:\n'
                "      - targets: ['127.0.0.1:%d']\n" % ne_port)
    prom = start(['prometheus', '--config.file=' + work + '/prometheus.yml',
                  '--storage.tsdb.path=' + work + '/tsdb',
                  '--web.listen-address=127.0.0.1:%d' % prom_port], prom_log)
    wait_ready('http://127.0.0.1:%d/metrics' % ne_port, ne, 'node_exporter',
               ne_log)
    wait_ready('http://127.0.0.1:%d/-/ready' % prom_port, prom,
               'prometheus', prom_log)

    cw.write_clip(work + '/ref.y4m', work + '/dis.y4m')
    run_id = 'r%d_%d' % (os.getpid(), int(time.time()))
    log = work + '/run.json'
    sub = 2
    cw.run(vqhip, ['-r', work + '/ref.y4m', '-d', work + '/dis.y4m',
                   '--feature', 'psnr', '--backend', 'cpu', '--window', '10',
                   '--window_stats', '|'.join(STATS), '--subsample', str(sub),
                   '--precision', 'max', '--json', '-o', log, '-q',
                   '--prom-file', textdir + '/vqhip.prom',
                   '--prom-labels', 'run=%s|stream=ch "1"' % run_id])
    sel = '{run="%s",stream="ch \\"1\\""}' % run_id
    end = time.monotonic() + DEADLINE
    done = []
    while time.monotonic() < end:
        done = query(prom_port, 'vqhip_run_done' + sel)
        if done and done[0]['value'][1] == '1':
            break
        time.sleep(0.5)
    check(done and done[0]['value'][1] == '1', 'vqhip_run_done%s is 1 within '
          '%d s (got %s)' % (sel, DEADLINE, done))
    if not done:
        return
    n = cw.FRAMES
    vals, facts, _ = cpf.expected(log, [i // 10 for i in range(n)], sub, STATS)
    got = query(prom_port, 'vqhip_window_stat' + sel)
    check(len(got) == len(vals), '%d vqhip_window_stat series, expected %d'
          % (len(got), len(vals)))
    for r in got:
        m = r['metric']
        check(m.get('job') == 'vqhip' and m.get('stream') == 'ch "1"',
              'labels as written and scraped: %s' % m)
        key = (m.get('output'), m.get('stat'))
        e = vals.get(key)
        v = float(r['value'][1])
        check(e is not None and cw.same(v, e), 'vqhip_window_stat%s: %r '
              '(%s), recomputed %r' % (key, v, r['value'][1], e))
    for name, e in facts.items():
        res = query(prom_port, name + sel)
        v = float(res[0]['value'][1]) if res else None
        check(v == e, '%s: %r, expected %r' % (name, v, e))
    res = query(prom_port, 'vqhip_backend_info' + sel)
    check([r['metric'].get('backend') for r in res] == ['cpu'],
          'vqhip_backend_info: %s' % res)
    print('prometheus on 127.0.0.1:%d scraped node_exporter on '
          '127.0.0.1:%d: %d window statistics equal to the recomputation'
          % (prom_port, ne_port, len(got)))


def main():
    vqhip, work = sys.argv[1], sys.argv[2]
    for b in ('prometheus', 'prometheus-node-exporter'):
        if not shutil.which(b):
            print('SKIP: no %s (Debian: apt-get install prometheus '
                  'prometheus-node-exporter)' % b)
            return 77
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    os.makedirs(work, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix='prom_scrape.', dir=work)
    try:
        run(vqhip, tmp)
    finally:
        stop_all()
    if not checks.failures:  # kept for the daemons' logs otherwise
        shutil.rmtree(tmp, ignore_errors=True)
    return checks.finish()


if __name__ == '__main__':
    sys.exit(main())
