#!/usr/bin/python3
"""torch_layers.py --jetperf CUDNN_JSON

PyTorch eager latency of the blocks jetperf measured on cuDNN (`jetperf results ID --format json`
of a layers job at block granularity): each block on the input its predecessors produce from a
random image of the row's batch and input size, in the row's dtype, timed as many times as jetperf
timed it (latency_count, after 5 warm-ups) with CUDA events, median beside jetperf's median.
Prints one JSON object with one row per block."""
import argparse
import json
import statistics

try:
    import torch
except ImportError:
    print(json.dumps({"skipped": "PyTorch is not importable"}))
    raise SystemExit(0)

import zoo_blocks

DTYPES = {"float": torch.float32, "half": torch.float16}


def median_seconds(fn, x, runs):
    for _ in range(5):
        fn(x)
    times = []
    for _ in range(runs):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn(x)
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) / 1e3)
    return statistics.median(times)


def network_rows(network, rows):
    """The torch figures for one network's rows (one dtype, batch and input size)."""
    first = rows[0]
    dtype = DTYPES[first.get("dtype", "float")]
    blocks, source = zoo_blocks.blocks(network)
    x = torch.randn(first.get("batch", 1), 3, first.get("input_size", 224), first.get("input_size", 224),
                    device="cuda", dtype=dtype)
    by_index = {r["layer_index"]: r for r in rows}
    out = []
    with torch.no_grad():
        for i, (name, pre, module) in enumerate(blocks):
            module = module.to("cuda", dtype).eval()
            fn = (lambda t, p=pre, m=module: m(p(t))) if pre else module
            r = by_index.get(i, {})
            runs = int(r.get("latency_count") or 50)
            t = median_seconds(fn, x, runs)
            jp = r.get("latency_median_s") if r.get("status") == "ok" else None
            out.append({"network": network, "layer_index": i, "jetperf_layer": r.get("layer_name"), "torch_module": name,
                        "runs": runs, "jetperf_median_ms": jp * 1e3 if jp else None, "torch_median_ms": t * 1e3,
                        "torch_over_jetperf": t / jp if jp else None, "model_source": source})
            x = fn(x)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--jetperf", required=True)
    args = ap.parse_args()
    if not torch.cuda.is_available():
        print(json.dumps({"skipped": "torch.cuda.is_available() is False", "torch": torch.__version__}))
        return
    # cuDNN picks its algorithm per shape on the first call, as jetperf's warm-ups let it.
    torch.backends.cudnn.benchmark = True
    rows = [r for r in json.load(open(args.jetperf)).get("rows", []) if r.get("device") == "cuda"]
    out = []
    for network in sorted({r["network"] for r in rows if r.get("network") in ("resnet50", "mobilenet_v2")}):
        out += network_rows(network, [r for r in rows if r.get("network") == network and r.get("layer_index") is not None])
    print(json.dumps({"torch": torch.__version__, "gpu": torch.cuda.get_device_name(0), "rows": out}))


if __name__ == "__main__":
    main()
