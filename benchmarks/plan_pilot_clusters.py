"""Does a plan from a clustered pilot keep its assurance, averaged over pilots?

The population: recall 0.9 on 20% positives, in clusters of 10 items whose share of
positives found is Beta-distributed around 0.9 with intra-cluster correlation 0.2
(Kish's design effect 1.36 at the positives' share).  The plan: recall's 95% interval
at most 0.1 wide in 80% of test sets.  For pilots of 40 and of 100 clusters drawn
from that population, each pilot's recall posterior (``groups=``) plans a test set
through ``plan_test_size(pilot_clusters=)``, which averages the assurance over the
pilot's design effect's posterior; beside it, the plan that takes the pilot's design
effect as known (its ``cluster_size`` and ``icc`` passed instead).  Each plan's
clusters are then drawn as test sets, each with its own clustered posterior, and the
share whose interval is within the width is its assurance.

Reported per pilot size: the assurance averaged over pilots (it should be at least
0.8 less 0.03) with its Monte Carlo standard error (the spread of the pilots'
shares over the square root of their number, which holds both the pilots' and the
test sets' noise), and the planned clusters against the plan from the population's
icc (mean and median ratio).

Run ``python -m benchmarks.plan_pilot_clusters`` (or ``--quick``: six pilots of 40
clusters, 30 test sets each).
"""

from __future__ import annotations

import sys

import numpy as np

from skprobeval import plan_test_size, recall_posterior

__all__ = ["main"]

RECALL, PREVALENCE, SIZE, ICC = 0.9, 0.2, 10, 0.2
SETTINGS = {"metric": "recall", "width": 0.1, "expected": RECALL, "prevalence": PREVALENCE}
TEST_DRAWS = 2000


def clustered_recall(rng, n_clusters):
    """(y_true, y_pred, groups) of `n_clusters` clusters of the population."""
    groups = np.repeat(np.arange(n_clusters), SIZE)
    total = 1.0 / ICC - 1.0
    rate = rng.beta(RECALL * total, (1.0 - RECALL) * total, n_clusters)[groups]
    y_true = (rng.random(groups.shape[0]) < PREVALENCE).astype(int)
    return y_true, np.where(rng.random(groups.shape[0]) < rate, y_true, 1 - y_true), groups


def _within(n_clusters, n_tests, rng):
    """Share of `n_tests` test sets of `n_clusters` clusters within the width."""
    hits = 0
    for _ in range(n_tests):
        y_true, y_pred, groups = clustered_recall(rng, n_clusters)
        low, high = recall_posterior(y_true, y_pred, groups=groups, n_draws=TEST_DRAWS,
                                     random_state=rng).interval(0.95)
        hits += high - low <= SETTINGS["width"]
    return hits / n_tests


def main(quick=False):
    """Print one row per (pilot size, plan); return the rows."""
    rng = np.random.default_rng(20261206)
    truth = plan_test_size(**SETTINGS, cluster_size=SIZE, icc=ICC, random_state=0)
    n_pilots, n_tests = (6, 30) if quick else (40, 100)
    sizes = (40,) if quick else (40, 100)
    kinds = ("averaged",) if quick else ("averaged", "known")
    if quick:
        print(f"plan from the population's icc: {truth.n_clusters} clusters")
    else:
        share = _within(truth.n_clusters, 1000, rng)
        print(f"plan from the population's icc: {truth.n_clusters} clusters, within the "
              f"width in {share:.3f} ± {np.sqrt(share * (1 - share) / 1000):.3f} of 1000 "
              "test sets")
    print(f"{'pilot':>6} {'plan':>9} {'pilots':>7} {'assurance':>10} {'± se':>6} "
          f"{'clusters / truth':>17} {'median':>7}")
    rows = []
    for pilot_size in sizes:
        plans = {kind: [] for kind in kinds}
        for _ in range(n_pilots):
            y_true, y_pred, groups = clustered_recall(rng, pilot_size)
            pilot = recall_posterior(y_true, y_pred, groups=groups, random_state=rng)
            plan = plan_test_size(**SETTINGS, pilot_clusters=pilot, random_state=0)
            plans["averaged"].append(plan.n_clusters)
            if "known" in plans:
                plans["known"].append(plan_test_size(
                    **SETTINGS, cluster_size=plan.cluster_size, icc=plan.icc,
                    random_state=0).n_clusters)
        for kind in kinds:
            counts = np.array(plans[kind])
            shares = np.array([_within(int(c), n_tests, rng) for c in counts])
            ratio = counts / truth.n_clusters
            row = {"pilot_clusters": pilot_size, "plan": kind, "n_pilots": n_pilots,
                   "assurance": float(shares.mean()),
                   "se": float(shares.std(ddof=1) / np.sqrt(n_pilots)),
                   "ratio_mean": float(ratio.mean()), "ratio_median": float(np.median(ratio)),
                   "truth_clusters": int(truth.n_clusters)}
            rows.append(row)
            print(f"{pilot_size:>6} {kind:>9} {n_pilots:>7} {row['assurance']:>10.3f} "
                  f"{row['se']:>6.3f} {row['ratio_mean']:>17.3f} {row['ratio_median']:>7.3f}")
    return rows


if __name__ == "__main__":
    main(quick="--quick" in sys.argv)
