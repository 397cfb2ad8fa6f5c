"""plan_more_items and should_stop: more test items for a decision."""

import json

import numpy as np
import pytest

from skprobeval import (
    ConfusionCounts,
    MoreItemsPlan,
    PairedComparison,
    PairedCounts,
    StoppingDecision,
    compare_independent,
    compare_paired,
    compare_paired_metric,
    compare_scores,
    metric_posterior,
    plan_more_items,
    should_stop,
    stopping_target,
)
from skprobeval._workflow import _plan_more

# Paired cells (first alone right, second alone right, both alike): A right 3
# points more often than B, both about 0.8 accurate.
REAL_DIFFERENCE = np.array([0.08, 0.05, 0.87])
EQUAL = np.array([0.06, 0.06, 0.88])


def _decided(counts, rope, target=0.95):
    result = PairedComparison.from_counts(PairedCounts(*counts), rope=rope)
    probs = (result.prob_first_better, result.prob_second_better, result.prob_equivalent)
    best = int(np.argmax(probs))
    return best if probs[best] >= target else -1


def test_a_plan_reads_as_its_curve(seed):
    result = PairedComparison.from_counts(PairedCounts(12, 7, 381))
    plan = plan_more_items(result, n_sims=500, random_state=seed)
    assert isinstance(plan, MoreItemsPlan)
    assert plan.extra_items[0] == 0 and plan.extra_items[-1] == plan.max_items == 8000
    assert not plan.decided_now and plan.decision_now == "undecided"
    # Shares decided each way add up to the share decided.
    np.testing.assert_allclose(plan.prob_first_better + plan.prob_second_better
                               + plan.prob_equivalent, plan.prob_decided)
    assert np.all(plan.prob_equivalent == 0)            # rope 0: never "equivalent"
    reached = plan.extra_items[plan.prob_decided >= plan.assurance]
    assert plan.n_items == reached[0]
    np.testing.assert_allclose(plan.mc_error, np.sqrt(
        plan.prob_decided * (1 - plan.prob_decided) / 500))
    frame = plan.summary()
    assert list(frame.columns) == ["extra_items", "prob_decided", "prob_first_better",
                                   "prob_second_better", "prob_equivalent", "mc_error"]
    assert frame.attrs["note"] == plan.note and str(plan.n_items) in plan.note
    json.dumps(plan.to_dict())
    assert "MoreItemsPlan" in plan._repr_html_() and repr(plan).startswith("MoreItemsPlan(")


def test_plans_are_seeded():
    result = PairedComparison.from_counts(PairedCounts(12, 7, 381), rope=0.01)
    first = plan_more_items(result, n_sims=20, max_items=500, random_state=3)
    again = plan_more_items(result, n_sims=20, max_items=500, random_state=3)
    np.testing.assert_array_equal(first.prob_decided, again.prob_decided)


def test_decided_now_needs_no_items():
    plan = plan_more_items(PairedComparison.from_counts(PairedCounts(30, 12, 358)),
                           random_state=0)
    assert plan.decided_now and plan.decision_now == "first better" and plan.n_items == 0
    assert np.all(plan.prob_first_better == 1.0)
    assert "Decided now" in plan.note


def test_no_affordable_number_without_a_rope():
    # Equal systems, no rope: the difference stays near 0, undecided.
    plan = plan_more_items(PairedComparison.from_counts(PairedCounts(60, 60, 880)),
                           n_sims=1000, random_state=0)
    assert plan.n_items is None
    assert plan.note.startswith("No affordable number") and "rope" in plan.note
    assert "No affordable number" in repr(plan)
    assert plan.prob_decided.max() + 4 * plan.mc_error.max() < plan.assurance


