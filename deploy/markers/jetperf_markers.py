"""Phase markers for jetperf command jobs: with phase("train"): ...; begin/end/mark("step", i=3).
Sends lines to $JETPERF_MARKERS (a unix datagram socket the daemon owns for the job) with the
CLOCK_MONOTONIC time as ts=; outside a job every call does nothing. Standard library only."""
import contextlib, os, socket, time

_path = os.environ.get("JETPERF_MARKERS")
_sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) if _path else None

def _send(what, name, attrs=None):
    if _sock is None:
        return
    kv = "".join(f" {k}={v}" for k, v in (attrs or {}).items())
    try:
        _sock.sendto(f"{what} {name}{kv} ts={time.clock_gettime_ns(time.CLOCK_MONOTONIC)}".encode(), _path)
    except OSError:
        pass  # the job ended or the daemon went away: the program goes on

def begin(name): _send("begin", name)
def end(name): _send("end", name)
def mark(name, **attrs): _send("mark", name, attrs)

@contextlib.contextmanager
def phase(name):
    begin(name)
    try:
        yield
    finally:
        end(name)
