#!/usr/bin/env python3
"""One entry of a generated *_expect.h table: the per-frame metrics of a
libvmaf JSON log as a C initializer,

    { "LABEL", ...,
      { "key", ..., NULL },
      {
        { value, ... },     one row per frame, printed with %.6f as libvmaf does
      } },

usage: libvmaf_expect.py LOG.json [--same OTHER.json] LABEL...
--same: OTHER.json is the same run on another of libvmaf's code paths; the
two logs' metrics must be equal (the script fails otherwise).
"""
import json
import sys


def main(argv):
    log, rest = argv[0], argv[1:]
    frames = json.load(open(log))["frames"]
    if rest[:1] == ["--same"]:
        other_log, rest = rest[1], rest[2:]
        other = json.load(open(other_log))["frames"]
        if [f["metrics"] for f in frames] != [f["metrics"] for f in other]:
            sys.exit("%s and %s differ (%s)" % (log, other_log, " ".join(rest)))
    keys = list(frames[0]["metrics"].keys())
    print('    { %s,' % ", ".join('"%s"' % label for label in rest))
    print('      { %s, NULL },' % ", ".join('"%s"' % k for k in keys))
    print('      {')
    for f in frames:
        print('        { %s },' % ", ".join("%.6f" % f["metrics"][k]
                                            for k in keys))
    print('      } },')


if __name__ == "__main__":
    main(sys.argv[1:])
