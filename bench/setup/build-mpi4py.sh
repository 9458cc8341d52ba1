#!/usr/bin/env bash
# Tries to build mpi4py against MPICH from Debian's source package (Debian ships mpi4py for
# OpenMPI only). The result, or the reason there is none, goes to <out>/status.json:
#   bench/setup/build-mpi4py.sh [out-dir]       default: build/mpi4py-mpich
# On success status.json names a PYTHONPATH folder; the driver checks with ldd which MPI its
# extension links before pairing it with mpiexec.mpich. Expects the deb-src entry that
# build-boost-mpi.sh adds.
set -uo pipefail
cd "$(dirname "$0")/../.."

out=$(realpath -m "${1:-build/mpi4py-mpich}")
status="$out/status.json"
mkdir -p "$out/download"

record() { # record <ok: true|false> <key> <value>
  /usr/bin/python3 -c 'import json,sys; print(json.dumps({"ok": sys.argv[1] == "true",
    sys.argv[2]: sys.argv[3]}))' "$1" "$2" "$3" >"$status"
}
fail() {
  record false reason "$1"
  echo "wrapper-bench: mpi4py for MPICH not built: $1" >&2
  exit 0
}

first_error() { # the first "E:" line of an apt log, without the server's address
  { grep -m1 '^E: ' "$1" || tail -n1 "$1"; } | sed 's/ *\[IP:[^]]*\]//'
}

grep -q '"ok": true' "$status" 2>/dev/null && exit 0
command -v mpicc.mpich >/dev/null || fail "MPICH (mpicc.mpich) is not installed"
if ! (cd "$out/download" && apt-get source --download-only mpi4py) >"$out/fetch.log" 2>&1; then
  fail "Debian packages mpi4py for OpenMPI only, and apt-get source mpi4py could not fetch \
its source: $(first_error "$out/fetch.log")"
fi
rm -rf "$out/src" && mkdir -p "$out/src"
tar -xf "$out"/download/mpi4py_*.orig.tar.* -C "$out/src" --strip-components=1 ||
  fail "the mpi4py source tarball did not unpack"
(cd "$out/src" && MPICC=mpicc.mpich /usr/bin/python3 setup.py build_ext --inplace) \
  >"$out/build.log" 2>&1 || fail "building mpi4py with mpicc.mpich failed (see $out/build.log)"
record true pythonpath "$out/src/src"
echo "wrapper-bench: built mpi4py against MPICH in $out/src"
