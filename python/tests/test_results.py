"""A job's tables: results equal the CLI's CSV of the same job (columns, order, values), typed
by the kind's declared columns; samples, timeline, provenance, summary."""
import csv
import io
import math

import pandas as pd


def cli_csv(daemon, *args):
    rows = list(csv.reader(io.StringIO(daemon.cli(*args))))
    return rows[0], rows[1:]


def cell_text_equal(value, text, dtype):
    """Whether a DataFrame cell holds what the CSV cell says."""
    if text == "":
        return value is pd.NA or (isinstance(value, float) and math.isnan(value))
    if dtype == "Int64":
        return int(text) == value
    if dtype == "float64":
        return float(text) == value
    if dtype == "boolean":
        return bool(value) == (text == "true")
    return value == text


def assert_frame_is_csv(df, header, body):
    assert list(df.columns) == header
    assert len(df) == len(body)
    for r, row in enumerate(body):
        for c, name in enumerate(header):
            v, dtype = df[name].iloc[r], str(df[name].dtype)
            assert cell_text_equal(v, row[c], dtype), (r, name, v, row[c])


def test_results_equal_the_clis_csv_of_the_job(daemon, gemm_job):
    df = gemm_job.results()
    header, body = cli_csv(daemon, "results", str(gemm_job.id), "--format", "csv")
    assert_frame_is_csv(df, header, body)
    assert len(df) == 4


def test_results_carry_the_declared_types_units_and_roles(board, gemm_job):
    df = gemm_job.results()
    assert str(df["m"].dtype) == "Int64" and str(df["cpu_freq_khz"].dtype) == "Int64"
    assert str(df["power_w"].dtype) == "float64" and str(df["gflops_per_w"].dtype) == "float64"
    assert str(df["tensor"].dtype) == "boolean" and not df["tensor"].any()
    assert str(df["status"].dtype) == "string" and list(df["status"]) == ["ok"] * 4
    assert str(df["flags"].dtype) == "string"
    rail = [c for c in df.columns if c.startswith("rail_")]
    assert rail and all(str(df[c].dtype) == "float64" for c in rail)
    units = df.attrs["units"]
    assert (units["power_w"], units["gflops"], units["cpu_freq_khz"], units["energy_j"]) == ("W", "GFLOP/s", "kHz", "J")
    assert all(units[c] == "W" for c in rail)
    assert {"m", "n", "k", "dtype", "cpu_freq_khz", "index"} <= set(df.attrs["parameters"])
    assert {"power_w", "gflops", "status"} <= set(df.attrs["metrics"])
    assert not set(df.attrs["parameters"]) & set(df.attrs["metrics"])
    assert (df.attrs["kind"], df.attrs["job_id"]) == ("gemm", gemm_job.id)
    available = board.clocks()["available"]["cpu_khz"]
    assert sorted(set(df["cpu_freq_khz"])) == [min(available), max(available)]
    assert sorted(set(df["m"])) == [64, 128] and (df["power_w"] > 0).all()


def test_tagged_results_equal_the_clis_csv(daemon, board, gemm_job):
    df = board.results("pytest-gemm")
    header, body = cli_csv(daemon, "results", "--tag", "pytest-gemm", "--format", "csv")
    assert_frame_is_csv(df, header, body)
    assert set(df["job_id"]) == {gemm_job.id} and str(df["job_id"].dtype) == "Int64"
    assert set(df["tags"]) == {"pytest-gemm"}


def test_summary_and_provenance(gemm_job):
    s = gemm_job.summary()
    assert s["points"]["ok"] == 4 and s["points"]["failed"] == 0
    p = gemm_job.provenance()
    assert p["board"]["board"] == "sim:orin-agx" and p["board"]["simulated"] is True
    assert p["power_sensor"]["channels"][0]["name"].startswith("rail.")
    assert len(gemm_job.rows()) == 4 and isinstance(gemm_job.rows()[0]["flags"], list)


def test_a_points_samples_lie_in_its_window(gemm_job):
    row = gemm_job.results().iloc[1]
    s = gemm_job.samples(point=1)
    assert {"power.total", "rail.VDD_CPU_CV"} <= set(s.columns)
    assert s.index.name == "t_s" and s.index.is_monotonic_increasing and s.index[0] == 0
    t_ns = s.attrs["t0_ns"] + (s.index.to_numpy() * 1e9)
    assert t_ns.min() >= row["window_start_ns"] - 1e3 and t_ns.max() <= row["window_end_ns"] + 1e3
    assert s.attrs["units"]["power.total"] == "W"
    assert len(s) >= row["power_samples"]
    one = gemm_job.samples(point=1, channels=["power.total"])
    assert list(one.columns) == ["power.total"] and len(one) == s["power.total"].notna().sum()


def test_timeline_spans(gemm_job):
    t = gemm_job.timeline()
    points = t[t["track"] == "points"]
    assert list(points["point"]) == [0, 1, 2, 3]
    assert (points["dur_s"] > 0).all() and (t["end_ns"] >= t["start_ns"]).all()
    assert set(t["track"]) >= {"points", "settings", "windows", "runs", "warmup"}
    rows = gemm_job.results()
    win = t[(t["track"] == "windows") & (t["point"] == 0)].iloc[-1]
    assert abs(win["start_ns"] - rows["window_start_ns"].iloc[0]) < 1e6
    assert str(t["point"].dtype) == "Int64" and t.attrs["units"]["dur_s"] == "s"
