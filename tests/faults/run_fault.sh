#!/usr/bin/env bash
# Runs a job that must fail and checks that it ends well: with a non-zero exit, a message, within
# a bound, and with no rank process left running. Prints the measured end time.
#
#   run_fault.sh <name> <bound-seconds> <program> <mpiexec> <args>...
#
# <program> is the path of the rank executable (to look for survivors); <mpiexec> <args>... is
# the whole launch command. Survivors are killed (by pid) after they are reported.
set -u
name=$1 bound=$2 program=$3
shift 3

out=$(mktemp)
trap 'rm -f "$out"' EXIT
start=$(date +%s.%N)
timeout -k 5 "$bound" "$@" >"$out" 2>&1
rc=$?
end=$(date +%s.%N)
elapsed=$(echo "$end - $start" | bc)

fail=0
if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ] && [ "$(echo "$elapsed >= $bound" | bc)" -eq 1 ]; then
  echo "FAIL: $name did not end within $bound s"
  fail=1
elif [ "$rc" -eq 0 ]; then
  echo "FAIL: $name exited 0"
  fail=1
fi
if [ ! -s "$out" ]; then
  echo "FAIL: $name ended without a message"
  fail=1
fi
# Ranks may take a moment to go after the launcher returns.
survivors=""
for _ in $(seq 50); do
  survivors=$(pgrep -f "^$program( |$)" || true)
  [ -z "$survivors" ] && break
  sleep 0.1
done
if [ -n "$survivors" ]; then
  echo "FAIL: $name left rank processes running: $survivors"
  kill -9 $survivors 2>/dev/null
  fail=1
fi
echo "--- output of $name (first 15 lines) ---"
head -n 15 "$out"
echo "---"
printf 'thinmpi fault %s: ended in %.1f s (bound %s s), exit %d, no survivors: %s\n' \
  "$name" "$elapsed" "$bound" "$rc" "$([ -z "$survivors" ] && echo yes || echo no)"
exit $fail
