#!/usr/bin/env bash
# The README's first command: installs dependencies, builds, starts jetperfd on loopback (on the
# built-in simulated board when no Jetson is present), submits a small GEMM sweep through the
# client, watches it and prints its results and the most efficient setting. Leaves nothing running.
set -euo pipefail
cd "$(dirname "$0")/.."
./deploy/install-deps.sh
./deploy/build.sh jetperfd jetperf jetperf-sim-nvpmodel jetperf-sim-tegrastats
build=$(pwd)/${JETPERF_BUILD_DIR:-build}
state=$(mktemp -d /tmp/jetperf-quickstart.XXXXXX)
port=${JETPERF_PORT:-7070}

"$build/daemon/jetperfd" --config /dev/null --listen "127.0.0.1:$port" --db "$state/jetperf.db" \
  --token-file "$state/token" --sim-dir "$state/sim" --ready-file "$state/ready" \
  --log-level warn 2>"$state/jetperfd.log" &
daemon=$!
trap 'kill $daemon 2>/dev/null; wait $daemon 2>/dev/null; echo "daemon log and database: $state"' EXIT
for _ in $(seq 1 100); do [ -s "$state/ready" ] && break; sleep 0.1; done
[ -s "$state/ready" ] || { echo "jetperfd did not start:"; cat "$state/jetperfd.log"; exit 1; }

export JETPERF_HOST="127.0.0.1:$port" JETPERF_TOKEN="$(cat "$state/token")"
jetperf() { "$build/client/jetperf" "$@"; }
jetperf health
jetperf board
id=$(jetperf submit gemm --device cpu --dtype float,double --sizes 128:384:128 --cpu-freq min,max \
       --min-time-s 0.2 --max-time-s 1 --target-rse 0.02 --tag quickstart --json | sed -n 's/^ *"id": *\([0-9]*\).*/\1/p' | head -1)
jetperf watch "$id"
jetperf results "$id"
jetperf compare "$id" --by cpu_freq_khz
