"""Posterior precision-recall and ROC curves with credible bands, and the curve model's draws.

`posterior_precision_recall_curve` and `posterior_roc_curve` give every
threshold the exact Beta posteriors of the curve model (a Dirichlet over the
cells class x distinct score, plus four boundary pseudo-cells of mass λ) and
pointwise or simultaneous bands (`PosteriorCurve`, `CurveBand`); the cells and
the whole-curve draws built here are also what the AP and AUC posteriors of
`skprobeval._compare._ranking_posteriors` and the threshold choice read.
Derivations: the theory page ``docs/theory/curves.rst``.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass

import numpy as np

from .._core import (
    N_DRAWS,
    ResultMixin,
    check_confidence,
    check_draws,
    check_prior,
    check_random_state,
    check_sample_weight,
    draw_chunks,
    fail,
    log_gamma,
    renamed_attribute,
    renamed_keyword,
)
from .._counting import ConfusionCounts
from .._metrics import check_real_array, check_same_length, positive_mask
from ._boundary_mass import (  # noqa: F401  (the curve model's masses, read here too)
    AP_FULL_MASS_POSITIVES,
    AUC_FEW_POSITIVES_PRIOR,
    AUC_FULL_MASS_POSITIVES,
    RANKING_PRIOR,
    ap_boundary_mass,
    auc_boundary_mass,
    ranking_prior,
)
from ._cells import CurveCells
from ._curve_clusters import ClusteredItems, clustered_cumulative, clustered_points, curve_clusters
from ._posterior import BetaPosterior

__all__ = [
    "CurveBand",
    "PosteriorCurve",
    "posterior_precision_recall_curve",
    "posterior_roc_curve",
]

_BAND_KINDS = ("pointwise", "simultaneous")
# Largest total weight: the weights are counts (the posterior narrows as they grow).
_MAX_TOTAL = 1e15


# ---------------------------------------------------------------------------
# Input and cells
# ---------------------------------------------------------------------------


def _relevant(y_true, pos_label):
    """Positive mask of ``y_true``: `pos_label` against the rest, both present.

    ``pos_label=None`` means 1 where the labels are {0, 1} or {-1, 1} (as in
    scikit-learn's curves); other labels need it.  With more than two classes
    (multiclass labels) the named class stands against all the others.
    """
    relevant = positive_mask(y_true, pos_label, multiclass=True)
    if relevant.all() or not relevant.any():
        fail("y_true", "labels of both classes (a curve needs positives and negatives)",
             y_true, shown="one class only")
    return relevant


def check_curve_input(y_true, y_score, pos_label, sample_weight, name_score="y_score"):
    relevant = _relevant(y_true, pos_label)
    score = check_real_array(y_score, name_score)
    check_same_length(relevant, score, "y_true", name_score)
    weight = check_sample_weight(sample_weight, relevant.shape[0])
    if weight is None:
        weight = np.ones(relevant.shape[0])
    elif weight.sum() > _MAX_TOTAL:
        fail("sample_weight", f"weights summing to at most {_MAX_TOTAL:g} (they are counts)",
             sample_weight, shown=f"a sum of {weight.sum():g}")
    elif not (np.any(weight[relevant] > 0) and np.any(weight[~relevant] > 0)):
        fail("sample_weight", "positive for some items of each class", sample_weight,
             shown="zero weight on every item of one class")
    return relevant, score, weight


def _class_shares(log_g, positive):
    """Shares of one chunk of draws from log Gamma variates ``(draws, cells)``.

    Each class is scaled by its own largest variate, so that neither class
    total can underflow whatever the prior and weights (a Gamma variate of
    shape 1e-3 is below 1e-300 about two times in three): returns ``g`` with
    each class's cells in its own scale (its largest cell 1; what recall, the
    ROC curve and AUC read) and the negative cells in the positive cells'
    scale, from the logs directly (what precision reads): ``inf`` or 0 where
    the classes are more than e^709 apart, and exact wherever a negative cell
    is representable next to the positives, even if it is not in its own
    class's scale.
    """
    negative = ~positive
    top_pos = log_g[:, positive].max(axis=1, keepdims=True)
    top_neg = log_g[:, negative].max(axis=1, keepdims=True)
    with np.errstate(over="ignore"):
        negatives_by_positives = np.exp(log_g[:, negative] - top_pos)
    log_g = log_g - np.where(positive, top_pos, top_neg)
    return np.exp(log_g, out=log_g), negatives_by_positives


# Smallest shape drawn directly (numpy's Gamma variates, one common scale): a
# variate of shape 0.05 is below 1e-300 with probability 1e-15, so no class
# total underflows.  Below it, tiny weights or priors, the variates are drawn
# in log space and each class scaled apart (`_class_shares`), twice as slow.
_DIRECT_SHAPE = 0.05


def share_chunks(shapes, positive, n_draws, rng):
    """Yield ``(g, negatives)`` for chunks of draws: ``g`` the shares of the
    cells, and ``negatives`` None when ``g`` is in one common scale, else the
    negative cells in the positives' scale (`_class_shares`)."""
    # (A level holding only one class has shape 0 in the other: a share of 0.)
    direct = bool(np.all((shapes == 0) | (shapes >= _DIRECT_SHAPE)))
    for size in draw_chunks(n_draws, shapes.shape[0]):
        if direct:
            yield rng.standard_gamma(shapes, size=(size,) + shapes.shape), None
        else:
            yield _class_shares(log_gamma(shapes, size, rng), positive)


