#!/usr/bin/env bash
# Builds the Go kernel with -tags gompi (bench/kernels/go/gompi.go: GoMPI's own Send and
# RecvPrealloc beside the cgo variants) against github.com/sbromberger/gompi, when `go` can fetch
# it. The driver runs it once per MPI after building that MPI's kernels; the result, or the
# reason there is none, goes to <out>/status.json:
#   bench/setup/build-gompi.sh <openmpi|mpich> <folder of libwb_ckernels.so> [out-dir]
# default out-dir: build/gompi-<mpi>. The module is fetched through the user's Go settings
# (GOPROXY, GOFLAGS); nothing is vendored into this repository.
set -uo pipefail
cd "$(dirname "$0")/../.."

mpi=${1:?usage: $0 openmpi|mpich LIBRARY_DIR [out-dir]}
library_dir=$(realpath -m "${2:?usage: $0 openmpi|mpich LIBRARY_DIR [out-dir]}")
out=$(realpath -m "${3:-build/gompi-$mpi}")
status="$out/status.json"
mkdir -p "$out"

record() { # record <ok: true|false> <key> <value>
  /usr/bin/python3 -c 'import json,sys; print(json.dumps({"ok": sys.argv[1] == "true",
    sys.argv[2]: sys.argv[3]}))' "$1" "$2" "$3" >"$status"
}
fail() {
  record false reason "$1"
  echo "wrapper-bench: GoMPI kernel for $mpi not built: $1" >&2
  exit 0
}
last_line() { grep -v '^\s*$' "$1" | tail -n1; }

command -v go >/dev/null || fail "go is not installed (Debian: golang-go)"
command -v "mpicc.$mpi" >/dev/null || fail "mpicc.$mpi is not installed"
[ -e "$library_dir/libwb_ckernels.so" ] || fail "no libwb_ckernels.so in $library_dir"
rm -rf "$out/src" && mkdir -p "$out/src"
cp bench/kernels/go/*.go bench/kernels/go/go.mod "$out/src/"
export CC="mpicc.$mpi" CGO_ENABLED=1 GOCACHE="$out/go-cache" GOFLAGS="-mod=mod -buildvcs=false"
export CGO_CFLAGS="-O2 -I$PWD/bench/harness"
export CGO_LDFLAGS="-L$library_dir -lwb_ckernels -Wl,-rpath,$library_dir"
if ! (cd "$out/src" && timeout 120 go get github.com/sbromberger/gompi@latest) \
  >"$out/fetch.log" 2>&1; then
  fail "go could not fetch github.com/sbromberger/gompi: $(last_line "$out/fetch.log")"
fi
if ! (cd "$out/src" && go vet -tags gompi . && go build -tags gompi -o "$out/wb_gompi_kernel" .) \
  >"$out/build.log" 2>&1; then
  fail "the Go kernel with -tags gompi did not build against $(grep -m1 sbromberger/gompi \
"$out/src/go.mod" | xargs): $(last_line "$out/build.log") (see $out/build.log)"
fi
/usr/bin/python3 -c 'import json,sys; print(json.dumps({"ok": True, "kernel": sys.argv[1],
  "gompi": sys.argv[2]}))' "$out/wb_gompi_kernel" "$(grep -m1 sbromberger/gompi "$out/src/go.mod" | xargs)" >"$status"
echo "wrapper-bench: built the GoMPI kernel for $mpi in $out"
