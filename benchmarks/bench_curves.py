"""Posterior threshold curves against scikit-learn's curves and the bootstrap.

(a) Curve + exact pointwise 95% band (default resolution, 2000 points) at
    n = 10^5 and 10^6 scores (binormal, prevalence 0.3), against
    ``sklearn.metrics.precision_recall_curve`` / ``roc_curve`` of the same
    scores.  Goal: at most 3x scikit-learn's time.
(b) Simultaneous 95% band (1000 curve draws) and the AP / AUC posteriors
    (1000 draws) at n = 10^5, against the bootstrap that peers use for the
    same question: 1000 resamples of scikit-learn's curve or metric, timed on
    50 resamples and scaled.  Goal: the band under 10 s.
(c) Coverage by simulation (printed, not timed): binormal scores, positives
    N(1.5, 1) and negatives N(0, 1), prevalence 0.3, n = 400; the share of
    repetitions in which the 95% pointwise band covers the true precision at
    the threshold of true recall 1/2, and the simultaneous bands (1000 draws)
    the whole true precision-recall and ROC curves.  Goal: about 0.95
    pointwise, at least 0.93 simultaneous.

Run ``python -m benchmarks.bench_curves`` (or ``--quick``).
"""

from __future__ import annotations

import sys

import numpy as np
from scipy.stats import norm
from sklearn.metrics import (
    average_precision_score,
    precision_recall_curve,
    roc_auc_score,
    roc_curve,
)

from benchmarks._timing import best_time
from skprobeval import (
    average_precision_posterior,
    posterior_precision_recall_curve,
    posterior_roc_curve,
    roc_auc_posterior,
)

MU, PREVALENCE = 1.5, 0.3


def _binormal(rng, n):
    y = rng.random(n) < PREVALENCE
    return y, np.where(y, rng.normal(MU, 1, n), rng.normal(0, 1, n))


def _row(case, ours, reference, reference_s, **extra):
    return {"benchmark": "curves", "case": case, "ours_s": ours, "reference": reference,
            "reference_s": reference_s, "ratio": reference_s / ours, **extra}


def _pointwise_rows(quick, rng):
    rows = []
    for n in (10 ** 5,) if quick else (10 ** 5, 10 ** 6):
        y, score = _binormal(rng, n)
        # At 10^5 a call takes tens of milliseconds: the best of more runs.
        repeat = 1 if quick else (15 if n == 10 ** 5 else 3)
        for name, ours, theirs in (
                ("precision-recall", posterior_precision_recall_curve, precision_recall_curve),
                ("ROC", posterior_roc_curve, roc_curve)):
            mine = best_time(lambda ours=ours: ours(y, score).band(0.95), repeat)
            reference = best_time(lambda theirs=theirs: theirs(y, score), repeat)
            rows.append(_row(f"{name} curve + pointwise band, n={n:.0e}", mine,
                             f"sklearn {theirs.__name__}", reference))
    return rows


def _bootstrap_time(function, y, score, n_resamples, rng):
    """Time of ``n_resamples`` bootstrap resamples of ``function(y, score)``."""
    n = y.shape[0]

    def run():
        for _ in range(n_resamples):
            take = rng.integers(0, n, n)
            function(y[take], score[take])

    return best_time(run, 1)


