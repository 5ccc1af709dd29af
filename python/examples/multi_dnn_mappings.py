#!/usr/bin/python3
"""Seed 001, multi-DNN workloads: networks (and their split points) mapped to devices and run at
once; the table of mappings with each stage's layers, device, throughput and the board's power,
printed and drawn as a figure.

    python3 multi_dnn_mappings.py
"""
import json

import _common
import matplotlib.pyplot as plt

DEFAULT_MAPPINGS = [{"squeezenet1_0": {"18": "cpu"}}, {"resnet18": {"5": "cpu", "14": "cpu"}}]
COLUMNS = ["mapping_id", "network", "stage_index", "device", "layer_range", "throughput_ips", "power_w", "energy_j"]


def main():
    p = _common.parser(__doc__)
    p.add_argument("--mappings", default=json.dumps(DEFAULT_MAPPINGS), help="JSON list of mappings")
    p.add_argument("--max-time-s", type=float, default=2.0)
    args = p.parse_args()
    board = _common.board(args)
    job = board.submit("multi_dnn", mappings=json.loads(args.mappings), threads=1, min_time_s=0.5,
                       max_time_s=args.max_time_s, target_rse=0.05, cpu_freqs=["max"], warmup_runs=1,
                       tags=["example-multi-dnn"])
    job.wait()
    table = job.results()[COLUMNS]
    print(table.to_string(index=False))
    shown = table.copy()
    for c in ("throughput_ips", "power_w", "energy_j"):
        shown[c] = shown[c].map(lambda v: "" if v != v else f"{v:.3g}")
    fig, ax = plt.subplots(figsize=(11, 0.5 + 0.35 * (len(shown) + 1)))
    ax.axis("off")
    units = table.attrs["units"]
    header = [f"{c} [{units[c]}]" if c in units else c for c in COLUMNS]
    ax.table(cellText=shown.astype(str).values, colLabels=header, loc="center").auto_set_font_size(False)
    ax.set_title(f"multi_dnn job {job.id}: mappings")
    _common.save(fig, args, "multi_dnn_mappings.png")


if __name__ == "__main__":
    main()
