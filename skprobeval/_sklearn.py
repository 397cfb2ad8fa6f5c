"""scikit-learn glue: posterior scorers, confusion-count scorers and a refit rule.

Scorers are built with `sklearn.metrics.make_scorer` over the public
module-level functions `posterior_score` and `confusion_count`, so they
pickle, run under ``n_jobs``, show a truthful repr and take ``sample_weight``
through metadata routing.
"""

from __future__ import annotations

import re

import numpy as np
from sklearn.metrics import make_scorer
from sklearn.utils.metadata_routing import MetadataRequest

from ._bayes import fbeta_posterior, informedness_posterior, markedness_posterior, \
    metric_posterior, precision_posterior, recall_posterior
from ._counts import ConfusionCounts
from ._metrics import get_metric
from ._validation import check_confidence, check_positive, check_prior, fail

__all__ = [
    "CountsScorer",
    "PosteriorRefit",
    "confusion_count",
    "make_posterior_scorer",
    "posterior_score",
    "posterior_statistic",
]

STATISTICS = ("mean", "median", "mode", "lower", "upper", "prob_above")
_CELLS = ("tp", "fp", "fn", "tn")
# Metrics where a lower value is better: their scorers are negated, as
# scikit-learn does for losses (greater_is_better=False).
_LOSSES = frozenset({"fallout", "error", "silence", "noise", "e_measure"})
# Entry points that handle macro / weighted averages of a metric.
_AVERAGED = {
    "precision": precision_posterior,
    "recall": recall_posterior,
    "informedness": informedness_posterior,
    "markedness": markedness_posterior,
}


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


