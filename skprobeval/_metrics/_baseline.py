"""Chance baselines: what a random system scores (Bestgen 2015; Powers 2003).

`random_average_precision` gives the exact mean and variance of the average
precision of a uniformly random ranking in O(1) (closed forms in the harmonic
numbers), `random_average_precision_reference` keeps Bestgen's O(R N) double
sum as an independent check, `random_ranking_test` scores an observed ranking
against that baseline (z-score and seeded permutation p-value),
`random_precision_baseline` gives the exact band of a random ranking's
precision at every cutoff, and `chance_baseline` the expected metrics of a
random classifier with the observed margins and the exact hypergeometric
p-value.  Derivations and accuracy: the theory pages
``docs/theory/random_ap.rst`` and ``docs/theory/chance.rst``.
"""

from __future__ import annotations

import math
import numbers
from fractions import Fraction

import numpy as np
from scipy import special
from scipy.special import digamma, zeta
from scipy.stats import binom, hypergeom

from .._core import (
    check_confidence,
    check_random_state,
    fail,
    format_array,
    frozen_result,
)
from .._counting import ConfusionCounts
from ._baseline_results import (
    ChanceBaseline,
    RandomAveragePrecision,
    RandomPrecisionBaseline,
    RandomRankingTest,
)
from ._ranking import _ap_from_groups, _check_ranking_input, _tie_groups

__all__ = [
    "ChanceBaseline",
    "RandomAveragePrecision",
    "RandomPrecisionBaseline",
    "RandomRankingTest",
    "chance_baseline",
    "random_average_precision",
    "random_average_precision_reference",
    "random_precision_baseline",
    "random_ranking_test",
]

_ZETA2 = math.pi ** 2 / 6


# ---------------------------------------------------------------------------
# Validation and special sums
# ---------------------------------------------------------------------------


def _check_whole(value, name, requirement):
    """Return ``value`` as a Python int (integral floats accepted, bool refused)."""
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value.item()
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        fail(name, requirement, value)
    if isinstance(value, numbers.Integral):
        return int(value)
    value = float(value)
    if not (math.isfinite(value) and value.is_integer()):
        fail(name, requirement, value)
    return int(value)


def _check_sizes(n_items, n_relevant):
    n_items = _check_whole(n_items, "n_items", "an integer >= 1")
    if n_items < 1:
        fail("n_items", "an integer >= 1", n_items)
    requirement = f"an integer in 1..n_items (1..{n_items})"
    n_relevant = _check_whole(n_relevant, "n_relevant", requirement)
    if not 1 <= n_relevant <= n_items:
        fail("n_relevant", requirement, n_relevant)
    return n_items, n_relevant


def _harmonic(n):
    """Harmonic number ``H_n = psi(n + 1) + gamma`` (relative error ~1e-16)."""
    return float(digamma(n + 1.0)) + float(np.euler_gamma)


def _harmonic2(n):
    """Second-order harmonic number ``sum_{k<=n} 1/k^2 = pi^2/6 - zeta(2, n + 1)``."""
    return _ZETA2 - float(zeta(2.0, n + 1.0))


def _mean(n_items, n_relevant):
    """Exact expected AP of a random ranking: (R-1)/(N-1) + (N-R) H_N / (N(N-1))."""
    if n_items == 1:
        return 1.0
    big_n, r = n_items, n_relevant
    return (r - 1) / (big_n - 1) + (big_n - r) / (big_n * (big_n - 1)) * _harmonic(big_n)


def _falling_ratio(r, big_n, k):
    """Fraction ``r(r-1)...(r-k+1) / (N(N-1)...(N-k+1))`` (0 when k > r)."""
    if k > r:
        return Fraction(0)
    return Fraction(math.perm(r, k), math.perm(big_n, k))


def _moments_exact(n_items, n_relevant):
    """Mean and variance as Fractions from the unsimplified indicator sums.

    O(N) (exact harmonic numbers); used for ``N <= 3`` and as a test route.
    """
    big_n, r = n_items, n_relevant
    p1, p2, p3, p4 = (_falling_ratio(r, big_n, k) for k in (1, 2, 3, 4))
    h = sum(Fraction(1, k) for k in range(1, big_n + 1))
    h2 = sum(Fraction(1, k * k) for k in range(1, big_n + 1))
    mean_s = p1 * h + p2 * (big_n - h)
    second_s = (5 * big_n * p3 + big_n * (big_n - 5) * p4
                + (3 * p2 - 9 * p3 + 6 * p4 + 2 * big_n * (p3 - p4)) * h
                + (2 * p2 - 5 * p3 + 3 * p4) * h * h
                + (p1 - 5 * p2 + 7 * p3 - 3 * p4) * h2)
    mean = mean_s / r
    return mean, second_s / (r * r) - mean * mean


