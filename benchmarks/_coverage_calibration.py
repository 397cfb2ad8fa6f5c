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
  resamples);
* in the cells of equal-width bins, the log loss's interval
  (`log_loss_posterior`) against the model's true expected log loss (scipy
  quadrature), beside the bootstrap and the candidates below.

Cells of confident mistakes (``("calibration", n, "mistakes", share, clean)``)
measure the log loss where its items' losses have a heavy right tail: a
calibrated model, its probability p ~ Beta(a, a) and y ~ Bernoulli(p) (``clean``
"uniform", a = 1, or "confident", a = 0.1), except that a share of the items
(1 to 3%) are predicted 0.99 on the wrong class (loss -log 0.01 = 4.61).  The
true expected log loss is exact: ``(1 - share) (psi(2a + 1) - psi(a + 1)) +
share * log(100)``, psi the digamma function (the mean binary entropy of a
Beta(a, a) probability).  With 100 items and a share of 1%, a third of the
test sets hold no mistake at all, and the Bayesian bootstrap, like the
ordinary one, puts no mass beyond the losses it has seen.

The library's log loss is the Bayesian bootstrap with a pseudo-item at the
largest loss scikit-learn's clipping allows (``-log eps``, 36.04) of Dirichlet
mass 0.02.  Candidates, from the same test sets: the plain Bayesian bootstrap
(the former default, `mean_loss_posterior` of the losses); the pseudo-item at
other masses (a draw is ``(S m + G L) / (S + G)``, m the plain draw, S ~
Gamma(n) and G ~ Gamma(λ) independent: the Dirichlet(1, ..., 1, λ) weights'
total is independent of their shares); the pseudo-item at the worst loss the
data's predictions could incur (``max_i -log min(q_i, 1 - q_i)``);
Dirichlet(0.8) weights (up to 2 000 items); Student's t interval of the mean.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import integrate, special, stats

from benchmarks import _references as ref
from skprobeval._posteriors._losses import CLIPPED_LOG_LOSS, LOG_LOSS_PRIOR

EXPONENTS = {"calibrated": 1.0, "overconfident": 0.7}
# Beta(a, a) of the calibrated probabilities in the cells of confident mistakes.
CLEAN = {"uniform": 1.0, "confident": 0.1}
MISTAKE_PROBABILITY = 0.99
# Masses of the pseudo-item at the clipped loss measured beside the library's.
CLIPPED_MASSES = tuple(m for m in (0.01, 0.02, 0.03) if m != LOG_LOSS_PRIOR)
FORMER = "Bayesian bootstrap (former default)"
WORST_MASS = 0.1
DIRICHLET_SHAPE = 0.8


def calibration_cells(quick):
    sizes = (500,) if quick else (200, 2000, 20_000)
    strategies = ("uniform",) if quick else ("uniform", "quantile")
    cells = [("calibration", n, strategy, model) for model in EXPONENTS
             for strategy in strategies for n in sizes]
    if quick:
        return cells + [("calibration", 100, "mistakes", 0.01, "confident")]
    return cells + [("calibration", n, "mistakes", share, clean) for clean in CLEAN
                    for share in (0.01, 0.02, 0.03) for n in (100, 300)]


def _true_rate(low, high, exponent):
    """Mean of p over the items whose q = p ** exponent is in [low, high)."""
    if exponent == 1.0:
        return (low + high) / 2
    r = 1.0 / exponent           # p = q ** r, q has density r q^(r - 1) on [0, 1]
    with np.errstate(invalid="ignore", divide="ignore"):
        return (r / (2 * r)) * (high ** (2 * r) - low ** (2 * r)) / (high ** r - low ** r)


def _true_log_loss(exponent):
    # E[-p log q - (1 - p) log(1 - q)] over p uniform, q = p ** exponent (scipy quadrature).
    return integrate.quad(lambda p: -special.xlogy(p, p ** exponent)
                          - special.xlogy(1 - p, 1 - p ** exponent), 0, 1)[0]


def _log_losses(y, q):
    eps = np.finfo(np.float64).eps
    return -np.log(np.clip(np.where(y == 1, q, 1 - q), eps, 1 - eps))


