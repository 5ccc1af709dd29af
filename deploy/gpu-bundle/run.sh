#!/usr/bin/env bash
# The GPU half of jetperf, checked in one bounded run on a machine with an NVIDIA GPU.
#
#   ./run.sh [--minutes N] OUTDIR        (default 8 minutes; OUTDIR gets report.json and report.md)
#
# Runs, in this order, each step under its share of the time: the `gpu` device tests; cuBLAS GEMM
# per dtype with tensor cores on and off (a gemm job on the `dgpu` board) beside torch.matmul;
# cuDNN layer latency of resnet50 and mobilenet_v2 blocks beside PyTorch eager; a layers job end to
# end with NVML power; a gemm sweep across the GPU clocks NVML offers; one point's CUPTI kernel
# trace; the multi_dnn GPU checks and the 2-4-network CPU rate benchmark. The bundle carries no
# CUDA, cuBLAS, cuDNN or driver library: they are looked up here (the toolkit's lib64, Python's
# `nvidia` packages) and named in the report. Without a GPU every step is skipped, saying so.
# Exits 0 when every step ran (whatever its figures), 1 when one could not, 2 on a usage error.
# JETPERF_BUNDLE_BOARD (default dgpu) runs the jobs on another board, e.g. a simulated one, to try
# the run's own plumbing on a machine without a GPU (with a stand-in nvidia-smi on the PATH).
set -uo pipefail

bundle=$(cd "$(dirname "$0")" && pwd)
minutes=8
out=""
while [ $# -gt 0 ]; do
  case "$1" in
    --minutes) minutes=${2:-}; shift 2 ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    -*) echo "run.sh: unknown option $1" >&2; exit 2 ;;
    *) out=$1; shift ;;
  esac
done
[ -n "$out" ] || { echo "usage: run.sh [--minutes N] OUTDIR" >&2; exit 2; }
[[ "$minutes" =~ ^[0-9]+$ ]] && [ "$minutes" -ge 1 ] || { echo "run.sh: --minutes takes a whole number >= 1" >&2; exit 2; }
mkdir -p "$out/steps" && out=$(cd "$out" && pwd) || exit 2
cd "$bundle" || exit 2
budget_s=$((minutes * 60))
board=${JETPERF_BUNDLE_BOARD:-dgpu}
start_s=$SECONDS
say() { echo "run.sh: $*"; }
env_line() { echo "$1: $2" >>"$out/environment.txt"; say "$1: $2"; }
: >"$out/environment.txt"
# What the machine offers is recorded before anything runs; the bundle's own programs then find
# the CUDA libraries through LD_LIBRARY_PATH, Python keeps the environment it came with.
plain_ld_path=${LD_LIBRARY_PATH:-}

# ---- the machine: GPU, CUDA libraries, Python ------------------------------------------------

gpu_found() {
  if command -v nvidia-smi >/dev/null 2>&1; then
    nvidia-smi -L 2>/dev/null | grep -q '^GPU '
  else
    ls /dev/nvidia[0-9]* >/dev/null 2>&1
  fi
}

# Directories that may hold CUDA's libraries: the toolkit's, then the pip packages' (PyTorch's
# nvidia-cudnn-cu*, nvidia-cublas-cu*, ...), in that order.
cuda_lib_dirs() {
  local root sub
  for root in "${CUDA_HOME:-}" "${CUDA_PATH:-}" /usr/local/cuda /usr/local/cuda-* /opt/cuda; do
    [ -n "$root" ] && [ -d "$root" ] || continue
    for sub in lib64 lib targets/x86_64-linux/lib targets/sbsa-linux/lib extras/CUPTI/lib64; do
      [ -d "$root/$sub" ] && readlink -f "$root/$sub"
    done
  done
  if [ -n "$python" ]; then
    LD_LIBRARY_PATH=$plain_ld_path "$python" - <<'EOF' 2>/dev/null
import os
try:
    import nvidia
except ImportError:
    raise SystemExit(0)
for root in nvidia.__path__:
    for d in sorted(os.listdir(root)):
        if os.path.isdir(os.path.join(root, d, "lib")):
            print(os.path.join(root, d, "lib"))
EOF
  fi
}

# The first Python that imports torch (PyTorch's), else the first python3 at all.
find_python() {
  local p
  for p in python3 python /usr/bin/python3; do
    command -v "$p" >/dev/null 2>&1 && "$p" -c 'import torch' >/dev/null 2>&1 && { command -v "$p"; return; }
  done
  command -v python3 2>/dev/null || true
}

