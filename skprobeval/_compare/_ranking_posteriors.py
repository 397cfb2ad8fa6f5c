"""Posteriors of average precision and ROC AUC, and the paired comparison of two rankings.

They draw from the curve model of `skprobeval._posteriors._curves` (Gamma weights on the
cells of class x distinct score, plus the four boundary pseudo-cells of mass
λ): `average_precision_posterior` and `roc_auc_posterior` evaluate each draw
of one ranking (`RankingPosterior`), and `compare_scores` weighs the items of
two rankings with the same draw, so that the difference of their metrics is
drawn jointly (a `MetricComparison`).
Derivations: the theory page ``docs/theory/curves.rst``.
"""

from __future__ import annotations

import math

import numpy as np
import scipy.sparse as sp

from .._core import (
    N_DRAWS,
    check_draws,
    check_prior,
    check_random_state,
    check_rope,
    cluster_concentration,
    cluster_weights,
    draw_chunks,
    fail,
    renamed_keyword,
    rounded,
)
from .._counting import ClusterCodes, cluster_codes
from .._metrics import check_real_array, check_same_length
from .._posteriors import (
    ClusteredItems,
    ClusterFields,
    CurveCells,
    SampledPosterior,
    ap_from_cumulative,
    auc_from_shares,
    check_curve_input,
    clustered_cumulative,
    draw_cumulative,
    ranking_own_shares,
    ranking_prior,
    share_chunks,
)
from ._metric_comparison import MetricComparison, _draws_posterior

__all__ = [
    "RankingPosterior",
    "average_precision_posterior",
    "compare_scores",
    "roc_auc_posterior",
]

_RANKING_METRICS = ("average_precision", "roc_auc")


# ---------------------------------------------------------------------------
# AP and AUC posteriors
# ---------------------------------------------------------------------------


class RankingPosterior(ClusterFields, SampledPosterior):
    """Sampled posterior of a ranking metric (average precision or ROC AUC).

    A `SampledPosterior` with the observed value in `point` (scikit-learn's
    ``average_precision_score`` or ``roc_auc_score`` of the data) and the
    metric's name in `metric`.

    Examples
    --------
    >>> from skprobeval import roc_auc_posterior
    >>> auc = roc_auc_posterior([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9],
    ...                         n_draws=1000, random_state=0)
    >>> auc.metric, round(auc.point, 3)
    ('roc_auc', 0.889)
    >>> low, high = auc.interval(0.9)
    >>> bool(0 < low < auc.point < high < 1)
    True
    """

    __slots__ = ("_point", "_metric", "n_clusters", "n_items", "effective_n")

    def __init__(self, samples, *, point, metric, n_clusters=None, n_items=None,
                 effective_n=None):
        super().__init__(samples)
        self._point = float(point)
        self._metric = metric
        # With ``groups=``: the clusters, items and effective items (`ClusterFields`).
        self._set_clusters(n_clusters, n_items, effective_n)

    @property
    def point(self):
        """The metric of the data themselves (scikit-learn's value)."""
        return self._point

    @property
    def metric(self):
        """'average_precision' or 'roc_auc'."""
        return self._metric

    def __repr__(self):
        return (f"RankingPosterior(metric={self._metric!r}, point={rounded(self._point)}, "
                f"n_draws={self.n_draws}, mean={rounded(self._mean_array())}, "
                f"mc_error={rounded(self.mc_error)})")


def _metric_draws(cells, lam, metric, n_draws, rng):
    own = ranking_own_shares(cells.positive, lam)
    out = []
    for tp, fp, pos, neg, fp_by_tp in draw_cumulative(cells, lam, n_draws, rng):
        if metric == "average_precision":
            out.append(ap_from_cumulative(tp, fp_by_tp, pos, own))
        else:
            gp = np.diff(tp, prepend=0.0, axis=1)
            gn = np.diff(fp, prepend=0.0, axis=1)
            out.append(auc_from_shares(gp, gn, pos, neg))
    return np.concatenate(out)


