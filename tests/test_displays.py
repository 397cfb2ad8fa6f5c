"""Posterior curve displays (Agg backend) and the exact random-ranking precision band."""

import math
from fractions import Fraction

import pytest

matplotlib = pytest.importorskip(
    "matplotlib", reason="the plots need matplotlib (installed by the test extra)")
matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.collections import PolyCollection  # noqa: E402
from sklearn.datasets import load_breast_cancer  # noqa: E402
from sklearn.linear_model import LogisticRegression  # noqa: E402
from sklearn.metrics import average_precision_score, roc_auc_score  # noqa: E402
from sklearn.model_selection import train_test_split  # noqa: E402
from sklearn.naive_bayes import GaussianNB  # noqa: E402
from sklearn.pipeline import make_pipeline  # noqa: E402
from sklearn.preprocessing import StandardScaler  # noqa: E402
from sklearn.svm import LinearSVC  # noqa: E402

from skprobeval import (  # noqa: E402
    PosteriorPrecisionRecallDisplay,
    PosteriorRocCurveDisplay,
    posterior_precision_recall_curve,
    posterior_roc_curve,
    random_precision_baseline,
)


@pytest.fixture(scope="module")
def cancer():
    X, y = load_breast_cancer(return_X_y=True)
    X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.5, random_state=0)
    model = make_pipeline(StandardScaler(), LogisticRegression()).fit(X_train, y_train)
    return model, X_test, y_test


@pytest.mark.parametrize("display_class", [PosteriorPrecisionRecallDisplay,
                                           PosteriorRocCurveDisplay])
@pytest.mark.parametrize("kind", ["pointwise", "simultaneous"])
def test_from_estimator_draws_band_and_chance_level(cancer, display_class, kind, tmp_path):
    model, X, y = cancer
    display = display_class.from_estimator(model, X, y, kind=kind, n_draws=300,
                                           random_state=0, plot_chance_level=True)
    assert display.ax_.figure is display.figure_
    assert display.line_ in display.ax_.lines
    assert isinstance(display.band_, PolyCollection) and display.band_ in display.ax_.collections
    assert display.chance_level_ in display.ax_.lines
    assert display.ax_.get_xlabel().endswith("(Positive label: 1)")
    assert display.band.kind == kind
    # The legend names the model and its AP / AUC with a credible interval.
    label = display.line_.get_label()
    assert label.startswith("Pipeline, A")
    scores = model.predict_proba(X)[:, 1]
    point = (average_precision_score if display_class is PosteriorPrecisionRecallDisplay
             else roc_auc_score)(y, scores)
    assert f"{point:.3f}" in label
    path = tmp_path / "display.png"
    display.figure_.savefig(path)
    assert path.stat().st_size > 5000
    plt.close(display.figure_)


def test_from_predictions_and_several_models_on_one_axes(cancer):
    model, X, y = cancer
    scores = model.predict_proba(X)[:, 1]
    _, ax = plt.subplots()
    first = PosteriorPrecisionRecallDisplay.from_predictions(y, scores, name="logistic", ax=ax,
                                                             n_draws=300, random_state=0,
                                                             plot_chance_level=True)
    second = PosteriorPrecisionRecallDisplay.from_estimator(
        GaussianNB().fit(X, y), X, y, ax=ax, plot_chance_level=False, n_draws=300,
        random_state=0)
    assert first.ax_ is second.ax_ is ax
    assert len(ax.lines) == 3          # two curves and the prevalence line
    assert second.chance_level_ is None and second.baseline_band_ is None
    # One legend entry for the two bands.
    labels = [text.get_text() for text in ax.get_legend().get_texts()]
    assert sum("band" in label and "random" not in label for label in labels) == 1
    # The chance level of the precision-recall figure is the exact random-ranking band.
    n, positives = y.shape[0], int(y.sum())
    baseline = random_precision_baseline(n, positives)
    assert first.chance_level_.get_ydata()[0] == pytest.approx(positives / n)
    vertices = np.concatenate([path.vertices for path in first.baseline_band_.get_paths()])
    assert vertices[:, 1].min() == pytest.approx(baseline.low.min())
    plt.close(ax.figure)


