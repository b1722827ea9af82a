#!/usr/bin/env python3
"""vqhip plan --k8s (docs/SCALE.md): the Jobs it writes validate offline
against Kubernetes' API schema (k8s/validate_job.mjs: the upstream
OpenAPI spec's types, formats, enums and required fields, and no unknown
field); the same Jobs with one field broken do not, each with an error
that names the field (the check can fail).

Skips (77) without node or without the validator's packages
(scripts/install-deps.sh: npm ci --prefix tests/engines/k8s).

usage: k8s_test.py VQHIP WORKDIR
"""
import copy
import json
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

VQHIP, WORK = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
K8S = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'k8s')
VALIDATE = os.path.join(K8S, 'validate_job.mjs')
if not shutil.which('node') or \
        not os.path.isdir(os.path.join(K8S, 'node_modules', 'kubernetes-models')):
    checks.skip('node or tests/engines/k8s/node_modules missing '
                '(scripts/install-deps.sh)')
if os.path.isdir(WORK):
    shutil.rmtree(WORK)
os.makedirs(WORK)
W, H = 64, 48
clips.clip(os.path.join(WORK, 'ref.yuv'), 0, W, H, 7)
clips.clip(os.path.join(WORK, 'dis.yuv'), 5, W, H, 7)
with open(os.path.join(WORK, 'catalog.tsv'), 'w') as f:
    f.write('T\tref.yuv\tdis.yuv\tt.json\t-w %d -h %d -p 420 --json\n'
            % (W, H))


def validate(paths):
    r = subprocess.run(['node', VALIDATE] + paths, capture_output=True,
                       text=True)
    return r.returncode, r.stdout + r.stderr


jobs = []
for name, extra in (('cpu', []),
                    ('amd', ['--gpu', '--parallelism', '2']),
                    ('nvidia', ['--gpu', '--gpu-resource', 'nvidia.com/gpu'])):
    r = subprocess.run([VQHIP, 'plan', 'catalog.tsv', '--out', name,
                        '--segment-frames', '3', '--k8s', '--image',
                        'registry.example/vqhip:1', '--claim', 'scores'] +
                       extra, cwd=WORK, capture_output=True, text=True)
    check(r.returncode == 0, 'plan --k8s %s: %s' % (name, r.stderr))
    for j in ('items-job.json', 'merge-job.json'):
        jobs.append(os.path.join(WORK, name, 'k8s', j))
rc, out = validate(jobs)
print(out, end='')
check(rc == 0, 'the generated Jobs are valid')
check(out.count('valid batch/v1 Job') == len(jobs), 'each Job reported valid')

items = json.load(open(jobs[2]))   # amd: --gpu, --parallelism 2
check(items['spec']['completions'] == 3 and
      items['spec']['parallelism'] == 2, 'completions 3 (7 frames by 3), '
      'parallelism 2')


def pod(d):
    return d['spec']['template']['spec']


def container(d):
    return pod(d)['containers'][0]


def setitem(get, key, value):
    def f(d):
        get(d)[key] = value
    return f


def delitem(get, key):
    def f(d):
        del get(d)[key]
    return f


# (what is broken, the mutation, what the error must name)
broken = [
    ('an integer as a string', setitem(lambda d: d['spec'], 'completions',
                                       '3'), 'spec/completions'),
    ('a value outside the enum', setitem(lambda d: d['spec'],
                                         'completionMode', 'Ordered'),
     'spec/completionMode'),
    ('an exit code as a string',
     setitem(lambda d: d['spec']['podFailurePolicy']['rules'][0]
             ['onExitCodes'], 'values', ['65']),
     'onExitCodes/values/0'),
    ('a required field missing', delitem(container, 'name'),
     'containers/0'),
    ('a list where an object goes', setitem(pod, 'volumes', {'data': 1}),
     'spec/template/spec/volumes'),
    ('an unknown field (a typo of workingDir)',
     setitem(container, 'workDir', '/x'), 'containers/0/workDir'),
    ('an unknown field in the pod failure policy',
     setitem(lambda d: d['spec']['podFailurePolicy']['rules'][0], 'exitCodes',
             [65]), 'rules/0/exitCodes'),
    ('another kind', setitem(lambda d: d, 'kind', 'Deployment'), 'kind'),
]
for what, mutate, where in broken:
    d = copy.deepcopy(items)
    mutate(d)
    path = os.path.join(WORK, 'broken.json')
    with open(path, 'w') as f:
        json.dump(d, f)
    rc, out = validate([path])
    print('%s -> %s' % (what, out.strip().replace('\n', ' | ')))
    check(rc == 1 and where in out, 'broken (%s) is refused, naming %s'
          % (what, where))

sys.exit(checks.finish())
