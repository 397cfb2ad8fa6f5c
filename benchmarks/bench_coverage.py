"""How often the library's intervals cover the truth: a coverage benchmark.

Every cell of the grid is a population whose metric is known.  Data are drawn
from it ``reps`` times (confusion counts multinomially, scores binormally);
each draw gets the library's 95% and 90% intervals and those of named
references, and the benchmark reports, per cell and method, the share of
draws whose interval holds the truth (coverage) and the mean width of the 95%
interval.  With 400 draws the Monte Carlo standard error of a coverage near
0.95 is about 0.011.

Sections
--------
binary
    precision, recall, accuracy, F1, F2, informedness and markedness of one
    confusion table: n in {30, 100, 1000, 10000}, prevalence in {0.5, 0.3,
    0.1, 0.01}, three classifiers (moderate, good, near-perfect).  References:
    Wilson and Jeffreys for proportions, the bootstrap (percentile and BCa) for
    the others.
multiclass
    micro, macro and weighted F1 and each label's F1 of a K x K table: K in
    {3, 10, 30}, 10 or 100 items per class, accuracy 0.7, 0.9 or 0.97,
    balanced or imbalanced classes (largest / smallest share 10).  Reference:
    the bootstrap.  Candidate priors of the K x K table are measured beside
    the library's default.
ranking
    average precision, ROC AUC, the pointwise precision-recall and ROC bands
    at three thresholds and the simultaneous bands: binormal scores,
    separation in {0.5, 1, 2, 4}, n in {100, 300, 1000, 10000}, prevalence in
    {0.3, 0.02}.  References: the bootstrap and, for AUC, DeLong's interval;
    candidate boundary masses of the ranking model beside the default (for
    AP, fixed masses and masses falling with the number of positives).
    Cells of hidden positives (`_coverage_mixture`): ROC AUC alone, 10 or 30
    positives among 100 or 1000 items, a share 0.1 or 0.3 of the positives
    scoring like negatives, binormal otherwise (separation 2 or 4).
groups
    the gap of a true positive rate and of a selection rate between groups
    (`PosteriorMetricFrame.difference`): 2 or 4 groups of 10, 100 or 1000
    items, equal or different true rates.  Reference: the bootstrap within
    each group.
calibration
    the per-bin rates of a calibration curve, the curve's simultaneous band
    and the Brier score's interval: outcomes Bernoulli(p), p uniform,
    predictions p (calibrated) or p ** 0.7; n in {200, 2000, 20 000}, bins of
    equal width or equal counts.  References: Wilson per bin, the bootstrap
    for the Brier score.  The log loss's interval in the cells of equal-width
    bins and in cells of confident mistakes (100 or 300 items, 1-3% of them
    predicted 0.99 on the wrong class; `_coverage_calibration`), beside the
    bootstrap and candidates (a pseudo-item at the clipped loss, Dirichlet
    weights below 1, Student's t).
systems
    calibration of `rank_systems`' P(best): five systems of accuracy 0.8 plus
    normal offsets, correlated through item difficulty; among the systems
    given P(best) in a bin, the share that is truly best should match the
    bin's mean prediction within 0.05.  Judged: the cells whose offsets' sd
    is drawn uniform on [0, 0.03] for every test set (300, 1000 and 3000
    items, 4000 test sets each in the full run), their (system, test set)
    pairs pooled per bin: a posterior that does not know the spread is
    calibrated over the spreads it expects, not at each one.  Information:
    cells of a fixed sd (0.01 or 0.02, on 300 to 10 000 items, 2000 test
    sets each), printed with each cell's worst bin.  The cells run five and
    ten times the test sets of the others, so that the upper bins hold
    enough pairs to be judged.  The counts route: `compare_counts`' P(best)
    (``pooling="partial"``, the library's rows, and ``"none"``, a candidate)
    for near-equal systems each on a test set of its own, in two populations
    judged apart (5 systems, offsets' sd uniform on [0, 0.03]; 20 systems,
    sd uniform on [0, 0.01]; 300, 1000 and 3000 items per system, 4000
    leaderboards a cell), bins of 40 pairs or more judged.
    ``--section systems --only counts:`` runs these cells alone.
runs
    the mean over runs of `compare_counts` (several runs of a system, each with
    its own counts): runs of accuracy 0.8 plus normal offsets of sd 0, 0.01
    or 0.03, 3, 5 or 10 runs of 200 or 2000 items.  Reference: the pooled
    counts' Beta interval (at spread 0 the library's may be at most 1.2 times
    as wide); candidate priors of the spread beside the default; null cells
    (two systems with the same runs population) in the comparisons section.
thresholds
    `choose_threshold` for precision >= 0.8, 0.9, 0.95 on binormal scores (n in
    {300, 3000}): the share of data sets whose chosen threshold meets the
    target in the population (in the coverage columns) and the population
    recall it keeps, beside the naive point choice and MAPIE's
    ``BinaryClassificationController`` when MAPIE is installed.
proxy
    gold labels on 50, 200 or 1 000 items and a second labeller's (the
    proxy's) on ten or a hundred times as many more (`_coverage_proxy`):
    agreement 0.7 to 0.98; accuracy, recall, precision, F1, macro F1 and
    paired differences and nulls.  References: the labelled items alone and
    prediction-powered inference (``ppi_py``) for accuracy when installed.
comparisons
    paired, independent, `compare_scores`, the correlated t-test and the
    signed-rank test under the null (two equal systems: the share of
    P(first better) > 0.95 should be about 0.05) and under a true difference
    (power, beside the matched frequentist test at level 0.05).  The null
    cells run five times the test sets of the other cells (2000 in the full
    run) for `compare_scores` and 25 times (10 000) for the tests that cost
    milliseconds a test set, so that the share's Monte Carlo error (about
    0.005 and 0.0025) is small against the window it is judged by.

Posterior and bootstrap intervals are read from 1000 draws (250 for the AP,
AUC and bootstrap of rankings of 10 000 items, whose simultaneous bands draw
2 000 runs of score levels, ``max_cells``, 1000 times).  Run ``python -m
benchmarks.bench_coverage`` for the full grid (the sections' runs with
``--jobs 2`` on two cores add up to about 105 minutes, 40 of them the ranking
section and 34 the systems section, measured on a machine shared with other
work: its 30 minutes of CPU time; the ranking section's cells of hidden
positives add about 10 minutes of one core, the calibration section's log loss
rows a few), ``--quick`` for a smoke run, ``--section NAME`` for one section,
``--only REGEX`` for some of its cells, ``--csv PATH`` to keep the rows.  The
last lines check the grid against the promise the library makes: the 95%
interval covers at least 0.92 (within Monte Carlo error) in every cell, or,
where every reference covers less than 0.90, at least as often as the best
reference; where both cover 0.93 or more, it is at most 1.25 times as wide as
the bootstrap (1.1 times Wilson's for proportions); null comparisons exceed
0.95 in 3% to 7% of draws; a P(best) bin of 50 pairs or more, pooled over the
cells of a drawn spread, is within 0.05 of its share of truly best systems
(two standard errors allowed).
"""

from __future__ import annotations

import argparse
import concurrent.futures
import inspect
import math
import re
import sys
import time
import zlib

import numpy as np
from scipy import special, stats

from benchmarks import _coverage_calibration as _calibration
from benchmarks import _coverage_clusters as _clusters
from benchmarks import _coverage_groups as _groups
from benchmarks import _coverage_mixture as _mixture
from benchmarks import _coverage_proxy as _proxy
from benchmarks import _coverage_runs as _runs
from benchmarks import _coverage_stopping as _stopping
from benchmarks import _coverage_systems as _systems
from benchmarks import _coverage_thresholds as _thresholds
from benchmarks import _references as ref
from skprobeval import (
    BetaPosterior,
    ConfusionCounts,
    PairedComparison,
    PairedCounts,
    SampledPosterior,
    bayesian_signed_rank_test,
    compare_independent,
    compare_scores,
    correlated_ttest,
    metric_posterior,
    posterior_precision_recall_curve,
    posterior_roc_curve,
)

# RANKING_PRIOR: the ranking model's fixed boundary mass (AP's up to 30 positives; ROC
# AUC's from 90, and its former default at every size: `auc_boundary_mass`).
from skprobeval._posteriors._curves import (
    RANKING_PRIOR,
    CurveCells,
    _simultaneous_envelope,
    ap_boundary_mass,
    ap_from_cumulative,
    auc_boundary_mass,
    auc_from_shares,
    ranking_own_shares,
)
from skprobeval._posteriors._joint import f_score_extra, joint_prior
from skprobeval._posteriors._posterior_fbeta import FBetaPosterior

