#!/usr/bin/env python3
"""vqhip plan / run-item / merge (docs/SCALE.md): a title scored in 1, 2, 3
and 7 segments (cut anywhere) merges into the log a single run of the
whole title writes, byte for byte (the fps field aside: it is the run's
speed, different between any two runs), for vmaf_v0.6.1, vmaf_v1.0.16
and other extractors, in the four layouts; psnr's aggregate PSNR
(enable_apsnr) merges from the parts' error sums, its values checked
against a recomputation from the per-frame MSE; missing, duplicated and
inconsistent parts are refused; run-item's exit codes.

usage: catalog_test.py VQHIP MODELS_DIR WORKDIR
"""
import os
import re
import shutil
import subprocess
import sys

import clips
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'common'))
import checks  # noqa: E402
from checks import check  # noqa: E402

VQHIP, MODELS, WORK = sys.argv[1], sys.argv[2], sys.argv[3]
W, H, N = 224, 160, 27


def clip(path, seed, y4m=False):
    clips.clip(path, seed, W, H, N, y4m)


def run(args, env=None):
    e = dict(os.environ)
    for k in ('SLURM_ARRAY_TASK_ID', 'JOB_COMPLETION_INDEX',
              'AWS_BATCH_JOB_ARRAY_INDEX'):
        e.pop(k, None)
    e.update(env or {})
    return subprocess.run([VQHIP] + args, capture_output=True, text=True,
                          env=e)


def normalise(text):
    """The run's speed is the one field two runs of anything differ in."""
    text = re.sub(r'"fps": [^,\n]*,', '"fps": X,', text)
    return re.sub(r'<fyi fps="[^"]*" />', '<fyi fps="X" />', text)


if os.path.isdir(WORK):
    shutil.rmtree(WORK)
os.makedirs(WORK)
REF, DIS = os.path.join(WORK, 'ref.yuv'), os.path.join(WORK, 'dis.yuv')
clip(REF, 0)
clip(DIS, 7)
clip(os.path.join(WORK, 'ref.y4m'), 0, True)
clip(os.path.join(WORK, 'dis.y4m'), 7, True)
GEOM = '-w %d -h %d -p 420 -b 8' % (W, H)
V16 = os.path.join(MODELS, 'vmaf_v1.0.16_3d0h.json')
CONFIGS = [
    # name, inputs, options
    ('v061', 'yuv', GEOM + ' --model version=vmaf_v0.6.1 --feature psnr '
     '--feature float_ssim --feature cambi --feature '
     'motion=motion_five_frame_window=true:motion_moving_average=true'),
    ('v1016', 'yuv', GEOM + ' --model path=' + V16 + ' --feature ssim'),
    ('sub3', 'y4m', '--model version=vmaf_v0.6.1 --feature float_motion '
     '--feature motion_v2=motion_moving_average=true --subsample 3 '
     '--precision 17'),
    # aggregates: apsnr_* from the error summed over every scored frame
    ('apsnr', 'yuv', GEOM + ' --feature psnr=enable_apsnr=true:enable_mse=true'),
    ('apsnr_sub', 'y4m', '--feature psnr=enable_apsnr=true:enable_mse=true '
     '--subsample 2 --precision 17'),
]
SPLITS = {1: [], 2: [13], 3: [1, 11], 7: [2, 3, 10, 11, 12, 20]}
FMTS = {'json': '--json', 'csv': '--csv', 'xml': '--xml', 'sub': '--sub'}

