"""Bayesian posteriors of confusion-table metrics from labels or counts.

The builders here (`metric_posterior`, `exact_posterior`,
`posterior_from_codes`, `exact_average_mean` and the metric checks) count once
with `ConfusionCounts` and turn the Dirichlet(TP + λ, FP + λ, FN + λ, TN + λ)
posterior into the posterior objects of `skprobeval._posteriors._posterior`:
exact kinds where the registry records a recipe, Dirichlet sampling for other
metrics, user functions and macro or weighted averages; they serve the
per-metric wrappers of `skprobeval._posteriors._posterior_api`, the
comparisons, the scorers and the reports.  Derivations: the theory pages
``docs/theory/dirichlet_model.rst`` and ``docs/theory/multiclass_prior.rst``.
"""

from __future__ import annotations

import math

import numpy as np

from .._core import (
    N_DRAWS,
    check_draws,
    check_positive,
    check_prior,
    check_random_state,
    fail,
    renamed_keyword,
    to_host,
    warn_future,
)
from .._counting import (
    ConfusionCounts,
    ConfusionMatrix,
    joint_codes,
    matrix_items,
    positive_position,
)
from .._metrics import (
    SHARE_OF_RIGHT,
    MetricSpec,
    check_average,
    check_metric_target,
    get_metric,
    label_weights,
)
from ._joint import (
    JointTable,
    add_f_score_prior,
    average_values,
    dirichlet,
    f_score_mass,
    label_concentration,
    label_prior,
    takes_f_score_prior,
)
from ._posterior import BetaPosterior, ClusteredPosterior, ExactMeanPosterior, SampledPosterior
from ._posterior_affine import AffinePosterior
from ._posterior_difference import DifferencePosterior
from ._posterior_fbeta import FBetaPosterior
from ._proxy import proxy_posterior

__all__ = ["metric_posterior"]

_AVERAGES = ("binary", "micro", "macro", "weighted", "powers", None)


# ---------------------------------------------------------------------------
# Validation helpers
# ---------------------------------------------------------------------------


def _check_average(average):
    if average not in _AVERAGES:
        fail("average", "one of 'binary', 'micro', 'macro', 'weighted', 'powers' or None",
             average)
    return average


def _is_one(value):
    try:
        return bool(value == 1) and not isinstance(value, bool)
    except (TypeError, ValueError):
        return False


def _check_counts(counts):
    if not isinstance(counts, ConfusionCounts):
        fail("counts", "a ConfusionCounts", counts, error=TypeError)
    return counts


# ---------------------------------------------------------------------------
# Exact posteriors on counts
# ---------------------------------------------------------------------------


_CELLS = ("tp", "fp", "fn", "tn")


def _cell_sum(counts, cells, lam, share=1.0):
    """The cells' counts plus `share` times their prior concentrations."""
    if np.ndim(lam) == 0:
        return sum(getattr(counts, cell) for cell in cells) + share * lam * len(cells)
    return sum(getattr(counts, cell) + share * lam[_CELLS.index(cell)] for cell in cells)


def _from_recipe(recipe, counts, lam, beta):
    kind = recipe[0]
    if kind == "beta":
        return BetaPosterior(_cell_sum(counts, recipe[1], lam), _cell_sum(counts, recipe[2], lam))
    if kind == "share":
        # The share of all items right (or wrong) is a proportion of its own, with
        # half the prior mass of the cells it pools: Beta(right + λ, wrong + λ),
        # Jeffreys' interval at λ = 1/2.  The pooled cells' own mass (2λ a side,
        # one pseudo-error at the default) misses a near-perfect accuracy at
        # n <= 100 (see the coverage page of the documentation).
        return BetaPosterior(_cell_sum(counts, recipe[1], lam, 0.5),
                             _cell_sum(counts, recipe[2], lam, 0.5))
    if kind == "fbeta":
        tp, fp, fn = (_cell_sum(counts, (cell,), lam) for cell in ("tp", "fp", "fn"))
        return FBetaPosterior(tp, fp, fn, beta=beta)
    if kind == "difference":
        (a, b), (c, d) = recipe[1], recipe[2]
        return DifferencePosterior(
            BetaPosterior(_cell_sum(counts, a, lam), _cell_sum(counts, b, lam)),
            BetaPosterior(_cell_sum(counts, c, lam), _cell_sum(counts, d, lam)))
    _, scale, shift, inner = recipe
    return AffinePosterior(_from_recipe(inner, counts, lam, beta), scale, shift)


