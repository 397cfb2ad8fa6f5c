"""The scikit-learn workflow: scorers, reports and threshold choice.

Scorers and refit rules, comparison reports from predictions, estimators and
cross-validation, threshold choice, and the test set's size.
"""

from ._across_datasets import compare_estimators_across_datasets
from ._counts_report import compare_counts
from ._crossval import (
    check_report_options,
    compare_cv_results,
    compare_estimators,
    compare_predictions,
)
from ._plan_labels import LabelPlan, plan_labels
from ._plan_more import (
    MoreItemsPlan,
    StoppingDecision,
    plan_more_items,
    should_stop,
    stopping_target,
)
from ._plan_size import TestSizePlan, plan_test_size
from ._report import ComparisonReport
from ._sklearn import (
    SCORE_METHODS,
    CountsScorer,
    PosteriorRefit,
    confusion_count,
    estimator_responses,
    make_posterior_scorer,
    posterior_score,
    posterior_statistic,
)
from ._threshold import ThresholdChoice, ThresholdUtility, choose_threshold, threshold_utility
from ._verdict import ReportVerdict

__all__ = [
    "ComparisonReport",
    "CountsScorer",
    "LabelPlan",
    "MoreItemsPlan",
    "PosteriorRefit",
    "ReportVerdict",
    "SCORE_METHODS",
    "TestSizePlan",
    "StoppingDecision",
    "ThresholdChoice",
    "ThresholdUtility",
    "check_report_options",
    "choose_threshold",
    "compare_counts",
    "compare_cv_results",
    "compare_estimators",
    "compare_estimators_across_datasets",
    "compare_predictions",
    "confusion_count",
    "estimator_responses",
    "make_posterior_scorer",
    "plan_labels",
    "plan_test_size",
    "plan_more_items",
    "posterior_score",
    "posterior_statistic",
    "should_stop",
    "stopping_target",
    "threshold_utility",
]
