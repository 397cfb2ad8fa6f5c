"""plan_more_items for rankings of systems (`rank_systems`): the recomputed
posterior, the decision, and the acceptance of the planned items."""

import itertools

import numpy as np
import pytest

from skprobeval import JointCounts, plan_more_items, rank_systems, should_stop

NAMES = ("a", "b", "c")


def _truth(accuracies, positive=0.5):
    """Cells (truth, predictions) and their probabilities: binary truth, systems
    right independently with the given accuracies."""
    cells, probabilities = [], []
    for truth in (0, 1):
        for right in itertools.product((1, 0), repeat=len(accuracies)):
            cells.append((truth, *[truth if r else 1 - truth for r in right]))
            p = positive if truth == 1 else 1 - positive
            for r, accuracy in zip(right, accuracies):
                p *= accuracy if r else 1 - accuracy
            probabilities.append(p)
    return np.array(cells), np.array(probabilities)


def _counts(cells, counts):
    keep = counts > 0
    return JointCounts(cells[keep, 0], cells[keep, 1:], counts[keep], names=NAMES)


def _leader_figure(source, extra, rope, n_draws, seed):
    return source.leader_probability(extra[None], rope, n_draws,
                                     np.random.default_rng(seed))[0]


@pytest.mark.parametrize("metric, pooling, rope", [("accuracy", "partial", 0.0),
                                                   ("f1", "none", 0.0),
                                                   ("mcc", "partial", 0.03)])
def test_the_recomputed_ranking_is_rank_systems_on_the_new_counts(metric, pooling, rope,
                                                                   seed):
    rng = np.random.default_rng(seed)
    cells, truth = _truth((0.86, 0.82, 0.80))
    start = _counts(cells, rng.multinomial(200, truth).astype(float))
    ranking = rank_systems(start, metric=metric, pooling=pooling, rope=rope,
                           random_state=rng)
    source = ranking._source
    # 150 more items on the source's cells, and the same items counted directly.
    extra = rng.multinomial(150, source.alpha / source.alpha.sum()).astype(float)
    # The source's cells are label codes (the positive label first).
    labels = np.asarray(source._joint.classes)[source._cells]
    updated = _counts(labels, source.counts + extra)
    n_draws = 20_000
    direct = rank_systems(updated, metric=metric, pooling=pooling, rope=rope,
                          n_draws=n_draws, random_state=rng)
    expected = float((direct.prob_best if rope == 0 else
                      direct.prob_within_rope_of_best).max())
    got = _leader_figure(source, extra, rope, n_draws, seed)
    error = np.sqrt(2 * expected * (1 - expected) / n_draws)
    assert abs(got - expected) <= 4 * error + 1e-12


def test_accuracy_of_many_labels_is_ranked_by_who_is_right(seed):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 4, 400)
    predictions = {name: np.where(rng.random(400) < accuracy, y, rng.integers(0, 4, 400))
                   for name, accuracy in zip(NAMES, (0.8, 0.76, 0.74))}
    ranking = rank_systems(y, predictions, metric="accuracy", average="micro",
                           n_draws=20_000, random_state=rng)
    source = ranking._source
    assert source.vectorised and source.alpha.size == 2 ** 3
    got = _leader_figure(source, np.zeros(8), 0.0, 20_000, seed)
    expected = float(ranking.prob_best.max())
    assert abs(got - expected) <= 4 * np.sqrt(2 * expected * (1 - expected) / 20_000)


def test_other_tables_are_ranked_future_by_future(seed):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, 200)
    predictions = {name: np.where(rng.random(200) < accuracy, y, rng.integers(0, 3, 200))
                   for name, accuracy in zip(NAMES, (0.9, 0.7, 0.7))}
    ranking = rank_systems(y, predictions, metric="f1", average="macro", random_state=rng)
    assert not ranking._source.vectorised
    plan = plan_more_items(ranking, n_sims=10, n_draws=200, max_items=200, random_state=seed)
    assert plan.extra_items[-1] == 200 and not plan.exact


def test_a_ranking_is_planned(seed):
    rng = np.random.default_rng(seed)
    cells, truth = _truth((0.86, 0.82, 0.80))
    ranking = rank_systems(_counts(cells, rng.multinomial(300, truth).astype(float)),
                           random_state=rng)
    plan = plan_more_items(ranking, n_sims=40, n_draws=500, random_state=seed)
    assert not plan.decided_now and plan.decision_now == "undecided"
    assert plan.items_in_hand == 300
    assert np.all(plan.prob_second_better == 0) and np.all(plan.prob_equivalent == 0)
    np.testing.assert_allclose(plan.prob_decided, plan.prob_first_better)
    within = plan_more_items(ranking, rope=0.05, n_sims=40, n_draws=500, random_state=seed)
    assert np.all(within.prob_first_better == 0)
    assert within.prob_equivalent[-1] > 0
    decided = rank_systems(_counts(cells, rng.multinomial(300, _truth((0.95, 0.7, 0.7))[1])
                                   .astype(float)), random_state=rng)
    now = plan_more_items(decided, n_sims=40, n_draws=500, random_state=seed)
    assert now.decided_now and now.decision_now == "one system best" and now.n_items == 0
    assert should_stop(decided).reason == "one system best"


def test_rankings_of_scores_are_refused():
    ranking = rank_systems([0, 1, 1, 0], {"a": [0.1, 0.9, 0.4, 0.3], "b": [0.6, 0.8, 0.7, 0.2]},
                           metric="roc_auc", n_draws=200, random_state=0)
    with pytest.raises(TypeError, match=r"SystemRanking of predicted labels.*scores"):
        plan_more_items(ranking)


# ---------------------------------------------------------------------------
# Acceptance: the planned items, drawn from a known truth, decide as planned
# ---------------------------------------------------------------------------


@pytest.mark.slow
def test_planned_items_decide_the_best_of_three(seed):
    rng = np.random.default_rng(seed)
    cells, truth = _truth((0.90, 0.84, 0.83))
    # The items in hand are the truth's expected counts, so that the posterior is
    # centred on it; the runs then draw the planned items from the truth.
    start = np.round(200 * truth)
    plan = plan_more_items(rank_systems(_counts(cells, start), random_state=rng),
                           n_sims=400, n_draws=2000, random_state=rng)
    assert plan.n_items is not None
    outcomes = []
    for _ in range(300):
        counts = start + rng.multinomial(plan.n_items, truth)
        ranking = rank_systems(_counts(cells, counts), n_draws=2000, random_state=rng)
        outcomes.append(ranking.prob_best.max() >= 0.95)
    rate = np.mean(outcomes)
    error = np.sqrt(rate * (1 - rate) / len(outcomes))
    # The plan's assurance (0.8), less 0.03, holds at the truth.
    assert rate + 4 * error >= 0.8 - 0.03


@pytest.mark.slow
def test_equal_systems_have_no_affordable_number(seed):
    cells, truth = _truth((0.85, 0.85, 0.85))
    ranking = rank_systems(_counts(cells, np.round(300 * truth)), random_state=seed)
    plan = plan_more_items(ranking, n_sims=100, n_draws=1000, random_state=seed)
    assert plan.n_items is None
    assert "No affordable number" in plan.note and "within rope of the best" in plan.note
