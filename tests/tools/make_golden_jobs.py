#!/usr/bin/python3
"""Makes tests/fixtures/golden/: a jetperf database with one finished job of every kind (and an
interrupted one), written by the code as it stood when this was run, and every view of those jobs
that users and scripts read (the API's JSON and CSV, the client's tables), as that code answered.

tests/sim/golden_jobs_sim_test.cpp opens a copy of the database with today's daemon and checks
that it answers every view byte for byte as recorded, that each stored spec is accepted again as
it stands (rerun) and that the interrupted job resumes. A change of the middle (specs, kinds,
protocols, rows) must pass it unchanged: that is what this fixture is for. Rerunning this script
takes a new baseline; do it only for a change of output that is meant, and say so in the commit.

    sudo tests/tools/make_golden_jobs.py BUILD_DIR [OUT_DIR]          # new jobs, new views
    sudo tests/tools/make_golden_jobs.py --views BUILD_DIR [OUT_DIR]  # the same jobs, views again

--views keeps the stored jobs and records their views anew: for a change that is meant to show
the same stored data differently (a column added, a verdict fixed); the commit says which views
changed and why. Needs root (the command job runs as nobody) and a build with jetperfd, jetperf and marked_phases.
"""
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
# Where the command job's program lives, in the stored spec: the test puts it there again.
PROGRAMS = "/tmp/jetperf-golden-programs"


RUNNING = []  # daemons to stop when the script ends, however it ends


def die(msg):
    sys.stderr.write("make_golden_jobs: " + msg + "\n")
    for p in RUNNING:
        if p.poll() is None:
            p.kill()
    sys.exit(1)


