"""Systems compared from their confusion counts alone: `compare_counts`.

A leaderboard or a paper reports each system's counts, never its per-item
predictions, and often on test sets of its own.  Each system (each run of
a system) then has its own posterior; the comparisons are unpaired
(`compare_independent`'s model, exact where it is exact), the ranking comes
from the systems' independent draws (``_compare/_rank_systems.py``'s
`ranking_from_draws`), and a system with several runs is summarised by the
runs model of ``_compare/_runs.py``.
"""

from __future__ import annotations

import numbers
import warnings
from collections.abc import Mapping

import numpy as np

from .._compare import compare_independent, pool_in_range, ranking_from_draws, runs_draws
from .._core import (
    COUNT_COLUMNS,
    N_DRAWS,
    check_confidence,
    check_draws,
    check_positive,
    check_prior,
    check_random_state,
    check_rope,
    fail,
    renamed_keyword,
    to_host,
    warn_user,
)
from .._counting import ConfusionCounts, ConfusionMatrix, plain_labels, positive_position
from .._metrics import check_average, get_metric, metric_score, range_width
from .._posteriors import check_counts_metric, metric_posterior
from ._report import _TTEST_COLUMNS, ComparisonReport, _counts_posterior, with_ranking

__all__ = ["compare_counts", "repeats_as_runs"]

# Pairs whose probabilities are computed exactly (`compare_independent`'s quadrature,
# milliseconds a pair); beyond, they are read from the ranking's draws.
_EXACT_PAIRS = 45
_RUN_COLUMNS = ("n_runs", "spread", "spread_low", "spread_high", "new_run_low",
                "new_run_high")


class _Table:
    """One run's counts: a binary or per-label `ConfusionCounts`, or a K x K matrix."""

    __slots__ = ("counts", "matrix", "labels")

    def __init__(self, counts=None, matrix=None, labels=None):
        self.counts, self.matrix, self.labels = counts, matrix, labels

    @property
    def label_set(self):
        return None if self.labels is None else tuple(plain_labels(self.labels))

    @property
    def n(self):
        return float(self.matrix.sum() if self.matrix is not None else np.sum(self.counts.n))


def _matrix_table(value, where):
    """A K x K matrix (array or DataFrame, rows true labels) as a `_Table`."""
    from .._core import check_count_array

    labels = None
    if hasattr(value, "columns") and hasattr(value, "index"):
        if list(value.index) != list(value.columns):
            fail(where, "a confusion matrix whose rows and columns name the same labels in "
                 "the same order", value, shown=f"rows {list(value.index)}, columns "
                 f"{list(value.columns)}")
        labels = np.asarray(list(value.index))
        value = value.to_numpy()
    matrix = check_count_array(value, where)
    if matrix.ndim != 2 or matrix.shape[0] != matrix.shape[1] or matrix.shape[0] < 2:
        fail(where, "a square K x K confusion matrix (K >= 2; rows true labels, columns "
             "predicted)", value, shown=f"shape {matrix.shape}")
    if labels is None:
        labels = np.arange(matrix.shape[0])
    return _Table(matrix=matrix, labels=labels)


def _table(value, where):
    if isinstance(value, ConfusionMatrix):
        if value.labels.shape[0] < 2:
            fail(where, "a K x K confusion matrix with K >= 2", value,
                 shown=f"a ConfusionMatrix of the one label {plain_labels(value.labels)}")
        return _Table(matrix=value.matrix, labels=value.labels)
    if isinstance(value, ConfusionCounts):
        if value.tp.ndim == 1 and value.labels is None:
            value = ConfusionCounts(value.tp, value.fp, value.fn, value.tn,
                                    labels=np.arange(value.tp.shape[0]))
        return _Table(counts=value, labels=value.labels)
    return _matrix_table(value, where)


def _runs_of(value, where):
    """The runs of one system's value: one table, or a list of tables."""
    value = to_host(value, where)
    if isinstance(value, (ConfusionCounts, ConfusionMatrix)) or hasattr(value, "columns"):
        return [_table(value, where)]
    if isinstance(value, (list, tuple)):
        if not value:
            fail(where, "at least one run's counts (an empty list has none)", value)
        first = value[0]
        if isinstance(first, numbers.Number) or (
                isinstance(first, (list, tuple)) and first
                and isinstance(first[0], numbers.Number)):
            return [_matrix_table(value, where)]     # a matrix as nested lists
        return [_table(to_host(run, f"{where}[{k}]"), f"{where}[{k}]")
                for k, run in enumerate(value)]
    array = np.asarray(value)
    if array.ndim == 3:
        return [_matrix_table(run, f"{where}[{k}]") for k, run in enumerate(array)]
    return [_matrix_table(value, where)]


