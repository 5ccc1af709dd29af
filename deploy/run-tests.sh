#!/usr/bin/env bash
# The whole test suite: installs dependencies, builds, runs every test with ctest.
# GPU tests (label gpu) skip themselves with the reason on a machine without a GPU.
set -euo pipefail
cd "$(dirname "$0")/.."
./deploy/install-deps.sh
./deploy/build.sh
cd "${JETPERF_BUILD_DIR:-build}"
ctest --output-on-failure -j "${JETPERF_TEST_JOBS:-2}" --timeout 600
