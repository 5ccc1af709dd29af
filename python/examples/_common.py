"""What every example shares: the command line (--host, --token, --out) and saving figures."""
import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import jetperf  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def markers_dir():
    """Where jetperf_markers.py lies beside these examples: the checkout's deploy/markers, or
    the .deb's /usr/share/jetperf/markers (examples in /usr/share/jetperf/examples/python); None
    when neither holds it (the program then finds it beside itself or in dist-packages)."""
    for d in (os.path.join(HERE, "..", "..", "deploy", "markers"), os.path.join(HERE, "..", "..", "markers")):
        if os.path.isfile(os.path.join(d, "jetperf_markers.py")):
            return os.path.realpath(d)
    return None


def parser(description):
    p = argparse.ArgumentParser(description=description)
    p.add_argument("--host", help="host:port of jetperfd (default: as the jetperf CLI finds it)")
    p.add_argument("--token", help="the daemon's token (default: as the jetperf CLI finds it)")
    p.add_argument("--out", default=".", help="directory for the PNG figures (default: .)")
    return p


def board(args):
    os.makedirs(args.out, exist_ok=True)
    return jetperf.connect(args.host, args.token)


def save(fig, args, name):
    path = os.path.join(args.out, name)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    print("wrote", path)
    return path
