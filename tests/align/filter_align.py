#!/usr/bin/python3
"""The vqhip filter's offset=, sync= and its messages about inputs that
cannot be compared as given.

usage: filter_align.py FFMPEG WORK_DIR [VQHIP]

On check_align.py's clips (a texture that moves every frame; the
distorted video the reference with noise, with k extra frames at its start
(k = 3) or without the reference's first -k (k = -5)), as Y4M:
  - sync=only says offset=k found=1 and ends without scoring (exit 0);
  - sync=auto and offset=k write the same JSON log (log_precision=17) as
    a run on the pair trimmed with FFmpeg's own trim and setpts filters,
    byte for byte but the "fps" line; the first scored frame carries
    lavfi.vqhip.sync.offset=k; offset=k+1 writes another log;
  - a static clip: no offset picked (said), the log of a plain run;
  - sizes that differ: refused with the scale graph that upscales the
    distorted video, and that graph runs; frame rates, sample aspect
    ratios, colour ranges and matrices, start times that differ: warned,
    naming the filter that converts; offset= with enable= refused.
Exit 77 (skip) when FFMPEG has no vqhip filter.
"""
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'common'))
from ffmpeg_filters import missing_filters  # noqa: E402
import checks  # noqa: E402
from checks import check  # noqa: E402
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_align as ca  # noqa: E402
import numpy as np  # noqa: E402

checks.show_passes()
N = ca.N


def ffmpeg(ff, inputs, graph, rc=0):
    args = [ff, '-nostdin', '-hide_banner', '-v', 'info']
    for i in inputs:
        args += ['-i', i]
    p = subprocess.run(args + ['-lavfi', graph, '-f', 'null', '-'],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True)
    if (p.returncode != 0) != (rc != 0):
        sys.stderr.write(p.stderr[-3000:])
        raise SystemExit('FAIL: ffmpeg -lavfi %s exited %d' % (graph,
                                                               p.returncode))
    return p


VQ = "vqhip=backend=cpu:log_fmt=json:log_precision=17:log_path=%s"


def score(ff, work, tag, inputs, pre, opts=''):
    """The log of [pre][d][r]vqhip=...; pre names its outputs [d] and [r]."""
    log = os.path.join(work, tag + '.json')
    meta = os.path.join(work, tag + '.meta')
    graph = '%s[d][r]%s%s,metadata=print:file=%s' % (pre, VQ % log, opts,
                                                     meta)
    p = ffmpeg(ff, inputs, graph)
    with open(log) as f:
        lines = [l for l in f if not l.startswith('  "fps":')]
    return lines, open(meta).read(), p.stderr


def first_scored_meta(meta):
    """The output frame number and metadata of the first frame with
    scores."""
    frame = None
    for line in meta.splitlines():
        m = re.match(r'frame:(\d+)\s', line)
        if m:
            frame = int(m.group(1))
        elif line.startswith('lavfi.vqhip.vmaf='):
            block = meta.split('frame:%d ' % frame, 1)[1].split('frame:', 1)[0]
            return frame, dict(l.split('=', 1) for l in block.splitlines()
                               if '=' in l)
    return None, {}


def write(work, name, ys):
    raw = os.path.join(work, name + '.yuv')
    ca.write_raw(raw, ys)
    ca.to_y4m(raw, os.path.join(work, name + '.y4m'))
    return os.path.join(work, name + '.y4m')


