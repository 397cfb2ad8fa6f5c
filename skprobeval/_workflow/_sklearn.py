"""scikit-learn glue: posterior scorers, confusion-count scorers and a refit rule.

Scorers are built with `sklearn.metrics.make_scorer` over the public
module-level functions `posterior_score` and `confusion_count`, so they
pickle, run under ``n_jobs``, show a truthful repr and take ``sample_weight``
through metadata routing.
"""

from __future__ import annotations

import numbers
import re

import numpy as np
from sklearn.metrics import make_scorer
from sklearn.utils.metadata_routing import MetadataRequest

from .._core import (
    N_DRAWS,
    check_confidence,
    check_draws,
    check_positive,
    check_prior,
    check_random_state,
    fail,
    keyword_only,
    renamed_keyword,
    to_host,
)
from .._counting import ConfusionCounts, JointCodes, joint_codes
from .._metrics import check_average, get_metric, label_weights
from .._posteriors import (
    ExactMeanPosterior,
    SampledPosterior,
    average_values,
    check_counts_metric,
    exact_average_mean,
    label_prior,
    metric_function,
    metric_posterior,
    micro_multiclass,
    posterior_from_codes,
    sample_cells,
    takes_f_score_prior,
)

__all__ = [
    "CountsScorer",
    "PosteriorRefit",
    "confusion_count",
    "make_posterior_scorer",
    "posterior_score",
    "posterior_statistic",
]

STATISTICS = ("mean", "median", "mode", "lower", "upper", "prob_above")

# Where a fitted classifier's scores come from, in this order (scikit-learn's
# response_method="auto"): the Displays and the reports read the same scores.
SCORE_METHODS = ("predict_proba", "decision_function")


def estimator_responses(estimator, X, response_method="auto", errors=None):
    """Yield ``(method, values)`` of a fitted classifier's score methods.

    In the order of `SCORE_METHODS` for ``"auto"`` (only the named one
    otherwise), skipping methods the estimator lacks or refuses for this `X`
    (an ``AttributeError``, ``NotImplementedError`` or ``ValueError``, as for
    an SVC without probability estimates), whose exceptions are appended to
    `errors` when a list is given.  Callers take the first whose values fit.
    Values of another array library (an estimator under scikit-learn's
    array API dispatch) come on the host.
    """
    for method in SCORE_METHODS if response_method == "auto" else (response_method,):
        if not hasattr(estimator, method):
            continue
        try:
            values = getattr(estimator, method)(X)
        except (AttributeError, NotImplementedError, ValueError) as error:
            if errors is not None:
                errors.append(error)
            continue
        yield method, to_host(values, f"{method}(X)")
_CELLS = ("tp", "fp", "fn", "tn")
# A score is one number: every average but None (one value per label).
_SCORE_AVERAGES = ("binary", "micro", "macro", "weighted", "powers")


def _check_statistic(statistic, threshold):
    if statistic not in STATISTICS:
        fail("statistic", f"one of {list(STATISTICS)}", statistic)
    if statistic == "prob_above":
        if threshold is None:
            fail("threshold", "a number when `statistic`='prob_above'", threshold)
        threshold = float(threshold)
        if not np.isfinite(threshold):
            fail("threshold", "finite", threshold)
    return threshold


def _check_score_average(average, metric):
    """A label average that gives one number, and that `metric` supports."""
    if isinstance(average, str) and average in _SCORE_AVERAGES:
        return check_average(average, metric)   # "powers": informedness, markedness only
    fail("average", "one of 'binary', 'micro', 'macro', 'weighted' or 'powers' (a score is "
         "one number; None would give one value per label)", average)


def _check_seed(random_state):
    """Validate `random_state` without consuming it (a RandomState is read when sampling)."""
    if not isinstance(random_state, np.random.RandomState):
        check_random_state(random_state)
    return random_state


def posterior_statistic(posterior, statistic="mean", *, confidence=0.95, threshold=None):
    """One number from a posterior: its mean, median, mode, a bound, or a tail probability.

    Parameters
    ----------
    posterior : posterior object
        Any skprobeval posterior (exact or sampled).
    statistic : {"mean", "median", "mode", "lower", "upper", "prob_above"}, default="mean"
        ``"lower"`` / ``"upper"``: the bounds of the equal-tailed credible
        interval at `confidence`; ``"prob_above"``: P(metric > threshold).
    confidence : float, default=0.95
        Level of the interval for ``"lower"`` and ``"upper"``.
    threshold : float, default=None
        The threshold of ``"prob_above"``.

    Returns
    -------
    float or ndarray
        A float for a single posterior, an array for per-label posteriors.

    Examples
    --------
    >>> from skprobeval import ConfusionCounts, metric_posterior, posterior_statistic
    >>> posterior = metric_posterior(ConfusionCounts(tp=30, fp=5, fn=10, tn=55), metric="f1")
    >>> round(posterior_statistic(posterior, "lower", confidence=0.9), 3)
    0.7
    """
    threshold = _check_statistic(statistic, threshold)
    if statistic == "mean":
        return posterior.mean()
    if statistic == "median":
        return posterior.median()
    if statistic == "mode":
        return posterior.mode()
    if statistic == "prob_above":
        return posterior.prob_greater(threshold)
    interval = posterior.interval(check_confidence(confidence))
    return interval.low if statistic == "lower" else interval.high


