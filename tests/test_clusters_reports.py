"""Clustered test items (``groups=``) in rankings, reports, cross-validation and the CLI.

The reference for every clustered figure is the clustered posterior of one
system alone (`metric_posterior(..., groups=)`, the Bayesian bootstrap of
the clusters, Rubin 1981): a report's or a ranking's posterior of each
system is a margin of one clustered joint table, and must agree with it
within Monte Carlo error.  One item per cluster must give the figures
without `groups`, number for number.
"""

import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.model_selection import GroupKFold, KFold, cross_validate
from sklearn.naive_bayes import GaussianNB

from skprobeval import (
    JointCounts,
    compare_cv_results,
    compare_estimators,
    compare_predictions,
    metric_posterior,
    rank_systems,
)
from skprobeval._workflow._cv_groups import check_group_splits, default_splitter


def _clustered_data(rng, n_clusters=60, size=10, spread=1.5, n_classes=2,
                    skills=(1.0, 0.9, 0.5)):
    """Items in clusters whose difficulty is shared (a patient effect of sd `spread` on
    the logit of being right), and systems of the given skills on them."""
    cluster = np.repeat(np.arange(n_clusters), size)
    n = cluster.shape[0]
    y = rng.integers(0, n_classes, n)
    effect = rng.normal(0.0, spread, n_clusters)[cluster]
    predictions = {}
    for name, skill in zip("abcdefgh", skills):
        right = rng.random(n) < 1.0 / (1.0 + np.exp(-(skill + effect)))
        wrong = (y + rng.integers(1, n_classes, n)) % n_classes
        predictions[name] = np.where(right, y, wrong)
    return y, predictions, cluster


# ---------------------------------------------------------------------------
# rank_systems
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("metric", ["accuracy", "f1"])
def test_rank_systems_of_one_item_per_cluster_is_the_ranking_without_groups(rng, metric):
    y, predictions, _ = _clustered_data(rng, n_clusters=100, size=3)
    plain = rank_systems(y, predictions, metric=metric, n_draws=2000, random_state=3)
    single = rank_systems(y, predictions, metric=metric, n_draws=2000, random_state=3,
                          groups=np.arange(y.shape[0])[::-1])
    np.testing.assert_array_equal(single.values, plain.values)


@pytest.mark.parametrize("n_classes, average", [(2, "binary"), (3, "macro"), (40, "macro")])
def test_rank_systems_margins_are_each_systems_clustered_posterior(rng, n_classes, average):
    # Each system's draws in the clustered joint table against the clustered
    # posterior of that system alone: mean within 5 Monte Carlo errors, sd
    # within 6% (4000 draws: the sd's own error is about 1.1%).
    y, predictions, cluster = _clustered_data(rng, n_classes=n_classes)
    ranking = rank_systems(y, predictions, metric="f1", average=average, pooling="none",
                           n_draws=4000, random_state=1, groups=cluster)
    for j, name in enumerate(predictions):
        alone = metric_posterior(y, predictions[name], metric="f1", average=average,
                                 groups=cluster, n_draws=4000, random_state=2)
        draws = ranking.values[:, j]
        error = np.hypot(draws.std() / np.sqrt(draws.size), alone.std() / np.sqrt(4000))
        assert abs(draws.mean() - alone.mean()) < 5 * error
        assert abs(draws.std() / alone.std() - 1.0) < 0.06


def test_rank_systems_with_clusters_is_less_sure_than_without(rng):
    y, predictions, cluster = _clustered_data(rng)
    plain = rank_systems(y, predictions, metric="accuracy", pooling="none", n_draws=4000,
                         random_state=0)
    clustered = rank_systems(y, predictions, metric="accuracy", pooling="none", n_draws=4000,
                             random_state=0, groups=cluster)
    assert np.all(clustered.values.std(axis=0) > 1.3 * plain.values.std(axis=0))
    assert "clusters" in clustered._source.reason


def _clustered_scores(rng, n_clusters=40, size=8):
    """Scores of three systems on items in clusters: the prevalence, the scores' level
    and the first two systems' separation vary by cluster."""
    cluster = np.repeat(np.arange(n_clusters), size)
    n = cluster.shape[0]
    y = (rng.random(n) < 0.3 + 0.4 * rng.random(n_clusters)[cluster]).astype(int)
    level = rng.normal(0.0, 0.8, n_clusters)[cluster]
    scores = {name: y * (separation + rng.normal(0.0, 0.6, n_clusters)[cluster])
              + level + rng.normal(0.0, 1.0, n)
              for name, separation in (("a", 1.0), ("b", 1.2), ("c", 2.0))}
    return y, scores, cluster


