"""Calibration of predicted probabilities: the binned curve with bands, and the calibration error.

`posterior_calibration_curve` bins the items as scikit-learn's
``calibration_curve`` does and gives each bin's positive rate its exact Beta
posterior, with pointwise and simultaneous bands (`CalibrationCurve`);
`calibration_error_posterior` draws the ECE or MCE from the same Dirichlet
model, with the level a calibrated model reaches (`CalibrationErrorPosterior`).
Nothing is resampled for the bands.  Derivations: the theory page
``docs/theory/calibration.rst``.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass

import numpy as np
from scipy import special

from .._core import (
    N_DRAWS,
    ClusterTableDraws,
    ResultMixin,
    check_confidence,
    check_draws,
    check_prior,
    check_random_state,
    check_sample_weight,
    cluster_concentration,
    clustered_cells,
    draw_chunks,
    fail,
    frozen_result,
    renamed_keyword,
    rounded,
)
from .._metrics import check_probabilities, check_same_length
from ._curves import CurveBand, _reach_ends, _relevant, _simultaneous_envelope, curve_clusters
from ._posterior import BetaPosterior, ClusteredPosterior, ClusterFields, SampledPosterior

__all__ = [
    "CalibrationCurve",
    "CalibrationErrorPosterior",
    "calibration_error_posterior",
    "posterior_calibration_curve",
]

_STRATEGIES = ("uniform", "quantile")
_BAND_KINDS = ("pointwise", "simultaneous")
_NORMS = ("l1", "max")


# ---------------------------------------------------------------------------
# Input and bins
# ---------------------------------------------------------------------------


def _check_n_bins(n_bins):
    if not isinstance(n_bins, numbers.Integral) or isinstance(n_bins, bool):
        fail("n_bins", "an integer >= 1", n_bins,
             error=ValueError if isinstance(n_bins, numbers.Real) else TypeError)
    if n_bins < 1:
        fail("n_bins", "an integer >= 1", n_bins)
    return int(n_bins)


def _weighted_percentiles(values, weight, q):
    """numpy's linear percentiles ``q`` (in [0, 1]) of `values`, each item
    repeated `weight` times (integer weights; other weights interpolate).

    Position ``h = (W - 1) q`` in the sorted repeated items, ``W`` the total
    weight, and linear interpolation between the items at ``floor(h)`` and
    ``floor(h) + 1``, as ``np.percentile(np.repeat(values, weight), 100 q)``.
    """
    keep = weight > 0
    order = np.argsort(values[keep], kind="stable")
    ranked, cumulative = values[keep][order], np.cumsum(weight[keep][order])
    position = max(cumulative[-1] - 1.0, 0.0) * np.asarray(q, dtype=float)
    below = np.floor(position)

    def item(k):       # the sorted item holding repeated position k
        return ranked[np.minimum(np.searchsorted(cumulative, k, side="right"),
                                 ranked.shape[0] - 1)]

    low, high = item(below), item(below + 1)
    return low + (position - below) * (high - low)


@dataclass(frozen=True, slots=True, eq=False)
class _Bins:
    """The binned items: edges, and per kept (non-empty) bin the summed weight
    of positives and negatives and the mean predicted probability."""

    edges: np.ndarray
    kept: np.ndarray          # indices of the non-empty bins among all n_bins
    counts: np.ndarray        # summed weight (item count without weights)
    positives: np.ndarray
    negatives: np.ndarray
    prob_true: np.ndarray
    prob_pred: np.ndarray
    clustered: object = None   # `_ClusteredBins` of items in clusters, else None


@dataclass(frozen=True, slots=True, eq=False)
class _ClusteredBins:
    """The cluster x cell counts of the kept bins (cells: bin x class, the
    positives of each bin then its negatives) and the clusters' draws."""

    counts: object
    n_clusters: int
    n_items: float

    def masses(self, lam, n_draws, rng):
        """Yield chunks of the cells' masses (draws, 2 B) of the clusters' Bayesian bootstrap."""
        draws = ClusterTableDraws(self.counts, np.full(self.counts.shape[1], lam),
                                  cluster_concentration(self.n_clusters))
        size = draws.chunk_size()
        for start in range(0, n_draws, size):
            yield draws.masses(min(size, n_draws - start), rng)


