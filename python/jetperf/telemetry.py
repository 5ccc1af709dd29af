"""Telemetry as tables: a job's stored samples and the live stream, one column per channel
(rail.VDD_GPU_SOC, power.total, clock.gpu, temp.CPU, ...), time as the index."""
import time

from . import _optional
from ._answer import answer_shape, parse_json
from .errors import BadResponse, PagingStuck


def wide_frame(t_ns, channel, value, units, t0_ns=None):
    """Long samples -> one row per timestamp, one column per channel (in first-seen order),
    indexed by t_s, seconds from t0_ns (the first sample when None)."""
    pd = _optional.pandas()
    long = pd.DataFrame({"t_ns": pd.array(t_ns, dtype="int64"), "channel": channel,
                         "value": pd.array(value, dtype="float64")})
    if long.empty:
        df = pd.DataFrame(index=pd.Index([], name="t_s", dtype="float64"))
        df.attrs.update(units={}, t0_ns=t0_ns)
        return df
    order = list(dict.fromkeys(channel))
    wide = long.pivot_table(index="t_ns", columns="channel", values="value", aggfunc="last")[order]
    wide.columns.name = None
    t0 = int(wide.index[0]) if t0_ns is None else int(t0_ns)
    wide.index = pd.Index((wide.index.astype("int64") - t0) / 1e9, name="t_s")
    wide.attrs["units"] = {c: units[c] for c in order if units.get(c)}
    wide.attrs["t0_ns"] = t0
    return wide


def _cursor(text, what):
    """next_after, "T_NS:CHANNEL", as (t_ns, channel): the order the pages come in."""
    t, _, c = str(text).partition(":")
    try:
        return int(t), int(c)
    except ValueError:
        raise BadResponse(f"{what}: next_after is not a T_NS:CHANNEL cursor") from None


def read_job_samples(http, job_id, point=None, start_ns=None, end_ns=None, channels=None):
    """GET /v1/jobs/{id}/samples, every page (`next_after`), as wide_frame; `channels` (names)
    are asked for one by one (the route takes one `channel`), None means all of them. A
    next_after that does not advance raises PagingStuck rather than ask for the pages again."""
    t_ns, channel, value, units = [], [], [], {}
    path = f"/v1/jobs/{int(job_id)}/samples"
    what = f"GET {path}"
    for name in (channels or [None]):
        params = {"point": point, "from": start_ns, "to": end_ns, "channel": name}
        after = last = None
        while True:
            doc = http.get(path, after=after, **params)
            with answer_shape(what):
                for c in doc.get("channels", []):
                    units[c["name"]] = c.get("unit", "")
                for s in doc.get("samples", []):
                    t_ns.append(s["t_ns"])
                    channel.append(s["channel"])
                    value.append(s["value"])
                following = doc.get("next_after")
            if not following:
                break
            cursor = _cursor(following, what)
            if last is not None and cursor <= last:
                raise PagingStuck(http.hidden_text(
                    f"{what}: next_after '{following}' does not advance past the previous page's '{after}'"))
            after, last = following, cursor
    return wide_frame(t_ns, channel, value, units)


def read_telemetry(http, seconds):
    """The live stream's `samples` events (every sample the sampler took) for `seconds`."""
    t_ns, channel, value, units = [], [], [], {}
    deadline = time.monotonic() + float(seconds)
    what = "GET /v1/telemetry/stream"
    stream = http.events("/v1/telemetry/stream", params={"samples": "all"})
    try:
        for event, data in stream:
            if event not in ("sample", "samples"):
                continue
            doc = parse_json(data, f"{what}, event {event}")
            with answer_shape(f"{what}, event {event}"):
                if event == "sample":
                    for c in doc.get("channels", []):
                        units[c["name"]] = c.get("unit", "")
                else:
                    names, t0 = doc["channels"], doc["t0_ns"]
                    for dt_us, idx, v in doc["samples"]:
                        t_ns.append(t0 + int(round(dt_us * 1000)))
                        channel.append(names[idx])
                        value.append(v)
            if time.monotonic() >= deadline:
                break
    finally:
        stream.close()
    return wide_frame(t_ns, channel, value, units)
