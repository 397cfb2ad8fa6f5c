"""Does the planned test set keep its promise, and is it the smallest that does?

For F1 and precision (exact route) and macro F1 over five classes (simulated route), at
three widths each, from a pilot table: the planned n of ``plan_test_size``; the share of
test sets of that size, drawn from the pilot's population with their own posterior
interval (``metric_posterior``), whose interval is within the width (it should be at
least the assurance less 0.03); and the smallest n that meets the assurance, found by
brute force (every n from half the planned one, with the exact sum, for the exact
route; simulated test sets on a 2.5% grid of n for the simulated one), against which
the planned n should be at most 10% larger.

Run ``python -m benchmarks.plan_accuracy`` (or ``--quick``: F1 at one width).
"""

from __future__ import annotations

import sys

import numpy as np

from skprobeval import (
    ConfusionCounts,
    ConfusionMatrix,
    get_metric,
    metric_posterior,
    plan_test_size,
)
from skprobeval._workflow._plan_size import _beta_route, _prob_within, _route_shares

__all__ = ["main"]

ASSURANCE = 0.8
BINARY = ConfusionCounts(tp=80, fp=12, fn=20, tn=88)
MATRIX = np.array([[80, 6, 3, 2, 1], [5, 70, 4, 2, 2], [3, 4, 60, 5, 3], [2, 3, 5, 50, 4],
                   [1, 2, 3, 4, 40]], dtype=float)
SIM_DRAWS = 2000


def _binary_within(metric, n, shares, rng, size=2000):
    cells = rng.multinomial(n, shares, size=size).astype(float)
    low, high = metric_posterior(ConfusionCounts(*cells.T), metric=metric).interval(0.95)
    return float(np.mean(np.asarray(high) - np.asarray(low) <= WIDTH_OF[metric]))


WIDTH_OF = {}


def _matrix_within(n, width, rng, size=400):
    shares = (MATRIX + 0.5) / (MATRIX.sum() + MATRIX.size * 0.5)
    tables = rng.multinomial(n, shares.ravel(), size=size).reshape(size, 5, 5)
    widths = []
    for table in tables:
        low, high = metric_posterior(ConfusionMatrix(table), metric="f1", average="macro",
                                     n_draws=SIM_DRAWS, random_state=rng).interval(0.95)
        widths.append(high - low)
    return float(np.mean(np.array(widths) <= width))


def _exact_smallest(metric, planned, width):
    shares = (np.array([80, 12, 20, 88]) + 0.5) / 202
    route = _beta_route(get_metric(metric).exact, 1.0)
    s, p = _route_shares(route, shares)
    for n in range(max(1, planned // 2), planned + 1):
        if _prob_within(n, s, p, route, 0.5, 0.95, width) >= ASSURANCE:
            return n
    return planned


def main(quick=False):
    """Print one row per (metric, width); return the rows."""
    rng = np.random.default_rng(20261127)
    cases = [("f1", 0.05)] if quick else [
        ("f1", 0.1), ("f1", 0.05), ("f1", 0.03), ("precision", 0.1), ("precision", 0.05),
        ("precision", 0.03), ("macro f1", 0.12), ("macro f1", 0.08), ("macro f1", 0.06)]
    rows = []
    print(f"{'metric':<10} {'width':>6} {'planned n':>10} {'within':>8} {'± se':>6} "
          f"{'smallest n':>11} {'planned / smallest':>19}")
    for metric, width in cases:
        if metric == "macro f1":
            plan = plan_test_size(metric="f1", average="macro", width=width, pilot=MATRIX,
                                  n_draws=SIM_DRAWS, random_state=0)
            within, size = _matrix_within(plan.n_items, width, rng), 400
            grid = np.unique(np.round(plan.n_items * 1.025 ** np.arange(-20, 3)).astype(int))
            smallest = next((int(n) for n in grid if _matrix_within(int(n), width, rng)
                             >= ASSURANCE), plan.n_items)
        else:
            WIDTH_OF[metric] = width
            plan = plan_test_size(metric=metric, width=width, pilot=BINARY, random_state=0)
            shares = (np.array([80, 12, 20, 88]) + 0.5) / 202
            within, size = _binary_within(metric, plan.n_items, shares, rng), 2000
            smallest = _exact_smallest(metric, plan.n_items, width)
        se = np.sqrt(within * (1 - within) / size)
        rows.append({"metric": metric, "width": width, "planned": plan.n_items,
                     "within": within, "se": se, "smallest": smallest,
                     "ratio": plan.n_items / smallest, "method": plan.method})
        print(f"{metric:<10} {width:>6g} {plan.n_items:>10} {within:>8.3f} {se:>6.3f} "
              f"{smallest:>11} {plan.n_items / smallest:>19.3f}")
    return rows


if __name__ == "__main__":
    main(quick="--quick" in sys.argv)
