"""The calibration section of the coverage benchmark.

A model's predicted probability q and the outcome y ~ Bernoulli(p): p is
uniform on [0, 1] and q = p (a calibrated model) or q = p ** 0.7 (one that
overstates the rate).  The true positive rate of a bin [a, b) of q is then
known in closed form: the mean of p over the bin, ``(a + b) / 2`` for the
calibrated model and ``(10 / 20) (b^(20/7) - a^(20/7)) / (b^(10/7) -
a^(10/7))`` for the other.  Per cell (n items, bins of equal width or of
equal counts):

* each bin's 95% interval (`posterior_calibration_curve(...).band()`) against
  the bin's true rate, beside Wilson's interval of the same counts;
* the simultaneous band against the whole true curve (every bin at once);
* the Brier score's interval (`brier_score_posterior`) against the model's
  true expected Brier score, beside the bootstrap (percentile, 1000
  resamples).
"""

from __future__ import annotations

import numpy as np
from scipy import integrate

from benchmarks import _references as ref

EXPONENTS = {"calibrated": 1.0, "overconfident": 0.7}


def calibration_cells(quick):
    sizes = (500,) if quick else (200, 2000, 20_000)
    strategies = ("uniform",) if quick else ("uniform", "quantile")
    return [("calibration", n, strategy, model) for model in EXPONENTS
            for strategy in strategies for n in sizes]


def _true_rate(low, high, exponent):
    """Mean of p over the items whose q = p ** exponent is in [low, high)."""
    if exponent == 1.0:
        return (low + high) / 2
    r = 1.0 / exponent           # p = q ** r, q has density r q^(r - 1) on [0, 1]
    with np.errstate(invalid="ignore", divide="ignore"):
        return (r / (2 * r)) * (high ** (2 * r) - low ** (2 * r)) / (high ** r - low ** r)


def _true_brier(exponent):
    # E[p (1 - q)^2 + (1 - p) q^2] over p uniform, q = p ** exponent (scipy quadrature).
    return integrate.quad(lambda p: p * (1 - p ** exponent) ** 2
                          + (1 - p) * p ** (2 * exponent), 0, 1)[0]


def _edges(q, n_bins, strategy):
    if strategy == "uniform":
        return np.linspace(0.0, 1.0, n_bins + 1)
    return np.percentile(q, np.linspace(0, 100, n_bins + 1))


def run_calibration(cell, reps, n_draws, *, coverage_row, seed, levels, library):
    from skprobeval import brier_score_posterior, posterior_calibration_curve

    _, n, strategy, model = cell
    exponent = EXPONENTS[model]
    rng = seed("calibration", n, strategy, model)
    name = f"n={n} {strategy} bins, {model}"
    pointwise = {level: ([], []) for level in levels}
    wilson = {level: ([], []) for level in levels}
    truths = []
    whole = {level: [] for level in levels}
    widths = []
    brier = {level: (np.empty(reps), np.empty(reps)) for level in levels}
    boot = {level: (np.empty(reps), np.empty(reps)) for level in levels}
    boot_rng = seed("calibration boot", n, strategy, model)
    for rep in range(reps):
        p = rng.random(n)
        y = (rng.random(n) < p).astype(int)
        q = p ** exponent
        curve = posterior_calibration_curve(y, q, n_bins=10, strategy=strategy)
        edges = _edges(q, 10, strategy)
        truth = _true_rate(edges[curve.bins], edges[curve.bins + 1], exponent)
        truths.append(truth)
        positives = np.rint(curve.prob_true * curve.counts).astype(int)
        brier_posterior = brier_score_posterior(y, q, n_draws=n_draws, random_state=rep)
        for level in levels:
            band = curve.band(level)
            pointwise[level][0].append(band.low)
            pointwise[level][1].append(band.high)
            low, high = ref.wilson_interval(positives, curve.counts, level)
            wilson[level][0].append(low)
            wilson[level][1].append(high)
            joint = curve.band(level, kind="simultaneous")
            whole[level].append(bool(np.all((joint.low <= truth + 1e-6)
                                            & (truth - 1e-6 <= joint.high))))
            if level == 0.95:
                widths.append(float(np.mean(joint.high - joint.low)))
            brier[level][0][rep], brier[level][1][rep] = brier_posterior.interval(level)
        losses = (q - y) ** 2
        resampled = losses[boot_rng.integers(0, n, (n_draws, n))].mean(axis=1) if n <= 2000 \
            else np.array([losses[boot_rng.integers(0, n, n)].mean() for _ in range(n_draws)])
        for level in levels:
            tail = (1 - level) / 2
            boot[level][0][rep], boot[level][1][rep] = np.quantile(resampled, [tail, 1 - tail])
    truth = np.concatenate(truths)
    flat = {level: tuple(np.concatenate(part) for part in pointwise[level]) for level in levels}
    flat_wilson = {level: tuple(np.concatenate(part) for part in wilson[level])
                   for level in levels}
    rows = [coverage_row("calibration", name, "bin rate", library, "library", truth, flat),
            coverage_row("calibration", name, "bin rate", "Wilson", "reference", truth,
                         flat_wilson)]
    row = {"section": "calibration", "cell": name, "quantity": "whole curve (simultaneous)",
           "method": library, "kind": "library", "reps": reps,
           "coverage_95": float(np.mean(whole[0.95])),
           "coverage_90": float(np.mean(whole[levels[-1]])),
           "width_95": float(np.mean(widths))}
    row["se_95"] = float(np.sqrt(0.95 * 0.05 / reps))
    rows.append(row)
    true_brier = _true_brier(exponent)
    rows.append(coverage_row("calibration", name, "Brier score", library, "library",
                             true_brier, brier))
    rows.append(coverage_row("calibration", name, "Brier score", "bootstrap", "reference",
                             true_brier, boot))
    return rows
