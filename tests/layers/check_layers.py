#!/usr/bin/env python3
"""The layers of libvqhip, enforced.

Every #include "..." of every source under hipcore/ and kernels/ is
resolved as the compiler resolves it (the including file's folder first,
then the include path) and checked against ALLOWED: a layer includes its
own headers and those of the layers it lists, nothing else. Also:
  - every source under hipcore/ lies in a layer's folder;
  - no file below the API names VqContext (only api/ sees the context);
  - the public functions (VQ_API in vqhip.h) are defined in api/ only.

    check_layers.py SOURCE_ROOT          check the tree; exit 1 on a violation
    check_layers.py SOURCE_ROOT --self-test
                                         inject violations, check they are caught
"""
import os
import re
import sys

# folder -> layer; the first prefix that matches
FOLDERS = [
    ('hipcore/include/', 'public'),
    ('hipcore/base/', 'base'),
    ('hipcore/core/', 'core'),
    ('hipcore/gpu/', 'gpu'),
    ('hipcore/model/', 'model'),
    ('hipcore/extractors/', 'extractors'),
    ('hipcore/run/', 'run'),
    ('hipcore/api/', 'api'),
    ('kernels/', 'kernels'),
]

# layer -> the other layers whose headers it may include
ALLOWED = {
    'public': [],
    'kernels': [],
    'base': ['public'],
    'core': ['base', 'public'],
    'gpu': ['core', 'base', 'public', 'kernels'],
    'model': ['core', 'base', 'public'],
    'extractors': ['gpu', 'core', 'base', 'public', 'kernels'],
    'run': ['model', 'gpu', 'core', 'base', 'public'],
    'api': ['run', 'model', 'gpu', 'core', 'base', 'public'],
}

# No forwarding headers: every file names a header by its layer's path
# ("base/cpu.h", "core/extractor.h"), so a bare "cpu.h" outside base/ is not
# found.

# Headers made at build time: name -> layer.
GENERATED = {'extractor_list.h': 'core', 'revision.h': 'base'}

# The include path after the including file's folder (hipcore/meson.build,
# kernels/meson.build).
INCLUDE_DIRS = ['hipcore', 'hipcore/include', 'kernels', 'hipcore/extractors']

EXTENSIONS = ('.c', '.h', '.hip', '.cpp', '.cc', '.cu', '.cuh', '.inc')
INCLUDE_RE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)


def layer_of(path):
    for prefix, layer in FOLDERS:
        if path.startswith(prefix):
            return layer
    return None


def read_tree(root):
    files = {}
    for top in ('hipcore', 'kernels'):
        for d, _, names in os.walk(os.path.join(root, top)):
            for n in names:
                if n.endswith(EXTENSIONS):
                    p = os.path.join(d, n)
                    rel = os.path.relpath(p, root).replace(os.sep, '/')
                    with open(p, encoding='utf-8', errors='replace') as f:
                        files[rel] = f.read()
    return files


def resolve(files, src, name):
    """The file `name` names from `src` (None: not found)."""
    for d in [os.path.dirname(src)] + INCLUDE_DIRS:
        p = os.path.normpath(os.path.join(d, name)).replace(os.sep, '/')
        if p in files:
            return p
    return None


_STRIP = re.compile(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|'
                    r"'(?:\\.|[^'\\\n])*'", re.S)
_code = {}


def code_only(text):
    """text without comments, strings and character constants."""
    if text not in _code:
        _code[text] = _STRIP.sub(' ', text)
    return _code[text]