def _clustered_bins(groups, relevant, weight, index, kept):
    """`_ClusteredBins` of the items (None without `groups` or with one item per cluster)."""
    weight = np.ones(relevant.shape[0]) if weight is None else weight
    clusters = curve_clusters(groups, relevant, weight)
    if clusters is None:
        return None
    keep = weight > 0
    position = np.searchsorted(kept, index[keep])
    cell = np.where(relevant[keep], position, kept.shape[0] + position)
    counts = clustered_cells(cell, clusters, 2 * kept.shape[0], weight[keep])
    return _ClusteredBins(counts, clusters.n_clusters, float(weight.sum()))


def _bins(y_true, y_prob, pos_label, n_bins, strategy, sample_weight, groups=None):
    """The bins of ``sklearn.calibration.calibration_curve`` (scikit-learn >= 1.5:
    ``searchsorted`` on the inner edges, so a value on an edge joins the bin
    below it), with weights as counts."""
    n_bins = _check_n_bins(n_bins)
    if strategy not in _STRATEGIES:
        fail("strategy", f"one of {list(_STRATEGIES)!r}", strategy)
    relevant = _relevant(y_true, pos_label)
    prob = check_probabilities(y_prob)
    check_same_length(relevant, prob, "y_true", "y_prob")
    weight = check_sample_weight(sample_weight, relevant.shape[0])
    if weight is not None and not np.any(weight > 0):
        fail("sample_weight", "positive for some items", sample_weight,
             shown="zero weight on every item")
    quantiles = np.linspace(0.0, 1.0, n_bins + 1)
    if strategy == "uniform":
        edges = quantiles
    elif weight is None:
        edges = np.percentile(prob, quantiles * 100)
    else:
        edges = _weighted_percentiles(prob, weight, quantiles)
    index = np.searchsorted(edges[1:-1], prob)
    if weight is None:
        counts = np.bincount(index, minlength=n_bins).astype(float)
        sums = np.bincount(index, weights=prob, minlength=n_bins)
        positives = np.bincount(index, weights=relevant, minlength=n_bins)
        negatives = counts - positives      # integers: exact
    else:
        counts = np.bincount(index, weights=weight, minlength=n_bins)
        sums = np.bincount(index, weights=weight * prob, minlength=n_bins)
        positives = np.bincount(index, weights=np.where(relevant, weight, 0.0),
                                minlength=n_bins)
        negatives = np.bincount(index, weights=np.where(relevant, 0.0, weight),
                                minlength=n_bins)
    kept = np.flatnonzero(counts != 0)
    counts, sums = counts[kept], sums[kept]
    positives, negatives = positives[kept], negatives[kept]
    clustered = _clustered_bins(groups, relevant, weight, index, kept)
    return _Bins(edges, kept, counts, positives, negatives, positives / counts, sums / counts,
                 clustered)


