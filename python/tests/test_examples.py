"""The seeds' analyses in examples/ run headless (Agg) against the test daemon and write
figures that are there and not blank: from the checkout (importing the checkout's jetperf) and
from where the .deb installs them (/usr/share/jetperf/examples/python, importing the installed
package), under a temporary root."""
import os
import subprocess
import sys

import matplotlib.image
import pytest

import jetperf
from conftest import CHECKOUT_PROGRAMS, PYTHON_DIR, others_may_run

EXAMPLES = os.path.join(PYTHON_DIR, "examples")
WHERE = ("checkout", "installed")


@pytest.fixture(params=WHERE)
def where(request):
    return request.param


def run_example(daemon, tmp_path, script, *args, where="checkout", installed_tree=None, check=True):
    env = dict(daemon.env(), MPLBACKEND="Agg")
    env.pop("PYTHONPATH", None)
    examples = EXAMPLES
    if where == "installed":
        examples = os.path.join(installed_tree, "usr", "share", "jetperf", "examples", "python")
        env["PYTHONPATH"] = os.path.join(installed_tree, "usr", "lib", "python3", "dist-packages")
    out = tmp_path / "out"
    r = subprocess.run([sys.executable, os.path.join(examples, script), "--out", str(out), *args],
                       capture_output=True, text=True, timeout=300, env=env, cwd=str(tmp_path))
    if check:
        assert r.returncode == 0, r.stdout + r.stderr
    return r if not check else r.stdout


def test_the_installed_examples_import_the_installed_package(daemon, installed_tree, tmp_path):
    examples = os.path.join(installed_tree, "usr", "share", "jetperf", "examples", "python")
    env = dict(daemon.env(), PYTHONPATH=os.path.join(installed_tree, "usr", "lib", "python3", "dist-packages"))
    r = subprocess.run([sys.executable, "-c", "import _common; print(_common.jetperf.__file__, _common.markers_dir())"],
                       capture_output=True, text=True, cwd=examples, env=env)
    assert r.returncode == 0, r.stderr
    package, markers = r.stdout.split()
    assert package == os.path.join(installed_tree, "usr", "lib", "python3", "dist-packages", "jetperf", "__init__.py")
    assert markers == os.path.join(installed_tree, "usr", "share", "jetperf", "markers")


def assert_figure(path):
    assert os.path.getsize(path) > 5000, path
    pixels = matplotlib.image.imread(path)
    # Not one colour: something was drawn.
    assert pixels.std() > 0.05, path
    colours = {tuple(p) for p in pixels.reshape(-1, pixels.shape[-1])[::97]}
    assert len(colours) > 10, path


def test_every_example_is_tested():
    scripts = sorted(f for f in os.listdir(EXAMPLES) if f.endswith(".py") and not f.startswith("_"))
    tested = sorted(name[len("test_"):] + ".py" for name in globals() if name.startswith("test_") and
                    name[len("test_"):] + ".py" in scripts)
    assert tested == scripts


def test_gemm_efficiency(daemon, installed_tree, where, tmp_path):
    out = run_example(daemon, tmp_path, "gemm_efficiency.py", "--dtypes", "float,double", "--sizes", "64",
                      "--cpu-freqs", "min,max", "--max-time-s", "0.5", where=where, installed_tree=installed_tree)
    for name in ("gemm_efficiency_float.png", "gemm_efficiency_double.png", "gemm_point.png"):
        assert_figure(tmp_path / "out" / name)
    assert "gflops_per_w" in out


def test_layers_energy(daemon, installed_tree, where, tmp_path):
    out = run_example(daemon, tmp_path, "layers_energy.py", "--model", "squeezenet1_0", "--latency-samples", "3",
                      "--max-time-s", "0.4", "--in-context-max-time-s", "6", where=where,
                      installed_tree=installed_tree)
    assert_figure(tmp_path / "out" / "layers_energy_squeezenet1_0.png")
    assert "features.0" in out and "classifier.1" in out


def test_multi_dnn_mappings(daemon, installed_tree, where, tmp_path):
    out = run_example(daemon, tmp_path, "multi_dnn_mappings.py", "--max-time-s", "1", where=where,
                      installed_tree=installed_tree)
    assert_figure(tmp_path / "out" / "multi_dnn_mappings.png")
    assert "squeezenet1_0" in out and "resnet18" in out


def test_command_phases(daemon, installed_tree, where, tmp_path):
    """The example as a user runs it: its own programs/phased_work.py, the markers module found
    beside the examples (the checkout's deploy/markers, the .deb's share/jetperf/markers)."""
    if where == "checkout" and not others_may_run(os.path.join(CHECKOUT_PROGRAMS, "phased_work.py")):
        pytest.skip(f"the command jobs' account (nobody) cannot read {CHECKOUT_PROGRAMS}")
    out = run_example(daemon, tmp_path, "command_phases.py", "--compute-s", "0.4", "--repeats", "2", where=where,
                      installed_tree=installed_tree)
    assert_figure(tmp_path / "out" / "command_phases.png")
    for phase in ("load", "compute", "write"):
        assert phase in out


def test_command_phases_without_the_markers_says_why_the_job_failed(daemon, installed_tree, tmp_path):
    """A program that cannot import jetperf_markers (the installed one, none beside it, an empty
    --markers-dir): the job fails, and the example stops with the job's error and the program's
    own words (JobFailed), not later in pandas."""
    lone = tmp_path / "lone"
    lone.mkdir()
    program = os.path.join(installed_tree, "usr", "share", "jetperf", "examples", "python", "programs",
                           "phased_work.py")
    r = run_example(daemon, tmp_path, "command_phases.py", "--program", program, "--markers-dir", str(lone),
                    "--compute-s", "0.2", "--repeats", "1", check=False)
    assert r.returncode != 0
    assert "jetperf.errors.JobFailed" in r.stderr and "points failed (most often: exit status 1)" in r.stderr
    assert "No module named 'jetperf_markers'" in r.stderr, r.stderr


def test_a_failed_job_raises_jobfailed_with_its_error_text(board, programs_dir):
    job = board.submit("command", argv=[os.path.join(programs_dir, "fails.py")], repeats=2, idle_s=0.2,
                       cpu_freqs=["max"])
    with pytest.raises(jetperf.JobFailed) as e:
        job.wait(progress=False)
    error = job.info()["error"]
    assert error == "2 of 2 points failed (most often: exit status 3)"
    assert e.value.error == error and e.value.job_id == job.id
    assert e.value.stderr_tail == "fails.py: no input at /data/in.npy\n"
    assert str(e.value) == (f"job {job.id} (command) failed: {error}\nthe first failed run's stderr ends:\n"
                            "fails.py: no input at /data/in.npy")
    assert isinstance(e.value, jetperf.JetperfError)
    assert job.wait(progress=False, check=False) == "failed"


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
