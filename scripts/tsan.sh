#!/usr/bin/env bash
# ThreadSanitizer build and run of the thread tests (tests/threads_test.cpp) on each MPI:
#   scripts/tsan.sh [openmpi|mpich...]     default: both, where installed
# Builds build/<mpi>-tsan (Clang, -fsanitize=thread) and runs threads_test on 1, 2 and 4 ranks.
# Only thinmpi and the tests are instrumented, not the MPI library: races inside MPI are not
# seen, and the reports TSan makes about MPI's own threads are suppressed in
# tests/sanitizers/tsan.supp (each entry with its reason). docs/reliability.md says which MPI
# allows a clean run.
set -uo pipefail
cd "$(dirname "$0")/.."

mpis=("$@")
if [ ${#mpis[@]} -eq 0 ]; then
  for mpi in openmpi mpich; do command -v "mpicxx.$mpi" >/dev/null && mpis+=("$mpi"); done
fi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export TSAN_OPTIONS="suppressions=$PWD/tests/sanitizers/tsan.supp halt_on_error=0 exitcode=66 ${TSAN_OPTIONS:-}"
failed=()
for mpi in "${mpis[@]}"; do
  preset="$mpi-tsan"
  echo "=== $preset ==="
  cmake --preset "$preset" >"build/$preset.configure.log" 2>&1 || { failed+=("$preset (configure)"); continue; }
  cmake --build "build/$preset" -j 2 --target threads_test || { failed+=("$preset (build)"); continue; }
  case $mpi in
    openmpi) launch=(mpirun.openmpi --oversubscribe -n) ;;
    *) launch=(mpiexec.mpich -n) ;;
  esac
  for np in 1 2 4; do
    log="build/$preset/tsan-threads_test.${np}ranks.log"
    if "${launch[@]}" "$np" "build/$preset/tests/threads_test" >"$log" 2>&1; then
      echo "ok   threads_test on $np ranks"
    else
      echo "FAIL threads_test on $np ranks: $(grep -c 'WARNING: ThreadSanitizer' "$log") reports, see $log"
      failed+=("$preset ${np}ranks")
    fi
  done
done
if [ ${#failed[@]} -ne 0 ]; then
  echo "thinmpi: tsan FAILED: ${failed[*]}"
  exit 1
fi
echo "thinmpi: tsan clean on: ${mpis[*]}"
