#!/usr/bin/python3
"""torch_gemm.py --sizes 1024,4096 [--jetperf CUBLAS_JSON] [--runs 20]

torch.matmul TFLOP/s on this GPU at the sizes the bundle's gemm job ran, per dtype (half, bf16,
float without and with TF32, double), beside the job's cuBLAS figures when given (`jetperf results
ID --format json`). Prints one JSON object: {"torch", "gpu", "rows": [...]}; each row's
`torch_over_jetperf` is torch's TFLOP/s over jetperf's at the same dtype, size and tensor setting.
Median of --runs timed calls after 3 warm-ups, each timed with CUDA events."""
import argparse
import json
import statistics

try:
    import torch
except ImportError:
    print(json.dumps({"skipped": "PyTorch is not importable"}))
    raise SystemExit(0)

# (name, torch dtype, TF32 allowed, jetperf dtype, jetperf tensor): float with tensor cores on is
# cuBLAS's TF32 math mode in jetperf.
CASES = [
    ("half", torch.float16, False, "half", True),
    ("bf16", torch.bfloat16, False, None, None),
    ("float", torch.float32, False, "float", False),
    ("tf32", torch.float32, True, "float", True),
    ("double", torch.float64, False, "double", False),
]


def median_seconds(a, b, runs):
    for _ in range(3):
        torch.matmul(a, b)
    times = []
    for _ in range(runs):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        torch.matmul(a, b)
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) / 1e3)
    return statistics.median(times)


def jetperf_tflops(rows, dtype, tensor, size):
    for r in rows:
        if r.get("dtype") == dtype and r.get("tensor") == tensor and r.get("m") == size and r.get("status") == "ok":
            return r["gflops"] / 1e3
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", required=True)
    ap.add_argument("--jetperf")
    ap.add_argument("--runs", type=int, default=20)
    args = ap.parse_args()
    if not torch.cuda.is_available():
        print(json.dumps({"skipped": "torch.cuda.is_available() is False", "torch": torch.__version__}))
        return
    rows_in = json.load(open(args.jetperf)).get("rows", []) if args.jetperf else []
    out = []
    for name, dt, tf32, jp_dtype, jp_tensor in CASES:
        if dt == torch.bfloat16 and not torch.cuda.is_bf16_supported():
            out.append({"dtype": name, "skipped": "bf16 not supported on this GPU"})
            continue
        torch.backends.cuda.matmul.allow_tf32 = tf32
        for n in (int(s) for s in args.sizes.split(",")):
            a = torch.randn(n, n, device="cuda", dtype=dt)
            b = torch.randn(n, n, device="cuda", dtype=dt)
            tflops = 2.0 * n ** 3 / median_seconds(a, b, args.runs) / 1e12
            jp = jetperf_tflops(rows_in, jp_dtype, jp_tensor, n) if jp_dtype else None
            out.append({"dtype": name, "size": n, "torch_tflops": tflops,
                        "jetperf_tflops": jp, "jetperf_tensor": jp_tensor,
                        "torch_over_jetperf": tflops / jp if jp else None})
            del a, b
    torch.backends.cuda.matmul.allow_tf32 = False
    print(json.dumps({"torch": torch.__version__, "gpu": torch.cuda.get_device_name(0),
                      "runs": args.runs, "rows": out}))


if __name__ == "__main__":
    main()
