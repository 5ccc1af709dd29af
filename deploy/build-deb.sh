#!/usr/bin/env bash
# Builds the Debian package: jetperf_<version>_<arch>.deb with the daemon, the client, the
# simulator's tools, the systemd unit and the default config, installed under /usr.
#
#   deploy/build-deb.sh            # for this machine's architecture (amd64 here)
#   deploy/build-deb.sh arm64      # cross-built for the boards (Debian multiarch, no CUDA)
#
# Installs its build dependencies first (deploy/install-deps.sh [--arch]); JETPERF_SKIP_DEPS=1
# skips that. Builds in ${JETPERF_BUILD_DIR:-build-deb-<arch>} (no tests) and writes the package
# to ${JETPERF_DEB_DIR:-.}. CUDA follows JETPERF_WITH_CUDA (default AUTO) for native builds; the
# package then depends on the CUDA libraries as the system's packages provide them (JetPack).
set -euo pipefail
cd "$(dirname "$0")/.."
native=$(dpkg --print-architecture)
arch=${1:-$native}
out=${JETPERF_DEB_DIR:-.}
args=(-DCMAKE_INSTALL_PREFIX=/usr -DJETPERF_BUILD_TESTS=OFF -DJETPERF_BUILD_BENCH=OFF)
if [ "$arch" != "$native" ]; then
  case "$arch" in
    arm64) args+=(-DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/aarch64-linux-gnu.cmake) ;;
    *) echo "build-deb: cross builds are set up for arm64 only" >&2; exit 2 ;;
  esac
  # dpkg-shlibdeps looks up the arm64 libraries' packages through the multiarch paths.
  export DEB_HOST_ARCH=$arch
  if [ "${JETPERF_SKIP_DEPS:-0}" != 1 ]; then ./deploy/install-deps.sh --arch "$arch"; fi
else
  args+=(-DJETPERF_WITH_CUDA=${JETPERF_WITH_CUDA:-AUTO})
  if [ "${JETPERF_SKIP_DEPS:-0}" != 1 ]; then ./deploy/install-deps.sh; fi
fi
export JETPERF_BUILD_DIR=${JETPERF_BUILD_DIR:-build-deb-$arch}
JETPERF_CMAKE_ARGS="${args[*]} ${JETPERF_CMAKE_ARGS:-}" ./deploy/build.sh
(cd "$JETPERF_BUILD_DIR" && cpack -G DEB >cpack.log) || { cat "$JETPERF_BUILD_DIR/cpack.log" >&2; exit 1; }
version=$(sed -n 's/^#define JETPERF_VERSION "\(.*\)"/\1/p' "$JETPERF_BUILD_DIR/generated/jetperf/config.hpp")
deb="jetperf_${version}_${arch}.deb"
mkdir -p "$out"
cp "$JETPERF_BUILD_DIR/$deb" "$out/$deb"
echo "build-deb: $out/$deb"
dpkg-deb --field "$out/$deb" Package Version Architecture Depends
