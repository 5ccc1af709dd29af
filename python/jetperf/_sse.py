"""Server-Sent Events read line by line from an http.client answer: `event:` and `data:` fields,
comments (keep-alives) dropped, every line bounded in time and size."""
import time

from .errors import BadResponse, TooLarge


def read_events(r, conn, line_s, limit, what):
    """(event, data) of the answer `r` until it ends: each line has `line_s` to arrive whole (its
    connection's deadline moves line by line) and `limit` bytes, and so has each event's data."""
    event, data, size = "message", [], 0
    while True:
        conn.deadline, conn.step_s = time.monotonic() + line_s, line_s
        raw = r.readline(limit + 2)
        line = raw[:-1] if raw.endswith(b"\n") else raw
        line = line[:-1] if line.endswith(b"\r") else line
        if len(line) > limit:
            raise TooLarge(f"{what}: an event line is longer than max_event_line ({limit} bytes)", limit)
        if not raw.endswith(b"\n"):
            return  # the end of the stream (an unfinished last line is dropped, as SSE says)
        try:
            line = line.decode("utf-8")
        except UnicodeDecodeError:
            raise BadResponse(f"{what}: an event line is not UTF-8 text") from None
        if not line:
            if data:
                yield event, "\n".join(data)
            event, data, size = "message", [], 0
        elif line.startswith(":"):
            continue
        else:
            name, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if name == "event":
                event = value
            elif name == "data":
                size += len(value) + 1
                if size > limit:
                    raise TooLarge(f"{what}: an event's data is longer than max_event_line ({limit} bytes)", limit)
                data.append(value)