def draw_cumulative(cells, lam, n_draws, rng):
    """Posterior draws of the cumulative positive and negative shares.

    Yields chunks ``(tp, fp, pos, neg, fp_by_tp)``: ``tp`` and ``fp`` of shape
    ``(draws, levels + 2)`` hold the shares at or above each threshold, from
    above every score (the pseudo-cells only) through every level down to
    below every score, each class in its own scale (`_class_shares`);
    ``pos`` and ``neg`` the class totals ``(draws, 1)`` (at least 1), and
    ``fp_by_tp`` the negatives' cumulative shares in the scale of ``tp`` (for
    precision, ``tp / (tp + fp_by_tp)``; ``inf`` where they dwarf the positives).
    """
    k = cells.levels.shape[0]
    # Columns: above, levels..., below; positives then negatives.
    shapes = np.concatenate([[lam], cells.positive, [lam], [lam], cells.negative, [lam]])
    positive = np.arange(shapes.shape[0]) < k + 2
    for gammas, negatives in share_chunks(shapes, positive, n_draws, rng):
        tp = np.cumsum(gammas[:, : k + 2], axis=1)
        fp = np.cumsum(gammas[:, k + 2:], axis=1)
        yield (tp, fp, tp[:, -1:], fp[:, -1:],
               fp if negatives is None else np.cumsum(negatives, axis=1))


def own_share(positive_shapes):
    """Share of each level's drawn positive weight that the posterior's average
    precision takes off the level's own precision: ``1 / (1 + s)`` for positives of
    Gamma shape ``s`` (their summed weight; an item of weight 2 is two items).

    A level's positives add ``G (TP_above + G) / ...`` to the average precision,
    counting their own weight ``G`` in their own precision.  The data count
    themselves ``s^2`` there; a Gamma(s) draw counts ``E[G^2] = s (1 + s)``, one
    ``s`` more, which for a few positives is most of the value (six untied
    positives: the draws' mean AP about 0.17 where the data's is 0.14).  Taking
    ``G^2 / (1 + s)`` off leaves the data's ``s^2`` in expectation; a level of one
    item is read at the middle of its own weight (1/2), a level of thousands of
    tied items as it is, so that a discrete population keeps the step-wise value.
    """
    return 1.0 / (1.0 + np.asarray(positive_shapes, dtype=float))


def ranking_own_shares(positive, lam):
    """`own_share` of every column `draw_cumulative` yields: the positive pseudo-cell
    above every score (shape ``lam``), the levels' positive shapes ``positive``
    (highest score first), the pseudo-cell below every score."""
    return own_share(np.r_[lam, positive, lam])


def ap_from_cumulative(tp, fp_by_tp, pos, own=None):
    """Average precision ``sum_k (R_k - R_{k-1}) P_k`` along the last axis, the
    negatives' cumulative shares ``fp_by_tp`` in the scale of ``tp``.

    With ``own`` (`own_share` of the levels' positive shapes, broadcast along the
    last axis), ``P_k = (TP_k - o_k g_k) / (TP_k + FP_k - o_k g_k)`` with ``g_k`` the
    level's positive weight: the posterior's reading, in which the draws count each
    level's own weight in its precision as much as the data do.  Without ``own``
    the value is scikit-learn's ``average_precision_score`` of the weighted items.
    """
    gained = np.diff(tp, prepend=0.0, axis=-1)
    if own is not None:
        tp = tp - own * gained
    total = tp + fp_by_tp
    with np.errstate(invalid="ignore", divide="ignore"):
        precision = np.where(total > 0, tp / np.where(total > 0, total, 1.0), 0.0)
    return np.clip(np.sum(gained * precision, axis=-1) / pos[..., 0], 0.0, 1.0)


def auc_from_shares(gp, gn, pos, neg):
    """ROC AUC (Mann-Whitney, ties count 1/2) from per-level shares, last axis
    ordered by decreasing score."""
    below = neg - np.cumsum(gn, axis=-1)             # negative share strictly below
    # Rounding of a near-perfect ranking can step past 1 (1 + 2e-16).
    return np.clip(np.sum((gp / pos) * ((below + 0.5 * gn) / neg), axis=-1), 0.0, 1.0)


