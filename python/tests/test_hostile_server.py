"""The client against a server that misbehaves (hostile_server.py): the token never leaves for
another host nor shows in a message, every call ends by its deadline, paging and answers are
bounded, every failure is a JetperfError subclass, and wait() reconnects with a growing delay.
Each call runs on a thread joined with a bound, so a client that hangs fails the test instead
of hanging the suite."""
import itertools
import json
import random
import socket
import threading
import time
import traceback

import pytest

import jetperf
from hostile_server import HostileServer, answer, reset
from jetperf._http import Http
from jetperf._settings import Endpoint

# Letters that no path, code line or address in a traceback spells by chance.
TOKEN = "".join(random.choice("GHJKMNPQRSTVWXYZ") for _ in range(32))
SSE_HEAD = b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n"


def finishes_within(seconds, call):
    """(value, error, elapsed s) of call() on a thread; fails if it still runs after `seconds`."""
    out = {}

    def run():
        t0 = time.monotonic()
        try:
            out["value"] = call()
        except BaseException as e:  # noqa: B902 - the test looks at whatever it raised
            out["error"] = e
        out["elapsed"] = time.monotonic() - t0

    t = threading.Thread(target=run, name="client-call", daemon=True)
    t.start()
    t.join(seconds)
    assert not t.is_alive(), f"the call was still running after {seconds} s"
    return out.get("value"), out.get("error"), out["elapsed"]


def shows_token(text, token=TOKEN, window=6):
    return any(token[i:i + window] in text for i in range(len(token) - window + 1))


def full_text(error):
    """The exception as a traceback would print it, chained exceptions included."""
    return "".join(traceback.format_exception(type(error), error, error.__traceback__))


# --- the token --------------------------------------------------------------------------------

@pytest.mark.parametrize("status", ["302 Found", "307 Temporary Redirect"])
def test_a_redirect_to_another_host_is_refused_and_the_token_never_arrives_there(status):
    with HostileServer(lambda r, c: answer(c, '{"status": "ok"}')) as other:
        location = f"http://localhost:{other.port}/v1/health"
        with HostileServer(lambda r, c: answer(c, "", status, extra=f"Location: {location}\r\n")) as first:
            _, error, _ = finishes_within(10, first.board(TOKEN).health)
            time.sleep(0.2)  # a follow would have reached `other` by now
    assert not any(TOKEN in str(r.headers) for r in other.requests)
    assert isinstance(error, jetperf.RedirectRefused), repr(error)
    assert error.status == int(status.split()[0])
    assert f"localhost:{other.port}" in str(error)
    assert [r.headers.get("authorization") for r in first.requests] == ["Bearer " + TOKEN]
    assert other.requests == []


def test_a_token_ending_in_a_newline_is_refused_without_showing_it():
    with HostileServer(lambda r, c: answer(c, '{"status": "ok"}')) as s:
        _, error, _ = finishes_within(10, s.board(TOKEN + "\n").health)
    assert isinstance(error, jetperf.JetperfError), repr(error)
    assert "33 characters" in str(error)
    assert not shows_token(full_text(error)) and not shows_token(repr(error))
    assert s.requests == []


@pytest.mark.parametrize("body", [
    lambda auth: json.dumps({"error": {"code": "unauthorized", "message": f"bad header '{auth}'"}}),
    lambda auth: f"who sent {auth}?"])
def test_an_error_answer_that_echoes_the_token_does_not_show_it(body):
    with HostileServer(lambda r, c: answer(c, body(r.headers["authorization"]), "401 Unauthorized")) as s:
        _, error, _ = finishes_within(10, s.board(TOKEN).health)
    assert isinstance(error, jetperf.JetperfError) and error.status == 401, repr(error)
    assert not shows_token(full_text(error))
    assert "<token: 32 characters>" in str(error)


# --- paging, deadlines, sizes ----------------------------------------------------------------