LIBRARY = "skprobeval"
HDI = "skprobeval, highest-density interval"
TWO_SIDED = "two-sided in every column (former rule)"
EQUAL_TAILED = "equal-tailed at zero counts too (former rule)"
# The K x K table's prior with the F-scores' TP at the table's own 2λ/K (the default
# until the F-scores took λ on TP).
FORMER_TABLE = "F-scores at the table's 2λ/K on TP (former default)"
# Average precision of the drawn items as such, each positive counting itself in its own
# precision (the default until the posterior read it at the middle of its own weight).
STEP_AP = "step-wise, each positive counting itself (former rule)"
POOLED_PRIOR = "2λ a side (the pooled cells' prior, former default)"
LEVELS = (0.95, 0.90)
TOLERANCE = 1e-6
# The library's default prior of each model, read from its signatures.
DEFAULT_PRIOR = inspect.signature(metric_posterior).parameters["prior"].default
CURVE_PRIOR = inspect.signature(posterior_roc_curve).parameters["prior"].default


# ---------------------------------------------------------------------------
# Bookkeeping
# ---------------------------------------------------------------------------


def _coverage_row(section, cell, quantity, method, kind, truth, intervals):
    """One result row: coverage at each level and the mean 95% width.

    ``intervals`` maps a level to ``(low, high)`` arrays over draws (NaN limits
    count as not covering: a method that gives no interval makes no promise
    kept).  ``truth`` broadcasts against them.  A truth within `TOLERANCE` of a
    limit counts as inside (a band reaching 1 - 1e-7 holds a true 1 - 1e-8).
    """
    row = {"section": section, "cell": cell, "quantity": quantity, "method": method,
           "kind": kind}
    for level in LEVELS:
        low, high = (np.asarray(v, dtype=float) for v in intervals[level])
        truth_b = np.broadcast_to(truth, low.shape)
        with np.errstate(invalid="ignore"):
            inside = (low <= truth_b + TOLERANCE) & (truth_b - TOLERANCE <= high)
        row[f"coverage_{round(level * 100)}"] = float(np.mean(inside))
        if level == 0.95:
            row["width_95"] = float(np.nanmean(high - low))
            row["reps"] = int(low.size)
    row["se_95"] = math.sqrt(0.95 * 0.05 / row["reps"])
    return row


def _beta_intervals(a, b):
    """Equal-tailed intervals of Beta(a, b) at every level."""
    out = {}
    for level in LEVELS:
        tail = (1 - level) / 2
        out[level] = (special.betaincinv(a, b, tail), special.betaincinv(a, b, 1 - tail))
    return out


def _quantile_intervals(draws, axis=0):
    """Equal-tailed intervals of sampled draws (NaN draws dropped)."""
    out = {}
    for level in LEVELS:
        tail = (1 - level) / 2
        with np.errstate(invalid="ignore"):
            low, high = np.nanquantile(draws, [tail, 1 - tail], axis=axis)
        out[level] = (low, high)
    return out


def _posterior_intervals(posterior, shape=None):
    """The posterior's equal-tailed intervals at every level (reshaped to `shape`)."""
    out = {}
    for level in LEVELS:
        low, high = (np.asarray(v, dtype=float) for v in posterior.interval(level))
        out[level] = (low, high) if shape is None else (low.reshape(shape), high.reshape(shape))
    return out


def _hdi_intervals(posterior, shape=None):
    """The posterior's highest-density intervals at every level (a candidate
    interval method beside the library's equal-tailed one)."""
    out = {}
    for level in LEVELS:
        low, high = (np.asarray(v, dtype=float) for v in posterior.hdi(level))
        out[level] = (low, high) if shape is None else (low.reshape(shape), high.reshape(shape))
    return out


def _sampled_hdi_intervals(draws):
    """Highest-density intervals of draws ``(reps, n_draws)``, one per row."""
    posterior = SampledPosterior(np.asarray(draws, dtype=float).T)
    return _hdi_intervals(posterior)


def _seed(*key):
    """A generator seeded by the cell's key (strings by their CRC, stable across runs)."""
    return np.random.default_rng([zlib.crc32(k.encode()) if isinstance(k, str) else int(k)
                                  for k in key])


# ---------------------------------------------------------------------------
# Binary tables
# ---------------------------------------------------------------------------

QUALITIES = {"moderate": (0.75, 0.2), "good": (0.9, 0.05), "near-perfect": (0.99, 0.005)}
BINARY_METRICS = ("precision", "recall", "accuracy", "f1", "f2", "informedness", "markedness")
PROPORTIONS = {"precision": (0, 1), "recall": (0, 2), "accuracy": (None, None)}


def _binary_truth(p):
    tp, fp, fn, tn = p
    ppv, npv = tp / (tp + fp), tn / (tn + fn)
    return {"precision": ppv, "recall": tp / (tp + fn), "accuracy": tp + tn,
            "f1": 2 * tp / (2 * tp + fp + fn), "f2": 5 * tp / (5 * tp + 4 * fn + fp),
            "informedness": tp / (tp + fn) - fp / (fp + tn), "markedness": ppv + npv - 1}


def _binary_statistic(name):
    def statistic(t):
        tp, fp, fn, tn = (t[..., i].astype(float) for i in range(4))
        with np.errstate(invalid="ignore", divide="ignore"):
            return _binary_truth((tp, fp, fn, tn))[name]
    return statistic


def binary_cells(quick):
    ns = (100,) if quick else (30, 100, 1000, 10_000)
    prevalences = (0.3,) if quick else (0.5, 0.3, 0.1, 0.01)
    qualities = ("near-perfect",) if quick else tuple(QUALITIES)
    return [("binary", n, prevalence, quality)
            for quality in qualities for prevalence in prevalences for n in ns]


def run_binary(cell, reps, n_resamples):
    _, n, prevalence, quality = cell
    tpr, fpr = QUALITIES[quality]
    p = np.array([prevalence * tpr, (1 - prevalence) * fpr, prevalence * (1 - tpr),
                  (1 - prevalence) * (1 - fpr)])
    truth = _binary_truth(p)
    rng = _seed("binary", n, round(prevalence * 1000), quality)
    table = rng.multinomial(n, p, size=reps)
    counts = ConfusionCounts(tp=table[:, 0], fp=table[:, 1], fn=table[:, 2], tn=table[:, 3])
    name = f"n={n} prevalence={prevalence:g} {quality}"
    rows = []
    for metric in BINARY_METRICS:
        posterior = metric_posterior(counts, metric="fbeta" if metric == "f2" else metric,
                                     beta=2.0 if metric == "f2" else 1.0)
        rows.append(_coverage_row("binary", name, metric, LIBRARY, "library", truth[metric],
                                  _posterior_intervals(posterior)))
        rows.append(_coverage_row("binary", name, metric, HDI, "candidate", truth[metric],
                                  _hdi_intervals(posterior)))
        if metric == "accuracy":
            # The Dirichlet marginal of the four cells: Beta(right + 2λ, wrong + 2λ).
            pooled = BetaPosterior(table[:, 0] + table[:, 3] + 2 * DEFAULT_PRIOR,
                                   table[:, 1] + table[:, 2] + 2 * DEFAULT_PRIOR)
            rows.append(_coverage_row("binary", name, metric, POOLED_PRIOR, "candidate",
                                      truth[metric], _posterior_intervals(pooled)))
        if metric in PROPORTIONS:
            k, m = _proportion_counts(table, metric)
            for method, function in (("Wilson", ref.wilson_interval),
                                     ("Jeffreys", ref.jeffreys_interval)):
                intervals = {level: function(k, m, level) for level in LEVELS}
                rows.append(_coverage_row("binary", name, metric, method, "reference",
                                          truth[metric], intervals))
        else:
            for method in ("percentile", "bca"):
                intervals = {level: ref.count_bootstrap(
                    table, _binary_statistic(metric), confidence=level,
                    n_resamples=n_resamples, rng=_seed("boot", metric, method, n),
                    method=method) for level in LEVELS}
                label = "bootstrap" if method == "percentile" else "bootstrap BCa"
                rows.append(_coverage_row("binary", name, metric, label, "reference",
                                          truth[metric], intervals))
    return rows


def _proportion_counts(table, metric):
    tp, fp, fn, tn = table.T
    if metric == "precision":
        return tp, tp + fp
    if metric == "recall":
        return tp, tp + fn
    return tp + tn, tp + fp + fn + tn


# ---------------------------------------------------------------------------
# Multiclass tables
# ---------------------------------------------------------------------------


