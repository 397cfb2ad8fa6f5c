"""Displays, shaped like ``sklearn.metrics``' (``from_estimator`` /
``from_predictions`` / ``plot``), and the random-ranking AP baseline plot.
"""

from ._calibration_display import PosteriorCalibrationDisplay
from ._displays import PosteriorPrecisionRecallDisplay, PosteriorRocCurveDisplay
from ._group_display import GroupIntervalDisplay
from ._random_ap_plot import plot_random_ap_baseline

__all__ = [
    "GroupIntervalDisplay",
    "PosteriorCalibrationDisplay",
    "PosteriorPrecisionRecallDisplay",
    "PosteriorRocCurveDisplay",
    "plot_random_ap_baseline",
]
