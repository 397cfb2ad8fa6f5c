"""`PosteriorPrecisionRecallDisplay`: a precision-recall curve with its band."""

from __future__ import annotations

from .._core import draw_precision_baseline
from .._metrics import random_precision_baseline
from ._curve_display import _PosteriorCurveDisplay

__all__ = ["PosteriorPrecisionRecallDisplay"]


class PosteriorPrecisionRecallDisplay(_PosteriorCurveDisplay):
    """Precision-recall curve with a credible band and the exact random baseline.

    The chance level is the band of a random ranking's precision at every
    cutoff (hypergeometric, exact at this number of items, see
    `random_precision_baseline`) around the prevalence line; the legend
    shows the average precision with its credible interval.

    Parameters
    ----------
    curve : PosteriorCurve
        A precision-recall curve (`posterior_precision_recall_curve`).
    band : CurveBand
        Its band (``curve.band(...)``).
    summary : RankingPosterior, default=None
        Average precision posterior for the legend.
    name : str, default=None
    pos_label : default=None

    Attributes
    ----------
    line_ : matplotlib Line2D
    band_ : matplotlib PolyCollection
    chance_level_ : matplotlib Line2D or None
        The prevalence line (with ``plot_chance_level=True``).
    baseline_band_ : matplotlib PolyCollection or None
        The random ranking's band of precisions (equal weights only).
    ax_ : matplotlib Axes
    figure_ : matplotlib Figure

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from sklearn.datasets import load_breast_cancer
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.pipeline import make_pipeline
    >>> from sklearn.preprocessing import StandardScaler
    >>> from skprobeval import PosteriorPrecisionRecallDisplay
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> model = make_pipeline(StandardScaler(), LogisticRegression()).fit(X[::2], y[::2])
    >>> display = PosteriorPrecisionRecallDisplay.from_estimator(
    ...     model, X[1::2], y[1::2], random_state=0)
    >>> display.ax_.get_xlabel(), display.band.kind
    ('Recall (Positive label: 1)', 'pointwise')
    """

    _kind = "precision_recall"
    _summary_name = "AP"

    def _draw_chance_level(self, ax, options):
        counts = self.curve.counts
        positives = float(counts.tp[0] + counts.fn[0])
        prevalence = positives / (positives + float(counts.fp[0] + counts.tn[0]))
        items = self.curve._items
        style = {"color": "k", "linestyle": "--", "linewidth": 1, **options}
        if items is None:
            # Unequal weights: no random ranking of a finite number of items.
            self.chance_level_ = ax.axhline(prevalence, **{"label": "prevalence", **style})
            return
        self.chance_level_ = ax.axhline(prevalence, **{"label": "random ranking", **style})
        baseline = random_precision_baseline(*items, confidence=self.band.confidence)
        self.baseline_band_ = draw_precision_baseline(ax, baseline, color=style["color"])
