"""Displays in scikit-learn's convention, and the random-ranking AP plot.

One Display per file, shaped like ``sklearn.metrics``' (``from_estimator`` /
``from_predictions`` / ``plot``), and the plot of the random-ranking AP
baseline.
"""

from ._calibration_display import PosteriorCalibrationDisplay
from ._group_display import GroupIntervalDisplay
from ._precision_recall_display import PosteriorPrecisionRecallDisplay
from ._random_ap_plot import plot_random_ap_baseline
from ._roc_curve_display import PosteriorRocCurveDisplay

__all__ = [
    "GroupIntervalDisplay",
    "PosteriorCalibrationDisplay",
    "PosteriorPrecisionRecallDisplay",
    "PosteriorRocCurveDisplay",
    "plot_random_ap_baseline",
]
