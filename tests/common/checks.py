"""The Python tests' one record of their checks.

check() records a named pass or failure and prints it, finish() gives the
script's exit status (1 after any failure, 0 otherwise), skip() exits 77,
the status meson and test.sh count as skipped.

There is one record per process: a script and the test modules it imports
(check_align under check_realign, live_common under check_live, ...) count
into the same list, so a failure a helper module records always fails the
script that runs it."""
import os
import sys

SKIP = 77

failures = []
passes = 0
_show_passes = False


def show_passes(on=True):
    """Print an "ok" line for each passing check too (by default only the
    failures are printed)."""
    global _show_passes
    _show_passes = on


def check(cond, what):
    """Record `what` as passed when cond is true, failed otherwise; print
    "FAIL what" (and "ok   what" when passes are shown). Returns cond, so a
    caller can leave out the checks that need this one to hold."""
    global passes
    if cond:
        passes += 1
        if _show_passes:
            print('ok  ', what, flush=True)
    else:
        failures.append(what)
        print('FAIL', what, flush=True)
    return cond


def finish():
    """Print the count and return the exit status: 1 when any check failed,
    0 when none did (and at least one ran: a script that checked nothing
    has gone wrong, so that is 1 too)."""
    name = os.path.basename(sys.argv[0])
    total = passes + len(failures)
    if failures:
        print('%s: %d of %d checks failed' % (name, len(failures), total),
              flush=True)
        return 1
    if total == 0:
        print('%s: no checks ran' % name, flush=True)
        return 1
    print('%s: all %d checks passed' % (name, total), flush=True)
    return 0


def skip(why):
    """Exit 77 (skipped), saying why."""
    print('SKIP:', why, flush=True)
    sys.exit(SKIP)
