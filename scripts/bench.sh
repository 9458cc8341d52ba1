#!/usr/bin/env bash
# make bench: builds what the MPICH cells need (Boost.MPI from Debian's source; mpi4py where
# Debian serves its source), then runs the wrapper-bench driver, which configures and builds the
# kernels of every preset (build/bench-<preset>) and writes bench-results/<timestamp>/.
#   scripts/bench.sh [--full] [--mpi openmpi,mpich] [--compiler gcc,clang] [--api ...] ...
# Every option goes to the driver: PYTHONPATH=bench/driver /usr/bin/python3 -m wrapper_bench -h
set -uo pipefail
cd "$(dirname "$0")/.."

if command -v mpicxx.mpich >/dev/null; then
  bench/setup/build-boost-mpi.sh
  bench/setup/build-mpi4py.sh
fi
PYTHONPATH=bench/driver exec /usr/bin/python3 -m wrapper_bench "$@"
