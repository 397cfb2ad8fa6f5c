"""The shared part of the posterior curve Displays, in scikit-learn's convention.

``PosteriorPrecisionRecallDisplay`` and ``PosteriorRocCurveDisplay`` follow
``sklearn.metrics.PrecisionRecallDisplay``: build one with ``from_estimator``
or ``from_predictions`` (which also plot), or from a `PosteriorCurve` and call
``plot``; the matplotlib artists are kept in ``line_``, ``band_`` and
``chance_level_``, the axes and figure in ``ax_`` and ``figure_``.  Several
models go on one axes by passing ``ax``.  matplotlib (the ``plot`` extra) is
imported only when something is drawn.
"""

from __future__ import annotations

import numpy as np
from sklearn.utils.validation import check_is_fitted

from .._compare import average_precision_posterior, roc_auc_posterior
from .._core import (
    N_DRAWS,
    draw_curve,
    fail,
    finish_curve_axes,
    import_pyplot,
    renamed_keyword,
    to_host,
)
from .._posteriors import posterior_precision_recall_curve, posterior_roc_curve
from .._workflow import SCORE_METHODS, estimator_responses

__all__ = []

_RESPONSE_METHODS = ("auto", "predict_proba", "decision_function")


def _estimator_scores(estimator, X, response_method, pos_label):
    """Scores of the positive class from a fitted binary classifier."""
    check_is_fitted(estimator)
    if response_method not in _RESPONSE_METHODS:
        fail("response_method", f"one of {list(_RESPONSE_METHODS)!r}", response_method)
    classes = list(getattr(estimator, "classes_", []))
    if len(classes) != 2:
        fail("estimator", "a fitted binary classifier (two classes_)", estimator,
             shown=f"classes_ {classes!r}")
    if pos_label is None:
        pos_label = classes[1]
    elif pos_label not in classes:
        fail("pos_label", f"one of the estimator's classes {classes!r}", pos_label)
    errors = []
    for method, values in estimator_responses(estimator, X, response_method, errors):
        scores = np.asarray(values)
        if method == "predict_proba":
            return scores[:, classes.index(pos_label)], pos_label
        return (scores if pos_label == classes[1] else -scores), pos_label
    if errors and isinstance(errors[-1], ValueError):
        raise errors[-1]          # the estimator's own message (e.g. wrong number of features)
    methods = SCORE_METHODS if response_method == "auto" else (response_method,)
    fail("estimator", f"a classifier with {' or '.join(methods)}", estimator)


