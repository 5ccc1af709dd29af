#!/usr/bin/env bash
# Builds the Debian package: jetperf_<version>_<arch>.deb with the daemon, the client, the
# simulator's tools, the systemd unit and the default config, installed under /usr.
#
#   deploy/build-deb.sh            # for this machine's architecture (amd64 here)
#   deploy/build-deb.sh arm64      # cross-built for the boards (Debian 12 multiarch, no CUDA), in a
#                                  # fresh Debian 12 chroot of its own
#
# Installs its build dependencies first (deploy/install-deps.sh [--arch]); JETPERF_SKIP_DEPS=1
# skips that. Builds in ${JETPERF_BUILD_DIR:-build-deb-<arch>} (no tests) and writes the package
# to ${JETPERF_DEB_DIR:-.}. CUDA follows JETPERF_WITH_CUDA (default AUTO) for native builds; the
# package then depends on the CUDA libraries as the system's packages provide them (JetPack).
#
# Why the cross build takes a chroot: it needs the :arm64 -dev libraries installed beside the
# machine's own, and Debian's oneDNN headers are not co-installable across architectures
# (libdnnl-dev:amd64, which the quick start installs, and libdnnl-dev:arm64 both ship
# /usr/include/oneapi/dnnl/dnnl_config.h, with different contents: apt refuses the second). So
# by default build-deb.sh runs itself in a fresh Debian 12 chroot (deploy/chroot.sh, which
# copies the checkout in and deletes the chroot afterwards; it needs root, through sudo when not
# root, and mmdebstrap, installed with apt when missing): the multiarch set-up and its packages
# stay in there, this machine's packages and architectures are left as they are, and the
# package comes out in ${JETPERF_DEB_DIR:-.}. JETPERF_CROSS_IN_PLACE=1 does the multiarch set-up
# and the build on this machine instead (dpkg --add-architecture, the :arm64 packages), where
# they co-install (no libdnnl-dev of another architecture); build-deb.sh sets it for its own call
# inside the chroot, and check-platforms.sh inside its.
set -euo pipefail
cd "$(dirname "$0")/.."
native=$(dpkg --print-architecture)
arch=${1:-$native}
out=${JETPERF_DEB_DIR:-.}
case "$arch" in
  "$native" | arm64) ;;
  *) echo "build-deb: cross builds are set up for arm64 only" >&2; exit 2 ;;
esac

if [ "$arch" != "$native" ] && [ "${JETPERF_CROSS_IN_PLACE:-0}" != 1 ]; then
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || {
      echo "build-deb: the $arch build runs in a chroot, which needs root (chroot, mount): run as root or install sudo" >&2
      exit 2
    }
    sudo=sudo
    echo "build-deb: the $arch build runs in a chroot (deploy/chroot.sh), which needs root: using sudo"
  fi
  if ! command -v mmdebstrap >/dev/null; then
    # A tool of this machine's (it makes the chroot's base system), not a build dependency.
    echo "build-deb: installing mmdebstrap, which makes the chroot's Debian 12 base system"
    $sudo apt-get update -q
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends mmdebstrap
  fi
  mkdir -p "$out"
  out=$(cd "$out" && pwd)
  # sudo clears the environment: hand the JETPERF_* settings over by name (chroot.sh passes them
  # on into the chroot). Inside, the build is in place, the dependencies are installed (the chroot
  # starts bare, whatever JETPERF_SKIP_DEPS says here) and the package goes to the bound /out.
  pass=()
  while IFS='=' read -r name _; do
    case "$name" in JETPERF_*) pass+=("$name=${!name}") ;; esac
  done < <(env)
  pass+=(JETPERF_CROSS_IN_PLACE=1 JETPERF_SKIP_DEPS=0 JETPERF_DEB_DIR=/out)
  start=$SECONDS
  $sudo env "${pass[@]}" ./deploy/chroot.sh --suite bookworm --out "$out" -- ./deploy/build-deb.sh "$arch"
  version=$(sed -n 's/^project(jetperf VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)
  deb="jetperf_${version}_${arch}.deb"
  [ -s "$out/$deb" ] || { echo "build-deb: the chroot left no $out/$deb" >&2; exit 1; }
  # Written by root inside the chroot: hand it to whoever asked for it.
  if [ -n "$sudo" ]; then $sudo chown "$(id -u):$(id -g)" "$out/$deb"; fi
  echo "build-deb: $out/$deb (built in a Debian 12 chroot in $((SECONDS - start)) s)"
  exit 0
fi

args=(-DCMAKE_INSTALL_PREFIX=/usr -DJETPERF_BUILD_TESTS=OFF -DJETPERF_BUILD_BENCH=OFF)
if [ "$arch" != "$native" ]; then
  args+=(-DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/aarch64-linux-gnu.cmake)  # arm64, checked above
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