def sample_pages(cursors):
    """Pages of one sample each whose next_after are `cursors` in turn; then 500s (so a client
    that never stops paging ends with an error after 50 pages rather than never)."""
    def reply(request, conn):
        if count[0] >= 50:
            answer(conn, '{"error": {"message": "enough"}}', "500 Internal Server Error")
            return
        cursor = cursors[min(count[0], len(cursors) - 1)]
        count[0] += 1
        answer(conn, json.dumps({"channels": [{"name": "power.total", "unit": "W"}],
                                 "samples": [{"t_ns": count[0], "channel": "power.total", "value": 1.5}],
                                 "next_after": cursor}))
    count = [0]
    return reply


@pytest.mark.parametrize("cursors", [["5:1"], ["9:1", "2:1"], ["5:1", "5:0"]])
def test_paging_stops_and_raises_when_next_after_does_not_advance(cursors):
    with HostileServer(sample_pages(cursors)) as s:
        job = jetperf.Job(s.board(TOKEN), {"id": 3, "kind": "idle"})
        _, error, _ = finishes_within(20, job.samples)
    assert isinstance(error, jetperf.PagingStuck), repr(error)
    assert len(s.requests) == 2
    assert f"'{cursors[-1]}'" in str(error)


def test_paging_that_advances_reads_every_page():
    with HostileServer(sample_pages(["1:1", "2:1", "2:3", None])) as s:
        job = jetperf.Job(s.board(TOKEN), {"id": 3, "kind": "idle"})
        df, error, _ = finishes_within(20, job.samples)
    assert error is None, repr(error)
    assert [r.target.split("after=")[1] if "after=" in r.target else None for r in s.requests] == \
        [None, "1%3A1", "2%3A1", "2%3A3"]
    assert list(df["power.total"]) == [1.5] * 4


def trickle(data, every_s=0.05):
    def reply(request, conn):
        for i in range(len(data)):
            conn.sendall(data[i:i + 1])
            time.sleep(every_s)
    return reply


@pytest.mark.parametrize("where", ["header", "body"])
def test_a_trickling_server_cannot_hold_a_call_past_its_deadline(where):
    head = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 4000\r\n\r\n"
    body = b" " * 3998 + b"{}"
    reply = trickle(head + body) if where == "header" else (lambda r, c: (c.sendall(head), trickle(body)(r, c)))
    with HostileServer(reply) as s:
        _, error, elapsed = finishes_within(8, s.board(TOKEN, timeout=1.0, deadline=1.5).health)
    assert isinstance(error, jetperf.TimedOut), repr(error)
    assert 1.4 < elapsed < 4.0
    assert "1.5 s deadline" in str(error)


def test_a_trickling_event_line_times_out():
    lines = trickle(b"event: samples\ndata: " + b"x" * 4000)
    reply = lambda r, c: (c.sendall(SSE_HEAD), lines(r, c))  # noqa: E731
    with HostileServer(reply) as s:
        _, error, elapsed = finishes_within(8, lambda: s.board(TOKEN, stream_timeout=1.0).telemetry(60))
    assert isinstance(error, jetperf.TimedOut), repr(error)
    assert elapsed < 4.0


def endless(head, piece, total=48 << 20):
    """`head`, then `piece` over and over (to `total` bytes, so an unbounded client ends too)."""
    def reply(request, conn):
        conn.sendall(head)
        sent = 0
        while sent < total:
            conn.sendall(piece)
            sent += len(piece)
    return reply


@pytest.mark.parametrize("head", [
    b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 20000000\r\n\r\n",
    b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n",
    b"HTTP/1.1 500 Internal Server Error\r\nConnection: close\r\n\r\n"])
def test_an_oversize_answer_is_refused_naming_the_limit(head):
    with HostileServer(endless(head, b" " * 65536, total=20000000)) as s:
        _, error, _ = finishes_within(20, s.board(TOKEN, max_body=100000).health)
    assert isinstance(error, jetperf.TooLarge), repr(error)
    assert error.limit == 100000
    assert "max_body" in str(error) and "100000 bytes" in str(error)


