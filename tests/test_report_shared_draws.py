"""Comparison reports of many classes: every system and pair from one joint table.

Where each system's and each pair's multiclass table keeps only its observed
cells, `compare_predictions` draws the joint table of the truth and all systems
once and reads every system's metric and every pair's difference off it.  The
joint table's prior has each of those tables' priors as its margins, so the
report's figures must agree with the tables drawn one by one (the route taken
when the shared draws do not apply) within Monte Carlo error.
"""

import numpy as np
import pytest
from scipy.stats import norm

import skprobeval._workflow._report_builder as builder
from skprobeval import compare_predictions
from skprobeval._compare import shared_metric_draws
from skprobeval._counting import joint_codes


def _systems(rng, k, n, shares=(0.8, 0.75, 0.6)):
    y = rng.integers(0, k, n)
    return y, {name: np.where(rng.random(n) < share, y, rng.integers(0, k, n))
               for name, share in zip("abc", shares)}


def _report(y, systems, seed, shared, monkeypatch, **kwargs):
    with monkeypatch.context() as patch:
        if not shared:
            patch.setattr(builder, "shared_metric_draws", lambda *args: None)
        return compare_predictions(y, systems, random_state=seed, **kwargs)


@pytest.mark.slow
@pytest.mark.parametrize("metric, average", [("f1", "macro"), ("precision", "weighted"),
                                             ("recall", "macro")])
def test_shared_draws_agree_with_the_tables_one_by_one(seed, metric, average, monkeypatch):
    rng = np.random.default_rng(seed)
    # Close systems and one near chance (1/20 right by chance): the pairs' and the
    # chance probabilities are far from 0 and 1, where a wrong law would show.
    y, systems = _systems(rng, 20, 600, shares=(0.62, 0.6, 0.02))
    n_draws = 20_000
    kwargs = dict(metric=metric, average=average, n_draws=n_draws)
    shared = _report(y, systems, seed, True, monkeypatch, **kwargs)
    alone = _report(y, systems, seed + 1, False, monkeypatch, **kwargs)
    for name in systems:
        one, other = shared.posteriors[name], alone.posteriors[name]
        # The draws' mean and quantiles agree within Monte Carlo error.
        spread = np.std(one.samples)
        assert abs(one.samples.mean() - other.samples.mean()) < 4 * spread * np.sqrt(2 / n_draws)
        spread = np.std(one.samples)
        for q in (0.025, 0.5, 0.975):
            # Standard error of a difference of two sample quantiles (normal density).
            se = np.sqrt(2 * q * (1 - q) / n_draws) * spread / norm.pdf(norm.ppf(q))
            assert abs(np.quantile(one.samples, q) - np.quantile(other.samples, q)) < 4 * se
        for column in ("prob_better_than_chance",):
            a, b = shared.summary.loc[name, column], alone.summary.loc[name, column]
            assert abs(a - b) < 4 * np.sqrt(max(a * (1 - a), 1 / n_draws) * 2 / n_draws)
    for column in ("prob_first_better", "prob_second_better"):
        a, b = shared.pairs[column].to_numpy(), alone.pairs[column].to_numpy()
        se = np.sqrt(np.maximum(a * (1 - a), 1 / n_draws) * 2 / n_draws)
        assert np.all(np.abs(a - b) < 4 * se + 1e-12)


def test_shared_draws_are_taken_for_many_classes_only(rng, monkeypatch):
    calls = []
    real = builder.shared_metric_draws

    def spy(*args):
        result = real(*args)
        calls.append(result is not None)
        return result

    monkeypatch.setattr(builder, "shared_metric_draws", spy)
    y, systems = _systems(rng, 20, 400)
    report = compare_predictions(y, systems, metric="f1", average="macro", n_draws=500,
                                 random_state=0)
    assert calls == [True]
    # Monte Carlo error of each pair's probabilities: sd of the largest share's mean.
    pairs = report.pairs
    shares = pairs[["prob_first_better", "prob_equivalent", "prob_second_better"]].to_numpy()
    np.testing.assert_allclose(pairs["mc_error"],
                               np.sqrt(shares * (1 - shares) / 500).max(axis=1))
    # Twelve classes: the pair tables are dense, each drawn on its own.
    y, systems = _systems(rng, 12, 400)
    compare_predictions(y, systems, metric="f1", average="macro", n_draws=500, random_state=0)
    assert calls == [True, False]


def test_no_shared_draws_where_a_label_holds_no_prediction(rng):
    y, systems = _systems(rng, 20, 400)
    # System c never predicts class 3: its precision there is a ratio of prior
    # masses alone, which the tables one by one draw exactly.
    systems["c"] = np.where(systems["c"] == 3, 4, systems["c"])
    labels = np.arange(20)
    joint = joint_codes(y, list(systems.values()), average="macro", labels=labels,
                        pos_label=1, sample_weight=None, labels_present=True,
                        names=["y_true", "a", "b", "c"])
    from skprobeval._metrics import get_metric

    args = (get_metric("precision"), "macro", [None] * 3, 0.5, 1.0, 200,
            np.random.default_rng(0))
    assert shared_metric_draws(joint, *args) is None
    joint = joint_codes(y, [systems["a"], systems["b"]], average="macro", labels=labels,
                        pos_label=1, sample_weight=None, labels_present=True,
                        names=["y_true", "a", "b"])
    draws, above = shared_metric_draws(joint, *args)
    assert draws.shape == (200, 2) and np.all(np.isfinite(draws))
    assert above.shape == (2,) and np.all(above == 200)   # both far better than chance


def test_shared_draws_seeded_reports_repeat(rng):
    y, systems = _systems(rng, 20, 300)
    first = compare_predictions(y, systems, metric="f1", average="macro", n_draws=300,
                                random_state=7)
    second = compare_predictions(y, systems, metric="f1", average="macro", n_draws=300,
                                 random_state=7)
    assert first.summary.equals(second.summary)
    assert first.pairs.equals(second.pairs)


def test_identical_systems_are_equivalent_as_the_tables_one_by_one_say(rng):
    y, systems = _systems(rng, 20, 400)
    systems["a copy"] = systems["a"].copy()
    report = compare_predictions(y, systems, metric="f1", average="macro", n_draws=2000,
                                 random_state=0)
    pair = report.pairs.set_index(["first", "second"]).loc[("a", "a copy")]
    assert (pair["prob_first_better"], pair["prob_equivalent"],
            pair["prob_second_better"]) == (0.0, 1.0, 0.0)
    np.testing.assert_array_equal(report.posteriors["a"].samples,
                                  report.posteriors["a copy"].samples)
    summary = report.summary
    assert summary.loc["a", "prob_better_than_chance"] == summary.loc[
        "a copy", "prob_better_than_chance"]
    # Every system the same: one table, one system drawn.
    same = compare_predictions(y, {"x": systems["a"], "y": systems["a"]}, metric="f1",
                               average="macro", n_draws=500, random_state=0)
    assert same.pairs.loc[0, "prob_equivalent"] == 1.0
