"""skprobeval: honest classifier evaluation for scikit-learn.

Bayesian posteriors for confusion-table metrics, paired and independent
comparisons of systems, and exact chance baselines, all computed from
confusion counts.
"""

from ._counts import ConfusionCounts, PairedCounts

__version__ = "0.1.0"

__all__ = [
    "ConfusionCounts",
    "PairedCounts",
    "__version__",
]
