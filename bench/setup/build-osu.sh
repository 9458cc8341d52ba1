#!/usr/bin/env bash
# Builds the OSU micro-benchmarks 7.4 against one installed MPI (OSU is not packaged in Debian 12):
# the source from bench/setup/peer-source.sh ($WB_OSU_SOURCE, else ../shared/peers, else OSU's
# release tarball), configured with that MPI's compiler wrappers and built out of tree: only the
# programs the bench launches (c/util has no Makefile: every test folder compiles OSU's utilities
# into its own programs).
# The result, or the reason there is none, goes to <out>/status.json:
#   bench/setup/build-osu.sh openmpi|mpich [out-dir]       default: build/osu-<mpi>
# On success status.json names the folder that holds osu_latency and the collective benchmarks
# ({"ok": true, "dir": ..., "source": ...}); scripts/bench.sh passes it as --osu-dir <mpi>=DIR.
# Cached: a second run with a good status.json does nothing; the default folder is installed once
# a machine (bench/setup/installed.sh), build/osu-<mpi>/status.json its copy.
set -uo pipefail
cd "$(dirname "$0")/../.."

mpi=${1:?usage: build-osu.sh openmpi|mpich [out-dir]}
out=$(realpath -m "${2:-build/osu-$mpi}")
# Installed once a machine (bench/setup/installed.sh), unless an out-dir is given.
source bench/setup/installed.sh
[ $# -ge 2 ] || install_into out "osu-$mpi" "$(cat bench/setup/build-osu.sh)" \
  "$(mpicc."$mpi" -show 2>&1)" "${WB_OSU_SOURCE:-}"
status="$out/status.json"
mkdir -p "$out"

record() { # record <ok: true|false> <key> <value> [<key> <value>]
  /usr/bin/python3 -c 'import json,sys; a=sys.argv; print(json.dumps(dict({"ok": a[1] == "true"},
    **dict(zip(a[2::2], a[3::2])))))' "$@" >"$status"
}
fail() {
  record false reason "$1"
  echo "wrapper-bench: OSU for $mpi not built: $1" >&2
  exit 0
}

# Only the programs the suites launch (a third of those folders' 61 compiles): osu_latency
# (suites/osu), the collectives' (suites/collectives/osu_coll.py) and the one-sided latency tests
# (suites/rma/rma_suite.py); bench/driver/tests/test_osu.py checks that this list holds every
# program the driver names. Each is made in its own folder of the build tree.
programs="osu_latency osu_bcast osu_allreduce osu_allgather osu_allgatherv osu_alltoall
  osu_alltoallv osu_reduce_scatter_block osu_put_latency osu_get_latency osu_acc_latency
  osu_fop_latency osu_cas_latency"
built() { # every program above is in the build tree
  local program
  for program in $programs; do
    [ -n "$(find "$out/obj/c/mpi" -name "$program" -type f -perm -u+x -print -quit 2>/dev/null)" ] ||
      return 1
  done
}
grep -q '"ok": true' "$status" 2>/dev/null && built && exit 0
command -v "mpicc.$mpi" >/dev/null || fail "$mpi (mpicc.$mpi) is not installed"

source bench/setup/peer-source.sh
src=$(peer_source osu "$(dirname "$out")/peers" 2>"$out/source.log") ||
  fail "$(tail -n1 "$out/source.log" | sed "s/^wrapper-bench: //")"
cat "$out/source.log" >&2
from=$(cat "$src/.wb-source")

# Out of tree, so one unpacked source serves both MPIs.
rm -rf "$out/obj" && mkdir -p "$out/obj"
(cd "$out/obj" && "$src/configure" CC="mpicc.$mpi" CXX="mpicxx.$mpi") >"$out/configure.log" 2>&1 ||
  fail "configure with mpicc.$mpi failed: $(tail -n1 "$out/configure.log")"
declare -A in_folder=()
for program in $programs; do
  found=$(cd "$src" && find c/mpi -name "$program.c" -print -quit)
  [ -n "$found" ] || fail "OSU's source $src has no $program.c"
  in_folder[$(dirname "$found")]+=" $program"
done
for part in "${!in_folder[@]}"; do
  # shellcheck disable=SC2086 # the folder's programs, one make target each
  make -C "$out/obj/$part" -j2 ${in_folder[$part]} >>"$out/make.log" 2>&1 ||
    fail "make in $part failed: $({ grep -m1 -E 'error|Error' "$out/make.log" ||
      tail -n1 "$out/make.log"; } | cut -c1-200)"
done
record true dir "$out/obj/c/mpi" source "$from"
echo "wrapper-bench: built OSU 7.4 against $mpi in $out/obj ($from)"
