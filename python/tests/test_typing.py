"""The public API is typed for type checkers (PEP 484 hints, PEP 561's py.typed): every public
function and method names its parameters' and its return's types, and the hints resolve."""
import inspect
import os
import typing

import pandas

import jetperf
from jetperf import board as board_module
from conftest import PYTHON_DIR

FUNCTIONS = [jetperf.connect, jetperf.results, jetperf.plot]
CLASSES = [jetperf.Board, jetperf.Job]


def public_callables():
    out = [(f.__name__, f) for f in FUNCTIONS]
    for cls in CLASSES:
        for name, member in vars(cls).items():
            if callable(member) and (not name.startswith("_") or name in ("__init__", "__enter__", "__exit__")):
                out.append((f"{cls.__name__}.{name}", member))
            elif isinstance(member, property):
                out.append((f"{cls.__name__}.{name}", member.fget))
    return out


def test_every_public_function_has_its_types():
    missing = []
    for name, f in public_callables():
        sig = inspect.signature(f)
        for p in sig.parameters.values():
            if p.name != "self" and p.annotation is inspect.Parameter.empty:
                missing.append(f"{name}({p.name})")
        if sig.return_annotation is inspect.Signature.empty:
            missing.append(f"{name} -> ?")
    assert missing == []


def hints(f):
    """f's hints, with the names its module imports for type checkers only given here."""
    from matplotlib.axes import Axes
    names = dict(f.__globals__, pandas=pandas, Axes=Axes, Literal=typing.Literal, Board=jetperf.Board,
                 Job=jetperf.Job, Tags=board_module.Tags)
    return typing.get_type_hints(f, globalns=names)


def test_the_hints_resolve():
    assert hints(jetperf.Board.submit)["return"] == typing.Union[jetperf.Job, typing.Dict[str, typing.Any]]
    assert hints(jetperf.Job.results)["return"] is pandas.DataFrame
    assert hints(jetperf.connect)["return"] is jetperf.Board
    assert hints(jetperf.Job.wait)["return"] is str
    for _, f in public_callables():
        hints(f)


def test_the_package_says_it_is_typed():
    assert os.path.isfile(os.path.join(PYTHON_DIR, "jetperf", "py.typed"))
