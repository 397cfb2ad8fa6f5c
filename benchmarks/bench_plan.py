"""Planning test items: plan_more_items on a paired comparison.

One row per planning function (`ROWS`, a list of functions of ``quick`` that each
return a row).  The first times ``plan_more_items`` of a `PairedComparison` (400
items, N1 = 12, N2 = 7; 2 000 simulated futures on 32 numbers of extra items up to
8 000, the closed form ``1 - I_{1/2}(a1, a2)`` of every future at once) against the
naive simulation the same plan asks for: a Python loop over the futures, each
comparing its updated counts (``PairedComparison.from_counts``, what ``compare_paired``
computes) (the same truths and futures, so the
two give the same curve).  Goal: under 2 s on two cores.

The second times ``plan_more_items`` of a `SystemRanking` (``rank_systems``, three
systems, binary target, 300 items; 200 futures on 12 numbers of extra items, 2 000
posterior draws each, every future ranked again with partial pooling, all futures at
once) against a Python loop calling ``rank_systems`` on each future's counts (the same
truths and futures).  Goal: under 15 s.

Run ``python -m benchmarks.bench_plan`` (or ``--quick``).
"""

from __future__ import annotations

import sys

import numpy as np

from benchmarks._timing import best_time_and_value
from skprobeval import (
    JointCounts,
    PairedComparison,
    PairedCounts,
    plan_more_items,
    rank_systems,
)
from skprobeval._core import dirichlet


def _naive_plan(result, grid, n_sims, target, assurance, seed):
    """The same plan, one comparison (`compare_paired` on counts) per future and size."""
    rng = np.random.default_rng(seed)
    alpha = np.array([float(a) for a in result.posterior_parameters])
    truth = dirichlet(alpha, n_sims, rng)
    truth /= truth.sum(axis=1, keepdims=True)
    base = np.array([result.counts.first_better, result.counts.second_better,
                     result.counts.ties], dtype=float)
    counts = np.zeros(truth.shape)
    decided = [0.0]
    for k in range(1, grid.size):
        counts = counts + rng.multinomial(grid[k] - grid[k - 1], truth)
        hits = 0
        for extra in counts:
            comparison = PairedComparison.from_counts(PairedCounts(*(base + extra)))
            hits += max(comparison.prob_first_better, comparison.prob_second_better) >= target
        decided.append(hits / n_sims)
    decided = np.array(decided)
    reached = np.flatnonzero(decided >= assurance)
    return int(grid[reached[0]]) if reached.size else None


def paired_row(quick=False):
    """plan_more_items of a PairedComparison against the naive loop."""
    n_sims, repeat = (200, 1) if quick else (2000, 3)
    result = PairedComparison.from_counts(PairedCounts(12, 7, 381))
    ours_s, plan = best_time_and_value(
        lambda: plan_more_items(result, n_sims=n_sims, random_state=0), repeat)
    theirs_s, naive = best_time_and_value(
        lambda: _naive_plan(result, plan.extra_items, n_sims, 0.95, 0.8, 0), 1)
    return {"benchmark": "plan",
            "case": f"plan_more_items PairedComparison 400 items, {n_sims} futures x "
                    f"{plan.extra_items.size} sizes (n_items {plan.n_items}, loop {naive})",
            "ours_s": ours_s,
            "reference": "loop of paired comparisons over futures",
            "reference_s": theirs_s, "ratio": theirs_s / ours_s}


def _ranking(n_items, seed):
    """A ranking of three systems (accuracies 0.86, 0.82, 0.80) on a binary target."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n_items)
    predictions = {name: np.where(rng.random(n_items) < accuracy, y, 1 - y)
                   for name, accuracy in (("a", 0.86), ("b", 0.82), ("c", 0.80))}
    return rank_systems(JointCounts.from_predictions(y, predictions), random_state=seed)


def _naive_ranking_plan(ranking, grid, n_sims, n_draws, target, assurance, seed):
    """The same plan, one `rank_systems` call per future and size."""
    rng = np.random.default_rng(seed)
    source = ranking._source
    truth = dirichlet(source.alpha, n_sims, rng)
    truth /= truth.sum(axis=1, keepdims=True)
    counts = np.zeros(truth.shape)
    decided = [0.0]
    for k in range(1, grid.size):
        counts = counts + rng.multinomial(grid[k] - grid[k - 1], truth)
        hits = 0
        for extra in counts:
            again = rank_systems(source.joint_counts(extra), n_draws=n_draws, random_state=rng)
            hits += again.prob_best.max() >= target
        decided.append(hits / n_sims)
    decided = np.array(decided)
    reached = np.flatnonzero(decided >= assurance)
    return int(grid[reached[0]]) if reached.size else None


def ranking_row(quick=False):
    """plan_more_items of a SystemRanking against a loop of rank_systems."""
    n_sims, n_draws, max_items = (20, 500, 1000) if quick else (200, 2000, None)
    ranking = _ranking(300, 0)
    ours_s, plan = best_time_and_value(
        lambda: plan_more_items(ranking, n_sims=n_sims, n_draws=n_draws, max_items=max_items,
                                random_state=0), 1)
    theirs_s, naive = best_time_and_value(
        lambda: _naive_ranking_plan(ranking, plan.extra_items, n_sims, n_draws, 0.95, 0.8,
                                    0), 1)
    return {"benchmark": "plan",
            "case": f"plan_more_items SystemRanking 3 systems binary 300 items, {n_sims} "
                    f"futures x {plan.extra_items.size} sizes x {n_draws} draws (n_items "
                    f"{plan.n_items}, loop {naive})",
            "ours_s": ours_s,
            "reference": "loop of rank_systems over futures",
            "reference_s": theirs_s, "ratio": theirs_s / ours_s}


#: Row functions, in order; each takes ``quick`` and returns one row.
ROWS = [paired_row, ranking_row]


def main(quick=False):
    """Run the benchmark; print a table and return its rows."""
    rows = [row(quick) for row in ROWS]
    width = max(len(row["case"]) for row in rows)
    for row in rows:
        print(f"{row['case']:<{width}} {row['ours_s']:>9.3g} s  {row['reference']:<46} "
              f"{row['reference_s']:>9.3g} s  {row['ratio']:>7.3g}x")
    return rows


if __name__ == "__main__":
    main(quick="--quick" in sys.argv)
