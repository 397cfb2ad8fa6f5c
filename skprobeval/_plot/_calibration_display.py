"""Display of a posterior calibration curve, in scikit-learn's convention.

``PosteriorCalibrationDisplay`` follows ``sklearn.calibration.CalibrationDisplay``
(the same attributes ``prob_true``, ``prob_pred``, ``y_prob``,
``estimator_name``, ``line_``, ``ax_``, ``figure_``) and adds each bin's
credible interval (``band_``) and keeps the diagonal (``ref_line_``).
matplotlib (the ``plot`` extra) is imported only when something is drawn.
"""

from __future__ import annotations

import numpy as np

from .._core import draw_calibration, fail, finish_curve_axes, import_pyplot, to_host
from .._posteriors import CalibrationCurve, CurveBand, posterior_calibration_curve
from ._curve_display import _estimator_scores

__all__ = ["PosteriorCalibrationDisplay"]


class PosteriorCalibrationDisplay:
    """Calibration curve with each bin's credible interval and the diagonal.

    Build one with `from_estimator` or `from_predictions` (which also plot),
    or from a `CalibrationCurve` and its band and call `plot`.  Several
    models go on one axes by passing ``ax``; the diagonal is drawn once.

    Parameters
    ----------
    curve : CalibrationCurve
        From `posterior_calibration_curve`.
    band : CurveBand
        Its band (``curve.band(...)``).
    y_prob : ndarray of shape (n_samples,), default=None
        The predicted probabilities behind the curve.
    estimator_name : str, default=None
        Legend name.
    pos_label : int, float, bool or str, default=None
        The positive class, shown in the axis labels.

    Attributes
    ----------
    prob_true : ndarray of shape (B,)
        Share of positives in each non-empty bin (scikit-learn's).
    prob_pred : ndarray of shape (B,)
        Mean predicted probability in each non-empty bin.
    y_prob : ndarray of shape (n_samples,) or None
    estimator_name : str or None
    pos_label : int, float, bool, str or None
    curve : CalibrationCurve
    band : CurveBand
    line_ : matplotlib Line2D
        The calibration curve.
    band_ : matplotlib LineCollection
        One vertical bar per bin: its credible interval.
    ref_line_ : matplotlib Line2D or None
        The diagonal, when this display drew it.
    ax_ : matplotlib Axes
    figure_ : matplotlib Figure

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from sklearn.datasets import load_breast_cancer
    >>> from sklearn.naive_bayes import GaussianNB
    >>> from skprobeval import PosteriorCalibrationDisplay
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> model = GaussianNB().fit(X[::2], y[::2])
    >>> display = PosteriorCalibrationDisplay.from_estimator(
    ...     model, X[1::2], y[1::2], n_bins=5, kind="simultaneous")
    >>> display.estimator_name, display.band.kind, len(display.prob_true)
    ('GaussianNB', 'simultaneous', 5)
    >>> display.ax_.get_ylabel()
    'Fraction of positives (Positive class: 1)'
    """

    def __init__(self, curve, band, y_prob=None, *, estimator_name=None, pos_label=None):
        if not isinstance(curve, CalibrationCurve):
            fail("curve", "a CalibrationCurve (posterior_calibration_curve)", curve,
                 error=TypeError)
        if not isinstance(band, CurveBand) or band.curve_kind != "calibration":
            fail("band", "the CurveBand of a CalibrationCurve (curve.band())", band,
                 error=TypeError)
        self.curve = curve
        self.band = band
        self.prob_true = curve.prob_true
        self.prob_pred = curve.prob_pred
        self.y_prob = None if y_prob is None else np.asarray(to_host(y_prob, "y_prob"))
        self.estimator_name = estimator_name
        self.pos_label = pos_label

    def plot(self, *, ax=None, name=None, ref_line=True, band_kw=None, **kwargs):
        """Draw the curve, each bin's interval and (once per axes) the diagonal.

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Axes to draw on (a new figure's by default).
        name : str, default=None
            Legend name (default: `estimator_name`).
        ref_line : bool, default=True
            Draw the diagonal of perfect calibration, unless the axes has it.
        band_kw : dict, default=None
            Keyword arguments of the intervals' ``Axes.vlines``.
        **kwargs
            Passed to the curve's ``Axes.plot``.

        Returns
        -------
        display
            Itself, with ``line_``, ``band_``, ``ref_line_``, ``ax_`` and
            ``figure_`` set.
        """
        plt = import_pyplot()
        if ax is None:
            _, ax = plt.subplots()
        name = self.estimator_name if name is None else name
        self.ref_line_, self.line_, self.band_ = draw_calibration(
            ax, self.prob_pred, self.prob_true, self.band, name=name, ref_line=ref_line,
            band_kw=band_kw, **kwargs)
        suffix = "" if self.pos_label is None else f" (Positive class: {self.pos_label})"
        finish_curve_axes(ax, "calibration", suffix=suffix)
        self.ax_, self.figure_ = ax, ax.figure
        return self

    @classmethod
    def from_predictions(cls, y_true, y_prob, *, n_bins=10, strategy="uniform", pos_label=None,
                         prior=0.5, sample_weight=None, confidence=0.95, kind="pointwise",
                         name=None, ax=None, ref_line=True, groups=None, **kwargs):
        """Build the display from true labels and predicted probabilities, and plot it.

        Parameters
        ----------
        y_true : array-like of shape (n_samples,)
            Binary labels.
        y_prob : array-like of shape (n_samples,)
            Predicted probabilities of the positive class.
        n_bins : int, default=10
        strategy : {"uniform", "quantile"}, default="uniform"
        pos_label : int, float, bool or str, default=None
            The positive class (None: 1 for labels {0, 1} or {-1, 1}).
        prior : float, default=0.5
            λ of each cell (bin x class), as in `posterior_calibration_curve`.
        sample_weight : array-like of shape (n_samples,), default=None
            Counts.
        confidence : float, default=0.95
            Mass of the intervals.
        kind : {"pointwise", "simultaneous"}, default="pointwise"
            See `CalibrationCurve.band`.
        name : str, default=None
            Legend name.
        ax : matplotlib Axes, default=None
        ref_line : bool, default=True
            Draw the diagonal.
        groups : array-like of shape (n_samples,), default=None
            Cluster of each item (a patient, a document): the band is then
            drawn from the clusters' Bayesian bootstrap (see
            `posterior_calibration_curve`).
        **kwargs
            Passed to the curve's ``Axes.plot``.

        Returns
        -------
        display
        """
        y_prob = to_host(y_prob, "y_prob")      # read once for the curve and the display
        curve = posterior_calibration_curve(y_true, y_prob, pos_label=pos_label, n_bins=n_bins,
                                            strategy=strategy, prior=prior,
                                            sample_weight=sample_weight, groups=groups)
        band = curve.band(confidence, kind=kind)
        display = cls(curve, band, np.asarray(y_prob), estimator_name=name,
                      pos_label=1 if pos_label is None else pos_label)
        return display.plot(ax=ax, ref_line=ref_line, **kwargs)

    @classmethod
    def from_estimator(cls, estimator, X, y, *, n_bins=10, strategy="uniform", pos_label=None,
                       prior=0.5, sample_weight=None, confidence=0.95, kind="pointwise",
                       name=None, ax=None, ref_line=True, groups=None, **kwargs):
        """Build the display from a fitted binary classifier's ``predict_proba``, and plot it.

        Parameters
        ----------
        estimator : fitted classifier
            A binary classifier with ``predict_proba``.
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
            True labels.
        n_bins, strategy, pos_label, prior, sample_weight, confidence, kind
            As in `from_predictions`; ``pos_label=None`` means
            ``estimator.classes_[1]``.
        name : str, default=None
            Legend name (default: the estimator's class name).
        ax : matplotlib Axes, default=None
        ref_line : bool, default=True
        groups : array-like of shape (n_samples,), default=None
            Cluster of each item, as in `from_predictions`.
        **kwargs
            Passed to the curve's ``Axes.plot``.

        Returns
        -------
        display
        """
        y_prob, pos_label = _estimator_scores(estimator, X, "predict_proba", pos_label)
        if name is None:
            name = type(estimator).__name__
        return cls.from_predictions(y, y_prob, n_bins=n_bins, strategy=strategy,
                                    pos_label=pos_label, prior=prior,
                                    sample_weight=sample_weight, confidence=confidence,
                                    kind=kind, name=name, ax=ax, ref_line=ref_line,
                                    groups=groups, **kwargs)
