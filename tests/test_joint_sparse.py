"""The sparse joint table (observed cells + stick-broken prior) against the dense one.

Large K x K and (true, A, B) tables keep only their observed cells and draw
the prior's share by stick-breaking; small ones draw every cell.  Both must
give the same posterior: these tests force each route on the same small
tables and compare the draws' distributions.
"""

import math
import tracemalloc

import numpy as np
import pytest

from skprobeval import compare_paired_metric, metric_posterior
from skprobeval._counting._counts import joint_codes
from skprobeval._posteriors import _joint

LAM = 0.5
N_DRAWS = 20_000
# Monte Carlo tolerance in standard errors: each check below is one of a few
# dozen, all seeded; 4.5 standard errors leaves them far from flaky.
TOLERANCE = 4.5


def _data(k, n, seed, weighted):
    """A truth and two systems with a label never predicted by A, one absent from the
    truth, and (optionally) uneven weights below 1 (the log-space route)."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, k - 1, n)              # label k - 1 never true
    a = np.where(rng.random(n) < 0.7, truth, rng.integers(0, k, n))
    a[a == 1] = 0                                  # label 1 never predicted by A
    b = np.where(rng.random(n) < 0.6, truth, rng.integers(0, k, n))
    weight = rng.uniform(0.05, 2.0, n) if weighted else None
    return truth, a, b, weight


def _draws(joint, route, monkeypatch, seed, lam=LAM):
    """Per-system (tp, fp, fn, tn) draws of the joint table by the forced route.

    ``"sparse"`` breaks sticks to 2^-100 of each kind's mass and splits the rest
    exactly over the cells touching margins with little data; ``"sparse-deep"``
    breaks them down to the smallest float.
    """
    monkeypatch.setattr(_joint, "_SPARSE_PRIOR_CELLS", 10 ** 12 if route == "dense" else 0)
    if route == "sparse-deep":
        monkeypatch.setattr(_joint, "LOG_COARSE", _joint._LOG_TINY)
    table = _joint.JointTable(joint, lam)
    assert (table._kinds is not None) == (route != "dense")
    if route == "sparse":
        assert all(plan.alpha.size for plan in table._plans)
    if route == "sparse-deep":
        assert all(plan.log_floor == _joint._LOG_TINY for plan in table._plans)
    chunks = list(table.sample(N_DRAWS, np.random.default_rng(seed)))
    return [tuple(np.concatenate([chunk[system][i] for chunk in chunks]) for i in range(4))
            for system in range(len(chunks[0]))]


def _statistics(systems, tiny_prior=False):
    """Figures read from the draws: macro F1 and, for two systems, its difference;
    the chance that the label A never predicts has precision above 1/2, and the
    never-true label recall above 1/2 (ratios of prior-only margins).  With a
    prior of usual size also the macro precision, those ratios themselves and
    the share of label 0 predicted.

    A tiny prior puts those ratios' margins below the smallest float in a good
    share of draws, where each route floors what it sums (the dense route each
    cell, the sparse one each margin); only whether the ratio is above 1/2 is
    free of that convention.
    """
    out = {}
    f1 = []
    for name, (tp, fp, fn, _) in zip("ab", systems):
        with np.errstate(all="ignore"):
            f1.append((2 * tp / (2 * tp + fp + fn)).mean(axis=1))
            precision = tp[:, 1] / (tp[:, 1] + fp[:, 1])
            recall = tp[:, -1] / (tp[:, -1] + fn[:, -1])
        out[f"{name} macro f1"] = f1[-1]
        out[f"P({name} precision of label 1 > 1/2)"] = (precision > 0.5).astype(float)
        out[f"P({name} recall of the never-true label > 1/2)"] = (recall > 0.5).astype(float)
        if not tiny_prior:
            out[f"{name} macro precision"] = (tp / (tp + fp)).mean(axis=1)
            out[f"{name} precision of label 1"] = precision
            out[f"{name} recall of the never-true label"] = recall
            out[f"{name} share of label 0 predicted"] = tp[:, 0] + fp[:, 0]
    if len(f1) == 2:
        out["f1 difference"] = f1[0] - f1[1]
    return out


def _assert_same_distribution(dense, sparse):
    for name in dense:
        x, y = dense[name], sparse[name]
        assert np.isfinite(x).all() and np.isfinite(y).all(), name
        # Means: the standard error of a difference of two independent means.
        error = math.sqrt(x.var() / x.size + y.var() / y.size)
        assert abs(x.mean() - y.mean()) <= TOLERANCE * error + 1e-12, name
        if name.startswith("P("):
            continue
        # Tails: at the dense route's 2.5% and 95% quantiles, the two routes' shares
        # of draws below (ties, such as a precision of exactly 1, counting half)
        # agree within binomial standard errors, sqrt(2 q (1 - q) / n) without ties.
        for q in (0.025, 0.95):
            cut = np.quantile(x, q)
            below_x = (x < cut).mean() + 0.5 * (x == cut).mean()
            below_y = (y < cut).mean() + 0.5 * (y == cut).mean()
            error = math.sqrt((below_x * (1 - below_x) + below_y * (1 - below_y)) / y.size)
            assert abs(below_x - below_y) <= TOLERANCE * error + 1e-12, (name, q)


@pytest.mark.slow
@pytest.mark.parametrize("route", ["sparse", "sparse-deep"])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("n_systems", [1, 2])
@pytest.mark.parametrize("k, n", [(3, 30), (10, 80)])
def test_sparse_route_draws_the_dense_posterior(k, n, n_systems, weighted, route, monkeypatch):
    truth, a, b, weight = _data(k, n, seed=k + n_systems, weighted=weighted)
    joint = joint_codes(truth, [a, b][:n_systems], average="macro", sample_weight=weight)
    dense = _statistics(_draws(joint, "dense", monkeypatch, seed=1))
    sparse = _statistics(_draws(joint, route, monkeypatch, seed=2))
    _assert_same_distribution(dense, sparse)


@pytest.mark.slow
@pytest.mark.parametrize("route", ["sparse", "sparse-deep"])
def test_sparse_route_draws_prior_only_ratios_of_forty_classes(route, monkeypatch):
    # At K = 40 a label's prior share is below 2^-100 of the prior in about a third
    # of the draws: the precision of the label A never predicts (and the recall of
    # the never-true label), ratios of two prior-only margins, need the exact split
    # of what the sticks leave (without it, their 95% quantiles are off by many
    # standard errors).
    truth, a, _, _ = _data(40, 200, seed=41, weighted=False)
    joint = joint_codes(truth, [a], average="macro")
    dense = _statistics(_draws(joint, "dense", monkeypatch, seed=1))
    sparse = _statistics(_draws(joint, route, monkeypatch, seed=2))
    _assert_same_distribution(dense, sparse)


@pytest.mark.slow
@pytest.mark.parametrize("n_systems", [1, 2])
@pytest.mark.parametrize("k, n", [(3, 30), (10, 80)])
def test_sparse_route_draws_the_dense_posterior_under_a_tiny_prior(k, n, n_systems, monkeypatch):
    # lambda = 0.02: prior-only margins are below 2^-100 of the prior in most draws,
    # where the sticks stop: their ratios come from the exact split of what the
    # sticks leave (without it, P(precision > 1/2) of the never-predicted label is
    # off by many standard errors).
    truth, a, b, _ = _data(k, n, seed=k + n_systems, weighted=False)
    joint = joint_codes(truth, [a, b][:n_systems], average="macro")
    dense = _statistics(_draws(joint, "dense", monkeypatch, seed=1, lam=0.02), True)
    sparse = _statistics(_draws(joint, "sparse", monkeypatch, seed=2, lam=0.02), True)
    _assert_same_distribution(dense, sparse)


@pytest.mark.parametrize("k", [3, 10])
def test_sparse_route_keeps_the_tables_figures(k, monkeypatch):
    # Who is right alone (exact paired accuracy), whether predictions ever differ and
    # the labels' canonical order are read from the observed cells and the prior's
    # totals: the same by both routes.
    truth, a, b, weight = _data(k, 60, seed=5, weighted=True)
    joint = joint_codes(truth, [a, b], average="macro", sample_weight=weight)
    tables = {}
    for route, limit in (("dense", 10 ** 12), ("sparse", 0)):
        monkeypatch.setattr(_joint, "_SPARSE_PRIOR_CELLS", limit)
        tables[route] = _joint.JointTable(joint, LAM)
    dense, sparse = tables["dense"], tables["sparse"]
    masses, seen = dense.right_alone()
    np.testing.assert_allclose(sparse.right_alone()[0], masses, rtol=1e-12)
    np.testing.assert_allclose(sparse.right_alone()[1], seen, rtol=1e-12)
    assert sum(masses) == pytest.approx(weight.sum() + 4 * LAM)
    assert sparse.any_difference == dense.any_difference
    np.testing.assert_array_equal(sparse.canonical, dense.canonical)
    # The sparse table holds only the observed cells, with their dense concentrations.
    observed = dense._observed_counts > 0
    np.testing.assert_allclose(sparse.alpha, dense.alpha[observed], rtol=1e-12)


@pytest.mark.slow
def test_sparse_route_through_the_public_functions(monkeypatch):
    # The macro posterior and the paired comparison, forced through the sparse
    # route, agree with the dense route within their Monte Carlo errors.
    truth, a, b, _ = _data(10, 80, seed=3, weighted=False)
    results = {}
    for route, limit in (("dense", 10 ** 12), ("sparse", 0)):
        monkeypatch.setattr(_joint, "_SPARSE_PRIOR_CELLS", limit)
        posterior = metric_posterior(truth, a, metric="f1", average="macro", n_draws=N_DRAWS,
                                     random_state=0)
        comparison = compare_paired_metric(truth, a, b, metric="f1", average="macro",
                                           n_draws=N_DRAWS, random_state=0)
        results[route] = posterior, comparison
    (dense_posterior, dense_comparison), (sparse_posterior, sparse_comparison) = (
        results["dense"], results["sparse"])
    # The mean of a macro average is exact (the labels' exact means): identical.
    assert sparse_posterior.mean() == dense_posterior.mean()
    low, high = dense_posterior.interval(0.95)
    spread = high - low
    for x, y in zip(sparse_posterior.interval(0.95), (low, high)):
        assert abs(x - y) < 0.05 * spread
    p = dense_comparison.prob_first_better
    assert abs(sparse_comparison.prob_first_better - p) <= (
        TOLERANCE * math.sqrt(2 * p * (1 - p) / N_DRAWS) + 1e-12)


def test_renaming_the_classes_keeps_the_sparse_draws(monkeypatch):
    # Stick atoms are drawn as label ranks: renamed classes give the same variates.
    monkeypatch.setattr(_joint, "_SPARSE_PRIOR_CELLS", 0)
    rng = np.random.default_rng(1)
    y_true = rng.integers(0, 4, 300)
    y_pred = np.where(rng.random(300) < 0.25, rng.integers(0, 4, 300), y_true)
    weight = rng.uniform(0.5, 2.0, 300)
    results = []
    for mapping in ({0: 0, 1: 1, 2: 2, 3: 3}, {0: 2, 1: 0, 2: 3, 3: 1},
                    {0: "fox", 1: "cat", 2: "emu", 3: "dog"}):
        def rename(values):
            return np.array([mapping[v] for v in values.tolist()])

        posterior = metric_posterior(rename(y_true), rename(y_pred), metric="precision",
                                     average="macro", sample_weight=weight, n_draws=2000,
                                     random_state=0)
        results.append((posterior.mean(), *posterior.interval(0.9)))
    assert results[1] == results[0]
    assert results[2] == results[0]


def test_a_thousand_classes_two_systems_stay_sparse():
    # K^3 = 1e9 possible cells: the table holds the observed ones only and every
    # draw's tables are proper (cells summing to 1 per label, the truth's shares to 1).
    rng = np.random.default_rng(4)
    k, n = 1000, 3000
    truth = rng.integers(0, k, n)
    a = np.where(rng.random(n) < 0.8, truth, rng.integers(0, k, n))
    b = np.where(rng.random(n) < 0.7, truth, rng.integers(0, k, n))
    joint = joint_codes(truth, [a, b], average="macro")
    # Memory grows with the observed cells: building the table and drawing from it
    # stay below one K x K table of floats (8 MB; the prior's 3K^2 - 2K cells took
    # three times that, its K^3 meshgrid 8 GB).  Measured: 3.7 MB and 5.8 MB.
    tracemalloc.start()
    try:
        table = _joint.JointTable(joint, LAM)
        built = tracemalloc.get_traced_memory()[1]
        tracemalloc.reset_peak()
        (cells_a, cells_b), = list(table.sample(20, np.random.default_rng(0)))
        drawn = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert built < 8e6
    assert drawn < 8e6 + 20 * 4 * 2 * k * 8      # plus the draws' (tp, fp, fn, tn) arrays
    assert table._kinds is not None
    assert table.alpha.size <= n
    for cells in (cells_a, cells_b):
        tp, fp, fn, tn = cells
        assert tp.shape == (20, table.n_requested)
        np.testing.assert_allclose(tp + fp + fn + tn, 1.0, rtol=1e-9)
        np.testing.assert_allclose((tp + fn).sum(axis=1), 1.0, rtol=1e-9)
    masses, seen = table.right_alone()
    assert sum(masses) == pytest.approx(n + 4 * LAM)
    assert sum(seen) == n


def test_three_hundred_classes_three_systems_in_bounded_memory():
    # K = 300 with one item per class on average: the dense (true, A, B) prior had
    # 3K^2 - 2K cells per pair and took 15.6 s and 1.3 GiB for the report of three
    # systems.  The sparse tables keep the observed cells only: the whole report
    # (posteriors, three paired comparisons, per-label rows) peaks near 50 MiB of
    # traced allocations (measured: 50 MiB with the default 10 000 draws, 4.7 s).  At
    # 1 000 draws the dense tables would still need 2 GiB; the pairwise probabilities'
    # Monte Carlo error is about 0.016.
    from skprobeval import compare_predictions

    k = n = 300
    rng = np.random.default_rng(0)
    y = rng.integers(0, k, n)
    systems = {name: np.where(rng.random(n) < share, y, rng.integers(0, k, n))
               for name, share in (("a", 0.8), ("b", 0.78), ("c", 0.6))}
    tracemalloc.start()
    try:
        report = compare_predictions(y, systems, average="macro", n_draws=1000,
                                     random_state=0)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 200 * 2 ** 20
    # The two close systems are undecided, the weak one is worse than both.
    assert 0.2 < report.pairwise.loc["a", "b"] < 0.8
    assert report.pairwise.loc["a", "c"] > 0.99
    assert report.pairwise.loc["b", "c"] > 0.99