def _variance_coefficients(n_items, n_relevant):
    """Coefficients ``(c0, c1, c2, c3)`` of ``Var[AP] = c0 + c1 H + c2 H^2 + c3 H2``.

    Valid for ``N >= 4``; each is an exact ratio of Python integers, rounded once.
    """
    big_n, r = n_items, n_relevant
    gap = big_n - r
    base = r * (big_n - 3) * (big_n - 2) * (big_n - 1) ** 2
    c0 = gap * (r - 1) * (big_n * r - 4 * big_n + r + 4) / base
    c1 = -gap * (r - 1) * (big_n - 2 * r - 1) / (big_n * r * (big_n - 2) * (big_n - 1) ** 2)
    c2 = gap * (big_n ** 3 * r - 2 * big_n ** 3 - 2 * big_n ** 2 * r ** 2 + 6 * big_n ** 2 * r
                + 2 * big_n ** 2 - 2 * big_n * r ** 2 - 9 * big_n * r + 6 * r ** 2) / (
        big_n ** 2 * base)
    c3 = (big_n - 3 * r) * gap * (gap - 1) / (big_n * r * (big_n - 3) * (big_n - 2) * (big_n - 1))
    return c0, c1, c2, c3


def _variance(n_items, n_relevant):
    """Exact variance of the AP of a random ranking (closed form, O(1))."""
    if n_relevant == n_items:
        return 0.0
    if n_items < 4:
        return float(_moments_exact(n_items, n_relevant)[1])
    c0, c1, c2, c3 = _variance_coefficients(n_items, n_relevant)
    h = _harmonic(n_items)
    return max(0.0, c0 + c1 * h + c2 * h * h + c3 * _harmonic2(n_items))


# ---------------------------------------------------------------------------
# Random ranking: exact moments
# ---------------------------------------------------------------------------


