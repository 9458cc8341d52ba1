#!/usr/bin/env bash
# Installs the Debian packages that `make test` and `make bench` need and that are missing.
#   scripts/install-deps.sh test    the library, its tests and the bench smoke run (golang-go: the
#                                   Go kernel, cgo)
#   scripts/install-deps.sh bench   the benchmark matrix (adds what building Boost.MPI and
#                                   mpi4py against MPICH needs)
set -euo pipefail

# libclang-rt-14-dev: Clang's sanitizer runtimes (mpich-asan); bc, procps: the fault tests
# timing and survivor check; valgrind: scripts/valgrind.sh; doxygen: make docs.
test_packages=(make cmake g++ clang clang-format pkg-config libgtest-dev googletest
  libclang-rt-14-dev bc procps valgrind doxygen
  openmpi-bin libopenmpi-dev mpich libmpich-dev openssh-client iproute2
  python3 python3-matplotlib python3-numpy python3-mpi4py
  libboost-mpi-dev libboost-serialization-dev golang-go
  libclang-rt-14-dev)  # libFuzzer + sanitizers for clang 14: the decoder fuzz target
# cython3, python3-dev: mpi4py built against MPICH from its source (bench/setup/build-mpi4py.sh);
# autoconf tools are not needed: OSU's release tarball ships its configure script.
# libcereal-dev: KaMPIng's serialization (the serialization suite's kamping/ser_* cells).
bench_packages=("${test_packages[@]}" binutils xz-utils dpkg-dev cython3 python3-dev
  libcereal-dev)

case "${1:-test}" in
  test) wanted=("${test_packages[@]}") ;;
  bench) wanted=("${bench_packages[@]}") ;;
  *) echo "usage: $0 test|bench" >&2; exit 2 ;;
esac

missing=()
for package in "${wanted[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep "install ok installed" >/dev/null; then
    missing+=("$package")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "thinmpi: installing missing Debian packages: ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
  echo "thinmpi: not root; run: sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q "${missing[@]}"
