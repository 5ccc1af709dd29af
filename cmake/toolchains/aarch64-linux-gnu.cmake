# Cross build for the boards (every Jetson is arm64) with Debian's multiarch packages:
# crossbuild-essential-arm64 and the :arm64 -dev libraries (deploy/install-deps.sh --arch arm64).
#   cmake -S . -B build-arm64 -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/aarch64-linux-gnu.cmake
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
# Multiarch: libraries in /usr/lib/aarch64-linux-gnu, headers shared in /usr/include.
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
# No CUDA toolkit for arm64 on a Debian machine; on a board, build natively with JetPack's.
set(JETPERF_WITH_CUDA OFF CACHE STRING "" FORCE)
# Tests run under qemu: ctest and gtest_discover_tests go through the emulator. Children that the
# tests start (jetperfd, the simulated nvpmodel) need qemu registered with binfmt_misc too.
find_program(JETPERF_QEMU_AARCH64 qemu-aarch64-static)
if(JETPERF_QEMU_AARCH64)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${JETPERF_QEMU_AARCH64})
endif()
set(CPACK_DEBIAN_PACKAGE_ARCHITECTURE arm64)