def test_chance_level_with_weights(cancer):
    model, X, y = cancer
    scores = model.predict_proba(X)[:, 1]
    # Equal weights: the random ranking of the items themselves (not of 2N items).
    doubled = PosteriorPrecisionRecallDisplay.from_predictions(
        y, scores, sample_weight=np.full(y.shape, 2.0), plot_chance_level=True, n_draws=300)
    plain = PosteriorPrecisionRecallDisplay.from_predictions(y, scores, plot_chance_level=True,
                                                             n_draws=300)
    np.testing.assert_array_equal(doubled.baseline_band_.get_paths()[0].vertices,
                                  plain.baseline_band_.get_paths()[0].vertices)
    # Unequal weights: only the (weighted) prevalence line.
    weight = np.where(y == 1, 1.0, 3.0)
    weighted = PosteriorPrecisionRecallDisplay.from_predictions(
        y, scores, sample_weight=weight, plot_chance_level=True,
        chance_level_kw={"color": "red"}, n_draws=300)
    assert weighted.baseline_band_ is None
    assert weighted.chance_level_.get_color() == "red"
    prevalence = y.sum() / (y.sum() + 3 * (y == 0).sum())
    assert weighted.chance_level_.get_ydata()[0] == pytest.approx(prevalence)
    plt.close("all")


def test_decision_function_and_pos_label(cancer):
    _, X, y = cancer
    model = make_pipeline(StandardScaler(), LinearSVC()).fit(X, y)
    display = PosteriorRocCurveDisplay.from_estimator(model, X, y, pos_label=0, n_draws=300,
                                                      random_state=0)
    # With the other class positive the scores are negated: the same curve shape.
    plain = PosteriorRocCurveDisplay.from_predictions(y == 0, -model.decision_function(X),
                                                      n_draws=300, random_state=0)
    np.testing.assert_allclose(display.curve.counts.tp, plain.curve.counts.tp)
    plt.close("all")


def test_display_from_a_curve_and_plot_twice(cancer):
    model, X, y = cancer
    curve = posterior_precision_recall_curve(y, model.predict_proba(X)[:, 1])
    display = PosteriorPrecisionRecallDisplay(curve, curve.band(0.9), name="mine")
    display.plot()
    assert display.line_.get_label() == "mine"
    display.plot(name="again", plot_chance_level=False)
    assert display.line_.get_label() == "again" and display.chance_level_ is None
    plt.close("all")


@pytest.mark.parametrize("call, name", [
    (lambda m, X, y: PosteriorRocCurveDisplay.from_estimator(m, X, y, pos_label=7), "pos_label"),
    (lambda m, X, y: PosteriorRocCurveDisplay.from_estimator(m, X, y, response_method="x"),
     "response_method"),
    (lambda m, X, y: PosteriorRocCurveDisplay.from_predictions(y, np.full(y.shape, np.nan)),
     "y_score"),
    (lambda m, X, y: PosteriorRocCurveDisplay.from_predictions(y, X[:, 0], confidence=1.0),
     "confidence"),
    (lambda m, X, y: PosteriorPrecisionRecallDisplay(
        posterior_precision_recall_curve(y, X[:, 0]).band(), None), "curve"),
    (lambda m, X, y: PosteriorRocCurveDisplay(
        posterior_roc_curve(y, X[:, 0]), posterior_precision_recall_curve(y, X[:, 0]).band()),
     "band"),
])
def test_bad_display_input(cancer, call, name):
    model, X, y = cancer
    with pytest.raises((ValueError, TypeError), match=f"`{name}`"):
        call(model, X, y)
    plt.close("all")


# ---------------------------------------------------------------------------
# The random-ranking precision band
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("n_items, n_relevant, confidence", [(12, 5, 0.95), (30, 4, 0.8),
                                                             (9, 9, 0.95), (20, 1, 0.55)])
def test_random_precision_band_by_enumeration(n_items, n_relevant, confidence):
    # Reference: the hypergeometric distribution of TP among the top k from
    # math.comb (exact integers), and its equal-tailed limits.
    band = random_precision_baseline(n_items, n_relevant, confidence=confidence)
    tail = (1 - confidence) / 2
    total = math.comb(n_items, n_relevant)
    for k in range(1, n_items + 1):
        pmf = [math.comb(k, t) * math.comb(n_items - k, n_relevant - t) / total
               for t in range(0, min(k, n_relevant) + 1)]
        cdf = np.cumsum(pmf)
        low = int(np.argmax(cdf >= tail - 1e-12))
        sf = 1 - cdf
        high = int(np.argmax(sf <= tail + 1e-12))
        assert band.low[k - 1] == pytest.approx(low / k)
        assert band.high[k - 1] == pytest.approx(high / k)
        assert band.mean[k - 1] == pytest.approx(sum(t * p for t, p in enumerate(pmf)) / k)
    np.testing.assert_allclose(band.recall, np.arange(1, n_items + 1) / n_items)


