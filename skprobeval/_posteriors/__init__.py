"""Posteriors of one system's metrics.

The Beta family and the exact F-beta, difference and affine posteriors, the
joint Dirichlet tables of multiclass and multilabel predictions, the public
posterior functions, curves with their bands, calibration and mean losses.
Derivations: the theory chapter, ``docs/theory/index.rst``.
"""

from ._bayes import (
    check_counts_metric,
    check_target_metric,
    exact_average_mean,
    exact_posterior,
    metric_function,
    metric_posterior,
    micro_multiclass,
    posterior_from_codes,
    sample_cells,
    sampled_average,
)
from ._calibration import (
    CalibrationCurve,
    CalibrationErrorPosterior,
    calibration_error_posterior,
    posterior_calibration_curve,
)
from ._cells import CurveCells
from ._curves import (
    RANKING_PRIOR,
    CurveBand,
    PosteriorCurve,
    ap_boundary_mass,
    ap_from_cumulative,
    auc_boundary_mass,
    auc_from_shares,
    check_curve_input,
    draw_cumulative,
    posterior_precision_recall_curve,
    posterior_roc_curve,
    ranking_own_shares,
    ranking_prior,
    share_chunks,
)
from ._joint import (
    LOG_COARSE,
    JointTable,
    add_f_score_prior,
    average_values,
    break_sticks,
    f_score_mass,
    label_cells,
    label_concentration,
    label_prior,
    sparse_prior,
    takes_f_score_prior,
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
    ClusteredPosterior,
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
    "ClusteredPosterior",
    "CredibleInterval",
    "CurveBand",
    "CurveCells",
    "DifferencePosterior",
    "ExactMeanPosterior",
    "FBetaPosterior",
    "JointTable",
    "LOG_COARSE",
    "LossComparison",
    "MeanLossPosterior",
    "PosteriorCurve",
    "PosteriorSummary",
    "RANKING_PRIOR",
    "SampledPosterior",
    "ap_boundary_mass",
    "auc_boundary_mass",
    "ap_from_cumulative",
    "ranking_own_shares",
    "ranking_prior",
    "auc_from_shares",
    "add_f_score_prior",
    "average_values",
    "break_sticks",
    "brier_score_posterior",
    "calibration_error_posterior",
    "check_counts_metric",
    "check_curve_input",
    "check_target_metric",
    "compare_losses",
    "draw_cumulative",
    "exact_average_mean",
    "exact_posterior",
    "f_score_mass",
    "fbeta_posterior",
    "informedness_posterior",
    "label_cells",
    "label_concentration",
    "label_prior",
    "log_loss_posterior",
    "markedness_posterior",
    "mean_loss_posterior",
    "metric_function",
    "metric_posterior",
    "micro_multiclass",
    "posterior_calibration_curve",
    "posterior_from_codes",
    "posterior_precision_recall_curve",
    "posterior_report",
    "posterior_roc_curve",
    "precision_posterior",
    "recall_posterior",
    "sample_cells",
    "sampled_average",
    "share_chunks",
    "sparse_prior",
    "takes_f_score_prior",
]