def random_average_precision(n_items, n_relevant):
    """Exact mean and variance of the average precision of a random ranking.

    ``N = n_items`` items, ``R = n_relevant`` of them relevant, are put in a
    uniformly random order (every one of the ``C(N, R)`` placements of the
    relevant items equally likely).  The expected average precision is

    .. math:: E[AP] = \\frac{R-1}{N-1} + \\frac{(N-R) H_N}{N (N-1)},

    with :math:`H_N = \\psi(N+1) + \\gamma` the N-th harmonic number (N = 1
    gives 1).  It is larger than the prevalence :math:`R/N` that is often used
    as the random baseline (Bestgen, 2015); the two agree only for large
    ``N``.  The variance is exact too, from the expectations of products of
    two to four relevance indicators (see Notes), which turns an observed AP
    into a z-score.

    Parameters
    ----------
    n_items : int
        Number of ranked items ``N``, ``>= 1`` (integral floats accepted).
    n_relevant : int
        Number of relevant items ``R``, in ``1..n_items``.

    Returns
    -------
    RandomAveragePrecision
        Frozen result with ``mean``, ``variance``, ``std``, ``prevalence`` and
        a ``z_score(ap)`` method.

    See Also
    --------
    random_ranking_test : Compare an observed ranking with this baseline.
    average_precision : The metric itself.

    Notes
    -----
    Both moments are closed forms: O(1) time and memory at any ``N`` (tested
    to ``N = 10^12``).  With :math:`x_n` the relevance of rank ``n``,
    :math:`R \\cdot AP = \\sum_{m \\le n} x_m x_n / n`; a product of
    indicators over ``k`` distinct ranks has expectation
    :math:`p_k = R^{\\underline{k}} / N^{\\underline{k}}` (falling
    factorials).  Squaring and counting the index pairs by their number of
    distinct ranks reduces :math:`E[AP^2]` to a combination of
    :math:`1, H_N, H_N^2` and :math:`H^{(2)}_N = \\sum_{n \\le N} 1/n^2`
    with rational coefficients.  The variance is evaluated from those
    coefficients computed in exact integer arithmetic, so no catastrophic
    cancellation occurs (the relative error stays near 1e-14).  Both moments
    equal brute-force enumeration of all orderings in exact rational
    arithmetic for every ``N <= 12``.

    References
    ----------
    .. [1] Y. Bestgen, "Exact Expected Average Precision of the Random
       Baseline for System Evaluation", The Prague Bulletin of Mathematical
       Linguistics 103, pp. 131-138, 2015.

    Examples
    --------
    Table 1 of Bestgen (2015): 5 items, 2 relevant; the mean over the 10
    equally likely orderings is 0.5925 (printed rounded as 0.593), not the
    prevalence 0.4.

    >>> from itertools import combinations
    >>> from skprobeval import average_precision, random_average_precision
    >>> score = [5, 4, 3, 2, 1]
    >>> aps = [average_precision([int(r in ranks) for r in range(5)], score)
    ...        for ranks in combinations(range(5), 2)]
    >>> [round(ap, 2) for ap in aps]
    [1.0, 0.83, 0.75, 0.7, 0.58, 0.5, 0.45, 0.42, 0.37, 0.33]
    >>> round(sum(aps) / len(aps), 4)
    0.5925
    >>> baseline = random_average_precision(5, 2)
    >>> round(baseline.mean, 4), round(baseline.variance, 6), baseline.prevalence
    (0.5925, 0.044284, 0.4)

    Bestgen's ``RandomAPExact(10, 4)``, and a collection of 10^12 items:

    >>> round(random_average_precision(10, 4).mean, 7)
    0.5285979
    >>> big = random_average_precision(10**12, 10**9)
    >>> round(big.mean, 14), float(f"{big.std:.4g}")
    (0.00100000002718, 3.161e-08)
    """
    n_items, n_relevant = _check_sizes(n_items, n_relevant)
    variance = _variance(n_items, n_relevant)
    return RandomAveragePrecision(
        n_items=n_items, n_relevant=n_relevant, mean=_mean(n_items, n_relevant),
        variance=variance, std=math.sqrt(variance), prevalence=n_relevant / n_items)


def _dhyper(i, n_items, n_relevant, n):
    """R's ``dhyper(i, R, N - R, n)``: P(i relevant items among the first n ranks).

    Computed the way R computes it (Loader's decomposition): with
    ``p = n / N``, ``dbinom(i; R, p) * dbinom(n - i; N - R, p) / dbinom(n; N, p)``
    (scipy's binomial pmf, accurate to a few ulp), vectorised over ``n``.
    """
    p = n / n_items
    return (binom.pmf(i, n_relevant, p) * binom.pmf(n - i, n_items - n_relevant, p)
            / binom.pmf(n, n_items, p))


def _reference_terms(n_items, n_relevant):
    """Rows of Bestgen's Table 2: ``(i, n, dhyper, final prob., P@n, contribution)``.

    ``dhyper`` is the hypergeometric probability of ``i`` relevant items among
    the first ``n`` ranks; the ``i``-th relevant item sits at rank ``n`` with
    probability ``dhyper * i / n`` ("final prob.") and then scores precision
    ``i / n``.
    """
    big_n, r = n_items, n_relevant
    rows = []
    for i in range(1, r + 1):
        n = np.arange(i, big_n - r + i + 1)
        density = _dhyper(i, big_n, r, n)
        precision = i / n
        final = density * precision
        rows.append(np.stack([np.full(n.shape, float(i)), n.astype(float), density, final,
                              precision, final * precision], axis=1))
    return np.concatenate(rows)


