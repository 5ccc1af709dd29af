"""An http.client connection whose every socket wait (connect, send, each receive) ends by one
deadline. A socket's own timeout bounds each receive alone and restarts with every byte that
arrives, so a server that trickles a byte a second could otherwise hold a call for ever."""
import http.client
import socket
import time


class _DeadlineSocket(socket.socket):
    """A socket that asks its connection how long it may still wait before each send and receive
    (http.client reads through makefile(), which receives with recv_into)."""

    wait_s = None

    def recv_into(self, buffer, nbytes=0, flags=0):
        self.settimeout(self.wait_s())
        return super().recv_into(buffer, nbytes, flags)

    def recv(self, bufsize, flags=0):
        self.settimeout(self.wait_s())
        return super().recv(bufsize, flags)

    def sendall(self, data, flags=0):
        self.settimeout(self.wait_s())
        return super().sendall(data, flags)


class DeadlineConnection(http.client.HTTPConnection):
    """`deadline` (time.monotonic()) ends every wait, `step_s` bounds each one; a caller may move
    both while it reads (an event stream gives each line its own). `deadline_binds` says which
    of the two the last wait ran into, `connected` whether a connection was ever made."""

    def __init__(self, host, port, deadline, step_s):
        super().__init__(host, port, timeout=step_s)
        self.deadline = deadline
        self.step_s = step_s
        self.deadline_binds = False
        self.connected = False
        # Kept past http.client's own reference (dropped once a "Connection: close" answer
        # begins), so that abort() can end a read under way on another thread.
        self._socket = None

    def wait_s(self):
        left = self.deadline - time.monotonic()
        self.deadline_binds = left <= self.step_s
        if left <= 0:
            raise socket.timeout("deadline passed")
        return min(left, self.step_s)

    def connect(self):
        plain = socket.create_connection((self.host, self.port), self.wait_s())
        try:
            plain.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        except OSError:
            pass
        # The same descriptor, as a socket whose waits end by the deadline.
        self.sock = _DeadlineSocket(fileno=plain.detach())
        self.sock.wait_s = self.wait_s
        self._socket = self.sock
        self.connected = True

    def abort(self):
        """Ends the connection from any thread: a read under way returns at once."""
        if self._socket is not None:
            try:
                self._socket.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        self.close()
