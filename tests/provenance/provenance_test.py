#!/usr/bin/env python3
"""The logs' provenance and the readers that must keep working.

usage: provenance_test.py VQHIP API_VALUES SOURCE_ROOT WORK_DIR

On tests/logs' 6-frame clip (CPU backend):
  - the JSON and XML logs' vqhip block: version, source revision (against
    git describe where git is there), each model's origin and SHA-256
    (against hashlib on the model file), every extractor's options (against
    the options given), the frames scored and not scored (against
    --subsample and --frame_cnt), in agreement between JSON and XML;
  - readers as ffmpeg-quality-metrics reads libvmaf's JSON (frames[i]
    ["metrics"], the keys of frame 0 in every frame, pooled_metrics) and
    as easyVmaf reads its XML (frames/frame attributes all numbers but
    frameNum, pooled_metrics/metric), plus readers that take every
    element named frame, or every line holding vmaf=";
  - --precision 17 writes exactly the doubles the library API gives
    (API_VALUES, vq_receive and vq_pooled, printed as hex floats), per
    frame and pooled; the default keeps libvmaf's %.6f of the same values;
    --precision 3 writes %.3g;
  - every JSON log written here validates against docs/log.schema.json;
  - --verify-log re-runs a log's frames from its provenance alone: its own
    logs match (libvmaf's precision and 17 digits), a value moved by one
    ulp (17 digits) or one printed unit (%.6f) is found (exit 6), so is
    another input; a log without provenance is refused (exit 3).
"""
import hashlib
import json
import math
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'common'))
import checks  # noqa: E402
from checks import check  # noqa: E402
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mini_schema  # noqa: E402

checks.show_passes()
W, H = 320, 180


def run(vqhip, args, want=0, env=None):
    p = subprocess.run([vqhip] + args, capture_output=True, text=True, env=env)
    if p.returncode != want:
        print(p.stderr)
        raise SystemExit('vqhip %s: exit %d, not %d' % (' '.join(args), p.returncode, want))
    return p


def sha(path):
    with open(path, 'rb') as f:
        return hashlib.sha256(f.read()).hexdigest()


def libvmaf_num(v):
    """libvmaf's number format (output/log writers): %.6f, or %.16f when
    more than six zeros follow the decimal point."""
    frac, zeros = abs(v) - int(abs(v)), 0
    while frac < 1.0 and frac != 0:
        frac *= 10
        zeros += 1
    return ('%.6f' if zeros <= 6 else '%.16f') % v


def project_version(src):
    with open(os.path.join(src, 'meson.build')) as f:
        return re.search(r"version:\s*'([^']+)'", f.read()).group(1)


def git_describe(src):
    try:
        p = subprocess.run(['git', '-C', src, 'describe', '--tags', '--always',
                            '--abbrev=12'], capture_output=True, text=True)
    except OSError:
        return None
    return p.stdout.strip() if p.returncode == 0 else None