def random_average_precision_reference(n_items, n_relevant):
    """Expected AP of a random ranking by Bestgen's double sum (reference).

    The reference implementation of Bestgen (2015), kept for tests and
    benchmarks: for every relevant item ``i = 1..R`` and every rank ``n`` it
    can occupy (``i <= n <= N - R + i``), the probability that the ``i``-th
    relevant item sits at rank ``n`` is the hypergeometric probability of
    ``i`` relevant items among the first ``n``, times ``i / n``; it then
    contributes precision ``i / n``:

    .. math:: E[AP] = \\frac{1}{R} \\sum_{i=1}^{R} \\sum_{n=i}^{N-R+i}
              \\frac{\\binom{R}{i}\\binom{N-R}{n-i}}{\\binom{N}{n}}
              \\left(\\frac{i}{n}\\right)^2 .

    O(R·(N-R+1)) hypergeometric probabilities, each computed as R's
    ``dhyper`` computes it (a ratio of three binomial probabilities, Loader's
    method, here with scipy's binomial pmf), one vectorised row per ``i``.  Use
    `random_average_precision` (O(1), same value, plus the variance) for real
    work; this function exists to check it and to measure the speed-up.

    Parameters
    ----------
    n_items : int
        Number of ranked items ``N``, ``>= 1``.
    n_relevant : int
        Number of relevant items ``R``, in ``1..n_items``.

    Returns
    -------
    float
        The expected average precision.

    See Also
    --------
    random_average_precision : The closed form, with the exact variance.

    References
    ----------
    .. [1] Y. Bestgen, "Exact Expected Average Precision of the Random
       Baseline for System Evaluation", The Prague Bulletin of Mathematical
       Linguistics 103, pp. 131-138, 2015 (function ``RandomAPExact``).

    Examples
    --------
    >>> from skprobeval._metrics._baseline import random_average_precision_reference
    >>> round(random_average_precision_reference(5, 2), 4)  # Bestgen's Table 2
    0.5925
    >>> round(random_average_precision_reference(10, 4), 7)  # RandomAPExact(10, 4)
    0.5285979
    """
    n_items, n_relevant = _check_sizes(n_items, n_relevant)
    big_n, r = n_items, n_relevant
    total = 0.0
    for i in range(1, r + 1):
        n = np.arange(i, big_n - r + i + 1)
        precision = i / n
        total += float(np.sum(_dhyper(i, big_n, r, n) * precision * precision))
    return total / r


# ---------------------------------------------------------------------------
# Observed ranking against the random baseline
# ---------------------------------------------------------------------------


# Permuted label matrices are scored in blocks of about this many cells.
_PERMUTATION_BLOCK = 1 << 21


