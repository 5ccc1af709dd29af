"""The errors the package raises: every answer of jetperfd's that is not 2xx becomes one, and so
does every way a call can fail on the way (connection, deadline, size, a malformed answer)."""
from __future__ import annotations

from typing import Optional


class JetperfError(Exception):
    """An error answer of jetperfd (``{"error": {"code", "message", "field"}}``) or a call that
    failed; ``status`` is the HTTP status (0 when nothing answered)."""

    def __init__(self, message: str, status: int = 0, code: Optional[str] = None,
                 field: Optional[str] = None) -> None:
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

    def __init__(self, message: str, limit: int, status: int = 0) -> None:
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


class JobFailed(JetperfError):
    """``job.wait()`` on a job that ended ``failed``: ``error`` is the job's own error text (its
    ``error`` in GET /v1/jobs/{id}, "2 of 2 points failed (most often: exit status 1)"), and
    ``stderr_tail`` the end of the first failed run's stderr where a command job has one; the
    message carries both. ``job_id`` names the job."""

    def __init__(self, message: str, job_id: int, error: Optional[str], stderr_tail: Optional[str] = None) -> None:
        super().__init__(message)
        self.job_id = job_id
        self.error = error
        self.stderr_tail = stderr_tail


class MissingDependency(ImportError):
    """An optional package (pandas, matplotlib) that a function needs is not installed."""
