#!/usr/bin/env python3
"""Compiles a .hip file for the emulated device (-Dhip_platform=emu).

usage: emu_hipcc.py CXX KERNELS_DIR INPUT OUTPUT DEPFILE [CXX_ARGS...]

1. The host C++ compiler preprocesses the file as HIP's device pass would
   see it (__HIP__, __HIP_DEVICE_COMPILE__), with emu/hip_emu.h included
   first as hipcc includes the HIP runtime header; it writes DEPFILE.
2. The preprocessed text is rewritten where HIP syntax is not C++:
   k<<<grid, block, shm, stream>>>(args) becomes
   vq_emu::launch("k", vq_emu::Config(grid, block, shm, stream),
                  [](auto &&...a) { k(a...); }, args);
   `extern __shared__ T name[];` becomes a pointer to the launch's dynamic
   shared memory; a `__shared__` declaration becomes a static one followed
   by a call per variable that lets the runtime fill it with junk when the
   first thread of a block reaches it (and count the block's shared
   memory); `#pragma unroll`
   (a hint the host compiler does not know) is dropped.
3. The host C++ compiler compiles the result (line markers keep the
   diagnostics on the original files).
"""
import os
import re
import subprocess
import sys
import tempfile



class RewriteError(Exception):
    pass


def match_back_angle(s, close):
    """Index of the '<' that opens the template argument list ending at
    s[close] == '>'."""
    depth = 0
    i = close
    while i >= 0:
        c = s[i]
        if c in '>)]':
            depth += 1
        elif c in '<([':
            depth -= 1
            if depth == 0:
                if c != '<':
                    raise RewriteError('unbalanced template arguments')
                return i
        i -= 1
    raise RewriteError('unbalanced template arguments')


def kernel_start(s, end):
    """Start of the kernel expression that ends just before s[end]."""
    i = end - 1
    while i >= 0 and s[i].isspace():
        i -= 1
    if i >= 0 and s[i] == '>':
        i = match_back_angle(s, i) - 1
        while i >= 0 and s[i].isspace():
            i -= 1
    j = i
    while j >= 0 and (s[j].isalnum() or s[j] in '_:'):
        j -= 1
    if j == i:
        raise RewriteError('no kernel name before <<<')
    return j + 1


def match_forward(s, i, close):
    """Index just past the text that closes at depth 0 with `close`,
    scanning from s[i] (inside the opening bracket)."""
    depth = 0
    while i < len(s):
        if depth == 0 and s.startswith(close, i):
            return i
        c = s[i]
        if c in '([{':
            depth += 1
        elif c in ')]}':
            depth -= 1
            if depth < 0:
                raise RewriteError('unbalanced brackets in a launch')
        elif c == '"':
            i = s.index('"', i + 1)
        i += 1
    raise RewriteError('unterminated launch')


def rewrite_launches(s):
    out = []
    pos = 0
    while True:
        k = s.find('<<<', pos)
        if k < 0:
            out.append(s[pos:])
            return ''.join(out)
        start = kernel_start(s, k)
        if start < pos:
            raise RewriteError('overlapping launches')
        cfg_end = match_forward(s, k + 3, '>>>')
        a = cfg_end + 3
        while a < len(s) and s[a].isspace():
            a += 1
        if a >= len(s) or s[a] != '(':
            raise RewriteError('no argument list after >>>')
        args_end = match_forward(s, a + 1, ')')
        expr = s[start:k]
        name = ' '.join(expr.split())
        args = s[a + 1:args_end]
        out.append(s[pos:start])
        out.append('vq_emu::launch("%s", vq_emu::Config(%s), '
                   '[](auto &&...vq_emu_a) { %s(vq_emu_a...); }%s)' %
                   (name, s[k + 3:cfg_end], expr,
                    ', ' + args if args.strip() else args))
        pos = args_end + 1


DYN_SHARED = re.compile(
    r'extern\s+__shared__\s+((?:__attribute__\s*\(\(.*?\)\)\s*)*)'
    r'([A-Za-z_][\w\s:<>,]*?)\s*(\w+)\s*\[\s*\]\s*;')