# ---------------------------------------------------------------------------
# Curves
# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, eq=False)
class CurveBand(ResultMixin):
    """A credible band around a threshold curve.

    Attributes
    ----------
    x : ndarray
        Abscissae: the observed recall (precision-recall) or false positive
        rate (ROC) at each threshold for a pointwise band; the common grid for
        a simultaneous band; each bin's mean predicted probability
        (calibration, both kinds).
    low, high : ndarray
        Band limits of the ordinate (precision, true positive rate, or the
        bin's positive rate) at `x`.
    confidence : float
        Posterior probability of the band: at each point (pointwise) or for
        the whole curve at once (simultaneous).
    kind : {"pointwise", "simultaneous"}
    n_draws : int
        Curve draws behind a simultaneous band (0 for the exact pointwise one,
        and for a calibration curve's bands, both exact).
    thresholds : ndarray or None
        The thresholds of a pointwise band's points (None for a simultaneous
        band, whose points are the grid).
    curve_kind : {"precision_recall", "roc", "calibration"}
        The kind of curve the band belongs to.

    Methods
    -------
    summary()
        The band as a table, one row per point.
    plot(ax=None)
        The band alone (the curve's ``plot`` draws it around the curve).

    Examples
    --------
    >>> from skprobeval import posterior_roc_curve
    >>> curve = posterior_roc_curve([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9])
    >>> band = curve.band(0.9, kind="simultaneous", n_draws=500, random_state=0)
    >>> band
    CurveBand(kind='simultaneous', confidence=0.9, points=101, n_draws=500)
    >>> bool((band.low <= band.high).all())
    True
    """

    x: np.ndarray
    low: np.ndarray
    high: np.ndarray
    confidence: float
    kind: str
    n_draws: int
    thresholds: np.ndarray | None = None
    curve_kind: str | None = None

    n_samples = renamed_attribute("n_samples", "n_draws")

    def __repr__(self):
        return (f"CurveBand(kind={self.kind!r}, confidence={self.confidence:g}, "
                f"points={self.x.shape[0]}, n_draws={self.n_draws})")

    def summary(self):
        """The band, one row per point.

        Returns
        -------
        pandas.DataFrame
            Columns ``x``, ``low``, ``high`` and, for a pointwise band of a
            threshold curve, ``threshold``.

        Examples
        --------
        >>> from skprobeval import posterior_roc_curve
        >>> curve = posterior_roc_curve([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9])
        >>> list(curve.band(0.9).summary().columns)
        ['threshold', 'x', 'low', 'high']
        """
        import pandas as pd

        columns = {} if self.thresholds is None else {"threshold": self.thresholds}
        return pd.DataFrame({**columns, "x": self.x, "low": self.low, "high": self.high})

    def _dict_content(self):
        return {"type": "CurveBand", "curve_kind": self.curve_kind, "kind": self.kind,
                "confidence": self.confidence, "n_draws": self.n_draws,
                "summary": self.summary()}

    def _html_caption(self):
        return (f"CurveBand: {self.confidence:.0%} {self.kind} band of a "
                f"{self.curve_kind or 'threshold'} curve")

    def plot(self, ax=None):
        """Draw the band: shaded for a threshold curve, one bar per bin for a calibration curve.

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Where to draw; a new figure's axes by default.

        Returns
        -------
        matplotlib.axes.Axes

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> from skprobeval import posterior_roc_curve
        >>> curve = posterior_roc_curve([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9])
        >>> curve.band(0.9).plot().get_ylabel()
        'True positive rate'
        """
        from .._core import axes_or_new, draw_band, finish_curve_axes

        ax = axes_or_new(ax)
        draw_band(ax, self)
        return finish_curve_axes(ax, self.curve_kind)


