#!/bin/sh
# Compiles libvmaf_values.c against a libvmaf built and installed outside
# this repository, for the tests' *_expect.sh generators.
#   libvmaf_values.sh LIBVMAF_PREFIX OUTPUT_BINARY
# LIBVMAF_PREFIX: where that libvmaf is installed (include/libvmaf/,
# lib*/libvmaf.so), the one the generated headers name: upstream
# Netflix/vmaf at commit
#   f85a853692a8c730d0270cd733c8bb30b5b93b7c (v3.2.0-13)
# built with meson --buildtype=release -Denable_float=true (asm, avx512 and
# the built-in models left on, as by default), installed with --prefix.
set -eu
prefix=${1:?usage: libvmaf_values.sh LIBVMAF_PREFIX OUTPUT_BINARY}
out=${2:?usage: libvmaf_values.sh LIBVMAF_PREFIX OUTPUT_BINARY}
here=$(cd "$(dirname "$0")" && pwd)
lib=$(find "$prefix" -name libvmaf.so | head -1)
if [ -z "$lib" ] || [ ! -f "$prefix/include/libvmaf/libvmaf.h" ]; then
    echo "libvmaf_values.sh: no installed libvmaf in $prefix" >&2
    exit 1
fi
libdir=$(dirname "$lib")
cc -O2 -std=c11 -Wall -Wextra -Wmissing-prototypes \
    -I"$prefix/include" "$here/libvmaf_values.c" -o "$out" \
    -L"$libdir" -Wl,-rpath,"$libdir" -lvmaf -lm
