"""Frequentist reference methods that the coverage benchmark sets beside the library.

Proportions: Wilson's score interval and Jeffreys' interval (Brown, Cai & DasGupta 2001).
Other statistics of a table of i.i.d. items: the nonparametric bootstrap, percentile and
BCa (Efron 1987), with the items' multinomial resampling done on the cell counts.  ROC
AUC: DeLong, DeLong & Clarke-Pearson (1988).  Tests matched to the comparisons: the exact
McNemar test, Nadeau & Bengio (2003)'s corrected resampled t-test and Wilcoxon's
signed-rank test, all one-sided ("the first system is better").
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
    "wilcoxon_one_sided",
    "wilson_interval",
]


def wilson_interval(k, n, confidence=0.95):
    """Wilson's score interval of a binomial proportion; ``(low, high)`` arrays.

    An empty denominator (n = 0) gives the whole of [0, 1].
    """
    k, n = np.asarray(k, dtype=float), np.asarray(n, dtype=float)
    z = stats.norm.ppf(0.5 + confidence / 2)
    safe = np.where(n > 0, n, 1.0)
    p = k / safe
    centre = (p + z * z / (2 * safe)) / (1 + z * z / safe)
    half = z / (1 + z * z / safe) * np.sqrt(p * (1 - p) / safe + z * z / (4 * safe * safe))
    return np.where(n > 0, centre - half, 0.0), np.where(n > 0, centre + half, 1.0)


def jeffreys_interval(k, n, confidence=0.95):
    """Jeffreys' interval: equal-tailed quantiles of Beta(k + 1/2, n - k + 1/2), with the
    boundary convention of Brown, Cai & DasGupta (2001): low = 0 at k = 0, high = 1 at k = n."""
    k, n = np.asarray(k, dtype=float), np.asarray(n, dtype=float)
    tail = (1 - confidence) / 2
    low = special.betaincinv(k + 0.5, n - k + 0.5, tail)
    high = special.betaincinv(k + 0.5, n - k + 0.5, 1 - tail)
    return np.where(k == 0, 0.0, low), np.where(k == n, 1.0, high)


def _resample_counts(counts, n_resamples, rng):
    """Bootstrap tables ``(n_resamples, R, C)``: n items drawn with replacement is a
    multinomial draw with the observed shares."""
    n = counts.sum(axis=1)
    shares = counts / np.where(n > 0, n, 1)[:, None]
    return rng.multinomial(n, shares, size=(n_resamples, counts.shape[0]))


def count_bootstrap(counts, statistic, *, confidence=0.95, n_resamples=1000, rng,
                    method="percentile"):
    """Bootstrap interval of ``statistic`` for each row of a table of i.i.d. items.

    Parameters
    ----------
    counts : int array of shape (R, C)
        R repetitions, each a table of C cells.
    statistic : callable
        Maps counts ``(..., C)`` to values ``(...)``; NaN values of resamples are
        dropped (nanquantile), a NaN observed value gives a NaN interval.
    method : {"percentile", "bca"}
        BCa (Efron 1987): bias correction from the share of resamples below the
        observed value, acceleration from the jackknife.  Removing one item of cell c
        gives one of only C distinct tables, each with multiplicity counts[c], so the
        jackknife is exact in O(C).  Where the acceleration or the bias correction is
        not finite, that row falls back to the percentile interval.

    Returns
    -------
    low, high : arrays of shape (R,)
    """
    counts = np.asarray(counts)
    observed = np.asarray(statistic(counts), dtype=float)
    resampled = np.asarray(statistic(_resample_counts(counts, n_resamples, rng)), dtype=float)
    tail = (1 - confidence) / 2
    levels = np.array([tail, 1 - tail])
    if method == "percentile":
        with np.errstate(invalid="ignore"):
            low, high = np.nanquantile(resampled, levels, axis=0)
        return np.where(np.isfinite(observed), low, np.nan), np.where(np.isfinite(observed),
                                                                       high, np.nan)
    if method != "bca":
        raise ValueError(f"method must be 'percentile' or 'bca'; got {method!r}")
    valid = np.isfinite(resampled)
    with np.errstate(invalid="ignore", divide="ignore"):
        below = np.sum((resampled < observed) & valid, axis=0) / np.sum(valid, axis=0)
        z0 = stats.norm.ppf(below)
    cells = counts.shape[1]
    # Jackknife: one item removed from cell c (only cells holding items count).
    removed = counts[:, None, :] - np.eye(cells, dtype=counts.dtype)[None]
    theta = np.asarray(statistic(removed), dtype=float)            # (R, C)
    weight = np.where(counts > 0, counts, 0).astype(float)
    with np.errstate(invalid="ignore", divide="ignore"):
        theta = np.where(weight > 0, theta, 0.0)
        mean = np.sum(weight * theta, axis=1) / weight.sum(axis=1)
        d = mean[:, None] - theta
        numerator = np.sum(weight * d ** 3, axis=1)
        denominator = 6 * np.sum(weight * d ** 2, axis=1) ** 1.5
        acceleration = numerator / denominator
        z = stats.norm.ppf(levels)[:, None]
        adjusted = stats.norm.cdf(z0 + (z0 + z) / (1 - acceleration * (z0 + z)))   # (2, R)
    low, high = np.empty(counts.shape[0]), np.empty(counts.shape[0])
    for r in range(counts.shape[0]):
        column = resampled[:, r]
        column = column[np.isfinite(column)]
        if not np.isfinite(observed[r]) or column.size == 0:
            low[r] = high[r] = np.nan
            continue
        q = adjusted[:, r] if np.all(np.isfinite(adjusted[:, r])) else levels
        low[r], high[r] = np.quantile(column, q)
    return low, high


def _midranks(x):
    return stats.rankdata(x, method="average")


def _delong_components(relevant, scores):
    """AUCs and DeLong structural components of one or more score vectors (rows)."""
    relevant = np.asarray(relevant, dtype=bool)
    scores = np.atleast_2d(np.asarray(scores, dtype=float))
    pos, neg = scores[:, relevant], scores[:, ~relevant]
    m, n = pos.shape[1], neg.shape[1]
    # Fast algorithm (Sun & Xu 2014): midranks within each class and overall.
    v10, v01, auc = [], [], []
    for p, q in zip(pos, neg):
        combined = _midranks(np.r_[p, q])
        rank_p, rank_q = _midranks(p), _midranks(q)
        v10.append((combined[:m] - rank_p) / n)
        v01.append(1 - (combined[m:] - rank_q) / m)
        auc.append((combined[:m].sum() - m * (m + 1) / 2) / (m * n))
    return np.array(auc), np.array(v10), np.array(v01), m, n


def delong_interval(y_true, y_score, confidence=0.95):
    """DeLong's normal interval of ROC AUC: ``(auc, low, high, variance)``, clipped to [0, 1]."""
    auc, v10, v01, m, n = _delong_components(y_true, y_score)
    variance = float(np.var(v10[0], ddof=1) / m + np.var(v01[0], ddof=1) / n)
    half = stats.norm.ppf(0.5 + confidence / 2) * np.sqrt(variance)
    return float(auc[0]), max(0.0, auc[0] - half), min(1.0, auc[0] + half), variance


