"""A loopback HTTP server on a thread that misbehaves on purpose, for the client's defences:
each test gives it `reply(request, conn)`, which writes whatever bytes it likes to the socket
(a redirect, a trickle, an endless body, a reset). Every request it read is kept in `requests`,
headers and all, so a test can say what the server saw (a token, how many reconnects)."""
import socket
import struct
import threading
import time
from dataclasses import dataclass, field

import jetperf
from jetperf._http import Http
from jetperf._settings import Endpoint


@dataclass
class Request:
    method: str
    target: str
    headers: dict = field(default_factory=dict)  # names in lower case
    at: float = 0.0  # time.monotonic() when it arrived


class HostileServer:
    def __init__(self, reply):
        self.reply = reply
        self.requests = []
        self._listener = socket.create_server(("127.0.0.1", 0))
        self._listener.settimeout(0.1)
        self.port = self._listener.getsockname()[1]
        self._stop = threading.Event()
        self._conns = []
        self._lock = threading.Lock()
        threading.Thread(target=self._accept, name="hostile-accept", daemon=True).start()

    @property
    def stopping(self):
        return self._stop.is_set()

    def board(self, token="", **limits):
        return jetperf.Board(Http(Endpoint("127.0.0.1", self.port), token, limits=jetperf.Limits(**limits)))

    def close(self):
        self._stop.set()
        self._listener.close()
        with self._lock:
            for c in self._conns:
                try:
                    c.close()
                except OSError:
                    pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _accept(self):
        while not self._stop.is_set():
            try:
                conn, _ = self._listener.accept()
            except socket.timeout:
                continue
            except OSError:
                return
            with self._lock:
                self._conns.append(conn)
            threading.Thread(target=self._serve, args=(conn,), name="hostile-conn", daemon=True).start()

    def _serve(self, conn):
        try:
            request = read_request(conn)
            if request is None:
                return
            with self._lock:
                self.requests.append(request)
            self.reply(request, conn)
        except OSError:
            pass  # the client hung up: that is what several tests want
        finally:
            try:
                conn.close()
            except OSError:
                pass


def read_request(conn):
    """The request line and headers (the body, if any, is read and dropped)."""
    conn.settimeout(5)
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = conn.recv(65536)
        if not chunk:
            return None
        data += chunk
    head, _, rest = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    method, target, _ = lines[0].split(" ", 2)
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    length = int(headers.get("content-length", "0"))
    while len(rest) < length:
        chunk = conn.recv(65536)
        if not chunk:
            break
        rest += chunk
    conn.settimeout(None)
    return Request(method, target, headers, time.monotonic())


def answer(conn, body, status="200 OK", content_type="application/json", extra=""):
    """A whole answer with its Content-Length, then the connection closes."""
    data = body.encode() if isinstance(body, str) else body
    conn.sendall(f"HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nContent-Length: {len(data)}\r\n"
                 f"{extra}Connection: close\r\n\r\n".encode() + data)


def reset(conn):
    """Close with a TCP RST rather than a FIN (SO_LINGER with a zero timeout)."""
    conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    conn.close()