def exact_posterior(counts, metric, lam, beta=1.0):
    """The exact posterior of a registered metric (its registry recipe), or None.

    The recipe in `MetricSpec.exact` is the one place that says which
    metrics are exact; `metric_posterior` and `compare_independent` both
    read it through this function.  F-beta is F1 at ``beta=1``.  `lam` is
    the prior concentration of every cell, or four, one per cell (TP, FP,
    FN, TN): a label's one-vs-rest table aggregated from the K x K table.
    """
    spec = get_metric(metric)
    if spec.exact is None:
        return None
    beta = beta if "beta" in spec.params else 1.0
    return _from_recipe(spec.exact, counts, lam, beta)


def exact_average_mean(counts, metric, lam, beta, average, weights):
    """The exact posterior mean of a label average, or None where it is sampled.

    A macro, weighted or Powers average is a fixed-weight mean of the labels'
    metrics (the weights are observed shares), so its posterior mean is the
    same mean of the labels' posterior means: exact wherever each label's
    posterior is (`exact_posterior`, with the prior `lam` of each label's
    cells).  None for metrics sampled per label (MCC, K-measure, callables)
    and for cells without prior mass (one class: no exact kind applies).
    The sum is exactly rounded (``math.fsum``): the same whatever the order
    of the labels.
    """
    if metric is None or average not in ("macro", "weighted", "powers"):
        return None
    if np.any(np.asarray(lam, dtype=float) <= 0):
        return None
    posterior = exact_posterior(counts, metric, lam, beta)
    if posterior is None:
        return None
    means = np.atleast_1d(np.asarray(posterior.mean(), dtype=float))
    if average == "macro" or weights is None or np.sum(weights) == 0:
        weights = np.ones(means.shape[0])
    weights = np.asarray(weights, dtype=float)
    mean = math.fsum((weights * means).tolist()) / math.fsum(weights.tolist())
    counted = means[weights > 0]      # inside the range of the means averaged
    return float(min(max(mean, counted.min()), counted.max()))




# ---------------------------------------------------------------------------
# Dirichlet sampling
# ---------------------------------------------------------------------------


def sample_cells(counts, lam, n_draws, rng):
    """(tp, fp, fn, tn) probabilities drawn from each table's 4-cell Dirichlet.

    `lam` is the concentration of every cell, or four, one per cell.
    """
    alpha = np.stack([counts.tp, counts.fp, counts.fn, counts.tn], axis=-1) + lam
    draws = dirichlet(alpha, check_draws(n_draws, values_per_draw=alpha.size), rng)
    return tuple(np.moveaxis(draws, -1, 0))


def _evaluate(function, cells, params, name):
    with np.errstate(all="ignore"):
        values = np.asarray(function(*cells, **params), dtype=np.float64)
    return _finite(values, name)


def metric_function(metric, beta):
    """(callable(tp, fp, fn, tn), its keyword params, registered name or None)."""
    if callable(metric) and not isinstance(metric, MetricSpec):
        return metric, {}, None
    spec = get_metric(metric)
    params = {"beta": beta} if "beta" in spec.params else {}
    return spec.function, params, spec.name


