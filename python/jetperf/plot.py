"""Plots over result tables: the GEMM seed's "any variable against any other, the rest fixed",
and one point's raw power around its measurement window."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, Iterable, Optional

from . import _optional

if TYPE_CHECKING:
    import pandas
    from matplotlib.axes import Axes

    from .job import Job

# Parameters that never make a line of their own: every point has its own index.
_NOT_SERIES = ("index",)


def _label(df, column):
    unit = df.attrs.get("units", {}).get(column)
    return f"{column} [{unit}]" if unit else column


def select(df, fixed):
    """The rows whose columns equal `fixed`'s values (compared as the column's type)."""
    pd = _optional.pandas()
    mask = pd.Series(True, index=df.index)
    for column, value in (fixed or {}).items():
        if column not in df.columns:
            raise KeyError(f"fixed: no column '{column}' (columns: {', '.join(df.columns)})")
        mask &= (df[column] == value).fillna(False)
    return df[mask]


def _still_varying(rows, x, color, fixed):
    """Parameters that take several values at one (colour, x): each must split the lines, or a
    line would join points that differ in more than x. Those that only follow x or the colour
    (n and k with m, the requested clocks with the clock) do not."""
    skip = {x, color, *_NOT_SERIES, *(fixed or {})}
    at = [x] + ([color] if color else [])
    out = []
    for p in rows.attrs.get("parameters", []):
        if p in rows.columns and p not in skip and rows.groupby(at + out, dropna=False)[p].nunique(dropna=False).max() > 1:
            out.append(p)
    return out


def plot(df: pandas.DataFrame, x: str, y: str, color: Optional[str] = None, fixed: Optional[Dict[str, Any]] = None,
         logx: bool = False, ax: Optional[Axes] = None, title: Optional[str] = None) -> Axes:
    """`y` against `x`, one line per value of `color`, on the rows where `fixed`'s columns have
    its values; parameters still varying besides those split the lines too (so each line holds
    all else fixed). Returns the matplotlib Axes."""
    plt = _optional.pyplot()
    for column in [x, y] + ([color] if color else []):
        if column not in df.columns:
            raise KeyError(f"no column '{column}' (columns: {', '.join(df.columns)})")
    rows = select(df, fixed)
    if rows.empty:
        raise ValueError(f"no rows with {fixed}")
    keys = ([color] if color else []) + _still_varying(rows, x, color, fixed)
    if ax is None:
        _, ax = plt.subplots(figsize=(7, 4.5))
    groups = rows.groupby(keys if len(keys) > 1 else keys[0], dropna=False, sort=True) if keys else [((), rows)]
    for key, part in groups:
        key = key if isinstance(key, tuple) else (key,)
        part = part.sort_values(x)
        label = ", ".join(f"{k}={v}" for k, v in zip(keys, key)) or y
        ax.plot(part[x].astype("float64"), part[y].astype("float64"), marker="o", label=label)
    if logx:
        ax.set_xscale("log")
    ax.set_xlabel(_label(df, x))
    ax.set_ylabel(_label(df, y))
    if title or fixed:
        ax.set_title(title or ", ".join(f"{k}={v}" for k, v in (fixed or {}).items()))
    if keys:
        ax.legend(fontsize="small")
    ax.grid(True, alpha=0.3)
    return ax


def plot_point(job: Job, point: int, channels: Iterable[str] = ("power.total",), margin_s: float = 1.0,
               ax: Optional[Axes] = None) -> Axes:
    """The point's samples from `margin_s` before its window to `margin_s` after, its window
    (window_start_ns..window_end_ns of its row) shaded; time in seconds from the window start."""
    plt = _optional.pyplot()
    table = job.results()
    row = table[table["index"] == int(point)]
    if row.empty:
        raise KeyError(f"job {job.id} has no point {point}")
    start, end = row["window_start_ns"].iloc[0], row["window_end_ns"].iloc[0]
    if start is None or end is None or str(start) == "<NA>":
        raise ValueError(f"point {point} of job {job.id} has no measurement window")
    margin = int(margin_s * 1e9)
    samples = job.samples(channels=list(channels), start_ns=int(start) - margin, end_ns=int(end) + margin)
    if ax is None:
        _, ax = plt.subplots(figsize=(7, 4))
    shift = (samples.attrs.get("t0_ns", int(start)) - int(start)) / 1e9
    for c in samples.columns:
        s = samples[c].dropna()
        ax.plot(s.index + shift, s.values, label=c, linewidth=1)
    ax.axvspan(0, (int(end) - int(start)) / 1e9, color="tab:orange", alpha=0.15, label="window")
    ax.set_xlabel("time from the window start [s]")
    unit = next(iter(samples.attrs.get("units", {}).values()), "")
    ax.set_ylabel(f"power [{unit}]" if unit else "value")
    ax.set_title(f"job {job.id}, point {point}")
    ax.legend(fontsize="small")
    return ax
