"""The proxy section's second look (``benchmarks.proxy_recheck``): its candidate that
assumes the proxy errs independently of the systems, and its quick mode."""

import itertools

import numpy as np
import pytest

from benchmarks import proxy_recheck
from skprobeval._posteriors import read_proxy


def _table(gold, a, c, proxy):
    table, _, _ = read_proxy(gold, [a, c], proxy, average="binary", labels=None, pos_label=1,
                             sample_weight=None, lam=0.5, pred_names=["y_pred_a", "y_pred_b"],
                             warn_bare=False)
    return table


def _exact_independent_population(confusion, cell_gold):
    """The (gold, proxy, A, C) shares where the proxy errs independently of the systems
    given the gold label, by enumeration: cell (A, C) has gold shares cell_gold[a, c]
    and each cell is a quarter of the items."""
    shares = np.zeros((2, 2, 2, 2))
    for g, q, a, c in itertools.product(range(2), repeat=4):
        shares[g, q, a, c] = 0.25 * cell_gold[a, c][g] * confusion[g, q]
    return shares


def test_the_candidates_centre_is_bayes_rule_under_independent_errors():
    # With the population's own proxy confusion and (proxy, A, C) shares, the centre of a
    # stratum is P(gold | proxy, A, C) by Bayes' rule on the enumerated joint table.
    confusion = np.array([[0.9, 0.1], [0.2, 0.8]])
    cell_gold = {(0, 0): (0.95, 0.05), (0, 1): (0.6, 0.4), (1, 0): (0.3, 0.7),
                 (1, 1): (0.1, 0.9)}
    joint = _exact_independent_population(confusion, cell_gold)
    rng = np.random.default_rng(0)
    n = 400
    gold = rng.integers(0, 2, n).astype(float)
    a, c, proxy = (rng.integers(0, 2, n) for _ in range(3))
    model = proxy_recheck.IndependentProxyErrors(_table(gold, a, c, proxy))
    # Strata: proxy most significant, then A, then C.
    share = joint.sum(axis=0).reshape(1, -1)
    centre = model.centre(confusion[None], share)[0]
    expected = (joint / joint.sum(axis=0, keepdims=True)).reshape(2, -1)
    np.testing.assert_allclose(centre, 0.999 * expected + 0.0005, atol=1e-12)


def test_the_candidates_difference_follows_the_labelled_items_when_all_are_labelled():
    # Every item labelled: the strata's own counts dominate, and the draws centre on the
    # observed difference of accuracies.
    rng = np.random.default_rng(1)
    n = 4000
    y = rng.integers(0, 2, n)
    a = np.where(rng.random(n) < 0.9, y, 1 - y)
    c = np.where(rng.random(n) < 0.8, y, 1 - y)
    proxy = np.where(rng.random(n) < 0.85, y, 1 - y)
    model = proxy_recheck.IndependentProxyErrors(_table(y.astype(float), a, c, proxy))
    draws = model.accuracy_difference(4000, rng)
    observed = np.mean(a == y) - np.mean(c == y)
    assert abs(draws.mean() - observed) < 4 * draws.std() / np.sqrt(50)
    assert 0.005 < draws.std() < 0.02


@pytest.mark.parametrize("population, agreement", [("independent 0.95", 0.95),
                                                    ("independent 0.98", 0.98),
                                                    ("copies A", 0.15 * 0.87 + 0.85 * 0.964),
                                                    ("hard items", 0.2 * 0.7 + 0.8 * 0.99)])
def test_the_populations_have_the_stated_agreement_and_difference(population, agreement):
    # 400 000 items: the proxy's agreement with the gold label and A's accuracy minus C's
    # within 5 standard errors of the values the populations are built to have.
    rng = np.random.default_rng(2)
    n = 400_000
    y, gold, a, c, proxy, truth = proxy_recheck._population(rng, population, 100, n)
    assert np.isnan(gold[100:]).all() and (gold[:100] == y[:100]).all()
    se = np.sqrt(agreement * (1 - agreement) / n)
    assert abs(np.mean(proxy == y) - agreement) < 5 * se
    difference = (a == y).astype(float) - (c == y)
    assert abs(difference.mean() - truth) < 5 * difference.std() / np.sqrt(n)
    expected = 0.2 * (0.55 - 0.45) + 0.8 * (0.95 - 0.93) if population == "hard items" \
        else 0.3 * (0.8 - 0.7)
    assert truth == pytest.approx(expected)
    if population == "copies A":
        # The copied label: the proxy repeats A's errors far more often than chance.
        wrong = a != y
        assert np.mean(proxy[wrong] == a[wrong]) > 0.15


@pytest.mark.slow
def test_recheck_script_quick_mode():
    rows = proxy_recheck.main(["--quick"])
    low = [row for row in rows if "cell" in row]
    shared = [row for row in rows if "population" in row]
    chance = [row for row in rows if "agreement" in row]
    assert len(low) == 4
    assert len(chance) == len(proxy_recheck.CHANCE_CELLS) * 4 * 2
    assert all(0.0 <= row["coverage_95"] <= 1.0 for row in chance)
    assert all(0.0 <= row.get("coverage_95", row.get("share_above_95", 0.5)) <= 1.0
               for row in low)
    assert 0.3 < next(row["width_ratio"] for row in low if "width_ratio" in row) < 1.0
    methods = {row["method"] for row in shared}
    assert {proxy_recheck.LIBRARY, proxy_recheck.INDEPENDENT} <= methods
    assert all(0.0 <= row["coverage_95"] <= 1.0 and row["width_95"] > 0 for row in shared)
    # The candidate borrows the unlabelled items where the systems disagree: narrower.
    for population in ("copies A", "hard items"):
        width = {row["method"]: row["width_95"] for row in shared
                 if row["population"] == population}
        assert width[proxy_recheck.INDEPENDENT] < width[proxy_recheck.LIBRARY]
