#!/usr/bin/env bash
# Runs faults/root_only_abort for one case and checks that the job ended within a bound, with a
# non-zero status, with the root's message on stderr (the launcher's output or a rank's log),
# and without a "root_only_abort:" line (the program failing).
#
#   check_root_only_abort.sh <bound-seconds> <message-regex> -- <mpiexec> <args>...
set -u
bound=$1 pattern=$2
shift 2
[ "${1:-}" = "--" ] && shift
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export THINMPI_FAULT_LOG_DIR=$work
start=$(date +%s)
timeout -k 5 "$bound" "$@" >"$work/out" 2>&1
rc=$?
elapsed=$(($(date +%s) - start))
text=$(cat "$work/out" "$work"/rank*.stderr 2>/dev/null | tr '\n' ' ')
fail=0
if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
  echo "FAIL: the job did not end within $bound s"
  fail=1
elif [ "$rc" -eq 0 ]; then
  echo "FAIL: the job ended with status 0"
  fail=1
fi
if ! grep -Eq -- "$pattern" <<<"$text"; then
  echo "FAIL: no message /$pattern/ on stderr"
  fail=1
fi
if grep -q "root_only_abort: " <<<"$text"; then
  echo "FAIL: the program reported its own failure"
  fail=1
fi
head -c 2000 "$work/out"
for log in "$work"/rank*.stderr; do
  [ -s "$log" ] && { echo "--- $(basename "$log")"; head -c 1000 "$log"; }
done
echo "ended in ${elapsed} s (bound ${bound} s), exit ${rc}"
exit $fail