IDENT = re.compile(r'[A-Za-z_]\w*')


def statement_end(s, i):
    """Index of the ';' that ends the statement starting at s[i]."""
    depth = 0
    while i < len(s):
        c = s[i]
        if c in '([{':
            depth += 1
        elif c in ')]}':
            depth -= 1
        elif c == ';' and depth == 0:
            return i
        i += 1
    raise RewriteError('unterminated __shared__ declaration')


def split_top(text, sep):
    parts, depth, cur = [], 0, []
    for c in text:
        if c in '([{':
            depth += 1
        elif c in ')]}':
            depth -= 1
        if c == sep and depth == 0:
            parts.append(''.join(cur))
            cur = []
        else:
            cur.append(c)
    parts.append(''.join(cur))
    return parts


def declarator_name(decl, first):
    """The variable a declarator declares: in the first one, the last
    identifier before its array bounds (what precedes it is the type); in
    the others, the first identifier."""
    head = decl.split('[', 1)[0]
    head = re.sub(r'__attribute__\s*\(\(.*?\)\)', ' ', head)
    names = IDENT.findall(head)
    if not names:
        raise RewriteError('a __shared__ declaration without a name')
    return names[-1] if first else names[0]


def rewrite_shared(s):
    out = []
    pos = 0
    for m in re.finditer(r'\b__shared__\b', s):
        if m.start() < pos:
            continue
        end = statement_end(s, m.end())
        decls = split_top(s[m.end():end], ',')
        names = [declarator_name(d, i == 0) for i, d in enumerate(decls)]
        out.append(s[pos:m.start()])
        out.append('static' + s[m.end():end] + ';')
        for n in names:
            out.append(' static unsigned long long vq_emu_block_of_%s;'
                       ' vq_emu_shared_init(&%s, sizeof(%s),'
                       ' &vq_emu_block_of_%s);' % (n, n, n, n))
        pos = end + 1
    out.append(s[pos:])
    return ''.join(out)


def rewrite(s):
    s = DYN_SHARED.sub(
        lambda m: '%s *%s = (%s *)vq_emu_dynamic_shared();' %
        (m.group(2).strip(), m.group(3), m.group(2).strip()), s)
    s = rewrite_shared(s)
    s = re.sub(r'^[ \t]*#[ \t]*pragma[ \t]+unroll\b.*$', '', s,
               flags=re.MULTILINE)
    return rewrite_launches(s)


def main(argv):
    if len(argv) < 6:
        sys.stderr.write(__doc__)
        return 2
    cxx, kdir, src, obj, dep = argv[1:6]
    extra = argv[6:]
    defines = ['-D__HIP__=1', '-D__HIP_DEVICE_COMPILE__=1', '-DVQ_HIP_EMU=1',
               '-include', os.path.join(kdir, 'emu', 'hip_emu.h'),
               '-I' + kdir]
    fd, ii = tempfile.mkstemp(suffix='.ii', dir=os.path.dirname(obj) or '.')
    os.close(fd)
    cpp_file = ii[:-3] + '.emu.cpp'
    try:
        r = subprocess.run([cxx, '-E', '-x', 'c++', '-std=c++17'] + defines +
                           extra + [src, '-o', ii, '-MD', '-MF', dep,
                                    '-MT', obj])
        if r.returncode:
            return r.returncode
        with open(ii) as f:
            text = f.read()
        try:
            text = rewrite(text)
        except RewriteError as e:
            sys.stderr.write('%s: %s\n' % (src, e))
            return 1
        with open(cpp_file, 'w') as f:
            f.write(text)
        r = subprocess.run([cxx, '-x', 'c++', '-std=c++17', '-c', cpp_file,
                            '-o', obj] + extra)
        return r.returncode
    finally:
        for p in (ii, cpp_file):
            if os.path.exists(p):
                os.unlink(p)


if __name__ == '__main__':
    sys.exit(main(sys.argv))