@renamed_keyword("n_samples", "n_draws")
def posterior_score(y_true, y_pred, *, metric="f1", statistic="mean", confidence=0.95,
                    threshold=None, prior=0.5, beta=1.0, average="binary", pos_label=1,
                    labels=None, sample_weight=None, n_draws=N_DRAWS, random_state=0,
                    groups=None):
    """A posterior summary of a confusion-table metric, as a score.

    The labels ``y_true, y_pred`` give the posterior of `metric` under the
    Dirichlet(λ) model of the confusion table; `statistic` reduces it to one
    number.  ``statistic="lower"`` scores a model by how good it surely is:
    the lower credible bound penalises small test sets.

    The posterior is exact wherever an exact form exists (binary tables,
    micro averages of precision, recall, F and accuracy); macro, weighted and
    Powers averages, and metrics without an exact form (MCC, ...), are
    Monte Carlo estimates from `n_draws` draws seeded by `random_state`.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_labels)
        True labels, or a label indicator matrix (multilabel).
    y_pred : array-like of the same shape as `y_true`
        Predicted labels or indicator matrix.
    metric : str, default="f1"
        A registered metric name (see `available_metrics`).
    statistic : {"mean", "median", "mode", "lower", "upper", "prob_above"}, default="mean"
        See `posterior_statistic`.
    confidence : float, default=0.95
        Level of the credible interval for ``"lower"`` and ``"upper"``.
    threshold : float, default=None
        Required with ``statistic="prob_above"``: the score is P(metric > threshold).
    prior : float or {"jeffreys", "uniform"}, default=0.5
        Dirichlet concentration λ of each cell.
    beta : float, default=1.0
        F-beta's beta (metric ``"fbeta"``; ``"f1"`` ignores it).
    average : {"binary", "micro", "macro", "weighted", "powers"}, default="binary"
        How labels are combined, for every metric.  ``"binary"``: the table
        of `pos_label`; ``"micro"``: the per-label tables pooled (for
        single-label multiclass data with every label, precision, recall, F
        and accuracy are the share of items right, exactly
        Beta(right + λ, wrong + λ)); ``"macro"`` /
        ``"weighted"``: the mean (weighted by true support) of the per-label
        values, sampled from the joint Dirichlet posterior of the K x K table
        (independent per-column tables for multilabel data); ``"powers"``
        (informedness and markedness only): Powers' weighting by predicted
        (true) share.  None, one value per label, is not a score.
    pos_label : int, float, bool or str, default=1
        The positive class for ``average="binary"``.
    labels : array-like, default=None
        Labels included by the averages (they must occur in the data).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights.
    n_draws : int, default=10_000
        Posterior draws of the sampled posteriors (ignored where exact); the
        Monte Carlo error of a mean is about ``std / sqrt(n_draws)``.
    random_state : None, int or numpy.random.Generator, default=0
        Seed of the sampled posteriors.  The fixed default makes identical
        calls give identical scores.  A Generator is advanced by every call,
        so repeated calls then differ; None draws fresh entropy each call.
    groups : array-like of shape (n_samples,), default=None
        Cluster of each item (a patient, a document): the posterior is then
        the Bayesian bootstrap of the clusters (see `metric_posterior`).  A
        scorer takes it through scikit-learn's metadata routing
        (``scorer.set_score_request(groups=True)`` and
        ``cross_validate(..., params={"groups": groups})``), the same ids
        that split the folds.

    Returns
    -------
    float

    See Also
    --------
    make_posterior_scorer : This score as a scikit-learn scorer.
    metric_posterior : The posterior itself, from counts.

    Examples
    --------
    >>> from skprobeval import posterior_score
    >>> y_true = [1, 1, 1, 1, 0, 0, 0, 0, 1, 0]
    >>> y_pred = [1, 1, 1, 0, 0, 0, 0, 1, 1, 0]
    >>> round(posterior_score(y_true, y_pred, metric="f1"), 3)
    0.735
    >>> round(posterior_score(y_true, y_pred, metric="f1", statistic="lower"), 3)
    0.41

    Multiclass labels, macro-averaged (sampled, seeded by `random_state`):

    >>> y_true = ["a", "a", "b", "b", "b", "c", "c", "c", "c", "a"]
    >>> y_pred = ["a", "b", "b", "b", "c", "c", "c", "c", "a", "a"]
    >>> macro = posterior_score(y_true, y_pred, metric="f1", average="macro")
    >>> round(macro, 2)
    0.65
    >>> macro == posterior_score(y_true, y_pred, metric="f1", average="macro")
    True
    """
    threshold = _check_statistic(statistic, threshold)
    confidence = check_confidence(confidence)
    spec = get_metric(metric)
    lam = check_prior(prior)
    beta = check_positive(beta, "beta")
    average = _check_score_average(average, spec.name)
    n_draws = check_draws(n_draws)
    _check_seed(random_state)
    joint = joint_codes(y_true, [y_pred], average=average, labels=labels, pos_label=pos_label,
                        sample_weight=sample_weight, names=["y_true", "y_pred"], groups=groups)
    posterior = posterior_from_codes(joint, spec.name, average=average, lam=lam, beta=beta,
                                     n_draws=n_draws, random_state=random_state)
    return float(posterior_statistic(posterior, statistic, confidence=confidence,
                                     threshold=threshold))


