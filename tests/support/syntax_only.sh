#!/bin/sh
# The compiler launcher of thinmpi_header_check (tests/CMakeLists.txt): runs the compile
# command it is given with -fsyntax-only, as checking that a header compiles on its own needs
# no object code (a quarter less time than a -O3 compile), then creates the object file the
# command names, empty, so that make sees it built and does not build it again.
out=""
previous=""
for argument in "$@"; do
  [ "$previous" = "-o" ] && out="$argument"
  previous="$argument"
done
"$@" -fsyntax-only || exit $?
[ -z "$out" ] || : > "$out"
