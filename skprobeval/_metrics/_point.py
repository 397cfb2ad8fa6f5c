"""Point metrics: one definition per metric, on confusion counts.

Each metric is a pure numpy function of the four cells ``tp, fp, fn, tn``
(arrays that broadcast), returning NaN where the metric is undefined (0/0).
The same function evaluates counts and Dirichlet-sampled cell probabilities.
The ``*_score(y_true, y_pred, ...)`` functions are thin wrappers with
scikit-learn's signature: they count once with `ConfusionCounts`, evaluate the
registered function, then apply ``zero_division`` and ``average``.
Definitions: the theory page ``docs/theory/metrics.rst``.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from sklearn.exceptions import UndefinedMetricWarning

from .._core import (
    check_positive,
    check_sample_weight,
    fail,
    to_host,
    warn_future,
    warn_user,
    weighted_mean,
)
from .._counting import (
    ConfusionCounts,
    check_labels_argument,
    check_pair,
    joint_codes,
    square_table,
    tally_labels,
)
from ._meaning import ONE_VS_REST, check_metric_target

__all__ = [
    "MetricSpec",
    "available_metrics",
    "distance_weighted_precision_recall",
    "e_measure_score",
    "fallout_score",
    "generality_score",
    "get_metric",
    "informedness_score",
    "k_measure_score",
    "markedness_score",
    "metric_score",
    "noise_score",
    "overlap_score",
    "silence_score",
    "specificity_score",
]


# ---------------------------------------------------------------------------
# Definitions on counts
# ---------------------------------------------------------------------------


def _ratio(numerator, denominator):
    """``numerator / denominator`` with NaN (not a warning) where 0/0."""
    numerator = np.asarray(numerator, dtype=np.float64)
    denominator = np.asarray(denominator, dtype=np.float64)
    positive = denominator > 0
    with np.errstate(invalid="ignore", divide="ignore"):
        if np.all(positive):
            return np.asarray(numerator / denominator)
        return np.where(positive, numerator / np.where(positive, denominator, 1.0), np.nan)


def precision(tp, fp, fn, tn):
    """Precision (positive predictive value) ``tp / (tp + fp)``."""
    return _ratio(tp, tp + fp)


def recall(tp, fp, fn, tn):
    """Recall (sensitivity, true positive rate) ``tp / (tp + fn)``."""
    return _ratio(tp, tp + fn)


def fbeta(tp, fp, fn, tn, beta=1.0):
    """F-beta ``(1 + b^2) tp / ((1 + b^2) tp + b^2 fn + fp)``; 0/0 only when tp+fp+fn = 0."""
    weight = beta * beta
    scaled = (1 + weight) * np.asarray(tp, dtype=np.float64)
    fn = np.asarray(fn)
    return _ratio(scaled, scaled + (fn if weight == 1 else weight * fn) + np.asarray(fp))


def f1(tp, fp, fn, tn):
    """F1 ``2 tp / (2 tp + fp + fn)``."""
    return fbeta(tp, fp, fn, tn, beta=1.0)


def accuracy(tp, fp, fn, tn):
    """Accuracy (pertinence) ``(tp + tn) / n``."""
    return _ratio(np.add(tp, tn), np.add(np.add(tp, fp), np.add(fn, tn)))


def error(tp, fp, fn, tn):
    """Error rate ``(fp + fn) / n``."""
    return _ratio(np.add(fp, fn), np.add(np.add(tp, fp), np.add(fn, tn)))


def specificity(tp, fp, fn, tn):
    """Specificity (true negative rate, inverse recall) ``tn / (tn + fp)``."""
    return _ratio(tn, np.add(tn, fp))


def fallout(tp, fp, fn, tn):
    """Fallout (false positive rate) ``fp / (fp + tn)``."""
    return _ratio(fp, np.add(fp, tn))


def npv(tp, fp, fn, tn):
    """Negative predictive value (inverse precision) ``tn / (tn + fn)``."""
    return _ratio(tn, np.add(tn, fn))


def silence(tp, fp, fn, tn):
    """Silence (miss rate) ``fn / (tp + fn)`` = 1 - recall."""
    return _ratio(fn, np.add(tp, fn))


def noise(tp, fp, fn, tn):
    """Noise (false discovery rate) ``fp / (tp + fp)`` = 1 - precision."""
    return _ratio(fp, np.add(tp, fp))


def overlap(tp, fp, fn, tn):
    """Overlap (Jaccard index) ``tp / (tp + fp + fn)``."""
    return _ratio(tp, np.add(np.add(tp, fp), fn))


def generality(tp, fp, fn, tn):
    """Generality: the share of relevant items ``(tp + fn) / n``."""
    return _ratio(np.add(tp, fn), np.add(np.add(tp, fp), np.add(fn, tn)))


def selection_rate(tp, fp, fn, tn):
    """Selection rate: the share of items predicted positive ``(tp + fp) / n``.

    Demographic parity compares it across groups (fairlearn's ``selection_rate``).
    """
    return _ratio(np.add(tp, fp), np.add(np.add(tp, fp), np.add(fn, tn)))


def informedness(tp, fp, fn, tn):
    """Informedness (Youden's J, bookmaker) ``tpr - fpr``."""
    return recall(tp, fp, fn, tn) - fallout(tp, fp, fn, tn)


def markedness(tp, fp, fn, tn):
    """Markedness ``ppv + npv - 1``."""
    return precision(tp, fp, fn, tn) + npv(tp, fp, fn, tn) - 1.0


def balanced_accuracy(tp, fp, fn, tn):
    """Balanced accuracy ``(tpr + tnr) / 2``."""
    return 0.5 * (recall(tp, fp, fn, tn) + specificity(tp, fp, fn, tn))


def mcc(tp, fp, fn, tn):
    """Matthews correlation ``(tp tn - fp fn) / sqrt((tp+fp)(tp+fn)(tn+fp)(tn+fn))``."""
    tp, fp, fn, tn = (np.asarray(c, dtype=np.float64) for c in (tp, fp, fn, tn))
    # Product of the four margins in log space: no overflow for counts ~1e12.
    with np.errstate(divide="ignore"):
        log_margins = 0.5 * (np.log(tp + fp) + np.log(tp + fn) + np.log(tn + fp) + np.log(tn + fn))
    scale = np.exp(-log_margins)
    with np.errstate(invalid="ignore", over="ignore"):
        # Rounding of near-degenerate tables (cells near 1e-308) can step past +-1.
        value = np.clip((tp * tn - fp * fn) * scale, -1.0, 1.0)
    return np.where(np.isfinite(log_margins), value, np.nan)


def k_measure(tp, fp, fn, tn, alpha=1.0, beta=1.0):
    """K-measure ``(1 + b^2) (P R)^alpha / (b^2 P + R)`` (Nakache et al., 2005).

    Written on counts so that it equals F-beta at ``alpha = 1`` everywhere:
    ``(1 + b^2) tp^(2 alpha - 1) ((tp + fp)(tp + fn))^(1 - alpha) /
    (b^2 (tp + fn) + tp + fp)``; 0 when tp = 0 (no true positives, no credit,
    as for F), undefined only when tp + fp + fn = 0.
    """
    tp, fp, fn = (np.asarray(c, dtype=np.float64) for c in (tp, fp, fn))
    weight = beta * beta
    positive = tp > 0
    safe_tp = np.where(positive, tp, 1.0)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        log_value = ((2 * alpha - 1) * np.log(safe_tp)
                     + (1 - alpha) * (np.log(safe_tp + fp) + np.log(safe_tp + fn))
                     - np.log(weight * (safe_tp + fn) + safe_tp + fp))
        value = (1 + weight) * np.exp(log_value)
    value = np.where(positive, value, 0.0)
    return np.where(tp + fp + fn > 0, value, np.nan)


def e_measure(tp, fp, fn, tn, beta=1.0):
    """E-measure ``1 - 1 / (a/P + (1 - a)/R)`` with ``a = 1/(1 + b^2)``: ``1 - F_beta``."""
    return 1.0 - fbeta(tp, fp, fn, tn, beta=beta)


@dataclass(frozen=True, slots=True)
class MetricSpec:
    """A registered confusion-table metric.

    Attributes
    ----------
    name : str
        Registry name.
    function : callable
        ``function(tp, fp, fn, tn, **params)`` on arrays (counts or cell
        probabilities), NaN where undefined.
    params : tuple of str
        Keyword parameters the function accepts (``"beta"``, ``"alpha"``).
    undefined_when : str
        When the metric is 0/0, for warnings.
    higher_is_better : bool
        False for losses (fallout, error, silence, noise, E-measure): their
        scorers are negated, as scikit-learn does.
    exact : tuple or None
        How the exact posterior is built from the cells, or None when it is
        sampled: ``("beta", cells_a, cells_b)`` for a Beta ratio of cell
        sums (each cell adding λ), ``("share", cells_a, cells_b)`` for the
        share of all items right or wrong, or predicted positive (each cell
        adding λ/2: Beta(right + λ, wrong + λ)), ``("fbeta",)`` for F-beta,
        ``("difference", (cells_a, cells_b), (cells_c, cells_d))`` for a
        difference of two independent Betas, and ``("affine", scale, shift,
        recipe)`` for an affine map of another exact posterior.

    Examples
    --------
    >>> from skprobeval import get_metric
    >>> spec = get_metric("informedness")
    >>> spec
    MetricSpec(name='informedness', params=())
    >>> spec(tp=[21, 30], fp=[14, 0], fn=[9, 0], tn=[56, 70]).round(6).tolist()
    [0.5, 1.0]
    """

    name: str
    function: Callable
    params: tuple = ()
    undefined_when: str = ""
    higher_is_better: bool = True
    exact: tuple | None = None

    def __repr__(self):
        return f"MetricSpec(name={self.name!r}, params={self.params!r})"

    def __call__(self, tp, fp, fn, tn, **params):
        unknown = set(params) - set(self.params)
        if unknown:
            raise TypeError(f"Metric {self.name!r} takes no parameter {sorted(unknown)[0]!r}.")
        cells = [np.asarray(cell, dtype=np.float64) for cell in (tp, fp, fn, tn)]
        return self.function(*cells, **params)


_NO_TRUE = "there are no true samples (tp + fn = 0)"
_NO_PRED = "there are no predicted samples (tp + fp = 0)"
_NO_NEG = "there are no negative samples (fp + tn = 0)"
_NO_ITEMS = "there are no samples"

# The one table of the metrics: point formula, direction, exact posterior.
# Exact recipes (see MetricSpec.exact): Beta ratios of disjoint cells, the share
# of items right (or predicted positive) with Jeffreys' prior on the share itself
# (at λ = 1/2), F-beta through its Beta construction, differences of independent
# Betas, and affine maps of those; every other metric is sampled from the
# Dirichlet posterior.
_F_UNDEFINED = "there are no true nor predicted samples (tp + fp + fn = 0)"
_TPR_MINUS_FPR = ("difference", (("tp",), ("fn",)), (("fp",), ("tn",)))
_PPV_MINUS_FOR = ("difference", (("tp",), ("fp",)), (("fn",), ("tn",)))
_REGISTRY = {
    spec.name: spec
    for spec in (
        MetricSpec("precision", precision, (), _NO_PRED, True, ("beta", ("tp",), ("fp",))),
        MetricSpec("recall", recall, (), _NO_TRUE, True, ("beta", ("tp",), ("fn",))),
        MetricSpec("f1", f1, (), _F_UNDEFINED, True, ("fbeta",)),
        MetricSpec("fbeta", fbeta, ("beta",), _F_UNDEFINED, True, ("fbeta",)),
        MetricSpec("accuracy", accuracy, (), _NO_ITEMS, True,
                   ("share", ("tp", "tn"), ("fp", "fn"))),
        MetricSpec("error", error, (), _NO_ITEMS, False, ("share", ("fp", "fn"), ("tp", "tn"))),
        # The same formulas, named for what their averages are: pooled over labels, the
        # one-vs-rest accuracy counts each item's true negatives once per label.
        MetricSpec("one_vs_rest_accuracy", accuracy, (), _NO_ITEMS, True,
                   ("share", ("tp", "tn"), ("fp", "fn"))),
        MetricSpec("one_vs_rest_error", error, (), _NO_ITEMS, False,
                   ("share", ("fp", "fn"), ("tp", "tn"))),
        MetricSpec("specificity", specificity, (), _NO_NEG, True, ("beta", ("tn",), ("fp",))),
        MetricSpec("fallout", fallout, (), _NO_NEG, False, ("beta", ("fp",), ("tn",))),
        MetricSpec("npv", npv, (), "there are no negative predictions (tn + fn = 0)", True,
                   ("beta", ("tn",), ("fn",))),
        MetricSpec("silence", silence, (), _NO_TRUE, False, ("beta", ("fn",), ("tp",))),
        MetricSpec("noise", noise, (), _NO_PRED, False, ("beta", ("fp",), ("tp",))),
        MetricSpec("overlap", overlap, (), "there are no true nor predicted samples", True,
                   ("beta", ("tp",), ("fp", "fn"))),
        MetricSpec("generality", generality, (), _NO_ITEMS, True,
                   ("beta", ("tp", "fn"), ("fp", "tn"))),
        MetricSpec("selection_rate", selection_rate, (), _NO_ITEMS, True,
                   ("share", ("tp", "fp"), ("fn", "tn"))),
        MetricSpec("informedness", informedness, (),
                   "there are no true samples or no negative samples", True, _TPR_MINUS_FPR),
        MetricSpec("markedness", markedness, (),
                   "there are no positive or no negative predictions", True, _PPV_MINUS_FOR),
        MetricSpec("balanced_accuracy", balanced_accuracy, (),
                   "there are no true samples or no negative samples", True,
                   ("affine", 0.5, 0.5, _TPR_MINUS_FPR)),
        MetricSpec("mcc", mcc, (), "a row or column of the table is empty"),
        MetricSpec("k_measure", k_measure, ("alpha", "beta"), _F_UNDEFINED),
        MetricSpec("e_measure", e_measure, ("beta",), _F_UNDEFINED, False,
                   ("affine", -1.0, 1.0, ("fbeta",))),
    )
}
_ALIASES = {
    "jaccard": "overlap",
    "ppv": "precision",
    "tpr": "recall",
    "sensitivity": "recall",
    "tnr": "specificity",
    "fpr": "fallout",
    "pertinence": "accuracy",
    "bookmaker": "informedness",
    "youden": "informedness",
    "matthews": "mcc",
    "ovr_accuracy": "one_vs_rest_accuracy",
    "ovr_error": "one_vs_rest_error",
}


def available_metrics():
    """Names of the registered confusion-table metrics.

    Returns
    -------
    tuple of str
        Registry names accepted wherever a ``metric=`` name is (aliases such
        as ``"jaccard"`` for ``"overlap"`` are accepted too).

    Examples
    --------
    >>> from skprobeval import available_metrics
    >>> "informedness" in available_metrics()
    True
    """
    return tuple(_REGISTRY)


def get_metric(name):
    """Look a confusion-table metric up by name.

    Parameters
    ----------
    name : str
        A name from `available_metrics` or an alias (``"jaccard"``,
        ``"tpr"``, ``"fpr"``, ``"ppv"``, ``"sensitivity"``, ...).

    Returns
    -------
    MetricSpec
        Callable as ``spec(tp, fp, fn, tn, **params)``.

    Examples
    --------
    >>> from skprobeval import get_metric
    >>> spec = get_metric("fbeta")
    >>> spec.params
    ('beta',)
    >>> round(float(spec(tp=8, fp=2, fn=4, tn=86, beta=2.0)), 4)
    0.6897
    """
    if isinstance(name, MetricSpec):
        return name
    if not isinstance(name, str):
        fail("metric", "a metric name (see available_metrics())", name, error=TypeError)
    key = _ALIASES.get(name.lower(), name.lower())
    if key not in _REGISTRY:
        fail("metric", f"one of {sorted(_REGISTRY)}", name)
    return _REGISTRY[key]


# ---------------------------------------------------------------------------
# scikit-learn style wrappers
# ---------------------------------------------------------------------------

_AVERAGE_OPTIONS = ("binary", "micro", "macro", "weighted", None)


def check_zero_division(zero_division):
    if isinstance(zero_division, str):
        if zero_division == "warn":
            return zero_division
    elif isinstance(zero_division, numbers.Real) and not isinstance(zero_division, bool):
        if np.isnan(zero_division) or zero_division in (0, 1):
            return float(zero_division)
    fail("zero_division", '"warn", 0.0, 1.0 or np.nan', zero_division)


def _apply_zero_division(values, spec, zero_division):
    """Replace undefined (NaN) values following scikit-learn's ``zero_division``.

    The warning names the user's line (`warn_user`), however deep in the
    package the value was computed: a report's pooled point, a fold's counts
    or a ``*_score`` wrapper."""
    undefined = np.isnan(values)
    if not undefined.any():
        return values
    fill = 0.0 if zero_division == "warn" else zero_division
    if zero_division == "warn":
        label_text = "" if values.ndim == 0 else f" in {int(undefined.sum())} label(s)"
        warn_user(
            f"{spec.name.capitalize()} is ill-defined and being set to 0.0{label_text} "
            f"because {spec.undefined_when}. Use `zero_division` parameter to control "
            "this behavior.",
            UndefinedMetricWarning,
        )
    return np.where(undefined, fill, values)


def nan_skipping_mean(values, weights):
    """Average skipping NaN entries (zero_division=np.nan), as scikit-learn does."""
    keep = ~np.isnan(values)
    if not keep.any():
        return float("nan")
    values = values[keep]
    if weights is None or weights[keep].sum() == 0:
        return float(weighted_mean(values, np.ones(values.shape[0])))
    return float(weighted_mean(values, weights[keep]))


# Metrics with Powers' multiclass weighting (average="powers"): the one-vs-rest
# value of each label weighted by how often it is predicted (informedness, the
# bookmaker) or how often it is true (markedness).
POWERS_WEIGHTS = {
    "informedness": lambda counts: counts.tp + counts.fp,
    "markedness": lambda counts: counts.tp + counts.fn,
}
# Metrics that, micro-averaged over every label of single-label multiclass
# data, are the share of items right (scikit-learn's accuracy_score): each
# wrong item is one false positive and one false negative.
SHARE_OF_RIGHT = frozenset({"precision", "recall", "f1", "fbeta", "accuracy"})
# Metrics whose range is [-1, 1] (every other registered metric lies in [0, 1]).
SIGNED_METRICS = frozenset({"informedness", "markedness", "mcc"})


def range_width(name):
    """Width of a registered metric's range: 2 for the signed ones, else 1."""
    return 2.0 if name in SIGNED_METRICS else 1.0


def check_average(average, metric):
    """Validate `average` for a registered metric name ("powers" only where defined)."""
    options = ["binary", "micro", "macro", "weighted", None]
    if metric in POWERS_WEIGHTS:
        options.append("powers")
    if average not in options:
        fail("average", f"one of {', '.join(repr(o) for o in options)} for metric {metric!r}",
             average)
    return average


def label_weights(counts, average, metric):
    """Observed label weights of a ``"weighted"`` or ``"powers"`` average, else None."""
    if average == "weighted":
        return np.asarray(counts.tp + counts.fn, dtype=float)
    if average == "powers":
        return np.asarray(POWERS_WEIGHTS[metric](counts), dtype=float)
    return None


def averaged_value(spec, counts, average, params, *, kind="multiclass", every_label=True,
                   zero_division="warn"):
    """A metric of per-label counts averaged as scikit-learn averages it.

    ``counts`` holds one-vs-rest tables (``(R,)`` cells) except for
    ``kind="binary"`` (one table).  ``"micro"`` pools the tables; on
    single-label multiclass data with every label, precision, recall, F and
    accuracy are then the share of items right (scikit-learn's
    ``accuracy_score``) and error its complement.  Undefined label values
    follow `zero_division`; ``average=None`` returns the per-label array.
    """
    if kind == "binary" or average == "binary":
        values = np.asarray(spec(counts.tp, counts.fp, counts.fn, counts.tn, **params))
        return float(_apply_zero_division(values, spec, zero_division))
    if average == "micro":
        if kind == "multiclass" and every_label and spec.name in SHARE_OF_RIGHT | {"error"}:
            total = float(counts.n.flat[0]) if counts.n.size else 0.0
            right = float(counts.tp.sum()) / total if total > 0 else float("nan")
            return 1.0 - right if spec.name == "error" else right
        pooled = counts.sum()
        values = np.asarray(spec(pooled.tp, pooled.fp, pooled.fn, pooled.tn, **params))
        return float(_apply_zero_division(values, spec, zero_division))
    values = np.asarray(spec(counts.tp, counts.fp, counts.fn, counts.tn, **params), dtype=float)
    values = _apply_zero_division(values, spec, zero_division)
    if average is None:
        return values
    return nan_skipping_mean(values, label_weights(counts, average, spec.name))


def _score(spec, y_true, y_pred, *, labels, pos_label, average, sample_weight, zero_division,
           params, extra_averages=()):
    """Shared body of the ``*_score`` wrappers: count once, evaluate, average."""
    if average not in _AVERAGE_OPTIONS + tuple(extra_averages):
        options = ", ".join(repr(a) for a in _AVERAGE_OPTIONS + tuple(extra_averages))
        fail("average", f"one of {options}", average)
    zero_division = check_zero_division(zero_division)
    counts = ConfusionCounts.from_predictions(
        y_true, y_pred, labels=labels, pos_label=pos_label,
        average="binary" if average == "binary" else None, sample_weight=sample_weight)
    return averaged_value(spec, counts, average, params,
                          kind="binary" if average == "binary" else "one-vs-rest",
                          every_label=False, zero_division=zero_division)


def metric_score(y_true, y_pred, *, metric, labels=None, pos_label=1, average="binary",
                 sample_weight=None, zero_division="warn", beta=1.0):
    """Any registered confusion-table metric of predictions, as scikit-learn scores one.

    The point-estimate counterpart of `metric_posterior`: count once, evaluate
    the metric of the table (or of each label's one-vs-rest table), average
    as scikit-learn averages.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_labels)
        True labels or label indicator matrix.
    y_pred : array-like of the same shape as `y_true`
        Predicted labels or label indicator matrix.
    metric : str or MetricSpec
        A name from `available_metrics` (or an alias).
    labels : array-like, default=None
        Labels to include when ``average != "binary"``, in order.
    pos_label : int, float, bool or str, default=1
        The positive class when ``average="binary"``.
    average : {"binary", "micro", "macro", "weighted", "powers"} or None, default="binary"
        As in `sklearn.metrics.precision_score`; ``"powers"`` for informedness
        and markedness only.  Accuracy and error of single-label data with
        ``"micro"`` are the share of items right (wrong), as
        `sklearn.metrics.accuracy_score` (before 0.2: the pooled one-vs-rest
        value, now ``"one_vs_rest_accuracy"``); the pairs `metric_posterior`
        refuses (other averages of accuracy, label averages of balanced
        accuracy, accuracy of multilabel data) are refused alike.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights.
    zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
        Value of an undefined (0/0) metric; "warn" gives the metric's
        convention with an `UndefinedMetricWarning`.
    beta : float, default=1.0
        Recall weight of the metrics that take one (fbeta, e_measure,
        k_measure).

    Returns
    -------
    float or ndarray of shape (n_labels,)
        A float, or one value per label when ``average=None``.

    See Also
    --------
    metric_posterior : The posterior of the same metric.

    Examples
    --------
    >>> from skprobeval import metric_score
    >>> y_true, y_pred = [1, 1, 1, 0, 0, 1], [1, 1, 0, 0, 1, 0]
    >>> metric_score(y_true, y_pred, metric="f1")
    0.5714...
    >>> round(metric_score(y_true, y_pred, metric="informedness"), 4)
    0.0
    """
    spec = get_metric(metric)
    average = check_average(average, spec.name)
    beta = check_positive(beta, "beta")
    params = {"beta": beta} if "beta" in spec.params else {}
    if average not in ("binary", None) and spec.name in ("accuracy", "error",
                                                         "balanced_accuracy"):
        # Their averages mean what scikit-learn's do, as in metric_posterior.
        joint = joint_codes(y_true, [y_pred], average=average, labels=labels,
                            sample_weight=sample_weight, names=["y_true", "y_pred"])
        every = joint.n_requested == joint.n_classes
        check_metric_target(spec.name, average, kind=joint.kind, every_label=every,
                            requested=joint.classes[:joint.n_requested])
        if joint.kind == "multiclass" and joint.n_classes > 2 and spec.name in ONE_VS_REST:
            warn_future(f"metric_score(metric={spec.name!r}, average='micro') of multiclass "
                        "data changed in 0.2: it is now scikit-learn's share of items right "
                        "(accuracy_score), as in metric_posterior and the reports; the pooled "
                        "one-vs-rest value it gave before is "
                        f"metric={ONE_VS_REST[spec.name]!r}. This warning goes in 0.3.")
        return averaged_value(spec, joint.counts(1), average, params, kind=joint.kind,
                              every_label=every, zero_division=check_zero_division(zero_division))
    return _score(spec, y_true, y_pred, labels=labels, pos_label=pos_label, average=average,
                  sample_weight=sample_weight, zero_division=zero_division, params=params,
                  extra_averages=("powers",) if spec.name in POWERS_WEIGHTS else ())


def specificity_score(y_true, y_pred, *, labels=None, pos_label=1, average="binary",
                      sample_weight=None, zero_division="warn"):
    """Specificity (true negative rate, inverse recall): ``tn / (tn + fp)``.

    The share of negatives recognised as negative; the recall of the
    negative class.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_labels)
        True labels or label indicator matrix.
    y_pred : array-like of the same shape as `y_true`
        Predicted labels or label indicator matrix.
    labels : array-like, default=None
        Labels to include when ``average != "binary"``, in order.
    pos_label : int, float, bool or str, default=1
        The positive class when ``average="binary"``.
    average : {"binary", "micro", "macro", "weighted"} or None, default="binary"
        As in `sklearn.metrics.precision_score`: ``None`` returns one value
        per label; ``"weighted"`` weights labels by support (tp + fn).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights.
    zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
        Value when there are no negative samples (fp + tn = 0); "warn" gives
        0.0 with an `UndefinedMetricWarning`.

    Returns
    -------
    float or ndarray of shape (n_labels,)
        A float, or one value per label when ``average=None``.

    See Also
    --------
    fallout_score : ``1 - specificity``.

    Examples
    --------
    >>> from skprobeval import specificity_score
    >>> specificity_score([0, 0, 0, 1, 1], [0, 1, 0, 1, 0])
    0.666...
    """
    return _score(_REGISTRY["specificity"], y_true, y_pred, labels=labels, pos_label=pos_label,
                  average=average, sample_weight=sample_weight, zero_division=zero_division,
                  params={})


def fallout_score(y_true, y_pred, *, labels=None, pos_label=1, average="binary",
                  sample_weight=None, zero_division="warn"):
    """Fallout (false positive rate): ``fp / (fp + tn)``.

    The share of negatives wrongly predicted positive; lower is better.

    Parameters
    ----------
    y_true, y_pred, labels, pos_label, average, sample_weight, zero_division
        As in `specificity_score`.

    Returns
    -------
    float or ndarray of shape (n_labels,)

    Examples
    --------
    >>> from skprobeval import fallout_score
    >>> fallout_score([0, 0, 0, 1, 1], [0, 1, 0, 1, 0])
    0.333...
    """
    return _score(_REGISTRY["fallout"], y_true, y_pred, labels=labels, pos_label=pos_label,
                  average=average, sample_weight=sample_weight, zero_division=zero_division,
                  params={})


def silence_score(y_true, y_pred, *, labels=None, pos_label=1, average="binary",
                  sample_weight=None, zero_division="warn"):
    """Silence (miss rate): ``fn / (tp + fn)`` = 1 - recall (Nakache et al., 2005).

    The share of relevant items the system did not return; lower is better.

    Parameters
    ----------
    y_true, y_pred, labels, pos_label, average, sample_weight, zero_division
        As in `specificity_score`; undefined when there are no true samples.

    Returns
    -------
    float or ndarray of shape (n_labels,)

    References
    ----------
    .. [1] D. Nakache, E. Métais and J.-F. Timsit, "Evaluation and NLP",
       DEXA 2005.

    Examples
    --------
    >>> from skprobeval import silence_score
    >>> silence_score([1, 1, 1, 1, 0], [1, 0, 1, 1, 0])
    0.25
    """
    return _score(_REGISTRY["silence"], y_true, y_pred, labels=labels, pos_label=pos_label,
                  average=average, sample_weight=sample_weight, zero_division=zero_division,
                  params={})


def noise_score(y_true, y_pred, *, labels=None, pos_label=1, average="binary",
                sample_weight=None, zero_division="warn"):
    """Noise (false discovery rate): ``fp / (tp + fp)`` = 1 - precision (Nakache et al., 2005).

    The share of returned items that are not relevant; lower is better.

    Parameters
    ----------
    y_true, y_pred, labels, pos_label, average, sample_weight, zero_division
        As in `specificity_score`; undefined when nothing is predicted positive.

    Returns
    -------
    float or ndarray of shape (n_labels,)

    References
    ----------
    .. [1] D. Nakache, E. Métais and J.-F. Timsit, "Evaluation and NLP",
       DEXA 2005.

    Examples
    --------
    >>> from skprobeval import noise_score
    >>> noise_score([1, 0, 1, 0], [1, 1, 1, 1])
    0.5
    """
    return _score(_REGISTRY["noise"], y_true, y_pred, labels=labels, pos_label=pos_label,
                  average=average, sample_weight=sample_weight, zero_division=zero_division,
                  params={})


def overlap_score(y_true, y_pred, *, labels=None, pos_label=1, average="binary",
                  sample_weight=None, zero_division="warn"):
    """Overlap (Jaccard index): ``tp / (tp + fp + fn)`` (Nakache et al., 2005).

    Equals `sklearn.metrics.jaccard_score`.

    Parameters
    ----------
    y_true, y_pred, labels, pos_label, average, sample_weight, zero_division
        As in `specificity_score`; undefined when tp + fp + fn = 0.

    Returns
    -------
    float or ndarray of shape (n_labels,)

    References
    ----------
    .. [1] D. Nakache, E. Métais and J.-F. Timsit, "Evaluation and NLP",
       DEXA 2005.

    Examples
    --------
    >>> from skprobeval import overlap_score
    >>> overlap_score([1, 1, 0, 0], [1, 0, 1, 0])
    0.333...
    """
    return _score(_REGISTRY["overlap"], y_true, y_pred, labels=labels, pos_label=pos_label,
                  average=average, sample_weight=sample_weight, zero_division=zero_division,
                  params={})


def generality_score(y_true, y_pred, *, labels=None, pos_label=1, average="binary",
                     sample_weight=None, zero_division="warn"):
    """Generality: the share of relevant items, ``(tp + fn) / n``.

    Nakache et al. (2005) print ``a / N`` (true positives over all items); the
    information-retrieval literature's generality is the share of relevant
    items in the collection, which is what this returns.  It describes the
    test set, not the system: `y_pred` only selects nothing.

    Parameters
    ----------
    y_true, y_pred, labels, pos_label, average, sample_weight, zero_division
        As in `specificity_score`.

    Returns
    -------
    float or ndarray of shape (n_labels,)

    References
    ----------
    .. [1] D. Nakache, E. Métais and J.-F. Timsit, "Evaluation and NLP",
       DEXA 2005.

    Examples
    --------
    >>> from skprobeval import generality_score
    >>> generality_score([1, 0, 0, 0], [1, 1, 0, 0])
    0.25
    """
    return _score(_REGISTRY["generality"], y_true, y_pred, labels=labels, pos_label=pos_label,
                  average=average, sample_weight=sample_weight, zero_division=zero_division,
                  params={})


def e_measure_score(y_true, y_pred, *, beta=1.0, labels=None, pos_label=1, average="binary",
                    sample_weight=None, zero_division="warn"):
    """Van Rijsbergen's E-measure: ``E = 1 - 1 / (a / P + (1 - a) / R)``, ``a = 1 / (1 + beta^2)``.

    The E-measure is an effectiveness loss (lower is better) with
    ``F_beta = 1 - E``; it is computed on counts as ``1 - F_beta``, so it is
    defined whenever F-beta is.

    Parameters
    ----------
    y_true, y_pred, labels, pos_label, average, sample_weight
        As in `specificity_score`.
    beta : float, default=1.0
        Weight of recall, as in `sklearn.metrics.fbeta_score`.
    zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
        Value when tp + fp + fn = 0.

    Returns
    -------
    float or ndarray of shape (n_labels,)

    Examples
    --------
    >>> from skprobeval import e_measure_score
    >>> from sklearn.metrics import fbeta_score
    >>> y_true, y_pred = [1, 1, 1, 0, 0], [1, 0, 1, 1, 0]
    >>> round(e_measure_score(y_true, y_pred, beta=2.0), 4)
    0.3333
    >>> round(1 - fbeta_score(y_true, y_pred, beta=2.0), 4)
    0.3333
    """
    beta = check_positive(beta, "beta")
    return _score(_REGISTRY["e_measure"], y_true, y_pred, labels=labels, pos_label=pos_label,
                  average=average, sample_weight=sample_weight, zero_division=zero_division,
                  params={"beta": beta})


def k_measure_score(y_true, y_pred, *, alpha=1.0, beta=1.0, labels=None, pos_label=1,
                    average="binary", sample_weight=None, zero_division="warn"):
    """K-measure (Nakache et al., 2005): ``(1 + beta^2) (P R)^alpha / (beta^2 P + R)``.

    A generalisation of F-beta (``alpha = 1``) where ``alpha`` sets a
    requirement level: with ``alpha > 1`` medium precision and recall score
    low (P = R = 0.4 gives F = 0.4 but K = 0.133 at ``alpha = 1.6``), and
    Nakache et al. relate ``alpha = 0.5`` to the break-even point.  Here ``alpha``
    is a shape parameter of the measure, not a probability level.

    Parameters
    ----------
    y_true, y_pred, labels, pos_label, average, sample_weight
        As in `specificity_score`.
    alpha : float, default=1.0
        Requirement exponent, > 0.
    beta : float, default=1.0
        Weight of recall, > 0.
    zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
        Value when tp + fp + fn = 0.  With tp = 0 otherwise the K-measure is
        0, as F-beta is.

    Returns
    -------
    float or ndarray of shape (n_labels,)

    References
    ----------
    .. [1] D. Nakache, E. Métais and J.-F. Timsit, "Evaluation and NLP",
       DEXA 2005.

    Examples
    --------
    >>> from skprobeval import k_measure_score
    >>> y_true = [1] * 5 + [0] * 5
    >>> y_pred = [1, 1, 0, 0, 0, 1, 1, 1, 0, 0]
    >>> round(k_measure_score(y_true, y_pred), 4)  # F1: P = R = 0.4
    0.4
    >>> round(k_measure_score(y_true, y_pred, alpha=1.6), 4)
    0.1332
    """
    alpha = check_positive(alpha, "alpha")
    beta = check_positive(beta, "beta")
    return _score(_REGISTRY["k_measure"], y_true, y_pred, labels=labels, pos_label=pos_label,
                  average=average, sample_weight=sample_weight, zero_division=zero_division,
                  params={"alpha": alpha, "beta": beta})


def informedness_score(y_true, y_pred, *, labels=None, pos_label=1, average="binary",
                       sample_weight=None, zero_division="warn"):
    """Informedness (bookmaker, Youden's J): ``tpr - fpr``.

    The probability that a prediction is informed rather than a guess
    (Powers, 2003): 0 for any guessing strategy, 1 for perfect predictions,
    negative for systematically wrong ones.  Binary informedness equals
    ``balanced_accuracy_score(adjusted=True)``.

    Parameters
    ----------
    y_true, y_pred, labels, pos_label, sample_weight
        As in `specificity_score`.
    average : {"binary", "micro", "macro", "weighted", "powers"} or None, default="binary"
        ``"powers"`` is the multiclass bookmaker of Powers (2003):
        ``sum_l p_pred(l) (tpr_l - fpr_l)``, the one-vs-rest informedness of
        each label weighted by how often it is predicted.  ``"weighted"``
        weights by support (how often it is true), as scikit-learn does.
    zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
        Value for a label with no true or no negative samples.

    Returns
    -------
    float or ndarray of shape (n_labels,)

    See Also
    --------
    markedness_score : The dual measure, ``ppv + npv - 1``.

    References
    ----------
    .. [1] D. M. W. Powers, "Recall & Precision versus the Bookmaker", 2003.

    Examples
    --------
    The poster's guessing and half-informed tables (rows predicted,
    columns true; positive label 1):

    >>> import numpy as np
    >>> from skprobeval import informedness_score
    >>> def from_table(tp, fp, fn, tn):
    ...     y_true = np.repeat([1, 0, 1, 0], [tp, fp, fn, tn])
    ...     y_pred = np.repeat([1, 1, 0, 0], [tp, fp, fn, tn])
    ...     return y_true, y_pred
    >>> informedness_score(*from_table(12, 28, 18, 42))
    0.0
    >>> round(informedness_score(*from_table(21, 14, 9, 56)), 6)
    0.5
    >>> round(informedness_score(*from_table(21, 14, 9, 56), average="powers"), 6)
    0.5
    """
    return _score(_REGISTRY["informedness"], y_true, y_pred, labels=labels, pos_label=pos_label,
                  average=average, sample_weight=sample_weight, zero_division=zero_division,
                  params={}, extra_averages=("powers",))


def markedness_score(y_true, y_pred, *, labels=None, pos_label=1, average="binary",
                     sample_weight=None, zero_division="warn"):
    """Markedness: ``ppv + npv - 1`` (precision + inverse precision - 1).

    The dual of informedness (Powers, 2003): how far a prediction marks the true
    class beyond chance.  Binary ``sign(J) sqrt(J M)`` is the Matthews
    correlation.

    Parameters
    ----------
    y_true, y_pred, labels, pos_label, sample_weight
        As in `specificity_score`.
    average : {"binary", "micro", "macro", "weighted", "powers"} or None, default="binary"
        ``"powers"``: ``sum_c p_true(c) (ppv_c + npv_c - 1)``, the dual of the
        bookmaker weighting (each label weighted by how often it is true).
    zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
        Value for a label never predicted positive or never predicted negative.

    Returns
    -------
    float or ndarray of shape (n_labels,)

    See Also
    --------
    informedness_score : The dual measure, ``tpr - fpr``.

    References
    ----------
    .. [1] D. M. W. Powers, "Recall & Precision versus the Bookmaker", 2003.

    Examples
    --------
    >>> from skprobeval import markedness_score
    >>> round(markedness_score([1, 1, 0, 0, 0], [1, 0, 0, 0, 0]), 4)
    0.75
    """
    return _score(_REGISTRY["markedness"], y_true, y_pred, labels=labels, pos_label=pos_label,
                  average=average, sample_weight=sample_weight, zero_division=zero_division,
                  params={}, extra_averages=("powers",))


def distance_weighted_precision_recall(y_true, y_pred, *, distance, labels=None,
                                       average="macro", sample_weight=None,
                                       zero_division="warn"):
    """Precision and recall with partial credit for near-miss classes (Nakache et al., 2005).

    With a class distance matrix ``D`` (entries in [0, 1], zero diagonal), a
    prediction of class ``p`` for an item of class ``t`` earns credit
    ``1 - D[t, p]`` instead of 0 when wrong.  For each label ``l``:
    precision is the mean credit of the items predicted ``l`` and recall the
    mean credit of the items whose true class is ``l``.  With ``D = 1 - I``
    (every mistake maximally far) these are scikit-learn's precision and
    recall.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True class labels.
    y_pred : array-like of shape (n_samples,)
        Predicted class labels.
    distance : array-like of shape (n_labels, n_labels)
        ``distance[i, j]`` between ``labels[i]`` and ``labels[j]``, in [0, 1].
    labels : array-like of shape (n_labels,), default=None
        The classes indexing `distance`; by default the sorted labels present.
        Every label in the data must be listed.
    average : {"micro", "macro", "weighted"} or None, default="macro"
        How the per-label values are combined; ``"weighted"`` weights by
        support.  ``"micro"`` pools the credit of all items.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights.
    zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
        Value for a label never predicted (precision) or never true (recall).

    Returns
    -------
    precision, recall : float or ndarray of shape (n_labels,)
        Two floats, or two arrays when ``average=None``.

    References
    ----------
    .. [1] D. Nakache, E. Métais and J.-F. Timsit, "Evaluation and NLP",
       DEXA 2005.

    Examples
    --------
    >>> from skprobeval import distance_weighted_precision_recall
    >>> distance = [[0.0, 0.2, 1.0],
    ...             [0.2, 0.0, 1.0],
    ...             [1.0, 1.0, 0.0]]   # "cat" and "dog" are close
    >>> y_true = ["cat", "cat", "dog", "fish"]
    >>> y_pred = ["cat", "dog", "dog", "fish"]
    >>> p, r = distance_weighted_precision_recall(y_true, y_pred, distance=distance,
    ...                                           labels=["cat", "dog", "fish"])
    >>> round(p, 4), round(r, 4)
    (0.9667, 0.9667)
    """
    if average not in ("micro", "macro", "weighted", None):
        fail("average", "one of 'micro', 'macro', 'weighted' or None", average)
    zero_division = check_zero_division(zero_division)
    y_true_, y_pred_, multilabel = check_pair(y_true, y_pred)
    if multilabel:
        raise ValueError("distance_weighted_precision_recall needs 1-d class labels; got "
                         "multilabel indicator matrices.")
    weight = check_sample_weight(sample_weight, y_true_.shape[0])
    tally = tally_labels(y_true_, y_pred_, weight)
    present_labels = tally.classes[tally.present]
    chosen = check_labels_argument(labels, present_labels)
    if chosen is None:
        chosen = present_labels
    missing = np.setdiff1d(present_labels, chosen)
    if missing.size:
        fail("labels", "a list of every class in the data", labels,
             shown=f"{labels!r}, missing {missing.tolist()!r}")
    matrix, _ = square_table(tally, chosen)
    dist = np.asarray(to_host(distance, "distance"), dtype=np.float64)
    if dist.shape != matrix.shape:
        fail("distance", f"an array of shape {matrix.shape} (one row and column per label)",
             distance, shown=f"shape {dist.shape}")
    if not np.all(np.isfinite(dist)) or np.any(dist < 0) or np.any(dist > 1):
        fail("distance", "finite with entries in [0, 1]", distance)
    if np.any(np.diag(dist) != 0):
        fail("distance", "zero on the diagonal (a class is at distance 0 from itself)", distance)
    credit = matrix * (1.0 - dist)
    spec_p = MetricSpec("precision", precision, (), _NO_PRED)
    spec_r = MetricSpec("recall", recall, (), _NO_TRUE)
    if average == "micro":
        total = matrix.sum()
        value = np.asarray(_ratio(credit.sum(), total))
        p = _apply_zero_division(value, spec_p, zero_division)
        return float(p), float(p)
    p = _apply_zero_division(_ratio(credit.sum(axis=0), matrix.sum(axis=0)), spec_p,
                             zero_division)
    r = _apply_zero_division(_ratio(credit.sum(axis=1), matrix.sum(axis=1)), spec_r,
                             zero_division)
    if average is None:
        return p, r
    weights = matrix.sum(axis=1) if average == "weighted" else None
    return nan_skipping_mean(p, weights), nan_skipping_mean(r, weights)
