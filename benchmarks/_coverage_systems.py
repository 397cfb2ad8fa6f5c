"""The systems section of the coverage benchmark: are rank probabilities calibrated?

`rank_systems` says how probable it is that each of N systems is the best on
the population.  Calibrated, among the systems it gives P(best) near 0.8, about
80% are the best.  Each test set draws a population: five systems whose
accuracies are 0.8 plus independent normal offsets, so that the best system and
its margin change from one test set to the next, and whose errors are
correlated through a shared item difficulty (a system is right on an item with
probability Phi(alpha_i + z_j), z_j ~ N(0, 1): paired data, as in practice).
Every (system, test set) pair gives a predicted P(best) and whether that system
is truly the best; the pairs are binned by the prediction and each bin's
predicted mean is set against its observed share.

The offsets' sd (the spread) is drawn in two ways.  In the population cells it
is drawn anew for every test set, uniform on [0, 0.03] (`POPULATIONS`): a
posterior that does not know the spread can only be calibrated over the spreads
it expects, and these cells are what the verdict judges, their pairs pooled
over the cells (`pooled_rows`).  In the fixed cells it is 0.01 or 0.02 in every
test set: they show how far off P(best) is at one spread, as information.

Both settings of ``pooling`` are measured on the same test sets: the default
(``"partial"``, the library's rows) and the joint table's posterior as it is
(``"none"``, a candidate); beside them, from the same unpooled draws, four
half-Cauchy priors of the spread scaled to the test set's noise (half, one,
two and three times it: candidates), the hierarchical model told the spread the
test set's offsets were drawn with (a reference no method can reach: it knows
what the data cannot say with five systems) and, in the population cells, the
model whose prior of the spread is the population's (a reference: the Bayes
answer over that population, calibrated there by construction).

The counts route measures `compare_counts` the same way on leaderboards of
near-equal systems each tested on a test set of its own (no pairing; only each
system's counts): accuracies 0.8 plus normal offsets whose sd is drawn for
every leaderboard, in two populations (`COUNTS_POPULATIONS`): 5 systems with sd
uniform on [0, 0.03], and 20 systems with sd uniform on [0, 0.01]; each system
on 300, 1000 or 3000 items.  ``pooling="partial"`` (the default) is the
library's row, ``pooling="none"`` a candidate, and beside them, from the
unpooled draws, the same half-Cauchy candidates and references as above, pooled
with the systems' covariance diagonal as `compare_counts` pools them.  Each
population's pairs are pooled over its three cells and judged per bin from 40
pairs (`COUNTS_MIN_PAIRS`), within 0.05 allowing two standard errors.
"""

from __future__ import annotations

import numpy as np
from scipy import special

__all__ = ["COUNTS_POPULATIONS", "POPULATIONS", "calibration_error", "gap", "judged",
           "min_pairs", "pooled_rows", "reps_factor", "run_systems", "system_cells", "verdict"]

N_SYSTEMS = 5
BINS = (0.0, 0.05, 0.2, 0.4, 0.6, 0.8, 0.95, 1.0)
# sqrt(1 + 1): the shared item difficulty z ~ N(0, 1) adds variance 1 to the latent score.
_LATENT_SCALE = np.sqrt(2.0)
# Populations of the spread, by the name their cells carry: the offsets' sd of each test
# set is drawn uniform on (low, high).
POPULATIONS = {"sd~U[0,0.03]": (0.0, 0.03)}
# The counts route: N systems, each on a test set of its own, by the name their cells
# carry: (N, low, high), the offsets' sd of each leaderboard drawn uniform on (low, high).
COUNTS_POPULATIONS = {"counts: 5 systems, sd~U[0,0.03]": (5, 0.0, 0.03),
                      "counts: 20 systems, sd~U[0,0.01]": (20, 0.0, 0.01)}
