"""The public posteriors of one metric from labels, and the Bayesian classification report.

`precision_posterior`, `recall_posterior`, `fbeta_posterior`,
`informedness_posterior` and `markedness_posterior` count the labels once and
return the exact posterior (binary, per label, micro) or the sampled average
(macro, weighted, powers) that `skprobeval._posteriors._bayes` builds; `posterior_report`
tabulates the posteriors of precision, recall and F1 for every label and
average, as scikit-learn's ``classification_report`` tabulates the points.
"""

from __future__ import annotations

import numpy as np

from .._core import (
    N_DRAWS,
    check_confidence,
    check_draws,
    check_positive,
    check_prior,
    check_random_state,
    renamed_keyword,
)
from .._counting import ConfusionCounts, joint_codes
from .._metrics import check_average, get_metric, label_weights
from ._bayes import _check_average, exact_average_mean, exact_posterior, posterior_from_codes
from ._joint import (
    JointTable,
    add_f_score_prior,
    average_values,
    f_score_mass,
    label_prior,
    takes_f_score_prior,
)

__all__ = [
    "fbeta_posterior",
    "informedness_posterior",
    "markedness_posterior",
    "posterior_report",
    "precision_posterior",
    "recall_posterior",
]


def _from_predictions(name, y_true, y_pred, *, prior, labels, pos_label, average,
                      sample_weight, beta, n_draws, random_state, groups=None, proxy=None):
    if proxy is not None:
        from ._bayes import metric_posterior

        return metric_posterior(y_true, y_pred, metric=name, labels=labels,
                                pos_label=pos_label, average=average,
                                sample_weight=sample_weight, prior=prior, beta=beta,
                                n_draws=n_draws, random_state=random_state, groups=groups,
                                proxy=proxy)
    lam = check_prior(prior)
    average = check_average(_check_average(average), name if name != "fbeta" else "fbeta")
    n_draws = check_draws(n_draws)
    if groups is not None:
        # Items in clusters: the clusters' Bayesian bootstrap (exact where every
        # cluster holds one item).
        joint = joint_codes(y_true, [y_pred], average=average, labels=labels,
                            pos_label=pos_label, sample_weight=sample_weight,
                            names=["y_true", "y_pred"], groups=groups)
        return posterior_from_codes(joint, name, average=average, lam=lam, beta=beta,
                                    n_draws=n_draws, random_state=random_state)
    if average == "binary":
        counts = ConfusionCounts.from_predictions(y_true, y_pred, pos_label=pos_label,
                                                  sample_weight=sample_weight)
        return exact_posterior(counts, name, lam, beta)
    if average is None:
        counts = ConfusionCounts.from_predictions(y_true, y_pred, labels=labels, average=None,
                                                  sample_weight=sample_weight)
        return exact_posterior(counts, name, lam, beta)
    joint = joint_codes(y_true, [y_pred], average=average, labels=labels,
                        sample_weight=sample_weight, names=["y_true", "y_pred"])
    return posterior_from_codes(joint, name, average=average, lam=lam, beta=beta,
                                n_draws=n_draws, random_state=random_state)


