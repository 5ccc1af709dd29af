#!/usr/bin/env bash
# The checks too slow for every CI run, each in a fresh chroot (deploy/chroot.sh), for the
# supported-platforms table in docs/platforms.md. Run before a release or after build-system changes.
#
#   deploy/check-platforms.sh arm64    # Debian 12: jetperf_<version>_arm64.deb cross-built, and
#                                      # the unit tests (and with JETPERF_ARM64_SIM=1 the sim
#                                      # tests too) run under qemu-user
#   deploy/check-platforms.sh gcc-9    # Debian 11 with gcc-9 (JetPack 5's compiler), Boost 1.74,
#                                      # CMake 3.18: build everything, run the unit tests
#   deploy/check-platforms.sh          # both
#
# Each check prints its wall time; packages land in ${JETPERF_DEB_DIR:-./packages}.
set -euo pipefail
cd "$(dirname "$0")/.."
checks=("$@")
[ ${#checks[@]} -gt 0 ] || checks=(arm64 gcc-9)
debs=$(mkdir -p "${JETPERF_DEB_DIR:-packages}" && cd "${JETPERF_DEB_DIR:-packages}" && pwd)

for check in "${checks[@]}"; do
  start=$SECONDS
  case "$check" in
    arm64)
      # The tests start programs of their own (the simulator's nvpmodel and tegrastats, gtest's
      # death tests), arm64 executables too: the kernel runs them only through a binfmt_misc
      # registration of qemu, made with the fix-binary flag so that it works inside the chroot.
      if [ ! -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ]; then
        mountpoint -q /proc/sys/fs/binfmt_misc || mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends qemu-user-static binfmt-support
      fi
      labels=unit
      [ "${JETPERF_ARM64_SIM:-0}" = 1 ] && labels='unit|sim'
      # What qemu-user does not emulate, run apart and shown, not counted: its prctl refuses
      # PR_SET_CHILD_SUBREAPER (EINVAL in 7.2), which the first test asserts first; and it writes
      # /proc/self/stat itself, with 0 for the process group the second reads (other processes'
      # stat files, which the daemon's sweep reads, are the kernel's). A board's kernel has both.
      emulated_away='user_process.what_left_the_process_group_is_killed_when_the_run_ends|run_leftovers.this_process_reads_as_itself'
      # In place: this is the fresh chroot that build-deb.sh would otherwise make for itself.
      ./deploy/chroot.sh --suite bookworm --out "$debs" -- bash -euo pipefail -c "
        JETPERF_CROSS_IN_PLACE=1 JETPERF_DEB_DIR=/out ./deploy/build-deb.sh arm64
        ./deploy/run-tests.sh --arch arm64 -- -L '$labels' -E '$emulated_away'
        (cd build-arm64 && ctest -R '$emulated_away' --output-on-failure) ||
          echo 'check-platforms: $emulated_away fails under qemu-user (see above), as expected'
        file build-arm64/daemon/jetperfd"
      ;;
    gcc-9)
      ./deploy/chroot.sh --suite bullseye -- bash -euo pipefail -c "
        # The benchmarks are left out: the floor is about compiling the code and the unit tests.
        JETPERF_CMAKE_ARGS=-DJETPERF_BUILD_BENCH=OFF ./deploy/run-tests.sh --compiler gcc-9 -- -L unit
        grep -E 'CMAKE_CXX_COMPILER:|Boost_DIR' build-gcc-9/CMakeCache.txt
        cmake --version | head -n 1"
      ;;
    *) echo "check-platforms: unknown check $check (arm64, gcc-9)" >&2; exit 2 ;;
  esac
  echo "check-platforms: $check passed in $((SECONDS - start)) s"
done
