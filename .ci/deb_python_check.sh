#!/usr/bin/env bash
# Inside the package-install chroot (.ci/run): the installed jetperfd on a simulated board, and
# the installed Python package's example from the README against it (issue 39's done-when: the
# results table printed from `import jetperf` after installing the .deb, nothing else).
set -euo pipefail
# The package's file list holds the Python package with its py.typed (PEP 561), the markers
# module where python3 finds it, and the examples with their command job's program, executable.
for f in /usr/lib/python3/dist-packages/jetperf/__init__.py /usr/lib/python3/dist-packages/jetperf/py.typed \
  /usr/lib/python3/dist-packages/jetperf_markers.py /usr/share/jetperf/examples/python/command_phases.py \
  /usr/share/jetperf/examples/python/programs/phased_work.py; do
  [ "$(dpkg -S "$f" 2>/dev/null | cut -d: -f1)" = jetperf ] || { echo "ci: the package does not ship $f" >&2; exit 1; }
done
[ -x /usr/share/jetperf/examples/python/programs/phased_work.py ] ||
  { echo "ci: the example's command program is not executable" >&2; exit 1; }
state=$(mktemp -d)
/usr/sbin/jetperfd --config /dev/null --listen 127.0.0.1:0 --db "$state/jetperf.db" --token-file "$state/token" \
  --sim-dir "$state/sim" --ready-file "$state/ready" --log-level warn </dev/null >"$state/jetperfd.log" 2>&1 &
daemon=$!
trap 'kill "$daemon" 2>/dev/null || true; wait "$daemon" 2>/dev/null || true' EXIT
for _ in $(seq 200); do
  [ -s "$state/ready" ] && break
  kill -0 "$daemon" 2>/dev/null || { cat "$state/jetperfd.log" >&2; exit 1; }
  sleep 0.1
done
[ -s "$state/ready" ] || { echo "ci: the installed jetperfd was not ready" >&2; cat "$state/jetperfd.log" >&2; exit 1; }
address=$(head -n 1 "$state/ready")
export JETPERF_HOST=${address##*/} JETPERF_TOKEN
JETPERF_TOKEN=$(cat "$state/token")
cd /
python3 -c "import jetperf; b = jetperf.connect(); j = b.submit('gemm', device='cpu', sizes=[128,256], cpu_freqs=['min','max']); j.wait(); print(j.results())" \
  | tee "$state/python.log"
# The table: one line per point (2 sizes x 2 clocks), each "ROW INDEX ok ..." as pandas prints it.
[ "$(grep -cE '^[0-3] +[0-3] +ok ' "$state/python.log")" -eq 4 ] ||
  { echo "ci: the Python example did not print its 4 points, each ok" >&2; exit 1; }
echo "ci: the installed Python package printed the job's results against the installed jetperfd"