@renamed_keyword("n_samples", "n_draws")
def precision_posterior(y_true, y_pred, *, prior=0.5, labels=None, pos_label=1,
                        average="binary", sample_weight=None, n_draws=N_DRAWS,
                        random_state=None, groups=None, proxy=None):
    """Posterior of precision, ``Beta(TP + λ, FP + λ)`` (Goutte & Gaussier 2005, eq. 8).

    With no positive prediction (TP + FP = 0) this is the prior, mean 1/2
    for any λ: the model's answer to the zero-division case, no warning.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_labels)
        True labels, or a label indicator matrix (multilabel).
    y_pred : array-like of the same shape as `y_true`
        Predicted labels or indicator matrix.
    prior : float or {"jeffreys", "uniform"}, default=0.5
        Dirichlet concentration λ > 0 of every cell ("jeffreys" = 0.5,
        "uniform" = 1).
    labels : array-like, default=None
        Labels to include when ``average != "binary"``, in order (as in
        scikit-learn).
    pos_label : int, float, bool or str, default=1
        The positive class when ``average="binary"``.
    average : {"binary", "micro", "macro", "weighted", "powers"} or None, default="binary"
        ``"binary"``: the table of `pos_label`; ``None``: one exact
        posterior per label; ``"micro"``: the per-label tables pooled, exact
        (for single-label multiclass data with every label, precision =
        recall = F = the share of items right, Beta(right + λ, wrong + λ));
        ``"macro"`` / ``"weighted"``: the (support-weighted) mean over labels,
        sampled from the joint K x K Dirichlet posterior for multiclass data
        (prior d = 2λ/K on each diagonal cell and d / (K - 1) on each other
        cell: the binary table's mass 4λ whatever K, so that averaging many
        labels does not keep a common pull of the prior) and from
        independent per-column tables for multilabel data; ``"powers"``
        (informedness and markedness only): Powers' weighting by predicted
        (true) share, sampled likewise.  The mean of these averages is
        exact: the same average of the labels' exact posterior means (each
        label's table is Dirichlet with the summed prior of its cells, d on
        TP, FP and FN and 4λ - 3d on TN for multiclass data), so `mc_error`
        is 0; draws, intervals and ``hdi`` stay sampled.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights; counts become weighted (fractional) sums.  A
        weight acts as a count: weights of 10 are ten times the evidence and
        narrow the interval about three-fold.
    n_draws : int, default=10_000
        Posterior draws of the sampled averages (ignored where exact).
    random_state : None, int or numpy.random.Generator, default=None
        Seed of the sampled averages.
    groups : array-like of shape (n_samples,), default=None
        Cluster of each item (a patient, a document: any sortable ids).  The
        posterior is then the Bayesian bootstrap of the clusters, a
        `ClusteredPosterior` with its number of clusters and effective
        number of items (see `metric_posterior`); exactly the posterior
        without `groups` where every cluster holds one item.
    proxy : array-like of shape (n_samples,), default=None
        A second labeller's label of every item, where `y_true` holds a
        missing value (NaN, None, pandas' NA, masked) for the items without a
        gold label: a `ProxyPosterior` (see `metric_posterior`).

    Returns
    -------
    BetaPosterior or SampledPosterior
        0-d for ``"binary"`` and ``"micro"``, shape (n_labels,) for
        ``average=None``; a 0-d `SampledPosterior` for ``"macro"`` and
        ``"weighted"`` (its mean exact).

    See Also
    --------
    metric_posterior : The same from counts, for any metric.

    References
    ----------
    .. [1] C. Goutte and E. Gaussier, "A probabilistic interpretation of
       precision, recall and F-score, with implication for evaluation",
       ECIR 2005.

    Examples
    --------
    >>> from skprobeval import precision_posterior
    >>> y_true = [1, 1, 1, 0, 0, 1, 0, 0, 0, 1]
    >>> y_pred = [1, 1, 1, 1, 1, 0, 0, 0, 0, 0]
    >>> posterior = precision_posterior(y_true, y_pred)   # TP=3, FP=2
    >>> round(posterior.mean(), 3), round(posterior.mode(), 3)
    (0.583, 0.625)
    >>> precision_posterior([1, 0, 1], [0, 0, 0]).mean()   # no positive prediction
    0.5
    >>> precision_posterior([0, 1, 2, 2], [0, 2, 2, 1], average=None)
    BetaPosterior(a=[1.5, 0.5, 1.5], b=[0.5, 1.5, 1.5])
    """
    return _from_predictions("precision", y_true, y_pred, prior=prior, labels=labels,
                             pos_label=pos_label, average=average, sample_weight=sample_weight,
                             beta=1.0, n_draws=n_draws, random_state=random_state, groups=groups,
                             proxy=proxy)


