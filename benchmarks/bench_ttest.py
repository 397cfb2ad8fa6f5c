"""The Bayesian correlated t-test against baycomp and against the few-line scipy recipe.

Times, in one process, one call of ``correlated_ttest(a, b, test_fraction=runs / n,
rope=rope, runs=runs)`` (ours: input checks, the posterior and the three
probabilities) on per-fold scores of 10-fold cross-validation run once and ten
times, without and with a region of practical equivalence, against:

* ``baycomp.two_on_single(b, a, rope=rope, runs=runs)`` (the peer library; same
  probabilities, its difference is the second minus the first argument);
* the few-line recipe: mean and sample variance of the differences, the
  Nadeau-Bengio scale, and ``scipy.special.stdtr`` for the two tail
  probabilities (no input checks).

Each row reports the largest absolute difference of the probabilities.
Goal: not slower than baycomp.

One more row ranks 50 candidates of a search on 10-fold scores at once:
``rank_cv_results`` with its defaults (10 000 draws of the multivariate
correlated t posterior: P(best), rank probabilities, expected ranks, P(within
rope of best), and the exact N x N pairwise table) against the 1 225 calls of
``correlated_ttest`` that give the pairwise table alone; the difference column
compares the two pairwise tables.

Run ``python -m benchmarks.bench_ttest`` (or ``--quick``).
"""

from __future__ import annotations

import math
import sys

import numpy as np
from scipy import special

from benchmarks._timing import best_time_and_value
from skprobeval import correlated_ttest, rank_cv_results


def _few_lines(a, b, test_fraction, rope):
    """Reference: (P(first better), P(equivalent), P(second better)) from scipy.special."""
    d = a - b
    n = d.size
    mean = d.mean()
    scale = math.sqrt((1 / n + test_fraction / (1 - test_fraction)) * d.var(ddof=1))
    first = special.stdtr(n - 1, (mean - rope) / scale)
    second = special.stdtr(n - 1, (-rope - mean) / scale)
    return first, 1 - first - second, second


def _baycomp(a, b, rope, runs):
    """Reference: baycomp, its (left, rope, right) reordered to (first, equivalent, second)."""
    import baycomp

    probabilities = baycomp.two_on_single(b, a, rope=rope, runs=runs)
    if rope == 0:
        left, right = probabilities
        return right, 0.0, left
    left, equivalent, right = probabilities
    return right, equivalent, left


def main(quick=False):
    """Run the benchmark; print a table and return its rows as dicts."""
    try:
        import baycomp  # noqa: F401
        has_baycomp = True
    except ImportError:
        has_baycomp = False
    rng = np.random.default_rng(0)
    repeat, number = (3, 50) if quick else (7, 500)
    rows = []
    for runs in (1, 10):
        n = 10 * runs
        a = 0.8 + 0.03 * rng.standard_normal(n)
        b = a - 0.008 + 0.02 * rng.standard_normal(n)
        for rope in (0.0, 0.01):
            case = f"10-fold x {runs}, rope={rope:g}"
            ours, result = best_time_and_value(
                lambda: correlated_ttest(a, b, test_fraction=runs / n, rope=rope, runs=runs),
                repeat, number)
            mine = np.array([result.prob_first_better, result.prob_equivalent,
                             result.prob_second_better])
            references = [("few lines: numpy + scipy.special.stdtr",
                           lambda: _few_lines(a, b, runs / n, rope))]
            if has_baycomp:
                references.append(("baycomp.two_on_single",
                                   lambda: _baycomp(a, b, rope, runs)))
            for name, function in references:
                theirs, value = best_time_and_value(function, repeat, number)
                rows.append({
                    "benchmark": "ttest", "case": case, "ours_s": ours, "reference": name,
                    "reference_s": theirs, "ratio": theirs / ours,
                    "max_abs_difference": float(np.max(np.abs(mine - np.asarray(value)))),
                })
    rows.append(_ranking_row(rng, repeat=2 if quick else 5, n_candidates=50, n_folds=10))
    _print(rows)
    return rows


def _ranking_row(rng, *, repeat, n_candidates, n_folds):
    """rank_cv_results on a whole search against every pairwise correlated_ttest."""
    fold = 0.02 * rng.standard_normal((n_folds, 1))
    scores = (0.8 + np.linspace(0.0, 0.02, n_candidates) + fold
              + 0.01 * rng.standard_normal((n_folds, n_candidates)))
    cv_results = {f"split{k}_test_score": scores[k] for k in range(n_folds)}
    ours, ranking = best_time_and_value(
        lambda: rank_cv_results(cv_results, rope=0.005, random_state=0), repeat, 1)

    def every_pair():
        table = np.full((n_candidates, n_candidates), np.nan)
        for i in range(n_candidates):
            for j in range(i + 1, n_candidates):
                test = correlated_ttest(scores[:, i], scores[:, j], test_fraction=1 / n_folds,
                                        rope=0.005)
                table[i, j], table[j, i] = test.prob_first_better, test.prob_second_better
        return table

    theirs, table = best_time_and_value(every_pair, repeat, 1)
    pairs = n_candidates * (n_candidates - 1) // 2
    return {"benchmark": "ttest", "case": f"rank {n_candidates} candidates x {n_folds} folds",
            "ours_s": ours, "reference": f"{pairs} pairwise correlated_ttest calls",
            "reference_s": theirs, "ratio": theirs / ours,
            "max_abs_difference": float(np.nanmax(np.abs(ranking.pairwise.to_numpy()
                                                         - table)))}


def _print(rows):
    print(f"{'case':<26} {'ours [s]':>9} {'reference':<40} {'ref [s]':>9} {'speed-up':>9} "
          f"{'|diff|':>8}")
    for row in rows:
        print(f"{row['case']:<26} {row['ours_s']:>9.2e} {row['reference']:<40} "
              f"{row['reference_s']:>9.2e} {row['ratio']:>8.3g}x "
              f"{row['max_abs_difference']:>8.1e}")


if __name__ == "__main__":
    main(quick="--quick" in sys.argv)
