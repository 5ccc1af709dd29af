#!/usr/bin/env bash
# Builds build-gpu/jetperf-gpu-bundle.tar.xz (at most 60 MiB): the GPU half of jetperf, ready to be
# checked in one run on a machine with an NVIDIA GPU, CUDA and PyTorch and nothing else
# (docs/testing.md, "The GPU bundle"):
#
#   bin/        jetperfd, jetperf, jetperf-bundle-report
#   lib/        every shared library those need that a stock CUDA machine lacks (oneDNN, OpenBLAS,
#               spdlog, fmt, SQLite, the GCC runtime, ...), found with ldd; lib/jetperf/: the CUDA
#               plugin and the simulator's programs. Every ELF file's RUNPATH points here ($ORIGIN).
#   tests/      device_tests (the `gpu` label, run without ctest or the source tree)
#   bench/      bench_multi_dnn_rate
#   python/     the PyTorch comparisons
#   run.sh      the run (deploy/gpu-bundle/run.sh); needs-cuda.txt: what it must find on the machine
#
# No CUDA, cuBLAS, cuDNN or driver library is carried (deploy/gpu-bundle/cuda-libs.sh). The CUDA
# plugin is built for sm_80 and sm_90 and the Jetson architectures this toolkit still supports.
# Needs the CUDA toolkit (default /usr/local/cuda, or CUDA_HOME), patchelf and xz (installed with
# apt when missing and run as root). JETPERF_JOBS: build jobs (default: the machine's cores);
# JETPERF_XZ_LEVEL: xz's preset (default 9, about 16 MiB; CI's 1 takes a sixth of the time for
# about 22 MiB).
set -euo pipefail
cd "$(dirname "$0")/.."
src=$(pwd)
build=${JETPERF_BUILD_DIR:-build-gpu}
cuda=${CUDA_HOME:-/usr/local/cuda}
nvcc=$cuda/bin/nvcc
max_mib=60
. deploy/gpu-bundle/cuda-libs.sh

[ -x "$nvcc" ] || { echo "gpu-bundle: no CUDA compiler at $nvcc (set CUDA_HOME)" >&2; exit 2; }
for tool in patchelf:patchelf xz:xz-utils; do
  command -v "${tool%%:*}" >/dev/null && continue
  [ "$(id -u)" -eq 0 ] || { echo "gpu-bundle: needs ${tool%%:*} (apt-get install ${tool#*:})" >&2; exit 2; }
  apt-get install -y -q --no-install-recommends "${tool#*:}" >/dev/null
done

# Data-centre Ampere and Hopper, plus the Jetsons' (Nano 53, TX2 62, Xavier 72, Orin 87, Thor
# 101 before CUDA 13, 110 since) that this nvcc still compiles for.
archs="80 90"
for a in 53 62 72 87 101 110; do
  "$nvcc" --list-gpu-arch | grep -qx "compute_$a" && archs="$archs $a"
done
archs=$(tr ' ' '\n' <<<"$archs" | sort -n | paste -sd';')
echo "gpu-bundle: CUDA architectures $archs"

targets=(jetperfd jetperf jetperf_cuda_plugin device_tests bench_multi_dnn_rate jetperf-bundle-report
  jetperf-sim-nvpmodel jetperf-sim-tegrastats)
JETPERF_BUILD_DIR=$build JETPERF_CMAKE_ARGS="-DJETPERF_WITH_CUDA=ON -DCMAKE_CUDA_COMPILER=$nvcc \
-DCMAKE_CUDA_ARCHITECTURES=$archs -DJETPERF_BUILD_BENCH=ON ${JETPERF_CMAKE_ARGS:-}" \
  ./deploy/build.sh "${targets[@]}"
grep -q "define JETPERF_HAS_CUDA 1" "$build/generated/jetperf/config.hpp" ||
  { echo "gpu-bundle: the build has no CUDA" >&2; exit 1; }

stage=$build/bundle/jetperf-gpu-bundle
rm -rf "$build/bundle"
mkdir -p "$stage"/{bin,lib/jetperf,tests,bench,python}
install -m 755 "$build/daemon/jetperfd" "$build/client/jetperf" "$build/deploy/jetperf-bundle-report" "$stage/bin/"
install -m 755 "$build/lib/jetperf/libjetperf_cuda.so" "$build"/daemon/sim/jetperf-sim-{nvpmodel,tegrastats} "$stage/lib/jetperf/"
install -m 755 "$build/tests/device_tests" "$stage/tests/"
install -m 755 "$build/tests/bench_multi_dnn_rate" "$stage/bench/"
install -m 755 deploy/gpu-bundle/run.sh deploy/gpu-bundle/check-libs.sh "$stage/"
install -m 644 deploy/gpu-bundle/steps.sh deploy/gpu-bundle/cuda-libs.sh "$stage/"
install -m 644 deploy/gpu-bundle/python/*.py "$stage/python/"

# The libraries the programs need, as ldd resolves them here: the C library's parts and the
# machine's CUDA stay behind; the rest is copied under its soname.
programs=()
while IFS= read -r -d '' f; do is_elf "$f" && programs+=("$f"); done < <(find "$stage" -type f -print0)
: >"$stage/needs-cuda.txt"
for f in "${programs[@]}"; do
  ldd "$f" | awk '$2 == "=>" { print $1, $3 }'
done | sort -u | while read -r name path; do
  if is_libc_part "$name"; then continue; fi
  if is_machine_cuda_lib "$name"; then echo "$name" >>"$stage/needs-cuda.txt"; continue; fi
  [ -e "$path" ] || { echo "gpu-bundle: ldd cannot find $name here" >&2; exit 1; }
  [ -e "$stage/lib/$name" ] || install -m 644 "$(readlink -f "$path")" "$stage/lib/$name"
done
sort -u -o "$stage/needs-cuda.txt" "$stage/needs-cuda.txt"

# Symbols are not needed to run; then every ELF file finds its libraries beside it.
while IFS= read -r -d '' f; do
  is_elf "$f" || continue
  strip --strip-unneeded "$f"
  case "${f#"$stage"/}" in
    lib/jetperf/*) patchelf --set-rpath '$ORIGIN/..' "$f" ;;
    lib/*) patchelf --set-rpath '$ORIGIN' "$f" ;;
    *) patchelf --set-rpath '$ORIGIN/../lib' "$f" ;;
  esac
done < <(find "$stage" -type f -print0)

{
  # Outside a clone (CI's chroot copies the files, not .git) the commit is unknown, not changed.
  changes=""
  git -C "$src" diff --quiet HEAD 2>/dev/null || [ $? -ne 1 ] || changes=+changes
  echo "commit $(git -C "$src" rev-parse --short HEAD 2>/dev/null || echo unknown)$changes"
  echo "built $(date -u +%Y-%m-%dT%H:%M:%SZ) with $("$nvcc" --version | sed -n 's/.*release \([0-9.]*\).*/CUDA \1/p')"
  echo "sm $archs"
} >"$stage/BUILD-INFO"

tarball=$build/jetperf-gpu-bundle.tar.xz
tar -C "$build/bundle" -cf - jetperf-gpu-bundle | xz -T0 "-${JETPERF_XZ_LEVEL:-9}" >"$tarball"
size=$(stat -c %s "$tarball")
echo "gpu-bundle: $tarball, $((size / 1024 / 1024)) MiB ($size bytes); needs from the machine: $(paste -sd' ' "$stage/needs-cuda.txt")"
[ "$size" -le $((max_mib * 1024 * 1024)) ] || { echo "gpu-bundle: larger than $max_mib MiB" >&2; exit 1; }