@renamed_keyword("n_samples", "n_draws")
def recall_posterior(y_true, y_pred, *, prior=0.5, labels=None, pos_label=1, average="binary",
                     sample_weight=None, n_draws=N_DRAWS, random_state=None, groups=None,
                     proxy=None):
    """Posterior of recall (sensitivity), ``Beta(TP + λ, FN + λ)``.

    With no positive item (TP + FN = 0) this is the prior.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_labels)
        True labels, or a label indicator matrix (multilabel).
    y_pred : array-like of the same shape as `y_true`
        Predicted labels or indicator matrix.
    prior : float or {"jeffreys", "uniform"}, default=0.5
        Dirichlet concentration λ > 0 of every cell ("jeffreys" = 0.5,
        "uniform" = 1).
    labels : array-like, default=None
        Labels to include when ``average != "binary"``, in order (as in
        scikit-learn).
    pos_label : int, float, bool or str, default=1
        The positive class when ``average="binary"``.
    average : {"binary", "micro", "macro", "weighted", "powers"} or None, default="binary"
        ``"binary"``: the table of `pos_label`; ``None``: one exact
        posterior per label; ``"micro"``: the per-label tables pooled, exact
        (for single-label multiclass data with every label, precision =
        recall = F = the share of items right, Beta(right + λ, wrong + λ));
        ``"macro"`` / ``"weighted"``: the (support-weighted) mean over labels,
        sampled from the joint K x K Dirichlet posterior for multiclass data
        (prior d = 2λ/K on each diagonal cell and d / (K - 1) on each other
        cell: the binary table's mass 4λ whatever K, so that averaging many
        labels does not keep a common pull of the prior) and from
        independent per-column tables for multilabel data; ``"powers"``
        (informedness and markedness only): Powers' weighting by predicted
        (true) share, sampled likewise.  The mean of these averages is
        exact: the same average of the labels' exact posterior means (each
        label's table is Dirichlet with the summed prior of its cells, d on
        TP, FP and FN and 4λ - 3d on TN for multiclass data), so `mc_error`
        is 0; draws, intervals and ``hdi`` stay sampled.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights; counts become weighted (fractional) sums.  A
        weight acts as a count: weights of 10 are ten times the evidence and
        narrow the interval about three-fold.
    n_draws : int, default=10_000
        Posterior draws of the sampled averages (ignored where exact).
    random_state : None, int or numpy.random.Generator, default=None
        Seed of the sampled averages.
    groups : array-like of shape (n_samples,), default=None
        Cluster of each item (a patient, a document: any sortable ids).  The
        posterior is then the Bayesian bootstrap of the clusters, a
        `ClusteredPosterior` with its number of clusters and effective
        number of items (see `metric_posterior`); exactly the posterior
        without `groups` where every cluster holds one item.
    proxy : array-like of shape (n_samples,), default=None
        A second labeller's label of every item, where `y_true` holds a
        missing value (NaN, None, pandas' NA, masked) for the items without a
        gold label: a `ProxyPosterior` (see `metric_posterior`).

    Returns
    -------
    BetaPosterior or SampledPosterior
        As in `precision_posterior`.

    Examples
    --------
    >>> from skprobeval import recall_posterior
    >>> posterior = recall_posterior([1, 1, 1, 0, 0, 1], [1, 1, 0, 0, 1, 0])
    >>> posterior
    BetaPosterior(a=2.5, b=2.5)
    >>> posterior.interval(0.9)
    CredibleInterval(low=0.1653, high=0.8347)
    """
    return _from_predictions("recall", y_true, y_pred, prior=prior, labels=labels,
                             pos_label=pos_label, average=average, sample_weight=sample_weight,
                             beta=1.0, n_draws=n_draws, random_state=random_state, groups=groups,
                             proxy=proxy)


