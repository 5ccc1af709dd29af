"""Where the client talks to and with which token, resolved as the C++ CLI resolves them
(client/settings.cpp): the argument, then $JETPERF_HOST / $JETPERF_TOKEN, then `host =`,
`token =` or `token_file =` in ~/.config/jetperf/config ($XDG_CONFIG_HOME first), then
127.0.0.1:7070, and on loopback the daemon's own token file, /var/lib/jetperf/token."""
import os
from dataclasses import dataclass

from .errors import JetperfError

SYSTEM_TOKEN_FILE = "/var/lib/jetperf/token"


@dataclass(frozen=True)
class Endpoint:
    host: str = "127.0.0.1"
    port: int = 7070

    def text(self):
        return f"{self.host}:{self.port}"

    def url(self):
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    def is_local(self):
        return self.host in ("127.0.0.1", "localhost", "::1") or self.host.startswith("127.")


def parse_endpoint(text):
    """"host:port", "host", "http://host:port/", "[::1]:7070" -> Endpoint (ValueError when bad)."""
    s = text.strip()
    if "://" in s:
        scheme, s = s.split("://", 1)
        if scheme != "http":
            raise ValueError(f"unsupported scheme in host '{text}' (only http)")
    s = s.split("/", 1)[0]
    port = "7070"
    if s.startswith("["):
        close = s.find("]")
        if close < 0:
            raise ValueError(f"bad host '{text}'")
        host, rest = s[1:close], s[close + 1:]
        if rest:
            if not rest.startswith(":"):
                raise ValueError(f"bad host '{text}'")
            port = rest[1:]
    elif ":" in s:
        host, port = s.rsplit(":", 1)
    else:
        host = s
    if not host:
        raise ValueError(f"bad host '{text}': empty host name")
    if not port.isdigit() or len(port) > 5 or not 1 <= int(port) <= 65535:
        raise ValueError(f"bad host '{text}': port must be 1..65535")
    return Endpoint(host, int(port))


def config_dir(environ=None):
    env = os.environ if environ is None else environ
    if env.get("XDG_CONFIG_HOME"):
        return os.path.join(env["XDG_CONFIG_HOME"], "jetperf")
    if env.get("HOME"):
        return os.path.join(env["HOME"], ".config", "jetperf")
    return None


def config_value(path, key):
    """The value of the first `key = value` line ('#' starts a comment); "" when absent."""
    if not path:
        return ""
    try:
        with open(path, encoding="utf-8") as f:
            for line in f:
                line = line.split("#", 1)[0]
                if "=" in line:
                    k, v = line.split("=", 1)
                    if k.strip() == key:
                        return v.strip()
    except OSError:
        pass
    return ""


def first_line(path):
    """The token file's first line, trimmed; "" when it cannot be read."""
    try:
        with open(path, encoding="utf-8") as f:
            return f.readline().strip()
    except OSError:
        return ""


def resolve(host=None, token=None, environ=None):
    """(Endpoint, token) as the CLI would use them with --host/--token set to these."""
    env = os.environ if environ is None else environ
    d = config_dir(env)
    config = os.path.join(d, "config") if d else None
    text = host or env.get("JETPERF_HOST") or config_value(config, "host")
    target = parse_endpoint(text) if text else Endpoint()
    tok = token or env.get("JETPERF_TOKEN") or config_value(config, "token")
    if not tok:
        file = config_value(config, "token_file")
        if file:
            tok = first_line(file)
            if not tok:
                raise JetperfError(f"cannot read token_file '{file}' from {config}")
    # On the board itself the daemon's token is readable by its group.
    if not tok and target.is_local():
        tok = first_line(SYSTEM_TOKEN_FILE)
    return target, tok or ""
