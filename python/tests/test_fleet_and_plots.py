"""Results across boards (the fleet's hosts file) against `jetperf fleet results`, and plots."""
import csv
import io

import matplotlib
import pytest

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import jetperf  # noqa: E402
from test_results import assert_frame_is_csv  # noqa: E402


def test_results_across_boards_equal_the_clis_fleet_csv(daemon, gemm_job, tmp_path, monkeypatch):
    # Two names for the one daemon: the merge is the same as for two boards.
    (tmp_path / "tok").write_text(daemon.token + "\n")
    hosts = tmp_path / "hosts"
    hosts.write_text(f"orin-a = {daemon.address}\norin-b = {daemon.address} {tmp_path / 'tok'}\n")
    monkeypatch.setenv("JETPERF_TOKEN", daemon.token)
    df = jetperf.results(tag="pytest-gemm", boards=["orin-a", "orin-b"], hosts_file=str(hosts))
    rows = list(csv.reader(io.StringIO(daemon.cli("fleet", "results", "--hosts-file", str(hosts), "--tag", "pytest-gemm"))))
    assert_frame_is_csv(df, rows[0], rows[1:])
    assert list(df.columns[:2]) == ["board", "job_id"] and "job_id" in df.columns and "tags" in df.columns
    assert list(df["board"]) == ["orin-a"] * 4 + ["orin-b"] * 4
    assert set(df["job_id"]) == {gemm_job.id} and df.attrs["units"]["power_w"] == "W"
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "cfg"))
    (tmp_path / "cfg" / "jetperf").mkdir(parents=True)
    (tmp_path / "cfg" / "jetperf" / "hosts").write_text(hosts.read_text())
    assert len(jetperf.results(tag="pytest-gemm")) == 8  # every board of the default hosts file
    by_address = jetperf.results(tag="pytest-gemm", boards=[daemon.address])
    assert list(by_address["board"]) == [daemon.address] * 4
    with pytest.raises(KeyError):
        jetperf.results(tag="pytest-gemm", boards=["nosuch"])


def test_plot_draws_a_line_per_colour_with_the_rest_fixed(gemm_job):
    df = gemm_job.results()
    ax = jetperf.plot(df, x="cpu_freq_khz", y="gflops_per_w", color="m", fixed={"dtype": "float"})
    lines = ax.get_lines()
    assert [l.get_label() for l in lines] == ["m=64", "m=128"]
    for line, m in zip(lines, (64, 128)):
        part = df[df["m"] == m].sort_values("cpu_freq_khz")
        assert list(line.get_xdata()) == list(part["cpu_freq_khz"].astype(float))
        assert list(line.get_ydata()) == list(part["gflops_per_w"])
    assert ax.get_xlabel() == "cpu_freq_khz [kHz]" and ax.get_ylabel() == "gflops_per_w [GFLOP/s/W]"
    ax = jetperf.plot(df, x="m", y="power_w", fixed={"cpu_freq_khz": int(df["cpu_freq_khz"].max())}, logx=True)
    assert len(ax.get_lines()) == 1 and list(ax.get_lines()[0].get_xdata()) == [64.0, 128.0]
    assert ax.get_xscale() == "log"
    with pytest.raises(KeyError):
        jetperf.plot(df, x="m", y="power_w", fixed={"nope": 1})
    with pytest.raises(ValueError):
        jetperf.plot(df, x="m", y="power_w", fixed={"dtype": "half"})
    plt.close("all")


def test_plot_point_shows_the_window_and_the_power_around_it(gemm_job, tmp_path):
    ax = gemm_job.plot_point(2)
    line = ax.get_lines()[0]
    assert line.get_label() == "power.total"
    x = line.get_xdata()
    row = gemm_job.results().iloc[2]
    window_s = (row["window_end_ns"] - row["window_start_ns"]) / 1e9
    assert x.min() < 0 < window_s < x.max()  # samples from before the window to after it
    assert ax.patches and ax.get_title() == f"job {gemm_job.id}, point 2"
    ax.figure.savefig(tmp_path / "p.png")
    assert (tmp_path / "p.png").stat().st_size > 5000
    with pytest.raises(KeyError):
        gemm_job.plot_point(99)
    plt.close("all")
