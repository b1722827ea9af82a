#!/bin/sh
# Every shell command README.md shows runs here, and every relative link of
# README.md and docs/ leads somewhere (README, "Tests"; docs/TESTING.md).
#
#   tests/docs/readme_commands.sh FFMPEG BUILD_DIR
#   tests/docs/readme_commands.sh --links
#
# FFMPEG is an ffmpeg built with the vqhip filter (scripts/build-ffmpeg.sh:
# .ffmpeg/build/debian/ffmpeg; its ffprobe is used when it is beside it);
# BUILD_DIR is a meson build of this repository (build/). --links checks
# only the links and needs neither.
#
# The ```sh blocks of README.md run in document order, each with "sh -e",
# in one new scratch folder, with FFMPEG's folder first on PATH, "build"
# a link to BUILD_DIR (so build/tools/vqhip is the built CLI),
# PKG_CONFIG_PATH leading to BUILD_DIR/meson-uninstalled (libvqhip's .pc
# file before installation) and stdin from /dev/null. A block fails the
# test when it exits non-zero. Conventions, written on the line right
# before a block's opening fence:
#
#   <!-- not run: REASON -->   the block is shown but not run; only for
#                              commands that cannot run in CI (a GPU)
#   <!-- file: NAME -->        the block (any language) is written to NAME
#                              in the scratch folder, for the blocks after it
#
# Lines that run ./build.sh or ./test.sh are left out: CI runs both anyway.
# Links: [text](target) and [label]: target outside code, with a scheme
# (http:, https:, mailto:) left out; the target must exist relative to the
# file, and a #fragment must name a heading of the target Markdown file
# (GitHub's anchors).
#
# Environment: KEEP=1 keeps the scratch folder; BLOCK_TIMEOUT (seconds,
# default 600) bounds each block.
# Exit status: 0 when everything passed, 1 when something failed, 2 usage.
set -u
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)

usage() {
    echo "usage: $0 FFMPEG BUILD_DIR | --links" >&2
    exit 2
}

