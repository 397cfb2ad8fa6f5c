"""Ranking metrics: average precision, precision at k and the D-measure.

These metrics score a ranking (an ordering of items by a score) rather than a
set of predicted labels, so they take ``y_true, y_score`` (or, for the
D-measure, graded pertinence already in rank order) instead of confusion
counts.  `average_precision` is the one computation path that the random
ranking baseline of ``_baseline.py`` also uses.
Definitions: the theory page ``docs/theory/metrics.rst``.
"""

from __future__ import annotations

import numbers

import numpy as np
from scipy.special import expit, log_expit
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.utils import column_or_1d
from sklearn.utils.multiclass import type_of_target

from .._core import as_array, check_sample_weight, fail, warn_user, weighted_mean
from .._counting import check_missing, unmasked
from ._point import check_zero_division

__all__ = ["average_precision", "d_measure_score", "d_measure_weights", "precision_at_k_score"]


# ---------------------------------------------------------------------------
# Validation
# ---------------------------------------------------------------------------


def _as_1d(values, name):
    """Return ``values`` as a non-empty 1-d numpy array (an ``(n, 1)`` column is accepted)."""
    if isinstance(values, (str, bytes)):
        fail(name, "a 1-d array-like", values)
    array = as_array(values, name)
    if array.ndim == 0:
        fail(name, "a 1-d array-like", values)
    if array.ndim == 2 and array.shape[1] == 1:
        array = column_or_1d(array)
    if array.ndim != 1:
        fail(name, "1-dimensional", array, shown=f"an array of shape {array.shape}")
    if array.shape[0] == 0:
        fail(name, "non-empty", array, shown="an empty array")
    return array


def check_real_array(values, name):
    """Return ``values`` as a non-empty, finite, 1-d float64 array."""
    array = _as_1d(values, name)
    if array.dtype.kind == "c":
        fail(name, "an array of real numbers", values, shown=f"dtype {array.dtype}")
    if array.dtype.kind not in "iufb":
        try:
            array = array.astype(np.float64)
        except (TypeError, ValueError):
            fail(name, "an array of real numbers", values, shown=f"dtype {array.dtype}")
    array = array.astype(np.float64, copy=False)
    if not np.all(np.isfinite(array)):
        bad = array[~np.isfinite(array)]
        fail(name, "finite (no NaN or inf)", values,
             shown=f"{bad.size} non-finite value(s) such as {float(bad[0])!r}")
    return array


def check_probabilities(y_prob, name="y_prob"):
    """``y_prob`` as a non-empty, finite, 1-d float64 array of values in [0, 1]."""
    prob = check_real_array(y_prob, name)
    outside = (prob < 0) | (prob > 1)
    if outside.any():
        fail(name, "probabilities in [0, 1]", y_prob,
             shown=f"{int(outside.sum())} value(s) outside [0, 1] such as "
                   f"{float(prob[outside][0])!r}")
    return prob


def check_same_length(first, second, name_first, name_second):
    if first.shape[0] != second.shape[0]:
        raise ValueError(
            f"`{name_first}` and `{name_second}` must have the same number of samples; "
            f"got {first.shape[0]} and {second.shape[0]}."
        )


def _binary_labels(y_true, name="y_true", multiclass=False):
    """``y_true`` as a 1-d array of at most two classes (no NaN, no None), and its classes.

    ``multiclass=True`` also takes more classes (one of them against the rest).
    """
    array = _as_1d(unmasked(y_true, name), name)
    if array.dtype.kind == "b":
        # Booleans are binary labels: their classes without sorting n items.
        return array, np.array([False, True])[[not array.all(), bool(array.any())]]
    check_missing(array, name)      # the counting layer's message, for every route
    try:
        target = type_of_target(array, input_name=name)
    except ValueError as error:
        fail(name, "binary labels", y_true, shown=str(error))
    if target != "binary" and not (multiclass and target == "multiclass"):
        fail(name, "binary (at most two classes, e.g. 0/1 or bool)" + (
            "; for one class against the rest, name it with `pos_label`"
            if target == "multiclass" else ""), y_true, shown=f"a {target} target")
    return array, np.unique(array)


