#!/usr/bin/env python3
"""The public functions of vqhip.h (declared VQ_API) as a linker version
script: libvqhip exports them and nothing else.

    version_script.py include/vqhip.h vqhip.map
"""
import re
import sys

header, out = sys.argv[1], sys.argv[2]
names = re.findall(r'^VQ_API\b[^(;]*?\b(vq_\w+)\s*\(', open(header).read(),
                   re.M)
if not names:
    sys.exit('version_script.py: no VQ_API function in ' + header)
with open(out, 'w') as f:
    f.write('/* made by hipcore/api/version_script.py from vqhip.h */\n{\n')
    f.write('  global:\n')
    for n in sorted(set(names)):
        f.write('    %s;\n' % n)
    f.write('  local:\n    *;\n};\n')
