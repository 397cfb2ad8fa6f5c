"""Posterior threshold curves, AP and AUC posteriors, and their paired comparison.

References: scikit-learn's own curve functions and metrics (``confusion_matrix_at_thresholds``,
``precision_recall_curve``, ``roc_curve``, ``average_precision_score``,
``roc_auc_score``) called on the same data or on explicitly weighted copies, a
nonparametric bootstrap of scikit-learn's metrics, and simulation from a
binormal model whose true curves are known in closed form.
"""

import numpy as np
import pytest
from sklearn.metrics import (
    average_precision_score,
    precision_recall_curve,
    roc_auc_score,
    roc_curve,
)

try:
    from sklearn.metrics import confusion_matrix_at_thresholds
except ImportError:      # scikit-learn < 1.8: the same counts, from the private function
    from sklearn.metrics._ranking import _binary_clf_curve

    def confusion_matrix_at_thresholds(y_true, y_score, *, sample_weight=None):
        fps, tps, thresholds = _binary_clf_curve(y_true, y_score, sample_weight=sample_weight)
        return fps[-1] - fps, fps, tps[-1] - tps, tps, thresholds

from skprobeval import (
    BetaPosterior,
    average_precision_posterior,
    compare_scores,
    posterior_precision_recall_curve,
    posterior_roc_curve,
    roc_auc_posterior,
)
from skprobeval._compare._ranking_posteriors import _paired_metric, _ranking_order, _ranking_own
from skprobeval._posteriors._curves import _class_shares


def _data(seed, n=200, ties=True, weights=True):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    y[:2] = [0, 1]
    score = y + rng.normal(0, 1.2, n)
    if ties:
        score = np.round(score, 1)              # many tied scores, across classes
    weight = rng.uniform(0, 3, n) if weights else None
    if weights:
        weight[rng.random(n) < 0.1] = 0.0       # zero weights (dropped, as scikit-learn)
        weight[:2] = 1.0
    return y, score, weight


CASES = [(seed, ties, weights) for seed in range(6) for ties in (True, False)
         for weights in (True, False)]


# ---------------------------------------------------------------------------
# Counts and exact posteriors at every threshold
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("seed, ties, weights", CASES)
@pytest.mark.parametrize("drop", [False, True])
def test_precision_recall_counts_are_scikit_learns(seed, ties, weights, drop):
    y, score, weight = _data(seed, ties=ties, weights=weights)
    curve = posterior_precision_recall_curve(y, score, sample_weight=weight,
                                             drop_intermediate=drop, prior=0.3)
    precision, recall, thresholds = precision_recall_curve(
        y, score, sample_weight=weight, drop_intermediate=drop)
    np.testing.assert_array_equal(curve.thresholds, thresholds)
    c = curve.counts
    np.testing.assert_allclose(c.tp / (c.tp + c.fp), precision[:-1], rtol=1e-12)
    np.testing.assert_allclose(c.tp / (c.tp + c.fn), recall[:-1], rtol=1e-12)
    # Each threshold's four cells, against scikit-learn's counts at thresholds.
    tns, fps, fns, tps, at = confusion_matrix_at_thresholds(y, score, sample_weight=weight)
    rows = np.searchsorted(-at, -curve.thresholds)
    for mine, theirs in ((c.tp, tps), (c.fp, fps), (c.fn, fns), (c.tn, tns)):
        np.testing.assert_allclose(mine, theirs[rows], rtol=1e-12, atol=1e-12)
    # The posteriors are the exact Beta posteriors of those counts.
    assert isinstance(curve.precision, BetaPosterior)
    np.testing.assert_array_equal(curve.precision.a, c.tp + 0.3)
    np.testing.assert_array_equal(curve.precision.b, c.fp + 0.3)
    np.testing.assert_array_equal(curve.recall.b, c.fn + 0.3)


@pytest.mark.parametrize("seed, ties, weights", CASES)
@pytest.mark.parametrize("drop", [True, False])
def test_roc_counts_are_scikit_learns(seed, ties, weights, drop):
    y, score, weight = _data(seed, ties=ties, weights=weights)
    curve = posterior_roc_curve(y, score, sample_weight=weight, drop_intermediate=drop)
    fpr, tpr, thresholds = roc_curve(y, score, sample_weight=weight, drop_intermediate=drop)
    np.testing.assert_array_equal(curve.thresholds, thresholds)
    c = curve.counts
    np.testing.assert_allclose(c.fp / (c.fp + c.tn), fpr, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(c.tp / (c.tp + c.fn), tpr, rtol=1e-12, atol=1e-15)
    np.testing.assert_array_equal(curve.fpr.a, c.fp + 0.5)
    np.testing.assert_array_equal(curve.tpr.b, c.fn + 0.5)


def test_string_labels_need_pos_label():
    y = np.array(["spam", "ham", "spam", "ham"])
    with pytest.raises(ValueError, match="`pos_label`"):
        posterior_precision_recall_curve(y, [0.9, 0.2, 0.6, 0.4])
    curve = posterior_precision_recall_curve(y, [0.9, 0.2, 0.6, 0.4], pos_label="spam")
    np.testing.assert_array_equal(curve.counts.tp, [2, 2, 2, 1])


def test_pointwise_band_is_the_exact_interval():
    y, score, weight = _data(3)
    curve = posterior_precision_recall_curve(y, score, sample_weight=weight)
    band = curve.band(0.9)
    low, high = curve.precision.interval(0.9)
    # Equal-tailed, except that a zero count reaches its end of [0, 1]: no
    # negative above the threshold (precision 1), no positive above it (0).
    tp, fp = curve.counts.tp, curve.counts.fp
    assert np.any((fp == 0) & (tp > 0))
    np.testing.assert_array_equal(band.low, np.where((tp == 0) & (fp > 0), 0.0, low))
    np.testing.assert_array_equal(band.high, np.where((fp == 0) & (tp > 0), 1.0, high))
    np.testing.assert_allclose(band.x, curve.counts.tp / (curve.counts.tp + curve.counts.fn))
    np.testing.assert_array_equal(band.thresholds, curve.thresholds)


def test_pointwise_band_thins_long_curves():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 5000)
    curve = posterior_roc_curve(y, y + rng.normal(0, 1, 5000), drop_intermediate=False)
    band = curve.band(max_points=100)
    assert band.x.shape == (100,)
    assert band.thresholds[0] == curve.thresholds[0]
    assert band.thresholds[-1] == curve.thresholds[-1]
    rows = np.searchsorted(-curve.thresholds, -band.thresholds)
    # The first threshold (above every score) finds no positive: the band reaches 0.
    np.testing.assert_array_equal(band.low[1:], curve.tpr.interval()[0][rows][1:])
    assert band.low[0] == 0.0


