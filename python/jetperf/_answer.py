"""What an answer's text means: an error answer as JetperfError/SpecError, JSON parsed, and JSON
of another shape than jetperfd's, each a JetperfError subclass naming the call."""
import json
from contextlib import contextmanager

from .errors import BadResponse, JetperfError, SpecError


def error_from(status, body, what):
    """An error answer as SpecError (400) or JetperfError, with the daemon's code and field."""
    code = field = None
    message = ""
    try:
        e = json.loads(body).get("error", {})
        code, field, message = e.get("code"), e.get("field"), e.get("message", "")
    except (ValueError, AttributeError):
        pass
    if not message:
        message = f"HTTP {status}" + (f": {body.strip()}" if body and len(body) < 200 else "")
    if field:
        message += f" (field: {field})"
    cls = SpecError if status == 400 else JetperfError
    return cls(f"{what}: {message}", status=status, code=code, field=field)


def parse_json(text, what):
    """json.loads, a BadResponse naming `what` when the text is not JSON."""
    try:
        return json.loads(text)
    except ValueError as e:
        raise BadResponse(f"{what}: the answer is not JSON ({e.msg} at character {e.pos})") from None


@contextmanager
def answer_shape(what):
    """Turns a lookup into JSON of another shape than jetperfd's (a missing key, a list where an
    object belongs) into BadResponse."""
    try:
        yield
    except (KeyError, IndexError, TypeError, AttributeError, ValueError) as e:
        detail = f"no {e}" if isinstance(e, KeyError) else type(e).__name__
        raise BadResponse(f"{what}: the answer is not shaped as jetperfd's ({detail})") from None