def test_the_screened_rope_decisions_are_the_exact_ones(seed):
    rng = np.random.default_rng(seed)
    shares = np.exp(rng.uniform(np.log(20), np.log(3000), (300, 2)))
    ties = shares.sum(axis=1) * np.exp(rng.uniform(np.log(0.5), np.log(30), 300))
    parameters = np.column_stack([shares, ties])
    for rope in (0.005, 0.05):
        for target in (0.9, 0.99):
            screened = _plan_more._decide(*_plan_more._paired_decision(
                parameters, rope, target), target)
            exact = _plan_more._decide(*_plan_more._paired_decision(parameters, rope), target)
            np.testing.assert_array_equal(screened, exact)


def test_a_posterior_is_planned_against_a_reference(seed):
    counts = ConfusionCounts(40, 3, 4, 53)
    accuracy = metric_posterior(counts, metric="accuracy")
    plan = plan_more_items(accuracy, reference=0.9, n_sims=500, random_state=seed)
    assert plan.decision_now == "undecided" and plan.n_items is not None
    assert plan.prob_first_better[-1] > plan.prob_second_better[-1]   # mean 0.93 > 0.9
    f1 = metric_posterior(counts, metric="f1")
    plan = plan_more_items(f1, reference=0.5, random_state=seed)
    assert plan.decided_now and plan.decision_now == "above reference"
    with pytest.raises(ValueError, match="`reference` must be a value"):
        plan_more_items(accuracy)
    with pytest.raises(ValueError, match=r"`reference` must be None for a PairedComparison"):
        plan_more_items(PairedComparison.from_counts(PairedCounts(1, 2, 3)), reference=0.5)


def test_sampled_comparisons_are_planned(seed):
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, size=300)
    a = np.where(rng.random(300) < 0.85, y, 1 - y)
    b = np.where(rng.random(300) < 0.80, y, 1 - y)
    f1 = compare_paired_metric(y, a, b, n_draws=2000, random_state=seed)
    plan = plan_more_items(f1, n_sims=20, n_draws=200, max_items=2000, random_state=seed)
    assert not plan.exact and plan.items_in_hand == 300
    assert plan.extra_items.size == 12
    # Paired accuracy is the exact paired comparison: planned as compare_paired.
    accuracy = compare_paired_metric(y, a, b, metric="accuracy")
    exact = plan_more_items(accuracy, n_sims=200, random_state=seed)
    same = plan_more_items(compare_paired(y, a, b), n_sims=200, random_state=seed)
    assert exact.exact
    np.testing.assert_array_equal(exact.prob_decided, same.prob_decided)
    error = compare_paired_metric(y, a, b, metric="error")
    mirrored = plan_more_items(error, n_sims=200, random_state=seed)
    np.testing.assert_array_equal(mirrored.prob_second_better, same.prob_first_better)
    scores = compare_scores(y, a + rng.normal(0, 0.5, 300), b + rng.normal(0, 0.5, 300),
                            n_draws=500, random_state=seed)
    plan = plan_more_items(scores, n_sims=10, n_draws=100, max_items=300, random_state=seed)
    assert plan.items_in_hand == 300 and plan.prob_decided.shape == plan.extra_items.shape


def test_should_stop():
    decided = should_stop(PairedComparison.from_counts(PairedCounts(30, 12, 358)))
    assert isinstance(decided, StoppingDecision)
    assert decided and decided.reason == "first better" and decided.plan is None
    assert "wrong" in decided.note
    equal = PairedComparison.from_counts(PairedCounts(20, 20, 360))
    assert should_stop(equal).reason == "continue" and not should_stop(equal)
    over = should_stop(equal, budget=2000, n_sims=400, random_state=0)
    assert over.stop and over.reason == "over budget" and over.plan.n_items is None
    assert stopping_target(50) > stopping_target(200) > 0.95
    assert stopping_target(2000) == 0.975 and stopping_target(120) == stopping_target(100)
    json.dumps(decided.to_dict())


