"""Board: what the simulated AGX Orin reports, its clocks and mode, and live telemetry."""
import pytest

import jetperf


def test_info_names_the_simulated_board(board):
    info = board.info()
    assert info["board"] == "sim:orin-agx"
    assert board.health()["status"] == "ok"


def test_mode_is_the_default_mode_and_lists_the_modes(board):
    mode = board.mode()
    assert (mode["id"], mode["name"]) == (2, "MODE_30W")
    assert [m["name"] for m in mode["modes"]] == ["MAXN", "MODE_15W", "MODE_30W", "MODE_50W"]
    assert board.mode(2)["name"] == "MODE_30W"  # setting the current mode is allowed and a no-op


def test_lock_clocks_then_restore(board):
    before = board.clocks()
    available = before["available"]["cpu_khz"]
    locked = board.lock_clocks(cpu="max")
    assert locked["cpu_freq_khz"] == max(available)
    assert board.clocks()["cpu_freq_khz"] == max(available)
    board.lock_clocks(cpu=available[1])
    assert board.clocks()["cpu_freq_khz"] == available[1]
    board.restore()  # the settings of the daemon's start: each cluster's governor and bounds
    # (the current clock then follows the simulated governor and the host's load: not compared)
    assert board.clocks()["state"]["cpu"] == before["state"]["cpu"]
    with pytest.raises(ValueError):
        board.lock_clocks()


def test_a_clock_the_board_does_not_offer_is_a_spec_error(board):
    with pytest.raises(jetperf.SpecError) as e:
        board.lock_clocks(cpu=12345)
    assert e.value.status == 400 and e.value.field == "cpu"


def test_telemetry_is_every_sample_of_the_stream_per_channel(board):
    df = board.telemetry(seconds=1.0)
    assert {"power.total", "rail.VDD_GPU_SOC", "clock.gpu"} <= set(df.columns)
    assert df.index.name == "t_s" and df.index.is_monotonic_increasing
    # Between jobs the sampler ticks at 10 Hz (at 100 Hz while one runs): a second holds ten.
    assert 8 <= df["power.total"].notna().sum() <= 200
    assert df.index[-1] > 0.5
    assert df.attrs["units"]["power.total"] == "W"
    assert str(df["power.total"].dtype) == "float64" and (df["power.total"].dropna() > 0).all()


def test_connect_as_a_context_manager_closes_the_board(daemon):
    with jetperf.connect(daemon.address, daemon.token) as b:
        assert isinstance(b, jetperf.Board) and not b.closed
        assert b.info()["board"] == "sim:orin-agx"
    assert b.closed and repr(b).endswith("(closed)>")
    with pytest.raises(jetperf.JetperfError) as e:
        b.info()
    assert "was closed" in str(e.value) and e.value.status == 0


def test_closing_a_board_ends_a_wait_under_way_on_another_thread(daemon):
    import threading
    import time
    b = jetperf.connect(daemon.address, daemon.token)
    job = b.submit("idle", duration_s=30, repeats=1)
    outcome = {}

    def wait():
        try:
            outcome["state"] = job.wait(progress=False)
        except jetperf.JetperfError as e:
            outcome["error"] = e

    t = threading.Thread(target=wait)
    t.start()
    time.sleep(1.0)  # the wait follows the job's event stream by now
    start = time.monotonic()
    b.close()
    t.join(10)
    assert not t.is_alive() and time.monotonic() - start < 5
    assert isinstance(outcome.get("error"), jetperf.JetperfError), outcome
    # The daemon's job goes on, until a board that is open cancels it.
    other = daemon.board()
    assert other.job(job.id).state == "running"
    other.job(job.id).cancel()