# ---------------------------------------------------------------------------
# The calibration curve
# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, eq=False)
class CalibrationCurve(ResultMixin):
    """Posterior calibration curve: the positive rate of each probability bin.

    Built by `posterior_calibration_curve`.  `prob_true` and `prob_pred` are
    ``sklearn.calibration.calibration_curve``'s two arrays (same bins, empty
    bins dropped); `rate` is the posterior of each bin's positive rate in the
    population, and `band` its credible band.

    Attributes
    ----------
    prob_true : ndarray of shape (B,)
        Share of positives in each non-empty bin (weighted by
        ``sample_weight``).
    prob_pred : ndarray of shape (B,)
        Mean predicted probability in each non-empty bin.
    counts : ndarray of shape (B,)
        Items in each bin (summed weights).
    positives, negatives : ndarray of shape (B,)
        Positives and negatives in each bin (summed weights).
    bin_edges : ndarray of shape (n_bins + 1,)
        Edges of all bins, empty ones included.
    bins : ndarray of shape (B,)
        Index of each non-empty bin among the ``n_bins`` bins.
    strategy : {"uniform", "quantile"}
    prior : float
        λ, the prior's share of each cell (bin x class).
    rate_draws : ClusteredPosterior or None
        With ``groups``: draws of the bins' rates from the clusters' Bayesian
        bootstrap (shape (B,)), what `rate` and `band` read; else None.
    n_clusters : int or None
        Clusters the curve rests on (``groups=``), else None.
    effective_n : ndarray of shape (B,) or None
        With ``groups``, each bin's effective number of items: its items
        times the variance of its rate without clusters over that with them.

    Methods
    -------
    band(confidence=0.95, *, kind="pointwise")
        Credible band of the positive rates.
    summary(confidence=0.95)
        One row per non-empty bin: the point values, the posterior mean and
        the interval of its positive rate.
    plot(ax=None, *, confidence=0.95, kind="pointwise")
        The reliability diagram with each bin's interval.

    Examples
    --------
    >>> from skprobeval import posterior_calibration_curve
    >>> y_true = [0, 0, 0, 0, 1, 1, 1, 1, 1]
    >>> y_prob = [0.1, 0.2, 0.3, 0.4, 0.65, 0.7, 0.8, 0.9, 1.0]
    >>> curve = posterior_calibration_curve(y_true, y_prob, n_bins=3)
    >>> curve
    CalibrationCurve(bins=3, strategy='uniform', prior=0.5)
    >>> curve.prob_true, curve.prob_pred
    (array([0. , 0.5, 1. ]), array([0.2  , 0.525, 0.85 ]))
    >>> curve.rate
    BetaPosterior(a=[0.5, 1.5, 4.5], b=[3.5, 1.5, 0.5])
    """

    prob_true: np.ndarray
    prob_pred: np.ndarray
    counts: np.ndarray
    positives: np.ndarray
    negatives: np.ndarray
    bin_edges: np.ndarray
    bins: np.ndarray
    strategy: str
    prior: float
    rate_draws: ClusteredPosterior | None = None

    def __repr__(self):
        clusters = "" if self.n_clusters is None else f", n_clusters={self.n_clusters}"
        return (f"CalibrationCurve(bins={self.prob_true.shape[0]}, strategy={self.strategy!r}, "
                f"prior={rounded(self.prior)}{clusters})")

    def __len__(self):
        return self.prob_true.shape[0]

    @property
    def n_clusters(self):
        """Clusters the curve rests on (``groups=``), else None."""
        return None if self.rate_draws is None else self.rate_draws.n_clusters

    @property
    def effective_n(self):
        """Each bin's effective number of items (``groups=``), else None."""
        return None if self.rate_draws is None else self.rate_draws.effective_n

    @property
    def rate(self):
        """Posterior of each bin's positive rate: Beta(positives + λ, negatives + λ), or
        with ``groups`` the draws of the clusters' Bayesian bootstrap (`rate_draws`)."""
        if self.rate_draws is not None:
            return self.rate_draws
        return BetaPosterior(self.positives + self.prior, self.negatives + self.prior)

    def summary(self, confidence=0.95):
        """One row per non-empty bin: point values, posterior mean and interval of its rate.

        Parameters
        ----------
        confidence : float, default=0.95
            Level of each bin's interval (the pointwise `band`).

        Returns
        -------
        pandas.DataFrame
            Indexed by ``bin`` (`bins`), columns ``prob_pred``, ``prob_true``,
            ``count``, then the posterior ``mean``, ``low`` and ``high`` of the
            bin's positive rate.

        Examples
        --------
        >>> from skprobeval import posterior_calibration_curve
        >>> curve = posterior_calibration_curve(
        ...     [0, 0, 1, 0, 1, 1, 0, 1], [0.1, 0.3, 0.4, 0.45, 0.6, 0.8, 0.85, 0.9], n_bins=2)
        >>> table = curve.summary(0.9)
        >>> list(table.columns)
        ['prob_pred', 'prob_true', 'count', 'mean', 'low', 'high']
        >>> table["low"].round(3).tolist(), table["high"].round(3).tolist()
        ([0.046, 0.349], [0.651, 0.954])
        """
        import pandas as pd

        band = self.band(confidence)
        table = pd.DataFrame({"prob_pred": self.prob_pred, "prob_true": self.prob_true,
                              "count": self.counts, "mean": self.rate.mean(),
                              "low": band.low, "high": band.high},
                             index=pd.Index(self.bins, name="bin"))
        return table

    def _dict_content(self):
        return {"type": "CalibrationCurve", "strategy": self.strategy, "prior": self.prior,
                "confidence": 0.95, "summary": self.summary()}

    def _html_caption(self):
        return f"CalibrationCurve ({self.strategy} bins): 95% intervals of each bin's rate"

    def plot(self, ax=None, *, confidence=0.95, kind="pointwise"):
        """Draw the reliability diagram: the curve, each bin's interval and the diagonal.

        `PosteriorCalibrationDisplay` draws the same, in scikit-learn's
        Display convention.

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Where to draw; a new figure's axes by default.
        confidence : float, default=0.95
            Mass of the intervals.
        kind : {"pointwise", "simultaneous"}, default="pointwise"
            See `band`.

        Returns
        -------
        matplotlib.axes.Axes

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> from skprobeval import posterior_calibration_curve
        >>> curve = posterior_calibration_curve(
        ...     [0, 0, 1, 0, 1, 1, 0, 1], [0.1, 0.3, 0.4, 0.45, 0.6, 0.8, 0.85, 0.9], n_bins=2)
        >>> curve.plot().get_ylabel()
        'Fraction of positives'
        """
        from .._core import axes_or_new, draw_calibration, finish_curve_axes

        band = self.band(confidence, kind=kind)
        ax = axes_or_new(ax)
        draw_calibration(ax, self.prob_pred, self.prob_true, band, name="observed")
        return finish_curve_axes(ax, "calibration")

    def band(self, confidence=0.95, *, kind="pointwise"):
        """Credible band of the positive rate at each bin's mean prediction.

        Parameters
        ----------
        confidence : float, default=0.95
            Posterior probability of the band: of each bin's interval
            (``"pointwise"``) or of all bins' intervals at once
            (``"simultaneous"``).
        kind : {"pointwise", "simultaneous"}, default="pointwise"
            ``"pointwise"``: the exact equal-tailed interval of each bin's
            Beta posterior.  ``"simultaneous"``: the same intervals, each at
            level ``confidence ** (1 / B)`` (Šidák): the bins' rates are
            independent a posteriori, so all B intervals hold at once with
            posterior probability exactly ``confidence``.  No draws are
            needed, unlike the simultaneous band of a threshold curve.  With
            ``groups`` the bins share the clusters' weights and both bands
            are read from `rate_draws`: equal-tailed quantiles, and the
            envelope of the drawn curves (as a threshold curve's).

        Returns
        -------
        CurveBand
            ``x`` is `prob_pred`; ``n_draws`` is 0 (exact; with ``groups``,
            the draws of `rate_draws`); ``curve_kind`` is ``"calibration"``.
            A bin without positives (negatives) has its interval reach 0
            (1), as the bands of the threshold curves do: the band then holds
            at least ``confidence``.

        Examples
        --------
        >>> from skprobeval import posterior_calibration_curve
        >>> curve = posterior_calibration_curve(
        ...     [0, 0, 1, 0, 1, 1, 0, 1], [0.1, 0.3, 0.4, 0.45, 0.6, 0.8, 0.85, 0.9], n_bins=2)
        >>> band = curve.band(0.9, kind="simultaneous")
        >>> band.x, band.low.round(3), band.high.round(3)
        (array([0.3125, 0.7875]), array([0.029, 0.286]), array([0.714, 0.971]))
        """
        confidence = check_confidence(confidence)
        if kind not in _BAND_KINDS:
            fail("kind", f"one of {list(_BAND_KINDS)!r}", kind)
        if self.rate_draws is not None:
            draws = self.rate_draws.samples.reshape(self.rate_draws.n_draws, -1)
            if kind == "pointwise":
                low, high = np.quantile(draws, [(1 - confidence) / 2, (1 + confidence) / 2],
                                        axis=0)
                _reach_ends(low, high, self.positives, self.negatives)
            else:
                low, high = _simultaneous_envelope(draws, confidence, top=self.negatives == 0,
                                                   bottom=self.positives == 0)
            return CurveBand(np.array(self.prob_pred), low, high, confidence, kind,
                             self.rate_draws.n_draws, None, "calibration")
        level = confidence if kind == "pointwise" else confidence ** (1.0 / len(self))
        low, high = self.rate.interval(level)
        low, high = np.array(low, dtype=float, ndmin=1), np.array(high, dtype=float, ndmin=1)
        low[self.positives == 0] = 0.0
        high[self.negatives == 0] = 1.0
        return CurveBand(np.array(self.prob_pred), low, high, confidence, kind, 0, None,
                         "calibration")


