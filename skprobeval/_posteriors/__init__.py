"""Posteriors of one system's metrics.

The Beta family and the exact F-beta, difference and affine posteriors, the
joint Dirichlet tables of multiclass and multilabel predictions, the public
posterior functions, curves with their bands, calibration and mean losses.
Derivations: the theory chapter, ``docs/theory/index.rst``.
"""

from ._bayes import (
    _metric_function,
    _micro_multiclass,
    _sample_cells,
    check_counts_metric,
    check_target_metric,
    exact_average_mean,
    exact_posterior,
    metric_posterior,
    posterior_from_codes,
)
from ._calibration import (
    CalibrationCurve,
    CalibrationErrorPosterior,
    calibration_error_posterior,
    posterior_calibration_curve,
)
from ._curves import (
    RANKING_PRIOR,
    CurveBand,
    PosteriorCurve,
    _ap_from_cumulative,
    _auc_from_shares,
    _Cells,
    _check_input,
    _draw_cumulative,
    _share_chunks,
    posterior_precision_recall_curve,
    posterior_roc_curve,
)
from ._joint import (
    _LOG_COARSE,
    JointTable,
    _break_sticks,
    _cells,
    average_values,
    label_concentration,
)
from ._losses import (
    LossComparison,
    MeanLossPosterior,
    brier_score_posterior,
    compare_losses,
    log_loss_posterior,
    mean_loss_posterior,
)
from ._posterior import (
    BetaPosterior,
    CredibleInterval,
    ExactMeanPosterior,
    PosteriorSummary,
    SampledPosterior,
)
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

__all__ = [
    "AffinePosterior",
    "BetaPosterior",
    "CalibrationCurve",
    "CalibrationErrorPosterior",
    "CredibleInterval",
    "CurveBand",
    "DifferencePosterior",
    "ExactMeanPosterior",
    "FBetaPosterior",
    "JointTable",
    "LossComparison",
    "MeanLossPosterior",
    "PosteriorCurve",
    "PosteriorSummary",
    "RANKING_PRIOR",
    "SampledPosterior",
    "_Cells",
    "_LOG_COARSE",
    "_ap_from_cumulative",
    "_auc_from_shares",
    "_break_sticks",
    "_cells",
    "_check_input",
    "_draw_cumulative",
    "_metric_function",
    "_micro_multiclass",
    "_sample_cells",
    "_share_chunks",
    "average_values",
    "brier_score_posterior",
    "calibration_error_posterior",
    "check_counts_metric",
    "check_target_metric",
    "compare_losses",
    "exact_average_mean",
    "exact_posterior",
    "fbeta_posterior",
    "informedness_posterior",
    "label_concentration",
    "log_loss_posterior",
    "markedness_posterior",
    "mean_loss_posterior",
    "metric_posterior",
    "posterior_calibration_curve",
    "posterior_from_codes",
    "posterior_precision_recall_curve",
    "posterior_report",
    "posterior_roc_curve",
    "precision_posterior",
    "recall_posterior",
]
