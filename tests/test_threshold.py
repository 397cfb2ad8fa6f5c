"""choose_threshold and threshold_utility: the choice, its guarantee, the bridges to
scikit-learn, and bad input."""

import warnings

import numpy as np
import pytest
from scipy import stats

from skprobeval import (
    ThresholdChoice,
    choose_threshold,
    make_posterior_scorer,
    posterior_precision_recall_curve,
    threshold_utility,
)


def _binormal(rng, n, mu=3.0, prevalence=0.3):
    y = rng.random(n) < prevalence
    return y.astype(int), rng.normal(size=n) + mu * y


@pytest.fixture
def data(seed):
    return _binormal(np.random.default_rng(seed), 400)


def test_chosen_threshold_meets_the_constraint_on_the_sample(data, seed):
    y, score = data
    choice = choose_threshold(y, score, constraint=("precision", 0.9), n_draws=2000,
                              random_state=seed)
    assert isinstance(choice, ThresholdChoice) and choice.feasible
    predicted = score >= choice.threshold
    tp, fp = np.sum(predicted & (y == 1)), np.sum(predicted & (y == 0))
    assert tp / (tp + fp) >= 0.9
    # The counts and posteriors at the threshold are those of the items above it.
    record = choice.to_dict()
    assert (record["tp"], record["fp"]) == (tp, fp)
    assert (choice.constraint_posterior.a, choice.constraint_posterior.b) == (tp + 0.5, fp + 0.5)
    fn = np.sum(~predicted & (y == 1))
    assert (choice.objective_posterior.a, choice.objective_posterior.b) == (tp + 0.5, fn + 0.5)
    # Pointwise probabilities by another route: the posterior curve's exact Betas.
    curve = posterior_precision_recall_curve(y, score)
    np.testing.assert_array_equal(choice.thresholds, curve.thresholds)
    np.testing.assert_allclose(choice.prob_constraint, curve.precision.sf(0.9), rtol=1e-12)
    # The chosen threshold has the best expected recall of those that qualify.
    at = np.flatnonzero(choice.thresholds == choice.threshold)[0]
    assert choice.confidence <= choice.required_probability <= choice.prob_constraint[at]
    qualified = choice.prob_constraint >= choice.required_probability
    assert choice.expected_objective[at] == choice.expected_objective[qualified].max()
    assert choice.prob_all_hold >= choice.confidence - 3 * choice.mc_error


def test_the_correction_counts_the_draws_that_break_a_candidate(data, seed):
    # prob_all_hold is the share of curve draws whose precision is >= the target
    # at every qualified threshold: recomputed here from the library's own draws
    # would repeat the code, so check its bounds and its monotonicity instead.
    y, score = data
    loose = choose_threshold(y, score, constraint=("precision", 0.9), confidence=0.8,
                             n_draws=2000, random_state=seed)
    strict = choose_threshold(y, score, constraint=("precision", 0.9), confidence=0.99,
                              n_draws=2000, random_state=seed)
    assert loose.required_probability <= strict.required_probability
    assert loose.threshold <= strict.threshold
    assert strict.prob_all_hold >= 0.99 - 3 * strict.mc_error


@pytest.mark.parametrize(("constraint", "maximize"), [(("fpr", 0.05), "recall"),
                                                      (("recall", 0.8), "precision"),
                                                      (("specificity", 0.9), "tpr")])
def test_other_constraints(data, seed, constraint, maximize):
    y, score = data
    choice = choose_threshold(y, score, constraint=constraint, maximize=maximize,
                              n_draws=1000, random_state=seed)
    predicted = score >= choice.threshold
    tp, fp = np.sum(predicted & (y == 1)), np.sum(predicted & (y == 0))
    fn, tn = np.sum(~predicted & (y == 1)), np.sum(~predicted & (y == 0))
    value = {"fpr": fp / (fp + tn), "recall": tp / (tp + fn),
             "specificity": tn / (tn + fp)}[constraint[0]]
    assert value <= constraint[1] if constraint[0] == "fpr" else value >= constraint[1]


