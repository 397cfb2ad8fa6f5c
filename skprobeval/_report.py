"""Model-comparison reports from scikit-learn cross-validation.

`compare_estimators` freezes the splits once, runs scikit-learn's
`~sklearn.model_selection.cross_validate` for every estimator (no
hand-written cross-validation), and turns the out-of-fold predictions into
pooled counts, posteriors, paired comparisons and per-fold t-tests.
`compare_cv_results` does the same from results the user already holds.
pandas is imported lazily.
"""

from __future__ import annotations

import sys
import warnings
from dataclasses import dataclass, field

import numpy as np
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.base import clone
from sklearn.model_selection import check_cv, cross_validate

from ._baseline import random_average_precision
from ._bayes import informedness_posterior, metric_posterior
from ._compare import PairedComparison, compare_paired_metric, correlated_ttest
from ._counts import ConfusionCounts, PairedCounts
from ._metrics import get_metric
from ._sklearn import CountsScorer
from ._ranking import average_precision
from ._validation import check_confidence, check_positive, check_prior, check_random_state, fail

__all__ = ["ComparisonReport", "compare_cv_results", "compare_estimators", "compare_predictions"]

SUMMARY_COLUMNS = (
    "tp", "fp", "fn", "tn", "point", "mean", "low", "high", "prob_better_than_chance",
    "average_precision", "random_average_precision",
)


