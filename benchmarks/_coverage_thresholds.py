"""The thresholds section of the coverage benchmark: does the chosen threshold
meet its constraint in the population?

Each cell is a binormal population: positives score N(μ, 1), negatives
N(0, 1), prevalence π (μ = 3, π = 0.3), so that the precision of the rule
``score >= t`` is known exactly,

    precision(t) = π Φ̄(t - μ) / (π Φ̄(t - μ) + (1 - π) Φ̄(t)),
    recall(t) = Φ̄(t - μ),

increasing in t (the binormal likelihood ratio is monotone).  A data set
draws n items; each method chooses a threshold for precision >= target,
maximising recall, and the benchmark reports per cell and method:

* ``coverage_95`` (``coverage_90``): the share of data sets whose chosen
  threshold meets the target in the population, at confidence 0.95 (0.90).
  A method that returns no threshold makes no claim and counts as meeting it,
  as in Learn-then-Test (Angelopoulos et al. 2021); ``no_threshold_95`` is
  the share of such data sets and ``meet_when_chosen_95`` the share among
  the others.
* ``recall_95`` (``recall_90``): the mean population recall of the chosen
  threshold (0 where there is none), beside ``oracle_recall``, the recall of
  the population threshold whose precision is exactly the target.
* ``width_95``: the mean recall given up against that oracle,
  ``max(0, oracle - recall)`` at confidence 0.95: the price of the promise,
  as an interval's width is.

Methods: the library (`choose_threshold`, its default rule); as candidates,
the same posteriors without the correction for choosing (the lowest threshold
whose own ``P(precision >= target) >= confidence``) and the library at the
stricter confidences 0.99 and 0.995 (``confidence=`` of `choose_threshold`;
their rows' ``_95`` columns hold the result at that confidence), to compare
it with MAPIE at the meet rate MAPIE delivers; references: the naive
point choice (the lowest threshold whose sample precision reaches the target)
and, when it is installed, MAPIE's ``BinaryClassificationController``
(Learn-then-Test with its defaults: Bonferroni-Holm over the probability
thresholds 0, 0.01, ..., 0.99, given the population's own calibrated
probability of each score).
"""

from __future__ import annotations

import math
import sys
import warnings

import numpy as np
from scipy import stats
from scipy.special import expit

MU = 3.0
# Stricter confidences of the library, measured beside MAPIE's delivered meet rate.
STRICT = (0.99, 0.995)
PREVALENCE = 0.3
TARGETS = (0.8, 0.9, 0.95)
QUANTITY = "population precision >= target (meet rate)"
_SAID = []


def threshold_cells(quick):
    sizes = (300,) if quick else (300, 3000)
    targets = (0.9,) if quick else TARGETS
    return [("thresholds", n, target) for n in sizes for target in targets]


def population(threshold):
    """Population precision and recall of ``score >= threshold`` (arrays welcome)."""
    hit = PREVALENCE * stats.norm.sf(np.asarray(threshold, dtype=float) - MU)
    false = (1 - PREVALENCE) * stats.norm.sf(np.asarray(threshold, dtype=float))
    with np.errstate(invalid="ignore"):
        return hit / (hit + false), stats.norm.sf(np.asarray(threshold, dtype=float) - MU)


def oracle_recall(target):
    from scipy.optimize import brentq

    return float(population(brentq(lambda t: population(t)[0] - target, -10.0, 30.0))[1])


def _probability(score):
    """The population's P(positive | score), as ``predict_proba`` would give it."""
    logit = math.log(PREVALENCE / (1 - PREVALENCE)) + MU * score - MU ** 2 / 2
    positive = expit(logit)
    return np.c_[1.0 - positive, positive]


def _score_threshold(probability_threshold):
    """The score threshold equivalent to a threshold on `_probability`."""
    p = float(probability_threshold)
    if p <= 0.0:
        return -np.inf
    return (math.log(p / (1 - p)) - math.log(PREVALENCE / (1 - PREVALENCE)) + MU ** 2 / 2) / MU


def _mapie(score, y, target, level):
    """MAPIE's chosen score threshold (None where it finds none), or NotImplemented."""
    try:
        from mapie.risk_control import BinaryClassificationController
    except ImportError:
        return NotImplemented
    controller = BinaryClassificationController(_probability, "precision", target,
                                                confidence_level=level)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        controller.calibrate(score, y.astype(int))
    best = controller.best_predict_param
    if best is None or (isinstance(best, float) and math.isnan(best)):
        return None
    return _score_threshold(best)


