#!/usr/bin/env bash
# Where the bench's setup takes a peer project's source from, in this order:
#   1. an environment variable naming a folder or a tarball (WB_<NAME>_SOURCE, e.g. WB_KAMPING_SOURCE),
#   2. the snapshot in ../shared/peers/ when present (machines that cannot reach the network),
#   3. a clone of the pinned tag or commit from the project's public repository (OSU: its release
#      tarball from the OSU site).
# Usage (sourced by the build scripts):
#   source bench/setup/peer-source.sh
#   dir=$(peer_source kamping build/peers) || exit 0   # prints the unpacked folder, says which it used
# Nothing of theirs is committed: the unpacked source lives under the build folder.

# name | snapshot file in ../shared/peers | repository | pinned revision
peer_catalog() {
  case "$1" in
  kamping) echo "kamping-5c8e84f.tar.gz https://github.com/kamping-site/kamping.git 5c8e84fc" ;;
  kassert) echo "kassert-v1.0.0.tar.gz https://github.com/kamping-site/kassert.git v1.0.0" ;;
  mpl) echo "mpl-80c3305.tar.gz https://github.com/rabauke/mpl.git 80c3305d" ;;
  mpi4py) echo "mpi4py-3.1.6.tar.gz https://github.com/mpi4py/mpi4py.git 3.1.6" ;;
  osu) echo "osu-micro-benchmarks-7.4.tar.gz https://mvapich.cse.ohio-state.edu/download/mvapich/osu-micro-benchmarks-7.4.tar.gz 7.4" ;;
  *) return 1 ;;
  esac
}

# peer_source <name> <build folder>: unpacks (once) into <build folder>/<name>-src and prints that
# folder on stdout; the line saying where the source came from goes to stderr. Exit status 1, with
# the reason on stderr, when no source could be had.
peer_source() {
  local name=$1 base=$2 entry snapshot repo rev var from dest
  entry=$(peer_catalog "$name") || {
    echo "wrapper-bench: no peer named $name" >&2
    return 1
  }
  read -r snapshot repo rev <<<"$entry"
  dest=$(realpath -m "$base/$name-src")
  var="WB_$(echo "$name" | tr '[:lower:]' '[:upper:]')_SOURCE"
  local peers_dir
  peers_dir=$(realpath -m "$(dirname "${BASH_SOURCE[0]}")/../../../shared/peers")
  if [[ -f "$dest/.wb-source" ]]; then
    echo "wrapper-bench: $name source: $(cat "$dest/.wb-source") (unpacked before in $dest)" >&2
    echo "$dest"
    return 0
  fi
  rm -rf "$dest" && mkdir -p "$dest"
  if [[ -n "${!var:-}" ]]; then
    from="${!var} (\$$var)"
    if [[ -d "${!var}" ]]; then
      cp -a "${!var}/." "$dest/"
    else
      tar -xf "${!var}" -C "$dest" --strip-components=1
    fi || {
      echo "wrapper-bench: $name: \$$var=${!var} is neither a folder nor a tarball that unpacks" >&2
      return 1
    }
  elif [[ -f "$peers_dir/$snapshot" ]]; then
    from="snapshot $peers_dir/$snapshot"
    tar -xf "$peers_dir/$snapshot" -C "$dest" --strip-components=1 || {
      echo "wrapper-bench: $name: the snapshot $peers_dir/$snapshot did not unpack" >&2
      return 1
    }
  elif [[ "$repo" == *.tar.gz ]]; then
    from="$repo"
    if ! { curl -fsSL "$repo" | tar -xz -C "$dest" --strip-components=1; } 2>"$base/$name-clone.log"; then
      echo "wrapper-bench: $name: no \$$var, no snapshot in $peers_dir, and downloading $repo failed:" \
        "$(tail -n1 "$base/$name-clone.log")" >&2
      return 1
    fi
  else
    from="$repo at $rev"
    if ! { git clone -q "$repo" "$dest" && git -C "$dest" checkout -q "$rev"; } 2>"$base/$name-clone.log"; then
      echo "wrapper-bench: $name: no \$$var, no snapshot in $peers_dir, and cloning $repo failed:" \
        "$(tail -n1 "$base/$name-clone.log")" >&2
      return 1
    fi
  fi
  echo "$from" >"$dest/.wb-source"
  echo "wrapper-bench: $name source: $from" >&2
  echo "$dest"
}
