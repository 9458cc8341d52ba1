#!/usr/bin/env bash
# Runs a job that must fail and checks that it ends the way this fault ends: within a bound,
# with the exit status the launcher reports for it, with each expected message, with no line
# of the program's own failures ("fault: ..."), and with no rank process left running. Prints
# the measured end time.
#
#   run_fault.sh <name> <bound-seconds> <program> <status> <message-regex>... -- <mpiexec> <args>...
#
# <program> is the path of the rank executable (to look for survivors); <status> the exit
# status mpiexec must return (or a comma-separated list of the statuses it may return); each <message-regex> (grep -E) must match the job's text: the
# launcher's output and each rank's stderr, which the fault programs write to a file of their
# own (THINMPI_FAULT_LOG_DIR, faults/fault_log.hpp) so that a launcher tearing the job down
# cannot lose it. Newlines are read as spaces, so a pattern may span the lines of a message
# box. <mpiexec> <args>... is the whole launch command. Survivors are killed (by pid) after
# they are reported.
set -u
name=$1 bound=$2 program=$3 want_status=$4
shift 4
patterns=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
  patterns+=("$1")
  shift
done
if [ $# -eq 0 ] || [ ${#patterns[@]} -eq 0 ]; then
  echo "usage: run_fault.sh <name> <bound> <program> <status> <message-regex>... -- <mpiexec> <args>..."
  exit 2
fi
shift  # the --

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export THINMPI_FAULT_LOG_DIR=$work
out=$work/mpiexec.out
start=$(date +%s.%N)
timeout -k 5 "$bound" "$@" >"$out" 2>&1
rc=$?
end=$(date +%s.%N)
elapsed=$(echo "$end - $start" | bc)

fail=0
if { [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; } && [ "$(echo "$elapsed >= $bound" | bc)" -eq 1 ]; then
  echo "FAIL: $name did not end within $bound s"
  fail=1
elif ! grep -qx -- "$rc" <<<"${want_status//,/$'\n'}"; then
  echo "FAIL: $name ended with exit status $rc; this fault ends with $want_status"
  fail=1
fi
text=$(cat "$out" "$work"/rank*.stderr 2>/dev/null | tr '\n' ' ')
for pattern in "${patterns[@]}"; do
  if ! grep -Eq -- "$pattern" <<<"$text"; then
    echo "FAIL: $name ended without the message /$pattern/"
    fail=1
  fi
done
if grep -q "fault: " <<<"$text"; then
  echo "FAIL: $name: the fault program reported its own failure (the 'fault:' line below)"
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
for log in "$work"/rank*.stderr; do
  [ -s "$log" ] || continue
  echo "--- $(basename "$log") (first 5 lines) ---"
  head -n 5 "$log"
done
echo "---"
printf 'thinmpi fault %s: ended in %.1f s (bound %s s), exit %d, no survivors: %s\n' \
  "$name" "$elapsed" "$bound" "$rc" "$([ -z "$survivors" ] && echo yes || echo no)"
exit $fail
