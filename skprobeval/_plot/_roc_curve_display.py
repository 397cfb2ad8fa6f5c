"""`PosteriorRocCurveDisplay`: a ROC curve with its band."""

from __future__ import annotations

from ._curve_display import _PosteriorCurveDisplay

__all__ = ["PosteriorRocCurveDisplay"]


class PosteriorRocCurveDisplay(_PosteriorCurveDisplay):
    """ROC curve with a credible band and the chance level.

    Parameters
    ----------
    curve : PosteriorCurve
        A ROC curve (`posterior_roc_curve`).
    band : CurveBand
    summary : RankingPosterior, default=None
        ROC AUC posterior for the legend.
    name : str, default=None
    pos_label : default=None

    Attributes
    ----------
    line_ : matplotlib Line2D
    band_ : matplotlib PolyCollection
    chance_level_ : matplotlib Line2D or None
        The diagonal (with ``plot_chance_level=True``).
    ax_ : matplotlib Axes
    figure_ : matplotlib Figure

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from skprobeval import PosteriorRocCurveDisplay
    >>> display = PosteriorRocCurveDisplay.from_predictions(
    ...     [0, 0, 1, 1, 0, 1, 1, 0], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9, 0.6, 0.5],
    ...     kind="simultaneous", n_draws=200, random_state=0)
    >>> display.ax_.get_ylabel(), display.band.kind
    ('True positive rate', 'simultaneous')
    """

    _kind = "roc"
    _summary_name = "AUC"

    def _draw_chance_level(self, ax, options):
        (self.chance_level_,) = ax.plot([0, 1], [0, 1], **{
            "color": "k", "linestyle": "--", "linewidth": 1,
            "label": "chance level (AUC = 0.5)", **options})
