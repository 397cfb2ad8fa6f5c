"""Model comparison from estimators, cross-validation results or predictions.

`compare_estimators` freezes the splits once and runs scikit-learn's
`~sklearn.model_selection.cross_validate` for every estimator (no
hand-written cross-validation); `compare_cv_results` reads results the user
already holds; `compare_predictions` takes predictions on one test set.
All three gather each system's per-fold predictions (and scores for
average precision) and hand them to the one report builder; results with
counts only or fold scores only get the reports of ``_report.py`` and
``_fold_scores.py``.
"""

from __future__ import annotations

import dataclasses
import sys

import numpy as np
from sklearn.base import clone
from sklearn.model_selection import check_cv, cross_validate

from .._core import (
    N_DRAWS,
    as_array,
    fail,
    renamed_keyword,
    to_host,
)
from .._counting import frame_matrix, joint_codes, resolve_columns
from ._cv_groups import check_group_splits, default_splitter, item_clusters
from ._fold_predictions import predict_folds
from ._fold_scores import compare_fold_scores, refuse_search_results, result_kind
from ._options import _check_common, check_report_options
from ._proxy_report import proxy_report
from ._report import _counts_only_report, _repeats
from ._report_builder import _Fold, _ReportBuilder, group_columns
from ._skore import is_skore, skore_cv_results, skore_predictions

__all__ = ["check_report_options", "compare_cv_results", "compare_estimators",
           "compare_predictions"]


def _check_target(y, name="y"):
    """``y`` as an array: 1-d labels or a 2-d indicator matrix, non-empty."""
    import scipy.sparse as sp

    if sp.issparse(y):
        y = y.toarray()
    array = as_array(y, name)
    if array.ndim == 2 and array.shape[1] == 1:
        array = array.ravel()
    if array.ndim not in (1, 2) or array.shape[0] == 0:
        fail(name, "a non-empty 1-d array of labels or a 2-d label indicator matrix", y,
             shown=f"an array of shape {array.shape}")
    return array


# ---------------------------------------------------------------------------
# Entry points
# ---------------------------------------------------------------------------


def _skip_scoring(estimator, X, y):
    """A scorer that predicts nothing: the report predicts once, afterwards."""
    return 0.0


