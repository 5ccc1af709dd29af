#!/usr/bin/env bash
# The README's first command: installs dependencies, builds what it needs, starts jetperfd on
# loopback with a throw-away state directory (on a machine without a Jetson it serves the
# built-in simulated AGX Orin), shows the board, runs a small GEMM sweep on the CPU backend
# through the client (two CPU clocks x three sizes, adaptive stopping; well under a minute),
# prints its results and which CPU clock was the most efficient, then stops the daemon.
# Needs no terminal and leaves nothing running.
#
# Environment: JETPERF_BUILD_DIR (default build), JETPERF_PORT (default 0 = any free port),
# JETPERF_SKIP_DEPS=1 to skip the package check, JETPERF_KEEP_STATE=1 to keep the state directory.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "${JETPERF_SKIP_DEPS:-0}" != 1 ]; then ./deploy/install-deps.sh; fi
./deploy/build.sh jetperfd jetperf jetperf-sim-nvpmodel jetperf-sim-tegrastats
build=$(cd "${JETPERF_BUILD_DIR:-build}" && pwd)
state=$(mktemp -d "${TMPDIR:-/tmp}/jetperf-quickstart.XXXXXX")
port=${JETPERF_PORT:-0}

daemon=""
cleanup() {
  local rc=$?
  if [ -n "$daemon" ] && kill -0 "$daemon" 2>/dev/null; then
    kill -TERM "$daemon" 2>/dev/null || true
    # Give it 20 s to restore the board and close the database, then make sure.
    for _ in $(seq 1 200); do kill -0 "$daemon" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$daemon" 2>/dev/null || true
    wait "$daemon" 2>/dev/null || true
  fi
  if [ "$rc" -ne 0 ]; then
    echo "quickstart failed (exit $rc); daemon log: $state/jetperfd.log" >&2
    tail -n 20 "$state/jetperfd.log" >&2 2>/dev/null || true
  elif [ "${JETPERF_KEEP_STATE:-0}" = 1 ]; then
    echo "state kept in $state"
  else
    rm -rf "$state"
  fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# stdin from /dev/null: the daemon must not hold the caller's terminal.
"$build/daemon/jetperfd" --config /dev/null --listen "127.0.0.1:$port" --db "$state/jetperf.db" \
  --token-file "$state/token" --sim-dir "$state/sim" --ready-file "$state/ready" \
  --log-level warn </dev/null >"$state/jetperfd.log" 2>&1 &
daemon=$!
for _ in $(seq 1 200); do
  [ -s "$state/ready" ] && break
  kill -0 "$daemon" 2>/dev/null || { echo "jetperfd exited before it was ready" >&2; exit 1; }
  sleep 0.1
done
[ -s "$state/ready" ] || { echo "jetperfd was not ready within 20 s" >&2; exit 1; }
address=$(head -n 1 "$state/ready")
address=${address##*/}

export JETPERF_HOST="$address" JETPERF_TOKEN="$(cat "$state/token")"
jetperf() { "$build/client/jetperf" "$@"; }

echo "== jetperf health"
jetperf health
echo
echo "== jetperf board"
jetperf board
echo
echo "== jetperf submit gemm (CPU backend, one thread: 2 CPU clocks x 3 sizes, float)"
out=$(mktemp "$state/submit.XXXXXX")
# One thread: on a simulated board a CPU clock is a time slice of the host's core, and a thread
# pool's threads, each in its slices, wait for each other far longer than a board's cores would.
jetperf submit gemm --device cpu --dtype float --sizes 64,128,192 --cpu-freq min,max --threads 1 \
  --warmup-s 0.05 --min-time-s 0.2 --max-time-s 1 --target-rse 0.02 --tag quickstart --watch | tee "$out"
id=$(sed -n 's/^submitted job \([0-9][0-9]*\).*/\1/p' "$out" | head -n 1)
[ -n "$id" ] || { echo "no job id in the client's answer" >&2; exit 1; }
echo
echo "== jetperf results $id"
jetperf results "$id"
echo
echo "== jetperf compare $id --by cpu_freq_khz"
jetperf compare "$id" --by cpu_freq_khz
echo
echo "quickstart done (the daemon stops now); start your own with $build/daemon/jetperfd --help"
