#!/usr/bin/env bash
# valgrind memcheck of the 2-rank test suites, each rank under valgrind, on each MPI:
#   scripts/valgrind.sh [preset...]     default: openmpi-gcc and mpich-gcc (those installed)
# Builds the suites in build/<preset> if needed. A suite fails on any memcheck error or
# definite leak (--error-exitcode). The MPI libraries' own reports are suppressed by Open MPI's
# shipped file (/usr/share/openmpi/openmpi-valgrind.supp) and tests/sanitizers/valgrind.supp
# (each entry with its reason); thinmpi's code has none. large_count_test is left out: it moves
# 2^31 elements, hours under valgrind; so is bug_classes_test (3000 communicators).
set -uo pipefail
cd "$(dirname "$0")/.."

suites=(p2p_test errors_test nonblocking_test datatype_test communicator_test environment_test
  completion_matrix_test bad_input_test threads_test recv_reuse_test framed_test
  collectives_bcast_test collectives_gather_test collectives_scatter_test
  collectives_allgather_test collectives_alltoall_test collectives_reduce_test
  collectives_reduce_scatter_test collectives_scan_test serialization_test
  serialization_decode_test serialization_collectives_test)
presets=("$@")
if [ ${#presets[@]} -eq 0 ]; then
  for mpi in openmpi mpich; do
    command -v "mpicxx.$mpi" >/dev/null && presets+=("$mpi-gcc")
  done
fi
command -v valgrind >/dev/null || { echo "thinmpi: valgrind is not installed (apt-get install valgrind)"; exit 1; }

export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
failed=()
for preset in "${presets[@]}"; do
  echo "=== valgrind: $preset ==="
  cmake --preset "$preset" >/dev/null || { failed+=("$preset (configure)"); continue; }
  cmake --build "build/$preset" -j 2 --target "${suites[@]}" >/dev/null ||
    { failed+=("$preset (build)"); continue; }
  case $preset in
    openmpi-*) launch=(mpirun.openmpi -n 2 --oversubscribe)
      supp=(--suppressions=/usr/share/openmpi/openmpi-valgrind.supp) ;;
    *) launch=(mpiexec.mpich -n 2); supp=() ;;
  esac
  for suite in "${suites[@]}"; do
    log="build/$preset/valgrind-$suite.log"
    start=$SECONDS
    if "${launch[@]}" valgrind --tool=memcheck --error-exitcode=42 --leak-check=full \
      --show-leak-kinds=definite --errors-for-leak-kinds=definite --track-origins=no --num-callers=40 \
      "${supp[@]}" --suppressions=tests/sanitizers/valgrind.supp \
      "build/$preset/tests/$suite" >"$log" 2>&1; then
      echo "ok   $suite ($((SECONDS - start)) s)"
    else
      echo "FAIL $suite ($((SECONDS - start)) s): see $log"
      failed+=("$preset $suite")
    fi
  done
done
if [ ${#failed[@]} -ne 0 ]; then
  echo "thinmpi: valgrind FAILED: ${failed[*]}"
  exit 1
fi
echo "thinmpi: valgrind clean on: ${presets[*]}"
