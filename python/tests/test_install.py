"""`pip install ./python` in a venv that sees Debian's pandas (--system-site-packages), offline:
the documented install, and the installed package (not the tree's) imports and connects."""
import os
import shutil
import subprocess
import sys

from conftest import PYTHON_DIR


def test_pip_installs_the_package_into_a_venv(tmp_path, daemon):
    src = tmp_path / "src"
    # A copy: building in place would leave build/ and *.egg-info in the tree.
    shutil.copytree(PYTHON_DIR, src, ignore=shutil.ignore_patterns("__pycache__", "tests", "examples"))
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(tmp_path / "v")], check=True)
    pip = subprocess.run([str(tmp_path / "v" / "bin" / "pip"), "install", "--no-build-isolation", "--no-index",
                          "-q", str(src)], capture_output=True, text=True)
    assert pip.returncode == 0, pip.stdout + pip.stderr
    code = "import jetperf; print(jetperf.__file__); print(jetperf.connect().info()['board'])"
    env = {k: v for k, v in daemon.env().items() if k != "PYTHONPATH"}
    r = subprocess.run([str(tmp_path / "v" / "bin" / "python"), "-c", code], capture_output=True, text=True,
                       cwd=str(tmp_path), env=env)
    assert r.returncode == 0, r.stderr
    where, board = r.stdout.split()
    assert where.startswith(str(tmp_path / "v")) and board == "sim:orin-agx"
