"""The runs section of the coverage benchmark: a system's mean over several runs.

A system is trained with several seeds (or tested on several folds), each run with
its own counts on its own items.  Each test set draws R runs whose true accuracies
are 0.8 plus normal offsets of sd ``spread`` (on the metric's scale), each run
tested on ``n`` items (right ~ Binomial(n, accuracy of the run)); the truth is the
population's mean, 0.8.  `compare_counts`' interval of the mean over runs is set
against it, beside the pooled counts' interval (a reference: it treats R runs of n
items as one test set of R n items, right only when the runs do not differ) and
candidate priors of the spread ``τ`` on the logit scale (half-Cauchy of several
scales, and a spike at τ = 0 beside a half-Cauchy slab).  At spread 0 the library's
interval should be at most 1.2 times the pooled counts' width: the price of not
knowing that the runs agree.

Null cells (in the comparisons section): a second system with the same population
of runs; the share of test sets where P(mean A > mean B) exceeds 0.95 should be
about 0.05.
"""

from __future__ import annotations

import numpy as np
from scipy import special, stats

from skprobeval import ConfusionCounts, compare_counts
from skprobeval._compare._runs import RUNS_PRIOR_SCALE, RUNS_SPIKE, runs_draws, spread_log_prior

__all__ = ["CANDIDATES", "POOLED", "run_cells", "run_runs"]

LEVEL_95 = 0.95
TRUTH = 0.8
POOLED = "pooled counts"
# Candidate priors of the spread τ (logit scale): (log density, spike mass at τ = 0).
# The library's default, spike RUNS_SPIKE + half-Cauchy(RUNS_PRIOR_SCALE), is the library row.
CANDIDATES = {
    **{f"half-Cauchy({scale:g})": (spread_log_prior("half-cauchy", scale), 0.0)
       for scale in (0.05, 0.1, 0.15, 0.2, 0.3, 0.5)},
    "spike 0.5 + half-Cauchy(0.5)": (spread_log_prior("half-cauchy", 0.5), 0.5),
    "spike 0.2 + half-Cauchy(0.1)": (spread_log_prior("half-cauchy", 0.1), 0.2),
    "uniform(0, 10)": (spread_log_prior("uniform"), 0.0),
}
assert (RUNS_PRIOR_SCALE, RUNS_SPIKE) == (0.3, 0.2), "rename the library's row"


def run_cells(quick):
    """Cells ``("runs", spread, R, n)``."""
    if quick:
        return [("runs", 0.01, 3, 200)]
    return [("runs", spread, runs, n) for spread in (0.0, 0.01, 0.03) for runs in (3, 5, 10)
            for n in (200, 2000)]


def _name(cell):
    _, spread, runs, n = cell
    return f"spread={spread:g} runs={runs} n={n}"


def _system(rng, spread, runs, n):
    accuracy = np.clip(TRUTH + spread * rng.standard_normal(runs), 0.01, 0.99)
    right = rng.binomial(n, accuracy)
    # A balanced binary table per run with `right` items right: its accuracy posterior
    # is Beta(right + λ, wrong + λ) whatever the split between the classes.
    return [ConfusionCounts(r // 2, (n - r) // 2, n - r - (n - r) // 2, r - r // 2)
            for r in right]


def _interval(draws, level=LEVEL_95):
    tail = (1 - level) / 2
    return np.quantile(draws, [tail, 1 - tail])


def run_runs(cell, reps, n_draws, *, seed, coverage_row, levels, library):
    """Interval rows of the mean over runs (the library, candidates, pooled counts) and
    the null comparisons' rows."""
    _, spread, runs, n = cell
    rng = seed("runs", int(spread * 1000), runs, n)
    methods = [library, *CANDIDATES, POOLED]
    bounds = {m: {level: ([], []) for level in levels} for m in methods}
    above = {m: [] for m in [library, *CANDIDATES]}
    lam = 0.5
    for _ in range(reps):
        first, second = _system(rng, spread, runs, n), _system(rng, spread, runs, n)
        report = compare_counts({"a": first, "b": second}, n_draws=n_draws,
                                random_state=rng)
        mean_a = report.ranking.values[:, 0]
        for level in levels:
            low, high = _interval(mean_a, level)
            bounds[library][level][0].append(low)
            bounds[library][level][1].append(high)
        above[library].append(float(report.pairs["prob_first_better"].iloc[0]))
        # The share of items right takes λ a side, as the library's accuracy posterior.
        run_draws = {key: [rng.beta(float(t.tp + t.tn) + lam, float(t.fp + t.fn) + lam,
                                    n_draws) for t in system]
                     for key, system in (("a", first), ("b", second))}
        for name, (log_prior, spike) in CANDIDATES.items():
            a = runs_draws(run_draws["a"], 0.0, 1.0, rng, log_prior=log_prior,
                           spike=spike).mean
            b = runs_draws(run_draws["b"], 0.0, 1.0, rng, log_prior=log_prior,
                           spike=spike).mean
            for level in levels:
                low, high = _interval(a, level)
                bounds[name][level][0].append(low)
                bounds[name][level][1].append(high)
            above[name].append(float(np.mean(a > b)))
        right = sum(float(t.tp + t.tn) for t in first)
        for level in levels:
            tail = (1 - level) / 2
            pooled = special.betaincinv(right + lam, runs * n - right + lam,
                                        [tail, 1 - tail])
            bounds[POOLED][level][0].append(pooled[0])
            bounds[POOLED][level][1].append(pooled[1])
    rows = []
    for method in methods:
        kind = ("library" if method == library else
                "reference" if method == POOLED else "candidate")
        intervals = {level: tuple(np.asarray(v) for v in bounds[method][level])
                     for level in levels}
        row = coverage_row("runs", _name(cell), "mean over runs", method, kind, TRUTH,
                           intervals)
        row["spread"] = spread
        rows.append(row)
    for method, probabilities in above.items():
        probability = np.asarray(probabilities)
        rows.append({"section": "comparisons", "cell": f"runs (compare_counts) {_name(cell)}"
                     " difference=0", "quantity": "null", "method": method,
                     "kind": "library" if method == library else "candidate",
                     "reps": int(probability.size),
                     "share_above_95": float(np.mean(probability > 0.95)),
                     "share_below_05": float(np.mean(probability < 0.05)),
                     "ks_uniform": float(stats.kstest(probability, "uniform").statistic),
                     "nan_share": float(np.mean(~np.isfinite(probability)))})
    return rows
