"""The errors the package raises: every answer of jetperfd's that is not 2xx becomes one, and so
does every way a call can fail on the way (connection, deadline, size, a malformed answer)."""


class JetperfError(Exception):
    """An error answer of jetperfd (``{"error": {"code", "message", "field"}}``) or a call that
    failed; ``status`` is the HTTP status (0 when nothing answered)."""

    def __init__(self, message, status=0, code=None, field=None):
        super().__init__(message)
        self.message = message
        self.status = status
        self.code = code
        self.field = field


class SpecError(JetperfError):
    """A request the daemon refused with 400: ``field`` names what was wrong (``spec.sizes``,
    ``kind``, ``spec.networks[0].layers[1]``), ``code`` says how (``out_of_range``, ...)."""


class ConnectionFailed(JetperfError):
    """No connection (refused, a name that does not resolve), or one that broke before the answer
    was whole (reset, closed early)."""


class TimedOut(JetperfError):
    """A call past its deadline (``Limits.deadline``), a wait longer than ``Limits.timeout``, or
    an event line slower than the stream's timeout."""


class TooLarge(JetperfError):
    """An answer longer than ``Limits.max_body`` or an event line (or event) longer than
    ``Limits.max_event_line``: ``limit`` is that bound in bytes."""

    def __init__(self, message, limit, status=0):
        super().__init__(message, status=status)
        self.limit = limit


class BadResponse(JetperfError):
    """An answer that is not what jetperfd sends: not HTTP, not UTF-8, not JSON, or JSON of
    another shape."""


class PagingStuck(BadResponse):
    """A samples page whose ``next_after`` does not advance past the page before: following it
    would ask for the same pages for ever."""


class RedirectRefused(JetperfError):
    """A 3xx answer. The client follows no redirect, so the token only ever goes to the daemon
    it was given for; ``status`` is the 3xx."""


class MissingDependency(ImportError):
    """An optional package (pandas, matplotlib) that a function needs is not installed."""
