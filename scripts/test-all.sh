#!/usr/bin/env bash
# Builds and runs every test on every MPI implementation installed, with GCC and with Clang.
# Then the runtime tests once more per MPI under AddressSanitizer + UndefinedBehaviorSanitizer
# (openmpi-asan with GCC, mpich-asan with Clang; docs/reliability.md); THINMPI_SANITIZE=0 leaves
# them out.
#   scripts/test-all.sh [preset...]     default: every preset whose MPI is installed
set -uo pipefail
cd "$(dirname "$0")/.."

jobs=$(nproc)
presets=("$@")
if [ ${#presets[@]} -eq 0 ]; then
  for mpi in openmpi mpich; do
    command -v "mpicxx.$mpi" >/dev/null || { echo "thinmpi: $mpi not installed, skipped"; continue; }
    presets+=("$mpi-gcc" "$mpi-clang")
    [ "${THINMPI_SANITIZE:-1}" = 1 ] && presets+=("$mpi-asan")
  done
fi

# The tests labelled multihost need network namespaces: where they cannot be made, say once
# why ctest will list them as skipped.
scripts/cluster.sh check || true

failed=()
for preset in "${presets[@]}"; do
  echo "=== $preset ==="
  mkdir -p build
  if ! cmake --preset "$preset" >"build/$preset.configure.log" 2>&1; then
    cat "build/$preset.configure.log"; failed+=("$preset (configure)"); continue
  fi
  cmake --build --preset "$preset" -j "$jobs" || { failed+=("$preset (build)"); continue; }
  ctest --preset "$preset" -j "$jobs" || failed+=("$preset (tests)")
done

if [ ${#failed[@]} -ne 0 ]; then
  echo "thinmpi: FAILED: ${failed[*]}"
  exit 1
fi
echo "thinmpi: all tests passed on: ${presets[*]}"
