"""Random-ranking AP baseline speed (one of the performance goals).

Times, in one process:

* ``random_average_precision(N, R)`` (ours: closed-form mean *and* exact
  variance, O(1)) against Bestgen's O(R·N) double sum for the mean, at
  N = 10^3, 2000 and 10^4 with prevalence 0.4 (the paper's setting: 131 s at
  N = 10^4 in R), with the absolute difference of the two means.  Two
  references: the double sum vectorised in numpy over the (i, n) grid from
  log-factorials (`expected_ap_double_sum`, the headline), and
  ``random_average_precision_reference`` (the library's reference
  implementation of Bestgen's algorithm, a Python loop over i);
* the exact variance at N = 10^6 and 10^7 against a plain O(N) numpy
  evaluation of the indicator sums of the derivation (the obvious way to get
  it), with the absolute difference of the two variances;
* mean and variance at N = 10^12 against the same formula in 50-digit mpmath;
* ``random_precision_baseline(N, R)`` (the exact precision band at every
  cutoff, the displays' chance level) at N = 10^4 ... 10^7, R = 1 and N / 2,
  against scipy's ``hypergeom.ppf`` and ``isf`` at every cutoff (the previous
  implementation).  scipy takes seconds to minutes there, so it is timed on
  2000 evenly spaced cutoffs and scaled to N (its time per cutoff varies
  little along k); the rows report the cutoffs where the two disagree.

Goals: >= 10^4x faster than the double sum at N = 2000 and 10^4; the
precision band below 1 s at every N up to 10^7.

Run ``python -m benchmarks.bench_baseline`` (or ``--quick``).
"""

from __future__ import annotations

import sys

import numpy as np
from scipy import special
from scipy.stats import hypergeom

from benchmarks._timing import best_time_and_value as best_time
from skprobeval import random_average_precision, random_precision_baseline
from skprobeval._metrics._baseline import random_average_precision_reference

# The accuracy reference; the runner skips this benchmark without it.
REQUIRES = ("mpmath",)


