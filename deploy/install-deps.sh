#!/usr/bin/env bash
# Installs what configuring, building and running jetperf need (and with --tests what its test
# suite needs besides), from the Debian/Ubuntu archive, on a bare machine (Debian 11/12, Ubuntu
# 20.04/22.04/24.04; JetPack 5/6 are Ubuntu 20.04/22.04).
#
#   deploy/install-deps.sh                 # native build (the quick start, build-deb.sh)
#   deploy/install-deps.sh --tests         # also the test-only packages (run-tests.sh): prometheus
#                                          # and chromium, which sim tests start at run time
#   deploy/install-deps.sh --arch arm64    # cross build for the boards: crossbuild-essential-arm64,
#                                          # the :arm64 libraries (multiarch) and qemu-user-static;
#                                          # with --tests also registered with binfmt_misc
#   deploy/install-deps.sh --compiler gcc-9  # also that compiler (the gcc-9 floor check)
#
# Two sets, so that the quick start does not pull in a browser (chromium is about 150 MB with its
# libraries) and a Prometheus server that only tests use: nothing in the configure or the build
# looks for either (the sim tests find them on PATH when they run). GoogleTest stays in the base
# set: the default configure (JETPERF_BUILD_TESTS=ON, what the quick start builds) requires it.
#
# Required packages must exist in the archive; optional ones (OpenBLAS, oneDNN: their points are
# then "not supported by this build"; CLI11: without it the client is not built; libjs-dygraphs,
# libjs-chart.js: the page names the missing one; chromium: the browser test skips) are installed
# where the archive has them. CUDA, cuBLAS and
# cuDNN come from NVIDIA (JetPack on a Jetson; /usr/local/cuda elsewhere) and are never installed
# here. Uses sudo when not root, and apt only when something is missing.
#
# What each find_package() in cmake/dependencies.cmake pulls in (audited): Boost's config needs
# only the headers (Beast, Asio; Boost.System is header-only since 1.69); spdlog's config needs
# fmt (libspdlog-dev depends on libfmt-dev); GTest's config needs Threads; SQLite3 and CLI11 have
# no dependencies; oneDNN is found by library and header, not by Debian's dnnl-config.cmake (which
# requires the OpenCL headers).
set -euo pipefail

arch=""
compiler=""
tests=0
while [ $# -gt 0 ]; do
  case "$1" in
    --arch) arch=$2; shift 2 ;;
    --compiler) compiler=$2; shift 2 ;;
    --tests) tests=1; shift ;;
    *) echo "install-deps: unknown option $1 (--tests, --arch ARCH, --compiler gcc-N)" >&2; exit 2 ;;
  esac
done

native=$(dpkg --print-architecture)
[ "$arch" = "$native" ] && arch=""
suffix=${arch:+:$arch}

# Tools run on the build machine; libraries are for the target architecture.
tools=(build-essential cmake ninja-build ccache pkg-config
  file                         # CPack's .deb generator inspects the binaries with it
  curl)                        # the quick start shows the raw API with curl
libraries=(libboost-dev        # Beast and Asio (header-only)
  libspdlog-dev libfmt-dev libsqlite3-dev
  libgtest-dev libgmock-dev)
arch_all=(nlohmann-json3-dev)   # header-only, Architecture: all
optional=(libopenblas-dev      # the CPU GEMM backend
  libdnnl-dev                  # oneDNN: CPU half GEMM and the CPU DNN layer backend
  libcli11-dev                 # the client's command line (not packaged in Debian 11 or Ubuntu 20.04)
  libjs-dygraphs libjs-chart.js)  # the web page's plots (Depends of the .deb; the browser test loads them)
if [ "$tests" = 1 ]; then
  # Test only; both run on the build machine, also in a cross build.
  tools+=(prometheus)          # the sim test that scrapes two daemons (tests/sim/prometheus_sim_test.cpp)
  optional+=(chromium)         # the headless browser of tests/sim/web_page_sim_test.cpp
  # The Python package's tests (python/tests, ctest label python): Debian's pandas and
  # matplotlib, pytest, and venv for the `pip install ./python` test.
  tools+=(python3-pandas python3-matplotlib python3-pytest python3-setuptools python3-venv python3-pip)
  optional+=(mypy)             # checks that a script sees the installed package's type hints
  tools+=(zsh fish)            # parse the completion scripts the client writes (client_reference_sim)
                               # (Ubuntu's chromium-browser is a snap stub: that test then skips)
