"""Plots (the ``plot`` extra: matplotlib, imported only when a function runs).

Every function takes ``ax=None`` (a new figure's axes by default), returns
the Axes it drew on, and never touches global rcParams.  The Displays
(`PosteriorPrecisionRecallDisplay` and the others) are in the package's
namespace.
"""

from ._core import (
    plot_mean_ranks,
    plot_pairwise,
    plot_posteriors,
    plot_rank_probabilities,
    plot_simplex,
)
from ._plot import plot_random_ap_baseline

__all__ = ["plot_mean_ranks", "plot_pairwise", "plot_posteriors", "plot_random_ap_baseline",
           "plot_rank_probabilities", "plot_simplex"]