def _frame_systems(frame):
    """Systems of a DataFrame with one row per system (or per run) and the four counts."""
    missing = [c for c in COUNT_COLUMNS if c not in frame.columns]
    if missing:
        fail("counts", "a DataFrame with columns 'tp', 'fp', 'fn' and 'tn' (one row per "
             "system, or per run of a system), or a K x K confusion matrix per system",
             list(frame.columns), shown=f"columns {list(frame.columns)}; missing {missing}")
    names = frame["system"] if "system" in frame.columns else frame.index
    systems = {}
    for name, (_, row) in zip(names, frame.iterrows()):
        counts = ConfusionCounts(*(row[c] for c in COUNT_COLUMNS))
        systems.setdefault(name, []).append(_Table(counts=counts))
    return systems


def _parse(counts):
    """{name: [tables]} from every accepted form of `counts`."""
    if hasattr(counts, "columns") and hasattr(counts, "iterrows"):
        systems = _frame_systems(counts)
    elif isinstance(counts, Mapping):
        systems = {name: _runs_of(value, f"counts[{name!r}]") for name, value in
                   counts.items()}
    else:
        fail("counts", "a dict of system name to ConfusionCounts, a K x K confusion matrix "
             "or a list of either (one per run), or a DataFrame with columns tp, fp, fn, tn",
             counts, error=TypeError)
    if len(systems) < 2:
        fail("counts", "at least two systems to compare (for one system, metric_posterior "
             "gives its posterior)", counts,
             shown=f"{len(systems)} system{'' if len(systems) == 1 else 's'}")
    return systems


def _align(systems, labels):
    """Check that the systems count the same labels, or select `labels` from each."""
    sets = {name: {t.label_set for t in tables} for name, tables in systems.items()}
    if labels is not None:
        labels = to_host(labels, "labels")
        wanted = plain_labels(np.asarray(labels))
        for name, tables in systems.items():
            for k, table in enumerate(tables):
                if table.labels is None:
                    fail("labels", "None for binary tables (a table of one positive class has "
                         "no labels to select)", labels)
                absent = [lab for lab in wanted if lab not in table.label_set]
                if absent:
                    fail("labels", f"labels that every system counts; {name!r} (run {k}) has "
                         f"no {absent}", plain_labels(np.asarray(labels)))
        return wanted
    found = {None if s is None else frozenset(s) for per_system in sets.values()
             for s in per_system}
    if len(found) > 1:
        shown = {name: [list(s) if s is not None else "binary table" for s in per_system]
                 for name, per_system in sets.items()}
        fail("counts", "systems that count the same labels (or pass labels= to choose the "
             "labels every system is compared on)", shown, shown=str(shown))
    return None


def _expanded(table):
    """A K x K matrix as weighted items (true label, predicted label, count)."""
    size = table.matrix.shape[0]
    true = np.repeat(table.labels, size)
    pred = np.tile(table.labels, size)
    weight = table.matrix.ravel()
    keep = weight > 0
    return true[keep], pred[keep], weight[keep]


