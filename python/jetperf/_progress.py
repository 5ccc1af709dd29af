"""job.wait()'s progress display: a tqdm bar where tqdm is installed and someone watches (a
terminal, or a notebook), else plain text: one line rewritten in place on a terminal, a line per
change elsewhere (a log, a pipe), "job 12 (running): 3/8 points, ETA 41 s"."""
from __future__ import annotations

import sys
from typing import Optional, TextIO, Union

from ._optional import require

# job.wait(progress=...): True chooses, "bar" asks for tqdm, "lines" for plain text, False none.
Progress = Union[bool, str]
CHOICES = (True, False, "bar", "lines")


class _Line:
    def __init__(self, job_id: int, stream: TextIO) -> None:
        self.job_id, self.stream = job_id, stream
        self.last: Optional[str] = None
        self.tty = _isatty(stream)

    def update(self, done: int, total: int, eta_s: Optional[float], state: Optional[str]) -> None:
        eta = f", ETA {eta_s:.0f} s" if isinstance(eta_s, (int, float)) else ""
        text = f"job {self.job_id} ({state}): {done}/{total} points{eta}"
        if text == self.last:
            return
        self.last = text
        self.stream.write(("\r" + text.ljust(60)) if self.tty else text + "\n")
        self.stream.flush()

    def close(self) -> None:
        if self.tty and self.last:
            self.stream.write("\n")
            self.stream.flush()


class _Bar:
    def __init__(self, job_id: int, tqdm) -> None:
        self.bar = tqdm(total=0, desc=f"job {job_id}", unit="point")

    def update(self, done: int, total: int, eta_s: Optional[float], state: Optional[str]) -> None:
        if total and self.bar.total != total:
            self.bar.total = total
        self.bar.n = done
        self.bar.set_postfix_str(state or "", refresh=False)
        self.bar.refresh()

    def close(self) -> None:
        self.bar.close()


def _isatty(stream: TextIO) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def _watched(stream: TextIO) -> bool:
    """A person watches: a terminal, or a Jupyter kernel (whose stderr is no terminal)."""
    return _isatty(stream) or "ipykernel" in sys.modules


def _tqdm():
    try:
        from tqdm.auto import tqdm
    except ImportError:
        return None
    return tqdm


def progress_display(job_id: int, progress: Progress = True, stream: Optional[TextIO] = None):
    """None for progress=False; a tqdm bar for "bar" (MissingDependency without tqdm), and for
    True when tqdm imports and someone watches; plain lines otherwise."""
    if progress not in CHOICES:
        raise ValueError(f"progress must be True, False, 'bar' or 'lines', got {progress!r}")
    if progress is False:
        return None
    stream = stream or sys.stderr
    if progress == "bar":
        require("tqdm")
        return _Bar(job_id, _tqdm())
    tqdm = _tqdm() if progress is True and _watched(stream) else None
    return _Bar(job_id, tqdm) if tqdm else _Line(job_id, stream)