def _table_priors(k):
    """Candidate K x K priors, library default first: name -> (concentration matrix, the
    extra Gamma mass a label's F-score adds to its TP)."""
    off = ~np.eye(k, dtype=bool)

    def spread(diagonal, rest):
        return np.where(off, rest, diagonal)

    return {
        LIBRARY: (joint_prior(k, DEFAULT_PRIOR), f_score_extra(k, DEFAULT_PRIOR)),
        FORMER_TABLE: (joint_prior(k, DEFAULT_PRIOR), 0.0),
        "1/2 per label (mass K)": (spread(0.5, 0.5 / (k - 1)), 0.0),
        "mass 2 (1/K per label)": (spread(1 / k, 1 / (k * (k - 1))), 0.0),
        "mass 1 (1/2K per label)": (spread(1 / (2 * k), 1 / (2 * k * (k - 1))), 0.0),
        "Perks (1/K^2 per cell)": (np.full((k, k), 1 / k ** 2), 0.0),
    }


def _f1_from_tables(t):
    """Per-label F1 of tables (..., K, K) (rows true, columns predicted), 0/0 -> 0."""
    tp = np.diagonal(t, axis1=-2, axis2=-1)
    denominator = t.sum(axis=-1) + t.sum(axis=-2)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(denominator > 0, 2 * tp / np.where(denominator > 0, denominator, 1), 0.0)


def multiclass_cells(quick):
    if quick:
        return [("multiclass", 10, 10, 0.97, "balanced")]
    return [("multiclass", k, per_class, accuracy, balance)
            for balance in ("balanced", "imbalanced") for k in (3, 10, 30)
            for per_class in (10, 100) for accuracy in (0.7, 0.9, 0.97)]


def run_multiclass(cell, reps, n_draws):
    _, k, per_class, accuracy, balance = cell
    n = k * per_class
    share = np.full(k, 1 / k) if balance == "balanced" else 10.0 ** -np.linspace(0, 1, k)
    share = share / share.sum()
    conditional = np.full((k, k), (1 - accuracy) / (k - 1))
    np.fill_diagonal(conditional, accuracy)
    p = share[:, None] * conditional
    f1_true = _f1_from_tables(p)
    truth = {"micro F1": accuracy, "macro F1": f1_true.mean(),
             "weighted F1": float(share @ f1_true), "per-label F1": f1_true}
    rng = _seed("multiclass", k, per_class, round(accuracy * 100), balance)
    tables = rng.multinomial(n, p.ravel(), size=reps).reshape(reps, k, k)
    name = f"K={k} n={n} accuracy={accuracy:g} {balance}"
    rows = []
    for prior_name, (alpha, extra) in _table_priors(k).items():
        kind = "library" if prior_name == LIBRARY else "candidate"
        draws = _joint_draws(tables, alpha, n_draws, rng, extra)
        right = np.trace(tables, axis1=1, axis2=2)
        marginal = (right + np.trace(alpha), n - right + alpha.sum() - np.trace(alpha))
        if prior_name == LIBRARY:
            # The library's share of items right takes λ a side, not its table's
            # marginal (2λ a side), which is measured beside it.
            rows.append(_coverage_row("multiclass", name, "micro F1", POOLED_PRIOR,
                                      "candidate", truth["micro F1"],
                                      _beta_intervals(*marginal)))
            marginal = (right + DEFAULT_PRIOR, n - right + DEFAULT_PRIOR)
        rows.append(_coverage_row("multiclass", name, "micro F1", prior_name, kind,
                                  truth["micro F1"], _beta_intervals(*marginal)))
        for quantity in ("macro F1", "weighted F1"):
            rows.append(_coverage_row("multiclass", name, quantity, prior_name, kind,
                                      truth[quantity], _quantile_intervals(draws[quantity],
                                                                           axis=1)))
        if prior_name == LIBRARY:
            micro_posterior = BetaPosterior(*marginal)
            rows.append(_coverage_row("multiclass", name, "micro F1", HDI, "candidate",
                                      truth["micro F1"], _hdi_intervals(micro_posterior)))
            for quantity in ("macro F1", "weighted F1"):
                rows.append(_coverage_row("multiclass", name, quantity, HDI, "candidate",
                                          truth[quantity],
                                          _sampled_hdi_intervals(draws[quantity])))
        # Per-label F1 implied by this table's prior: each label's (TP, FP, FN)
        # groups collect the prior mass of their cells.
        diagonal = np.diagonal(alpha)
        tp = np.diagonal(tables, axis1=1, axis2=2)
        per_label = FBetaPosterior(
            (tp + diagonal + extra).ravel(),
            (tables.sum(axis=1) - tp + alpha.sum(0) - diagonal).ravel(),
            (tables.sum(axis=2) - tp + alpha.sum(1) - diagonal).ravel())
        rows.append(_coverage_row("multiclass", name, "per-label F1",
                                  f"{prior_name} (table marginal)", "candidate", f1_true,
                                  _posterior_intervals(per_label, (reps, k))))
    # The library's per-label rows (average=None): one-vs-rest tables.
    tp = np.diagonal(tables, axis1=1, axis2=2)
    counts = ConfusionCounts(tp=tp.ravel(), fp=(tables.sum(axis=1) - tp).ravel(),
                             fn=(tables.sum(axis=2) - tp).ravel(),
                             tn=(n - tables.sum(axis=1) - tables.sum(axis=2) + tp).ravel())
    rows.append(_coverage_row("multiclass", name, "per-label F1", f"{LIBRARY} average=None",
                              "library", f1_true,
                              _posterior_intervals(metric_posterior(counts, metric="f1"),
                                                   (reps, k))))
    rows.extend(_multiclass_bootstrap(tables, truth, name, n_draws, rng))
    return rows


def _joint_draws(tables, alpha, n_draws, rng, extra=0.0):
    """Macro and weighted F1 draws ``(reps, n_draws)`` of the K x K Dirichlet posterior,
    each label's TP with a Gamma(`extra`) mass more (the F-score's own prior on TP)."""
    reps, k, _ = tables.shape
    macro, weighted = np.empty((reps, n_draws)), np.empty((reps, n_draws))
    for r in range(reps):
        shape = (tables[r] + alpha).ravel()
        gammas = rng.standard_gamma(shape, size=(n_draws, shape.size)).reshape(n_draws, k, k)
        if extra:
            # Unnormalised cells: the extra mass is a diagonal cell of F's own.
            gammas[:, np.arange(k), np.arange(k)] += rng.standard_gamma(extra, (n_draws, k))
        f1 = _f1_from_tables(gammas)
        support = tables[r].sum(axis=1)
        macro[r] = f1.mean(axis=1)
        weighted[r] = f1 @ (support / support.sum())
    return {"macro F1": macro, "weighted F1": weighted}


def _multiclass_bootstrap(tables, truth, name, n_resamples, rng):
    reps, k, _ = tables.shape
    n = tables[0].sum()
    stats_ = {q: np.empty((reps, n_resamples)) for q in ("micro F1", "macro F1", "weighted F1")}
    per_label = np.empty((reps, n_resamples, k))
    for r in range(reps):
        resampled = rng.multinomial(n, tables[r].ravel() / n, size=n_resamples).reshape(-1, k, k)
        f1 = _f1_from_tables(resampled)
        support = resampled.sum(axis=2)
        stats_["micro F1"][r] = np.trace(resampled, axis1=1, axis2=2) / n
        stats_["macro F1"][r] = f1.mean(axis=1)
        stats_["weighted F1"][r] = np.sum(f1 * support, axis=1) / n
        per_label[r] = f1
    rows = [_coverage_row("multiclass", name, q, "bootstrap", "reference", truth[q],
                          _quantile_intervals(v, axis=1)) for q, v in stats_.items()]
    rows.append(_coverage_row("multiclass", name, "per-label F1", "bootstrap", "reference",
                              truth["per-label F1"], _quantile_intervals(per_label, axis=1)))
    return rows


# ---------------------------------------------------------------------------
# Rankings: average precision, ROC AUC and curve bands
# ---------------------------------------------------------------------------

RANKING_LAMBDAS = (0.5, 0.1, 0.05, 0.01)
# Average precision's default boundary mass falls with the number of positives P beyond 30
# (`ap_boundary_mass`: 0.1, then 3 / P); rules falling more slowly, measured beside it.
AP_MASS_RULES = {
    "boundary mass 0.1 to 100 positives, 1 / sqrt(P) above":
        lambda p: min(0.1, 1 / math.sqrt(p)),
    "boundary mass 0.1 to 30 positives, 0.1 sqrt(30 / P) above":
        lambda p: 0.1 * min(1.0, math.sqrt(30 / p)),
}
RECALLS = (0.2, 0.5, 0.8)