def check_offset(ff, work, k):
    ref = write(work, 'ref', [ca.frame(t) for t in range(N)])
    dis = write(work, 'dis%+d' % k,
                ca.noisy([ca.frame(t) for t in range(-k, N)], 11))
    ins = [dis, ref]
    p = ffmpeg(ff, ins, '[0:v][1:v]vqhip=backend=cpu:sync=only')
    m = re.search(r'sync: offset=(-?\d+) confidence=([0-9.]+) found=(\d)',
                  p.stderr)
    check(m and m.group(1) == str(k) and m.group(3) == '1',
          'k=%+d: sync=only says offset=%d found=1 (%s)'
          % (k, k, m.group(0) if m else None))
    check('score:' not in p.stderr, 'k=%+d: sync=only scores nothing' % k)
    plain = '[0:v]null[d];[1:v]null[r];'
    if k > 0:
        trim = ('[0:v]trim=start_frame=%d,setpts=PTS-STARTPTS[d];'
                '[1:v]null[r];' % k)
    else:
        trim = ('[0:v]null[d];[1:v]trim=start_frame=%d,setpts=PTS-STARTPTS'
                '[r];' % -k)
    want, _, _ = score(ff, work, 'want', ins, trim)
    auto, meta, err = score(ff, work, 'auto', ins, plain, ':sync=auto')
    manual, _, _ = score(ff, work, 'manual', ins, plain, ':offset=%d' % k)
    one_off, _, _ = score(ff, work, 'oneoff', ins, plain,
                          ':offset=%d' % (k + 1))
    pairs = N - max(0, -k)
    check(sum('"frameNum"' in l for l in want) == pairs,
          'k=%+d: the trimmed run scores %d pairs' % (k, pairs))
    check(ca.without_sync(auto) == want and auto != want,
          'k=%+d: sync=auto log = trimmed pair\'s log but its sync record'
          % k)

    def filt(fmt, log, stream):
        opts = ':sync=auto' + (':stats_url=' + stream if stream else '')
        return ffmpeg(ff, ins, '[0:v][1:v]vqhip=backend=cpu:log_fmt=%s:'
                      'log_path=%s%s' % (fmt, log, opts)).stderr
    ca.check_sync_record(filt, work, 'filter%+d' % k)
    check(manual == want, 'k=%+d: offset=%d log = trimmed pair\'s log'
          % (k, k))
    check(one_off != want, 'k=%+d: offset=%d (one off) is another log'
          % (k, k + 1))
    frame, md = first_scored_meta(meta)
    check(frame == max(0, k) and md.get('lavfi.vqhip.sync.offset') == str(k)
          and md.get('lavfi.vqhip.sync.found') == '1'
          and 'lavfi.vqhip.sync.confidence' in md,
          'k=%+d: output frame %d, the first scored, has sync.offset=%d '
          '(frame %s: %s)' % (k, max(0, k), k, frame,
                              {a: b for a, b in md.items() if 'sync' in a}))
    check('sync: offset %+d' % k in err, 'k=%+d: sync=auto says the offset'
          % k)


def check_static(ff, work):
    ref = write(work, 'sref', [ca.frame(0)] * N)
    dis = write(work, 'sdis', ca.noisy([ca.frame(0)] * (N + 3), 5))
    plain = '[0:v]null[d];[1:v]null[r];'
    want, _, _ = score(ff, work, 'splain', [dis, ref], plain)
    auto, meta, err = score(ff, work, 'sauto', [dis, ref], plain,
                            ':sync=auto')
    check('no offset picked' in err and 'static content' in err,
          'static: sync=auto says it picks no offset')
    check(ca.without_sync(auto) == want,
          'static: sync=auto scores the pairs as given')

    def filt(fmt, log, stream):
        opts = ':sync=auto' + (':stats_url=' + stream if stream else '')
        return ffmpeg(ff, [dis, ref], '[0:v][1:v]vqhip=backend=cpu:'
                      'log_fmt=%s:log_path=%s%s' % (fmt, log, opts)).stderr
    ca.check_sync_record(filt, work, 'filter_static')
    frame, md = first_scored_meta(meta)
    check(md.get('lavfi.vqhip.sync.found') == '0' and
          md.get('lavfi.vqhip.sync.offset') == '0',
          'static: the first frame has sync.found=0 sync.offset=0')


def realign_lines(stderr, prefix):
    """The realign event lines, from "realign: frame" on."""
    return [l[l.index('realign: frame'):] for l in stderr.splitlines()
            if prefix in l and 'realign: frame' in l]