def posterior_statistic(posterior, statistic="mean", *, confidence=0.9, threshold=None):
    """One number from a posterior: its mean, median, mode, a bound, or a tail probability.

    Parameters
    ----------
    posterior : posterior object
        Any skprobeval posterior (exact or sampled).
    statistic : {"mean", "median", "mode", "lower", "upper", "prob_above"}, default="mean"
        ``"lower"`` / ``"upper"``: the bounds of the equal-tailed credible
        interval at `confidence`; ``"prob_above"``: P(metric > threshold).
    confidence : float, default=0.9
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
    >>> posterior = metric_posterior(ConfusionCounts(tp=30, fp=5, fn=10, tn=55), "f1")
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


def posterior_score(y_true, y_pred, *, metric="f1", statistic="mean", confidence=0.9,
                    threshold=None, prior=0.5, beta=1.0, average="binary", pos_label=1,
                    labels=None, sample_weight=None):
    """A posterior summary of a confusion-table metric, as a score.

    The counts of ``y_true, y_pred`` give the posterior of `metric` (exact
    where an exact form exists, DESIGN §3); `statistic` reduces it to one
    number.  ``statistic="lower"`` scores a model by how good it surely is:
    the lower credible bound penalises small test sets.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels.
    y_pred : array-like of shape (n_samples,)
        Predicted labels.
    metric : str, default="f1"
        A registered metric name (see `available_metrics`).
    statistic : {"mean", "median", "mode", "lower", "upper", "prob_above"}, default="mean"
        See `posterior_statistic`.
    confidence : float, default=0.9
        Level of the credible interval for ``"lower"`` and ``"upper"``.
    threshold : float, default=None
        Required with ``statistic="prob_above"``: the score is P(metric > threshold).
    prior : float or {"jeffreys", "uniform"}, default=0.5
        Dirichlet concentration of each cell.
    beta : float, default=1.0
        F-beta's beta (metric ``"fbeta"``; ``"f1"`` ignores it).
    average : {"binary", "micro", "macro", "weighted"}, default="binary"
        How labels are combined; ``"macro"`` and ``"weighted"`` are available
        for precision, recall, f1, fbeta, informedness and markedness.
    pos_label : int, float, bool or str, default=1
        The positive class for ``average="binary"``.
    labels : array-like, default=None
        Labels included by the averages.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights.

    Returns
    -------
    float

    Examples
    --------
    >>> from skprobeval import posterior_score
    >>> y_true = [1, 1, 1, 1, 0, 0, 0, 0, 1, 0]
    >>> y_pred = [1, 1, 1, 0, 0, 0, 0, 1, 1, 0]
    >>> round(posterior_score(y_true, y_pred, metric="f1"), 3)
    0.735
    >>> round(posterior_score(y_true, y_pred, metric="f1", statistic="lower"), 3)
    0.471
    """
    threshold = _check_statistic(statistic, threshold)
    confidence = check_confidence(confidence)
    spec = get_metric(metric)
    if average in ("binary", "micro"):
        counts = ConfusionCounts.from_predictions(
            y_true, y_pred, labels=labels, pos_label=pos_label, average=average,
            sample_weight=sample_weight)
        posterior = metric_posterior(counts, spec.name, prior=prior, beta=beta, random_state=0)
    elif average in ("macro", "weighted"):
        if spec.name in ("f1", "fbeta"):
            posterior = fbeta_posterior(
                y_true, y_pred, beta=1.0 if spec.name == "f1" else beta, prior=prior,
                labels=labels, average=average, sample_weight=sample_weight)
        elif spec.name in _AVERAGED:
            posterior = _AVERAGED[spec.name](y_true, y_pred, prior=prior, labels=labels,
                                             average=average, sample_weight=sample_weight)
        else:
            fail("average", f"'binary' or 'micro' for metric {spec.name!r}", average)
    else:
        fail("average", "one of 'binary', 'micro', 'macro' or 'weighted'", average)
    return float(posterior_statistic(posterior, statistic, confidence=confidence,
                                     threshold=threshold))


def make_posterior_scorer(metric="f1", *, statistic="mean", confidence=0.9, threshold=None,
                          prior=0.5, beta=1.0, average="binary", pos_label=1, labels=None,
                          response_method="predict"):
    """A scikit-learn scorer from a metric's posterior (for ``GridSearchCV`` etc.).

    Built with `sklearn.metrics.make_scorer` over `posterior_score`, so it
    pickles, runs under ``n_jobs``, fits into a multi-metric ``scoring={...}``
    dict, and takes ``sample_weight`` through metadata routing
    (``scorer.set_score_request(sample_weight=True)``) or directly.

    Parameters
    ----------
    metric : str, default="f1"
        A registered metric name.  Metrics where lower is better (fallout,
        error, silence, noise, e_measure) give a negated scorer, as
        scikit-learn's ``greater_is_better=False`` does.
    statistic : {"mean", "median", "mode", "lower", "upper", "prob_above"}, default="mean"
        See `posterior_statistic`.
    confidence, threshold, prior, beta, average, pos_label, labels
        As in `posterior_score`; validated here, once.
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
    >>> scorer = make_posterior_scorer("f1", statistic="lower", confidence=0.9)
    >>> scorer
    make_scorer(posterior_score, response_method='predict', metric=f1, statistic=lower, ...)
    >>> search = GridSearchCV(LogisticRegression(), {"C": [0.01, 1.0]}, scoring=scorer, cv=3)
    >>> search.fit(X, y).best_params_
    {'C': 1.0}
    """
    threshold = _check_statistic(statistic, threshold)
    confidence = check_confidence(confidence)
    spec = get_metric(metric)
    check_prior(prior)
    beta = check_positive(beta, "beta")
    if average not in ("binary", "micro", "macro", "weighted"):
        fail("average", "one of 'binary', 'micro', 'macro' or 'weighted'", average)
    if average in ("macro", "weighted") and spec.name not in set(_AVERAGED) | {"f1", "fbeta"}:
        fail("average", f"'binary' or 'micro' for metric {spec.name!r}", average)
    kwargs = {"metric": spec.name, "statistic": statistic, "confidence": confidence,
              "threshold": threshold, "prior": prior, "beta": beta, "average": average,
              "pos_label": pos_label, "labels": labels}
    return make_scorer(posterior_score, response_method=response_method,
                       greater_is_better=spec.name not in _LOSSES, **kwargs)


def confusion_count(y_true, y_pred, *, cell="tp", label=None, pos_label=1, sample_weight=None):
    """One cell of a confusion table, as a number (the function behind `CountsScorer`).

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        True and predicted labels.
    cell : {"tp", "fp", "fn", "tn"}, default="tp"
        Which cell.
    label : label, default=None
        The one-vs-rest table of this label; by default the binary table of
        `pos_label`.
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
    return [f"{cell}_{label}" for label in labels for cell in _CELLS]


