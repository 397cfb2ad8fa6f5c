"""Frequentist reference methods that the coverage benchmark sets beside the library.

Proportions: Wilson's score interval and Jeffreys' interval (Brown, Cai & DasGupta 2001).
Other statistics of a table of i.i.d. items, and ranking metrics of one scored data set: the
nonparametric bootstrap, percentile and BCa (Efron 1987).  ROC AUC: DeLong, DeLong &
Clarke-Pearson (1988), computed with the midrank algorithm of Sun & Xu (2014).  Tests matched
to the comparisons, all one-sided ("the first system is better"): the exact McNemar test,
Nadeau & Bengio (2003)'s corrected resampled t-test and Wilcoxon's signed-rank test.
"""

from __future__ import annotations

import numpy as np
from scipy import special, stats

__all__ = [
    "corrected_ttest_one_sided",
    "count_bootstrap",
    "delong_interval",
    "delong_paired_test",
    "jeffreys_interval",
    "mcnemar_one_sided",
    "ranking_bootstrap",
    "weighted_auc",
    "weighted_average_precision",
    "wilcoxon_one_sided",
    "wilson_interval",
]

# Working memory of one block of bootstrap resamples, in bytes (the resampled integers and
# a few temporaries of the statistic of the same size).
_MEMORY = 200_000_000
# Largest data set for which `ranking_bootstrap` builds the (n, n) item jackknife.
_MAX_JACKKNIFE = 2000


# ---------------------------------------------------------------------------
# Proportions


def wilson_interval(k, n, confidence=0.95):
    """Wilson's score interval of a binomial proportion.

    Parameters
    ----------
    k, n : array_like of int
        Successes and trials (broadcast together).
    confidence : float, default 0.95
        Two-sided confidence level.

    Returns
    -------
    low, high : ndarray
        The interval, clipped to [0, 1] against rounding; n = 0 gives [0, 1].
    """
    k, n = np.broadcast_arrays(np.asarray(k, dtype=float), np.asarray(n, dtype=float))
    z2 = stats.norm.ppf(0.5 + confidence / 2) ** 2
    safe = np.where(n > 0, n, 1.0)
    p = np.where(n > 0, k, 0.0) / safe
    denominator = 1 + z2 / safe
    centre = (p + z2 / (2 * safe)) / denominator
    half = np.sqrt(z2 * (p * (1 - p) / safe + z2 / (4 * safe * safe))) / denominator
    low = np.where(n > 0, np.clip(centre - half, 0.0, 1.0), 0.0)
    high = np.where(n > 0, np.clip(centre + half, 0.0, 1.0), 1.0)
    return low, high


def jeffreys_interval(k, n, confidence=0.95):
    """Jeffreys' interval of a binomial proportion.

    The equal-tailed quantiles of Beta(k + 1/2, n - k + 1/2), with the boundary convention
    of Brown, Cai & DasGupta (2001): low = 0 when k = 0 and high = 1 when k = n.

    Parameters
    ----------
    k, n : array_like of int
        Successes and trials (broadcast together).
    confidence : float, default 0.95
        Two-sided confidence level.

    Returns
    -------
    low, high : ndarray
    """
    k, n = np.broadcast_arrays(np.asarray(k, dtype=float), np.asarray(n, dtype=float))
    tail = (1 - confidence) / 2
    a, b = k + 0.5, n - k + 0.5
    low = np.where(k == 0, 0.0, special.betaincinv(a, b, tail))
    high = np.where(k == n, 1.0, special.betaincinv(a, b, 1 - tail))
    return low, high


# ---------------------------------------------------------------------------
# Bootstrap: shared pieces


def _levels(confidence):
    tail = (1 - confidence) / 2
    return np.array([tail, 1 - tail])


def _column_quantiles(values, q):
    """Quantiles of each column of ``values`` (B, R), NaN dropped, at per-column levels.

    ``q`` has shape (L, R); the result (L, R) is numpy's default ("linear") quantile of the
    column's finite-or-infinite values, NaN where a column holds no value.
    """
    ordered = np.sort(values, axis=0)                       # NaN sort last
    valid = np.sum(~np.isnan(values), axis=0)               # (R,)
    last = np.maximum(valid - 1, 0)
    index = last * q
    below = np.clip(np.floor(index).astype(np.intp), 0, last)
    above = np.minimum(below + 1, last)
    fraction = index - below
    a = np.take_along_axis(ordered, below, axis=0)
    b = np.take_along_axis(ordered, above, axis=0)
    with np.errstate(invalid="ignore"):
        step = b - a
        # numpy's interpolation, written the same way (from the nearer end).
        out = np.where(fraction >= 0.5, b - step * (1 - fraction), a + step * fraction)
        out = np.where(a == b, a, out)
    return np.where(valid > 0, out, np.nan)


