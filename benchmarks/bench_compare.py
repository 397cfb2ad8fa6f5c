"""Comparing two systems: exact answers against few-line scipy recipes and Monte Carlo.

Times, in one process, each exact answer against two references: the best
few-line scipy recipe for the same number (the headline), and the Monte Carlo
estimate of Goutte & Gaussier (2005) from 10^6 draws:

* the exact paired ``P(pi1 > pi2)`` (closed form, `PairedComparison.from_counts`)
  for one table ('earn', Table 2) and for all 39 rows of Table 2 in one
  vectorised call, against ``scipy.special.betainc(n2 + 1/2, n1 + 1/2, 1/2)``
  (the closed form ``1 - I_{1/2}(n1 + 1/2, n2 + 1/2)``, vectorised over the rows)
  and against the paper's estimate from Dirichlet draws (eq. 19; one run per row);
* the paired comparison with a region of practical equivalence (one-dimensional
  quadrature) against a 100-node Gauss-Legendre rule over ``s = pi1 + pi2 ~
  Beta(a1 + a2, a3)`` of ``P(pi1 / s > (1 + rope / s) / 2)``, and against
  Dirichlet draws;
* the exact independent F1 comparison (`compare_independent`) against a
  100-node Gauss-Legendre rule for ``P(B_A > B_B)``, the integral of B_A's
  density times B_B's cdf (F1 = 2B / (1 + B) is increasing in
  ``B ~ Beta(TP + 1/2, FP + FN + 1)``), and
  against the paper's Gamma-variate Monte Carlo (eq. 11 and 13).

Each row reports the absolute difference between the two answers
(``abs_error``: for Monte Carlo its error, since ours is exact) and, for Monte
Carlo, its standard error.  Goal: the exact paired P >= 1000x faster than the
10^6-draw Monte Carlo.

Run ``python -m benchmarks.bench_compare`` (or ``--quick``).
"""

from __future__ import annotations

import sys

import numpy as np
from scipy import special

from benchmarks._timing import best_time, best_time_and_value
from skprobeval import ConfusionCounts, PairedComparison, PairedCounts, compare_independent

# Goutte & Gaussier (2005), Table 2: (first better, second better) for the 13 categories of the
# three comparisons; 3299 test documents.
TABLE_2 = [
    (17, 4), (43, 28), (39, 23), (21, 15), (17, 11), (23, 22), (24, 24), (10, 9), (6, 11),
    (6, 5), (13, 6), (12, 9), (8, 3),
    (48, 12), (282, 14), (58, 43), (62, 21), (46, 10), (28, 28), (38, 21), (14, 13), (22, 4),
    (19, 2), (191, 2), (24, 10), (10, 11),
    (1, 4), (6, 7), (11, 6), (4, 2), (9, 2), (2, 7), (5, 3), (0, 3), (3, 1), (1, 0), (5, 3),
    (3, 2), (0, 3),
]
N_DOCUMENTS = 3299
PRIOR = 0.5
NODES, WEIGHTS = np.polynomial.legendre.leggauss(100)


def _paired_monte_carlo(n1, n2, n3, n_draws, rng, rope=0.0):
    """Goutte & Gaussier (2005), eq. 19: share of Dirichlet draws with pi1 - pi2 > rope."""
    draws = rng.dirichlet([n1 + PRIOR, n2 + PRIOR, n3 + PRIOR], size=n_draws)
    return float(np.mean(draws[:, 0] - draws[:, 1] > rope))


def _paired_closed_form(n1, n2):
    """Reference: P(pi1 > pi2) = I_{1/2}(n2 + 1/2, n1 + 1/2), one scipy call (vectorised)."""
    return special.betainc(np.asarray(n2) + PRIOR, np.asarray(n1) + PRIOR, 0.5)


def _beta_pdf(x, a, b):
    return np.exp((a - 1) * np.log(x) + (b - 1) * np.log1p(-x) - special.betaln(a, b))