@renamed_keyword("n_samples", "n_draws")
def posterior_calibration_curve(y_true, y_prob, *, pos_label=None, n_bins=10,
                                strategy="uniform", prior=0.5, sample_weight=None, groups=None,
                                n_draws=N_DRAWS, random_state=None):
    """Posterior calibration curve: the positive rate of each probability bin.

    The bins, `prob_true` and `prob_pred` are those of
    ``sklearn.calibration.calibration_curve(y_true, y_prob, n_bins=n_bins,
    strategy=strategy)``; each non-empty bin's positive rate in the
    population gets the exact posterior Beta(positives + λ, negatives + λ).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels holding both classes, or multiclass labels with
        `pos_label` naming the class whose probability `y_prob` is.
    y_prob : array-like of shape (n_samples,)
        Predicted probabilities of the positive class, in [0, 1].
    pos_label : int, float, bool or str, default=None
        The positive class; None means 1 for labels {0, 1}, {-1, 1} or bool.
    n_bins : int, default=10
        Number of bins (empty ones are dropped, as scikit-learn does).
    strategy : {"uniform", "quantile"}, default="uniform"
        Bins of equal width on [0, 1], or bins between quantiles of `y_prob`
        (``np.percentile``, as scikit-learn).
    prior : float or {"jeffreys", "uniform"}, default=0.5
        λ, the prior's share of each cell (bin x class): each bin's rate has
        the prior Beta(λ, λ).
    sample_weight : array-like of shape (n_samples,), default=None
        Counts: an item of weight 2 is two items (scikit-learn's
        ``calibration_curve`` takes no weights).  Quantile edges are then
        those of the items repeated by their weights.
    groups : array-like of shape (n_samples,), default=None
        Cluster of each item (a patient, a document: any sortable ids).  The
        clusters, not the items, are then the draws from the population: the
        cells (bin x class) are drawn from the clusters' Bayesian bootstrap
        (each cluster's items share one Gamma(a) weight, and each cell's
        prior, λ items' worth, is ``a`` Gamma(λ)), and the bins' rates and bands are read from
        `n_draws` such draws (`CalibrationCurve.rate_draws`, with
        `n_clusters` and each bin's `effective_n`).  Where every cluster holds
        one item, the curve without `groups`.
    n_draws : int, default=10_000
        Draws with ``groups``; unused without (the posteriors are exact).
    random_state : None, int or numpy Generator
        Seed of those draws.

    Returns
    -------
    CalibrationCurve

    See Also
    --------
    calibration_error_posterior : Posterior of the binned calibration error.
    PosteriorCalibrationDisplay : The curve, its band and the diagonal, drawn.

    References
    ----------
    .. [1] A. Niculescu-Mizil and R. Caruana, "Predicting good probabilities
       with supervised learning", ICML 2005.

    Examples
    --------
    >>> import numpy as np
    >>> from skprobeval import posterior_calibration_curve
    >>> rng = np.random.default_rng(0)
    >>> y_prob = rng.random(1000)
    >>> y_true = rng.random(1000) < y_prob          # a calibrated model
    >>> curve = posterior_calibration_curve(y_true, y_prob, n_bins=5)
    >>> curve.prob_pred.round(2)
    array([0.11, 0.31, 0.5 , 0.7 , 0.9 ])
    >>> band = curve.band(0.95, kind="simultaneous")
    >>> bool(np.all((band.low <= band.x) & (band.x <= band.high)))
    True
    """
    lam = check_prior(prior)
    bins = _bins(y_true, y_prob, pos_label, n_bins, strategy, sample_weight, groups)
    rate_draws = None
    if bins.clustered is not None:
        n_draws = check_draws(n_draws, values_per_draw=bins.counts.shape[0])
        rate_draws = _clustered_rates(bins, lam, n_draws, check_random_state(random_state))
    return CalibrationCurve(*(frozen_result(v) for v in (
        bins.prob_true, bins.prob_pred, bins.counts, bins.positives, bins.negatives,
        bins.edges)), bins.kept, strategy, lam, rate_draws)