def test_pointwise_band_default_resolution_and_every_threshold():
    # Default: at most 2000 points (a band is drawn); None: every threshold, each
    # interval the exact one of that threshold's posterior.
    rng = np.random.default_rng(1)
    y = rng.integers(0, 2, 5000)
    curve = posterior_precision_recall_curve(y, y + rng.normal(0, 1, 5000))
    assert len(curve) > 2000
    assert curve.band().x.shape == (2000,)
    every = curve.band(max_points=None)
    assert every.x.shape == (len(curve),)
    low, high = curve.precision.interval()
    inner = (curve.counts.tp > 0) & (curve.counts.fp > 0)
    np.testing.assert_array_equal(every.low[inner], low[inner])
    np.testing.assert_array_equal(every.high[inner], high[inner])


def test_simultaneous_band_holds_the_drawn_curves():
    # By construction the band holds at least `confidence` of the curves drawn
    # with the same seed entirely, and it is wider than the pointwise envelope.
    # 1000 draws: at 400 draws over 101 points, about one seed in six has more
    # than 10% of the curves extreme at some point, and the 90% band is then
    # the envelope of every draw (holding all of them).
    y, score, _ = _data(1)
    for curve in (posterior_precision_recall_curve(y, score), posterior_roc_curve(y, score)):
        band = curve.band(0.9, kind="simultaneous", n_draws=1000, random_state=5)
        curves = curve.sample_curves(1000, random_state=5)
        inside = np.all((curves >= band.low) & (curves <= band.high), axis=1)
        assert 0.9 <= inside.mean() < 0.95
        pointwise = np.quantile(curves, [0.05, 0.95], axis=0)
        assert np.all(band.low <= pointwise[0] + 1e-12)
        assert np.all(band.high >= pointwise[1] - 1e-12)
        again = curve.band(0.9, kind="simultaneous", n_draws=1000, random_state=5)
        np.testing.assert_array_equal(again.low, band.low)


def _binormal(rng, n, mu=1.5, prevalence=0.3):
    y = rng.random(n) < prevalence
    return y, np.where(y, rng.normal(mu, 1, n), rng.normal(0, 1, n))


@pytest.mark.slow   # 4 s of simulation
def test_band_coverage_by_simulation():
    # Binormal scores: positives N(1.5, 1), negatives N(0, 1), prevalence 0.3,
    # n = 400, 120 repetitions with a fixed seed (the benchmark's simulation,
    # which runs 1000: pointwise 0.95, simultaneous 0.97-0.98).  The true
    # precision at the threshold where the true recall is 1/2 and the true
    # curves are closed forms.
    from benchmarks.bench_curves import coverage

    pointwise, precision_recall, roc = coverage(120, 500)
    assert 0.90 <= pointwise <= 0.99
    assert precision_recall >= 0.93
    assert roc >= 0.93


# ---------------------------------------------------------------------------
# AP and AUC posteriors
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("seed, ties, weights", CASES)
def test_points_equal_scikit_learn(seed, ties, weights):
    y, score, weight = _data(seed, ties=ties, weights=weights)
    ap = average_precision_posterior(y, score, sample_weight=weight, n_draws=10)
    auc = roc_auc_posterior(y, score, sample_weight=weight, n_draws=10)
    assert ap.point == pytest.approx(average_precision_score(y, score, sample_weight=weight),
                                     abs=1e-12)
    assert auc.point == pytest.approx(roc_auc_score(y, score, sample_weight=weight), abs=1e-12)


@pytest.mark.parametrize("metric", ["average_precision", "roc_auc"])
def test_one_draw_is_the_weighted_metric(metric):
    # Independent route for a draw: the metric of Gamma-weighted items, the four
    # pseudo-items given scores above and below every score, from scikit-learn
    # with those weights as sample_weight.
    rng = np.random.default_rng(4)
    y, score, _ = _data(4, n=60)
    relevant = y == 1
    order, starts = _ranking_order(relevant, score)
    gammas = rng.standard_gamma(1.0, size=(5, y.shape[0]))
    pseudo = tuple(rng.standard_gamma(0.5, size=5) for _ in range(4))
    # Each class in its own scale, as the sampler hands them over.
    raw = np.column_stack([gammas, *pseudo])
    positive = np.r_[relevant, True, False, True, False]
    scaled, by_positives = _class_shares(np.log(raw), positive)
    common = scaled.copy()
    common[:, ~positive] = by_positives
    mine = _paired_metric(metric, scaled[:, :-4], relevant, order, starts,
                          tuple(scaled[:, -4 + i] for i in range(4)),
                          (common[:, :-4], tuple(common[:, -4 + i] for i in range(4))))
    reference = average_precision_score if metric == "average_precision" else roc_auc_score
    top, bottom = score.max() + 1, score.min() - 1
    y_all = np.r_[y, 1, 0, 1, 0]
    s_all = np.r_[score, top, top, bottom, bottom]
    for d in range(5):
        w_all = np.r_[gammas[d], [p[d] for p in pseudo]]
        assert mine[d] == pytest.approx(reference(y_all, s_all, sample_weight=w_all), abs=1e-12)