mode=all
if [ "${1:-}" = --links ]; then
    mode=links
    [ $# -eq 1 ] || usage
else
    [ $# -eq 2 ] || usage
    [ -x "$1" ] || { echo "$0: $1 is not an executable ffmpeg" >&2; exit 2; }
    [ -d "$2" ] || { echo "$0: $2 is not a build directory" >&2; exit 2; }
    ffmpeg=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
    build=$(cd "$2" && pwd)
fi
command -v python3 >/dev/null || { echo "$0: python3 is needed" >&2; exit 2; }

scratch=
if [ "$mode" = all ]; then
    scratch=$(mktemp -d "${TMPDIR:-/tmp}/vqhip-readme.XXXXXX")
    if [ "${KEEP:-0}" = 1 ]; then
        echo "scratch folder: $scratch"
    else
        trap 'rm -rf "$scratch"' EXIT
    fi
    mkdir "$scratch/.bin"
    ln -s "$ffmpeg" "$scratch/.bin/ffmpeg"
    [ -x "$(dirname "$ffmpeg")/ffprobe" ] &&
        ln -s "$(dirname "$ffmpeg")/ffprobe" "$scratch/.bin/ffprobe"
    ln -s "$build" "$scratch/build"
    PATH=$scratch/.bin:$PATH
    PKG_CONFIG_PATH=$build/meson-uninstalled${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
    export PATH PKG_CONFIG_PATH
fi

python3 - "$repo" "$mode" "$scratch" "${BLOCK_TIMEOUT:-600}" <<'PYEOF'
import os, re, subprocess, sys, unicodedata

repo, mode, scratch, timeout = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
failures = []

def fail(msg):
    failures.append(msg)
    print('FAIL ' + msg)

FENCE = re.compile(r'^(\s*)(`{3,}|~{3,})(.*)$')

def blocks(lines):
    """(first line number, fence info, body lines, line before) of each
    fenced block; 1-based line numbers of the opening fence."""
    out, i = [], 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        fence, info, start = m.group(2), m.group(3).strip(), i
        body, i = [], i + 1
        while i < len(lines) and not (lines[i].strip().startswith(fence[0] * len(fence))
                                      and lines[i].strip().strip(fence[0]) == ''):
            body.append(lines[i])
            i += 1
        prev = lines[start - 1].strip() if start > 0 else ''
        out.append((start + 1, info, body, prev))
        i += 1
    return out

# --- links --------------------------------------------------------------
def slug(heading):
    h = re.sub(r'`([^`]*)`', r'\1', heading.strip())
    h = re.sub(r'\[([^\]]*)\]\([^)]*\)', r'\1', h)
    h = h.lower()
    h = ''.join(c for c in h if c in ' -_' or unicodedata.category(c)[0] in 'LN')
    return h.replace(' ', '-')

def outside_code(lines):
    """The file's lines with fenced blocks blanked and code spans removed."""
    text, fenced, fence = [], False, ''
    for line in lines:
        m = FENCE.match(line)
        if m and (not fenced or line.strip().startswith(fence)):
            fenced, fence = (not fenced), m.group(2)[0] * 3
            text.append('')
            continue
        text.append('' if fenced else re.sub(r'`+[^`]*`+', '', line))
    return text

anchors_cache = {}
def anchors(path):
    if path not in anchors_cache:
        seen, out = {}, set()
        with open(path, encoding='utf-8') as f:
            for line in outside_code(f.read().split('\n')):
                m = re.match(r'^#{1,6}\s+(.*?)\s*#*\s*$', line)
                if not m:
                    continue
                s = slug(m.group(1))
                n = seen.get(s, 0)
                seen[s] = n + 1
                out.add(s if n == 0 else '%s-%d' % (s, n))
        anchors_cache[path] = out
    return anchors_cache[path]

md_files = [os.path.join(repo, 'README.md')]
for d, _, names in os.walk(os.path.join(repo, 'docs')):
    md_files += [os.path.join(d, n) for n in sorted(names) if n.endswith('.md')]

n_links = 0
LINK = re.compile(r'\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)|^\s*\[[^\]]+\]:\s*(\S+)')
for md in sorted(md_files):
    rel = os.path.relpath(md, repo)
    with open(md, encoding='utf-8') as f:
        lines = outside_code(f.read().split('\n'))
    for no, line in enumerate(lines, 1):
        for m in LINK.finditer(line):
            target = m.group(1) or m.group(2)
            if re.match(r'^[a-zA-Z][a-zA-Z0-9+.-]*:', target):
                continue  # http:, https:, mailto:
            n_links += 1
            path, _, frag = target.partition('#')
            dest = os.path.normpath(os.path.join(os.path.dirname(md), path)) if path else md
            if not os.path.exists(dest):
                fail('%s:%d: link %s: %s does not exist' % (rel, no, target,
                                                           os.path.relpath(dest, repo)))
                continue
            if not os.path.realpath(dest).startswith(os.path.realpath(repo) + os.sep) \
                    and os.path.realpath(dest) != os.path.realpath(repo):
                fail('%s:%d: link %s leaves the repository' % (rel, no, target))
            if frag and dest.endswith('.md') and frag not in anchors(dest):
                fail('%s:%d: link %s: no heading with anchor #%s in %s' %
                     (rel, no, target, frag, os.path.relpath(dest, repo)))
print('links: %d relative links in %d files checked' % (n_links, len(md_files)))

# --- README's commands ------------------------------------------------------
if mode == 'all':
    with open(os.path.join(repo, 'README.md'), encoding='utf-8') as f:
        readme = f.read().split('\n')
    for no, line in enumerate(readme, 1):
        if re.match(r'^\s*<!--\s*(not run|file)\s*:', line):
            nxt = readme[no] if no < len(readme) else ''
            if not FENCE.match(nxt):
                fail('README.md:%d: "%s" is not on the line right before a block'
                     % (no, line.strip()))
    ran = skipped = 0
    for no, info, body, prev in blocks(readme):
        lang = info.split()[0] if info else ''
        m = re.match(r'^<!--\s*file:\s*(\S+)\s*-->$', prev)
        if m:
            name = m.group(1)
            if '/' in name or name.startswith('.'):
                fail('README.md:%d: file name %s: a plain name, please' % (no, name))
                continue
            with open(os.path.join(scratch, name), 'w', encoding='utf-8') as f:
                f.write('\n'.join(body) + '\n')
            print('file README.md:%d written as %s' % (no, name))
        if lang not in ('sh', 'shell', 'bash', 'console'):
            continue
        if lang != 'sh':
            fail('README.md:%d: a %s block: shell commands go in ```sh blocks' % (no, lang))
            continue
        m = re.match(r'^<!--\s*not run:\s*(.*?)\s*-->$', prev)
        if m:
            if not m.group(1):
                fail('README.md:%d: "not run" without a reason' % no)
            else:
                skipped += 1
                print('skip README.md:%d (not run: %s)' % (no, m.group(1)))
            continue
        script = [l for l in body
                  if not re.match(r'^\s*\./(build|test)\.sh(\s|$)', l)]
        if not any(l.strip() and not l.strip().startswith('#') for l in script):
            print('skip README.md:%d (./build.sh and ./test.sh: CI runs them)' % no)
            continue
        path = os.path.join(scratch, '.block-%d.sh' % no)
        with open(path, 'w', encoding='utf-8') as f:
            f.write('\n'.join(script) + '\n')
        try:
            r = subprocess.run(['sh', '-e', path], cwd=scratch, stdin=subprocess.DEVNULL,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               timeout=timeout)
            status, out = r.returncode, r.stdout.decode('utf-8', 'replace')
        except subprocess.TimeoutExpired as e:
            status, out = 'timeout (%d s)' % timeout, (e.stdout or b'').decode('utf-8', 'replace')
        ran += 1
        if status != 0:
            fail('README.md:%d: the block exited with %s' % (no, status))
            print('\n'.join('     | ' + l for l in script))
            print('\n'.join('     > ' + l for l in out.rstrip('\n').split('\n')[-25:]))
        else:
            print('ok   README.md:%d' % no)
    if ran == 0:
        fail('README.md: no sh block ran')
    print('commands: %d blocks ran, %d not run (marked)' % (ran, skipped))

print('%d failure(s)' % len(failures))
sys.exit(1 if failures else 0)
PYEOF