@keyword_only("metric")
@renamed_keyword("n_samples", "n_draws")
def make_posterior_scorer(*, metric="f1", statistic="mean", confidence=0.95, threshold=None,
                          prior=0.5, beta=1.0, average="binary", pos_label=1, labels=None,
                          n_draws=N_DRAWS, random_state=0, response_method="predict"):
    """A scikit-learn scorer from a metric's posterior (for ``GridSearchCV`` etc.).

    Built with `sklearn.metrics.make_scorer` over `posterior_score`, so it
    pickles, runs under ``n_jobs``, fits into a multi-metric ``scoring={...}``
    dict, and takes ``sample_weight`` through metadata routing
    (``scorer.set_score_request(sample_weight=True)``) or directly; so too
    ``groups``, the cluster of each item (``set_score_request(groups=True)``
    with ``cross_validate(..., params={"groups": groups})``: the ids that
    split the folds then also make the posterior that of the clusters).

    Parameters
    ----------
    metric : str, default="f1"
        A registered metric name.  Metrics where lower is better (fallout,
        error, silence, noise, e_measure) give a negated scorer, as
        scikit-learn's ``greater_is_better=False`` does.
    statistic : {"mean", "median", "mode", "lower", "upper", "prob_above"}, default="mean"
        See `posterior_statistic`.
    confidence, threshold, prior, beta, average, pos_label, labels, n_draws
        As in `posterior_score`; validated here, once.  `average` is one of
        ``"binary"``, ``"micro"``, ``"macro"``, ``"weighted"`` and
        ``"powers"`` (informedness and markedness), for every metric.
    random_state : None, int or numpy.random.Generator, default=0
        Seed of the sampled posteriors (macro, weighted and Powers averages,
        metrics without an exact form).  ``statistic="mean"`` of an average
        of a metric with exact per-label posteriors is exact and takes no
        draws' noise (MCC and K-measure stay sampled).  Give a scorer an
        int: every call then draws from the same seed, so identical
        predictions score identically in every fold, candidate and process.
        A Generator is copied into each pickled scorer (``n_jobs``) and
        advanced by each call, so scores would depend on the order of the
        calls.
    response_method : str, default="predict"
        How the scorer gets labels from the estimator.

    Returns
    -------
    scorer : callable
        ``scorer(estimator, X, y_true, sample_weight=None) -> float``.

    See Also
    --------
    PosteriorRefit : Refit the candidate with the best pooled posterior.

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.model_selection import GridSearchCV
    >>> from skprobeval import make_posterior_scorer
    >>> X, y = make_classification(n_samples=300, random_state=0)
    >>> scorer = make_posterior_scorer(metric="f1", statistic="lower", confidence=0.9)
    >>> scorer
    make_scorer(posterior_score, response_method='predict', metric=f1, statistic=lower, ...)
    >>> search = GridSearchCV(LogisticRegression(), {"C": [0.01, 1.0]}, scoring=scorer, cv=3)
    >>> search.fit(X, y).best_params_
    {'C': 1.0}

    Multiclass targets take a label average:

    >>> X3, y3 = make_classification(n_samples=300, n_classes=3, n_informative=4,
    ...                              random_state=0)
    >>> macro = make_posterior_scorer(metric="f1", average="macro", statistic="lower")
    >>> model = LogisticRegression().fit(X3, y3)
    >>> round(macro(model, X3, y3), 2)
    0.71
    """
    threshold = _check_statistic(statistic, threshold)
    confidence = check_confidence(confidence)
    spec = get_metric(metric)
    check_prior(prior)
    beta = check_positive(beta, "beta")
    average = _check_score_average(average, spec.name)
    n_draws = check_draws(n_draws)
    _check_seed(random_state)
    kwargs = {"metric": spec.name, "statistic": statistic, "confidence": confidence,
              "threshold": threshold, "prior": prior, "beta": beta, "average": average,
              "pos_label": pos_label, "labels": labels, "n_draws": n_draws,
              "random_state": random_state}
    if average != "binary":
        # Unused off the binary table; scikit-learn would check it against the
        # estimator's classes (a fold holding one class fails there).
        kwargs["pos_label"] = None
    return make_scorer(posterior_score, response_method=response_method,
                       greater_is_better=spec.higher_is_better, **kwargs)


