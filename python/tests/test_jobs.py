"""Submitting, following, cancelling, rerunning and resuming jobs through the real daemon."""
import io
import signal
import time

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