@renamed_keyword("n_samples", "n_draws")
def fbeta_posterior(y_true, y_pred, *, beta=1.0, prior=0.5, labels=None, pos_label=1,
                    average="binary", sample_weight=None, n_draws=N_DRAWS, random_state=None,
                    groups=None, proxy=None):
    """Exact posterior of F-beta (F1 for ``beta=1``).

    ``F1 = 2B / (1 + B)`` with ``B ~ Beta(TP + λ, FP + FN + 2λ)``, exactly;
    for ``beta != 1`` a one-dimensional integral on fixed quadrature nodes,
    where Goutte & Gaussier (2005) sampled Gamma variates.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_labels)
        True labels, or a label indicator matrix (multilabel).
    y_pred : array-like of the same shape as `y_true`
        Predicted labels or indicator matrix.
    prior : float or {"jeffreys", "uniform"}, default=0.5
        Dirichlet concentration λ > 0 of every cell ("jeffreys" = 0.5,
        "uniform" = 1).
    beta : float, default=1.0
        Weight of recall (> 0).
    labels : array-like, default=None
        Labels to include when ``average != "binary"``, in order (as in
        scikit-learn).
    pos_label : int, float, bool or str, default=1
        The positive class when ``average="binary"``.
    average : {"binary", "micro", "macro", "weighted", "powers"} or None, default="binary"
        ``"binary"``: the table of `pos_label`; ``None``: one exact
        posterior per label; ``"micro"``: the per-label tables pooled, exact
        (for single-label multiclass data with every label, precision =
        recall = F = the share of items right, Beta(right + λ, wrong + λ));
        ``"macro"`` / ``"weighted"``: the (support-weighted) mean over labels,
        sampled from the joint K x K Dirichlet posterior for multiclass data
        (prior d = 2λ/K on each diagonal cell and d / (K - 1) on each other
        cell: the binary table's mass 4λ whatever K, so that averaging many
        labels does not keep a common pull of the prior; each label's
        F-score takes λ on its TP, as the binary one does, the missing
        λ - d drawn as a mass of its own) and from independent per-column
        tables for multilabel data.  The mean of these averages is exact:
        the same average of the labels' exact posterior means (each label's
        F-score is `FBetaPosterior` with λ on TP and d on FP and FN for
        multiclass data), so `mc_error` is 0; draws, intervals and ``hdi``
        stay sampled.  (``"powers"`` is for informedness and markedness.)
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights; counts become weighted (fractional) sums.  A
        weight acts as a count: weights of 10 are ten times the evidence and
        narrow the interval about three-fold.
    n_draws : int, default=10_000
        Posterior draws of the sampled averages (ignored where exact).
    random_state : None, int or numpy.random.Generator, default=None
        Seed of the sampled averages.
    groups : array-like of shape (n_samples,), default=None
        Cluster of each item (a patient, a document: any sortable ids).  The
        posterior is then the Bayesian bootstrap of the clusters, a
        `ClusteredPosterior` with its number of clusters and effective
        number of items (see `metric_posterior`); exactly the posterior
        without `groups` where every cluster holds one item.
    proxy : array-like of shape (n_samples,), default=None
        A second labeller's label of every item, where `y_true` holds a
        missing value (NaN, None, pandas' NA, masked) for the items without a
        gold label: a `ProxyPosterior` (see `metric_posterior`).

    Returns
    -------
    FBetaPosterior or SampledPosterior
        As in `precision_posterior`.

    References
    ----------
    .. [1] C. Goutte and E. Gaussier, "A probabilistic interpretation of
       precision, recall and F-score, with implication for evaluation",
       ECIR 2005.

    Examples
    --------
    >>> from skprobeval import fbeta_posterior
    >>> y_true = [1, 1, 1, 1, 0, 0, 0, 0, 1, 0]
    >>> y_pred = [1, 1, 1, 0, 0, 0, 0, 1, 1, 0]
    >>> f1 = fbeta_posterior(y_true, y_pred)     # TP=4, FP=1, FN=1
    >>> f1
    FBetaPosterior(beta=1.0, tp=4.5, fp=1.5, fn=1.5)
    >>> round(f1.mean(), 3)
    0.735
    >>> round(fbeta_posterior(y_true, y_pred, beta=2.0).median(), 3)
    0.77
    """
    beta = check_positive(beta, "beta")
    name = "f1" if beta == 1.0 else "fbeta"
    return _from_predictions(name, y_true, y_pred, prior=prior, labels=labels,
                             pos_label=pos_label, average=average, sample_weight=sample_weight,
                             beta=beta, n_draws=n_draws, random_state=random_state, groups=groups,
                             proxy=proxy)