# Items of each system's test set in the counts cells.
COUNTS_ITEMS = (300, 1000, 3000)
# A bin of the counts route is judged once it holds this many (system, test set) pairs.
COUNTS_MIN_PAIRS = 40
# Test sets of a population cell, as a multiple of those of a fixed cell (full runs):
# 4 000 a cell, 12 000 pooled, so that the upper bins hold some thousands of pairs.
POPULATION_REPS_FACTOR = 2


def system_cells(quick):
    """Population cells ``("systems", n, name)``, judged, then fixed cells
    ``("systems", n, sd)`` (first the population cells, the longest tasks, so that two
    workers finish together), then the counts route's population cells (judged)."""
    counts = [("systems", n, name) for name in COUNTS_POPULATIONS for n in COUNTS_ITEMS]
    if quick:
        return [("systems", 300, "sd~U[0,0.03]"), ("systems", 1000, 0.02),
                *[("systems", 300, name) for name in COUNTS_POPULATIONS]]
    population = [("systems", n, name) for name in POPULATIONS for n in (300, 1000, 3000)]
    return population + [("systems", n, spread) for spread in (0.01, 0.02)
                         for n in (300, 1000, 10_000)] + counts


def reps_factor(cell):
    """How many times a cell's test sets exceed the section's (full runs)."""
    return POPULATION_REPS_FACTOR if isinstance(cell[2], str) else 1


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


# Logits per unit of accuracy at accuracy 0.8 (d logit / dp = 1 / (p (1 - p))).
_LOGITS_PER_UNIT = 1.0 / (0.8 * 0.2)


def _candidate_priors(values, spread, bounds=None):
    """Log priors of the spread τ (on the logit scale the library pools on) measured
    beside the default uniform one: half-Cauchy priors scaled to the test set's own
    noise on that scale (Gelman 2006 recommends the half-Cauchy for few groups), and,
    as references, the spread the offsets were drawn with (``sd / (0.8 * 0.2)`` in
    logits at accuracy 0.8) and, in a population cell, the population's own prior of
    the spread (uniform on its range, in logits)."""
    noise = _contrast_sd(special.logit(values))
    spread = spread * _LOGITS_PER_UNIT
    priors = {
        "spread half-Cauchy, scale three times the noise": (
            "candidate", lambda tau: -np.log1p((tau / (3.0 * noise)) ** 2)),
        "spread half-Cauchy, scale twice the noise": (
            "candidate", lambda tau: -np.log1p((tau / (2.0 * noise)) ** 2)),
        "spread half-Cauchy, scale the noise": (
            "candidate", lambda tau: -np.log1p((tau / noise) ** 2)),
        "spread half-Cauchy, scale half the noise": (
            "candidate", lambda tau: -np.log1p((tau / (0.5 * noise)) ** 2)),
        "spread known (the sd the offsets were drawn with)": (
            "reference", lambda tau: -0.5 * ((tau - spread) / (0.02 * spread)) ** 2),
    }
    if bounds is not None:
        low, high = (value * _LOGITS_PER_UNIT for value in bounds)
        priors["spread prior the population's (uniform sd)"] = (
            "reference", lambda tau: np.where((tau >= low) & (tau <= high), 0.0, -np.inf))
    return priors