def test_provenance(vqhip, src, work, schema, clip):
    model_copy = os.path.join(work, 'neg model.json')
    shutil.copy(os.path.join(src, 'models', 'vmaf_v0.6.1neg.json'), model_copy)
    args = clip + ['--frame_cnt', '5', '--subsample', '3', '--backend', 'cpu',
                   '--model', 'version=vmaf_v0.6.1',
                   '--model', 'path=%s:name=vmaf_neg' % model_copy,
                   '--feature', 'psnr=enable_chroma=false:enable_mse=true', '-q']
    logs = {}
    # version= takes the built-in model here: VQHIP_MODEL_DIR (which test.sh's
    # sanitizer stage sets) would have it read from that folder instead
    env = {k: v for k, v in os.environ.items() if k != 'VQHIP_MODEL_DIR'}
    for fmt in ('json', 'xml'):
        out = os.path.join(work, 'prov.' + fmt)
        run(vqhip, args + ['--' + fmt, '-o', out], env=env)
        logs[fmt] = out
    with open(logs['json']) as f:
        j = json.load(f)
    errs = mini_schema.errors(schema, j)
    check(not errs, 'JSON log valid against the schema %s' % errs[:3])
    check(set(j) == {'version', 'fps', 'vqhip', 'frames', 'pooled_metrics',
                     'aggregate_metrics'}, "libvmaf's top-level keys and vqhip's only")
    v = j['vqhip']
    check(v['vqhip_version'] == project_version(src) == j['version'],
          'version %s is the project version' % v['vqhip_version'])
    desc = git_describe(src)
    if desc:
        check(v['revision'] in (desc, desc + '-dirty'),
              'revision %s is git describe (%s)' % (v['revision'], desc))
    else:
        print('skip revision: no git here (the log says %s)' % v['revision'])
    m = {x['name']: x for x in v['models']}
    check(list(m) == ['vmaf', 'vmaf_neg'], 'the two models, in order')
    builtin = m.get('vmaf', {})
    check(builtin.get('origin') == 'built-in' and builtin.get('version') == 'vmaf_v0.6.1'
          and builtin.get('spec') == 'version=vmaf_v0.6.1',
          'built-in model: origin, version, spec')
    check(builtin.get('sha256') == sha(os.path.join(src, 'models', 'vmaf_v0.6.1.json')),
          'built-in model: SHA-256 of models/vmaf_v0.6.1.json (hashlib)')
    f = m.get('vmaf_neg', {})
    check(f.get('origin') == 'file' and f.get('version') is None and
          f.get('sha256') == sha(model_copy), 'path= model: origin file, SHA-256 of the file')
    ex = {x['name']: x for x in v['extractors']}
    check({'adm', 'vif', 'motion', 'psnr'} <= set(ex), 'the models\' extractors and psnr')
    po = ex.get('psnr', {}).get('options', {})
    check(po.get('enable_chroma') == 'false' and po.get('enable_mse') == 'true' and
          po.get('enable_apsnr') == 'false', 'psnr options as given (and a default)')
    for x in v['extractors']:
        parts = dict(kv.split('=', 1) for kv in x['spec'].split(':'))
        check(parts.pop('name') == x['name'] and
              all(x['options'].get(k) == val for k, val in parts.items()),
              '%s: the spec\'s options are among its options, same values' % x['name'])
    check(ex.get('psnr', {}).get('spec') == 'name=psnr:enable_chroma=false:enable_mse=true',
          'psnr spec: the options given (the others are at their defaults)')
    specs = [x['spec'] for x in v['extractors']]
    check('name=adm:adm_enhn_gain_limit=1' in specs and 'name=adm' in specs and
          'name=vif:vif_enhn_gain_limit=1' in specs,
          'the neg model\'s extractors: enhn_gain_limit=1 (vmaf_v0.6.1neg.json)')
    check(v['config'] == {'backend': 'cpu', 'strict': False, 'subsample': 3,
                          'verify': 0}, 'config as given')
    fr = v['frames']
    nums = [x['frameNum'] for x in j['frames']]
    check(nums == [0, 3], 'subsample 3 of 5 frames: frames 0 and 3 logged')
    check(fr == {'submitted': 5, 'received': 5, 'scored': 2, 'not_scored': '1-2,4',
                 'n_not_scored': 3}, 'frames scored and not scored: %s' % fr)

    # ffmpeg-quality-metrics: frame_data["metrics"]["n"] = frameNum + 1,
    # statistics over the keys of the first frame, float() of each value
    data = []
    for fd in j['frames']:
        fd['metrics']['n'] = int(fd['frameNum']) + 1
        data.append(fd['metrics'])
    keys = [k for k in data[0] if k != 'n']
    ok = all(isinstance(fd[k], float) for fd in data for k in keys)
    check(ok and 'vmaf' in keys and 'vmaf_neg' in keys,
          'ffmpeg-quality-metrics: frames[i]["metrics"] numbers, vmaf there')
    check(all(set(p) == {'min', 'max', 'mean', 'harmonic_mean'}
              for p in j['pooled_metrics'].values()) and 'vmaf' in j['pooled_metrics'],
          'pooled_metrics[name] with min, max, mean, harmonic_mean')

    # easyVmaf: root.findall('frames/frame'), every attribute but frameNum
    # a number; pooled_metrics/metric by name
    root = ET.parse(logs['xml']).getroot()
    check(root.tag == 'VMAF' and [c.tag for c in root] ==
          ['params', 'fyi', 'vqhip', 'frames', 'pooled_metrics', 'aggregate_metrics'],
          "XML: libvmaf's elements, vqhip's block between fyi and frames")
    frames = root.findall('frames/frame')
    try:
        xf = [(int(e.get('frameNum')), {k: float(x) for k, x in e.attrib.items()
                                        if k != 'frameNum'}) for e in frames]
        ok = True
    except (TypeError, ValueError):
        ok, xf = False, []
    check(ok and [n for n, _ in xf] == nums, 'easyVmaf: frames/frame attributes are numbers')
    check(all(abs(a[1][k] - b['metrics'][k]) < 5e-7 for a, b in zip(xf, j['frames'])
              for k in keys), 'XML frames hold the JSON frames\' values')
    check(sorted(e.get('name') for e in root.findall('pooled_metrics/metric')) ==
          sorted(j['pooled_metrics']), 'easyVmaf: pooled_metrics/metric names')
    check(len(root.findall('.//frame')) == len(nums), "readers of './/frame' see the frames only")
    with open(logs['xml']) as fh:
        lines = [ln for ln in fh if 'vmaf="' in ln]
    check(len(lines) == len(nums), 'line readers of vmaf=" see one line per frame')
    vx = root.find('vqhip')
    pv = vx.find('provenance')
    check(pv is not None and pv.get('vqhip_version') == v['vqhip_version'] and
          pv.get('revision') == v['revision'] and pv.get('precision') == '0',
          'XML provenance: version, revision, precision')
    xm = {e.get('name'): e.attrib for e in vx.findall('model')}
    check({k: (a.get('sha256'), a.get('origin'), a.get('version'), a.get('spec'))
           for k, a in xm.items()} ==
          {k: (a['sha256'], a['origin'], a['version'], a['spec']) for k, a in m.items()},
          'XML models as JSON\'s')
    check([e.get('spec') for e in vx.findall('extractor')] ==
          [x['spec'] for x in v['extractors']], 'XML extractor specs as JSON\'s')
    check([e.get('options') for e in vx.findall('extractor')] ==
          [':'.join('%s=%s' % kv for kv in x['options'].items()) for x in v['extractors']],
          'XML extractor options as JSON\'s')
    rn = vx.find('run')
    check(rn is not None and {k: rn.get(k) for k in fr} == {k: str(x) for k, x in fr.items()},
          'XML run: frames as JSON\'s')
    cf = vx.find('config')
    check(cf is not None and cf.get('subsample') == '3' and cf.get('backend') == 'cpu',
          'XML config')
    return [logs['json']]