@pytest.mark.parametrize("metric", ["average_precision", "roc_auc"])
def test_rank_systems_of_scores_in_one_item_clusters_is_the_ranking_without_groups(
        rng, metric):
    # Clusters of one item of weight 1: the draws without clusters, number for number.
    y, scores, _ = _clustered_scores(rng)
    plain = rank_systems(y, scores, metric=metric, n_draws=2000, random_state=3)
    single = rank_systems(y, scores, metric=metric, n_draws=2000, random_state=3,
                          groups=[f"item {i}" for i in range(y.shape[0])])
    np.testing.assert_array_equal(single.values, plain.values)
    assert single.n_clusters is None


@pytest.mark.parametrize("metric", ["average_precision", "roc_auc"])
def test_rank_systems_of_scores_takes_the_clusters_of_compare_scores(rng, metric):
    from skprobeval import average_precision_posterior, compare_scores, roc_auc_posterior

    y, scores, cluster = _clustered_scores(rng)
    ranking = rank_systems(y, scores, metric=metric, pooling="none", n_draws=4000,
                           random_state=0, groups=cluster)
    plain = rank_systems(y, scores, metric=metric, pooling="none", n_draws=4000,
                         random_state=0)
    assert ranking.n_clusters == 40
    # Shared cluster effects: every system less certain than its items alone make it.
    assert np.all(ranking.values.std(axis=0) > 1.05 * plain.values.std(axis=0))
    # Two systems: the draws of `compare_scores` with the same clusters and seed.
    pair = rank_systems(y, {"a": scores["a"], "b": scores["b"]}, metric=metric,
                        pooling="none", n_draws=2000, random_state=1, groups=cluster)
    compared = compare_scores(y, scores["a"], scores["b"], metric=metric, n_draws=2000,
                              random_state=1, groups=cluster)
    assert pair.pairwise.loc["a", "b"] == compared.prob_first_better
    # Each margin is that system's own clustered posterior (mean within 5 Monte Carlo
    # errors, sd within 8%; measured within 3% on the seed 5 data).
    alone_of = {"average_precision": average_precision_posterior,
                "roc_auc": roc_auc_posterior}[metric]
    for j, name in enumerate(scores):
        alone = alone_of(y, scores[name], groups=cluster, n_draws=4000, random_state=2)
        draws = ranking.values[:, j]
        error = np.hypot(draws.std(), alone.std()) / np.sqrt(4000)
        assert abs(draws.mean() - alone.mean()) < 5 * error
        assert abs(draws.std() / alone.std() - 1.0) < 0.08


def test_rank_systems_refuses_groups_where_it_cannot_take_them(rng):
    y, predictions, cluster = _clustered_data(rng, n_clusters=10)
    scores = {name: rng.random(y.shape[0]) for name in predictions}
    with pytest.raises(ValueError, match="`groups` must be ids of at least two clusters"):
        rank_systems(y, scores, metric="roc_auc", groups=cluster,
                     sample_weight=(cluster == 0).astype(float))
    counts = JointCounts.from_predictions(y, predictions)
    with pytest.raises(TypeError, match="`groups` must be None when `y_true` is a JointCounts"):
        rank_systems(counts, groups=cluster)
    with pytest.raises(ValueError, match=r"`groups` must be one cluster id per item \(100 "):
        rank_systems(y, predictions, groups=cluster[:-1])


# ---------------------------------------------------------------------------
# compare_predictions
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("average", ["binary", None])
def test_report_of_one_item_per_cluster_is_the_report_without_groups(rng, average):
    y, predictions, _ = _clustered_data(rng, n_clusters=80, size=2)
    plain = compare_predictions(y, predictions, average=average, n_draws=2000)
    single = compare_predictions(y, predictions, average=average, n_draws=2000,
                                 groups=[f"item {i}" for i in range(y.shape[0])])
    pd.testing.assert_frame_equal(single.summary[plain.summary.columns], plain.summary)
    pd.testing.assert_frame_equal(single.pairs, plain.pairs)
    pd.testing.assert_frame_equal(single.per_label, plain.per_label)
    assert single.summary["n_clusters"].eq(160.0).all()
    assert single.summary["effective_n"].eq(160.0).all()
    if average is not None:
        np.testing.assert_array_equal(single.ranking.values, plain.ranking.values)


