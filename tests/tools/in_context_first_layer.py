#!/usr/bin/env python3
"""The first layer's in_context power against its power run alone (issue "Numbers that say when
they are wrong", item 4), on a simulated board: one isolated `layers` job and N in_context jobs
of the same network, one after another, on a jetperfd of its own.

Prints one JSON line per in_context job (conv1's power and 95% interval in context, its power
alone, whether the isolated figure lies inside the interval, both normalised by the mean dynamic
power of the resolved layers, as tests/sim/layers_in_context_sim_test.cpp compares them, and the
last layer's difference), then a summary line.

Usage: tests/tools/in_context_first_layer.py [N=8] [--model resnet18] [--board sim:orin-agx]
                                             [--build build] [--granularity block]
"""
import argparse
import json
import os
import shutil
import socket
import statistics
import subprocess
import tempfile
import time
import urllib.request


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("n", nargs="?", type=int, default=8)
    ap.add_argument("--model", default="resnet18")
    ap.add_argument("--board", default="sim:orin-agx")
    ap.add_argument("--build", default="build")
    ap.add_argument("--granularity", default="block")
    a = ap.parse_args()

    state = tempfile.mkdtemp(prefix="jetperf-first-layer-")
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    daemon = subprocess.Popen(
        [os.path.join(a.build, "daemon", "jetperfd"), "--config", "/dev/null", "--board", a.board,
         "--listen", f"127.0.0.1:{port}", "--db", state + "/db", "--token-file", state + "/token",
         "--sim-dir", state + "/sim", "--ready-file", state + "/ready", "--log-level", "warn"],
        stdin=subprocess.DEVNULL, stdout=open(state + "/log", "w"), stderr=subprocess.STDOUT)
    try:
        for _ in range(200):
            if os.path.exists(state + "/ready") and os.path.getsize(state + "/ready") > 0:
                break
            time.sleep(0.1)
        token = open(state + "/token").read().strip()

        def call(method, path, body=None):
            req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", method=method,
                                         data=json.dumps(body).encode() if body is not None else None,
                                         headers={"Authorization": "Bearer " + token,
                                                  "Content-Type": "application/json"})
            return json.loads(urllib.request.urlopen(req).read())

        # The sim test's specs: one thread at the highest CPU clock.
        common = {"models": a.model, "devices": "cpu", "granularity": a.granularity, "threads": 1,
                  "cpu_freqs": ["max"], "warmup_runs": 3}
        isolated = dict(common, protocol="adaptive", latency_samples=10, min_time_s=0.5, max_time_s=3.0,
                        target_rse=0.005, end_to_end=False)
        in_context = dict(common, protocol="in_context", max_time_s=60.0, target_half_width=0.03)
        ids = [call("POST", "/v1/jobs", {"kind": "layers", "spec": isolated})["id"]]
        ids += [call("POST", "/v1/jobs", {"kind": "layers", "spec": in_context})["id"] for _ in range(a.n)]

        def finished(job_id):
            while True:
                state_now = call("GET", f"/v1/jobs/{job_id}")["state"]
                if state_now in ("succeeded", "partial", "failed", "cancelled"):
                    return state_now
                time.sleep(1)

        states = [finished(i) for i in ids]
        rows = [call("GET", f"/v1/jobs/{i}/results")["rows"] for i in ids]
        alone = rows[0]
        inside, inside_combined, deltas = 0, 0, []
        for job_id, state_now, ctx in zip(ids[1:], states[1:], rows[1:]):
            layers = len(alone)
            resolved = [i for i in range(1, layers + 1) if ctx[i]["layer_resolution"] == "resolved"]
            first = ctx[1]
            if first.get("power_w") is None or not resolved:
                print(json.dumps({"job": job_id, "state": state_now, "resolution": first["layer_resolution"]}))
                continue
            ctx_mean = statistics.mean(ctx[i]["dynamic_power_w"] for i in resolved)
            alone_mean = statistics.mean(alone[i - 1]["dynamic_power_w"] for i in resolved)
            within = abs(first["power_w"] - alone[0]["power_w"]) <= first["power_ci95_w"]
            # The test: the two estimates against their combined interval (each has its own).
            # The isolated row gives its power's relative standard error; its 95% half-width from it.
            alone_ci = 1.96 * (alone[0].get("power_rse") or 0.0) * alone[0]["power_w"]
            combined_ci = (first["power_ci95_w"] ** 2 + alone_ci ** 2) ** 0.5
            within_combined = abs(first["power_w"] - alone[0]["power_w"]) <= combined_ci
            inside += within
            inside_combined += within_combined
            estimator = ctx[0].get("estimator") or {}
            sensor = estimator.get("sensor") or {}
            deltas.append(first["power_w"] - alone[0]["power_w"])
            print(json.dumps({
                "job": job_id, "state": state_now, "layer": first["layer_name"],
                "resolution": first["layer_resolution"], "in_context_w": round(first["power_w"], 4),
                "ci95_w": round(first["power_ci95_w"], 4), "alone_w": round(alone[0]["power_w"], 4),
                "alone_inside_interval": within, "alone_ci95_w": round(alone_ci, 4),
                "inside_combined_interval": within_combined,
                "lateness_median_ms": None if sensor.get("lateness_median_s") is None
                else round(sensor["lateness_median_s"] * 1e3, 3),
                "phase_uncertainty_us": None if sensor.get("phase_uncertainty_s") is None
                else round(sensor["phase_uncertainty_s"] * 1e6, 1),
                "lateness_iqr_ms": None if sensor.get("lateness_iqr_s") is None
                else round(sensor["lateness_iqr_s"] * 1e3, 3),
                "poll_ms": None if sensor.get("poll_period_s") is None else round(sensor["poll_period_s"] * 1e3, 3),
                "runs": estimator.get("runs"), "blocks": estimator.get("blocks"),
                "placement_shift_us": None if estimator.get("placement_shift_s") is None
                else round(estimator["placement_shift_s"] * 1e6, 1),
                "window_offset_us": None if estimator.get("window_offset_s") is None
                else round(estimator["window_offset_s"] * 1e6, 1),
                "normalised_in_context": round(first["dynamic_power_w"] / ctx_mean, 4),
                "normalised_alone": round(alone[0]["dynamic_power_w"] / alone_mean, 4),
                # The last layer, before the next pause: a misplaced window edge moves it the other way.
                "last_layer": ctx[layers]["layer_name"], "last_resolution": ctx[layers]["layer_resolution"],
                "last_in_context_minus_alone_w": None if ctx[layers].get("power_w") is None
                else round(ctx[layers]["power_w"] - alone[layers - 1]["power_w"], 4),
                "last_ci95_w": ctx[layers].get("power_ci95_w")}), flush=True)
        print(json.dumps({"model": a.model, "board": a.board, "jobs": a.n, "alone_inside_interval": inside,
                          "inside_combined_interval": inside_combined,
                          "median_delta_w": round(statistics.median(deltas), 4) if deltas else None,
                          "min_delta_w": round(min(deltas), 4) if deltas else None,
                          "max_delta_w": round(max(deltas), 4) if deltas else None}))
    finally:
        daemon.terminate()
        daemon.wait()
        shutil.rmtree(state, ignore_errors=True)


if __name__ == "__main__":
    main()
