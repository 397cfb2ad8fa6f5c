"""Several systems ranked on the same items, from one joint posterior.

`rank_systems` draws every system's metric from one Dirichlet over the joint
table (true label, prediction of system 1, ..., prediction of system N), whose
prior gives every sub-table of systems the package's own one- and two-system
priors, so that the ranks of each draw honour the pairing as
`compare_paired_metric` does for two systems; the table is kept sparse (the
observed cells, and the prior's share drawn by truncated stick-breaking) unless
its prior spans few cells (then every cell is drawn: ``_joint_dense.py``), and
systems with identical predictions are drawn once; by default the draws are
then partially pooled (``_pooling.py``).  `SystemRanking` holds the result.
Derivations: the theory page ``docs/theory/rankings.rst``.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass, field, replace

import numpy as np

from .._core import (
    N_DRAWS,
    check_confidence,
    check_draws,
    check_positive,
    check_prior,
    check_random_state,
    check_rope,
    fail,
    renamed_keyword,
    rounded,
    to_host,
)
from .._counting import (
    JointCounts,
    is_dask,
    joint_codes,
    label_masks,
    prediction_systems,
    resolve_columns,
)
from .._metrics import (
    SHARE_OF_RIGHT,
    check_average,
    check_real_array,
    check_same_length,
    get_metric,
    label_weights,
    range_width,
)
from .._posteriors import (
    add_f_score_prior,
    average_values,
    check_curve_input,
    check_target_metric,
    f_score_mass,
    label_cells,
    ranking_prior,
)
from ._joint_systems import JointSystems, check_ranking_groups
from ._pooling import pool_in_range
from ._proxy_systems import proxy_metric_draws
from ._ranking_posteriors import (
    _paired_metric,
    _ranking_order,
    _ranking_own,
    clustered_score_draws,
    score_chunks,
    score_clusters,
)
from ._ranking_result import RankingMixin, limited, plain_frame, plain_series, rank_figures
from ._ranking_source import RankingSource

__all__ = ["SystemRanking", "rank_systems", "ranking_from_draws"]

_RANKING_METRICS = ("average_precision", "roc_auc")


@dataclass(frozen=True, slots=True, eq=False)
class SystemRanking(RankingMixin):
    """Posterior ranks of several systems evaluated on the same items.

    Returned by `rank_systems`.  Series and tables list the systems in the
    order of the input; `summary` and `plot` sort them best first.  Every
    figure comes from the same posterior draws of all the systems' metrics
    (`values`); ties within a draw (systems with identical predictions) are
    split equally between the tied systems and the ranks they occupy.

    Attributes
    ----------
    prob_best : pandas.Series
        Posterior probability that each system has the best metric (the
        share of draws in which it is the best, a tie for the best counting
        ``1 / (number tied)``); sums to 1.
    mc_error : pandas.Series
        Monte Carlo standard error of each `prob_best` (the draws are
        independent).
    expected_rank : pandas.Series
        Posterior mean rank (1 = best; tied systems share the mean of the
        ranks they occupy).
    rank_probabilities : pandas.DataFrame of shape (n_systems, n_systems)
        Probability that the row system has the column rank (1 = best); rows
        and columns sum to 1, and column 1 is `prob_best`.
    pairwise : pandas.DataFrame of shape (n_systems, n_systems)
        ``P(M_row - M_column > rope)`` (for metrics where lower is better,
        ``P(M_column - M_row > rope)``): the probability that the row system
        is better by more than `rope` (NaN diagonal).  ``pairwise +
        pairwise.T`` is 1 minus the probability that the two are within
        `rope` of each other (1 with ``rope=0`` unless the two tie).
    prob_within_rope_of_best : pandas.Series
        Probability that the system's metric is within `rope` of the best
        system's metric in the same draw (with ``rope=0``: that it is the
        best or tied for the best).  These do not sum to 1: they say which
        systems are practically as good as the best.
    values : ndarray of shape (n_draws, n_systems)
        Posterior draws of every system's metric, one row per draw; read-only.
    names : tuple
        The systems, in the order of the columns of `values`.
    metric : str
        Registry name of the metric (or ``"average_precision"`` /
        ``"roc_auc"``).
    average : str
        How labels were combined.
    prior : float
        λ of the joint table (or the boundary mass of the ranking model).
    rope : float
        Region of practical equivalence of `pairwise` and
        `prob_within_rope_of_best`.
    n_draws : int
        Posterior draws.
    higher_is_better : bool
        Whether larger values of the metric rank first.
    pooling : str
        ``"partial"`` or ``"none"`` (see `rank_systems`).

    Examples
    --------
    >>> import numpy as np
    >>> from skprobeval import rank_systems
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 500)
    >>> predictions = {name: np.where(rng.random(500) < accuracy, y, 1 - y)
    ...                for name, accuracy in (("a", 0.90), ("b", 0.86), ("c", 0.85))}
    >>> ranking = rank_systems(y, predictions, random_state=0)
    >>> ranking.values.shape
    (10000, 3)
    >>> ranking.pairwise.round(2)
    second     a     b    c
    first
    a        NaN  0.85  1.0
    b       0.15   NaN  1.0
    c       0.00  0.00  NaN
    """

    prob_best: object
    mc_error: object
    expected_rank: object
    rank_probabilities: object
    pairwise: object
    prob_within_rope_of_best: object
    values: np.ndarray = field(repr=False)
    names: tuple
    metric: str
    average: str
    prior: float
    rope: float
    n_draws: int
    higher_is_better: bool = True
    pooling: str = "partial"
    _source: object = field(default=None, repr=False)
    #: Clusters the ranking rests on (``groups=``), else None.
    n_clusters: int | None = None

    def interval(self, confidence=0.95):
        """Equal-tailed credible interval of each system's metric.

        Parameters
        ----------
        confidence : float, default=0.95
            Level of the intervals.

        Returns
        -------
        pandas.DataFrame
            Columns ``low`` and ``high``, one row per system.

        Examples
        --------
        >>> from skprobeval import rank_systems
        >>> y = [0, 1, 1, 0, 1, 1, 0, 1, 0, 1, 1, 0]
        >>> ranking = rank_systems(y, {"a": [0, 1, 1, 0, 1, 0, 0, 1, 0, 1, 1, 0],
        ...                            "b": [1, 1, 0, 0, 1, 0, 0, 1, 1, 1, 0, 0]},
        ...                        n_draws=2000, random_state=0)
        >>> bounds = ranking.interval(0.9)
        >>> bool((bounds["low"] < bounds["high"]).all())
        True
        """
        import pandas as pd

        tail = (1.0 - check_confidence(confidence)) / 2
        low, high = np.quantile(self.values, [tail, 1.0 - tail], axis=0)
        return pd.DataFrame({"low": low, "high": high}, index=self.prob_best.index)

    def summary(self, confidence=0.95):
        """One row per system, best first (by expected rank).

        Parameters
        ----------
        confidence : float, default=0.95
            Level of the metric's credible interval.

        Returns
        -------
        pandas.DataFrame
            Columns ``prob_best``, ``mc_error``, ``expected_rank``,
            ``prob_within_rope_of_best``, ``mean`` (posterior mean of the
            metric), ``low`` and ``high`` (its interval).

        Examples
        --------
        >>> from skprobeval import rank_systems
        >>> y = [0, 1, 1, 0, 1, 1, 0, 1, 0, 1, 1, 0]
        >>> ranking = rank_systems(y, {"a": [1, 1, 0, 0, 1, 0, 0, 1, 1, 1, 0, 0],
        ...                            "b": [0, 1, 1, 0, 1, 0, 0, 1, 0, 1, 1, 0]},
        ...                        n_draws=2000, random_state=0)
        >>> list(ranking.summary().index)
        ['b', 'a']
        """
        import pandas as pd

        bounds = self.interval(confidence)
        table = pd.DataFrame({"prob_best": self.prob_best, "mc_error": self.mc_error,
                              "expected_rank": self.expected_rank,
                              "prob_within_rope_of_best": self.prob_within_rope_of_best,
                              "mean": self.values.mean(axis=0),
                              "low": bounds["low"], "high": bounds["high"]},
                             index=self.prob_best.index)
        return table.sort_values("expected_rank", kind="stable")

    def to_dict(self):
        """The result's figures as a dict of plain Python values.

        Returns
        -------
        dict
            ``prob_best``, ``mc_error``, ``expected_rank`` and
            ``prob_within_rope_of_best`` (dicts by system), ``pairwise`` and
            ``rank_probabilities`` (dicts of dicts by row, then column), and
            the settings.

        Examples
        --------
        >>> from skprobeval import rank_systems
        >>> y = [0, 1, 1, 0, 1, 1, 0, 1, 0, 1, 1, 0]
        >>> ranking = rank_systems(y, {"a": [1, 1, 0, 0, 1, 0, 0, 1, 1, 1, 0, 0],
        ...                            "b": [0, 1, 1, 0, 1, 0, 0, 1, 0, 1, 1, 0]},
        ...                        n_draws=2000, random_state=0)
        >>> sorted(ranking.to_dict())[:4]
        ['average', 'expected_rank', 'higher_is_better', 'mc_error']
        """
        return {"prob_best": plain_series(self.prob_best),
                "mc_error": plain_series(self.mc_error),
                "expected_rank": plain_series(self.expected_rank),
                "prob_within_rope_of_best": plain_series(self.prob_within_rope_of_best),
                "pairwise": plain_frame(self.pairwise),
                "rank_probabilities": plain_frame(self.rank_probabilities),
                "metric": self.metric, "average": self.average, "prior": self.prior,
                "rope": self.rope, "n_draws": self.n_draws,
                "higher_is_better": self.higher_is_better,
                **({} if self.n_clusters is None else {"n_clusters": self.n_clusters})}

    def plot(self, *, ax=None):
        """Heat map of `rank_probabilities`, systems best first (by expected rank).

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Where to draw.

        Returns
        -------
        matplotlib.axes.Axes

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> from skprobeval import rank_systems
        >>> y = [0, 1, 1, 0, 1, 1, 0, 1, 0, 1, 1, 0]
        >>> ranking = rank_systems(y, {"a": [1, 1, 0, 0, 1, 0, 0, 1, 1, 1, 0, 0],
        ...                            "b": [0, 1, 1, 0, 1, 0, 0, 1, 0, 1, 1, 0]},
        ...                        n_draws=2000, random_state=0)
        >>> ranking.plot().get_xlabel()
        'rank'
        """
        from .._core import plot_rank_probabilities

        order = self.expected_rank.sort_values(kind="stable").index
        return plot_rank_probabilities(self.rank_probabilities.loc[order], ax=ax)

    def __repr__(self):
        return (f"SystemRanking(metric={self.metric!r}, prob_best={limited(self.prob_best)}, "
                f"expected_rank={limited(self.expected_rank, 3)}, "
                f"max_mc_error={rounded(self.mc_error.max())}, prior={rounded(self.prior)}, "
                f"rope={rounded(self.rope)}, n_draws={self.n_draws})")

    def _caption(self):
        return (
            f"SystemRanking: {len(self.names)} systems by {self.metric} "
            f"({self.average}), prior {self.prior:g}, rope {self.rope:g}, "
            f"{self.n_draws} draws; metric interval 95%")


# ---------------------------------------------------------------------------
# Metric draws
# ---------------------------------------------------------------------------


def _label_metric_draws(joint, spec, average, labels, lam, beta, n_draws, rng, chance=False):
    """(n_draws, n_systems) metric draws of the systems of `joint`.

    Systems with identical predictions are drawn once (they tie in every
    draw).  With ``chance=True`` (label averages) returns ``(draws, above)``
    with ``above`` each system's number of draws whose Powers bookmaker
    informedness exceeds 0, read off the same table draws (before the
    F-scores' own prior on TP).
    """
    distinct, of_system = [], []
    for j, codes in enumerate(joint.codes[1:]):
        same = next((k for k, d in enumerate(distinct)
                     if np.array_equal(joint.codes[1 + d], codes)), None)
        if same is None:
            distinct.append(j)
            same = len(distinct) - 1
        of_system.append(same)
    if len(distinct) < len(of_system):
        joint = joint.with_codes([joint.codes[0]] + [joint.codes[1 + d] for d in distinct])
    check_target_metric(joint, spec.name, average)
    combine = "binary" if joint.kind == "binary" else average
    every = joint.kind == "multiclass" and joint.n_requested == joint.n_classes
    share = every and spec.name in SHARE_OF_RIGHT | {"error"}
    n_sys = len(joint.codes) - 1
    masks = label_masks(joint, labels, average)
    if combine == "binary" or (share and combine == "micro"):
        masks = [None] * n_sys
    masks = [slice(None) if mask is None else mask for mask in masks]
    weights = [label_weights(joint.counts(system + 1)[mask], combine, spec.name)
               if combine != "binary" else None for system, mask in enumerate(masks)]
    params = {"beta": beta} if "beta" in spec.params else {}
    table = JointSystems(joint, lam)
    # Label averages of F-scores take their own prior on TP (multiclass tables).
    extra = f_score_mass(joint.kind, joint.n_classes, spec.name, combine, lam)
    out, above = [], np.zeros(n_sys, dtype=np.int64)
    if chance:
        bookmaker = get_metric("informedness").function
        # A binary table's own informedness; Powers' bookmaker over labels otherwise.
        bookmaker_weights = None if combine == "binary" else [
            label_weights(joint.counts(system + 1)[mask], "powers", "informedness")
            for system, mask in enumerate(masks)]
    for true, systems in table.sample(n_draws, rng):
        chunk = np.empty((true.shape[0], n_sys))
        systems = [label_cells(tp, pred, true, 1.0) for pred, tp in systems]
        if chance:
            for j, cells in enumerate(systems):
                if bookmaker_weights is None:
                    with np.errstate(all="ignore"):
                        values = bookmaker(*(c[:, 0] for c in cells))
                else:
                    values = average_values(bookmaker, {}, tuple(c[:, masks[j]] for c in cells),
                                            "powers", bookmaker_weights[j])
                above[j] += int(np.count_nonzero(values > 0.0))
        systems = add_f_score_prior(systems, extra, table, rng)
        for j, cells in enumerate(systems):
            if combine == "binary":
                with np.errstate(all="ignore"):
                    values = spec.function(*(c[:, 0] for c in cells), **params)
            else:
                values = average_values(spec.function, params,
                                        tuple(c[:, masks[j]] for c in cells), combine,
                                        weights[j], share_of_right=share)
            if spec.name == "error" and share and combine == "micro":
                values = 1.0 - values
            chunk[:, j] = values
        out.append(chunk)
    draws = np.concatenate(out)[:, of_system]
    return (draws, above[of_system]) if chance else draws


def _score_metric_draws(metric, y_true, scores, names, pos_label, sample_weight, prior,
                        n_draws, rng, groups=None):
    """(n_draws, n_systems) AP or AUC draws, every system weighed by the same draw, the
    boundary mass λ they were drawn with (`ranking_prior` of `prior`), and the clusters
    they rest on (None without `groups` or where every cluster is one item)."""
    relevant, first, weight = check_curve_input(y_true, scores[0], pos_label, sample_weight,
                                           f"predictions[{names[0]!r}]")
    arrays = [first]
    for values, name in zip(scores[1:], names[1:]):
        array = check_real_array(values, f"predictions[{name!r}]")
        check_same_length(relevant, array, "y_true", f"predictions[{name!r}]")
        arrays.append(array)
    keep = weight > 0
    rel, w = relevant[keep], weight[keep]
    lam = ranking_prior(prior, metric, w[rel].sum())
    orders = [_ranking_order(rel, array[keep]) for array in arrays]
    clusters = None if groups is None else score_clusters(groups, keep, weight)
    if clusters is not None:
        # The clusters' Bayesian bootstrap, its weights shared by every system.
        return (clustered_score_draws(metric, rel, w, orders, clusters, lam, n_draws, rng),
                lam, clusters.n_clusters)
    owns = [_ranking_own(rel, w, order, starts, lam) for order, starts in orders]
    out = []
    for cells, pseudo, negatives in score_chunks(metric, w, rel, lam, n_draws, rng):
        out.append(np.stack([_paired_metric(metric, cells, rel, order, starts, pseudo,
                                            negatives, own)
                             for (order, starts), own in zip(orders, owns)], axis=1))
    return np.concatenate(out), lam, None


# ---------------------------------------------------------------------------
# Entry point
# ---------------------------------------------------------------------------


def _from_counts(counts, predictions, labels, pos_label, average, sample_weight):
    """The settings of a `JointCounts` given as `y_true`: (labels, pos_label, average).

    The call's own must be left at their defaults or be those of the counts.
    """
    if predictions is not None:
        fail("predictions", "None when `y_true` is a JointCounts (it holds the systems' "
             "predictions)", predictions, error=TypeError)
    if sample_weight is not None:
        fail("sample_weight", "None when `y_true` is a JointCounts (its counts are weighted "
             "already)", sample_weight)
    if labels is not None:
        labels = np.asarray(to_host(labels, "labels"))
        if counts.labels is None or not np.array_equal(labels, counts.labels):
            _not_the_counts("labels", labels, None, counts.labels)
    if not (_is_one(pos_label) or pos_label == counts.pos_label):
        _not_the_counts("pos_label", pos_label, 1, counts.pos_label)
    if average not in ("binary", counts.average):
        _not_the_counts("average", average, "binary", counts.average)
    return counts.labels, counts.pos_label, counts.average


def _is_one(value):
    return isinstance(value, numbers.Integral) and not isinstance(value, bool) and value == 1


def _not_the_counts(name, value, default, own):
    own = own.tolist() if isinstance(own, np.ndarray) else own
    fail(name, f"left at its default ({default!r}) or the JointCounts' own ({own!r}) when "
         "`y_true` is a JointCounts", value)


@renamed_keyword("n_samples", "n_draws")
def rank_systems(y_true, predictions=None, *, metric="accuracy", average="binary", labels=None,
                 pos_label=1, beta=1.0, prior=None, rope=0.0, pooling="partial",
                 n_draws=N_DRAWS, random_state=None, sample_weight=None, groups=None,
                 proxy=None):
    """Rank several systems evaluated on the same items, from one joint posterior.

    Every posterior draw is one Dirichlet draw of the joint table (true
    label, prediction of each of the N systems) shared by all systems, and
    gives every system's metric; ranking the systems in each draw gives the
    probability that each is the best, of each rank, and of each beating
    each other.  Because one draw weighs all systems, what they share (the
    items all get right, the mistakes several make) moves their metrics
    together: the ranks honour the pairing as `compare_paired_metric` does
    for two systems, and with N = 2 `pairwise` is its ``prob_first_better``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_labels), or JointCounts
        True labels, or a multilabel indicator matrix; or a `JointCounts`,
        the items' combinations of labels counted already (for example
        batch by batch), which stands for those items: the ranking is the
        one of the items, draw for draw under the same `random_state`.
        With a JointCounts, `predictions` and `sample_weight` are None, and
        `average`, `labels` and `pos_label` are its own (left at their
        defaults here, or equal to its own); scores cannot be counted, so
        the metric is one of labels.
    predictions : dict of str to array-like, or DataFrame, default=None
        Each system's predicted labels (for ``metric="average_precision"``
        or ``"roc_auc"``: its scores, higher meaning more positive) on the
        same items, by name; or a DataFrame with one column per system.  At
        least two systems.  NumPy, pandas or Dask arrays; with Dask arrays
        (and a Dask `y_true`) the items are reduced, in one pass, to their
        distinct combinations of labels and the number of items of each,
        never loaded whole (not for scores, which would have to be ranked).
        None when `y_true` is a `JointCounts`.
    metric : str, default="accuracy"
        A name from `available_metrics`, or ``"average_precision"`` /
        ``"roc_auc"`` to rank scores (the paired model of `compare_scores`).
    average : {"binary", "micro", "macro", "weighted", "powers"}, default="binary"
        As in `compare_paired_metric`; ``None`` is refused (a ranking needs
        one number per system).  ``"binary"`` for the ranking metrics.
    labels : array-like, default=None
        Labels to average over, in order (they must occur in the data); by
        default every label, each system averaged over the labels of the
        truth and of its own predictions, as scikit-learn averages.
    pos_label : int, float, bool or str, default=1
        The positive class of ``average="binary"`` and of the ranking metrics.
    beta : float, default=1.0
        F-beta / E-measure weight (for ``metric="fbeta"`` or ``"e_measure"``).
    prior : float or {"jeffreys", "uniform"}, default=None
        λ of the joint table (see Notes), 0.5 by default, as in
        `compare_paired_metric`; for the ranking metrics the boundary mass
        of `compare_scores`, its ``"auto"`` by default (0.1 for ROC AUC; for
        average precision 0.1 up to 30 positives, ``3 / P`` above).
    rope : float, default=0.0
        Region of practical equivalence of `SystemRanking.pairwise` and
        `SystemRanking.prob_within_rope_of_best`: in [0, 1), or [0, 2) for
        informedness, markedness and MCC.
    pooling : {"partial", "none"}, default="partial"
        ``"partial"``: the systems' metrics are drawn towards each other as
        far as the data cannot tell them apart (a normal hierarchical model
        over the systems, see Notes), so that near-equal systems are not
        ranked with more confidence than the test set supports.
        ``"none"``: the joint table's posterior as it is (each system's
        metric as `metric_posterior` gives it, pairs as
        `compare_paired_metric`).  Two systems are never pooled.
    n_draws : int, default=10_000
        Posterior draws.
    random_state : None, int or numpy.random.Generator, default=None
        Seed (identical seeds give identical results).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative item weights; they act as counts.
    groups : array-like of shape (n_samples,), default=None
        Cluster of each item (a patient, a document: any sortable ids); with
        Dask labels a Dask array or series, counted with them.  The joint
        table is then the
        Bayesian bootstrap of the clusters: each cluster's items share one
        weight in every draw, for every system, so that the ranks are as
        uncertain as the number of clusters makes them (see
        `metric_posterior`).  Where every cluster holds one item the ranking
        is exactly the one without `groups`.  `sample_weight` weighs items
        within their clusters; every cluster is one draw.  For
        ``"average_precision"`` and ``"roc_auc"`` the draws are those of
        `compare_scores` with `groups`, one cluster weight for every
        system.  Not with a `JointCounts`.
    proxy : array-like of shape (n_samples,), default=None
        A second labeller's label of every item, where `y_true` holds a
        missing value (NaN, None, pandas' NA, masked) for the items without a
        gold label: the joint table is then drawn from the items' (proxy,
        predictions) shares and the gold label's shares within each from the
        labelled items (see `metric_posterior`).  NumPy or pandas labels of a
        single-label target; not with `groups`, nor for ``"average_precision"``
        and ``"roc_auc"``.  The ranking is not planned (`plan_more_items`).

    Returns
    -------
    SystemRanking

    See Also
    --------
    compare_paired_metric : Two systems on the same items.
    compare_predictions : The report of several systems, pair by pair.
    rank_across_datasets : Several systems ranked across data sets.
    JointCounts : The items' combinations of labels, counted batch by batch.

    Notes
    -----
    **Prior.**  With d = 2λ/K (λ for K = 2 classes) the table's prior mass
    is 2d per true label, spread as if each system were right or wrong by a
    fair coin, independently, the systems that are wrong all giving one
    wrong label, uniform among the K - 1 others.  By the aggregation
    property the table of any one system then has the prior of
    `metric_posterior` (d on the diagonal, d / (K - 1) off it, 4λ in all)
    and the table of any two systems has the prior of
    `compare_paired_metric` (d/2 on both-right cells, d / (2(K - 1)) on
    only-one-right and same-mistake cells, nothing where both are wrong
    with different labels); for K = 2 each of the 2^(N+1) cells gets
    λ / 2^(N-1).  The prior's 4λ is drawn as a Gamma total split by
    stick-breaking over the prior's cells, truncated once the share left is
    below 2^-100 (the user guide details it); a prior of at most 128 cells
    (2^(N+1) for K = 2: up to 6 systems) is drawn cell by cell instead.  Label averages of F-scores
    add to each label's TP a Gamma(λ - d) mass of their own, shared by
    the systems (λ on TP, as `fbeta_posterior`).  For accuracy the pairwise
    probabilities with ``rope=0`` are exactly those of `compare_paired`
    (only the masses of "first right alone" and "second right alone", λ
    each, matter); with ``rope > 0`` the rest of the table carries 2λ here
    and λ there.

    **Partial pooling.**  Rank probabilities from a posterior in which each
    system's metric is free are overconfident when the systems differ by
    less than the test set resolves: among five systems whose accuracies
    differ by about 0.01 on 300 items, those given P(best) of 0.6-0.8 were
    best 43% of the time.  With ``pooling="partial"`` the true metrics, on
    the logit scale of the metric's range, are modelled as
    ``θ_i = μ + δ_i``, ``δ_i ~ N(0, τ²)`` (flat prior on ``μ``, uniform
    prior on ``τ`` up to 10 logits), with the joint table's posterior draws
    on that scale (their mean and covariance, which carry the pairing) as
    the data, so that the pooled draws stay inside the metric's range;
    each draw is moved to the conditional posterior of the pooled model
    for a ``τ`` drawn from its posterior, which keeps clear
    differences and pulls noise-level ones together (the hierarchical
    normal model with a uniform prior on the spread, Gelman 2006).  The
    coverage benchmark measures both settings; the user guide's page on
    ranking systems shows the figures.
    Three or more distinct systems are needed to estimate the spread; with
    two, both settings are the same.

    **Identical systems.**  Systems whose predictions agree on every item
    are one classifier on these data: they tie in every draw, sharing their
    ranks.

    **Large counts.**  Where every system's TP, FP, FN and TN, and the
    items on which each pair of systems differs, number at least 2 000
    (binary targets), the data part of each draw's per-label sums is drawn
    as one normal with the exact mean and covariance of its Gamma(count)
    variates instead of one variate per observed cell; the prior and the
    division by the total stay exact.  Measured against the exact route at
    that bound, P(best), the rank probabilities and the pairwise
    probabilities differ by at most 0.002 (the theory page on rankings).

    **Dask and counts.**  Labels from Dask arrays are counted in one pass as
    distinct label combinations, and a `JointCounts` holds them already;
    the draws then cost what they cost for NumPy input with as many
    distinct combinations.

    Examples
    --------
    >>> import numpy as np
    >>> from skprobeval import rank_systems
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 3, 1000)
    >>> def noisy(accuracy):
    ...     return np.where(rng.random(1000) < accuracy, y, rng.integers(0, 3, 1000))
    >>> predictions = {"a": noisy(0.80), "b": noisy(0.78), "c": noisy(0.70)}
    >>> ranking = rank_systems(y, predictions, metric="f1", average="macro", random_state=0)
    >>> ranking.prob_best.round(2)
    a    0.97
    b    0.03
    c    0.00
    Name: prob_best, dtype: float64
    >>> ranking.expected_rank.round(2)
    a    1.03
    b    1.98
    c    2.99
    Name: expected_rank, dtype: float64
    >>> ranking.rank_probabilities.round(2)
    rank     1     2     3
    a     0.97  0.03  0.00
    b     0.03  0.95  0.01
    c     0.00  0.01  0.99

    The same items in 50 clusters of 20 (say, patients), each cluster one
    draw from the population:

    >>> patient = np.repeat(np.arange(50), 20)
    >>> clustered = rank_systems(y, predictions, metric="f1", average="macro",
    ...                          random_state=0, groups=patient)
    >>> clustered.prob_best.round(2)
    a    0.95
    b    0.05
    c    0.00
    Name: prob_best, dtype: float64
    """
    counted = isinstance(y_true, JointCounts)
    check_ranking_groups(groups, counted)
    if counted:
        if metric in _RANKING_METRICS:
            fail("metric", "a metric of labels when `y_true` is a JointCounts (it counts "
                 "predicted labels; average_precision and roc_auc rank scores)", metric)
        labels, pos_label, average = _from_counts(y_true, predictions, labels, pos_label,
                                                  average, sample_weight)
        names = list(y_true.names)
    else:
        names, values = prediction_systems(predictions)
    if metric in _RANKING_METRICS:
        name, higher = metric, True
        if proxy is not None:
            fail("proxy", f"None for metric {metric!r} (rankings of scores take no second "
                 "labeller; a metric of predicted labels does)", "an array", error=TypeError)
        if average != "binary":
            fail("average", f"'binary' for metric {metric!r} (scores rank one positive "
                 "class)", average)
        if labels is not None:
            fail("labels", f"None for metric {metric!r} (scores rank one positive class)",
                 labels)
        prior = check_prior("auto" if prior is None else prior, auto=True)
        rope = check_rope(rope)
        width = 1.0
    else:
        spec = get_metric(metric)
        name, higher = spec.name, spec.higher_is_better
        average = check_average(average, spec.name)
        if average is None:
            fail("average", "'binary', 'micro', 'macro', 'weighted' or 'powers' (a ranking "
                 "needs one number per system)", average)
        lam = check_prior(0.5 if prior is None else prior)
        width = range_width(spec.name)
        rope = check_rope(rope, width=width)
    if pooling not in ("partial", "none"):
        fail("pooling", "'partial' or 'none'", pooling)
    beta = check_positive(beta, "beta")
    n_draws = check_draws(n_draws, values_per_draw=len(names))
    rng = check_random_state(random_state)
    label_names = ["y_true", *[f"predictions[{system!r}]" for system in names]]
    if metric in _RANKING_METRICS:
        if is_dask(y_true, *values, sample_weight):
            fail("predictions", f"NumPy or pandas scores for metric {metric!r} (ranking "
                 "scores would load every item)", predictions, error=TypeError,
                 shown="Dask collections")
        draws, lam, n_clusters = _score_metric_draws(metric, y_true, values, names,
                                                     pos_label, sample_weight, prior,
                                                     n_draws, rng, groups)
    elif proxy is not None:
        if counted or groups is not None or is_dask(y_true, *values):
            fail("proxy", "None with a JointCounts, with `groups` or with Dask labels (the "
                 "second labeller's items are read from NumPy or pandas labels)", "an array",
                 error=TypeError)
        _, _, chunks = proxy_metric_draws(
            to_host(y_true, "y_true"), [to_host(v, name) for v, name in
                                        zip(values, label_names[1:])],
            to_host(proxy, "proxy"), spec=spec, average=average, labels=labels, lam=lam,
            beta=beta, pos_label=pos_label, n_draws=n_draws, rng=rng,
            sample_weight=to_host(sample_weight, "sample_weight"),
            pred_names=label_names[1:])
        draws = np.concatenate(list(chunks))
    else:
        if counted:
            # The distinct combinations, their counts as weights, as Dask input reaches here.
            arrays, weight = [y_true.y_true, *y_true.y_pred.T], y_true.counts
        else:
            # With Dask input the clusters are counted with the labels: each distinct
            # combination of labels and cluster is one row weighted by its count.
            extra = [] if groups is None else [groups]
            arrays, weight, _ = resolve_columns(
                None, [y_true, *values, *extra], label_names + ["groups"] * len(extra),
                sample_weight, distinct_arrays=True,
                label_names=label_names + ["groups"] * len(extra))
            if groups is not None:
                groups, arrays = arrays[-1], arrays[:-1]
        joint = joint_codes(arrays[0], arrays[1:], average=average, labels=labels,
                            pos_label=pos_label, sample_weight=weight, labels_present=True,
                            names=label_names, groups=groups)
        draws = _label_metric_draws(joint, spec, average, labels, lam, beta, n_draws, rng)
    defined = np.all(np.isfinite(draws), axis=1)
    if not defined.all():
        # Draws where a metric is undefined (cells underflowed under priors far
        # below 1) are left out.
        draws = draws[defined]
    if draws.shape[0] == 0:
        fail("prior", "large enough for the metric to be defined in some draws", prior)
    if pooling == "partial":
        # On the logit scale of the metric's range, [1 - width, 1] ([-1, 1] for
        # the signed metrics, [0, 1] otherwise), so that the draws stay inside it.
        draws = pool_in_range(draws, 1.0 - width, 1.0, rng, higher)
    ranking = ranking_from_draws(draws, names, metric=name, average=average, prior=lam,
                                 rope=rope, higher_is_better=higher, pooling=pooling)
    if metric in _RANKING_METRICS:
        return ranking if n_clusters is None else replace(ranking, n_clusters=n_clusters)
    if proxy is not None:
        return ranking
    if joint.clusters is not None and not joint.clusters.singletons:
        ranking = replace(ranking, n_clusters=joint.clusters.n_clusters)
    # What `plan_more_items` recomputes the ranking from, with more items.
    return replace(ranking, _source=RankingSource(
        joint, names, metric=name, average=average, labels=labels, pos_label=pos_label,
        lam=lam, beta=beta, pooling=pooling, width=width, higher=higher))


def ranking_of_clustered_draws(draws, names, *, metric, average, prior, rope, random_state,
                               n_clusters, pooling="partial"):
    """`rank_systems`' ranking of draws of its clustered joint table, drawn already.

    A report of items in clusters draws every system's metric from the
    clustered joint table of the truth and all systems (`_label_metric_draws`,
    as `rank_systems` does); its ranking is those draws pooled and ranked as
    `rank_systems` would, without drawing the table again.  Undefined draws
    (NaN) are left out.
    """
    spec = get_metric(metric)
    draws = np.asarray(draws, dtype=float)
    draws = draws[np.all(np.isfinite(draws), axis=1)]
    if draws.shape[0] == 0:
        fail("prior", "large enough for the metric to be defined in some draws", prior)
    if pooling == "partial":
        draws = pool_in_range(draws, 1.0 - range_width(spec.name), 1.0,
                              check_random_state(random_state), spec.higher_is_better)
    ranking = ranking_from_draws(draws, names, metric=spec.name, average=average, prior=prior,
                                 rope=rope, higher_is_better=spec.higher_is_better,
                                 pooling=pooling)
    return replace(ranking, n_clusters=n_clusters)


def ranking_from_draws(draws, names, *, metric, average, prior, rope, higher_is_better,
                       pooling):
    """The `SystemRanking` of joint posterior draws, one column per system.

    The one place where draws of several systems' metrics become rank
    probabilities, P(best), expected ranks and pairwise probabilities:
    `rank_systems` passes the draws of its joint table, `compare_counts` the
    independent draws of its systems (or of their means over runs).
    """
    import pandas as pd

    draws = np.asarray(draws, dtype=float)
    draws.setflags(write=False)
    ranks, prob_best, error, above, within = rank_figures(draws, higher_is_better, rope)
    index = pd.Index(names)
    return SystemRanking(
        prob_best=pd.Series(prob_best, index=index, name="prob_best"),
        mc_error=pd.Series(error, index=index, name="mc_error"),
        expected_rank=pd.Series(ranks @ np.arange(1, len(names) + 1), index=index,
                                name="expected_rank"),
        rank_probabilities=pd.DataFrame(ranks, index=index,
                                        columns=pd.Index(range(1, len(names) + 1),
                                                         name="rank")),
        pairwise=pd.DataFrame(above, index=pd.Index(names, name="first"),
                              columns=pd.Index(names, name="second")),
        prob_within_rope_of_best=pd.Series(within, index=index,
                                           name="prob_within_rope_of_best"),
        values=draws, names=tuple(names), metric=metric, average=average, prior=prior,
        rope=rope, n_draws=int(draws.shape[0]), higher_is_better=higher_is_better,
        pooling=pooling)
