#!/usr/bin/env python3
"""vqhip plan --slurm on a real single-node Slurm (docs/SCALE.md): munged,
slurmctld and slurmd started here on the loopback (no systemd, no cgroups:
proctrack/linuxproc, task/none), in a temporary folder, on free ports,
every daemon stopped by its PID at the end. A catalog of three titles is
submitted with the plan's submit.sh; one item's input appears only after
its first attempt (run-item exits 75, slurm.conf's RequeueExit=75
requeues it), one running item is requeued with `scontrol requeue`; the
merge job (afterany) then writes every title's log, which must equal a
single vqhip run's byte for byte (the fps field aside).

Skips (77) without root or without the packages slurmctld, slurmd,
slurm-client and munge (scripts/install-deps.sh installs them).

usage: slurm_test.py VQHIP WORKDIR
"""
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'catalog'))
import clips  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'common'))
import checks  # noqa: E402
from checks import check  # noqa: E402
from engine_common import normalise, single_logs  # noqa: E402

VQHIP, WORK = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
TOOLS = ['slurmctld', 'slurmd', 'sbatch', 'squeue', 'scontrol', 'munged',
         'munge', 'setpriv']
missing = [t for t in TOOLS if not shutil.which(t) and
           not os.path.exists('/usr/sbin/' + t)]
if os.geteuid() != 0 or missing:
    checks.skip('needs root and %s' % (missing or 'root'))
try:
    pwd.getpwnam('munge')
except KeyError:
    checks.skip('no munge user (package munge)')
DEADLINE = time.time() + 170
PIDS = []


def free_ports(n):
    socks = [socket.socket() for _ in range(n)]
    for s in socks:
        s.bind(('127.0.0.1', 0))
    ports = [s.getsockname()[1] for s in socks]
    for s in socks:
        s.close()
    return ports