def test_an_infeasible_constraint_gives_no_threshold(data):
    y, score = data
    with pytest.warns(UserWarning, match="No threshold meets `constraint` precision >= 0.999"):
        choice = choose_threshold(y, score, constraint=("precision", 0.999), n_draws=200,
                                  random_state=0)
    assert choice.threshold is None and not choice.feasible
    assert choice.constraint_posterior is None and choice.to_dict()["tp"] is None
    assert "feasible=False" in repr(choice)
    with pytest.raises(ValueError, match="feasible"):
        choice.to_estimator(object())


def test_to_estimator_predicts_like_fixed_threshold_classifier():
    model_selection = pytest.importorskip("sklearn.model_selection")
    if not hasattr(model_selection, "FixedThresholdClassifier"):
        pytest.skip("FixedThresholdClassifier needs scikit-learn >= 1.5")
    from sklearn.datasets import load_breast_cancer
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    X, y = load_breast_cancer(return_X_y=True)
    fit, held = np.arange(0, len(y), 2), np.arange(1, len(y), 2)
    model = make_pipeline(StandardScaler(), LogisticRegression()).fit(X[fit], y[fit])
    proba = model.predict_proba(X[held])[:, 1]
    choice = choose_threshold(y[held], proba, constraint=("precision", 0.95), n_draws=1000,
                              random_state=0)
    estimator = choice.to_estimator(model, response_method="predict_proba")
    assert isinstance(estimator, model_selection.FixedThresholdClassifier)
    assert estimator.threshold == choice.threshold
    np.testing.assert_array_equal(estimator.predict(X), (model.predict_proba(X)[:, 1]
                                                          >= choice.threshold).astype(int))
    with pytest.raises(ValueError, match="response_method"):
        choice.to_estimator(model, response_method="predict")


def test_posterior_scorer_tunes_a_threshold():
    model_selection = pytest.importorskip("sklearn.model_selection")
    if not hasattr(model_selection, "TunedThresholdClassifierCV"):
        pytest.skip("TunedThresholdClassifierCV needs scikit-learn >= 1.5")
    from sklearn.datasets import load_breast_cancer
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    X, y = load_breast_cancer(return_X_y=True)
    scorer = make_posterior_scorer(metric="f1", statistic="lower")
    tuned = model_selection.TunedThresholdClassifierCV(
        make_pipeline(StandardScaler(), LogisticRegression()), scoring=scorer, cv=3,
        thresholds=15).fit(X, y)
    assert 0.0 < tuned.best_threshold_ < 1.0
    assert 0.8 < tuned.best_score_ < 1.0
    assert set(tuned.predict(X)) == {0, 1}


def test_result_reports_and_plots(data):
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    y, score = data
    choice = choose_threshold(y, score, n_draws=500, random_state=1)
    record = choice.to_dict()
    assert record["metric"] == "precision" and record["maximize"] == "recall"
    assert all(not isinstance(v, np.generic) for v in record.values())
    assert "<table>" in choice._repr_html_() and "precision &gt;= 0.9" in choice._repr_html_()
    assert "np.float64" not in repr(choice)
    ax = choice.plot()
    assert len(ax.lines) == 4
    import matplotlib.pyplot as plt

    plt.close("all")


def test_the_former_draws_keyword_still_works(data):
    y, score = data
    with pytest.warns(FutureWarning, match="`n_samples` was renamed `n_draws`"):
        old = choose_threshold(y, score, n_samples=300, random_state=2)
    assert old.threshold == choose_threshold(y, score, n_draws=300, random_state=2).threshold


