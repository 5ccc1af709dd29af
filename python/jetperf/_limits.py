"""How long one call may take and how much it may read: the bounds a misbehaving or hostile
server meets (a trickle, an endless answer, an endless event line)."""
from dataclasses import dataclass, fields


@dataclass(frozen=True)
class Limits:
    """`jetperf.connect(limits=jetperf.Limits(deadline=120))`; times in seconds, sizes in bytes.
    The sizes match the C++ CLI's (client/http_client.hpp)."""

    # The longest single wait: connecting, sending, each read.
    timeout: float = 10.0
    # A whole call, from connecting to the answer's last byte (a stream: to its header), however
    # the bytes trickle in: a socket timeout alone restarts with every byte that arrives.
    deadline: float = 60.0
    # The longest an event-stream line may take to arrive whole; the daemon sends a keep-alive
    # every 15 s, so a live stream never goes that long without one.
    stream_timeout: float = 30.0
    # One answer held whole (the results of a 100k-point sweep are a few hundred MB at most).
    max_body: int = 512 << 20
    # One event-stream line, and one event's data.
    max_event_line: int = 16 << 20

    def __post_init__(self):
        for f in fields(self):
            if not getattr(self, f.name) > 0:
                raise ValueError(f"Limits.{f.name} must be > 0, got {getattr(self, f.name)!r}")