def posterior_from_codes(joint, metric, *, average, lam, beta, n_draws, random_state,
                         system=1, chance=False):
    """Posterior of `metric` averaged over labels, from encoded labels.

    The one model behind every average: binary data, per-label rows and
    micro averages are exact wherever the metric has an exact form; macro,
    weighted and Powers averages are sampled from the joint Dirichlet of
    `skprobeval._posteriors._joint` (the K x K table of single-label data, independent
    columns of multilabel data).

    With ``chance=True`` (labels averaged, as in the reports) returns
    ``(posterior, p)`` with ``p`` the posterior probability that Powers'
    bookmaker informedness over the labels exceeds 0; where the metric's
    posterior is sampled, from the same table draws (one pass over the
    table instead of two).
    """
    function, params, name = metric_function(metric, beta)
    check_target_metric(joint, name, average)
    if joint.clusters is not None and not joint.clusters.singletons:
        return _clustered_posterior(joint, metric, function, params, name, average=average,
                                    lam=lam, beta=beta, n_draws=n_draws,
                                    random_state=random_state, system=system, chance=chance)
    if joint.clusters is not None:
        # Every cluster holds one item: the posterior without them, exactly.
        joint = joint.with_clusters(None)
    counts = joint.counts(system)
    if joint.kind == "binary" or average is None:
        exact = metric_posterior(counts, metric=name, prior=lam, beta=beta, n_draws=n_draws,
                                 random_state=random_state)
        return _with_chance(exact, chance, joint, lam, n_draws, random_state, system)
    if average == "micro":
        if joint.kind == "multilabel":
            exact = metric_posterior(counts.sum(), metric=name, prior=lam, beta=beta,
                                     n_draws=n_draws, random_state=random_state)
            return _with_chance(exact, chance, joint, lam, n_draws, random_state, system)
        exact = micro_multiclass(joint, counts, name, lam)
        if exact is not None:
            return _with_chance(exact, chance, joint, lam, n_draws, random_state, system)
    rng = check_random_state(random_state)
    table = JointTable(_single(joint, system), lam)
    every = joint.kind == "multiclass" and joint.n_requested == joint.n_classes
    weights = label_weights(counts, average, name)
    # Labels averaged in the table's canonical order: the same sums whatever their names.
    order = table.canonical
    ordered_weights = None if weights is None else weights[order]
    if chance:
        bookmaker_weights = label_weights(counts, "powers", "informedness")[order]
        informedness = get_metric("informedness").function
    parts, above = [], 0
    # A label's F-score takes its own prior on TP (label averages of multiclass tables).
    extra = f_score_mass(joint.kind, joint.n_classes, name, average, lam)
    for (ordered,) in table.sample(n_draws, rng, canonical=True):
        f_cells = add_f_score_prior([ordered], extra, table, rng)[0] if extra \
            else ordered
        parts.append(average_values(function, params, f_cells, average, ordered_weights,
                                    share_of_right=every and name in SHARE_OF_RIGHT))
        if chance:
            values = _finite(average_values(informedness, {}, ordered, "powers",
                                            bookmaker_weights), "informedness")
            above += int(np.count_nonzero(values > 0.0))
    samples = _finite(np.concatenate(parts), "metric")
    posterior = sampled_average(samples, counts, name, lam, beta, average, weights, joint)
    return (posterior, above / samples.shape[0]) if chance else posterior


