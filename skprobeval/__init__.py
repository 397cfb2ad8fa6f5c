"""skprobeval: honest classifier evaluation for scikit-learn.

Bayesian posteriors for confusion-table metrics, paired and independent
comparisons of systems, and exact chance baselines, all computed from
confusion counts.
"""

from ._across import AcrossDatasetsReport, compare_across_datasets
from ._baseline import (
    ChanceBaseline,
    RandomAveragePrecision,
    RandomPrecisionBaseline,
    RandomRankingTest,
    chance_baseline,
    random_average_precision,
    random_precision_baseline,
    random_ranking_test,
)
from ._bayes import metric_posterior
from ._calibration import (
    CalibrationCurve,
    CalibrationErrorPosterior,
    calibration_error_posterior,
    posterior_calibration_curve,
)
from ._calibration_display import PosteriorCalibrationDisplay
from ._compare import MetricComparison, compare_independent, compare_paired_metric
from ._counts import ConfusionCounts, PairedCounts
from ._crossval import (
    compare_cv_results,
    compare_estimators,
    compare_estimators_across_datasets,
    compare_predictions,
)
from ._curves import (
    CurveBand,
    PosteriorCurve,
    posterior_precision_recall_curve,
    posterior_roc_curve,
)
from ._displays import PosteriorPrecisionRecallDisplay, PosteriorRocCurveDisplay
from ._group_display import GroupIntervalDisplay
from ._groups import (
    GroupDisparity,
    PosteriorMetricFrame,
    demographic_parity_disparity,
    equalized_odds_disparity,
)
from ._losses import (
    LossComparison,
    MeanLossPosterior,
    brier_score_posterior,
    compare_losses,
    log_loss_posterior,
    mean_loss_posterior,
)
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
    metric_score,
    noise_score,
    overlap_score,
    silence_score,
    specificity_score,
)
from ._paired import PairedComparison, compare_paired, pairwise_comparison
from ._plackett_luce import PlackettLuceRanking, rank_across_datasets
from ._posterior import BetaPosterior, CredibleInterval, PosteriorSummary, SampledPosterior
from ._posterior_affine import AffinePosterior
from ._posterior_api import (
    fbeta_posterior,
    informedness_posterior,
    markedness_posterior,
    posterior_report,
    precision_posterior,
    recall_posterior,
)
from ._posterior_difference import DifferencePosterior
from ._posterior_fbeta import FBetaPosterior
from ._rank_cv import CVResultsRanking, SimplestWithinRopeRefit, rank_cv_results
from ._rank_systems import SystemRanking, rank_systems
from ._rank_tests import DatasetsComparison, bayesian_sign_test, bayesian_signed_rank_test
from ._ranking import (
    average_precision,
    d_measure_score,
    d_measure_weights,
    precision_at_k_score,
)
from ._ranking_posteriors import (
    RankingPosterior,
    average_precision_posterior,
    compare_scores,
    roc_auc_posterior,
)
from ._report import ComparisonReport
from ._results import ComparisonResult
from ._sklearn import (
    CountsScorer,
    PosteriorRefit,
    confusion_count,
    make_posterior_scorer,
    posterior_score,
    posterior_statistic,
)
from ._threshold import ThresholdChoice, ThresholdUtility, choose_threshold, threshold_utility
from ._ttest import CorrelatedTTestResult, correlated_ttest
from ._version import __version__

__all__ = [
    "AcrossDatasetsReport",
    "AffinePosterior",
    "BetaPosterior",
    "CVResultsRanking",
    "CalibrationCurve",
    "CalibrationErrorPosterior",
    "ChanceBaseline",
    "ComparisonReport",
    "ComparisonResult",
    "ConfusionCounts",
    "CorrelatedTTestResult",
    "CountsScorer",
    "CredibleInterval",
    "CurveBand",
    "DatasetsComparison",
    "DifferencePosterior",
    "FBetaPosterior",
    "GroupDisparity",
    "GroupIntervalDisplay",
    "LossComparison",
    "MeanLossPosterior",
    "MetricComparison",
    "MetricSpec",
    "PairedComparison",
    "PairedCounts",
    "PlackettLuceRanking",
    "PosteriorCalibrationDisplay",
    "PosteriorCurve",
    "PosteriorMetricFrame",
    "PosteriorPrecisionRecallDisplay",
    "PosteriorRefit",
    "PosteriorRocCurveDisplay",
    "PosteriorSummary",
    "RandomAveragePrecision",
    "RandomPrecisionBaseline",
    "RandomRankingTest",
    "RankingPosterior",
    "SampledPosterior",
    "SimplestWithinRopeRefit",
    "SystemRanking",
    "ThresholdChoice",
    "ThresholdUtility",
    "available_metrics",
    "average_precision",
    "average_precision_posterior",
    "bayesian_sign_test",
    "bayesian_signed_rank_test",
    "brier_score_posterior",
    "calibration_error_posterior",
    "chance_baseline",
    "choose_threshold",
    "compare_across_datasets",
    "compare_cv_results",
    "compare_estimators",
    "compare_estimators_across_datasets",
    "compare_independent",
    "compare_losses",
    "compare_paired",
    "compare_paired_metric",
    "compare_predictions",
    "compare_scores",
    "confusion_count",
    "correlated_ttest",
    "d_measure_score",
    "d_measure_weights",
    "demographic_parity_disparity",
    "distance_weighted_precision_recall",
    "e_measure_score",
    "equalized_odds_disparity",
    "fallout_score",
    "fbeta_posterior",
    "generality_score",
    "get_metric",
    "informedness_posterior",
    "informedness_score",
    "k_measure_score",
    "log_loss_posterior",
    "make_posterior_scorer",
    "markedness_posterior",
    "markedness_score",
    "mean_loss_posterior",
    "metric_posterior",
    "metric_score",
    "noise_score",
    "overlap_score",
    "pairwise_comparison",
    "posterior_calibration_curve",
    "posterior_precision_recall_curve",
    "posterior_report",
    "posterior_roc_curve",
    "posterior_score",
    "posterior_statistic",
    "precision_at_k_score",
    "precision_posterior",
    "random_average_precision",
    "random_precision_baseline",
    "random_ranking_test",
    "rank_across_datasets",
    "rank_cv_results",
    "rank_systems",
    "recall_posterior",
    "roc_auc_posterior",
    "silence_score",
    "specificity_score",
    "threshold_utility",
    "__version__",
]


# Former names: importable until 0.3, with a FutureWarning (scikit-learn's rule).
_RENAMED = {
    "classification_report": "posterior_report",
    "signed_rank_test": "bayesian_signed_rank_test",
    "sign_test": "bayesian_sign_test",
    "precision_at_k": "precision_at_k_score",
    "d_measure": "d_measure_score",
}


def __getattr__(name):
    import warnings

    if name in _RENAMED:
        warnings.warn(f"`skprobeval.{name}` was renamed `{_RENAMED[name]}` in 0.2 and will be "
                      "removed in 0.3.", FutureWarning, stacklevel=2)
        return globals()[_RENAMED[name]]
    if name == "random_average_precision_reference":
        warnings.warn("`random_average_precision_reference` (Bestgen's O(R N) algorithm, a "
                      "test oracle) left the public API in 0.2: import it from "
                      "`skprobeval._baseline`; `random_average_precision` is the library's "
                      "exact closed form.", FutureWarning, stacklevel=2)
        from ._baseline import random_average_precision_reference

        return random_average_precision_reference
    raise AttributeError(f"module 'skprobeval' has no attribute {name!r}")
