"""Curves, thresholds, calibration and sensitive groups of items in clusters (`groups=`).

References: the clustered draws are the Bayesian bootstrap of the clusters
(Rubin 1981; each cluster's items share one Gamma(a) weight, a = C/(C + 3),
and the prior's Gamma(λ) variates, λ items' worth, are scaled by a).  Each function is checked three
ways: one item per cluster gives exactly the result without clusters; a shared
cluster effect widens its intervals; and one quantity is recomputed by a direct
NumPy Bayesian bootstrap of the clusters (Gamma weights times each cluster's
counts), within Monte Carlo error.
"""

import numpy as np
import pytest

from skprobeval import (
    BetaPosterior,
    ClusteredPosterior,
    PosteriorMetricFrame,
    calibration_error_posterior,
    choose_threshold,
    equalized_odds_disparity,
    posterior_calibration_curve,
    posterior_precision_recall_curve,
    posterior_roc_curve,
    threshold_utility,
)
from skprobeval._core import cluster_concentration


def _scored_clusters(rng, n_clusters=30, size=10, effect=1.0, separation=1.5):
    """Scores of items in clusters that share a shift of their scores (and labels)."""
    groups = np.repeat(np.arange(n_clusters), size)
    n = groups.shape[0]
    shift = rng.normal(0.0, effect, n_clusters)[groups]
    y_true = rng.random(n) < 1.0 / (1.0 + np.exp(-(shift - 0.5)))
    score = separation * y_true + shift + rng.normal(size=n)
    return y_true, score, groups


def _bootstrap(rng, groups, columns, lam, n_draws):
    """Direct Bayesian bootstrap of the clusters: Gamma(a) cluster weights times each
    cluster's sums of the `columns` (items x quantities), plus a Gamma(λ) per quantity."""
    n_clusters = int(groups.max()) + 1
    sums = np.stack([np.bincount(groups, weights=c, minlength=n_clusters) for c in columns], 1)
    a = cluster_concentration(n_clusters)
    weights = rng.standard_gamma(a, (n_draws, n_clusters))
    return weights @ sums + a * rng.standard_gamma(lam, (n_draws, len(columns)))


def test_the_prior_weighs_as_many_items_as_without_clusters():
    # An empty cell holding only the prior: mass a Gamma(λ) by default (mean a λ, the
    # mean mass of λ items under Gamma(a) weights), Gamma(λ) at prior_scale=1;
    # 200 000 draws.
    from skprobeval._core import ClusterTableDraws

    a, lam = cluster_concentration(10), 0.3
    counts = np.zeros((10, 2))
    counts[:, 0] = 3.0
    for scale, mean in ((None, a * lam), (1.0, lam)):
        draws = ClusterTableDraws(counts, np.array([0.0, lam]), a, prior_scale=scale)
        masses = draws.masses(200_000, np.random.default_rng(1))
        assert masses[:, 0].mean() == pytest.approx(30 * a, rel=0.01)
        se = (a if scale is None else scale) * np.sqrt(lam / 200_000)
        assert abs(masses[:, 1].mean() - mean) < 5 * se


def test_clustered_auc_without_a_cluster_effect_is_about_as_wide_as_without_clusters():
    # Ten clusters of three items whose items are independent: the interval widens by
    # the weights' concentration only (about 1.09 times), not by the boundary mass too
    # (unscaled pseudo-cells made it 1.18 on average).
    from skprobeval import roc_auc_posterior

    rng = np.random.default_rng(4)
    ratios = []
    for seed in range(12):
        groups = np.repeat(np.arange(10), 3)
        y_true = np.r_[np.ones(10, bool), np.zeros(20, bool)]
        rng.shuffle(y_true)
        score = 1.5 * y_true + rng.normal(size=30)
        plain = roc_auc_posterior(y_true, score, n_draws=20_000, random_state=seed)
        grouped = roc_auc_posterior(y_true, score, groups=groups, n_draws=20_000,
                                    random_state=seed)
        ratios.append(np.subtract(*grouped.interval()[::-1])
                      / np.subtract(*plain.interval()[::-1]))
    assert 1.0 < np.mean(ratios) < 1.15


