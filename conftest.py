"""Settings of every test worker, and doctests that skip.

Doctests (the package's and README.md's) whose examples import a package that is not
installed skip, naming it: the plotting examples need matplotlib, which only the ``plot``
and ``test`` extras install.  Every test process runs BLAS on one thread, and the tests of
one ``xdist_group`` run on one worker."""

import importlib.util
import re
import sys

# NumPy's and SciPy's BLAS libraries, loaded before the limit below: threadpoolctl limits
# only the libraries already loaded, and nothing had loaded them when this file is read.
import numpy  # noqa: F401
import pytest
import scipy.linalg  # noqa: F401
from threadpoolctl import threadpool_limits

# One BLAS thread in every test process: the suite runs one worker a core, and BLAS
# threads of their own would only contend for the cores (small logistic fits took 3-6
# times as long, and a digits report 2.5 s against 1.0 s, on two cores).
_ONE_BLAS_THREAD = threadpool_limits(limits=1, user_api="blas")

_IMPORT = re.compile(r"^\s*(?:import|from)\s+([A-Za-z_]\w*)")


@pytest.hookimpl(trylast=True)      # after pytest-xdist's own hook (_keep_groups)
def pytest_collection_modifyitems(config, items):
    _keep_groups(config, items)
    for item in items:
        test = getattr(item, "dtest", None)
        if test is None:
            continue
        imported = {match.group(1) for example in test.examples
                    if (match := _IMPORT.match(example.source))}
        absent = sorted(name for name in imported if importlib.util.find_spec(name) is None)
        if absent:
            item.add_marker(pytest.mark.skip(
                reason=f"the example needs {', '.join(absent)} (installed by the test extra)"))


def _keep_groups(config, items):
    # pytest-xdist's --dist loadgroup sends the tests of one xdist_group to one worker by the
    # "@group" suffix that each worker writes into their node ids (item._nodeid).  pytest 9.2
    # keeps a node id as a structured item._id instead, the write is lost, and every group
    # was spread over the workers, each computing the group's shared reference again.  Here
    # the same suffix is written where it is missing; with the releases that keep the write
    # (pytest before 9.2) every id already ends with it and nothing changes.
    if not getattr(config.option, "loadgroup", False):
        return
    for item in items:
        names = {str(mark.args[0] if mark.args else mark.kwargs.get("name", "default"))
                 for mark in item.iter_markers("xdist_group")}
        suffix = "@" + "_".join(sorted(names))
        if names and not item.nodeid.endswith(suffix) and hasattr(item, "_id"):
            item._id = type(item._id).parse(item.nodeid + suffix)


def pytest_runtest_teardown(item, nextitem):
    """Close the figures a test or an example drew (pyplot keeps every open figure)."""
    pyplot = sys.modules.get("matplotlib.pyplot")
    if pyplot is not None:
        pyplot.close("all")