@renamed_keyword("n_samples", "n_draws")
def informedness_posterior(y_true, y_pred, *, prior=0.5, labels=None, pos_label=1,
                           average="binary", sample_weight=None, n_draws=N_DRAWS,
                           random_state=None, groups=None, proxy=None):
    """Exact posterior of informedness (Youden's J, bookmaker) ``tpr - fpr``.

    ``tpr ~ Beta(TP + λ, FN + λ)`` and ``fpr ~ Beta(FP + λ, TN + λ)`` are
    independent; the difference is integrated exactly (one-dimensional
    quadrature).  ``prob_greater(0)`` is the posterior probability that the
    classifier does better than chance.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_labels)
        True labels, or a label indicator matrix (multilabel).
    y_pred : array-like of the same shape as `y_true`
        Predicted labels or indicator matrix.
    prior : float or {"jeffreys", "uniform"}, default=0.5
        Dirichlet concentration λ > 0 of every cell ("jeffreys" = 0.5,
        "uniform" = 1).
    labels : array-like, default=None
        Labels to include when ``average != "binary"``, in order (as in
        scikit-learn).
    pos_label : int, float, bool or str, default=1
        The positive class when ``average="binary"``.
    average : {"binary", "micro", "macro", "weighted", "powers"} or None, default="binary"
        ``"binary"``: the table of `pos_label`; ``None``: one exact
        posterior per label; ``"micro"``: the per-label tables pooled, exact
        (for single-label multiclass data with every label, precision =
        recall = F = the share of items right, Beta(right + λ, wrong + λ));
        ``"macro"`` / ``"weighted"``: the (support-weighted) mean over labels,
        sampled from the joint K x K Dirichlet posterior for multiclass data
        (prior d = 2λ/K on each diagonal cell and d / (K - 1) on each other
        cell: the binary table's mass 4λ whatever K, so that averaging many
        labels does not keep a common pull of the prior) and from
        independent per-column tables for multilabel data; ``"powers"``
        (informedness and markedness only): Powers' weighting by predicted
        (true) share, sampled likewise.  The mean of these averages is
        exact: the same average of the labels' exact posterior means (each
        label's table is Dirichlet with the summed prior of its cells, d on
        TP, FP and FN and 4λ - 3d on TN for multiclass data), so `mc_error`
        is 0; draws, intervals and ``hdi`` stay sampled.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights; counts become weighted (fractional) sums.  A
        weight acts as a count: weights of 10 are ten times the evidence and
        narrow the interval about three-fold.
    n_draws : int, default=10_000
        Posterior draws of the sampled averages (ignored where exact).
    random_state : None, int or numpy.random.Generator, default=None
        Seed of the sampled averages.
    groups : array-like of shape (n_samples,), default=None
        Cluster of each item (a patient, a document: any sortable ids).  The
        posterior is then the Bayesian bootstrap of the clusters, a
        `ClusteredPosterior` with its number of clusters and effective
        number of items (see `metric_posterior`); exactly the posterior
        without `groups` where every cluster holds one item.
    proxy : array-like of shape (n_samples,), default=None
        A second labeller's label of every item, where `y_true` holds a
        missing value (NaN, None, pandas' NA, masked) for the items without a
        gold label: a `ProxyPosterior` (see `metric_posterior`).

    Returns
    -------
    DifferencePosterior or SampledPosterior
        As in `precision_posterior`.

    Examples
    --------
    >>> from skprobeval import informedness_posterior
    >>> y_true = [1, 1, 1, 1, 0, 0, 0, 0, 0, 0]
    >>> y_pred = [1, 1, 1, 0, 0, 0, 0, 0, 1, 0]
    >>> posterior = informedness_posterior(y_true, y_pred)
    >>> round(posterior.mean(), 3), round(posterior.prob_greater(0.0), 3)
    (0.486, 0.968)
    """
    return _from_predictions("informedness", y_true, y_pred, prior=prior, labels=labels,
                             pos_label=pos_label, average=average, sample_weight=sample_weight,
                             beta=1.0, n_draws=n_draws, random_state=random_state, groups=groups,
                             proxy=proxy)