def _own_share_ap_by_items(relevant, score, weight, own):
    """Average precision with each positive item's precision counting ``1 - own`` of
    its own weight, item by item in plain Python: the items at or above it (itself
    excluded) plus that part of itself, over everything at or above it plus the same."""
    total_positive = sum(w for r, w in zip(relevant, weight) if r)
    ap = 0.0
    for i, (r_i, s_i, w_i, o_i) in enumerate(zip(relevant, score, weight, own)):
        if not r_i:
            continue
        above_pos = sum(w for j, (r, s, w) in enumerate(zip(relevant, score, weight))
                        if r and s >= s_i and j != i)
        above_all = sum(w for j, (s, w) in enumerate(zip(score, weight)) if s >= s_i and j != i)
        kept = w_i * (1 - o_i)
        ap += w_i * (above_pos + kept) / (above_all + kept)
    return ap / total_positive


def test_posterior_average_precision_counts_each_positive_once_in_its_precision():
    # Untied items of weight 1: each level one item, whose precision counts half of
    # its drawn weight (1 / (1 + 1) taken off); the boundary pseudo-items of mass 0.1
    # count 0.1 / 1.1 of theirs.  One draw against the item-by-item sum, the
    # pseudo-items given scores above and below every score.
    rng = np.random.default_rng(12)
    y, score, _ = _data(12, n=40, ties=False, weights=False)
    relevant = y == 1
    order, starts = _ranking_order(relevant, score)
    own = _ranking_own(relevant, np.ones(y.shape[0]), order, starts, 0.1)
    np.testing.assert_array_equal(own[1:-1], np.where(relevant[order], 0.5, 1.0))
    assert own[0] == own[-1] == pytest.approx(1 / 1.1)
    gammas = rng.standard_gamma(1.0, size=(3, y.shape[0]))
    pseudo = tuple(rng.standard_gamma(0.1, size=3) for _ in range(4))
    mine = _paired_metric("average_precision", gammas, relevant, order, starts, pseudo,
                          own=own)
    top, bottom = score.max() + 1, score.min() - 1
    r_all = np.r_[relevant, True, False, True, False]
    s_all = np.r_[score, top, top, bottom, bottom]
    own_all = np.r_[np.full(y.shape[0], 0.5), [1 / 1.1] * 4]
    for d in range(3):
        w_all = np.r_[gammas[d], [p[d] for p in pseudo]]
        assert mine[d] == pytest.approx(_own_share_ap_by_items(r_all, s_all, w_all, own_all),
                                        abs=1e-12)
        step = average_precision_score(r_all, s_all, sample_weight=w_all)
        assert mine[d] < step


def test_own_share_of_tied_levels_fades_with_their_size():
    # A level of positives of summed weight s takes 1 / (1 + s) of its drawn weight
    # off its own precision: 1/2 for one item, 1/3 for two tied, 1/4 for an item of
    # weight 3 (three items), 1 / 1.25 for an item of weight 0.25; a level without
    # positives has nothing to take off (its share is never read).
    relevant = np.array([1, 1, 1, 0, 1, 0, 1], bool)
    score = np.array([5.0, 4, 4, 4, 3, 2, 1])
    weight = np.array([1.0, 1, 1, 1, 3, 1, 0.25])
    order, starts = _ranking_order(relevant, score)
    own = _ranking_own(relevant, weight, order, starts, 0.1)
    np.testing.assert_allclose(own, [1 / 1.1, 1 / 2, 1 / 3, 1 / 4, 1.0, 1 / 1.25, 1 / 1.1])


def test_many_tied_items_keep_the_step_wise_value():
    # Three score levels of 3000 items each: a discrete population's average precision
    # is the step-wise value, and the own shares (1 / (1 + s), s in the thousands) leave
    # the posterior mean at scikit-learn's point within a few Monte Carlo errors.
    rng = np.random.default_rng(5)
    score = np.repeat([2.0, 1.0, 0.0], 3000)
    y = (rng.random(9000) < np.repeat([0.8, 0.4, 0.1], 3000)).astype(int)
    posterior = average_precision_posterior(y, score, prior=1e-3, n_draws=4000,
                                            random_state=0)
    assert abs(posterior.mean() - posterior.point) < 4 * posterior.mc_error + 1e-4


