#!/usr/bin/python3
"""Seed 001, the layer-wise dataset: every layer of a network measured alone (protocol adaptive),
and the same layers' share of end-to-end runs (protocol in_context); per-layer energy of both as
bars side by side. A layer in_context cannot resolve (too short for the sensor) has no bar.

    python3 layers_energy.py --model resnet18 --device cpu
"""
import _common
import matplotlib.pyplot as plt
import numpy as np


def main():
    p = _common.parser(__doc__)
    p.add_argument("--model", default="resnet18")
    p.add_argument("--device", default="cpu")
    p.add_argument("--latency-samples", type=int, default=10)
    p.add_argument("--max-time-s", type=float, default=3.0, help="isolated: longest window per layer")
    p.add_argument("--in-context-max-time-s", type=float, default=60.0)
    args = p.parse_args()
    board = _common.board(args)
    common = dict(models=args.model, devices=args.device, granularity="block", threads=1, cpu_freqs=["max"],
                  warmup_runs=2)
    isolated = board.submit("layers", protocol="adaptive", latency_samples=args.latency_samples,
                            min_time_s=0.2, max_time_s=args.max_time_s, target_rse=0.02, end_to_end=False,
                            tags=["example-layers"], **common)
    in_context = board.submit("layers", protocol="in_context", max_time_s=args.in_context_max_time_s,
                              target_half_width=0.05, tags=["example-layers"], **common)
    print("isolated:", isolated.wait(), "in_context:", in_context.wait())
    alone = isolated.results().set_index("layer_name")
    ctx = in_context.results()
    ctx = ctx[ctx["layer_name"] != args.model].set_index("layer_name")
    names = list(alone.index)
    x = np.arange(len(names))
    e_alone = alone["energy_j"].astype("float64").reindex(names).to_numpy() * 1e3
    e_ctx = ctx["energy_j"].astype("float64").reindex(names).to_numpy() * 1e3
    print(f"{'layer':<16} {'alone mJ':>10} {'in_context mJ':>14}")
    for n, a, c in zip(names, e_alone, e_ctx):
        print(f"{n:<16} {a:10.3f} {c:14.3f}")
    fig, ax = plt.subplots(figsize=(max(7, 0.45 * len(names)), 4.5))
    ax.bar(x - 0.2, e_alone, width=0.4, label="alone (adaptive)")
    ax.bar(x + 0.2, np.nan_to_num(e_ctx), width=0.4, label="in context (end-to-end runs)")
    ax.set_xticks(x)
    ax.set_xticklabels(names, rotation=60, ha="right", fontsize="small")
    ax.set_ylabel("energy per run [mJ]")
    ax.set_title(f"{args.model} on {args.device}: energy per layer")
    ax.legend()
    _common.save(fig, args, f"layers_energy_{args.model}.png")


if __name__ == "__main__":
    main()
