"""Does `plan_labels` need fewer gold labels than labelling at random, and does the
posterior it feeds still cover?

Each pool holds ``11 n`` binary items (prevalence 0.3; the system finds a
positive with probability 0.8 and rejects a negative with 0.9; the proxy is
the gold label with probability ``agreement``, else the other label), drawn
afresh for every repetition.  Two ways to spend gold labels on it:

* **at random**: ``n`` items labelled at random, then the proxy posterior
  (``metric_posterior(..., proxy=)``), and the first ``0.75 n`` of them alone;
* **planned**: a random pilot of ``n / 4`` items, then ``plan_labels`` for
  ``0.75 n - n / 4`` more, so ``0.75 n`` gold labels in all, then the same
  posterior.

Reported per cell (agreement 0.9 and 0.95; accuracy and F1; ``n`` = 200; 200
pools a cell): the mean width of the 95% interval each way, their ratio, the
labels the plan needs for random labelling's width at ``n``, as a share of
``n`` (random labelling's width falls as ``labels^-b``, ``b`` read off its
widths at ``0.75 n`` and ``n``, so the share is ``0.75 (w_planned /
w_random)^(1/b)``) and the coverage of the population's value each way, with Monte
Carlo standard errors.  Goal: the planned width at ``0.75 n`` at most the
random one at ``n`` (the label share at most 0.75) while covering at least
0.92.

Run ``python -m benchmarks.plan_labels_efficiency`` (``--quick``: one cell,
20 pools).
"""

from __future__ import annotations

import sys
import warnings

import numpy as np

from skprobeval import metric_posterior, plan_labels

__all__ = ["main"]

PREVALENCE, RECALL, SPECIFICITY = 0.3, 0.8, 0.9
_TP, _FN = PREVALENCE * RECALL, PREVALENCE * (1 - RECALL)
_FP, _TN = (1 - PREVALENCE) * (1 - SPECIFICITY), (1 - PREVALENCE) * SPECIFICITY
TRUTH = {"accuracy": _TP + _TN, "f1": 2 * _TP / (2 * _TP + _FP + _FN)}
SHARE, PILOT_SHARE, RATIO = 0.75, 0.25, 10


def _pool(rng, n_items, agreement):
    y = (rng.random(n_items) < PREVALENCE).astype(int)
    pred = np.where(y == 1, rng.random(n_items) < RECALL,
                    rng.random(n_items) > SPECIFICITY).astype(int)
    proxy = np.where(rng.random(n_items) < agreement, y, 1 - y)
    return y, pred, proxy


def _interval(gold, pred, proxy, metric, rng):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        low, high = metric_posterior(gold, pred, metric=metric, proxy=proxy, n_draws=4_000,
                                     random_state=rng).interval(0.95)
    return float(low), float(high)


def run_cell(n, agreement, metric, pools, seed=0, n_sims=50):
    """One cell: widths, coverage and the label share, over `pools` pools."""
    rng = np.random.default_rng([seed, n, round(agreement * 100), len(metric)])
    n_items = n * (1 + RATIO)
    pilot, total = round(PILOT_SHARE * n), round(SHARE * n)
    truth = TRUTH[metric]
    widths = {"random": [], "fewer": [], "planned": []}
    covered = {"random": [], "planned": []}
    methods = []
    for _ in range(pools):
        y, pred, proxy = _pool(rng, n_items, agreement)
        order = rng.permutation(n_items)
        gold = np.full(n_items, np.nan)
        gold[order[:n]] = y[order[:n]]
        low, high = _interval(gold, pred, proxy, metric, rng)
        widths["random"].append(high - low)
        covered["random"].append(low <= truth <= high)
        fewer = np.full(n_items, np.nan)
        fewer[order[:total]] = y[order[:total]]
        low, high = _interval(fewer, pred, proxy, metric, rng)
        widths["fewer"].append(high - low)
        gold = np.full(n_items, np.nan)
        gold[order[:pilot]] = y[order[:pilot]]
        plan = plan_labels(pred, proxy, metric=metric, budget=total - pilot, labelled=gold,
                           n_sims=n_sims, random_state=rng)
        methods.append(plan.method)
        gold[plan.items] = y[plan.items]
        low, high = _interval(gold, pred, proxy, metric, rng)
        widths["planned"].append(high - low)
        covered["planned"].append(low <= truth <= high)
    w = {k: np.asarray(v) for k, v in widths.items()}
    c = {k: np.asarray(v, dtype=float) for k, v in covered.items()}
    ratio = w["planned"].mean() / w["random"].mean()
    row = {"n": n, "agreement": agreement, "metric": metric, "pools": pools,
           "width_random": w["random"].mean(), "width_planned": w["planned"].mean(),
           "width_ratio": ratio,
           # Delta method on the ratio of two means from the same pools.
           "width_ratio_se": ratio * np.sqrt(np.var(w["planned"] / w["planned"].mean()
                                                    - w["random"] / w["random"].mean(),
                                                    ddof=1) / pools),
           "width_random_fewer": w["fewer"].mean(),
           # Random labelling's width falls as labels^-b (b from its widths at 0.75 n and
           # n): it reaches the planned width with n (w_random / w_planned)^(1/b) labels.
           "label_share": SHARE * ratio ** (np.log(1 / SHARE) / np.log(
               w["fewer"].mean() / w["random"].mean())),
           "coverage_random": c["random"].mean(), "coverage_planned": c["planned"].mean(),
           "coverage_se": np.sqrt(0.95 * 0.05 / pools),
           "methods": {m: methods.count(m) for m in sorted(set(methods))}}
    return row


def main(quick=False):
    """Run the cells; print a table and return its rows."""
    cells = ([(200, 0.95, "accuracy")] if quick else
             [(200, a, m) for a in (0.9, 0.95) for m in ("accuracy", "f1")])
    pools = 20 if quick else 200
    rows = []
    for n, agreement, metric in cells:
        row = run_cell(n, agreement, metric, pools)
        rows.append(row)
        print(f"n={n} agreement={agreement} {metric}: width random {row['width_random']:.4f}"
              f", planned at {SHARE:g}n {row['width_planned']:.4f} (ratio "
              f"{row['width_ratio']:.3f} +- {row['width_ratio_se']:.3f}; random at {SHARE:g}n "
              f"{row['width_random_fewer']:.4f}; label share "
              f"{row['label_share']:.3f}); coverage random {row['coverage_random']:.3f}, "
              f"planned {row['coverage_planned']:.3f} (SE {row['coverage_se']:.3f}); "
              f"{row['methods']}", flush=True)
    return rows


if __name__ == "__main__":
    main(quick="--quick" in sys.argv)
