"""jetperfd's HTTP API over the standard library (urllib): JSON and text answers, error answers
turned into JetperfError/SpecError, and Server-Sent Events read line by line."""
import json
import urllib.error
import urllib.parse
import urllib.request

from .errors import JetperfError, SpecError


def _error_from(status, body, what):
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


class Http:
    """One daemon: its base URL, its token and a timeout for every request but streams."""

    def __init__(self, endpoint, token="", timeout=10.0):
        self.endpoint = endpoint
        self.token = token
        self.timeout = timeout

    def _open(self, method, path, body=None, params=None, timeout=None):
        url = self.endpoint.url() + path
        if params:
            query = {k: (",".join(map(str, v)) if isinstance(v, (list, tuple)) else v)
                     for k, v in params.items() if v is not None}
            url += ("&" if "?" in path else "?") + urllib.parse.urlencode(query)
        data = None
        headers = {}
        if self.token:
            headers["Authorization"] = "Bearer " + self.token
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        req = urllib.request.Request(url, data=data, method=method, headers=headers)
        what = f"{method} {path}"
        try:
            return urllib.request.urlopen(req, timeout=timeout or self.timeout)
        except urllib.error.HTTPError as e:
            raise _error_from(e.code, e.read().decode("utf-8", "replace"), what) from None
        except (urllib.error.URLError, OSError) as e:
            reason = getattr(e, "reason", e)
            raise JetperfError(f"cannot connect to {self.endpoint.text()}: {reason}") from None

    def text(self, method, path, body=None, params=None):
        with self._open(method, path, body, params) as r:
            return r.read().decode("utf-8")

    def json(self, method, path, body=None, params=None):
        text = self.text(method, path, body, params)
        try:
            return json.loads(text) if text else {}
        except ValueError:
            raise JetperfError(f"the server sent invalid JSON for {method} {path}") from None

    def get(self, path, **params):
        return self.json("GET", path, params=params)

    def events(self, path, params=None, timeout=None):
        """Yields (event, data) of an SSE stream until it ends; comments (keep-alives) are
        dropped. `timeout` bounds each read (the daemon sends a keep-alive every 15 s)."""
        with self._open("GET", path, params=params, timeout=timeout or max(self.timeout, 30.0)) as r:
            event, data = "message", []
            for raw in r:
                line = raw.decode("utf-8").rstrip("\r\n")
                if not line:
                    if data:
                        yield event, "\n".join(data)
                    event, data = "message", []
                elif line.startswith(":"):
                    continue
                else:
                    name, _, value = line.partition(":")
                    value = value[1:] if value.startswith(" ") else value
                    if name == "event":
                        event = value
                    elif name == "data":
                        data.append(value)