@renamed_keyword("n_samples", "n_draws")
def markedness_posterior(y_true, y_pred, *, prior=0.5, labels=None, pos_label=1,
                         average="binary", sample_weight=None, n_draws=N_DRAWS,
                         random_state=None, groups=None, proxy=None):
    """Exact posterior of markedness ``ppv + npv - 1``.

    ``ppv ~ Beta(TP + λ, FP + λ)`` and ``1 - npv ~ Beta(FN + λ, TN + λ)``
    are independent, so markedness is the difference of two Beta variables.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_labels)
        True labels, or a label indicator matrix (multilabel).
    y_pred : array-like of the same shape as `y_true`
        Predicted labels or indicator matrix.
    prior : float or {"jeffreys", "uniform"}, default=0.5
        Dirichlet concentration λ > 0 of every cell ("jeffreys" = 0.5,
        "uniform" = 1).
    labels : array-like, default=None
        Labels to include when ``average != "binary"``, in order (as in
        scikit-learn).
    pos_label : int, float, bool or str, default=1
        The positive class when ``average="binary"``.
    average : {"binary", "micro", "macro", "weighted", "powers"} or None, default="binary"
        ``"binary"``: the table of `pos_label`; ``None``: one exact
        posterior per label; ``"micro"``: the per-label tables pooled, exact
        (for single-label multiclass data with every label, precision =
        recall = F = the share of items right, Beta(right + λ, wrong + λ));
        ``"macro"`` / ``"weighted"``: the (support-weighted) mean over labels,
        sampled from the joint K x K Dirichlet posterior for multiclass data
        (prior d = 2λ/K on each diagonal cell and d / (K - 1) on each other
        cell: the binary table's mass 4λ whatever K, so that averaging many
        labels does not keep a common pull of the prior) and from
        independent per-column tables for multilabel data; ``"powers"``
        (informedness and markedness only): Powers' weighting by predicted
        (true) share, sampled likewise.  The mean of these averages is
        exact: the same average of the labels' exact posterior means (each
        label's table is Dirichlet with the summed prior of its cells, d on
        TP, FP and FN and 4λ - 3d on TN for multiclass data), so `mc_error`
        is 0; draws, intervals and ``hdi`` stay sampled.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights; counts become weighted (fractional) sums.  A
        weight acts as a count: weights of 10 are ten times the evidence and
        narrow the interval about three-fold.
    n_draws : int, default=10_000
        Posterior draws of the sampled averages (ignored where exact).
    random_state : None, int or numpy.random.Generator, default=None
        Seed of the sampled averages.
    groups : array-like of shape (n_samples,), default=None
        Cluster of each item (a patient, a document: any sortable ids).  The
        posterior is then the Bayesian bootstrap of the clusters, a
        `ClusteredPosterior` with its number of clusters and effective
        number of items (see `metric_posterior`); exactly the posterior
        without `groups` where every cluster holds one item.
    proxy : array-like of shape (n_samples,), default=None
        A second labeller's label of every item, where `y_true` holds a
        missing value (NaN, None, pandas' NA, masked) for the items without a
        gold label: a `ProxyPosterior` (see `metric_posterior`).

    Returns
    -------
    DifferencePosterior or SampledPosterior
        As in `precision_posterior`.

    Examples
    --------
    >>> from skprobeval import markedness_posterior
    >>> posterior = markedness_posterior([1, 1, 0, 0, 0], [1, 0, 0, 0, 0])
    >>> posterior
    DifferencePosterior(first=BetaPosterior(a=1.5, b=0.5), second=BetaPosterior(a=1.5, b=3.5))
    >>> round(posterior.mean(), 3)
    0.45
    """
    return _from_predictions("markedness", y_true, y_pred, prior=prior, labels=labels,
                             pos_label=pos_label, average=average, sample_weight=sample_weight,
                             beta=1.0, n_draws=n_draws, random_state=random_state, groups=groups,
                             proxy=proxy)