@pytest.mark.parametrize("n_items, n_relevant, confidence", [
    (1000, 1, 0.5), (1000, 999, 0.95), (2, 1, 0.95), (1, 1, 0.9),
    # scipy's search at every cutoff: 0.6-1.6 s each.
    *(pytest.param(*case, marks=pytest.mark.slow)
      for case in [(20000, 19999, 0.01), (5000, 37, 0.999999), (3000, 1500, 0.95)])])
def test_random_precision_band_equals_scipy_quantiles(n_items, n_relevant, confidence):
    # Reference: scipy's hypergeom.ppf / isf at every cutoff (the previous
    # implementation), including exact ties (1 - k/N = 0.25 at R = 1, tail 0.25).
    from scipy.stats import hypergeom

    band = random_precision_baseline(n_items, n_relevant, confidence=confidence)
    k = np.arange(1, n_items + 1)
    tail = (1 - confidence) / 2
    np.testing.assert_array_equal(np.rint(band.low * k),
                                  hypergeom.ppf(tail, n_items, n_relevant, k))
    np.testing.assert_array_equal(np.rint(band.high * k),
                                  hypergeom.isf(tail, n_items, n_relevant, k))


def test_random_precision_band_at_the_former_speed_cliff():
    # N = 1e5, R = 1: where scipy's search took 28.5 s (its speed is measured in
    # benchmarks/bench_baseline.py, not asserted here).
    band = random_precision_baseline(10**5, 1)
    # Reference in exact rationals: with R = 1, TP_k is 1 with probability k / N, so
    # the low end is 1 where P(TP = 0) = 1 - k/N < tail and the high end 1 where
    # k/N > tail (tail = 0.025000000000000022 in float64: at k = 97500 the low end
    # is 1, although 1 - k/N rounds to the tail itself).
    n = 10**5
    tail = Fraction((1 - 0.95) / 2)
    k = np.arange(1, n + 1)
    low = [float(Fraction(n - j, n) < tail) for j in range(1, n + 1)]
    high = [float(Fraction(j, n) > tail) for j in range(1, n + 1)]
    np.testing.assert_array_equal(np.rint(band.low * k), low)
    np.testing.assert_array_equal(np.rint(band.high * k), high)


@pytest.mark.slow
@pytest.mark.parametrize("n_items, n_relevant", [(2 * 10**5, 1), (2 * 10**5, 70001),
                                                 (10**6, 10)])
def test_random_precision_band_equals_scipy_at_large_n(n_items, n_relevant):
    # Reference: scipy's hypergeom.ppf / isf at every cutoff (seconds each).
    from scipy.stats import hypergeom

    band = random_precision_baseline(n_items, n_relevant)
    k = np.arange(1, n_items + 1)
    np.testing.assert_array_equal(np.rint(band.low * k),
                                  hypergeom.ppf(0.025, n_items, n_relevant, k))
    np.testing.assert_array_equal(np.rint(band.high * k),
                                  hypergeom.isf(0.025, n_items, n_relevant, k))


def test_random_precision_band_of_the_example():
    # N = 300, R = 45, top 50: the flat line says 0.15; the 95% band is [0.06, 0.24].
    band = random_precision_baseline(300, 45)
    assert (band.low[49], band.mean[49], band.high[49]) == (0.06, 0.15, 0.24)


@pytest.mark.parametrize("args, name", [((0, 1), "n_items"), ((10, 11), "n_relevant"),
                                        ((10, 2.5), "n_relevant"), ((10**8, 5), "n_items")])
def test_random_precision_band_bad_input(args, name):
    with pytest.raises(ValueError, match=f"`{name}`"):
        random_precision_baseline(*args)
    with pytest.raises((ValueError, TypeError), match="`confidence`"):
        random_precision_baseline(10, 2, confidence=2)


@pytest.mark.parametrize("n_items, n_relevant, confidence, k", [
    (276, 219, 1 - 1e-12, 206), (277, 145, 1 - 1e-12, 111), (2538, 340, 1 - 1e-10, 1002)])
def test_random_precision_band_at_extreme_confidence(n_items, n_relevant, confidence, k):
    # Tails of 5e-11 and below: the cdf carried along the cutoffs (rounding about
    # 1e-16) stopped on the wrong side of the tail at these cutoffs; reference:
    # scipy's hypergeom.ppf / isf (equal to an exact Fraction computation there).
    from scipy.stats import hypergeom

    band = random_precision_baseline(n_items, n_relevant, confidence=confidence)
    tail = (1 - confidence) / 2
    assert round(band.low[k - 1] * k) == hypergeom.ppf(tail, n_items, n_relevant, k)
    assert round(band.high[k - 1] * k) == hypergeom.isf(tail, n_items, n_relevant, k)