# Each library the bundle needs from the machine (needs-cuda.txt), where it was found.
locate_cuda_libs() {
  local dirs=() used=() lib d found
  mapfile -t dirs < <(cuda_lib_dirs | awk '!seen[$0]++')
  while read -r lib; do
    [ -n "$lib" ] || continue
    found=""
    for d in "${dirs[@]}"; do [ -e "$d/$lib" ] && { found=$d/$lib; break; }; done
    if [ -z "$found" ]; then found=$(ldconfig -p 2>/dev/null | awk -v l="$lib" '$1 == l { print $NF; exit }'); fi
    if [ -n "$found" ]; then
      env_line "$lib" "$(readlink -f "$found") (found in $(dirname "$found"))"
      used+=("$(dirname "$found")")
    else
      env_line "$lib" "not found"
    fi
  done <"$bundle/needs-cuda.txt"
  cuda_path=$(printf '%s\n' "${used[@]}" | awk 'NF && !seen[$0]++' | paste -sd:)
}

versions() {
  local q
  if command -v nvidia-smi >/dev/null 2>&1; then
    q=$(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null | head -n 1)
    env_line "gpu, driver, memory" "${q:-nvidia-smi gave no answer}"
    env_line "driver's CUDA" "$(nvidia-smi 2>/dev/null | sed -n 's/.*CUDA Version: *\([0-9.]*\).*/\1/p' | head -n 1)"
  fi
  for nvcc in "${CUDA_HOME:-/usr/local/cuda}/bin/nvcc" "$(command -v nvcc 2>/dev/null)"; do
    [ -x "$nvcc" ] && { env_line "CUDA toolkit" "$("$nvcc" --version | tail -n 2 | head -n 1)"; break; }
  done
  if [ -n "$python" ]; then
    env_line "python" "$python"
    env_line "torch" "$(LD_LIBRARY_PATH=$plain_ld_path "$python" -c 'import torch; print(torch.__version__, "CUDA", torch.version.cuda, "cuDNN", torch.backends.cudnn.version())' 2>/dev/null ||
      echo "not importable: the PyTorch comparisons say so")"
  else
    env_line "python" "none found: the PyTorch comparisons are skipped"
  fi
}

# ---- steps -----------------------------------------------------------------------------------

step_dir=""
step_rc=0
step_t0=0
step_deadline=0

# step_begin NAME PERCENT: the step's share of the budget, never past the run's own end.
step_begin() {
  step_dir="$out/steps/$1"
  mkdir -p "$step_dir/figures"
  : >"$step_dir/commands"
  step_rc=0
  step_t0=$SECONDS
  step_deadline=$((SECONDS + budget_s * $2 / 100))
  local run_end=$((start_s + budget_s))
  [ "$step_deadline" -le "$run_end" ] || step_deadline=$run_end
  say "step $1 (up to $((step_deadline - SECONDS)) s)"
}

step_end() {
  local status=ok
  if [ "$step_rc" -eq 124 ] || [ "$step_rc" -eq 137 ]; then status="timed out ($((step_deadline - step_t0)) s)"
  elif [ "$step_rc" -ne 0 ]; then status="failed (exit $step_rc)"; fi
  echo "$status" >"$step_dir/status"
  echo $((SECONDS - step_t0)) >"$step_dir/seconds"
  say "  $status"
}

step_skip() {  # step_skip NAME REASON
  mkdir -p "$out/steps/$1"
  echo "$2" >"$out/steps/$1/status"
  echo 0 >"$out/steps/$1/seconds"
  say "step $1: $2"
}

# cmd [>FIGURE] PROGRAM ARGS...: runs under the step's remaining time, output to the step's log
# (or stdout into figures/FIGURE.json), the command line into the step's commands; the step keeps
# its first failure.
cmd() {
  local figure=""
  case "$1" in '>'*) figure=${1#>}; shift ;; esac
  local left=$((step_deadline - SECONDS)) rc
  echo "$*${figure:+ > figures/$figure.json}" >>"$step_dir/commands"
  if [ "$left" -le 0 ]; then rc=124
  elif [ -n "$figure" ]; then
    timeout --kill-after=10 "$left" "$@" >"$step_dir/figures/$figure.json" 2>>"$step_dir/log.txt"; rc=$?
  else
    timeout --kill-after=10 "$left" "$@" >>"$step_dir/log.txt" 2>&1; rc=$?
  fi
  [ "$step_rc" -ne 0 ] || step_rc=$rc
  return "$rc"
}

