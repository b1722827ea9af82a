#!/usr/bin/env python3
"""Validates JSON logs against docs/log.schema.json with mini_schema.py and,
where Python's jsonschema package is installed (Debian: python3-jsonschema),
with it too: both must accept every log. A folder argument stands for every
*.json in it (recursively) that holds a "frames" key (files there that are
not JSON are skipped unless they mention "frames"). Also checks that the
validators reject a few broken logs, so that a validator accepting anything
fails here.

usage: validate_logs.py SCHEMA LOG_OR_DIR...
"""
import copy
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mini_schema  # noqa: E402

try:
    import jsonschema
except ImportError:
    jsonschema = None


def log_files(args):
    """(path, named): named files must be logs; files found in a folder
    are logs only when they hold a "frames" key."""
    for a in args:
        if os.path.isdir(a):
            for d, _, names in sorted(os.walk(a)):
                for n in sorted(names):
                    if n.endswith('.json'):
                        yield os.path.join(d, n), False
        else:
            yield a, True


def verdicts(schema, log):
    mine = mini_schema.errors(schema, log)
    theirs = None
    if jsonschema:
        v = jsonschema.Draft202012Validator(schema)
        theirs = [e.message for e in v.iter_errors(log)]
    return mine, theirs


def main(argv):
    with open(argv[1]) as f:
        schema = json.load(f)
    if jsonschema:
        jsonschema.Draft202012Validator.check_schema(schema)
    bad = n = 0
    first_vqhip = None
    for path, named in log_files(argv[2:]):
        with open(path, errors='replace') as f:
            text = f.read()
        try:
            log = json.loads(text)
        except ValueError as e:
            # a folder's broken model file is no log; a broken log is
            if named or '"frames"' in text:
                print('FAIL %s: not JSON: %s' % (path, e))
                bad += 1
            continue
        if not isinstance(log, dict) or 'frames' not in log:
            continue  # not a log (a model, a report's data)
        n += 1
        mine, theirs = verdicts(schema, log)
        if mine or theirs:
            bad += 1
            print('FAIL %s:' % path)
            for e in (mine or [])[:10]:
                print('     mini_schema: ' + e)
            for e in (theirs or [])[:10]:
                print('     jsonschema:  ' + e)
        else:
            print('ok   %s' % path)
        if first_vqhip is None and 'vqhip' in log and log['frames']:
            first_vqhip = log
    if not n:
        print('FAIL: no JSON log found')
        return 1
    # broken logs must be refused by both validators
    if first_vqhip is not None:
        breakers = {
            'no frames': lambda l: l.pop('frames'),
            'frameNum a string': lambda l: l['frames'][0].__setitem__('frameNum', '0'),
            'a metric a string': lambda l: l['frames'][0]['metrics'].__setitem__('x', '1'),
            'bad sha256': lambda l: l['vqhip']['models'].append(
                {'name': 'm', 'version': None, 'origin': 'file', 'sha256': 'abc', 'spec': ''}),
            'an unknown top-level key': lambda l: l.__setitem__('extra', 1),
            'precision 18': lambda l: l['vqhip'].__setitem__('precision', 18),
        }
        for name, brk in breakers.items():
            log = copy.deepcopy(first_vqhip)
            brk(log)
            mine, theirs = verdicts(schema, log)
            if not mine or theirs == []:
                print('FAIL a broken log (%s) was accepted' % name)
                bad += 1
            else:
                print('ok   refused: %s' % name)
    print('%d logs, %d failed; jsonschema %s' % (n, bad, 'used' if jsonschema else
                                                'not installed (mini_schema only)'))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
