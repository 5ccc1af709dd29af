#!/usr/bin/python3
"""Seed 000, the GEMM power-efficiency study: a sweep of clocks x sizes x dtypes, then FLOPS/W
against the clock, one line per size and one figure per dtype, "the rest fixed".

    python3 gemm_efficiency.py --device cuda --dtypes half,float --sizes 512,1024,2048 --gpu-freqs all
    python3 gemm_efficiency.py --device cpu --dtypes float,double --sizes 64,128 --cpu-freqs min,max
"""
import _common
import matplotlib.pyplot as plt

import jetperf


def main():
    p = _common.parser(__doc__)
    p.add_argument("--device", default="cpu")
    p.add_argument("--dtypes", default="float,double")
    p.add_argument("--sizes", default="64,128")
    p.add_argument("--cpu-freqs", default="min,max")
    p.add_argument("--gpu-freqs", default=None)
    p.add_argument("--max-time-s", type=float, default=1.0)
    args = p.parse_args()
    board = _common.board(args)
    spec = dict(device=args.device, dtypes=args.dtypes.split(","), sizes=[int(s) for s in args.sizes.split(",")],
                threads=1, warmup_s=0.05, min_time_s=0.2, max_time_s=args.max_time_s, target_rse=0.02)
    clock = "cpu_freq_khz"
    if args.gpu_freqs:
        spec["gpu_freqs"], clock = args.gpu_freqs.split(","), "gpu_freq_hz"
    else:
        spec["cpu_freqs"] = args.cpu_freqs.split(",")
    job = board.submit("gemm", tags=["example-gemm"], **spec)
    job.wait()
    df = job.results()
    print(df[["dtype", "m", clock, "gflops", "power_w", "gflops_per_w"]].to_string(index=False))
    for dtype in spec["dtypes"]:
        fig, axes = plt.subplots(1, 2, figsize=(11, 4.5))
        jetperf.plot(df, x=clock, y="gflops_per_w", color="m", fixed={"dtype": dtype}, ax=axes[0],
                     title=f"{dtype}: efficiency against the clock")
        jetperf.plot(df, x=clock, y="power_w", color="m", fixed={"dtype": dtype}, ax=axes[1],
                     title=f"{dtype}: power against the clock")
        _common.save(fig, args, f"gemm_efficiency_{dtype}.png")
    fig, ax = plt.subplots()
    job.plot_point(int(df["index"].iloc[-1]), ax=ax)
    _common.save(fig, args, "gemm_point.png")


if __name__ == "__main__":
    main()