def test_clustered_accuracy_without_a_cluster_effect_is_about_as_wide_as_without():
    # The same for a table's cell prior (λ = 0.5 a cell): scaled, accuracy's interval of
    # ten clusters of three independent items is about 1.08 times as wide as without
    # clusters (600 test sets); unscaled, 1.14.
    from skprobeval import metric_posterior

    rng = np.random.default_rng(5)
    groups = np.repeat(np.arange(10), 3)
    ratios = []
    for seed in range(40):
        y_true = (rng.random(30) < 0.3).astype(int)
        y_pred = np.where(rng.random(30) < 0.87, y_true, 1 - y_true)
        plain = metric_posterior(y_true, y_pred, metric="accuracy")
        grouped = metric_posterior(y_true, y_pred, metric="accuracy", groups=groups,
                                   n_draws=20_000, random_state=seed)
        ratios.append(np.subtract(*grouped.interval()[::-1])
                      / np.subtract(*plain.interval()[::-1]))
    assert 1.0 < np.mean(ratios) < 1.12


# ---------------------------------------------------------------------------
# Precision-recall and ROC curves
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("build", [posterior_precision_recall_curve, posterior_roc_curve])
def test_curves_of_one_item_per_cluster_are_the_curves_without_clusters(build):
    rng = np.random.default_rng(0)
    y_true, score, _ = _scored_clusters(rng, n_clusters=60, size=1)
    singles = np.arange(60)[::-1]
    plain = build(y_true, score)
    grouped = build(y_true, score, groups=singles)
    assert grouped.n_clusters is None and grouped.effective_n is None
    for kind in ("pointwise", "simultaneous"):
        a = plain.band(0.9, kind=kind, n_draws=300, random_state=1)
        b = grouped.band(0.9, kind=kind, n_draws=300, random_state=1)
        np.testing.assert_array_equal(a.low, b.low)
        np.testing.assert_array_equal(a.high, b.high)
    np.testing.assert_array_equal(grouped.precision.mean(), plain.precision.mean())


