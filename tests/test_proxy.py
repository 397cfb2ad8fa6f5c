"""Gold labels on some items and a second labeller (a proxy) on every item.

References: the posterior is the double-sampling model (Tenenbein 1970) with
Dirichlet priors -- the (proxy, prediction) shares from every item, the gold
label's shares within each from the labelled items -- checked three ways:
with every item labelled it is the labelled-only posterior (the Dirichlet's
aggregation and neutrality); a proxy that knows nothing leaves it no narrower;
and its draws are those of a direct NumPy two-stage Dirichlet sampler, within
Monte Carlo error.  Coverage on simulated populations is in the slow tier.
"""

import warnings

import numpy as np
import pytest
from optional import needs
from sklearn.metrics import f1_score

from skprobeval import (
    ProxyPosterior,
    fbeta_posterior,
    metric_posterior,
    precision_posterior,
    recall_posterior,
)


def _population(rng, n, agreement, prevalence=0.3, recall=0.8, specificity=0.9):
    y = (rng.random(n) < prevalence).astype(int)
    pred = np.where(y == 1, rng.random(n) < recall, rng.random(n) > specificity).astype(int)
    proxy = np.where(rng.random(n) < agreement, y, 1 - y)
    return y, pred, proxy


def _width(posterior):
    low, high = posterior.interval(0.95)
    return float(high - low)


def test_every_item_labelled_is_the_labelled_only_posterior():
    rng = np.random.default_rng(0)
    y, pred, proxy = _population(rng, 2_000, 0.9)
    with_proxy = metric_posterior(y, pred, metric="f1", proxy=proxy, n_draws=40_000,
                                  random_state=0)
    exact = fbeta_posterior(y, pred)
    assert isinstance(with_proxy, ProxyPosterior)
    assert with_proxy.n_labelled == with_proxy.n_items == 2_000
    assert abs(with_proxy.mean() - exact.mean()) < 4 * with_proxy.mc_error
    assert with_proxy.std() == pytest.approx(exact.std(), rel=0.03)
    for q in (0.025, 0.975):
        assert with_proxy.ppf(q) == pytest.approx(exact.ppf(q), abs=0.002)


def test_draws_are_the_two_stage_dirichlet():
    # A direct NumPy sampler of the model: pi over (proxy, prediction) strata from all
    # items, theta(gold | stratum) from the labelled ones, the cell prior λ / 2 split
    # over the proxy's two values.
    rng = np.random.default_rng(1)
    y, pred, proxy = _population(rng, 1_500, 0.85)
    gold = y.astype(float)
    gold[300:] = np.nan
    posterior = recall_posterior(gold, pred, proxy=proxy, n_draws=40_000, random_state=1)
    lam = 0.5
    strata = proxy * 2 + pred
    all_items = np.bincount(strata, minlength=4)
    labelled = np.zeros((2, 4))
    np.add.at(labelled, (y[:300], strata[:300]), 1)
    within = lam / 2
    share = rng.dirichlet(all_items + 2 * within, 40_000)
    theta1 = rng.beta(labelled[1] + within, labelled[0] + within, (40_000, 4))
    positives = share * theta1                     # P(gold 1, stratum)
    tp = positives[:, [1, 3]].sum(axis=1)          # predicted 1: strata (0, 1), (1, 1)
    recall = tp / positives.sum(axis=1)
    error = np.hypot(posterior.mc_error, recall.std() / np.sqrt(40_000))
    assert abs(posterior.mean() - recall.mean()) < 4 * error
    assert posterior.std() == pytest.approx(recall.std(), rel=0.03)


def test_a_good_proxy_narrows_and_a_useless_one_does_not():
    rng = np.random.default_rng(2)
    y, pred, proxy = _population(rng, 4_000, 0.95)
    gold = np.where(np.arange(4_000) < 400, y, np.nan)
    good = metric_posterior(gold, pred, metric="accuracy", proxy=proxy, random_state=0)
    assert _width(good) < 0.7 * _width(good.labelled_only)
    noise = rng.integers(0, 2, 4_000)              # agrees with nothing
    useless = metric_posterior(gold, pred, metric="accuracy", proxy=noise, random_state=0)
    assert _width(useless) > 0.97 * _width(useless.labelled_only)


@pytest.mark.parametrize("missing", ["nan", "none", "pandas", "masked"])
def test_every_spelling_of_a_missing_label(missing):
    rng = np.random.default_rng(3)
    y, pred, proxy = _population(rng, 600, 0.9)
    unlabelled = np.arange(600) >= 150
    reference = precision_posterior(np.where(unlabelled, np.nan, y), pred, proxy=proxy,
                                    random_state=0)
    if missing == "nan":
        gold = np.where(unlabelled, np.nan, y)
    elif missing == "none":
        gold = np.array([None if u else int(v) for u, v in zip(unlabelled, y)], dtype=object)
    elif missing == "pandas":
        pd = pytest.importorskip("pandas")
        gold = pd.array([pd.NA if u else int(v) for u, v in zip(unlabelled, y)], dtype="Int64")
    else:
        gold = np.ma.masked_array(y, mask=unlabelled)
    posterior = precision_posterior(gold, pred, proxy=proxy, random_state=0)
    assert posterior.n_labelled == 150
    np.testing.assert_array_equal(posterior.samples, reference.samples)


