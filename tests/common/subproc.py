"""Running programs from the Python tests: run() captures a program's
output; ffmpeg() runs the ffmpeg on PATH quietly and ends the test (exit 1)
when it fails, since nothing after a failed clip-making step can be checked.
"""
import subprocess
import sys


def run(args):
    return subprocess.run(args, capture_output=True, text=True)


def ffmpeg(*args):
    r = run(['ffmpeg', '-hide_banner', '-loglevel', 'error', '-y'] +
            list(args))
    if r.returncode:
        print('ffmpeg failed:', ' '.join(args), r.stderr)
        sys.exit(1)
