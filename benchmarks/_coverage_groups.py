"""The groups section of the coverage benchmark: gaps between groups' rates.

Each cell is a population of G groups with known true positive rates and
selection rates (prevalence 0.3 in every group).  A data set draws m items per
group; `PosteriorMetricFrame(...).difference()` gives the interval of the gap,
against the truth it estimates:

* two groups: the signed difference, the group with the higher observed value
  first (the library's orientation), so the truth is that group's true rate
  minus the other's;
* four groups: ``max - min`` of the groups' true rates.

The library's default interval (`GroupDisparity.interval`: the signed
difference's credible interval for two groups, the "anchored" interval of the
spread for four) is measured, and the other kinds beside it as candidates:
the simultaneous bounds (for two groups of the unsigned gap, against the
truth's absolute value), and for four groups the spread posterior's credible
interval (the former default).

Reference: the bootstrap within each group (items resampled per group, the
gap's percentile interval), the usual companion of fairlearn's
``MetricFrame``.
"""

from __future__ import annotations

import numpy as np

PREVALENCE = 0.3
# Names of the interval kinds measured beside the default (two groups: the signed
# difference's credible interval; more: the simultaneous bounds of the spread).
OTHER_KIND = {"simultaneous": "simultaneous bounds of the unsigned gap (not the two-group default)",
              "posterior": "credible interval of the spread's posterior (former default)"}
GROUP_METRICS = ("recall", "selection_rate")
SCENARIOS = ("equal", "different")


def group_cells(quick):
    sizes = (100,) if quick else (10, 100, 1000)
    counts = (2,) if quick else (2, 4)
    return [("groups", m, g, metric, scenario) for scenario in SCENARIOS
            for metric in GROUP_METRICS for g in counts for m in sizes]


def _rates(g, scenario):
    """True positive and false positive rate of each group."""
    if scenario == "equal":
        return np.full(g, 0.8), np.full(g, 0.1)
    return np.linspace(0.65, 0.85, g), np.linspace(0.05, 0.15, g)


def _true_metric(metric, tpr, fpr):
    if metric == "recall":
        return tpr
    return PREVALENCE * tpr + (1 - PREVALENCE) * fpr


def _tables(rng, m, tpr, fpr, reps):
    """(reps, G, 4) confusion tables (tp, fp, fn, tn), m items per group."""
    cells = np.stack([PREVALENCE * tpr, (1 - PREVALENCE) * fpr, PREVALENCE * (1 - tpr),
                      (1 - PREVALENCE) * (1 - fpr)], axis=-1)
    return np.stack([rng.multinomial(m, cells[j], size=reps) for j in range(len(tpr))], axis=1)


def _metric_of(tables, metric):
    tp, fp, fn, tn = (tables[..., i].astype(float) for i in range(4))
    with np.errstate(invalid="ignore", divide="ignore"):
        if metric == "recall":
            return tp / (tp + fn)
        return (tp + fp) / (tp + fp + fn + tn)


def _items(table):
    """Labels (y_true, y_pred) of a group's table (tp, fp, fn, tn)."""
    tp, fp, fn, tn = (int(v) for v in table)
    y_true = np.repeat([1, 0, 1, 0], [tp, fp, fn, tn])
    y_pred = np.repeat([1, 1, 0, 0], [tp, fp, fn, tn])
    return y_true, y_pred


def _bootstrap(tables, metric, g, n_resamples, rng, levels, signed_pair):
    """Percentile intervals of the gap from resampling each group's items."""
    reps = tables.shape[0]
    out = {level: (np.empty(reps), np.empty(reps)) for level in levels}
    for r in range(reps):
        # Each group's items resampled: a multinomial over its own table's shares.
        draws = np.stack([rng.multinomial(tables[r, j].sum(), tables[r, j] / tables[r, j].sum(),
                                          size=n_resamples) for j in range(g)], axis=1)
        values = _metric_of(draws, metric)
        if g == 2:
            high, low = signed_pair[r]
            gap = values[:, high] - values[:, low]
        else:
            gap = np.nanmax(values, axis=1) - np.nanmin(values, axis=1)
        gap = gap[np.isfinite(gap)]
        for level in levels:
            tail = (1 - level) / 2
            if gap.size:
                out[level][0][r], out[level][1][r] = np.quantile(gap, [tail, 1 - tail])
            else:
                out[level][0][r] = out[level][1][r] = np.nan
    return out


def run_groups(cell, reps, n_draws, *, coverage_row, seed, levels, library):
    """Coverage rows of one cell (the library and the bootstrap)."""
    import warnings

    from skprobeval import PosteriorMetricFrame

    _, m, g, metric, scenario = cell
    tpr, fpr = _rates(g, scenario)
    truth_rates = _true_metric(metric, tpr, fpr)
    rng = seed("groups", m, g, metric, scenario)
    tables = _tables(rng, m, tpr, fpr, reps)
    name = f"n={m} per group, {g} groups, {scenario} rates"
    # The library's default, and the other kind of interval as a candidate.
    other_kind = "simultaneous" if g == 2 else "posterior"
    intervals = {level: (np.empty(reps), np.empty(reps)) for level in levels}
    other = {level: (np.empty(reps), np.empty(reps)) for level in levels}
    mixed = {level: (np.empty(reps), np.empty(reps)) for level in levels}
    truth = np.empty(reps)
    pairs = []
    labels = np.repeat(np.arange(g), m)
    for r in range(reps):
        y_true, y_pred = zip(*(_items(tables[r, j]) for j in range(g)))
        with warnings.catch_warnings():
            # A group of 10 items may have no positive: its recall is the prior's.
            warnings.simplefilter("ignore")
            gap = PosteriorMetricFrame(metrics=metric, y_true=np.concatenate(y_true),
                                       y_pred=np.concatenate(y_pred),
                                       sensitive_features=labels, n_draws=n_draws,
                                       random_state=r).difference()
        for level in levels:
            intervals[level][0][r], intervals[level][1][r] = gap.interval(level)
            other[level][0][r], other[level][1][r] = gap.interval(level, kind=other_kind)
            if g > 2:
                mixed[level][0][r], mixed[level][1][r] = gap.interval(level,
                                                                      kind="simultaneous")
        if g == 2:
            high, low = (int(k) for k in gap.pair)
            pairs.append((high, low))
            truth[r] = truth_rates[high] - truth_rates[low]
        else:
            truth[r] = truth_rates.max() - truth_rates.min()
    rows = [coverage_row("groups", name, f"{metric} gap", library, "library", truth,
                         intervals),
            coverage_row("groups", name, f"{metric} gap",
                         OTHER_KIND[other_kind], "candidate",
                         np.abs(truth) if g == 2 else truth, other)]
    if g > 2:
        rows.append(coverage_row("groups", name, f"{metric} gap",
                                 "simultaneous bounds of the spread", "candidate", truth,
                                 mixed))
    boot = _bootstrap(tables, metric, g, n_draws, seed("groups boot", m, g, metric, scenario),
                      levels, pairs)
    rows.append(coverage_row("groups", name, f"{metric} gap", "bootstrap", "reference",
                             truth, boot))
    return rows
