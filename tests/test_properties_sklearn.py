"""Properties of the scikit-learn integration: scorers survive pickling, and a
search gives the same result in parallel."""

import pickle

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.model_selection import GridSearchCV
from sklearn.tree import DecisionTreeClassifier
from strategies import label_pairs

from skprobeval import make_posterior_scorer


class _Fixed(ClassifierMixin, BaseEstimator):
    """Predicts stored labels, one per row of X (X holds the row numbers)."""

    def __init__(self, labels=None):
        self.labels = labels

    def fit(self, X, y):
        self.classes_ = np.unique(y)
        return self

    def predict(self, X):
        return np.asarray(self.labels)[np.asarray(X)[:, 0].astype(int)]


SCORER_OPTIONS = st.fixed_dictionaries({
    "metric": st.sampled_from(["f1", "precision", "recall", "informedness", "accuracy", "mcc"]),
    "statistic": st.sampled_from(["mean", "median", "lower", "upper", "prob_above"]),
    "average": st.sampled_from(["macro", "micro", "weighted"]),
    "prior": st.sampled_from([1e-3, 0.5, 1.0, 10.0]),
})


@given(label_pairs(min_size=2, min_classes=2, with_weights=False), SCORER_OPTIONS)
def test_a_pickled_scorer_gives_the_same_score(case, options):
    if options["statistic"] == "prob_above":
        options = {**options, "threshold": 0.5}
    if options["metric"] == "accuracy":
        # The share of items right: one table (averages of one-vs-rest
        # accuracies are refused).
        options = {**options, "average": "micro"}
    scorer = make_posterior_scorer(**options, n_draws=500)
    y_true = np.asarray(case["y_true"])
    X = np.arange(len(y_true))[:, None]
    estimator = _Fixed(np.asarray(case["y_pred"])).fit(X, y_true)
    score = scorer(estimator, X, y_true)
    again = pickle.loads(pickle.dumps(scorer))(pickle.loads(pickle.dumps(estimator)), X, y_true)
    assert np.isfinite(score) and again == score


# The searches in two processes share a worker with the other one (test_sklearn.py), so
# that its pool of processes starts once.
@pytest.mark.xdist_group("processes")
def test_a_parallel_search_picks_the_same_model_once():
    # One case of the property below (which takes 5 s at ten examples: the slow tier).
    _parallel_search_picks_the_same_model(0, "f1", "lower")


# Each example runs two searches, one of them in two processes.
@pytest.mark.slow
@given(st.integers(0, 2**31 - 1), st.sampled_from(["f1", "informedness", "mcc"]),
       st.sampled_from(["mean", "lower"]))
def test_a_parallel_search_picks_the_same_model(seed, metric, statistic):
    _parallel_search_picks_the_same_model(seed, metric, statistic)


def _parallel_search_picks_the_same_model(seed, metric, statistic):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(60, 3))
    y = (X[:, 0] + rng.normal(scale=1.0, size=60) > 0).astype(int)
    scorer = make_posterior_scorer(metric=metric, statistic=statistic, n_draws=500)
    grid = {"max_depth": [1, 2, 3]}
    searches = [GridSearchCV(DecisionTreeClassifier(random_state=0), grid, scoring=scorer,
                             cv=3, n_jobs=n_jobs).fit(X, y) for n_jobs in (1, 2)]
    one, two = searches
    np.testing.assert_array_equal(one.cv_results_["mean_test_score"],
                                  two.cv_results_["mean_test_score"])
    assert one.best_params_ == two.best_params_