def confusion_count(y_true, y_pred, *, cell="tp", label=None, pos_label=1, sample_weight=None):
    """One cell of a confusion table, as a number (the function behind `CountsScorer`).

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        True and predicted labels.
    cell : {"tp", "fp", "fn", "tn"}, default="tp"
        Which cell.
    label : label, default=None
        The one-vs-rest table of this label (binary or multiclass data); by
        default the binary table of `pos_label`.
    pos_label : int, float, bool or str, default=1
        Positive class of the binary table.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights.

    Returns
    -------
    float
        A label absent from the data counts as an all-negative table.

    Examples
    --------
    >>> from skprobeval import confusion_count
    >>> confusion_count([1, 0, 1, 1], [1, 1, 0, 1], cell="tp")
    2.0
    >>> confusion_count(["a", "b", "c"], ["a", "c", "c"], cell="fp", label="c")
    1.0
    """
    if cell not in _CELLS:
        fail("cell", f"one of {list(_CELLS)}", cell)
    if label is None:
        counts = ConfusionCounts.from_predictions(y_true, y_pred, pos_label=pos_label,
                                                  sample_weight=sample_weight)
    else:
        counts = ConfusionCounts.from_predictions(y_true, y_pred, labels=[label], average=None,
                                                  sample_weight=sample_weight)[0]
    return float(getattr(counts, cell))


def _count_keys(labels):
    if labels is None:
        return list(_CELLS)
    return [f"{cell}_{label}" for label in to_host(labels, "labels") for cell in _CELLS]


