"""skprobeval: honest classifier evaluation for scikit-learn.

Bayesian posteriors for confusion-table metrics, paired and independent
comparisons of systems, and exact chance baselines, all computed from
confusion counts.
"""

__version__ = "0.1.0"

__all__ = [
    "__version__",
]
