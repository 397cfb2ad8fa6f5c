"""The clustered section of the coverage benchmark: test items that come in clusters.

Each test set draws C clusters (patients, documents) from a population.  A
cluster holds 1 + Poisson(m - 1) items (m = 1: every cluster one item), and a
cluster effect ``u ~ N(0, sd)`` on the logit of being right that all its items
share:

* binary items (prevalence 0.3): a positive is found with probability
  ``expit(logit(0.8) + u)``, a negative rejected with ``expit(logit(0.9) + u)``;
  recall, precision, F1 and accuracy;
* five balanced classes: an item is right with ``expit(logit(0.8) + u)``, else
  one of the other four labels at random; macro F1 (its population value is
  ``E[expit(logit(0.8) + u)]``);
* scores: a positive scores ``1.5 + u + N(0, 1)``, a negative ``N(0, 1)``,
  rounded to a grid of 0.05 (ties); ROC AUC (ties count 1/2) and AP (each
  level's positives at the precision at or above it) of the rounded population;
* two systems on the same items, equal in the population, each right with
  ``expit(logit(0.8) + u + v)``, ``v ~ N(0, 0.5)`` a cluster x system
  interaction: the paired null (share of P(first better) > 0.95), from 20
  clusters of 3 or more items.

A test set with items of one class only is drawn again (a ranking needs both).

Sizes are independent of the effects, so the population (item-level) metrics
are the effects' averages.  Methods, for every quantity:

* the library (``groups=``: the clusters' Bayesian bootstrap, weights
  Gamma(C / (C + 3)));
* the library without ``groups`` (information: what ignoring the clusters
  gives);
* candidates: the plain Bayesian bootstrap of the clusters (Gamma(1) weights),
  the same with Gamma((C - 1) / (C + 2)) weights (the earlier default, drawn
  from a generator of its own so that the test sets stay those of earlier
  runs), the same with weights whose spread matches a t interval of C - 1 degrees of
  freedom at 95% (Gamma(((C - 1) z^2 / t^2 - 1) / C), about (C - 4.4) / C), and
  for the ratio metrics a design-effect adjustment (the posterior of the
  counts divided by the metric's estimated design effect, the cluster-robust
  over the item-level variance of its linearised ratio, at least 1);
* reference: the cluster bootstrap (clusters resampled with replacement,
  percentile interval).

Judged: the library's 95% interval covers at least 0.92 in every cell of 20
clusters or more and 0.88 at 10 (within Monte Carlo error); where the effect is
0 it is at most 1.15 times as wide as without ``groups``; where every cluster
holds one item it is the posterior without ``groups``; paired nulls exceed
0.95 in 2% to 7% of test sets.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from scipy import special, stats

from skprobeval import (
    ConfusionCounts,
    average_precision_posterior,
    compare_paired,
    metric_posterior,
    roc_auc_posterior,
)
from skprobeval._metrics import get_metric
from skprobeval._posteriors import ap_from_cumulative, auc_from_shares

__all__ = ["cluster_cells", "run_clusters", "verdict_rows"]

PREVALENCE = 0.3
RECALL, SPECIFICITY, RIGHT = 0.8, 0.9, 0.8
SEPARATION = 1.5
# Scores are rounded to this grid: about 200 levels (and ties), so that a ranking of
# 9 000 items costs what one of 200 distinct scores does.
STEP = 0.05
N_CLASSES = 5
INTERACTION = 0.5
BINARY = ("recall", "precision", "f1", "accuracy")
QUANTITIES = BINARY + ("macro F1", "ROC AUC", "AP")
WITHOUT = "skprobeval without groups"
PLAIN = "Bayesian bootstrap of clusters, Gamma(1) weights"
T_MATCHED = "Bayesian bootstrap of clusters, t-matched weights"
PREVIOUS = "Bayesian bootstrap of clusters, Gamma((C-1)/(C+2)) weights"
DESIGN = "design-effect adjustment of the counts"
BOOTSTRAP = "bootstrap"      # of the clusters: resampled with replacement


def cluster_cells(quick):
    """``("clusters", C, m, sd)``: clusters, mean cluster size, cluster effect sd."""
    if quick:
        return [("clusters", 20, 10, 1.0), ("clusters", 10, 1, 0.5)]
    return [("clusters", c, m, sd) for c in (300, 100, 30, 20, 10) for m in (30, 10, 3, 1)
            for sd in (0.0, 0.5, 1.0)]


def _name(cell):
    _, c, m, sd = cell
    return f"C={c} clusters, mean size {m}, sd {sd:g}"


# ---------------------------------------------------------------------------
# Population values
# ---------------------------------------------------------------------------

_NODES, _WEIGHTS = np.polynomial.hermite_e.hermegauss(80)
_WEIGHTS = _WEIGHTS / _WEIGHTS.sum()


def _mean_right(base, sd):
    return float(np.sum(_WEIGHTS * special.expit(special.logit(base) + sd * _NODES)))


def truths(sd):
    """Population value of every quantity at cluster effect `sd`."""
    r, s = _mean_right(RECALL, sd), _mean_right(SPECIFICITY, sd)
    tp, fn = PREVALENCE * r, PREVALENCE * (1 - r)
    fp, tn = (1 - PREVALENCE) * (1 - s), (1 - PREVALENCE) * s
    out = {"recall": r, "precision": tp / (tp + fp), "f1": 2 * tp / (2 * tp + fp + fn),
           "accuracy": tp + tn, "macro F1": _mean_right(RIGHT, sd),
           "ROC AUC": float(stats.norm.cdf(SEPARATION / np.sqrt(2 + sd * sd)))}
    # Scores are read on a grid of STEP (ties at each level): positives N(1.5, 1 + sd^2)
    # and negatives N(0, 1) rounded.  AUC counts ties 1/2; AP sums each level's share of
    # the positives times the precision at or above it (scikit-learn's reading of ties).
    edges = (np.arange(-12 / STEP, 14 / STEP + 1) + 0.5) * STEP
    positive = np.diff(stats.norm.cdf(edges, SEPARATION, np.sqrt(1 + sd * sd)))[::-1]
    negative = np.diff(stats.norm.cdf(edges))[::-1]      # highest level first
    above_pos, above_neg = np.cumsum(positive), np.cumsum(negative)
    below_neg = negative.sum() - above_neg
    out["ROC AUC"] = float(np.sum(positive * (below_neg + 0.5 * negative))
                           / (positive.sum() * negative.sum()))
    with np.errstate(invalid="ignore", divide="ignore"):
        precision = PREVALENCE * above_pos / (PREVALENCE * above_pos
                                              + (1 - PREVALENCE) * above_neg)
    out["AP"] = float(np.nansum(positive * precision) / positive.sum())
    return out


# ---------------------------------------------------------------------------
# One test set
# ---------------------------------------------------------------------------


def _test_set(rng, c, m, sd):
    """Items of one test set: cluster ids, binary labels and predictions, scores,
    multiclass labels and predictions, two equal systems' binary predictions."""
    sizes = np.ones(c, dtype=int) if m == 1 else 1 + rng.poisson(m - 1, c)
    groups = np.repeat(np.arange(c), sizes)
    n = groups.shape[0]
    u = rng.normal(0.0, sd, c)[groups]
    y = (rng.random(n) < PREVALENCE).astype(int)
    base = np.where(y == 1, special.logit(RECALL), special.logit(SPECIFICITY))
    right = rng.random(n) < special.expit(base + u)
    pred = np.where(right, y, 1 - y)
    score = np.round((y * (SEPARATION + u) + rng.normal(0.0, 1.0, n)) / STEP) * STEP
    k = rng.integers(0, N_CLASSES, n)
    right_k = rng.random(n) < special.expit(special.logit(RIGHT) + u)
    pred_k = np.where(right_k, k, (k + rng.integers(1, N_CLASSES, n)) % N_CLASSES)
    systems = []
    for _ in range(2):
        v = rng.normal(0.0, INTERACTION, c)[groups]
        right_j = rng.random(n) < special.expit(base + u + v)
        systems.append(np.where(right_j, y, 1 - y))
    return groups, y, pred, score, k, pred_k, systems