def test_report_intervals_widen_with_a_shared_cluster_effect(rng):
    y, predictions, cluster = _clustered_data(rng, spread=2.0)
    plain = compare_predictions(y, predictions, metric="accuracy", n_draws=2000)
    clustered = compare_predictions(y, predictions, metric="accuracy", n_draws=2000,
                                    groups=cluster)
    width = (plain.summary["high"] - plain.summary["low"]).to_numpy()
    clustered_width = (clustered.summary["high"] - clustered.summary["low"]).to_numpy()
    assert np.all(clustered_width > 1.3 * width)
    assert np.all(clustered.summary["effective_n"] < 0.7 * y.shape[0])
    assert clustered.summary["n_clusters"].eq(60.0).all()
    assert clustered.n_clusters == 60
    for text in (str(clustered), clustered.to_markdown(), clustered.to_html()):
        assert "Bayesian bootstrap of the 60 clusters" in text


def test_report_of_one_system_in_clusters_has_no_pair_to_compare(rng):
    # (It failed on the empty list of pairs.)  Its posterior is the system's own
    # clustered posterior, and the report says there is no pair.
    y, predictions, cluster = _clustered_data(rng, skills=(1.0,))
    report = compare_predictions(y, predictions, metric="accuracy", n_draws=2000,
                                 groups=cluster, random_state=0)
    assert report.n_clusters == 60 and len(report.pairs) == 0
    assert report.summary.loc["a", "effective_n"] < 0.9 * y.shape[0]
    assert "no pair to compare" in str(report)


@pytest.mark.parametrize("n_classes, average, metric", [
    (2, "binary", "f1"), (2, "binary", "accuracy"), (3, "macro", "f1"),
    (3, "micro", "accuracy")])
def test_report_posteriors_are_each_systems_clustered_posterior(rng, n_classes, average,
                                                                metric):
    # Mean within 5 Monte Carlo errors, sd within 6% (4000 draws each).
    y, predictions, cluster = _clustered_data(rng, n_classes=n_classes)
    report = compare_predictions(y, predictions, metric=metric, average=average,
                                 n_draws=4000, groups=cluster)
    for name in predictions:
        posterior = report.posteriors[name]
        alone = metric_posterior(y, predictions[name], metric=metric, average=average,
                                 groups=cluster, n_draws=4000, random_state=5)
        error = np.hypot(posterior.std(), alone.std()) / np.sqrt(4000)
        assert abs(posterior.mean() - alone.mean()) < 5 * error
        assert abs(posterior.std() / alone.std() - 1.0) < 0.06
        assert posterior.n_clusters == 60


def test_report_per_label_rows_take_the_clusters(rng):
    y, predictions, cluster = _clustered_data(rng, n_classes=3, spread=2.0)
    plain = compare_predictions(y, predictions, average=None, n_draws=2000)
    clustered = compare_predictions(y, predictions, average=None, n_draws=2000,
                                    groups=cluster)
    for table in ("summary", "per_label"):
        before, after = getattr(plain, table), getattr(clustered, table)
        assert np.all((after["high"] - after["low"]) > (before["high"] - before["low"]))
    assert list(clustered.summary.index.names) == ["estimator", "label"]
    assert np.all(clustered.summary["effective_n"] < y.shape[0])


def test_report_identical_systems_stay_equivalent_with_clusters(rng):
    y, predictions, cluster = _clustered_data(rng)
    predictions["copy"] = predictions["a"].copy()
    report = compare_predictions(y, predictions, metric="f1", n_draws=2000, groups=cluster)
    pair = report.pairs.set_index(["first", "second"]).loc[("a", "copy")]
    assert pair["prob_equivalent"] == 1.0
    # Right alone: no item either way, so 1/2 each way as compare_paired says.
    assert abs(pair["prob_first_right_more_often"] - 0.5) < 0.05
    assert report.summary.loc["a", "mean"] == report.summary.loc["copy", "mean"]
    assert report.ranking.prob_best["a"] == report.ranking.prob_best["copy"]


