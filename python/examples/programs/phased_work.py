#!/usr/bin/python3
"""The researcher's program a command job runs (examples/command_phases.py): it loads, computes
and writes, marking each phase through the markers module jetperf ships
(/usr/lib/python3/dist-packages/jetperf_markers.py, beside this file, or on the PYTHONPATH that
command_phases.py gives the job: the checkout's deploy/markers).
Arguments: the seconds of the compute phase (default 0.6)."""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import jetperf_markers as jm  # noqa: E402


def busy(seconds):
    end, x = time.monotonic() + seconds, 0
    while time.monotonic() < end:
        x += sum(i * i for i in range(2000))
    return x


def main():
    compute_s = float(sys.argv[1]) if len(sys.argv) > 1 else 0.6
    with jm.phase("load"):
        time.sleep(compute_s / 2)          # waiting on I/O: near idle power
    with jm.phase("compute"):
        for step in range(3):
            jm.mark("step", i=step)
            busy(compute_s / 3)            # the CPU busy: the board draws more
    with jm.phase("write"):
        time.sleep(compute_s / 4)


if __name__ == "__main__":
    main()