# 500 draws per data set in the fast tier (0.3 s), 2000 in the slow tier (1 s).
@pytest.mark.parametrize("n_draws", [500, pytest.param(2000, marks=pytest.mark.slow)])
def test_few_positives_draws_center_on_the_sample_not_above_it(n_draws):
    # Six positives among 300 binormal items (separation 1; the true AP is 0.080, the
    # binormal integral).  The sample AP averages about twice that over data sets: each
    # positive counts itself in its own precision.  Read step-wise, the posterior's
    # draws add to that bias (a Gamma(1) weight w counts itself as w^2, E[w^2] = 2,
    # where the sample's item counts 1); with half of w taken off (w^2/2, mean 1) they
    # center on the sample value.  The draws' Monte Carlo error is small next to the
    # bounds: a draw's AP has sd about 0.09 (at most 0.17), so a data set's mean over 500
    # draws has a standard error below 0.008, and the mean over the 40 data sets about
    # 0.0007 (0.0004 at 2000 draws), against the bounds' 0.01.
    from skprobeval._posteriors._curves import (
        CurveCells,
        ap_from_cumulative,
        draw_cumulative,
        own_share,
    )

    rng = np.random.default_rng(2)
    relevant = np.r_[np.ones(6, bool), np.zeros(294, bool)]
    points, middle, step = [], [], []
    for _ in range(40):
        score = rng.normal(size=300) + relevant
        cells = CurveCells.from_items(relevant, score, np.ones(300))
        own = own_share(np.r_[0.1, cells.positive, 0.1])
        (tp, _, pos, _, fp_by_tp), = draw_cumulative(cells, 0.1, n_draws, rng)
        middle.append(ap_from_cumulative(tp, fp_by_tp, pos, own).mean())
        step.append(ap_from_cumulative(tp, fp_by_tp, pos).mean())
        points.append(average_precision_score(relevant, score))
    points, middle, step = (np.mean(v) for v in (points, middle, step))
    assert points > 0.0796 + 0.04
    assert abs(middle - points) < 0.01
    assert step > points + 0.01


def test_default_boundary_mass_of_average_precision():
    from skprobeval._posteriors._curves import ap_boundary_mass

    # 0.1 up to 30 positives, 3 / P above (continuous at 30).
    assert ap_boundary_mass(2) == ap_boundary_mass(30) == 0.1
    assert ap_boundary_mass(31) == pytest.approx(3 / 31, rel=1e-15)
    assert ap_boundary_mass(3000) == pytest.approx(0.001, rel=1e-15)
    rng = np.random.default_rng(4)
    # Every check below is an exact equality of draws: 100 draws check it as well as more.
    # (positives, weight of each positive): weights count, so 20 positives of weight 3
    # are 60 positives' worth.
    # ROC AUC's: 0.3 up to 30 positives, 9 / P to 90, 0.1 above.
    for n_pos, weight, mass, auc_mass in ((20, 1.0, 0.1, 0.3), (400, 1.0, 3 / 400, 0.1),
                                          (20, 3.0, 3 / 60, 9 / 60)):
        y = np.r_[np.ones(n_pos, int), np.zeros(300, int)]
        score = rng.normal(size=y.size) + 2 * y
        w = np.where(y == 1, weight, 1.0)
        default = average_precision_posterior(y, score, sample_weight=w, n_draws=100,
                                              random_state=0)
        explicit = average_precision_posterior(y, score, sample_weight=w, prior=mass,
                                               n_draws=100, random_state=0)
        np.testing.assert_array_equal(default.samples, explicit.samples)
        other = score + rng.normal(size=y.size)
        for metric, lam in (("average_precision", mass), ("roc_auc", auc_mass)):
            by_default = compare_scores(y, score, other, metric=metric, sample_weight=w,
                                        n_draws=100, random_state=0)
            by_mass = compare_scores(y, score, other, metric=metric, sample_weight=w,
                                     prior=lam, n_draws=100, random_state=0)
            np.testing.assert_array_equal(by_default.difference.samples,
                                          by_mass.difference.samples)
    # A prior string other than the named ones is refused, naming "auto" among them.
    for function in (average_precision_posterior, roc_auc_posterior):
        with pytest.raises(ValueError, match=r"`prior` must be .*'auto'.*; got 'automatic'"):
            function(y, score, prior="automatic")
    # ROC AUC's "auto" is its default, here 9 / 60 (20 positives of weight 3).
    auc = roc_auc_posterior(y, score, sample_weight=w, n_draws=100, random_state=0)
    for prior in ("auto", 9 / 60):
        np.testing.assert_array_equal(
            auc.samples, roc_auc_posterior(y, score, sample_weight=w, prior=prior,
                                           n_draws=100, random_state=0).samples)


def test_default_boundary_mass_of_roc_auc():
    from skprobeval._posteriors._curves import auc_boundary_mass

    # 0.3 up to 30 positives, 9 / P to 90 (continuous at both ends), 0.1 above.
    assert auc_boundary_mass(1) == auc_boundary_mass(30) == 0.3
    assert auc_boundary_mass(45) == pytest.approx(0.2, rel=1e-15)
    assert auc_boundary_mass(90) == pytest.approx(0.1, rel=1e-15)
    assert auc_boundary_mass(91) == auc_boundary_mass(3000) == 0.1


@pytest.mark.slow   # 3 s of bootstrap
def test_default_average_precision_of_many_positives_is_as_wide_as_the_bootstrap():
    # A near-perfect ranking (binormal, separation 4) of 900 positives among 3000 items:
    # the pseudo-negative above every score pulls each draw down by about g log(P) / P.
    # At a fixed mass 0.1 that doubles the interval against the item bootstrap (500
    # resamples of scikit-learn's AP; 1.98-2.69 times over four seeds); the default's
    # 3 / P leaves the bootstrap's width (1.01-1.05 times).
    rng = np.random.default_rng(0)
    y = np.r_[np.ones(900, int), np.zeros(2100, int)]
    score = rng.normal(size=y.size) + 4 * y
    boot = np.empty(500)
    for b in range(boot.size):
        take = rng.integers(0, y.size, y.size)
        boot[b] = average_precision_score(y[take], score[take])
    boot_width = np.subtract(*np.quantile(boot, [0.975, 0.025]))

    def width(posterior):
        low, high = posterior.interval(0.95)
        return high - low

    default = average_precision_posterior(y, score, n_draws=4000, random_state=0)
    fixed = average_precision_posterior(y, score, prior=0.1, n_draws=4000, random_state=0)
    assert width(default) < 1.25 * boot_width
    assert width(fixed) > 1.6 * boot_width
    assert abs(default.mean() - default.point) < boot.std()


