"""Which filters an ffmpeg has: the filter tests skip (exit 77) when one
they need is missing."""
import re
import subprocess


def missing_filters(ff, names):
    """The names among `names` that `ff -filters` does not list (OSError
    when ff cannot be run)."""
    listed = subprocess.run([ff, '-hide_banner', '-filters'],
                            stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True).stdout
    return [n for n in names if not re.search(r'\s%s\s' % re.escape(n), listed)]