def positive_mask(y_true, pos_label, *, name="y_true", multiclass=False):
    """Boolean mask of the relevant (positive) items: the one `pos_label` rule
    of every ranking metric, ranking posterior and curve.

    * ``pos_label=None``: the labels must be a subset of {0, 1}, {-1, 1} or
      {False, True}, and the positive class is 1 (True); other labels must
      name it.
    * A named `pos_label` must be one of the labels, except that labels of a
      single class from {0, 1} or {-1, 1} may lack it (no relevant item).

    ``multiclass=True`` (curves) also takes more than two classes, with the
    named class against all the others.
    """
    array, classes = _binary_labels(y_true, name, multiclass=multiclass and pos_label is not None)
    values = set(classes.tolist())
    plain = classes.dtype.kind in "iufb" and (values <= {0, 1} or values <= {-1, 1})
    if pos_label is None:
        if not plain:
            fail("pos_label", f"one of the labels {classes.tolist()!r} (the labels are not "
                 "{0, 1} or {-1, 1}, so the positive class must be named)", pos_label)
        pos_label = 1
    if np.any(classes == pos_label):
        return array == pos_label
    if plain and classes.shape[0] < 2 and pos_label in (0, 1, -1):
        return np.zeros(array.shape[0], dtype=bool)
    fail("pos_label", f"one of the labels {classes.tolist()!r}", pos_label)


def _check_ranking_input(y_true, y_score, pos_label):
    relevant = positive_mask(y_true, pos_label)
    score = check_real_array(y_score, "y_score")
    check_same_length(relevant, score, "y_true", "y_score")
    return relevant, score


def _check_real_parameter(value, name, requirement, predicate):
    if not isinstance(value, numbers.Real) or isinstance(value, bool):
        fail(name, requirement, value)
    value = float(value)
    if not (np.isfinite(value) and predicate(value)):
        fail(name, requirement, value)
    return value


# ---------------------------------------------------------------------------
# Tie groups
# ---------------------------------------------------------------------------


def _tie_groups(score):
    """Order of the items by decreasing score, and the end of each tie group.

    Returns ``order`` (indices sorting ``score`` in decreasing order, ties in
    their input order) and ``ends`` (for each distinct score, from the highest,
    the exclusive end position of its group in that order).
    """
    order = np.argsort(-score, kind="stable")
    ranked = score[order]
    ends = np.append(np.flatnonzero(np.diff(ranked)) + 1, ranked.shape[0])
    return order, ends


