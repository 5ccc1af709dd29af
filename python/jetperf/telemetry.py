"""Telemetry as tables: a job's stored samples and the live stream, one column per channel
(rail.VDD_GPU_SOC, power.total, clock.gpu, temp.CPU, ...), time as the index."""
import json
import time

from . import _optional


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


def read_job_samples(http, job_id, point=None, start_ns=None, end_ns=None, channels=None):
    """GET /v1/jobs/{id}/samples, every page (`next_after`), as wide_frame; `channels` (names)
    are asked for one by one (the route takes one `channel`), None means all of them."""
    t_ns, channel, value, units = [], [], [], {}
    for name in (channels or [None]):
        params = {"point": point, "from": start_ns, "to": end_ns, "channel": name}
        after = None
        while True:
            doc = http.get(f"/v1/jobs/{int(job_id)}/samples", after=after, **params)
            for c in doc.get("channels", []):
                units[c["name"]] = c.get("unit", "")
            for s in doc.get("samples", []):
                t_ns.append(s["t_ns"])
                channel.append(s["channel"])
                value.append(s["value"])
            after = doc.get("next_after")
            if not after:
                break
    return wide_frame(t_ns, channel, value, units)


def read_telemetry(http, seconds):
    """The live stream's `samples` events (every sample the sampler took) for `seconds`."""
    t_ns, channel, value, units = [], [], [], {}
    deadline = time.monotonic() + float(seconds)
    stream = http.events("/v1/telemetry/stream", params={"samples": "all"})
    try:
        for event, data in stream:
            doc = json.loads(data)
            if event == "sample":
                for c in doc.get("channels", []):
                    units[c["name"]] = c.get("unit", "")
            elif event == "samples":
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