@pytest.mark.slow   # 2-4 s of bootstrap each
@pytest.mark.parametrize("make, metric", [(average_precision_posterior, average_precision_score),
                                          (roc_auc_posterior, roc_auc_score)])
def test_posterior_sd_matches_the_bootstrap(make, metric):
    # n = 1000 binormal items; reference: 2000 nonparametric bootstrap
    # resamples of scikit-learn's metric.
    rng = np.random.default_rng(11)
    y, score = _binormal(rng, 1000)
    posterior = make(y, score, n_draws=4000, random_state=0)
    boot = np.empty(2000)
    for b in range(boot.shape[0]):
        take = rng.integers(0, 1000, 1000)
        boot[b] = metric(y[take], score[take])
    assert posterior.std() == pytest.approx(boot.std(ddof=1), rel=0.15)
    assert abs(posterior.mean() - posterior.point) < 3 * boot.std()
    again = make(y, score, n_draws=4000, random_state=0)
    np.testing.assert_array_equal(again.samples, posterior.samples)
    other = make(y, score, n_draws=4000, random_state=1)
    assert not np.array_equal(other.samples, posterior.samples)


# ---------------------------------------------------------------------------
# Paired comparison
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("metric", ["average_precision", "roc_auc"])
def test_compare_scores_sums_to_one_and_mirrors(metric):
    rng = np.random.default_rng(2)
    y, score = _binormal(rng, 300)
    other = score + rng.normal(0, 0.8, 300)
    forward = compare_scores(y, score, other, metric=metric, rope=0.01, n_draws=500,
                             random_state=3)
    backward = compare_scores(y, other, score, metric=metric, rope=0.01, n_draws=500,
                              random_state=3)
    total = forward.prob_first_better + forward.prob_equivalent + forward.prob_second_better
    assert total == pytest.approx(1.0, abs=1e-12)
    assert forward.prob_first_better == backward.prob_second_better
    assert forward.prob_second_better == backward.prob_first_better
    assert forward.prob_equivalent == backward.prob_equivalent
    assert forward.paired and forward.method == "sampled" and forward.n_draws == 500


@pytest.mark.slow   # 2.5-5 s of bootstrap each
@pytest.mark.parametrize("seed", [8, 10])
@pytest.mark.parametrize("metric, score_fn", [("average_precision", average_precision_score),
                                              ("roc_auc", roc_auc_score)])
def test_compare_scores_agrees_with_a_paired_bootstrap(metric, score_fn, seed):
    # Two systems on the same 400 items (noise 0.4 and 1.0 on one latent score);
    # reference: 2000 paired bootstrap resamples of scikit-learn's metric.  Seed
    # 10 is a clear difference (bootstrap P about 0.98-1.0), seed 8 a close one.
    rng = np.random.default_rng(seed)
    y, latent = _binormal(rng, 400, mu=1.2)
    first = latent + rng.normal(0, 0.4, 400)
    second = latent + rng.normal(0, 1.0, 400)
    result = compare_scores(y, first, second, metric=metric, n_draws=4000, random_state=0)
    wins = 0
    for _ in range(2000):
        take = rng.integers(0, 400, 400)
        wins += score_fn(y[take], first[take]) > score_fn(y[take], second[take])
    if seed == 10:
        assert wins / 2000 > 0.95
    assert result.prob_first_better == pytest.approx(wins / 2000, abs=0.04)


def test_identical_systems_are_equivalent_within_any_rope():
    y, score, _ = _data(0, ties=False, weights=False)
    result = compare_scores(y, score, score, rope=0.001, n_draws=200, random_state=0)
    assert result.prob_equivalent == 1.0


# ---------------------------------------------------------------------------
# Bad input
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("call, name", [
    (lambda: posterior_precision_recall_curve([1, 1, 1], [0.2, 0.3, 0.4]), "y_true"),
    (lambda: posterior_roc_curve([0, 0], [0.2, 0.3]), "y_true"),
    (lambda: posterior_precision_recall_curve([0, 1, 1], [0.2, np.nan, 0.4]), "y_score"),
    (lambda: posterior_roc_curve([0, 1, 1], [0.2, 0.3]), "y_score"),
    (lambda: posterior_roc_curve([0, 1, 1], [0.2, 0.3, 0.5], sample_weight=[1, 1]),
     "sample_weight"),
    (lambda: posterior_roc_curve([0, 1, 1], [0.2, 0.3, 0.5], sample_weight=[1, 0, 0]),
     "sample_weight"),
    (lambda: posterior_roc_curve([0, 1], [0.2, 0.3], prior=-1), "prior"),
    (lambda: posterior_roc_curve([0, 1], [0.2, 0.3]).band(1.5), "confidence"),
    (lambda: posterior_roc_curve([0, 1], [0.2, 0.3]).band(0.0), "confidence"),
    (lambda: posterior_roc_curve([0, 1], [0.2, 0.3]).band(kind="joint"), "kind"),
    (lambda: posterior_roc_curve([0, 1], [0.2, 0.3]).band(kind="simultaneous", grid=[2.0]),
     "grid"),
    (lambda: posterior_roc_curve([0, 1], [0.2, 0.3]).band(max_points=1), "max_points"),
    (lambda: average_precision_posterior([0, 1], [0.2, np.inf]), "y_score"),
    (lambda: average_precision_posterior([0, 1], [0.2, 0.3], n_draws=1), "n_draws"),
    (lambda: roc_auc_posterior(["a", "b"], [0.2, 0.3]), "pos_label"),
    (lambda: compare_scores([0, 1, 1], [0.1, 0.2, 0.3], [0.3, 0.2]), "y_score_b"),
    (lambda: compare_scores([0, 1], [0.1, np.nan], [0.3, 0.2]), "y_score_a"),
    (lambda: compare_scores([0, 1], [0.1, 0.2], [0.3, 0.2], metric="f1"), "metric"),
    (lambda: compare_scores([0, 1], [0.1, 0.2], [0.3, 0.2], rope=1.0), "rope"),
    (lambda: posterior_roc_curve(np.array([0, 1, None], dtype=object), [0.1, 0.2, 0.3]),
     "y_true"),
    (lambda: posterior_roc_curve([0.0, 1.0, np.nan], [0.1, 0.2, 0.3]), "y_true"),
    (lambda: posterior_roc_curve([0.1, 0.5, 0.7], [0.1, 0.2, 0.3]), "y_true"),
    (lambda: posterior_roc_curve([0, 1, 1], [0.1, 0.2, 0.3], pos_label=2), "pos_label"),
    (lambda: posterior_roc_curve([0, 1, 1], [0.1, 0.2, 0.3], pos_label="1"), "pos_label"),
    (lambda: posterior_roc_curve([0, 1], np.array([0.1, 0.2 + 1j])), "y_score"),
    (lambda: roc_auc_posterior([0, 1], [0.1, 0.2], sample_weight=[1e160, 1e160]),
     "sample_weight"),
])
def test_bad_input_names_the_argument(call, name):
    with pytest.raises((ValueError, TypeError), match=f"`{name}`"):
        call()


