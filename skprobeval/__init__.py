"""skprobeval: honest classifier evaluation for scikit-learn.

Bayesian posteriors for confusion-table metrics, paired and independent
comparisons of systems, and exact chance baselines, all computed from
confusion counts.
"""

from ._baseline import (
    ChanceBaseline,
    RandomAveragePrecision,
    RandomRankingTest,
    chance_baseline,
    random_average_precision,
    random_average_precision_reference,
    random_ranking_test,
)
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
from ._ranking import (
    average_precision,
    d_measure,
    d_measure_weights,
    precision_at_k,
)

__version__ = "0.1.0"

__all__ = [
    "ChanceBaseline",
    "ConfusionCounts",
    "MetricSpec",
    "PairedCounts",
    "RandomAveragePrecision",
    "RandomRankingTest",
    "available_metrics",
    "average_precision",
    "chance_baseline",
    "d_measure",
    "d_measure_weights",
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
    "precision_at_k",
    "random_average_precision",
    "random_average_precision_reference",
    "random_ranking_test",
    "silence_score",
    "specificity_score",
    "__version__",
]
