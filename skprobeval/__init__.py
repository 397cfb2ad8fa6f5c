"""skprobeval: honest classifier evaluation for scikit-learn.

Bayesian posteriors for confusion-table metrics, paired and independent
comparisons of systems, and exact chance baselines, all computed from
confusion counts.
"""

from ._counts import ConfusionCounts, PairedCounts
from ._metrics import (
    MetricSpec,
    available_metrics,
    distance_weighted_precision_recall,
    e_measure_score,
    fallout_score,
    generality_score,
    get_metric,
    informedness_score,
    k_measure_score,
    markedness_score,
    noise_score,
    overlap_score,
    silence_score,
    specificity_score,
)

__version__ = "0.1.0"

__all__ = [
    "ConfusionCounts",
    "MetricSpec",
    "PairedCounts",
    "available_metrics",
    "distance_weighted_precision_recall",
    "e_measure_score",
    "fallout_score",
    "generality_score",
    "get_metric",
    "informedness_score",
    "k_measure_score",
    "markedness_score",
    "noise_score",
    "overlap_score",
    "silence_score",
    "specificity_score",
    "__version__",
]