def _cluster_counts(groups, codes, n_cells, c):
    return sp.csr_matrix((np.ones(codes.shape[0]), (groups, codes)), shape=(c, n_cells))


def _binary_values(name, tp, fp, fn, tn):
    spec = get_metric(name)
    with np.errstate(all="ignore"):
        return np.asarray(spec.function(tp, fp, fn, tn), dtype=float)


def _quantiles(values, levels):
    out = {}
    for level in levels:
        tail = (1 - level) / 2
        with np.errstate(invalid="ignore"):
            out[level] = tuple(np.nanquantile(values, [tail, 1 - tail], axis=-1))
    return out


def _design_effect(counts_by_cluster, y_of, x_of):
    """Cluster-robust over item-level variance of the ratio ``sum y / sum x``, at least 1.

    `counts_by_cluster` is (clusters, cells); `y_of`, `x_of` each cell's
    numerator and denominator contribution.
    """
    totals = np.asarray(counts_by_cluster.sum(axis=0)).ravel()
    x_total = totals @ x_of
    if x_total <= 0:
        return 1.0
    ratio = (totals @ y_of) / x_total
    residual = np.asarray(counts_by_cluster @ (y_of - ratio * x_of)).ravel()
    c = residual.shape[0]
    clustered = c / (c - 1) * np.sum(residual ** 2)
    n = totals.sum()
    items = n / max(n - 1, 1) * np.sum(totals * (y_of - ratio * x_of) ** 2)
    if items <= 0:
        return 1.0
    return max(1.0, clustered / items)


