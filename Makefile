# The README's two commands:
#   make test    install what is missing, build and run every test on every MPI installed
#   make bench   install what is missing, build, run the benchmark matrix, write the report
# and the everyday ones: make install PREFIX=..., make format, make format-check.

PREFIX ?= /usr/local
PRESET ?= openmpi-gcc
CLANG_FORMAT ?= clang-format
FULL ?=

.PHONY: test bench deps deps-bench install format format-check clean

test: deps
	scripts/test-all.sh
	$(MAKE) format-check

bench: deps-bench
	scripts/bench.sh $(if $(FULL),--full)

deps:
	scripts/install-deps.sh test

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