@pytest.mark.parametrize(("kwargs", "error", "match"), [
    ({"constraint": ("f1", 0.9)}, ValueError, r"`constraint` must be one of .*; got 'f1'"),
    ({"constraint": ("precision", 1.5)}, ValueError, r"`constraint` must be .*\(0, 1\)"),
    ({"constraint": "precision"}, TypeError, r"`constraint` must be a pair"),
    ({"maximize": "fpr"}, ValueError, r"`maximize` must be one of .*; got 'fpr'"),
    ({"maximize": "accuracy"}, ValueError, r"`maximize` must be one of .*; got 'accuracy'"),
    ({"confidence": 1.0}, ValueError, r"`confidence` must be .*; got 1.0"),
    ({"max_thresholds": 1}, ValueError, r"`max_thresholds` must be an integer >= 2; got 1"),
])
def test_bad_arguments_name_themselves(data, kwargs, error, match):
    y, score = data
    with pytest.raises(error, match=match):
        choose_threshold(y, score, n_draws=100, **kwargs)


def test_bad_data_names_the_argument():
    y = np.array([0, 1, 0, 1, 1])
    with pytest.raises(ValueError, match=r"`y_score` must be finite .*nan"):
        choose_threshold(y, [0.1, np.nan, 0.3, 0.8, 0.9], n_draws=100)
    with pytest.raises(ValueError, match=r"`y_true` must be labels of both classes"):
        choose_threshold([1, 1, 1], [0.1, 0.5, 0.9], n_draws=100)
    with pytest.raises(ValueError, match=r"same number of samples"):
        choose_threshold(y, [0.1, 0.2], n_draws=100)
    with pytest.raises(ValueError, match=r"`utility` must be a 2 x 2 array"):
        threshold_utility(y, [0.1, 0.2, 0.3, 0.8, 0.9], utility=[1, 2, 3])
    with pytest.raises(ValueError, match=r"`utility` must be finite"):
        threshold_utility(y, [0.1, 0.2, 0.3, 0.8, 0.9], utility=[[0, np.nan], [1, 1]])


def test_threshold_utility_mean_and_pairwise_probabilities(data, seed):
    y, score = data
    result = threshold_utility(y, score, utility=[[0, -1], [-5, 0]], n_draws=4000,
                               random_state=seed)
    draws = result.posterior.samples
    # The exact posterior mean against the draws' mean, within 5 Monte Carlo errors.
    error = draws.std(axis=0) / np.sqrt(draws.shape[0])
    assert np.all(np.abs(draws.mean(axis=0) - result.expected_utility) <= 5 * error + 1e-12)
    # The exact mean by hand at one threshold: shares (count + λ) / (N + 4λ).
    t = result.thresholds[100]
    predicted = score >= t
    fp = np.sum(predicted & (y == 0))
    fn = np.sum(~predicted & (y == 1))
    assert result.expected_utility[100] == pytest.approx(
        (-(fp + 0.5) - 5 * (fn + 0.5)) / (len(y) + 2.0), rel=1e-12)
    a, b = result.best_threshold, result.thresholds[-5]
    assert result.prob_beats(a, b) + result.prob_beats(b, a) == pytest.approx(1.0, abs=1e-3)
    assert result.prob_best.sum() == pytest.approx(1.0)
    with pytest.raises(ValueError, match="`threshold_a` must be at least"):
        result.prob_beats(result.thresholds[0] - 1.0, b)


@pytest.mark.slow
def test_meet_rate_at_300_items_for_precision_090(seed):
    """The population precision of the chosen threshold reaches 0.9 in at least 90%
    of simulated data sets (measured at about 0.96; binormal, exact population
    precision from the normal tails)."""
    rng = np.random.default_rng(seed)
    mu, prevalence, reps = 3.0, 0.3, 300
    meets = 0
    for r in range(reps):
        y, score = _binormal(rng, 300, mu, prevalence)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            choice = choose_threshold(y, score, constraint=("precision", 0.9), n_draws=1000,
                                      random_state=r)
        if choice.threshold is None:
            meets += 1
            continue
        hit = prevalence * stats.norm.sf(choice.threshold - mu)
        false = (1 - prevalence) * stats.norm.sf(choice.threshold)
        meets += hit / (hit + false) >= 0.9
    assert meets / reps >= 0.9
