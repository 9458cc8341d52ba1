#!/usr/bin/env bash
# Runs an MPI program across the hosts of a local cluster (scripts/cluster.sh) that it brings
# up for the run and removes afterwards; the multi-host ctest tests call it.
#   scripts/cluster-run.sh [--hosts N] [--per-host P] [--timeout S] MPI -- PROGRAM [ARGS...]
#   scripts/cluster-run.sh --print [--hosts N] [--per-host P] MPI
# MPI is openmpi or mpich. --print writes the launcher command, one argument a line, for a
# cluster that is already up (wrapper-bench --hosts cluster uses it). Exit 77 with one line
# when namespaces cannot be created here (ctest's skip code).
#
# The settings, and why (docs/cluster.md has the measurements):
#   Open MPI  --bind-to none: the hosts share this machine's cores, and mpirun and every orted
#             would each bind their first rank to core 0; two ranks polling on one core take
#             turns a scheduler tick apart (CONFIG_HZ=250: 4 ms one-way).
#             --mca btl vader,tcp,self and btl/oob_tcp_if_include the cluster subnet: shared
#             memory inside a host, TCP over eth0 between hosts, never loopback.
#   MPICH     UCX_TLS=tcp, UCX_NET_DEVICES=eth0: UCX finds the other namespaces' processes
#             through /proc and would use shared memory between "hosts" otherwise.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
hosts=2 per_host=1 timeout_s=300 print=0 mpi=
while [ $# -gt 0 ]; do
  case $1 in
    --hosts) hosts=$2; shift 2 ;;
    --per-host) per_host=$2; shift 2 ;;
    --timeout) timeout_s=$2; shift 2 ;;
    --print) print=1; shift ;;
    --) shift; break ;;
    openmpi | mpich) mpi=$1; shift ;;
    *) echo "cluster-run: unknown argument '$1' (see the top of $0)" >&2; exit 2 ;;
  esac
done
[ -n "$mpi" ] || { echo "cluster-run: give the MPI: openmpi or mpich" >&2; exit 2; }
for value in "$hosts" "$per_host"; do
  [[ $value =~ ^[1-9][0-9]*$ ]] || { echo "cluster-run: '$value' is not a count" >&2; exit 2; }
done

subnet=${THINMPI_CLUSTER_SUBNET:-10.77.0}.0/24
host_list=$(for ((i = 1; i <= hosts; i++)); do printf 'node%d:%d,' "$i" "$per_host"; done)
host_list=${host_list%,}
ranks=$((hosts * per_host))
case $mpi in
  openmpi)
    # shellcheck disable=SC2054  # the commas are inside arguments (vader,tcp,self)
    launcher=(mpirun.openmpi --host "$host_list" -n "$ranks" --mca plm_rsh_agent
      "$here/cluster-agent" --bind-to none --mca btl vader,tcp,self --mca pml ob1
      --mca btl_tcp_if_include "$subnet" --mca oob_tcp_if_include "$subnet")
    # More ranks than this machine has cores: poll politely, as Open MPI does by itself when
    # it knows a node is oversubscribed (here every host believes it has the cores).
    [ "$ranks" -le "$(nproc)" ] || launcher+=(--mca mpi_yield_when_idle 1)
    ;;
  mpich)
    launcher=(mpiexec.mpich -launcher ssh -launcher-exec "$here/cluster-agent" -hosts "$host_list"
      -n "$ranks" -genv UCX_TLS tcp -genv UCX_NET_DEVICES eth0)
    ;;
esac

if [ $print -eq 1 ]; then
  printf '%s\n' "${launcher[@]}"
  exit 0
fi
[ $# -gt 0 ] || { echo "cluster-run: give the program after --" >&2; exit 2; }
"$here/cluster.sh" check >&2 || exit 77

# One cluster at a time on this machine: a second run waits for the first.
exec 9>/run/thinmpi-cluster.lock
if ! flock -w 900 9; then
  echo "cluster-run: another cluster run held /run/thinmpi-cluster.lock for 15 minutes" >&2
  exit 1
fi
trap '"$here/cluster.sh" down' EXIT
trap 'exit 143' TERM INT
"$here/cluster.sh" up "$hosts" >&2
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
echo "cluster-run: ${launcher[*]} $*" >&2
status=0
timeout -k 10 "$timeout_s" "$here/cluster.sh" exec node1 -- "${launcher[@]}" "$@" || status=$?
[ $status -ne 124 ] || echo "cluster-run: timed out after $timeout_s s" >&2
exit $status