# ---------------------------------------------------------------------------
# Classification report
# ---------------------------------------------------------------------------

_REPORT_METRICS = ("precision", "recall", "f1")


@renamed_keyword("n_samples", "n_draws")
def posterior_report(y_true, y_pred, *, labels=None, prior=0.5, confidence=0.95,
                          sample_weight=None, n_draws=N_DRAWS, random_state=None):
    """Bayesian classification report: posterior means and credible intervals.

    Like `sklearn.metrics.classification_report`, one row per label plus
    ``"micro avg"``, ``"macro avg"`` and ``"weighted avg"``, but every cell is
    a posterior summary: the mean and the equal-tailed credible interval of
    precision, recall and F1 under the Dirichlet(λ) prior.

    * Label rows and the micro row are exact (`BetaPosterior`,
      `FBetaPosterior`); for single-label multiclass data the micro row is
      the share of items right (micro precision = recall = F1 = accuracy),
      Beta(right + λ, wrong + λ), for multilabel data the posterior of the
      pooled counts.
    * Macro and weighted rows: the intervals are sampled (`n_draws` draws,
      seeded by `random_state`): multiclass data draw the K x K table jointly
      from its Dirichlet posterior (prior d = 2λ/K on the diagonal,
      d / (K - 1) off it: the binary table's mass 4λ whatever K; F1 takes
      λ on each label's TP, as `fbeta_posterior` says), multilabel
      data each column's table independently; all three metrics use the
      same draws.  The means are exact: the (weighted) average of each
      label's exact posterior mean under that model, whose one-vs-rest
      table has prior d on TP, FP and FN and 4λ - 3d on TN for multiclass
      data (the label rows put λ on every cell, so for multiclass data the
      macro mean is near, not equal to, the mean of the label rows).
      "weighted" weights labels by their observed support, as
      scikit-learn does.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_labels)
        True labels, or a label indicator matrix.
    y_pred : array-like of the same shape as `y_true`
        Predicted labels or indicator matrix.
    labels : array-like, default=None
        Labels to report, in order (default: the sorted labels present; the
        column indices for multilabel data).
    prior : float or {"jeffreys", "uniform"}, default=0.5
        Dirichlet concentration λ > 0.
    confidence : float, default=0.95
        Mass of the credible intervals, in (0, 1).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights.
    n_draws : int, default=10_000
        Posterior draws for the macro and weighted rows.
    random_state : None, int or numpy.random.Generator, default=None
        Seed for the macro and weighted rows.

    Returns
    -------
    pandas.DataFrame
        Index: ``str(label)`` for each label, then ``"micro avg"``,
        ``"macro avg"``, ``"weighted avg"``.  Float columns:
        ``precision_mean``, ``precision_low``, ``precision_high``,
        ``recall_mean``, ``recall_low``, ``recall_high``, ``f1_mean``,
        ``f1_low``, ``f1_high`` (posterior mean and interval bounds) and
        ``support`` (weighted count of true items; the total on the average
        rows).  Formatting is left to the caller.

    See Also
    --------
    sklearn.metrics.classification_report : The point-estimate report.

    Examples
    --------
    >>> from skprobeval import posterior_report
    >>> y_true = ["cat", "cat", "dog", "dog", "dog", "bird", "bird", "cat"]
    >>> y_pred = ["cat", "dog", "dog", "dog", "cat", "bird", "cat", "cat"]
    >>> report = posterior_report(y_true, y_pred, random_state=0)
    >>> report.round(2)[["precision_mean", "precision_low", "precision_high", "support"]]
                  precision_mean  precision_low  precision_high  support
    bird                    0.75           0.15            1.00      2.0
    cat                     0.50           0.12            0.88      3.0
    dog                     0.62           0.18            0.96      3.0
    micro avg               0.61           0.29            0.88      8.0
    macro avg               0.65           0.36            0.87      8.0
    weighted avg            0.63           0.36            0.86      8.0
    """
    import pandas as pd

    lam = check_prior(prior)
    confidence = check_confidence(confidence)
    n_draws = check_draws(n_draws)
    rng = check_random_state(random_state)
    joint = joint_codes(y_true, [y_pred], average=None, labels=labels,
                        sample_weight=sample_weight, names=["y_true", "y_pred"])
    counts = joint.counts()
    support = np.asarray(counts.tp + counts.fn, dtype=float)
    columns = {}
    for name in _REPORT_METRICS:
        per_label = exact_posterior(counts, name, lam, 1.0)
        micro = posterior_from_codes(joint, name, average="micro", lam=lam, beta=1.0,
                                     n_draws=n_draws, random_state=rng)
        columns[name] = [
            (np.asarray(per_label.mean()), *map(np.asarray, per_label.interval(confidence))),
            (np.asarray([micro.mean()]), *(np.asarray([v]) for v in micro.interval(confidence))),
        ]
    draws = {(name, average): [] for name in _REPORT_METRICS for average in ("macro", "weighted")}
    weights = {key: label_weights(counts, key[1], key[0]) for key in draws}
    table = JointTable(joint, lam)
    order = table.canonical        # the labels' order, whatever their names
    ordered = {key: None if w is None else w[order] for key, w in weights.items()}
    # Label averages of F-scores take their own prior on TP (multiclass tables).
    extra = f_score_mass(joint.kind, joint.n_classes, "f1", "macro", lam)
    for (cells,) in table.sample(n_draws, rng, canonical=True):
        f_cells = add_f_score_prior([cells], extra, table, rng)[0] if extra \
            else cells
        for name, average in draws:
            draws[name, average].append(average_values(
                get_metric(name).function, {},
                f_cells if takes_f_score_prior(joint.kind, name, average) else cells,
                average, ordered[name, average]))
    tail = (1 - confidence) / 2
    # The averages' means are exact (the labels' exact means averaged); the bounds sampled.
    for name in _REPORT_METRICS:
        label_lam = lam if joint.kind == "multilabel" else label_prior(
            joint.n_classes, lam, f_score=takes_f_score_prior(joint.kind, name, "macro"))
        for average in ("macro", "weighted"):
            values = np.concatenate(draws[name, average])
            low, high = np.quantile(values, [tail, 1 - tail])
            mean = exact_average_mean(counts, name, label_lam, 1.0, average,
                                      weights[name, average])
            columns[name].append((np.asarray([values.mean() if mean is None else mean]),
                                  np.asarray([low]), np.asarray([high])))
    data = {}
    for name in _REPORT_METRICS:
        for position, suffix in enumerate(("mean", "low", "high")):
            data[f"{name}_{suffix}"] = np.concatenate([part[position] for part in columns[name]])
    total = float(support.sum())
    data["support"] = np.concatenate([support, [total, total, total]]).astype(np.float64)
    index = [str(label) for label in counts.labels.tolist()] + [
        "micro avg", "macro avg", "weighted avg"]
    return pd.DataFrame(data, index=index)