@dataclass(frozen=True, slots=True)
class ComparisonReport:
    """Tables comparing several estimators on the same cross-validation splits.

    Every table is a pandas DataFrame with numeric columns only.

    Attributes
    ----------
    summary : pandas.DataFrame
        One row per estimator (index: the estimator names).  Columns:
        ``tp, fp, fn, tn`` (pooled counts over folds, divided by the number of
        repeats), ``point`` (the metric on the pooled counts), ``mean``,
        ``low``, ``high`` (posterior mean and equal-tailed credible interval
        at `confidence`), ``prob_better_than_chance`` (P(informedness > 0)),
        ``average_precision`` (mean over folds of the average precision of
        the estimator's scores, NaN without scores) and
        ``random_average_precision`` (the exact expected AP of a random
        ranking of the same folds).
    pairwise : pandas.DataFrame
        ``pairwise.loc[a, b]`` = P(a is right more often than b) from the
        paired Dirichlet comparison pooled over folds; NaN on the diagonal.
    pairwise_metric : pandas.DataFrame
        ``pairwise_metric.loc[a, b]`` = P(metric of a > metric of b) from the
        joint 8-cell Dirichlet of the paired predictions (sampled, seeded).
    ttest : pandas.DataFrame
        One row per pair: columns ``first``, ``second`` (names),
        ``prob_first_better``, ``prob_equivalent``, ``prob_second_better``,
        ``mean_difference`` from the correlated Bayesian t-test of fold scores.
    per_fold : pandas.DataFrame
        Long table: ``estimator``, ``repeat``, ``fold``, ``tp``, ``fp``,
        ``fn``, ``tn``, ``score`` (the metric of the fold).
    metric : str
        The metric compared.
    confidence : float
        Level of the credible intervals.
    rope : float
        Region of practical equivalence of the comparisons.
    n_repeats : int
        How many times each item was tested (pooled counts are divided by it).

    See Also
    --------
    compare_estimators : Builds the report from estimators.
    compare_cv_results : Builds it from cross-validation results.

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
    ### Summary (f1)
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

    def __str__(self):
        import pandas as pd

        with pd.option_context("display.width", 160, "display.max_columns", 20,
                               "display.float_format", _format_number):
            parts = [
                f"metric: {self.metric}; {self.confidence:.0%} credible intervals; "
                f"rope: {self.rope:g}; repeats: {self.n_repeats}",
                "", "Summary (pooled over folds):",
                self.summary.to_string(formatters=_counts_formatters(self.summary)),
                "", "P(row right more often than column), paired Dirichlet:",
                self.pairwise.to_string(),
                "", f"P(row {self.metric} > column {self.metric}), paired 8-cell Dirichlet:",
                self.pairwise_metric.to_string(),
                "", "Correlated Bayesian t-test over fold scores:",
                self.ttest.to_string(index=False),
            ]
        return "\n".join(parts)

    def to_markdown(self):
        """The report as GitHub-flavoured Markdown tables.

        Returns
        -------
        str
        """
        sections = [
            (f"Summary ({self.metric})", self.summary, True),
            ("P(row right more often than column)", self.pairwise, True),
            (f"P(row {self.metric} > column {self.metric})", self.pairwise_metric, True),
            ("Correlated Bayesian t-test", self.ttest, False),
        ]
        return "\n\n".join(f"### {title}\n\n{_markdown_table(frame, index)}"
                           for title, frame, index in sections) + "\n"

    def to_html(self):
        """The report as HTML tables.

        Returns
        -------
        str
        """
        return "\n".join([
            f"<h3>Summary ({self.metric})</h3>", self.summary.to_html(float_format="%.4f"),
            "<h3>P(row right more often than column)</h3>",
            self.pairwise.to_html(float_format="%.4f"),
            f"<h3>P(row {self.metric} &gt; column {self.metric})</h3>",
            self.pairwise_metric.to_html(float_format="%.4f"),
            "<h3>Correlated Bayesian t-test</h3>",
            self.ttest.to_html(index=False, float_format="%.4f"),
        ])

    def plot(self, *, ax=None):
        """Heatmap of `pairwise` (P(row better than column)).

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Where to draw; a new figure's axes by default.

        Returns
        -------
        matplotlib.axes.Axes
        """
        from .plotting import plot_pairwise

        return plot_pairwise(self.pairwise, ax=ax)


def _format_number(value):
    """Four decimals (probabilities, metrics)."""
    return f"{float(value):.4f}"


def _counts_formatters(frame):
    """Whole-number count columns print without decimals."""
    formatters = {}
    for column in ("tp", "fp", "fn", "tn"):
        if column in frame and np.all(np.mod(frame[column].to_numpy(dtype=float), 1) == 0):
            formatters[column] = "{:.0f}".format
    return formatters


def _markdown_table(frame, index):
    columns = ([frame.index.name or ""] if index else []) + [str(c) for c in frame.columns]
    lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    for label, row in frame.iterrows():
        cells = [str(label)] if index else []
        for value in row.tolist():
            if isinstance(value, (float, np.floating)):
                cells.append("" if np.isnan(value) else _format_number(value))
            else:
                cells.append(str(value))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


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


def _scores_of(estimator, X, pos_label):
    """Scores that rank `pos_label` first (for average precision), or None.

    ``decision_function`` of a binary classifier scores ``classes_[1]``; it is
    negated when `pos_label` is ``classes_[0]``.  ``predict_proba`` gives the
    column of `pos_label`.
    """
    classes = list(getattr(estimator, "classes_", []))
    if len(classes) != 2 or pos_label not in classes:
        return None
    column = classes.index(pos_label)
    for method in ("decision_function", "predict_proba"):
        if hasattr(estimator, method):
            try:
                values = np.asarray(getattr(estimator, method)(X), dtype=float)
            except (AttributeError, NotImplementedError, ValueError):
                continue
            if values.ndim == 2:
                if values.shape[1] != 2:
                    return None
                return values[:, column]
            return values if column == 1 else -values
    return None


def _check_binary_target(y, pos_label):
    """The labels as an array, checked to be binary with `pos_label` among them."""
    y_array = np.asarray(y)
    if y_array.ndim != 1 or y_array.shape[0] == 0:
        fail("y", "a non-empty 1-d array of binary labels", y)
    classes = np.unique(y_array)
    if classes.shape[0] > 2:
        fail("y", "binary (the reports compare one positive class)", y,
             shown=f"{classes.shape[0]} classes {classes.tolist()[:6]!r}")
    if not np.any(classes == np.asarray(pos_label, dtype=object)):
        fail("pos_label", f"one of the labels {classes.tolist()!r}", pos_label)
    return y_array


def _index(X, rows):
    if hasattr(X, "iloc"):
        return X.iloc[rows]
    return X[rows]


def _fold_records(name, y, splits, fold_predictions, fold_scores, n_splits_per_repeat):
    records = []
    for k, ((_, test), y_pred) in enumerate(zip(splits, fold_predictions)):
        records.append({"estimator": name, "repeat": k // n_splits_per_repeat,
                        "fold": k % n_splits_per_repeat, "test": test, "y_pred": y_pred,
                        "y_score": fold_scores[k]})
    return records


def compare_estimators(estimators, X, y, *, cv=5, metric="f1", beta=1.0, prior=0.5,
                       rope=0.0,
                       confidence=0.95, pos_label=1, n_jobs=None, random_state=0,
                       n_samples=20_000, verbose=False):
    """Cross-validate several classifiers on the same splits and compare them.

    The splits are frozen once (``list(cv.split(X, y))``) and every estimator
    runs through `sklearn.model_selection.cross_validate` with
    ``return_estimator=True, return_indices=True``.  From the out-of-fold
    predictions the report computes, per estimator, the pooled counts and
    the posterior of `metric`, and, per pair, the paired Dirichlet
    comparison, the paired 8-cell comparison of `metric` and the correlated
    Bayesian t-test of fold scores.

    With a repeated scheme (e.g. `~sklearn.model_selection.RepeatedStratifiedKFold`)
    every item is tested ``n_repeats`` times: pooled counts are divided by
    ``n_repeats`` so the evidence is not overstated.

    Parameters
    ----------
    estimators : dict of str to estimator
        The candidates, by name (at least two).
    X : array-like of shape (n_samples, n_features)
        Features.
    y : array-like of shape (n_samples,)
        Binary class labels.
    cv : int or cross-validation splitter, default=5
        An int gives ``StratifiedKFold(cv, shuffle=True, random_state=random_state)``.
    metric : str, default="f1"
        A registered metric name.  ``prob_first_better`` and the t-test read
        "the first has the higher value": for metrics where lower is better
        (fallout, error, silence, noise, e_measure) that is the worse one.
    beta : float, default=1.0
        F-beta's beta, for ``metric="fbeta"`` (and ``"e_measure"``).
    prior : float or {"jeffreys", "uniform"}, default=0.5
        Dirichlet concentration.
    rope : float, default=0.0
        Region of practical equivalence for the comparisons.
    confidence : float, default=0.95
        Level of the credible intervals.
    pos_label : int, float, bool or str, default=1
        The positive class.
    n_jobs : int, default=None
        Passed to `cross_validate`.
    random_state : int, default=0
        Seeds the default splitter and every sampled figure.
    n_samples : int, default=20000
        Draws of the sampled (8-cell) comparison.
    verbose : bool, default=False
        Print progress over estimators and folds to stderr.

    Returns
    -------
    ComparisonReport

    Examples
    --------
    >>> from sklearn.datasets import load_breast_cancer
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.naive_bayes import GaussianNB
    >>> from sklearn.pipeline import make_pipeline
    >>> from sklearn.preprocessing import StandardScaler
    >>> from skprobeval import compare_estimators
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> report = compare_estimators(
    ...     {"logreg": make_pipeline(StandardScaler(), LogisticRegression()),
    ...      "nb": GaussianNB()}, X, y, cv=5)
    >>> report.summary[["tp", "fp", "fn", "tn"]]
                  tp    fp    fn     tn
    estimator
    logreg     354.0   9.0   3.0  203.0
    nb         346.0  24.0  11.0  188.0
    >>> round(float(report.pairwise.loc["logreg", "nb"]), 3)
    1.0
    """
    if not isinstance(estimators, dict) or len(estimators) < 2:
        fail("estimators", "a dict of at least two named estimators", estimators)
    confidence = check_confidence(confidence)
    check_prior(prior)
    beta = check_positive(beta, "beta")
    spec = get_metric(metric)
    y_array = _check_binary_target(y, pos_label)
    if isinstance(cv, (int, np.integer)):
        from sklearn.model_selection import StratifiedKFold

        if cv < 2:
            fail("cv", "an int >= 2 or a splitter", cv)
        splitter = StratifiedKFold(n_splits=int(cv), shuffle=True, random_state=random_state)
    else:
        splitter = check_cv(cv, y_array, classifier=True)
    splits = list(splitter.split(X, y_array))
    n_repeats = _repeats(splits, y_array.shape[0])
    n_per_repeat = len(splits) // n_repeats
    predictions = {}
    for position, (name, estimator) in enumerate(estimators.items()):
        if verbose:
            print(f"[{position + 1}/{len(estimators)}] {name}: cross-validating "
                  f"{len(splits)} folds", file=sys.stderr)
        result = cross_validate(clone(estimator), X, y_array, cv=splits, n_jobs=n_jobs,
                                return_estimator=True, return_indices=True,
                                scoring=CountsScorer(pos_label=pos_label))
        fold_predictions, fold_scores = [], []
        for k, (fitted, test) in enumerate(zip(result["estimator"],
                                               result["indices"]["test"])):
            X_test = _index(X, test)
            fold_predictions.append(np.asarray(fitted.predict(X_test)))
            fold_scores.append(_scores_of(fitted, X_test, pos_label))
            if verbose:
                print(f"    fold {k + 1}/{len(splits)} done", file=sys.stderr)
        predictions[name] = _fold_records(name, y_array, splits, fold_predictions, fold_scores,
                                          n_per_repeat)
    return _build_report(predictions, y_array, spec.name, beta=beta, prior=prior,
                         rope=rope,
                         confidence=confidence, pos_label=pos_label, n_repeats=n_repeats,
                         n_samples=n_samples, random_state=random_state)


def compare_cv_results(results, *, y=None, X=None, metric="f1", beta=1.0, prior=0.5,
                       rope=0.0,
                       confidence=0.95, pos_label=1, n_samples=20_000, random_state=0):
    """Compare estimators from `cross_validate` results the user already holds.

    Each value of `results` is the dict returned by
    ``cross_validate(..., return_indices=True)`` for one estimator, on the same
    splits.  What the report can hold depends on what the results carry:

    * out-of-fold predictions — a ``"predictions"`` entry (one array per fold,
      aligned with ``indices["test"]``), or ``return_estimator=True`` and `X`
      so that the fitted fold estimators predict their test rows — give the
      full report, paired comparisons included (`y` is needed);
    * only the counts of ``scoring=CountsScorer()`` (``test_tp``,
      ``test_fp``, ...) give the summary, the per-fold table and the t-tests;
      the paired tables, which need item-level predictions, are then NaN and
      a warning says so.

    Parameters
    ----------
    results : dict of str to dict
        Per estimator, the result of `cross_validate` (see above).
    y : array-like of shape (n_samples,), default=None
        The binary labels the results were computed on (needed with predictions).
    X : array-like of shape (n_samples, n_features), default=None
        The features, to predict with ``result["estimator"]`` when the results
        hold fitted estimators but no ``"predictions"``.
    metric, beta, prior, rope, confidence, pos_label, n_samples, random_state
        As in `compare_estimators`.

    Returns
    -------
    ComparisonReport

    Examples
    --------
    >>> from sklearn.datasets import load_breast_cancer
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.model_selection import cross_validate, StratifiedKFold
    >>> from sklearn.naive_bayes import GaussianNB
    >>> from skprobeval import CountsScorer, compare_cv_results
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> splits = list(StratifiedKFold(5, shuffle=True, random_state=0).split(X, y))
    >>> results = {name: cross_validate(model, X, y, cv=splits, scoring=CountsScorer(),
    ...                                 return_estimator=True, return_indices=True)
    ...            for name, model in {"logreg": LogisticRegression(max_iter=5000),
    ...                                "nb": GaussianNB()}.items()}
    >>> report = compare_cv_results(results, y=y, X=X)
    >>> list(report.summary.index)
    ['logreg', 'nb']
    >>> round(float(report.pairwise.loc["logreg", "nb"]), 3)
    0.872
    """
    if not isinstance(results, dict) or len(results) < 2:
        fail("results", "a dict of at least two named cross-validation results", results)
    confidence = check_confidence(confidence)
    check_prior(prior)
    beta = check_positive(beta, "beta")
    spec = get_metric(metric)
    for name, result in results.items():
        if not isinstance(result, dict):
            fail("results", "dicts returned by cross_validate", {name: result})
    tests = {name: _test_indices(name, result) for name, result in results.items()}
    usable = {name: "predictions" in result or ("estimator" in result and X is not None)
              for name, result in results.items()}
    if all(usable.values()):
        if y is None:
            fail("y", "the labels the results were computed on", y)
        y_array = _check_binary_target(y, pos_label)
        reference = next(iter(tests.values()))
        if reference is None:
            fail("results", "results with 'indices' (cross_validate(..., return_indices=True))",
                 sorted(next(iter(results.values()))))
        records = {}
        for name, result in results.items():
            if tests[name] is None or len(tests[name]) != len(reference) or any(
                    not np.array_equal(a, b) for a, b in zip(tests[name], reference)):
                fail("results", "results on the same splits (same indices['test'])", name)
            if any(t.max(initial=-1) >= y_array.shape[0] for t in reference):
                fail("y", f"as long as the data the results index ({y_array.shape[0]} given)",
                     y, shown=f"length {y_array.shape[0]}")
            if "predictions" in result:
                fold_predictions = [np.asarray(p) for p in result["predictions"]]
                scores = result.get("scores")
                scores = [None] * len(reference) if scores is None else list(scores)
            else:
                fold_predictions, scores = [], []
                for fitted, test in zip(result["estimator"], reference):
                    X_test = _index(X, test)
                    fold_predictions.append(np.asarray(fitted.predict(X_test)))
                    scores.append(_scores_of(fitted, X_test, pos_label))
            if len(fold_predictions) != len(reference) or any(
                    p.shape[0] != t.shape[0] for p, t in zip(fold_predictions, reference)):
                fail("results", f"one prediction array per test fold for {name!r}",
                     len(fold_predictions), shown=f"{len(fold_predictions)} arrays")
            records[name] = (fold_predictions, scores)
        splits = [(None, t) for t in reference]
        n_repeats = _repeats(splits, y_array.shape[0])
        n_per_repeat = len(splits) // n_repeats
        fold_records = {name: _fold_records(name, y_array, splits, p, sc, n_per_repeat)
                        for name, (p, sc) in records.items()}
        return _build_report(fold_records, y_array, spec.name, beta=beta, prior=prior,
                             rope=rope,
                             confidence=confidence, pos_label=pos_label, n_repeats=n_repeats,
                             n_samples=n_samples, random_state=random_state)
    return _counts_only_report(results, tests, spec, beta=beta, prior=prior, rope=rope,
                               confidence=confidence, random_state=random_state)


def _test_indices(name, result):
    indices = result.get("indices")
    if indices is None:
        return None
    try:
        return [np.asarray(t) for t in indices["test"]]
    except (KeyError, TypeError):
        fail("results", "'indices' as returned by cross_validate(..., return_indices=True)",
             {name: indices})


def _counts_only_report(results, tests, spec, *, beta, prior, rope, confidence, random_state):
    """Summary, per-fold table and t-tests from CountsScorer counts alone."""
    import pandas as pd

    rng = check_random_state(random_state)
    names = list(results)
    rows, per_fold, fold_scores = [], [], {}
    n_folds = None
    for name in names:
        result = results[name]
        try:
            cells = [np.asarray(result[f"test_{cell}"], dtype=float)
                     for cell in ("tp", "fp", "fn", "tn")]
        except KeyError:
            fail("results", "cross_validate results with out-of-fold 'predictions', fitted "
                 "'estimator's and X, or scoring=CountsScorer() counts", {name: sorted(result)})
        if n_folds is None:
            n_folds = cells[0].shape[0]
        elif cells[0].shape[0] != n_folds:
            fail("results", "results on the same splits (same number of folds)", name)
        n_repeats = 1
        if tests[name] is not None:
            n_items = max(int(t.max(initial=-1)) for t in tests[name]) + 1
            n_repeats = _repeats([(None, t) for t in tests[name]], n_items)
        counts = ConfusionCounts(*(c.sum() / n_repeats for c in cells))
        rows.append(_summary_row(counts, spec, beta=beta, prior=prior, confidence=confidence,
                                 rng=rng))
        scores = np.asarray(spec(*cells, **_params(spec, beta)), dtype=float)
        fold_scores[name] = scores
        for k in range(n_folds):
            per_fold.append({"estimator": name, "repeat": k // (n_folds // n_repeats),
                             "fold": k % (n_folds // n_repeats), "tp": cells[0][k],
                             "fp": cells[1][k], "fn": cells[2][k], "tn": cells[3][k],
                             "score": scores[k]})
    warnings.warn("The results hold counts only: the paired comparisons (pairwise, "
                  "pairwise_metric) need out-of-fold predictions and are NaN. Pass X with "
                  "return_estimator=True results, or add 'predictions'.", UserWarning,
                  stacklevel=3)
    summary = pd.DataFrame(rows, index=pd.Index(names, name="estimator"),
                           columns=list(SUMMARY_COLUMNS[:9]))
    summary["average_precision"] = np.nan
    summary["random_average_precision"] = np.nan
    pairwise = pd.DataFrame(np.nan, index=pd.Index(names, name="first"),
                            columns=pd.Index(names, name="second"))
    fold_sizes = sum(np.asarray(results[names[0]][f"test_{c}"], dtype=float)
                     for c in ("tp", "fp", "fn", "tn"))
    test_fraction = float(fold_sizes.mean() / (fold_sizes.sum() / n_repeats))
    ttest = _ttest_table(fold_scores, spec.name, test_fraction=test_fraction, rope=rope,
                         runs=n_repeats)
    return ComparisonReport(summary=summary, pairwise=pairwise, pairwise_metric=pairwise.copy(),
                            ttest=ttest, per_fold=pd.DataFrame(per_fold), metric=spec.name,
                            confidence=confidence, rope=float(rope), n_repeats=n_repeats)


def _params(spec, beta):
    """Keyword parameters of a metric: F-beta's and the E-measure's beta."""
    return {"beta": beta} if "beta" in spec.params else {}


def _summary_row(counts, spec, *, beta, prior, confidence, rng):
    """Pooled counts, point value, posterior mean and interval, P(better than chance)."""
    posterior = metric_posterior(counts, spec.name, prior=prior, beta=beta, random_state=rng)
    interval = posterior.interval(confidence)
    chance = metric_posterior(counts, "informedness", prior=prior)
    return {
        "tp": float(counts.tp), "fp": float(counts.fp), "fn": float(counts.fn),
        "tn": float(counts.tn),
        "point": float(spec(counts.tp, counts.fp, counts.fn, counts.tn,
                            **_params(spec, beta))),
        "mean": float(posterior.mean()), "low": float(interval.low),
        "high": float(interval.high),
        "prob_better_than_chance": float(chance.prob_greater(0.0)),
    }


def compare_predictions(y_true, predictions, *, metric="f1", beta=1.0, prior=0.5, rope=0.0,
                        confidence=0.95, pos_label=1, sample_weight=None, n_samples=20_000,
                        random_state=0):
    """Posteriors and paired comparisons of several systems' predictions on one test set.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True binary labels.
    predictions : dict of str to array-like of shape (n_samples,)
        Each system's predicted labels, by name (at least one).
    metric, beta, prior, rope, confidence, pos_label, n_samples, random_state
        As in `compare_estimators`.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative item weights.

    Returns
    -------
    summary : pandas.DataFrame
        One row per system: ``tp, fp, fn, tn, point, mean, low, high,
        prob_better_than_chance``.
    pairwise : pandas.DataFrame
        P(row right more often than column), paired Dirichlet.
    pairwise_metric : pandas.DataFrame
        P(row's metric > column's metric), paired 8-cell Dirichlet (sampled).

    Examples
    --------
    >>> from skprobeval import compare_predictions
    >>> y_true = [1, 1, 0, 0, 1, 0, 1, 1, 0, 1]
    >>> summary, pairwise, _ = compare_predictions(
    ...     y_true, {"a": [1, 1, 0, 0, 1, 0, 1, 0, 0, 1], "b": [1, 0, 0, 1, 1, 0, 0, 0, 0, 1]})
    >>> summary[["tp", "fp", "fn", "tn"]]
             tp   fp   fn   tn
    system
    a       5.0  0.0  1.0  4.0
    b       3.0  1.0  3.0  3.0
    >>> round(float(pairwise.loc["a", "b"]), 3)
    0.967
    """
    import pandas as pd

    if not isinstance(predictions, dict) or not predictions:
        fail("predictions", "a dict of named prediction arrays", predictions)
    confidence = check_confidence(confidence)
    beta = check_positive(beta, "beta")
    spec = get_metric(metric)
    rng = check_random_state(random_state)
    names = list(predictions)
    rows = []
    for name in names:
        counts = ConfusionCounts.from_predictions(y_true, predictions[name], pos_label=pos_label,
                                                  sample_weight=sample_weight)
        rows.append(_summary_row(counts, spec, beta=beta, prior=prior, confidence=confidence,
                                 rng=rng))
    summary = pd.DataFrame(rows, index=pd.Index(names, name="system"),
                           columns=list(SUMMARY_COLUMNS[:9]))
    pairwise = pd.DataFrame(np.nan, index=pd.Index(names, name="first"),
                            columns=pd.Index(names, name="second"))
    pairwise_metric = pairwise.copy()
    for i, first in enumerate(names):
        for second in names[i + 1:]:
            comparison = PairedComparison.from_counts(
                PairedCounts.from_predictions(y_true, predictions[first], predictions[second],
                                              sample_weight=sample_weight),
                prior=prior, rope=rope)
            pairwise.loc[first, second] = comparison.prob_first_better
            pairwise.loc[second, first] = comparison.prob_second_better
            metric_comparison = compare_paired_metric(
                y_true, predictions[first], predictions[second], metric=spec.name, beta=beta,
                prior=prior, rope=rope, n_samples=n_samples, random_state=rng,
                sample_weight=sample_weight, pos_label=pos_label)
            pairwise_metric.loc[first, second] = metric_comparison.prob_first_better
            pairwise_metric.loc[second, first] = metric_comparison.prob_second_better
    return summary, pairwise, pairwise_metric


def _ttest_table(fold_scores, metric, *, test_fraction, rope, runs):
    """Correlated t-test of fold scores for every pair of estimators.

    A pair whose fold scores include an undefined metric (0/0 on a fold, for
    example precision of a fold with no predicted positive) gets NaN
    probabilities and an `UndefinedMetricWarning`, never a silent number.
    """
    import pandas as pd

    names = list(fold_scores)
    rows = []
    undefined = [name for name in names if not np.all(np.isfinite(fold_scores[name]))]
    if undefined:
        warnings.warn(
            f"{metric} is undefined on some folds of {undefined!r} (0/0); the t-tests of "
            "those estimators are NaN. Pooled counts and paired comparisons are unaffected.",
            UndefinedMetricWarning, stacklevel=4)
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
    return pd.DataFrame(rows, columns=["first", "second", "prob_first_better",
                                       "prob_equivalent", "prob_second_better",
                                       "mean_difference"])


def _build_report(records, y, metric, *, beta, prior, rope, confidence, pos_label, n_repeats,
                  n_samples, random_state):
    """Assemble a ComparisonReport from per-fold predictions of every estimator.

    The out-of-fold predictions, concatenated over folds (weight 1/n_repeats
    per item and repeat), give the pooled summary and the paired tables
    through `compare_predictions`; fold scores give the t-tests.
    """
    import pandas as pd

    spec = get_metric(metric)
    names = list(records)
    first_records = records[names[0]]
    truth = np.concatenate([y[record["test"]] for record in first_records])
    concatenated = {name: np.concatenate([record["y_pred"] for record in records[name]])
                    for name in names}
    weight = None if n_repeats == 1 else np.full(truth.shape[0], 1.0 / n_repeats)
    summary, pairwise, pairwise_metric = compare_predictions(
        truth, concatenated, metric=metric, beta=beta, prior=prior, rope=rope,
        confidence=confidence,
        pos_label=pos_label, sample_weight=weight, n_samples=n_samples,
        random_state=random_state)
    summary.index.name = "estimator"
    per_fold_rows, fold_scores = [], {}
    ap_columns = {"average_precision": [], "random_average_precision": []}
    for name in names:
        scores, ap_values, random_ap = [], [], []
        for record in records[name]:
            y_test = y[record["test"]]
            counts = ConfusionCounts.from_predictions(y_test, record["y_pred"],
                                                      pos_label=pos_label)
            value = float(spec(counts.tp, counts.fp, counts.fn, counts.tn,
                               **_params(spec, beta)))
            scores.append(value)
            per_fold_rows.append({"estimator": name, "repeat": record["repeat"],
                                  "fold": record["fold"], "tp": float(counts.tp),
                                  "fp": float(counts.fp), "fn": float(counts.fn),
                                  "tn": float(counts.tn), "score": value})
            relevant = np.asarray(y_test == pos_label)
            if record["y_score"] is not None and relevant.any():
                ap_values.append(average_precision(relevant.astype(int), record["y_score"]))
                random_ap.append(random_average_precision(relevant.shape[0],
                                                          int(relevant.sum())).mean)
        fold_scores[name] = np.asarray(scores)
        ap_columns["average_precision"].append(np.mean(ap_values) if ap_values else np.nan)
        ap_columns["random_average_precision"].append(np.mean(random_ap) if random_ap
                                                      else np.nan)
    for column, values in ap_columns.items():
        summary[column] = np.asarray(values, dtype=float)
    test_fraction = float(np.mean([len(r["test"]) for r in first_records])) / y.shape[0]
    ttest_frame = _ttest_table(fold_scores, spec.name, test_fraction=test_fraction, rope=rope,
                               runs=n_repeats)
    per_fold = pd.DataFrame(per_fold_rows, columns=["estimator", "repeat", "fold", "tp", "fp",
                                                    "fn", "tn", "score"])
    return ComparisonReport(summary=summary, pairwise=pairwise, pairwise_metric=pairwise_metric,
                            ttest=ttest_frame, per_fold=per_fold, metric=spec.name,
                            confidence=confidence, rope=float(rope), n_repeats=n_repeats)