# Numerator and denominator of each ratio metric per binary cell (tp, fp, fn, tn).
_RATIOS = {"recall": ([1, 0, 0, 0], [1, 0, 1, 0]), "precision": ([1, 0, 0, 0], [1, 1, 0, 0]),
           "f1": ([2, 0, 0, 0], [2, 1, 1, 0]), "accuracy": ([1, 0, 0, 1], [1, 1, 1, 1])}


def _ranking_masses(groups, y, score, c):
    """(clusters x columns) counts of the ranking model: above, levels, below;
    positives then negatives (as `average_precision_posterior` lays them out)."""
    levels, level = np.unique(-score, return_inverse=True)
    k = levels.shape[0]
    column = np.where(y == 1, 1 + level, k + 3 + level)
    return _cluster_counts(groups, column, 2 * k + 4, c), k


def _ranking_values(masses, k, metric):
    tp = np.cumsum(masses[:, :k + 2], axis=1)
    fp = np.cumsum(masses[:, k + 2:], axis=1)
    if metric == "AP":
        return ap_from_cumulative(tp, fp, tp[:, -1:])
    gp, gn = np.diff(tp, prepend=0.0, axis=1), np.diff(fp, prepend=0.0, axis=1)
    return auc_from_shares(gp, gn, tp[:, -1:], fp[:, -1:])