@renamed_keyword("n_samples", "n_draws")
def compare_estimators(estimators, X, y, *, cv=5, metric="f1", average="binary", labels=None,
                       beta=1.0, prior=0.5, rope=0.0, confidence=0.95, pos_label=1, n_jobs=None,
                       random_state=0, n_draws=N_DRAWS, verbose=False, groups=None):
    """Cross-validate several classifiers on the same splits and compare them.

    The splits are frozen once (``list(cv.split(X, y, groups))``) and every estimator
    runs through `sklearn.model_selection.cross_validate` with
    ``return_estimator=True, return_indices=True``.  From the out-of-fold
    predictions the report computes, per estimator, the pooled counts and
    the posterior of `metric` (averaged over labels as `average` says), and,
    per pair, the paired Dirichlet comparison of per-item correctness, the
    paired joint comparison of the metric and the correlated Bayesian t-test
    of fold scores.

    With a repeated scheme (e.g. `~sklearn.model_selection.RepeatedStratifiedKFold`)
    every item is tested ``n_repeats`` times: pooled counts are divided by
    ``n_repeats`` so the evidence is not overstated.

    Parameters
    ----------
    estimators : dict of str to estimator
        The candidates, by name (at least two).
    X : array-like of shape (n_samples, n_features)
        Features.
    y : array-like of shape (n_samples,) or (n_samples, n_labels)
        Class labels (binary or multiclass), or a multilabel indicator matrix.
    cv : int or cross-validation splitter, default=5
        An int gives ``StratifiedKFold(cv, shuffle=True, random_state=random_state)``
        (``KFold`` for multilabel targets); with `groups`,
        ``StratifiedGroupKFold(cv, shuffle=True, random_state=random_state)``
        (``GroupKFold`` for multilabel targets), since scikit-learn's
        `check_cv` gives no group splitter for an int.
    metric : str, default="f1"
        A registered metric name (see `available_metrics`).  ``prob_first_better``
        and the t-test read "the first has the higher value": for metrics
        where lower is better (fallout, error, silence, noise, e_measure) that
        is the worse one.
    average : {"binary", "micro", "macro", "weighted", "powers"} or None, default="binary"
        How labels are combined, as in `sklearn.metrics.f1_score`:
        ``"binary"`` reports the table of `pos_label` (binary targets only);
        ``"micro"`` pools the per-label tables (on single-label multiclass
        data precision, recall, F and accuracy are then the share of items
        right, with an exact Beta posterior); ``"macro"`` is the mean over
        labels and ``"weighted"`` the mean weighted by support (sampled from
        the joint Dirichlet of the K x K table, or of independent columns for
        multilabel targets); ``"powers"`` (informedness and markedness only)
        weights labels by predicted (true) share; ``None`` gives one row per
        label.
    labels : array-like, default=None
        Labels to average over, in order; they must occur in the data.  By
        default every label (for multilabel targets: the column indices).
    beta : float, default=1.0
        F-beta's beta, for ``metric="fbeta"`` (and ``"e_measure"``).
    prior : float or {"jeffreys", "uniform"}, default=0.5
        Dirichlet concentration λ of each system's table (λ on every cell of
        a binary table; d = 2λ/K on the diagonal and d/(K-1) off it of a K x K
        one, the same total mass 4λ).
    rope : float, default=0.0
        Region of practical equivalence for the comparisons, in [0, 1) (it
        applies to the share of items right as well as to the metric).
    confidence : float, default=0.95
        Level of the credible intervals.
    pos_label : int, float, bool or str, default=1
        The positive class of ``average="binary"``.
    n_draws : int, default=10_000
        Posterior draws of every sampled figure (the paired metric
        comparisons, macro / weighted posteriors); their Monte Carlo error is
        reported next to them.
    random_state : None, int or numpy.random.Generator, default=0
        Seeds the default splitter and every sampled figure: identical input
        gives identical reports.
    n_jobs : int, default=None
        Passed to `cross_validate`: folds fitted in parallel by joblib.  Under
        ``joblib.parallel_backend("dask")`` with a ``distributed.Client``
        they run on the Dask cluster (the ``dask`` extra); the report is the
        same as with ``n_jobs=None``.
    verbose : bool, default=False
        Print progress over estimators and folds to stderr.
    groups : array-like of shape (n_samples,), default=None
        Cluster of each item (a patient, a document: any sortable ids), as
        scikit-learn's ``cross_validate(..., groups=)``: passed to the
        splitter, whose splits must keep every cluster on one side (a
        ``ValueError`` otherwise).  The pooled out-of-fold posteriors, the
        pairs and the ranking are then the Bayesian bootstrap of the clusters
        (see `compare_predictions`).

    Returns
    -------
    ComparisonReport

    See Also
    --------
    compare_cv_results : The same from cross-validation results you hold.
    compare_predictions : The same from predictions on one test set.

    Examples
    --------
    >>> from sklearn.datasets import load_breast_cancer, load_iris
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.naive_bayes import GaussianNB
    >>> from sklearn.pipeline import make_pipeline
    >>> from sklearn.preprocessing import StandardScaler
    >>> from skprobeval import compare_estimators
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> models = {"logreg": make_pipeline(StandardScaler(), LogisticRegression()),
    ...           "nb": GaussianNB()}
    >>> report = compare_estimators(models, X, y, cv=5)
    >>> report.summary[["tp", "fp", "fn", "tn"]]
                  tp    fp    fn     tn
    estimator
    logreg     354.0   9.0   3.0  203.0
    nb         346.0  24.0  11.0  188.0
    >>> round(float(report.pairwise.loc["logreg", "nb"]), 3)
    1.0

    Three classes, macro F1 (``point`` is scikit-learn's ``f1_score(y,
    cross_val_predict(...), average="macro")`` on the same splits):

    >>> from sklearn.tree import DecisionTreeClassifier
    >>> X, y = load_iris(return_X_y=True)
    >>> report = compare_estimators({"nb": GaussianNB(),
    ...                              "tree": DecisionTreeClassifier(random_state=0)},
    ...                             X, y, cv=5, average="macro")
    >>> report.summary[["point", "mean", "low", "high"]].round(2)
               point  mean   low  high
    estimator
    nb          0.96  0.95  0.92  0.98
    tree        0.93  0.93  0.88  0.96
    >>> round(float(report.pairwise_metric.loc["nb", "tree"]), 2)
    0.98
    """
    if not isinstance(estimators, dict) or len(estimators) < 2:
        fail("estimators", "a dict of at least two named estimators", estimators)
    spec, average, beta, lam, confidence, n_draws = _check_common(
        metric, average, beta, prior, confidence, n_draws)
    labels = to_host(labels, "labels")      # read once for every fold and system
    y_array = _check_target(y)
    multilabel = y_array.ndim == 2
    clusters = item_clusters(groups, y_array.shape[0])
    if isinstance(cv, (int, np.integer)) and not isinstance(cv, bool):
        if cv < 2:
            fail("cv", "an int >= 2 or a splitter", cv)
        splitter = default_splitter(int(cv), multilabel=multilabel,
                                    grouped=clusters is not None, random_state=random_state)
    else:
        splitter = check_cv(cv, y_array, classifier=True)
    splits = list(splitter.split(X, y_array, clusters))
    if clusters is not None:
        check_group_splits(splits, clusters, cv)
    n_repeats = _repeats(splits, y_array.shape[0])
    n_per_repeat = len(splits) // n_repeats
    folds = [_Fold(np.asarray(test), k // n_per_repeat, k % n_per_repeat)
             for k, (_, test) in enumerate(splits)]
    # Validate the target and the averaging before any fitting.
    joint_codes(y_array, [y_array], average=average, labels=labels, pos_label=pos_label,
                names=["y", "y"], labels_present=True)
    predictions, scores = {}, {}
    for position, (name, estimator) in enumerate(estimators.items()):
        if verbose:
            print(f"[{position + 1}/{len(estimators)}] {name}: cross-validating "
                  f"{len(splits)} folds", file=sys.stderr)
        result = cross_validate(clone(estimator), X, y_array, cv=splits, n_jobs=n_jobs,
                                return_estimator=True, return_indices=True,
                                scoring=_skip_scoring)
        predictions[name], scores[name] = predict_folds(result["estimator"], folds, X, y_array,
                                                         average, labels, pos_label, verbose)
    return _ReportBuilder(y_array, folds, predictions, scores, spec=spec, average=average,
                          labels=labels, pos_label=pos_label, beta=beta, lam=lam, rope=rope,
                          confidence=confidence, n_repeats=n_repeats, n_draws=n_draws,
                          random_state=random_state, groups=clusters).build()


@renamed_keyword("n_samples", "n_draws")
def compare_cv_results(results, *, y=None, X=None, scoring=None, cv=None, test_fraction=None,
                       metric="f1", average="binary", labels=None, beta=1.0, prior=0.5,
                       rope=0.0, confidence=0.95, pos_label=1, n_draws=N_DRAWS,
                       random_state=0, repeats="pooled", groups=None):
    """Compare estimators from `cross_validate` results the user already holds.

    Each value of `results` is the dict returned by
    ``cross_validate(..., return_indices=True)`` for one estimator, on the same
    splits (or the array of ``cross_val_score``).  What the report can hold
    depends on what the results carry:

    * out-of-fold predictions — a ``"predictions"`` entry (one array per fold,
      aligned with ``indices["test"]``, optionally with ``"scores"`` for
      average precision), or ``return_estimator=True`` and `X` so that the
      fitted fold estimators predict their test rows — give the full report,
      paired comparisons included (`y` is needed);
    * only the counts of ``scoring=CountsScorer()`` (``test_tp``,
      ``test_fp``, ...; per label ``test_tp_<label>`` with
      ``CountsScorer(labels=...)``) give the summary, the per-fold table and
      the t-tests; the paired tables, which need item-level predictions, are
      then NaN and a warning says so.  Macro and weighted averages then
      draw each label's one-vs-rest table independently, since per-label
      counts do not determine the joint K x K table;
    * only fold scores — ``test_score`` of a plain ``cross_validate(model,
      X, y, cv=5)`` (``test_<scorer>`` per scorer of a multi-metric
      ``scoring=``), or the array of ``cross_val_score`` (a list will do)
      — give the t-tests, a summary and a ranking of the mean scores
      (below).  The scorer did the scoring: `y`, `X`, `metric`, `average`,
      `labels`, `beta`, `prior` and `pos_label` are then neither used nor
      checked, and the report's `metric` is the scorer's name.

    **Fold scores only.**  With ``n`` fold scores per system, sample
    variance ``s^2`` and test fraction ``rho``, a system's mean score has the
    Student-t posterior with ``n - 1`` degrees of freedom, location the mean
    fold score and squared scale ``(1/n + rho/(1 - rho)) s^2``: the
    one-system marginal of `rank_cv_results`' multivariate t, whose
    contrasts are the correlated t-tests (Nadeau & Bengio 2003; Benavoli et
    al. 2017).  The report holds ``ttest`` (`correlated_ttest` of every
    pair); ``summary`` (``point`` and ``mean`` the mean fold score, ``low``
    and ``high`` that posterior's interval, ``mc_error`` 0, the count
    columns NaN); ``per_fold`` (``estimator``, ``repeat``, ``fold``,
    ``score``; counts NaN); ``ranking``, the `CVResultsRanking` of the
    systems, whose ``pairwise`` is the t-tests' ``prob_first_better``; and
    ``note``, printed under the tables.  ``pairwise``, ``pairwise_metric``
    (NaN), ``pairs`` and ``per_label`` (empty) need the items.

    ``rho`` is `test_fraction`, else read from `cv` as `rank_cv_results`
    reads a search's splitter, else ``1/n`` (one k-fold partition).  For
    repeated k-fold pass `cv` or ``test_fraction=1/k``: ``1/n`` understates
    the correlation of the splits.  A system with a NaN fold score (a failed
    fit, which `cross_validate` scores NaN by default) gets NaN t-tests and
    summary row, with an `~sklearn.exceptions.UndefinedMetricWarning`, and
    the report no ranking.

    Parameters
    ----------
    results : dict of str to dict or to array-like of shape (n_splits,), or skore reports
        Per estimator (at least two), the result of `cross_validate`, or the
        fold scores of ``cross_val_score`` (see above).  Or skore's
        ``CrossValidationReport``: one, a list or dict of them, or a
        ``ComparisonReport`` of them, read through their public methods (out-of-fold
        predictions, probabilities or decision values for average precision, splits
        and ``y``; the report is that of `compare_estimators` on the same splits;
        their ``pos_label``, if set, where `pos_label` is left at 1).
    y : array-like of shape (n_samples,) or (n_samples, n_labels), default=None
        The labels the results were computed on (needed with predictions).
    X : array-like of shape (n_samples, n_features), default=None
        The features, to predict with ``result["estimator"]`` when the results
        hold fitted estimators but no ``"predictions"``.
    scoring : str, default=None
        Fold scores only: which ``test_<scoring>`` key to read, as
        `rank_cv_results` reads a search.  By default ``"score"`` where
        present, else the only scorer every result holds.  For
        ``cross_val_score`` arrays, the name the report gives their scores
        (default ``"score"``).  Higher is better, as for every scikit-learn
        scorer.
    cv : int, cross-validation splitter or list of (train, test) splits, default=None
        Fold scores only: the `cv` the scores were computed with, for the
        test fraction ``rho`` (a (repeated) k-fold splitter, an int, a
        shuffle split with float sizes, or the splits) and the repeats; it
        must make as many splits as there are fold scores.
    test_fraction : float, default=None
        Fold scores only: ``rho``, the share of the data in each test fold,
        in (0, 1): ``1/k`` for k-fold cross-validation, repeated or not.  By
        default from `cv`, else ``1/n`` for ``n`` fold scores.  (Results with
        predictions or counts give it from their folds.)
    metric : str, default="f1"
        A registered metric name (see `available_metrics`).  ``prob_first_better``
        and the t-test read "the first has the higher value": for metrics
        where lower is better (fallout, error, silence, noise, e_measure) that
        is the worse one.  Not used with fold scores only.
    average : {"binary", "micro", "macro", "weighted", "powers"} or None, default="binary"
        How labels are combined, as in `sklearn.metrics.f1_score`:
        ``"binary"`` reports the table of `pos_label` (binary targets only);
        ``"micro"`` pools the per-label tables (on single-label multiclass
        data precision, recall, F and accuracy are then the share of items
        right, with an exact Beta posterior); ``"macro"`` is the mean over
        labels and ``"weighted"`` the mean weighted by support (sampled from
        the joint Dirichlet of the K x K table, or of independent columns for
        multilabel targets); ``"powers"`` (informedness and markedness only)
        weights labels by predicted (true) share; ``None`` gives one row per
        label.  Not used with fold scores only (the report's ``average`` is
        then ``"binary"``: one row per system).
    labels : array-like, default=None
        Labels to average over, in order; they must occur in the data.  By
        default every label (for multilabel targets: the column indices).
    beta : float, default=1.0
        F-beta's beta, for ``metric="fbeta"`` (and ``"e_measure"``).
    prior : float or {"jeffreys", "uniform"}, default=0.5
        Dirichlet concentration λ of each system's table (λ on every cell of
        a binary table; d = 2λ/K on the diagonal and d/(K-1) off it of a K x K
        one, the same total mass 4λ).
    rope : float, default=0.0
        Region of practical equivalence for the comparisons, in [0, 1) (it
        applies to the share of items right as well as to the metric); with
        fold scores only, any finite value >= 0, in score units.
    confidence : float, default=0.95
        Level of the credible intervals.
    pos_label : int, float, bool or str, default=1
        The positive class of ``average="binary"``.
    n_draws : int, default=10_000
        Posterior draws of every sampled figure (the paired metric
        comparisons, macro / weighted posteriors, the ranking of fold
        scores); their Monte Carlo error is reported next to them.
    random_state : None, int or numpy.random.Generator, default=0
        Seeds the default splitter and every sampled figure: identical input
        gives identical reports.
    repeats : {"pooled", "runs"}, default="pooled"
        For repeated cross-validation with predictions: ``"pooled"`` pools
        the repeats' counts (divided by the number of repeats); ``"runs"``
        makes each repeat a run of `compare_counts`' runs model (each
        repeat's counts their own posterior, the mean over repeats, the
        spread between them and a new repeat's interval).  The repeats test
        the same items: each repeat's counts weigh 1/R, so that together
        they carry the items' evidence once; the spread between repeats is
        the models' sensitivity to the split, and the comparisons are
        unpaired.
    groups : array-like of shape (n_samples,), default=None
        Cluster of each item of `y`, as passed to ``cross_validate(...,
        groups=)``: the results' splits must keep every cluster on one
        side (checked where they hold ``indices["train"]``), and the pooled
        posteriors, pairs and ranking are the Bayesian bootstrap of the
        clusters (see `compare_predictions`).  Results with predictions
        (or fitted estimators and `X`) and ``repeats="pooled"`` only.

    Returns
    -------
    ComparisonReport

    See Also
    --------
    compare_estimators : The same report, running the cross-validation itself.
    rank_cv_results : The ranking of the candidates of a search (its ``cv_results_``).
    correlated_ttest : The t-test of two systems' fold scores.

    Examples
    --------
    >>> from sklearn.datasets import load_breast_cancer
    >>> from sklearn.model_selection import cross_validate, StratifiedKFold
    >>> from sklearn.naive_bayes import GaussianNB
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> from skprobeval import compare_cv_results
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> splits = list(StratifiedKFold(5, shuffle=True, random_state=0).split(X, y))
    >>> results = {name: cross_validate(model, X, y, cv=splits, return_estimator=True,
    ...                                 return_indices=True)
    ...            for name, model in {"tree": DecisionTreeClassifier(random_state=0),
    ...                                "nb": GaussianNB()}.items()}
    >>> report = compare_cv_results(results, y=y, X=X)
    >>> list(report.summary.index)
    ['tree', 'nb']
    >>> round(float(report.pairwise.loc["tree", "nb"]), 3)
    0.143

    Fold scores only, as a plain ``cross_validate`` returns them: the
    t-test of every pair, each system's mean score with its interval, and
    the ranking:

    >>> models = {"tree": DecisionTreeClassifier(max_depth=3, random_state=0),
    ...           "nb": GaussianNB()}
    >>> results = {name: cross_validate(model, X, y, cv=5) for name, model in models.items()}
    >>> report = compare_cv_results(results)
    >>> report.summary[["point", "low", "high"]].round(3)
               point    low   high
    estimator
    tree       0.917  0.871  0.963
    nb         0.939  0.908  0.969
    >>> report.ttest[["first", "second", "prob_first_better", "mean_difference"]].round(3)
      first second  prob_first_better  mean_difference
    0  tree     nb              0.136           -0.021
    >>> report.ranking.prob_best.round(2).tolist()
    [0.13, 0.87]
    >>> print(report.note)
    Fold scores only: no counts, so no per-item posterior; test fraction 0.2 (1/5: one
    5-fold partition; pass test_fraction= for repeated cross-validation).

    The arrays of ``cross_val_score`` give the same report:

    >>> from sklearn.model_selection import cross_val_score
    >>> scores = {name: cross_val_score(model, X, y, cv=5) for name, model in models.items()}
    >>> round(float(compare_cv_results(scores).ttest["prob_first_better"].iloc[0]), 3)
    0.136
    """
    refuse_search_results(results)
    single = False
    if is_skore(results):
        results, y, pos_label = skore_cv_results(results, y=y, average=average, labels=labels,
                                                 pos_label=pos_label)
        single = len(results) == 1      # one skore report: its own posterior
    if not isinstance(results, dict) or len(results) < 2 - single:
        fail("results", "a dict of at least two named cross-validation results "
             "({name: cross_validate(...)} or {name: cross_val_score(...)})", results,
             shown=f"{len(results)} result(s) for {list(results)}"
             if isinstance(results, dict) else None)
    if repeats not in ("pooled", "runs"):
        fail("repeats", "'pooled' or 'runs'", repeats)
    kinds = {name: result_kind(result, X) for name, result in results.items()}
    if groups is not None and (repeats == "runs" or any(
            kind == "fold scores only" for kind in kinds.values())):
        fail("groups", "None for fold scores and for repeats='runs' (clusters weigh the "
             "pooled out-of-fold predictions)", groups, error=TypeError, shown="an array")
    if all(kind == "fold scores only" for kind in kinds.values()):
        if repeats == "runs":
            fail("repeats", "'pooled' for fold scores alone (runs need each repeat's counts)",
                 repeats)
        return compare_fold_scores(results, scoring=scoring, cv=cv, test_fraction=test_fraction,
                                   rope=rope, confidence=confidence, n_draws=n_draws,
                                   random_state=random_state)
    if "fold scores only" in kinds.values():
        fail("results", "results of one kind for every system: all with out-of-fold "
             "predictions (or fitted estimators and X), all with CountsScorer counts, or all "
             "with fold scores only", kinds)
    spec, average, beta, lam, confidence, n_draws = _check_common(
        metric, average, beta, prior, confidence, n_draws)
    labels = to_host(labels, "labels")      # read once for every fold and system
    tests = {name: _test_indices(name, result) for name, result in results.items()}
    usable = {name: "predictions" in result or ("estimator" in result and X is not None)
              for name, result in results.items()}
    if not all(usable.values()):
        if groups is not None:
            fail("groups", "None for results without predictions (counts know no items; pass "
                 "X with return_estimator=True results, or 'predictions')", groups,
                 error=TypeError, shown="an array")
        if repeats == "runs":
            fail("repeats", "'pooled' for results without predictions (pass X with "
                 "return_estimator=True results, or 'predictions')", repeats)
        return _counts_only_report(results, tests, spec, average=average, beta=beta, lam=lam,
                                   rope=rope, confidence=confidence, n_draws=n_draws,
                                   random_state=random_state)
    if y is None:
        fail("y", "the labels the results were computed on", y)
    y_array = _check_target(y)
    reference = next(iter(tests.values()))
    if reference is None:
        fail("results", "results with 'indices' (cross_validate(..., return_indices=True))",
             sorted(next(iter(results.values()))))
    if any(t.max(initial=-1) >= y_array.shape[0] for t in reference):
        fail("y", f"as long as the data the results index ({y_array.shape[0]} given)",
             y, shown=f"length {y_array.shape[0]}")
    clusters = item_clusters(groups, y_array.shape[0])
    if clusters is not None:
        train = next(iter(results.values()))["indices"].get("train")
        check_group_splits(zip(train if train is not None else [None] * len(reference),
                               reference), clusters, cv)
    n_repeats = _repeats([(None, t) for t in reference], y_array.shape[0])
    n_per_repeat = len(reference) // n_repeats
    folds = [_Fold(t, k // n_per_repeat, k % n_per_repeat) for k, t in enumerate(reference)]
    predictions, scores = {}, {}
    for name, result in results.items():
        if tests[name] is None or len(tests[name]) != len(reference) or any(
                not np.array_equal(a, b) for a, b in zip(tests[name], reference)):
            fail("results", "results on the same splits (same indices['test'])", name)
        if "predictions" in result:
            fold_predictions = [np.asarray(to_host(p, f"results[{name!r}]['predictions']"))
                                for p in result["predictions"]]
            fold_scores = result.get("scores")
            fold_scores = None if fold_scores is None else [
                np.asarray(to_host(s, f"results[{name!r}]['scores']"), dtype=float)
                for s in fold_scores]
        else:
            fold_predictions, fold_scores = predict_folds(result["estimator"], folds, X,
                                                           y_array, average, labels, pos_label,
                                                           False)
        if len(fold_predictions) != len(reference) or any(
                p.shape[0] != t.shape[0] for p, t in zip(fold_predictions, reference)):
            fail("results", f"one prediction array per test fold for {name!r}",
                 len(fold_predictions), shown=f"{len(fold_predictions)} arrays")
        predictions[name], scores[name] = fold_predictions, fold_scores
    if repeats == "runs":
        from ._counts_report import repeats_as_runs

        return repeats_as_runs(y_array, folds, predictions, n_repeats, spec=spec,
                               average=average, labels=labels, pos_label=pos_label, beta=beta,
                               lam=lam, rope=rope, confidence=confidence, n_draws=n_draws,
                               random_state=random_state)
    builder = _ReportBuilder(y_array, folds, predictions, scores, spec=spec, average=average,
                             labels=labels, pos_label=pos_label, beta=beta, lam=lam, rope=rope,
                             confidence=confidence, n_repeats=n_repeats, n_draws=n_draws,
                             random_state=random_state, groups=clusters)
    return builder.build(
        strict_scores=any('scores' in result for result in results.values()))


def _test_indices(name, result):
    indices = result.get("indices")
    if indices is None:
        return None
    try:
        return [np.asarray(t) for t in indices["test"]]
    except (KeyError, TypeError):
        fail("results", "'indices' as returned by cross_validate(..., return_indices=True)",
             {name: indices})


@renamed_keyword("n_samples", "n_draws")
def compare_predictions(y_true, predictions=None, *, metric="f1", average="binary", labels=None,
                        beta=1.0, prior=0.5, rope=0.0, confidence=0.95, pos_label=1,
                        sample_weight=None, scores=None, data=None, sensitive_features=None,
                        n_draws=N_DRAWS, random_state=0, groups=None, proxy=None):
    """Posteriors and paired comparisons of several systems' predictions on one test set.

    The same report as `compare_estimators`, from predictions you hold:
    there are no folds, so the t-test table is empty and ``n_repeats`` is 1.

    With `data`, the arguments name columns of a DataFrame (seaborn's
    ``data=`` convention): ``compare_predictions("gold", ["a", "b", "c"],
    data=frame)``.  A Dask DataFrame (for instance
    ``dask.dataframe.read_parquet("logs/*.parquet")``) is never loaded: every
    system and every pair is counted in one pass over the data, one Dask
    computation that reduces the rows to their distinct combinations of
    labels and the number of items of each; the report is computed from those.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_labels), or str
        True labels, or a multilabel indicator matrix; with `data`, the name
        of the truth column.  Every array-like here may be a NumPy, pandas or
        Dask array, or any DLPack or array-API array (PyTorch, CuPy, JAX; CPU
        or GPU), copied to the host once.
    predictions : dict of str to array-like of the same shape as `y_true`, or list of str
        Each system's predicted labels, by name (at least one); with `data`,
        a list of column names (the names of the systems) or a dict of
        system names to column names.  Or skore's ``EstimatorReport``s on one
        test set (a list, a dict, or a ``ComparisonReport`` of them; the
        scores come with them): `y_true` is then None (or their ``y_test``),
        and ``compare_predictions(comparison)`` will do.
    metric : str, default="f1"
        A registered metric name (see `available_metrics`).  ``prob_first_better``
        and the t-test read "the first has the higher value": for metrics
        where lower is better (fallout, error, silence, noise, e_measure) that
        is the worse one.
    average : {"binary", "micro", "macro", "weighted", "powers"} or None, default="binary"
        How labels are combined, as in `sklearn.metrics.f1_score`:
        ``"binary"`` reports the table of `pos_label` (binary targets only);
        ``"micro"`` pools the per-label tables (on single-label multiclass
        data precision, recall, F and accuracy are then the share of items
        right, with an exact Beta posterior); ``"macro"`` is the mean over
        labels and ``"weighted"`` the mean weighted by support (sampled from
        the joint Dirichlet of the K x K table, or of independent columns for
        multilabel targets); ``"powers"`` (informedness and markedness only)
        weights labels by predicted (true) share; ``None`` gives one row per
        label.
    labels : array-like, default=None
        Labels to average over, in order; they must occur in the data.  By
        default every label (for multilabel targets: the column indices).
    beta : float, default=1.0
        F-beta's beta, for ``metric="fbeta"`` (and ``"e_measure"``).
    prior : float or {"jeffreys", "uniform"}, default=0.5
        Dirichlet concentration λ of each system's table (λ on every cell of
        a binary table; d = 2λ/K on the diagonal and d/(K-1) off it of a K x K
        one, the same total mass 4λ).
    rope : float, default=0.0
        Region of practical equivalence for the comparisons, in [0, 1) (it
        applies to the share of items right as well as to the metric).
    confidence : float, default=0.95
        Level of the credible intervals.
    pos_label : int, float, bool or str, default=1
        The positive class of ``average="binary"``.
    n_draws : int, default=10_000
        Posterior draws of every sampled figure (the paired metric
        comparisons, macro / weighted posteriors); their Monte Carlo error is
        reported next to them.
    random_state : None, int or numpy.random.Generator, default=0
        Seeds the default splitter and every sampled figure: identical input
        gives identical reports.
    sample_weight : array-like of shape (n_samples,) or str, default=None
        Non-negative item weights (with `data`, a column name).  They act as
        counts: an item of weight 10 is evidence of ten items (intervals
        narrow about three-fold).
    scores : dict of str to array-like, default=None
        Each system's scores for average precision: shape (n_samples,)
        ranking `pos_label` first for ``average="binary"``, else
        (n_draws, n_labels) with one column per label of the report.
        With `data`, a dict of system names to a column name (a list of
        column names for one column per label); not with a Dask DataFrame,
        whose scores would have to be loaded to be ranked.
    data : DataFrame, default=None
        A pandas, Dask or Polars DataFrame, a pyarrow Table or a dict of
        columns, that the other arguments name columns of.
    sensitive_features : array-like, DataFrame or dict, or str or list of str, default=None
        Groups of the items (with `data`, column names), as fairlearn's
        ``MetricFrame`` takes them; several columns give their intersections.
        The report then has `by_group` (each system's metric per group: the
        point value, posterior mean and interval) and `group_gaps` (the gap
        between each system's groups and P(gap > `rope`)), from
        `PosteriorMetricFrame`.  Binary targets (``average="binary"``) only;
        not with a Dask DataFrame.
    groups : array-like of shape (n_samples,) or str, default=None
        Cluster of each item (a patient, a document: any sortable ids; with
        `data`, a column name).  Items of one cluster are not independent
        draws from the population; the clusters are.  Every posterior, pair
        and the ranking is then the Bayesian bootstrap of the clusters: one
        joint table of the truth and all systems in which each cluster's
        items share one weight, the same for every system (no exact Beta
        route, which takes no clusters).  The summary gains ``n_clusters``
        and ``effective_n`` and the report's note says so.  One item per
        cluster gives the report without `groups`, number for number.
        `sample_weight` weighs items within their clusters; every cluster
        is one draw.  With a Dask DataFrame, a column of it (counted with
        the labels in the same pass: each distinct combination of labels and
        cluster is one row weighted by its count).
    proxy : array-like of shape (n_samples,), default=None
        A second labeller's label of every item, where `y_true` holds a missing
        value for the items without a gold label: every posterior, pair and the
        ranking is then drawn from both (see `metric_posterior`); the count
        columns and ``point`` are the labelled items', beside ``n_labelled``.
        NumPy or pandas arrays; not with `data`, `scores`, `groups` or
        ``average=None``; `by_group` is then each group's own posterior.

    Returns
    -------
    ComparisonReport

    Examples
    --------
    >>> from skprobeval import compare_predictions
    >>> y_true = [1, 1, 0, 0, 1, 0, 1, 1, 0, 1]
    >>> report = compare_predictions(
    ...     y_true, {"a": [1, 1, 0, 0, 1, 0, 1, 0, 0, 1], "b": [1, 0, 0, 1, 1, 0, 0, 0, 0, 1]})
    >>> report.summary[["tp", "fp", "fn", "tn"]]
               tp   fp   fn   tn
    estimator
    a         5.0  0.0  1.0  4.0
    b         3.0  1.0  3.0  3.0
    >>> round(float(report.pairwise.loc["a", "b"]), 3)
    0.967

    Three classes, macro F1:

    >>> y_true = ["cat", "dog", "bird", "cat", "dog", "bird", "cat", "dog"]
    >>> report = compare_predictions(
    ...     y_true, {"a": ["cat", "dog", "bird", "cat", "dog", "cat", "cat", "dog"],
    ...              "b": ["dog", "dog", "bird", "cat", "cat", "bird", "bird", "dog"]},
    ...     average="macro")
    >>> report.summary["point"].round(3).tolist()
    [0.841, 0.622]

    Columns of a DataFrame (the same with a Dask DataFrame read from Parquet):

    >>> import pandas as pd
    >>> frame = pd.DataFrame({"gold": [1, 1, 0, 0, 1, 0, 1, 1, 0, 1],
    ...                       "a": [1, 1, 0, 0, 1, 0, 1, 0, 0, 1],
    ...                       "b": [1, 0, 0, 1, 1, 0, 0, 0, 0, 1]})
    >>> report = compare_predictions("gold", ["a", "b"], data=frame)
    >>> round(float(report.pairwise.loc["a", "b"]), 3)
    0.967

    Each system's recall by group, and the gap between the groups:

    >>> frame["site"] = ["x", "x", "x", "x", "x", "y", "y", "y", "y", "y"]
    >>> report = compare_predictions("gold", ["a", "b"], data=frame, metric="recall",
    ...                              sensitive_features="site")
    >>> report.by_group[["tp", "fn", "point"]].round(2)
                    tp   fn  point
    estimator site
    a         x    3.0  0.0   1.00
              y    2.0  1.0   0.67
    b         x    2.0  1.0   0.67
              y    1.0  2.0   0.33
    >>> report.group_gaps[["point", "higher", "lower"]].round(3)
               point higher lower
    estimator
    a          0.333      x     y
    b          0.333      x     y
    """
    if predictions is None and is_skore(y_true):
        y_true, predictions = None, y_true
    if is_skore(predictions):
        if scores is not None or data is not None:
            fail("scores" if scores is not None else "data", "None with skore reports (they "
                 "hold the scores)", scores if scores is not None else data, error=TypeError,
                 shown="a value")
        y_true, predictions, scores, pos_label = skore_predictions(
            predictions, y_true=y_true, average=average, labels=labels, pos_label=pos_label)
    if proxy is not None:
        return proxy_report(y_true, predictions, proxy, metric=metric, average=average,
                           labels=labels, beta=beta, prior=prior, rope=rope,
                           confidence=confidence, pos_label=pos_label, n_draws=n_draws,
                           random_state=random_state, sample_weight=sample_weight,
                           sensitive_features=sensitive_features,
                           refused={"scores": scores, "data": data, "groups": groups})
    if data is not None and isinstance(predictions, (list, tuple)):
        if len(set(map(str, predictions))) != len(predictions):
            fail("predictions", "distinct column names", predictions)
        predictions = {key: key for key in predictions}
    if not isinstance(predictions, dict) or not predictions:
        fail("predictions", "a dict of named prediction arrays (with `data`, a list of "
             "column names)", predictions)
    spec, average, beta, lam, confidence, n_draws = _check_common(
        metric, average, beta, prior, confidence, n_draws)
    labels = to_host(labels, "labels")      # read once for every fold and system
    if scores is not None and (not isinstance(scores, dict) or set(scores) - set(predictions)):
        fail("scores", "a dict of score arrays keyed like `predictions`", scores)
    names = list(predictions)
    # The clusters travel with the labels: with Dask input each distinct combination of
    # (truth, predictions, cluster) is one row weighted by its count, items of one
    # cluster as counts within it (the clusters' model of weighted items).
    extra = [] if groups is None else [groups]
    arrays, sample_weight, distinct = resolve_columns(
        data, [y_true, *predictions.values(), *extra],
        ["y_true", *[f"predictions[{name!r}]" for name in names], *["groups"] * len(extra)],
        sample_weight, distinct_arrays=True,
        label_names=["y_true", *[f"predictions of {name!r}" for name in names],
                     *["groups"] * len(extra)])
    if groups is not None:
        groups, arrays = arrays[-1], arrays[:-1]
    if distinct and scores is not None:
        fail("scores", "None with Dask input (average precision ranks every "
             "item's score, which would load the column)", scores)
    y_array = _check_target(arrays[0], "y_true")
    n_items = y_array.shape[0]
    clusters = item_clusters(groups, n_items)
    folds = [_Fold(np.arange(n_items), 0, 0)]
    fold_predictions = {name: [_check_target(values, f"predictions[{name!r}]")]
                        for name, values in zip(names, arrays[1:])}
    fold_scores = {name: None if scores is None or name not in scores
                   else [np.asarray(frame_matrix(data, scores[name], f"scores[{name!r}]"),
                                    dtype=float)] for name in names}
    builder = _ReportBuilder(y_array, folds, fold_predictions, fold_scores, spec=spec,
                             average=average, labels=labels, pos_label=pos_label, beta=beta,
                             lam=lam, rope=rope, confidence=confidence, n_repeats=1,
                             n_draws=n_draws, random_state=random_state,
                             sample_weight=sample_weight, truth_name="y_true", groups=clusters)
    report = builder.build(strict_scores=True, store_predictions=not distinct)
    if sensitive_features is None:
        return report
    if distinct:
        fail("sensitive_features", "None with Dask input (the groups are compared item "
             "by item)", sensitive_features, error=TypeError, shown="a column")
    if average != "binary":
        fail("sensitive_features", "None unless average='binary' (the groups are compared "
             "on one positive class)", sensitive_features, error=TypeError,
             shown=f"groups with average={average!r}")
    from .._compare import report_group_tables

    by_group, group_gaps = report_group_tables(
        y_array, {name: fold_predictions[name][0] for name in names},
        group_columns(data, sensitive_features), metric=spec.name,
        pos_label=pos_label, sample_weight=sample_weight, prior=lam, beta=beta, rope=rope,
        confidence=confidence, n_draws=n_draws, random_state=random_state, groups=groups)
    # replace() keeps the ranking, drawn or lazy (an init field).
    return dataclasses.replace(report, by_group=by_group, group_gaps=group_gaps)
