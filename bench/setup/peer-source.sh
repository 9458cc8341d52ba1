#!/usr/bin/env bash
# Where the bench's setup takes a peer project's source from, in this order:
#   1. an environment variable naming a folder or a tarball (WB_<NAME>_SOURCE, e.g. WB_KAMPING_SOURCE),
#   2. the snapshot in $WB_PEERS_SNAPSHOTS, by default ../shared/peers/ beside the repository
#      (machines that cannot reach the network),
#   3. a clone of the pinned tag or commit from the project's public repository (OSU: its release
#      tarball from the OSU site).
# Usage (sourced by the build scripts):
#   source bench/setup/peer-source.sh
#   dir=$(peer_source kamping build/peers) || exit 0   # prints the unpacked folder, says which it used
# Nothing of theirs is committed: the unpacked source lives under the build folder.
#
# A source is fetched into a hidden folder beside its place and moved there only once it holds
# the files the bench needs of it (peer_catalog's last column), so a failed clone, download or
# unpack (an offline machine without ../shared) leaves nothing that looks like a source: only the
# one line saying why, and <name>-source.log. A folder in its place that lacks those files (an
# older version of this script left empty ones) is removed and fetched again.

# name | snapshot file in the snapshots folder | repository | pinned revision | files it must hold
peer_catalog() {
  case "$1" in
  kamping) echo "kamping-5c8e84f.tar.gz https://github.com/kamping-site/kamping.git 5c8e84fc" \
    "CMakeLists.txt include/kamping/communicator.hpp" ;;
  kassert) echo "kassert-v1.0.0.tar.gz https://github.com/kamping-site/kassert.git v1.0.0" \
    "CMakeLists.txt include/kassert/kassert.hpp.in" ;;
  mpl) echo "mpl-80c3305.tar.gz https://github.com/rabauke/mpl.git 80c3305d mpl/mpl.hpp" ;;
  mpi4py) echo "mpi4py-3.1.6.tar.gz https://github.com/mpi4py/mpi4py.git 3.1.6" \
    "setup.py src/mpi4py/__init__.py" ;;
  osu) echo "osu-micro-benchmarks-7.4.tar.gz https://mvapich.cse.ohio-state.edu/download/mvapich/osu-micro-benchmarks-7.4.tar.gz 7.4" \
    "configure c/mpi/pt2pt/standard/osu_latency.c" ;;
  *) return 1 ;;
  esac
}

# The folder of the snapshot tarballs: $WB_PEERS_SNAPSHOTS, else ../shared/peers beside the repository.
peer_snapshots() {
  if [[ -n "${WB_PEERS_SNAPSHOTS:-}" ]]; then
    realpath -m "$WB_PEERS_SNAPSHOTS"
  else
    realpath -m "$(dirname "${BASH_SOURCE[0]}")/../../../shared/peers"
  fi
}

# peer_check <name> <folder>: exit status 0 when <folder> holds every file the bench needs of
# <name>'s source; else 1, with the first file it lacks on stdout.
peer_check() {
  local entry needed file
  entry=$(peer_catalog "$1") || {
    echo "no peer named $1"
    return 1
  }
  read -r _ _ _ needed <<<"$entry"
  for file in $needed; do
    [[ -f "$2/$file" ]] || {
      echo "$2 has no $file"
      return 1
    }
  done
}

# peer_source <name> <build folder> [<what goes without it>]: unpacks (once) into
# <build folder>/<name>-src and prints that folder on stdout; the line saying where the source
# came from goes to stderr. Exit status 1 when no source could be had, with one line on stderr:
# which peer, where it was looked for, and (the third argument) what is skipped without it.
peer_source() (
  set -o pipefail
  name=$1 skipped=${3:-}
  fail() {
    echo "wrapper-bench: $name: no source: $1${skipped:+; skipped: $skipped}" >&2
    exit 1
  }
  last_line() { tail -n1 "$log" | cut -c1-200; }
  entry=$(peer_catalog "$name") || fail "no peer named $name (bench/setup/peer-source.sh)"
  read -r snapshot repo rev _ <<<"$entry"
  mkdir -p "$2" || fail "its folder $2 cannot be made"
  base=$(realpath -m "$2")
  dest="$base/$name-src" log="$base/$name-source.log"
  var="WB_$(echo "$name" | tr '[:lower:]' '[:upper:]')_SOURCE"
  snapshots=$(peer_snapshots)
  if [[ -f "$dest/.wb-source" ]] && peer_check "$name" "$dest" >/dev/null; then
    echo "wrapper-bench: $name source: $(cat "$dest/.wb-source") (unpacked before in $dest)" >&2
    echo "$dest"
    exit 0
  fi
  if [[ -e "$dest" ]]; then
    echo "wrapper-bench: $name: removing $dest, an unfinished source" \
      "($(peer_check "$name" "$dest" || true))" >&2
    rm -rf "$dest"
  fi
  tmp=$(mktemp -d "$base/.$name-src.partial.XXXXXX") || fail "no folder can be made in $base"
  trap 'rm -rf "$tmp"' EXIT
  chmod 755 "$tmp"
  if [[ -n "${!var:-}" ]]; then
    from="${!var} (\$$var)"
    if [[ -d "${!var}" ]]; then
      cp -a "${!var}/." "$tmp/"
    else
      tar -xf "${!var}" -C "$tmp" --strip-components=1
    fi 2>"$log" || fail "\$$var=${!var} is neither a folder nor a tarball that unpacks ($(last_line))"
  elif [[ -f "$snapshots/$snapshot" ]]; then
    from="snapshot $snapshots/$snapshot"
    tar -xf "$snapshots/$snapshot" -C "$tmp" --strip-components=1 2>"$log" ||
      fail "the snapshot $snapshots/$snapshot did not unpack ($(last_line))"
  else
    looked="\$$var is not set, no snapshot $snapshots/$snapshot"
    if [[ "$repo" == *.tar.gz ]]; then
      from="$repo"
      { curl -fsSL "$repo" | tar -xz -C "$tmp" --strip-components=1; } 2>"$log" ||
        fail "$looked, and downloading $repo failed ($(last_line))"
    else
      from="$repo at $rev"
      { GIT_TERMINAL_PROMPT=0 git clone -q "$repo" "$tmp" && git -C "$tmp" checkout -q "$rev"; } \
        2>"$log" || fail "$looked, and cloning $repo failed ($(last_line))"
    fi
  fi
  lacks=$(peer_check "$name" "$tmp") || fail "$from is not $name's source: it ${lacks#"$tmp" }"
  echo "$from" >"$tmp/.wb-source"
  # -T: never into a folder another run finished meanwhile, which is then the source.
  if ! mv -T "$tmp" "$dest" 2>/dev/null && ! peer_check "$name" "$dest" >/dev/null; then
    fail "$from unpacked, but could not be moved to $dest"
  fi
  rm -f "$log"
  echo "wrapper-bench: $name source: $from" >&2
  echo "$dest"
)