def _observed_metric(cells, metric):
    tp, fp = np.cumsum(cells.positive), np.cumsum(cells.negative)
    pos, neg = np.array([[tp[-1]]]), np.array([[fp[-1]]])
    if metric == "average_precision":
        return float(ap_from_cumulative(tp[None], fp[None], pos)[0])
    return float(auc_from_shares(cells.positive[None], cells.negative[None], pos, neg)[0])


def _clustered_metric_draws(items, clusters, cells, lam, metric, n_draws, rng):
    """Draws of AP or AUC when the items come in clusters: the cells' masses from the
    clusters' Bayesian bootstrap (`ClusterTableDraws`), the pseudo-cells' ``a`` Gamma(λ).

    Columns as in `draw_cumulative`: above, the levels, below; positives then
    negatives.  A level's own share of AP (`own_share`) becomes ``sum n^2 /
    (sum n^2 + a s^2)`` for its positives' cluster counts ``n`` summing to ``s``:
    what makes the drawn ``G^2`` count the data's ``s^2`` in expectation
    (``1 / (1 + s)`` with one item per cluster and ``a = 1``).
    """
    keep = items[2] > 0
    # The kept items' clusters, numbered as all the items' (their concentration too).
    kept = ClusteredItems.from_items(*items, ClusterCodes(clusters.codes[keep],
                                                          clusters.n_clusters, clusters.sizes))
    k = cells.levels.shape[0]
    counts = kept.counts(kept.levels_of(cells.levels), k)
    a = cluster_concentration(kept.clusters.n_clusters)
    draws = kept.draws(counts, lam)
    if metric == "average_precision":
        positive = counts[:, :k + 2]
        square = np.asarray(positive.multiply(positive).sum(axis=0)).ravel()
        total = np.asarray(positive.sum(axis=0)).ravel()
        with np.errstate(invalid="ignore", divide="ignore"):
            own = np.where(total > 0, square / (square + a * total ** 2), 0.0)
        own[[0, k + 1]] = 1.0 / (1.0 + lam)
    out = []
    for tp, fp, _, _, _ in clustered_cumulative(draws, n_draws, rng):
        if metric == "average_precision":
            out.append(ap_from_cumulative(tp, fp, tp[:, -1:], own))
        else:
            gp = np.diff(tp, prepend=0.0, axis=1)
            gn = np.diff(fp, prepend=0.0, axis=1)
            out.append(auc_from_shares(gp, gn, tp[:, -1:], fp[:, -1:]))
    return np.concatenate(out)


def _ranking_posterior(metric, y_true, y_score, pos_label, sample_weight, prior, n_draws,
                       random_state, groups=None):
    prior = check_prior(prior, auto=True)
    n_draws = check_draws(n_draws)
    rng = check_random_state(random_state)
    items = check_curve_input(y_true, y_score, pos_label, sample_weight)
    cells = CurveCells.from_items(*items)
    lam = ranking_prior(prior, metric, cells.positive.sum())
    clusters = None if groups is None else cluster_codes(groups, items[0].shape[0],
                                                         weight=items[2])
    if clusters is None or clusters.singletons:
        samples = _metric_draws(cells, lam, metric, n_draws, rng)
        return RankingPosterior(samples, point=_observed_metric(cells, metric), metric=metric)
    samples = _clustered_metric_draws(items, clusters, cells, lam, metric, n_draws, rng)
    # The same ranking without its clusters: the variance its items alone give.
    plain = _metric_draws(cells, lam, metric, n_draws, rng)
    n_items = float(items[2].sum())
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = plain.var(ddof=1) / samples.var(ddof=1)
    return RankingPosterior(samples, point=_observed_metric(cells, metric), metric=metric,
                            n_clusters=clusters.n_clusters, n_items=n_items,
                            effective_n=float(n_items * ratio) if np.isfinite(ratio)
                            else n_items)