class CountsScorer:
    """A scorer that records confusion counts instead of a score.

    Used as ``scoring=CountsScorer()`` in `sklearn.model_selection.cross_validate`
    or `~sklearn.model_selection.GridSearchCV`, it records each fold's
    counts under a fixed key set so the folds can be pooled later
    (`PosteriorRefit`, `compare_cv_results`):

    * ``tp, fp, fn, tn``: the binary table of `pos_label` (the default);
    * ``tp_<label>, fp_<label>, fn_<label>, tn_<label>`` for each of
      `labels`: one one-vs-rest table per label, for multiclass targets
      (e.g. ``labels=range(10)`` for ten digits).  Give every label of the
      problem: a label missing from a fold counts as an all-negative table,
      and `PosteriorRefit` recognises single-label data with every label
      (each item one true and one predicted label) for its exact micro
      average.

    In a multi-metric ``scoring={...}`` dict, where every scorer must return
    one number, use ``scoring={"f1": "f1", **CountsScorer().as_scoring()}``.

    Parameters
    ----------
    labels : array-like, default=None
        Record one one-vs-rest table per label (multiclass), in this order.
        By default one binary table of `pos_label`.
    pos_label : int, float, bool or str, default=1
        The positive class of the binary table (ignored with `labels`).

    See Also
    --------
    PosteriorRefit : Refit the candidate whose pooled counts are best.

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.model_selection import cross_validate
    >>> from skprobeval import CountsScorer
    >>> X, y = make_classification(n_samples=200, random_state=0)
    >>> result = cross_validate(LogisticRegression(), X, y, cv=4, scoring=CountsScorer())
    >>> sorted(key for key in result if key.startswith("test_"))
    ['test_fn', 'test_fp', 'test_tn', 'test_tp']
    >>> int(sum(result[f"test_{cell}"].sum() for cell in ("tp", "fp", "fn", "tn")))
    200

    Three classes, one one-vs-rest table per label:

    >>> X3, y3 = make_classification(n_samples=150, n_classes=3, n_informative=4,
    ...                              random_state=0)
    >>> scorer = CountsScorer(labels=range(3))
    >>> scorer.keys[:4]
    ['tp_0', 'fp_0', 'fn_0', 'tn_0']
    >>> result = cross_validate(LogisticRegression(), X3, y3, cv=3, scoring=scorer)
    >>> int(sum(result[f"test_tp_{label}"].sum() for label in range(3)))   # items right
    86
    """

    def __init__(self, labels=None, pos_label=1):
        self.labels = labels
        self.pos_label = pos_label
        self._request_weight = None

    @property
    def keys(self):
        """The keys of the dict each call returns, in order."""
        return _count_keys(self.labels)

    def __call__(self, estimator, X, y_true, sample_weight=None, **kwargs):
        """Predict with `estimator` on `X` and return the counts as a dict of floats."""
        if kwargs:
            raise TypeError(f"CountsScorer got unexpected parameters {sorted(kwargs)}.")
        y_pred = estimator.predict(X)
        if self.labels is None:
            try:
                counts = ConfusionCounts.from_predictions(
                    y_true, y_pred, pos_label=self.pos_label, sample_weight=sample_weight)
            except ValueError as error:
                if "multiclass" not in str(error) and "multilabel" not in str(error):
                    raise
                raise ValueError(
                    "`labels` must be given to CountsScorer for multiclass or multilabel "
                    "targets (one one-vs-rest table per label, e.g. "
                    "CountsScorer(labels=list(range(10)))); got labels=None, which records "
                    "the binary table of `pos_label`.") from None
            return {cell: float(getattr(counts, cell)) for cell in _CELLS}
        labels = list(to_host(self.labels, "labels"))
        counts = ConfusionCounts.from_predictions(y_true, y_pred, labels=labels,
                                                  average=None, sample_weight=sample_weight)
        return {f"{cell}_{label}": float(getattr(counts, cell)[i])
                for i, label in enumerate(labels) for cell in _CELLS}

    def as_scoring(self):
        """The counts as a dict of single-number scorers, for a multi-metric ``scoring``.

        Returns
        -------
        dict of str to scorer
            One `make_scorer` scorer per key of `keys`; merge it into a
            ``scoring={...}`` dict.  scikit-learn predicts once per fold
            for all of them.

        Examples
        --------
        >>> from skprobeval import CountsScorer
        >>> sorted(CountsScorer().as_scoring())
        ['fn', 'fp', 'tn', 'tp']
        >>> len(CountsScorer(labels=range(10)).as_scoring())
        40
        """
        scorers = {}
        labels = [None] if self.labels is None else list(self.labels)
        for label in labels:
            for cell in _CELLS:
                key = cell if label is None else f"{cell}_{label}"
                scorer = make_scorer(confusion_count, cell=cell, label=label,
                                     pos_label=self.pos_label)
                if self._request_weight is not None:
                    scorer = scorer.set_score_request(sample_weight=self._request_weight)
                scorers[key] = scorer
        return scorers

    def set_score_request(self, *, sample_weight=None):
        """Request ``sample_weight`` under metadata routing (as scikit-learn scorers do).

        Parameters
        ----------
        sample_weight : bool or None, default=None
            True to receive the routed ``sample_weight``.

        Returns
        -------
        self

        Examples
        --------
        >>> import sklearn
        >>> from skprobeval import CountsScorer
        >>> scorer = CountsScorer().set_score_request(sample_weight=True)
        """
        self._request_weight = sample_weight
        return self

    def get_metadata_routing(self):
        """The metadata request of this scorer (`sample_weight` for ``score``).

        Returns
        -------
        MetadataRequest
        """
        request = MetadataRequest(owner=type(self).__name__)
        request.score.add_request(param="sample_weight", alias=self._request_weight)
        return request

    def __repr__(self):
        return f"CountsScorer(labels={self.labels!r}, pos_label={self.pos_label!r})"


_SPLIT_KEY = re.compile(r"^split(\d+)_test_(tp|fp|fn|tn)(?:_(.+))?$")
_HOW_TO_RECORD = ("results recorded with the confusion counts of CountsScorer (keys "
                  "'split0_test_tp', ... or 'split0_test_tp_<label>', ...), which "
                  "PosteriorRefit pools over the splits: record them beside any score, e.g. "
                  "scoring={'f1_lower': make_posterior_scorer(metric='f1', statistic='lower'), "
                  "**CountsScorer(labels=...).as_scoring()}")