def test_multiclass_averages_and_string_labels():
    rng = np.random.default_rng(4)
    classes = np.array(["cat", "dog", "owl", "fox", "elk"])
    y = rng.integers(0, 5, 3_000)
    pred = np.where(rng.random(3_000) < 0.8, y, rng.integers(0, 5, 3_000))
    proxy = np.where(rng.random(3_000) < 0.9, y, rng.integers(0, 5, 3_000))
    gold = classes[y].astype(object)
    gold[500:] = None
    for average in ("macro", "micro", "weighted"):
        posterior = metric_posterior(gold, classes[pred], metric="f1", average=average,
                                     proxy=classes[proxy], random_state=0)
        truth = f1_score(classes[y], classes[pred], average=average)
        low, high = posterior.interval(0.99)
        assert low < truth < high
        assert _width(posterior) < _width(posterior.labelled_only)
    per_label = metric_posterior(gold, classes[pred], metric="recall", average=None,
                                 proxy=classes[proxy], random_state=0)
    assert per_label.shape == (5,)
    accuracy = metric_posterior(gold, classes[pred], metric="accuracy", average="micro",
                                proxy=classes[proxy], random_state=0)
    assert abs(accuracy.mean() - np.mean(y == pred)) < 0.03


def test_counted_combinations_are_every_item():
    # Small integer labels are read from their distinct (labelled, gold, predictions,
    # proxy) combinations, each weighted by its count; unit sample weights and string
    # labels take every item.  The table, hence every draw, is the same.
    from skprobeval import compare_paired_metric

    rng = np.random.default_rng(7)
    y, pred, proxy = _population(rng, 3_000, 0.85)
    gold = y.astype(float)
    gold[rng.random(3_000) < 0.7] = np.nan
    fast = metric_posterior(gold, pred, metric="f1", proxy=proxy, n_draws=2_000,
                            random_state=3)
    every = metric_posterior(gold, pred, metric="f1", proxy=proxy, sample_weight=np.ones(3_000),
                             n_draws=2_000, random_state=3)
    assert fast.mean() == every.mean() and fast.interval() == every.interval()
    k = rng.integers(0, 4, 3_000)
    a, b, second = (np.where(rng.random(3_000) < share, k, rng.integers(0, 4, 3_000))
                    for share in (0.8, 0.75, 0.9))
    gold_k = np.where(np.isnan(gold), None, k.astype(str).astype(object))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")     # rare (proxy, A, B) combinations, unlabelled
        results = [compare_paired_metric(g, x, z, metric="f1", average="macro", proxy=p,
                                         n_draws=2_000, random_state=4)
                   for g, x, z, p in ((np.where(np.isnan(gold), np.nan, k), a, b, second),
                                      (gold_k, a.astype(str), b.astype(str),
                                       second.astype(str)))]
    assert results[0].prob_first_better == results[1].prob_first_better
    assert results[0].difference.interval() == results[1].difference.interval()


def test_result_reports_what_the_proxy_added():
    rng = np.random.default_rng(5)
    y, pred, proxy = _population(rng, 1_000, 0.9)
    gold = np.where(np.arange(1_000) < 100, y, np.nan)
    posterior = fbeta_posterior(gold, pred, proxy=proxy, random_state=0)
    content = posterior.to_dict()
    assert content["n_labelled"] == 100 and content["n_items"] == 1_000
    assert content["labelled_only_width_95"] == pytest.approx(_width(posterior.labelled_only))
    assert "n_labelled=100," in repr(posterior)


# -- bad input -------------------------------------------------------------------------


def _gold_with_missing(kind):
    """Gold labels 1, 0, missing, 1, missing, spelled as `kind`."""
    values = [1, 0, None, 1, None]
    if kind == "nan":
        return np.array([np.nan if v is None else v for v in values])
    if kind == "none":
        return np.array(values, dtype=object)
    if kind == "list":
        return values
    if kind == "pandas":
        pd = pytest.importorskip("pandas")
        return pd.Series(values, dtype="Int64")
    if kind == "pandas object":
        pd = pytest.importorskip("pandas")
        return pd.Series([pd.NA if v is None else v for v in values], dtype=object)
    return np.ma.masked_array([1, 0, 1, 1, 0], mask=[v is None for v in values])


MISSING_MESSAGE = (r"`y_true` must be free of missing labels \(NaN, None, NA, masked\) unless "
                   r"a second labeller's labels come as `proxy=`; got 2 missing value\(s\) of 5")


@pytest.mark.parametrize("kind", ["nan", "none", "list", "pandas", "pandas object", "masked"])
def test_missing_gold_labels_without_proxy_name_the_count(kind):
    # Never dropped silently (a masked entry's value was once counted): every spelling
    # of a missing label and every route gets one message, with the count.
    from skprobeval import ConfusionCounts, compare_paired, compare_paired_metric, rank_systems

    pred, other = [1, 0, 1, 1, 0], [1, 1, 0, 1, 0]
    for call in (lambda gold: metric_posterior(gold, pred, metric="f1"),
                 lambda gold: recall_posterior(gold, pred),
                 lambda gold: ConfusionCounts.from_predictions(gold, pred),
                 lambda gold: compare_paired(gold, pred, other),
                 lambda gold: compare_paired_metric(gold, pred, other, n_draws=100),
                 lambda gold: rank_systems(gold, {"a": pred, "b": other}, n_draws=100)):
        with pytest.raises(ValueError, match=MISSING_MESSAGE):
            call(_gold_with_missing(kind))