def run_clusters(cell, reps, n_draws, *, seed, coverage_row, levels, library):
    """Coverage rows of one cell, and its paired-null row."""
    import warnings

    _, c, m, sd = cell
    name = _name(cell)
    truth = truths(sd)
    rng = seed("clusters", c, m, int(sd * 10))
    methods = (library, WITHOUT, PLAIN, PREVIOUS, T_MATCHED, DESIGN, BOOTSTRAP)
    t_shape = ((c - 1) * (stats.norm.ppf(0.975) / stats.t.ppf(0.975, c - 1)) ** 2 - 1) / c
    bounds = {(q, method): {level: (np.full(reps, np.nan), np.full(reps, np.nan))
                            for level in levels} for q in QUANTITIES for method in methods}
    same = {q: True for q in QUANTITIES}      # every cluster one item: the posterior without
    paired_above = paired_plain_above = 0
    lam = 0.5
    for r in range(reps):
        groups, y, pred, score, k, pred_k, systems = _test_set(rng, c, m, sd)
        while y.min() == y.max():       # a ranking needs both classes: drawn again
            groups, y, pred, score, k, pred_k, systems = _test_set(rng, c, m, sd)

        def put(q, method, interval, r=r):
            for level in levels:
                bounds[(q, method)][level][0][r], bounds[(q, method)][level][1][r] = \
                    interval[level]

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            # The library, with and without groups.
            for q in BINARY:
                clustered = metric_posterior(y, pred, metric=q, groups=groups, n_draws=n_draws,
                                             random_state=r)
                plain = metric_posterior(y, pred, metric=q, n_draws=n_draws, random_state=r)
                put(q, library, {lv: clustered.interval(lv) for lv in levels})
                put(q, WITHOUT, {lv: plain.interval(lv) for lv in levels})
                if m == 1:
                    same[q] &= bool(np.allclose(clustered.interval(), plain.interval(),
                                                rtol=0, atol=1e-12))
            clustered = metric_posterior(k, pred_k, metric="f1", average="macro",
                                         groups=groups, n_draws=n_draws, random_state=r)
            plain = metric_posterior(k, pred_k, metric="f1", average="macro", n_draws=n_draws,
                                     random_state=r)
            put("macro F1", library, {lv: clustered.interval(lv) for lv in levels})
            put("macro F1", WITHOUT, {lv: plain.interval(lv) for lv in levels})
            if m == 1:
                same["macro F1"] &= bool(np.allclose(clustered.interval(), plain.interval(),
                                                     rtol=0, atol=1e-12))
            for q, function in (("ROC AUC", roc_auc_posterior),
                                ("AP", average_precision_posterior)):
                clustered = function(y, score, groups=groups, n_draws=n_draws, random_state=r)
                plain = function(y, score, n_draws=n_draws, random_state=r)
                put(q, library, {lv: clustered.interval(lv) for lv in levels})
                put(q, WITHOUT, {lv: plain.interval(lv) for lv in levels})
                if m == 1:
                    same[q] &= bool(np.allclose(clustered.interval(), plain.interval(),
                                                rtol=0, atol=1e-12))
            # Candidates and the reference, from the clusters' counts.
            # Each item's cell: tp 0, fp 1, fn 2, tn 3.
            code = np.where(y == 1, np.where(pred == 1, 0, 2), np.where(pred == 1, 1, 3))
            cells = _cluster_counts(groups, code, 4, c)
            plain_weights = rng.standard_exponential((n_draws, c))
            t_weights = rng.standard_gamma(t_shape, (n_draws, c))
            resampled = rng.multinomial(c, np.full(c, 1.0 / c), size=n_draws).astype(float)
            previous_weights = np.random.default_rng([c, m, int(sd * 10), r]).standard_gamma(
                (c - 1.0) / (c + 2.0), (n_draws, c))
            prior = rng.standard_gamma(lam, (n_draws, 4))
            for method, weights, extra in ((PLAIN, plain_weights, prior),
                                           (PREVIOUS, previous_weights, prior),
                                           (T_MATCHED, t_weights, prior),
                                           (BOOTSTRAP, resampled, 0.0)):
                masses = np.asarray(cells.T @ weights.T).T + extra
                for q in BINARY:
                    put(q, method, _quantiles(_binary_values(q, *masses.T), levels))
            totals = np.asarray(cells.sum(axis=0)).ravel()
            for q in BINARY:
                numerator, denominator = (np.asarray(v, dtype=float) for v in _RATIOS[q])
                effect = _design_effect(cells, numerator, denominator)
                posterior = metric_posterior(ConfusionCounts(*(totals / effect)), metric=q,
                                             n_draws=n_draws, random_state=r)
                put(q, DESIGN, {lv: posterior.interval(lv) for lv in levels})
            # Macro F1: the K x K table's cells.
            table = _cluster_counts(groups, k * N_CLASSES + pred_k, N_CLASSES ** 2, c)
            grid_prior = rng.standard_gamma(
                np.where(np.eye(N_CLASSES, dtype=bool), 2 * lam / N_CLASSES,
                         2 * lam / N_CLASSES / (N_CLASSES - 1)).ravel(), (n_draws, N_CLASSES ** 2))
            for method, weights, extra in ((PLAIN, plain_weights, grid_prior),
                                           (PREVIOUS, previous_weights, grid_prior),
                                           (T_MATCHED, t_weights, grid_prior),
                                           (BOOTSTRAP, resampled, 0.0)):
                grid = (np.asarray(table.T @ weights.T).T + extra).reshape(
                    -1, N_CLASSES, N_CLASSES)
                diagonal = np.einsum("sii->si", grid)
                with np.errstate(all="ignore"):
                    f1 = 2 * diagonal / (grid.sum(axis=1) + grid.sum(axis=2))
                put("macro F1", method, _quantiles(f1.mean(axis=1), levels))
            # Rankings.
            ranking, n_levels = _ranking_masses(groups, y, score, c)
            pseudo = np.zeros((n_draws, 2 * n_levels + 4))
            pseudo[:, [0, n_levels + 1, n_levels + 2, 2 * n_levels + 3]] = rng.standard_gamma(
                0.1, (n_draws, 4))
            for method, weights, extra in ((PLAIN, plain_weights, pseudo),
                                           (PREVIOUS, previous_weights, pseudo),
                                           (T_MATCHED, t_weights, pseudo),
                                           (BOOTSTRAP, resampled, 0.0)):
                masses = np.asarray(ranking.T @ weights.T).T + extra
                for q in ("ROC AUC", "AP"):
                    put(q, method, _quantiles(_ranking_values(masses, n_levels, q), levels))
            # The paired null.
            if c >= 20 and m >= 3:
                a, b = systems
                result = compare_paired(y, a, b, groups=groups, n_draws=n_draws,
                                        random_state=r)
                paired_above += result.prob_first_better > 0.95
                paired_plain_above += compare_paired(y, a, b).prob_first_better > 0.95
    rows = []
    for q in QUANTITIES:
        for method in methods:
            if method == DESIGN and q not in BINARY:
                continue
            kind = ("library" if method == library else "reference" if method == BOOTSTRAP
                    else "information" if method == WITHOUT else "candidate")
            row = coverage_row("clusters", name, q, method, kind, truth[q],
                               bounds[(q, method)])
            row.update(clusters=c, mean_size=m, effect=sd)
            if method == library and m == 1:
                row["same_as_without"] = same[q]
            rows.append(row)
    if c >= 20 and m >= 3:
        for method, above in ((library, paired_above), (WITHOUT, paired_plain_above)):
            rows.append({"section": "clusters", "cell": name, "quantity": "paired null",
                         "method": method,
                         "kind": "library" if method == library else "information",
                         "share_above_95": above / reps, "reps": reps, "clusters": c,
                         "mean_size": m, "effect": sd})
    return rows


