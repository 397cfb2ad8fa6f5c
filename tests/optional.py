"""The suite's optional packages: a test that needs one skips, saying which, when it is
missing, so that the suite passes with only pytest, pytest-xdist and hypothesis installed
beside the package.  The test extra (``pip install ".[test]"``) installs them all."""

import importlib.util

import pytest


def missing(*names):
    """The packages among `names` that are not installed (found without importing them)."""
    return [name for name in names if importlib.util.find_spec(name.split(".")[0]) is None]


def needs(*names):
    """Mark a test to skip when a package it needs is missing."""
    absent = missing(*names)
    return pytest.mark.skipif(bool(absent), reason=f"needs {', '.join(absent)} "
                                                   "(installed by the test extra)")
