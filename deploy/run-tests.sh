#!/usr/bin/env bash
# The whole test suite: installs dependencies (with --tests), builds, runs every test with ctest.
# GPU tests (label gpu) skip themselves with the reason on a machine without a GPU.
#
#   deploy/run-tests.sh                      # native, in ${JETPERF_BUILD_DIR:-build}
#   deploy/run-tests.sh --arch arm64         # cross-built for the boards, run under qemu-user
#                                            # (build-arm64; default labels: unit)
#   deploy/run-tests.sh --compiler gcc-9     # with that compiler (build-gcc-9): the floor check
#
# ctest arguments after `--` replace the defaults, e.g. `-- -L 'unit|sim'`.
set -euo pipefail
cd "$(dirname "$0")/.."
arch=""
compiler=""
while [ $# -gt 0 ]; do
  case "$1" in
    --arch) arch=$2; shift 2 ;;
    --compiler) compiler=$2; shift 2 ;;
    --) shift; break ;;
    *) echo "run-tests: unknown option $1 (--arch ARCH, --compiler gcc-N, -- CTEST_ARGS)" >&2; exit 2 ;;
  esac
done
[ "$arch" = "$(dpkg --print-architecture)" ] && arch=""

# The test-only packages too (prometheus, chromium; qemu's binfmt_misc registration for --arch),
# which the quick start and build-deb.sh leave out.
deps=(--tests)
cmake_args=()
build=${JETPERF_BUILD_DIR:-build}
labels=()
if [ -n "$arch" ]; then
  case "$arch" in
    arm64) cmake_args+=(-DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/aarch64-linux-gnu.cmake) ;;
    *) echo "run-tests: cross builds are set up for arm64 only" >&2; exit 2 ;;
  esac
  deps+=(--arch "$arch")
  build=${JETPERF_BUILD_DIR:-build-$arch}
  # Under qemu every instruction is emulated: the unit tests fit in time, the sim tests (real
  # daemons running workloads) are run on request with `-- -L 'unit|sim'`.
  labels=(-L unit)
fi
if [ -n "$compiler" ]; then
  deps+=(--compiler "$compiler")
  cmake_args+=(-DCMAKE_C_COMPILER="$compiler" -DCMAKE_CXX_COMPILER="${compiler/gcc/g++}")
  build=${JETPERF_BUILD_DIR:-build-$compiler}
fi

./deploy/install-deps.sh "${deps[@]}"
JETPERF_BUILD_DIR=$build JETPERF_CMAKE_ARGS="${cmake_args[*]} ${JETPERF_CMAKE_ARGS:-}" ./deploy/build.sh
cd "$build"
if [ $# -gt 0 ]; then
  ctest --output-on-failure -j "${JETPERF_TEST_JOBS:-2}" --timeout 600 "$@"
else
  ctest --output-on-failure -j "${JETPERF_TEST_JOBS:-2}" --timeout 600 "${labels[@]}"
fi