def verdict_rows(rows):
    """(checked, failures) of the section's promises."""
    checked, failures = 0, []
    by_cell = {}
    for row in rows:
        by_cell.setdefault((row["cell"], row["quantity"]), {})[row["method"]] = row
    for (cell, quantity), methods in by_cell.items():
        library = next((r for r in methods.values() if r["kind"] == "library"), None)
        if library is None:
            continue
        checked += 1
        if quantity == "paired null":
            share = library["share_above_95"]
            se = np.sqrt(0.05 * 0.95 / library["reps"])
            if not 0.02 - 2 * se <= share <= 0.07 + 2 * se:
                failures.append(f"clusters {cell}: paired null share of P > 0.95 = "
                                f"{share:.3f} outside [0.02, 0.07]")
            continue
        floor = 0.92 if library["clusters"] >= 20 else 0.88
        if library["coverage_95"] < floor - 2 * library["se_95"]:
            # Clusters of one item: the posterior without groups, exactly (its own
            # coverage, which groups cannot change).
            single = " (one item a cluster: the posterior without groups)" \
                if library["mean_size"] == 1 else ""
            failures.append(f"clusters {cell} {quantity}: coverage "
                            f"{library['coverage_95']:.3f} < {floor}{single}")
        without = methods.get(WITHOUT)
        if library["effect"] == 0 and without is not None and \
                library["width_95"] > 1.15 * without["width_95"]:
            failures.append(f"clusters {cell} {quantity}: width {library['width_95']:.4f} > "
                            f"1.15 x without groups {without['width_95']:.4f}")
        if library.get("same_as_without") is False:
            failures.append(f"clusters {cell} {quantity}: clusters of one item changed "
                            "the posterior")
    return checked, failures