def _clustered_masses(bins, lam, n_draws, rng):
    """Draws of each bin's rate and share from the clusters' Bayesian bootstrap:
    ``(rates, shares)``, each of shape (n_draws, B)."""
    size = bins.counts.shape[0]
    rates, shares = np.empty((n_draws, size)), np.empty((n_draws, size))
    row = 0
    for masses in bins.clustered.masses(lam, n_draws, rng):
        total = masses[:, :size] + masses[:, size:]
        chunk = masses.shape[0]
        rates[row:row + chunk] = masses[:, :size] / total
        shares[row:row + chunk] = total / total.sum(axis=1, keepdims=True)
        row += chunk
    return rates, shares


def _clustered_rates(bins, lam, n_draws, rng, rates=None):
    """`ClusteredPosterior` of the bins' rates, each bin's effective number of items
    its items times the variance of its Beta posterior over the drawn variance."""
    if rates is None:
        rates = _clustered_masses(bins, lam, n_draws, rng)[0]
    exact = np.asarray(BetaPosterior(bins.positives + lam, bins.negatives + lam).var(),
                       dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = exact / rates.var(axis=0, ddof=1)
    effective = np.where(np.isfinite(ratio), bins.counts * ratio, bins.counts)
    return ClusteredPosterior(rates, n_clusters=bins.clustered.n_clusters,
                              n_items=bins.clustered.n_items, effective_n=effective)


# ---------------------------------------------------------------------------
# Calibration error
# ---------------------------------------------------------------------------


def _binomial_mean_absolute_deviation(n, p):
    """``E|K/n - p|`` for ``K ~ Binomial(n, p)``, elementwise: de Moivre's closed
    form ``E|K - np| = 2 v C(n, v) p^v (1 - p)^(n - v + 1)``, ``v = floor(np) + 1``,
    through log-Gamma functions (a real ``n``, a summed weight, interpolates)."""
    n, p = np.broadcast_arrays(np.asarray(n, dtype=float), np.asarray(p, dtype=float))
    v = np.floor(n * p) + 1.0
    inside = (p > 0) & (p < 1) & (n - v + 1 > 0)
    out = np.zeros(n.shape)
    n_, p_, v_ = n[inside], p[inside], v[inside]
    log = (math.log(2.0) + np.log(v_) + special.gammaln(n_ + 1) - special.gammaln(v_ + 1)
           - special.gammaln(n_ - v_ + 1) + v_ * np.log(p_) + (n_ - v_ + 1) * np.log1p(-p_))
    out[inside] = np.exp(log) / n_
    return out


class CalibrationErrorPosterior(ClusterFields, SampledPosterior):
    """Sampled posterior of the binned calibration error (ECE or MCE).

    A `SampledPosterior` with the plug-in value of the data in `point`, the
    norm in `norm`, and `expected_if_calibrated`: the value the plug-in
    statistic takes on average when every bin's true rate equals its mean
    prediction, the level at which a perfectly calibrated model's binned
    error sits because of sampling noise alone.

    Examples
    --------
    >>> import numpy as np
    >>> from skprobeval import calibration_error_posterior
    >>> rng = np.random.default_rng(0)
    >>> y_prob = rng.random(2000)
    >>> y_true = rng.random(2000) < y_prob ** 1.5          # over-confident
    >>> ece = calibration_error_posterior(y_true, y_prob, random_state=0)
    >>> round(ece.point, 3), round(ece.expected_if_calibrated, 3)
    (0.1, 0.022)
    >>> low, high = ece.interval(0.95)
    >>> round(low, 3), round(high, 3)
    (0.083, 0.117)
    """

    __slots__ = ("_point", "_norm", "_expected", "n_clusters", "n_items", "effective_n")

    def __init__(self, samples, *, point, norm, expected_if_calibrated, n_clusters=None,
                 n_items=None, effective_n=None):
        super().__init__(samples)
        self._point = float(point)
        self._norm = norm
        self._expected = float(expected_if_calibrated)
        # With ``groups=``: the clusters, items and effective items (`ClusterFields`).
        self._set_clusters(n_clusters, n_items, effective_n)

    @property
    def point(self):
        """The binned error of the data (bin shares as weights for ``"l1"``)."""
        return self._point

    @property
    def norm(self):
        """``"l1"`` (expected calibration error) or ``"max"`` (maximum)."""
        return self._norm

    @property
    def expected_if_calibrated(self):
        """Mean of the plug-in error when every bin's true rate is its mean prediction."""
        return self._expected

    def __repr__(self):
        return (f"CalibrationErrorPosterior(norm={self._norm!r}, point={rounded(self._point)}, "
                f"expected_if_calibrated={rounded(self._expected)}, n_draws={self.n_draws}, "
                f"mean={rounded(self._mean_array())}, mc_error={rounded(self.mc_error)})")


def _error_draws(bins, lam, norm, n_draws, rng):
    """Draws of the ECE or MCE of the Dirichlet model of the bins' cells."""
    size = bins.counts.shape[0]
    rate = BetaPosterior(bins.positives + lam, bins.negatives + lam)
    mass = bins.counts + 2 * lam
    samples = np.empty(n_draws)
    row = 0
    for chunk in draw_chunks(n_draws, 2 * size):
        deviation = np.abs(rate.rvs((chunk, size), random_state=rng) - bins.prob_pred)
        if norm == "l1":
            weight = rng.standard_gamma(mass, size=(chunk, size))
            samples[row:row + chunk] = (np.sum(weight * deviation, axis=1)
                                        / np.sum(weight, axis=1))
        else:
            samples[row:row + chunk] = deviation.max(axis=1)
        row += chunk
    return samples


@renamed_keyword("n_samples", "n_draws")
def calibration_error_posterior(y_true, y_prob, *, pos_label=None, n_bins=10, strategy="uniform",
                                norm="l1", prior=0.5, sample_weight=None, n_draws=N_DRAWS,
                                random_state=None, groups=None):
    """Posterior of the binned calibration error: ECE (``"l1"``) or MCE (``"max"``).

    With the bins of `posterior_calibration_curve`, mean prediction
    ``p_b`` and population positive rate ``r_b`` of bin b, and ``w_b`` the
    population share of the bin's items::

        ECE = sum_b w_b |r_b - p_b|        MCE = max_b |r_b - p_b|

    (Naeini, Cooper and Hauskrecht 2015; Guo et al. 2017).  Each draw takes
    every ``r_b`` from its exact posterior Beta(positives + λ, negatives + λ)
    and the shares ``w`` from their posterior Dirichlet(count + 2λ), the
    marginal of the same Dirichlet over the cells (bin x class), independent
    of the rates; ``p_b`` is the data's mean prediction in the bin.

    Parameters
    ----------
    y_true, y_prob, pos_label, n_bins, strategy, prior, sample_weight
        As in `posterior_calibration_curve`.
    norm : {"l1", "max"}, default="l1"
        ``"l1"``: the expected calibration error (bins weighted by their
        share); ``"max"``: the maximum calibration error over the bins.
    n_draws : int, default=10_000
        Posterior draws; `mc_error` of the mean falls like ``1 / sqrt(n_draws)``.
    random_state : None, int or numpy Generator
        Seed of the draws (and of the Monte Carlo estimate of
        `expected_if_calibrated` for ``"max"``).
    groups : array-like of shape (n_samples,), default=None
        Cluster of each item (a patient, a document: any sortable ids).  The
        cells (bin x class) are then drawn from the clusters' Bayesian
        bootstrap (each cluster's items share one Gamma(a) weight, and each
        cell's prior, λ items' worth, is ``a`` Gamma(λ)), and each draw's rates and shares are
        read from them; the result carries `n_clusters`, `n_items` and
        `effective_n`.  `expected_if_calibrated` then counts each bin's
        effective number of items (its items over the design effect of its
        rate, Kish 1965) in place of its items: items of one cluster move
        together, so a calibrated model's binned error sits higher.  Where
        every cluster holds one item, the posterior without `groups`.

    Returns
    -------
    CalibrationErrorPosterior
        ``point`` is the plug-in error of the data, with the bins' observed
        shares as weights.

    See Also
    --------
    posterior_calibration_curve : The per-bin posteriors and their bands.

    Notes
    -----
    **The error is biased away from 0 near perfect calibration.**  Each term
    ``|r_b - p_b|`` is at least 0, and the truth of a perfectly calibrated
    model, 0, sits at the edge of its range: the plug-in error of such a model
    averages about ``sum_b w_b sqrt(2 p_b (1 - p_b) / (pi n_b))``, not 0
    (`expected_if_calibrated` gives its exact value from the binomial mean
    absolute deviation, de Moivre's closed form; for ``"max"``, by Monte Carlo
    over binomial counts).  The posterior has the same bias, larger: its
    draws spread around the observed rates, which themselves scatter around
    ``p_b``, so for a calibrated model the posterior of the ECE lies entirely
    above 0 and its mean is about 1.4 times `expected_if_calibrated` (1.42 on
    average over 300 simulated calibrated models of 2000 items in 10 bins,
    whose 95% intervals held `expected_if_calibrated` in 84% of them).  A credible interval of
    the ECE that excludes 0 is therefore no evidence of miscalibration.  Read
    the posterior against `expected_if_calibrated`: an interval at about
    that level is what a calibrated model gives; an interval well above it is
    miscalibration the data can see.  To ask whether the data are compatible
    with perfect calibration bin by bin, look whether the simultaneous band of
    `posterior_calibration_curve` contains the diagonal.

    The binned error also depends on the bins: with more bins each bin holds
    fewer items and the noise floor rises; with fewer, miscalibration of
    opposite signs inside one bin cancels.

    References
    ----------
    .. [1] M. P. Naeini, G. F. Cooper and M. Hauskrecht, "Obtaining well
       calibrated probabilities using Bayesian binning", AAAI 2015.
    .. [2] C. Guo, G. Pleiss, Y. Sun and K. Q. Weinberger, "On calibration of
       modern neural networks", ICML 2017.

    Examples
    --------
    >>> import numpy as np
    >>> from skprobeval import calibration_error_posterior
    >>> rng = np.random.default_rng(0)
    >>> y_prob = rng.random(2000)
    >>> y_true = rng.random(2000) < y_prob                  # calibrated
    >>> ece = calibration_error_posterior(y_true, y_prob, random_state=0)
    >>> round(ece.point, 3), round(ece.expected_if_calibrated, 3), round(ece.mean(), 3)
    (0.03, 0.022, 0.034)
    """
    if norm not in _NORMS:
        fail("norm", f"one of {list(_NORMS)!r}", norm)
    lam = check_prior(prior)
    bins = _bins(y_true, y_prob, pos_label, n_bins, strategy, sample_weight, groups)
    size = bins.counts.shape[0]
    n_draws = check_draws(n_draws, values_per_draw=size)
    rng = check_random_state(random_state)
    gap = np.abs(bins.prob_true - bins.prob_pred)
    shares = bins.counts / bins.counts.sum()
    clusters = {}
    items_per_bin = bins.counts
    if bins.clustered is None:
        samples = _error_draws(bins, lam, norm, n_draws, rng)
    else:
        rates, drawn_shares = _clustered_masses(bins, lam, n_draws, rng)
        deviation = np.abs(rates - bins.prob_pred)
        samples = (np.sum(drawn_shares * deviation, axis=1) if norm == "l1"
                   else deviation.max(axis=1))
        items_per_bin = np.asarray(_clustered_rates(bins, lam, n_draws, rng, rates).effective_n,
                                   dtype=float).reshape(-1)
        # The same bins without their clusters: the variance their items alone give.
        plain = _error_draws(bins, lam, norm, n_draws, rng)
        n_items = bins.clustered.n_items
        drawn = float(np.var(samples, ddof=1))
        clusters = {"n_clusters": bins.clustered.n_clusters, "n_items": n_items,
                    "effective_n": (n_items * float(np.var(plain, ddof=1)) / drawn
                                    if drawn > 0 else n_items)}
    if norm == "l1":
        point = float(np.sum(shares * gap))
        expected = float(np.sum(shares * _binomial_mean_absolute_deviation(
            items_per_bin, bins.prob_pred)))
    else:
        point = float(gap.max())
        # E max_b |K_b / n_b - p_b| over independent binomial counts (the bins'
        # summed weights, or effective numbers of items, rounded to whole items).
        items = np.maximum(np.rint(items_per_bin), 1).astype(np.int64)
        deviations = np.empty(n_draws)
        row = 0
        for chunk in draw_chunks(n_draws, size):
            counts = rng.binomial(items, bins.prob_pred, size=(chunk, size))
            deviations[row:row + chunk] = np.abs(counts / items - bins.prob_pred).max(axis=1)
            row += chunk
        expected = float(deviations.mean())
    return CalibrationErrorPosterior(samples, point=point, norm=norm,
                                     expected_if_calibrated=expected, **clusters)