def test_merged_cells_keep_the_cumulative_shapes():
    # Runs of levels summed into their last level: the cumulative Gamma shapes
    # at the kept levels (the parameters of the drawn shares there) are those
    # of the full cells, so the draws at those levels have the same law.
    from skprobeval._posteriors._curves import CurveCells

    rng = np.random.default_rng(6)
    y = rng.integers(0, 2, 5000).astype(bool)
    score = rng.normal(0, 1, 5000) + y
    weight = rng.uniform(0.1, 2.0, 5000)
    cells = CurveCells.from_items(y, score, weight)
    merged = cells.merged(300)
    assert merged.levels.shape[0] <= 300
    kept = np.searchsorted(-cells.levels, -merged.levels)
    np.testing.assert_array_equal(cells.levels[kept], merged.levels)
    assert kept[-1] == cells.levels.shape[0] - 1
    np.testing.assert_allclose(np.cumsum(merged.positive), np.cumsum(cells.positive)[kept])
    np.testing.assert_allclose(np.cumsum(merged.negative), np.cumsum(cells.negative)[kept])
    assert cells.merged(10 ** 6) is cells


def test_simultaneous_band_with_merged_cells():
    # 3000 scores in at most 200 runs against every level: the same band up to
    # the Monte Carlo error of 2000 draws (and the coarser reading).
    rng = np.random.default_rng(9)
    y, score = _binormal(rng, 3000)
    curve = posterior_precision_recall_curve(y, score)
    grid = np.linspace(0.05, 0.95, 19)
    full = curve.band(kind="simultaneous", n_draws=2000, grid=grid, random_state=1,
                      max_cells=10 ** 6)
    merged = curve.band(kind="simultaneous", n_draws=2000, grid=grid, random_state=2,
                        max_cells=200)
    assert np.max(np.abs(full.low - merged.low)) < 0.02
    assert np.max(np.abs(full.high - merged.high)) < 0.02
    with pytest.raises(ValueError, match="`max_cells`"):
        curve.band(kind="simultaneous", max_cells=0)


def test_huge_weights_stay_finite():
    # Weights are counts, up to 1e15 in total: AUC normalises each class's share
    # before the product (a product of the two totals overflowed above 1e155).
    y = np.array([0, 1, 0, 1, 1, 0, 1, 0, 1, 1])
    score = np.linspace(0, 1, 10)
    weight = np.full(10, 1e14)
    auc = roc_auc_posterior(y, score, sample_weight=weight, n_draws=200, random_state=0)
    assert auc.mean() == pytest.approx(roc_auc_score(y, score), abs=1e-6)
    result = compare_scores(y, score, score[::-1], metric="roc_auc", sample_weight=weight,
                            n_draws=200, random_state=0)
    assert result.prob_first_better == 1.0
    band = posterior_roc_curve(y, score, sample_weight=weight).band()
    assert np.all(np.isfinite(band.low)) and np.all(np.isfinite(band.high))


def test_tiny_prior_reads_no_nan_at_recall_zero():
    # Pseudo-cells of mass 1e-6 draw exactly 0: precision at recall 0 is read at
    # the first threshold that predicts anything.
    y, score, _ = _data(2, weights=False)
    curves = posterior_precision_recall_curve(y, score, prior=1e-6).sample_curves(
        300, grid=[0.0, 0.5], random_state=0)
    assert np.all(np.isfinite(curves))


def test_tiny_weights_and_prior_leave_every_draw_defined():
    # Four items of weight 1e-4 under boundary mass 1e-3: a Gamma variate of
    # shape 1e-4 is below 1e-300 almost always, so a draw in one common scale
    # gave a class total of 0 and AP/AUC 0/0 (NaN draws dropped or refused).
    # Each class is drawn in its own scale: every draw is defined.
    y, a, b = [0, 1, 0, 1], [0.1, 0.9, 0.2, 0.8], [0.9, 0.1, 0.8, 0.2]
    weight = [1e-4] * 4
    for metric in ("average_precision", "roc_auc"):
        result = compare_scores(y, a, b, metric=metric, sample_weight=weight, prior=1e-3,
                                n_draws=4000, random_state=0)
        assert result.difference.n_draws == 4000
        assert np.isfinite(list(result.interval())).all()
    for make in (average_precision_posterior, roc_auc_posterior):
        posterior = make(y, a, sample_weight=weight, prior=1e-3, n_draws=4000, random_state=0)
        assert 0.0 <= posterior.interval().low <= posterior.interval().high <= 1.0
    for make in (posterior_precision_recall_curve, posterior_roc_curve):
        curve = make(y, a, sample_weight=weight, prior=1e-3)
        curves = curve.sample_curves(1000, random_state=0)
        assert np.isfinite(curves).all() and (curves >= 0).all() and (curves <= 1).all()
        band = curve.band(kind="simultaneous", n_draws=1000, random_state=0)
        assert np.isfinite(band.low).all() and np.isfinite(band.high).all()
        assert (band.low <= band.high).all()