def _binormal_truth(separation, prevalence):
    """Population AUC, AP, and the curves as functions, for N(0,1) negatives and
    N(separation, 1) positives."""
    auc = stats.norm.cdf(separation / math.sqrt(2))
    # AP = integral over recall of precision; recall r at threshold t = sf(t - separation).
    t = np.linspace(separation - 12, separation + 12, 200_001)
    recall = stats.norm.sf(t - separation)
    fpr = stats.norm.sf(t)
    with np.errstate(invalid="ignore", divide="ignore"):
        precision = prevalence * recall / (prevalence * recall + (1 - prevalence) * fpr)
    precision = np.where(np.isfinite(precision), precision, 1.0)
    d_recall = -np.diff(recall)
    ap = float(np.sum(d_recall * 0.5 * (precision[1:] + precision[:-1])))

    def precision_at_recall(r):
        threshold = separation - stats.norm.ppf(r)
        tpr_, fpr_ = np.asarray(r, dtype=float), stats.norm.sf(threshold)
        return prevalence * tpr_ / (prevalence * tpr_ + (1 - prevalence) * fpr_)

    def tpr_at_fpr(f):
        return stats.norm.cdf(separation + stats.norm.ppf(f))

    return auc, ap, precision_at_recall, tpr_at_fpr


def _with_pseudo_cells(pseudo, g_pos, g_neg):
    """Drawn positive and negative weights by level with the pseudo-cells ``pseudo``
    (pos above, neg above, pos below, neg below) at the ends, and their cumulative sums."""
    gp = np.concatenate([pseudo[0], g_pos, pseudo[2]], axis=1)
    gn = np.concatenate([pseudo[1], g_neg, pseudo[3]], axis=1)
    return gp, gn, np.cumsum(gp, axis=1), np.cumsum(gn, axis=1)


def ranking_cells(quick):
    """Binormal cells ``("ranking", n, prevalence, separation)``, then the cells of
    hidden positives ``("ranking", n, positives, hidden share, separation)``."""
    if quick:
        return [("ranking", 300, 0.3, 4.0)] + _mixture.mixture_cells(quick)
    return [("ranking", n, prevalence, separation)
            for prevalence in (0.3, 0.02) for separation in (0.5, 1.0, 2.0, 4.0)
            for n in (100, 300, 1000, 10_000)] + _mixture.mixture_cells(quick)


def run_ranking_cell(cell, reps, n_draws):
    if len(cell) == 5:
        return _mixture.run_mixture(cell, reps, n_draws, coverage_row=_coverage_row,
                                    seed=_seed, levels=LEVELS, library=LIBRARY,
                                    library_mass=auc_boundary_mass,
                                    former_mass=RANKING_PRIOR)
    return run_ranking(cell, reps, n_draws)


