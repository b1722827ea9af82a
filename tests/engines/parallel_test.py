#!/usr/bin/env python3
"""vqhip plan --parallel (docs/SCALE.md): DIR/parallel.sh runs every item
with GNU parallel on this machine, then merges every title; the merged
logs equal single runs' byte for byte (the fps field aside). A title
whose input is missing fails (its item retried, then reported missing by
the merge step); run again, only that item runs (--resume-failed).

Skips (77) without GNU parallel (scripts/install-deps.sh installs it).

usage: parallel_test.py VQHIP WORKDIR
"""
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'catalog'))
import clips  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'common'))
import checks  # noqa: E402
from checks import check  # noqa: E402
from engine_common import normalise, single_logs  # noqa: E402

VQHIP, WORK = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
r = subprocess.run(['parallel', '--version'], capture_output=True, text=True)\
    if shutil.which('parallel') else None
if not r or 'GNU parallel' not in r.stdout:
    checks.skip('GNU parallel is not installed')
if os.path.isdir(WORK):
    shutil.rmtree(WORK)
os.makedirs(WORK)
W, H = 224, 160
clips.clip(os.path.join(WORK, 'a_ref.yuv'), 0, W, H, 27)
clips.clip(os.path.join(WORK, 'a_dis.yuv'), 7, W, H, 27)
clips.clip(os.path.join(WORK, 'b_ref.y4m'), 0, W, H, 20, True)
clips.clip(os.path.join(WORK, 'b_dis.y4m'), 3, W, H, 20, True)
geom = '-w %d -h %d -p 420 -b 8' % (W, H)
titles = [
    ('A', 'a_ref.yuv', 'a_dis.yuv', 'a.xml', geom + ' --feature psnr'),
    ('B', 'b_ref.y4m', 'b_dis.y4m', 'b.json',
     '--json --feature float_motion --subsample 2'),
]
singles = single_logs(VQHIP, WORK, titles)
with open(os.path.join(WORK, 'catalog.tsv'), 'w') as f:
    for t in titles:
        f.write('\t'.join(t) + '\n')
plan = os.path.join(WORK, 'plan')
env = dict(os.environ)
for k in ('SLURM_ARRAY_TASK_ID', 'JOB_COMPLETION_INDEX',
          'AWS_BATCH_JOB_ARRAY_INDEX', 'PARALLEL'):
    env.pop(k, None)
r = subprocess.run([VQHIP, 'plan', 'catalog.tsv', '--out', 'plan',
                    '--segment-frames', '9', '--parallel'], cwd=WORK,
                   capture_output=True, text=True, env=env)
check(r.returncode == 0, 'plan --parallel: %s' % r.stderr)
n = 3 + 3   # A: 9+9+9, B: 9+9+2

# B's distorted input is away: items 3-5 fail (75) on every retry
away = os.path.join(WORK, 'b_dis.y4m')
os.rename(away, away + '.away')
script = os.path.join(plan, 'parallel.sh')
r = subprocess.run(['sh', script], cwd='/', capture_output=True, text=True,
                   env=env)
check(r.returncode != 0 and 'items without a part: 3,4,5' in r.stderr,
      'a title without its input: %d %r' % (r.returncode, r.stderr))
joblog = [l.split('\t') for l in open(os.path.join(plan, 'joblog'))][1:]
# the joblog has each job's last try (sequence = index + 1)
check(sorted(int(j[0]) for j in joblog if j[6] == '75') == [4, 5, 6] and
      sorted(int(j[0]) for j in joblog if j[6] == '0') == [1, 2, 3],
      'joblog (sequence, exit): %s' % [(j[0], j[6]) for j in joblog])
os.rename(away + '.away', away)
os.remove(os.path.join(plan, 'logs', 'a.xml'))
r = subprocess.run(['sh', script], cwd='/', capture_output=True, text=True,
                   env=env)
check(r.returncode == 0, 'parallel.sh again: %d %r' % (r.returncode,
                                                       r.stderr))
joblog2 = [l.split('\t') for l in open(os.path.join(plan, 'joblog'))][1:]
check(sorted(int(j[0]) for j in joblog2[len(joblog):]) == [4, 5, 6] and
      all(j[6] == '0' for j in joblog2[len(joblog):]),
      'the second run reruns the failed items only: %s'
      % [(j[0], j[6]) for j in joblog2])
check(sorted(os.listdir(os.path.join(plan, 'parts'))) ==
      ['%04d.part' % i for i in range(n)], 'parts')
for t in titles:
    p = os.path.join(plan, 'logs', t[3])
    got = normalise(open(p).read()) if os.path.exists(p) else None
    check(got == singles[t[0]], 'title %s: the merged log differs from the '
          'single run (%s)' % (t[0], p))
sys.exit(checks.finish())
