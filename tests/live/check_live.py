#!/usr/bin/python3
"""Alerts and the NDJSON stats stream of the CLI (--alert, --stats-url,
--stats-frames), against a recomputation from the run's own per-frame log.

usage: check_live.py VQHIP WORK_DIR

On a clip whose frames 40-59 are drowned in noise (live_common.py):
  - the stream written to a file, to a TCP listener and to a UDP listener
    on 127.0.0.1 (both in this script): every window line equals the
    statistics recomputed with numpy / plain Python from the JSON log
    (--precision max), bit for bit; the alert events are those a
    simulation of the rules on the same values gives (frame, window, pts,
    value), they fire only in the bad stretch; frame lines equal the log;
    the summary is last and agrees;
  - stderr's warning lines name the same events;
  - bad rule syntax: exit 2 and a message naming the bad token; a window
    rule without --window: exit 2; an output that does not exist: exit 4;
  - an unreachable TCP URL, an unwritable file: exit 1 at start-up; a
    malformed URL: exit 2;
  - a TCP peer that goes away mid-run: one warning, exit 0, the log has
    every frame.
"""
import json
import os
import re
import socket
import subprocess
import sys
import threading

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'common'))
import checks  # noqa: E402
from checks import check  # noqa: E402
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import live_common as lc  # noqa: E402


def base_args(work, log):
    args = ['-r', work + '/ref.y4m', '-d', work + '/dis.y4m', '--feature',
            'psnr', '--model', 'version=vmaf_v0.6.1', '--backend', 'cpu',
            '--window', str(lc.WINDOW), '--window_stats', '|'.join(lc.STATS),
            '--precision', 'max', '--json', '-o', log, '-q']
    # two rules in one option (';'), the others one per option
    args += ['--alert', lc.RULES[0][0] + ' ; ' + lc.RULES[1][0]]
    for r in lc.RULES[2:]:
        args += ['--alert', r[0]]
    return args


def run(vqhip, args, timeout=300):
    return subprocess.run([vqhip] + args, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True, timeout=timeout)


class Listener:
    """A TCP or UDP server on 127.0.0.1 that keeps what it receives
    (TCP: closes the first connection at once when `drop`)."""

    def __init__(self, tcp, drop=False):
        self.tcp, self.drop, self.data, self.packets = tcp, drop, b'', []
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM if tcp
                                  else socket.SOCK_DGRAM)
        self.sock.bind(('127.0.0.1', 0))
        self.port = self.sock.getsockname()[1]
        if tcp:
            self.sock.listen(4)
        self.sock.settimeout(120)
        self.t = threading.Thread(target=self.serve, daemon=True)
        self.t.start()

    def serve(self):
        try:
            if not self.tcp:
                while True:
                    p = self.sock.recv(65536)
                    self.packets.append(p)
                    self.data += p
                    if b'"type":"summary"' in p:
                        return
            conn, _ = self.sock.accept()
            if self.drop:
                conn.close()
                return
            while True:
                b = conn.recv(65536)
                if not b:
                    break
                self.data += b
            conn.close()
        except OSError:
            pass

    def text(self):
        self.t.join(60)
        self.sock.close()
        return self.data.decode()


def stderr_events(text):
    ev = []
    for m in re.finditer(r'vqhip: warning: alert (\S+) (raised|cleared) at '
                         r'frame (\d+)', text):
        ev.append((m.group(1), m.group(2), int(m.group(3))))
    return ev