def check_realign_case(ff, work, name, ref_y, dis_y, want_pair, event, cli):
    """event: None (a clean pair), or the record the run must write:
    (frame k, input, kind, delta) at 25 fps, found at the pair (k, k)."""
    ref, dis, wref, wdis = (write(work, '%s_%s' % (name, s), ys) for s, ys in
                            (('ref', ref_y), ('dis', dis_y),
                             ('wref', want_pair[0]), ('wdis', want_pair[1])))
    plain = '[0:v]null[d];[1:v]null[r];'
    want, _, _ = score(ff, work, name + '_want', [wdis, wref], plain)
    given, _, _ = score(ff, work, name + '_given', [dis, ref], plain)
    stream = os.path.join(work, name + '.ndjson')
    got, meta, err = score(ff, work, name + '_realign', [dis, ref], plain,
                           ':realign=1:stats_url=' + stream)
    log = os.path.join(work, name + '_realign.json')
    with open(log) as f:
        rec = json.load(f)['vqhip'].get('realign')
    said = realign_lines(err, 'Parsed_vqhip')
    if event is None:
        check(got == want and not said and rec is None,
              '%s: realign=1 log = the correctly paired run\'s, byte for '
              'byte; no event' % name)
        n = len(dis_y) - len(ref_y)
        check(n <= 0 or re.search(r'\b%d main frames were not scored' % n,
                                  err),
              '%s: the %d main frames past the reference\'s end are not '
              'scored (said)' % (name, n))
        return
    k, inp, kind, delta = event
    check(given != want, '%s: without realign= the log differs from the '
          'correctly paired run\'s' % name)
    import check_realign as cr
    check(cr.without_record(''.join(got)) == want,
          '%s: realign=1 log = the correctly paired run\'s log (%d frames) '
          'but its "realign" record'
          % (name, sum('"frameNum"' in l for l in want)))
    check(rec == [{'frame': k, 'time': k / 25, 'input': inp, 'kind': kind,
                   'delta': delta, 'offset': delta, 'ref_frame': k,
                   'dis_frame': k}],
          '%s: the log records the event (%s)' % (name, rec))
    errs = ca.schema_errors(json.load(open(log)), 'log.schema.json')
    check(not errs, '%s: log.schema.json accepts the log %s' % (name, errs))
    # the rule's terms at pairs k .. k + 2 (the default window), recomputed
    r0, d0 = (1, 0) if delta < 0 else (0, 1)
    e0 = np.mean([cr.mse(ref_y[k + t], dis_y[k + t]) for t in range(3)])
    en = np.mean([cr.mse(ref_y[k + t + r0], dis_y[k + t + d0])
                  for t in range(3)])
    check(len(said) == 1 and said[0].startswith('realign: frame %d (%.3f s): '
                                                % (k, k / 25)) and
          said[0].endswith('difference %.3f, %.3f re-aligned' % (e0, en)),
          '%s: the event said at frame %d with numpy\'s differences %.3f, '
          '%.3f (%s)' % (name, k, e0, en, said))
    with open(stream) as f:
        lines = [json.loads(l) for l in f]
    ev = [l for l in lines if l.get('type') == 'realign']
    check(len(ev) == 1 and all(ev[0].get(a) == b for a, b in rec[0].items()),
          '%s: the NDJSON stream has the event (%s)' % (name, ev))
    # metadata: on the first frame scored re-aligned (output frame k, or
    # k + 1 after the main frame k left out, which carries no score)
    out = k if delta < 0 else k + 1
    blocks = {int(b.split(None, 1)[0]): b for b in
              re.split(r'^frame:', meta, flags=re.M) if b.strip()}
    md = dict(l.split('=', 1) for l in blocks.get(out, '').splitlines()
              if '=' in l)
    check(md.get('lavfi.vqhip.realign.delta') == str(delta) and
          md.get('lavfi.vqhip.realign.offset') == str(delta) and
          md.get('lavfi.vqhip.realign.input') == inp and
          md.get('lavfi.vqhip.realign.kind') == kind and
          'lavfi.vqhip.vmaf' in md,
          '%s: output frame %d (scored) carries the realign keys (%s)'
          % (name, out, {a: b for a, b in md.items() if 'realign' in a}))
    marked = [n for n, b in blocks.items() if 'realign' in b]
    check(marked == [out], '%s: no other frame has them (%s)' % (name, marked))
    if delta > 0:
        check('lavfi.vqhip' not in blocks.get(k, ''),
              '%s: the main frame left out (%d) passes on unscored'
              % (name, k))
    if cli:
        # the CLI's --realign on the same files: the same event, said alike
        clog = os.path.join(work, name + '_cli.json')
        p = subprocess.run([cli, '-r', ref, '-d', dis, '--json', '-q', '-o',
                            clog, '--realign'], capture_output=True,
                           text=True)
        with open(clog) as f:
            crec = json.load(f)['vqhip'].get('realign')
        check(p.returncode == 0 and crec == rec and
              realign_lines(p.stderr, 'vqhip: ') == said,
              '%s: the CLI\'s --realign on these files: the same record and '
              'message' % name)