class _PosteriorCurveDisplay:
    """Shared drawing of a curve, its band and its baseline."""

    _kind = None
    _summary_name = None

    def __init__(self, curve, band, *, summary=None, name=None, pos_label=None):
        if getattr(curve, "kind", None) != self._kind:
            fail("curve", f"a PosteriorCurve of kind {self._kind!r}", curve, error=TypeError)
        if getattr(band, "curve_kind", None) != self._kind:
            fail("band", f"a CurveBand of a {self._kind!r} curve (curve.band())", band,
                 error=TypeError)
        self.curve = curve
        self.band = band
        self.summary = summary
        self.name = name
        self.pos_label = pos_label

    @classmethod
    @renamed_keyword("n_samples", "n_draws")
    def from_predictions(cls, y_true, y_score, *, pos_label=None, sample_weight=None,
                         prior=None, confidence=0.95, kind="pointwise", n_draws=N_DRAWS,
                         drop_intermediate=None, random_state=None, name=None, ax=None,
                         plot_chance_level=False, groups=None, **kwargs):
        """Build the display from true labels and scores, and plot it.

        Parameters
        ----------
        y_true, y_score : array-like of shape (n_samples,)
            Binary labels (both classes present) and scores.
        pos_label : default=None
            The positive class (None: 1 for labels {0, 1} or {-1, 1}).
        sample_weight : array-like of shape (n_samples,), default=None
        prior : float, default=None
            Dirichlet concentration λ of the curve and of the summary (AP or
            AUC) in the legend.  None: each its own default, 0.5 for the
            curve's tables and 0.1 for the summary's boundary pseudo-cells
            (the defaults the coverage benchmark chose).
        confidence : float, default=0.95
            Mass of the band.
        kind : {"pointwise", "simultaneous"}, default="pointwise"
            Band kind (see `PosteriorCurve.band`).
        n_draws : int, default=10_000
            Draws for a simultaneous band and for the posterior of the
            summary (AP or AUC) shown in the legend.
        drop_intermediate : bool, default=None
            scikit-learn's default of the curve (False for precision-recall,
            True for ROC).
        random_state : None, int or numpy Generator
        name : str, default=None
            Legend name.
        ax : matplotlib Axes, default=None
        plot_chance_level : bool, default=False
            Also draw the chance level (as scikit-learn, off by default: with
            several models on one axes, draw it once).
        groups : array-like of shape (n_samples,), default=None
            Cluster of each item (a patient, a document): the band and the
            summary in the legend are then drawn from the clusters' Bayesian
            bootstrap (see `posterior_precision_recall_curve`).
        **kwargs
            Passed to the curve's ``Axes.plot``.

        Returns
        -------
        display
        """
        # Read once for the curve and the summary.
        y_true, y_score = to_host(y_true, "y_true"), to_host(y_score, "y_score")
        sample_weight = to_host(sample_weight, "sample_weight")
        groups = to_host(groups, "groups")
        build = (posterior_precision_recall_curve if cls._kind == "precision_recall"
                 else posterior_roc_curve)
        # prior=None: the curve and the summary each keep their own default.
        prior_option = {} if prior is None else {"prior": prior}
        options = {} if drop_intermediate is None else {"drop_intermediate": drop_intermediate}
        curve = build(y_true, y_score, pos_label=pos_label, sample_weight=sample_weight,
                      groups=groups, **prior_option, **options)
        band = curve.band(confidence, kind=kind, n_draws=n_draws, random_state=random_state)
        posterior = (average_precision_posterior if cls._kind == "precision_recall"
                     else roc_auc_posterior)
        summary = posterior(y_true, y_score, pos_label=pos_label, sample_weight=sample_weight,
                            n_draws=n_draws, random_state=random_state, groups=groups,
                            **prior_option)
        display = cls(curve, band, summary=summary, name=name, pos_label=pos_label)
        return display.plot(ax=ax, plot_chance_level=plot_chance_level, **kwargs)

    @classmethod
    @renamed_keyword("n_samples", "n_draws")
    def from_estimator(cls, estimator, X, y, *, response_method="auto", pos_label=None,
                       sample_weight=None, prior=None, confidence=0.95, kind="pointwise",
                       n_draws=N_DRAWS, drop_intermediate=None, random_state=None, name=None,
                       ax=None, plot_chance_level=False, groups=None, **kwargs):
        """Build the display from a fitted binary classifier, and plot it.

        Parameters
        ----------
        estimator : fitted classifier
            A binary classifier (two ``classes_``).
        X : array-like of shape (n_samples, n_features)
            Input of the estimator.
        y : array-like of shape (n_samples,)
            True labels.
        response_method : {"auto", "predict_proba", "decision_function"}, default="auto"
            Where the scores come from: ``"auto"`` tries ``predict_proba``
            (the positive class's column), then ``decision_function``, the
            order the cross-validation reports use too.
        pos_label : default=None
            The positive class (None: ``estimator.classes_[1]``).
        sample_weight : array-like of shape (n_samples,), default=None
        prior : float, default=None
            As in `from_predictions`.
        confidence : float, default=0.95
            Mass of the band.
        kind : {"pointwise", "simultaneous"}, default="pointwise"
            Band kind (see `PosteriorCurve.band`).
        n_draws : int, default=10_000
            Draws for a simultaneous band and for the summary in the legend.
        drop_intermediate : bool, default=None
            scikit-learn's default of the curve.
        random_state : None, int or numpy Generator
        name : str, default=None
            Legend name (default: the estimator's class name).
        ax : matplotlib Axes, default=None
        plot_chance_level : bool, default=False
            Also draw the chance level.
        groups : array-like of shape (n_samples,), default=None
            Cluster of each item, as in `from_predictions`.
        **kwargs
            Passed to the curve's ``Axes.plot``.

        Returns
        -------
        display
        """
        scores, pos_label = _estimator_scores(estimator, X, response_method, pos_label)
        if name is None:
            name = type(estimator).__name__
        return cls.from_predictions(y, scores, pos_label=pos_label, sample_weight=sample_weight,
                                    prior=prior, confidence=confidence, kind=kind,
                                    n_draws=n_draws, drop_intermediate=drop_intermediate,
                                    random_state=random_state, name=name, ax=ax,
                                    plot_chance_level=plot_chance_level, groups=groups,
                                    **kwargs)

    def plot(self, ax=None, *, name=None, plot_chance_level=False, band_kw=None,
             chance_level_kw=None, **kwargs):
        """Draw the curve, its band and (optionally) the chance level.

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Axes to draw on (a new figure's by default); pass the same axes to
            put several models on one figure.
        name : str, default=None
            Legend name (default: the display's `name`).
        plot_chance_level : bool, default=False
        band_kw, chance_level_kw : dict, default=None
            Keyword arguments of the band's ``fill_between`` and of the chance
            level's artists.
        **kwargs
            Passed to the curve's ``Axes.plot``.

        Returns
        -------
        display
            Itself, with ``ax_``, ``figure_``, ``line_``, ``band_``,
            ``chance_level_`` (a Line2D, or None) and, for precision-recall,
            ``baseline_band_`` (the random ranking's band, or None) set.
        """
        plt = import_pyplot()
        if ax is None:
            _, ax = plt.subplots()
        name = self.name if name is None else name
        # scikit-learn's orders: recall decreasing (precision-recall), fpr increasing (ROC).
        x, y = self.curve._observed()
        self.line_, self.band_ = draw_curve(ax, x, y, self.band, kind=self._kind,
                                            label=self._label(name), band_kw=band_kw, **kwargs)
        self.chance_level_, self.baseline_band_ = None, None
        if plot_chance_level:
            self._draw_chance_level(ax, dict(chance_level_kw or {}))
        suffix = "" if self.pos_label is None else f" (Positive label: {self.pos_label})"
        finish_curve_axes(ax, self._kind, suffix=suffix)
        self.ax_, self.figure_ = ax, ax.figure
        return self

    def _label(self, name):
        parts = [] if name is None else [name]
        if self.summary is not None:
            low, high = self.summary.interval(self.band.confidence)
            parts.append(f"{self._summary_name} = {self.summary.point:.3f} "
                         f"[{low:.3f}, {high:.3f}]")
        return ", ".join(parts) or None
