#!/usr/bin/env bash
# A local cluster on this machine: N "hosts", each a network + UTS + mount namespace with its own
# hostname (node1 .. nodeN), its own /etc/hosts and /dev/shm and one interface, eth0, with the
# address 10.77.0.(10+i)/24 on a bridge that lives in a namespace of its own (thinmpi-switch).
# Nothing of the cluster is attached to the machine's own network: its traffic can only go
# between its hosts. MPI starts processes on a host through scripts/cluster-agent, which stands
# in for ssh (no sshd). Needs root.
#
#   scripts/cluster.sh up N            (re)creates the cluster; removes what a previous run left
#   scripts/cluster.sh down            removes everything `up` created
#   scripts/cluster.sh status          the hosts and addresses; exit 1 when no cluster is up
#   scripts/cluster.sh check           exit 0 when namespaces can be created here; else one line
#                                      saying why, and exit 77 (ctest's skip code)
#   scripts/cluster.sh exec HOST CMD.. runs CMD on HOST (node2, 2 or 10.77.0.12), in the
#                                      current directory, with this environment
#   scripts/cluster.sh counters HOST   bytes sent and received on HOST's eth0 ("tx rx")
#
# THINMPI_CLUSTER_SUBNET (default 10.77.0) picks another private /24.
set -euo pipefail

SUBNET=${THINMPI_CLUSTER_SUBNET:-10.77.0}
STATE=/run/thinmpi-cluster
PREFIX=thinmpi-
SWITCH=${PREFIX}switch
MAX_HOSTS=32

die() { echo "thinmpi-cluster: $*" >&2; exit 1; }

host_address() { echo "$SUBNET.$((10 + $1))"; }

