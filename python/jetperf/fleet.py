"""Results across boards: the boards of the fleet's hosts file (or given ones), each asked for
the jobs carrying the tags, merged as `jetperf fleet results` merges them (client/
board_csv_merge.hpp): a leading `board` column, then the union of the boards' columns in order
of first appearance."""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, List, Optional, Sequence, Union

from . import _hosts, _optional, _settings
from ._http import Http

if TYPE_CHECKING:
    import pandas

    from .board import Board, Tags


def fleet_boards(boards: Optional[Sequence[Union[str, Board]]] = None, hosts_file: Optional[str] = None,
                 token: Optional[str] = None) -> List[Board]:
    """Boards by name from the hosts file (None: all of them), or given as Board objects or
    host:port addresses (named by their address)."""
    from .board import Board
    _, base_token = _settings.resolve(None, token)
    entries = _hosts.read_hosts(hosts_file) if boards is None or any(
        isinstance(b, str) and ":" not in b for b in boards) else []
    by_name = {name: (addr, tok) for name, addr, tok in entries}
    out = []
    for b in (boards if boards is not None else list(by_name)):
        if isinstance(b, Board):
            out.append(b)
            continue
        if b in by_name:
            address, token_file = by_name[b]
            tok = _settings.first_line(token_file) if token_file else base_token
            if token_file and not tok:
                raise ValueError(f"board '{b}': cannot read token file '{token_file}'")
            out.append(Board(Http(_settings.parse_endpoint(address), tok), name=b))
        elif ":" in b:
            out.append(Board(Http(_settings.parse_endpoint(b), base_token), name=b))
        else:
            raise KeyError(f"no board named '{b}' in the hosts file")
    return out


def results(tag: Tags, boards: Optional[Sequence[Union[str, Board]]] = None, kind: Optional[str] = None,
            hosts_file: Optional[str] = None) -> pandas.DataFrame:
    """Every board's jobs carrying all the tags as one DataFrame with board, job_id and tags
    columns. `boards`: names from the hosts file (~/.config/jetperf/hosts, as the CLI's fleet
    reads it), addresses or Board objects; None: every board of the hosts file."""
    pd = _optional.pandas()
    chosen = fleet_boards(boards, hosts_file)
    with ThreadPoolExecutor(max_workers=max(1, len(chosen))) as pool:
        tables = list(pool.map(lambda b: b.results(tag, kind), chosen))
    header = ["board"]
    for t in tables:
        header += [c for c in t.columns if c not in header]
    parts = []
    for b, t in zip(chosen, tables):
        t = t.copy()
        t.insert(0, "board", pd.array([b.name] * len(t), dtype="string"))
        parts.append(t)
    df = pd.concat(parts, ignore_index=True) if parts else pd.DataFrame(columns=header)
    df = df.reindex(columns=header)
    df.attrs["units"] = {k: v for t in tables for k, v in t.attrs.get("units", {}).items()}
    df.attrs["parameters"] = ["board"] + [c for c in header if any(c in t.attrs.get("parameters", []) for t in tables)]
    df.attrs["metrics"] = [c for c in header if c not in df.attrs["parameters"]]
    return df
