#!/usr/bin/python3
"""The vqhip filter's alerts (alerts=) and NDJSON stats stream (stats_url=,
stats_frames=), against a recomputation from the same run's log.

usage: filter_live.py FFMPEG WORK_DIR

On live_common.py's clip (frames 40-59 drowned in noise), through FFmpeg's
avio (a file, a TCP and a UDP listener on 127.0.0.1 in this script):
  - every window line equals the statistics recomputed with numpy / plain
    Python from the JSON log (log_precision=17), bit for bit;
  - the alert events equal a simulation of the rules on the same values,
    fire only in the bad stretch, and each sits as metadata
    lavfi.vqhip.alert.NAME=raised|cleared on the frame where it changed
    (no other frame has such a key), with a warning line in FFmpeg's log;
  - frame lines equal the log; the summary comes last;
  - a bad rule and an unreachable URL fail at start-up with their message.
Exit 77 (skip) when FFMPEG has no vqhip filter.
"""
import json
import os
import re
import socket
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'common'))
from ffmpeg_filters import missing_filters  # noqa: E402
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_live as cl  # noqa: E402
import live_common as lc  # noqa: E402
from filter_windows import read_metadata  # noqa: E402
import checks  # noqa: E402
from checks import check  # noqa: E402


def graph(work, tag, url, rules=None, frames=0):
    rules = rules or '|'.join(r[0] for r in lc.RULES)
    return ("[0:v][1:v]vqhip=backend=cpu:feature=name=psnr:"
            "model=version=vmaf_v0.6.1:window=%d:stats='%s':alerts='%s':"
            "stats_url='%s':stats_frames=%d:log_fmt=json:log_precision=17:"
            "log_path=%s/%s.json,metadata=print:file=%s/%s.meta"
            % (lc.WINDOW, '|'.join(lc.STATS), rules, url.replace(':', r'\:'),
               frames, work, tag, work, tag))


def ffmpeg(ff, work, g):
    return subprocess.run([ff, '-nostdin', '-hide_banner', '-v', 'info',
                           '-i', work + '/dis.y4m', '-i', work + '/ref.y4m',
                           '-lavfi', g, '-f', 'null', '-'],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, timeout=300)


def main():
    ff, work = sys.argv[1], sys.argv[2]
    if missing_filters(ff, ['vqhip']):
        print('skip: %s has no vqhip filter' % ff)
        return 77
    os.makedirs(work, exist_ok=True)
    lc.write_clip(work + '/ref.y4m', work + '/dis.y4m')

    p = ffmpeg(ff, work, graph(work, 'file', work + '/s.ndjson', frames=1))
    if p.returncode:
        sys.stderr.write(p.stderr[-3000:])
        raise SystemExit('FAIL: ffmpeg exited %d' % p.returncode)
    with open(work + '/file.json') as f:
        values = [fr['metrics'] for fr in json.load(f)['frames']]
    check(len(values) == lc.FRAMES, '%d frames in the log' % len(values))
    wins = lc.windows_of(values)
    events, state = lc.expected_events(values, wins)
    lc.check_events_sane(events)
    with open(work + '/s.ndjson') as f:
        lines = lc.read_ndjson(f.read(), 'file')
    n = lc.check_stream(lines, values, wins, events, state, 'file', frames=True)
    md = read_metadata(work + '/file.meta')
    got = sorted((i, k[len('lavfi.vqhip.alert.'):], v) for i, m in md.items()
                 for k, v in m.items() if k.startswith('lavfi.vqhip.alert.'))
    want = sorted((e['frame'], e['name'], e['state']) for e in events)
    check(got == want, 'alert metadata %s, expected %s' % (got, want))
    warn = re.findall(r'alert (\S+) (raised|cleared) at frame (\d+)', p.stderr)
    check([(a, b, int(c)) for a, b, c in warn] ==
          [(e['name'], e['state'], e['frame']) for e in events],
          'warning lines %s' % warn)
    check(all('[warning]' in l or 'vqhip' in l for l in p.stderr.splitlines()
              if ' at frame ' in l and 'alert ' in l), 'warnings at level warning')
    print('file: %d window statistics as recomputed, events %s' %
          (n, [(e['name'], e['state'], e['frame']) for e in events]))

    for tcp in (True, False):
        what = 'tcp' if tcp else 'udp'
        srv = cl.Listener(tcp)
        url = '%s://127.0.0.1:%d%s' % (what, srv.port,
                                       '' if tcp else '?pkt_size=65000')
        p = ffmpeg(ff, work, graph(work, what, url))
        check(p.returncode == 0, '%s: exit %d %s' % (what, p.returncode,
                                                     p.stderr[-500:]))
        lines = lc.read_ndjson(srv.text(), what)
        lc.check_stream(lines, values, wins, events, state, what)
        if not tcp:
            check(len(srv.packets) == len(lines), 'udp: %d datagrams for %d '
                  'lines' % (len(srv.packets), len(lines)))
        print('%s: %d lines received' % (what, len(lines)))

    for rule, msg in (('vmaf.mean<70 fro 3', "unexpected 'fro'"),
                      ('vmaf.perc20<3', "no statistic 'perc20'"),
                      ('nosuch<3', "no output named 'nosuch'")):
        p = ffmpeg(ff, work, graph(work, 'bad', work + '/bad.ndjson', rules=rule))
        check(p.returncode != 0 and msg in p.stderr,
              'rule %r: exit %d %r' % (rule, p.returncode, p.stderr[-400:]))
    closed = socket.socket()
    closed.bind(('127.0.0.1', 0))
    port = closed.getsockname()[1]
    closed.close()
    p = ffmpeg(ff, work, graph(work, 'bad', 'tcp://127.0.0.1:%d' % port))
    check(p.returncode != 0 and 'stats_url=tcp://127.0.0.1:%d: cannot open'
          % port in p.stderr, 'unreachable url: exit %d %r'
          % (p.returncode, p.stderr[-400:]))
    return checks.finish()


if __name__ == '__main__':
    sys.exit(main())
