"""The normal route of rank_systems' joint table (large counts everywhere).

Where every cell a metric reads holds many items, the data part of the joint
table's per-label sums is drawn as one multivariate normal with the exact mean
and covariance of the sum of independent Gamma(count) variates.  Checked here:
those moments against Gamma draws (Monte Carlo), the bound on where the route
applies, and its rankings against the exact route's within Monte Carlo error.
The approximation's error at the bound is measured with many draws by
``benchmarks/rank_normal_accuracy.py``.
"""

import numpy as np
import pytest
import scipy.sparse as sp

import skprobeval._compare._joint_normal as normal_route
from benchmarks.rank_normal_accuracy import CASES, case_data, smallest_count
from skprobeval import rank_systems
from skprobeval._compare._joint_normal import NormalSums, normal_applies
from skprobeval._compare._joint_systems import JointSystems
from skprobeval._counting import joint_codes


def test_normal_sums_have_the_moments_of_the_gamma_sums(rng):
    counts = rng.integers(20, 400, 30).astype(float)
    dense = (rng.random((30, 6)) < 0.4).astype(float)
    dense[:, 0] = 1.0                      # a total: linear in nothing else, still fine
    dense[:, 5] = dense[:, 1]              # a repeated sum: a singular covariance
    normal = NormalSums(sp.csr_matrix(dense), counts)
    n = 40_000
    gamma = rng.standard_gamma(counts, size=(n, 30)) @ dense
    draws = normal.draw(n, rng)
    for sample in (gamma, draws):
        se = sample.std(axis=0) / np.sqrt(n)
        assert np.all(np.abs(sample.mean(axis=0) - normal.mean) < 4 * se)
    # Covariances: the Gamma draws' and the normal draws' within sampling error
    # (the sd of a sample covariance is about sqrt(var_i var_j + cov_ij^2) / sqrt(n)).
    exact = dense.T @ (counts[:, None] * dense)
    var = np.diag(exact)
    tolerance = 5 * np.sqrt(np.outer(var, var) + exact ** 2) / np.sqrt(n)
    for sample in (gamma, draws):
        assert np.all(np.abs(np.cov(sample.T) - exact) < tolerance)
    np.testing.assert_allclose(draws[:, 5], draws[:, 1])


def _joint(y, predictions):
    names = list(predictions)
    return joint_codes(y, [predictions[k] for k in names], average="binary", labels=None,
                       pos_label=1, sample_weight=None, labels_present=True,
                       names=["y_true"] + names)


def _cells(joint):
    digits = np.stack([np.asarray(c, np.int64) for c in joint.codes])
    cells, counts = np.unique(digits, axis=1, return_counts=True)
    return list(cells), counts.astype(float)


def test_the_normal_route_applies_from_the_bound_on(monkeypatch):
    y, predictions = case_data(*CASES[0])
    smallest = smallest_count(y, predictions)
    joint = _joint(y, predictions)
    digits, counts = _cells(joint)
    assert normal_applies(digits, counts, joint.n_requested, 100)
    assert JointSystems(joint, 0.5)._normal is not None
    monkeypatch.setattr(normal_route, "MIN_COUNT", smallest + 1)
    assert not normal_applies(digits, counts, joint.n_requested, 100)
    assert JointSystems(joint, 0.5)._normal is None
    monkeypatch.setattr(normal_route, "MIN_COUNT", smallest)
    assert normal_applies(digits, counts, joint.n_requested, 100)
    # Too many sums for a dense covariance; fewer than two systems.
    assert not normal_applies(digits, counts, joint.n_requested, normal_route.MAX_SUMS + 1)
    assert not normal_applies(digits[:2], counts, joint.n_requested, 10)


def test_a_pair_that_rarely_disagrees_keeps_the_exact_route():
    y, predictions = case_data(*CASES[0])
    first = next(iter(predictions.values()))
    twin = first.copy()
    twin[:500] = 1 - twin[:500]            # 500 disagreements: below the bound
    predictions["twin"] = twin
    joint = _joint(y, predictions)
    digits, counts = _cells(joint)
    assert not normal_applies(digits, counts, joint.n_requested, 100)


def test_small_and_multiclass_tables_keep_the_exact_route(rng):
    y = rng.integers(0, 2, 50_000)
    predictions = {k: np.where(rng.random(50_000) < 0.8, y, 1 - y) for k in "abc"}
    # Three binary systems: every prior cell is drawn (a dense table).
    assert JointSystems(_joint(y, predictions), 0.5)._normal is None
    # Label averages weigh a label whose pairs barely differ as much as any other:
    # the bound on the pairs' disagreements in all would not hold them, so
    # multiclass tables keep the exact route whatever their counts.
    n = 200_000
    y = rng.integers(0, 4, n)
    predictions = {k: np.where(rng.random(n) < share, y, rng.integers(0, 4, n))
                   for k, share in zip("abcdefg", np.linspace(0.5, 0.7, 7))}
    joint = joint_codes(y, list(predictions.values()), average="macro", labels=None,
                        pos_label=1, sample_weight=None, labels_present=True,
                        names=["y_true", *predictions])
    digits, counts = _cells(joint)
    assert normal_applies(digits, counts, joint.n_requested, 100)
    table = JointSystems(joint, 0.5)
    assert table._alpha is None and table._normal is None      # sparse, exact


@pytest.mark.slow
@pytest.mark.parametrize("metric", ["accuracy", "f1", "informedness"])
def test_normal_route_ranks_as_the_exact_route(seed, metric, monkeypatch):
    y, predictions = case_data(*CASES[0], seed=seed)
    assert smallest_count(y, predictions) >= normal_route.MIN_COUNT - 100
    monkeypatch.setattr(normal_route, "MIN_COUNT", min(normal_route.MIN_COUNT,
                                                       smallest_count(y, predictions)))
    n_draws = 40_000
    normal = rank_systems(y, predictions, metric=metric, n_draws=n_draws, random_state=seed)
    with monkeypatch.context() as patch:
        patch.setattr(normal_route, "MIN_COUNT", float("inf"))
        exact = rank_systems(y, predictions, metric=metric, n_draws=n_draws,
                             random_state=seed + 1)
    for first, second in ((normal.prob_best, exact.prob_best),
                          (normal.rank_probabilities, exact.rank_probabilities)):
        a, b = np.asarray(first, float).ravel(), np.asarray(second, float).ravel()
        se = np.sqrt((a * (1 - a) + b * (1 - b)) / n_draws)
        # Monte Carlo error of both, plus the approximation's measured bound.
        assert np.all(np.abs(a - b) < 4.5 * se + 0.002)


@pytest.mark.slow
def test_the_accuracy_script_runs_in_quick_mode(capsys):
    from benchmarks import rank_normal_accuracy

    rows = rank_normal_accuracy.main(quick=True)
    assert {row["metric"] for row in rows} == set(rank_normal_accuracy.METRICS)
    for row in rows:
        assert row["smallest"] >= normal_route.MIN_COUNT
        for what in ("prob_best", "rank", "pairwise"):
            # 20 000 draws a route: the differences are Monte Carlo noise.
            assert row[what] < 5 * row[what + "_se"] + 0.002
    assert "largest |normal - exact|" in capsys.readouterr().out