def _acceleration(theta, multiplicity):
    """BCa acceleration from jackknife values ``theta`` (R, J) of multiplicity (R, J).

    ``sum m (mean - theta)^3 / (6 (sum m (mean - theta)^2)^(3/2))`` with the
    multiplicity-weighted mean; NaN where a jackknife value (of positive multiplicity) is NaN
    or the denominator is 0.
    """
    multiplicity = np.asarray(multiplicity, dtype=float)
    used = multiplicity > 0
    bad = np.any(used & ~np.isfinite(theta), axis=1)
    theta = np.where(used & np.isfinite(theta), theta, 0.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.sum(multiplicity * theta, axis=1) / np.sum(multiplicity, axis=1)
        d = mean[:, None] - theta
        numerator = np.sum(multiplicity * d**3, axis=1)
        denominator = np.sum(multiplicity * d**2, axis=1)
        acceleration = numerator / (6 * denominator**1.5)
    return np.where(bad | ~(denominator > 0), np.nan, acceleration)


def _interval(resampled, observed, confidence, method, acceleration=None):
    """Percentile or BCa interval of each column of the bootstrap values (B, R).

    NaN resample values are dropped; a NaN observed value gives a NaN interval.  BCa falls
    back to the percentile levels where the acceleration is NaN or the bias correction is
    infinite.
    """
    levels = _levels(confidence)
    q = np.broadcast_to(levels[:, None], (2, resampled.shape[1]))
    if method == "bca":
        valid = ~np.isnan(resampled)
        with np.errstate(invalid="ignore", divide="ignore"):
            share = np.sum(valid & (resampled < observed), axis=0) / np.sum(valid, axis=0)
            z0 = special.ndtri(share)
            z = special.ndtri(levels)[:, None]
            # As scipy.stats.bootstrap: Phi(z0 + (z0 + z) / (1 - a (z0 + z))).
            adjusted = special.ndtr(z0 + (z0 + z) / (1 - acceleration * (z0 + z)))
        usable = np.isfinite(z0) & np.isfinite(acceleration) & np.all(
            np.isfinite(adjusted), axis=0)
        q = np.where(usable, adjusted, q)
    low, high = _column_quantiles(resampled, q)
    known = ~np.isnan(observed)
    return np.where(known, low, np.nan), np.where(known, high, np.nan)


def _check_method(method):
    if method not in ("percentile", "bca"):
        raise ValueError(f"method must be 'percentile' or 'bca'; got {method!r}")


# ---------------------------------------------------------------------------
# Bootstrap of tables of i.i.d. items


def _count_statistics(counts, statistic, n_resamples, rng):
    """Statistic of ``n_resamples`` bootstrap tables per row: an array (n_resamples, R).

    Drawing n items with replacement is a multinomial draw of the cells with the observed
    shares; the draws are made in blocks of bounded memory.
    """
    n = counts.sum(axis=1)
    shares = counts / np.where(n > 0, n, 1)[:, None]
    out = np.empty((n_resamples, counts.shape[0]))
    block = max(1, _MEMORY // (4 * 8 * counts.size))
    for start in range(0, n_resamples, block):
        size = min(block, n_resamples - start)
        tables = rng.multinomial(n, shares, size=(size, counts.shape[0]))
        with np.errstate(invalid="ignore", divide="ignore"):
            out[start:start + size] = statistic(tables)
    return out


def _count_acceleration(counts, statistic):
    """BCa acceleration of each row from the exact grouped jackknife, shape (R,).

    Removing one item of cell c gives the same table for each of the counts[c] items of c,
    so the n leave-one-out values take C distinct values with multiplicities counts[c].
    """
    rows, cells = counts.shape
    eye = np.eye(cells, dtype=counts.dtype)
    theta = np.empty((rows, cells))
    block = max(1, _MEMORY // (4 * 8 * cells * cells))
    for start in range(0, rows, block):
        part = counts[start:start + block]
        removed = np.maximum(part[:, None, :] - eye, 0)     # (rows, C, C); empty cells unused
        with np.errstate(invalid="ignore", divide="ignore"):
            theta[start:start + block] = statistic(removed)
    return _acceleration(theta, counts)


def count_bootstrap(counts, statistic, *, confidence=0.95, n_resamples=1000, rng,
                    method="percentile"):
    """Bootstrap interval of ``statistic`` for each row of a table of i.i.d. items.

    Parameters
    ----------
    counts : array_like of int, shape (R, C)
        R repetitions, each a table of C cells (e.g. the four confusion cells, or the K * K
        cells of a multiclass table) whose items are i.i.d.
    statistic : callable
        Maps counts of shape (..., C) to values of shape (...); called under
        ``np.errstate(divide="ignore", invalid="ignore")``, it may return NaN (e.g. 0/0).
    confidence : float, default 0.95
        Two-sided confidence level.
    n_resamples : int, default 1000
        Bootstrap resamples per row.
    rng : numpy.random.Generator
        Source of the resamples.
    method : {"percentile", "bca"}, default "percentile"
        The percentile interval, or Efron (1987)'s bias-corrected and accelerated one: bias
        correction ``z0 = Phi^-1(share of resamples < the observed value)``, acceleration
        from the jackknife, levels adjusted as by ``scipy.stats.bootstrap``.  The jackknife
        is exact in O(C): removing one item of cell c leaves one of C distinct tables, of
        multiplicity counts[c].  Where the jackknife is degenerate (all values equal, or a
        NaN value) or z0 is infinite, that row falls back to the percentile interval.

    Returns
    -------
    low, high : ndarray of shape (R,)
        NaN resample values are dropped row by row before the quantiles are taken (unlike
        ``scipy.stats.bootstrap``, which returns NaN); a NaN observed value, or a row
        whose resamples are all NaN, gives a NaN interval.
    """
    _check_method(method)
    counts = np.asarray(counts)
    if counts.ndim != 2:
        raise ValueError(f"counts must have shape (R, C); got shape {counts.shape}")
    with np.errstate(invalid="ignore", divide="ignore"):
        observed = np.asarray(statistic(counts), dtype=float)
    resampled = _count_statistics(counts, statistic, n_resamples, rng)
    acceleration = _count_acceleration(counts, statistic) if method == "bca" else None
    return _interval(resampled, observed, confidence, method, acceleration)


# ---------------------------------------------------------------------------
# Bootstrap of ranking metrics of one data set


def _sorted_groups(y_true, y_score):
    """Order by decreasing score, relevance in that order, and the starts of tied groups."""
    y_true = np.asarray(y_true).astype(bool)
    y_score = np.asarray(y_score, dtype=float)
    if y_true.shape != y_score.shape or y_true.ndim != 1:
        raise ValueError("y_true and y_score must be 1-d arrays of one length")
    order = np.argsort(-y_score, kind="stable")
    ordered = y_score[order]
    starts = np.r_[0, np.flatnonzero(ordered[1:] != ordered[:-1]) + 1]
    return order, y_true[order], starts


def _group_weights(y_true, y_score, weights):
    """Positive and negative weight per distinct score (decreasing), rows of ``weights``."""
    order, relevant, starts = _sorted_groups(y_true, y_score)
    weights = np.asarray(weights, dtype=float)
    shape = weights.shape[:-1]
    w = weights.reshape(-1, weights.shape[-1])[:, order]
    positive = np.add.reduceat(np.where(relevant, w, 0.0), starts, axis=1)
    negative = np.add.reduceat(np.where(relevant, 0.0, w), starts, axis=1)
    return positive, negative, shape


def weighted_auc(y_true, y_score, weights):
    """ROC AUC of a scored data set under each row of item weights.

    The Mann-Whitney statistic with each item weighted and tied scores counting one half:
    ``sum_{i pos, j neg} w_i w_j [s_i > s_j] + w_i w_j [s_i = s_j] / 2`` over the product
    of the positive and negative weight totals.

    Parameters
    ----------
    y_true : array_like of shape (n,)
        Binary labels; true (or nonzero) is positive.
    y_score : array_like of shape (n,)
        Scores, higher meaning more likely positive.
    weights : array_like of shape (..., n)
        Nonnegative item weights, items in the given order (e.g. bootstrap counts).

    Returns
    -------
    ndarray of shape (...)
        NaN where a row gives no weight to one of the classes.
    """
    positive, negative, shape = _group_weights(y_true, y_score, weights)
    total_negative = negative.sum(axis=1)
    # Negative weight strictly below each group (groups run in decreasing score).
    below = total_negative[:, None] - np.cumsum(negative, axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        auc = np.sum(positive * (below + 0.5 * negative), axis=1) / (
            positive.sum(axis=1) * total_negative)
    return auc.reshape(shape)[()]


def weighted_average_precision(y_true, y_score, weights):
    """Average precision of a scored data set under each row of item weights.

    scikit-learn's step-wise average precision ``sum_k (R_k - R_(k-1)) P_k`` over the
    distinct scores taken as thresholds in decreasing order, recall and precision counted
    with each item weighted.

    Parameters
    ----------
    y_true : array_like of shape (n,)
        Binary labels; true (or nonzero) is positive.
    y_score : array_like of shape (n,)
        Scores, higher meaning more likely positive.
    weights : array_like of shape (..., n)
        Nonnegative item weights, items in the given order (e.g. bootstrap counts).

    Returns
    -------
    ndarray of shape (...)
        NaN where a row gives no weight to the positives.
    """
    positive, negative, shape = _group_weights(y_true, y_score, weights)
    tp = np.cumsum(positive, axis=1)
    retrieved = tp + np.cumsum(negative, axis=1)
    # A threshold adding no positive weight adds nothing (its precision may be 0/0).
    precision = np.divide(tp, retrieved, out=np.zeros_like(tp), where=positive > 0)
    with np.errstate(invalid="ignore", divide="ignore"):
        ap = np.sum(positive * precision, axis=1) / tp[:, -1]
    return ap.reshape(shape)[()]


def _ranking_statistics(n, statistic, n_resamples, rng):
    """Statistic of ``n_resamples`` bootstrap resamples of n items, shape (n_resamples,).

    Each resample is n draws with replacement expressed as item counts (weights).
    """
    out = np.empty(n_resamples)
    block = max(1, _MEMORY // (8 * 8 * n))
    for start in range(0, n_resamples, block):
        size = min(block, n_resamples - start)
        picks = rng.integers(0, n, size=(size, n))
        picks += n * np.arange(size)[:, None]
        weights = np.bincount(picks.ravel(), minlength=size * n).reshape(size, n)
        with np.errstate(invalid="ignore", divide="ignore"):
            out[start:start + size] = statistic(weights.astype(float))
    return out


def _ranking_acceleration(n, statistic):
    """BCa acceleration from the item jackknife: weights ones minus the identity."""
    theta = np.empty(n)
    block = max(1, _MEMORY // (8 * 8 * n))
    for start in range(0, n, block):
        stop = min(n, start + block)
        weights = np.ones((stop - start, n))
        weights[np.arange(stop - start), np.arange(start, stop)] = 0.0
        with np.errstate(invalid="ignore", divide="ignore"):
            theta[start:stop] = statistic(weights)
    return _acceleration(theta[None], np.ones((1, n)))


def ranking_bootstrap(y_true, y_score, statistic, *, confidence=0.95, n_resamples=1000, rng,
                      method="percentile"):
    """Bootstrap interval of a ranking metric of one scored data set.

    Items are resampled with replacement; a resample is passed to ``statistic`` as integer
    weights (how often each item was drawn).

    Parameters
    ----------
    y_true, y_score : array_like of shape (n,)
        The data set (only its size is used here: ``statistic`` holds the data).
    statistic : callable
        Maps a weight matrix (B, n), items in the given order, to values (B,), e.g.
        ``lambda w: weighted_auc(y_true, y_score, w)``; called under
        ``np.errstate(divide="ignore", invalid="ignore")``, it may return NaN.  The observed
        value is ``statistic(np.ones((1, n)))[0]``.
    confidence : float, default 0.95
        Two-sided confidence level.
    n_resamples : int, default 1000
        Bootstrap resamples.
    rng : numpy.random.Generator
        Source of the resamples.
    method : {"percentile", "bca"}, default "percentile"
        As in `count_bootstrap`; BCa's acceleration comes from the item jackknife (the n
        weight vectors with one item removed), allowed for n <= 2000.  Where the jackknife
        is degenerate or z0 infinite, the percentile interval is returned.

    Returns
    -------
    low, high : float
        NaN resample values are dropped; a NaN observed value gives NaN.

    Raises
    ------
    ValueError
        If ``method`` is unknown, or is "bca" with more than 2000 items.
    """
    _check_method(method)
    n = np.asarray(y_true).shape[0]
    if np.asarray(y_score).shape != (n,):
        raise ValueError("y_true and y_score must be 1-d arrays of one length")
    if method == "bca" and n > _MAX_JACKKNIFE:
        raise ValueError(f"method='bca' builds an (n, n) jackknife and is limited to "
                         f"n <= {_MAX_JACKKNIFE} items (got n = {n}); use "
                         f"method='percentile'")
    with np.errstate(invalid="ignore", divide="ignore"):
        observed = np.asarray(statistic(np.ones((1, n))), dtype=float)[:1]
    resampled = _ranking_statistics(n, statistic, n_resamples, rng)[:, None]
    acceleration = _ranking_acceleration(n, statistic) if method == "bca" else None
    low, high = _interval(resampled, observed, confidence, method, acceleration)
    return float(low[0]), float(high[0])


# ---------------------------------------------------------------------------
# DeLong


def _sample_variance(v):
    """Sample variance (ddof 1) along the last axis; NaN for fewer than two values."""
    count = v.shape[-1]
    if count < 2:
        return np.full(v.shape[:-1], np.nan)
    return np.var(v, axis=-1, ddof=1)


def _delong_components(y_true, scores):
    """AUCs and DeLong structural components of the rows of ``scores`` (S, n).

    The midrank algorithm of Sun & Xu (2014): with T_Z the midranks among all items and
    T_X, T_Y those within the positives and negatives, ``V10 = (T_Z - T_X) / n_neg`` on the
    positives and ``V01 = 1 - (T_Z - T_Y) / n_pos`` on the negatives.
    """
    relevant = np.asarray(y_true).astype(bool)
    scores = np.atleast_2d(np.asarray(scores, dtype=float))
    if relevant.ndim != 1 or scores.shape[-1] != relevant.size:
        raise ValueError("y_true must be 1-d and y_score must have its length")
    m, n = int(relevant.sum()), int((~relevant).sum())
    if m == 0 or n == 0:
        raise ValueError("DeLong's interval needs both positive and negative items")
    positive, negative = scores[:, relevant], scores[:, ~relevant]
    combined = stats.rankdata(np.concatenate([positive, negative], axis=1), axis=1)
    within_positive = stats.rankdata(positive, axis=1)
    within_negative = stats.rankdata(negative, axis=1)
    v10 = (combined[:, :m] - within_positive) / n
    v01 = 1 - (combined[:, m:] - within_negative) / m
    auc = (combined[:, :m].sum(axis=1) - m * (m + 1) / 2) / (m * n)
    return auc, v10, v01, m, n


def delong_interval(y_true, y_score, confidence=0.95):
    """DeLong's normal interval of ROC AUC.

    The variance of DeLong, DeLong & Clarke-Pearson (1988), ``S10 / m + S01 / n`` from the
    structural components, computed with the midrank algorithm of Sun & Xu (2014) in
    O(N log N); the interval ``auc -+ z se`` is clipped to [0, 1].

    Parameters
    ----------
    y_true : array_like of shape (N,)
        Binary labels; true (or nonzero) is positive.  Both classes must be present.
    y_score : array_like of shape (N,) or (R, N)
        Scores; rows of a 2-d array are R score vectors for the same labels.
    confidence : float, default 0.95
        Two-sided confidence level.

    Returns
    -------
    auc, low, high, variance : float, or ndarray of shape (R,) for 2-d scores
        The variance is NaN when a class holds a single item.
    """
    auc, v10, v01, m, n = _delong_components(y_true, y_score)
    variance = _sample_variance(v10) / m + _sample_variance(v01) / n
    half = stats.norm.ppf(0.5 + confidence / 2) * np.sqrt(variance)
    out = auc, np.clip(auc - half, 0.0, 1.0), np.clip(auc + half, 0.0, 1.0), variance
    if np.ndim(y_score) == 1:
        return tuple(float(x[0]) for x in out)
    return out


def delong_paired_test(y_true, score_a, score_b):
    """One-sided p-value of DeLong's paired test of H1: AUC_a > AUC_b.

    The difference of the AUCs over its standard error from DeLong, DeLong &
    Clarke-Pearson (1988)'s covariance of the two AUCs on the same items, referred to the
    standard normal.

    Parameters
    ----------
    y_true : array_like of shape (N,)
        Binary labels; true (or nonzero) is positive.
    score_a, score_b : array_like of shape (N,)
        The two systems' scores of the same items.

    Returns
    -------
    float
        Where the variance of the difference is 0: 0.0 if AUC_a > AUC_b, else 1.0; NaN
        when a class holds a single item.
    """
    auc, v10, v01, m, n = _delong_components(y_true, np.vstack([score_a, score_b]))
    # var(V_a - V_b) = S_aa + S_bb - 2 S_ab, per component.
    variance = _sample_variance(v10[0] - v10[1]) / m + _sample_variance(v01[0] - v01[1]) / n
    difference = auc[0] - auc[1]
    if variance == 0:
        return 0.0 if difference > 0 else 1.0
    return float(stats.norm.sf(difference / np.sqrt(variance)))


# ---------------------------------------------------------------------------
# Tests of "the first system is better"


def mcnemar_one_sided(b, c):
    """Exact one-sided McNemar p-value that the first system is better.

    Parameters
    ----------
    b, c : array_like of int
        Items only the first system gets right, and only the second (broadcast).

    Returns
    -------
    ndarray
        ``P(Binom(b + c, 1/2) >= b)``; 1 where b + c = 0.
    """
    b, c = np.broadcast_arrays(np.asarray(b), np.asarray(c))
    total = b + c
    p = stats.binom.sf(b - 1, np.where(total > 0, total, 1), 0.5)
    return np.where(total > 0, p, 1.0)[()]


def corrected_ttest_one_sided(differences, test_fraction):
    """One-sided p-values of Nadeau & Bengio (2003)'s corrected resampled t-test.

    ``t = mean / sqrt((1/k + n_test/n_train) s^2)`` over the k per-fold differences, s^2
    their sample variance (ddof 1), referred to Student's t with k - 1 degrees of freedom;
    ``p = P(T >= t)``.

    Parameters
    ----------
    differences : array_like of shape (..., k)
        Per-fold score differences, first system minus second, k >= 2.
    test_fraction : float
        n_test / n_train of one fold.

    Returns
    -------
    ndarray of shape (...)
        Where a row's differences are all equal (s = 0): 0 if their mean is positive,
        else 1.
    """
    differences = np.asarray(differences, dtype=float)
    k = differences.shape[-1]
    if k < 2:
        raise ValueError("the corrected t-test needs at least two differences per row")
    mean = differences.mean(axis=-1)
    constant = np.all(differences == differences[..., :1], axis=-1)
    scale = np.sqrt((1 / k + test_fraction) * differences.var(axis=-1, ddof=1))
    with np.errstate(invalid="ignore", divide="ignore"):
        p = stats.t.sf(mean / np.where(constant, 1.0, scale), k - 1)
    return np.where(constant, np.where(mean > 0, 0.0, 1.0), p)[()]


def wilcoxon_one_sided(differences):
    """One-sided p-values of Wilcoxon's signed-rank test that the first system is better.

    ``scipy.stats.wilcoxon(d, alternative="greater", zero_method="wilcox")`` per row: zero
    differences are dropped before ranking.

    Parameters
    ----------
    differences : array_like of shape (R, k) or (k,)
        Differences, first system minus second, one row per repetition.

    Returns
    -------
    ndarray of shape (R,)
        Rows of zeros give 1.
    """
    rows = np.atleast_2d(np.asarray(differences, dtype=float))
    p = np.ones(rows.shape[0])
    for r, row in enumerate(rows):
        if np.any(row != 0):
            p[r] = stats.wilcoxon(row, alternative="greater", zero_method="wilcox").pvalue
    return p


def baycomp_signed_rank(differences, n_draws):
    """P(first better) of baycomp's ``SignedRankTest`` (prior 0.5, rope 0) for each row of
    per-data-set differences, or None when baycomp is not installed."""
    try:
        import baycomp
    except ImportError:
        return None
    import warnings

    out = np.empty(differences.shape[0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for r, d in enumerate(differences):
            test = baycomp.SignedRankTest(d, np.zeros_like(d), rope=0, prior=0.5,
                                          nsamples=n_draws, random_state=r)
            out[r] = test.probs()[0]
    return out
