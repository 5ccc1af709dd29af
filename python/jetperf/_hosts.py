"""The fleet's hosts file, as `jetperf fleet` reads it (client/fleet_hosts.cpp): one board a
line, `name = host:port [token-file]`, '#' comments; ~/.config/jetperf/hosts by default."""
import os
import re

from ._settings import config_dir

_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:\[\]-]{0,63}$")


def default_hosts_file(environ=None):
    d = config_dir(environ)
    return os.path.join(d, "hosts") if d else None


def parse_hosts(text, where="hosts"):
    """[(name, address, token_file or None)] in file order; ValueError naming the line."""
    out, seen = [], set()
    for number, line in enumerate(text.splitlines(), 1):
        at = f"{where}:{number}"
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        if "=" not in line:
            raise ValueError(f"{at}: expected 'name = host:port [token-file]'")
        name, rest = (part.strip() for part in line.split("=", 1))
        if not _NAME.match(name):
            raise ValueError(f"{at}: '{name}' is not a board name (letters, digits, '.', '_', '-')")
        words = rest.split()
        if not words:
            raise ValueError(f"{at}: board '{name}' has no address")
        if len(words) > 2:
            raise ValueError(f"{at}: unexpected '{words[2]}' after the token file")
        if name in seen:
            raise ValueError(f"{where}: board '{name}' is listed twice")
        seen.add(name)
        out.append((name, words[0], words[1] if len(words) > 1 else None))
    return out


def read_hosts(path=None):
    path = path or default_hosts_file()
    if not path or not os.path.exists(path):
        raise ValueError(f"no boards: write {path or '~/.config/jetperf/hosts'} "
                         "(`name = host:port [token-file]` lines) or pass addresses")
    with open(path, encoding="utf-8") as f:
        return parse_hosts(f.read(), path)