@pytest.mark.parametrize("build", [posterior_precision_recall_curve, posterior_roc_curve])
def test_a_shared_cluster_effect_widens_both_bands_of_a_curve(build):
    rng = np.random.default_rng(3)
    y_true, score, groups = _scored_clusters(rng, n_clusters=30, size=20, effect=1.5)
    plain = build(y_true, score)
    grouped = build(y_true, score, groups=groups)
    assert grouped.n_clusters == 30 and grouped.effective_n is None
    assert "n_clusters=30" in repr(grouped)
    wide, narrow = (curve.band(0.9, n_draws=2000, random_state=0) for curve in (grouped, plain))
    assert wide.n_draws == 2000 and narrow.n_draws == 0
    middle = slice(len(plain) // 5, 4 * len(plain) // 5)
    ratio = np.median((wide.high - wide.low)[middle] / (narrow.high - narrow.low)[middle])
    assert ratio > 1.3
    wide, narrow = (curve.band(0.9, kind="simultaneous", n_draws=1000, random_state=0)
                    for curve in (grouped, plain))
    assert np.mean(wide.high - wide.low) > 1.2 * np.mean(narrow.high - narrow.low)


def test_pointwise_band_of_clustered_precision_is_the_bootstrap_of_the_clusters(seed):
    # At one threshold the precision is (TP + h1) / (TP + h1 + FP + h2), TP and FP the
    # clusters' Gamma-weighted counts of the items at or above it, h Gamma(λ).
    rng = np.random.default_rng(seed)
    y_true, score, groups = _scored_clusters(rng, n_clusters=25, size=8)
    curve = posterior_precision_recall_curve(y_true, score, groups=groups)
    row = len(curve) // 2
    threshold = curve.thresholds[row]
    table = curve.summary(0.9, n_draws=40_000, random_state=seed)
    above = score >= threshold
    masses = _bootstrap(rng, groups, [above & y_true, above & ~y_true], 0.5, 40_000)
    reference = masses[:, 0] / masses.sum(axis=1)
    sd = reference.std()
    assert abs(table["mean"][row] - reference.mean()) < 5 * sd * np.sqrt(2 / 40_000)
    for column, q in (("low", 0.05), ("high", 0.95)):
        # Quantiles of 40 000 draws agree to a few hundredths of a standard deviation.
        assert abs(table[column][row] - np.quantile(reference, q)) < 0.05 * sd


def test_pointwise_band_of_clustered_tpr_is_the_bootstrap_of_the_clusters(seed):
    rng = np.random.default_rng(seed)
    y_true, score, groups = _scored_clusters(rng, n_clusters=25, size=8)
    curve = posterior_roc_curve(y_true, score, groups=groups)
    row = len(curve) // 2
    band = curve.band(0.9, n_draws=40_000, random_state=seed)
    above = score >= curve.thresholds[row]
    masses = _bootstrap(rng, groups, [above & y_true, ~above & y_true], 0.5, 40_000)
    reference = masses[:, 0] / masses.sum(axis=1)
    sd = reference.std()
    assert abs(band.low[row] - np.quantile(reference, 0.05)) < 0.05 * sd
    assert abs(band.high[row] - np.quantile(reference, 0.95)) < 0.05 * sd


def test_clustered_pointwise_band_at_some_rows_matches_the_band_at_all_rows(seed):
    # Blocks of rows draw apart: the band at every other row reads the same marginals.
    rng = np.random.default_rng(seed)
    y_true, score, groups = _scored_clusters(rng, n_clusters=20, size=15)
    curve = posterior_precision_recall_curve(y_true, score, groups=groups)
    full = curve.band(0.9, max_points=None, n_draws=20_000, random_state=seed)
    some = curve.band(0.9, max_points=len(curve) // 2, n_draws=20_000, random_state=seed + 1)
    rows = np.flatnonzero(np.isin(curve.thresholds, some.thresholds))
    np.testing.assert_allclose(some.low, full.low[rows], atol=0.02)
    np.testing.assert_allclose(some.high, full.high[rows], atol=0.02)


def test_clustered_curve_has_no_exact_posteriors_and_reports_its_clusters():
    rng = np.random.default_rng(1)
    y_true, score, groups = _scored_clusters(rng, n_clusters=12, size=5)
    curve = posterior_roc_curve(y_true, score, groups=groups)
    for name in ("precision", "recall", "tpr", "fpr"):
        with pytest.raises(ValueError, match="no exact"):
            getattr(curve, name)
    assert curve.to_dict()["n_clusters"] == 12
    curves = curve.sample_curves(50, grid=[0.1, 0.5], random_state=0)
    assert curves.shape == (50, 2) and np.all((curves >= 0) & (curves <= 1))


@pytest.mark.parametrize("build", [posterior_precision_recall_curve, posterior_roc_curve])
def test_curves_refuse_bad_groups(build):
    y_true, score = [0, 1, 0, 1, 1, 0], [0.1, 0.9, 0.3, 0.6, 0.8, 0.2]
    with pytest.raises(ValueError, match="`groups` must be one cluster id per item"):
        build(y_true, score, groups=[0, 1, 2])
    with pytest.raises(ValueError, match="`groups` must be ids of at least two clusters"):
        build(y_true, score, groups=[7] * 6)
    with pytest.raises(ValueError, match="`groups` must be a cluster id for every item"):
        build(y_true, score, groups=[0, 1, None, 1, 0, 1])
    with pytest.raises(ValueError, match="at least two clusters among the items of positive"):
        build(y_true, score, groups=[0, 0, 0, 1, 1, 1], sample_weight=[1, 1, 1, 0, 0, 0])


def test_displays_pass_groups_to_the_curve_and_its_summary():
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    from skprobeval import PosteriorPrecisionRecallDisplay, PosteriorRocCurveDisplay

    rng = np.random.default_rng(2)
    y_true, score, groups = _scored_clusters(rng, n_clusters=15, size=6)
    for display in (PosteriorPrecisionRecallDisplay, PosteriorRocCurveDisplay):
        shown = display.from_predictions(y_true, score, groups=groups, n_draws=500,
                                         random_state=0)
        assert shown.curve.n_clusters == 15
        assert shown.summary.n_clusters == 15 and shown.band.n_draws == 500
    matplotlib.pyplot.close("all")


# ---------------------------------------------------------------------------
# choose_threshold
# ---------------------------------------------------------------------------


def test_choose_threshold_of_one_item_per_cluster_is_the_choice_without_clusters():
    rng = np.random.default_rng(0)
    y_true, score, _ = _scored_clusters(rng, n_clusters=200, size=1, separation=3.0)
    plain = choose_threshold(y_true, score, constraint=("precision", 0.8), n_draws=1000,
                             random_state=0)
    grouped = choose_threshold(y_true, score, constraint=("precision", 0.8), n_draws=1000,
                               random_state=0, groups=np.arange(200))
    assert grouped.threshold == plain.threshold and grouped.n_clusters is None
    np.testing.assert_array_equal(grouped.prob_constraint, plain.prob_constraint)
    assert grouped.prob_all_hold == plain.prob_all_hold
    assert isinstance(grouped.constraint_posterior, BetaPosterior)


def test_clustered_probability_of_the_constraint_is_the_bootstrap_of_the_clusters(seed):
    # P(precision >= 0.7) at one threshold: the share of a direct NumPy Bayesian
    # bootstrap of the clusters' items at or above it, within binomial error.
    rng = np.random.default_rng(seed)
    y_true, score, groups = _scored_clusters(rng, n_clusters=25, size=12, separation=2.0)
    choice = choose_threshold(y_true, score, constraint=("precision", 0.7), n_draws=20_000,
                              random_state=seed, groups=groups)
    assert choice.n_clusters == 25 and choice.summary()["n_clusters"] == 25
    row = int(np.argmin(np.abs(choice.prob_constraint - 0.5)))
    above = score >= choice.thresholds[row]
    masses = _bootstrap(rng, groups, [above & y_true, above & ~y_true], 0.5, 20_000)
    reference = float(np.mean(masses[:, 0] / masses.sum(axis=1) >= 0.7))
    assert abs(choice.prob_constraint[row] - reference) < 5 * np.sqrt(0.5 / 20_000)


def test_a_shared_cluster_effect_makes_the_threshold_choice_more_cautious():
    # Clusters whose negatives all score high together: precision varies by cluster,
    # so the clustered posterior at the chosen threshold is wider and rests on fewer
    # effective items, and the constraint holds at fewer thresholds.
    rng = np.random.default_rng(7)
    groups = np.repeat(np.arange(30), 20)
    y_true = rng.random(600) < 0.5
    shift = rng.normal(0.0, 1.5, 30)[groups]
    score = 2.5 * y_true + np.where(y_true, 0.0, shift) + rng.normal(size=600)
    plain = choose_threshold(y_true, score, constraint=("precision", 0.85), n_draws=4000,
                             random_state=0)
    grouped = choose_threshold(y_true, score, constraint=("precision", 0.85), n_draws=4000,
                               random_state=0, groups=groups)
    assert isinstance(grouped.constraint_posterior, ClusteredPosterior)
    assert grouped.constraint_posterior.effective_n < 400
    assert grouped.threshold > plain.threshold
    width = float(np.subtract(*grouped.constraint_posterior.interval(0.9)[::-1]))
    at = plain.counts[int(np.flatnonzero(plain.thresholds == grouped.threshold)[0])]
    exact = BetaPosterior(at.tp + 0.5, at.fp + 0.5)
    assert width > 1.2 * float(np.subtract(*exact.interval(0.9)[::-1]))
    assert np.sum(grouped.prob_constraint >= 0.95) < np.sum(plain.prob_constraint >= 0.95)


def test_choose_threshold_refuses_bad_groups():
    y_true, score = [0, 1, 0, 1, 1, 0], [0.1, 0.9, 0.3, 0.6, 0.8, 0.2]
    with pytest.raises(ValueError, match="`groups` must be one cluster id per item"):
        choose_threshold(y_true, score, groups=[0, 1])
    with pytest.raises(ValueError, match="`groups` must be a 1-d array of cluster ids"):
        choose_threshold(y_true, score, groups=np.zeros((6, 2)))


# ---------------------------------------------------------------------------
# threshold_utility
# ---------------------------------------------------------------------------

_COSTS = [[0.0, -1.0], [-5.0, 0.0]]


def test_threshold_utility_of_one_item_per_cluster_is_the_utility_without_clusters():
    rng = np.random.default_rng(0)
    y_true, score, _ = _scored_clusters(rng, n_clusters=150, size=1)
    plain = threshold_utility(y_true, score, utility=_COSTS, n_draws=1000, random_state=0)
    grouped = threshold_utility(y_true, score, utility=_COSTS, n_draws=1000, random_state=0,
                                groups=np.arange(150))
    assert grouped.n_clusters is None and grouped.best_threshold == plain.best_threshold
    np.testing.assert_array_equal(grouped.expected_utility, plain.expected_utility)
    np.testing.assert_array_equal(grouped.prob_best, plain.prob_best)


def test_clustered_utility_is_the_bootstrap_of_the_clusters(seed):
    # The utility per item at one threshold: mean and spread of a direct NumPy Bayesian
    # bootstrap of the clusters' four cells (each with its Gamma(λ) pseudo-cell), within
    # Monte Carlo error.
    rng = np.random.default_rng(seed)
    y_true, score, groups = _scored_clusters(rng, n_clusters=25, size=12)
    result = threshold_utility(y_true, score, utility=_COSTS, n_draws=20_000,
                               random_state=seed, groups=groups)
    assert result.n_clusters == 25
    column = int(np.argmax(result.expected_utility))
    above = score >= result.thresholds[column]
    masses = _bootstrap(rng, groups, [above & y_true, above & ~y_true, ~above & y_true,
                                      ~above & ~y_true], 0.5, 20_000)
    utility = masses @ np.array([0.0, -1.0, -5.0, 0.0]) / masses.sum(axis=1)
    draws = result.posterior.samples[:, column]
    spread = float(np.std(utility))
    assert abs(result.expected_utility[column] - utility.mean()) < 5 * spread / np.sqrt(20_000)
    assert float(np.std(draws)) == pytest.approx(spread, rel=0.05)


def test_a_shared_cluster_effect_widens_the_utility():
    rng = np.random.default_rng(3)
    y_true, score, groups = _scored_clusters(rng, n_clusters=30, size=20, effect=1.5)
    plain = threshold_utility(y_true, score, utility=_COSTS, n_draws=4000, random_state=0)
    grouped = threshold_utility(y_true, score, utility=_COSTS, n_draws=4000, random_state=0,
                                groups=groups)
    column = int(np.argmax(grouped.expected_utility))
    assert grouped.thresholds[column] in plain.thresholds
    at = int(np.flatnonzero(plain.thresholds == grouped.thresholds[column])[0])
    assert (np.std(grouped.posterior.samples[:, column])
            > 1.25 * np.std(plain.posterior.samples[:, at]))
    with pytest.raises(ValueError, match="`groups` must be one cluster id per item"):
        threshold_utility(y_true, score, utility=_COSTS, groups=groups[:10])


# ---------------------------------------------------------------------------
# Calibration
# ---------------------------------------------------------------------------


def _calibration_clusters(rng, n_clusters=40, size=25, effect=1.0):
    groups = np.repeat(np.arange(n_clusters), size)
    n = groups.shape[0]
    prob = rng.random(n)
    shift = rng.normal(0.0, effect, n_clusters)[groups]
    y_true = rng.random(n) < 1.0 / (1.0 + np.exp(-(np.log(prob / (1 - prob)) + shift)))
    return y_true, prob, groups


def test_calibration_of_one_item_per_cluster_is_the_calibration_without_clusters():
    rng = np.random.default_rng(0)
    y_true, prob, _ = _calibration_clusters(rng, n_clusters=300, size=1)
    singles = np.arange(300)
    plain = posterior_calibration_curve(y_true, prob, n_bins=5)
    grouped = posterior_calibration_curve(y_true, prob, n_bins=5, groups=singles)
    assert grouped.rate_draws is None and grouped.n_clusters is None
    for kind in ("pointwise", "simultaneous"):
        np.testing.assert_array_equal(grouped.band(0.9, kind=kind).low,
                                      plain.band(0.9, kind=kind).low)
    for norm in ("l1", "max"):
        a = calibration_error_posterior(y_true, prob, norm=norm, n_draws=500, random_state=0)
        b = calibration_error_posterior(y_true, prob, norm=norm, n_draws=500, random_state=0,
                                        groups=singles)
        np.testing.assert_array_equal(a.samples, b.samples)
        assert b.n_clusters is None and a.expected_if_calibrated == b.expected_if_calibrated


def test_a_shared_cluster_effect_widens_the_bins_and_the_calibration_error():
    rng = np.random.default_rng(1)
    y_true, prob, groups = _calibration_clusters(rng, effect=1.0)
    plain = posterior_calibration_curve(y_true, prob, n_bins=5)
    grouped = posterior_calibration_curve(y_true, prob, n_bins=5, groups=groups,
                                          n_draws=4000, random_state=0)
    assert grouped.n_clusters == 40 and "n_clusters=40" in repr(grouped)
    assert isinstance(grouped.rate, ClusteredPosterior)
    for kind in ("pointwise", "simultaneous"):
        wide, narrow = grouped.band(0.9, kind=kind), plain.band(0.9, kind=kind)
        assert wide.n_draws == 4000
        assert np.all(wide.high - wide.low > narrow.high - narrow.low)
    assert np.all(grouped.effective_n < grouped.counts)
    ece_plain = calibration_error_posterior(y_true, prob, n_bins=5, random_state=0)
    ece = calibration_error_posterior(y_true, prob, n_bins=5, random_state=0, groups=groups)
    assert ece.n_clusters == 40 and ece.n_items == 1000.0 and ece.effective_n < 1000
    assert ece.point == ece_plain.point
    assert ece.expected_if_calibrated > ece_plain.expected_if_calibrated
    assert ece.std() > ece_plain.std()


def test_clustered_bin_rate_and_ece_are_the_bootstrap_of_the_clusters(seed):
    # Each bin's rate M_pos / (M_pos + M_neg) and the ECE sum_b w_b |r_b - p_b| from a
    # direct NumPy Bayesian bootstrap of the clusters' cells (bin x class).
    rng = np.random.default_rng(seed)
    y_true, prob, groups = _calibration_clusters(rng, n_clusters=20, size=20)
    curve = posterior_calibration_curve(y_true, prob, n_bins=4, groups=groups,
                                        n_draws=40_000, random_state=seed)
    ece = calibration_error_posterior(y_true, prob, n_bins=4, groups=groups, n_draws=40_000,
                                      random_state=seed)
    index = np.searchsorted(np.linspace(0, 1, 5)[1:-1], prob)
    columns = [(index == b) & y_true for b in range(4)] + [(index == b) & ~y_true
                                                          for b in range(4)]
    masses = _bootstrap(rng, groups, columns, 0.5, 40_000)
    total = masses[:, :4] + masses[:, 4:]
    rates = masses[:, :4] / total
    reference = np.sum(total / total.sum(axis=1, keepdims=True)
                       * np.abs(rates - curve.prob_pred), axis=1)
    band = curve.band(0.9)
    sd = rates.std(axis=0)
    np.testing.assert_array_less(np.abs(band.low - np.quantile(rates, 0.05, axis=0)), 0.05 * sd)
    np.testing.assert_array_less(np.abs(band.high - np.quantile(rates, 0.95, axis=0)), 0.05 * sd)
    assert abs(ece.mean() - reference.mean()) < 5 * reference.std() * np.sqrt(2 / 40_000)


def test_calibration_display_passes_groups_to_the_curve():
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    from skprobeval import PosteriorCalibrationDisplay

    rng = np.random.default_rng(4)
    y_true, score, groups = _scored_clusters(rng, n_clusters=20, size=10)
    prob = 1.0 / (1.0 + np.exp(-score))
    shown = PosteriorCalibrationDisplay.from_predictions(y_true, prob, n_bins=5, groups=groups)
    assert shown.curve.n_clusters == 20
    plain = PosteriorCalibrationDisplay.from_predictions(y_true, prob, n_bins=5)
    assert plain.curve.n_clusters is None
    matplotlib.pyplot.close("all")


def test_calibration_refuses_bad_groups():
    y_true, prob = [0, 1, 0, 1, 1, 0], [0.1, 0.9, 0.3, 0.6, 0.8, 0.2]
    with pytest.raises(ValueError, match="`groups` must be ids of at least two clusters"):
        posterior_calibration_curve(y_true, prob, groups=["p"] * 6)
    with pytest.raises(ValueError, match="`groups` must be one cluster id per item"):
        calibration_error_posterior(y_true, prob, groups=[0, 1, 2, 3])


# ---------------------------------------------------------------------------
# PosteriorMetricFrame: sensitive groups of items in clusters
# ---------------------------------------------------------------------------


def _sensitive_clusters(rng, n_clusters=40, size=20, effect=1.0):
    """Labels of items in clusters that cross the two sensitive groups."""
    groups = np.repeat(np.arange(n_clusters), size)
    n = groups.shape[0]
    sensitive = np.where(rng.random(n) < 0.5, "a", "b")
    y_true = rng.integers(0, 2, n)
    skill = rng.normal(0.0, effect, n_clusters)[groups]
    right = rng.random(n) < 1.0 / (1.0 + np.exp(-(1.4 + skill)))
    return y_true, np.where(right, y_true, 1 - y_true), sensitive, groups


def test_frame_of_one_item_per_cluster_is_the_frame_without_clusters():
    rng = np.random.default_rng(0)
    y_true, y_pred, sensitive, _ = _sensitive_clusters(rng, n_clusters=300, size=1)
    options = {"metrics": ["recall", "mcc"], "y_true": y_true, "y_pred": y_pred,
               "sensitive_features": sensitive, "n_draws": 500, "random_state": 0}
    plain = PosteriorMetricFrame(**options)
    grouped = PosteriorMetricFrame(**options, groups=np.arange(300))
    assert grouped.n_clusters is None
    assert grouped.by_group.equals(plain.by_group) and grouped.overall.equals(plain.overall)
    assert grouped.difference()["recall"].exact


def test_clustered_frame_draws_the_groups_jointly_and_wider():
    rng = np.random.default_rng(1)
    y_true, y_pred, sensitive, groups = _sensitive_clusters(rng, effect=1.5)
    options = {"metrics": ["recall", "fallout"], "y_true": y_true, "y_pred": y_pred,
               "sensitive_features": sensitive, "n_draws": 4000, "random_state": 0}
    plain = PosteriorMetricFrame(**options)
    grouped = PosteriorMetricFrame(**options, groups=groups)
    assert grouped.n_clusters == 40 and "n_clusters=40" in repr(grouped)
    assert grouped.to_dict()["n_clusters"] == 40
    posterior = grouped.by_group_posteriors["recall"]["a"]
    assert isinstance(posterior, ClusteredPosterior) and posterior.effective_n < 400
    width = lambda table: (table["high"] - table["low"]).to_numpy()  # noqa: E731
    assert np.all(width(grouped.by_group["recall"]) > 1.2 * width(plain.by_group["recall"]))
    assert (grouped.overall["recall"]["high"] - grouped.overall["recall"]["low"]
            > 1.2 * (plain.overall["recall"]["high"] - plain.overall["recall"]["low"]))
    # The clusters cross the groups: one weight per cluster in both, so the groups'
    # draws are correlated and the gap is their joint difference.
    draws = grouped._posteriors["recall"].samples
    assert np.corrcoef(draws[:, 0], draws[:, 1])[0, 1] > 0.3
    gap = grouped.difference()["recall"]
    assert not gap.exact
    assert gap.posterior.std() < np.sqrt(draws[:, 0].var() + draws[:, 1].var())
    worst = equalized_odds_disparity(y_true, y_pred, sensitive_features=sensitive,
                                     groups=groups, n_draws=1000, random_state=0)
    assert worst.posterior.samples.shape == (1000,)


def test_clustered_frame_gap_is_the_bootstrap_of_the_clusters(seed):
    # Recall of each sensitive group from one Gamma(a) weight per cluster times the
    # cluster's TP and FN in that group (plus Gamma(λ) per cell): the gap's quantiles.
    rng = np.random.default_rng(seed)
    y_true, y_pred, sensitive, groups = _sensitive_clusters(rng, n_clusters=25, size=12)
    frame = PosteriorMetricFrame(metrics="recall", y_true=y_true, y_pred=y_pred,
                                 sensitive_features=sensitive, groups=groups, n_draws=40_000,
                                 random_state=seed)
    columns = []
    for name in ("a", "b"):
        inside = sensitive == name
        columns += [inside & (y_true == 1) & (y_pred == 1), inside & (y_true == 1) & (y_pred == 0)]
    masses = _bootstrap(rng, groups, columns, 0.5, 40_000)
    recall = masses[:, ::2] / (masses[:, ::2] + masses[:, 1::2])
    high = int(np.argmax(frame.by_group["point"].to_numpy()))
    reference = recall[:, high] - recall[:, 1 - high]
    gap = frame.difference()
    sd = reference.std()
    for q in (0.05, 0.5, 0.95):
        assert abs(float(gap.posterior.ppf(q)) - np.quantile(reference, q)) < 0.05 * sd


def test_frame_refuses_bad_groups():
    options = {"metrics": "recall", "y_true": [1, 0, 1, 1], "y_pred": [1, 0, 0, 1],
               "sensitive_features": ["a", "a", "b", "b"]}
    with pytest.raises(ValueError, match="`groups` must be one cluster id per item"):
        PosteriorMetricFrame(**options, groups=[0, 1])
    with pytest.raises(ValueError, match="`groups` must be ids of at least two clusters"):
        PosteriorMetricFrame(**options, groups=[3, 3, 3, 3])
    with pytest.raises(ValueError, match="at least two clusters among the items of positive"):
        PosteriorMetricFrame(**options, groups=[0, 0, 1, 1], sample_weight=[1, 1, 0, 0])