def test_bad_proxies():
    y = np.array([1, 0, 1, 0, 1, 0, 1, 0])
    gold = np.where(np.arange(8) < 4, y, np.nan)
    pred = np.array([1, 0, 0, 0, 1, 1, 1, 0])
    with pytest.raises(ValueError, match=r"`proxy` must be the second labeller's label of "
                                         r"every item, shape \(8,\)"):
        metric_posterior(gold, pred, metric="f1", proxy=[1, 0])
    with pytest.raises(ValueError, match=r"`proxy` must be labels among those of y_true and "
                                         r"the predictions .*; got labels \[2\]"):
        metric_posterior(gold, pred, metric="f1", proxy=[1, 0, 1, 0, 1, 0, 2, 0])
    with pytest.raises(ValueError, match="`proxy` must be a label on every item"):
        metric_posterior(gold, pred, metric="f1", proxy=[1, 0, 1, 0, 1, np.nan, 1, 0])
    with pytest.raises(ValueError, match="`y_true` must be at least one gold label"):
        metric_posterior(np.full(8, np.nan), pred, metric="f1", proxy=y)
    with pytest.raises(ValueError, match="gold labels in at least two strata"):
        metric_posterior(np.where(np.arange(8) < 1, y, np.nan), pred, metric="f1", proxy=y)
    with pytest.raises(TypeError, match="`proxy` must be None with `groups`"):
        metric_posterior(gold, pred, metric="f1", proxy=y, groups=np.arange(8) // 2)
    from skprobeval import ConfusionCounts

    with pytest.raises(TypeError, match="`proxy` must be None when `y_true` is counted"):
        metric_posterior(ConfusionCounts(3, 1, 1, 3), metric="f1", proxy=y)


def test_a_combination_without_gold_labels_warns():
    rng = np.random.default_rng(6)
    y, pred, proxy = _population(rng, 400, 0.9)
    gold = y.astype(float)
    gold[(proxy == 1) & (pred == 0)] = np.nan      # that stratum never labelled
    gold[200:] = np.nan
    with pytest.warns(UserWarning, match="combination\\(s\\) hold items but no gold label"):
        metric_posterior(gold, pred, metric="recall", proxy=proxy, random_state=0)


# -- coverage (slow) -------------------------------------------------------------------


@pytest.mark.slow
@needs("scipy")
@pytest.mark.parametrize("agreement", [0.8, 0.95])
def test_coverage_on_simulated_populations(agreement):
    # 95% intervals of accuracy and F1 from 100 gold labels among 1 000 items, over
    # 300 simulated test sets; the population values are exact.
    rng = np.random.default_rng(11)
    tp, fn, tn, fp = 0.3 * 0.8, 0.3 * 0.2, 0.7 * 0.9, 0.7 * 0.1
    truth = {"accuracy": tp + tn, "f1": 2 * tp / (2 * tp + fp + fn)}
    covered = {name: 0 for name in truth}
    ratio = []
    for rep in range(300):
        y, pred, proxy = _population(rng, 1_000, agreement)
        gold = np.where(np.arange(1_000) < 100, y, np.nan)
        for name, value in truth.items():
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                posterior = metric_posterior(gold, pred, metric=name, proxy=proxy,
                                             n_draws=2_000, random_state=rep)
            low, high = posterior.interval(0.95)
            covered[name] += low <= value <= high
            if name == "accuracy":
                ratio.append(_width(posterior) / _width(posterior.labelled_only))
    for name in truth:
        # 0.92 less two standard errors of 300 test sets.
        assert covered[name] / 300 >= 0.92 - 2 * np.sqrt(0.92 * 0.08 / 300), (name, covered)
    # The width against the labelled-only interval: about 0.87 at agreement 0.8, 0.6 at 0.95.
    assert np.mean(ratio) < (0.92 if agreement == 0.8 else 0.7)


# -- paired comparisons ----------------------------------------------------------------


def test_paired_comparison_of_every_item_labelled_is_the_paired_comparison():
    from skprobeval import compare_paired_metric

    rng = np.random.default_rng(7)
    y, a, proxy = _population(rng, 800, 0.9)
    b = np.where(rng.random(800) < 0.85, y, 1 - y)
    plain = compare_paired_metric(y, a, b, metric="f1", n_draws=40_000, random_state=0)
    with_proxy = compare_paired_metric(y, a, b, metric="f1", proxy=proxy, n_draws=40_000,
                                       random_state=1)
    error = np.hypot(plain.mc_error, with_proxy.mc_error)
    assert abs(plain.prob_first_better - with_proxy.prob_first_better) < 4 * error
    assert with_proxy.interval(0.9).low == pytest.approx(plain.interval(0.9).low, abs=0.004)


def test_paired_comparison_with_a_proxy_is_narrower_and_refuses_clusters():
    from skprobeval import compare_paired_metric

    rng = np.random.default_rng(8)
    y, a, proxy = _population(rng, 4_000, 0.95)
    b = np.where(rng.random(4_000) < 0.8, y, 1 - y)
    gold = np.where(np.arange(4_000) < 400, y, np.nan)
    result = compare_paired_metric(gold, a, b, metric="accuracy", proxy=proxy, random_state=0)
    alone = compare_paired_metric(y[:400], a[:400], b[:400], metric="accuracy", random_state=0)
    width = np.subtract(*result.interval(0.95)[::-1])
    assert width < 0.8 * np.subtract(*alone.interval(0.95)[::-1])
    assert result.method == "sampled"
    # The result says how many items it rests on and carries the labelled items' own
    # comparison (the same call on them, same seed): what the proxy added.
    assert (result.n_labelled, result.n_items) == (400, 4_000)
    assert result.labelled_only.n_labelled is None
    assert result.labelled_only.interval() == alone.interval()
    assert result.to_dict()["n_labelled"] == 400
    assert "n_labelled=400, n_items=4000" in repr(result)
    plain = compare_paired_metric(y, a, b, metric="accuracy", random_state=0)
    assert plain.n_labelled is None and plain.labelled_only is None
    assert "n_labelled" not in plain.to_dict()


def test_labelled_only_comparison_keeps_the_label_set_and_the_callers_generator():
    from skprobeval import compare_paired_metric

    rng = np.random.default_rng(12)
    y = rng.integers(0, 3, 1_500)
    a = np.where(rng.random(1_500) < 0.85, y, (y + 1) % 3)
    b = np.where(rng.random(1_500) < 0.8, y, (y + 2) % 3)
    proxy = np.where(rng.random(1_500) < 0.95, y, (y + 1) % 3)
    gold = np.where(np.arange(1_500) < 150, y, np.nan)
    # No labelled item of class 2 at all: the labelled items' comparison still averages
    # over the three labels the proxy's table averages over (it failed on `labels=`).
    gold[:150][y[:150] == 2] = np.nan
    with pytest.warns(UserWarning, match="hold items but no gold label"):
        result = compare_paired_metric(gold, a, b, average="macro", labels=[0, 1, 2],
                                       proxy=proxy, random_state=0)
    alone = result.labelled_only
    assert alone is result.labelled_only          # computed once, when first read
    kept = ~np.isnan(gold)
    # (Class 2 is among the labelled items' predictions, so the call of the public
    # function on them accepts the same labels.)
    assert 2 in set(a[kept]) | set(b[kept])
    expected = compare_paired_metric(y[kept], a[kept], b[kept], average="macro",
                                     labels=[0, 1, 2], random_state=0)
    assert alone.interval() == expected.interval()
    # A generator: the labelled items' comparison draws from a spawned child, so the
    # caller's stream goes on as if it had not been read.
    first, second = np.random.default_rng(5), np.random.default_rng(5)
    with pytest.warns(UserWarning):
        read = compare_paired_metric(gold, a, b, average="macro", labels=[0, 1, 2],
                                     proxy=proxy, random_state=first)
    read.labelled_only.interval()
    with pytest.warns(UserWarning):
        compare_paired_metric(gold, a, b, average="macro", labels=[0, 1, 2], proxy=proxy,
                              random_state=second)
    assert first.random() == second.random()
    with pytest.raises(TypeError, match="`proxy` must be None with `groups`"):
        compare_paired_metric(gold, a, b, proxy=proxy, groups=np.arange(4_000) // 4)
    with pytest.raises(ValueError, match="`y_true` must be free of missing labels"):
        compare_paired_metric(gold, a, b)


@pytest.mark.slow
def test_paired_nulls_with_a_proxy():
    # Two systems equal in the population (each right with probability 0.85, apart):
    # the share of test sets where P(first better) > 0.95, about 5% when calibrated.
    from skprobeval import compare_paired_metric

    rng = np.random.default_rng(12)
    above = 0
    for rep in range(300):
        y, _, proxy = _population(rng, 2_000, 0.9)
        a = np.where(rng.random(2_000) < 0.85, y, 1 - y)
        b = np.where(rng.random(2_000) < 0.85, y, 1 - y)
        gold = np.where(np.arange(2_000) < 200, y, np.nan)
        result = compare_paired_metric(gold, a, b, metric="accuracy", proxy=proxy,
                                       n_draws=2_000, random_state=rep)
        above += result.prob_first_better > 0.95
    assert 0.01 <= above / 300 <= 0.08, above


def test_compare_paired_of_every_item_labelled_is_nearly_the_exact_comparison():
    # With two systems the strata lean on the pooled relations of the gold label to the
    # proxy's and the predictions' labels (a prior of a few items' worth that the data
    # weigh), not on the split prior: with every item labelled the comparison is the
    # exact one up to that prior (here 600 items).
    from skprobeval import compare_paired

    rng = np.random.default_rng(13)
    y, _, proxy = _population(rng, 600, 0.9)
    a = np.where(rng.random(600) < 0.84, y, 1 - y)
    b = np.where(rng.random(600) < 0.82, y, 1 - y)
    for prior in (0.5, (1.0, 0.5, 2.0)):
        exact = compare_paired(y, a, b, prior=prior, rope=0.01)
        with_proxy = compare_paired(y, a, b, prior=prior, rope=0.01, proxy=proxy,
                                    n_draws=40_000, random_state=0)
        assert with_proxy.n_labelled == with_proxy.n_items == 600
        assert with_proxy.counts == exact.counts
        for name in ("prob_first_better", "prob_equivalent", "prob_second_better"):
            assert abs(getattr(with_proxy, name) - getattr(exact, name)) < 0.015, name
        assert with_proxy.expected_difference == pytest.approx(exact.expected_difference,
                                                               abs=1.5e-3)
        assert with_proxy.interval(0.9).low == pytest.approx(exact.interval(0.9).low, abs=0.004)
        assert with_proxy.effective_n == pytest.approx(600, rel=0.03)


def test_compare_paired_with_a_proxy_is_narrower_than_the_labelled_items():
    from skprobeval import PairedComparison, compare_paired

    rng = np.random.default_rng(14)
    y, _, proxy = _population(rng, 4_000, 0.95)
    a = np.where(rng.random(4_000) < 0.86, y, 1 - y)
    b = np.where(rng.random(4_000) < 0.80, y, 1 - y)
    gold = np.where(np.arange(4_000) < 400, y, np.nan)
    result = compare_paired(gold, a, b, proxy=proxy, random_state=0)
    alone = compare_paired(y[:400], a[:400], b[:400])
    assert isinstance(result, PairedComparison)
    assert (result.n_labelled, result.n_items) == (400.0, 4_000.0)
    assert result.counts == alone.counts
    width = np.subtract(*result.interval(0.95)[::-1])
    assert width < 0.8 * np.subtract(*alone.interval(0.95)[::-1])
    assert result.effective_n > 1.5 * 400
    assert "n_labelled=400, n_items=4000" in repr(result)
    content = result.to_dict()
    assert content["n_items"] == 4_000.0 and content["n_labelled"] == 400.0
    # The same items as string labels, with unit weights, give the same draws.
    names = np.array(["neg", "pos"], dtype=object)
    gold_names = np.where(np.arange(4_000) < 400, names[y], None)
    same = compare_paired(gold_names, names[a], names[b], proxy=names[proxy],
                          sample_weight=np.ones(4_000), random_state=0)
    assert same.prob_first_better == pytest.approx(result.prob_first_better, abs=1e-12)


def test_compare_paired_with_a_proxy_refuses_what_it_cannot_model():
    from skprobeval import compare_paired

    rng = np.random.default_rng(15)
    y, a, proxy = _population(rng, 200, 0.9)
    gold = np.where(np.arange(200) < 50, y, np.nan)
    with pytest.raises(TypeError, match="`proxy` must be None with `groups`"):
        compare_paired(gold, a, 1 - a, proxy=proxy, groups=np.arange(200) // 2)
    with pytest.raises(ValueError, match="`y_true` must be at least one gold label"):
        compare_paired(np.full(200, np.nan), a, 1 - a, proxy=proxy)
    with pytest.raises(TypeError, match="`proxy` must be None for multilabel targets"):
        compare_paired(np.c_[y, y], np.c_[a, a], np.c_[a, 1 - a], proxy=proxy)
    with pytest.raises(ValueError, match="`proxy` must be the second labeller's label"):
        compare_paired(gold, a, 1 - a, proxy=proxy[:10])
    with pytest.raises(ValueError, match="`y_true` must be free of missing labels"):
        compare_paired(gold, a, 1 - a)


def test_compare_paired_with_a_proxy_on_three_labels():
    from skprobeval import compare_paired

    rng = np.random.default_rng(16)
    y, a, proxy = _classes(rng, 3_000, 3, 0.85, 0.92)
    b = np.where(rng.random(3_000) < 0.78, y, (y + rng.integers(1, 3, 3_000)) % 3)
    gold = np.where(np.arange(3_000) < 600, y, np.nan)
    result = compare_paired(gold, a, b, proxy=proxy, random_state=0)
    alone = compare_paired(y[:600], a[:600], b[:600])
    every = compare_paired(y, a, b)
    assert np.subtract(*result.interval(0.95)[::-1]) < np.subtract(*alone.interval(0.95)[::-1])
    # The population's difference lies well inside the interval.
    low, high = result.interval(0.999)
    assert low < every.expected_difference < high


def test_compare_paired_with_a_proxy_of_one_label_is_the_exact_tie():
    # Every item a tie: P(first better) is 1/2 as in the exact comparison (no cell of the
    # (gold, A, B) table has one system alone right to carry alpha1 or alpha2).
    from skprobeval import compare_paired

    ones = np.ones(200, dtype=int)
    gold = np.where(np.arange(200) < 50, 1.0, np.nan)
    result = compare_paired(gold, ones, ones, proxy=ones, n_draws=40_000, random_state=0)
    assert abs(result.prob_first_better - 0.5) < 4 * result.mc_error
    assert result.counts.ties == 50


@pytest.mark.slow
def test_compare_paired_nulls_with_a_proxy():
    # Two systems equal in the population (each right with probability 0.85, apart):
    # P(first better) is about uniform, so about 5% of test sets fall in each 5% tail.
    # Measured over 4 x 400 sets: 6-8% in each tail (the labelled items alone: 4-5%,
    # compare_paired_metric with the proxy: 5.5-6.5%).
    from skprobeval import compare_paired

    rng = np.random.default_rng(17)
    probabilities = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)    # a stratum now and then unlabelled
        for rep in range(400):
            y, _, proxy = _population(rng, 2_000, 0.9)
            a = np.where(rng.random(2_000) < 0.85, y, 1 - y)
            b = np.where(rng.random(2_000) < 0.85, y, 1 - y)
            gold = np.where(np.arange(2_000) < 200, y, np.nan)
            result = compare_paired(gold, a, b, proxy=proxy, n_draws=2_000, random_state=rep)
            probabilities.append(result.prob_first_better)
    probabilities = np.array(probabilities)
    assert abs(probabilities.mean() - 0.5) < 0.05
    for tail in (probabilities > 0.95, probabilities < 0.05):
        assert 0.02 <= tail.mean() <= 0.11, tail.mean()


# -- per-group posteriors ----------------------------------------------------------------


def _groups_population(rng, n, agreement):
    y, _, proxy = _population(rng, n, agreement)
    group = rng.choice(["a", "b", "c"], n)
    recall = np.select([group == "a", group == "b"], [0.9, 0.75], 0.6)
    pred = np.where(y == 1, rng.random(n) < recall, rng.random(n) > 0.9).astype(int)
    return y, pred, proxy, group


def test_frame_of_every_item_labelled_is_the_frame_without_proxy():
    from skprobeval import PosteriorMetricFrame

    rng = np.random.default_rng(18)
    y, pred, proxy, group = _groups_population(rng, 3_000, 0.9)
    plain = PosteriorMetricFrame(metrics=["recall", "f1"], y_true=y, y_pred=pred,
                                 sensitive_features=group)
    with_proxy = PosteriorMetricFrame(metrics=["recall", "f1"], y_true=y, y_pred=pred,
                                      sensitive_features=group, proxy=proxy, n_draws=40_000,
                                      random_state=0)
    counts = with_proxy.by_group_counts
    np.testing.assert_array_equal(counts[["tp", "fp", "fn", "tn"]], plain.by_group_counts)
    np.testing.assert_array_equal(counts["n_labelled"], counts["n_items"])
    for metric in ("recall", "f1"):
        posteriors = with_proxy.by_group_posteriors[metric]
        for key, exact in plain.by_group_posteriors[metric].items():
            posterior = posteriors[key]
            assert isinstance(posterior, ProxyPosterior)
            assert abs(posterior.mean() - exact.mean()) < 4 * posterior.mc_error
            assert posterior.std() == pytest.approx(exact.std(), rel=0.03)
            for q in (0.025, 0.975):
                assert posterior.ppf(q) == pytest.approx(exact.ppf(q), abs=0.004)
        np.testing.assert_allclose(with_proxy.by_group[metric]["point"],
                                   plain.by_group[metric]["point"])
        assert with_proxy.overall[metric]["mean"] == pytest.approx(
            plain.overall[metric]["mean"], abs=4 * with_proxy.overall_posterior[metric].mc_error)


def test_frame_with_a_proxy_is_narrower_than_the_labelled_items():
    # Width over the labelled items' width, seeds 1-4 and 19: accuracy 0.54-0.74, F1
    # 0.47-0.74 (recall of the group at 0.9: 0.66-1.01, its misses as rare as the
    # proxy's errors among them).
    from skprobeval import GroupDisparity, PosteriorMetricFrame

    rng = np.random.default_rng(19)
    y, pred, proxy, group = _groups_population(rng, 9_000, 0.95)
    labelled = rng.random(9_000) < 0.1
    gold = np.where(labelled, y, np.nan)
    metrics = ["accuracy", "f1", "recall"]
    frame = PosteriorMetricFrame(metrics=metrics, y_true=gold, y_pred=pred,
                                 sensitive_features=group, proxy=proxy, random_state=0)
    alone = PosteriorMetricFrame(metrics=metrics, y_true=y[labelled], y_pred=pred[labelled],
                                 sensitive_features=group[labelled])
    for metric in ("accuracy", "f1"):
        by_group, reference = frame.by_group[metric], alone.by_group[metric]
        np.testing.assert_allclose(by_group["point"], reference["point"])
        widths = by_group["high"] - by_group["low"]
        assert np.all(widths < 0.8 * (reference["high"] - reference["low"])), metric
    # The groups' population recalls (0.9, 0.75, 0.6), read on all items, lie inside.
    every = PosteriorMetricFrame(metrics="recall", y_true=y, y_pred=pred,
                                 sensitive_features=group).by_group["point"]
    for key, value in every.items():
        low, high = frame.by_group_posteriors["recall"][key].interval(0.999)
        assert low < value < high, key
    posterior = frame.by_group_posteriors["f1"]["b"]
    assert posterior.n_labelled == frame.by_group_counts.loc["b", "n_labelled"]
    assert posterior.n_items == np.sum(group == "b")
    assert posterior.labelled_only.mean() == pytest.approx(
        alone.by_group_posteriors["f1"]["b"].mean())
    gap = frame.difference()["recall"]
    assert isinstance(gap, GroupDisparity) and not gap.exact
    assert gap.prob_disparity_greater(0.1) > 0.95
    assert "n_labelled=" in repr(frame) and frame.to_dict()["n_items"] == 9_000.0


def test_frame_with_a_proxy_refuses_groups_without_gold_labels():
    from skprobeval import PosteriorMetricFrame

    rng = np.random.default_rng(20)
    y, pred, proxy, group = _groups_population(rng, 900, 0.9)
    gold = np.where((rng.random(900) < 0.3) & (group != "c"), y, np.nan)
    options = {"metrics": "recall", "y_pred": pred, "sensitive_features": group,
               "proxy": proxy}
    with pytest.raises(ValueError, match=r"`y_true` must be a gold label in every sensitive "
                                         r"group .*; got no gold label in group\(s\) \['c'\]"):
        PosteriorMetricFrame(y_true=gold, **options)
    one = np.where((group != "c") | ((proxy == 1) & (pred == 1)), gold, np.nan)
    one[(group == "c") & (proxy == 1) & (pred == 1)] = 1
    with pytest.raises(ValueError, match=r"got every labelled item of group\(s\) \['c'\] in "
                                         r"one stratum"):
        PosteriorMetricFrame(y_true=one, **options)
    bare = np.where((group == "b") & (proxy == 0) & (pred == 1), np.nan, y)
    bare[rng.random(900) < 0.5] = np.nan
    with pytest.warns(UserWarning, match=r"hold items but no gold label.*\(sensitive "
                                         r"group\(s\) \['b'\]\)"):
        PosteriorMetricFrame(y_true=bare, random_state=0, **options)
    with pytest.raises(TypeError, match="`proxy` must be None with `groups`"):
        PosteriorMetricFrame(y_true=gold, groups=np.arange(900) // 3, **options)
    with pytest.raises(ValueError, match="`y_true` and `y_pred` must hold binary labels"):
        PosteriorMetricFrame(y_true=np.where(np.isnan(gold), np.nan, 2.0 * y + pred),
                             **{**options, "y_pred": 2 * pred})
    with pytest.raises(ValueError, match="`y_true` must be free of missing labels"):
        PosteriorMetricFrame(metrics="recall", y_true=gold, y_pred=pred,
                             sensitive_features=group)


# -- many labels ------------------------------------------------------------------------


def _classes(rng, n, n_classes, right, agreement):
    y = rng.integers(0, n_classes, n)
    pred = np.where(rng.random(n) < right, y, (y + rng.integers(1, n_classes, n)) % n_classes)
    proxy = np.where(rng.random(n) < agreement, y,
                     (y + rng.integers(1, n_classes, n)) % n_classes)
    return y, pred, proxy


def test_strata_without_gold_labels_follow_the_pooled_relations():
    # Ten labels make 100 (proxy, prediction) strata; with 100 gold labels most hold
    # none.  Their gold label follows how it relates to the stratum's labels elsewhere
    # (the proxy's label where the two disagree), not the prediction: no optimism.
    rng = np.random.default_rng(9)
    y, pred, proxy = _classes(rng, 3_000, 10, 0.8, 0.95)
    gold = np.where(np.arange(3_000) < 100, y, np.nan)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        posterior = metric_posterior(gold, pred, metric="accuracy", average="micro",
                                     proxy=proxy, random_state=0)
    assert abs(posterior.mean() - np.mean(y == pred)) < 2.5 * posterior.std()
    assert _width(posterior) < 0.75 * _width(posterior.labelled_only)


@pytest.mark.slow
@pytest.mark.parametrize("labelled", [50, 200])
def test_multiclass_coverage_on_simulated_populations(labelled):
    # Five balanced classes, the system right with probability 0.8 (macro F1 0.8 in the
    # population), a proxy right with 0.9, ten times as many unlabelled items.
    rng = np.random.default_rng(13)
    covered = 0
    for rep in range(300):
        y, pred, proxy = _classes(rng, 11 * labelled, 5, 0.8, 0.9)
        gold = np.where(np.arange(11 * labelled) < labelled, y, np.nan)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            posterior = metric_posterior(gold, pred, metric="f1", average="macro",
                                         proxy=proxy, n_draws=2_000, random_state=rep)
        low, high = posterior.interval(0.95)
        covered += low <= 0.8 <= high
    assert covered / 300 >= 0.92 - 2 * np.sqrt(0.92 * 0.08 / 300), covered


def test_the_user_guide_page_runs():
    # The worked example of the user guide's page on a second labeller.
    import doctest
    import pathlib

    pytest.importorskip("sklearn")
    page = pathlib.Path(__file__).resolve().parents[1] / "docs" / "user_guide" / "proxy.rst"
    with warnings.catch_warnings():
        result = doctest.testfile(str(page), module_relative=False,
                                  optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    assert result.attempted >= 15 and result.failed == 0


# -- rankings ---------------------------------------------------------------------------


def test_ranking_with_a_proxy():
    from skprobeval import rank_systems

    rng = np.random.default_rng(10)
    y, _, proxy = _population(rng, 3_000, 0.95)
    predictions = {name: np.where(rng.random(3_000) < rate, y, 1 - y)
                   for name, rate in (("a", 0.86), ("b", 0.84), ("c", 0.78))}
    everything = rank_systems(y, predictions, metric="f1", n_draws=20_000, random_state=0)
    labelled_all = rank_systems(y, predictions, metric="f1", proxy=proxy, n_draws=20_000,
                                random_state=0)
    # Every item labelled: the ranking of the labelled items (within Monte Carlo error).
    for name in predictions:
        assert abs(everything.prob_best[name] - labelled_all.prob_best[name]) < 0.02
    gold = np.where(np.arange(3_000) < 300, y, np.nan)
    few = rank_systems(gold, predictions, metric="f1", proxy=proxy, random_state=0)
    alone = rank_systems(y[:300], {k: v[:300] for k, v in predictions.items()}, metric="f1",
                         random_state=0)
    assert few.prob_best["a"] > alone.prob_best["a"]
    assert few.prob_best.idxmax() == "a"
    with pytest.raises(ValueError, match="`y_true` must be free of missing labels"):
        rank_systems(gold, predictions, metric="f1")
    with pytest.raises(TypeError, match="`proxy` must be None with a JointCounts, with "
                                        "`groups`"):
        rank_systems(gold, predictions, metric="f1", proxy=proxy,
                     groups=np.arange(3_000) // 3)


# -- reports and the command line -------------------------------------------------------


def _three_systems(rng, n, labelled):
    y, _, proxy = _population(rng, n, 0.95)
    predictions = {name: np.where(rng.random(n) < rate, y, 1 - y)
                   for name, rate in (("a", 0.86), ("b", 0.84), ("c", 0.78))}
    gold = np.where(np.arange(n) < labelled, y, np.nan)
    return y, gold, predictions, proxy


def test_report_with_a_proxy():
    from skprobeval import compare_predictions

    rng = np.random.default_rng(14)
    y, gold, predictions, proxy = _three_systems(rng, 3_000, 300)
    report = compare_predictions(gold, predictions, proxy=proxy, n_draws=2_000)
    summary = report.summary
    assert list(summary.index) == ["a", "b", "c"]
    assert (summary["n_labelled"] == 300).all()
    # The counts and the point are the labelled items'.
    assert summary.loc["a", ["tp", "fp", "fn", "tn"]].sum() == 300
    assert summary.loc["a", "point"] == pytest.approx(f1_score(y[:300], predictions["a"][:300]))
    # Each system's interval is its ProxyPosterior's.
    posterior = report.posteriors["a"]
    assert isinstance(posterior, ProxyPosterior)
    assert (summary.loc["a", "low"], summary.loc["a", "high"]) == posterior.interval(0.95)
    assert report.pairwise_metric.loc["a", "c"] > 0.99
    assert report.ranking.prob_best.idxmax() == "a"
    verdict = report.verdict()
    assert verdict.point == pytest.approx(summary.loc["a", "mean"])
    assert "with a second labeller" in verdict.text
    assert "Gold labels on 300 of 3000 items" in report.note
    with pytest.raises(TypeError, match="`groups` must be None with `proxy`"):
        compare_predictions(gold, predictions, proxy=proxy, groups=np.arange(3_000) // 3)
    with pytest.raises(ValueError, match="`average` must be an average over labels with"):
        compare_predictions(gold, predictions, proxy=proxy, average=None)


def test_report_with_a_proxy_and_sensitive_groups():
    # Each system's group tables are PosteriorMetricFrame's with the proxy.
    from skprobeval import PosteriorMetricFrame, compare_predictions

    rng = np.random.default_rng(21)
    y, gold, predictions, proxy = _three_systems(rng, 3_000, 3_000)
    gold = np.where(rng.random(3_000) < 0.15, y, np.nan)
    site = rng.choice(["north", "south"], 3_000)
    report = compare_predictions(gold, predictions, proxy=proxy, sensitive_features=site,
                                 n_draws=4_000, random_state=0)
    by_group = report.by_group
    assert {"n_labelled", "n_items", "point", "mean", "low", "high"} <= set(by_group.columns)
    frame = PosteriorMetricFrame(metrics="f1", y_true=gold, y_pred=predictions["b"],
                                 sensitive_features=site, proxy=proxy, n_draws=4_000,
                                 random_state=0)
    rows = by_group.loc["b"]
    np.testing.assert_array_equal(rows[["tp", "fp", "fn", "tn", "n_labelled", "n_items"]],
                                  frame.by_group_counts)
    np.testing.assert_allclose(rows["point"], frame.by_group["point"])
    for key in ("north", "south"):
        posterior = frame.by_group_posteriors[key]
        assert abs(rows.loc[key, "mean"] - posterior.mean()) < 6 * posterior.mc_error
    assert list(report.group_gaps.index) == ["a", "b", "c"]
    with pytest.raises(TypeError, match="`sensitive_features` must be None unless "
                                        "average='binary'"):
        compare_predictions(gold, predictions, proxy=proxy, sensitive_features=site,
                            average="macro")


def test_command_line_proxy_column(tmp_path):
    pd = pytest.importorskip("pandas")
    from test_cli import run

    rng = np.random.default_rng(15)
    _, gold, predictions, proxy = _three_systems(rng, 1_500, 200)
    frame = pd.DataFrame({"gold": pd.array([None if np.isnan(v) else int(v) for v in gold],
                                           dtype="Int64"), **predictions, "judge": proxy})
    path = tmp_path / "judged.csv"
    frame.to_csv(path, index=False)
    result = run("compare", path, "--truth", "gold", "--proxy", "judge", "--n-draws", "2000",
                 "--format", "json")
    assert result.returncode == 0, result.stderr
    import json

    payload = json.loads(result.stdout)
    assert set(payload["summary"]) == {"a", "b", "c"}
    assert payload["summary"]["a"]["n_labelled"] == 200
    missing = run("compare", path, "--truth", "gold")
    assert missing.returncode == 2 and "missing values in column(s) ['gold']" in missing.stderr
    assert "(1300 of 1500 in 'gold'); a truth column with unlabelled rows needs --proxy" \
        in missing.stderr
    # Sensitive groups: each group's own posterior.
    frame["site"] = rng.choice(["north", "south"], 1_500)
    frame.to_csv(path, index=False)
    grouped = run("compare", path, "--truth", "gold", "--proxy", "judge", "--group", "site",
                  "--n-draws", "2000", "--format", "csv", "--table", "by_group")
    assert grouped.returncode == 0, grouped.stderr
    assert grouped.stdout.splitlines()[0].startswith("estimator,site,tp,fp,fn,tn,n_labelled,")
    assert len(grouped.stdout.splitlines()) == 7
    wrong = run("compare", path, "--truth", "gold", "--proxy", "gold")
    assert wrong.returncode == 2 and "--proxy must name a column other than" in wrong.stderr


def test_report_warns_once_about_combinations_without_gold_labels():
    import warnings as _warnings

    from skprobeval import compare_predictions

    rng = np.random.default_rng(16)
    y, pred, proxy = _classes(rng, 1_200, 6, 0.8, 0.9)
    other = np.where(rng.random(1_200) < 0.7, y, (y + 1) % 6)
    gold = np.where(np.arange(1_200) < 60, y, np.nan)
    with _warnings.catch_warnings(record=True) as caught:
        _warnings.simplefilter("always")
        report = compare_predictions(gold, {"a": pred, "b": other}, proxy=proxy,
                                     average="macro", n_draws=1_000)
        report.verdict(plan=False)
    bare = [w for w in caught if "hold items but no gold label" in str(w.message)]
    assert len(bare) == 1 and str(bare[0].message).startswith("up to ")