def run_ranking(cell, reps, n_draws):
    _, n, prevalence, separation = cell
    # Simultaneous bands read every draw of the curve: at n = 10 000 they draw 2 000
    # runs of consecutive score levels (`max_cells`, exact at the runs' ends, a recall
    # resolution of 1/2 000 against the grid's 1/100) so as to afford the draws the
    # other cells have.  With few draws the envelope, fitted to the same draws, holds
    # far fewer new ones (at n = 300, 250 draws: 0.83 of a fresh 20 000; 1000: 0.94).
    band_draws, max_cells = n_draws, 2_000 if n >= 10_000 else 20_000
    if n >= 10_000:
        # Posterior and bootstrap draws are (draws x items) arrays: fewer of them at
        # n = 10 000 keep the cell's run time near the others'.
        n_draws = min(n_draws, 250)
    auc_true, ap_true, precision_at, tpr_at = _binormal_truth(separation, prevalence)
    n_pos = max(2, round(n * prevalence))
    relevant = np.r_[np.ones(n_pos, dtype=bool), np.zeros(n - n_pos, dtype=bool)]
    rng = _seed("ranking", n, round(prevalence * 100), round(separation * 10))
    thresholds = separation - stats.norm.ppf(RECALLS)
    pr_grid, roc_grid = np.linspace(0.01, 0.99, 99), np.linspace(0.0, 1.0, 101)
    lambdas = tuple(dict.fromkeys((RANKING_PRIOR,) + RANKING_LAMBDAS))
    ap = {lam: np.empty((reps, n_draws)) for lam in lambdas}
    auc = {lam: np.empty((reps, n_draws)) for lam in lambdas}
    boot_ap, boot_auc = np.empty((reps, n_draws)), np.empty((reps, n_draws))
    ap_step = np.empty((reps, n_draws))
    library_mass = ap_boundary_mass(n_pos)
    rule_masses = {label: rule(n_pos) for label, rule in AP_MASS_RULES.items()}
    ap_masses = tuple(dict.fromkeys(m for m in (library_mass, *rule_masses.values())
                                    if m not in lambdas))
    ap_rule = {lam: np.empty((reps, n_draws)) for lam in ap_masses}
    ap_rule.update({lam: ap[lam] for lam in lambdas})
    # ROC AUC's default mass (`auc_boundary_mass`: 0.3 up to 30 positives, 9 / P to 90,
    # then 0.1), drawn apart where it is not among the fixed masses.
    auc_library_mass = auc_boundary_mass(n_pos)
    auc_masses = tuple(m for m in (auc_library_mass,) if m not in lambdas)
    auc_rule = {lam: np.empty((reps, n_draws)) for lam in auc_masses}
    auc_rule.update({lam: auc[lam] for lam in lambdas})
    delong = {level: (np.empty(reps), np.empty(reps)) for level in LEVELS}
    point_lam = tuple(dict.fromkeys((CURVE_PRIOR, 0.5, 0.1)))
    point = {(what, lam): np.empty((reps, len(RECALLS), 2, len(LEVELS)))
             for what in ("precision", "tpr") for lam in point_lam + (HDI, EQUAL_TAILED)}
    band = {"precision_recall": np.empty(reps, dtype=bool), "roc": np.empty(reps, dtype=bool)}
    band_width = {"precision_recall": np.empty(reps), "roc": np.empty(reps)}
    band_two_sided = {"precision_recall": np.empty(reps, dtype=bool),
                      "roc": np.empty(reps, dtype=bool)}
    band_two_sided_width = {"precision_recall": np.empty(reps), "roc": np.empty(reps)}
    for r in range(reps):
        score = rng.normal(size=n) + separation * relevant
        cells = CurveCells.from_items(relevant, score, np.ones(n))
        g_pos = rng.standard_gamma(cells.positive, size=(n_draws, cells.positive.size))
        g_neg = rng.standard_gamma(cells.negative, size=(n_draws, cells.negative.size))
        for lam in lambdas:
            gp, gn, tp, fp = _with_pseudo_cells(rng.standard_gamma(lam, size=(4, n_draws, 1)),
                                                g_pos, g_neg)
            own = ranking_own_shares(cells.positive, lam)
            ap[lam][r] = ap_from_cumulative(tp, fp, tp[:, -1:], own)
            if lam == RANKING_PRIOR:
                ap_step[r] = ap_from_cumulative(tp, fp, tp[:, -1:])
            auc[lam][r] = auc_from_shares(gp, gn, tp[:, -1:], fp[:, -1:])
        # Average precision under the masses that depend on the positives (the library's
        # and the candidate rules), from the same item weights and their own stream of
        # pseudo-cells, so that the rows above do not move.
        own_stream = np.random.default_rng([r, n, round(prevalence * 100),
                                            round(separation * 10), 26])
        for lam in ap_masses:
            _, _, tp, fp = _with_pseudo_cells(
                own_stream.standard_gamma(lam, size=(4, n_draws, 1)), g_pos, g_neg)
            ap_rule[lam][r] = ap_from_cumulative(tp, fp, tp[:, -1:],
                                                 ranking_own_shares(cells.positive, lam))
        # ROC AUC under its default mass where it is not among the fixed ones (a stream of
        # its own again).
        auc_stream = np.random.default_rng([r, n, round(prevalence * 100),
                                            round(separation * 10), 27])
        for lam in auc_masses:
            gp, gn, tp, fp = _with_pseudo_cells(
                auc_stream.standard_gamma(lam, size=(4, n_draws, 1)), g_pos, g_neg)
            auc_rule[lam][r] = auc_from_shares(gp, gn, tp[:, -1:], fp[:, -1:])
        # Item bootstrap: resampled multiplicities of the (untied) items.
        picks = rng.integers(0, n, size=(n_draws, n))
        weights = np.bincount((picks + n * np.arange(n_draws)[:, None]).ravel(),
                              minlength=n * n_draws).reshape(n_draws, n).astype(float)
        boot_ap[r] = ref.weighted_average_precision(relevant, score, weights)
        boot_auc[r] = ref.weighted_auc(relevant, score, weights)
        for level in LEVELS:
            _, low, high, _ = ref.delong_interval(relevant, score, level)
            delong[level][0][r], delong[level][1][r] = low, high
        # Pointwise bands at fixed thresholds: the table of items scored >= t.
        above = score[None, :] >= thresholds[:, None]
        tp_t = (above & relevant).sum(axis=1)
        fp_t = (above & ~relevant).sum(axis=1)
        fn_t, tn_t = n_pos - tp_t, (n - n_pos) - fp_t
        for lam in point_lam:
            for i, level in enumerate(LEVELS):
                tail = (1 - level) / 2
                for what, (a, b) in (("precision", (tp_t, fp_t)), ("tpr", (tp_t, fn_t))):
                    point[(what, lam)][r, :, 0, i] = special.betaincinv(a + lam, b + lam, tail)
                    point[(what, lam)][r, :, 1, i] = special.betaincinv(a + lam, b + lam,
                                                                        1 - tail)
                    if lam == CURVE_PRIOR:
                        # The equal-tailed interval as such (the former rule), and
                        # the highest-density interval, as candidates; the
                        # library's band reaches the end of [0, 1] where one
                        # count is zero.
                        point[(what, EQUAL_TAILED)][r, :, :, i] = point[(what, lam)][r, :, :, i]
                        point[(what, lam)][r, (b == 0) & (a > 0), 1, i] = 1.0
                        point[(what, lam)][r, (a == 0) & (b > 0), 0, i] = 0.0
                        # No item at or above the threshold: the library's curve has
                        # no point there (its first is the top-scored item), so its
                        # band makes no claim: the whole range.
                        point[(what, lam)][r, (a == 0) & (b == 0), 0, i] = 0.0
                        point[(what, lam)][r, (a == 0) & (b == 0), 1, i] = 1.0
                        low, high = BetaPosterior(a + lam, b + lam).hdi(level)
                        point[(what, HDI)][r, :, 0, i] = low
                        point[(what, HDI)][r, :, 1, i] = high
        del tn_t
        # Simultaneous bands of the library's curves.
        for kind, build, grid, truth in (
                ("precision_recall", posterior_precision_recall_curve, pr_grid,
                 precision_at(pr_grid)),
                ("roc", posterior_roc_curve, roc_grid, tpr_at(roc_grid))):
            curve = build(relevant, score)
            seed = int(rng.integers(2 ** 63))
            b = curve.band(0.95, kind="simultaneous", n_draws=band_draws, grid=grid,
                           max_cells=max_cells, random_state=seed)
            band[kind][r] = bool(np.all((b.low <= truth + TOLERANCE)
                                        & (truth - TOLERANCE <= b.high)))
            band_width[kind][r] = float(np.mean(b.high - b.low))
            # The former rule, from the same draws: two-sided in every column.
            low, high = _simultaneous_envelope(
                curve.sample_curves(band_draws, grid=grid, max_cells=max_cells,
                                    random_state=seed), 0.95)
            band_two_sided[kind][r] = bool(np.all((low <= truth + TOLERANCE)
                                                  & (truth - TOLERANCE <= high)))
            band_two_sided_width[kind][r] = float(np.mean(high - low))
    name = f"n={n} prevalence={prevalence:g} separation={separation:g}"
    rows = []
    rows.append(_coverage_row("ranking", name, "average precision", LIBRARY, "library",
                              ap_true, _quantile_intervals(ap_rule[library_mass], axis=1)))
    for lam in lambdas:
        label = f"boundary mass {lam:g}"
        rows.append(_coverage_row("ranking", name, "average precision",
                                  label + " (former default)" if lam == RANKING_PRIOR else label,
                                  "candidate", ap_true, _quantile_intervals(ap[lam], axis=1)))
        rows.append(_coverage_row("ranking", name, "ROC AUC",
                                  label + " (former default)" if lam == RANKING_PRIOR else label,
                                  "candidate", auc_true, _quantile_intervals(auc[lam], axis=1)))
    rows.append(_coverage_row("ranking", name, "ROC AUC", LIBRARY, "library", auc_true,
                              _quantile_intervals(auc_rule[auc_library_mass], axis=1)))
    for label, lam in rule_masses.items():
        rows.append(_coverage_row("ranking", name, "average precision", label, "candidate",
                                  ap_true, _quantile_intervals(ap_rule[lam], axis=1)))
    rows.append(_coverage_row("ranking", name, "average precision", STEP_AP, "candidate",
                              ap_true, _quantile_intervals(ap_step, axis=1)))
    rows.append(_coverage_row("ranking", name, "average precision", "bootstrap", "reference",
                              ap_true, _quantile_intervals(boot_ap, axis=1)))
    rows.append(_coverage_row("ranking", name, "ROC AUC", "bootstrap", "reference", auc_true,
                              _quantile_intervals(boot_auc, axis=1)))
    rows.append(_coverage_row("ranking", name, "ROC AUC", "DeLong", "reference", auc_true,
                              delong))
    fpr_true = stats.norm.sf(thresholds)
    truths = {"precision": prevalence * np.array(RECALLS)
              / (prevalence * np.array(RECALLS) + (1 - prevalence) * fpr_true),
              "tpr": np.array(RECALLS)}
    for (what, lam), values in point.items():
        if lam in (HDI, EQUAL_TAILED):
            label, kind = lam, "candidate"
        else:
            label = LIBRARY if lam == CURVE_PRIOR else f"prior {lam:g}"
            kind = "library" if lam == CURVE_PRIOR else "candidate"
        quantity = ("pointwise PR band (precision at recall 0.2, 0.5, 0.8)" if what == "precision"
                    else "pointwise ROC band (TPR at TPR 0.2, 0.5, 0.8)")
        intervals = {level: (values[..., 0, i], values[..., 1, i])
                     for i, level in enumerate(LEVELS)}
        rows.append(_coverage_row("ranking", name, quantity, label, kind, truths[what],
                                  intervals))
    for kind_, quantity in (("precision_recall", "simultaneous PR band"),
                            ("roc", "simultaneous ROC band")):
        for label, kind, covered, width in (
                (LIBRARY, "library", band[kind_], band_width[kind_]),
                (TWO_SIDED, "candidate", band_two_sided[kind_], band_two_sided_width[kind_])):
            rows.append({"section": "ranking", "cell": name, "quantity": quantity,
                         "method": label, "kind": kind, "coverage_95": float(covered.mean()),
                         "coverage_90": math.nan, "width_95": float(width.mean()),
                         "reps": reps, "se_95": math.sqrt(0.95 * 0.05 / reps)})
    return rows


# ---------------------------------------------------------------------------
# Comparisons: calibration under the null, power under a difference
# ---------------------------------------------------------------------------


def comparison_cells(quick):
    if quick:
        return [("comparisons", "paired", 1000, 0.0)]
    cells = []
    for n in (100, 1000, 10_000):
        cells.append(("comparisons", "paired", n, 0.0))
    cells.append(("comparisons", "paired", 1000, 0.05))
    for n in (200, 2000):
        cells.append(("comparisons", "independent", n, 0.0))
    cells.append(("comparisons", "independent", 2000, 0.03))
    for metric in ("roc_auc", "average_precision"):
        cells.append(("comparisons", f"compare_scores {metric}", 300, 0.0))
    cells.append(("comparisons", "compare_scores roc_auc", 300, 0.3))
    for k in (10, 30):
        cells.append(("comparisons", "correlated t-test", k, 0.0))
    cells.append(("comparisons", "correlated t-test", 10, 0.01))
    for m in (10, 30):
        cells.append(("comparisons", "signed-rank", m, 0.0))
    cells.append(("comparisons", "signed-rank", 30, 0.01))
    return cells


def _probability_row(name, setting, difference, probability, p_values=None, matched=None,
                     method=LIBRARY, kind="library"):
    probability = np.asarray(probability, dtype=float)
    row = {"section": "comparisons", "cell": f"{name} {setting} difference={difference:g}",
           "quantity": "null" if difference == 0 else "power", "method": method,
           "kind": kind, "reps": int(probability.size),
           "share_above_95": float(np.mean(probability > 0.95)),
           "share_below_05": float(np.mean(probability < 0.05)),
           "ks_uniform": float(stats.kstest(probability, "uniform").statistic),
           "nan_share": float(np.mean(~np.isfinite(probability)))}
    if p_values is not None:
        row["matched_test"] = matched
        row["matched_rejects"] = float(np.mean(np.asarray(p_values) < 0.05))
    return row