class PosteriorCurve(ResultMixin):
    """Posterior of a precision-recall or ROC curve, one table per threshold.

    Built by `posterior_precision_recall_curve` and `posterior_roc_curve`;
    the thresholds and counts are scikit-learn's (``precision_recall_curve``,
    ``roc_curve``) without their artificial end points, except the ROC curve's
    first threshold (``inf``, nothing predicted positive), kept as
    scikit-learn keeps it.

    Attributes
    ----------
    kind : {"precision_recall", "roc"}
    thresholds : ndarray of shape (T,)
        Increasing for precision-recall, decreasing for ROC (scikit-learn's orders).
    counts : ConfusionCounts
        The confusion table at each threshold (items with ``score >= threshold``
        predicted positive).
    prior : float
        Dirichlet concentration λ.
    precision, recall : BetaPosterior
        ``Beta(TP + λ, FP + λ)`` and ``Beta(TP + λ, FN + λ)`` at each threshold.
    tpr, fpr : BetaPosterior
        ``Beta(TP + λ, FN + λ)`` and ``Beta(FP + λ, TN + λ)`` (a ValueError
        with ``groups``: read `band` or `summary`).
    n_clusters : int or None
        Clusters (``groups=``), else None.
    effective_n : None
        A curve has no one variance (its AP or AUC posterior has one).

    Methods
    -------
    band(confidence=0.95, *, kind="pointwise", ...)
        Credible band of the curve.
    summary(confidence=0.95, *, n_draws=10_000, random_state=None)
        One row per threshold: the observed point, the posterior mean and
        the pointwise interval.
    plot(ax=None, *, confidence=0.95, kind="pointwise", ...)
        The observed curve with its band.

    Examples
    --------
    >>> from skprobeval import posterior_precision_recall_curve
    >>> curve = posterior_precision_recall_curve([0, 1, 1, 0, 1], [0.2, 0.9, 0.6, 0.7, 0.3])
    >>> curve
    PosteriorCurve(kind='precision_recall', thresholds=5, prior=0.5)
    >>> curve.precision[-1]
    BetaPosterior(a=1.5, b=0.5)
    """

    __slots__ = ("_kind", "_thresholds", "_counts", "_prior", "_cells", "_items", "_clustered")

    def __init__(self, kind, thresholds, counts, prior, cells, items, clustered=None):
        self._kind = kind
        self._thresholds = thresholds
        self._counts = counts
        self._prior = prior
        self._cells = cells
        # (items, positive items) with nonzero weight, or None when the weights
        # differ (no finite-N random ranking then).
        self._items = items
        # `ClusteredItems` of items in clusters, else None.
        self._clustered = clustered

    kind = property(lambda self: self._kind, doc="'precision_recall' or 'roc'.")
    thresholds = property(lambda self: self._thresholds, doc="Thresholds of the curve.")
    counts = property(lambda self: self._counts, doc="Confusion table at each threshold.")
    prior = property(lambda self: self._prior, doc="Dirichlet concentration λ.")

    @property
    def n_clusters(self):
        """Clusters (``groups=``), else None."""
        return None if self._clustered is None else self._clustered.clusters.n_clusters

    @property
    def effective_n(self):
        """None: a curve has no one variance (its AP or AUC posterior has one)."""
        return None

    def _exact(self, name):
        if self._clustered is not None:
            raise ValueError(
                f"A curve of items in clusters (`groups=`) has no exact `{name}` posterior: "
                "read the sampled intervals of `band()` or `summary()`.")

    @property
    def precision(self):
        """Posterior of the precision at each threshold."""
        self._exact("precision")
        c, lam = self._counts, self._prior
        return BetaPosterior(c.tp + lam, c.fp + lam)

    @property
    def recall(self):
        """Posterior of the recall (true positive rate) at each threshold."""
        self._exact("recall")
        c, lam = self._counts, self._prior
        return BetaPosterior(c.tp + lam, c.fn + lam)

    tpr = recall

    @property
    def fpr(self):
        """Posterior of the false positive rate at each threshold."""
        self._exact("fpr")
        c, lam = self._counts, self._prior
        return BetaPosterior(c.fp + lam, c.tn + lam)

    def __len__(self):
        return self._thresholds.shape[0]

    def __repr__(self):
        clusters = "" if self._clustered is None else f", n_clusters={self.n_clusters}"
        return (f"PosteriorCurve(kind={self._kind!r}, thresholds={len(self)}, "
                f"prior={self._prior:g}{clusters})")

    @renamed_keyword("n_samples", "n_draws")
    def summary(self, confidence=0.95, *, n_draws=N_DRAWS, random_state=None):
        """One row per threshold: the observed point, the posterior mean and interval.

        Parameters
        ----------
        confidence : float, default=0.95
            Level of the pointwise interval (`band` at every threshold).
        n_draws, random_state
            Draws with ``groups`` (as `band`); unused without.

        Returns
        -------
        pandas.DataFrame
            Columns ``threshold``, the observed ``recall`` and ``precision``
            (``fpr`` and ``tpr`` for ROC), then the posterior ``mean``,
            ``low`` and ``high`` of the precision (the true positive rate).

        Examples
        --------
        >>> from skprobeval import posterior_precision_recall_curve
        >>> curve = posterior_precision_recall_curve([0, 1, 1, 0, 1], [0.2, 0.9, 0.6, 0.7, 0.3])
        >>> table = curve.summary()
        >>> list(table.columns)
        ['threshold', 'recall', 'precision', 'mean', 'low', 'high']
        >>> table[["threshold", "mean", "low", "high"]].iloc[-1].round(3).tolist()
        [0.9, 0.75, 0.147, 1.0]
        """
        import pandas as pd

        x, y = self._observed()
        names = ("recall", "precision") if self._kind == "precision_recall" else ("fpr", "tpr")
        if self._clustered is None:
            band = self.band(confidence, max_points=None)
            posterior = self.precision if self._kind == "precision_recall" else self.tpr
            mean = np.ravel(posterior.mean())
        else:
            rows = np.arange(len(self))
            low, high, mean = self._clustered_points(
                rows, check_confidence(confidence), check_draws(n_draws),
                check_random_state(random_state))
            band = CurveBand(x, low, high, confidence, "pointwise", n_draws,
                             self._thresholds, self._kind)
        return pd.DataFrame({"threshold": self._thresholds, names[0]: x, names[1]: y,
                             "mean": mean, "low": band.low, "high": band.high})

    def _dict_content(self):
        content = {"type": "PosteriorCurve", "kind": self._kind, "prior": self._prior,
                   "confidence": 0.95, "summary": self.summary()}
        if self._clustered is not None:
            content["n_clusters"] = self.n_clusters
        return content

    def _html_caption(self):
        return f"PosteriorCurve ({self._kind}): 95% pointwise intervals"

    @renamed_keyword("n_samples", "n_draws")
    def plot(self, ax=None, *, confidence=0.95, kind="pointwise", n_draws=N_DRAWS,
             random_state=None):
        """Draw the observed curve with its credible band.

        `PosteriorPrecisionRecallDisplay` and `PosteriorRocCurveDisplay` draw
        the same, with the AP or AUC in the legend and the chance level.

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Where to draw; a new figure's axes by default.
        confidence : float, default=0.95
            Mass of the band.
        kind : {"pointwise", "simultaneous"}, default="pointwise"
            Band kind (see `band`).
        n_draws : int, default=10_000
            Curve draws of a simultaneous band.
        random_state : None, int or numpy Generator
            Seed of those draws.

        Returns
        -------
        matplotlib.axes.Axes

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> from skprobeval import posterior_roc_curve
        >>> curve = posterior_roc_curve([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9])
        >>> curve.plot(confidence=0.9).get_xlabel()
        'False positive rate'
        """
        from .._core import axes_or_new, draw_curve, finish_curve_axes

        band = self.band(confidence, kind=kind, n_draws=n_draws, random_state=random_state)
        ax = axes_or_new(ax)
        x, y = self._observed()
        draw_curve(ax, x, y, band, kind=self._kind, label="observed")
        return finish_curve_axes(ax, self._kind)

    def _observed(self, rows=slice(None)):
        """Observed (x, y) at each threshold (of `rows`): (recall, precision) or (fpr, tpr)."""
        c = self._counts
        tp, fp, fn, tn = (np.asarray(v, dtype=np.float64)[rows] for v in (c.tp, c.fp, c.fn, c.tn))
        with np.errstate(invalid="ignore", divide="ignore"):
            if self._kind == "precision_recall":
                predicted = tp + fp
                precision = np.where(predicted > 0, tp / np.where(predicted > 0, predicted, 1), 0)
                return tp / (tp + fn), precision
            return fp / (fp + tn), tp / (tp + fn)

    @renamed_keyword("n_samples", "n_draws")
    def band(self, confidence=0.95, *, kind="pointwise", n_draws=N_DRAWS, grid=None,
             max_points=2_000, max_cells=20_000, random_state=None):
        """Credible band of the curve.

        Parameters
        ----------
        confidence : float, default=0.95
            Posterior mass of the band, in (0, 1).
        kind : {"pointwise", "simultaneous"}, default="pointwise"
            "pointwise": the exact equal-tailed interval of the precision
            (precision-recall) or the true positive rate (ROC) at each
            threshold.  "simultaneous": from ``n_draws`` draws of the whole
            curve, the narrowest envelope of pointwise order statistics that
            holds ``confidence`` of the drawn curves entirely, on `grid`.
            With ``groups``, pointwise: the quantiles of ``n_draws`` draws.
            Either band reaches 1 (0) where the observed curve is there: a
            precision of 1 (no negative ranked above), a true positive rate of
            1 or 0.  The posterior of such a point piles up at that end and an
            equal-tailed interval would stop short of it; the band keeps
            ``(1 - confidence) / 2`` in the other tail (pointwise) or counts
            only the other side (simultaneous).
        n_draws : int, default=10_000
            Curve draws for a simultaneous band (and for a pointwise band with
            ``groups``).  The band holds `confidence` of
            these draws; a fresh posterior curve lies inside it a little less
            often, because the envelope is fitted to the same draws: for a 95%
            band about 0.92 from 1000 draws, 0.94 from 4000 (measured on
            binormal data, n = 300).  The frequentist coverage of the true curve
            in a binormal simulation was 0.97-0.98 at 1000 draws.
        grid : array-like, default=None
            Abscissae of a simultaneous band (recall, or false positive rate),
            in [0, 1]; default recall 0.01, 0.02, ..., 0.99 (precision at recall 0
            is undefined, and at recall 1 it is the prevalence: a drawn curve
            reaches recall 1 only below every score) or false positive rate 0,
            0.01, ..., 1.  A drawn curve is
            read at each: the precision at the first threshold whose recall
            reaches it (precision-recall), the true positive rate interpolated
            linearly in the false positive rate (ROC).
        max_points : int or None, default=2000
            Most points of a pointwise band: a curve with more thresholds gets
            its band at that many thresholds evenly spaced along the curve
            (first and last included; each interval exact); None: at every
            threshold.  A band is drawn, not read digit by digit, and 2000
            points are several per pixel of any figure, while each point costs
            two Beta quantiles: at 10^5 scores, 20000 points took 4 (precision-
            recall) to 6 (ROC) times as long as scikit-learn's curve, 2000
            points 0.3 to 0.6 times.  The intervals at every threshold are
            ``curve.precision.interval()`` (``curve.tpr.interval()``), reaching
            the end of [0, 1] where the observed value is there.
        max_cells : int, default=20000
            Most distinct score levels in the draws of a simultaneous band:
            beyond that, runs of consecutive levels of about equal weight are
            summed (one Gamma variate per run), which leaves the joint
            distribution of the curve at the runs' ends exactly as it was and
            only reads the curve at those ends (a recall resolution of about
            ``1 / max_cells``).  At 10^6 scores 1000 draws then take 1.4 s
            instead of 34 s.
        random_state : None, int or numpy Generator
            Seed of the draws.

        Returns
        -------
        CurveBand
        """
        confidence = check_confidence(confidence)
        if kind not in _BAND_KINDS:
            fail("kind", f"one of {list(_BAND_KINDS)!r}", kind)
        if kind == "pointwise":
            if max_points is not None and (
                    not isinstance(max_points, numbers.Integral) or isinstance(max_points, bool)
                    or max_points < 2):
                fail("max_points", "an integer >= 2 or None", max_points,
                     error=ValueError if isinstance(max_points, numbers.Real) else TypeError)
            n = len(self)
            rows = (np.arange(n) if max_points is None or n <= max_points
                    else np.unique(np.linspace(0, n - 1, int(max_points)).round().astype(int)))
            x = self._observed(rows)[0]
            if self._clustered is not None:
                n_draws = check_draws(n_draws)
                low, high, _ = self._clustered_points(rows, confidence, n_draws,
                                                      check_random_state(random_state))
                return CurveBand(x, low, high, confidence, kind, n_draws,
                                 self._thresholds[rows], self._kind)
            # The precision (true positive rate) posterior at the rows only.
            hits, misses = self._hits_misses(rows)
            low, high = BetaPosterior(hits + self._prior, misses + self._prior).interval(
                confidence)
            low, high = np.array(low, dtype=float, ndmin=1), np.array(high, dtype=float, ndmin=1)
            _reach_ends(low, high, hits, misses)
            return CurveBand(x, low, high, confidence, kind, 0, self._thresholds[rows],
                             self._kind)
        n_draws = check_draws(n_draws)
        grid = self._check_grid(grid)
        curves = self.sample_curves(n_draws, grid=grid, max_cells=max_cells,
                                    random_state=random_state)
        # Where the observed curve is at the end of its range (no negative above
        # a recall; every positive above a false positive rate), the band
        # reaches that end, as the pointwise intervals of a count that is zero.
        observed = self._observed_on_grid(grid)
        low, high = _simultaneous_envelope(curves, confidence, top=observed >= 1.0,
                                           bottom=observed <= 0.0)
        return CurveBand(grid, low, high, confidence, kind, n_draws, None, self._kind)

    def _hits_misses(self, rows):
        """TP and FP (precision-recall) or FN (ROC) at `rows`."""
        c = self._counts
        hits = np.asarray(c.tp, dtype=float)[rows]
        misses = np.asarray(c.fp if self._kind == "precision_recall" else c.fn,
                            dtype=float)[rows]
        return hits, misses

    def _clustered_points(self, rows, confidence, n_draws, rng):
        """`clustered_points` at `rows`, reaching the ends as the exact band."""
        low, high, mean = clustered_points(self._clustered, self._cells.levels,
                                           self._thresholds[rows], self._kind, self._prior,
                                           confidence, n_draws, rng)
        _reach_ends(low, high, *self._hits_misses(rows))
        return low, high, mean

    def _check_grid(self, grid):
        if grid is None:
            if self._kind == "precision_recall":
                # Precision at recall 0 is undefined; at recall 1 it is the prevalence
                # (the curve reaches recall 1 only below every score).
                return np.linspace(0.01, 0.99, 99)
            return np.linspace(0.0, 1.0, 101)
        array = check_real_array(grid, "grid")
        if np.any(array < 0) or np.any(array > 1):
            fail("grid", "values in [0, 1]", grid,
                 shown=f"values from {array.min()!r} to {array.max()!r}")
        return np.sort(array)

    @renamed_keyword("n_samples", "n_draws")
    def sample_curves(self, n_draws=N_DRAWS, *, grid=None, max_cells=20_000, random_state=None):
        """Posterior draws of the whole curve read on a common grid.

        Returns an array of shape ``(n_draws, len(grid))``: precision at
        each recall of `grid` (precision-recall) or true positive rate at each
        false positive rate (ROC); see `band` for how a curve is read and for
        ``max_cells``.

        Examples
        --------
        >>> from skprobeval import posterior_roc_curve
        >>> curve = posterior_roc_curve([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9])
        >>> curve.sample_curves(3, grid=[0.0, 0.5, 1.0], random_state=0).shape
        (3, 3)
        """
        grid = self._check_grid(grid)
        n_draws = check_draws(n_draws, values_per_draw=grid.shape[0])
        if (not isinstance(max_cells, numbers.Integral) or isinstance(max_cells, bool)
                or max_cells < 1):
            fail("max_cells", "an integer >= 1", max_cells,
                 error=ValueError if isinstance(max_cells, numbers.Real) else TypeError)
        rng = check_random_state(random_state)
        out = np.empty((n_draws, grid.shape[0]))
        row = 0
        cells = self._cells.merged(int(max_cells))
        if self._clustered is None:
            chunks = draw_cumulative(cells, self._prior, n_draws, rng)
        else:
            items, k = self._clustered, cells.levels.shape[0]
            chunks = clustered_cumulative(
                items.draws(items.counts(items.levels_of(cells.levels), k), self._prior),
                n_draws, rng)
        for tp, fp, pos, neg, fp_by_tp in chunks:
            for d in range(tp.shape[0]):
                out[row] = _read_curve(self._kind, tp[d], fp[d], pos[d, 0], neg[d, 0], grid,
                                       fp_by_tp[d])
                row += 1
        return out

    def _observed_on_grid(self, grid):
        """The observed curve (no pseudo-items) read on `grid` as the draws are."""
        tp = np.cumsum(self._cells.positive)
        fp = np.cumsum(self._cells.negative)
        return _read_curve(self._kind, np.r_[0.0, tp], np.r_[0.0, fp], tp[-1], fp[-1], grid)