for name, kind, opts in CONFIGS:
    ref, dis = 'ref.' + kind, 'dis.' + kind
    singles = {}
    for fmt, flag in FMTS.items():
        log = os.path.join(WORK, '%s.single.%s' % (name, fmt))
        r = run(['-r', os.path.join(WORK, ref), '-d', os.path.join(WORK, dis),
                 '-q', '-o', log, flag] + opts.split())
        check(r.returncode == 0, '%s single run: %s' % (name, r.stderr))
        singles[fmt] = normalise(open(log).read()) if r.returncode == 0 else ''
    manifest = os.path.join(WORK, name + '.tsv')
    with open(manifest, 'w') as f:
        f.write('# title\treference\tdistorted\tlog\toptions\n')
        f.write('%s\t%s\t%s\t%s.json\t%s\n' % (name, ref, dis, name, opts))
    for k, cuts in SPLITS.items():
        d = os.path.join(WORK, '%s.%d' % (name, k))
        args = ['plan', manifest, '--out', d]
        args += ['--cuts', ','.join(map(str, cuts))] if cuts else []
        r = run(args)
        check(r.returncode == 0, '%s plan %d: %s' % (name, k, r.stderr))
        if r.returncode:
            continue
        items = [l for l in open(os.path.join(d, 'items.tsv'))
                 if not l.startswith('#')]
        check(len(items) == k, '%s: %d items, not %d' % (name, len(items), k))
        for i in range(len(items)):
            # the index from each engine's variable in turn, or --index
            env = {}
            how = i % 4
            if how == 1:
                env['SLURM_ARRAY_TASK_ID'] = str(i)
            elif how == 2:
                env['JOB_COMPLETION_INDEX'] = str(i)
            elif how == 3:
                env['AWS_BATCH_JOB_ARRAY_INDEX'] = str(i)
            r = run(['run-item', d] + (['--index', str(i)] if not how else []),
                    env)
            check(r.returncode == 0, '%s/%d item %d: %s' % (name, k, i,
                                                            r.stderr))
        for fmt in FMTS:
            log = os.path.join(d, 'merged.' + fmt)
            r = run(['merge', d, '--title', name, '--log', log, '--log-fmt',
                     fmt])
            check(r.returncode == 0, '%s/%d merge: %s' % (name, k, r.stderr))
            got = normalise(open(log).read()) if r.returncode == 0 else None
            check(got == singles[fmt] and got,
                  '%s in %d segments, %s: merged log differs from the single '
                  'run' % (name, k, fmt))
            if got != singles[fmt] and got:
                open(log + '.norm', 'w').write(got)
                open(log + '.single', 'w').write(singles[fmt])



