"""The Bayesian signed-rank and sign tests against baycomp, across 50 data sets.

Times, in one process, one call of ``bayesian_signed_rank_test(a, b, rope=rope,
n_draws=50_000)`` and ``bayesian_sign_test(...)`` on the scores of two systems on 50
data sets, with and without a region of practical equivalence, against
baycomp's ``SignedRankTest.probs`` / ``SignTest.probs`` with the same prior,
rope and number of samples (baycomp evaluates the O(n^2) pair sums draw by
draw; ours cost O(n) per draw).  Each row reports the largest absolute
difference of the probabilities, which should be within Monte Carlo error
(about 0.01 at 50 000 draws).  Goal: not slower than baycomp.

One more row times ``rank_across_datasets`` (the Bayesian Plackett-Luce model, Gibbs
sampled) on 10 systems x 50 data sets with its defaults (10 000 draws from 4 chains,
burn-in 1 000, thinning 2) against ``compare_across_datasets`` on the same table, the
analysis it can replace: mean ranks and the 45 pairwise Bayesian signed-rank tests, 10 000
draws each.  Goal: under 5 s on a 2-core machine.

Run ``python -m benchmarks.bench_across`` (or ``--quick``).
"""

from __future__ import annotations

import sys
import warnings

import numpy as np

from benchmarks._timing import best_time_and_value
from skprobeval import (
    bayesian_sign_test,
    bayesian_signed_rank_test,
    compare_across_datasets,
    rank_across_datasets,
)

# The reference; the runner skips this benchmark without it.
REQUIRES = ("baycomp",)


def main(quick=False):
    """Run the benchmark; print a table and return its rows."""
    import baycomp

    n_datasets, n_draws = (10, 2000) if quick else (50, 50_000)
    rng = np.random.default_rng(0)
    a = rng.uniform(0.6, 0.95, n_datasets)
    b = a + rng.normal(0.005, 0.02, n_datasets)
    repeat = 1 if quick else 3
    rows = []
    for name, ours_function, theirs_class in (("signed-rank", bayesian_signed_rank_test,
                                               baycomp.SignedRankTest),
                                              ("sign", bayesian_sign_test, baycomp.SignTest)):
        for rope in (0.0, 0.01):
            ours_s, ours = best_time_and_value(lambda: ours_function(
                a, b, rope=rope, n_draws=n_draws, random_state=0), repeat)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                theirs_s, theirs = best_time_and_value(lambda: theirs_class.probs(
                    a, b, rope=rope, nsamples=n_draws, random_state=0), repeat)
            if rope == 0:
                won = ours.prob_first_better + ours.prob_second_better
                got = (ours.prob_first_better / won, ours.prob_second_better / won)
            else:
                got = (ours.prob_first_better, ours.prob_equivalent, ours.prob_second_better)
            difference = float(np.max(np.abs(np.subtract(got, theirs))))
            rows.append({"benchmark": "across",
                         "case": f"{name} test, {n_datasets} data sets, {n_draws} draws, "
                                 f"rope={rope:g} (max |dP| {difference:.4f})",
                         "ours_s": ours_s, "reference": f"baycomp {theirs_class.__name__}",
                         "reference_s": theirs_s, "ratio": theirs_s / ours_s})
    rows.append(_plackett_luce_row(quick, repeat))
    width = max(len(row["case"]) for row in rows)
    for row in rows:
        print(f"{row['case']:<{width}} {row['ours_s']:>9.3g} s  {row['reference']:<24} "
              f"{row['reference_s']:>9.3g} s  {row['ratio']:>7.3g}x")
    return rows


def _plackett_luce_row(quick, repeat):
    """rank_across_datasets with its defaults against compare_across_datasets, one table."""
    n_systems, n_datasets, n_draws = (5, 10, 2000) if quick else (10, 50, 10_000)
    rng = np.random.default_rng(1)
    table = np.linspace(0.7, 0.8, n_systems) + rng.normal(0, 0.05, (n_datasets, n_systems))
    ours_s, ours = best_time_and_value(lambda: rank_across_datasets(
        table, n_draws=n_draws, random_state=0), repeat)
    theirs_s, _ = best_time_and_value(lambda: compare_across_datasets(
        table, n_draws=n_draws, random_state=0), repeat)
    pairs = n_systems * (n_systems - 1) // 2
    return {"benchmark": "across",
            "case": f"Plackett-Luce ranking, {n_systems} systems x {n_datasets} data sets, "
                    f"{n_draws} draws (max mc_error {ours.mc_error.max():.4f})",
            "ours_s": ours_s,
            "reference": f"compare_across_datasets ({pairs} signed-rank tests)",
            "reference_s": theirs_s, "ratio": theirs_s / ours_s}


if __name__ == "__main__":
    main(quick="--quick" in sys.argv)