@renamed_keyword("n_samples", "n_draws")
def average_precision_posterior(y_true, y_score, *, pos_label=None, sample_weight=None,
                                prior="auto", n_draws=N_DRAWS, random_state=None, groups=None):
    """Posterior of average precision, sampled from the curve model.

    Each draw weighs the cells (class x distinct score, plus the four
    boundary pseudo-cells of mass λ) by Gamma variates and takes the average
    precision ``sum_k (R_k - R_{k-1}) P_k`` of the weighted ranking, the
    pseudo-items ranked above and below every score, each positive counting
    itself in its own precision as much as in the data (an untied item half
    of its drawn weight; see Notes).

    Parameters
    ----------
    y_true, y_score, pos_label, sample_weight
        As in `posterior_precision_recall_curve`.
    prior : float, "auto" or {"jeffreys", "uniform"}, default="auto"
        Mass λ of each boundary pseudo-cell.  ``"auto"`` is 0.1 up to 30
        positives and ``3 / P`` for a total positive weight ``P`` above (see
        Notes): the best of the rules the coverage benchmark measured (fixed
        masses 0.5, 0.1, 0.05, 0.01; 0.1 falling as ``1 / sqrt(P)`` or as
        ``1 / P`` beyond 30 or 100 positives).  Its 95% intervals held the true
        AP in at least 0.90 of simulated test sets in all 32 cells, within
        1.25 times the bootstrap's width wherever both held it in 0.93 (see "How
        honest are the intervals?" in the documentation).
    n_draws : int, default=10_000
        Posterior draws; `mc_error` of the mean falls like ``1 / sqrt(n_draws)``.
    random_state : None, int or numpy Generator
    groups : array-like of shape (n_samples,), default=None
        Cluster of each item (a patient, a document: any sortable ids).  The
        cells' weights are then the Bayesian bootstrap of the clusters (each
        cluster's items share one Gamma weight), and the result carries
        `n_clusters`, `n_items` and `effective_n`; where every cluster holds
        one item, the posterior without `groups`.

    Returns
    -------
    RankingPosterior
        ``point`` is ``sklearn.metrics.average_precision_score`` of the data.

    Notes
    -----
    The prior's mass sits at the extremes: λ on a negative scored above every
    item (and on a positive below every item).  That is where an unseen item
    hurts a ranking most, and a near-perfect ranking cannot rule it out: with
    about 100 negatives observed, a population share of up to about 3% of
    negatives above every score is compatible with the data (the rule of
    three), and each such share costs average precision at the top.  At
    λ = 0.5 (the default of version 0.1) these pseudo-items dominated a
    good ranker: on binormal scores of separation 4 the 95% interval held the
    true AP in 0.61-0.91 of simulated test sets; at 0.1 in 0.96 or more.
    Logistic regression fitted on the even rows of the breast cancer data
    and scored on the odd ones (AP 0.992, 174 positives) has the 95% interval
    [0.930, 0.994] at λ = 0.5, [0.964, 0.996] at λ = 0.1, [0.984, 0.997]
    at λ = 0.01 and [0.982, 0.997] by default (λ = 3/174); the
    nonparametric bootstrap, which can never draw an item outside the
    observed ones, gives [0.986, 0.997].  Away from near-perfect
    rankings the prior matters little (the posterior standard deviation is
    then within 15% of the bootstrap's at n = 1000).

    The pseudo-negative above every score costs the k-th positive about
    ``g / k`` of its precision (``g`` its drawn weight), the AP about
    ``g log(P) / P``: for a near-perfect ranking that is as large as what the
    data leave uncertain, however many positives there are.  At a fixed 0.1
    the interval of binormal scores of separation 4 with 3 000 positives
    among 10 000 items was 1.6 times the bootstrap's (both covering); the
    default's ``3 / P`` beyond 30 positives makes the pull of a lower order
    (``3 log(P) / P^2``) and the interval the bootstrap's width, while small
    test sets keep the 0.1 they need.

    A positive's own weight is in its own precision: the data count it
    once (``p^2`` for a level of positive weight ``p``), but a Gamma(p) draw
    ``G`` counts ``E[G^2] = p (p + 1)``, which with few positives lifts the
    draws well above the data (six positives among 300 binormal items: the
    data's AP averages 0.143, step-wise draws 0.168, the truth is 0.080).
    Each level's precision therefore takes ``G / (1 + p)`` off its own
    positives, leaving the data's count in expectation; tied levels of many
    items are read as they are.  ``point`` is scikit-learn's value
    regardless.

    Examples
    --------
    >>> import numpy as np
    >>> from skprobeval import average_precision_posterior
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 500)
    >>> score = y + rng.normal(0, 1, 500)
    >>> ap = average_precision_posterior(y, score, n_draws=2000, random_state=0)
    >>> round(ap.point, 3), round(ap.std(), 3), ap.mc_error < 0.001
    (0.763, 0.026, True)
    """
    return _ranking_posterior("average_precision", y_true, y_score, pos_label, sample_weight,
                              prior, n_draws, random_state, groups)