def _run_posterior(table, spec, average, labels, lam, beta, n_draws, rng, positive=None):
    """(posterior, point, summed counts, P(better than chance)) of one run.

    ``positive`` is the positive label of 2 x 2 matrices (``average="binary"``),
    one for every system.
    """
    params = {"beta": beta} if "beta" in spec.params else {}
    if table.matrix is not None:
        true, pred, weight = _expanded(table)
        if weight.size == 0:
            return None
        kwargs = {"average": average, "sample_weight": weight}
        if average == "binary":
            if table.matrix.shape[0] != 2:
                fail("average", "'micro', 'macro' or 'weighted' for K x K matrices with K > 2",
                     average)
            kwargs["pos_label"] = positive
        elif labels is not None:
            kwargs["labels"] = labels
        elif spec.name not in ("accuracy", "error"):
            # Every label of the matrix, items or not: the systems' averages run over the
            # same labels (a label without items would otherwise drop out of one of them).
            kwargs["labels"] = table.labels
        posterior = metric_posterior(true, pred, metric=spec.name, prior=lam, beta=beta,
                                     n_draws=n_draws, random_state=rng, **kwargs)
        with warnings.catch_warnings():
            # The notice of micro accuracy's new meaning is for metric_score's own callers.
            warnings.simplefilter("ignore", FutureWarning)
            point = metric_score(true, pred, metric=spec.name, beta=beta,
                                 zero_division=np.nan, **kwargs)
        chance_kwargs = dict(kwargs, average="binary" if average == "binary" else "powers")
        chance_kwargs.pop("labels", None)
        chance = metric_posterior(true, pred, metric="informedness", prior=lam,
                                  n_draws=n_draws, random_state=rng,
                                  **chance_kwargs).prob_greater(0.0)
        per_label = ConfusionCounts.from_confusion_matrix(table.matrix)
        if average == "binary":
            per_label = per_label[list(plain_labels(table.labels)).index(
                plain_labels(np.asarray([positive]))[0])]
        cells = {c: float(np.sum(getattr(per_label, c))) for c in COUNT_COLUMNS}
        return posterior, float(point), cells, float(chance)
    counts = table.counts
    if float(np.sum(counts.n)) == 0:
        return None
    if counts.tp.ndim == 0 and average != "binary":
        fail("average", "'binary' for binary tables (one positive class; label averages need "
             "per-label counts or K x K matrices)", average)
    if counts.tp.ndim == 0:
        posterior = metric_posterior(counts, metric=spec.name, prior=lam, beta=beta,
                                     n_draws=n_draws, random_state=rng)
        from .._metrics import averaged_value

        point = averaged_value(spec, counts, "binary", params, kind="binary",
                               zero_division=np.nan)
        chance = metric_posterior(counts, metric="informedness", prior=lam).prob_greater(0.0)
    else:
        if average == "binary":
            fail("average", "'micro', 'macro' or 'weighted' for per-label counts (one table "
                 "per label)", average)
        check_counts_metric(spec.name, average)
        if spec.name in ("accuracy", "error"):
            fail("metric", "a per-label metric for per-label counts: the share of items "
                 "right needs the K x K matrix (pass the confusion matrix instead)", spec.name)
        if labels is not None:
            index = [list(table.label_set).index(lab) for lab in labels]
            counts = counts[np.asarray(index)]
        posterior, point, chance = _counts_posterior(counts, spec, params, average=average,
                                                     lam=lam, beta=beta, n_draws=n_draws,
                                                     rng=rng)
    cells = {c: float(np.sum(getattr(counts, c))) for c in COUNT_COLUMNS}
    return posterior, float(point), cells, float(chance)


def _batched_binary(systems, spec, average, lam, beta, confidence, n_draws, rng):
    """Rows and draws of the systems with one binary table, from one stacked posterior.

    ``{name: (summary row, run row, draws)}`` and the draws of all of them, one
    column per system in the order of `systems` (None for fewer than two such
    systems): the same posterior as `_run_posterior` gives each table, drawn for
    all of them at once (a leaderboard of a hundred systems costs one call, not a
    hundred).
    """
    names = [name for name, tables in systems.items() if len(tables) == 1
             and tables[0].counts is not None and tables[0].counts.tp.ndim == 0
             and tables[0].n > 0]
    if names and average != "binary":
        fail("average", "'binary' for binary tables (one positive class; label averages need "
             "per-label counts or K x K matrices)", average)
    if len(names) < 2:
        return {}, None
    cells = {c: np.array([float(getattr(systems[n][0].counts, c)) for n in names])
             for c in COUNT_COLUMNS}
    stacked = ConfusionCounts(*(cells[c] for c in COUNT_COLUMNS))
    posterior = metric_posterior(stacked, metric=spec.name, prior=lam, beta=beta,
                                 n_draws=n_draws, random_state=rng)
    params = {"beta": beta} if "beta" in spec.params else {}
    with np.errstate(all="ignore"):
        points = np.asarray(spec.function(*(cells[c] for c in COUNT_COLUMNS), **params),
                            dtype=float)
    points = np.where(np.isfinite(points), points, np.nan)
    means = np.broadcast_to(posterior.mean(), (len(names),))
    bounds = posterior.interval(confidence)
    lows, highs = (np.broadcast_to(np.asarray(b, dtype=float), (len(names),))
                   for b in (bounds.low, bounds.high))
    errors = np.broadcast_to(np.asarray(getattr(posterior, "mc_error", 0.0), dtype=float),
                             (len(names),))
    chance = np.broadcast_to(metric_posterior(stacked, metric="informedness",
                                              prior=lam).prob_greater(0.0), (len(names),))
    samples = getattr(posterior, "samples", None)
    if samples is None or np.shape(samples) != (n_draws, len(names)):
        samples = posterior.rvs((n_draws, len(names)), random_state=rng)
    samples = np.asarray(samples, dtype=float)
    out = {}
    for k, name in enumerate(names):
        counted = {c: float(cells[c][k]) for c in COUNT_COLUMNS}
        estimate = {"point": float(points[k]), "mean": float(means[k]),
                    "low": float(lows[k]), "high": float(highs[k])}
        row = {"estimator": name, **counted, **estimate, "mc_error": float(errors[k]),
               "prob_better_than_chance": float(chance[k]), "n_runs": 1.0,
               **dict.fromkeys(_RUN_COLUMNS[1:], np.nan)}
        out[name] = (row, {"estimator": name, "run": 0, **counted, **estimate},
                     samples[:, k])
    return out, samples