def _clustered_posterior(joint, metric, function, params, name, *, average, lam, beta, n_draws,
                         random_state, system, chance):
    """`posterior_from_codes` where items come in clusters: the clusters' Bayesian
    bootstrap of the joint table (`JointTable` with clusters), sampled for every
    metric, as a `ClusteredPosterior` with its effective number of items."""
    rng = check_random_state(random_state)
    single = _single(joint, system)
    table = JointTable(single, lam)
    counts = joint.counts(system)
    combine = "binary" if joint.kind == "binary" else average
    every = joint.kind == "multiclass" and joint.n_requested == joint.n_classes
    share = every and name in SHARE_OF_RIGHT
    averaged = combine not in ("binary", None)
    weights = label_weights(counts, average, name) if averaged else None
    order = table.canonical if averaged else slice(None)
    ordered_weights = None if weights is None else weights[order]
    extra = f_score_mass(joint.kind, joint.n_classes, name, average, lam) if averaged else 0.0
    if chance:
        bookmaker_weights = label_weights(counts, "powers", "informedness")[order]
        informedness = get_metric("informedness").function
    parts, above = [], 0
    for (cells,) in table.sample(n_draws, rng, canonical=averaged):
        f_cells = add_f_score_prior([cells], extra, table, rng)[0] if extra else cells
        if combine == "binary":
            with np.errstate(all="ignore"):
                values = np.asarray(function(*(c[:, 0] for c in f_cells), **params),
                                    dtype=float)
        else:
            values = average_values(function, params, f_cells, combine, ordered_weights,
                                    share_of_right=share and combine == "micro")
        parts.append(values)
        if chance:
            values = _finite(average_values(informedness, {}, cells, "powers",
                                            bookmaker_weights if combine != "binary"
                                            else np.ones(1)), "informedness")
            above += int(np.count_nonzero(values > 0.0))
    samples = _finite(np.concatenate(parts), "metric")
    # The same table without its clusters: the variance its items alone would give.
    plain = posterior_from_codes(joint.with_clusters(None), metric, average=average, lam=lam,
                                 beta=beta, n_draws=n_draws, random_state=rng, system=system)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.asarray(plain.var(), dtype=float) / samples.var(axis=0, ddof=1)
    n_items = float(np.sum(joint.weight)) if joint.weight is not None \
        else float(joint.codes[0].shape[0])
    posterior = ClusteredPosterior(samples, n_clusters=table.clusters.n_clusters,
                                   n_items=n_items,
                                   effective_n=np.where(np.isfinite(ratio), n_items * ratio,
                                                        n_items), metric=name)
    return (posterior, above / samples.shape[0]) if chance else posterior


def _with_chance(posterior, chance, joint, lam, n_draws, random_state, system):
    """`posterior`, or with ``chance`` the pair (posterior, P(bookmaker > 0)) drawn after it."""
    if not chance:
        return posterior
    bookmaker = posterior_from_codes(joint, "informedness", average="powers", lam=lam, beta=1.0,
                                     n_draws=n_draws, random_state=random_state, system=system)
    return posterior, bookmaker.prob_greater(0.0)


def sampled_average(samples, counts, name, lam, beta, average, weights, joint):
    """The posterior of a sampled label average, with its exact mean where known.

    `samples` are draws of `name` averaged by `average` over the labels of
    `counts` (one system's per-label counts in `joint`), `weights` its label
    weights.
    """
    # The mean of a label average is the average of the labels' exact means, each
    # label's table being Dirichlet with its cells' summed prior (aggregation).
    prior = lam if joint.kind == "multilabel" else label_prior(
        joint.n_classes, lam, f_score=takes_f_score_prior(joint.kind, name, average))
    mean = exact_average_mean(counts, name, prior, beta, average, weights)
    if mean is not None:
        return ExactMeanPosterior(samples, mean)
    return SampledPosterior(samples)




def micro_multiclass(joint, counts, name, lam):
    """Exact micro posteriors of single-label multiclass data, or None.

    Under the K x K prior (d = 2λ/K on the diagonal, d/(K-1) off it) sums of
    disjoint cells are Beta: over the R requested labels, pooled precision is
    Beta(ΣTP + Rd, ΣFP + Rd) and pooled recall Beta(ΣTP + Rd, ΣFN + Rd); with
    every label, precision = recall = F = accuracy = the diagonal's share,
    which takes λ a side as the binary accuracy does, Beta(right + λ, wrong
    + λ) (the table's marginal is Beta(right + 2λ, wrong + 2λ)).
    """
    mass = joint.n_requested * label_concentration(joint.n_classes, lam)
    # Exactly rounded sums (math.fsum): the same whatever the order of the labels.
    tp, fp, fn = (math.fsum(np.ravel(c)) for c in (counts.tp, counts.fp, counts.fn))
    if joint.n_requested == joint.n_classes:
        # The share of items right, with λ a side as the binary accuracy has.
        if name in SHARE_OF_RIGHT:
            return BetaPosterior(tp + lam, fp + lam)
        if name == "error":
            return BetaPosterior(fp + lam, tp + lam)
    if name == "precision":
        return BetaPosterior(tp + mass, fp + mass)
    if name == "recall":
        return BetaPosterior(tp + mass, fn + mass)
    return None