@pytest.mark.parametrize("call, error, message", [
    (lambda r: plan_more_items(r, target=1.0), ValueError, r"`target` must be a float in the"),
    (lambda r: plan_more_items(r, target=0), ValueError, r"`target` must be"),
    (lambda r: plan_more_items(r, assurance=1.5), ValueError, r"`assurance` must be"),
    (lambda r: plan_more_items(r, assurance="high"), TypeError, r"`assurance` must be"),
    (lambda r: plan_more_items(r, max_items=0), ValueError, r"`max_items` must be a positive"),
    (lambda r: plan_more_items(r, max_items=-5), ValueError, r"got -5"),
    (lambda r: plan_more_items(r, max_items=2.5), ValueError, r"`max_items`"),
    (lambda r: plan_more_items(r, rope=-0.1), ValueError, r"`rope` must be"),
    (lambda r: plan_more_items(r, n_sims=1), ValueError, r"`n_sims` must be"),
    (lambda r: should_stop(r, budget=-5), ValueError, r"`budget` must be a positive"),
    (lambda r: should_stop(r, target=-1), ValueError, r"`target` must be"),
    (lambda r: should_stop(r, rope=-0.01), ValueError, r"`rope` must be"),
    (lambda r: stopping_target(10), ValueError, r"`batch_size` must be at least 25"),
    (lambda r: stopping_target(0), ValueError, r"`batch_size` must be a positive"),
])
def test_bad_arguments_are_named(call, error, message):
    with pytest.raises(error, match=message):
        call(PairedComparison.from_counts(PairedCounts(12, 7, 381)))


def test_unplannable_results_name_the_supported_types():
    independent = compare_independent(ConfusionCounts(3, 2, 1, 4), ConfusionCounts(5, 2, 1, 2))
    with pytest.raises(TypeError, match=r"`result` must be a PairedComparison.*independent"):
        plan_more_items(independent)
    with pytest.raises(TypeError, match=r"`result` must be"):
        should_stop(0.97)
    per_label = PairedComparison.from_counts(PairedCounts([1, 2], [3, 4], [5, 6]))
    with pytest.raises(ValueError, match=r"one comparison"):
        plan_more_items(per_label)


# ---------------------------------------------------------------------------
# Acceptance: the planned items, drawn from a known truth, decide as planned
# ---------------------------------------------------------------------------


def _planned_runs(truth, n_start, rope, n_runs, seed):
    """For each run: data from `truth`, a plan, then the planned items from `truth`."""
    rng = np.random.default_rng(seed)
    outcomes, none = [], 0
    for _ in range(n_runs):
        start = rng.multinomial(n_start, truth)
        result = PairedComparison.from_counts(PairedCounts(*start), rope=rope)
        plan = plan_more_items(result, n_sims=400, random_state=rng)
        if plan.n_items is None:
            none += 1
            continue
        outcomes.append(_decided(start + rng.multinomial(plan.n_items, truth), rope))
    return np.array(outcomes), none


@pytest.mark.slow
def test_planned_items_decide_a_real_difference(seed):
    outcomes, none = _planned_runs(REAL_DIFFERENCE, 500, 0.0, 300, seed)
    rate = np.mean(outcomes >= 0)
    error = np.sqrt(rate * (1 - rate) / outcomes.size)
    # A truth 3 points apart: the plan's assurance (0.8) holds, less 0.03, in
    # the runs that found an affordable number (about 85% of them).
    assert none <= 0.3 * 300
    assert rate + 4 * error >= 0.8 - 0.03
    assert np.mean(outcomes == 0) > 0.95 * rate        # and the right way


@pytest.mark.slow
def test_planned_items_declare_equal_systems_equivalent(seed):
    outcomes, none = _planned_runs(EQUAL, 2000, 0.02, 200, seed)
    rate = np.mean(outcomes == 2)
    error = np.sqrt(rate * (1 - rate) / outcomes.size)
    assert none <= 0.3 * 200
    assert rate + 4 * error >= 0.8 - 0.03


def test_a_budget_of_nothing_left_stops_an_undecided_result():
    from skprobeval import PairedComparison, PairedCounts

    undecided = PairedComparison.from_counts(PairedCounts(12, 7, 381))
    decision = should_stop(undecided, budget=0)
    assert decision.stop and decision.reason == "over budget" and decision.plan is None
