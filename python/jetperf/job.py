"""A job on a board: follow it, cancel, rerun or resume it, and read what it measured."""
from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any, Dict, Iterable, List, Optional

from . import _optional
from ._answer import parse_json
from ._backoff import reconnect_delays
from ._progress import Progress, progress_display
from ._tables import frame_from_csv
from .errors import JobFailed
from .telemetry import read_job_samples

if TYPE_CHECKING:
    import pandas
    from matplotlib.axes import Axes

    from .board import Board

FINAL_STATES = ("succeeded", "partial", "failed", "cancelled", "interrupted")


class Job:
    """`board.submit(...)` or `board.job(id)`; `info()` is the job as the daemon has it now."""

    def __init__(self, board: Board, doc: Dict[str, Any]) -> None:
        self.board = board
        self.id = int(doc["id"])
        self.kind = doc.get("kind")
        self._doc = doc

    def __repr__(self) -> str:
        return f"<jetperf.Job {self.id} {self.kind} {self._doc.get('state')} on {self.board.name}>"

    @property
    def _path(self) -> str:
        return f"/v1/jobs/{self.id}"

    def info(self) -> Dict[str, Any]:
        """GET /v1/jobs/{id}: state, spec, tags, progress, provenance, summary."""
        self._doc = self.board.http.get(self._path)
        self.kind = self._doc.get("kind", self.kind)
        return self._doc

    @property
    def state(self) -> Optional[str]:
        return self.info().get("state")

    def wait(self, progress: Progress = True, timeout: Optional[float] = None, check: bool = True) -> str:
        """Follows the job's event stream (state, progress, point, end) until it ends and
        returns its final state (succeeded, partial, cancelled, interrupted). A job that ended
        `failed` raises JobFailed with the job's error text, unless check=False.
        `progress`: True shows a tqdm bar where tqdm is installed and stderr is a terminal (or in
        a notebook), else a plain line; "bar" or "lines" choose; False shows nothing.
        `timeout`: the longest one event line may take (Limits.stream_timeout when None)."""
        display = progress_display(self.id, progress)
        try:
            state = self._follow(display, timeout)
        finally:
            if display:
                display.close()
        if state == "failed" and check:
            raise self._failure()
        return state

    def _follow(self, display, timeout: Optional[float]) -> str:
        path = self._path + "/events"
        delays, delay = reconnect_delays(), 0.0
        while True:
            state = self.info().get("state")
            if state in FINAL_STATES:
                return state
            # The stream can end without `end` (a daemon restart, a proxy): look again and
            # reconnect, waiting longer each time, so a stream that keeps ending is no spin.
            time.sleep(delay)
            delay = next(delays)
            for event, data in self.board.http.events(path, timeout=timeout):
                if event not in ("state", "progress", "end"):
                    continue
                doc = parse_json(data, f"GET {path}, event {event}") if data.startswith("{") else {}
                if event == "state":
                    state = doc.get("state", state)
                if display and event == "progress":
                    display.update(doc.get("done", 0), doc.get("total", 0), doc.get("eta_s"), state)
                if event == "end":
                    break

    def _failure(self) -> JobFailed:
        """The job's error (the job view's `error`) and, for a command job, the first failed
        run's stderr tail: what the program said as it failed."""
        error = self._doc.get("error")
        tail = None
        if self.kind == "command":
            failed = [r for r in self.rows() if r.get("status") == "failed" and r.get("stderr_tail")]
            tail = failed[0]["stderr_tail"] if failed else None
        message = f"job {self.id} ({self.kind}) failed: {error or 'the daemon gave no reason'}"
        if tail:
            message += "\nthe first failed run's stderr ends:\n" + tail.rstrip()
        return JobFailed(message, self.id, error, tail)

    def cancel(self) -> Dict[str, Any]:
        """DELETE /v1/jobs/{id}; 409 (JetperfError) when the job has already ended."""
        return self.board.http.json("DELETE", self._path)

    def resume(self) -> Job:
        """POST /v1/jobs/{id}/resume: an interrupted job goes on from its last finished point."""
        self._doc = self.board.http.json("POST", self._path + "/resume", {})
        return self

    def rerun(self) -> Job:
        """The stored spec and tags submitted again, as a new Job (the CLI's `jetperf rerun`)."""
        old = self.info()
        body = {"kind": old.get("kind"), "spec": old.get("spec", {}), "tags": old.get("tags", [])}
        return Job(self.board, self.board.http.json("POST", "/v1/jobs", body))

    def results(self) -> pandas.DataFrame:
        """One row per point as a DataFrame: the daemon's CSV export (the CLI's `results ID
        --format csv`), typed by the kind's declared columns. attrs: units, parameters, metrics."""
        text = self.board.http.text("GET", self._path + "/results", params={"format": "csv"})
        df = frame_from_csv(text, self.board.columns(self.kind))
        df.attrs.update(kind=self.kind, job_id=self.id)
        return df

    def _results_json(self) -> Dict[str, Any]:
        return self.board.http.get(self._path + "/results", format="json")

    def rows(self) -> List[Dict[str, Any]]:
        """The rows as the JSON export has them (lists and objects as Python values)."""
        return self._results_json().get("rows", [])

    def summary(self) -> Dict[str, Any]:
        """The kind's summary of the finished rows (best settings, caveats, counts)."""
        return self._results_json().get("summary", {})

    def provenance(self) -> Dict[str, Any]:
        """Board, versions, power sensor, sampling, simulation: where the numbers come from."""
        return self.info().get("provenance", {})

    def samples(self, point: Optional[int] = None, channels: Optional[Iterable[str]] = None,
                start_ns: Optional[int] = None, end_ns: Optional[int] = None) -> pandas.DataFrame:
        """The job's stored telemetry, one column per channel, indexed by t_s (seconds from the
        first sample; attrs t0_ns is it on CLOCK_MONOTONIC): `point=N` is that point's window."""
        _optional.pandas()
        return read_job_samples(self.board.http, self.id, point, start_ns, end_ns, channels)

    def timeline(self) -> pandas.DataFrame:
        """The job's spans and instants (points, settings, idle, warm-up, windows, runs,
        phases, markers) from its trace: track, name, point, start_ns, end_ns, dur_s, args."""
        pd = _optional.pandas()
        doc = self.board.http.get(self._path + "/trace", counters="none")
        rows = []
        for e in doc.get("traceEvents", []):
            if e.get("ph") not in ("X", "i"):
                continue
            start = int(round(e["ts"] * 1000))
            dur = int(round(e.get("dur", 0) * 1000))
            args = e.get("args", {})
            rows.append((e.get("cat", ""), e.get("name", ""), args.get("point"), start, start + dur, dur / 1e9, args))
        df = pd.DataFrame(rows, columns=["track", "name", "point", "start_ns", "end_ns", "dur_s", "args"])
        df = df.astype({"track": "string", "name": "string", "point": "Int64",
                        "start_ns": "int64", "end_ns": "int64", "dur_s": "float64"})
        df = df.sort_values(["start_ns", "end_ns"], kind="stable").reset_index(drop=True)
        df.attrs["units"] = {"start_ns": "ns", "end_ns": "ns", "dur_s": "s"}
        return df

    def phases(self) -> pandas.DataFrame:
        """A command job's marked phases, one row per run and phase: count, time_s, power_w,
        energy_j, dynamic_energy_j (from each row's `phases`)."""
        pd = _optional.pandas()
        out = []
        for row in self.rows():
            for name, p in (row.get("phases") or {}).items():
                out.append({"index": row.get("index"), "repeat": row.get("repeat"), "phase": name,
                            **{k: p.get(k) for k in ("count", "time_s", "power_w", "energy_j", "dynamic_energy_j")}})
        cols = ["index", "repeat", "phase", "count", "time_s", "power_w", "energy_j", "dynamic_energy_j"]
        df = pd.DataFrame(out, columns=cols).astype(
            {"index": "Int64", "repeat": "Int64", "phase": "string", "count": "Int64", "time_s": "float64",
             "power_w": "float64", "energy_j": "float64", "dynamic_energy_j": "float64"})
        df.attrs["units"] = {"time_s": "s", "power_w": "W", "energy_j": "J", "dynamic_energy_j": "J"}
        return df

    def plot_point(self, point: int, channels: Iterable[str] = ("power.total",), margin_s: float = 1.0,
                   ax: Optional[Axes] = None) -> Axes:
        """A point's raw power around its measurement window, the window shaded."""
        from .plot import plot_point
        return plot_point(self, point, channels, margin_s, ax)