def check_realign_after_offset(ff, work, cli):
    """3 extra frames at the distorted video's start, then a frame dropped
    by it: sync=auto (or offset=3) first, the event after, counted from
    the offset (the pairs after the 3 frames: event at pair 17)."""
    import check_realign as cr
    ref_y = [cr.frame(t) for t in range(cr.N)]
    dis_all = ca.noisy([cr.frame(t) for t in range(-3, cr.N)], 11)
    k = 17
    dis_y = dis_all[:3 + k] + dis_all[3 + k + 1:]
    ref, dis, wref, wdis = (write(work, 'od_' + n, ys) for n, ys in
                            (('ref', ref_y), ('dis', dis_y),
                             ('wref', ref_y[:k] + ref_y[k + 1:]),
                             ('wdis', dis_y[3:])))
    plain = '[0:v]null[d];[1:v]null[r];'
    want, _, _ = score(ff, work, 'od_want', [wdis, wref], plain)
    for tag, opts, args in (('sync', ':sync=auto:realign=1',
                             ['--sync', 'auto', '--realign']),
                            ('offset', ':offset=3:realign=1:frames=40',
                             ['--offset', '3', '--realign', '--frame_cnt',
                              '40'])):
        got, _, err = score(ff, work, 'od_' + tag, [dis, ref], plain, opts)
        log = os.path.join(work, 'od_%s.json' % tag)
        with open(log) as f:
            doc = json.load(f)
        rec = doc['vqhip'].get('realign')
        n = 40 if tag == 'offset' else None
        # frames=40: the correctly paired run's first 40 frames
        w = want if n is None else score(ff, work, 'od_want40',
                                         [wdis, wref], plain,
                                         ':frames=40')[0]
        check(ca.without_sync(cr.without_record(''.join(got))) == w and
              rec == [{'frame': k, 'time': k / 25, 'input': 'distorted',
                       'kind': 'drop', 'delta': -1, 'offset': -1,
                       'ref_frame': k, 'dis_frame': k}],
              'after %s: the correctly paired run\'s log, the event at pair '
              '%d (%s)' % (opts[1:], k, rec))
        if cli:
            clog = os.path.join(work, 'od_%s_cli.json' % tag)
            p = subprocess.run([cli, '-r', ref, '-d', dis, '--json', '-q',
                                '--precision', 'max', '-o', clog] + args,
                               capture_output=True,
                               text=True)
            with open(clog) as f:
                cdoc = json.load(f)
            check(p.returncode == 0 and cdoc['vqhip'].get('realign') == rec
                  and cdoc['vqhip'].get('sync') == doc['vqhip'].get('sync')
                  and [f['metrics'] for f in cdoc['frames']] ==
                  [f['metrics'] for f in doc['frames']] and
                  realign_lines(p.stderr, 'vqhip: ') ==
                  realign_lines(err, 'Parsed_vqhip'),
                  'after %s: the CLI\'s %s: the same records, scores and '
                  'message' % (opts[1:], ' '.join(args)))


def check_realign(ff, work, cli):
    import check_realign as cr
    ref_y = [cr.frame(t) for t in range(cr.N)]
    dis_all = ca.noisy(ref_y, 11)
    check_realign_case(ff, work, 'clean', ref_y, dis_all, (ref_y, dis_all),
                       None, cli)
    # a distorted video 5 frames longer: its last frames have no reference
    # frame (none is repeated for them) and pass on unscored
    longer = dis_all + ca.noisy([cr.frame(t) for t in range(cr.N, cr.N + 5)],
                                12)
    check_realign_case(ff, work, 'longer', ref_y, longer, (ref_y, dis_all),
                       None, cli)
    k = cr.K_DROP
    dis_y = dis_all[:k] + dis_all[k + 1:]
    check_realign_case(ff, work, 'drop', ref_y, dis_y,
                       (ref_y[:k] + ref_y[k + 1:], dis_y),
                       (k, 'distorted', 'drop', -1), cli)
    k = cr.K_REP
    dis_y = dis_all[:k] + [dis_all[k - 1]] + dis_all[k:]
    check_realign_case(ff, work, 'repeat', ref_y, dis_y, (ref_y, dis_all),
                       (k, 'distorted', 'repeat', 1), cli)
    dis_y = dis_all[:50] + dis_all[51:]
    check_realign_case(ff, work, 'static_drop', ref_y, dis_y,
                       (ref_y[:50] + ref_y[51:], dis_y),
                       (cr.STATIC[1] - 1, 'reference', 'repeat', -1), cli)
    check_realign_after_offset(ff, work, cli)
    ref = os.path.join(work, 'clean_ref.y4m')
    p = ffmpeg(ff, [ref, ref, ref], '[0:v][1:v][2:v]vqhip=backend=cpu:'
               'inputs=2:realign=1', rc=1)
    check('realign= does not work with inputs=2' in p.stderr,
          'realign=1 with inputs=2 is refused')
    p = ffmpeg(ff, [ref, ref], "[0:v][1:v]vqhip=backend=cpu:realign=1:"
               "enable='gte(n,2)'", rc=1)
    check('do not work with enable=' in p.stderr,
          'realign=1 with enable= is refused')