def test_report_right_more_often_is_the_clustered_accuracy_comparison(rng):
    # On binary data "right more often" (a table of the systems' patterns of right
    # and wrong) and P(accuracy a > accuracy b) (the joint table) are one
    # probability at rope 0, from two independent sets of 4000 draws: within 5
    # Monte Carlo errors.
    y, predictions, cluster = _clustered_data(rng, skills=(1.0, 0.9, 0.8))
    report = compare_predictions(y, predictions, metric="accuracy", n_draws=4000,
                                 groups=cluster)
    right = report.pairs["prob_first_right_more_often"].to_numpy()
    metric = report.pairs["prob_first_better"].to_numpy()
    error = np.sqrt(2 * right * (1 - right) / 4000) + 1e-3
    assert np.all(np.abs(right - metric) < 5 * error)


def test_report_sample_weight_acts_within_the_clusters(rng):
    # Weight 2 on an item is two such items in its cluster: the cluster x cell
    # counts, and so every draw, are the same.
    y, predictions, cluster = _clustered_data(rng, n_clusters=30, size=4)
    weight = rng.integers(1, 3, y.shape[0])
    repeated = np.repeat(np.arange(y.shape[0]), weight)
    weighted = compare_predictions(y, predictions, n_draws=2000, groups=cluster,
                                   sample_weight=weight.astype(float))
    expanded = compare_predictions(y[repeated], {k: v[repeated] for k, v in predictions.items()},
                                   n_draws=2000, groups=cluster[repeated])
    np.testing.assert_allclose(weighted.summary.to_numpy(), expanded.summary.to_numpy(),
                               rtol=1e-9)
    np.testing.assert_allclose(weighted.pairs.iloc[:, 2:].to_numpy(dtype=float),
                               expanded.pairs.iloc[:, 2:].to_numpy(dtype=float), rtol=1e-9)


def test_report_takes_a_cluster_column_of_data(rng):
    y, predictions, cluster = _clustered_data(rng, n_clusters=20, size=5)
    frame = pd.DataFrame({"gold": y, **predictions, "patient": cluster})
    by_name = compare_predictions("gold", list(predictions), data=frame, groups="patient",
                                  n_draws=1000)
    by_array = compare_predictions(y, predictions, groups=cluster, n_draws=1000)
    pd.testing.assert_frame_equal(by_name.summary, by_array.summary)


