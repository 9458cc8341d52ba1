#!/usr/bin/env bash
# Makes `apt-get source` work for the bench's setup (Boost.MPI's and, as a fallback, mpi4py's
# Debian source packages): when the machine has no deb-src entry, adds one for bookworm
# (/etc/apt/sources.list.d/thinmpi-bench-src.sources) and runs apt-get update; removes nothing.
#   bench/setup/deb-src.sh [log]       exit status 1 when there is none and it cannot add one
# scripts/bench.sh runs it once before the builds that use it run side by side; each of them
# runs it too (a quick check when the entry is there), so it also works alone.
set -uo pipefail
log=${1:-/dev/null}
sources_file=/etc/apt/sources.list.d/thinmpi-bench-src.sources
grep -rqs '^Types:.*deb-src' /etc/apt/sources.list.d/ && exit 0
grep -qs '^deb-src ' /etc/apt/sources.list /etc/apt/sources.list.d/*.list && exit 0
[ "$(id -u)" -eq 0 ] || exit 1
printf '%s\n' 'Types: deb-src' 'URIs: http://deb.debian.org/debian' 'Suites: bookworm' \
  'Components: main' 'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg' >"$sources_file"
apt-get update -q >"$log" 2>&1
exit 0