def _recorded_counts(cv_results):
    """The `CountsScorer` counts in ``cv_results``, split by split.

    Only `CountsScorer`'s keys are read: ``split<k>_test_<cell>`` for the
    binary table, and ``split<k>_test_<cell>_<label>`` for the labels whose
    four cells are all recorded for the same splits (so a user's scorer
    named, say, ``fp_rate`` is not taken for a count).

    Returns
    -------
    binary : ndarray of shape (4, n_splits, n_candidates) or None
    per_label : ndarray of shape (4, n_splits, n_candidates, n_labels) or None
        Cells in the order tp, fp, fn, tn; labels in the order first seen.
    """
    found = {}   # label suffix (None: binary) -> cell -> split -> values
    for key in cv_results:
        match = _SPLIT_KEY.match(key)
        if match:
            split, cell, label = int(match.group(1)), match.group(2), match.group(3)
            found.setdefault(label, {}).setdefault(cell, {})[split] = cv_results[key]
    complete = {label: cells for label, cells in found.items()
                if set(cells) == set(_CELLS)
                and len({frozenset(cells[cell]) for cell in _CELLS}) == 1}
    if not complete:
        fail("cv_results", _HOW_TO_RECORD, sorted(cv_results)[:6])
    splits = {frozenset(cells["tp"]) for cells in complete.values()}
    if len(splits) != 1:
        fail("cv_results", "results whose counts are all recorded for the same splits",
             sorted(cv_results)[:6])
    order = sorted(next(iter(splits)))

    def stack(cells):
        return np.asarray([[np.asarray(cells[cell][k], dtype=float) for k in order]
                           for cell in _CELLS])

    binary = stack(complete[None]) if None in complete else None
    labels = [label for label in complete if label is not None]
    per_label = (np.stack([stack(complete[label]) for label in labels], axis=-1)
                 if labels else None)
    for values in (binary, per_label):
        if values is not None and not np.all(np.isfinite(values)):
            raise ValueError("`cv_results` holds failed fits (NaN counts); "
                             "PosteriorRefit cannot rank them: set error_score='raise'.")
    return binary, per_label


def _every_item_once(per_label):
    """True when the labels cover single-label data: one true and one predicted label per item.

    Then, in every split, the labels' true positives and false positives add
    up to the number of items, and so do their true positives and false
    negatives.
    """
    tp, fp, fn, tn = per_label
    total = tp[..., 0] + fp[..., 0] + fn[..., 0] + tn[..., 0]
    return bool(np.allclose(tp.sum(-1) + fp.sum(-1), total, rtol=1e-9, atol=1e-9)
                and np.allclose(tp.sum(-1) + fn.sum(-1), total, rtol=1e-9, atol=1e-9))