@pytest.mark.parametrize("groups, message, error", [
    (np.arange(99), r"`groups` must be one cluster id per item \(100 items\); got length 99",
     ValueError),
    (np.where(np.arange(100) == 7, np.nan, np.arange(100) // 10),
     r"`groups` must be a cluster id for every item \(no missing values\); got 1 missing",
     ValueError),
    (np.zeros(100), r"`groups` must be ids of at least two clusters .*; got 1 cluster",
     ValueError),
    ("patient", r"`groups` must be an array \(a column name needs `data=`", TypeError),
])
def test_report_bad_groups_are_named(rng, groups, message, error):
    y, predictions, _ = _clustered_data(rng, n_clusters=10)
    with pytest.raises(error, match=message):
        compare_predictions(y, predictions, groups=groups)


# ---------------------------------------------------------------------------
# Cross-validation
# ---------------------------------------------------------------------------


class _SeenCluster(ClassifierMixin, BaseEstimator):
    """Predicts 1 for items whose cluster (column 0 of X) it was fitted on, else 0."""

    def fit(self, X, y):
        self.classes_ = np.unique(y)
        self.seen_ = np.unique(np.asarray(X)[:, 0])
        return self

    def predict(self, X):
        return np.isin(np.asarray(X)[:, 0], self.seen_).astype(int)


def _cv_data(rng):
    cluster = np.repeat(np.arange(24), 5)
    y = rng.integers(0, 2, cluster.shape[0])
    X = np.column_stack([cluster, y + rng.normal(0, 1.0, cluster.shape[0])])
    return X, y, cluster


@pytest.mark.parametrize("multilabel", [False, True])
def test_default_splitter_with_groups_never_splits_a_cluster(rng, multilabel):
    X, y, cluster = _cv_data(rng)
    target = np.column_stack([y, 1 - y]) if multilabel else y
    splits = list(default_splitter(4, multilabel=multilabel, grouped=True,
                                   random_state=0).split(X, target, cluster))
    for train, test in splits:
        assert not set(cluster[train]) & set(cluster[test])
    check_group_splits(splits, cluster, 4)


def test_compare_estimators_with_groups_tests_every_item_on_unseen_clusters(rng):
    X, y, cluster = _cv_data(rng)
    report = compare_estimators({"seen": _SeenCluster(), "nb": GaussianNB()}, X, y, cv=4,
                                groups=cluster, n_draws=500)
    # Every out-of-fold item's cluster was kept out of its model's training rows.
    assert not report.predictions["seen"].any()
    assert report.summary["n_clusters"].eq(24.0).all()


def test_compare_estimators_refuses_splits_across_clusters(rng):
    X, y, cluster = _cv_data(rng)
    with pytest.raises(ValueError, match="`cv` must be splits that keep every cluster of "
                                         "`groups` on one side"):
        compare_estimators({"a": GaussianNB(), "b": GaussianNB()}, X, y,
                           cv=KFold(4, shuffle=True, random_state=0), groups=cluster)


def test_compare_cv_results_with_groups(rng):
    X, y, cluster = _cv_data(rng)
    models = {"a": GaussianNB(), "b": _SeenCluster()}
    results = {name: cross_validate(model, X, y, cv=GroupKFold(4), groups=cluster,
                                    return_indices=True, return_estimator=True)
               for name, model in models.items()}
    report = compare_cv_results(results, y=y, X=X, groups=cluster, n_draws=500)
    assert report.n_clusters == 24
    plain = compare_cv_results(results, y=y, X=X, n_draws=500)
    assert np.all(report.summary["point"] == plain.summary["point"])
    split = {name: cross_validate(model, X, y, cv=KFold(4, shuffle=True, random_state=0),
                                  return_indices=True, return_estimator=True)
             for name, model in models.items()}
    with pytest.raises(ValueError, match="`cv` must be splits that keep every cluster"):
        compare_cv_results(split, y=y, X=X, groups=cluster)
    scores = {name: result["test_score"] for name, result in results.items()}
    with pytest.raises(TypeError, match="`groups` must be None for fold scores"):
        compare_cv_results(scores, groups=cluster)


# ---------------------------------------------------------------------------
# The command line
# ---------------------------------------------------------------------------


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "skprobeval", *args], capture_output=True,
                          text=True, check=False)


@pytest.mark.slow
def test_cli_cluster_column(tmp_path, rng):
    y, predictions, cluster = _clustered_data(rng, n_clusters=20, size=5, skills=(1.0, 0.5))
    path = tmp_path / "items.csv"
    pd.DataFrame({"gold": y, **predictions, "patient": cluster}).to_csv(path, index=False)
    run = _cli("compare", str(path), "--truth", "gold", "--cluster", "patient",
               "--format", "csv", "--n-draws", "1000")
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0].split(",")[-2:] == ["n_clusters", "effective_n"]
    assert [line.split(",")[0] for line in lines[1:]] == ["a", "b"]    # not a system
    expected = compare_predictions(y, predictions, groups=cluster, n_draws=1000)
    mean_column = lines[0].split(",").index("mean")
    assert float(lines[1].split(",")[mean_column]) == pytest.approx(
        expected.summary.loc["a", "mean"], rel=1e-9)
    missing = _cli("compare", str(path), "--truth", "gold", "--cluster", "site")
    assert missing.returncode != 0
    assert "cluster column 'site' not in" in missing.stderr
    truth = _cli("compare", str(path), "--truth", "gold", "--cluster", "gold")
    assert "--cluster must name a column other than the truth" in truth.stderr


# ---------------------------------------------------------------------------
# Dask: a groups column counted with the labels
# ---------------------------------------------------------------------------


