#!/usr/bin/python3
"""pick_clocks.py BOARD_JSON N: N of the GPU clocks the board offers (`jetperf --json board`),
spread evenly from the lowest to the highest, as a comma list for `--gpu-freq`. NVML lists a
data-centre GPU's supported graphics clocks in 15 MHz steps: all of them would not fit the run."""
import json
import sys


def main():
    board = json.load(open(sys.argv[1]))
    n = int(sys.argv[2])
    clocks = sorted(set(board.get("gpu", {}).get("available_hz", [])))
    if len(clocks) <= n:
        picked = clocks
    else:
        picked = sorted({clocks[round(i * (len(clocks) - 1) / (n - 1))] for i in range(n)})
    print(",".join(str(c) for c in picked) if picked else "min,max")


if __name__ == "__main__":
    main()
