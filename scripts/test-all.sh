#!/usr/bin/env bash
# Builds and runs every test on every MPI implementation installed, with GCC and with Clang.
# Then the runtime tests once more per MPI under AddressSanitizer + UndefinedBehaviorSanitizer
# (openmpi-asan-clang and mpich-asan, both Clang, whose builds took 40 % less time than GCC's;
# make sanitize-all adds GCC's: docs/reliability.md); THINMPI_SANITIZE=0 leaves them out.
#   scripts/test-all.sh [preset...]     default: every preset whose MPI is installed
set -uo pipefail
cd "$(dirname "$0")/.."

jobs=$(nproc)
presets=("$@")
if [ ${#presets[@]} -eq 0 ]; then
  for mpi in openmpi mpich; do
    command -v "mpicxx.$mpi" >/dev/null || { echo "thinmpi: $mpi not installed, skipped"; continue; }
    presets+=("$mpi-gcc" "$mpi-clang")
    sanitized=$mpi-asan
    [ "$mpi" = openmpi ] && sanitized=openmpi-asan-clang
    [ "${THINMPI_SANITIZE:-1}" = 1 ] && presets+=("$sanitized")
  done
fi

# The tests labelled multihost need network namespaces: where they cannot be made, say once
# why ctest will list them as skipped.
scripts/cluster.sh check || true

failed=()
failed_tests=()
times=()
for preset in "${presets[@]}"; do
  echo "=== $preset ==="
  mkdir -p build
  if ! cmake --preset "$preset" >"build/$preset.configure.log" 2>&1; then
    cat "build/$preset.configure.log"; failed+=("$preset (configure)"); continue
  fi
  start=$SECONDS
  cmake --build --preset "$preset" -j "$jobs" || { failed+=("$preset (build)"); continue; }
  built=$SECONDS
  if ! ctest --preset "$preset" -j "$jobs" 2>&1 | tee "build/$preset.ctest.log"; then
    failed+=("$preset (tests)")
    failed_tests+=("$preset")
  fi
  times+=("$preset: build $((built - start)) s, tests $((SECONDS - built)) s")
done

# CI keeps the end of this output: name each failed test there, with the end of what it printed
# and whether it failed again when run once more alone (a second failure is not a flake; either
# way the preset stays failed).
for preset in "${failed_tests[@]}"; do
  list="build/$preset/Testing/Temporary/LastTestsFailed.log"
  [ -f "$list" ] || continue
  names=$(cut -d: -f2- "$list")
  again=$(ctest --preset "$preset" --rerun-failed 2>&1 | grep -E '\*\*\*|Not Run|Timeout' || true)
  while read -r name; do
    echo "--- $preset: $name failed; the end of its output:"
    awk -v name="$name" '
      index($0, "Test #") && index($0, ": " name " ") { on = 1; print; next }
      on && (/^ +Start +[0-9]+:/ || /^ *[0-9]+\/[0-9]+ Test +#/) { on = 0 }
      on { print }' "build/$preset.ctest.log" | tail -n 25
    if grep -qF ": $name " <<<"$again"; then
      echo "--- $preset: $name failed again when run alone"
    else
      echo "--- $preset: $name passed when run alone"
    fi
  done <<<"$names"
done

printf 'thinmpi: %s\n' "${times[@]}" "test-all: $SECONDS s"
if [ ${#failed[@]} -ne 0 ]; then
  echo "thinmpi: FAILED: ${failed[*]}"
  exit 1
fi
echo "thinmpi: all tests passed on: ${presets[*]}"