def _ap_from_groups(relevant_cumulative, weight_cumulative, total_relevant):
    """Average precision from cumulative relevant and total weight at group ends.

    Works on the last axis, so one call scores many permutations.
    """
    gained = np.diff(relevant_cumulative, prepend=0, axis=-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        precision = np.where(weight_cumulative > 0,
                             relevant_cumulative / np.where(weight_cumulative > 0,
                                                            weight_cumulative, 1.0), 0.0)
    return np.sum(gained * precision, axis=-1) / total_relevant


# ---------------------------------------------------------------------------
# Public metrics
# ---------------------------------------------------------------------------


def average_precision(y_true, y_score, *, pos_label=None, sample_weight=None,
                      zero_division="warn"):
    """Uninterpolated average precision of a ranking by score.

    Items are ranked by decreasing ``y_score``.  Average precision is the mean,
    over the relevant items, of the precision of the ranking cut just after
    that item:

    .. math:: AP = \\frac{1}{R} \\sum_{n=1}^{N} x_n \\, P@n,
              \\qquad P@n = \\frac{1}{n} \\sum_{m \\le n} x_m,

    with :math:`x_n = 1` when the item at rank :math:`n` is relevant and
    :math:`R` the number of relevant items.  This is the area under the
    uninterpolated precision-recall curve (the step sum
    :math:`\\sum_k (r_k - r_{k-1}) p_k` over the distinct thresholds).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary relevance labels (0/1, -1/1, bool, or two labels with
        ``pos_label`` naming the relevant one).
    y_score : array-like of shape (n_samples,)
        Scores; a higher score ranks an item earlier.  Finite.
    pos_label : int, float, bool or str, default=None
        The label of the relevant class; None means 1 for labels in {0, 1},
        {-1, 1} or bool, and other labels must name it (the rule of every
        ranking function and curve).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative item weights; a weighted item counts ``weight`` times in
        every precision and recall.
    zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
        The value returned when ``y_true`` holds no relevant item (average
        precision is then 0/0).  ``"warn"`` returns 0.0, scikit-learn's value,
        with an `UndefinedMetricWarning`.

    Returns
    -------
    float
        The average precision, in [0, 1].

    See Also
    --------
    precision_at_k_score : Precision of the top of the ranking.
    random_average_precision : What a random ranking scores (exact mean and variance).
    sklearn.metrics.average_precision_score : The same value.

    Notes
    -----
    **Ties.** Items that share a score form one threshold step, as in
    scikit-learn: they enter the ranking together, and every relevant item in
    the group is credited with the precision at the end of the group.  So the
    result equals `sklearn.metrics.average_precision_score` with or without
    ties, and does not depend on the order of the samples.  (It is not the
    expected AP under random tie-breaking; break ties explicitly, e.g. by
    adding a tiny secondary key, if that is what you need.)

    References
    ----------
    .. [1] Y. Bestgen, "Exact Expected Average Precision of the Random
       Baseline for System Evaluation", The Prague Bulletin of Mathematical
       Linguistics 103, pp. 131-138, 2015.

    Examples
    --------
    The rankings of Table 1 of Bestgen (2015): five items, two relevant.

    >>> from skprobeval import average_precision
    >>> score = [5, 4, 3, 2, 1]
    >>> round(average_precision([1, 0, 1, 0, 0], score), 4)  # (1/1 + 2/3) / 2
    0.8333
    >>> round(average_precision([0, 0, 0, 1, 1], score), 4)  # (1/4 + 2/5) / 2
    0.325
    >>> y_true, y_score = ["spam", "ham", "spam"], [0.9, 0.8, 0.1]
    >>> round(average_precision(y_true, y_score, pos_label="spam"), 4)  # (1/1 + 2/3) / 2
    0.8333
    """
    relevant, score = _check_ranking_input(y_true, y_score, pos_label)
    weight = check_sample_weight(sample_weight, score.shape[0])
    zero_division = check_zero_division(zero_division)
    if weight is None:
        weight = np.ones(score.shape[0])
    order, ends = _tie_groups(score)
    relevant_weight = np.where(relevant, weight, 0.0)[order]
    relevant_cumulative = np.cumsum(relevant_weight)[ends - 1]
    weight_cumulative = np.cumsum(weight[order])[ends - 1]
    total = relevant_cumulative[-1]
    if not total > 0:
        if zero_division == "warn":
            warn_user(
                "Average precision is ill-defined and being set to 0.0 because `y_true` "
                "holds no relevant item (no positive with non-zero weight). Use the "
                "`zero_division` parameter to control this behavior.",
                UndefinedMetricWarning)
            return 0.0
        return float(zero_division)
    return float(_ap_from_groups(relevant_cumulative, weight_cumulative, total))


def precision_at_k_score(y_true, y_score, *, k, pos_label=None):
    """Precision of the ``k`` highest-scored items (precision at rank k).

    .. math:: P@k = \\frac{1}{k} \\sum_{n=1}^{k} x_n

    with :math:`x_n = 1` when the item at rank :math:`n` (by decreasing
    ``y_score``) is relevant.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary relevance labels (0/1, -1/1, bool, or two labels with
        ``pos_label`` naming the relevant one).
    y_score : array-like of shape (n_samples,)
        Scores; a higher score ranks an item earlier.  Finite.
    k : int
        Length of the top of the ranking, ``1 <= k <= n_samples``.
    pos_label : int, float, bool or str, default=None
        The label of the relevant class; None means 1 for labels in {0, 1},
        {-1, 1} or bool, and other labels must name it (the rule of every
        ranking function and curve).

    Returns
    -------
    float
        The share of relevant items among the top ``k``, in [0, 1].

    See Also
    --------
    average_precision : Mean of the precision at the rank of each relevant item.

    Notes
    -----
    **Ties at the cut-off.** When the ``k``-th place falls inside a group of
    equally scored items, only part of that group fits in the top ``k``.  The
    function returns the expected precision when the tie is broken uniformly
    at random: the group contributes its share of relevant items times the
    number of places left.  The result is therefore independent of the order
    of the samples (and fractional multiples of ``1/k`` can occur).

    Examples
    --------
    >>> from skprobeval import precision_at_k_score
    >>> y_true = [1, 0, 1, 1, 0]
    >>> y_score = [0.9, 0.8, 0.7, 0.2, 0.1]
    >>> precision_at_k_score(y_true, y_score, k=2)
    0.5
    >>> round(precision_at_k_score(y_true, y_score, k=3), 4)
    0.6667

    A tie across the cut-off counts its relevant share:

    >>> precision_at_k_score([1, 0, 1, 0], [0.9, 0.5, 0.5, 0.1], k=2)  # (1 + 1/2) / 2
    0.75
    """
    relevant, score = _check_ranking_input(y_true, y_score, pos_label)
    n_samples = score.shape[0]
    if not isinstance(k, numbers.Integral) or isinstance(k, bool):
        if not (isinstance(k, numbers.Real) and not isinstance(k, bool)
                and np.isfinite(k) and float(k).is_integer()):
            fail("k", f"an integer in 1..{n_samples} (the number of samples)", k)
    k = int(k)
    if not 1 <= k <= n_samples:
        fail("k", f"an integer in 1..{n_samples} (the number of samples)", k)
    order, ends = _tie_groups(score)
    relevant_cumulative = np.cumsum(relevant[order])[ends - 1]
    group = int(np.searchsorted(ends, k))          # the group holding rank k
    start = 0 if group == 0 else int(ends[group - 1])
    before = 0 if group == 0 else int(relevant_cumulative[group - 1])
    size = int(ends[group]) - start
    in_group = int(relevant_cumulative[group]) - before
    return float((before + in_group * (k - start) / size) / k)


def d_measure_weights(n_items, *, k=15.0, l=0.7):  # noqa: E741 (the paper's name)
    """Sigmoid rank weights of the D-measure (Nakache et al., 2005).

    .. math:: w_i = \\frac{1}{1 + \\exp(-k (x_i - l))},
              \\qquad x_i = \\frac{N - i + 1}{N}, \\quad i = 1, \\dots, N.

    :math:`x_i` runs from 1 at the top of the list to :math:`1/N` at the
    bottom; the weight is 1/2 where :math:`x_i = l` (rank
    :math:`i \\approx N (1 - l) + 1`), close to 1 above and close to 0 below.
    ``k`` sets the steepness of the fall and ``l`` moves it.

    Parameters
    ----------
    n_items : int
        Length ``N`` of the ranked list, ``>= 1``.
    k : float, default=15.0
        Slope of the sigmoid, finite and ``> 0``.
    l : float, default=0.7
        Position of the inflection point on the ``x`` scale; finite.  Values in
        [0, 1] put it inside the list.

    Returns
    -------
    ndarray of shape (n_items,)
        The weights ``w_1, ..., w_N`` in rank order, each in (0, 1).

    See Also
    --------
    d_measure_score : Weighted mean of graded pertinence with these weights.

    Notes
    -----
    The paper prints :math:`w_i = (1 + e^{-k}) / (1 + e^{-k x_i - l})`.  Read
    literally, every weight is about 1 for the defaults, which contradicts the
    paper's own description of its figure (for N = 273, k = 15, l = 0.7 the
    weights fall sharply past rank 50 and are nearly zero past rank 150).  The
    sigmoid centred at ``l`` above reproduces that description and is the
    reading used here (see the theory chapter, "Readings and choices").  The
    constant numerator is dropped: it cancels in the D-measure.

    References
    ----------
    .. [1] D. Nakache, E. Métais and J.-F. Timsit, "Evaluation and NLP",
       DEXA 2005.

    Examples
    --------
    The paper's example list of 273 answers:

    >>> from skprobeval import d_measure_weights
    >>> w = d_measure_weights(273)
    >>> [round(float(w[i - 1]), 3) for i in (1, 50, 83, 100, 150, 273)]
    [0.989, 0.859, 0.499, 0.281, 0.024, 0.0]
    """
    if not isinstance(n_items, numbers.Integral) or isinstance(n_items, bool) or n_items < 1:
        fail("n_items", "an integer >= 1", n_items)
    k = _check_real_parameter(k, "k", "a finite number > 0", lambda v: v > 0)
    l = _check_real_parameter(l, "l", "a finite number", lambda v: True)  # noqa: E741
    n_items = int(n_items)
    x = np.arange(n_items, 0, -1, dtype=np.float64) / n_items
    return expit(k * (x - l))


def d_measure_score(pertinence, *, k=15.0, l=0.7):  # noqa: E741 (the paper's name)
    """D-measure: rank-weighted mean of graded pertinence (Nakache et al., 2005).

    .. math:: D = \\frac{\\sum_{i=1}^N p_i w_i}{\\sum_{i=1}^N w_i},
              \\qquad w_i = \\frac{1}{1 + \\exp(-k (x_i - l))},
              \\quad x_i = \\frac{N - i + 1}{N},

    where :math:`p_i \\in [0, 1]` is the pertinence of the answer at rank
    :math:`i` (1 or 0 for automatic judgments, a judge's percentage for human
    ones).  Good answers near the top of the list count almost fully; answers
    past the inflection point (:math:`x_i = l`) hardly count.

    Parameters
    ----------
    pertinence : array-like of shape (n_items,)
        Graded pertinence of the answers, **in rank order** (best-ranked
        first), each in [0, 1].
    k : float, default=15.0
        Slope of the sigmoid weights, finite and ``> 0``.
    l : float, default=0.7
        Inflection point of the weights on the ``x`` scale, finite.

    Returns
    -------
    float
        The D-measure, in [0, 1].

    See Also
    --------
    d_measure_weights : The weights :math:`w_i`, and the reading of the paper's
        damaged formula that they implement.

    Notes
    -----
    The weights are combined in log space (normalised by the largest), so
    extreme ``k`` and ``l`` neither overflow nor turn into 0/0.

    References
    ----------
    .. [1] D. Nakache, E. Métais and J.-F. Timsit, "Evaluation and NLP",
       DEXA 2005.

    Examples
    --------
    >>> import numpy as np
    >>> from skprobeval import d_measure_score
    >>> good_first = np.r_[np.ones(20), np.zeros(80)]
    >>> round(d_measure_score(good_first), 3)
    0.616
    >>> round(d_measure_score(good_first[::-1]), 3)
    0.0
    >>> d_measure_score([1.0, 1.0, 1.0])
    1.0
    """
    pertinence = check_real_array(pertinence, "pertinence")
    if np.any((pertinence < 0) | (pertinence > 1)):
        bad = pertinence[(pertinence < 0) | (pertinence > 1)]
        fail("pertinence", "in [0, 1]", pertinence,
             shown=f"{bad.size} value(s) outside [0, 1] such as {float(bad[0])!r}")
    k = _check_real_parameter(k, "k", "a finite number > 0", lambda v: v > 0)
    l = _check_real_parameter(l, "l", "a finite number", lambda v: True)  # noqa: E741
    n_items = pertinence.shape[0]
    x = np.arange(n_items, 0, -1, dtype=np.float64) / n_items
    log_weight = log_expit(k * (x - l))
    weight = np.exp(log_weight - log_weight.max())
    return float(weighted_mean(pertinence, weight))