# A null cell's share of P > 0.95 is judged against [0.03, 0.07]: at 400 test sets its
# Monte Carlo error (0.011 at a true 0.05) is half the window's half-width, so a method
# at 0.06 would fail one run in six.  The null cells run five times the test sets
# (error 0.005); those of the tests that cost milliseconds a test set (all but
# `compare_scores`, which samples rankings) run 25 times (10 000 in the full run, error
# 0.0025), so that a method near the window's edge is judged by its rate rather than by
# the draw: the signed-rank test over 10 data sets, at about 0.065, fails a judgement of
# 2 000 test sets one run in five and one of 10 000 one run in fifty.  The power cells
# keep the section's count.
NULL_REPS_FACTOR = 5
CHEAP_NULL_REPS_FACTOR = 25


def run_comparison(cell, reps, n_draws):
    _, name, size, difference = cell
    if difference == 0:
        reps *= NULL_REPS_FACTOR if name.startswith("compare_scores") else \
            CHEAP_NULL_REPS_FACTOR
    rng = _seed("comparisons", name, size, round(difference * 1000))
    if name == "paired":
        accuracy_a, accuracy_b = 0.8 + difference, 0.8
        # Independent errors: P(only A right) and P(only B right).
        p = np.array([accuracy_a * (1 - accuracy_b), accuracy_b * (1 - accuracy_a)])
        p = np.r_[p, 1 - p.sum()]
        cells = rng.multinomial(size, p, size=reps)
        result = PairedComparison.from_counts(PairedCounts(cells[:, 0], cells[:, 1], cells[:, 2]))
        return [_probability_row(name, f"n={size} accuracy 0.8", difference,
                                 result.prob_first_better,
                                 ref.mcnemar_one_sided(cells[:, 0], cells[:, 1]),
                                 "McNemar (exact, one-sided)")]
    if name == "independent":
        p_a, p_b = 0.8 + difference, 0.8
        right_a, right_b = rng.binomial(size, p_a, reps), rng.binomial(size, p_b, reps)
        counts_a = ConfusionCounts(tp=right_a, fp=size - right_a, fn=0, tn=0)
        counts_b = ConfusionCounts(tp=right_b, fp=size - right_b, fn=0, tn=0)
        result = compare_independent(counts_a, counts_b, metric="precision")
        pooled = (right_a + right_b) / (2 * size)
        with np.errstate(invalid="ignore", divide="ignore"):
            z = (right_a - right_b) / size / np.sqrt(2 * pooled * (1 - pooled) / size)
        p_values = np.where(np.isfinite(z), stats.norm.sf(z), 1.0)
        return [_probability_row(name, f"n={size} per system, accuracy 0.8", difference,
                                 result.prob_first_better, p_values,
                                 "two-proportion z-test (one-sided)")]
    if name.startswith("compare_scores"):
        metric = name.split()[1]
        relevant = np.r_[np.ones(round(0.3 * size), dtype=bool),
                         np.zeros(size - round(0.3 * size), dtype=bool)]
        probability, p_values = np.empty(reps), np.empty(reps)
        for r in range(reps):
            a = rng.normal(size=size) + (1.0 + difference) * relevant
            b = rng.normal(size=size) + 1.0 * relevant
            result = compare_scores(relevant, a, b, metric=metric, n_draws=n_draws,
                                    random_state=rng)
            probability[r] = result.prob_first_better
            p_values[r] = ref.delong_paired_test(relevant, a, b) if metric == "roc_auc" else \
                np.nan
        matched = "DeLong paired (one-sided)" if metric == "roc_auc" else None
        return [_probability_row(name, f"n={size} prevalence 0.3 separation 1", difference,
                                 probability, p_values if matched else None, matched)]
    if name == "correlated t-test":
        k, rho, sigma = size, 1 / size, 0.02
        common = rng.normal(size=(reps, 1))
        own = rng.normal(size=(reps, k))
        differences = difference + sigma * (math.sqrt(rho) * common + math.sqrt(1 - rho) * own)
        probability = np.array([correlated_ttest(d, np.zeros(k), test_fraction=rho)
                                .prob_first_better for d in differences])
        return [_probability_row(name, f"{k} folds, test fraction 1/{k}", difference,
                                 probability,
                                 ref.corrected_ttest_one_sided(differences, rho / (1 - rho)),
                                 "corrected resampled t-test (one-sided)")]
    if name == "signed-rank":
        differences = difference + 0.02 * rng.standard_t(5, size=(reps, size))
        probability = np.array([bayesian_signed_rank_test(d, np.zeros(size), n_draws=n_draws * 5,
                                                 random_state=rng).prob_first_better
                                for d in differences])
        rows = [_probability_row(name, f"{size} data sets", difference, probability,
                                 ref.wilcoxon_one_sided(differences),
                                 "Wilcoxon signed-rank (one-sided)")]
        if difference == 0:
            # Stronger prior pseudo-observations at zero, on the same data sets (their own
            # random stream: the row above does not move).
            own = np.random.default_rng([size, 26])
            for strength in (1.0, 2.0):
                candidate = np.array([bayesian_signed_rank_test(
                    d, np.zeros(size), prior_strength=strength, n_draws=n_draws * 5,
                    random_state=own).prob_first_better for d in differences])
                rows.append(_probability_row(name, f"{size} data sets", difference, candidate,
                                             method=f"prior strength {strength:g}",
                                             kind="candidate"))
            reference = ref.baycomp_signed_rank(differences, n_draws * 5)
            if reference is not None:
                rows.append(_probability_row(name, f"{size} data sets", difference, reference,
                                             method="baycomp SignedRankTest",
                                             kind="reference"))
        return rows
    raise ValueError(f"unknown comparison cell {cell!r}")


# ---------------------------------------------------------------------------
# The grid, the verdicts and the report
# ---------------------------------------------------------------------------

def run_groups(cell, reps, n_draws):
    return _groups.run_groups(cell, reps, n_draws, coverage_row=_coverage_row, seed=_seed,
                              levels=LEVELS, library=LIBRARY)


def run_clusters(cell, reps, n_draws):
    return _clusters.run_clusters(cell, reps, n_draws, seed=_seed, coverage_row=_coverage_row,
                                  levels=LEVELS, library=LIBRARY)


def run_calibration(cell, reps, n_draws):
    return _calibration.run_calibration(cell, reps, n_draws, coverage_row=_coverage_row,
                                        seed=_seed, levels=LEVELS, library=LIBRARY)


def run_systems(cell, reps, n_draws):
    return _systems.run_systems(cell, reps, n_draws, seed=_seed, library=LIBRARY)


def run_runs(cell, reps, n_draws):
    return _runs.run_runs(cell, reps, n_draws, seed=_seed, coverage_row=_coverage_row,
                          levels=LEVELS, library=LIBRARY)


def run_stopping(cell, reps, n_draws):
    return _stopping.run_stopping(cell, reps, n_draws, seed=_seed, library=LIBRARY)


def run_proxy(cell, reps, n_draws):
    return _proxy.run_proxy(cell, reps, n_draws, seed=_seed, coverage_row=_coverage_row,
                            levels=LEVELS, library=LIBRARY)


def run_thresholds(cell, reps, n_draws):
    return _thresholds.run_thresholds(cell, reps, n_draws, seed=_seed, levels=LEVELS,
                                      library=LIBRARY)


SECTIONS = {
    "binary": (binary_cells, run_binary),
    "multiclass": (multiclass_cells, run_multiclass),
    "ranking": (ranking_cells, run_ranking_cell),
    "comparisons": (comparison_cells, run_comparison),
    "groups": (_groups.group_cells, run_groups),
    "systems": (_systems.system_cells, run_systems),
    "calibration": (_calibration.calibration_cells, run_calibration),
    "thresholds": (_thresholds.threshold_cells, run_thresholds),
    "runs": (_runs.run_cells, run_runs),
    "stopping": (_stopping.stopping_cells, run_stopping),
    "clusters": (_clusters.cluster_cells, run_clusters),
    "proxy": (_proxy.proxy_cells, run_proxy),
}
# Sections whose rows are not intervals (no coverage, width or bootstrap columns).
NOT_INTERVALS = ("comparisons", "systems", "stopping")


def _run_cell(args):
    section, cell, reps, n_draws = args
    return SECTIONS[section][1](cell, reps, n_draws)