def log_loss_rows(name, y, q, n_draws, reps, *, truth, coverage_row, seed, levels, library,
                  boot_losses):
    """The log loss rows of one cell: ``y``, ``q`` arrays (reps, n); ``boot_losses``
    the bootstrap's resampled mean losses (reps, n_draws)."""
    from skprobeval import log_loss_posterior, mean_loss_posterior

    n = y.shape[1]
    rng = seed("calibration log loss", name)
    methods = [library, FORMER, *(f"pseudo-item at the clipped loss, mass {m:g}"
                                  for m in CLIPPED_MASSES),
               f"pseudo-item at the worst loss of the predictions, mass {WORST_MASS:g}",
               "Student t interval"]
    if n <= 2000:
        methods.append(f"Dirichlet({DIRICHLET_SHAPE:g}) weights")
    intervals = {m: {level: (np.empty(reps), np.empty(reps)) for level in levels}
                 for m in methods}

    def put(method, rep, draws):
        for level in levels:
            tail = (1 - level) / 2
            low, high = np.quantile(draws, [tail, 1 - tail])
            intervals[method][level][0][rep], intervals[method][level][1][rep] = low, high

    for rep in range(reps):
        put(library, rep, log_loss_posterior(y[rep], q[rep], n_draws=n_draws,
                                             random_state=rep).samples)
        losses = _log_losses(y[rep], q[rep])
        plain = mean_loss_posterior(losses, n_draws=n_draws, random_state=rep).samples
        put(FORMER, rep, plain)
        total = rng.standard_gamma(float(n), n_draws)
        for mass in CLIPPED_MASSES:
            pseudo = rng.standard_gamma(mass, n_draws)
            put(methods[2 + CLIPPED_MASSES.index(mass)], rep,
                (total * plain + pseudo * CLIPPED_LOG_LOSS) / (total + pseudo))
        worst = float(np.max(_log_losses(np.zeros(n), np.maximum(q[rep], 1 - q[rep]))))
        pseudo = rng.standard_gamma(WORST_MASS, n_draws)
        put(methods[2 + len(CLIPPED_MASSES)], rep,
            (total * plain + pseudo * worst) / (total + pseudo))
        half = stats.t.ppf(0.5 + np.array(levels) / 2, n - 1) * losses.std(ddof=1) / math.sqrt(n)
        for i, level in enumerate(levels):
            intervals["Student t interval"][level][0][rep] = losses.mean() - half[i]
            intervals["Student t interval"][level][1][rep] = losses.mean() + half[i]
        if n <= 2000:
            g = rng.standard_gamma(DIRICHLET_SHAPE, (n_draws, n))
            put(methods[-1], rep, (g @ losses) / g.sum(axis=1))
    rows = [coverage_row("calibration", name, "log loss", m,
                         "library" if m == library else "candidate", truth, intervals[m])
            for m in methods]
    boot = {}
    for level in levels:
        tail = (1 - level) / 2
        boot[level] = tuple(np.quantile(boot_losses, [tail, 1 - tail], axis=1))
    rows.append(coverage_row("calibration", name, "log loss", "bootstrap", "reference", truth,
                             boot))
    return rows


def run_mistakes(cell, reps, n_draws, *, coverage_row, seed, levels, library):
    """A cell of confident mistakes: the log loss's rows."""
    _, n, _, share, clean = cell
    a = CLEAN[clean]
    loss = -math.log(1 - MISTAKE_PROBABILITY)
    truth = (1 - share) * (special.digamma(2 * a + 1) - special.digamma(a + 1)) + share * loss
    rng = seed("calibration mistakes", n, round(share * 1000), clean)
    p = rng.beta(a, a, (reps, n))
    y = (rng.random((reps, n)) < p).astype(int)
    mistake = rng.random((reps, n)) < share
    wrong_label = (rng.random((reps, n)) < 0.5).astype(int)
    y = np.where(mistake, wrong_label, y)
    q = np.where(mistake, np.where(wrong_label == 1, 1 - MISTAKE_PROBABILITY,
                                   MISTAKE_PROBABILITY), p)
    losses = _log_losses(y, q)
    boot_rng = seed("calibration mistakes boot", n, round(share * 1000), clean)
    boot = np.stack([losses[rep][boot_rng.integers(0, n, (n_draws, n))].mean(axis=1)
                     for rep in range(reps)])
    name = f"n={n} confident mistakes {share:.0%}, {clean} otherwise"
    return log_loss_rows(name, y, q, n_draws, reps, truth=float(truth),
                         coverage_row=coverage_row, seed=seed, levels=levels,
                         library=library, boot_losses=boot)


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

    if len(cell) == 5:
        return run_mistakes(cell, reps, n_draws, coverage_row=coverage_row, seed=seed,
                            levels=levels, library=library)
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
    # The log loss is measured in the cells of equal-width bins (it does not depend on
    # the bins; the other cells are further samples of the same populations).
    with_log_loss = strategy == "uniform"
    ys, qs, boot_log = [], [], np.empty((reps, n_draws))
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
        log_losses = _log_losses(y, q)
        if n <= 2000:
            picks = boot_rng.integers(0, n, (n_draws, n))
            resampled = losses[picks].mean(axis=1)
            boot_log[rep] = log_losses[picks].mean(axis=1)
        else:
            resampled = np.empty(n_draws)
            for d in range(n_draws):
                picks = boot_rng.integers(0, n, n)
                resampled[d], boot_log[rep, d] = losses[picks].mean(), log_losses[picks].mean()
        if with_log_loss:
            ys.append(y)
            qs.append(q)
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
    if with_log_loss:
        rows += log_loss_rows(name, np.stack(ys), np.stack(qs), n_draws, reps,
                              truth=_true_log_loss(exponent), coverage_row=coverage_row,
                              seed=seed, levels=levels, library=library,
                              boot_losses=boot_log)
    return rows
