#!/usr/bin/env bash
# Builds Boost.MPI against MPICH from Debian's boost1.74 source package (Debian ships Boost.MPI for
# OpenMPI only). The result, or the reason there is none, is recorded in <out>/status.json:
#   bench/setup/build-boost-mpi.sh [out-dir]       default: build/boost-mpi-mpich
# Cached: a second run with a good status.json does nothing; the default folder is installed once
# a machine (bench/setup/installed.sh), build/boost-mpi-mpich/status.json its copy. Adds a
# deb-src entry for bookworm when there is none (bench/setup/deb-src.sh).
set -uo pipefail
cd "$(dirname "$0")/../.."

out=$(realpath -m "${1:-build/boost-mpi-mpich}")
# Installed once a machine (bench/setup/installed.sh), unless an out-dir is given.
source bench/setup/installed.sh
[ $# -ge 1 ] || install_into out boost-mpi-mpich "$(cat bench/setup/build-boost-mpi.sh)" \
  "$(mpicxx.mpich -show 2>&1)"
src="$out/src"
status="$out/status.json"
mkdir -p "$out"

record_failure() {
  /usr/bin/python3 -c 'import json,sys; print(json.dumps({"ok": False, "reason": sys.argv[1]}))' \
    "$1" >"$status"
  echo "wrapper-bench: Boost.MPI for MPICH not built: $1" >&2
  exit 0
}

if grep -q '"ok": true' "$status" 2>/dev/null && [ -f "$out/lib/libboost_mpi-mpich.so" ]; then
  exit 0
fi
command -v mpicxx.mpich >/dev/null || record_failure "MPICH (mpicxx.mpich) is not installed"

fetch_source() {
  mkdir -p "$out/download"
  ls "$out"/download/boost1.74_*.orig.tar.* >/dev/null 2>&1 && return 0
  (cd "$out/download" && apt-get source --download-only boost1.74) >"$out/fetch.log" 2>&1
}

extract_mpi_sources() {
  rm -rf "$src" && mkdir -p "$src"
  tar -xf "$out"/download/boost1.74_*.orig.tar.* -C "$src" --strip-components=1 \
    --wildcards '*/libs/mpi/src/*.cpp' '*/libs/mpi/src/*.hpp'
}

compile_library() {
  local flags=(-O2 -fPIC -std=c++14 -DNDEBUG -DBOOST_MPI_DYN_LINK -DBOOST_MPI_SOURCE
    -DBOOST_SERIALIZATION_DYN_LINK -I"$src/libs/mpi/src")
  mkdir -p "$out/obj" "$out/lib"
  find "$src/libs/mpi/src" -maxdepth 1 -name '*.cpp' -print0 |
    xargs -0 -P "$(nproc)" -I{} sh -c 'mpicxx.mpich "$@" -c {} -o "'"$out"'/obj/$(basename {}).o"' \
      _ "${flags[@]}" || return 1
  mpicxx.mpich -shared -Wl,-soname,libboost_mpi-mpich.so "$out"/obj/*.o \
    -lboost_serialization -o "$out/lib/libboost_mpi-mpich.so"
}

bench/setup/deb-src.sh "$out/apt-update.log" ||
  record_failure "no deb-src entry and not root, so apt-get source cannot be used"
fetch_source || {
  apt-get update -q >>"$out/apt-update.log" 2>&1
  fetch_source || record_failure "apt-get source boost1.74 failed: $({ grep -m1 '^E: ' \
    "$out/fetch.log" || tail -n1 "$out/fetch.log"; } | sed 's/ *\[IP:[^]]*\]//')"
}
extract_mpi_sources || record_failure "boost1.74 source has no libs/mpi/src"
compile_library >"$out/compile.log" 2>&1 ||
  record_failure "compiling Boost.MPI with mpicxx.mpich failed: $(tail -n3 "$out/compile.log")"
# grep reads all of ldd's output: with pipefail, `grep -q` quitting at the first match made a
# slower ldd die of SIGPIPE and the check fail on a good library (seen with the builds niced).
ldd "$out/lib/libboost_mpi-mpich.so" | grep libmpich >/dev/null ||
  record_failure "the Boost.MPI built does not link libmpich (ldd)"

version=$(ls "$out"/download/boost1.74_*.dsc | sed 's/.*boost1.74_\(.*\)\.dsc/\1/')
/usr/bin/python3 -c 'import json,sys; print(json.dumps({"ok": True, "mpi": "mpich",
  "library": sys.argv[1], "source": "Debian source package boost1.74 " + sys.argv[2]}))' \
  "$out/lib/libboost_mpi-mpich.so" "$version" >"$status"
echo "wrapper-bench: built $out/lib/libboost_mpi-mpich.so against MPICH"