def check_target_metric(joint, metric, average):
    """`check_metric_target` for encoded labels: the one rule of every route."""
    check_metric_target(metric, average, kind=joint.kind,
                        every_label=joint.n_requested == joint.n_classes,
                        requested=joint.classes[:joint.n_requested])


def check_counts_metric(metric, average):
    """`check_target_metric` for per-label one-vs-rest counts (no item-level labels).

    Per-label counts cannot tell the share of items right, so accuracy and
    error are refused beyond ``"micro"`` (which the caller computes as the
    share of right items only where every item is counted once), and balanced
    accuracy of several labels is macro recall.
    """
    if metric in ("accuracy", "error") and average not in ("binary", "micro"):
        fail("average", f"'micro' for metric {metric!r} of per-label counts (the share of "
             "items right, scikit-learn's accuracy_score); averages of one-vs-rest "
             "accuracies count true negatives", average)
    if metric == "balanced_accuracy" and average != "binary":
        fail("metric", "'recall' with average='macro' for the balanced accuracy of more than "
             "two classes (scikit-learn's balanced_accuracy_score is macro recall)", metric)


def _single(joint, system):
    """The codes of the truth and one system."""
    return joint.with_codes([joint.codes[0], joint.codes[system]])


def _finite(values, name):
    bad = ~np.isfinite(values)
    if np.any(bad):
        fail(name, "a function of the four cells that is finite on every posterior draw",
             name, shown=f"{int(bad.sum())} non-finite value(s) among {values.size} draws")
    return values


def _with_proxy(y_true, y_pred, proxy, *, metric, labels, pos_label, average, sample_weight,
                prior, beta, n_draws, random_state, groups):
    """`metric_posterior` of gold labels on some items and a second labeller on all."""
    if isinstance(y_true, (ConfusionCounts, ConfusionMatrix)):
        fail("proxy", "None when `y_true` is counted already (the proxy needs the items)",
             "an array", error=TypeError)
    if groups is not None:
        fail("proxy", "None with `groups` (items in clusters with a second labeller are not "
             "modelled yet)", "an array", error=TypeError)
    if y_pred is None:
        fail("y_pred", "the predicted labels", y_pred, error=TypeError)
    if metric is None:
        fail("metric", "a metric name or a callable f(tp, fp, fn, tn)", metric, error=TypeError)
    average = _check_average(average)
    if isinstance(metric, (str, MetricSpec)):
        average = check_average(average, get_metric(metric).name)
    lam, beta = check_prior(prior), check_positive(beta, "beta")
    n_draws = check_draws(n_draws)
    function, params, name = metric_function(metric, beta)
    values = to_host(y_true, "y_true")
    y_pred = to_host(y_pred, "y_pred")
    proxy = to_host(proxy, "proxy")
    if sample_weight is not None:
        sample_weight = to_host(sample_weight, "sample_weight")

    def labelled_only(gold, predicted, weight):
        return metric_posterior(gold, predicted, metric=metric, labels=labels,
                                pos_label=pos_label, average=average, sample_weight=weight,
                                prior=lam, beta=beta, n_draws=n_draws,
                                random_state=random_state)

    if np.ndim(y_pred) == 2:
        # A multilabel target: one double-sampling table per label.
        from ._proxy_multilabel import multilabel_proxy_posterior

        return multilabel_proxy_posterior(values, y_pred, proxy, function=function,
                                          params=params, name=name, average=average,
                                          labels=labels, sample_weight=sample_weight, lam=lam,
                                          n_draws=n_draws, random_state=random_state,
                                          labelled_only=labelled_only)
    posterior = proxy_posterior(values, y_pred, proxy, metric=metric, function=function,
                                params=params, name=name, average=average, labels=labels,
                                pos_label=pos_label, sample_weight=sample_weight, lam=lam,
                                n_draws=n_draws, random_state=random_state,
                                labelled_only=labelled_only)
    return posterior


