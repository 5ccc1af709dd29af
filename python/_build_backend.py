"""The package's build backend: setuptools' own (Debian's python3-setuptools, or any >= 61), run
on a copy of the package in a temporary directory, so that `pip install ./python` leaves nothing
in the checkout (setuptools writes build/ and jetperf.egg-info/ beside pyproject.toml). Editable
installs are setuptools' as they are: they point at the checkout, so they build in it."""
import contextlib
import os
import shutil
import tempfile

from setuptools import build_meta as _setuptools

_HERE = os.path.dirname(os.path.abspath(__file__))
# What a build reads: the metadata, the readme, the package, and this file (an sdist names it).
_SOURCES = ("pyproject.toml", "README.md", os.path.basename(__file__), "jetperf")

get_requires_for_build_wheel = _setuptools.get_requires_for_build_wheel
get_requires_for_build_sdist = _setuptools.get_requires_for_build_sdist
# Editable installs (setuptools >= 64) as setuptools makes them.
for _hook in ("get_requires_for_build_editable", "prepare_metadata_for_build_editable", "build_editable"):
    if hasattr(_setuptools, _hook):
        globals()[_hook] = getattr(_setuptools, _hook)


@contextlib.contextmanager
def _in_a_copy():
    previous = os.getcwd()
    with tempfile.TemporaryDirectory(prefix="jetperf-build.") as tmp:
        for name in _SOURCES:
            src, dst = os.path.join(_HERE, name), os.path.join(tmp, name)
            if os.path.isdir(src):
                shutil.copytree(src, dst, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
            else:
                shutil.copy2(src, dst)
        os.chdir(tmp)
        try:
            yield
        finally:
            os.chdir(previous)


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    metadata_directory = os.path.abspath(metadata_directory)
    with _in_a_copy():
        return _setuptools.prepare_metadata_for_build_wheel(metadata_directory, config_settings)


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    wheel_directory = os.path.abspath(wheel_directory)
    if metadata_directory:
        metadata_directory = os.path.abspath(metadata_directory)
    with _in_a_copy():
        return _setuptools.build_wheel(wheel_directory, config_settings, metadata_directory)


def build_sdist(sdist_directory, config_settings=None):
    sdist_directory = os.path.abspath(sdist_directory)
    with _in_a_copy():
        return _setuptools.build_sdist(sdist_directory, config_settings)
