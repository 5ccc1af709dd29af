"""The install line of docs/python.md, run as written there (so the docs and this test cannot
drift): offline (PIP_NO_INDEX, no pip configuration), into a venv that sees Debian's pandas; the
checkout is left as it was, and the installed package (not the tree's) imports, ships py.typed
and connects. Also what the .deb installs from python/ (deploy/CMakeLists.txt's rules)."""
import os
import re
import shutil
import stat
import subprocess
import sys

import pytest

from conftest import PYTHON_DIR, REPO

INSTALLED = ("usr", "lib", "python3", "dist-packages")
EXAMPLES = ("usr", "share", "jetperf", "examples", "python")


def documented_install_line():
    """The one line with `pip install` in the sh blocks of docs/python.md's "Installing"."""
    with open(os.path.join(REPO, "docs", "python.md")) as f:
        section = f.read().split("\n## Installing\n", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```sh\n(.*?)```", section, re.S)
    lines = [line.strip() for block in blocks for line in block.splitlines() if "pip install" in line]
    assert len(lines) == 1, lines
    return lines[0]


def tree(root, caches=True):
    """Every file and directory under root, with its size and modification time; caches=False
    leaves out Python's bytecode caches (__pycache__, which git ignores)."""
    out = {}
    for d, dirs, files in os.walk(root):
        if not caches:
            dirs[:] = [x for x in dirs if x != "__pycache__"]
        for name in dirs + files:
            st = os.lstat(os.path.join(d, name))
            out[os.path.relpath(os.path.join(d, name), root)] = (st.st_size, st.st_mtime_ns)
    return out


def git_status():
    """`git status` of python/, untracked and ignored files listed; None outside a git checkout."""
    try:
        r = subprocess.run(["git", "-C", PYTHON_DIR, "status", "--porcelain", "--untracked-files=all", "--ignored",
                            "--", "."], capture_output=True, text=True)
    except FileNotFoundError:
        return None
    if r.returncode != 0:
        return None
    return sorted(line for line in r.stdout.splitlines() if "__pycache__/" not in line)


def offline_env(**extra):
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("PIP_") and k not in ("PYTHONPATH", "PYTHONDONTWRITEBYTECODE")}
    # The `python3` of the line is the one running these tests (Debian's, under ctest); no index,
    # no pip configuration file (which may name a wheel directory): only what is installed.
    env.update(PATH=os.path.dirname(sys.executable) + os.pathsep + env.get("PATH", ""), PIP_NO_INDEX="1",
               PIP_CONFIG_FILE=os.devnull, **extra)
    return env


def test_the_readme_gives_the_documented_line():
    line = documented_install_line()
    assert "--no-build-isolation ./python" in line
    with open(os.path.join(PYTHON_DIR, "README.md")) as f:
        assert line in f.read()


class Installed:
    """The documented line's run: its directory (the venv is `v` in it), its outcome, and the
    checkout's files and git status before and after it."""


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    line, run = documented_install_line(), Installed()
    run.dir = tmp_path_factory.mktemp("install")
    # `./python` as the line says, from a directory beside the checkout's: the venv `v` goes there.
    os.symlink(PYTHON_DIR, run.dir / "python")
    run.before, run.status_before = tree(PYTHON_DIR, caches=False), git_status()
    run.result = subprocess.run(["bash", "-euc", line], cwd=str(run.dir), capture_output=True, text=True,
                                env=offline_env(), timeout=300)
    run.after, run.status_after = tree(PYTHON_DIR, caches=False), git_status()
    return run


def test_the_documented_line_installs_offline_and_leaves_the_checkout_as_it_was(installed, daemon):
    r = installed.result
    assert r.returncode == 0, r.stdout + r.stderr
    # Nothing new, gone or changed (setuptools alone leaves build/ and jetperf.egg-info/ there,
    # and git ignores build/): only the bytecode cache of the backend's module may appear.
    before, after = installed.before, installed.after
    assert sorted(set(after) - set(before)) == [] and sorted(set(before) - set(after)) == []
    assert {k for k in before if before[k] != after[k]} == set()
    assert installed.status_after == installed.status_before

    code = ("import os, jetperf; d = os.path.dirname(jetperf.__file__); print(d);"
            "print(os.path.isfile(os.path.join(d, 'py.typed'))); print(jetperf.connect().info()['board'])")
    env = {k: v for k, v in daemon.env().items() if k != "PYTHONPATH"}
    r = subprocess.run([str(installed.dir / "v" / "bin" / "python"), "-c", code], capture_output=True, text=True,
                       cwd=str(installed.dir), env=env)
    assert r.returncode == 0, r.stderr
    where, typed, board = r.stdout.split()
    assert where.startswith(str(installed.dir / "v")) and typed == "True" and board == "sim:orin-agx"


USES = """import jetperf

with jetperf.connect("127.0.0.1:7070", "t") as b:
    job = b.submit("gemm", device="cpu", sizes=[64])
    state: str = job.wait(progress="bar")
    plan = b.submit("gemm", dry_run=True, device="cpu")
    print(plan["planned"], job.results().attrs, job.id + 1, state)
    job.wait(progress=3.5)
"""


def test_a_type_checker_reads_the_installed_packages_hints(installed, tmp_path):
    """mypy over a script against the venv's jetperf: it uses a package's hints only where it
    ships py.typed, so the one wrong call is found only then (and the right ones pass)."""
    mypy = shutil.which("mypy")
    if mypy is None:
        pytest.skip("needs mypy (deploy/install-deps.sh --tests installs Debian's)")
    assert installed.result.returncode == 0
    (tmp_path / "uses.py").write_text(USES)
    r = subprocess.run([mypy, "--python-version", "3.8", "--ignore-missing-imports", "--no-error-summary",
                        "--cache-dir", str(tmp_path / "cache"), "--python-executable",
                        str(installed.dir / "v" / "bin" / "python"), "uses.py"],
                       capture_output=True, text=True, cwd=str(tmp_path), env=offline_env())
    errors = [line for line in r.stdout.splitlines() if ": error:" in line]
    assert len(errors) == 1 and errors[0].startswith("uses.py:8:") and '"progress"' in errors[0], r.stdout + r.stderr


def test_the_deb_ships_the_package_its_examples_and_the_markers(installed_tree):
    package = os.path.join(PYTHON_DIR, "jetperf")
    want = sorted(f for f in os.listdir(package) if f.endswith(".py") or f == "py.typed")
    assert "py.typed" in want
    assert sorted(os.listdir(os.path.join(installed_tree, *INSTALLED, "jetperf"))) == want
    assert sorted(os.listdir(os.path.join(installed_tree, *INSTALLED))) == ["jetperf", "jetperf_markers.py"]
    examples = os.path.join(PYTHON_DIR, "examples")
    shipped = os.path.join(installed_tree, *EXAMPLES)
    assert sorted(tree(shipped)) == sorted(k for k in tree(examples) if "__pycache__" not in k)
    # A command job's program must stay executable.
    assert os.stat(os.path.join(shipped, "programs", "phased_work.py")).st_mode & stat.S_IXOTH
    assert os.path.isfile(os.path.join(installed_tree, "usr", "share", "jetperf", "markers", "jetperf_markers.py"))
