"""Submitting, following, cancelling, rerunning and resuming jobs through the real daemon."""
import io
import signal
import sys
import time
import types

import pytest

import jetperf
from conftest import Daemon


@pytest.mark.parametrize("spec,field,code", [
    (dict(device="cpu", sizes=[-5]), "spec.sizes", "out_of_range"),
    (dict(device="cpu", bogus=1), "spec.bogus", "unknown_field"),
    (dict(device="tpu"), "spec.device", None)])
def test_a_refused_spec_raises_spec_error_naming_the_field(board, spec, field, code):
    with pytest.raises(jetperf.SpecError) as e:
        board.submit("gemm", **spec)
    assert isinstance(e.value, jetperf.JetperfError)
    assert (e.value.status, e.value.field) == (400, field)
    if code:
        assert e.value.code == code
    assert f"(field: {field})" in str(e.value)


def test_an_unknown_kind_is_a_spec_error_naming_kind(board):
    with pytest.raises(jetperf.SpecError) as e:
        board.submit("nokind")
    assert e.value.field == "kind" and e.value.code == "unknown_kind"


def test_a_dry_run_plans_without_a_job(board):
    before = len(board.jobs())
    plan = board.submit("gemm", dry_run=True, device="cpu", sizes=[64, 128], cpu_freqs=["min", "max"])
    # "max" is the current power mode's cap (MODE_30W's 1728 MHz on this board), not the CPU's top
    # clock (2201.6 MHz, MAXN's).
    info = board.info()
    cap = next(m["cpu_max_khz"] for m in info["modes"] if m["id"] == board.mode()["id"])
    assert cap == 1728000
    assert [(p["m"], p["cpu_freq_khz"]) for p in plan["planned"]] == [(64, 115200), (128, 115200), (64, cap),
                                                                      (128, cap)]
    assert plan["estimate_s"] > 0
    assert len(board.jobs()) == before


def test_wait_shows_progress_and_returns_the_final_state(board, monkeypatch):
    job = board.submit("idle", duration_s=0.3, repeats=2, tags=["pytest-wait"])
    err = io.StringIO()
    monkeypatch.setattr("sys.stderr", err)
    assert job.wait(progress=True) == "succeeded"
    assert f"job {job.id}" in err.getvalue() and "2/2 points" in err.getvalue()
    assert job.state == "succeeded" and job.info()["tags"] == ["pytest-wait"]
    assert job.wait(progress=False) == "succeeded"  # an ended job answers at once
    assert [j.id for j in board.jobs(tag="pytest-wait")] == [job.id]


def test_cancel_ends_a_running_job_and_a_second_cancel_is_409(board):
    job = board.submit("idle", duration_s=30, repeats=1)
    job.cancel()
    assert job.wait(progress=False) == "cancelled"
    with pytest.raises(jetperf.JetperfError) as e:
        job.cancel()
    assert e.value.status == 409 and not isinstance(e.value, jetperf.SpecError)


def test_rerun_submits_the_stored_spec_and_tags_again(board):
    first = board.submit("idle", duration_s=0.2, repeats=1, tags=["pytest-rerun"])
    first.wait(progress=False)
    again = first.rerun()
    assert again.id > first.id
    assert again.wait(progress=False) == "succeeded"
    assert again.info()["spec"] == first.info()["spec"]
    assert again.info()["tags"] == ["pytest-rerun"]
    assert len(again.results()) == len(first.results()) == 1


def test_resume_goes_on_with_a_job_interrupted_by_a_crash():
    d = Daemon()
    try:
        job = d.board().submit("idle", duration_s=0.5, repeats=4)
        while job.info()["progress"]["done"] < 1:
            time.sleep(0.05)
        d.stop(signal.SIGKILL)
        d.start()
        job = d.board().job(job.id)
        assert job.state == "interrupted"
        job.resume()
        assert job.wait(progress=False) == "succeeded"
        assert len(job.results()) == 4
    finally:
        d.close()


class FakeTqdm:
    """A stand-in for tqdm.auto.tqdm that records what the bar was told."""
    made = []

    def __init__(self, total=0, desc="", unit=""):
        self.total, self.desc, self.unit, self.n = total, desc, unit, 0
        self.postfix, self.shown, self.closed = None, [], False
        FakeTqdm.made.append(self)

    def set_postfix_str(self, text, refresh=True):
        self.postfix = text

    def refresh(self):
        self.shown.append((self.n, self.total))

    def close(self):
        self.closed = True


class Terminal(io.StringIO):
    def isatty(self):
        return True


@pytest.fixture
def fake_tqdm(monkeypatch):
    FakeTqdm.made = []
    top, auto = types.ModuleType("tqdm"), types.ModuleType("tqdm.auto")
    auto.tqdm, top.auto = FakeTqdm, auto
    monkeypatch.setitem(sys.modules, "tqdm", top)
    monkeypatch.setitem(sys.modules, "tqdm.auto", auto)
    monkeypatch.delitem(sys.modules, "ipykernel", raising=False)
    return FakeTqdm


def two_points(board):
    return board.submit("idle", duration_s=0.2, repeats=2)


@pytest.mark.parametrize("stderr,progress", [(Terminal, True), (io.StringIO, "bar")])
def test_wait_draws_a_tqdm_bar_on_a_terminal_or_when_asked(board, fake_tqdm, monkeypatch, stderr, progress):
    err = stderr()
    monkeypatch.setattr("sys.stderr", err)
    job = two_points(board)
    assert job.wait(progress=progress) == "succeeded"
    assert len(fake_tqdm.made) == 1
    bar = fake_tqdm.made[0]
    assert (bar.desc, bar.unit, bar.total, bar.closed) == (f"job {job.id}", "point", 2, True)
    assert bar.shown[-1] == (2, 2) and bar.postfix in ("queued", "running")
    assert err.getvalue() == ""  # the bar, not the plain line


@pytest.mark.parametrize("stderr,progress", [(io.StringIO, True), (Terminal, "lines")])
def test_wait_writes_plain_lines_where_no_one_watches_or_when_asked(board, fake_tqdm, monkeypatch, stderr, progress):
    err = stderr()
    monkeypatch.setattr("sys.stderr", err)
    job = two_points(board)
    assert job.wait(progress=progress) == "succeeded"
    assert fake_tqdm.made == []
    text = err.getvalue()
    assert f"job {job.id} (running): 2/2 points" in text
    # A terminal's line is rewritten in place; a log gets a line per change.
    assert ("\r" in text) == (stderr is Terminal) and text.endswith("\n")


def test_wait_without_tqdm_writes_lines_and_a_bar_asked_for_is_a_missing_dependency(board, monkeypatch):
    monkeypatch.setitem(sys.modules, "tqdm", None)  # import tqdm raises ImportError
    monkeypatch.setitem(sys.modules, "tqdm.auto", None)
    err = Terminal()
    monkeypatch.setattr("sys.stderr", err)
    job = two_points(board)
    assert job.wait(progress=True) == "succeeded" and f"job {job.id} (running): 2/2 points" in err.getvalue()
    with pytest.raises(jetperf.MissingDependency) as e:
        job.wait(progress="bar")
    assert "python3-tqdm" in str(e.value)
    with pytest.raises(ValueError):
        job.wait(progress="yes")
