"""A real jetperfd on a simulated AGX Orin for the package's tests: loopback, port 0 (the daemon
announces its address in --ready-file), a random token, its own database and simulator tree,
command jobs allowed for the example program (as tests/sim start theirs, support/daemon_process).
JETPERF_DAEMON and JETPERF_CLIENT name the binaries (ctest sets them); else ../build's."""
import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
PYTHON_DIR = os.path.dirname(HERE)
REPO = os.path.dirname(PYTHON_DIR)
sys.path.insert(0, PYTHON_DIR)

import jetperf  # noqa: E402
from jetperf._http import Http  # noqa: E402
from jetperf._settings import parse_endpoint  # noqa: E402

DAEMON = os.environ.get("JETPERF_DAEMON", os.path.join(REPO, "build", "daemon", "jetperfd"))
CLIENT = os.environ.get("JETPERF_CLIENT", os.path.join(REPO, "build", "client", "jetperf"))
# The build the daemon comes from: its deploy/cmake_install.cmake installs what the .deb ships.
BUILD = os.path.dirname(os.path.dirname(os.path.abspath(DAEMON)))
CHECKOUT_PROGRAMS = os.path.join(PYTHON_DIR, "examples", "programs")


class Daemon:
    """jetperfd as a child process; restart() keeps the database and token."""

    def __init__(self, extra=()):
        # Readable by the command jobs' account (nobody), as the sim tests make theirs.
        self.dir = tempfile.mkdtemp(prefix="jetperf-pytest.")
        os.chmod(self.dir, 0o755)
        self.token = secrets.token_hex(32)
        with open(self.path("token"), "w") as f:
            f.write(self.token + "\n")
        os.chmod(self.path("token"), 0o600)
        self.extra = list(extra)
        self.proc = None
        self.start()

    def path(self, name):
        return os.path.join(self.dir, name)

    def start(self):
        ready = self.path("ready")
        if os.path.exists(ready):
            os.unlink(ready)
        args = [DAEMON, "--listen", "127.0.0.1:0", "--ready-file", ready, "--db", self.path("jetperf.db"),
                "--token-file", self.path("token"), "--config", "/dev/null", "--sim-dir", self.path("sim"),
                "--board", "sim:orin-agx", "--log-level", "warn"] + self.extra
        self.log = open(self.path("log"), "ab")
        self.proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=self.log, stderr=self.log)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if os.path.exists(ready) and os.path.getsize(ready) > 0:
                with open(ready) as f:
                    self.address = f.readline().strip().rsplit("/", 1)[-1]
                with open(self.path("token")) as f:
                    self.token = f.readline().strip()
                return
            if self.proc.poll() is not None:
                break
            time.sleep(0.05)
        raise RuntimeError("jetperfd did not get ready:\n" + open(self.path("log")).read())

    def stop(self, sig=signal.SIGTERM):
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()

    def restart(self):
        self.stop()
        self.start()

    def board(self):
        return jetperf.Board(Http(parse_endpoint(self.address), self.token))

    def env(self):
        return dict(os.environ, JETPERF_HOST=self.address, JETPERF_TOKEN=self.token)

    def cli(self, *args, timeout=120):
        """The C++ client's stdout (fails the test on a non-zero exit)."""
        r = subprocess.run([CLIENT, "--host", self.address, "--token", self.token, *args],
                           capture_output=True, text=True, timeout=timeout)
        assert r.returncode == 0, r.stderr
        return r.stdout

    def close(self):
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)


@pytest.fixture(scope="session")
def programs_dir():
    """The command example's program and the markers module it imports, where nobody reads them."""
    d = tempfile.mkdtemp(prefix="jetperf-programs.")
    os.chmod(d, 0o755)
    shutil.copy(os.path.join(PYTHON_DIR, "examples", "programs", "phased_work.py"), d)
    shutil.copy(os.path.join(REPO, "deploy", "markers", "jetperf_markers.py"), d)
    with open(os.path.join(d, "fails.py"), "w") as f:  # a program that fails, saying why on stderr
        f.write("#!/usr/bin/python3\nimport sys\nsys.stderr.write('fails.py: no input at /data/in.npy\\n')\n"
                "sys.exit(3)\n")
    for f in os.listdir(d):
        os.chmod(os.path.join(d, f), 0o755)
    yield d
    shutil.rmtree(d, ignore_errors=True)


def others_may_run(path):
    """Whether an account of no group of the owner's (nobody, the command jobs') can reach and
    read `path`: every directory above it searchable by others, the path readable."""
    path = os.path.realpath(path)
    if not os.stat(path).st_mode & 0o004:
        return False
    d = os.path.dirname(path) if os.path.isfile(path) else path
    while True:
        if not os.stat(d).st_mode & 0o001:
            return False
        if d == os.path.dirname(d):
            return True
        d = os.path.dirname(d)


@pytest.fixture(scope="session")
def installed_tree():
    """What the .deb installs from deploy/ (the Python package, its examples, the markers), put
    by the build's own install rules under a temporary root, as cpack puts it in the package."""
    script = os.path.join(BUILD, "deploy", "cmake_install.cmake")
    cmake = shutil.which("cmake")
    assert cmake and os.path.isfile(script), f"the build's install rules ({script}) and cmake are needed"
    root = tempfile.mkdtemp(prefix="jetperf-installed.")
    os.chmod(root, 0o755)
    r = subprocess.run([cmake, "-DCMAKE_INSTALL_PREFIX=/usr", "-P", script], capture_output=True, text=True,
                       env=dict(os.environ, DESTDIR=root))
    assert r.returncode == 0, r.stdout + r.stderr
    yield root
    shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(scope="session")
def daemon(programs_dir, installed_tree):
    shared = tempfile.mkdtemp(prefix="jetperf-run.")
    os.chmod(shared, 0o1777)
    # Command jobs from the test's copy, the installed examples' and the checkout's programs
    # (the latter where the command account can read the checkout at all).
    dirs = [programs_dir, os.path.join(installed_tree, "usr", "share", "jetperf", "examples", "python", "programs")]
    if others_may_run(os.path.join(CHECKOUT_PROGRAMS, "phased_work.py")):
        dirs.append(CHECKOUT_PROGRAMS)
    d = Daemon(["--command-jobs", "true", "--command-user", "nobody", "--command-dirs", ",".join(dirs),
                "--runtime-dir", os.path.join(shared, "run")])
    yield d
    d.close()
    shutil.rmtree(shared, ignore_errors=True)


@pytest.fixture(scope="session")
def board(daemon):
    return daemon.board()


# One thread, short windows: on a simulated board a CPU clock is a time slice of the host's core.
SMALL_GEMM = dict(device="cpu", dtypes=["float"], sizes=[64, 128], cpu_freqs=["min", "max"], threads=1,
                  warmup_s=0.05, min_time_s=0.2, max_time_s=1.0, target_rse=0.02)


@pytest.fixture(scope="session")
def gemm_job(board):
    """A finished 4-point CPU GEMM sweep, shared by the tests that read one."""
    job = board.submit("gemm", tags=["pytest-gemm"], **SMALL_GEMM)
    assert job.wait(progress=False) == "succeeded"
    return job