def _gauss_legendre(integrand, low, high):
    """100-node Gauss-Legendre rule on [low, high]."""
    x = low + (high - low) * (NODES + 1) / 2
    return (high - low) / 2 * float(np.sum(WEIGHTS * integrand(x)))


def _paired_rope_quadrature(n1, n2, n3, rope):
    """Reference: P(pi1 - pi2 > rope) over s = pi1 + pi2 ~ Beta(a1 + a2, a3), where
    pi1 / s ~ Beta(a1, a2) independently; Gauss-Legendre over the bulk of s."""
    a1, a2, a3 = n1 + PRIOR, n2 + PRIOR, n3 + PRIOR
    low, high = special.betaincinv(a1 + a2, a3, [1e-15, 1 - 1e-15])
    return _gauss_legendre(
        lambda s: _beta_pdf(s, a1 + a2, a3) * special.betaincc(a1, a2, (1 + rope / s) / 2),
        max(low, rope), high)


def _f1_quadrature(counts_a, counts_b):
    """Reference: P(F1_A > F1_B) = P(B_A > B_B), B ~ Beta(TP + 1/2, FP + FN + 1):
    Gauss-Legendre of B_A's density times B_B's cdf over the bulk of B_A."""
    a_tp, a_rest = float(counts_a.tp) + PRIOR, float(counts_a.fp + counts_a.fn) + 2 * PRIOR
    b_tp, b_rest = float(counts_b.tp) + PRIOR, float(counts_b.fp + counts_b.fn) + 2 * PRIOR
    low, high = special.betaincinv(a_tp, a_rest, [1e-15, 1 - 1e-15])
    return _gauss_legendre(
        lambda x: _beta_pdf(x, a_tp, a_rest) * special.betainc(b_tp, b_rest, x), low, high)


def _f1_monte_carlo(counts_a, counts_b, n_draws, rng):
    """Goutte & Gaussier (2005), eq. 11 and 13: F1 = U / (U + V) from Gamma variates."""
    def f1_draws(c):
        u = 2.0 * rng.standard_gamma(float(c.tp) + PRIOR, n_draws)
        v = rng.standard_gamma(float(c.fp + c.fn) + 2 * PRIOR, n_draws)
        return u / (u + v)
    return float(np.mean(f1_draws(counts_a) > f1_draws(counts_b)))


