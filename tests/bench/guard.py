#!/usr/bin/env python3
"""A guard against slow drift (issue 58, item 6): runs every tests/bench benchmark briefly and sets
its headline figure against the last one recorded in docs/benchmarks.md, failing on a 3x slip.

The benchmarks, their brief arguments, the JSON path of each one's headline metric, which way is
better and the recorded figure are the table under "## Guard figures" in docs/benchmarks.md, so a
figure is changed where figures are kept, and a new benchmark is one more row there.

Prints one line per benchmark (its figure, the recorded one, the slip and ok / SLIP / ERROR /
SKIP) and then a JSON summary. The slip is how many times worse the figure is than the recorded
one (recorded / figure where higher is better, figure / recorded where lower is), so 0.5x is
twice as good and 3x or more fails. A benchmark that is killed, times out, prints no JSON object
or lacks its metric is an ERROR, and fails too. One that says it cannot run here ({"skipped":
"why"}: no GPU, no OpenBLAS, ...) is a SKIP with its reason, neither a pass nor a failure.
A benchmark's own exit status is shown but does not decide: several exit 1 when they miss a
target of their own (bench_estimates' "every estimate within 2x"), which is not a slip.

Exit status: 0 when nothing slipped or failed, 1 otherwise, 2 for a bad table or arguments.

Usage: /usr/bin/python3 tests/bench/guard.py [BUILD=build] [--only NAME[,NAME]] [--list]
                                             [--keep DIR] [--doc docs/benchmarks.md] [--timeout S]
NAME is a benchmark as the table names it, with or without "bench_" (http_health).
Benchmarks run one after another, never together: on a small machine they would skew each other.
"""
import argparse
import json
import math
import os
import shlex
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
DEFAULT_DOC = os.path.join(REPO, "docs", "benchmarks.md")
SECTION = "## Guard figures"
LIMIT = 3.0  # a figure this many times worse than the recorded one fails
COLUMNS = ("bench", "arguments", "metric", "better", "recorded")


class TableError(Exception):
    pass


def _cells(line):
    return [c.strip().strip("`").strip() for c in line.strip().strip("|").split("|")]


def parse_table(text):
    """The rows of the first table under SECTION whose header names COLUMNS, as dicts with args
    (a list, shell-quoted in the table so that "" is an empty argument) and recorded (a float)."""
    lines = text.splitlines()
    start = next((i for i, l in enumerate(lines) if l.startswith(SECTION)), None)
    if start is None:
        raise TableError(f"no '{SECTION}' section")
    i = start + 1
    while i < len(lines) and not lines[i].startswith("## "):
        if lines[i].lstrip().startswith("|"):
            header = [c.lower() for c in _cells(lines[i])]
            if all(c in header for c in COLUMNS):
                break
        i += 1
    else:
        raise TableError(f"no table with the columns {', '.join(COLUMNS)} under '{SECTION}'")
    rows = []
    for line in lines[i + 2:]:  # past the header and its --- line
        if not line.lstrip().startswith("|"):
            break
        cells = dict(zip(header, _cells(line)))
        name = cells["bench"]
        if not name.startswith("bench_"):
            raise TableError(f"{name}: the bench column names a build/tests/bench_* program")
        if cells["better"] not in ("higher", "lower"):
            raise TableError(f"{name}: better is 'higher' or 'lower', not '{cells['better']}'")
        try:
            recorded = float(cells["recorded"])
        except ValueError:
            raise TableError(f"{name}: recorded '{cells['recorded']}' is not a number") from None
        if not recorded > 0 or math.isinf(recorded):
            raise TableError(f"{name}: recorded must be a positive number")
        rows.append({"bench": name, "args": shlex.split(cells["arguments"]), "metric": cells["metric"],
                     "better": cells["better"], "recorded": recorded, "note": cells.get("from", "")})
    if not rows:
        raise TableError(f"the table under '{SECTION}' has no rows")
    return rows


def last_json_object(text):
    """The last JSON object a benchmark printed: most print one line, some an indented object
    over many lines, and a few print other lines before it."""
    text = text.strip()
    try:
        value = json.loads(text)
        return value if isinstance(value, dict) else None
    except ValueError:
        pass
    decoder = json.JSONDecoder()
    found = None
    pos = 0
    for line in text.splitlines(keepends=True):
        if line.startswith("{"):
            try:
                value, _ = decoder.raw_decode(text, pos)
                if isinstance(value, dict):
                    found = value
            except ValueError:
                pass
        pos += len(line)
    return found


