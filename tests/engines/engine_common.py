"""Shared by the engine tests: the single runs the merged logs must equal,
the one field masked, the failures collected."""
import os
import re
import subprocess

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print('FAIL:', what)


def normalise(text):
    """The run's speed is the one field two runs of anything differ in."""
    text = re.sub(r'"fps": [^,\n]*,', '"fps": X,', text)
    return re.sub(r'<fyi fps="[^"]*" />', '<fyi fps="X" />', text)


def single_logs(vqhip, work, titles):
    """{title: its normalised log} of one vqhip run over the whole title;
    titles: (title, reference, distorted, log, options), paths in work."""
    out = {}
    for title, ref, dis, log, opts in titles:
        path = os.path.join(work, 'single.' + log)
        r = subprocess.run([vqhip, '-r', ref, '-d', dis, '-q', '-o', path] +
                           opts.split(), cwd=work, capture_output=True,
                           text=True)
        check(r.returncode == 0, 'single run of %s: %s' % (title, r.stderr))
        out[title] = normalise(open(path).read()) if r.returncode == 0 \
            else 'no single log'
    return out
