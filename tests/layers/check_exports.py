#!/usr/bin/env python3
"""A shared libvqhip exports exactly the functions vqhip.h declares VQ_API.

    check_exports.py vqhip.h libvqhip.so
"""
import re
import subprocess
import sys

header, lib = sys.argv[1], sys.argv[2]
public = set(re.findall(r'^VQ_API\b[^(;]*?\b(vq_\w+)\s*\(',
                        open(header).read(), re.M))
out = subprocess.run(['nm', '-D', '--defined-only', lib], check=True,
                     capture_output=True, text=True).stdout
exported = set()
for line in out.splitlines():
    f = line.split()
    if len(f) >= 3 and f[1] in 'TtWwDdBbRrVviu' and f[1].isupper():
        exported.add(f[2].split('@')[0])
extra = sorted(exported - public)
missing = sorted(public - exported)
for name in extra:
    print('exported, not in vqhip.h: ' + name)
for name in missing:
    print('declared in vqhip.h, not exported: ' + name)
print('%s: %d symbols exported, %d public functions' % (lib, len(exported),
                                                        len(public)))
sys.exit(1 if extra or missing else 0)