def test_a_dask_groups_column_gives_the_report_of_the_items():
    dask = pytest.importorskip("dask")
    dd = pytest.importorskip("dask.dataframe")
    rng = np.random.default_rng(21)
    y, predictions, cluster = _clustered_data(rng, n_clusters=30, size=20, skills=(1.0, 0.8))
    frame = pd.DataFrame({"gold": y, **predictions, "patient": [f"p{c}" for c in cluster]})
    with dask.config.set(scheduler="synchronous"):
        lazy = compare_predictions("gold", list(predictions), data=dd.from_pandas(
            frame, npartitions=4), groups="patient", n_draws=2000, random_state=0)
        # A Dask series partitioned otherwise than the labels: aligned by position.
        series = compare_predictions(
            dd.from_pandas(frame["gold"], npartitions=4),
            {name: dd.from_pandas(frame[name], npartitions=4) for name in predictions},
            groups=dd.from_pandas(frame["patient"], npartitions=3), n_draws=2000,
            random_state=0)
    eager = compare_predictions("gold", list(predictions), data=frame, groups="patient",
                                n_draws=2000, random_state=0)
    columns = ["mean", "low", "high", "n_clusters", "effective_n"]
    pd.testing.assert_frame_equal(lazy.summary[columns], eager.summary[columns])
    pd.testing.assert_frame_equal(series.summary[columns], eager.summary[columns])
    with pytest.raises(TypeError, match="`groups` must be a column name of the Dask"):
        compare_predictions("gold", list(predictions), data=dd.from_pandas(frame, 4),
                            groups=dd.from_pandas(frame["patient"], npartitions=3))


def test_rank_systems_says_its_clusters_and_counts_dask_clusters():
    dask = pytest.importorskip("dask")
    da = pytest.importorskip("dask.array")
    rng = np.random.default_rng(22)
    y, predictions, cluster = _clustered_data(rng, n_clusters=30, size=20)
    eager = rank_systems(y, predictions, metric="f1", groups=cluster, n_draws=2000,
                         random_state=0)
    assert eager.n_clusters == 30 and eager.to_dict()["n_clusters"] == 30
    assert rank_systems(y, predictions, metric="f1", n_draws=500).n_clusters is None
    with dask.config.set(scheduler="synchronous"):
        lazy = rank_systems(da.from_array(y, chunks=150),
                            {k: da.from_array(v, chunks=150) for k, v in predictions.items()},
                            metric="f1", groups=da.from_array(cluster, chunks=200),
                            n_draws=2000, random_state=0)
    pd.testing.assert_series_equal(lazy.prob_best, eager.prob_best)


def test_a_clustered_report_ranks_its_own_draws_as_rank_systems_would():
    # The report's ranking pools and ranks the summary's draws of the clustered joint
    # table; rank_systems(groups=) draws the same table anew: equal within Monte Carlo
    # error (P(best) of 4 000 draws: standard error at most 0.008; pooling adds its own).
    rng = np.random.default_rng(23)
    y, predictions, cluster = _clustered_data(rng, n_clusters=40, size=10,
                                              skills=(1.0, 0.95, 0.8))
    report = compare_predictions(y, predictions, metric="f1", groups=cluster, n_draws=4000,
                                 random_state=0)
    direct = rank_systems(y, predictions, metric="f1", groups=cluster, n_draws=4000,
                          random_state=1)
    assert report.ranking.n_clusters == direct.n_clusters == 40
    np.testing.assert_allclose(report.ranking.prob_best, direct.prob_best, atol=0.05)
    np.testing.assert_allclose(report.ranking.expected_rank, direct.expected_rank, atol=0.1)


def test_a_reports_sensitive_groups_and_their_display_take_the_clusters():
    rng = np.random.default_rng(24)
    y, predictions, cluster = _clustered_data(rng, n_clusters=40, size=10, skills=(1.0, 0.8))
    sex = np.where(cluster % 2 == 0, "f", "m")      # clusters inside sensitive groups
    plain = compare_predictions(y, predictions, metric="recall", sensitive_features=sex,
                                n_draws=2000, random_state=0)
    grouped = compare_predictions(y, predictions, metric="recall", sensitive_features=sex,
                                  groups=cluster, n_draws=2000, random_state=0)
    width = {name: (r.by_group["high"] - r.by_group["low"]).to_numpy()
             for name, r in (("plain", plain), ("grouped", grouped))}
    assert np.all(width["grouped"] > width["plain"])
    pytest.importorskip("matplotlib")
    from skprobeval import GroupIntervalDisplay

    shown = [GroupIntervalDisplay.from_predictions(y, predictions["a"], sensitive_features=sex,
                                                   groups=clusters, n_draws=1000,
                                                   random_state=0)
             for clusters in (None, cluster)]
    assert np.all(shown[1].high - shown[1].low > shown[0].high - shown[0].low)
