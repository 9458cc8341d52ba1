# Sourced by the setup's builds of third-party code (build-boost-mpi.sh, build-mpi4py.sh,
# build-osu.sh): each is installed once a machine, as the Debian packages that
# scripts/install-deps.sh installs are, not once a clone. The build goes to
# $WB_DEPS_PREFIX/<name>-<key> (default /usr/local/lib/thinmpi-bench, where it can be written;
# WB_DEPS_PREFIX= builds in the clone's build/<name>/ as before), <key> a hash of what the build
# depends on: the script and peer-source.sh, the pinned or given source, the MPI's compiler
# wrapper and the versions of the Debian packages it builds with. A change to any of them builds
# again beside the old one; a build that failed or stopped leaves no good status.json there and
# is tried again. The clone's build/<name>/status.json is a copy of the installed one (its paths
# in the prefix), with "installed" naming the folder, so the driver, scripts/bench.sh and the
# report read it where they always did; "found": whether an earlier run had built it.
#   install_into <variable> <name> <key material>...
# sets <variable> (the caller's output folder) to the installed one and copies its status back
# to the clone's folder when the script exits; does nothing where no prefix can be used.

install_into() {
  local -n install_dir=$1
  local name=$2 prefix=${WB_DEPS_PREFIX-/usr/local/lib/thinmpi-bench} key
  shift 2
  [ -n "$prefix" ] || return 0
  { mkdir -p "$prefix" && [ -w "$prefix" ]; } 2>/dev/null || return 0
  key=$({
    printf '%s\n' "$@"
    cat bench/setup/installed.sh bench/setup/peer-source.sh
    dpkg-query -W -f='${Package}=${Version}\n' gcc g++ python3 cython3 libmpich-dev \
      libopenmpi-dev libboost1.74-dev libboost-serialization-dev 2>/dev/null
  } | sha256sum | cut -c1-16)
  INSTALL_CLONE_DIR=$install_dir
  install_dir="$prefix/$name-$key"
  INSTALL_DIR=$install_dir
  mkdir -p "$INSTALL_DIR" "$INSTALL_CLONE_DIR"
  INSTALL_FOUND=false
  grep -q '"ok": true' "$INSTALL_DIR/status.json" 2>/dev/null && INSTALL_FOUND=true
  trap install_publish EXIT
}

# The installed status.json, with "installed": its folder and "found", as the clone's.
install_publish() {
  [ -f "$INSTALL_DIR/status.json" ] || return 0
  /usr/bin/python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))
s.update(installed=sys.argv[2], found=sys.argv[3] == "true"); print(json.dumps(s))' \
    "$INSTALL_DIR/status.json" "$INSTALL_DIR" "$INSTALL_FOUND" >"$INSTALL_CLONE_DIR/status.json"
}
