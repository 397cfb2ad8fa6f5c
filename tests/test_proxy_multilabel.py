"""A second labeller on multilabel targets: one double-sampling table per label."""

import json
import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import f1_score

from skprobeval import ProxyPosterior, metric_posterior, precision_posterior

PREVALENCES = np.array([0.2, 0.4, 0.5, 0.1])


def _data(n=2_000, labelled=300, agreement=0.95, seed=0):
    rng = np.random.default_rng(seed)
    y = (rng.random((n, PREVALENCES.size)) < PREVALENCES).astype(int)
    pred = np.where(rng.random(y.shape) < 0.85, y, 1 - y)
    proxy = np.where(rng.random(y.shape) < agreement, y, 1 - y)
    gold = y.astype(float)
    gold[labelled:] = np.nan
    return y, gold, pred, proxy


@pytest.mark.parametrize("average", ["micro", "macro", "weighted", None])
def test_every_item_labelled_is_the_posterior_without_proxy(average):
    # Binary tables split the cell prior over the proxy's values: with every item
    # labelled each label's table is the one without proxy, in law.
    y, _, pred, proxy = _data(seed=1)
    with_proxy = metric_posterior(y.astype(float), pred, metric="f1", average=average,
                                  proxy=proxy, n_draws=40_000, random_state=0)
    without = metric_posterior(y, pred, metric="f1", average=average, n_draws=40_000,
                               random_state=0)
    assert isinstance(with_proxy, ProxyPosterior)
    np.testing.assert_allclose(with_proxy.mean(), without.mean(), atol=5e-4)
    np.testing.assert_allclose(with_proxy.std(), without.std(), rtol=0.03)


def test_per_label_posteriors_are_the_binary_proxy_posteriors():
    # Independent route: label l alone, as a binary target with its own proxy column.
    y, gold, pred, proxy = _data(seed=2)
    every = metric_posterior(gold, pred, metric="recall", average=None, proxy=proxy,
                             n_draws=40_000, random_state=0)
    for label in range(PREVALENCES.size):
        alone = metric_posterior(gold[:, label], pred[:, label], metric="recall",
                                 proxy=proxy[:, label], n_draws=40_000, random_state=1)
        assert every.mean()[label] == pytest.approx(alone.mean(), abs=2e-3)
        assert every.std()[label] == pytest.approx(alone.std(), rel=0.05)


def test_macro_is_the_mean_of_the_labels_and_micro_pools_the_cells():
    y, gold, pred, proxy = _data(seed=3)
    per_label = metric_posterior(gold, pred, metric="f1", average=None, proxy=proxy,
                                 random_state=0)
    macro = metric_posterior(gold, pred, metric="f1", average="macro", proxy=proxy,
                             random_state=0)
    # Same seed, same table draws: the macro draws are the per-label draws' means.
    np.testing.assert_allclose(macro._samples, per_label._samples.mean(axis=1))
    micro = metric_posterior(gold, pred, metric="f1", average="micro", proxy=proxy,
                             random_state=0)
    assert abs(micro.mean() - f1_score(y, pred, average="micro")) < 0.03


def test_a_good_proxy_narrows_and_labels_select_columns():
    _, gold, pred, proxy = _data(seed=4)
    posterior = metric_posterior(gold, pred, metric="f1", average="macro", proxy=proxy,
                                 random_state=0)
    width = np.subtract(*posterior.interval()[::-1])
    alone = np.subtract(*posterior.labelled_only.interval()[::-1])
    assert width < 0.75 * alone
    assert posterior.n_labelled == 300 and posterior.n_items == 2_000
    two = precision_posterior(gold, pred, average=None, labels=[2, 0], proxy=proxy,
                              random_state=0)
    assert two.shape == (2,)
    json.dumps(posterior.to_dict())


@pytest.mark.parametrize("missing", ["nan", "none", "pd.NA", "masked"])
def test_every_spelling_of_a_missing_row(missing):
    y, gold, pred, proxy = _data(n=600, labelled=200, seed=5)
    if missing == "nan":
        truth = gold
    elif missing == "masked":
        truth = np.ma.masked_array(y, mask=np.isnan(gold))
    else:
        truth = y.astype(object)
        truth[200:] = None if missing == "none" else pd.NA
    posterior = metric_posterior(truth, pred, metric="f1", average="macro", proxy=proxy,
                                 random_state=0)
    assert posterior.n_labelled == 200
    reference = metric_posterior(gold, pred, metric="f1", average="macro", proxy=proxy,
                                 random_state=0)
    assert posterior.mean() == reference.mean()