@renamed_keyword("n_samples", "n_draws")
def roc_auc_posterior(y_true, y_score, *, pos_label=None, sample_weight=None,
                      prior="auto", n_draws=N_DRAWS, random_state=None, groups=None):
    """Posterior of ROC AUC, sampled from the curve model.

    Each draw is the Mann-Whitney probability (ties count 1/2) of the
    Gamma-weighted cells, the pseudo-items above and below every score.

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
        Counts: an item of weight 2 is two items.
    prior : float, "auto" or {"jeffreys", "uniform"}, default="auto"
        Mass λ of each boundary pseudo-cell.  ``"auto"``: 0.3 up to 30
        positives, ``9 / P`` from 30 to 90 positives and 0.1 from 90 on
        (``P`` the positives' total weight), the rule the coverage benchmark
        chose: with few positives the pseudo-positive below every score
        stands for the positives that score like negatives and that a small
        test set often does not hold; with many, the data see them, and the
        pseudo-negative above every score is one of all the negatives each
        positive is compared with, so its pull falls with the sample by
        itself.
    n_draws : int, default=10_000
        Posterior draws; `mc_error` of the mean falls like ``1 / sqrt(n_draws)``.
    random_state : None, int or numpy Generator
    groups : array-like of shape (n_samples,), default=None
        Cluster of each item (a patient, a document: any sortable ids).  The
        cells' weights are then the Bayesian bootstrap of the clusters (each
        cluster's items share one Gamma weight), and the result carries
        `n_clusters`, `n_items` and `effective_n`; where every cluster holds
        one item, the posterior without `groups`.
        Seed of the draws.

    Returns
    -------
    RankingPosterior
        ``point`` is ``sklearn.metrics.roc_auc_score`` of the data.

    Notes
    -----
    As for average precision, the prior's mass λ on a negative above every
    score (and a positive below) widens the posterior of a near-perfect
    ranking downwards: logistic regression fitted on the even rows of the
    breast cancer data and scored on the odd ones (AUC 0.9875) has the 95%
    interval [0.9586, 0.9920] at λ = 0.5, [0.9728, 0.9940] at λ = 0.1 and
    [0.9765, 0.9943] at λ = 0.01, against [0.9777, 0.9951] from the
    bootstrap (about 180 positives: the default is 0.1 there).  With 30
    positives or fewer the default is 0.3: where some positives score like
    negatives, a small test set often holds none of them, and at 0.1 the 95%
    interval held the truth in only 0.87-0.90 of such simulated test sets.

    Examples
    --------
    >>> import numpy as np
    >>> from skprobeval import roc_auc_posterior
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 500)
    >>> auc = roc_auc_posterior(y, y + rng.normal(0, 1, 500), random_state=0)
    >>> round(auc.point, 3), round(auc.std(), 3)
    (0.727, 0.022)
    """
    return _ranking_posterior("roc_auc", y_true, y_score, pos_label, sample_weight, prior,
                              n_draws, random_state, groups)


# ---------------------------------------------------------------------------
# Paired comparison of two score vectors
# ---------------------------------------------------------------------------


def _ranking_order(relevant, score):
    """Order of the cells by decreasing score, and the start of each tie group."""
    order = np.argsort(-score, kind="stable")
    ranked = score[order]
    starts = np.flatnonzero(np.r_[True, ranked[1:] != ranked[:-1]])
    return order, starts


def _ranking_own(relevant, weight, order, starts, lam):
    """`ranking_own_shares` of one ranking's levels (items in input order)."""
    return ranking_own_shares(np.add.reduceat(np.where(relevant, weight, 0.0)[order], starts),
                              lam)