class PosteriorRefit:
    """A ``refit=`` rule for ``GridSearchCV``: the best pooled posterior statistic.

    With the counts of `CountsScorer` in the search's ``cv_results_``
    (``scoring=CountsScorer(...)``, or a ``scoring={...}`` dict merged with
    ``CountsScorer(...).as_scoring()``), each candidate's counts are summed
    over the splits (evidence adds up) and the candidate whose posterior
    `statistic` of `metric` is highest is refit.  For metrics where lower is
    better (fallout, error, silence, noise, e_measure) the statistic is
    negated before ranking, so use ``statistic="upper"`` to prefer the
    candidate that is surely good.  The default — the lower bound of a 90%
    credible interval — prefers the candidate that is surely good over one
    that is good on average but uncertain.

    Binary counts (``CountsScorer()``) take ``average="binary"``; per-label
    counts (``CountsScorer(labels=...)``, multiclass) take the other
    averages:

    * ``"micro"`` pools the labels.  When the labels cover single-label data
      (every split's true positives and false positives over the labels add
      up to its items), precision, recall, F and accuracy are the share of
      items right, exactly Beta(ΣTP + λ, ΣFP + λ), as in
      `posterior_score`; otherwise (other metrics, a subset of the labels,
      multilabel data) the posterior of the pooled one-vs-rest table.
    * ``"macro"``, ``"weighted"`` and ``"powers"`` average the per-label
      values over draws of the posterior.  One-vs-rest counts do not
      determine the K x K table of true and predicted labels, so each
      label's 4-cell table is drawn independently from its own Dirichlet
      posterior (`posterior_score` draws the K x K table jointly).  For
      single-label data the label tables get the masses the K x K prior
      gives each label (TP, FP and FN 2λ/K each, TN the rest of 4λ), so each
      label's precision, recall and F posteriors are the same either way;
      the spread of their average may differ a little, as labels of one
      K x K table are dependent.  The mean of the average is exact (the
      average of the labels' exact means) wherever the metric's per-label
      posterior is; MCC and K-measure are sampled.

    Parameters
    ----------
    metric : str, default="f1"
        A registered metric name.
    statistic : {"mean", "median", "mode", "lower", "upper", "prob_above"}, default="lower"
        The posterior summary to maximise (see `posterior_statistic`).
    confidence : float, default=0.95
        Level of the interval for ``"lower"`` / ``"upper"``.
    threshold : float, default=None
        Threshold for ``statistic="prob_above"``.
    prior : float or {"jeffreys", "uniform"}, default=0.5
        Dirichlet concentration λ of each cell.
    beta : float, default=1.0
        F-beta's beta.
    average : {"binary", "micro", "macro", "weighted", "powers"}, default="binary"
        How per-label counts are combined (see above); ``"powers"`` for
        informedness and markedness only.
    n_repeats : int, default=1
        How many times the splitter covers the data: with repeated
        cross-validation (``RepeatedStratifiedKFold(n_repeats=5)``) every item
        is tested five times, so the pooled counts are divided by
        `n_repeats` before they become evidence.  Otherwise the posterior is
        too narrow and the lower bound overstated.  The number of splits must
        be a multiple of it.
    n_draws : int, default=10_000
        Posterior draws of the sampled posteriors (macro, weighted and
        Powers averages, metrics without an exact form).  The mean of an
        average is exact where the metric's per-label posterior is (all
        but MCC and K-measure): ``statistic="mean"`` then takes no draws'
        noise.
    random_state : None, int or numpy.random.Generator, default=0
        Seed of the sampled posteriors.  With an int (the default) every
        candidate draws from the same seed, so a candidate's score depends
        only on its counts and identical searches pick the same candidate.
        A Generator is advanced candidate by candidate and call by call.

    See Also
    --------
    CountsScorer : Records the counts this rule pools.
    make_posterior_scorer : A posterior statistic per split, as a score.

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.model_selection import GridSearchCV, RepeatedStratifiedKFold
    >>> from skprobeval import CountsScorer, PosteriorRefit
    >>> X, y = make_classification(n_samples=300, random_state=0)
    >>> search = GridSearchCV(LogisticRegression(), {"C": [0.001, 1.0]}, cv=3,
    ...                       scoring=CountsScorer(), refit=PosteriorRefit(metric="f1"))
    >>> search.fit(X, y).best_params_
    {'C': 1.0}

    Repeated cross-validation tests every item `n_repeats` times:

    >>> cv = RepeatedStratifiedKFold(n_splits=3, n_repeats=4, random_state=0)
    >>> search = GridSearchCV(LogisticRegression(), {"C": [0.001, 1.0]}, cv=cv,
    ...                       scoring=CountsScorer(), refit=PosteriorRefit(n_repeats=4))
    >>> search.fit(X, y).best_params_
    {'C': 1.0}
    >>> PosteriorRefit(n_repeats=4).scores(search.cv_results_).round(3)
    array([0.855, 0.885])
    >>> PosteriorRefit().scores(search.cv_results_).round(3)   # overstated: 4x the evidence
    array([0.878, 0.906])

    Multiclass targets: per-label counts and a label average.

    >>> from sklearn.datasets import load_iris
    >>> from skprobeval import make_posterior_scorer
    >>> X, y = load_iris(return_X_y=True)
    >>> scoring = {"f1_macro_lower": make_posterior_scorer(metric="f1", average="macro",
    ...                                                    statistic="lower"),
    ...            **CountsScorer(labels=[0, 1, 2]).as_scoring()}
    >>> refit = PosteriorRefit(average="macro")
    >>> search = GridSearchCV(LogisticRegression(max_iter=1000), {"C": [0.01, 1.0]}, cv=3,
    ...                       scoring=scoring, refit=refit)
    >>> search.fit(X, y).best_params_
    {'C': 1.0}
    >>> refit.scores(search.cv_results_).round(3)
    array([0.818, 0.943])
    """

    @keyword_only("metric")
    @renamed_keyword("n_samples", "n_draws")
    def __init__(self, *, metric="f1", statistic="lower", confidence=0.95, threshold=None,
                 prior=0.5, beta=1.0, average="binary", n_repeats=1, n_draws=N_DRAWS,
                 random_state=0):
        self.metric = metric
        self.statistic = statistic
        self.confidence = confidence
        self.threshold = threshold
        self.prior = prior
        self.beta = beta
        self.average = average
        self.n_repeats = n_repeats
        self.n_draws = n_draws
        self.random_state = random_state
        self._settings()   # fail here, not after the whole search has run

    def _settings(self):
        """The validated parameters."""
        threshold = _check_statistic(self.statistic, self.threshold)
        name = get_metric(self.metric).name
        n_repeats = self.n_repeats
        if (not isinstance(n_repeats, numbers.Integral) or isinstance(n_repeats, bool)
                or n_repeats < 1):
            fail("n_repeats", "an integer >= 1", n_repeats,
                 error=ValueError if isinstance(n_repeats, numbers.Real) else TypeError)
        return {
            "name": name, "threshold": threshold,
            "confidence": check_confidence(self.confidence),
            "lam": check_prior(self.prior), "beta": check_positive(self.beta, "beta"),
            "average": _check_score_average(self.average, name), "n_repeats": int(n_repeats),
            "n_draws": check_draws(self.n_draws),
            "random_state": _check_seed(self.random_state),
        }

    def scores(self, cv_results):
        """The pooled posterior statistic of every candidate.

        Parameters
        ----------
        cv_results : dict
            ``GridSearchCV.cv_results_`` holding `CountsScorer` keys.

        Returns
        -------
        ndarray of shape (n_candidates,)
            Negated for metrics where lower is better.
        """
        settings = self._settings()
        name, average, n_repeats = settings["name"], settings["average"], settings["n_repeats"]
        binary, per_label = _recorded_counts(cv_results)
        if average == "binary" and binary is None:
            fail("average", "'micro', 'macro', 'weighted' or 'powers' for per-label counts "
                 "(CountsScorer(labels=...)); 'binary' needs the counts of CountsScorer()",
                 average)
        if average != "binary" and per_label is None:
            fail("average", "'binary' for binary counts (CountsScorer()); record per-label "
                 "counts with CountsScorer(labels=...) for the other averages", average)
        cells = binary if average == "binary" else per_label
        n_splits = cells.shape[1]
        if n_splits % n_repeats:
            fail("n_repeats", f"a divisor of the number of splits ({n_splits})", n_repeats)
        pooled = cells.sum(axis=1) / n_repeats          # (4, n_candidates[, n_labels])
        every_item = average != "binary" and _every_item_once(per_label)
        values = np.asarray([
            posterior_statistic(self._posterior(ConfusionCounts(*pooled[:, i]), settings,
                                                every_item),
                                self.statistic, confidence=settings["confidence"],
                                threshold=settings["threshold"])
            for i in range(pooled.shape[1])], dtype=float)
        return values if get_metric(name).higher_is_better else -values

    @staticmethod
    def _posterior(counts, settings, every_item):
        """One candidate's posterior from its pooled counts."""
        name, average, lam, beta = (settings[key] for key in ("name", "average", "lam", "beta"))
        n_draws, random_state = settings["n_draws"], settings["random_state"]
        if average == "binary":
            return metric_posterior(counts, metric=name, prior=lam, beta=beta, n_draws=n_draws,
                                    random_state=random_state)
        check_counts_metric(name, average)
        if average == "micro" and name in ("accuracy", "error") and not every_item:
            fail("metric", "a per-label metric when the counts are not single-label data "
                 "with every label (accuracy is the share of items right)", name)
        if average == "micro":
            if every_item:
                # Every one of the K labels: the label set of single-label data.
                size = counts.tp.shape[0]
                every_label = JointCodes("multiclass", [], np.arange(size), size, None)
                exact = micro_multiclass(every_label, counts, name, lam)
                if exact is not None:
                    return exact
            return metric_posterior(counts.sum(), metric=name, prior=lam, beta=beta,
                                    n_draws=n_draws, random_state=random_state)
        function, params, _ = metric_function(name, beta)
        prior = lam
        if every_item:
            # Single-label data: each label's cells get the masses the K x K
            # table's prior gives them (TP, FP and FN d = 2λ/K, TN the rest of 4λ;
            # an F-score λ on TP).
            prior = label_prior(counts.tp.shape[0], lam,
                                f_score=takes_f_score_prior("multiclass", name, average))
        # Labels drawn and averaged in the order of their counts, not of their names
        # (the per-label tables are independent: equal counts are exchangeable), so
        # renaming the classes gives the same score.
        order = np.lexsort([counts.tn, counts.fn, counts.fp, counts.tp])
        weights = label_weights(counts, average, name)
        counts = ConfusionCounts(counts.tp[order], counts.fp[order], counts.fn[order],
                                 counts.tn[order])
        weights = None if weights is None else weights[order]
        draws = sample_cells(counts, prior, n_draws, check_random_state(random_state))
        samples = average_values(function, params, draws, average, weights)
        # The average's mean is the average of the labels' exact means (where exact).
        mean = exact_average_mean(counts, name, prior, beta, average, weights)
        return SampledPosterior(samples) if mean is None else ExactMeanPosterior(samples, mean)

    def __call__(self, cv_results):
        """Index of the candidate to refit."""
        return int(np.argmax(self.scores(cv_results)))

    def __repr__(self):
        return (f"PosteriorRefit(metric={self.metric!r}, statistic={self.statistic!r}, "
                f"confidence={self.confidence!r}, threshold={self.threshold!r}, "
                f"prior={self.prior!r}, beta={self.beta!r}, average={self.average!r}, "
                f"n_repeats={self.n_repeats!r}, n_draws={self.n_draws!r}, "
                f"random_state={self.random_state!r})")
