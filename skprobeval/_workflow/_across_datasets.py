"""Estimators cross-validated on several data sets and compared across all of them.

`compare_estimators_across_datasets` runs `compare_estimators` on each data set and
hands the table of their pooled out-of-fold scores to `compare_across_datasets`.
"""

from __future__ import annotations

from .._core import N_DRAWS, fail, renamed_keyword
from ._crossval import compare_estimators

__all__ = ["compare_estimators_across_datasets"]


@renamed_keyword("prior", "prior_strength")
@renamed_keyword("n_samples", "n_draws")
def compare_estimators_across_datasets(estimators, datasets, *, cv=5, metric="f1",
                                       average="macro", rope=0.0, test="signed-rank",
                                       prior_strength=None, n_draws=N_DRAWS, random_state=0,
                                       **options):
    """Cross-validate estimators on several data sets and compare them across all.

    On each data set, `compare_estimators` gives every estimator's pooled
    out-of-fold metric (the summary's ``point``, scikit-learn's score of
    ``cross_val_predict``); the table of those scores, data sets by
    estimators, goes to `compare_across_datasets`.

    Parameters
    ----------
    estimators : dict of str to estimator
        The candidates, by name (at least two).
    datasets : dict of str to (X, y)
        The data sets, by name (at least one; the signed-rank test needs
        several to say much).
    cv : int or cross-validation splitter, default=5
        As in `compare_estimators`.
    metric : str, default="f1"
        The metric of each data set.
    average : str, default="macro"
        How labels are combined; "macro" is defined for binary and multiclass
        data alike.
    rope, test, prior_strength, n_draws :
        As in `compare_across_datasets`.
    random_state : None or int, default=0
        Seeds the splits and every sampled figure.
    **options
        Passed to `compare_estimators` (e.g. ``n_jobs``, ``beta``).

    Returns
    -------
    AcrossDatasetsReport
        With the per-data-set reports in ``reports``.

    Examples
    --------
    >>> from sklearn.datasets import load_breast_cancer, load_iris, load_wine
    >>> from sklearn.naive_bayes import GaussianNB
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> from skprobeval import compare_estimators_across_datasets
    >>> datasets = {name: loader(return_X_y=True) for name, loader in
    ...             [("iris", load_iris), ("wine", load_wine), ("cancer", load_breast_cancer)]}
    >>> report = compare_estimators_across_datasets(
    ...     {"nb": GaussianNB(), "tree": DecisionTreeClassifier(random_state=0)}, datasets,
    ...     cv=3, n_draws=2000)
    >>> report.scores.round(3)
               nb   tree
    iris    0.960  0.947
    wine    0.973  0.923
    cancer  0.935  0.896
    """
    import pandas as pd

    from .._compare import check_across_options, compare_across_datasets

    if not isinstance(datasets, dict) or not datasets:
        fail("datasets", "a dict of named (X, y) pairs", datasets)
    check_across_options(test, rope, prior_strength, n_draws)     # before any fitting
    reports, rows = {}, {}
    for name, pair in datasets.items():
        if not isinstance(pair, (tuple, list)) or len(pair) != 2:
            fail("datasets", "a dict of named (X, y) pairs", {name: type(pair).__name__})
        X, y = pair
        report = compare_estimators(estimators, X, y, cv=cv, metric=metric, average=average,
                                    random_state=random_state, n_draws=n_draws, **options)
        reports[name] = report
        rows[name] = report.summary["point"]
    scores = pd.DataFrame(rows).T
    scores.columns.name = None
    return compare_across_datasets(scores, rope=rope, test=test, prior_strength=prior_strength,
                                   n_draws=n_draws, random_state=random_state,
                                   reports=reports)