def metric_values(doc, path):
    """The numbers at a dotted path: a component is an object's key, a list's index (cases.1), a
    list's element whose field has a value (cases.case=rails_only), or * for every element or
    value (kinds.*.worst_factor), so one path can stand for a benchmark's worst case."""
    nodes = [doc]
    for part in path.split("."):
        nxt = []
        for n in nodes:
            if part == "*":
                nxt.extend(n.values() if isinstance(n, dict) else n if isinstance(n, list) else [])
            elif "=" in part and isinstance(n, list):
                key, want = part.split("=", 1)
                nxt.extend(e for e in n if isinstance(e, dict) and str(e.get(key)) == want)
            elif isinstance(n, dict) and part in n:
                nxt.append(n[part])
            elif isinstance(n, list) and part.lstrip("-").isdigit() and -len(n) <= int(part) < len(n):
                nxt.append(n[int(part)])
        nodes = nxt
    return nodes


def slip_of(figure, recorded, better):
    """How many times worse figure is than recorded (below 1: better)."""
    if better == "higher":
        return math.inf if figure <= 0 else recorded / figure
    return figure / recorded


def judge(row, stdout, exit_code):
    """The verdict on one benchmark's output: a dict with status (ok, SLIP, ERROR, SKIP), figure,
    slip and reason. exit_code is the process's (negative: killed by that signal; None: it ran out
    of time)."""
    out = {"status": "ERROR", "figure": None, "slip": None, "reason": ""}
    if exit_code is None:
        out["reason"] = "timed out"
        return out
    if exit_code < 0:
        out["reason"] = f"killed by signal {-exit_code}"
        return out
    doc = last_json_object(stdout)
    if doc is None:
        out["reason"] = f"no JSON object on stdout (exit {exit_code})"
        return out
    values = metric_values(doc, row["metric"])
    if not values:
        if isinstance(doc.get("skipped"), str):
            out.update(status="SKIP", reason=doc["skipped"])
        elif "error" in doc:
            out["reason"] = f"the benchmark says: {doc['error']}"
        else:
            out["reason"] = f"no '{row['metric']}' in its JSON (exit {exit_code})"
        return out
    numbers = [v for v in values if isinstance(v, (int, float)) and not isinstance(v, bool)]
    if len(numbers) != len(values) or any(math.isnan(v) for v in numbers):
        out["reason"] = f"'{row['metric']}' is not a number: {json.dumps(values)[:80]}"
        return out
    figure = (max if row["better"] == "lower" else min)(numbers)  # the worst, where * gave several
    slip = slip_of(figure, row["recorded"], row["better"])
    # 3x itself fails ("a 3x slip"); the margin keeps a float a hair under 3 from passing.
    failed = slip >= LIMIT * (1 - 1e-9)
    out.update(status="SLIP" if failed else "ok", figure=figure, slip=slip)
    if exit_code != 0:
        out["reason"] = f"exit {exit_code}"
    return out


def stop_group(proc):
    """Ends a benchmark's process group (its own, with the daemons it started): TERM, then KILL."""
    for sig, grace in ((signal.SIGTERM, 5), (signal.SIGKILL, 5)):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        try:
            proc.wait(grace)
        except subprocess.TimeoutExpired:
            pass


def run_bench(path, args, timeout):
    """Runs one benchmark in a scratch directory; returns (stdout, stderr, exit code or None when
    it ran out of time)."""
    with tempfile.TemporaryDirectory(prefix="jetperf-guard.") as scratch:
        # A session of its own, so that a timeout or ^C can end the daemons it started too.
        proc = subprocess.Popen([path] + args, cwd=scratch, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, start_new_session=True)
        try:
            out, err = proc.communicate(timeout=timeout)
            return out, err, proc.returncode
        except subprocess.TimeoutExpired:
            stop_group(proc)
            out, err = proc.communicate()
            return out, err, None
        except BaseException:
            stop_group(proc)
            raise


def fmt(x):
    return "-" if x is None else f"{x:.4g}"


