"""The plot of the exact random-ranking AP baseline against the prevalence."""

from __future__ import annotations

import numpy as np

from .._core import axes_or_new, fail
from .._metrics import random_average_precision

__all__ = ["plot_random_ap_baseline"]


def plot_random_ap_baseline(n_items=None, *, prevalences=(0.05, 0.1, 0.2, 0.4), mark=None,
                            ax=None):
    """Exact expected AP of a random ranking minus the prevalence approximation.

    For each prevalence p, the curve shows ``E[AP] - p`` across collection
    sizes N (``n_relevant = round(p N)``): the usual baseline p is always
    too low, by more than 0.01 below N of a few hundred.

    Parameters
    ----------
    n_items : array-like of int, default=None
        Collection sizes; by default 20 to 2000 on a log grid.
    prevalences : sequence of float, default=(0.05, 0.1, 0.2, 0.4)
        Shares of relevant items, one curve each.
    mark : int, default=None
        A collection size to mark with a vertical line (e.g. a test fold's).
    ax : matplotlib Axes, default=None
        Where to draw.  A single collection size draws one marker per
        prevalence.

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from skprobeval.plotting import plot_random_ap_baseline
    >>> ax = plot_random_ap_baseline()
    >>> len(ax.get_lines())
    4
    """
    if n_items is None:
        n_items = np.unique(np.geomspace(20, 2000, 60).astype(int))
    n_items = np.atleast_1d(np.asarray(n_items, dtype=np.int64))
    if n_items.ndim != 1 or n_items.size == 0 or np.any(n_items < 1):
        fail("n_items", "positive collection sizes", n_items)
    for prevalence in prevalences:
        if not 0 < prevalence < 1:
            fail("prevalences", "shares in the open interval (0, 1)", prevalences)
    ax = axes_or_new(ax)
    for prevalence in prevalences:
        sizes, gaps = [], []
        for n in n_items:
            relevant = int(round(prevalence * n))
            if 1 <= relevant <= n:
                result = random_average_precision(int(n), relevant)
                sizes.append(n)
                gaps.append(result.mean - relevant / n)
        ax.plot(sizes, gaps, label=f"p = {prevalence:g}",
                marker="o" if len(sizes) < 3 else None)
    if mark is not None:
        ax.axvline(mark, color="0.5", linestyle=":", label=f"N = {mark} (marked)")
    ax.set_xscale("log")
    ax.set_xlabel("number of items N")
    ax.set_ylabel("exact E[AP] - prevalence")
    ax.set_title("Random-ranking AP: exact minus approximate baseline")
    ax.legend()
    return ax