def apsnr_expected(log):
    """apsnr_* recomputed from the per-frame mse_* of a JSON log: the
    summed squared error (mse x pixels, an integer) over the scored frames,
    capped as libvmaf's (ceil(10 log10(peak^2 pixels 2)) when it is 0)."""
    import json
    import math
    j = json.load(open(log))
    out = {}
    for p, n in (('y', W * H), ('cb', W * H // 4), ('cr', W * H // 4)):
        sse = sum(round(f['metrics']['mse_' + p] * n) for f in j['frames'])
        pixels = n * len(j['frames'])
        cap = math.ceil(10 * math.log10(255 * 255 * pixels * 2))
        out['apsnr_' + p] = min(10 * math.log10(255 * 255 * pixels / sse),
                                cap) if sse else cap
    return out, j.get('aggregate_metrics', {})


for name in ('apsnr', 'apsnr_sub'):
    want, got = apsnr_expected(os.path.join(WORK, 'apsnr.3', 'merged.json')
                               if name == 'apsnr' else
                               os.path.join(WORK, name + '.7', 'merged.json'))
    check(sorted(got) == sorted(want) and
          all(abs(got[k] - want[k]) <= 5e-7 * max(1, abs(want[k]))
              for k in want),
          '%s: merged aggregates %r, recomputed %r' % (name, got, want))
    print('%s: merged %r, recomputed %r' % (name, got, want))
# a part without its sums line: its frames would be left out
ad = os.path.join(WORK, 'apsnr.3')
ap = os.path.join(ad, 'parts', '0001.part')
kept = open(ap).read()
check(kept.count('\nsums\t0\tpsnr\t') == 1, 'a part carries psnr\'s sums')
open(ap, 'w').write(re.sub(r'(?m)^sums\t.*\n', '', kept))
r = run(['merge', ad, '--title', 'apsnr', '--log', os.path.join(WORK, 'x.json')])
check(r.returncode == 65 and 'aggregate sums' in r.stderr,
      'a part without sums: %d %r' % (r.returncode, r.stderr))
open(ap, 'w').write(kept)

# Refusals, on the 3-segment plan of v061.
d = os.path.join(WORK, 'v061.3')
parts = os.path.join(d, 'parts')
out = os.path.join(WORK, 'refused.json')


def merge_fails(code, words, what):
    r = run(['merge', d, '--title', 'v061', '--log', out])
    check(r.returncode == code and words in r.stderr,
          '%s: exit %d, %r' % (what, r.returncode, r.stderr))
    check(not os.path.exists(out), what + ': a log was written')


shutil.move(os.path.join(parts, '0001.part'), os.path.join(WORK, 'kept'))
merge_fails(75, 'missing: 0001.part (frames 1-11)', 'a missing part')
shutil.move(os.path.join(WORK, 'kept'), os.path.join(parts, '0001.part'))
shutil.copy(os.path.join(parts, '0001.part'),
            os.path.join(parts, '0001-again.part'))
merge_fails(65, 'item 1 has two parts', 'a duplicated part')
os.remove(os.path.join(parts, '0001-again.part'))
# a part of the same frames scored with other options
other = os.path.join(WORK, 'other.tsv')
with open(other, 'w') as f:
    f.write('v061\tref.yuv\tdis.yuv\tv061.json\t%s --model '
            'version=vmaf_v0.6.1\n' % GEOM)
od = os.path.join(WORK, 'other')
check(run(['plan', other, '--out', od, '--cuts', '1,11']).returncode == 0,
      'other plan')
check(run(['run-item', od, '--index', '1']).returncode == 0, 'other item')
good = open(os.path.join(parts, '0001.part')).read()
shutil.copy(os.path.join(od, 'parts', '0001.part'),
            os.path.join(parts, '0001.part'))
merge_fails(65, 'not an item of this plan', 'a part with other options')
# a part whose model differs (same options, another model file)
bad = re.sub(r'(?m)^model\t.*$', 'model\t' + '0' * 64, good, count=1)
open(os.path.join(parts, '0001.part'), 'w').write(bad)
merge_fails(65, 'are inconsistent', 'a part with another model hash')
open(os.path.join(parts, '0001.part'), 'w').write(good)
check(run(['merge', d, '--title', 'v061', '--log', out]).returncode == 0,
      'the restored parts merge')

# run-item: an input not there yet (75), a bad input (65).
moved = DIS + '.away'
shutil.move(DIS, moved)
r = run(['run-item', d, '--index', '0'])
check(r.returncode == 75 and 'not there' in r.stderr,
      'missing input: %d %r' % (r.returncode, r.stderr))
with open(DIS, 'wb') as f:
    f.write(open(moved, 'rb').read()[:-100])
r = run(['run-item', d, '--index', '0'])
check(r.returncode == 65 and 'whole number' in r.stderr,
      'bad input: %d %r' % (r.returncode, r.stderr))
shutil.move(moved, DIS)
# the index's precedence: --index, then Slurm's, Kubernetes', AWS Batch's
os.remove(os.path.join(parts, '0002.part'))
r = run(['run-item', d], {'SLURM_ARRAY_TASK_ID': '2',
                          'JOB_COMPLETION_INDEX': '0'})
check(r.returncode == 0 and os.path.exists(os.path.join(parts, '0002.part')),
      'SLURM_ARRAY_TASK_ID before JOB_COMPLETION_INDEX')
r = run(['run-item', d, '--index', '9'])
check(r.returncode == 64, 'an index past the plan: %d' % r.returncode)
# a plan refuses a title whose frame count cannot be established
with open(os.path.join(WORK, 'cut.yuv'), 'wb') as f:
    f.write(open(REF, 'rb').read()[:-100])
with open(os.path.join(WORK, 'bad.tsv'), 'w') as f:
    f.write('t\tref.yuv\tcut.yuv\tt.json\t%s\n' % GEOM)
r = run(['plan', os.path.join(WORK, 'bad.tsv'), '--out',
         os.path.join(WORK, 'bad')])
check(r.returncode == 65 and 'whole number' in r.stderr, 'plan of a bad title: %d %r' % (r.returncode,
                                                          r.stderr))

sys.exit(checks.finish())
