"""Does a plan from a clustered pilot keep its assurance, averaged over pilots?

Two populations of clusters:

* ``recall`` (the default): recall 0.9 on 20% positives, in clusters of 10 items
  whose share of positives found is Beta-distributed around 0.9 with
  intra-cluster correlation 0.2 (Kish's design effect 1.36 at the positives'
  share); recall's 95% interval at most 0.1 wide;
* ``--accuracy``: balanced binary items in clusters of 5, each right with
  probability ``expit(logit(0.8) + u)``, ``u ~ N(0, 0.8)`` shared by a cluster
  (less skewed clusters); accuracy's 95% interval at most 0.06 wide, its
  expected value and design effect those of a pilot of 3 000 clusters (0.777
  and 1.48).

The plan asks for the width in 80% of test sets.  For pilots of 40 and of 100
clusters drawn from the population, each pilot's posterior (``groups=``) plans
a test set through ``plan_test_size(pilot_clusters=)``, which averages the
assurance over the pilot's design effect's posterior; beside it, the plan that
takes the pilot's design effect as known (its ``cluster_size`` and ``icc``
passed instead).  Each plan's clusters are then drawn as test sets, each with
its own clustered posterior, and the share whose interval is within the width
is its assurance.

Reported: the assurance of the plan from the population's design effect (on
1 000 test sets), and per pilot size the assurance averaged over pilots (it
should be at least 0.8 less 0.03) with its Monte Carlo standard error (the
spread of the pilots' shares over the square root of their number, which
holds both the pilots' and the test sets' noise), and the planned clusters
against the plan from the population's design effect (mean and median ratio).

Run ``python -m benchmarks.plan_pilot_clusters`` (``--accuracy`` for the second
population; ``--quick``: six pilots of 40 clusters, 30 test sets each).
"""

from __future__ import annotations

import sys

import numpy as np
from scipy import special

from skprobeval import metric_posterior, plan_test_size

__all__ = ["main"]

RECALL, PREVALENCE, SIZE, ICC = 0.9, 0.2, 10, 0.2
SETTINGS = {"metric": "recall", "width": 0.1, "expected": RECALL, "prevalence": PREVALENCE}
TEST_DRAWS = 2000
# The accuracy population: clusters of 5, a cluster effect N(0, 0.8) on the logit of
# being right (0.8 at u = 0); its accuracy and design effect from a pilot of 3 000
# clusters (metric_posterior with groups=, 4 000 draws, seed 11).
ACCURACY_SIZE, ACCURACY_SD, ACCURACY_EFFECT = 5, 0.8, 1.4823
ACCURACY_SETTINGS = {"metric": "accuracy", "width": 0.06, "expected": 0.7772}


def clustered_recall(rng, n_clusters):
    """(y_true, y_pred, groups) of `n_clusters` clusters of the population."""
    groups = np.repeat(np.arange(n_clusters), SIZE)
    total = 1.0 / ICC - 1.0
    rate = rng.beta(RECALL * total, (1.0 - RECALL) * total, n_clusters)[groups]
    y_true = (rng.random(groups.shape[0]) < PREVALENCE).astype(int)
    return y_true, np.where(rng.random(groups.shape[0]) < rate, y_true, 1 - y_true), groups


def clustered_accuracy(rng, n_clusters):
    """(y_true, y_pred, groups) of `n_clusters` clusters of the accuracy population."""
    groups = np.repeat(np.arange(n_clusters), ACCURACY_SIZE)
    effect = rng.normal(0.0, ACCURACY_SD, n_clusters)[groups]
    right = rng.random(groups.shape[0]) < special.expit(special.logit(0.8) + effect)
    y_true = rng.integers(0, 2, groups.shape[0])
    return y_true, np.where(right, y_true, 1 - y_true), groups


def _posterior(accuracy, rng, n_clusters, n_draws):
    y_true, y_pred, groups = (clustered_accuracy if accuracy else clustered_recall)(
        rng, n_clusters)
    return metric_posterior(y_true, y_pred, metric="accuracy" if accuracy else "recall",
                            groups=groups, n_draws=n_draws, random_state=rng)


def _within(n_clusters, n_tests, rng, accuracy=False):
    """Share of `n_tests` test sets of `n_clusters` clusters within the width."""
    width = (ACCURACY_SETTINGS if accuracy else SETTINGS)["width"]
    hits = 0
    for _ in range(n_tests):
        low, high = _posterior(accuracy, rng, n_clusters, TEST_DRAWS).interval(0.95)
        hits += high - low <= width
    return hits / n_tests


def main(quick=False, accuracy=False):
    """Print one row per (pilot size, plan); return the rows."""
    rng = np.random.default_rng(20261206)
    settings = ACCURACY_SETTINGS if accuracy else SETTINGS
    if accuracy:
        truth = plan_test_size(**settings, cluster_size=ACCURACY_SIZE,
                               icc=(ACCURACY_EFFECT - 1.0) / (ACCURACY_SIZE - 1.0),
                               random_state=0)
    else:
        truth = plan_test_size(**settings, cluster_size=SIZE, icc=ICC, random_state=0)
    n_pilots, n_tests = (6, 30) if quick else (40, 100)
    sizes = (40,) if quick else (40, 100)
    kinds = ("averaged",) if quick else ("averaged", "known")
    if quick:
        print(f"plan from the population's icc: {truth.n_clusters} clusters")
    else:
        share = _within(truth.n_clusters, 1000, rng, accuracy)
        print(f"plan from the population's icc: {truth.n_clusters} clusters, within the "
              f"width in {share:.3f} ± {np.sqrt(share * (1 - share) / 1000):.3f} of 1000 "
              "test sets")
    print(f"{'pilot':>6} {'plan':>9} {'pilots':>7} {'assurance':>10} {'± se':>6} "
          f"{'clusters / truth':>17} {'median':>7}")
    rows = []
    for pilot_size in sizes:
        plans = {kind: [] for kind in kinds}
        for _ in range(n_pilots):
            pilot = _posterior(accuracy, rng, pilot_size, 10_000)
            plan = plan_test_size(**settings, pilot_clusters=pilot, random_state=0)
            plans["averaged"].append(plan.n_clusters)
            if "known" in plans:
                plans["known"].append(plan_test_size(
                    **settings, cluster_size=plan.cluster_size, icc=plan.icc,
                    random_state=0).n_clusters)
        for kind in kinds:
            counts = np.array(plans[kind])
            shares = np.array([_within(int(c), n_tests, rng, accuracy) for c in counts])
            ratio = counts / truth.n_clusters
            row = {"population": settings["metric"], "pilot_clusters": pilot_size,
                   "plan": kind, "n_pilots": n_pilots,
                   "assurance": float(shares.mean()),
                   "se": float(shares.std(ddof=1) / np.sqrt(n_pilots)),
                   "ratio_mean": float(ratio.mean()), "ratio_median": float(np.median(ratio)),
                   "truth_clusters": int(truth.n_clusters)}
            rows.append(row)
            print(f"{pilot_size:>6} {kind:>9} {n_pilots:>7} {row['assurance']:>10.3f} "
                  f"{row['se']:>6.3f} {row['ratio_mean']:>17.3f} {row['ratio_median']:>7.3f}")
    return rows


if __name__ == "__main__":
    main(quick="--quick" in sys.argv, accuracy="--accuracy" in sys.argv)
