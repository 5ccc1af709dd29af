#!/usr/bin/python3
"""The researcher's own program as a command job: its phases marked through jetperf_markers,
energy per phase from each run's `phases`, and the run's power over time with the phases drawn.
The daemon must allow command jobs (command_jobs = true) from the program's directory
(command_dirs), docs/jobs.md.

    python3 command_phases.py                       # runs programs/phased_work.py beside it
    python3 command_phases.py --program /opt/lab/phased_work.py

The program imports jetperf_markers: the job gets PYTHONPATH=--markers-dir, by default the
markers module of the checkout (deploy/markers) or of the .deb (/usr/share/jetperf/markers).
"""
import os

import _common
import matplotlib.pyplot as plt


def main():
    p = _common.parser(__doc__)
    p.add_argument("--program", default=os.path.join(_common.HERE, "programs", "phased_work.py"),
                   help="the program, in one of the daemon's command_dirs (default: programs/phased_work.py here)")
    p.add_argument("--markers-dir", default=_common.markers_dir(),
                   help="the directory of jetperf_markers.py, the job's PYTHONPATH (default: %(default)s)")
    p.add_argument("--compute-s", default="0.6")
    p.add_argument("--repeats", type=int, default=2)
    args = p.parse_args()
    board = _common.board(args)
    env = {"PYTHONPATH": args.markers_dir} if args.markers_dir else {}
    job = board.submit("command", argv=[os.path.abspath(args.program), args.compute_s], env=env,
                       repeats=args.repeats, idle_s=0.5, cpu_freqs=["max"], tags=["example-command"])
    job.wait()  # JobFailed, with the program's stderr, if every run failed
    phases = job.phases()
    print(phases.to_string(index=False))
    per_phase = phases.groupby("phase", sort=False)[["time_s", "energy_j"]].mean()
    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    per_phase["energy_j"].plot.bar(ax=axes[0], color="tab:blue")
    axes[0].set_ylabel("energy per run [J]")
    axes[0].set_title(f"job {job.id}: energy per phase (mean of {args.repeats} runs)")
    row = job.results().iloc[0]
    samples = job.samples(channels=["power.total"], start_ns=int(row["window_start_ns"]),
                          end_ns=int(row["window_end_ns"]))
    t0 = samples.attrs["t0_ns"]
    axes[1].plot(samples.index, samples["power.total"], linewidth=1)
    spans = job.timeline()
    spans = spans[(spans["track"] == "phases") & (spans["start_ns"] >= int(row["window_start_ns"]))
                  & (spans["end_ns"] <= int(row["window_end_ns"]))]
    for i, (_, s) in enumerate(spans.iterrows()):
        axes[1].axvspan((s["start_ns"] - t0) / 1e9, (s["end_ns"] - t0) / 1e9, alpha=0.2, color=f"C{i + 1}",
                        label=s["name"])
    axes[1].set_xlabel("time in the first run [s]")
    axes[1].set_ylabel("power.total [W]")
    axes[1].legend(fontsize="small")
    _common.save(fig, args, "command_phases.png")


if __name__ == "__main__":
    main()