def run_systems(cell, reps, n_draws, *, seed, library):
    """Calibration rows of one cell: one per bin of predicted P(best) and setting."""
    from skprobeval import rank_systems
    from skprobeval._compare._pooling import pool_in_range

    _, n, spread = cell
    if spread in COUNTS_POPULATIONS:
        return _run_counts(cell, reps, n_draws, seed=seed)
    population = spread if isinstance(spread, str) else None
    if population is None:
        rng = seed("systems", n, round(spread * 1000))
    else:
        rng = seed("systems", n, population)
    methods = {"partial": (library, "library"), "none": ("pooling none", "candidate")}
    predicted = {method: [] for method in methods.values()}
    best = []
    for rep in range(reps):
        sd = rng.uniform(*POPULATIONS[population]) if population else spread
        accuracy = 0.8 + sd * rng.standard_normal(N_SYSTEMS)
        y, predictions = _test_set(rng, n, accuracy)
        for setting, method in methods.items():
            ranking = rank_systems(y, predictions, metric="accuracy", pooling=setting,
                                   n_draws=n_draws, random_state=rep)
            predicted[method].append(ranking.prob_best.to_numpy(float))
        # Candidate priors of the spread, from the same unpooled draws (their own
        # random stream: the rows above do not move).
        own = np.random.default_rng([rep, 30])
        priors = _candidate_priors(ranking.values, sd,
                                   POPULATIONS[population] if population else None)
        for label, (kind, log_prior) in priors.items():
            pooled = pool_in_range(np.array(ranking.values), 0.0, 1.0, own,
                                   log_prior=log_prior)
            wins = np.bincount(pooled.argmax(axis=1), minlength=N_SYSTEMS)
            predicted.setdefault((label, kind), []).append(wins / pooled.shape[0])
        best.append(np.arange(N_SYSTEMS) == np.argmax(accuracy))
    name = (f"n={n} accuracy sd={spread:g} {N_SYSTEMS} systems" if population is None
            else f"n={n} accuracy {population} {N_SYSTEMS} systems")
    return _calibration_rows(name, predicted, np.concatenate(best), reps, population)


def _counts_test_sets(rng, n, accuracy):
    """Each system's binary table on a test set of its own: n items, half positive on
    average, each right with the system's accuracy."""
    positives = rng.binomial(n, 0.5, accuracy.size)
    tp = rng.binomial(positives, accuracy)
    tn = rng.binomial(n - positives, accuracy)
    return tp, n - positives - tn, positives - tp, tn


def _run_counts(cell, reps, n_draws, *, seed):
    """Calibration rows of one counts cell: `compare_counts` of N systems' tables, each
    system on its own test set, with ``pooling="partial"`` (the library's rows) and
    ``"none"`` (a candidate); beside them, from the unpooled draws, the half-Cauchy
    priors of the spread scaled to the noise and the references (`run_systems`)."""
    from skprobeval import ConfusionCounts, compare_counts
    from skprobeval._compare._pooling import pool_in_range

    _, n, population = cell
    n_systems, low, high = COUNTS_POPULATIONS[population]
    rng = seed("systems", "counts", n, population)
    methods = {"partial": ("compare_counts", "library"),
               "none": ("compare_counts pooling none", "candidate")}
    predicted = {method: [] for method in methods.values()}
    best = []
    for rep in range(reps):
        sd = rng.uniform(low, high)
        accuracy = 0.8 + sd * rng.standard_normal(n_systems)
        cells = _counts_test_sets(rng, n, accuracy)
        board = {f"s{i}": ConfusionCounts(*(int(c[i]) for c in cells))
                 for i in range(n_systems)}
        for setting, method in methods.items():
            report = compare_counts(board, metric="accuracy", pooling=setting,
                                    n_draws=n_draws, random_state=rep)
            predicted[method].append(report.ranking.prob_best.to_numpy(float))
        # The candidates pool the unpooled draws (the last report's), independent as the
        # library pools them, on their own random stream.
        own = np.random.default_rng([rep, 31])
        for label, (kind, log_prior) in _candidate_priors(report.ranking.values, sd,
                                                          (low, high)).items():
            pooled = pool_in_range(np.array(report.ranking.values), 0.0, 1.0, own,
                                   log_prior=log_prior, independent=True)
            wins = np.bincount(pooled.argmax(axis=1), minlength=n_systems)
            predicted.setdefault((f"counts: {label}", kind), []).append(
                wins / pooled.shape[0])
        best.append(np.arange(n_systems) == np.argmax(accuracy))
    return _calibration_rows(f"n={n} accuracy {population}", predicted,
                             np.concatenate(best), reps, population, route="counts")


