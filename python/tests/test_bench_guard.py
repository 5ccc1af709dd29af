"""tests/bench/guard.py's table and verdicts, without running a benchmark: here because this
directory is what ctest runs in Python (label python); the guard itself is stdlib only."""
import glob
import importlib.util
import json
import os

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
_spec = importlib.util.spec_from_file_location("bench_guard", os.path.join(REPO, "tests", "bench", "guard.py"))
guard = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(guard)

DOC = """# Benchmarks

## Guard figures (tests/bench/guard.py)

Some words, then the table.

| bench | arguments | metric | better | recorded | from |
| --- | --- | --- | --- | --- | --- |
| `bench_fast` | `5 8` | `cpp.requests_per_s` | higher | 30000 | a row |
| `bench_slow` | `"" "" cases` | `runs.case=b.wall_s` | lower | 2.0 | another |
| `bench_plain` | | `ns_p50` | lower | 450 | |

| not | the | table |
| --- | --- | --- |

## Older figures

| bench | arguments | metric | better | recorded | from |
| --- | --- | --- | --- | --- | --- |
| `bench_elsewhere` | | `x` | lower | 1 | not read: another section |
"""

FAST = {"bench": "bench_fast", "metric": "cpp.requests_per_s", "better": "higher", "recorded": 30000.0}
SLOW = {"bench": "bench_slow", "metric": "wall_s", "better": "lower", "recorded": 2.0}


def out(doc):
    return json.dumps(doc)


def test_the_table_is_read_from_its_section_only():
    rows = guard.parse_table(DOC)
    assert [r["bench"] for r in rows] == ["bench_fast", "bench_slow", "bench_plain"]
    assert rows[0]["args"] == ["5", "8"] and rows[0]["better"] == "higher" and rows[0]["recorded"] == 30000.0
    assert rows[1]["args"] == ["", "", "cases"]  # shell quoting: "" is an empty argument
    assert rows[2]["args"] == [] and rows[2]["metric"] == "ns_p50"


@pytest.mark.parametrize("change", [("higher", "faster"), ("| 2.0 |", "| two |"), ("| 2.0 |", "| 0 |"),
                                    ("`bench_plain`", "`plain`"), ("## Guard figures", "## Other")])
def test_a_bad_table_is_refused(change):
    with pytest.raises(guard.TableError):
        guard.parse_table(DOC.replace(*change))


def test_throughput_fails_at_a_third_and_passes_above():
    assert guard.judge(FAST, out({"cpp": {"requests_per_s": 10000}}), 0)["status"] == "SLIP"  # 3x
    assert guard.judge(FAST, out({"cpp": {"requests_per_s": 30000 / 3.0}}), 0)["status"] == "SLIP"
    ok = guard.judge(FAST, out({"cpp": {"requests_per_s": 30000 / 2.9}}), 0)
    assert ok["status"] == "ok" and ok["slip"] == pytest.approx(2.9)
    assert guard.judge(FAST, out({"cpp": {"requests_per_s": 0}}), 0)["status"] == "SLIP"


def test_time_fails_at_three_times_and_passes_below():
    slip = guard.judge(SLOW, out({"wall_s": 6.0}), 0)
    assert slip["status"] == "SLIP" and slip["slip"] == pytest.approx(3.0) and slip["figure"] == 6.0
    assert guard.judge(SLOW, out({"wall_s": 5.8}), 0)["status"] == "ok"  # 2.9x
    better = guard.judge(SLOW, out({"wall_s": 1.0}), 0)
    assert better["status"] == "ok" and better["slip"] == pytest.approx(0.5)


@pytest.mark.parametrize("stdout,code,why", [
    (out({"wall": 1.0}), 0, "no 'wall_s'"),
    (out({"wall_s": None}), 0, "not a number"),
    (out({"wall_s": "1.0"}), 0, "not a number"),
    (out({"wall_s": True}), 0, "not a number"),
    ("Segmentation fault\n", 0, "no JSON object"),
    ("", 1, "no JSON object"),
    (out({"wall_s": 1.0}), -11, "killed by signal 11"),
    (out({"wall_s": 1.0}), None, "timed out"),
    (out({"benchmark": "slow", "error": "bind: address in use"}), 1, "bind: address in use"),
])
def test_what_gives_no_figure_is_an_error(stdout, code, why):
    v = guard.judge(SLOW, stdout, code)
    assert v["status"] == "ERROR" and why in v["reason"]


def test_a_benchmark_that_cannot_run_here_is_skipped_not_passed():
    v = guard.judge(SLOW, out({"bench": "slow", "skipped": "no CUDA device"}), 0)
    assert v["status"] == "SKIP" and v["reason"] == "no CUDA device" and v["figure"] is None


def test_the_exit_status_is_shown_but_the_figure_decides():
    v = guard.judge(SLOW, out({"wall_s": 1.0}), 1)
    assert v["status"] == "ok" and v["reason"] == "exit 1"


def test_json_is_found_after_other_lines_and_over_many():
    text = "starting\n{\"partial\": 1}\n{\n  \"wall_s\": 7.0,\n  \"x\": [1, 2]\n}\n"
    assert guard.last_json_object(text) == {"wall_s": 7.0, "x": [1, 2]}
    assert guard.judge(SLOW, text, 0)["status"] == "SLIP"


def test_paths_reach_into_lists_by_index_field_and_wildcard():
    doc = {"cases": [{"case": "floor", "cpu": 0.02}, {"case": "rails", "cpu": 0.03}],
           "kinds": {"gemm": {"worst": 1.3}, "idle": {"worst": 1.0}}}
    assert guard.metric_values(doc, "cases.1.cpu") == [0.03]
    assert guard.metric_values(doc, "cases.case=rails.cpu") == [0.03]
    assert guard.metric_values(doc, "cases.case=none.cpu") == []
    assert sorted(guard.metric_values(doc, "kinds.*.worst")) == [1.0, 1.3]
    # Of several, the worst counts: the largest where lower is better.
    row = dict(SLOW, metric="kinds.*.worst", recorded=0.4)
    v = guard.judge(row, out(doc), 0)
    assert v["figure"] == 1.3 and v["status"] == "SLIP"


def test_every_benchmark_has_a_row_in_docs_benchmarks_md():
    with open(os.path.join(REPO, "docs", "benchmarks.md"), encoding="utf-8") as f:
        rows = guard.parse_table(f.read())
    sources = {"bench_" + os.path.splitext(os.path.basename(p))[0]
               for p in glob.glob(os.path.join(REPO, "tests", "bench", "*.cpp"))}
    assert sorted(r["bench"] for r in rows) == sorted(sources)
