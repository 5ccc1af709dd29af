#!/usr/bin/python3
"""kernel_names.py TRACE_JSON: the distinct kernel names of a job's exported trace
(`jetperf trace ID`), with how many times each ran, as a JSON object."""
import collections
import json
import sys


def main():
    trace = json.load(open(sys.argv[1]))
    names = collections.Counter(e.get("name", "") for e in trace.get("traceEvents", []) if e.get("cat") == "kernels")
    print(json.dumps(dict(names.most_common())))


if __name__ == "__main__":
    main()