# Sections whose verdicts need more test sets than the others (full runs only): a P(best)
# bin is judged once it holds 50 (system, test set) pairs, and at 400 test sets a cell's
# upper bins hold a few dozen, so that a miscalibrated bin could escape judgement by a
# pair (the systems section ran 49 in one bin 0.23 off).  At 2 000 that bin holds 240.
# The systems section's population cells run twice that again (`_systems.reps_factor`).
SECTION_REPS_FACTOR = {"systems": 5}


def _cell_reps(section, cell, reps, quick):
    """Test sets of one cell: the section's multiple of `reps` in full runs."""
    if quick:
        return reps
    factor = SECTION_REPS_FACTOR.get(section, 1)
    if section == "systems":
        factor *= _systems.reps_factor(cell)
    return reps * factor


def collect(sections=None, *, quick=False, reps=None, n_draws=None, n_jobs=1, only=None):
    """Run the chosen sections (their cells whose description matches the regular
    expression `only`, when given); return every row (dicts)."""
    sections = list(SECTIONS) if sections is None else list(sections)
    reps = reps or (40 if quick else 400)
    n_draws = n_draws or (200 if quick else 1000)
    tasks = [(section, cell, _cell_reps(section, cell, reps, quick), n_draws)
             for section in sections for cell in SECTIONS[section][0](quick)
             if only is None or re.search(only, " ".join(map(str, cell)))]
    # The costliest cells first, so that two workers finish together.
    tasks.sort(key=lambda t: -(t[1][1] if t[0] in ("ranking", "multiclass", "thresholds")
                               else 0))
    rows = []
    if n_jobs == 1:
        for task in tasks:
            rows.extend(_run_cell(task))
    else:
        with concurrent.futures.ProcessPoolExecutor(n_jobs) as pool:
            for result in pool.map(_run_cell, tasks):
                rows.extend(result)
    return rows


def verdicts(rows):
    """Check the rows against the coverage promise; return (checked, failures)."""
    groups = {}
    for row in rows:
        groups.setdefault((row["section"], row["cell"], row["quantity"]), []).append(row)
    checked, failures = 0, []
    for (section, cell, quantity), group in groups.items():
        library = [r for r in group if r["kind"] == "library"]
        references = [r for r in group if r["kind"] == "reference"]
        if section in ("systems", "stopping", "clusters", "proxy"):
            continue            # judged below (P(best) pooled; stopping: its targets)
        for lib in library:
            checked += 1
            if section == "comparisons":
                # The runs' nulls may be below 0.03 where the spread's prior keeps their
                # coverage: conservative, never liberal.
                low = 0.0 if str(cell).startswith("runs ") else 0.03
                if lib["quantity"] == "null" and not low <= lib["share_above_95"] <= 0.07:
                    failures.append(f"{cell}: share of P > 0.95 = {lib['share_above_95']:.3f}"
                                    f" outside [{low:g}, 0.07]")
                continue
            coverage = lib["coverage_95"]
            best = max((r["coverage_95"] for r in references), default=math.nan)
            if coverage < 0.92 - 0.02:
                if not (best < 0.90 and coverage >= best - 0.02):
                    versus = (f"best reference {best:.3f}" if references else
                              "no reference in this cell")
                    failures.append(f"{cell} {quantity} [{lib['method']}]: coverage "
                                    f"{coverage:.3f} ({versus})")
            for r in references:
                limit = 1.1 if r["method"] == "Wilson" else 1.25 if \
                    r["method"] == "bootstrap" else None
                if r["method"] == _runs.POOLED:
                    # Information only: at spread 0 no interval that covers 0.92 at spread
                    # 0.01 is within 1.2 times the pooled counts' width at three runs
                    # (benchmarks/runs_width_bound.py), and pooled counts promise nothing
                    # once the runs differ.
                    limit = None
                if limit and coverage >= 0.93 and r["coverage_95"] >= 0.93 and \
                        lib["width_95"] > limit * r["width_95"]:
                    failures.append(f"{cell} {quantity} [{lib['method']}]: width "
                                    f"{lib['width_95']:.4f} > {limit} x {r['method']} "
                                    f"{r['width_95']:.4f}")
    # Optional stopping: the calibrated target of each batch size keeps wrong stops at 5%.
    for batch, target in sorted(_stopping_targets().items()):
        found = [r for r in rows if r["section"] == "stopping" and r.get("batch") == batch
                 and r["target"] == target]
        for row in found:
            checked += 1
            if row["wrong_share"] > 0.05 + 2 * row["se"]:
                failures.append(f"stopping {row['cell']}: target {target:g} stops wrongly "
                                f"in {row['wrong_share']:.3f} > 0.05")
    # Clusters: the floors of 20 clusters and of 10, the width where nothing is clustered.
    extra_checked, extra = _clusters.verdict_rows([r for r in rows
                                                   if r["section"] == "clusters"])
    checked += extra_checked
    failures += extra
    # Proxy: coverage in every cell, the paired nulls, the width against the labelled
    # items alone and against prediction-powered inference.
    extra_checked, extra = _proxy.verdict_rows([r for r in rows if r["section"] == "proxy"])
    checked += extra_checked
    failures += extra
    # P(best) is judged over the spreads a population draws, its cells' pairs pooled per
    # bin; the fixed-spread cells are information (`print_report` says how far off).
    for pooled in _systems.pooled_rows(rows):
        if pooled["kind"] == "library":
            checked += 1
            failure = _systems.verdict(pooled)
            if failure:
                failures.append(failure)
    return checked, failures


def _stopping_targets():
    from skprobeval._workflow._plan_more import _STOPPING_TARGETS

    return _STOPPING_TARGETS


def candidate_summary(rows):
    """Per (section, quantity) and method: cells, cells below 0.90, mean and worst
    coverage, and the median width relative to the bootstrap's in the same cell."""
    import pandas as pd

    frame = pd.DataFrame([r for r in rows if r["section"] not in NOT_INTERVALS
                          and "coverage_95" in r])
    if frame.empty:
        return frame
    boot = frame[frame["method"] == "bootstrap"].set_index(["section", "cell", "quantity"])
    keyed = frame.set_index(["section", "cell", "quantity"])
    frame["width_vs_bootstrap"] = (keyed["width_95"] / boot["width_95"].reindex(
        keyed.index)).to_numpy()
    return (frame.groupby(["section", "quantity", "method"], sort=False)
            .agg(cells=("coverage_95", "size"),
                 below_090=("coverage_95", lambda c: int(np.sum(c < 0.90))),
                 mean_coverage=("coverage_95", "mean"), worst=("coverage_95", "min"),
                 width_vs_bootstrap=("width_vs_bootstrap", "median")))


def print_report(rows, out=sys.stdout):
    """Print the grid, one line per (cell, quantity, method), then the verdicts."""
    order = {name: i for i, name in enumerate(SECTIONS)}
    rows = sorted(rows, key=lambda r: order[r["section"]])      # stable: cells keep their order
    section = None
    for row in rows:
        if row["section"] != section:
            section = row["section"]
            print(f"\n== {section} ==", file=out)
            if section == "systems":
                print(f"{'cell':<40} {'bin of P(best)':<24} {'method':<14} {'pairs':>6} "
                      f"{'predicted':>9} {'observed':>9}  judged", file=out)
            elif section == "comparisons":
                print(f"{'cell':<62} {'P>0.95':>7} {'P<0.05':>7} {'KS':>6}  matched test",
                      file=out)
            elif section == "stopping":
                print(f"{'cell':<40} {'target':<14} {'wrong better':>12} {'se':>6} "
                      f"{'mean stop':>9}", file=out)
            else:
                print(f"{'cell':<46} {'quantity':<54} {'method':<40} {'cov95':>6} "
                      f"{'cov90':>6} {'width95':>8}", file=out)
        if section == "systems":
            judged = "pooled" if _systems.judged(row) else "no (fixed spread)"
            print(f"{row['cell']:<40} {row['quantity']:<24} {row['method']:<14} "
                  f"{int(row['count']):>6d} {row['predicted']:>9.3f} {row['observed']:>9.3f}"
                  f"  {judged}", file=out)
        elif section == "stopping":
            print(f"{row['cell']:<40} {row['quantity']:<14} {row['wrong_share']:>12.4f} "
                  f"{row['se']:>6.4f} {row['mean_stop']:>9.0f}", file=out)
        elif str(row.get("quantity")).startswith("paired null"):
            label = f"{row['quantity']}: share of P > 0.95"
            print(f"{row['cell']:<46} {label:<54} "
                  f"{row['method']:<40} {row['share_above_95']:>6.3f}", file=out)
        elif section == "comparisons":
            matched = ""
            if row.get("matched_test"):
                matched = f"{row['matched_test']}: {row['matched_rejects']:.3f}"
            print(f"{row['cell']:<62} {row['share_above_95']:>7.3f} "
                  f"{row['share_below_05']:>7.3f} {row['ks_uniform']:>6.3f}  {matched}",
                  file=out)
        else:
            # The thresholds section adds the population recall kept (and the oracle's).
            recall = (f"  recall {row['recall_95']:.3f} (oracle {row['oracle_recall']:.3f})"
                      if "recall_95" in row else "")
            print(f"{row['cell']:<46} {row['quantity']:<54} {row['method']:<40} "
                  f"{row['coverage_95']:>6.3f} {row['coverage_90']:>6.3f} "
                  f"{row['width_95']:>8.4f}{recall}", file=out)
    if any(row["section"] == "systems" for row in rows):
        print_systems_summary(rows, out)
    summary = candidate_summary(rows)
    if not summary.empty:
        print("\n== methods over the grid (95% coverage; width / bootstrap width, median) ==",
              file=out)
        print(summary.round(3).to_string(), file=out)
    checked, failures = verdicts(rows)
    print(f"\nchecked {checked} library results; {len(failures)} outside the promise", file=out)
    reps = min((row["reps"] for row in rows), default=0)
    if reps < 400:
        print(f"  ({reps} test sets per cell: a smoke run; verdicts need the full 400)",
              file=out)
    for failure in failures:
        print(f"  FAIL {failure}", file=out)