def line_of(row, verdict, seconds, load):
    slip = "-" if verdict["slip"] is None else f"{verdict['slip']:.2f}x"
    text = (f"{row['bench']:<27} {row['metric']:<44} figure {fmt(verdict['figure']):>9}  "
            f"recorded {fmt(row['recorded']):>9}  slip {slip:>7}  {verdict['status']:<5} {seconds:6.1f} s  load {load:4.1f}")
    return text + (f"  ({verdict['reason']})" if verdict["reason"] else "")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("build", nargs="?", default="build", help="the build directory (default ./build)")
    ap.add_argument("--only", help="benchmarks to run, comma-separated (http_health or bench_http_health)")
    ap.add_argument("--list", action="store_true", help="print the table as parsed and run nothing")
    ap.add_argument("--doc", default=DEFAULT_DOC, help="where the table is (default docs/benchmarks.md)")
    ap.add_argument("--keep", metavar="DIR", help="write each benchmark's stdout and stderr there (NAME.out, NAME.err)")
    ap.add_argument("--timeout", type=float, default=480, help="seconds each benchmark may take (default 480)")
    a = ap.parse_args(argv)
    try:
        with open(a.doc, encoding="utf-8") as f:
            rows = parse_table(f.read())
    except (OSError, TableError) as e:
        print(f"guard: {a.doc}: {e}", file=sys.stderr)
        return 2
    if a.only:
        wanted = {n if n.startswith("bench_") else "bench_" + n for n in a.only.split(",") if n}
        unknown = wanted - {r["bench"] for r in rows}
        if unknown:
            print(f"guard: not in the table: {', '.join(sorted(unknown))}", file=sys.stderr)
            return 2
        rows = [r for r in rows if r["bench"] in wanted]
    if a.list:
        for r in rows:
            print(f"{r['bench']:<27} {shlex.join(r['args']):<40} {r['metric']:<44} {r['better']:<6} {r['recorded']:.4g}")
        return 0

    results = []
    t_all = time.monotonic()
    for row in rows:
        path = os.path.join(a.build, "tests", row["bench"])
        # The host's 1-minute load before each run: a slip at load 8 reads differently from one at 0.5.
        load = os.getloadavg()[0]
        t0 = time.monotonic()
        if not os.access(path, os.X_OK):
            verdict = {"status": "ERROR", "figure": None, "slip": None, "reason": f"{path} is not built"}
            err = ""
        else:
            try:
                out, err, code = run_bench(os.path.abspath(path), row["args"], a.timeout)
                verdict = judge(row, out, code)
            except OSError as e:  # it could not start (being relinked by a build beside it, ...)
                out, err, code = "", "", None
                verdict = {"status": "ERROR", "figure": None, "slip": None, "reason": f"cannot start it: {e}"}
            verdict["exit_code"] = code
            if a.keep:  # for reading a slip afterwards: the summary keeps only the headline
                os.makedirs(a.keep, exist_ok=True)
                for ext, text in (("out", out), ("err", err)):
                    with open(os.path.join(a.keep, f"{row['bench']}.{ext}"), "w", encoding="utf-8") as f:
                        f.write(text)
        seconds = time.monotonic() - t0
        print(line_of(row, verdict, seconds, load), flush=True)
        if verdict["status"] == "ERROR" and err.strip():
            for l in err.strip().splitlines()[-5:]:  # its last words, for a first look
                print(f"    {l}", flush=True)
        results.append({"bench": row["bench"], "args": row["args"], "metric": row["metric"], "better": row["better"],
                        "recorded": row["recorded"], "seconds": round(seconds, 1), "load_before": round(load, 2), **verdict})
        if results[-1]["slip"] == math.inf:  # a throughput of 0: JSON has no infinity
            results[-1]["slip"] = None
    count = {s: sum(r["status"] == s for r in results) for s in ("ok", "SLIP", "ERROR", "SKIP")}
    summary = {"guard": "tests/bench/guard.py", "build": os.path.abspath(a.build), "limit": LIMIT,
               "wall_s": round(time.monotonic() - t_all, 1), "ok": count["ok"], "slipped": count["SLIP"],
               "errors": count["ERROR"], "skipped": count["SKIP"],
               "passed": count["SLIP"] == 0 and count["ERROR"] == 0, "benchmarks": results}
    print(json.dumps(summary))
    # On a shared machine a slip may be the host's: say which ones to run again when it is quiet.
    loaded = [r["bench"] for r in results if r["status"] == "SLIP" and r["load_before"] > (os.cpu_count() or 1)]
    if loaded:
        print(f"guard: {len(loaded)} slip(s) began with the 1-minute load above this host's {os.cpu_count()} CPUs; "
              f"on a quiet host: --only {','.join(n[len('bench_'):] for n in loaded)}", file=sys.stderr)
    return 0 if summary["passed"] else 1


if __name__ == "__main__":
    sys.exit(main())