def _matrix_as_items(matrix, y_pred, sample_weight):
    """The items a `ConfusionMatrix` counts: (y_true, y_pred, sample_weight).

    One item per non-zero cell, weighted by its count: counted again, these
    give the matrix's cells exactly, hence the posterior of the items the
    matrix counts (the same joint table, so the same draws under one seed).
    """
    if y_pred is not None:
        fail("y_pred", "None when `y_true` is a ConfusionMatrix (the table is counted "
             "already)", y_pred, error=TypeError)
    if sample_weight is not None:
        fail("sample_weight", "None when `y_true` is a ConfusionMatrix (its counts are "
             "weighted already)", sample_weight)
    if not matrix.n > 0:
        fail("y_true", "a ConfusionMatrix that counts some items", matrix,
             shown="a matrix of zeros")
    return matrix_items(matrix)


# ---------------------------------------------------------------------------
# Public entry points
# ---------------------------------------------------------------------------


@renamed_keyword("counts", "y_true")
@renamed_keyword("n_samples", "n_draws")
def metric_posterior(y_true, y_pred=None, *, metric=None, labels=None, pos_label=1,
                     average="binary", sample_weight=None, prior=0.5, beta=1.0, n_draws=N_DRAWS,
                     random_state=None, groups=None, proxy=None):
    """Posterior of any confusion-table metric, from labels or from confusion counts.

    All metrics are marginals of one posterior: the cell probabilities of
    each table are Dirichlet(TP + λ, FP + λ, FN + λ, TN + λ) (Goutte & Gaussier
    2005; see the theory chapter, "The Dirichlet model of a confusion table").
    Exact kinds are returned wherever they exist; anything else is sampled
    from that Dirichlet.

    ==========================================================  ==========================
    metric                                                      posterior
    ==========================================================  ==========================
    precision, recall, specificity, fallout, npv, accuracy,     `BetaPosterior` (exact)
    error, silence, noise, overlap (jaccard), generality
    f1, fbeta                                                   `FBetaPosterior` (exact)
    informedness, markedness                                    `DifferencePosterior` (exact)
    e_measure (1 - F-beta), balanced_accuracy ((1 + J) / 2)     `AffinePosterior` (exact)
    mcc, k_measure, callables                                   `SampledPosterior`
    ==========================================================  ==========================

    The table is the registry's (`MetricSpec.exact`): `compare_independent`
    reads the same recipes, so a metric is exact in both or sampled in both.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_labels), or counts
        True labels (or a label indicator matrix), or the counts themselves,
        a `ConfusionCounts` or a `ConfusionMatrix`.  A ConfusionCounts holds
        one table (0-d cells) or one per label ((K,) cells; sampled per-label
        tables are drawn independently; fractional, weighted counts work).
        A `ConfusionMatrix` stands for the items it counts: its posterior is
        that of those items (true and predicted labels, with their weights),
        with `labels`, `pos_label` and `average` as for labels, and the same
        draws under the same `random_state`.  A label whose row and column
        are empty counts no item, so it joins an average only when `labels`
        names it, as for labels.
        Every array-like here may be a NumPy or pandas array, or any DLPack or
        array-API array (PyTorch, CuPy, JAX; CPU or GPU), copied to the host
        once.
    y_pred : array-like of the same shape as `y_true`, default=None
        Predicted labels; None when `y_true` is a `ConfusionCounts` or a
        `ConfusionMatrix`.
    metric : str or callable
        Required.  A name from `available_metrics` (or alias), or a function
        ``f(tp, fp, fn, tn)`` of the cell probabilities (arrays of draws
        summing to 1 per draw), e.g. a K-measure with another ``alpha``.
    labels, pos_label, average, sample_weight
        As in `precision_posterior`, for labels and for a `ConfusionMatrix`
        (`sample_weight` for labels only; a `ConfusionCounts` is counted
        already).  Macro, weighted and Powers averages take a
        registered metric name; their mean is exact (`mc_error` 0) where
        the metric's per-label posterior is, and sampled for mcc and
        k_measure, whose per-label posteriors are sampled.
    prior : float or {"jeffreys", "uniform"}, default=0.5
        Dirichlet concentration λ > 0 ("jeffreys" = 0.5, "uniform" = 1).
    beta : float, default=1.0
        Recall weight for metrics that take one (fbeta, e_measure, k_measure).
    n_draws : int, default=10_000
        Posterior draws for sampled metrics (ignored for exact ones).
    random_state : None, int or numpy.random.Generator, default=None
        Seed for sampled metrics.
    groups : array-like of shape (n_samples,), default=None
        Cluster of each item (a patient, a document: any sortable ids), for
        labels only.  Items of one cluster are not independent draws from the
        population; the clusters are.  The posterior is then the Bayesian
        bootstrap of the clusters (every item of a cluster shares its
        weight), a `ClusteredPosterior` that says how many clusters it rests
        on and its effective number of items.  Where every cluster holds one
        item it is exactly the posterior without `groups`.  `sample_weight`
        weighs items within their clusters; every cluster is one draw.
    proxy : array-like of shape (n_samples,) or (n_samples, n_labels), default=None
        A second labeller's label of every item (a stronger or older model,
        an LLM judge, a crowd label), for items of which only some have a
        gold label: `y_true` then holds a missing value (NaN, None, pandas'
        NA, or a masked entry) for every unlabelled item.  The items'
        (proxy, prediction) shares come from all of them, the gold label's
        shares within each combination from the labelled ones, which must
        be a random sample of their combination; the posterior is a
        `ProxyPosterior` (sampled), which holds the labelled-only posterior
        for comparison.  For a multilabel target, the second labeller's
        indicator matrix, an unlabelled item's row of `y_true` missing as a
        whole (one table per label).  Not with `groups`.  Without `proxy`, a
        missing gold label is an error.

    Returns
    -------
    BetaPosterior, FBetaPosterior, DifferencePosterior, SampledPosterior, ClusteredPosterior, \
    or ProxyPosterior
        Of the shape of the counts' cells.

    See Also
    --------
    precision_posterior, fbeta_posterior, informedness_posterior : From labels.

    References
    ----------
    .. [1] C. Goutte and E. Gaussier, "A probabilistic interpretation of
       precision, recall and F-score, with implication for evaluation",
       ECIR 2005.

    Examples
    --------
    Goutte & Gaussier (2005), section 2.2: system 2 with TP = 3, FP = 2.

    >>> from skprobeval import ConfusionCounts, metric_posterior
    >>> counts = ConfusionCounts(tp=3, fp=2, fn=1, tn=4)
    >>> precision = metric_posterior(counts, metric="precision")
    >>> precision
    BetaPosterior(a=3.5, b=2.5)
    >>> round(precision.mean(), 3), round(precision.mode(), 3)
    (0.583, 0.625)
    >>> metric_posterior(counts, metric="f1")
    FBetaPosterior(beta=1.0, tp=3.5, fp=2.5, fn=1.5)
    >>> mcc = metric_posterior(counts, metric="mcc", n_draws=20_000, random_state=0)
    >>> round(mcc.mean(), 2), mcc.mc_error < 0.005
    (0.34, True)

    From labels, as the other posteriors:

    >>> metric_posterior([1, 1, 1, 0, 0, 1, 0, 0, 0, 1], [1, 1, 1, 1, 1, 0, 0, 0, 0, 0],
    ...                  metric="precision")
    BetaPosterior(a=3.5, b=2.5)

    From a K x K confusion matrix (rows true labels), the posterior of the
    items it counts:

    >>> from skprobeval import ConfusionMatrix
    >>> y_true, y_pred = [0, 0, 1, 1, 2, 2, 2], [0, 1, 1, 1, 2, 0, 2]
    >>> matrix = ConfusionMatrix.from_predictions(y_true, y_pred)
    >>> macro = metric_posterior(matrix, metric="f1", average="macro", random_state=0)
    >>> round(macro.mean(), 3)
    0.648
    >>> same = metric_posterior(y_true, y_pred, metric="f1", average="macro", random_state=0)
    >>> bool((macro.samples == same.samples).all())
    True
    """
    if proxy is not None:
        return _with_proxy(y_true, y_pred, proxy, metric=metric, labels=labels,
                           pos_label=pos_label, average=average, sample_weight=sample_weight,
                           prior=prior, beta=beta, n_draws=n_draws, random_state=random_state,
                           groups=groups)
    if groups is not None and isinstance(y_true, (ConfusionCounts, ConfusionMatrix)):
        fail("groups", "None when `y_true` is counted already (counts know no items; "
             "several runs or test sets of one system go to compare_counts)", "an array",
             error=TypeError)
    if isinstance(y_true, ConfusionMatrix):
        if average == "binary" and y_true.labels.shape[0] == 2:
            positive_position(y_true.labels, pos_label)   # the 2 x 2 rule of every entry point
        y_true, y_pred, sample_weight = _matrix_as_items(y_true, y_pred, sample_weight)
    if isinstance(y_true, ConfusionCounts):
        if y_pred is not None:
            if metric is None and (isinstance(y_pred, str) or callable(y_pred)):
                warn_future("Pass the metric as `metric=`: metric_posterior(counts, metric) "
                            "with the metric second is deprecated since 0.2 and will be an "
                            "error in 0.3.")
                metric = y_pred
            else:
                fail("y_pred", "None when `y_true` is a ConfusionCounts (the table is counted "
                     "already)", y_pred, error=TypeError)
        for name, value, default in (("labels", labels, None), ("pos_label", pos_label, 1),
                                     ("average", average, "binary"),
                                     ("sample_weight", sample_weight, None)):
            if not (value is default or (isinstance(value, str) and value == default)
                    or (name == "pos_label" and _is_one(value))):
                fail(name, "left at its default when `y_true` is a ConfusionCounts (it applies "
                     "to labels)", value)
        counts = y_true
    else:
        if y_pred is None:
            fail("y_pred", "the predicted labels (or pass a ConfusionCounts as `y_true`)",
                 y_pred, error=TypeError)
        if metric is None and (isinstance(y_pred, str) or callable(y_pred)):
            fail("y_true", "a ConfusionCounts when the metric comes second (or pass labels "
                 "`y_true`, `y_pred` and `metric=`)", y_true, error=TypeError)
        if metric is None:
            fail("metric", "a metric name or a callable f(tp, fp, fn, tn)", metric,
                 error=TypeError)
        average = _check_average(average)
        if isinstance(metric, (str, MetricSpec)):
            # The message of metric_score and the reports ("powers": two metrics only).
            average = check_average(average, get_metric(metric).name)
        if groups is not None:
            joint = joint_codes(y_true, [y_pred], average=average, labels=labels,
                                pos_label=pos_label, sample_weight=sample_weight,
                                names=["y_true", "y_pred"], groups=groups)
            return posterior_from_codes(joint, metric, average=average, lam=check_prior(prior),
                                        beta=check_positive(beta, "beta"),
                                        n_draws=check_draws(n_draws), random_state=random_state)
        if average == "binary":
            counts = ConfusionCounts.from_predictions(y_true, y_pred, pos_label=pos_label,
                                                      sample_weight=sample_weight)
        elif average is None:
            counts = ConfusionCounts.from_predictions(y_true, y_pred, labels=labels,
                                                      average=None, sample_weight=sample_weight)
        else:
            joint = joint_codes(y_true, [y_pred], average=average, labels=labels,
                                sample_weight=sample_weight, names=["y_true", "y_pred"])
            return posterior_from_codes(joint, metric, average=average, lam=check_prior(prior),
                                        beta=check_positive(beta, "beta"),
                                        n_draws=check_draws(n_draws), random_state=random_state)
    if metric is None:
        fail("metric", "a metric name or a callable f(tp, fp, fn, tn)", metric, error=TypeError)
    counts = _check_counts(counts)
    lam = check_prior(prior)
    beta = check_positive(beta, "beta")
    n_draws = check_draws(n_draws)
    function, params, name = metric_function(metric, beta)
    if name is not None:
        exact = exact_posterior(counts, name, lam, beta)
        if exact is not None:
            return exact
    rng = check_random_state(random_state)
    cells = sample_cells(counts, lam, n_draws, rng)
    return SampledPosterior(_evaluate(function, cells, params, "metric"))