def check_messages(ff, work):
    ref = os.path.join(work, 'ref.y4m')
    dis = os.path.join(work, 'dis+3.y4m')
    cpu = 'vqhip=backend=cpu:feature=name=psnr'
    graph_small = '[0:v]scale=88:72[s];[s][1:v]%s' % cpu
    p = ffmpeg(ff, [dis, ref], graph_small, rc=1)
    hint = '[0:v]scale=176:144:flags=bicubic[d];[d][1:v]vqhip'
    check(hint in p.stderr, 'sizes: refused with the scale graph %s' % hint)
    # the graph the message gives runs
    small = os.path.join(work, 'small.y4m')
    subprocess.run([ff, '-nostdin', '-v', 'error', '-y', '-i', dis, '-vf',
                    'scale=88:72', small], check=True)
    ffmpeg(ff, [small, ref], hint + '=backend=cpu:feature=name=psnr')
    check(True, 'sizes: the suggested graph scores')
    # another frame rate and sample aspect ratio by the Y4M header (this
    # FFmpeg build has neither fps nor setsar)
    data = open(dis, 'rb').read()
    for name, old, new in (('f30', b' F25:1 ', b' F30:1 '),
                           ('sar2', b' A1:1 ', b' A2:1 ')):
        with open(os.path.join(work, name + '.y4m'), 'wb') as f:
            f.write(data.replace(old, new, 1))
    for what, name, fix in (('frame rates', 'f30', 'fps=25/1'),
                            ('sample aspect ratios', 'sar2', 'setsar=1/1')):
        p = ffmpeg(ff, [os.path.join(work, name + '.y4m'), ref],
                   '[0:v][1:v]' + cpu)
        check(fix in p.stderr, '%s that differ: warned, naming %s'
              % (what, fix))
    cases = [
        ('colour ranges', '[0:v]setparams=range=pc[d];'
         '[1:v]setparams=range=tv[r];[d][r]' + cpu, 'scale=out_range=limited'),
        ('colour matrices', '[0:v]setparams=colorspace=bt709[d];'
         '[1:v]setparams=colorspace=bt470bg[r];[d][r]' + cpu,
         'setparams=colorspace=bt470bg'),
        ('start times', '[0:v]setpts=PTS+2/TB[d];[d][1:v]' + cpu,
         'setpts=PTS-STARTPTS'),
    ]
    for what, graph, fix in cases:
        p = ffmpeg(ff, [dis, ref], graph)
        check(fix in p.stderr, '%s that differ: warned, naming %s'
              % (what, fix))
    p = ffmpeg(ff, [dis, ref], "[0:v][1:v]%s:offset=3:enable='gte(n,2)'"
               % cpu, rc=1)
    check('do not work with enable=' in p.stderr,
          'offset= with enable= is refused')
    p = ffmpeg(ff, [dis, ref], '[0:v][1:v]' + cpu)
    check(not re.search(r'with fps=|setsar=|out_range|setparams=|STARTPTS',
                        p.stderr),
          'inputs alike: none of these warnings')


def main():
    ff, work = sys.argv[1], sys.argv[2]
    if missing_filters(ff, ['vqhip']):
        print('skip: %s has no vqhip filter' % ff)
        return 77
    os.makedirs(work, exist_ok=True)
    check_offset(ff, work, 3)
    check_offset(ff, work, -5)
    check_static(ff, work)
    check_messages(ff, work)
    cli = sys.argv[3] if len(sys.argv) > 3 else None
    if cli and not os.access(cli, os.X_OK):
        check(False, 'the CLI given, %s, runs' % cli)
        cli = None
    if not cli:
        print('note: no CLI given: realign=1 is not compared with --realign')
    check_realign(ff, work, cli)
    return checks.finish()


sys.exit(main())
