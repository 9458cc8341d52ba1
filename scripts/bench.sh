#!/usr/bin/env bash
# make bench: builds what the MPICH cells need (Boost.MPI from Debian's source; mpi4py from its
# pinned source, bench/setup/peer-source.sh) and OSU 7.4 against each installed MPI
# (build/osu-<mpi>), then runs the wrapper-bench driver, which configures and builds the kernels
# of every preset (build/bench-<preset>) and writes bench-results/<timestamp>/.
#   scripts/bench.sh [--full] [--mpi openmpi,mpich] [--compiler gcc,clang] [--api ...] ...
# Every option goes to the driver: PYTHONPATH=bench/driver /usr/bin/python3 -m wrapper_bench -h
set -uo pipefail
cd "$(dirname "$0")/.."
# The driver counts the setup below in its "where the time went" table (core/timing.py).
export WB_SETUP_STARTED="${WB_SETUP_STARTED:-$(date +%s)}"

# Each is installed once a machine (bench/setup/installed.sh: /usr/local/lib/thinmpi-bench,
# WB_DEPS_PREFIX= for the clone's build/), so a later clone's setup finds them there.
# The setup's builds run side by side, each writing its result or the reason it has none to its
# own status.json: Boost.MPI and mpi4py for MPICH, and OSU for each MPI (osu_latency for the OSU
# sweep's column, its collective and one-sided programs beside those suites). mpi4py's one large
# C file and each OSU configure keep one core busy, so one after another left the other core
# idle half the time. mpi4py's build is the longest of them, so the others run niced: it keeps
# its core. The deb-src entry that Boost.MPI's source (and mpi4py's fallback) needs is added
# first, once.
mpis=()
for mpi in openmpi mpich; do
  command -v "mpicc.$mpi" >/dev/null && mpis+=("$mpi")
done
if command -v mpicxx.mpich >/dev/null; then
  mkdir -p build
  bench/setup/deb-src.sh build/apt-update.log
  nice -n 10 bench/setup/build-boost-mpi.sh &
  bench/setup/build-mpi4py.sh &
fi
for mpi in "${mpis[@]}"; do
  nice -n 10 bench/setup/build-osu.sh "$mpi" &
done
wait
# What an earlier run had installed (bench/setup/installed.sh), for the report's setup row.
found=()
for name in boost-mpi-mpich mpi4py-mpich "${mpis[@]/#/osu-}"; do
  /usr/bin/python3 -c 'import json,sys; sys.exit(not json.load(open(sys.argv[1])).get("found"))' \
    "build/$name/status.json" 2>/dev/null && found+=("$name")
done
WB_SETUP_FOUND=$(IFS=,; echo "${found[*]}")
export WB_SETUP_FOUND
# A user's --osu-dir MPI=DIR comes later and wins.
osu_dirs=()
for mpi in "${mpis[@]}"; do
  dir=$(/usr/bin/python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))
print(s["dir"] if s.get("ok") else "")' "build/osu-$mpi/status.json" 2>/dev/null)
  [ -n "$dir" ] && osu_dirs+=(--osu-dir "$mpi=$dir")
done
# The peers' sources (KaMPIng and its kassert, MPL), unpacked once under build/peers
# ($WB_PEERS_DIR), where each preset's bench/cmake/WbPeers.cmake finds them; each line says which
# source was used, or (offline, without ../shared/peers) where it was looked for and what the run
# goes without: the bench runs on, those cells listed as missing with the reason.
source bench/setup/peer-source.sh
for peer in kamping:KaMPIng kassert:KaMPIng mpl:MPL; do
  peer_source "${peer%:*}" "${WB_PEERS_DIR:-build/peers}" \
    "${peer#*:}'s cells (the report lists them as missing)" >/dev/null || true
done
PYTHONPATH=bench/driver exec /usr/bin/python3 -m wrapper_bench "${osu_dirs[@]}" "$@"
