#!/usr/bin/env bash
# Builds mpi4py against MPICH (Debian ships mpi4py for OpenMPI only): first from the source that
# bench/setup/peer-source.sh finds ($WB_MPI4PY_SOURCE, else the ../shared/peers snapshot, else the
# pinned tag from GitHub) with Debian's cython3 and python3-dev, then from Debian's source package,
# then with pip in a venv. The result, or the reason there is none, goes to <out>/status.json:
#   bench/setup/build-mpi4py.sh [out-dir]       default: build/mpi4py-mpich
# On success status.json names a PYTHONPATH folder; the driver checks with ldd which MPI its
# extension links before pairing it with mpiexec.mpich. The default folder is installed once a
# machine (bench/setup/installed.sh), build/mpi4py-mpich/status.json its copy. The Debian source
# package needs a deb-src entry (bench/setup/deb-src.sh adds one where there is none).
set -uo pipefail
cd "$(dirname "$0")/../.."

out=$(realpath -m "${1:-build/mpi4py-mpich}")
# Installed once a machine (bench/setup/installed.sh), unless an out-dir is given.
source bench/setup/installed.sh
[ $# -ge 1 ] || install_into out mpi4py-mpich "$(cat bench/setup/build-mpi4py.sh)" \
  "$(mpicc.mpich -show 2>&1)" "${WB_MPI4PY_SOURCE:-}"
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
# The second way: pip builds mpi4py from its source release against MPICH in a venv (no binary
# wheel, which would bring its own MPI). It needs PyPI; where that cannot be reached, the reason
# names both ways.
pip_build() { # pip_build <why the Debian source failed>
  local venv="$out/venv" why="$1"
  rm -rf "$venv"
  if ! /usr/bin/python3 -m venv "$venv" >"$out/venv.log" 2>&1; then
    fail "$why; a venv for pip could not be made: $(tail -n1 "$out/venv.log")"
  fi
  if ! MPICC=mpicc.mpich timeout 300 "$venv/bin/pip" install --no-binary=mpi4py --retries 0 \
    --timeout 10 mpi4py >"$out/pip.log" 2>&1; then
    fail "$why; pip install --no-binary=mpi4py with MPICC=mpicc.mpich failed: \
$({ grep -m1 -E '^ERROR|Could not' "$out/pip.log" || tail -n1 "$out/pip.log"; } | cut -c1-200)"
  fi
  record true pythonpath "$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
  echo "wrapper-bench: built mpi4py against MPICH with pip in $venv"
  exit 0
}

# The first way: the pinned source, `setup.py build --mpicc=mpicc.mpich` (mpi4py 3.1's own option),
# out of the source folder so that one unpacked source serves every build.
peer_build() {
  local src from lib
  source bench/setup/peer-source.sh
  src=$(peer_source mpi4py "$(dirname "$out")/peers" 2>"$out/source.log") || {
    tail -n1 "$out/source.log" | sed "s/^wrapper-bench: //"
    return 1
  }
  cat "$out/source.log" >&2
  from=$(cat "$src/.wb-source")
  command -v cython3 >/dev/null || command -v cython >/dev/null || {
    echo "Cython is not installed (Debian: cython3)"
    return 1
  }
  rm -rf "$out/peer-build"
  if ! (cd "$src" && /usr/bin/python3 setup.py build --mpicc=mpicc.mpich \
    --build-base "$out/peer-build") >"$out/build.log" 2>&1; then
    echo "setup.py build --mpicc=mpicc.mpich of $from failed: \
$({ grep -m1 -E 'error:|Error' "$out/build.log" || tail -n1 "$out/build.log"; } | cut -c1-200)"
    return 1
  fi
  lib=$(dirname "$(find "$out/peer-build" -path '*/mpi4py/__init__.py' -print -quit)")
  [ -d "$lib" ] || {
    echo "setup.py build of $from left no mpi4py package in $out/peer-build"
    return 1
  }
  /usr/bin/python3 -c 'import json,sys; print(json.dumps({"ok": True, "pythonpath": sys.argv[1],
    "source": sys.argv[2]}))' "$(dirname "$lib")" "$from" >"$status"
  echo "wrapper-bench: built mpi4py against MPICH from $from in $(dirname "$lib")"
}
if peer_why=$(peer_build); then
  echo "$peer_why"
  exit 0
fi
echo "wrapper-bench: mpi4py from its pinned source: $peer_why; trying Debian's source package" >&2

if ! bench/setup/deb-src.sh "$out/apt-update.log" ||
  ! (cd "$out/download" && apt-get source --download-only mpi4py) >"$out/fetch.log" 2>&1; then
  pip_build "$peer_why; Debian packages mpi4py for OpenMPI only, and apt-get source mpi4py could \
not fetch its source ($(first_error "$out/fetch.log"))"
fi
rm -rf "$out/src" && mkdir -p "$out/src"
tar -xf "$out"/download/mpi4py_*.orig.tar.* -C "$out/src" --strip-components=1 ||
  fail "the mpi4py source tarball did not unpack"
(cd "$out/src" && MPICC=mpicc.mpich /usr/bin/python3 setup.py build_ext --inplace) \
  >"$out/build.log" 2>&1 || fail "building mpi4py with mpicc.mpich failed (see $out/build.log)"
record true pythonpath "$out/src/src"
echo "wrapper-bench: built mpi4py against MPICH in $out/src"
