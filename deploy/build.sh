#!/usr/bin/env bash
# Configures and builds jetperf into ${JETPERF_BUILD_DIR:-build} with Ninja and ccache.
# Extra arguments are build targets (default: everything).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${JETPERF_BUILD_DIR:-build}
# Paths relative to the checkout in ccache's keys, so a fresh clone elsewhere reuses the cache.
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$(pwd)} CCACHE_NOHASHDIR=${CCACHE_NOHASHDIR:-true}
jobs=${JETPERF_JOBS:-$(nproc)}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=${CMAKE_BUILD_TYPE:-Release} ${JETPERF_CMAKE_ARGS:-} >/dev/null
ninja -C "$build" -j "$jobs" "$@"