def main():
    vqhip, work = sys.argv[1], sys.argv[2]
    os.makedirs(work, exist_ok=True)
    lc.write_clip(work + '/ref.y4m', work + '/dis.y4m')

    # the stream in a file, with frame lines
    log = work + '/file.json'
    p = run(vqhip, base_args(work, log) + ['--stats-url', work + '/s.ndjson',
                                           '--stats-frames'])
    if p.returncode:
        sys.stderr.write(p.stderr[-3000:])
        raise SystemExit('FAIL: vqhip exited %d' % p.returncode)
    with open(log) as f:
        values = [fr['metrics'] for fr in json.load(f)['frames']]
    check(len(values) == lc.FRAMES, '%d frames in the log' % len(values))
    wins = lc.windows_of(values)
    events, state = lc.expected_events(values, wins)
    lc.check_events_sane(events)
    with open(work + '/s.ndjson') as f:
        lines = lc.read_ndjson(f.read(), 'file')
    n = lc.check_stream(lines, values, wins, events, state, 'file', frames=True)
    check(stderr_events(p.stderr) == [(e['name'], e['state'], e['frame'])
                                      for e in events],
          'stderr events %s' % stderr_events(p.stderr))
    print('file: %d window statistics as recomputed, %d alert events as '
          'simulated: %s' % (n, len(events), [(e['name'], e['state'], e['frame'])
                                            for e in events]))

    # TCP and UDP listeners on loopback: the same lines
    for tcp in (True, False):
        what = 'tcp' if tcp else 'udp'
        srv = Listener(tcp)
        p = run(vqhip, base_args(work, work + '/%s.json' % what) +
                ['--stats-url', '%s://127.0.0.1:%d' % (what, srv.port)])
        check(p.returncode == 0, '%s: exit %d %s' % (what, p.returncode,
                                                     p.stderr[-500:]))
        lines = lc.read_ndjson(srv.text(), what)
        lc.check_stream(lines, values, wins, events, state, what)
        if not tcp:
            check(len(srv.packets) == len(lines), 'udp: %d datagrams for %d '
                  'lines' % (len(srv.packets), len(lines)))
        print('%s: %d lines received' % (what, len(lines)))

    # errors at start-up, with their exit codes
    bad = [
        ('vmaf.mean<70 fro 3', 2, "unexpected 'fro'"),
        ('vmaf.avg<70', 2, "'avg' is not a statistic"),
        ('vmaf.mean<abc', 2, "'abc' is not a number"),
        ('vmaf.mean<70 for 0', 2, "not '0'"),
        ('vmaf.mean<70 clear<60', 2, "expected '>' after 'clear' at '<60'"),
        ('vmaf.mean=70', 2, "expected '<' or '>' at '=70'"),
        ('vmaf.mean<70 clear>60', 2, 'the clear level 60 is below the level 70'),
        ('vmaf<3|vmaf<4', 2, "a rule named 'vmaf' exists"),
        ('vmaf<3;', 2, 'empty rule'),
        ('vmaf.perc20<3', 2, "the windows have no statistic 'perc20'"),
        ('nosuch<3', 4, "no output named 'nosuch'"),
    ]
    for rule, code, msg in bad:
        args = base_args(work, work + '/bad.json')
        args[args.index('--alert') + 1] = rule
        p = run(vqhip, args)
        check(p.returncode == code and msg in p.stderr, 'rule %r: exit %d, '
              '%r' % (rule, p.returncode, p.stderr[-300:]))
    p = run(vqhip, ['-r', work + '/ref.y4m', '-d', work + '/dis.y4m',
                    '--backend', 'cpu', '-q', '--alert', 'vmaf.mean<3'])
    check(p.returncode == 2 and 'needs windows' in p.stderr,
          'window rule without windows: %d %r' % (p.returncode, p.stderr[-300:]))
    closed = socket.socket()
    closed.bind(('127.0.0.1', 0))
    port = closed.getsockname()[1]
    closed.close()  # nothing listens there now
    urls = [('tcp://127.0.0.1:%d' % port, 1, 'cannot connect'),
            (work + '/no/such/dir/s.ndjson', 1, 'No such file or directory'),
            ('udp://127.0.0.1', 2, 'expected udp://HOST:PORT'),
            ('http://127.0.0.1:80/x', 2, 'not a file')]
    for url, code, msg in urls:
        if os.path.exists(work + '/bad.json'):
            os.remove(work + '/bad.json')
        p = run(vqhip, base_args(work, work + '/bad.json') + ['--stats-url', url])
        check(p.returncode == code and msg in p.stderr and
              not os.path.exists(work + '/bad.json'),
              'url %s: exit %d, %r' % (url, p.returncode, p.stderr[-300:]))

    p = run(vqhip, ['-r', work + '/ref.y4m', '-d', work + '/dis.y4m', '-q',
                    '--backend', 'cpu', '--json', '-o', '-', '--stats-url', '-'])
    check(p.returncode == 2 and 'cannot both go to standard output' in p.stderr
          and not p.stdout, 'log and stream on stdout: %d %r'
          % (p.returncode, p.stderr[-300:]))
    # the stream on standard output: the console's lines go to stderr
    p = run(vqhip, ['-r', work + '/ref.y4m', '-d', work + '/dis.y4m',
                    '--backend', 'cpu', '--window', '50', '--stats-url', 'pipe:1'])
    out = lc.read_ndjson(p.stdout, 'stdout')
    check(p.returncode == 0 and [l['type'] for l in out] ==
          ['window', 'window', 'summary'] and 'window 0: frames 0-49' in p.stderr,
          'stream on stdout: %d %s' % (p.returncode, [l['type'] for l in out]))

    # a peer that goes away: reported once, the run and its log go on
    srv = Listener(True, drop=True)
    log = work + '/drop.json'
    p = run(vqhip, base_args(work, log) + ['--stats-url', 'tcp://127.0.0.1:%d'
                                           % srv.port, '--stats-frames'])
    srv.text()
    with open(log) as f:
        n_log = len(json.load(f)['frames'])
    check(p.returncode == 0 and n_log == lc.FRAMES and
          p.stderr.count('stats stream: a line could not be written') == 1 and
          re.search(r'stats stream: \d+ lines were not written', p.stderr),
          'dropped peer: exit %d, %d frames, %r' % (p.returncode, n_log,
                                                    p.stderr[-600:]))
    return checks.finish()


if __name__ == '__main__':
    sys.exit(main())