# Python with the environment it came with (PyTorch loads its own CUDA libraries), as a command
# that `timeout` can run and a reader can retype.
py() {
  if [ -n "$plain_ld_path" ]; then echo env "LD_LIBRARY_PATH=$plain_ld_path" "$python"
  else echo env -u LD_LIBRARY_PATH "$python"; fi
}

# job FIGURE COLUMNS KIND ARGS...: submits a job to the daemon, follows it until the step's time
# is up (then cancels it, so the next step does not queue behind it) and keeps its results.
job() {
  local figure=$1 columns=$2 id
  shift 2
  cmd bin/jetperf submit "$@" || return
  id=$(sed -n 's/^submitted job \([0-9]*\).*/\1/p' "$step_dir/log.txt" | tail -n 1)
  [ -n "$id" ] || { step_rc=1; return 1; }
  last_job=$id
  cmd bin/jetperf watch "$id"
  case $? in
    124 | 137)
      timeout 30 bin/jetperf cancel "$id" >>"$step_dir/log.txt" 2>&1
      echo "bin/jetperf cancel $id" >>"$step_dir/commands" ;;
  esac
  timeout 60 bin/jetperf results "$id" --format json -o "$step_dir/figures/$figure.json" >>"$step_dir/log.txt" 2>&1
  echo "bin/jetperf results $id --format json -o figures/$figure.json" >>"$step_dir/commands"
  echo "$columns" >"$step_dir/figures/$figure.columns"
}

# ---- the daemon on the dgpu board -----------------------------------------------------------

daemon_pid=""
start_daemon() {
  local state="$out/daemon" i port
  mkdir -p "$state"
  head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n' >"$state/token"
  chmod 600 "$state/token"
  bin/jetperfd --board "$board" --listen 127.0.0.1:0 --ready-file "$state/ready" --db "$state/jetperf.db" \
    --token-file "$state/token" --config /dev/null --sim-dir "$state/sim" --log-level info >"$state/jetperfd.log" 2>&1 &
  daemon_pid=$!
  for i in $(seq 1 100); do
    [ -s "$state/ready" ] && break
    kill -0 "$daemon_pid" 2>/dev/null || break
    sleep 0.2
  done
  port=$(sed -n 's/.*:\([0-9][0-9]*\).*/\1/p' "$state/ready" 2>/dev/null | head -n 1)
  [ -n "$port" ] || { say "jetperfd did not start (see $state/jetperfd.log)"; return 1; }
  export JETPERF_HOST=127.0.0.1:$port JETPERF_TOKEN=$(cat "$state/token")
  say "jetperfd on the $board board at $JETPERF_HOST (log: $state/jetperfd.log)"
}
stop_daemon() { [ -z "$daemon_pid" ] || { kill "$daemon_pid" 2>/dev/null; wait "$daemon_pid" 2>/dev/null; }; }
trap stop_daemon EXIT

# ---- the run ---------------------------------------------------------------------------------

steps=(01-gpu_tests 02-gemm_tflops 03-layers_cudnn 04-layers_end_to_end 05-gemm_clocks 06-kernel_trace 07-multi_dnn)
python=$(find_python)
env_line "bundle" "$(cat "$bundle/BUILD-INFO" 2>/dev/null | paste -sd' ')"
env_line "host" "$(uname -srm), $(nproc) cores"
env_line "budget" "$minutes minutes"
# Through their own runpaths, before any CUDA library is looked for: the bundle's programs start.
env_line "jetperfd" "$(bin/jetperfd --version 2>&1 | head -n 1)"
env_line "jetperf" "$(bin/jetperf --version 2>&1 | head -n 1)"
if ! gpu_found; then
  env_line "gpu" "none found (nvidia-smi -L lists no GPU, or no /dev/nvidia0 without it)"
  for s in "${steps[@]}"; do step_skip "$s" "skipped: no GPU"; done
  bin/jetperf-bundle-report "$out"
  rc=$?
  say "no GPU: every step skipped; report in $out/report.md"
  exit "$rc"
fi
versions
locate_cuda_libs
export LD_LIBRARY_PATH="$bundle/lib${cuda_path:+:$cuda_path}${plain_ld_path:+:$plain_ld_path}"
export JETPERF_TEST_DAEMON="$bundle/bin/jetperfd" JETPERF_TEST_CLIENT="$bundle/bin/jetperf"
env_line "LD_LIBRARY_PATH (bundle programs)" "$LD_LIBRARY_PATH"
. "$bundle/steps.sh"
run_steps
bin/jetperf-bundle-report "$out"
rc=$?
say "report: $out/report.md and report.json ($((SECONDS - start_s)) s)"
exit "$rc"
