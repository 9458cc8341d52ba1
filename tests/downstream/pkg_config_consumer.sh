#!/usr/bin/env bash
# Builds consumer.cpp with nothing but `pkg-config thinmpi` from an installed prefix.
#   pkg_config_consumer.sh <prefix> <c++ compiler> <output>
set -euo pipefail
prefix=$1 cxx=$2 output=$3
export PKG_CONFIG_PATH="$prefix/share/pkgconfig:${PKG_CONFIG_PATH:-}"
# shellcheck disable=SC2046  # the flags are words
"$cxx" "$(dirname "$0")/consumer.cpp" -o "$output" $(pkg-config --cflags --libs thinmpi)
