#!/usr/bin/env bash
# Builds the OSU micro-benchmarks 7.4 against one installed MPI (OSU is not packaged in Debian 12):
# the source from bench/setup/peer-source.sh ($WB_OSU_SOURCE, else ../shared/peers, else OSU's
# release tarball), configured with that MPI's compiler wrappers and built only where the bench
# reads it (the standard point-to-point tests, the collectives, one-sided; c/util has no Makefile:
# every test folder compiles OSU's utilities into its own programs), out of tree.
# The result, or the reason there is none, goes to <out>/status.json:
#   bench/setup/build-osu.sh openmpi|mpich [out-dir]       default: build/osu-<mpi>
# On success status.json names the folder that holds osu_latency and the collective benchmarks
# ({"ok": true, "dir": ..., "source": ...}); scripts/bench.sh passes it as --osu-dir <mpi>=DIR.
# Cached: a second run with a good status.json does nothing.
set -uo pipefail
cd "$(dirname "$0")/../.."

mpi=${1:?usage: build-osu.sh openmpi|mpich [out-dir]}
out=$(realpath -m "${2:-build/osu-$mpi}")
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

grep -q '"ok": true' "$status" 2>/dev/null && [ -x "$out/obj/c/mpi/pt2pt/standard/osu_latency" ] &&
  exit 0
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
for part in c/mpi/pt2pt/standard c/mpi/collective c/mpi/one-sided; do
  make -C "$out/obj/$part" -j2 >>"$out/make.log" 2>&1 ||
    fail "make in $part failed: $({ grep -m1 -E 'error|Error' "$out/make.log" ||
      tail -n1 "$out/make.log"; } | cut -c1-200)"
done
record true dir "$out/obj/c/mpi" source "$from"
echo "wrapper-bench: built OSU 7.4 against $mpi in $out/obj ($from)"