def delong_paired_test(y_true, score_a, score_b):
    """One-sided p-value of DeLong's paired test of H1: AUC_a > AUC_b."""
    auc, v10, v01, m, n = _delong_components(y_true, np.vstack([score_a, score_b]))
    s10, s01 = np.cov(v10), np.cov(v01)
    variance = (s10[0, 0] + s10[1, 1] - 2 * s10[0, 1]) / m + \
        (s01[0, 0] + s01[1, 1] - 2 * s01[0, 1]) / n
    difference = auc[0] - auc[1]
    if variance <= 0:
        return 0.0 if difference > 0 else 1.0
    return float(stats.norm.sf(difference / np.sqrt(variance)))


def mcnemar_one_sided(b, c):
    """Exact one-sided McNemar p-value that the first system is better:
    ``P(Binom(b + c, 1/2) >= b)``, b items only the first gets right, c only the second;
    1 when b + c = 0."""
    b, c = np.asarray(b), np.asarray(c)
    return np.where(b + c > 0, stats.binom.sf(b - 1, b + c, 0.5), 1.0)


def corrected_ttest_one_sided(differences, test_fraction):
    """One-sided p-values of Nadeau & Bengio (2003)'s corrected resampled t-test.

    ``differences`` (R, k): per-fold score differences, first minus second, per row;
    ``test_fraction`` = n_test / n_train.  ``t = mean / sqrt((1/k + test_fraction) s^2)``
    with k - 1 degrees of freedom; where s = 0, p = 0 if the mean is positive, else 1.
    """
    differences = np.atleast_2d(np.asarray(differences, dtype=float))
    k = differences.shape[1]
    mean = differences.mean(axis=1)
    variance = differences.var(axis=1, ddof=1)
    scale = np.sqrt((1 / k + test_fraction) * variance)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = stats.t.sf(mean / scale, k - 1)
    return np.where(scale > 0, p, np.where(mean > 0, 0.0, 1.0))


def wilcoxon_one_sided(differences):
    """One-sided p-values of Wilcoxon's signed-rank test (first better), per row; rows of
    zeros give 1."""
    out = []
    for row in np.atleast_2d(np.asarray(differences, dtype=float)):
        if not np.any(row != 0):
            out.append(1.0)
            continue
        out.append(float(stats.wilcoxon(row, alternative="greater",
                                        zero_method="wilcox").pvalue))
    return np.array(out)