class daemon:
    def __init__(self, build, state, db):
        self.build, self.state, self.db = build, state, db
        self.proc = None

    def start(self):
        ready = os.path.join(self.state, "ready")
        if os.path.exists(ready):
            os.unlink(ready)
        args = [os.path.join(self.build, "daemon/jetperfd"), "--config", "/dev/null", "--listen", "127.0.0.1:0",
                "--db", self.db, "--token-file", os.path.join(self.state, "token"), "--ready-file", ready,
                "--board", "sim:orin-agx", "--sim-dir", os.path.join(self.state, "sim"), "--log-level", "warn",
                "--command-jobs", "true", "--command-user", "nobody", "--command-dirs", PROGRAMS,
                "--runtime-dir", os.path.join(self.state, "run")]
        log = open(os.path.join(self.state, "jetperfd.log"), "ab")
        self.proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=log, stderr=log)
        RUNNING.append(self.proc)
        for _ in range(300):
            if os.path.exists(ready) and open(ready).read().strip():
                break
            if self.proc.poll() is not None:
                die("jetperfd exited: see " + os.path.join(self.state, "jetperfd.log"))
            time.sleep(0.1)
        self.address = open(ready).read().strip().split("/")[-1]
        self.token = open(os.path.join(self.state, "token")).read().strip()

    def stop(self, sig=signal.SIGTERM):
        self.proc.send_signal(sig)
        self.proc.wait(timeout=60)

    def call(self, method, target, body=None):
        req = urllib.request.Request("http://" + self.address + target, method=method,
                                     data=None if body is None else json.dumps(body).encode(),
                                     headers={"Authorization": "Bearer " + self.token,
                                              "Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=120) as r:
                return r.status, r.read()
        except urllib.error.HTTPError as e:
            return e.code, e.read()

    def submit(self, kind, spec, tags):
        status, body = self.call("POST", "/v1/jobs", {"kind": kind, "spec": spec, "tags": tags})
        if status != 201:
            die("%s refused: %s" % (kind, body.decode()))
        return json.loads(body)["id"]

    def wait(self, job_id, states=("succeeded", "partial", "failed", "cancelled", "interrupted")):
        for _ in range(6000):
            state = json.loads(self.call("GET", "/v1/jobs/%d" % job_id)[1])["state"]
            if state in states:
                return state
            time.sleep(0.1)
        die("job %d did not end" % job_id)

    def points(self, job_id):
        return json.loads(self.call("GET", "/v1/jobs/%d" % job_id)[1]).get("progress", {}).get("done", 0)


# One job of each kind, small enough to run in about a minute in all, each exercising the parts of
# its kind that the middle carries: sweeps over board axes, repeats, both layer protocols, a
# mapping, a program with marked phases.
JOBS = [
    ("idle", {"duration_s": 0.5, "repeats": 2}, ["golden", "idle"]),
    ("gemm", {"device": "cpu", "dtypes": ["float", "double"], "sizes": "64,96", "cpu_freqs": ["min", "max"],
              "threads": 1, "warmup_s": 0.05, "min_time_s": 0.2, "max_time_s": 0.6, "target_rse": 0.02,
              "repeats": 2}, ["golden", "gemm"]),
    ("layers", {"models": ["squeezenet1_0"], "device": "cpu", "threads": 1, "latency_samples": 10,
                "min_time_s": 0.05, "max_time_s": 0.3, "cpu_freqs": ["max"]}, ["golden", "layers"]),
    ("layers", {"models": ["resnet18"], "device": "cpu", "threads": 1, "protocol": "in_context",
                "cpu_freqs": ["max"], "max_time_s": 8}, ["golden", "in_context"]),
    ("multi_dnn", {"mappings": [{"squeezenet1_0": {"18": "cpu"}, "mobilenet_v3_small": {"9": "cpu", "18": "cpu"}}],
                   "min_time_s": 0.5, "max_time_s": 2, "warmup_runs": 1, "cpu_freqs": ["max"]},
     ["golden", "multi_dnn"]),
    ("command", {"argv": [PROGRAMS + "/marked_phases", "2", "100", "100"], "repeats": 2, "idle_s": 0.3,
                 "cpu_freqs": ["max"]}, ["golden", "command"]),
]
# Killed with SIGKILL while its third point runs: interrupted, to be resumed by the test.
INTERRUPTED = ("gemm", {"device": "cpu", "dtypes": ["float"], "sizes": "64,96,128,160", "threads": 1,
                        "warmup_s": 0.05, "duration_s": 1.0}, ["golden", "interrupted"])


def views(job_id, kind, by="cpu_freq_khz"):
    """(file name, "http"|"cli", target or arguments) for every view of a job that is checked;
    `by`: a parameter the job swept, which a gemm job is compared by."""
    j = "job-%d" % job_id
    out = [(j + ".json", "http", "/v1/jobs/%d" % job_id),
           (j + "-results.json", "http", "/v1/jobs/%d/results" % job_id),
           (j + "-results.csv", "http", "/v1/jobs/%d/results?format=csv" % job_id),
           (j + "-results.txt", "cli", "results %d" % job_id),
           (j + "-results-cli.csv", "cli", "results %d --format csv" % job_id),
           (j + "-show.txt", "cli", "show %d" % job_id)]
    if kind == "gemm":
        out += [(j + "-compare-%s.json" % by, "http", "/v1/jobs/%d/compare?by=%s" % (job_id, by)),
                (j + "-compare-%s.txt" % by, "cli", "compare %d --by %s" % (job_id, by))]
    if kind == "layers":
        out += [(j + "-dnnstats.json", "http", "/v1/jobs/%d/results?format=dnnstats" % job_id)]
    if kind == "multi_dnn":
        out += [(j + "-multinet.json", "http", "/v1/jobs/%d/results?format=multinet" % job_id)]
    return out


def main():
    args = sys.argv[1:]
    views_only = bool(args) and args[0] == "--views"
    if views_only:
        args = args[1:]
    if not args:
        die("usage: make_golden_jobs.py [--views] BUILD_DIR [OUT_DIR]")
    if os.geteuid() != 0:
        die("needs root: the command job runs as nobody")
    build = os.path.abspath(args[0])
    out = os.path.abspath(args[1] if len(args) > 1 else os.path.join(HERE, "../fixtures/golden"))
    state = tempfile.mkdtemp(prefix="jetperf-golden-")
    os.chmod(state, 0o755)
    os.makedirs(PROGRAMS, exist_ok=True)
    os.chmod(PROGRAMS, 0o755)
    shutil.copy(os.path.join(build, "tests/programs/marked_phases"), PROGRAMS + "/marked_phases")
    os.chmod(PROGRAMS + "/marked_phases", 0o755)
    if views_only:
        ids = [(int(i), k) for i, k in (line.split("\t") for line in open(os.path.join(out, "jobs.tsv")).read().split("\n")
                                        if line and not line.startswith("#"))]
        record_views(build, state, out, ids)
        shutil.rmtree(state)
        print("golden views recorded again in " + out)
        return
    ids = run_jobs(build, state)
    store_jobs(state, out, ids)
    record_views(build, state, out, ids)
    shutil.rmtree(state)
    print("golden fixture in " + out)


def run_jobs(build, state):
    """Runs JOBS, then INTERRUPTED into an interrupted job; [(id, kind)] in order."""
    db = os.path.join(state, "jobs.db")
    d = daemon(build, state, db)
    d.start()
    ids = []
    for kind, spec, tags in JOBS:
        job_id = d.submit(kind, spec, tags)
        print("job %d (%s): %s" % (job_id, kind, d.wait(job_id)), flush=True)
        ids.append((job_id, kind))
    kind, spec, tags = INTERRUPTED
    job_id = d.submit(kind, spec, tags)
    while d.points(job_id) < 2:
        time.sleep(0.05)
    d.stop(signal.SIGKILL)
    d.start()  # marks the job interrupted and restores the board
    print("job %d (%s): %s" % (job_id, kind, d.wait(job_id)), flush=True)
    ids.append((job_id, kind))
    d.stop()
    return ids


def store_jobs(state, out, ids):
    """The stored jobs as they are (no WAL beside it), compacted, and their ids and kinds."""
    os.makedirs(out, exist_ok=True)
    for f in os.listdir(out):
        if f.startswith("job-") or f in ("jobs.db", "views.tsv", "jobs.tsv"):
            os.unlink(os.path.join(out, f))
    con = sqlite3.connect(os.path.join(state, "jobs.db"))
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.execute("VACUUM INTO ?", (os.path.join(out, "jobs.db"),))
    con.close()
    with open(os.path.join(out, "jobs.tsv"), "w") as f:
        f.write("# id\tkind\n" + "".join("%d\t%s\n" % (i, k) for i, k in ids))


def record_views(build, state, out, ids):
    """The views, from a daemon over a copy of the stored jobs, as the test will ask for them."""
    for f in os.listdir(out):
        if f.startswith("job-"):
            os.unlink(os.path.join(out, f))
    d = daemon(build, state, os.path.join(state, "copy.db"))
    shutil.copy(os.path.join(out, "jobs.db"), d.db)
    d.start()
    manifest = []
    for job_id, kind in ids:
        # Compared by what the job swept (another parameter is refused: it compares nothing).
        status, body = d.call("GET", "/v1/jobs/%d" % job_id)
        cpu_freqs = json.loads(body).get("spec", {}).get("cpu_freqs") if status == 200 else None
        by = "cpu_freq_khz" if cpu_freqs and len(cpu_freqs) > 1 else "m"
        for name, how, target in views(job_id, kind, by):
            if how == "http":
                status, body = d.call("GET", target)
                if status != 200:
                    die("%s: %d %s" % (target, status, body.decode()))
            else:
                cli = [os.path.join(build, "client/jetperf"), "--host", d.address, "--token", d.token] + target.split()
                # As the test runs it (tests/support/run_client.cpp): no JETPERF_* from this shell,
                # and an empty config home, so nobody's own client config leaks in.
                env = {k: v for k, v in os.environ.items() if not k.startswith("JETPERF_")}
                env["XDG_CONFIG_HOME"] = os.path.join(state, "no-config")
                r = subprocess.run(cli, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120, env=env)
                if r.returncode != 0:
                    die("jetperf %s: exit %d: %s" % (target, r.returncode, r.stderr.decode()))
                body = r.stdout
            open(os.path.join(out, name), "wb").write(body)
            manifest.append("%s\t%s\t%s" % (name, how, target))
    d.stop()
    with open(os.path.join(out, "views.tsv"), "w") as f:
        f.write("# file\thow\ttarget (written by tests/tools/make_golden_jobs.py; see its header)\n")
        f.write("\n".join(manifest) + "\n")


if __name__ == "__main__":
    main()