def _draws(posterior, n_draws, rng):
    samples = getattr(posterior, "samples", None)
    if samples is not None and samples.shape[0] == n_draws:
        return np.asarray(samples, dtype=float)
    return np.asarray(posterior.rvs(n_draws, random_state=rng), dtype=float)


@renamed_keyword("n_samples", "n_draws")
def compare_counts(counts, *, metric="accuracy", average="binary", labels=None, beta=1.0,
                   prior=0.5, rope=0.0, pooling="partial", confidence=0.95, n_draws=N_DRAWS,
                   random_state=None, groups=None, pos_label=1):
    """Compare and rank systems from their confusion counts alone.

    For a leaderboard, a paper's table, or any evaluation that kept the
    counts but not the per-item predictions.  Each system has its own
    posterior (the Dirichlet model of its table, as `metric_posterior`), and
    the systems are independent: their test sets may differ, and nothing
    pairs one system's items with another's.  The comparisons are therefore
    unpaired (`compare_independent`, exact where it is exact); when the
    systems did run on the same items, `compare_predictions` or
    `rank_systems` with the predictions are sharper.

    A system may have **several runs** (seeds, folds, resamples), each with
    its own counts on its own items: then each run's metric has its
    posterior from its counts, and across runs the metric, on the logit
    scale of its range, is normal with the system's level and spread (the
    prior of the spread, chosen by the coverage benchmark: probability 0.2
    that the runs do not differ, otherwise a half-Cauchy of scale 0.3 logit).
    The system's row then reports the mean of the metric over runs, the
    spread between runs, and the interval of a new run; a single count is one
    run.

    By default the systems are **partially pooled** before they are ranked:
    their metrics (their means over runs) are drawn toward each other as far
    as their test sets cannot tell them apart, so that a leaderboard of
    near-equal systems is not ranked with more confidence than its counts
    support (see Notes).

    Parameters
    ----------
    counts : dict or pandas.DataFrame
        Per system, by name: a `ConfusionCounts` (one binary table, or one
        table per label), a K x K confusion matrix (a `ConfusionMatrix`, or an
        array or DataFrame with rows true labels, columns predicted, as
        `sklearn.metrics.confusion_matrix`), or a list of these, one per
        run.  Or a DataFrame with columns ``tp, fp, fn, tn`` and one row per
        system (index: the names; a name on several rows, or a ``system``
        column, gives several runs).
        At least two systems.
    metric : str, default="accuracy"
        A name from `available_metrics`.  As in every report,
        ``prob_first_better`` reads "the first has the higher value": for
        metrics where lower is better (fallout, error, silence, noise,
        e_measure) that is the worse one; the ranking orders by the better.
    average : {"binary", "micro", "macro", "weighted", "powers"}, default="binary"
        How the labels of per-label counts or K x K matrices are combined,
        as in `sklearn.metrics.f1_score`; ``"binary"`` for binary tables (a
        2 x 2 matrix: the table of `pos_label`).  The labels of
        a K x K matrix are drawn jointly (its Dirichlet); per-label counts
        do not determine the joint table, so their labels are drawn
        independently.
    labels : array-like, default=None
        The labels compared, when the systems' tables do not all count the
        same labels (every system must count these); by default every label,
        and systems counting different labels are refused.
    beta : float, default=1.0
        F-beta / E-measure weight (for ``metric="fbeta"`` or ``"e_measure"``).
    prior : float or {"jeffreys", "uniform"}, default=0.5
        Dirichlet concentration λ of every table's cells.
    pos_label : int, float, bool or str, default=1
        The positive label of 2 x 2 matrices with ``average="binary"``, as in
        `metric_posterior` (``labels=[label]`` names it too).  Matrices whose
        labels do not hold it (``["a", "b"]``) are refused, naming both.
    rope : float, default=0.0
        Region of practical equivalence of the comparisons: in [0, 1), or
        [0, 2) for informedness, markedness and MCC.
    pooling : {"partial", "none"}, default="partial"
        ``"partial"``: the ranking and the pairwise probabilities come from
        a posterior in which the systems' metrics (their means over runs)
        are partially pooled, the normal hierarchical model of
        `rank_systems` with the systems independent (see Notes); with two
        systems nothing is pooled.  ``"none"``: each system's own posterior
        as it is, and with ``rope=0`` the pairwise probabilities of binary
        tables exact (`compare_independent`) for up to 45 pairs.
    confidence : float, default=0.95
        Level of the credible intervals.
    n_draws : int, default=10_000
        Posterior draws of every sampled figure (the ranking, the pooling,
        the runs model, comparisons that are not exact).
    random_state : None, int or numpy.random.Generator, default=None
        Seed of the draws.
    groups : None
        Refused: counts know no items, so no clusters of them.  Several runs
        or test sets of a system (a list of its counts) are the analogue,
        their spread modelled as the runs'.  The posteriors and reports from
        labels take ``groups=``.

    Returns
    -------
    ComparisonReport
        ``summary`` (one row per system: the counts, summed over runs and
        labels; ``point``, the metric of the counts (the mean of the runs'
        values for several runs); ``mean``, ``low``, ``high``; ``mc_error``;
        ``prob_better_than_chance`` (NaN for a system with runs); with runs
        also ``n_runs``, ``spread``
        (posterior mean of the standard deviation of the metric over runs),
        ``spread_low``, ``spread_high`` and the interval of a new run,
        ``new_run_low``, ``new_run_high``), ``pairwise_metric`` (P(row >
        column by more than `rope`)), ``pairs`` (every pair with the three
        probabilities, and with runs ``prob_new_run_first_better``, P(a new
        run of the first has a higher value than a new run of the second),
        without `rope`, NaN for a pair with a single-run system), ``runs`` (one row
        per run) and ``ranking`` (a `SystemRanking` of the systems' metrics,
        of their means over runs with runs, pooled as `pooling` says: its
        ``pooling`` field).  ``independent`` is True: nothing is paired.
        ``note`` says which pooling was used (printed after the tables, and
        in the HTML page's method notes).

    See Also
    --------
    compare_independent : Two tables, with the exact probability.
    rank_systems : Systems ranked on the same items, from their predictions.
    compare_predictions : The report from predictions on one test set.

    Notes
    -----
    With one run per system, ``mean``, ``low`` and ``high`` are those of
    `metric_posterior`: the summary is each system's own posterior, whatever
    `pooling` says.  The runs model and its prior are described in the user
    guide ("From counts, runs or fold scores"); its coverage is measured by
    the coverage benchmark (its "runs" section).

    **Partial pooling.**  Among near-equal systems a posterior in which each
    system's metric is free is overconfident about which is best: of five
    systems whose accuracies differ by up to about 0.03, each on its own
    test set, the unpooled posterior's P(best) of 0.6-0.8 was right about
    half the time.  With ``pooling="partial"`` the true metrics, on the
    logit scale of the metric's range, are ``θ_i = μ + δ_i``,
    ``δ_i ~ N(0, τ²)`` (flat prior on ``μ``, uniform prior on ``τ`` up to
    10 logits, Gelman 2006), with each system's posterior draws on that
    scale (their means and variances: the systems are independent, so their
    covariance is diagonal) standing for its data, as `rank_systems` pools
    systems on shared items.  The coverage benchmark's systems section
    measures P(best) of both settings on leaderboards of 5 and 20 such
    systems (the user guide's page on ranking systems shows the figures).

    **Pairwise probabilities.**  The pairwise table and P(best) come from
    one posterior.  With ``pooling="partial"`` and three systems or more
    that is the pooled one: every pair is read from the pooled draws, with
    its Monte Carlo error, and no exact figure replaces it (the exact
    probabilities are those of the unpooled posterior, which would
    contradict the ranking beside them).  With ``pooling="none"`` (or two
    systems) and ``rope=0``, the pairwise probabilities of binary tables
    are `compare_independent`'s (``mc_error`` 0 where that is exact) for up
    to 45 pairs (ten systems); beyond, every pair is read from the
    ranking's draws (its quadrature costs milliseconds a pair).
    ``prob_new_run_first_better`` compares new runs of each system's own
    runs model, unpooled.

    Examples
    --------
    The top three of a leaderboard (Tötsch & Hoffmann 2020, Table 3):

    >>> import pandas as pd
    >>> from skprobeval import compare_counts
    >>> board = pd.DataFrame({"tp": [7544, 7537, 7531], "fn": [18, 25, 31],
    ...                       "fp": [18, 25, 31], "tn": [7544, 7537, 7531]},
    ...                      index=["3467175", "3394520", "3338942"])
    >>> report = compare_counts(board, random_state=0)
    >>> round(float(report.ranking.prob_best["3467175"]), 2)
    0.89
    >>> report.ranking.expected_rank.round(1)
    3467175    1.1
    3394520    2.1
    3338942    2.8
    Name: expected_rank, dtype: float64

    Each system's own posterior, unpooled, is surer of the leader:

    >>> unpooled = compare_counts(board, pooling="none", random_state=0)
    >>> round(float(unpooled.ranking.prob_best["3467175"]), 2)
    0.93

    Several runs of each system, each with its own counts:

    >>> from skprobeval import ConfusionCounts
    >>> runs = {"a": [ConfusionCounts(80, 20, 15, 85), ConfusionCounts(84, 14, 11, 91)],
    ...         "b": [ConfusionCounts(70, 25, 25, 80), ConfusionCounts(75, 20, 20, 85)]}
    >>> report = compare_counts(runs, random_state=0)
    >>> list(report.summary["n_runs"])
    [2.0, 2.0]
    >>> bool(report.pairs["prob_first_better"].iloc[0] > 0.8)
    True
    """
    import pandas as pd

    spec = get_metric(metric)
    average = check_average(average, spec.name)
    if average is None:
        fail("average", "'binary', 'micro', 'macro', 'weighted' or 'powers' (a comparison "
             "of systems needs one number per system)", average)
    lam = check_prior(prior)
    beta = check_positive(beta, "beta")
    width = range_width(spec.name)
    rope = check_rope(rope, width=width)
    if pooling not in ("partial", "none"):
        fail("pooling", "'partial' or 'none'", pooling)
    if groups is not None:
        fail("groups", "None for counts: counts know no items, so no clusters of items; "
             "several runs or test sets of a system (a list of its counts) are the "
             "analogue, their spread modelled as the runs'", "an array", error=TypeError)
    confidence = check_confidence(confidence)
    n_draws = check_draws(n_draws)
    rng = check_random_state(random_state)
    higher = spec.higher_is_better

    systems = _parse(counts)
    positive = None
    if average == "binary":
        matrices = [t for tables in systems.values() for t in tables if t.matrix is not None]
        if labels is not None and not matrices:
            fail("labels", "None for binary tables (a table of one positive class has no "
                 "labels to select)", labels)
        if labels is not None:
            chosen = plain_labels(np.asarray(to_host(labels, "labels")).ravel())
            if len(chosen) != 1 or (matrices and chosen[0] not in plain_labels(
                    matrices[0].labels)):
                fail("labels", "one label of the 2 x 2 matrices, their positive class, with "
                     "average='binary'", chosen)
            positive = chosen[0]
        elif matrices:
            # The 2 x 2 rule of every entry point: never the last label by default.
            positive = plain_labels(matrices[0].labels)[
                positive_position(matrices[0].labels, pos_label)]
        labels = None if not matrices else [positive]
    wanted = _align(systems, labels)
    if average == "binary":
        wanted = None
    names = list(systems)
    tail = (1.0 - confidence) / 2
    rows, run_rows, draws, new_runs, exact_tables = [], [], {}, {}, {}
    batched, batched_draws = _batched_binary(systems, spec, average, lam, beta, confidence,
                                             n_draws, rng)
    for name in names:
        if name in batched:
            row, run_row, draws[name] = batched[name]
            rows.append(row)
            run_rows.append(run_row)
            exact_tables[name] = systems[name][0].counts
            continue
        results = []
        for k, table in enumerate(systems[name]):
            result = _run_posterior(table, spec, average, wanted, lam, beta, n_draws, rng,
                                    positive)
            if result is None:
                warn_user(f"counts[{name!r}] run {k} has no items: it adds nothing.",
                          UserWarning)
                continue
            results.append(result)
            posterior, point, cells, chance = result
            bounds = posterior.interval(confidence)
            run_rows.append({"estimator": name, "run": k, **cells, "point": point,
                             "mean": float(posterior.mean()), "low": float(bounds.low),
                             "high": float(bounds.high)})
        if not results:
            fail("counts", "at least one run with items for every system", name,
                 shown=f"every run of {name!r} is empty")
        cells = {c: sum(r[2][c] for r in results) for c in COUNT_COLUMNS}
        if len(results) == 1:
            posterior, point, _, chance = results[0]
            bounds = posterior.interval(confidence)
            draws[name] = _draws(posterior, n_draws, rng)
            row = {"estimator": name, **cells, "point": point,
                   "mean": float(posterior.mean()), "low": float(bounds.low),
                   "high": float(bounds.high),
                   "mc_error": float(getattr(posterior, "mc_error", 0.0)),
                   "prob_better_than_chance": chance, "n_runs": 1.0,
                   **dict.fromkeys(_RUN_COLUMNS[1:], np.nan)}
            table = systems[name][0]
            if table.counts is not None and table.counts.tp.ndim == 0:
                exact_tables[name] = table.counts
            elif table.matrix is not None and average == "binary":
                exact_tables[name] = ConfusionCounts.from_confusion_matrix(table.matrix)[
                    list(plain_labels(table.labels)).index(positive)]
        else:
            model = runs_draws([_draws(r[0], n_draws, rng) for r in results], 1.0 - width,
                               1.0, rng, higher=higher)
            draws[name], new_runs[name] = model.mean, model.new_run
            low, high = np.quantile(model.mean, [tail, 1.0 - tail])
            spread_low, spread_high = np.quantile(model.spread, [tail, 1.0 - tail])
            new_low, new_high = np.quantile(model.new_run, [tail, 1.0 - tail])
            with np.errstate(all="ignore"):
                point = float(np.nanmean([r[1] for r in results]))
            row = {"estimator": name, **cells, "point": point,
                   "mean": float(model.mean.mean()), "low": float(low), "high": float(high),
                   "mc_error": float(model.mean.std() / np.sqrt(n_draws)),
                   "prob_better_than_chance": np.nan,
                   "n_runs": float(len(results)), "spread": float(model.spread.mean()),
                   "spread_low": float(spread_low), "spread_high": float(spread_high),
                   "new_run_low": float(new_low), "new_run_high": float(new_high)}
        rows.append(row)

    with_runs = any(row["n_runs"] > 1 for row in rows)
    columns = [key for key in rows[0] if key != "estimator"
               and (with_runs or key not in _RUN_COLUMNS)]
    summary = pd.DataFrame(rows, index=pd.Index(names, name="estimator"),
                           columns=columns).astype(float)

    if len(batched) == len(names):
        matrix = batched_draws      # every system's column already in place
    else:
        matrix = np.column_stack([draws[name] for name in names])
    # Pooled with three systems or more (the spread needs three); the systems' draws are
    # independent, so Σ is diagonal.
    pooled = pooling == "partial" and len(names) >= 3
    if pooled:
        defined = np.all(np.isfinite(matrix), axis=1)
        matrix = pool_in_range(matrix[defined], 1.0 - width, 1.0, rng, higher,
                               independent=True)
    ranking = ranking_from_draws(matrix, names, metric=spec.name, average=average,
                                 prior=lam, rope=rope, higher_is_better=higher,
                                 pooling=pooling)
    # P(row's value > column's by more than rope), from the ranking's draws (its pairwise
    # table reads "better": the transpose for metrics where lower is better) ...
    above = (ranking.pairwise.to_numpy() if higher else ranking.pairwise.to_numpy().T).copy()
    # The Monte Carlo error of a drawn probability, at least that of one draw in n: a
    # share of 0 or 1 drawn is not exact (0 is kept for the exact pairs below).
    n = matrix.shape[0]
    error = np.sqrt(np.maximum(above * (1.0 - above), 1.0 / n) / n)
    # ... and exact where compare_independent is, for a table of up to _EXACT_PAIRS pairs
    # (its quadrature costs milliseconds a pair), unless the draws were pooled: then the
    # pairs and P(best) are read from the same pooled posterior.
    exact = [name for name in names if name in exact_tables]
    # Sampled metrics (mcc, k_measure) keep the ranking's draws: compare_independent would
    # sample them again.
    if (not pooled and spec.exact is not None and rope == 0 and 2 <= len(exact)
            and len(exact) * (len(exact) - 1) // 2 <= _EXACT_PAIRS):
        for i, first in enumerate(names):
            for j in range(i + 1, len(names)):
                second = names[j]
                if first not in exact_tables or second not in exact_tables:
                    continue
                result = compare_independent(exact_tables[first], exact_tables[second],
                                             metric=spec.name, prior=lam, beta=beta,
                                             n_draws=n_draws, random_state=rng)
                if result.method == "exact":
                    above[i, j] = float(result.prob_first_better)
                    above[j, i] = 1.0 - above[i, j]
                    error[i, j] = error[j, i] = 0.0
    # Every pair, first before second in the order of `names`.
    rows_of, columns_of = np.triu_indices(len(names), 1)
    equivalent = 1.0 - above[rows_of, columns_of] - above[columns_of, rows_of]
    pair_table = {"first": [names[i] for i in rows_of],
                  "second": [names[j] for j in columns_of],
                  "prob_first_better": above[rows_of, columns_of],
                  # A difference of probabilities, without the rounding residue.
                  "prob_equivalent": np.where(equivalent < 1e-12, 0.0, equivalent),
                  "prob_second_better": above[columns_of, rows_of],
                  "mc_error": error[rows_of, columns_of]}
    if with_runs:
        pair_table["prob_new_run_first_better"] = [
            float(np.mean(new_runs[names[i]] - new_runs[names[j]] > 0))
            if names[i] in new_runs and names[j] in new_runs else np.nan
            for i, j in zip(rows_of, columns_of)]
    pairwise_metric = pd.DataFrame(above, index=pd.Index(names, name="first"),
                                   columns=pd.Index(names, name="second"))
    empty = pd.DataFrame(np.nan, index=pd.Index(names, name="first"),
                         columns=pd.Index(names, name="second"))
    runs = pd.DataFrame(run_rows, columns=["estimator", "run", *COUNT_COLUMNS, "point",
                                           "mean", "low", "high"])
    return with_ranking(ComparisonReport(
        summary=summary, pairwise=empty, pairwise_metric=pairwise_metric,
        ttest=pd.DataFrame(columns=list(_TTEST_COLUMNS)), per_fold=pd.DataFrame(),
        metric=spec.name, confidence=confidence, rope=float(rope), average=average,
        labels=wanted, per_label=pd.DataFrame(),
        pairs=pd.DataFrame(pair_table), n_draws=n_draws,
        runs=runs, independent=True, prior=float(lam),
        note=_pooling_note(pooling, pooled, with_runs)), ranking)


def _pooling_note(pooling, pooled, with_runs):
    """The report's line on how the ranking and the pairwise probabilities were drawn."""
    metrics = "metrics (their means over runs)" if with_runs else "metrics"
    if pooled:
        return (f"Pooling: partial. The systems' {metrics} are drawn toward each other as "
                "far as their test sets cannot tell them apart (a normal hierarchical model "
                "on the logit scale, uniform prior on the spread): the ranking and the "
                "pairwise probabilities come from that pooled posterior, the summary's "
                "intervals from each system's own.")
    if pooling == "partial":
        return ("Pooling: partial, which leaves two systems as they are (the spread "
                "between systems needs three): each system's own posterior.")
    return (f"Pooling: none. Each system's {metrics} from its own posterior alone: the "
            "ranking may be overconfident among near-equal systems.")



def repeats_as_runs(y, folds, predictions, n_repeats, *, spec, average, labels, pos_label,
                    beta, lam, rope, confidence, n_draws, random_state):
    """`compare_counts` of repeated cross-validation, each repeat's counts one run.

    ``folds`` are the test folds (``repeat``, ``test`` indices) and
    ``predictions`` each system's predictions, one array per fold.
    """
    from .._counting import ConfusionMatrix

    if n_repeats < 2:
        fail("repeats", "'pooled' for cross-validation without repeats (one run per system "
             "has no spread between runs)", "runs")
    if np.ndim(y) != 1:
        fail("repeats", "'pooled' for multilabel targets (a repeat's K x K table is not "
             "defined)", "runs")
    every = np.unique(np.concatenate([y, *(np.concatenate(p) for p in predictions.values())]))
    runs = {}
    for name, fold_predictions in predictions.items():
        runs[name] = []
        for repeat in range(n_repeats):
            part = [k for k, fold in enumerate(folds) if fold.repeat == repeat]
            order = np.concatenate([folds[k].test for k in part])
            predicted = np.concatenate([fold_predictions[k] for k in part])
            # Each repeat tests the same items: its counts weigh 1/R, so that the repeats
            # together carry the items' evidence once, as the pooled report counts it.
            if average == "binary":
                table = ConfusionCounts.from_predictions(y[order], predicted,
                                                         pos_label=pos_label)
                runs[name].append(ConfusionCounts(table.tp / n_repeats, table.fp / n_repeats,
                                                  table.fn / n_repeats, table.tn / n_repeats))
            else:
                table = ConfusionMatrix.from_predictions(y[order], predicted, labels=every)
                runs[name].append(ConfusionMatrix(table.to_array() / n_repeats,
                                                  labels=table.labels))
    return compare_counts(runs, metric=spec.name, average=average, labels=labels, beta=beta,
                          prior=lam, rope=rope, confidence=confidence, n_draws=n_draws,
                          random_state=random_state)