def _sampled_rows(quick, rng):
    n = 10 ** 4 if quick else 10 ** 5
    draws = 200 if quick else 1000
    timed = 5 if quick else 50
    y, score = _binormal(rng, n)
    rows = []
    scale = draws / timed
    for name, ours, theirs in (
            ("precision-recall simultaneous band",
             lambda: posterior_precision_recall_curve(y, score).band(
                 0.95, kind="simultaneous", n_draws=draws, random_state=0),
             precision_recall_curve),
            ("ROC simultaneous band",
             lambda: posterior_roc_curve(y, score).band(
                 0.95, kind="simultaneous", n_draws=draws, random_state=0),
             roc_curve),
            ("AP posterior",
             lambda: average_precision_posterior(y, score, n_draws=draws, random_state=0),
             average_precision_score),
            ("ROC AUC posterior",
             lambda: roc_auc_posterior(y, score, n_draws=draws, random_state=0),
             roc_auc_score)):
        mine = best_time(ours, 1)
        reference = _bootstrap_time(theirs, y, score, timed, rng) * scale
        rows.append(_row(f"{name}, {draws} draws, n={n:.0e}", mine,
                         f"bootstrap of sklearn {theirs.__name__} ({timed} scaled)", reference))
    # Ten times the scores: the draws sum runs of levels (at most 20000 cells per class).
    n, timed = n * 10, max(2, timed // 10)
    y, score = _binormal(rng, n)
    mine = best_time(lambda: posterior_precision_recall_curve(y, score).band(
        0.95, kind="simultaneous", n_draws=draws, random_state=0), 1)
    reference = _bootstrap_time(precision_recall_curve, y, score, timed, rng) * draws / timed
    rows.append(_row(f"precision-recall simultaneous band, {draws} draws, n={n:.0e}", mine,
                     f"bootstrap of sklearn precision_recall_curve ({timed} scaled)", reference))
    return rows


def coverage(n_repeats, n_draws, n=400, seed=20261123):
    """Shares of repetitions covered: (pointwise, simultaneous PR, simultaneous ROC)."""
    rng = np.random.default_rng(seed)

    def precision_at(t):
        tpr, fpr = norm.sf(t - MU), norm.sf(t)
        return PREVALENCE * tpr / (PREVALENCE * tpr + (1 - PREVALENCE) * fpr)

    recall_grid = np.linspace(0.01, 0.99, 99)
    true_pr = precision_at(MU - norm.ppf(recall_grid))
    fpr_grid = np.linspace(0, 1, 101)
    true_roc = norm.sf(norm.isf(fpr_grid) - MU)
    hits = np.zeros(3)
    for rep in range(n_repeats):
        y, score = _binormal(rng, n)
        pr = posterior_precision_recall_curve(y, score)
        point = pr.band(0.95)
        k = np.searchsorted(pr.thresholds, MU)
        hits[0] += point.low[k] <= precision_at(MU) <= point.high[k]
        band = pr.band(0.95, kind="simultaneous", n_draws=n_draws, grid=recall_grid,
                       random_state=rep)
        hits[1] += np.all((band.low <= true_pr) & (true_pr <= band.high))
        band = posterior_roc_curve(y, score).band(0.95, kind="simultaneous",
                                                  n_draws=n_draws, random_state=rep)
        hits[2] += np.all((band.low <= true_roc) & (true_roc <= band.high))
    return hits / n_repeats


def main(quick=False):
    """Run the benchmark; print a table and the coverage, return the timing rows."""
    rng = np.random.default_rng(0)
    rows = _pointwise_rows(quick, rng) + _sampled_rows(quick, rng)
    width = max(len(row["case"]) for row in rows)
    ref_width = max(len(row["reference"]) for row in rows)
    print(f"{'case':<{width}} {'ours [s]':>9} {'reference':<{ref_width}} {'ref [s]':>9} "
          f"{'ratio':>8}")
    for row in rows:
        print(f"{row['case']:<{width}} {row['ours_s']:>9.3g} {row['reference']:<{ref_width}} "
              f"{row['reference_s']:>9.3g} {row['ratio']:>7.3g}x")
    n_repeats, n_draws = (10, 200) if quick else (1000, 1000)
    shares = coverage(n_repeats, n_draws)
    print(f"coverage over {n_repeats} repetitions (binormal, n=400, {n_draws} draws): "
          f"pointwise {shares[0]:.3f} (goal about 0.95), simultaneous precision-recall "
          f"{shares[1]:.3f}, ROC {shares[2]:.3f} (goal >= 0.93)")
    return rows


if __name__ == "__main__":
    main(quick="--quick" in sys.argv)
