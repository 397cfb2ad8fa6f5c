"""A Display of one credible interval per group, in scikit-learn's convention.

``GroupIntervalDisplay`` follows ``sklearn.metrics.ConfusionMatrixDisplay``:
build one with ``from_frame`` (a `PosteriorMetricFrame`) or
``from_predictions`` (which also plot), or from the values and call
``plot``; the matplotlib artists are kept in ``errorbar_``, ``points_``,
``overall_line_`` and ``overall_band_``, the axes and figure in ``ax_`` and
``figure_``.  matplotlib (the ``plot`` extra) is imported only when
something is drawn.
"""

from __future__ import annotations

import numpy as np

from .._compare import PosteriorMetricFrame
from .._core import N_DRAWS, check_confidence, fail, import_pyplot, renamed_keyword

__all__ = ["GroupIntervalDisplay"]


def _label(key):
    return ", ".join(str(part) for part in key) if isinstance(key, tuple) else str(key)


class GroupIntervalDisplay:
    """One credible interval per group, with the point values and the overall interval.

    A row per group: the posterior mean (a dot) with its equal-tailed
    credible interval, fairlearn's point value (a cross), and the interval
    of all items together as a shaded band.  Small groups show as wide
    intervals: how far apart the groups' intervals lie, against their
    widths, is the evidence of a disparity.

    Parameters
    ----------
    groups : list
        Group labels, top to bottom (tuples for intersections).
    mean, low, high : array-like of shape (n_groups,)
        Posterior means and credible bounds.
    point : array-like of shape (n_groups,), default=None
        Point values (drawn as crosses).
    overall : (float, float, float), default=None
        Mean, low and high of all items together (drawn as a band).
    metric : str, default=None
        The metric's name (the x label).
    confidence : float, default=0.95
        Mass of the intervals (for the legend).

    Attributes
    ----------
    errorbar_ : matplotlib ErrorbarContainer
    points_ : matplotlib Line2D or None
    overall_line_ : matplotlib Line2D or None
    overall_band_ : matplotlib Polygon or None
    ax_ : matplotlib Axes
    figure_ : matplotlib Figure

    See Also
    --------
    PosteriorMetricFrame : The per-group posteriors.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from skprobeval import GroupIntervalDisplay
    >>> y_true = [1, 1, 1, 0, 1, 1, 1, 0, 1, 1, 1, 0]
    >>> y_pred = [1, 1, 1, 0, 1, 0, 0, 1, 1, 0, 1, 0]
    >>> group = ["a"] * 5 + ["b"] * 5 + ["c"] * 2
    >>> display = GroupIntervalDisplay.from_predictions(
    ...     y_true, y_pred, sensitive_features=group, metric="recall")
    >>> display.ax_.get_xlabel(), len(display.ax_.get_yticks())
    ('recall', 3)
    """

    def __init__(self, *, groups, mean, low, high, point=None, overall=None, metric=None,
                 confidence=0.95):
        self.groups = list(groups)
        arrays = {}
        for name, value in (("mean", mean), ("low", low), ("high", high), ("point", point)):
            if value is None:
                arrays[name] = None
                continue
            array = np.asarray(value, dtype=float)
            if array.shape != (len(self.groups),):
                fail(name, f"an array of shape ({len(self.groups)},) (one value per group)",
                     value, shown=f"shape {array.shape}")
            arrays[name] = array
        self.mean, self.low, self.high, self.point = (
            arrays["mean"], arrays["low"], arrays["high"], arrays["point"])
        self.overall = None if overall is None else tuple(float(v) for v in overall)
        self.metric = metric
        self.confidence = check_confidence(confidence)

    @classmethod
    def from_frame(cls, frame, *, metric=None, ax=None, **kwargs):
        """Build the display from a `PosteriorMetricFrame`, and plot it.

        Parameters
        ----------
        frame : PosteriorMetricFrame
        metric : str, default=None
            The column to show; required when the frame holds several metrics.
        ax : matplotlib Axes, default=None
        **kwargs
            Passed to ``Axes.errorbar``.

        Returns
        -------
        GroupIntervalDisplay
        """
        if not isinstance(frame, PosteriorMetricFrame):
            fail("frame", "a PosteriorMetricFrame", frame, error=TypeError)
        table, overall = frame.by_group, frame.overall
        columns = frame.metrics
        if metric is None:
            if len(columns) > 1:
                fail("metric", f"one of the frame's metrics {columns!r} (it holds several)",
                     metric)
            metric = columns[0]
        if metric not in columns:
            fail("metric", f"one of the frame's metrics {columns!r}", metric)
        if isinstance(table.columns[0], tuple):
            table, overall = table[metric], overall[metric]
        display = cls(groups=list(table.index), mean=table["mean"], low=table["low"],
                      high=table["high"], point=table["point"],
                      overall=(overall["mean"], overall["low"], overall["high"]),
                      metric=metric, confidence=frame.confidence)
        return display.plot(ax=ax, **kwargs)

    @classmethod
    @renamed_keyword("n_samples", "n_draws")
    def from_predictions(cls, y_true, y_pred, *, sensitive_features, metric="recall",
                         pos_label=1, sample_weight=None, prior=0.5, confidence=0.95,
                         n_draws=N_DRAWS, random_state=None, ax=None, groups=None, **kwargs):
        """Build the display from labels and sensitive features, and plot it.

        Parameters
        ----------
        y_true, y_pred : array-like of shape (n_samples,)
            True and predicted binary labels.
        sensitive_features : array-like, pandas Series, DataFrame or dict of arrays
            As in `PosteriorMetricFrame`.
        metric : str, default="recall"
            A registered metric name.
        pos_label : int, float, bool or str, default=1
        sample_weight : array-like of shape (n_samples,), default=None
        prior : float or {"jeffreys", "uniform"}, default=0.5
        confidence : float, default=0.95
        n_draws : int, default=10_000
            Draws of a sampled metric's posteriors.
        random_state : None, int or numpy.random.Generator, default=None
        ax : matplotlib Axes, default=None
        groups : array-like of shape (n_samples,), default=None
            Cluster of each item (a patient, a document; not the sensitive
            feature), as in `PosteriorMetricFrame`: the intervals are then the
            clusters' Bayesian bootstrap.
        **kwargs
            Passed to ``Axes.errorbar``.

        Returns
        -------
        GroupIntervalDisplay
        """
        frame = PosteriorMetricFrame(
            metrics=metric, y_true=y_true, y_pred=y_pred, sensitive_features=sensitive_features,
            pos_label=pos_label, sample_weight=sample_weight, prior=prior,
            confidence=confidence, n_draws=n_draws, random_state=random_state, groups=groups)
        return cls.from_frame(frame, ax=ax, **kwargs)

    def plot(self, ax=None, *, show_point=True, show_overall=True, **kwargs):
        """Draw the intervals, the point values and the overall band.

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Axes to draw on (a new figure's by default).
        show_point : bool, default=True
            Draw the point values (when given).
        show_overall : bool, default=True
            Draw the overall mean and interval (when given).
        **kwargs
            Passed to ``Axes.errorbar``.

        Returns
        -------
        GroupIntervalDisplay
            Itself, with the artists, ``ax_`` and ``figure_`` set.
        """
        plt = import_pyplot()
        if ax is None:
            _, ax = plt.subplots()
        rows = np.arange(len(self.groups))[::-1]        # the first group at the top
        words = f"posterior mean, {self.confidence:.0%} credible interval"
        self.errorbar_ = ax.errorbar(
            self.mean, rows, xerr=np.vstack([self.mean - self.low, self.high - self.mean]),
            **{"fmt": "o", "capsize": 3, "label": words, **kwargs})
        self.points_, self.overall_line_, self.overall_band_ = None, None, None
        if show_point and self.point is not None:
            (self.points_,) = ax.plot(self.point, rows, "x", color="k", label="point value")
        if show_overall and self.overall is not None:
            mean, low, high = self.overall
            self.overall_line_ = ax.axvline(mean, color="grey", linestyle="--", linewidth=1,
                                            label="all items")
            self.overall_band_ = ax.axvspan(low, high, color="grey", alpha=0.15, linewidth=0)
        ax.set_yticks(rows, [_label(group) for group in self.groups])
        ax.set_ylim(-0.5, len(self.groups) - 0.5)
        if self.metric is not None:
            ax.set_xlabel(self.metric)
        ax.legend(loc="best")
        self.ax_, self.figure_ = ax, ax.figure
        return self