def _permutation_aps(relevant_sorted, ends, n_relevant, n_permutations, rng):
    """AP of ``n_permutations`` random relabellings over fixed tie groups."""
    n_items = relevant_sorted.shape[0]
    group_weight = ends.astype(np.float64)
    rows = max(1, _PERMUTATION_BLOCK // n_items)
    out = np.empty(n_permutations)
    done = 0
    while done < n_permutations:
        block = min(rows, n_permutations - done)
        labels = rng.permuted(np.tile(relevant_sorted, (block, 1)), axis=1)
        cumulative = np.cumsum(labels, axis=1, dtype=np.float64)[:, ends - 1]
        out[done:done + block] = _ap_from_groups(cumulative, group_weight, n_relevant)
        done += block
    return out


def random_ranking_test(y_true, y_score, *, pos_label=None, n_permutations=0, random_state=None):
    """Compare the average precision of a ranking with a random ranking.

    Computes the observed `average_precision`, the exact mean and standard
    deviation of the AP of a uniformly random ranking of the same items
    (`random_average_precision`), the z-score, and, when ``n_permutations >
    0``, a one-sided permutation p-value: the relevance labels are shuffled
    over the scores ``n_permutations`` times and

    .. math:: p = \\frac{1 + \\#\\{AP_{perm} \\ge AP_{obs}\\}}{1 + n_{perm}}.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary relevance labels, with at least one relevant item.
    y_score : array-like of shape (n_samples,)
        Scores; a higher score ranks an item earlier.
    pos_label : int, float, bool or str, default=None
        The label of the relevant class; None means 1 for labels in {0, 1},
        {-1, 1} or bool, and other labels must name it (the rule of every
        ranking function and curve).
    n_permutations : int, default=0
        Number of label permutations for the p-value; 0 skips it.
    random_state : None, int or numpy.random.Generator, default=None
        Seed of the permutations; the same seed gives the same p-value.

    Returns
    -------
    RandomRankingTest
        Frozen result with ``average_precision``, ``expected``, ``std``,
        ``z_score``, ``p_value`` (a float, NaN when ``n_permutations == 0``),
        ``n_items``, ``n_relevant`` and ``n_permutations``.

    See Also
    --------
    random_average_precision : The exact baseline moments.
    average_precision : The observed metric and its tie convention.

    Notes
    -----
    **Ties.** The observed AP treats tied scores as one threshold step
    (scikit-learn's convention, see `average_precision`), and so do the
    permuted APs: labels are shuffled over the observed scores, tie groups
    kept, so the p-value is exact for the observed tie structure.  The
    ``expected`` and ``std`` describe a random *strict* ordering; with many
    ties the observed AP is pulled toward the prevalence and the z-score is
    only indicative — rely on the p-value then.

    Two permuted and observed APs closer than 1e-12 count as equal (``>=``),
    which keeps the p-value conservative under floating-point rounding.

    Examples
    --------
    >>> from skprobeval import random_ranking_test
    >>> y_true = [1, 1, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0]
    >>> y_score = list(range(12, 0, -1))
    >>> result = random_ranking_test(y_true, y_score, n_permutations=999, random_state=0)
    >>> round(result.average_precision, 4), round(result.expected, 4)
    (0.8304, 0.4608)
    >>> round(result.z_score, 2), round(result.p_value, 3)
    (2.41, 0.031)
    """
    relevant, score = _check_ranking_input(y_true, y_score, pos_label)
    n_relevant = int(np.count_nonzero(relevant))
    if n_relevant == 0:
        fail("y_true", f"labels with at least one relevant item (pos_label={pos_label!r})", y_true,
             shown="no relevant item")
    n_permutations = _check_whole(n_permutations, "n_permutations", "an integer >= 0")
    if n_permutations < 0:
        fail("n_permutations", "an integer >= 0", n_permutations)
    rng = check_random_state(random_state)
    n_items = score.shape[0]
    order, ends = _tie_groups(score)
    relevant_sorted = relevant[order].astype(np.int8)
    observed = float(_ap_from_groups(np.cumsum(relevant_sorted, dtype=np.float64)[ends - 1],
                                     ends.astype(np.float64), n_relevant))
    baseline = random_average_precision(n_items, n_relevant)
    z = (observed - baseline.mean) / baseline.std if baseline.std > 0 else math.nan
    p_value = math.nan
    if n_permutations > 0:
        permuted = _permutation_aps(relevant_sorted, ends, n_relevant, n_permutations, rng)
        exceed = int(np.count_nonzero(permuted >= observed - 1e-12))
        p_value = (1 + exceed) / (1 + n_permutations)
    return RandomRankingTest(
        average_precision=observed, expected=baseline.mean, std=baseline.std, z_score=z,
        p_value=p_value, n_items=n_items, n_relevant=n_relevant, n_permutations=n_permutations)


# ---------------------------------------------------------------------------
# Chance levels of the confusion-table metrics
# ---------------------------------------------------------------------------


def chance_baseline(counts):
    """Chance levels of the table metrics and the exact chance p-value.

    The null model is a random classifier that labels ``M = tp + fp`` of the
    ``N`` items positive, chosen uniformly at random, when ``R = tp + fn``
    items are relevant.  Its true positives are hypergeometric,
    ``TP ~ Hypergeometric(N, R, M)`` with mean ``M R / N``, and every metric
    below is linear in ``TP`` once ``M``, ``R`` and ``N`` are fixed, so the
    expectations are exact:

    * precision ``E[TP / M] = R / N`` (undefined when ``M = 0``);
    * recall ``E[TP / R] = M / N`` (undefined when ``R = 0``);
    * F1 ``E[2 TP / (M + R)] = 2 M R / (N (M + R))``;
    * accuracy ``(M R + (N - M)(N - R)) / N^2``;
    * informedness (tpr - fpr) 0 (undefined when ``R`` is 0 or ``N``).

    ``p_value = P(TP >= observed tp)``, the exact one-sided probability that
    chance alone reaches the observed number of true positives
    (``scipy.stats.hypergeom.sf(tp - 1, N, R, M)``).

    Parameters
    ----------
    counts : ConfusionCounts
        One table (0-d cells) or one table per label (cells of shape
        ``(K,)``).  Cells must be whole numbers.

    Returns
    -------
    ChanceBaseline
        Frozen result with ``precision``, ``recall``, ``f1``, ``accuracy``,
        ``informedness``, ``expected_tp`` and ``p_value``: floats for one
        table, read-only arrays of shape ``(K,)`` for per-label counts.

    Raises
    ------
    ValueError
        If a cell is not a whole number.  The hypergeometric null counts
        items, so weighted (fractional) counts have no exact chance
        distribution; round the counts yourself if an approximation will do.
    TypeError
        If ``counts`` is not a `ConfusionCounts`.

    See Also
    --------
    informedness_score : The chance-corrected measure (0 for any random classifier).
    random_average_precision : The chance level of a ranking.

    Examples
    --------
    >>> from skprobeval import ConfusionCounts, chance_baseline
    >>> counts = ConfusionCounts(tp=30, fp=10, fn=20, tn=40)
    >>> chance = chance_baseline(counts)
    >>> chance.precision, chance.recall, chance.expected_tp
    (0.5, 0.4, 20.0)
    >>> round(chance.f1, 4), chance.accuracy, chance.informedness
    (0.4444, 0.5, 0.0)
    >>> float(f"{chance.p_value:.3g}")
    4.15e-05

    Per-label counts give per-label arrays:

    >>> per_label = ConfusionCounts.from_predictions(
    ...     [0, 0, 1, 1, 2, 2, 2, 1], [0, 1, 1, 1, 2, 2, 0, 2], average=None)
    >>> chance_baseline(per_label).p_value.round(3)
    array([0.464, 0.286, 0.286])
    """
    if not isinstance(counts, ConfusionCounts):
        fail("counts", "a ConfusionCounts", counts, error=TypeError)
    tp, fp, fn, tn = counts.tp, counts.fp, counts.fn, counts.tn
    for name, cell in (("tp", tp), ("fp", fp), ("fn", fn), ("tn", tn)):
        if not np.all(cell == np.floor(cell)):
            fail("counts", "whole-number counts (the hypergeometric chance model counts "
                 "items; weighted, fractional counts are not supported)", counts,
                 shown=f"fractional {name} {format_array(cell)}")
    n = tp + fp + fn + tn
    relevant = tp + fn
    predicted = tp + fp
    with np.errstate(invalid="ignore", divide="ignore"):
        share_predicted = predicted / n
        share_relevant = relevant / n
        precision = np.where(predicted > 0, share_relevant, np.nan)
        recall = np.where(relevant > 0, share_predicted, np.nan)
        f1 = np.where(predicted + relevant > 0,
                      2 * share_predicted * share_relevant / (share_predicted + share_relevant),
                      np.nan)
        accuracy = share_predicted * share_relevant + ((fn + tn) / n) * ((fp + tn) / n)
        informedness = np.where((relevant > 0) & (relevant < n), 0.0, np.nan)
        expected_tp = np.where(n > 0, predicted * share_relevant, np.nan)
    p_value = np.where(n > 0, hypergeom.sf(tp - 1, np.where(n > 0, n, 1), relevant, predicted),
                       1.0)
    p_value = np.clip(p_value, 0.0, 1.0)
    return ChanceBaseline(
        precision=frozen_result(precision), recall=frozen_result(recall),
        f1=frozen_result(f1), accuracy=frozen_result(accuracy),
        informedness=frozen_result(informedness),
        expected_tp=frozen_result(expected_tp), p_value=frozen_result(p_value),
        labels=counts.labels)


# ---------------------------------------------------------------------------
# Precision of a random ranking at every cutoff
# ---------------------------------------------------------------------------


# Cutoffs between two direct evaluations of the probability mass along a path
# (ratios carry it in between: a relative error of ~1e-15 at most), and cutoffs
# handled at once (arrays that stay in the processor's cache).
_PATH_BLOCK = 1024
_PATH_CHUNK = 64 * _PATH_BLOCK


def _quantile_paths(n_items, n_relevant, tail):
    """Hypergeometric quantiles at every cutoff: ``hypergeom.ppf(tail, N, R, k)``
    and ``hypergeom.isf(tail, N, R, k)`` for ``k = 1..N``, in O(N) vectorised steps.

    ``TP_k ~ Hypergeometric(N, R, k)`` grows by 0 or 1 from one cutoff to the
    next, so its quantiles, as a function of ``k``, form a path of steps 0 or
    1.  Along any such path the cdf follows from one probability mass per
    cutoff: ``F_{k+1}(x) = F_k(x) - p_k(x) (R - x) / (N - k)`` and
    ``F_k(x + 1) = F_k(x) + p_k(x + 1)`` (likewise the sf), the masses from
    ratios of falling factorials, evaluated directly every ``_PATH_BLOCK``
    cutoffs.  The path taken is the normal approximation's quantile made into
    such a path; each cutoff then walks from it to its exact quantile, a step
    or two (the cdf, summed where it is near the tail mass, keeps ~1e-14).
    Where the cdf comes within 1e-9 (relative) of the tail mass, a tie in exact
    arithmetic that rounding may break either way (``1 - k/N = 0.25`` at
    ``R = 1``), scipy's search decides: the answers are those of
    ``hypergeom.ppf``/``isf`` at every cutoff.
    """
    big_n, r = n_items, n_relevant
    if big_n == 1:
        return np.ones(1), np.ones(1)
    z = float(special.ndtri(tail))
    spread = r * (big_n - r) / (big_n * big_n * (big_n - 1.0))
    out = (np.empty(big_n), np.empty(big_n))
    # Carried from one chunk to the next, per tail: the path's running maximum
    # and running minimum of (path - k), its last point and the cdf (sf) there.
    carry = [[-np.inf, np.inf, None, None], [-np.inf, np.inf, None, None]]
    for begin in range(0, big_n, _PATH_CHUNK):
        k = np.arange(begin + 1, min(begin + _PATH_CHUNK, big_n) + 1, dtype=np.float64)
        first = np.maximum(0.0, k + (r - big_n))       # support of TP_k
        last = np.minimum(k, float(r))
        centre = k * (r / big_n)
        sd = np.sqrt(k * (big_n - k) * spread)
        growth = (k + 1) / np.maximum(big_n - k, 1.0)  # shared factor of the mass ratios
        for side, upper in enumerate((False, True)):
            running = carry[side]
            guess = np.floor(centre + ((-z if upper else z) * sd + 0.5))
            np.clip(guess, first, last, out=guess)
            # The nearest path of steps 0 or 1 inside the support (the support's
            # own ends are such paths, and so are maxima and minima of two).
            path = np.maximum.accumulate(np.maximum(guess, running[0]))
            running[0] = path[-1]
            path -= k
            path = np.minimum.accumulate(np.minimum(path, running[1]))
            running[1] = path[-1]
            path += k
            x = np.clip(path, first, last)
            if running[2] is None:                     # k = 1
                before_x = before_k = before_mass = None
            else:
                before_x, before_k, before_mass, before_value = running[2]
            chunk_x = x if before_x is None else np.concatenate([[before_x], x])
            kk = k[:-1] if before_x is None else np.concatenate([[before_k], k[:-1]])
            xx = chunk_x[:-1]
            rises = chunk_x[1:] > xx
            # p_{k+1}(x') / p_k(x): (k+1)(R - x) / ((x + 1)(N - k)) for a rise,
            # (k+1)(N - R - k + x) / ((k + 1 - x)(N - k)) otherwise.
            factor = growth[:-1] if before_x is None else np.concatenate(
                [[(before_k + 1) / (big_n - before_k)], growth[:-1]])
            ratio = factor * np.where(rises, (r - xx) / (xx + 1),
                                      (big_n - r - kk + xx) / (kk + 1 - xx))
            mass = np.empty(k.size)
            if before_x is None:
                mass[0] = 1.0
                mass[1:] = ratio
            else:
                mass[:] = ratio
            starts = np.arange(0, k.size, _PATH_BLOCK)
            mass[starts] = _dhyper(x[starts], big_n, r, k[starts])
            pad = (-k.size) % _PATH_BLOCK
            mass = np.cumprod(np.concatenate([mass, np.ones(pad)]).reshape(-1, _PATH_BLOCK),
                              axis=1).ravel()[:k.size]
            # The cdf (sf) along the path, from its exact value at k = 1.
            previous_mass = mass[:-1] if before_x is None else np.concatenate(
                [[before_mass], mass[:-1]])
            leave = previous_mass * (r - xx) / (big_n - kk)   # P(TP_k = x, next relevant)
            if before_x is None:
                rise = np.where(rises, mass[1:], 0.0)
                if upper:
                    start = r / big_n if x[0] == 0 else 0.0
                else:
                    start = (big_n - r) / big_n if x[0] == 0 else 1.0
                change = np.concatenate([[start], (leave - rise) if upper else (rise - leave)])
            else:
                rise = np.where(rises, mass, 0.0)
                change = (leave - rise) if upper else (rise - leave)
                change[0] += before_value
            value = np.cumsum(change)
            running[2] = (x[-1], k[-1], mass[-1], value[-1])
            out[side][begin:begin + k.size] = _walk_to_quantile(
                x, value, mass, k, first, last, big_n, r, tail, upper)
    return out


def _walk_to_quantile(x, value, mass, k, first, last, big_n, r, tail, upper):
    """Move each cutoff's ``x`` (cdf or sf ``value``, mass ``mass`` there) to its
    quantile: the smallest x with ``F(x) >= tail`` (or ``sf(x) <= tail``)."""
    todo = np.arange(x.size)
    xs, v, p, ks = x, value, mass, k
    lows, highs = first, last
    while True:
        if upper:
            up = (v > tail) & (xs < highs)
            down = ~up & (v + p <= tail) & (xs > lows)
        else:
            up = (v < tail) & (xs < highs)
            down = ~up & (v - p >= tail) & (xs > lows)
        move = np.flatnonzero(up | down)
        if not move.size:
            break
        todo, xs, v, p, ks, up, lows, highs = (
            a[move] for a in (todo, xs, v, p, ks, up, lows, highs))
        with np.errstate(divide="ignore", invalid="ignore"):
            # p_k(x + 1) / p_k(x) and p_k(x - 1) / p_k(x).
            p_up = p * (r - xs) * (ks - xs) / ((xs + 1) * (big_n - r - ks + xs + 1))
            p_down = p * xs * (big_n - r - ks + xs) / ((r - xs + 1) * (ks - xs + 1))
        if upper:
            v = np.where(up, v - p_up, v + p)
        else:
            v = np.where(up, v + p_up, v - p)
        xs = np.where(up, xs + 1, xs - 1)
        p = np.where(up, p_up, p_down)
        x[todo], value[todo], mass[todo] = xs, v, p
    # Within 1e-9 (relative) of a tie, or within the cdf's carried rounding
    # (about 1e-16 absolute, so 1e-13 to spare, for tails of 1e-10 and below),
    # scipy's own search decides.
    beside = value + mass if upper else value - mass
    window = max(1e-9 * tail, 1e-13)
    near = np.flatnonzero((np.abs(value - tail) <= window)
                          | (np.abs(beside - tail) <= window))
    if near.size:
        search = hypergeom.isf if upper else hypergeom.ppf
        x[near] = search(tail, big_n, r, k[near])
    return x


def random_precision_baseline(n_items, n_relevant, *, confidence=0.95):
    """Exact band of the precision of a random ranking at every cutoff.

    Parameters
    ----------
    n_items : int
        Number of ranked items ``N`` (at most 10^7: one value per cutoff).
    n_relevant : int
        Number of relevant items ``R``, in 1..N.
    confidence : float, default=0.95
        Mass of the band at each cutoff, in (0, 1).

    Returns
    -------
    RandomPrecisionBaseline

    Examples
    --------
    At N = 300 with R = 45 the usual flat line says 0.15 at every cutoff; at the
    top 50 a random ranking's precision lies in [0.06, 0.24] with 95% probability:

    >>> from skprobeval import random_precision_baseline
    >>> band = random_precision_baseline(300, 45)
    >>> float(band.low[49]), float(band.high[49]), float(band.recall[49])
    (0.06, 0.24, 0.16666666666666666)
    """
    n_items, n_relevant = _check_sizes(n_items, n_relevant)
    if n_items > 10 ** 7:
        fail("n_items", "at most 10**7 (one value per cutoff)", n_items)
    confidence = check_confidence(confidence)
    k = np.arange(1, n_items + 1)
    tail = (1 - confidence) / 2
    low, high = _quantile_paths(n_items, n_relevant, tail)
    low /= k
    high /= k
    # The mean is one number at every cutoff: a read-only view, not N copies.
    return RandomPrecisionBaseline(k, k / n_items, np.broadcast_to(n_relevant / n_items, k.shape),
                                   low, high, confidence)