fi
if [ -n "$arch" ]; then
  case "$arch" in
    arm64) triplet=aarch64-linux-gnu ;;
    *) echo "install-deps: cross builds are set up for arm64 only" >&2; exit 2 ;;
  esac
  # qemu-aarch64-static: the toolchain file makes it the emulator through which a build with
  # tests lists them (gtest_discover_tests runs each test binary) and ctest runs them.
  tools+=(crossbuild-essential-"$arch" qemu-user-static)
  # The processes that the tests start need qemu registered with binfmt_misc (below): only then.
  [ "$tests" = 1 ] && tools+=(binfmt-support)
fi
[ -n "$compiler" ] && tools+=("$compiler" "${compiler/gcc/g++}")

sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive

if [ -n "$arch" ] && ! grep -qx "$arch" <<<"$(dpkg --print-foreign-architectures)"; then
  echo "install-deps: adding the $arch architecture (multiarch)"
  $sudo dpkg --add-architecture "$arch"
fi

installed() { [ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null || true)" = "install ok installed" ]; }
wanted=("${tools[@]}" "${arch_all[@]}")
for p in "${libraries[@]}"; do wanted+=("$p$suffix"); done
missing=()
for p in "${wanted[@]}"; do installed "$p" || missing+=("$p"); done
missing_optional=()
for p in "${optional[@]}"; do
  # CLI11 and the libjs-* are Architecture: all; the browser runs on the build machine.
  case "$p" in libcli11-dev | libjs-* | chromium) q=$p ;; *) q=$p$suffix ;; esac
  installed "$q" || missing_optional+=("$q")
done

tests_note=""
[ "$tests" = 1 ] && tests_note=", the test-only ones among them"
if [ ${#missing[@]} -eq 0 ] && [ ${#missing_optional[@]} -eq 0 ]; then
  echo "install-deps: all $((${#wanted[@]} + ${#optional[@]})) packages are present${arch:+ (for $arch)}${tests_note}"
else
  $sudo apt-get update -q
  # Optional packages only where this archive has them (apt-cache shows a candidate).
  available=()
  for p in "${missing_optional[@]}"; do
    # (Captured first: grep -q stopping early would fail the pipe under pipefail.)
    policy=$(apt-cache policy "$p" 2>/dev/null || true)
    if grep -q 'Candidate: [0-9]' <<<"$policy"; then
      available+=("$p")
    else
      echo "install-deps: $p is not in this archive; the build goes on without it (see README, Building)"
    fi
  done
  echo "install-deps: installing ${missing[*]} ${available[*]}"
  $sudo apt-get install -y -q --no-install-recommends "${missing[@]}" "${available[@]}"
fi

if [ -n "$arch" ] && [ "$tests" = 1 ]; then
  # Running the $arch test binaries needs qemu registered with binfmt_misc (with the F flag, so
  # it also works inside a chroot). A container may have binfmt_misc unmounted: mount it first.
  if [ ! -e /proc/sys/fs/binfmt_misc/register ]; then
    $sudo mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc 2>/dev/null || true
  fi
  qemu_name=qemu-${triplet%%-*}
  if [ ! -e "/proc/sys/fs/binfmt_misc/$qemu_name" ] && [ -e /proc/sys/fs/binfmt_misc/register ]; then
    $sudo update-binfmts --enable "$qemu_name" 2>/dev/null ||
      { [ -r "/usr/lib/binfmt.d/$qemu_name.conf" ] &&
        $sudo sh -c "cat /usr/lib/binfmt.d/$qemu_name.conf > /proc/sys/fs/binfmt_misc/register"; } || true
  fi
  if [ -e "/proc/sys/fs/binfmt_misc/$qemu_name" ]; then
    echo "install-deps: $arch binaries run through qemu ($qemu_name is registered with binfmt_misc)"
  else
    echo "install-deps: $qemu_name is not registered with binfmt_misc; $arch tests cannot run here" >&2
  fi
fi