def check(files):
    bad = []
    for src in sorted(files):
        text = files[src]
        layer = layer_of(src)
        if layer is None:
            bad.append('%s: in no layer (hipcore/meson.build lists them: put '
                       'it in the folder of its layer)' % src)
            continue
        for m in INCLUDE_RE.finditer(text):
            name = m.group(1)
            line = text.count('\n', 0, m.start()) + 1
            where = '%s:%d: #include "%s"' % (src, line, name)
            target = resolve(files, src, name)
            if target is None:
                base = os.path.basename(name)
                if base in GENERATED:
                    tl = GENERATED[base]
                else:
                    bad.append('%s: not found' % where)
                    continue
            else:
                tl = layer_of(target)
            if tl is None:
                bad.append('%s: %s is in no layer' % (where, target))
            elif tl != layer and tl not in ALLOWED[layer]:
                bad.append('%s: %s may not include %s (it may include: %s)'
                           % (where, layer, tl,
                              ', '.join([layer] + ALLOWED[layer])))
        if src.startswith('hipcore/') and layer not in ('api', 'public'):
            code = code_only(text)
            if re.search(r'\bVqContext\b', code):
                bad.append('%s: names VqContext, which only api/ sees (take '
                           'the narrower state the stage works on)' % src)
    public = re.findall(r'^VQ_API\b[^(;]*?\b(vq_\w+)\s*\(',
                        files.get('hipcore/include/vqhip.h', ''), re.M)
    defines = re.compile(r'^[A-Za-z_][^;{}()\n]*\b(%s)\s*\([^;{}]*\)\s*\{'
                         % '|'.join(public), re.M) if public else None
    for src in sorted(files):
        if (not src.endswith('.c') or src.startswith('hipcore/api/') or
                not defines):
            continue
        for m in defines.finditer(code_only(files[src])):
            bad.append('%s: defines %s, a public function (vqhip.h): '
                       'public functions are defined in hipcore/api/'
                       % (src, m.group(1)))
    return bad


def self_test(files):
    """Each injected violation must be reported, the tree as it is not."""
    cases = [
        ('hipcore/base/log.c', '#include "run/pipeline.h"\n', 'base may not include run'),
        ('hipcore/core/fex.c', '#include "gpu/gpu.h"\n', 'core may not include gpu'),
        ('hipcore/gpu/staging.c', '#include "model/model.h"\n', 'gpu may not include model'),
        ('hipcore/run/verify.c', '#include "api/context.h"\n', 'run may not include api'),
        ('hipcore/model/svm.c', '#include "../run/selection.h"\n', 'model may not include run'),
        ('hipcore/extractors/psnr/psnr.c', '#include "../../run/cpu_run.h"\n',
         'extractors may not include run'),
        ('kernels/probe.hip', '#include "../hipcore/base/cpu.h"\n', 'kernels may not include base'),
        ('hipcore/run/gpu_run.c', '#include "cpu.h"\n', 'not found'),
        ('hipcore/extractors/psnr/psnr.c', '#include "../../cpu.h"\n', 'not found'),
        ('hipcore/run/color.c', 'static VqContext *ctx;\n', 'names VqContext'),
        ('hipcore/core/picture.c', 'const char *vq_version(void) { return ""; }\n',
         'public function'),
        ('hipcore/stray.c', '', 'in no layer'),
        ('hipcore/base/clock.c', '#include "no_such_header.h"\n', 'not found'),
    ]
    clean = check(files)
    if clean:
        print('self-test: the tree itself has violations:\n  ' +
              '\n  '.join(clean))
        return 1
    failed = 0
    for path, line, expect in cases:
        if path not in files and not path.endswith('stray.c'):
            print('self-test: %s is gone; pick another file' % path)
            failed += 1
            continue
        tree = dict(files)
        tree[path] = tree.get(path, '') + line
        found = [b for b in check(tree) if b.startswith(path) and expect in b]
        print('self-test: %-32s %-36s %s' % (path, line.strip()[:36],
                                             'caught' if found else 'MISSED'))
        failed += not found
    return 1 if failed else 0


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    files = read_tree(sys.argv[1])
    if not any(f.startswith('hipcore/include/') for f in files):
        sys.exit('check_layers.py: no hipcore/include/ under ' + sys.argv[1])
    if '--self-test' in sys.argv[2:]:
        return self_test(files)
    bad = check(files)
    for b in bad:
        print(b)
    n = len(files)
    print('%d files under hipcore/ and kernels/: %s' %
          (n, '%d layer violations' % len(bad) if bad else 'layers hold'))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