def _reach_ends(low, high, hits, misses):
    """One zero count (no false positive above a threshold; no positive missed,
    or none found): the interval reaches that end of [0, 1]."""
    high[(misses == 0) & (hits > 0)] = 1.0
    low[(hits == 0) & (misses > 0)] = 0.0


def _read_curve(kind, tp, fp, pos, neg, grid, fp_by_tp=None):
    """One curve from cumulative shares ``tp``, ``fp`` (from above every score
    down; ``fp_by_tp``: ``fp`` in the scale of ``tp``, ``fp`` itself by default)
    read on `grid`: precision at each recall, or TPR at each FPR."""
    if kind == "precision_recall":
        recall = tp / pos
        at = np.minimum(np.searchsorted(recall, grid, side="left"), recall.shape[0] - 1)
        # Pseudo-cells of a tiny prior can draw exactly 0 (and the observed curve
        # starts above every item): read the precision at the first threshold
        # that predicts anything.
        at = np.maximum(at, np.argmax(tp + fp > 0))
        fp_by_tp = fp if fp_by_tp is None else fp_by_tp
        with np.errstate(invalid="ignore"):
            return np.nan_to_num(tp[at] / (tp[at] + fp_by_tp[at]))
    # From the origin (a threshold above every item, pseudo-items too).
    return np.interp(grid, np.r_[0.0, fp / neg], np.r_[0.0, tp / pos])