# node2, 2, 10.77.0.12 -> 2
host_index() {
  local host=${1#*@}
  case $host in
    node[0-9]*) host=${host#node} ;;
    "$SUBNET".*) host=$((${host##*.} - 10)) ;;
  esac
  [[ $host =~ ^[0-9]+$ ]] && [ -e "/run/netns/${PREFIX}node$host" ] ||
    die "no host '$1' in the cluster (scripts/cluster.sh status lists them)"
  echo "$host"
}

# Why namespaces cannot be made here, or nothing when they can.
cannot_create() {
  [ "$(id -u)" -eq 0 ] || { echo "needs root to create network namespaces"; return; }
  for tool in ip unshare nsenter flock; do
    command -v $tool >/dev/null || { echo "$tool is not installed"; return; }
  done
  local probe=${PREFIX}probe$$ error
  if ! error=$(ip netns add "$probe" 2>&1); then
    echo "ip netns add failed: $error"; return
  fi
  ip netns del "$probe"
  error=$(unshare --uts --mount true 2>&1) || echo "unshare --uts --mount failed: $error"
}

check_subnet() {
  [[ $SUBNET =~ ^10\.[0-9]{1,3}\.[0-9]{1,3}$|^192\.168\.[0-9]{1,3}$ ]] ||
    die "THINMPI_CLUSTER_SUBNET=$SUBNET: give the first three numbers of a private /24 (10.x.y)"
  if ip -4 -o addr show | grep " $SUBNET\." >/dev/null; then
    die "this machine already has an address in $SUBNET.0/24; pick another THINMPI_CLUSTER_SUBNET"
  fi
}

down() {
  local netns pid
  for netns in $(ip netns list | awk '{print $1}' | grep "^$PREFIX" || true); do
    # Processes a killed run left inside the cluster (orted, hydra proxies, ranks).
    for pid in $(ip netns pids "$netns" 2>/dev/null); do kill -9 "$pid" 2>/dev/null || true; done
    ip netns del "$netns"
  done
  rm -rf "$STATE"
}

hosts_file() {
  local count=$1 i
  printf '127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n'
  for ((i = 1; i <= count; i++)); do printf '%s\tnode%d\n' "$(host_address "$i")" "$i"; done
}

add_host() {
  local i=$1 netns=${PREFIX}node$1
  ip netns add "$netns"
  ip link add eth0 netns "$netns" type veth peer name "node$i" netns "$SWITCH"
  ip -n "$SWITCH" link set "node$i" master br0 up
  ip -n "$netns" addr add "$(host_address "$i")/24" dev eth0
  ip -n "$netns" link set lo up
  ip -n "$netns" link set eth0 up
  # The host's hostname, /etc/hosts, /dev/shm and /sys (its own interfaces, as ip netns exec
  # mounts it) live in UTS and mount namespaces held by a sleeping process; exec enters them
  # through /proc/PID/ns, which every host sees (bind-mounted namespace files would not
  # propagate into the mount namespaces of the hosts made before).
  nsenter --net="/run/netns/$netns" unshare --uts --mount --propagation private \
    setsid sh -ec "
      hostname node$i
      mount --bind '$STATE/hosts' /etc/hosts
      mount -t tmpfs -o mode=1777 shm /dev/shm
      umount -l /sys
      mount -t sysfs sysfs /sys
      echo \$\$ >'$STATE/node$i.pid.new'
      mv '$STATE/node$i.pid.new' '$STATE/node$i.pid'
      exec sleep infinity" </dev/null >/dev/null 2>"$STATE/node$i.log" &
}

wait_for_hosts() {
  local count=$1 i tries
  for ((i = 1; i <= count; i++)); do
    for ((tries = 0; tries < 100; tries++)); do
      [ -s "$STATE/node$i.pid" ] && break
      sleep 0.05
    done
    [ -s "$STATE/node$i.pid" ] || die "up: node$i did not start: $(cat "$STATE/node$i.log")"
  done
}

up() {
  local count=$1 i
  [[ $count =~ ^[0-9]+$ ]] && [ "$count" -ge 1 ] && [ "$count" -le $MAX_HOSTS ] ||
    die "up: give the number of hosts, 1 to $MAX_HOSTS (got '$count')"
  local reason
  reason=$(cannot_create)
  [ -z "$reason" ] || die "cannot create the cluster: $reason"
  check_subnet
  down
  mkdir -p "$STATE"
  hosts_file "$count" >"$STATE/hosts"
  echo "$count" >"$STATE/count"
  ip netns add "$SWITCH"
  ip -n "$SWITCH" link add br0 type bridge
  ip -n "$SWITCH" link set br0 up
  for ((i = 1; i <= count; i++)); do add_host "$i"; done
  wait_for_hosts "$count"
  # Without STP the bridge forwards at once; check that every port says so.
  local blocked
  blocked=$(bridge -n "$SWITCH" link show | grep -v "state forwarding" || true)
  [ -z "$blocked" ] || die "up: bridge ports not forwarding: $blocked"
  echo "thinmpi-cluster: $count hosts up: $(status_line)"
}

status_line() {
  local i count
  count=$(cat "$STATE/count")
  for ((i = 1; i <= count; i++)); do printf 'node%d=%s ' "$i" "$(host_address "$i")"; done
}

status() {
  [ -f "$STATE/count" ] || { echo "thinmpi-cluster: no cluster is up"; exit 1; }
  echo "$(status_line)(subnet $SUBNET.0/24, bridge br0 in namespace $SWITCH)"
}

exec_on() {
  local i
  i=$(host_index "$1")
  shift
  [ $# -gt 0 ] || die "exec: give a command"
  exec nsenter --target "$(cat "$STATE/node$i.pid")" --net --uts --mount --wd="$PWD" -- "$@"
}

counters() {
  local i
  i=$(host_index "$1")
  ip netns exec "${PREFIX}node$i" sh -c 'cd /sys/class/net/eth0/statistics &&
    echo "$(cat tx_bytes) $(cat rx_bytes)"'
}

case "${1:-}" in
  up) up "${2:-}" ;;
  down) down ;;
  status) status ;;
  check)
    reason=$(cannot_create)
    [ -z "$reason" ] || { echo "thinmpi-cluster: skipped: $reason"; exit 77; }
    ;;
  exec)
    [ $# -ge 2 ] || die "exec: give a host and a command"
    host=$2
    shift 2
    [ "${1:-}" != "--" ] || shift
    exec_on "$host" "$@"
    ;;
  counters) counters "${2:?counters: give a host}" ;;
  *) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2 ;;
esac
