# The README's two commands:
#   make test    install what is missing, build and run every test on every MPI installed
#   make bench   install what is missing, build, run the benchmark matrix (quick, instruction
#                counts of the gcc builds, about 20 minutes on 2 cores; FULL=1: everything),
#                write the report
# and the everyday ones: make install PREFIX=..., make format, make format-check,
#   make docs           the API reference (Doxygen) in build/docs/html; any warning fails it
# Reliability checks beyond `make test` (docs/reliability.md):
#   make sanitize       ASan+UBSan suites on both MPIs (what make test runs: openmpi-asan-clang, mpich-asan)
#   make sanitize-all   the same with the other compiler of each MPI too
#   make valgrind       memcheck of the 2-rank suites under mpiexec (scripts/valgrind.sh)
#   make tsan           ThreadSanitizer run of the thread tests (scripts/tsan.sh)
#   make check-all      all of the above

PREFIX ?= /usr/local
PRESET ?= openmpi-gcc
CLANG_FORMAT ?= clang-format
FULL ?=
BENCH_ARGS ?=

.PHONY: test bench bench-test fuzz deps deps-bench install format format-check clean docs \
	sanitize sanitize-all valgrind tsan check-all

test: deps
	scripts/test-all.sh
	$(MAKE) docs
	$(MAKE) bench-test
	$(MAKE) format-check

bench: deps-bench
	scripts/bench.sh $(if $(FULL),--full) $(BENCH_ARGS)

# The bench driver's unit tests (twice: the second pass as a machine without the peers' sources,
# where the tests that need them are skipped with the reason), then a smoke run of a tiny
# matrix on the kernels that scripts/test-all.sh just built (build/<preset>/bench), failing on
# any failed cell or build (a peer without its source is a missing cell, not a failed one):
# every suite on the gcc kernels; on the clang ones (whose every variant the ctest smoke tests
# run already) the audit and the collectives, neighbors and rma harnesses, which is where a
# kernel that clang does not compile shows (about 40 s where the whole clang matrix takes 4
# minutes). The smoke run counts no instructions (valgrind launches take ~10 s each).
bench-test:
	/usr/bin/python3 bench/driver/tests/run.py
	PYTHONPATH=bench/driver /usr/bin/python3 -m wrapper_bench --smoke --no-build \
	  --build-prefix build/ --compiler gcc --out build/bench-smoke --strict
	PYTHONPATH=bench/driver /usr/bin/python3 -m wrapper_bench --smoke --no-build \
	  --build-prefix build/ --compiler clang --api c,thinmpi --suites audit,collectives,neighbors,rma \
	  --out build/bench-smoke-clang --strict

# A longer run of the serialization decoder's fuzz target (ctest runs it for 15 s per clang
# preset); findings are written to build/openmpi-clang/tests/fuzz-crash-*.
FUZZ_SECONDS ?= 600
fuzz: deps
	cmake --preset openmpi-clang >/dev/null
	cmake --build build/openmpi-clang -j 2 --target serialization_fuzz
	cd build/openmpi-clang/tests && ./serialization_fuzz fuzz-corpus ../../../tests/fuzz/corpus \
	  -max_total_time=$(FUZZ_SECONDS) -rss_limit_mb=1024 -max_len=4096 -artifact_prefix=fuzz-

# The API reference: Doxygen over the public headers, README.md and docs/*.md (docs/Doxyfile).
# An undocumented public entity is a warning and every warning fails the run (about 10 s).
docs:
	mkdir -p build/docs
	doxygen docs/Doxyfile

deps:
	scripts/install-deps.sh test

sanitize: deps
	scripts/test-all.sh openmpi-asan-clang mpich-asan

sanitize-all: deps
	scripts/test-all.sh openmpi-asan openmpi-asan-clang mpich-asan mpich-asan-gcc

valgrind: deps
	scripts/valgrind.sh

tsan: deps
	scripts/tsan.sh

check-all: sanitize-all valgrind tsan

deps-bench:
	scripts/install-deps.sh bench

install: deps
	cmake --preset $(PRESET) -DTHINMPI_BUILD_TESTS=OFF -DTHINMPI_BUILD_EXAMPLES=OFF \
	  -DTHINMPI_BUILD_BENCH=OFF -DCMAKE_INSTALL_PREFIX=$(PREFIX) -B build/install-$(PRESET)
	cmake --install build/install-$(PRESET)

FORMAT_FILES = $(shell git ls-files '*.hpp' '*.cpp' '*.h' '*.c' 2>/dev/null)

format:
	$(CLANG_FORMAT) -i $(FORMAT_FILES)

format-check:
	$(CLANG_FORMAT) --dry-run --Werror $(FORMAT_FILES)

clean:
	rm -rf build
