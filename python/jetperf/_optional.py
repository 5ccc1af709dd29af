"""Optional imports: the package imports without pandas and matplotlib, and a function that
needs one says which Debian package or pip name provides it."""
from .errors import MissingDependency

_HINTS = {
    "pandas": "apt install python3-pandas (or pip install pandas)",
    "matplotlib": "apt install python3-matplotlib (or pip install matplotlib)",
    "tqdm": "apt install python3-tqdm (or pip install tqdm)",
}


def require(module):
    try:
        return __import__(module)
    except ImportError as e:
        raise MissingDependency(
            f"jetperf needs {module} for this: {_HINTS.get(module, 'pip install ' + module)}") from e


def pandas():
    return require("pandas")


def pyplot():
    require("matplotlib")
    import matplotlib.pyplot as plt
    return plt
