"""jetperfd's HTTP API over http.client: JSON and text answers, error answers turned into
JetperfError/SpecError, and Server-Sent Events read line by line. Every call ends by its
deadline and every answer and event line has a size bound (Limits); no redirect is followed, so
the token goes to no other host; every failure is a JetperfError subclass."""
import dataclasses
import http.client
import json
import socket
import threading
import time
import urllib.parse
from contextlib import contextmanager

from ._answer import error_from, parse_json
from ._deadline_connection import DeadlineConnection
from ._limits import Limits
from ._sse import read_events
from ._token import hide_token, token_problem
from .errors import BadResponse, ConnectionFailed, JetperfError, RedirectRefused, TimedOut, TooLarge

_READ_BYTES = 64 << 10


def _origin(location):
    """Where a Location header points, as host:port (not its path or query)."""
    parts = urllib.parse.urlsplit(location or "")
    return parts.netloc or "another path of the same host"


class Http:
    """One daemon: its endpoint, its token and the limits of every call (`timeout`, when given,
    replaces limits.timeout)."""

    def __init__(self, endpoint, token="", timeout=None, limits=None):
        self.endpoint = endpoint
        self.token = token
        self.limits = limits or Limits()
        if timeout is not None:
            self.limits = dataclasses.replace(self.limits, timeout=timeout)
        # The connections of calls under way (an event stream another thread follows), closed by
        # close(); once closed, no call connects again.
        self._open = set()
        self._lock = threading.Lock()
        self.closed = False

    def close(self):
        """Ends the calls under way (their reads fail with ConnectionFailed) and refuses new
        ones: Board.close() and `with jetperf.connect() as board:`."""
        with self._lock:
            self.closed = True
            conns, self._open = list(self._open), set()
        for conn in conns:
            conn.abort()

    @property
    def timeout(self):
        return self.limits.timeout

    def text(self, method, path, body=None, params=None):
        data = self._call(method, path, body, params)
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as e:
            raise BadResponse(f"{method} {path}: the answer is not UTF-8 text (byte {e.start})") from None

    def json(self, method, path, body=None, params=None):
        text = self.text(method, path, body, params)
        return parse_json(text, f"{method} {path}") if text else {}

    def get(self, path, **params):
        return self.json("GET", path, params=params)

    def events(self, path, params=None, timeout=None):
        """Yields (event, data) of an SSE stream until it ends; comments (keep-alives) are
        dropped. The stream's header comes by the call's deadline, then each line has `timeout`
        (limits.stream_timeout when None) to arrive whole."""
        what = f"GET {path}"
        line_s = timeout or self.limits.stream_timeout
        conn, r = self._connection(what), None
        try:
            with self._failures(what, conn, f"the call's {self.limits.deadline:g} s deadline passed"):
                r = self._exchange(conn, "GET", path, None, params, what)
            with self._failures(what, conn, f"no whole event line came within {line_s:g} s"):
                yield from read_events(r, conn, line_s, self.limits.max_event_line, what)
        finally:
            self._close(conn, r)

    def _call(self, method, path, body, params):
        """The body of a 2xx answer."""
        what = f"{method} {path}"
        conn, r = self._connection(what), None
        try:
            with self._failures(what, conn, f"the call's {self.limits.deadline:g} s deadline passed"):
                r = self._exchange(conn, method, path, body, params, what)
                return self._body(r, what)
        finally:
            self._close(conn, r)

    def _close(self, conn, r):
        with self._lock:
            self._open.discard(conn)
        # With "Connection: close" the answer owns the socket, and conn.close() leaves it open.
        if r is not None:
            r.close()
        conn.close()

    def _connection(self, what):
        problem = token_problem(self.token)
        if problem:
            raise JetperfError(f"{what}: not sent: {problem}")
        conn = DeadlineConnection(self.endpoint.host, self.endpoint.port,
                                  time.monotonic() + self.limits.deadline, self.limits.timeout)
        with self._lock:
            if self.closed:
                raise JetperfError(f"{what}: not sent: the board's connection to {self.endpoint.text()} was closed")
            self._open.add(conn)
        return conn

    def _exchange(self, conn, method, path, body, params, what):
        """Sends the request; the answer once its header says 2xx."""
        target = path
        if params:
            query = {k: (",".join(map(str, v)) if isinstance(v, (list, tuple)) else v)
                     for k, v in params.items() if v is not None}
            target += ("&" if "?" in path else "?") + urllib.parse.urlencode(query)
        # One connection per call, so the daemon need not keep a slot open for us.
        headers = {"Connection": "close"}
        if self.token:
            headers["Authorization"] = "Bearer " + self.token
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        conn.request(method, target, data, headers)
        r = conn.getresponse()
        if r.status < 300:
            return r
        try:
            if r.status < 400:
                raise RedirectRefused(f"{what}: the server redirected it ({r.status}) to "
                                      f"{_origin(r.getheader('Location'))}; the client follows no redirects, so the "
                                      f"token goes to {self.endpoint.text()} only", status=r.status)
            raise error_from(r.status, self._body(r, what).decode("utf-8", "replace"), what)
        finally:
            r.close()

    def _body(self, r, what):
        limit = self.limits.max_body
        if r.length is not None and r.length > limit:
            raise TooLarge(f"{what}: the answer has {r.length} bytes, more than max_body ({limit} bytes)", limit,
                           r.status)
        parts, size = [], 0
        while True:
            chunk = r.read(_READ_BYTES)
            if not chunk:
                break
            size += len(chunk)
            if size > limit:
                raise TooLarge(f"{what}: the answer is longer than max_body ({limit} bytes)", limit, r.status)
            parts.append(chunk)
        # http.client ends a read at a closed connection quietly, even short of Content-Length.
        if r.length:
            raise ConnectionFailed(f"{what}: the connection closed {r.length} bytes before the answer's end")
        return b"".join(parts)

    @contextmanager
    def _failures(self, what, conn, deadline_text):
        """Every failure below as a JetperfError subclass, the token hidden in its message."""
        try:
            yield
        except JetperfError as e:
            raise self._hidden(e)
        except socket.timeout:
            reason = deadline_text if conn.deadline_binds else f"nothing came for {conn.step_s:g} s"
            raise self._hidden(TimedOut(f"{what}: {reason}")) from None
        except http.client.IncompleteRead:
            raise ConnectionFailed(f"{what}: the connection closed before the answer's end") from None
        except OSError as e:  # refused, reset, a name that does not resolve; RemoteDisconnected
            reason = e.strerror or str(e) or type(e).__name__
            where = self.endpoint.text()
            text = f"the connection to {where} broke" if conn.connected else f"cannot connect to {where}"
            raise self._hidden(ConnectionFailed(f"{what}: {text}: {reason}")) from None
        except http.client.HTTPException as e:  # a status line or header that is not HTTP
            detail = f"{type(e).__name__}: {str(e)[:80]!r}"
            raise self._hidden(BadResponse(f"{what}: not an HTTP answer ({detail})")) from None

    def hidden_text(self, text):
        """`text` (which may quote what the server sent) with the token hidden."""
        return hide_token(text, self.token)

    def _hidden(self, error):
        error.message = hide_token(error.message, self.token)
        error.args = (error.message,) + error.args[1:]
        return error