def _systems_line(row, *labels):
    """One bin: its labels (in columns of 62 characters, or 38 and 50), pairs, predicted,
    observed, gap, and whether it keeps the promise (a fixed cell's bin is only said to
    be beyond it: it is not judged)."""
    beyond = "OUTSIDE" if _systems.judged(row) else "beyond (not judged)"
    least = _systems.min_pairs(row)
    mark = (f"(< {least} pairs)" if row["count"] < least else beyond
            if _systems.verdict(row) else "within")
    widths = (62,) if len(labels) == 1 else (38, 50)
    return (" ".join(f"{label:<{width}}" for label, width in zip(labels, widths)) +
            f" {row['quantity']:<24} {int(row['count']):>6d} {row['predicted']:>9.3f} "
            f"{row['observed']:>9.3f} {_systems.gap(row):>6.3f}  {mark}")


def print_systems_summary(rows, out=sys.stdout):
    """The systems section's verdict table (every method's bins, pairs pooled over the
    population cells), the fixed-spread cells' worst bins (information) and a summary
    per method."""
    rows = [row for row in rows if row["section"] == "systems"]
    pooled = _systems.pooled_rows(rows)
    columns = (f"{'bin of P(best)':<24} {'pairs':>6} {'predicted':>9} {'observed':>9} "
               f"{'gap':>6}  promise (0.05 + 2 se)")
    for population in dict.fromkeys(r["spread_population"] for r in pooled):
        part = [r for r in pooled if r["spread_population"] == population]
        print(f"\n== systems: P(best) judged, {part[0]['cell']}: pairs pooled per bin ==",
              file=out)
        print(f"{'method (kind)':<62} {columns}", file=out)
        for row in part:
            print(_systems_line(row, f"{row['method']} ({row['kind']})"), file=out)
    fixed = [row for row in rows if not _systems.judged(row)]
    if fixed:
        print("\n== systems: fixed-spread cells, not judged: each cell's worst bin of 50 "
              "pairs or more ==", file=out)
        print(f"{'cell':<38} {'method':<50} {columns}", file=out)
        worst = {}
        for row in fixed:
            if row["count"] >= 50:
                key = (row["cell"], row["method"])
                if key not in worst or _systems.gap(row) > _systems.gap(worst[key]):
                    worst[key] = row
        for library in (True, False):
            for (cell, method), row in worst.items():
                if (row["kind"] == "library") == library:
                    print(_systems_line(row, cell, method), file=out)
    print("\n== systems: methods (bins outside the promise, calibration error, mean Brier "
          "score) ==", file=out)
    print(f"{'method':<50} {'kind':<9} {'pooled: out':>11} {'cal.err':>7} {'Brier':>7}   "
          f"{'fixed: beyond':>13} {'worst gap':>9} {'cal.err':>7} {'Brier':>7}", file=out)
    for method, kind in dict.fromkeys((r["method"], r["kind"]) for r in rows):
        own = [r for r in pooled if r["method"] == method]
        mine = [r for r in fixed if r["method"] == method]
        briers = list({r["cell"]: r["brier"] for r in mine}.values())
        large = [_systems.gap(r) for r in mine if r["count"] >= 50]
        print(f"{method:<50} {kind:<9} "
              f"{sum(bool(_systems.verdict(r)) for r in own):>11d} "
              f"{_systems.calibration_error(own):>7.3f} "
              f"{own[0]['brier'] if own else math.nan:>7.4f}   "
              f"{sum(bool(_systems.verdict(r)) for r in mine):>13d} "
              f"{max(large, default=math.nan):>9.3f} "
              f"{_systems.calibration_error(mine):>7.3f} "
              f"{np.mean(briers) if briers else math.nan:>7.4f}", file=out)


def _n_of(cell):
    return int(re.search(r"\bn=(\d+)", cell).group(1))


def write_docs(rows, directory):
    """Write the grid's summary table (CSV) and the coverage plot (PNG) for the docs."""
    import os

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import pandas as pd

    os.makedirs(directory, exist_ok=True)
    summary = candidate_summary(rows).round(3).reset_index()
    summary.to_csv(os.path.join(directory, "coverage_summary.csv"), index=False)
    frame = pd.DataFrame([r for r in rows if r["section"] not in NOT_INTERVALS
                          and r["section"] not in ("clusters", "proxy")])   # (cells not of n)
    frame["n"] = frame["cell"].map(_n_of)
    panels = (("binary", "f1", "binary F1"), ("multiclass", "macro F1", "multiclass macro F1"),
              ("ranking", "ROC AUC", "ROC AUC"))
    figure, axes = plt.subplots(1, len(panels), figsize=(13, 4), sharey=True)
    for ax, (section, quantity, title) in zip(axes, panels):
        part = frame[(frame["section"] == section) & (frame["quantity"] == quantity)]
        for method, group in part.groupby("method", sort=False):
            line = group.groupby("n")["coverage_95"].mean()
            ax.plot(line.index, line.to_numpy(), marker="o",
                    linewidth=2.5 if method == LIBRARY else 1.2, label=method)
        ax.axhline(0.95, color="black", linestyle="--", linewidth=1)
        ax.set_xscale("log")
        ax.set_title(title)
        ax.set_xlabel("n (items)")
        ax.legend(fontsize=7)
    axes[0].set_ylabel("coverage of the 95% interval (mean over cells)")
    figure.tight_layout()
    figure.savefig(os.path.join(directory, "coverage_vs_n.png"), dpi=90)
    plt.close(figure)


def main(quick=False, argv=None):
    """Run the benchmark; print the grid and return its rows."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench_coverage",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a few cells, 40 draws each")
    parser.add_argument("--section", action="append", choices=list(SECTIONS),
                        help="run this section (repeatable); default all")
    parser.add_argument("--reps", type=int, default=None, help="simulated data sets per cell")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--only", default=None, metavar="TEXT",
                        help="run only the cells whose description (the cell's fields "
                        "joined by spaces) matches the regular expression TEXT (e.g. "
                        "'counts:' for the systems section's counts route)")
    parser.add_argument("--csv", default=None, help="write the rows to this CSV file")
    parser.add_argument("--from-csv", default=None,
                        help="report (and --docs) rows read from a CSV written by --csv")
    parser.add_argument("--docs", default=None,
                        help="write the summary table and the coverage plot to this folder")
    args = parser.parse_args([] if argv is None else argv)
    quick = quick or args.quick
    start = time.perf_counter()
    if args.from_csv:
        import pandas as pd

        rows = [{k: v for k, v in row.items() if not (isinstance(v, float) and math.isnan(v))
                 or k.startswith("coverage")}
                for row in pd.read_csv(args.from_csv, keep_default_na=False,
                                       na_values=[""]).to_dict("records")]
    else:
        rows = collect(args.section, quick=quick, reps=args.reps, n_jobs=args.jobs,
                       only=args.only)
    if args.csv:
        # Written first: a long run's rows are kept whatever the report does.
        import pandas as pd

        pd.DataFrame(rows).to_csv(args.csv, index=False)
    print_report(rows)
    if args.docs:
        write_docs(rows, args.docs)
    print(f"\n{len(rows)} rows in {time.perf_counter() - start:.0f} s "
          f"(quick={quick}, jobs={args.jobs})")
    return rows


if __name__ == "__main__":
    main(argv=sys.argv[1:])