def api_values(tool, clip_files, n):
    p = subprocess.run([tool, clip_files[0], clip_files[1], str(W), str(H), str(n)],
                       capture_output=True, text=True, check=True)
    frames, pooled = {}, {}
    for line in p.stdout.splitlines():
        f = line.split()
        if f[0] == 'frame':
            frames[(int(f[1]), f[2])] = float.fromhex(f[3])
        else:
            pooled[(f[1], f[2])] = float.fromhex(f[3])
    return frames, pooled


def test_precision(vqhip, tool, work, schema, clip, clip_files):
    n = 5
    frames, pooled = api_values(tool, clip_files, n)
    check(len(frames) > 50 and len(pooled) > 50, 'API values: %d per-frame, %d pooled'
          % (len(frames), len(pooled)))
    base = clip + ['--frame_cnt', str(n), '--backend', 'cpu', '--model',
                   'version=vmaf_v0.6.1', '--feature', 'psnr', '-q', '--json']
    out = {}
    raw = {}
    for prec in (None, 17, 3):
        path = os.path.join(work, 'prec%s.json' % (prec or 0))
        run(vqhip, base + ['-o', path] + (['--precision', str(prec)] if prec else []))
        with open(path) as f:
            text = f.read()
        out[prec] = json.loads(text)
        # the numbers as printed, by frame and name
        raw[prec] = text
        errs = mini_schema.errors(schema, out[prec])
        check(not errs, 'precision %s: valid against the schema' % prec)
    j17 = out[17]
    got = {(fd['frameNum'], k): x for fd in j17['frames'] for k, x in fd['metrics'].items()}
    check(set(got) == set(frames), '--precision 17: the API\'s frames and outputs')
    diff = [k for k in frames if got.get(k) != frames[k]]
    check(not diff, '--precision 17: every per-frame value equals the API\'s double '
          'exactly (%d values; differ: %s)' % (len(frames), diff[:3]))
    gp = {(name, pool): x for name, d in j17['pooled_metrics'].items() for pool, x in d.items()}
    diff = [k for k in pooled if gp.get(k) != pooled[k]]
    check(set(gp) == set(pooled) and not diff,
          '--precision 17: every pooled value exact (%d; differ: %s)' % (len(pooled), diff[:3]))
    check(j17['vqhip']['precision'] == 17 and out[None]['vqhip']['precision'] == 0,
          'the log says its precision')
    # default: libvmaf's text for each value; 3: %.3g
    for prec, fmt in ((None, libvmaf_num), (3, lambda x: '%.3g' % x)):
        pat = re.compile(r'"frameNum": (\d+),\n      "metrics": \{\n((?:        "[^"]+": [^\n]+\n)+)')
        texts = {}
        for mo in pat.finditer(raw[prec]):
            for ln in mo.group(2).splitlines():
                k, x = re.match(r'\s+"([^"]+)": ([^,]+),?$', ln).groups()
                texts[(int(mo.group(1)), k)] = x
        bad = [k for k in frames if texts.get(k) != fmt(frames[k])]
        check(len(texts) == len(frames) and not bad,
              'precision %s: each value printed as %s of the API\'s double (differ: %s)'
              % (prec or 'default', 'libvmaf\'s %.6f' if prec is None else '%.3g', bad[:3]))
    xml = os.path.join(work, 'prec17.xml')
    run(vqhip, base[:-1] + ['--xml', '--precision', '17', '-o', xml])
    root = ET.parse(xml).getroot()
    xv = {(int(e.get('frameNum')), k): float(x) for e in root.findall('frames/frame')
          for k, x in e.attrib.items() if k != 'frameNum'}
    check(xv == frames, '--precision 17 in XML: every value exact')
    return [os.path.join(work, 'prec%s.json' % p) for p in (0, 17, 3)]