def _naive(choice, target):
    """The lowest threshold whose sample precision reaches the target."""
    c = choice.counts
    predicted = c.tp + c.fp
    with np.errstate(invalid="ignore", divide="ignore"):
        ok = (predicted > 0) & (c.tp >= target * predicted)
    if not ok.any():
        return None
    # Highest recall; among ties the highest threshold.
    candidates = np.flatnonzero(ok)
    best = candidates[c.tp[candidates] == c.tp[candidates].max()].max()
    return float(choice.thresholds[best])


def _pointwise(choice, level):
    """The lowest threshold whose own P(precision >= target) reaches `level`."""
    ok = np.flatnonzero(choice.prob_constraint >= level)
    if ok.size == 0:
        return None
    expected = choice.expected_objective[ok]
    return float(choice.thresholds[ok[expected == expected.max()].max()])


def _row(cell, method, kind, chosen, target, oracle, levels):
    """One row from the chosen thresholds at each level (None: no threshold)."""
    row = {"section": "thresholds", "cell": cell, "quantity": QUANTITY, "method": method,
           "kind": kind}
    for level in levels:
        tag = round(level * 100)
        picked = chosen[level]
        thresholds = np.array([np.nan if t is None else t for t in picked], dtype=float)
        none = np.isnan(thresholds)
        precision, recall = population(np.where(none, np.inf, thresholds))
        precision = np.where(none, 1.0, np.nan_to_num(precision, nan=1.0))
        recall = np.where(none, 0.0, recall)
        meets = precision >= target
        row[f"coverage_{tag}"] = float(np.mean(meets))
        row[f"recall_{tag}"] = float(np.mean(recall))
        if tag == 95:
            row["width_95"] = float(np.mean(np.maximum(0.0, oracle - recall)))
            row["reps"] = int(len(picked))
            row["no_threshold_95"] = float(np.mean(none))
            row["meet_when_chosen_95"] = (float(np.mean(meets[~none])) if (~none).any()
                                          else math.nan)
    for tag in (95, 90):
        # A row measured at one level only leaves the other's columns empty.
        row.setdefault(f"coverage_{tag}", math.nan)
        row.setdefault(f"recall_{tag}", math.nan)
    row["oracle_recall"] = oracle
    row["se_95"] = math.sqrt(0.95 * 0.05 / row["reps"])
    return row


def run_thresholds(cell, reps, n_draws, *, seed, levels, library):
    """Rows of one cell: the library, the uncorrected candidate, the naive choice, MAPIE."""
    from skprobeval import choose_threshold

    _, n, target = cell
    rng = seed("thresholds", n, target)
    # Its own stream, so that the other rows' draws stay as they were.
    strict_rng = seed("thresholds strict", n, target)
    name = f"n={n}, precision >= {target:g}, binormal mu={MU:g}, prevalence {PREVALENCE:g}"
    oracle = oracle_recall(target)
    chosen = {key: {level: [] for level in levels}
              for key in ("library", "pointwise", "naive", "mapie")}
    strict = {level: [] for level in STRICT}
    mapie_missing = False
    for _ in range(reps):
        y = rng.random(n) < PREVALENCE
        if y.all() or not y.any():
            y[0] = not y[0]
        score = rng.normal(size=n) + MU * y
        for level in STRICT:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                strict[level].append(choose_threshold(
                    y, score, constraint=("precision", target), confidence=level,
                    n_draws=max(n_draws, 4000),
                    random_state=int(strict_rng.integers(2**31))).threshold)
        for level in levels:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")     # infeasible choices warn
                choice = choose_threshold(y, score, constraint=("precision", target),
                                          confidence=level, n_draws=n_draws,
                                          random_state=int(rng.integers(2**31)))
            chosen["library"][level].append(choice.threshold)
            chosen["pointwise"][level].append(_pointwise(choice, level))
            chosen["naive"][level].append(_naive(choice, target))
            picked = _mapie(score, y, target, level)
            if picked is NotImplemented:
                mapie_missing = True
            else:
                chosen["mapie"][level].append(picked)
    rows = [_row(name, library, "library", chosen["library"], target, oracle, levels),
            _row(name, "posterior, pointwise P >= confidence (no correction for choosing)",
                 "candidate", chosen["pointwise"], target, oracle, levels),
            _row(name, "naive: sample precision >= target", "reference", chosen["naive"],
                 target, oracle, levels)]
    rows.extend(_row(name, f"{library}, confidence={level:g} (in the 95 columns)",
                     "candidate", {0.95: strict[level]}, target, oracle, (0.95,))
                for level in STRICT)
    if mapie_missing:
        if not _SAID:
            print("thresholds: MAPIE is not installed (pip install mapie): its "
                  "BinaryClassificationController rows are left out.", file=sys.stderr)
            _SAID.append(True)
    else:
        rows.append(_row(name, "MAPIE BinaryClassificationController (LTT)", "reference",
                         chosen["mapie"], target, oracle, levels))
    return rows
