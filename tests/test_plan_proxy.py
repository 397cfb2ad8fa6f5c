"""plan_test_size with a second labeller: the gold labels a width needs.

The plan simulates pools whose proxy agrees with the gold label at a given
rate and reads each pool's interval from the library's proxy posterior
(double sampling; Tenenbein 1970), with the pool's distinct (gold or
missing, prediction, proxy) combinations weighted by their counts.  The
checks: that weighted combinations are the posterior of the items one by
one, that the plan lies between a perfect and a useless proxy, and, in the
slow tier, that pools simulated item by item at the planned number of gold
labels meet the width as often as the plan says.
"""

import warnings

import numpy as np
import pytest

from skprobeval import ConfusionCounts, metric_posterior, plan_test_size

RECALL = {"metric": "recall", "width": 0.1, "expected": 0.9, "prevalence": 0.2}


def _pool(rng, size, n_labelled, agreement, shares=(0.18, 0.02, 0.02, 0.78)):
    """Items of a pool one by one: gold, prediction and proxy labels, gold labels kept
    on a random `n_labelled` of them (NaN elsewhere)."""
    cell = rng.choice(4, size=size, p=np.asarray(shares) / np.sum(shares))
    gold = np.isin(cell, (0, 2)).astype(int)          # tp, fn
    pred = np.isin(cell, (0, 1)).astype(int)          # tp, fp
    proxy = np.where(rng.random(size) < agreement, gold, 1 - gold)
    y_true = np.full(size, np.nan)
    chosen = rng.choice(size, size=n_labelled, replace=False)
    y_true[chosen] = gold[chosen]
    return y_true, pred, proxy


@pytest.fixture(scope="module")
def proxied():
    return plan_test_size(**RECALL, proxy_agreement=0.95, pool_size=5000, n_sims=100,
                          n_draws=2000, random_state=0)


