"""The errors the package raises: every answer of jetperfd's that is not 2xx becomes one."""


class JetperfError(Exception):
    """An error answer of jetperfd (``{"error": {"code", "message", "field"}}``) or a connection
    that failed; ``status`` is the HTTP status (0 when nothing answered)."""

    def __init__(self, message, status=0, code=None, field=None):
        super().__init__(message)
        self.message = message
        self.status = status
        self.code = code
        self.field = field


class SpecError(JetperfError):
    """A request the daemon refused with 400: ``field`` names what was wrong (``spec.sizes``,
    ``kind``, ``spec.networks[0].layers[1]``), ``code`` says how (``out_of_range``, ...)."""


class MissingDependency(ImportError):
    """An optional package (pandas, matplotlib) that a function needs is not installed."""
