#!/usr/bin/env bash
# scripts/cluster.sh: each host has its own name, /etc/hosts, address and routes (only the
# cluster's subnet), a second `up` replaces what the first left, and `down` leaves nothing.
#   cluster_test.sh path/to/scripts/cluster.sh      (exit 77: skipped, the reason on stdout)
set -euo pipefail
cluster=$1
"$cluster" check || exit 77
exec 9>/run/thinmpi-cluster.lock
flock -w 900 9
trap '"$cluster" down' EXIT
fail() { echo "cluster_test: $*" >&2; exit 1; }

"$cluster" up 3 >/dev/null
"$cluster" up 2 >/dev/null  # as after an interrupted run: the old cluster goes first
[ "$(ip netns list | grep -c '^thinmpi-node')" -eq 2 ] ||
  fail "up 2 after up 3 left $(ip netns list)"
[ "$("$cluster" exec node2 hostname)" = node2 ] || fail "node2 is not called node2"
[ "$("$cluster" exec 1 hostname)" = node1 ] || fail "host 1 is not node1"
grep -q '^10.77.0.12[[:space:]]node2$' <("$cluster" exec node1 cat /etc/hosts) ||
  fail "node1's /etc/hosts does not name node2"
address=$("$cluster" exec node2 ip -4 -o addr show dev eth0 | awk '{print $4}')
[ "$address" = 10.77.0.12/24 ] || fail "node2's eth0 has $address"
routes=$("$cluster" exec node1 ip -4 route)
[ "$routes" = "10.77.0.0/24 dev eth0 proto kernel scope link src 10.77.0.11 " ] ||
  [ "$routes" = "10.77.0.0/24 dev eth0 proto kernel scope link src 10.77.0.11" ] ||
  fail "node1 routes more than the cluster's subnet: $routes"
[ "$("$cluster" exec node1 ls /sys/class/net | tr '\n' ' ')" = "eth0 lo " ] ||
  fail "node1 sees other interfaces than eth0 and lo"
"$cluster" exec node3 true 2>/dev/null && fail "node3 outlived up 2"
"$cluster" down
trap - EXIT
ip netns list | grep -q '^thinmpi-' && fail "down left namespaces: $(ip netns list)"
[ ! -e /run/thinmpi-cluster ] || fail "down left /run/thinmpi-cluster"
echo "cluster_test: passed"