def main(quick=False):
    """Run the benchmark; print a table and return its rows as dicts."""
    rng = np.random.default_rng(0)
    n_draws = 10_000 if quick else 1_000_000
    repeat = 3 if quick else 20
    repeat_mc = 1 if quick else 3
    mc_name = f"Goutte-Gaussier Monte Carlo, {n_draws:.0e}"
    rows = []

    def add(case, ours, reference, theirs, exact, estimate, n_mc=None):
        row = {
            "benchmark": "compare", "case": case, "ours_s": ours, "reference": reference,
            "reference_s": theirs, "ratio": theirs / ours,
            "abs_error": float(np.max(np.abs(np.asarray(estimate) - np.asarray(exact)))),
        }
        if n_mc is not None:
            se = np.sqrt(np.clip(exact * (1 - exact), 0, None) / n_mc)
            row["mc_standard_error"] = float(np.max(se))
        rows.append(row)

    def timed(function, number):
        return best_time_and_value(function, 5 if quick else 20, number)

    # 1. One table, closed form.
    earn = PairedCounts(17, 4, N_DOCUMENTS - 21)
    ours = best_time(lambda: PairedComparison.from_counts(earn), repeat * 50)
    exact = PairedComparison.from_counts(earn).prob_first_better
    theirs, value = timed(lambda: _paired_closed_form(17, 4), 200)
    add("paired P(pi1>pi2), earn 17 vs 4", ours, "scipy.special.betainc one-liner", theirs,
        exact, value)
    estimate = []
    theirs = best_time(lambda: estimate.append(
        _paired_monte_carlo(17, 4, N_DOCUMENTS - 21, n_draws, rng)), repeat_mc)
    add("paired P(pi1>pi2), earn 17 vs 4", ours, mc_name, theirs, exact, estimate[-1], n_draws)

    # 2. All 39 rows of Table 2 in one call.
    n1, n2 = (np.array(column, dtype=float) for column in zip(*TABLE_2))
    table = PairedCounts(n1, n2, N_DOCUMENTS - n1 - n2)
    ours = best_time(lambda: PairedComparison.from_counts(table), repeat * 10)
    exact = PairedComparison.from_counts(table).prob_first_better
    theirs, value = timed(lambda: _paired_closed_form(n1, n2), 200)
    add("paired P, Table 2 (39 rows)", ours, "scipy.special.betainc, vectorised", theirs,
        exact, value)
    rows_mc = TABLE_2[:5] if quick else TABLE_2
    estimate = []
    theirs = best_time(lambda: estimate.append(
        [_paired_monte_carlo(a, b, N_DOCUMENTS - a - b, n_draws, rng) for a, b in rows_mc]),
        1) * len(TABLE_2) / len(rows_mc)
    add("paired P, Table 2 (39 rows)", ours, mc_name, theirs, exact[:len(rows_mc)],
        estimate[-1], n_draws)

    # 3. With a region of practical equivalence: quadrature.
    ours = best_time(lambda: PairedComparison.from_counts(earn, rope=0.002), repeat)
    exact = PairedComparison.from_counts(earn, rope=0.002).prob_first_better
    theirs, value = timed(lambda: _paired_rope_quadrature(17, 4, N_DOCUMENTS - 21, 0.002), 5)
    add("paired P(delta>0.002), earn", ours, "scipy.special Gauss-Legendre, 100 nodes",
        theirs, exact, value)
    estimate = []
    theirs = best_time(lambda: estimate.append(
        _paired_monte_carlo(17, 4, N_DOCUMENTS - 21, n_draws, rng, rope=0.002)), repeat_mc)
    add("paired P(delta>0.002), earn", ours, mc_name, theirs, exact, estimate[-1], n_draws)

    # 4. Independent F1 (Table 1 sized counts), exact through the Beta of F1.
    counts_a = ConfusionCounts(tp=1040, fp=14, fn=14, tn=2231)
    counts_b = ConfusionCounts(tp=1030, fp=20, fn=22, tn=2227)
    ours = best_time(lambda: compare_independent(counts_a, counts_b, metric="f1"), repeat)
    exact = compare_independent(counts_a, counts_b, metric="f1").prob_first_better
    theirs, value = timed(lambda: _f1_quadrature(counts_a, counts_b), 5)
    add("independent P(F1_A>F1_B)", ours, "scipy.special Gauss-Legendre, 100 nodes", theirs,
        exact, value)
    estimate = []
    theirs = best_time(lambda: estimate.append(
        _f1_monte_carlo(counts_a, counts_b, n_draws, rng)), repeat_mc)
    add("independent P(F1_A>F1_B)", ours, mc_name, theirs, exact, estimate[-1], n_draws)

    _print(rows)
    return rows


def _print(rows):
    print(f"{'case':<34} {'ours [s]':>10} {'reference':<42} {'ref [s]':>9} {'speed-up':>10} "
          f"{'|ref - ours|':>13} {'MC s.e.':>9}")
    for row in rows:
        se = row.get("mc_standard_error")
        print(f"{row['case']:<34} {row['ours_s']:>10.2e} {row['reference']:<42} "
              f"{row['reference_s']:>9.2e} {row['ratio']:>9.3g}x {row['abs_error']:>13.2e} "
              f"{'' if se is None else format(se, '.1e'):>9}")


if __name__ == "__main__":
    main(quick="--quick" in sys.argv)
