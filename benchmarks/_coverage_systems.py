"""The systems section of the coverage benchmark: are rank probabilities calibrated?

`rank_systems` says how probable it is that each of N systems is the best on
the population.  Calibrated, among the systems it gives P(best) near 0.8, about
80% are the best.  Each test set draws a population: five systems whose
accuracies are 0.8 plus independent normal offsets (sd 0.01 or 0.02), so that
the best system and its margin change from one test set to the next, and
whose errors are correlated through a shared item difficulty (a system is right
on an item with probability Phi(alpha_i + z_j), z_j ~ N(0, 1): paired data, as
in practice).  Every (system, test set) pair gives a predicted P(best) and
whether that system is truly the best; the pairs are binned by the prediction
and each bin's predicted mean is set against its observed share.  Both
settings of ``pooling`` are measured on the same test sets: the default
(``"partial"``, the library's rows) and the joint table's posterior as it is
(``"none"``, a candidate); beside them, from the same unpooled draws, four
half-Cauchy priors of the spread scaled to the test set's noise (half, one,
two and three times it: candidates)
and the hierarchical model told the population's true spread (a reference no
method can reach: it knows what the data cannot say with five systems).
"""

from __future__ import annotations

import numpy as np
from scipy import special

__all__ = ["calibration_error", "run_systems", "system_cells", "verdict"]

N_SYSTEMS = 5
BINS = (0.0, 0.05, 0.2, 0.4, 0.6, 0.8, 0.95, 1.0)
# sqrt(1 + 1): the shared item difficulty z ~ N(0, 1) adds variance 1 to the latent score.
_LATENT_SCALE = np.sqrt(2.0)


def system_cells(quick):
    sizes = (1000,) if quick else (300, 1000, 10_000)
    spreads = (0.02,) if quick else (0.01, 0.02)
    return [("systems", n, spread) for spread in spreads for n in sizes]


def _test_set(rng, n, accuracy):
    """Labels and N systems' predictions: right with probability Phi(alpha + z)."""
    alpha = special.ndtri(accuracy) * _LATENT_SCALE
    z = rng.standard_normal(n)
    right = rng.random((accuracy.size, n)) < special.ndtr(alpha[:, None] + z[None, :])
    y = rng.integers(0, 2, n)
    return y, {f"s{i}": np.where(right[i], y, 1 - y) for i in range(accuracy.size)}


def _contrast_sd(values):
    """Posterior sd of the systems' metrics about their mean (the noise the spread is
    judged against): the root mean eigenvalue of the draws' covariance off the
    all-equal direction."""
    n = values.shape[1]
    centre = np.eye(n) - 1.0 / n
    return float(np.sqrt(np.trace(centre @ np.cov(values, rowvar=False) @ centre) / (n - 1)))


def _candidate_priors(values, spread):
    """Log priors of the spread τ (on the logit scale the library pools on) measured
    beside the default uniform one: half-Cauchy priors scaled to the test set's own
    noise on that scale (Gelman 2006 recommends the half-Cauchy for few groups), and,
    as the reference no method can reach, the true spread (``sd / (0.8 * 0.2)`` in
    logits at accuracy 0.8)."""
    noise = _contrast_sd(special.logit(values))
    spread = spread / (0.8 * 0.2)
    return {
        "spread half-Cauchy, scale three times the noise": (
            "candidate", lambda tau: -np.log1p((tau / (3.0 * noise)) ** 2)),
        "spread half-Cauchy, scale twice the noise": (
            "candidate", lambda tau: -np.log1p((tau / (2.0 * noise)) ** 2)),
        "spread half-Cauchy, scale the noise": (
            "candidate", lambda tau: -np.log1p((tau / noise) ** 2)),
        "spread half-Cauchy, scale half the noise": (
            "candidate", lambda tau: -np.log1p((tau / (0.5 * noise)) ** 2)),
        "spread known (the population's sd)": (
            "reference", lambda tau: -0.5 * ((tau - spread) / (0.02 * spread)) ** 2),
    }


def run_systems(cell, reps, n_draws, *, seed, library):
    """Calibration rows of one cell: one per bin of predicted P(best) and setting."""
    from skprobeval import rank_systems
    from skprobeval._compare._pooling import pool_in_range

    _, n, spread = cell
    rng = seed("systems", n, round(spread * 1000))
    methods = {"partial": (library, "library"), "none": ("pooling none", "candidate")}
    predicted = {method: [] for method in methods.values()}
    best = []
    for rep in range(reps):
        accuracy = 0.8 + spread * rng.standard_normal(N_SYSTEMS)
        y, predictions = _test_set(rng, n, accuracy)
        for setting, method in methods.items():
            ranking = rank_systems(y, predictions, metric="accuracy", pooling=setting,
                                   n_draws=n_draws, random_state=rep)
            predicted[method].append(ranking.prob_best.to_numpy(float))
        # Candidate priors of the spread, from the same unpooled draws (their own
        # random stream: the rows above do not move).
        own = np.random.default_rng([rep, 30])
        for label, (kind, log_prior) in _candidate_priors(ranking.values, spread).items():
            pooled = pool_in_range(np.array(ranking.values), 0.0, 1.0, own,
                                   log_prior=log_prior)
            wins = np.bincount(pooled.argmax(axis=1), minlength=N_SYSTEMS)
            predicted.setdefault((label, kind), []).append(wins / pooled.shape[0])
        best.append(np.arange(N_SYSTEMS) == np.argmax(accuracy))
    best = np.concatenate(best)
    name = f"n={n} accuracy sd={spread:g} {N_SYSTEMS} systems"
    rows = []
    for (method, kind), values in predicted.items():
        values = np.concatenate(values)
        index = np.clip(np.searchsorted(BINS, values, side="right") - 1, 0, len(BINS) - 2)
        for b in range(len(BINS) - 1):
            inside = index == b
            count = int(inside.sum())
            if count == 0:
                continue
            observed = float(best[inside].mean())
            mean = float(values[inside].mean())
            rows.append({"section": "systems", "cell": name,
                         "quantity": f"P(best) in [{BINS[b]:g}, {BINS[b + 1]:g})",
                         "method": method, "kind": kind,
                         "reps": reps, "count": count, "predicted": mean,
                         "observed": observed,
                         "se": float(np.sqrt(max(mean * (1 - mean), 1e-4) / count)),
                         "brier": float(np.mean((values - best) ** 2))})
    return rows


def verdict(row):
    """A failure message, or None: observed within 0.05 of predicted (bins of 50 or more
    pairs, allowing two standard errors beyond that)."""
    if row["count"] < 50:
        return None
    gap = abs(row["observed"] - row["predicted"])
    if gap > 0.05 + 2 * row["se"]:
        return (f"{row['cell']} {row['quantity']}: observed {row['observed']:.3f}, "
                f"predicted {row['predicted']:.3f} ({row['count']} pairs)")
    return None


def calibration_error(rows):
    """Pair-weighted mean |observed - predicted| over a set of rows."""
    counts = np.array([r["count"] for r in rows], dtype=float)
    gaps = np.array([abs(r["observed"] - r["predicted"]) for r in rows])
    return float(np.sum(counts * gaps) / np.sum(counts)) if counts.size else float("nan")
