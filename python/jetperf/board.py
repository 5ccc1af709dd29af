"""A board's jetperfd: what it is, its clocks and power mode, jobs and live telemetry."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, Iterable, List, Optional, Union, overload

from . import _optional, _settings
from ._http import Http
from ._limits import Limits
from ._tables import KindColumns
from .job import Job
from .telemetry import read_telemetry

if TYPE_CHECKING:
    import pandas
    from typing import Literal

# A clock setting: Hz (GPU, EMC) or kHz (CPU) as an int, or "min"/"max".
Clock = Union[int, str]
Tags = Union[str, Iterable[str]]


def connect(host: Optional[str] = None, token: Optional[str] = None, timeout: Optional[float] = None,
            limits: Optional[Limits] = None) -> Board:
    """The daemon the CLI would talk to: `host` and `token`, else $JETPERF_HOST and
    $JETPERF_TOKEN, else ~/.config/jetperf/config, else 127.0.0.1:7070 (and on loopback the
    daemon's own /var/lib/jetperf/token). `limits` (jetperf.Limits) bounds every call's time
    and size; `timeout` alone sets its longest single wait (10 s). As a context manager
    (`with jetperf.connect() as board:`) the board is closed at the block's end."""
    endpoint, tok = _settings.resolve(host, token)
    return Board(Http(endpoint, tok, timeout, limits))


class Board:
    """One jetperfd. `name` labels its rows in tables of several boards."""

    def __init__(self, http: Http, name: Optional[str] = None) -> None:
        self.http = http
        self.name = name or http.endpoint.text()
        self._kinds: Optional[Dict[str, Any]] = None

    def __repr__(self) -> str:
        return f"<jetperf.Board {self.name}{' (closed)' if self.closed else ''}>"

    def __enter__(self) -> Board:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Ends the calls under way (a job.wait() on another thread fails with
        ConnectionFailed) and refuses new ones (JetperfError); jobs on the daemon go on."""
        self.http.close()

    @property
    def closed(self) -> bool:
        return self.http.closed

    def health(self) -> Dict[str, Any]:
        return self.http.get("/v1/health")

    def info(self) -> Dict[str, Any]:
        """GET /v1/board: family, module, L4T, power modes, frequency lists, rails."""
        return self.http.get("/v1/board")

    def clocks(self) -> Dict[str, Any]:
        """GET /v1/clocks: the current and available GPU, CPU and EMC clocks."""
        return self.http.get("/v1/clocks")

    def mode(self, mode: Union[int, str, None] = None, force: bool = False) -> Dict[str, Any]:
        """The power mode (GET /v1/power-mode); with `mode` (an id or a name) switch to it first."""
        if mode is not None:
            body: Dict[str, Any] = {"id": mode} if isinstance(mode, int) else {"name": str(mode)}
            if force:
                body["force"] = True
            self.http.json("PUT", "/v1/power-mode", body)
        return self.http.get("/v1/power-mode")

    def lock_clocks(self, gpu: Optional[Clock] = None, cpu: Optional[Clock] = None,
                    emc: Optional[Clock] = None) -> Dict[str, Any]:
        """PUT /v1/clocks: GPU and EMC in Hz, CPU in kHz, or "min"/"max"; returns the clocks."""
        body = {k: v for k, v in (("gpu", gpu), ("cpu", cpu), ("emc", emc)) if v is not None}
        if not body:
            raise ValueError("lock_clocks needs gpu, cpu or emc")
        return self.http.json("PUT", "/v1/clocks", body)

    def restore(self) -> Dict[str, Any]:
        """POST /v1/clocks/restore: the settings the board had when the daemon started."""
        return self.http.json("POST", "/v1/clocks/restore", {})

    def kinds(self) -> Dict[str, Any]:
        """GET /v1/kinds: each kind's spec fields and declared result columns (cached)."""
        if self._kinds is None:
            self._kinds = self.http.get("/v1/kinds")
        return self._kinds

    def columns(self, kind: Optional[str] = None) -> KindColumns:
        return KindColumns(self.kinds(), prefer=kind)

    @overload
    def submit(self, kind: str, *, tags: Optional[Tags] = ..., dry_run: Literal[False] = ..., **spec: Any) -> Job:
        ...

    @overload
    def submit(self, kind: str, *, tags: Optional[Tags] = ..., dry_run: Literal[True], **spec: Any) -> Dict[str, Any]:
        ...

    def submit(self, kind: str, *, tags: Optional[Tags] = None, dry_run: bool = False,
               **spec: Any) -> Union[Job, Dict[str, Any]]:
        """POST /v1/jobs with the spec fields as keyword arguments. The daemon validates them;
        a refusal raises SpecError whose `field` names the culprit ("spec.sizes")."""
        body: Dict[str, Any] = {"kind": kind, "spec": spec}
        if tags:
            body["tags"] = [tags] if isinstance(tags, str) else list(tags)
        if dry_run:
            body["dry_run"] = True
            return self.http.json("POST", "/v1/jobs", body)
        return Job(self, self.http.json("POST", "/v1/jobs", body))

    def job(self, job_id: int) -> Job:
        return Job(self, self.http.get(f"/v1/jobs/{int(job_id)}"))

    def jobs(self, state: Optional[str] = None, kind: Optional[str] = None, tag: Optional[str] = None,
             limit: Optional[int] = None) -> List[Job]:
        """GET /v1/jobs, newest first, as Jobs (their summaries; job.info() has the spec)."""
        doc = self.http.get("/v1/jobs", state=state, kind=kind, tag=tag, limit=limit)
        return [Job(self, j) for j in doc.get("jobs", [])]

    def results(self, tag: Tags, kind: Optional[str] = None) -> pandas.DataFrame:
        """Every job carrying all the tags (a name or a list) as one table, with job_id and tags
        columns: GET /v1/results?format=csv, the CLI's `results --tag T --format csv`."""
        from ._tables import frame_from_csv
        tags = [tag] if isinstance(tag, str) else list(tag)
        text = self.http.text("GET", "/v1/results", params={"tags": tags, "kind": kind, "format": "csv"})
        return frame_from_csv(text, self.columns(kind))

    def telemetry(self, seconds: float = 10.0) -> pandas.DataFrame:
        """Every sample of every channel for `seconds` from the live stream, one column per
        channel, indexed by t_s (seconds from the first sample); attrs: units, t0_ns."""
        _optional.pandas()
        return read_telemetry(self.http, seconds)