def test_an_oversize_event_line_is_refused_naming_the_limit():
    with HostileServer(endless(SSE_HEAD + b"event: samples\ndata: ", b"x" * 65536)) as s:
        _, error, _ = finishes_within(20, lambda: s.board(TOKEN, max_event_line=100000).telemetry(60))
    assert isinstance(error, jetperf.TooLarge), repr(error)
    assert error.limit == 100000
    assert "max_event_line" in str(error) and "100000 bytes" in str(error)


# --- every failure a JetperfError ------------------------------------------------------------

def stream(text):
    return lambda r, c: c.sendall(SSE_HEAD + text.encode())


@pytest.mark.parametrize("reply,call", [
    (lambda r, c: c.sendall(b"SSH-2.0-OpenSSH_9.2\r\n\r\n"), lambda b: b.health()),
    (lambda r, c: answer(c, "<html>oops</html>"), lambda b: b.health()),
    (lambda r, c: answer(c, b"\xff\xfe{}"), lambda b: b.health()),
    (stream("event: samples\ndata: {oops\n\n"), lambda b: b.telemetry(60)),
    (stream('event: samples\ndata: {"t0_ns": 1}\n\n'), lambda b: b.telemetry(60)),
    (lambda r, c: answer(c, '{"samples": [{"t_ns": 1}], "next_after": null}'),
     lambda b: jetperf.Job(b, {"id": 1}).samples())])
def test_a_garbage_answer_is_a_bad_response(reply, call):
    with HostileServer(reply) as s:
        _, error, _ = finishes_within(10, lambda: call(s.board(TOKEN)))
    assert isinstance(error, jetperf.BadResponse), repr(error)


def head_then_reset(r, c):
    c.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n{\"a\": ")
    time.sleep(0.1)
    reset(c)


def head_then_close(r, c):
    c.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n{\"a\": ")


@pytest.mark.parametrize("reply", [lambda r, c: reset(c), head_then_reset, head_then_close])
def test_a_broken_connection_is_connection_failed(reply):
    with HostileServer(reply) as s:
        _, error, _ = finishes_within(10, s.board(TOKEN).health)
    assert isinstance(error, jetperf.ConnectionFailed), repr(error)
    assert error.status == 0


def test_nothing_listening_is_connection_failed():
    with socket.create_server(("127.0.0.1", 0)) as probe:
        port = probe.getsockname()[1]
    b = jetperf.Board(Http(Endpoint("127.0.0.1", port), TOKEN))
    _, error, _ = finishes_within(10, b.health)
    assert isinstance(error, jetperf.ConnectionFailed), repr(error)
    assert f"127.0.0.1:{port}" in str(error)


# --- wait() reconnecting ---------------------------------------------------------------------

def test_reconnect_delays_double_up_to_a_cap():
    from jetperf._backoff import reconnect_delays
    assert list(itertools.islice(reconnect_delays(), 8)) == pytest.approx([0.1, 0.2, 0.4, 0.8, 1.6, 3.2, 5.0, 5.0])


def test_wait_backs_off_between_reconnects_to_a_stream_that_keeps_ending():
    start = time.monotonic()

    def reply(request, conn):
        if request.target.endswith("/events"):
            conn.sendall(SSE_HEAD)  # and hang up: the stream ends without `end`
        else:
            state = "running" if time.monotonic() - start < 2.0 else "succeeded"
            answer(conn, json.dumps({"id": 7, "kind": "idle", "state": state}))

    with HostileServer(reply) as s:
        job = jetperf.Job(s.board(TOKEN), {"id": 7, "kind": "idle"})
        state, error, _ = finishes_within(20, lambda: job.wait(progress=False))
    assert error is None and state == "succeeded", repr(error)
    streams = [r.at for r in s.requests if r.target.endswith("/events")]
    assert 3 <= len(streams) <= 7
    gaps = [b - a for a, b in zip(streams, streams[1:])]
    assert gaps[-1] > 0.6 and gaps[-1] > 3 * gaps[0]