def test_weighted_combinations_are_the_posterior_of_the_items(seed):
    # What the planner feeds the proxy posterior: one row per distinct (gold or missing,
    # prediction, proxy), weighted by its count; the same draws as the items themselves.
    y_true, pred, proxy = _pool(np.random.default_rng(seed), 3000, 200, 0.9)
    rows = np.stack([np.nan_to_num(y_true, nan=-1), pred, proxy], axis=1)
    keys, counts = np.unique(rows, axis=0, return_counts=True)
    gold = np.where(keys[:, 0] < 0, np.nan, keys[:, 0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        items = metric_posterior(y_true, pred, proxy=proxy, metric="recall",
                                 random_state=seed)
        combined = metric_posterior(gold, keys[:, 1].astype(int), proxy=keys[:, 2].astype(int),
                                    sample_weight=counts.astype(float), metric="recall",
                                    random_state=seed)
    np.testing.assert_allclose(combined.interval(), items.interval(), rtol=1e-12)


def test_a_proxy_plan_counts_gold_labels(proxied):
    plain = plan_test_size(**RECALL)
    assert proxied.n_items_without_proxy == plain.n_items == 826
    # A proxy right on 95% of 5 000 items: about half the gold labels (430 measured).
    assert 0.35 * plain.n_items < proxied.n_items < 0.75 * plain.n_items
    assert proxied.method == "simulation" and proxied.pool_size == 5000
    assert proxied.prob_within >= 0.8 - 4 * proxied.mc_error
    summary = proxied.summary()
    assert summary["n_items"] == proxied.n_items and summary["proxy_agreement"] == 0.95
    assert summary["n_items_without_proxy"] == 826
    assert "pool_size=5000" in repr(proxied)


def test_a_better_proxy_needs_fewer_gold_labels_and_a_useless_one_all(proxied):
    weaker = plan_test_size(**RECALL, proxy_agreement=0.8, pool_size=5000, n_sims=100,
                            n_draws=2000, random_state=0)
    assert proxied.n_items < weaker.n_items <= weaker.n_items_without_proxy
    # A proxy independent of the gold label splits the labelled items for nothing.
    useless = plan_test_size(metric="accuracy", width=0.1, expected=0.8,
                             proxy_agreement=0.5, pool_size=2000, n_sims=60, n_draws=1000,
                             random_state=0)
    assert useless.n_items >= 0.9 * useless.n_items_without_proxy


def test_the_simulated_metrics_plan_with_a_proxy():
    result = plan_test_size(metric="informedness", width=0.2,
                            pilot=ConfusionCounts(80, 12, 20, 88), proxy_agreement=0.9,
                            pool_size=3000, n_sims=40, n_draws=1000, random_state=0)
    assert result.n_items < result.n_items_without_proxy


@pytest.mark.parametrize("arguments, error, match", [
    ({"proxy_agreement": 0.9}, ValueError, "`pool_size` must be given with `proxy_agreement`"),
    ({"pool_size": 1000}, ValueError, "`pool_size` must be None without `proxy_agreement`"),
    ({"proxy_agreement": 1.5, "pool_size": 1000}, ValueError,
     r"`proxy_agreement` must be the share of items .* in \[0, 1\]; got 1.5"),
    ({"proxy_agreement": 0.9, "pool_size": 1000.0}, ValueError, "`pool_size` must be an int"),
    ({"proxy_agreement": 0.9, "pool_size": 500}, ValueError,
     "`pool_size` must be at least the 826 items the width needs"),
    ({"proxy_agreement": 0.9, "pool_size": 5000, "cluster_size": 10, "icc": 0.1}, ValueError,
     "`proxy_agreement` must be None for a test set of clusters"),
])
def test_bad_proxy_settings_name_the_argument(arguments, error, match):
    with pytest.raises(error, match=match):
        plan_test_size(**RECALL, **arguments)


def test_a_multiclass_pilot_has_no_proxy_plan():
    with pytest.raises(ValueError, match="`proxy_agreement` must be None for a K x K pilot"):
        plan_test_size(metric="f1", average="macro", width=0.1, pilot=np.eye(3) * 30 + 2,
                       proxy_agreement=0.9, pool_size=5000)


@pytest.mark.slow    # about 5 s: 400 pools of 5 000 items, each with its proxy posterior
def test_pools_simulated_item_by_item_meet_the_width_as_planned(proxied):
    # Items drawn one by one (not as counts), gold labels on a random sample of the
    # planned size: the share of 95% intervals of recall at most 0.1 wide is the plan's
    # prob_within within Monte Carlo error (1 500 pools of both kinds at 430 gold labels:
    # 0.829 +- 0.010 from the planner's counts, 0.838 +- 0.010 item by item).
    rng = np.random.default_rng(20261206)
    shares = [proxied.population[cell] for cell in ("tp", "fp", "fn", "tn")]
    within = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for r in range(400):
            y_true, pred, proxy = _pool(rng, 5000, proxied.n_items, 0.95, shares)
            low, high = metric_posterior(y_true, pred, proxy=proxy, metric="recall",
                                         n_draws=2000, random_state=r).interval()
            within.append(high - low <= 0.1)
    share = np.mean(within)
    error = np.hypot(np.sqrt(share * (1 - share) / 400), proxied.mc_error)
    assert abs(share - proxied.prob_within) < 4 * error
    assert share >= 0.8 - 0.03 - 4 * error


def test_a_useless_proxy_plan_still_keeps_its_assurance():
    # Agreement 0.5: the proxy adds nothing, and its split prior makes the interval a
    # little wider than the labels' own; the plan goes on above the plan without it.
    from skprobeval import plan_test_size

    plan = plan_test_size(metric="accuracy", width=0.05, expected=0.85, proxy_agreement=0.5,
                          pool_size=4_000, n_sims=100, n_draws=1_000, random_state=0)
    assert plan.prob_within >= plan.assurance
    assert plan.n_items >= plan.n_items_without_proxy * 0.97

