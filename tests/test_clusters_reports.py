"""Clustered test items (``groups=``) in rankings, reports, cross-validation and the CLI.

The reference for every clustered figure is the clustered posterior of one
system alone (`metric_posterior(..., groups=)`, the Bayesian bootstrap of
the clusters, Rubin 1981): a report's or a ranking's posterior of each
system is a margin of one clustered joint table, and must agree with it
within Monte Carlo error.  One item per cluster must give the figures
without `groups`, number for number.
"""


import numpy as np
import pytest

from skprobeval import (
    JointCounts,
    metric_posterior,
    rank_systems,
)


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


def test_rank_systems_refuses_groups_where_it_cannot_take_them(rng):
    y, predictions, cluster = _clustered_data(rng, n_clusters=10)
    scores = {name: rng.random(y.shape[0]) for name in predictions}
    with pytest.raises(TypeError, match="`groups` must be None for metric 'roc_auc'"):
        rank_systems(y, scores, metric="roc_auc", groups=cluster)
    counts = JointCounts.from_predictions(y, predictions)
    with pytest.raises(TypeError, match="`groups` must be None when `y_true` is a JointCounts"):
        rank_systems(counts, groups=cluster)
    with pytest.raises(ValueError, match=r"`groups` must be one cluster id per item \(100 "):
        rank_systems(y, predictions, groups=cluster[:-1])