def _paired_metric(metric, gammas, relevant, order, starts, pseudo, negatives=None, own=None):
    """Metric of one system for a chunk of draws: ``gammas`` (draws, cells),
    ``pseudo`` = (pos above, neg above, pos below, neg below), each (draws,),
    each class in its own scale (`_class_shares`); ``negatives`` the same
    cells and pseudo-cells with the negatives in the positives' scale (for
    precision; ``gammas`` and ``pseudo`` themselves by default); ``own`` the
    ranking's `_ranking_own` (average precision read as the posterior reads
    it) or None (scikit-learn's value of the weighted items)."""
    rel = relevant[order]
    tp, fp, gp, gn = _ranked_cumulative(gammas, rel, order, starts, pseudo)
    pos, neg = tp[:, -1:], fp[:, -1:]
    if metric == "average_precision":
        fp_by_tp = fp if negatives is None else _ranked_cumulative(
            negatives[0], rel, order, starts, negatives[1], positives=False)[1]
        return ap_from_cumulative(tp, fp_by_tp, pos, own)
    return auc_from_shares(gp, gn, pos, neg)


def _ranked_cumulative(gammas, rel, order, starts, pseudo, positives=True):
    """Cumulative positive and negative shares (and per level) of one ranking
    (with `positives` False, only the negatives': the positives' are None)."""
    g = gammas[:, order]
    size, n_levels = g.shape[0], starts.shape[0]
    # No ties: every level is one item (the same values as the sums, a quarter of
    # the time of a future of `plan_more_items` without them).
    tied = n_levels != g.shape[1]
    shares = []
    for keep, first, last in ((True, 0, 2), (False, 1, 3))[0 if positives else 1:]:
        levels = np.empty((size, n_levels + 2))
        levels[:, 0], levels[:, -1] = pseudo[first], pseudo[last]
        chosen = np.where(rel, g, 0.0) if keep else np.where(rel, 0.0, g)
        levels[:, 1:-1] = np.add.reduceat(chosen, starts, axis=1) if tied else chosen
        shares.append(levels)
    if not positives:
        return None, np.cumsum(shares[0], axis=1), None, shares[0]
    gp, gn = shares
    return np.cumsum(gp, axis=1), np.cumsum(gn, axis=1), gp, gn


@renamed_keyword("n_samples", "n_draws")
def compare_scores(y_true, y_score_a, y_score_b, *, metric="average_precision", rope=0.0,
                   pos_label=None, sample_weight=None, prior="auto", n_draws=N_DRAWS,
                   random_state=None, groups=None):
    """Paired posterior comparison of two rankings of the same items by AP or ROC AUC.

    The same posterior draw (a Gamma weight per item, plus the four
    boundary pseudo-cells of mass λ) weighs both systems, so that what they
    share cancels: the difference ``M_a - M_b`` is drawn jointly.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
    y_score_a, y_score_b : array-like of shape (n_samples,)
        Scores of the first and the second system.
    metric : {"average_precision", "roc_auc"}, default="average_precision"
    rope : float, default=0.0
        Region of practical equivalence, in [0, 1).
    pos_label, sample_weight
        As in `posterior_precision_recall_curve`.
    prior : float, "auto" or {"jeffreys", "uniform"}, default="auto"
        Boundary mass λ; ``"auto"`` is the default of `average_precision_posterior`
        or `roc_auc_posterior`, by `metric`.
    n_draws : int, default=10_000
    random_state : None, int or numpy Generator
    groups : array-like of shape (n_samples,), default=None
        Cluster of each item (a patient, a document: any sortable ids).  Each
        draw then weighs the items of a cluster by one Gamma weight, the same
        for both rankings (the clusters' Bayesian bootstrap), and the result
        carries `n_clusters` and `effective_n`; where every cluster holds one
        item, the comparison without `groups`.

    Returns
    -------
    MetricComparison
        ``paired=True``, ``method="sampled"``; `mc_error` is the largest
        binomial standard error of the three probabilities.

    Examples
    --------
    >>> import numpy as np
    >>> from skprobeval import compare_scores
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 400)
    >>> strong, weak = y + rng.normal(0, 0.7, 400), y + rng.normal(0, 1.5, 400)
    >>> result = compare_scores(y, strong, weak, n_draws=2000, random_state=0)
    >>> result.prob_first_better > 0.99, result.prob_second_better < 0.01
    (True, True)
    """
    if metric not in _RANKING_METRICS:
        fail("metric", f"one of {list(_RANKING_METRICS)!r}", metric)
    rope = check_rope(rope)
    prior = check_prior(prior, auto=True)
    n_draws = check_draws(n_draws)
    rng = check_random_state(random_state)
    relevant, score_a, weight = check_curve_input(y_true, y_score_a, pos_label, sample_weight,
                                             "y_score_a")
    score_b = check_real_array(y_score_b, "y_score_b")
    check_same_length(relevant, score_b, "y_true", "y_score_b")
    # One cell per item, in input order: swapping the systems reuses the same
    # variates, so the result mirrors exactly.
    keep = weight > 0
    source = ScoresSource(metric, prior, relevant[keep], score_a[keep], score_b[keep],
                          weight[keep])
    clusters = None if groups is None else score_clusters(groups, keep, weight)
    if clusters is None:
        difference = source.differences(weight[keep], n_draws, rng)
    else:
        difference = source.clustered_differences(weight[keep], clusters, n_draws, rng)
    n_better, n_worse = int(np.sum(difference > rope)), int(np.sum(difference < -rope))
    better, worse = n_better / n_draws, n_worse / n_draws
    equivalent = (n_draws - n_better - n_worse) / n_draws
    error = max(math.sqrt(p * (1 - p) / n_draws) for p in (better, equivalent, worse))
    if clusters is None:
        return MetricComparison(metric, True, "sampled", better, equivalent, worse, error,
                                rope, n_draws, _draws_posterior(difference), source)
    # The same comparison without the clusters: the variance the items alone give.
    plain = source.differences(weight[keep], n_draws, rng)
    ratio = plain.var(ddof=1) / difference.var(ddof=1) if difference.var() > 0 else 1.0
    return MetricComparison(metric, True, "sampled", better, equivalent, worse, error, rope,
                            n_draws, _draws_posterior(difference), None, clusters.n_clusters,
                            float(source.n_items * ratio))


