"""Shared by the engine tests: the single runs the merged logs must equal,
the one field masked (their checks go to tests/common/checks.py)."""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'common'))
from checks import check  # noqa: E402


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