def expected_ap_double_sum(n_items, n_relevant, block=1 << 20):
    """E[AP] by Bestgen's double sum, vectorised in numpy (reference).

    ``E[AP] = (1/R) sum_i sum_n C(R, i) C(N - R, n - i) / C(N, n) (i / n)^2``
    over ``1 <= i <= R``, ``i <= n <= N - R + i``: every term is the exp of a
    row term (in i), a column term (in k = n - i) and a term in n = i + k,
    the last a strided (Hankel) view; ``block`` terms at a time bound the memory.
    """
    big_n, r = n_items, n_relevant
    log_fact = special.gammaln(np.arange(big_n + 1) + 1.0)
    i = np.arange(1, r + 1)
    k = np.arange(big_n - r + 1)
    n = np.arange(1, big_n + 1)
    row = log_fact[r] - log_fact[i] - log_fact[r - i] + 2 * np.log(i)
    column = log_fact[big_n - r] - log_fact[k] - log_fact[big_n - r - k] - log_fact[big_n]
    by_rank = np.lib.stride_tricks.sliding_window_view(
        log_fact[n] + log_fact[big_n - n] - 2 * np.log(n), k.size)   # [i - 1, k]: n = i + k
    step = max(1, block // k.size)
    total = sum(np.exp(row[s:s + step, None] + column + by_rank[s:s + step]).sum()
                for s in range(0, r, step))
    return float(total) / r


def variance_by_sums(n_items, n_relevant):
    """Var[AP] from the unsimplified indicator sums, O(N) numpy (float64).

    ``E[(R AP)^2] = sum_n A(n) + 2 sum_{n < n'} B(n, n')`` with the pair counts
    of the derivation in ``skprobeval._metrics._baseline``; prefix sums make the double
    sum O(N).  Subtracting the squared mean in float loses digits at large N,
    which is why the library uses the simplified closed form instead.
    """
    big_n, r = n_items, n_relevant
    if big_n == 1:
        return 0.0
    p = [1.0]
    for k in range(1, 5):
        p.append(p[-1] * max(r - k + 1, 0) / (big_n - k + 1) if big_n >= k else 0.0)
    n = np.arange(1, big_n + 1, dtype=np.float64)
    same = np.sum((p[1] + 3 * (n - 1) * p[2] + (n - 1) * (n - 2) * p[3]) / (n * n))
    # B(n, n') = [2 p2 + (n' - 2 + 3(n - 1)) p3 + (n - 1)(n' - 3) p4] / (n n'), summed over n < n'.
    inv = 1.0 / n
    below_inv = np.cumsum(inv) - inv                 # sum_{n < n'} 1/n
    below_count = n - 1                              # sum_{n < n'} 1
    below_one_minus = below_count - below_inv        # sum_{n < n'} (n - 1)/n
    pairs = np.sum(
        (2 * p[2] * below_inv
         + p[3] * (3 * below_count + (n - 5) * below_inv)
         + p[4] * (n - 3) * below_one_minus) / n)
    second = (same + 2 * pairs) / (r * r)
    harmonic = np.sum(inv)
    mean = (r - 1) / (big_n - 1) + (big_n - r) / (big_n * (big_n - 1)) * harmonic
    return float(second - mean * mean)


def _moments_mpmath(n_items, n_relevant):
    """Mean and variance from the unsimplified formula, in 50-digit mpmath."""
    import mpmath

    with mpmath.workdps(50):
        big_n, r = mpmath.mpf(n_items), mpmath.mpf(n_relevant)
        p = [mpmath.mpf(1)]
        for k in range(1, 5):
            p.append(p[-1] * max(r - k + 1, 0) / (big_n - k + 1))
        h = mpmath.harmonic(big_n)
        h2 = mpmath.zeta(2) - mpmath.zeta(2, big_n + 1)
        second = (5 * big_n * p[3] + big_n * (big_n - 5) * p[4]
                  + (3 * p[2] - 9 * p[3] + 6 * p[4] + 2 * big_n * (p[3] - p[4])) * h
                  + (2 * p[2] - 5 * p[3] + 3 * p[4]) * h * h
                  + (p[1] - 5 * p[2] + 7 * p[3] - 3 * p[4]) * h2) / (r * r)
        mean = (r - 1) / (big_n - 1) + (big_n - r) * h / (big_n * (big_n - 1))
        return float(mean), float(second - mean * mean)


def main(quick=False):
    """Run the benchmark; print a table and return its rows as dicts."""
    rows = []
    sizes = [100, 1000] if quick else [1000, 2000, 10_000]
    for n_items in sizes:
        n_relevant = int(0.4 * n_items)
        ours, result = best_time(lambda: random_average_precision(n_items, n_relevant), 5, 200)
        repeat_loop = 1 if (quick or n_items > 2000) else 3
        for name, reference_function, repeat in (
                ("Bestgen double sum, numpy vectorised", expected_ap_double_sum, 3),
                ("Bestgen double sum, loop over i", random_average_precision_reference,
                 repeat_loop)):
            reference, mean = best_time(lambda: reference_function(n_items, n_relevant), repeat)
            rows.append({
                "benchmark": "baseline", "case": f"mean+var N={n_items}, R={n_relevant}",
                "ours_s": ours, "reference": f"{name} (mean only)",
                "reference_s": reference, "ratio": reference / ours,
                "abs_error": abs(result.mean - mean),
            })
    for n_items in ([10**5] if quick else [10**6, 10**7]):
        n_relevant = int(0.4 * n_items)
        ours, result = best_time(lambda: random_average_precision(n_items, n_relevant), 5, 200)
        reference, summed = best_time(lambda: variance_by_sums(n_items, n_relevant),
                                      1 if quick else 3)
        rows.append({
            "benchmark": "baseline", "case": f"variance N={n_items:.0e}",
            "ours_s": ours, "reference": "O(N) numpy indicator sums",
            "reference_s": reference, "ratio": reference / ours,
            "abs_error": abs(result.variance - summed),
            "relative_error": abs(result.variance - summed) / result.variance,
        })
    n_items, n_relevant = 10**12, 10**11
    ours, result = best_time(lambda: random_average_precision(n_items, n_relevant), 5, 200)
    reference, (mean, variance) = best_time(lambda: _moments_mpmath(n_items, n_relevant), 3)
    rows.append({
        "benchmark": "baseline", "case": "mean+var N=1e12, R=1e11", "ours_s": ours,
        "reference": "mpmath 50-digit closed form", "reference_s": reference,
        "ratio": reference / ours, "abs_error": abs(result.mean - mean),
        "relative_error": abs(result.variance - variance) / variance,
    })
    rows.extend(_precision_band_rows(quick))
    _print(rows)
    return rows


def scipy_band_on_cutoffs(n_items, n_relevant, cutoffs, confidence=0.95):
    """The band's ends times k at ``cutoffs`` by scipy's search (reference)."""
    tail = (1 - confidence) / 2
    return (hypergeom.ppf(tail, n_items, n_relevant, cutoffs),
            hypergeom.isf(tail, n_items, n_relevant, cutoffs))


def _precision_band_rows(quick):
    rows = []
    sizes = [10**3, 10**4] if quick else [10**4, 10**5, 10**6, 10**7]
    sampled = 200 if quick else 2000
    for n_items in sizes:
        for n_relevant in (1, n_items // 2):
            # Best of three at every size, as the other rows: a single call at
            # N = 1e7 also times the operating system's first touch of its five
            # 80 MB arrays (0.6-1.2 s in one process, depending on what it freed).
            ours, band = best_time(lambda: random_precision_baseline(n_items, n_relevant), 3)
            cutoffs = np.unique(np.linspace(1, n_items, min(sampled, n_items)).astype(np.int64))
            reference, (low, high) = best_time(
                lambda: scipy_band_on_cutoffs(n_items, n_relevant, cutoffs), 1)
            reference *= n_items / cutoffs.size
            ours_low = np.rint(band.low[cutoffs - 1] * cutoffs)
            ours_high = np.rint(band.high[cutoffs - 1] * cutoffs)
            rows.append({
                "benchmark": "baseline",
                "case": f"band N={n_items:.0e}, R={n_relevant:.0e}",
                "ours_s": ours,
                "reference": f"precision band: scipy ppf+isf, {cutoffs.size} cutoffs",
                "reference_s": reference, "ratio": reference / ours,
                "abs_error": float(np.sum(ours_low != low) + np.sum(ours_high != high)),
            })
    return rows


def _print(rows):
    print(f"{'case':<26} {'ours [s]':>9} {'reference':<48} {'ref [s]':>9} "
          f"{'speed-up':>10} {'|diff|':>8} {'rel diff':>8}")
    for row in rows:
        relative = row.get("relative_error")
        relative = "" if relative is None else f"{relative:.1e}"
        print(f"{row['case']:<26} {row['ours_s']:>9.2e} {row['reference']:<48} "
              f"{row['reference_s']:>9.2e} {row['ratio']:>9.3g}x {row['abs_error']:>8.1e} "
              f"{relative:>8}")


if __name__ == "__main__":
    main(quick="--quick" in sys.argv)