class ScoresSource:
    """Two rankings of the same items, weighed by one draw: `compare_scores`' one path.

    Kept by its `MetricComparison` so that the comparison can be recomputed
    with each item counted more times (`plan_more_items`).
    """

    __slots__ = ("_metric", "_prior", "_relevant", "_ranks", "alpha")
    # ``alpha``: the items' weights, the Dirichlet parameters of the Bayesian
    # bootstrap over items that the Gamma weights of a draw stand for.

    def __init__(self, metric, prior, relevant, score_a, score_b, weight):
        self._metric, self._prior, self._relevant = metric, prior, relevant
        self._ranks = (_ranking_order(relevant, score_a), _ranking_order(relevant, score_b))
        self.alpha = weight

    @property
    def n_items(self):
        """Items counted (their weights)."""
        return float(np.sum(self.alpha))

    def differences(self, weight, n_draws, rng):
        """Draws of ``M_a - M_b`` with item weights `weight` (input order)."""
        metric, rel = self._metric, self._relevant
        lam = ranking_prior(self._prior, metric, weight[rel].sum())
        (order_a, starts_a), (order_b, starts_b) = self._ranks
        own_a, own_b = (_ranking_own(rel, weight, order, starts, lam)
                        for order, starts in self._ranks)
        differences = []
        for cells, pseudo, negatives in score_chunks(metric, weight, rel, lam, n_draws, rng):
            first = _paired_metric(metric, cells, rel, order_a, starts_a, pseudo, negatives,
                                   own_a)
            second = _paired_metric(metric, cells, rel, order_b, starts_b, pseudo, negatives,
                                    own_b)
            differences.append(first - second)
        return np.concatenate(differences)


    def clustered_differences(self, weight, clusters, n_draws, rng):
        """Draws of ``M_a - M_b`` when the items come in clusters (`clustered_score_draws`
        of the two rankings)."""
        draws = clustered_score_draws(self._metric, self._relevant, weight, self._ranks,
                                      clusters, ranking_prior(self._prior, self._metric,
                                                              weight[self._relevant].sum()),
                                      n_draws, rng)
        return draws[:, 0] - draws[:, 1]


