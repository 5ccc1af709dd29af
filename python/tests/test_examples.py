"""The seeds' analyses in examples/ run headless (Agg) against the test daemon and write
figures that are there and not blank."""
import os
import subprocess
import sys

import matplotlib.image
import pytest

from conftest import PYTHON_DIR

EXAMPLES = os.path.join(PYTHON_DIR, "examples")


def run_example(daemon, tmp_path, script, *args):
    env = dict(daemon.env(), MPLBACKEND="Agg")
    r = subprocess.run([sys.executable, os.path.join(EXAMPLES, script), "--out", str(tmp_path), *args],
                       capture_output=True, text=True, timeout=300, env=env)
    assert r.returncode == 0, r.stdout + r.stderr
    return r.stdout


def assert_figure(path):
    assert os.path.getsize(path) > 5000, path
    pixels = matplotlib.image.imread(path)
    # Not one colour: something was drawn.
    assert pixels.std() > 0.05, path
    colours = {tuple(p) for p in pixels.reshape(-1, pixels.shape[-1])[::97]}
    assert len(colours) > 10, path


def test_gemm_efficiency(daemon, tmp_path):
    out = run_example(daemon, tmp_path, "gemm_efficiency.py", "--dtypes", "float,double", "--sizes", "64",
                      "--cpu-freqs", "min,max", "--max-time-s", "0.5")
    for name in ("gemm_efficiency_float.png", "gemm_efficiency_double.png", "gemm_point.png"):
        assert_figure(tmp_path / name)
    assert "gflops_per_w" in out


def test_layers_energy(daemon, tmp_path):
    out = run_example(daemon, tmp_path, "layers_energy.py", "--model", "squeezenet1_0", "--latency-samples", "3",
                      "--max-time-s", "0.4", "--in-context-max-time-s", "6")
    assert_figure(tmp_path / "layers_energy_squeezenet1_0.png")
    assert "features.0" in out and "classifier.1" in out


def test_multi_dnn_mappings(daemon, tmp_path):
    out = run_example(daemon, tmp_path, "multi_dnn_mappings.py", "--max-time-s", "1")
    assert_figure(tmp_path / "multi_dnn_mappings.png")
    assert "squeezenet1_0" in out and "resnet18" in out


def test_command_phases(daemon, programs_dir, tmp_path):
    out = run_example(daemon, tmp_path, "command_phases.py", "--program", os.path.join(programs_dir, "phased_work.py"),
                      "--compute-s", "0.4", "--repeats", "2")
    assert_figure(tmp_path / "command_phases.png")
    for phase in ("load", "compute", "write"):
        assert phase in out


def test_command_job_phases_table(board, programs_dir):
    job = board.submit("command", argv=[os.path.join(programs_dir, "phased_work.py"), "0.4"], repeats=1, idle_s=0.3,
                       cpu_freqs=["max"])
    assert job.wait(progress=False) == "succeeded", job.info()
    p = job.phases()
    assert sorted(p["phase"]) == ["compute", "load", "write"]  # the JSON object keeps names sorted
    assert list(p["count"]) == [1, 1, 1] and str(p["energy_j"].dtype) == "float64"
    t = dict(zip(p["phase"], p["time_s"]))
    assert t["load"] == pytest.approx(0.2, abs=0.1) and t["compute"] == pytest.approx(0.4, abs=0.15)
    assert (p["energy_j"] > 0).all() and p.attrs["units"]["energy_j"] == "J"