def _calibration_rows(name, predicted, best, reps, population, route="joint"):
    """One row per bin of predicted P(best) and method (`predicted`: per (method,
    kind), the P(best) of every test set's systems; `best`: whether each is the best)."""
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
            row = {"section": "systems", "cell": name,
                   "quantity": f"P(best) in [{BINS[b]:g}, {BINS[b + 1]:g})",
                   "method": method, "kind": kind,
                   "reps": reps, "count": count, "predicted": mean,
                   "observed": observed, "se": _se(mean, count),
                   "brier": float(np.mean((values - best) ** 2))}
            if population is not None:
                row["spread_population"] = population
            if route == "counts":
                row["route"] = route
            rows.append(row)
    return rows


def _se(predicted, count):
    """Standard error of a bin's observed share, were the prediction right."""
    return float(np.sqrt(max(predicted * (1 - predicted), 1e-4) / count))


def judged(row):
    """Whether a row's cell draws its spread from a population (the cells judged, once
    pooled); a fixed cell's rows are information.  (Its field is absent or empty there;
    NaN, as a data frame reads it, counts as empty.)"""
    population = row.get("spread_population")
    return isinstance(population, str) and population != ""


def pooled_rows(rows):
    """The population cells' rows pooled per population, method and bin: the pairs'
    count, their mean prediction and observed share, and the Brier score over every
    pair of the pooled cells (the cells weighted by their pairs)."""
    groups, totals = {}, {}
    for row in rows:
        if row["section"] != "systems" or not judged(row):
            continue
        key = (row["spread_population"], row["method"], row["kind"])
        groups.setdefault(key + (row["quantity"],), []).append(row)
        cells = totals.setdefault(key, {})
        brier, count = cells.get(row["cell"], (row["brier"], 0))
        cells[row["cell"]] = (brier, count + row["count"])
    pooled = []
    order = {key: i for i, key in enumerate(totals)}
    for (population, method, kind, quantity), group in groups.items():
        count = sum(r["count"] for r in group)
        predicted = sum(r["count"] * r["predicted"] for r in group) / count
        cells = totals[(population, method, kind)]
        pairs = sum(c for _, c in cells.values())
        pooled.append({
            "section": "systems",
            "cell": f"the {len(cells)} {population} cells",
            "quantity": quantity, "method": method, "kind": kind,
            "spread_population": population, "count": count, "predicted": predicted,
            "observed": sum(r["count"] * r["observed"] for r in group) / count,
            "se": _se(predicted, count),
            "brier": sum(b * c for b, c in cells.values()) / pairs,
            **({"route": group[0]["route"]} if _is_counts(group[0]) else {})})
    pooled.sort(key=lambda r: (order[(r["spread_population"], r["method"], r["kind"])],
                               BINS.index(_low_end(r["quantity"]))))
    return pooled


def _low_end(quantity):
    """The lower end of a bin named ``P(best) in [low, high)``."""
    return float(quantity.split("[")[1].split(",")[0])


def gap(row):
    """How far a bin is off: |observed - predicted|."""
    return abs(row["observed"] - row["predicted"])


def _is_counts(row):
    """Whether a row is of the counts route (`compare_counts`); its field is absent, or
    NaN as a data frame reads it, elsewhere."""
    return row.get("route") == "counts"


def min_pairs(row):
    """The pairs a bin needs to be judged: 50, or `COUNTS_MIN_PAIRS` on the counts route."""
    return COUNTS_MIN_PAIRS if _is_counts(row) else 50


def verdict(row):
    """A failure message, or None: observed within 0.05 of predicted (bins of 50 or more
    pairs, 40 on the counts route, allowing two standard errors beyond that)."""
    if row["count"] < min_pairs(row):
        return None
    if gap(row) > 0.05 + 2 * row["se"]:
        return (f"{row['cell']} {row['quantity']}: observed {row['observed']:.3f}, "
                f"predicted {row['predicted']:.3f} ({row['count']} pairs)")
    return None


def calibration_error(rows):
    """Pair-weighted mean |observed - predicted| over a set of rows."""
    counts = np.array([r["count"] for r in rows], dtype=float)
    gaps = np.array([gap(r) for r in rows])
    return float(np.sum(counts * gaps) / np.sum(counts)) if counts.size else float("nan")
