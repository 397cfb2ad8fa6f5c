"""The comparison report type, and the report from counts alone.

`ComparisonReport` holds the tables (summary, per label, pairwise, pairs,
t-tests, per fold) and renders them (text, Markdown and HTML through
``_core/_render.py``; CSV, plain data, plots).  The builder from predictions,
`_ReportBuilder`, is in ``_report_builder.py``; the pieces it shares with
the report from CountsScorer counts alone, without item-level predictions
(the summary's column order, the t-tests over fold scores, the number of
repeats), are here, and that report is built at the end of this module.
pandas is imported lazily.
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass, field

import numpy as np
from sklearn.exceptions import UndefinedMetricWarning

from .._compare import correlated_ttest
from .._core import (
    COUNT_COLUMNS,
    ResultMixin,
    check_random_state,
    fail,
    renamed_attribute,
    renamed_keyword,
    render_markdown,
    render_text,
    warn_user,
    whole_counts,
)
from .._counting import ConfusionCounts, plain_labels
from .._metrics import averaged_value, get_metric
from .._posteriors import check_counts_metric, metric_posterior

__all__ = ["ComparisonReport", "with_ranking"]

SUMMARY_COLUMNS = (
    "tp", "fp", "fn", "tn", "point", "mean", "low", "high", "mc_error",
    "prob_better_than_chance", "average_precision", "random_average_precision",
)
_PAIR_COLUMNS = (
    "prob_first_right_more_often", "prob_equally_often", "prob_second_right_more_often",
    "prob_first_better", "prob_equivalent", "prob_second_better", "mc_error",
)
_TTEST_COLUMNS = ("first", "second", "prob_first_better", "prob_equivalent",
                  "prob_second_better", "mean_difference")


@dataclass(frozen=True, slots=True)
class ComparisonReport(ResultMixin):
    """Tables comparing several classifiers on the same items.

    Returned by `compare_estimators`, `compare_cv_results` and
    `compare_predictions`.  Every table is a pandas DataFrame; the numeric
    columns are floats.  With ``average=None`` the summary has one row per
    (estimator, label) and the pair, t-test and per-fold tables a ``label``
    column.  From fold scores alone (`compare_cv_results` of plain
    `cross_validate` or ``cross_val_score`` results) the count columns are
    NaN, ``point`` and ``mean`` are the mean fold score, the pair tables are
    blank and `note` says so.

    Attributes
    ----------
    summary : pandas.DataFrame
        One row per estimator (index ``estimator``).  Columns:
        ``tp, fp, fn, tn`` (pooled counts over folds, divided by the number
        of repeats; for an average over labels, summed over the labels'
        one-vs-rest tables); ``point`` (the metric of the pooled out-of-fold
        predictions, equal to scikit-learn's with the same ``average``);
        ``mean``, ``low``, ``high`` (posterior mean and equal-tailed credible
        interval at `confidence`); ``mc_error`` (Monte Carlo standard error
        of a sampled posterior's mean, 0 for exact ones, and for averages
        over labels of metrics with exact per-label posteriors, whose mean
        is the exact average of the labels' means);
        ``prob_better_than_chance`` (P(informedness > 0): the binary or
        per-label informedness, Powers' multiclass bookmaker otherwise);
        ``average_precision`` (mean over folds of the average precision of
        the estimator's scores, averaged over labels as ``average`` says; NaN
        without scores) and ``random_average_precision`` (the exact expected
        AP of a random ranking of the same folds).  With ``groups=`` two
        more: ``n_clusters`` (the clusters the posteriors rest on) and
        ``effective_n`` (as many independent items would give the
        posterior's variance, `ClusteredPosterior.effective_n`).
    per_label : pandas.DataFrame
        One row per (estimator, label): the one-vs-rest counts, ``point``
        and the exact one-vs-rest posterior's ``mean``, ``low``, ``high``.
    pairwise : pandas.DataFrame
        ``pairwise.loc[a, b]`` = P(a is right more often than b by more than
        `rope`) from the paired Dirichlet on per-item correctness (exact; a
        multilabel item is right when all its labels are); NaN on the
        diagonal.  With ``rope > 0``, ``loc[a, b] + loc[b, a] < 1``: the rest
        is P(practically equivalent), in `pairs`.
    pairwise_metric : pandas.DataFrame
        ``pairwise_metric.loc[a, b]`` = P(metric of a > metric of b by more
        than `rope`) from the joint Dirichlet of (true label, prediction of
        a, prediction of b), sampled and seeded.  Per label (index
        ``(label, first)``) with ``average=None``.
    pairs : pandas.DataFrame
        One row per pair ``first``, ``second``: both paired comparisons with
        all three probabilities (``prob_first_right_more_often``,
        ``prob_equally_often``, ``prob_second_right_more_often`` and
        ``prob_first_better``, ``prob_equivalent``, ``prob_second_better``
        of the metric) and the metric comparison's ``mc_error``.
    ttest : pandas.DataFrame
        One row per pair: ``first``, ``second``, ``prob_first_better``,
        ``prob_equivalent``, ``prob_second_better``, ``mean_difference`` from
        the correlated Bayesian t-test of the fold scores (no rows for a
        single test set).
    per_fold : pandas.DataFrame
        Long table: ``estimator``, ``repeat``, ``fold``, ``tp``, ``fp``,
        ``fn``, ``tn``, ``score`` (the averaged metric of the fold; labels
        undefined on a fold are left out of its average, as scikit-learn's
        ``zero_division=np.nan`` does).
    metric : str
        The metric compared.
    confidence : float
        Level of the credible intervals.
    rope : float
        Region of practical equivalence of the comparisons.
    n_repeats : int
        How many times each item was tested (pooled counts are divided by it).
    predictions : dict of str to ndarray
        Each estimator's out-of-fold predictions in the original item order,
        of shape ``(n_repeats, n_draws)`` (``(n_repeats, n_draws,
        n_labels)`` for multilabel targets); empty when they were never
        loaded (columns of a Dask DataFrame).
    average : str or None
        How labels are combined (as in `sklearn.metrics.f1_score`).
    labels : list or None
        The labels averaged over (None: every label; the positive label for
        ``"binary"``).
    n_draws : int
        Posterior draws of every sampled figure.
    posteriors : dict of str to posterior
        Each estimator's posterior of the (averaged) metric, behind the
        summary's ``mean``, ``low`` and ``high``; keyed ``(estimator,
        label)`` for a per-label report (empty for a report built from
        counts alone).
    by_group : pandas.DataFrame or None
        With ``sensitive_features`` (`compare_predictions`): one row per
        (estimator, group), the group's counts, its ``point`` value (as
        fairlearn's ``MetricFrame.by_group``) and posterior ``mean``,
        ``low``, ``high`` (see `PosteriorMetricFrame`).
    group_gaps : pandas.DataFrame or None
        With ``sensitive_features``: one row per estimator, the gap between
        its groups (`PosteriorMetricFrame.difference`): ``n_groups``,
        ``point`` (fairlearn's ``difference()``), ``mean``, ``low``,
        ``high``, the ``higher`` and ``lower`` group of a two-group gap
        (signed, the higher point first), ``prob_gap_above_rope`` (two
        groups: P(higher - lower > rope), at rope 0 the probability that the
        group that looks better is; more groups: P(max - min > rope)) and
        the ``mc_error`` of a sampled gap.
    ranking : SystemRanking, CVResultsRanking or None
        The systems ranked on the report's metric: P(best), rank
        probabilities, expected ranks and a plot.  From the joint paired
        posterior of the items (as `rank_systems` gives it) for reports
        built from predictions; from each system's own posterior for
        `compare_counts` (the systems are independent); from the fold
        scores (as `rank_cv_results` gives it) for cross-validation results
        that hold fold scores only.  None where no ranking applies (one
        system, ``average=None``, or a system with NaN fold scores).
    runs : pandas.DataFrame or None
        From `compare_counts`: one row per run of each system, its counts,
        ``point`` and its own posterior's ``mean``, ``low``, ``high``.
    independent : bool
        True for a report on independent systems (`compare_counts`): the
        comparisons are unpaired and the paired tables (`pairwise`) are NaN.
    note : str or None
        A line printed after the report's tables (and in the HTML page's
        method notes): for fold scores, what the report could not hold and
        why (no counts, and the test fraction the t-tests and the ranking
        use); for `compare_counts`, which pooling its ranking and pairwise
        probabilities come from; with ``groups=``, that every posterior,
        pair and the ranking is the Bayesian bootstrap of the clusters;
        None for the other reports.
    prior : float or None
        The Dirichlet concentration (`prior`) of the confusion
        tables (the HTML page's method notes state it); None where the report
        does not record it (fold scores alone).
    n_clusters : int or None
        With ``groups=``: the number of clusters of the items (every
        posterior is their Bayesian bootstrap); None otherwise.

    See Also
    --------
    compare_estimators : Builds the report from estimators.
    compare_cv_results : Builds it from cross-validation results.
    compare_predictions : Builds it from predictions on one test set.

    Examples
    --------
    >>> from sklearn.datasets import load_breast_cancer
    >>> from sklearn.naive_bayes import GaussianNB
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> from skprobeval import compare_estimators
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> report = compare_estimators({"nb": GaussianNB(),
    ...                              "tree": DecisionTreeClassifier(random_state=0)}, X, y, cv=3)
    >>> list(report.ttest.columns)  # doctest: +NORMALIZE_WHITESPACE
    ['first', 'second', 'prob_first_better', 'prob_equivalent', 'prob_second_better',
     'mean_difference']
    >>> print(report.to_markdown().splitlines()[0])
    ### Verdict
    >>> report.verdict(plan=False).leader
    'nb'
    """

    summary: object
    pairwise: object
    pairwise_metric: object
    ttest: object
    per_fold: object
    metric: str
    confidence: float
    rope: float
    n_repeats: int = 1
    predictions: dict = field(default_factory=dict, repr=False)
    average: str | None = "binary"
    labels: list | None = None
    per_label: object = None
    pairs: object = None
    n_draws: int = 0
    posteriors: dict = field(default_factory=dict, repr=False)
    by_group: object = None
    group_gaps: object = None
    # Init fields (keyword-only), so that `dataclasses.replace` keeps the ranking, drawn
    # or still lazy; `with_ranking` sets them.
    _ranking: object = field(default=None, kw_only=True, repr=False, compare=False)
    _ranking_source: object = field(default=None, kw_only=True, repr=False, compare=False)
    # The last verdict with an estimate of more items (`verdict(plan=True)`), shown by
    # every rendering; not an init field, so `dataclasses.replace` drops it.
    _verdict: object = field(default=None, init=False, repr=False, compare=False)
    runs: object = None
    independent: bool = False
    note: str | None = None
    prior: float | None = None
    n_clusters: int | None = None

    n_samples = renamed_attribute("n_samples", "n_draws")

    @property
    def ranking(self):
        """The systems ranked on the report's metric (see the class's Attributes).

        For reports built from predictions it is drawn on first access (one
        `rank_systems` call with the report's settings and a seed taken when
        the report was built), so that reports nobody ranks cost nothing more.
        """
        if self._ranking is None and self._ranking_source is not None:
            object.__setattr__(self, "_ranking", self._ranking_source())
            object.__setattr__(self, "_ranking_source", None)
        return self._ranking

    @renamed_keyword("n_samples", "n_draws")
    def verdict(self, *, plan="auto", assurance=0.8, n_sims=100, n_draws=1_000,
                random_state=0):
        """The report's answer in words and figures: the leader, how sure, what would decide it.

        Which system leads (largest P(best) in `ranking`) with its interval;
        which pairs are decided at the report's `confidence` (P > the
        level, from the ranking's ``pairwise``, the same posterior as
        P(best)) and which are practically equivalent within its `rope`; and,
        where the leader's P(best) does not exceed the level, about how many
        more test items would likely decide it: `plan_more_items` on the
        ranking (``target`` the report's level).  Every form of the report
        (text, Markdown, HTML, notebook view, `to_dict`) opens with it; once
        an estimate of more items has been made here, they show that one.

        Parameters
        ----------
        plan : bool or "auto", default="auto"
            Whether to estimate how many more items would decide the leader:
            ``"auto"`` where it is quick (binary targets and accuracy, whose
            simulated futures are ranked all at once: a few seconds for 600
            items), True always (label averages rank each future again: up
            to minutes), False never.
        assurance : float, default=0.8
            Share of simulated futures that must be decided.
        n_sims : int, default=100
            Simulated futures per number of extra items.
        n_draws : int, default=1_000
            Posterior draws ranking each future (fewer than the report's
            own: the estimate is "about", read on a doubling grid).
        random_state : None, int or numpy.random.Generator, default=0
            Seed of the simulations.

        Returns
        -------
        ReportVerdict
        """
        from ._verdict import report_verdict

        verdict = report_verdict(self, plan=plan, assurance=assurance, n_sims=n_sims,
                                 n_draws=n_draws, random_state=random_state)
        if verdict.plan is not None:
            object.__setattr__(self, "_verdict", verdict)
        return verdict

    def _shown_verdict(self):
        """The verdict the renderings open with: the last one with an estimate, else one
        without (no simulation at rendering time)."""
        if self._verdict is not None:
            return self._verdict
        return self.verdict(plan=False)

    # -- presentation -----------------------------------------------------

    @property
    def metric_label(self):
        """The metric and its average, as axis labels and titles name it (e.g. "f1 (macro)")."""
        if self.average in ("binary", None):
            return self.metric if self.average == "binary" else f"{self.metric} (per label)"
        return f"{self.metric} ({self.average})"

    def _sections(self):
        """(title, table, show index) of every table, in reading order."""
        rope_text = f" by more than {self.rope:g}" if self.rope > 0 else ""
        if not self._has_counts():
            title = "Summary (mean over folds)"
        elif len(self.ttest) or self.n_repeats > 1 or (
                self.per_fold is not None and "fold" in self.per_fold
                and self.per_fold["fold"].nunique() > 1):
            title = "Summary (pooled over folds)"
        else:
            title = "Summary"
        sections = [(title, self.summary, True)]
        if self.average not in ("binary", None) and len(self.per_label):
            # None: the summary is per label; reports from counts alone have no such table.
            sections.append(("Per label (one-vs-rest)", self.per_label, True))
        if self.independent:
            return sections + self._independent_sections(rope_text)
        if self._has_pairs():
            sections += [
                (f"P(row right more often than column{rope_text}), paired Dirichlet",
                 self.pairwise, True),
                (f"P(row {self.metric_label} > column{rope_text}), paired joint Dirichlet "
                 "(sampled)", self.pairwise_metric, True),
                ("Every pair, with P(practically equivalent) and the Monte Carlo error",
                 self.pairs, False),
            ]
        if len(self.ttest):
            sections.append(("Correlated Bayesian t-test over fold scores", self.ttest, False))
        if self.by_group is not None:
            sections += [
                (f"By group: {self.metric_label} of each group", self.by_group, True),
                (f"Gap between groups (P(gap > {self.rope:g}))", self.group_gaps, True),
            ]
        return sections

    def _independent_sections(self, rope_text):
        """The sections of a report on independent systems (`compare_counts`)."""
        sections = []
        if self._has_pairs():
            sections += [
                (f"P(row {self.metric_label} > column{rope_text}), independent posteriors "
                 "(unpaired)", self.pairwise_metric, True),
                ("Every pair, with P(practically equivalent) and the Monte Carlo error",
                 self.pairs, False),
            ]
        if self.ranking is not None:
            sections.append(("Ranking (best first)",
                             self.ranking.summary(self.confidence)[
                                 ["prob_best", "expected_rank", "prob_within_rope_of_best"]],
                             True))
        if self.runs is not None and len(self.runs) > len(self.summary):
            sections.append(("Every run's own posterior", self.runs, False))
        return sections

    def _has_pairs(self):
        return self.pairs is None or len(self.pairs) > 0

    def _has_counts(self):
        """False for a report of fold scores alone, whose count columns are blank."""
        return not ("tp" in self.summary and len(self.summary)
                    and self.summary["tp"].isna().all())

    def _note(self):
        """The closing line: the report's `note`, and whether it has a single system."""
        notes = [] if self.note is None else [self.note]
        if not self._has_pairs() and self.summary.index.get_level_values(0).nunique() == 1:
            notes.append("One system: no pair to compare.")
        return " ".join(notes) or None

    def __str__(self):
        header = (f"metric: {self.metric_label}; {self.confidence:.0%} credible intervals; "
                  f"rope: {self.rope:g}; " + (
                      "independent systems (unpaired comparisons, from counts)"
                      if self.independent else f"repeats: {self.n_repeats}"))
        verdict = textwrap.fill(f"Verdict: {self._shown_verdict().text}", width=88)
        return render_text(f"{header}\n\n{verdict}", self._sections(), self._note())

    def to_markdown(self):
        """The report as GitHub-flavoured Markdown tables.

        Returns
        -------
        str
        """
        sections = self._sections()
        # The summary's heading names the metric: a Markdown file has no header line.
        average = "" if self.average == "binary" else f", {self.average or 'per label'}"
        _, summary, index = sections[0]
        sections[0] = (f"Summary ({self.metric}{average})", summary, index)
        return (f"### Verdict\n\n{self._shown_verdict().text}\n\n"
                + render_markdown(sections, self._note()))

    def to_html(self, path=None):
        """The report as one self-contained HTML page, returned or written to `path`.

        Every table of the text form, each with its figure inline as SVG: the
        systems' intervals, the pairwise probabilities as a heat map, P(best)
        and the rank probabilities, the runs' forest plot and the groups'
        intervals where the report has them; then the method notes (level,
        rope, prior, draws, the largest Monte Carlo error) and the library's
        version.  No script, style sheet, font or other outside resource: the
        file reads the same offline.  Without matplotlib the page holds the
        tables only.

        Parameters
        ----------
        path : str or os.PathLike, default=None
            Where to write the page (replaced if it exists; the directory
            must exist).  Written whole or not at all.

        Returns
        -------
        str or None
            The page, or None when it was written to `path`.
        """
        return ResultMixin.to_html(self, path)

    def _html_document(self):
        from ._report_html import report_page

        return report_page(self)

    def _repr_html_(self):
        from ._report_html import report_notebook_html

        return report_notebook_html(self)

    def to_csv(self, table="summary"):
        """One table of the report as CSV text.

        Parameters
        ----------
        table : {"summary", "per_label", "pairwise", "pairwise_metric", "pairs", "ttest", \
"per_fold", "by_group", "group_gaps"}, default="summary"
            Which table (the last two with ``sensitive_features`` only).

        Returns
        -------
        str
        """
        tables = self._tables()
        if table not in tables:
            fail("table", f"one of {list(tables)}", table)
        frame, index = tables[table]
        return frame.to_csv(index=index)

    def to_dict(self):
        """The report as plain Python data (for JSON): the settings and every table.

        Tables with one row per name are nested dicts (``summary[name][column]``,
        ``pairwise[first][second]``); the long tables are lists of records.
        ``ranking`` is the ranking's own `to_dict` (None without one), drawn
        here if the report has not drawn it yet.

        Returns
        -------
        dict
        """
        import json

        out = {"metric": self.metric, "average": self.average,
               "labels": None if self.labels is None else plain_labels(self.labels),
               "confidence": self.confidence, "rope": self.rope,
               "n_repeats": self.n_repeats, "n_draws": self.n_draws, "note": self.note,
               "independent": self.independent, "n_clusters": self.n_clusters}
        for name, (frame, index) in self._tables().items():
            if index and frame.index.nlevels == 1 and frame.index.is_unique:
                # {row: {column: value}}, e.g. summary["nb"]["mean"], pairwise["a"]["b"].
                out[name] = json.loads(frame.to_json(orient="index"))
            else:
                flat = frame.reset_index() if index else frame.copy()
                flat.columns = [str(c) for c in flat.columns]
                out[name] = json.loads(flat.to_json(orient="records"))
        out["ranking"] = None if self.ranking is None else self.ranking.to_dict()
        out["verdict"] = self._shown_verdict().to_dict()
        return out

    def _tables(self):
        """Every table for export, whole-number counts as integers (CSV and JSON
        write ``109``, not ``109.0``, unless the counts are weighted)."""
        tables = {"summary": (self.summary, True), "per_label": (self.per_label, True),
                  "pairwise": (self.pairwise, True),
                  "pairwise_metric": (self.pairwise_metric, True),
                  "pairs": (self.pairs, False), "ttest": (self.ttest, False),
                  "per_fold": (self.per_fold, False)}
        if self.runs is not None:
            tables["runs"] = (self.runs, False)
        if self.by_group is not None:
            tables["by_group"] = (self.by_group, True)
            tables["group_gaps"] = (self.group_gaps, True)
        return {name: (whole_counts(frame), index) for name, (frame, index) in tables.items()}

    def plot(self, *, table=None, ax=None):
        """Heatmap of a pairwise table, titled with what its cells are.

        Parameters
        ----------
        table : {"pairwise_metric", "pairwise", "runs", "ranking"}, default=None
            P(row's metric > column's) or P(row right more often than column);
            by default the first, or the second for a per-label report
            (``average=None``), whose metric table has one square per label,
            or the ranking for a report of fold scores alone.
            ``"runs"`` (a report from `compare_counts`): a forest plot of
            every run's interval and each system's interval of its mean;
            ``"ranking"``: the rank probabilities (`SystemRanking.plot`).
        ax : matplotlib Axes, default=None
            Where to draw; a new figure's axes by default.

        Returns
        -------
        matplotlib.axes.Axes
        """
        from .._core import plot_pairwise

        rope_text = f" by > {self.rope:g}" if self.rope > 0 else ""
        if table is None:
            # Fold scores alone have no paired tables: their ranking is the figure.
            table = ("ranking" if not self._has_counts() and self.ranking is not None else
                     "pairwise" if self.average is None else "pairwise_metric")
        if table == "pairwise_metric":
            if self.average is None:
                fail("table", "'pairwise' for a per-label report (average=None)", table)
            return plot_pairwise(self.pairwise_metric, ax=ax,
                                 title=f"P(row {self.metric_label} > column{rope_text})")
        if table == "pairwise":
            if self.independent:
                fail("table", "'pairwise_metric', 'runs' or 'ranking' for independent "
                     "systems (nothing is paired)", table)
            return plot_pairwise(self.pairwise, ax=ax,
                                 title=f"P(row right more often than column{rope_text})")
        if table == "ranking":
            if self.ranking is None:
                fail("table", "'pairwise_metric' or 'pairwise' (this report has no ranking)",
                     table)
            return self.ranking.plot(ax=ax)
        if table == "runs":
            if self.runs is None:
                fail("table", "'pairwise_metric', 'pairwise' or 'ranking' (runs are plotted "
                     "for compare_counts reports)", table)
            return _forest_plot(self, ax)
        fail("table", "'pairwise_metric', 'pairwise', 'runs' or 'ranking'", table)


def _forest_plot(report, ax):
    """Every run's interval (thin) under each system's interval of its mean (thick)."""
    from .._core import import_pyplot

    plt = import_pyplot()
    if ax is None:
        _, ax = plt.subplots(figsize=(6.4, 0.35 * (len(report.runs) + 2 * len(report.summary))
                                      + 1.2))
    position, ticks, labels = 0, [], []
    for name, row in report.summary.iterrows():
        runs = report.runs[report.runs["estimator"] == name]
        for _, run in runs.iterrows():
            ax.errorbar(run["mean"], position, xerr=[[run["mean"] - run["low"]],
                                                     [run["high"] - run["mean"]]],
                        fmt="o", color="0.45", markersize=3, capsize=2, linewidth=1)
            ticks.append(position)
            labels.append(f"{name} run {int(run['run'])}")
            position += 1
        ax.errorbar(row["mean"], position, xerr=[[row["mean"] - row["low"]],
                                                 [row["high"] - row["mean"]]],
                    fmt="D", color="C0", markersize=6, capsize=3, linewidth=2.5)
        ticks.append(position)
        labels.append(f"{name}: mean" if row.get("n_runs", 1) > 1 else f"{name}")
        position += 1.5
    ax.set_yticks(ticks, labels)
    ax.invert_yaxis()
    ax.set_xlabel(f"{report.metric_label} ({report.confidence:.0%} credible intervals)")
    ax.set_title("Each run, and each system's mean over runs")
    return ax


def with_ranking(report, ranking=None, *, source=None):
    """`report` with its ranking: a ranking, or a function drawing it on first access."""
    object.__setattr__(report, "_ranking", ranking)
    object.__setattr__(report, "_ranking_source", source)
    return report


# ---------------------------------------------------------------------------
# Shared by the builder from predictions and the report from counts
# ---------------------------------------------------------------------------


def _repeats(splits, n_items):
    """How many times each item is tested; must be the same for all tested items."""
    seen = np.zeros(n_items, dtype=np.int64)
    for _, test in splits:
        seen[test] += 1
    tested = seen[seen > 0]
    if tested.size == 0:
        fail("cv", "a splitter with non-empty test sets", splits)
    if tested.min() != tested.max():
        fail("cv", "a scheme that tests every item equally often", f"counts {tested.min()} "
             f"to {tested.max()}")
    return int(tested[0])


def _summary_frame(summary):
    """The summary's columns in order, as floats; the score columns blank."""
    for column in ("average_precision", "random_average_precision"):
        summary[column] = np.nan
    return summary[list(SUMMARY_COLUMNS)].astype(float)


_UNDEFINED_FOLDS = ("{metric} is undefined on some folds of {undefined!r} (0/0); the t-tests of "
                    "those estimators are NaN. Pooled counts and paired comparisons are "
                    "unaffected.")


def _ttest_table(fold_scores, metric, *, test_fraction, rope, runs,
                 undefined_message=_UNDEFINED_FOLDS):
    """Correlated t-test of fold scores for every pair of estimators.

    A pair whose fold scores include an undefined metric (0/0 on a fold, for
    example precision of a fold with no predicted positive) gets NaN
    probabilities and an `UndefinedMetricWarning`, never a silent number;
    `undefined_message` (with the fields ``metric`` and ``undefined``) says
    what else the report does about it.
    """
    import pandas as pd

    names = list(fold_scores)
    rows = []
    undefined = [name for name in names if not np.all(np.isfinite(fold_scores[name]))]
    if undefined:
        warn_user(undefined_message.format(metric=metric, undefined=undefined),
                  UndefinedMetricWarning)
    for i, first in enumerate(names):
        for second in names[i + 1:]:
            row = {"first": first, "second": second}
            if first in undefined or second in undefined:
                row.update(prob_first_better=np.nan, prob_equivalent=np.nan,
                           prob_second_better=np.nan, mean_difference=np.nan)
            else:
                ttest = correlated_ttest(fold_scores[first], fold_scores[second],
                                         test_fraction=test_fraction, rope=rope, runs=runs)
                row.update(prob_first_better=ttest.prob_first_better,
                           prob_equivalent=ttest.prob_equivalent,
                           prob_second_better=ttest.prob_second_better,
                           mean_difference=float(ttest.mean))
            rows.append(row)
    return pd.DataFrame(rows, columns=list(_TTEST_COLUMNS))


# ---------------------------------------------------------------------------
# Reports from counts alone (CountsScorer results)
# ---------------------------------------------------------------------------


_LABEL_COUNT_KEY = re.compile(r"^test_(tp|fp|fn|tn)_(.+)$")


def _holds_counts(result):
    """Whether a cross_validate result holds CountsScorer counts (binary or per label)."""
    return (all(f"test_{cell}" in result for cell in COUNT_COLUMNS)
            or any(_LABEL_COUNT_KEY.match(str(key)) for key in result))


def _fold_cells(name, result):
    """Per-fold count arrays (n_folds,) or (n_folds, R) and the label keys, from CountsScorer."""
    binary = [f"test_{cell}" for cell in COUNT_COLUMNS]
    if all(key in result for key in binary):
        return [np.asarray(result[key], dtype=float) for key in binary], None
    found = {}
    for key in result:
        match = _LABEL_COUNT_KEY.match(key)
        if match:
            found.setdefault(match.group(2), {})[match.group(1)] = np.asarray(result[key],
                                                                              dtype=float)
    labels = [label for label, cells in found.items() if set(cells) == set(COUNT_COLUMNS)]
    if not labels:
        fail("results", "cross_validate results with out-of-fold 'predictions', fitted "
             "'estimator's and X, scoring=CountsScorer() counts, or fold scores ('test_score' "
             "or 'test_<scorer>')", {name: sorted(result)})
    return [np.column_stack([found[label][cell] for label in labels])
            for cell in COUNT_COLUMNS], labels


def _counts_only_report(results, tests, spec, *, average, beta, lam, rope, confidence,
                        n_draws, random_state):
    """Summary, per-fold table and t-tests from CountsScorer counts alone."""
    import pandas as pd

    rng = check_random_state(random_state)
    params = {"beta": beta} if "beta" in spec.params else {}
    names = list(results)
    rows, per_fold, fold_scores = [], [], {}
    n_folds, label_keys = None, None
    for name in names:
        cells, keys = _fold_cells(name, results[name])
        if keys is None and average != "binary":
            fail("average", "'binary' for results holding one binary table per fold "
                 "(CountsScorer() without labels)", average)
        if keys is not None and average in ("binary", None):
            fail("average", "'micro', 'macro' or 'weighted' for per-label counts "
                 "(CountsScorer(labels=...)) without predictions", average)
        if keys is not None:
            check_counts_metric(spec.name, average)
            if spec.name in ("accuracy", "error"):
                fail("metric", "a per-label metric for counts without predictions: the share "
                     "of items right needs the items (pass X with return_estimator=True "
                     "results, or 'predictions')", spec.name)
        if label_keys is None:
            label_keys = keys
        elif keys != label_keys:
            fail("results", "counts of the same labels for every estimator", name)
        if n_folds is None:
            n_folds = cells[0].shape[0]
        elif cells[0].shape[0] != n_folds:
            fail("results", "results on the same splits (same number of folds)", name)
        n_repeats = 1
        if tests[name] is not None:
            n_items = max(int(t.max(initial=-1)) for t in tests[name]) + 1
            n_repeats = _repeats([(None, t) for t in tests[name]], n_items)
        counts = ConfusionCounts(*(c.sum(axis=0) / n_repeats for c in cells),
                                 labels=None if keys is None else np.asarray(keys))
        rows.append(_counts_summary_row(name, counts, spec, params, average=average,
                                        lam=lam, beta=beta, confidence=confidence,
                                        n_draws=n_draws, rng=rng))
        scores = []
        for k in range(n_folds):
            fold = ConfusionCounts(*(c[k] for c in cells),
                                   labels=None if keys is None else np.asarray(keys))
            score = averaged_value(spec, fold, average, params,
                                   kind="binary" if keys is None else "counts",
                                   every_label=False, zero_division=np.nan)
            scores.append(float(score))
            per_fold.append({"estimator": name, "repeat": k // (n_folds // n_repeats),
                             "fold": k % (n_folds // n_repeats),
                             **{c: float(np.sum(fold_cells[k])) for c, fold_cells in
                                zip(COUNT_COLUMNS, cells)},
                             "score": float(score)})
        fold_scores[name] = np.asarray(scores)
    warn_user("The results hold counts only: the paired comparisons (pairwise, "
              "pairwise_metric) need out-of-fold predictions and are NaN. Pass X with "
              "return_estimator=True results, or add 'predictions'.", UserWarning)
    summary = _summary_frame(pd.DataFrame(rows).set_index("estimator"))
    empty = pd.DataFrame(np.nan, index=pd.Index(names, name="first"),
                         columns=pd.Index(names, name="second"))
    pairs = pd.DataFrame(columns=["first", "second"] + list(_PAIR_COLUMNS))
    first_cells, _ = _fold_cells(names[0], results[names[0]])
    fold_sizes = np.sum([np.atleast_2d(c.T).sum(axis=0) for c in first_cells], axis=0)
    test_fraction = float(fold_sizes.mean() / (fold_sizes.sum() / n_repeats))
    ttest = _ttest_table(fold_scores, spec.name, test_fraction=test_fraction, rope=rope,
                         runs=n_repeats)
    return ComparisonReport(summary=summary, pairwise=empty, pairwise_metric=empty.copy(),
                            ttest=ttest, per_fold=pd.DataFrame(per_fold), metric=spec.name,
                            confidence=confidence, rope=float(rope), n_repeats=n_repeats,
                            average=average, labels=label_keys,
                            per_label=pd.DataFrame(), pairs=pairs, n_draws=n_draws)


def _counts_summary_row(name, counts, spec, params, *, average, lam, beta, confidence,
                        n_draws, rng):
    """A summary row from counts alone (labels' tables independent for averages)."""
    posterior, point, chance = _counts_posterior(counts, spec, params, average=average,
                                                 lam=lam, beta=beta, n_draws=n_draws, rng=rng)
    interval = posterior.interval(confidence)
    return {"estimator": name, **{c: float(np.sum(getattr(counts, c))) for c in COUNT_COLUMNS},
            "point": float(point), "mean": float(posterior.mean()),
            "low": float(interval.low), "high": float(interval.high),
            "mc_error": float(getattr(posterior, "mc_error", 0.0)),
            "prob_better_than_chance": float(chance)}


def _counts_posterior(counts, spec, params, *, average, lam, beta, n_draws, rng):
    """(posterior, point, P(better than chance)) of per-label or binary counts alone.

    Binary and micro averages are exact where the metric is; macro, weighted
    and Powers averages draw the labels' one-vs-rest tables independently
    (per-label counts do not determine the joint K x K table).
    """
    from .._metrics import label_weights
    from .._posteriors import average_values, sample_cells

    if average in ("binary", "micro"):
        table = counts if average == "binary" else counts.sum()
        posterior = metric_posterior(table, metric=spec.name, prior=lam, beta=beta,
                                     n_draws=n_draws, random_state=rng)
    else:
        from .._posteriors import (
            ExactMeanPosterior,
            SampledPosterior,
            exact_average_mean,
            metric_function,
        )

        function, _, _ = metric_function(spec.name, beta)
        cells = tuple(np.asarray(c) for c in sample_cells(counts, lam, n_draws, rng))
        over_labels = average if average is not None else "macro"
        weights = label_weights(counts, average, spec.name)
        samples = average_values(function, params, cells, over_labels, weights)
        # The average's mean is the average of the labels' exact means (where exact).
        mean = exact_average_mean(counts, spec.name, lam, beta, over_labels, weights)
        posterior = (SampledPosterior(samples) if mean is None else
                     ExactMeanPosterior(samples, mean))
    # P(better than chance): the binary table's informedness, Powers' bookmaker
    # (informedness weighted by the predicted shares) over labels otherwise, as in
    # the report built from labels.
    if average == "binary":
        chance = metric_posterior(counts, metric="informedness", prior=lam).prob_greater(0.0)
    else:
        cells = tuple(np.asarray(c) for c in sample_cells(counts, lam, n_draws, rng))
        informedness = get_metric("informedness").function
        chance = float(np.mean(average_values(
            informedness, {}, cells, "powers",
            label_weights(counts, "powers", "informedness")) > 0))
    point = averaged_value(spec, counts, average if average is not None else "macro", params,
                           kind="binary" if average == "binary" else "counts",
                           every_label=False)
    return posterior, point, chance