def test_bad_input():
    y, gold, pred, proxy = _data(n=400, labelled=100, seed=6)
    partial = gold.copy()
    partial[0, 1] = np.nan
    with pytest.raises(ValueError, match=r"`y_true`.*complete or entirely missing"):
        metric_posterior(partial, pred, metric="f1", average="macro", proxy=proxy)
    with pytest.raises(ValueError, match="`average`"):
        metric_posterior(gold, pred, metric="f1", proxy=proxy)
    with pytest.raises(ValueError, match="`average`"):
        metric_posterior(gold, pred, metric="f1", average="samples", proxy=proxy)
    with pytest.raises(ValueError, match="`proxy`"):
        metric_posterior(gold, pred, metric="f1", average="macro", proxy=proxy[:, :2])
    bad = proxy.astype(float)
    bad[3, 0] = np.nan
    with pytest.raises(ValueError, match=r"`proxy`.*1 missing"):
        metric_posterior(gold, pred, metric="f1", average="macro", proxy=bad)
    with pytest.raises(ValueError, match="`proxy`.*indicator"):
        metric_posterior(gold, pred, metric="f1", average="macro", proxy=proxy * 2)
    with pytest.raises(ValueError, match="`y_true`.*at least one gold label"):
        metric_posterior(np.full(y.shape, np.nan), pred, metric="f1", average="macro",
                         proxy=proxy)
    with pytest.raises(ValueError, match="`labels`"):
        metric_posterior(gold, pred, metric="f1", average="macro", labels=[0, 9], proxy=proxy)


def test_a_stratum_without_gold_labels_warns():
    y, gold, pred, proxy = _data(n=2_000, labelled=8, agreement=0.99, seed=7)
    with pytest.warns(UserWarning, match="hold items but no gold label"):
        metric_posterior(gold, pred, metric="f1", average="micro", proxy=proxy,
                         random_state=0)


@pytest.mark.slow
def test_coverage_on_simulated_populations():
    # Population values: recall 0.85 and precision from the prevalences, per label.
    tp = PREVALENCES * 0.85
    fp = (1 - PREVALENCES) * 0.15
    fn = PREVALENCES * 0.15
    truth_macro = np.mean(2 * tp / (2 * tp + fp + fn))
    truth_micro = 2 * tp.sum() / (2 * tp.sum() + fp.sum() + fn.sum())
    hits = {"macro": 0, "micro": 0}
    reps = 200
    for rep in range(reps):
        _, gold, pred, proxy = _data(n=2_200, labelled=200, agreement=0.9, seed=100 + rep)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for average, truth in (("macro", truth_macro), ("micro", truth_micro)):
                low, high = metric_posterior(gold, pred, metric="f1", average=average,
                                             proxy=proxy, n_draws=4_000,
                                             random_state=rep).interval(0.95)
                hits[average] += low <= truth <= high
    # 200 test sets: SE 0.015 at 0.95; at least 0.92 within two SE.
    for average, count in hits.items():
        assert count / reps >= 0.89, (average, count / reps)


def test_weights_and_labels_are_checked_first():
    _, gold, pred, proxy = _data(n=300, labelled=100, seed=8)
    weight = np.ones(300)
    weight[3] = -1.0
    with pytest.raises(ValueError, match="`sample_weight` must be non-negative"):
        metric_posterior(gold, pred, metric="f1", average="micro", proxy=proxy,
                         sample_weight=weight)
    weight = np.ones(300)
    weight[:100] = 0.0
    with pytest.raises(ValueError, match="`sample_weight` must be positive on some labelled"):
        metric_posterior(gold, pred, metric="f1", average="micro", proxy=proxy,
                         sample_weight=weight)
    with pytest.raises(ValueError, match="`labels` must be distinct column indices"):
        metric_posterior(gold, pred, metric="f1", average="macro", labels=[0, 0],
                         proxy=proxy)