def score_clusters(groups, keep, weight):
    """The clusters of the items of positive weight (`keep`), or None where every
    cluster holds one item of weight 1 (the draws without clusters are then exact)."""
    clusters = cluster_codes(groups, keep.shape[0], weight=weight)
    clusters = clusters if keep.all() else clusters.subset(keep, weight[keep])
    if clusters is None:
        fail("groups", "ids of at least two clusters among the items of positive weight",
             groups, shown="one cluster")
    return None if clusters.singletons else clusters


def clustered_score_draws(metric, relevant, weight, ranks, clusters, lam, n_draws, rng):
    """(n_draws, n_rankings) draws of AP or AUC of several rankings of the same items in
    clusters, every ranking weighed by the same draw: the items of a cluster share one
    Gamma(a) weight (times their own weights; ``a`` from `cluster_concentration`), the
    four pseudo-cells ``a`` Gamma(λ) (λ items' worth, as in the single posterior's
    `ClusteredItems.draws`); AP's own shares follow the clusters' counts
    (`_clustered_own`).

    `ranks` holds each ranking's ``(order, starts)`` (`_ranking_order`) of the kept
    items, in input order.
    """
    a = cluster_concentration(clusters.n_clusters)
    owns = [_clustered_own(relevant, weight, order, starts, lam, clusters, a)
            for order, starts in ranks]
    out = []
    # (Two rankings: the chunks, hence the seeded draws, `compare_scores` always had.)
    for size in draw_chunks(n_draws, clusters.n_clusters + len(ranks) * weight.shape[0]):
        cells = cluster_weights(a, (size, clusters.n_clusters), rng)[:, clusters.codes]
        cells *= weight
        pseudo = tuple(a * rng.standard_gamma(lam, size) for _ in range(4))
        out.append(np.stack([_paired_metric(metric, cells, relevant, order, starts, pseudo,
                                            None, own)
                             for (order, starts), own in zip(ranks, owns)], axis=1))
    return np.concatenate(out)


def _clustered_own(relevant, weight, order, starts, lam, clusters, a):
    """AP's own share of each level of one ranking with clusters: ``sum_c n_c^2 /
    (sum_c n_c^2 + a s^2)`` of the level's positive weights per cluster (see
    `_clustered_metric_draws`), the pseudo-cells' ``1 / (1 + λ)``."""
    level = np.empty(order.shape[0], dtype=np.intp)
    level[order] = np.repeat(np.arange(starts.shape[0]),
                             np.diff(np.r_[starts, order.shape[0]]))
    positive = np.where(relevant, weight, 0.0)
    by_cluster = sp.csr_matrix((positive, (level, clusters.codes)),
                               shape=(starts.shape[0], clusters.n_clusters))
    by_cluster.sum_duplicates()
    square = np.asarray(by_cluster.multiply(by_cluster).sum(axis=1)).ravel()
    total = np.asarray(by_cluster.sum(axis=1)).ravel()
    with np.errstate(invalid="ignore", divide="ignore"):
        own = np.where(total > 0, square / (square + a * total ** 2), 0.0)
    return np.r_[1.0 / (1.0 + lam), own, 1.0 / (1.0 + lam)]


def score_chunks(metric, weight, relevant, lam, n_draws, rng):
    """Yield ``(cells, pseudo, negatives)`` for chunks of draws of the items' weights.

    ``cells`` are the items' Gamma weights (draws, items), ``pseudo`` the four
    boundary masses λ (positive and negative above every score, then below);
    ``negatives`` (average precision only, else None) the same with the
    negatives' weights drawn on the positives' scale, as `share_chunks` gives.
    """
    shapes = np.concatenate([weight, np.full(4, lam)])
    positive = np.r_[relevant, True, False, True, False]
    for gammas, by_positives in share_chunks(shapes, positive, n_draws, rng):
        cells, pseudo = gammas[:, :-4], tuple(gammas[:, -4 + i] for i in range(4))
        negatives = None
        if metric == "average_precision" and by_positives is not None:
            scaled = gammas.copy()
            scaled[:, ~positive] = by_positives
            negatives = (scaled[:, :-4], tuple(scaled[:, -4 + i] for i in range(4)))
        yield cells, pseudo, negatives
