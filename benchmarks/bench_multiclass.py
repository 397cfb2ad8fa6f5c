"""Multiclass comparisons: the sparse joint sampler against a dense K^3 Dirichlet.

Times, in one process, the paired comparison of macro F1 of two systems on
K classes (`compare_paired_metric(..., average="macro")`) against the
straightforward route: numpy's ``Generator.standard_gamma`` over every one of
the K x K x K (true label, prediction A, prediction B) cells with the same
prior (zero-prior cells left out), unnormalised (a Dirichlet draw times its
total, which F1 does not read), then the per-system tables by summing axes
and each label's F-score TP mass, Gamma(λ - 2λ/K), shared by the systems.
Both draw ``n_draws`` posterior samples of the same model; the row also
reports how far the two probabilities are apart next to their Monte Carlo
standard error.  Also times the single-system macro F1 posterior (K x K
table) against the same dense route on the K x K cells; its mean is exact,
so the standard error there is the reference's.

Run ``python -m benchmarks.bench_multiclass`` (or ``--quick``).
"""

from __future__ import annotations

import sys

import numpy as np

from benchmarks._timing import best_time_and_value
from skprobeval import compare_paired_metric, fbeta_posterior

LAM = 0.5


def _systems(n, k, rng):
    truth = rng.integers(0, k, size=n)
    a = np.where(rng.random(n) < 0.80, truth, rng.integers(0, k, size=n))
    b = np.where(rng.random(n) < 0.78, truth, rng.integers(0, k, size=n))
    return truth, a, b


def _macro_f1(tables, extra):
    """Macro F1 of unnormalised tables, each label's TP with `extra` (its own prior mass)."""
    tp = np.diagonal(tables, axis1=-2, axis2=-1) + extra
    return (2 * tp / (tables.sum(axis=-2) + tables.sum(axis=-1) + 2 * extra)).mean(axis=-1)


def _own_mass(k, size, rng):
    """The F-score's own TP mass beyond the table's d = 2 lam / K: Gamma(lam - d) a label."""
    return rng.standard_gamma(LAM - 2 * LAM / k, size=(size, k))


def _paired_prior(k):
    """The two-system prior: d / 2 where both are right, d / (2 (K - 1)) where one is or
    both make the same mistake, d = 2 lam / K."""
    d = 2 * LAM / k
    t, a, b = np.meshgrid(*(np.arange(k),) * 3, indexing="ij")
    off = d / (2 * (k - 1))
    return np.where((a == t) & (b == t), d / 2,
                    np.where((a == t) | (b == t) | (a == b), off, 0.0))


def _dense_paired(truth, a, b, k, n_draws, rng, chunk=2000):
    cube = np.zeros((k, k, k))
    np.add.at(cube, (truth, a, b), 1.0)
    alpha = (cube + _paired_prior(k)).ravel()
    keep = alpha > 0
    wins = 0
    for start in range(0, n_draws, chunk):
        size = min(chunk, n_draws - start)
        draws = np.zeros((size, k ** 3))
        draws[:, keep] = rng.standard_gamma(alpha[keep], size=(size, int(keep.sum())))
        cubes = draws.reshape(size, k, k, k)
        own = _own_mass(k, size, rng)          # shared by both systems
        wins += int(np.sum(_macro_f1(cubes.sum(axis=3), own)
                           > _macro_f1(cubes.sum(axis=2), own)))
    return wins / n_draws


def _dense_single(truth, pred, k, n_draws, rng):
    matrix = np.zeros((k, k))
    np.add.at(matrix, (truth, pred), 1.0)
    d = 2 * LAM / k
    prior = np.full((k, k), d / (k - 1))
    np.fill_diagonal(prior, d)
    draws = rng.standard_gamma((matrix + prior).ravel(), size=(n_draws, k * k))
    values = _macro_f1(draws.reshape(-1, k, k), _own_mass(k, n_draws, rng))
    return float(values.mean()), float(values.std() / np.sqrt(n_draws))


def main(quick=False):
    """Run the benchmark; print a table and return its rows as dicts."""
    rng = np.random.default_rng(0)
    n_draws = 4_000 if quick else 40_000
    repeat = 1 if quick else 3
    sizes = (10,) if quick else (10, 20)
    rows = []
    for k in sizes:
        truth, a, b = _systems(2000, k, rng)
        ours, result = best_time_and_value(lambda: compare_paired_metric(
            truth, a, b, average="macro", n_draws=n_draws, random_state=1), repeat)
        theirs, dense = best_time_and_value(
            lambda: _dense_paired(truth, a, b, k, n_draws, np.random.default_rng(2)), repeat)
        se = np.sqrt(2 * dense * (1 - dense) / n_draws)
        rows.append({
            "benchmark": "multiclass", "case": f"paired macro F1, K={k}, n=2000",
            "ours_s": ours, "reference": f"dense K^3 Generator.dirichlet {n_draws:.0e}",
            "reference_s": theirs, "ratio": theirs / ours,
            "abs_error": abs(result.prob_first_better - dense), "mc_standard_error": float(se),
        })
        ours, posterior = best_time_and_value(lambda: fbeta_posterior(
            truth, a, average="macro", n_draws=n_draws, random_state=1), repeat)
        theirs, (dense_mean, dense_se) = best_time_and_value(
            lambda: _dense_single(truth, a, k, n_draws, np.random.default_rng(2)), repeat)
        rows.append({
            "benchmark": "multiclass", "case": f"macro F1 posterior, K={k}, n=2000",
            "ours_s": ours, "reference": f"dense K^2 Generator.dirichlet {n_draws:.0e}",
            "reference_s": theirs, "ratio": theirs / ours,
            # The library's mean is exact: the error is the reference's own.
            "abs_error": abs(posterior.mean() - dense_mean),
            "mc_standard_error": dense_se,
        })
    _print(rows)
    return rows


def _print(rows):
    print(f"{'case':<34} {'ours [s]':>10} {'dense [s]':>10} {'speed-up':>9} "
          f"{'|diff|':>9} {'MC s.e.':>9}")
    for row in rows:
        print(f"{row['case']:<34} {row['ours_s']:>10.3f} {row['reference_s']:>10.3f} "
              f"{row['ratio']:>8.1f}x {row['abs_error']:>9.1e} {row['mc_standard_error']:>9.1e}")


if __name__ == "__main__":
    main(quick="--quick" in sys.argv)