def test_class_shares_keep_the_ratios_of_the_variates():
    # Independent route: the exact ratios, in log space, of the variates handed in.
    rng = np.random.default_rng(3)
    log_g = rng.normal(0, 150, size=(4, 7))      # ratios within a class down to e^-700
    log_g[0, 2] = 2000.0                          # negatives e^1000+ above the positives
    positive = np.array([True, True, False, True, False, False, True])
    shares, by_positives = _class_shares(log_g.copy(), positive)
    for d in range(4):
        pos, neg = log_g[d, positive], log_g[d, ~positive]
        np.testing.assert_allclose(shares[d, positive], np.exp(pos - pos.max()), rtol=1e-9)
        np.testing.assert_allclose(shares[d, ~positive], np.exp(neg - neg.max()), rtol=1e-9)
        with np.errstate(over="ignore"):
            np.testing.assert_allclose(by_positives[d], np.exp(neg - pos.max()), rtol=1e-9)
    assert shares.max(axis=1).tolist() == [1.0] * 4
    assert by_positives[0, 0] == np.inf


def test_average_precision_draws_equal_a_log_space_route():
    # Six items of weight 1e-4 under boundary mass 1e-3: the classes are often
    # more than e^700 apart and a negative share underflows in its own class's
    # scale; precision reads the negatives in the positives' scale from the logs.
    # Reference: the same variates, cumulated and divided in log space.
    from skprobeval._core._numerics import log_gamma
    from skprobeval._posteriors._curves import CurveCells, ap_from_cumulative

    relevant = np.array([1, 0, 1, 0, 0, 1], bool)
    cells = CurveCells.from_items(relevant, np.arange(6.0, 0, -1), np.full(6, 1e-4))
    k, lam = cells.levels.shape[0], 1e-3
    shapes = np.concatenate([[lam], cells.positive, [lam], [lam], cells.negative, [lam]])
    positive = np.arange(shapes.shape[0]) < k + 2
    log_g = log_gamma(shapes, 20_000, np.random.default_rng(0))
    shares, by_positives = _class_shares(log_g.copy(), positive)
    tp = np.cumsum(shares[:, :k + 2], axis=1)
    mine = ap_from_cumulative(tp, np.cumsum(by_positives, axis=1), tp[:, -1:])
    log_tp = np.logaddexp.accumulate(log_g[:, :k + 2], axis=1)
    log_fp = np.logaddexp.accumulate(log_g[:, k + 2:], axis=1)
    with np.errstate(all="ignore"):
        precision = np.exp(log_tp - np.logaddexp(log_tp, log_fp))
        gained = np.exp(log_g[:, :k + 2] - log_tp[:, -1:])
    np.testing.assert_allclose(mine, np.sum(gained * precision, axis=1), atol=1e-9)


def test_constant_columns_do_not_narrow_the_envelope_depth():
    # A grid column where every drawn curve has the same value (the ROC curve at
    # FPR 0 and 1) constrains nothing: adding such columns leaves the band as it was.
    from skprobeval._posteriors._curves import _simultaneous_envelope

    rng = np.random.default_rng(3)
    curves = rng.normal(size=(400, 20))
    low, high = _simultaneous_envelope(curves, 0.9)
    padded = np.column_stack([np.zeros(400), curves, np.ones(400)])
    low_p, high_p = _simultaneous_envelope(padded, 0.9)
    np.testing.assert_array_equal(low_p[1:-1], low)
    np.testing.assert_array_equal(high_p[1:-1], high)
    inside = np.all((curves >= low) & (curves <= high), axis=1)
    assert inside.mean() >= 0.9


def test_one_sided_columns_reach_the_end_and_count_depth_from_the_other():
    # A column flagged as reaching the top is one-sided: its high end is 1, and a
    # curve leaves the band there only below the low end.  With that column alone
    # the band is the column's one-sided interval: its low end is the order
    # statistic leaving (1 - confidence) of the draws below, not half of it.
    from skprobeval._posteriors._curves import _simultaneous_envelope

    rng = np.random.default_rng(8)
    column = rng.beta(30, 0.5, size=1000)
    low, high = _simultaneous_envelope(column[:, None], 0.9, top=np.array([True]))
    assert high[0] == 1.0
    assert np.mean(column >= low[0]) == pytest.approx(0.9, abs=1e-3)
    two_sided_low, _ = _simultaneous_envelope(column[:, None], 0.9)
    assert two_sided_low[0] < low[0]
    # Beside two-sided columns the band still holds `confidence` of the curves.
    curves = np.column_stack([column, rng.normal(size=1000), rng.normal(size=1000)])
    low, high = _simultaneous_envelope(curves, 0.9, top=np.array([True, False, False]))
    assert high[0] == 1.0 and np.all(high[1:] < 5)
    inside = np.all((curves >= low) & (curves <= high), axis=1)
    assert 0.9 <= inside.mean() < 0.92