def test_verify_log(vqhip, src, work, clip, ref, dis):
    model_copy = os.path.join(work, 'neg model.json')
    gen = clip + ['-q', '--backend', 'cpu', '--model', 'version=vmaf_v0.6.1',
                  '--model', 'path=%s:name=vmaf_neg' % model_copy,
                  '--feature', 'psnr=enable_mse=true', '--feature', 'float_ssim',
                  '--subsample', '2', '--frame_cnt', '5', '--json']
    logs = {}
    for prec in (0, 17):
        logs[prec] = os.path.join(work, 'v%d.json' % prec)
        run(vqhip, gen + ['-o', logs[prec]] + (['--precision', '17'] if prec else []))
        p = run(vqhip, clip + ['--verify-log', logs[prec]])
        check('all match' in p.stdout, '--verify-log of its own log (precision %d): %s'
              % (prec, p.stdout.strip().splitlines()[-1]))
    with open(logs[17]) as f:
        d = json.load(f)
    fr = d['frames'][1]['metrics']
    fr['vmaf_neg'] = math.nextafter(fr['vmaf_neg'], math.inf)
    d['pooled_metrics']['float_ssim']['max'] = math.nextafter(
        d['pooled_metrics']['float_ssim']['max'], -math.inf)
    bad17 = os.path.join(work, 'v17-ulp.json')
    with open(bad17, 'w') as f:
        json.dump(d, f)
    p = run(vqhip, clip + ['--verify-log', bad17], want=6)
    check('frame 2 vmaf_neg' in p.stdout and 'pooled max float_ssim' in p.stdout and
          '2 differ' in p.stdout, '--verify-log finds one ulp off at 17 digits (exit 6)')
    with open(logs[0]) as f:
        d = json.load(f)
    d['frames'][2]['metrics']['psnr_y'] = round(d['frames'][2]['metrics']['psnr_y'] + 1e-6, 6)
    bad0 = os.path.join(work, 'v0-unit.json')
    with open(bad0, 'w') as f:
        json.dump(d, f)
    p = run(vqhip, clip + ['--verify-log', bad0], want=6)
    check('frame 4 psnr_y' in p.stdout and '1 differ' in p.stdout,
          '--verify-log finds one printed unit off at %.6f (exit 6)')
    swapped = ['-r', dis, '-d', ref] + clip[4:]
    p = run(vqhip, swapped + ['--verify-log', logs[0]], want=6)
    check('differ' in p.stdout, '--verify-log with other inputs: values differ (exit 6)')
    libvmaf = os.path.join(src, 'tests', 'logs', 'libvmaf', 'clip.json')
    p = run(vqhip, clip + ['--verify-log', libvmaf], want=3)
    check('no vqhip provenance' in p.stderr, '--verify-log refuses a log without provenance')
    run(vqhip, clip + ['--verify-log', logs[0], '-o', os.path.join(work, 'x.json')], want=2)


def main(argv):
    vqhip, tool, src, work = argv[1:5]
    os.makedirs(work, exist_ok=True)
    ref, dis = os.path.join(work, 'ref.yuv'), os.path.join(work, 'dis.yuv')
    subprocess.run([sys.executable, os.path.join(src, 'tests', 'logs', 'make_clip.py'),
                    ref, dis], check=True)
    clip = ['-r', ref, '-d', dis, '-w', str(W), '-h', str(H), '-p', '420', '-b', '8']
    with open(os.path.join(src, 'docs', 'log.schema.json')) as f:
        schema = json.load(f)
    test_provenance(vqhip, src, work, schema, clip)
    test_precision(vqhip, tool, work, schema, clip, (ref, dis))
    test_verify_log(vqhip, src, work, clip, ref, dis)
    return checks.finish()


if __name__ == '__main__':
    sys.exit(main(sys.argv))