class CountsScorer:
    """A scorer that records confusion counts instead of a score.

    Used as ``scoring=CountsScorer()`` in `sklearn.model_selection.cross_validate`
    or `~sklearn.model_selection.GridSearchCV`, it records each fold's
    counts under a fixed key set — ``tp, fp, fn, tn`` for a binary problem,
    ``tp_<label>, fp_<label>, ...`` for each of `labels` — so the folds can be
    pooled later (`PosteriorRefit`, `compare_cv_results`).  In a multi-metric
    ``scoring={...}`` dict, where every scorer must return one number, use
    ``scoring={"f1": "f1", **CountsScorer().as_scoring()}``.

    Parameters
    ----------
    labels : array-like, default=None
        Record one one-vs-rest table per label (multiclass).  By default one
        binary table of `pos_label`.
    pos_label : int, float, bool or str, default=1
        The positive class of the binary table.

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
            counts = ConfusionCounts.from_predictions(y_true, y_pred, pos_label=self.pos_label,
                                                      sample_weight=sample_weight)
            return {cell: float(getattr(counts, cell)) for cell in _CELLS}
        counts = ConfusionCounts.from_predictions(y_true, y_pred, labels=self.labels,
                                                  average=None, sample_weight=sample_weight)
        return {f"{cell}_{label}": float(getattr(counts, cell)[i])
                for i, label in enumerate(self.labels) for cell in _CELLS}

    def as_scoring(self):
        """The counts as a dict of single-number scorers, for a multi-metric ``scoring``.

        Returns
        -------
        dict of str to scorer
            One `make_scorer` scorer per key of `keys`; merge it into a
            ``scoring={...}`` dict.  Predictions are computed once per fold.

        Examples
        --------
        >>> from skprobeval import CountsScorer
        >>> sorted(CountsScorer().as_scoring())
        ['fn', 'fp', 'tn', 'tp']
        """
        scorers = {}
        for key in self.keys:
            cell, _, label_text = key.partition("_")
            label = None
            if self.labels is not None:
                label = self.labels[_count_keys(self.labels).index(key) // 4]
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


_SPLIT_KEY = re.compile(r"^split(\d+)_test_(tp|fp|fn|tn)(_.+)?$")


def _pooled_counts(cv_results):
    """Each candidate's counts pooled over splits (and over labels, micro).

    Reads the ``split<k>_test_<cell>`` keys that `CountsScorer` (or its
    `~CountsScorer.as_scoring` dict) leaves in ``GridSearchCV.cv_results_``;
    per-label keys ``split<k>_test_<cell>_<label>`` are pooled over labels.

    Returns
    -------
    ConfusionCounts
        Cells of shape ``(n_candidates,)``.
    """
    sums = {}
    for key in cv_results:
        match = _SPLIT_KEY.match(key)
        if match:
            values = np.asarray(cv_results[key], dtype=float)
            sums[match.group(2)] = sums.get(match.group(2), 0.0) + values
    if set(sums) != set(_CELLS):
        fail("cv_results", "results recorded with scoring=CountsScorer() (keys like "
             "'split0_test_tp')", sorted(cv_results)[:6])
    if not all(np.all(np.isfinite(sums[cell])) for cell in _CELLS):
        raise ValueError("`cv_results` holds failed fits (NaN counts); "
                         "PosteriorRefit cannot rank them: set error_score='raise'.")
    return ConfusionCounts(*(sums[cell] for cell in _CELLS))


class PosteriorRefit:
    """A ``refit=`` rule for ``GridSearchCV``: the best pooled posterior statistic.

    With ``scoring=CountsScorer()`` (or a dict holding
    ``CountsScorer().as_scoring()``), each candidate's fold counts are pooled
    (evidence adds up, seed 000 section 3) and the candidate whose posterior
    `statistic` of `metric` is highest is refit.  Per-label counts
    (``CountsScorer(labels=...)``) are pooled over labels as well (micro).
    For metrics where lower is better (fallout, error, silence, noise,
    e_measure) the statistic is negated before ranking, so use
    ``statistic="upper"`` to prefer the candidate that is surely good.  The default — the lower
    bound of a 90% credible interval — prefers the candidate that is surely
    good over one that is good on average but uncertain.

    Parameters
    ----------
    metric : str, default="f1"
        A registered metric name.
    statistic : {"mean", "median", "mode", "lower", "upper", "prob_above"}, default="lower"
        The posterior summary to maximise (see `posterior_statistic`).
    confidence : float, default=0.9
        Level of the interval for ``"lower"`` / ``"upper"``.
    prior : float or {"jeffreys", "uniform"}, default=0.5
        Dirichlet concentration of each cell.
    beta : float, default=1.0
        F-beta's beta.
    threshold : float, default=None
        Threshold for ``statistic="prob_above"``.

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.model_selection import GridSearchCV
    >>> from skprobeval import CountsScorer, PosteriorRefit
    >>> X, y = make_classification(n_samples=300, random_state=0)
    >>> search = GridSearchCV(LogisticRegression(), {"C": [0.001, 1.0]}, cv=3,
    ...                       scoring=CountsScorer(), refit=PosteriorRefit("f1"))
    >>> search.fit(X, y).best_params_
    {'C': 1.0}
    """

    def __init__(self, metric="f1", statistic="lower", confidence=0.9, prior=0.5, beta=1.0,
                 threshold=None):
        self.metric = metric
        self.statistic = statistic
        self.confidence = confidence
        self.prior = prior
        self.beta = beta
        self.threshold = threshold

    def scores(self, cv_results):
        """The pooled posterior statistic of every candidate.

        Parameters
        ----------
        cv_results : dict
            ``GridSearchCV.cv_results_`` with ``CountsScorer`` keys.

        Returns
        -------
        ndarray of shape (n_candidates,)
        """
        threshold = _check_statistic(self.statistic, self.threshold)
        spec = get_metric(self.metric)
        counts = _pooled_counts(cv_results)
        posterior = metric_posterior(counts, spec.name, prior=self.prior, beta=self.beta,
                                     random_state=0)
        values = np.asarray(posterior_statistic(posterior, self.statistic,
                                                confidence=self.confidence,
                                                threshold=threshold), dtype=float)
        return -values if spec.name in _LOSSES else values

    def __call__(self, cv_results):
        """Index of the candidate to refit."""
        return int(np.argmax(self.scores(cv_results)))

    def __repr__(self):
        return (f"PosteriorRefit(metric={self.metric!r}, statistic={self.statistic!r}, "
                f"confidence={self.confidence!r}, prior={self.prior!r})")