def test_near_perfect_ranker_band_reaches_the_observed_end():
    # A separation-4 binormal ranker: no negative above the first positives, so
    # the observed precision is 1 at low recall and the ROC curve reaches TPR 1
    # early.  There the simultaneous band reaches 1 (every posterior draw is
    # below 1: the pseudo-items sit at the ends), and elsewhere it is two-sided.
    rng = np.random.default_rng(2)
    y = np.r_[np.ones(90, dtype=int), np.zeros(210, dtype=int)]
    score = rng.normal(size=300) + 4.0 * y
    for build, grid in ((posterior_precision_recall_curve, np.linspace(0.01, 0.99, 99)),
                        (posterior_roc_curve, np.linspace(0.0, 1.0, 101))):
        curve = build(y, score)
        observed = curve._observed_on_grid(grid)
        band = curve.band(kind="simultaneous", n_draws=400, grid=grid, random_state=0)
        assert np.any(observed == 1.0) and np.any(observed < 1.0)
        np.testing.assert_array_equal(band.high[observed == 1.0], 1.0)
        reached = (observed == 1.0) & (grid < 1.0)      # the ROC curve ends at (1, 1)
        assert np.all(curve.sample_curves(400, grid=grid, random_state=0)[:, reached] < 1.0)
        assert np.all(band.high[(observed < 1.0) & (observed > 0.0)] < 1.0)


@pytest.mark.slow   # 10 s of simulation
def test_near_perfect_ranker_band_coverage_by_simulation():
    # Coverage of the simultaneous bands for a separation-4 binormal ranker
    # (n = 300, prevalence 0.3; 60 data sets, seed fixed): the true curves are
    # the closed forms of the coverage benchmark.  Before the bands reached the
    # observed end they held the true PR curve in 8% and the ROC curve in 89%
    # of the benchmark's 400 data sets.
    from benchmarks.bench_coverage import _binormal_truth

    _, _, precision_at, tpr_at = _binormal_truth(4.0, 0.3)
    rng = np.random.default_rng(11)
    y = np.r_[np.ones(90, dtype=bool), np.zeros(210, dtype=bool)]
    covered = {"pr": [], "roc": []}
    for _ in range(60):
        score = rng.normal(size=300) + 4.0 * y
        for key, build, grid, truth in (
                ("pr", posterior_precision_recall_curve, np.linspace(0.01, 0.99, 99),
                 precision_at), ("roc", posterior_roc_curve, np.linspace(0, 1, 101), tpr_at)):
            band = build(y, score).band(kind="simultaneous", n_draws=500, grid=grid,
                                        random_state=rng)
            covered[key].append(np.all((band.low <= truth(grid) + 1e-9)
                                       & (truth(grid) - 1e-9 <= band.high)))
    assert np.mean(covered["pr"]) >= 0.88
    assert np.mean(covered["roc"]) >= 0.88


def test_multiclass_labels_one_class_against_the_rest():
    # Digits-like labels: pos_label names the class scored against all others,
    # the same as passing the boolean mask (and scikit-learn's values of the mask).
    rng = np.random.default_rng(12)
    y = rng.choice(["three", "five", "eight"], 300)
    score = (y == "eight") + rng.normal(0, 1, 300)
    mask = y == "eight"
    curve = posterior_precision_recall_curve(y, score, pos_label="eight")
    plain = posterior_precision_recall_curve(mask, score, pos_label=True)
    np.testing.assert_array_equal(curve.counts.to_array(), plain.counts.to_array())
    ap = average_precision_posterior(y, score, pos_label="eight", n_draws=10)
    assert ap.point == pytest.approx(average_precision_score(mask, score), abs=1e-12)
    result = compare_scores(y, score, -score, pos_label="eight", n_draws=200, random_state=0)
    assert result.prob_first_better == 1.0
    with pytest.raises(ValueError, match="name it with `pos_label`"):
        posterior_roc_curve(rng.integers(0, 3, 50), rng.normal(size=50))
    with pytest.raises(ValueError, match="`pos_label` must be one of"):
        posterior_roc_curve(y, score, pos_label="seven")


def test_ties_are_summed_in_the_installed_scikit_learns_order():
    # scikit-learn 1.9 sorts a tie in input order, earlier versions reversed it; with
    # these weights the two orders round to different thresholds (0.75 kept or not).
    y, score = [1, 1, 0, 0, 0], [0.25, 1.0, 0.75, 0.5, 0.5]
    weight = np.array([4, 2, 12, 1, 11]) / 12
    np.testing.assert_array_equal(posterior_roc_curve(y, score, sample_weight=weight).thresholds,
                                  roc_curve(y, score, sample_weight=weight)[2])


@pytest.mark.parametrize("seed", [890, 1152, *range(40)])
def test_float_weights_keep_scikit_learns_thresholds(seed):
    # Weights of 1/12: summed level by level, the cumulative weights rounded
    # otherwise than scikit-learn's item-by-item sums, and the collinearity test
    # of drop_intermediate dropped a threshold scikit-learn keeps (seeds 890 and
    # 1152 were two such cases).
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, 12)
    score = np.round(rng.random(12), 3)
    y[0] = 1 - y[0] if np.all(y == y[0]) else y[0]      # both classes
    weight = np.full(12, 1 / 12)
    _, _, expected = roc_curve(y, score, sample_weight=weight)
    np.testing.assert_array_equal(
        posterior_roc_curve(y, score, sample_weight=weight).thresholds, expected)
    *_, expected = precision_recall_curve(y, score, sample_weight=weight, drop_intermediate=True)
    np.testing.assert_array_equal(posterior_precision_recall_curve(
        y, score, sample_weight=weight, drop_intermediate=True).thresholds, expected)
