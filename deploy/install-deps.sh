#!/usr/bin/env bash
# Installs jetperf's build and test dependencies from the Debian/Ubuntu archive.
# CUDA, cuBLAS and cuDNN are optional and come from NVIDIA (JetPack on a Jetson; /usr/local/cuda).
set -euo pipefail

packages=(
  build-essential cmake ninja-build ccache pkg-config
  libboost-dev            # Beast and Asio (header-only)
  nlohmann-json3-dev libspdlog-dev libsqlite3-dev libcli11-dev
  libgtest-dev libgmock-dev
  libopenblas-dev         # CPU GEMM backend
  libdnnl-dev             # oneDNN: CPU half-precision GEMM and DNN layers
  curl                    # used by the quick start to show the raw API
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages are present"
  exit 0
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
$sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