def _simultaneous_envelope(curves, confidence, top=None, bottom=None):
    """Narrowest envelope of pointwise order statistics holding ``confidence``
    of the curves entirely.

    A curve's depth is the smallest distance of its pointwise ranks from
    either end (0: it is the lowest or highest curve somewhere); the band
    between the order statistics ``d`` and ``n - 1 - d`` holds every curve of
    depth >= d, and ``d`` is the largest depth that a fraction ``confidence``
    of the curves reach.

    Columns flagged in ``top`` (``bottom``) reach 1 (0): there the band is
    one-sided, a curve's depth counts from the other end only, as a
    highest-density interval of a density that rises toward the end of its
    range.
    """
    n, m = curves.shape
    top = np.zeros(m, dtype=bool) if top is None else top
    bottom = np.zeros(m, dtype=bool) if bottom is None else bottom & ~top
    ordered = np.sort(curves, axis=0)
    # With ties: a value lies inside [ordered[d], ordered[n - 1 - d]] exactly when at
    # least d + 1 curves are <= it and at least d + 1 are >= it (constant columns,
    # such as the ROC curve's ends, then constrain nothing).
    depths = np.full(n, n)
    for j in range(m):
        column = ordered[:, j]
        at_most = np.searchsorted(column, curves[:, j], side="right")
        at_least = n - np.searchsorted(column, curves[:, j], side="left")
        reach = at_most if top[j] else at_least if bottom[j] else np.minimum(at_most, at_least)
        depths = np.minimum(depths, reach - 1)
    one_sided = bool(np.any(top | bottom))
    depth = int(np.sort(depths)[::-1][max(0, math.ceil(confidence * n) - 1)])
    depth = min(depth, n - 1 if one_sided else (n - 1) // 2)
    low, high = ordered[min(depth, n - 1)].copy(), ordered[max(n - 1 - depth, 0)].copy()
    high[top], low[bottom] = 1.0, 0.0
    # A one-sided depth may pass the middle: a two-sided column then keeps its median.
    crossed = low > high
    middle = np.median(curves, axis=0)
    low[crossed], high[crossed] = middle[crossed], middle[crossed]
    return low, high


def _build_curve(kind, y_true, y_score, pos_label, sample_weight, prior, drop_intermediate,
                 groups=None):
    lam = check_prior(prior)
    if not isinstance(drop_intermediate, (bool, np.bool_)):
        fail("drop_intermediate", "True or False", drop_intermediate, error=TypeError)
    relevant, score, weight = check_curve_input(y_true, y_score, pos_label, sample_weight)
    clusters = curve_clusters(groups, relevant, weight)
    clustered = (None if clusters is None
                 else ClusteredItems.from_items(relevant, score, weight, clusters))
    cells, (tps, fps) = CurveCells.from_items(relevant, score, weight, cumulative=True)
    unit = not np.any(weight != 1.0)
    if unit:    # counts: total - tps is exact
        fns, tns = tps[-1] - tps, fps[-1] - fps
    else:       # below each threshold, summed from the bottom (no cancellation)
        fns = np.r_[np.cumsum(cells.positive[::-1])[::-1][1:], 0.0]
        tns = np.r_[np.cumsum(cells.negative[::-1])[::-1][1:], 0.0]
    thresholds = cells.levels
    if drop_intermediate and tps.shape[0] > 2:
        if kind == "precision_recall":
            keep = np.r_[True, np.logical_or(np.diff(tps[:-1]), np.diff(tps[1:])), True]
        else:
            keep = np.r_[True, np.logical_or(np.diff(fps, 2), np.diff(tps, 2)), True]
        tps, fps, fns, tns = tps[keep], fps[keep], fns[keep], tns[keep]
        thresholds = thresholds[keep]
    if kind == "roc":
        fns = np.r_[cells.positive.sum(), fns]
        tns = np.r_[cells.negative.sum(), tns]
        tps, fps = np.r_[0.0, tps], np.r_[0.0, fps]
        thresholds = np.r_[np.inf, thresholds]
    else:
        tps, fps, fns, tns = tps[::-1], fps[::-1], fns[::-1], tns[::-1]
        thresholds = thresholds[::-1]
    counts = ConfusionCounts(tps, fps, fns, tns)
    if unit:
        items = (relevant.shape[0], int(np.count_nonzero(relevant)))
    else:
        used = weight > 0
        items = ((int(used.sum()), int(relevant[used].sum()))
                 if np.all(weight[used] == weight[used][0]) else None)
    return PosteriorCurve(kind, thresholds, counts, lam, cells, items, clustered)


def posterior_precision_recall_curve(y_true, y_score, *, pos_label=None, sample_weight=None,
                                     prior=0.5, drop_intermediate=False, groups=None):
    """Posterior precision-recall curve: exact posteriors at every threshold.

    The counts at each threshold are those of
    ``sklearn.metrics.precision_recall_curve`` (same thresholds, same order,
    without its artificial last point of precision 1 and recall 0).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels holding both classes, or multiclass labels with
        `pos_label` naming the class scored against all the others.
    y_score : array-like of shape (n_samples,)
        Scores (higher means more positive), finite.
    pos_label : int, float, bool or str, default=None
        The positive class; None means 1 for labels {0, 1} or {-1, 1}.  For
        multiclass labels, the class against the rest (one column of
        ``predict_proba``).
    sample_weight : array-like of shape (n_samples,), default=None
        Counts: an item of weight 2 is two items.  Unlike scikit-learn's
        metrics the posterior depends on their scale (weights summing to 1
        leave the prior in charge); at most 1e15 in total.
    prior : float or {"jeffreys", "uniform"}, default=0.5
        Dirichlet concentration λ, the prior's share of each of four boundary
        pseudo-cells: a positive and a negative above every score and below
        every score.
    drop_intermediate : bool, default=False
        Drop thresholds whose recall equals both neighbours' (as scikit-learn).
    groups : array-like of shape (n_samples,), default=None
        Cluster of each item (a patient, a document): the cells are then
        drawn from the clusters' Bayesian bootstrap (each cluster's items
        share one Gamma weight), both bands are read from draws, and the
        exact per-threshold posteriors do not exist.  One item per cluster:
        the curve without `groups`.

    Returns
    -------
    PosteriorCurve

    Examples
    --------
    >>> from skprobeval import posterior_precision_recall_curve
    >>> y_true = [0, 0, 1, 1, 1, 0, 1]
    >>> y_score = [0.1, 0.4, 0.35, 0.8, 0.7, 0.6, 0.9]
    >>> curve = posterior_precision_recall_curve(y_true, y_score)
    >>> curve.thresholds
    array([0.1 , 0.35, 0.4 , 0.6 , 0.7 , 0.8 , 0.9 ])
    >>> curve.counts.tp
    array([4., 4., 3., 3., 3., 2., 1.])
    >>> band = curve.band(0.9)
    >>> band.low[:2].round(2), band.high[:2].round(2)
    (array([0.28, 0.34]), array([0.83, 0.9 ]))
    """
    return _build_curve("precision_recall", y_true, y_score, pos_label, sample_weight, prior,
                        drop_intermediate, groups)


def posterior_roc_curve(y_true, y_score, *, pos_label=None, sample_weight=None, prior=0.5,
                        drop_intermediate=True, groups=None):
    """Posterior ROC curve: exact posteriors of TPR and FPR at every threshold.

    The counts at each threshold are those of ``sklearn.metrics.roc_curve``
    (same thresholds in the same order, the first ``inf``).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels holding both classes, or multiclass labels with
        `pos_label` naming the class scored against all the others.
    y_score : array-like of shape (n_samples,)
        Scores (higher means more positive), finite.
    pos_label : int, float, bool or str, default=None
        The positive class; None means 1 for labels {0, 1}, {-1, 1} or bool.
    sample_weight : array-like of shape (n_samples,), default=None
        Counts: an item of weight 2 is two items (as in
        `posterior_precision_recall_curve`).
    prior : float or {"jeffreys", "uniform"}, default=0.5
        Dirichlet concentration λ of each of the four boundary pseudo-cells.
    drop_intermediate : bool, default=True
        Drop thresholds that lie on a straight segment (as scikit-learn).
    groups : array-like of shape (n_samples,), default=None
        Cluster of each item, as in `posterior_precision_recall_curve`.

    Returns
    -------
    PosteriorCurve

    Examples
    --------
    >>> from skprobeval import posterior_roc_curve
    >>> curve = posterior_roc_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> curve.thresholds
    array([ inf, 0.8 , 0.4 , 0.35, 0.1 ])
    >>> curve.counts.fp
    array([0., 0., 1., 1., 2.])
    >>> round(float(curve.tpr.mean()[1]), 3)
    0.5
    """
    return _build_curve("roc", y_true, y_score, pos_label, sample_weight, prior,
                        drop_intermediate, groups)