def stop_all():
    for p in PIDS:
        try:
            os.kill(p.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
    for p in PIDS:
        try:
            p.wait(10)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()


def sh(args, **kw):
    return subprocess.run(args, capture_output=True, text=True, env=ENV,
                          **kw)


def wait_for(what, cond, step=0.2):
    while time.time() < DEADLINE:
        if cond():
            return True
        time.sleep(step)
    check(False, 'timed out waiting for ' + what)
    return False


D = tempfile.mkdtemp(prefix='vqhip-slurm.')
os.chmod(D, 0o755)
ENV = dict(os.environ, SLURM_CONF=os.path.join(D, 'slurm.conf'))
for k in list(ENV):
    if k.startswith('SLURM_') and k != 'SLURM_CONF' or \
            k.startswith('SBATCH_'):
        del ENV[k]
try:
    # munge: its own key, socket, pid, log and seed, run as the munge user
    mu = pwd.getpwnam('munge')
    md = os.path.join(D, 'munge')
    os.mkdir(md, 0o700)
    key = os.path.join(md, 'munge.key')
    with open(key, 'wb') as f:
        f.write(os.urandom(1024))
    os.chmod(key, 0o400)
    for p in (md, key):
        os.chown(p, mu.pw_uid, mu.pw_gid)
    os.chmod(md, 0o755)   # munged wants the socket's folder o+x
    sock = os.path.join(md, 'munge.socket')
    munged = shutil.which('munged') or '/usr/sbin/munged'
    # setpriv execs: the PID is munged's
    PIDS.append(subprocess.Popen(
        ['setpriv', '--reuid=munge', '--regid=munge', '--init-groups', munged,
         '-F', '--key-file=' + key, '--socket=' + sock,
         '--pid-file=' + md + '/munged.pid', '--log-file=' + md + '/munged.log',
         '--seed-file=' + md + '/munged.seed'],
        stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT))
    wait_for('munged', lambda: os.path.exists(sock))

    host = socket.gethostname().split('.')[0]
    ctld, slurmd_port = free_ports(2)
    for s in ('state', 'spool', 'log'):
        os.mkdir(os.path.join(D, s))
    with open(ENV['SLURM_CONF'], 'w') as f:
        f.write('''ClusterName=vqtest
SlurmctldHost={h}(127.0.0.1)
SlurmUser=root
SlurmctldPort={cp}
SlurmdPort={dp}
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket={sock},cred_expire=10
StateSaveLocation={d}/state
SlurmdSpoolDir={d}/spool
SlurmctldPidFile={d}/slurmctld.pid
SlurmdPidFile={d}/slurmd.pid
SlurmctldLogFile={d}/log/slurmctld.log
SlurmdLogFile={d}/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
SchedulerType=sched/backfill
SchedulerParameters=bf_interval=1,sched_interval=1
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
SlurmdTimeout=60
RequeueExit=75
MinJobAge=600
KillWait=2
NodeName={h} NodeAddr=127.0.0.1 CPUs={n} RealMemory=1000 State=UNKNOWN
PartitionName=debug Nodes={h} Default=YES MaxTime=INFINITE State=UP
'''.format(h=host, cp=ctld, dp=slurmd_port, sock=sock, d=D,
           n=os.cpu_count() or 1))
    for daemon in ('slurmctld', 'slurmd'):
        log = open(os.path.join(D, 'log', daemon + '.out'), 'w')
        PIDS.append(subprocess.Popen([daemon, '-D', '-f', ENV['SLURM_CONF']],
                                     stdout=log, stderr=subprocess.STDOUT,
                                     env=ENV))
    wait_for('an idle node', lambda: 'idle' in sh(
        ['sinfo', '-h', '-o', '%T']).stdout)

    # the catalog: A and B two items each (B's frames 8x larger: slow
    # enough to be caught running), C one item whose input comes late
    if os.path.isdir(WORK):
        shutil.rmtree(WORK)
    os.makedirs(WORK)
    W, H, N = 224, 160, 27
    clips.clip(os.path.join(WORK, 'a_ref.yuv'), 0, W, H, N)
    clips.clip(os.path.join(WORK, 'a_dis.yuv'), 7, W, H, N)
    clips.clip(os.path.join(WORK, 'b_ref.y4m'), 0, W, H, 28, True, tile=6)
    clips.clip(os.path.join(WORK, 'b_dis.y4m'), 5, W, H, 28, True, tile=6)
    clips.clip(os.path.join(WORK, 'c_ref.yuv'), 0, W, H, 10)
    late = os.path.join(WORK, 'c_dis.yuv')
    clips.clip(late, 3, W, H, 10)
    geom = '-w %d -h %d -p 420 -b 8' % (W, H)
    # C first: items 0 (C) and 1 (B's first) start together (throttle 2)
    titles = [
        ('C', 'c_ref.yuv', 'c_dis.yuv', 'c.json', geom + ' --json'),
        ('B', 'b_ref.y4m', 'b_dis.y4m', 'b.json',
         '--backend cpu --feature ssimulacra2'),
        ('A', 'a_ref.yuv', 'a_dis.yuv', 'a.json',
         geom + ' --feature psnr --feature motion=motion_five_frame_window='
         'true'),
    ]
    singles = single_logs(VQHIP, WORK, titles)
    manifest = os.path.join(WORK, 'catalog.tsv')
    with open(manifest, 'w') as f:
        for t in titles:
            f.write('\t'.join(t) + '\n')
    plan = os.path.join(WORK, 'plan')
    r = sh([VQHIP, 'plan', manifest, '--out', plan, '--segment-frames', '14',
            '--slurm', '--throttle', '2'], cwd=WORK)
    check(r.returncode == 0, 'plan --slurm: %s' % r.stderr)
    # C's distorted input is not there yet: its first attempt exits 75
    os.rename(late, late + '.later')
    r = sh(['sh', os.path.join(plan, 'slurm', 'submit.sh')], cwd=WORK)
    check(r.returncode == 0, 'submit.sh: %s %s' % (r.stdout, r.stderr))
    words = r.stdout.split()
    array, merge = words[3].rstrip(';'), words[-1]
    print(r.stdout.strip())
    logs = os.path.join(plan, 'slurm', 'logs')

    def task_log(i):
        p = os.path.join(logs, '%s_%d.err' % (array, i))
        return open(p).read() if os.path.exists(p) else ''

    # item 0 (C's only one): its first attempt, then the input appears; a
    # requeued job waits cred_expire (slurm.conf) before it starts again
    wait_for('item 0 exiting 75', lambda: 'not there' in task_log(0))
    os.rename(late + '.later', late)
    # item 1 (B's first, slow): requeued while running
    running = wait_for('item 1 running', lambda: 'attempt 1' in task_log(1)
                       and sh(['squeue', '-h', '-j', '%s_1' % array, '-t',
                               'R']).stdout.strip() != '', 0.05)
    r = sh(['scontrol', 'requeue', '%s_1' % array])
    check(running and r.returncode == 0, 'scontrol requeue: %s' % r.stderr)
    wait_for('an empty queue', lambda: sh(['squeue', '-h']).stdout == '', 0.5)

    check('attempt 2' in task_log(0), 'item 0 ran again after exit 75: %r'
          % task_log(0))
    check('attempt 2' in task_log(1), 'item 1 ran again after its requeue: '
          '%r' % task_log(1))
    parts = sorted(os.listdir(os.path.join(plan, 'parts')))
    check([p for p in parts if not p.startswith('.')] ==
          ['%04d.part' % i for i in range(5)], 'parts: %s' % parts)
    mlog = os.path.join(logs, 'merge-%s.out' % merge)
    check(os.path.exists(mlog) and open(mlog).read() == '',
          'the merge job said: %r' % (open(mlog).read()
                                      if os.path.exists(mlog) else None))
    for t in titles:
        p = os.path.join(plan, 'logs', t[3])
        got = normalise(open(p).read()) if os.path.exists(p) else None
        check(got == singles[t[0]], 'title %s: the merged log differs from '
              'the single run (%s)' % (t[0], p))
        if got and got != singles[t[0]]:
            open(p + '.norm', 'w').write(got)
            open(p + '.single', 'w').write(singles[t[0]])
    print('Slurm run: %.0f s' % (170 - (DEADLINE - time.time())))
finally:
    if PIDS:
        sh(['scancel', '--full', '-u', 'root'])
    stop_all()
    if not checks.failures:
        shutil.rmtree(D, ignore_errors=True)
    else:
        print('daemon logs kept in', D)

sys.exit(checks.finish())
