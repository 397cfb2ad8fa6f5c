"""One set of conventions across the public API: `n_draws`, `confidence=0.95`,
`metric` keyword-only, and the former names still working for one release."""

import dataclasses
import importlib.util
import inspect
import warnings

import numpy as np
import pytest

import skprobeval
from skprobeval import (
    ConfusionCounts,
    PosteriorRefit,
    bayesian_signed_rank_test,
    compare_paired_metric,
    make_posterior_scorer,
    metric_posterior,
    posterior_roc_curve,
)
from skprobeval._core._validation import N_DRAWS


def _public_callables():
    """(qualified name, callable) of every public function, method and classmethod."""
    for name in skprobeval.__all__:
        obj = getattr(skprobeval, name)
        if inspect.isclass(obj):
            for attr, value in inspect.getmembers(obj):
                if attr.startswith("_") and attr != "__init__":
                    continue
                if callable(value) and getattr(value, "__module__", "").startswith("skprobeval"):
                    yield f"{name}.{attr}", value
        elif callable(obj):
            yield name, obj


def _records():
    """Result records (dataclasses): their fields are data, not parameters."""
    return {name for name in skprobeval.__all__
            if dataclasses.is_dataclass(getattr(skprobeval, name))}


PUBLIC = dict(_public_callables())


def _signature(function):
    try:
        return inspect.signature(function)
    except (TypeError, ValueError):
        return None


def test_every_function_that_draws_takes_n_draws_with_one_default():
    drawing = {}
    for name, function in PUBLIC.items():
        signature = _signature(function)
        if signature is None or name.split(".")[0] in _records():
            continue
        assert "n_samples" not in signature.parameters, name
        if "n_draws" in signature.parameters:
            drawing[name] = signature.parameters["n_draws"].default
    assert len(drawing) >= 25      # posteriors, comparisons, reports, scorers, curves
    assert set(drawing.values()) == {N_DRAWS}, drawing
    assert N_DRAWS == 10_000


def test_every_function_that_draws_accepts_the_former_name():
    for name, function in PUBLIC.items():
        signature = _signature(function)
        if signature is None or "n_draws" not in signature.parameters:
            continue
        if name.split(".")[0] in _records():
            continue
        assert getattr(function, "renamed_keywords", {}).get("n_samples") == "n_draws", name


def test_every_confidence_default_is_095():
    defaults = {name: _signature(function).parameters["confidence"].default
                for name, function in PUBLIC.items()
                if _signature(function) is not None
                and "confidence" in _signature(function).parameters
                and name.split(".")[0] not in _records()}
    assert len(defaults) >= 10
    wrong = {name: value for name, value in defaults.items()
             if value is not inspect.Parameter.empty and value != 0.95}
    assert not wrong


def test_metric_is_keyword_only_except_in_get_metric():
    positional = []
    for name, function in PUBLIC.items():
        signature = _signature(function)
        if (signature is None or name == "get_metric" or name.split(".")[0] in _records()
                or "metric" not in signature.parameters):
            continue
        if signature.parameters["metric"].kind is not inspect.Parameter.KEYWORD_ONLY:
            positional.append(name)
    assert not positional


def test_the_former_draws_keyword_warns_and_gives_the_same_result():
    counts = ConfusionCounts(tp=8, fp=3, fn=2, tn=7)
    new = metric_posterior(counts, metric="mcc", n_draws=500, random_state=1)
    with pytest.warns(FutureWarning, match="`n_samples` was renamed `n_draws`"):
        old = metric_posterior(counts, metric="mcc", n_samples=500, random_state=1)
    np.testing.assert_array_equal(old.samples, new.samples)
    with pytest.raises(TypeError, match="`n_samples` and `n_draws`"):
        metric_posterior(counts, metric="mcc", n_samples=500, n_draws=500)
    curve = posterior_roc_curve([0, 1, 0, 1, 1], [0.1, 0.8, 0.3, 0.6, 0.2])
    with pytest.warns(FutureWarning):
        band = curve.band(kind="simultaneous", n_samples=50, random_state=0)
    assert band.n_draws == 50
    with pytest.warns(FutureWarning, match="`n_samples` was renamed `n_draws`"):
        assert band.n_samples == 50


def test_result_attributes_keep_their_former_name():
    result = bayesian_signed_rank_test([0.8, 0.7, 0.9, 0.6], [0.7, 0.7, 0.8, 0.5], n_draws=100,
                              random_state=0)
    with pytest.warns(FutureWarning):
        assert result.n_samples == result.n_draws == 100
    y = [0, 1, 1, 0, 1, 0, 1, 1]
    comparison = compare_paired_metric(y, [0, 1, 0, 0, 1, 1, 1, 1], [0, 1, 1, 0, 0, 0, 1, 0],
                                       metric="mcc", n_draws=200, random_state=0)
    with pytest.warns(FutureWarning):
        assert comparison.n_samples == 200


def test_metric_posterior_from_labels_equals_from_counts():
    y_true = [1, 1, 1, 0, 0, 1, 0, 0, 0, 1]
    y_pred = [1, 1, 1, 1, 1, 0, 0, 0, 0, 0]
    counts = ConfusionCounts.from_predictions(y_true, y_pred)
    for metric in ("precision", "f1", "informedness"):
        assert repr(metric_posterior(y_true, y_pred, metric=metric)) == repr(
            metric_posterior(counts, metric=metric))
    sampled = metric_posterior(y_true, y_pred, metric="mcc", n_draws=300, random_state=2)
    np.testing.assert_array_equal(
        sampled.samples,
        metric_posterior(counts, metric="mcc", n_draws=300, random_state=2).samples)
    # Per-label rows and a macro average, as precision_posterior gives them.
    y3_true, y3_pred = [0, 1, 2, 2, 1, 0, 2], [0, 2, 2, 1, 1, 0, 2]
    per_label = metric_posterior(y3_true, y3_pred, metric="precision", average=None)
    assert repr(per_label) == repr(skprobeval.precision_posterior(y3_true, y3_pred,
                                                                  average=None))
    macro = metric_posterior(y3_true, y3_pred, metric="f1", average="macro", n_draws=300,
                             random_state=0)
    np.testing.assert_array_equal(
        macro.samples, skprobeval.fbeta_posterior(y3_true, y3_pred, average="macro",
                                                  n_draws=300, random_state=0).samples)


def test_metric_posterior_refuses_label_options_with_counts_and_a_missing_metric():
    counts = ConfusionCounts(tp=8, fp=3, fn=2, tn=7)
    with pytest.raises(ValueError, match="`average`"):
        metric_posterior(counts, metric="f1", average="macro")
    with pytest.raises(ValueError, match="`sample_weight`"):
        metric_posterior(counts, metric="f1", sample_weight=[1.0])
    with pytest.raises(TypeError, match="`metric`"):
        metric_posterior(counts)
    with pytest.raises(TypeError, match="`y_pred`"):
        metric_posterior([0, 1], metric="f1")
    with pytest.raises(TypeError, match="`y_pred`"):
        metric_posterior(counts, [0, 1], metric="f1")


def test_positional_metric_still_works_with_a_warning():
    counts = ConfusionCounts(tp=8, fp=3, fn=2, tn=7)
    with pytest.warns(FutureWarning, match="metric="):
        old = metric_posterior(counts, "f1")
    assert repr(old) == repr(metric_posterior(counts, metric="f1"))
    with pytest.warns(FutureWarning, match="counts"):
        metric_posterior(counts=counts, metric="f1")
    with pytest.warns(FutureWarning, match="metric='precision'"):
        scorer = make_posterior_scorer("precision")
    assert scorer._kwargs["metric"] == "precision"
    with pytest.warns(FutureWarning):
        assert PosteriorRefit("recall").metric == "recall"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        make_posterior_scorer(metric="precision")
        PosteriorRefit(metric="recall")


def test_the_command_line_keeps_the_former_option(tmp_path, capsys):
    from skprobeval.cli import main

    path = tmp_path / "predictions.csv"
    path.write_text("truth,a,b\n" + "".join(f"{t},{a},{b}\n" for t, a, b in
                                            zip([0, 1] * 10, [0, 1] * 9 + [1, 1],
                                                [1, 1] + [0, 1] * 9)))
    for option in ("--n-draws", "--n-samples"):
        assert main(["compare", str(path), "--truth", "truth", "--metric", "mcc", option,
                     "300"]) == 0
        assert "mcc" in capsys.readouterr().out.lower()


def _every_comparison():
    """One result of every comparison the library offers."""
    y = np.array([0, 1, 1, 0, 1, 1, 0, 1, 0, 1, 1, 0])
    a = np.array([0, 1, 0, 0, 1, 1, 1, 1, 0, 1, 1, 0])
    b = np.array([0, 0, 1, 0, 0, 1, 0, 1, 1, 1, 0, 0])
    rng = np.random.default_rng(3)
    score = y + rng.normal(size=12)
    counts_a, counts_b = ConfusionCounts(90, 10, 12, 888), ConfusionCounts(80, 15, 20, 885)
    return {
        "compare_paired": skprobeval.compare_paired(y, a, b, rope=0.01),
        "compare_independent exact Beta": skprobeval.compare_independent(
            counts_a, counts_b, metric="precision"),
        "compare_independent exact F1": skprobeval.compare_independent(
            counts_a, counts_b, random_state=0),
        "compare_independent sampled": skprobeval.compare_independent(
            counts_a, counts_b, metric="mcc", n_draws=2000, random_state=0),
        "compare_paired_metric": compare_paired_metric(y, a, b, metric="f1", n_draws=2000,
                                                       random_state=0),
        "compare_scores": skprobeval.compare_scores(y, score, score + rng.normal(size=12),
                                                    n_draws=2000, random_state=0),
        "correlated_ttest": skprobeval.correlated_ttest([0.81, 0.84, 0.79, 0.85, 0.83],
                                                        [0.80, 0.82, 0.80, 0.82, 0.81],
                                                        test_fraction=0.2, rope=0.005),
        "bayesian_signed_rank_test": bayesian_signed_rank_test([0.81, 0.74, 0.92, 0.66, 0.88],
                                             [0.78, 0.75, 0.90, 0.61, 0.86], n_draws=2000,
                                             random_state=0),
        "compare_losses": skprobeval.compare_losses((y - score / 3) ** 2, (y - a) ** 2,
                                                    rope=0.01, n_draws=2000, random_state=0),
        "bayesian_sign_test": skprobeval.bayesian_sign_test([0.81, 0.74, 0.92, 0.66, 0.88],
                                          [0.78, 0.75, 0.90, 0.61, 0.86], n_draws=2000,
                                          random_state=0),
    }


@pytest.mark.parametrize("name, result", list(_every_comparison().items()))
def test_every_comparison_result_has_one_interface(name, result):
    assert isinstance(result, skprobeval.ComparisonResult)
    probs = [result.prob_first_better, result.prob_equivalent, result.prob_second_better]
    assert all(0.0 <= p <= 1.0 for p in probs)
    assert sum(probs) == pytest.approx(1.0, abs=1e-9)
    assert 0.0 <= result.mc_error < 0.05 and result.rope >= 0.0
    low, high = result.interval()
    low90, high90 = result.interval(0.9)
    assert np.isfinite(low) and low <= low90 <= high90 <= high
    with pytest.raises(ValueError, match="`confidence`"):
        result.interval(1.5)
    as_dict = result.to_dict()
    assert list(as_dict)[:5] == ["prob_first_better", "prob_equivalent", "prob_second_better",
                                 "rope", "mc_error"]
    summary = result.summary(0.9)
    assert summary["low"] == low90 and summary["high"] == high90
    assert summary["confidence"] == 0.9
    assert {k: summary[k] for k in as_dict} == as_dict
    html = result._repr_html_()
    assert "<table>" in html and "prob_first_better" in html
    # The figure of the difference, inline, where matplotlib is installed.
    assert ("<svg" in html) == (importlib.util.find_spec("matplotlib") is not None)


def test_difference_intervals_by_an_independent_route():
    # Exact Beta difference: against 400 000 draws of the two Betas (scipy).
    from scipy import stats

    counts_a, counts_b = ConfusionCounts(90, 10, 12, 888), ConfusionCounts(80, 15, 20, 885)
    result = skprobeval.compare_independent(counts_a, counts_b, metric="precision")
    rng = np.random.default_rng(0)
    draws = (stats.beta(90.5, 10.5).rvs(400_000, random_state=rng)
             - stats.beta(80.5, 15.5).rvs(400_000, random_state=rng))
    np.testing.assert_allclose(result.interval(0.9), np.quantile(draws, [0.05, 0.95]),
                               atol=2e-3)
    # The paired exact interval is the former difference_interval, which warns now.
    paired = skprobeval.PairedComparison.from_counts(skprobeval.PairedCounts(17, 4, 3278))
    with pytest.warns(FutureWarning, match="`difference_interval` was renamed `interval`"):
        assert paired.difference_interval(0.9) == paired.interval(0.9)
    # The rank tests: mass of "first better" minus mass of "second better".
    rank = bayesian_signed_rank_test([0.81, 0.74, 0.92, 0.66, 0.88], [0.78, 0.75, 0.90, 0.61, 0.86],
                            n_draws=3000, random_state=1)
    difference = rank.samples[:, 0] - rank.samples[:, 2]
    assert rank.interval(0.8) == pytest.approx(tuple(np.quantile(difference, [0.1, 0.9])))


@pytest.mark.parametrize("y_true", [
    [0, 1, 0, 1, 1, 0], [-1, 1, -1, 1, 1, -1], [False, True, False, True, True, False],
    [1, 2, 1, 2, 2, 1], ["ham", "spam", "ham", "spam", "spam", "ham"],
    [0.0, 1.0, 0.0, 1.0, 1.0, 0.0]])
@pytest.mark.parametrize("pos_label", [None, 1, 2, 0, -1, True, "spam", "eggs"])
def test_one_pos_label_rule_for_ranking_metrics_and_posteriors(y_true, pos_label):
    # The same (y_true, pos_label) pairs are accepted and refused, with the same
    # positive class, by the point metric, its posterior and the curves.
    score = [0.1, 0.9, 0.3, 0.6, 0.8, 0.4]
    outcomes = []
    for function in (skprobeval.average_precision, skprobeval.precision_at_k_score,
                     skprobeval.average_precision_posterior, skprobeval.roc_auc_posterior,
                     skprobeval.posterior_precision_recall_curve):
        kwargs = {"k": 3} if function is skprobeval.precision_at_k_score else {}
        if function in (skprobeval.average_precision_posterior, skprobeval.roc_auc_posterior):
            kwargs["n_draws"] = 20
        try:
            function(y_true, score, pos_label=pos_label, **kwargs)
            outcomes.append("accepted")
        except ValueError as error:
            assert "`pos_label`" in str(error)
            outcomes.append("refused")
    assert len(set(outcomes)) == 1, outcomes
    if outcomes[0] == "accepted":
        point = skprobeval.average_precision(y_true, score, pos_label=pos_label)
        posterior = skprobeval.average_precision_posterior(y_true, score, pos_label=pos_label,
                                                           n_draws=20)
        assert point == pytest.approx(posterior.point)
    # Labels {1, 2} without a named positive class are refused everywhere.
    if y_true[0] == 1 and pos_label is None:
        assert outcomes == ["refused"] * 5


def test_the_ranking_defaults_share_the_rule():
    # Labels {1, 2} with the default pos_label: refused by the point metric as by
    # its posterior (the point metric took 1 as positive before).
    y_true, score = [1, 2, 1, 2, 2, 1], [0.1, 0.9, 0.3, 0.6, 0.8, 0.4]
    for function in (skprobeval.average_precision, skprobeval.average_precision_posterior,
                     skprobeval.random_ranking_test):
        assert inspect.signature(function).parameters["pos_label"].default is None
        with pytest.raises(ValueError, match="`pos_label`"):
            function(y_true, score)
    # A named class absent from two-class labels is refused (it gave AP 0 before).
    with pytest.raises(ValueError, match="`pos_label`"):
        skprobeval.average_precision([0, 1, 0, 1], [0.1, 0.9, 0.3, 0.6], pos_label=2)


def test_the_display_and_the_report_read_the_same_scores():
    # A binary classifier with both predict_proba and decision_function: the
    # Display's scores and the report's scores of the positive class are the
    # same array (predict_proba first, as scikit-learn's displays), so the
    # report's AP and the Display's legend agree.  Before, the report read
    # decision_function first.
    # Standardized features: the logistic fit converges in about 20 iterations (on the
    # raw features it took some 1 900, 0.3-9 s by the machine's load); the pipeline has
    # both methods.
    from sklearn.datasets import load_breast_cancer
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    from skprobeval._plot._curve_display import _estimator_scores
    from skprobeval._workflow._fold_predictions import _scores_of

    X, y = load_breast_cancer(return_X_y=True)
    model = make_pipeline(StandardScaler(), LogisticRegression()).fit(X[::2], y[::2])
    display_scores, _ = _estimator_scores(model, X[1::2], "auto", None)
    report_scores = _scores_of(model, X[1::2], "binary", [1])[:, 0]
    np.testing.assert_array_equal(display_scores, report_scores)
    np.testing.assert_array_equal(report_scores, model.predict_proba(X[1::2])[:, 1])


@pytest.mark.parametrize("average", ["macro", "weighted", "micro"])
def test_prob_better_than_chance_is_powers_bookmaker_in_counts_only_reports(average):
    # Three labels (true sizes 200, 10, 10): the large one above chance, the two
    # small ones below.  Independent route (400 000 draws of the labels'
    # one-vs-rest Dirichlet posteriors, lambda = 1/2, numpy): P(Powers' bookmaker,
    # informedness weighted by predicted shares, > 0) = 0.9948; the macro mean of
    # informedness gives 0.854, which the counts-only report used to print.
    from skprobeval._metrics._point import get_metric
    from skprobeval._workflow._report import _counts_summary_row

    tp, fn, fp = np.array([160, 0, 0]), np.array([40, 10, 10]), np.array([10, 20, 30])
    counts = ConfusionCounts(tp, fp, fn, 220 - tp - fn - fp)
    row = _counts_summary_row("model", counts, get_metric("f1"), {}, average=average, lam=0.5,
                              beta=1.0, confidence=0.95, n_draws=20_000,
                              rng=np.random.default_rng(1))
    assert row["prob_better_than_chance"] == pytest.approx(0.9948, abs=0.003)


def test_paired_accuracy_has_one_answer():
    # The metric route of paired accuracy is the exact paired comparison: the
    # same P(first better) as compare_paired to 1e-12 (both depend only on the
    # Dirichlet masses of 'first right alone' and 'second right alone'), where
    # the sampled route gave 0.6112 against the exact 0.6120.
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 300)
    a = np.where(rng.random(300) < 0.8, y, 1 - y)
    b = np.where(rng.random(300) < 0.77, y, 1 - y)
    exact = skprobeval.compare_paired(y, a, b)
    metric = compare_paired_metric(y, a, b, metric="accuracy")
    assert metric.method == "exact" and metric.mc_error == 0.0
    assert metric.prob_first_better == pytest.approx(exact.prob_first_better, abs=1e-12)
    error = compare_paired_metric(y, a, b, metric="error")
    assert error.prob_first_better == pytest.approx(metric.prob_second_better, abs=1e-12)
    assert error.interval() == pytest.approx(tuple(-v for v in metric.interval()[::-1]))
    # Multiclass micro F1 with every label is the share right: exact, and equal to
    # Monte Carlo over the table's Dirichlet aggregated to who is right alone
    # (1 000 000 numpy draws; standard error 3e-4).
    y3 = rng.integers(0, 3, 300)
    a3 = np.where(rng.random(300) < 0.8, y3, (y3 + 1) % 3)
    b3 = np.where(rng.random(300) < 0.75, y3, (y3 + 2) % 3)
    micro = compare_paired_metric(y3, a3, b3, metric="f1", average="micro")
    assert micro.method == "exact"
    from skprobeval._counting._counts import joint_codes
    from skprobeval._posteriors._joint import JointTable

    table = JointTable(joint_codes(y3, [a3, b3], average="micro", labels=None,
                                   names=["y_true", "a", "b"]), 0.5)
    masses, _ = table.right_alone()
    draws = rng.dirichlet(masses, size=1_000_000)
    assert micro.prob_first_better == pytest.approx(np.mean(draws[:, 0] > draws[:, 1]),
                                                    abs=1.5e-3)


@pytest.mark.parametrize("old, new", [
    ("classification_report", "posterior_report"),
    ("signed_rank_test", "bayesian_signed_rank_test"),
    ("sign_test", "bayesian_sign_test"),
    ("precision_at_k", "precision_at_k_score"),
    ("d_measure", "d_measure_score"),
])
def test_renamed_functions_stay_importable_for_one_release(old, new):
    with pytest.warns(FutureWarning, match=f"`skprobeval.{old}` was renamed `{new}`"):
        function = getattr(skprobeval, old)
    assert function is getattr(skprobeval, new)
    assert old not in skprobeval.__all__ and new in skprobeval.__all__


def test_the_test_oracle_left_the_public_api():
    from skprobeval._metrics._baseline import random_average_precision_reference

    assert "random_average_precision_reference" not in skprobeval.__all__
    with pytest.warns(FutureWarning, match="test oracle"):
        assert skprobeval.random_average_precision_reference is (
            random_average_precision_reference)
    with pytest.raises(AttributeError, match="no attribute 'no_such_name'"):
        skprobeval.no_such_name  # noqa: B018


def test_rank_tests_take_prior_strength():
    a, b = [0.81, 0.74, 0.92, 0.66, 0.88], [0.78, 0.75, 0.90, 0.61, 0.86]
    new = skprobeval.bayesian_sign_test(a, b, prior_strength=2.0, n_draws=100, random_state=0)
    with pytest.warns(FutureWarning, match="`prior` was renamed `prior_strength`"):
        old = skprobeval.bayesian_sign_test(a, b, prior=2.0, n_draws=100, random_state=0)
    assert old.prob_first_better == new.prob_first_better and new.prior_strength == 2.0
    with pytest.raises(ValueError, match="`prior_strength`"):
        skprobeval.compare_across_datasets({"x": a, "y": b}, prior_strength=-1.0)


def test_metric_score_equals_scikit_learn_and_the_named_scores():
    from sklearn.metrics import f1_score, fbeta_score, precision_score

    rng = np.random.default_rng(5)
    y_true, y_pred = rng.integers(0, 3, 200), rng.integers(0, 3, 200)
    for average in ("micro", "macro", "weighted", None):
        np.testing.assert_allclose(
            skprobeval.metric_score(y_true, y_pred, metric="f1", average=average),
            f1_score(y_true, y_pred, average=average), rtol=1e-12)
        np.testing.assert_allclose(
            skprobeval.metric_score(y_true, y_pred, metric="precision", average=average),
            precision_score(y_true, y_pred, average=average), rtol=1e-12)
    np.testing.assert_allclose(
        skprobeval.metric_score(y_true, y_pred, metric="fbeta", beta=2.0, average="macro"),
        fbeta_score(y_true, y_pred, beta=2.0, average="macro"), rtol=1e-12)
    assert skprobeval.metric_score(y_true, y_pred, metric="specificity", average="macro") == (
        skprobeval.specificity_score(y_true, y_pred, average="macro"))
    assert skprobeval.metric_score(y_true, y_pred, metric="informedness", average="powers") == (
        skprobeval.informedness_score(y_true, y_pred, average="powers"))
    with pytest.raises(ValueError, match="`average`"):
        skprobeval.metric_score(y_true, y_pred, metric="f1", average="powers")


@pytest.mark.parametrize("display", ["PosteriorPrecisionRecallDisplay",
                                     "PosteriorRocCurveDisplay", "PosteriorCalibrationDisplay"])
@pytest.mark.parametrize("method", ["from_predictions", "from_estimator", "plot"])
def test_display_parameters_are_explicit_and_documented(display, method):
    # numpydoc's validation, as scikit-learn runs it on its displays: every
    # parameter documented (PR01), no documented parameter missing from the
    # signature (PR02), a Returns section (RT01).
    validate = pytest.importorskip("numpydoc.validate").validate
    errors = [code for code, _ in validate(f"skprobeval.{display}.{method}")["errors"]
              if code in ("PR01", "PR02", "RT01")]
    assert not errors
    parameters = inspect.signature(getattr(getattr(skprobeval, display), method)).parameters
    assert "sample_weight" in parameters or method == "plot"


def test_the_rope_range_follows_the_metric_range():
    # Informedness lies in [-1, 1]: a rope of 1.5 is a real question; for F1 in
    # [0, 1] it is refused.  Per-fold or per-data-set scores may be on any scale
    # (log-loss, RMSE): a rope of 5 is fine.
    y = [0, 1, 1, 0, 1, 1, 0, 1, 0, 1]
    a = [0, 1, 0, 0, 1, 1, 1, 1, 0, 1]
    b = [0, 0, 1, 0, 0, 1, 0, 1, 1, 1]
    wide = compare_paired_metric(y, a, b, metric="informedness", rope=1.5, n_draws=200,
                                 random_state=0)
    assert wide.prob_equivalent > 0.99
    with pytest.raises(ValueError, match=r"`rope` must be a finite number in \[0, 1\)"):
        compare_paired_metric(y, a, b, metric="f1", rope=1.5)
    with pytest.raises(ValueError, match=r"\[0, 2\)"):
        compare_paired_metric(y, a, b, metric="mcc", rope=2.0)
    losses_a, losses_b = [12.0, 15.0, 11.0, 14.0, 13.0], [20.0, 21.0, 19.0, 22.0, 18.0]
    ttest = skprobeval.correlated_ttest(losses_a, losses_b, test_fraction=0.2, rope=5.0)
    assert ttest.rope == 5.0
    ranks = skprobeval.bayesian_signed_rank_test(losses_a, losses_b, rope=5.0, n_draws=200,
                                                 random_state=0)
    assert ranks.rope == 5.0


def test_public_docstrings_are_written_out_and_document_every_parameter():
    # No docstring is patched at import (the source holds what help() shows),
    # and numpydoc finds every parameter documented and nothing extra (PR01,
    # PR02) with a Returns section (RT01), for every public function.
    validate = pytest.importorskip("numpydoc.validate").validate
    failures = {}
    for name in skprobeval.__all__:
        obj = getattr(skprobeval, name)
        if inspect.isclass(obj) or not callable(obj):
            continue
        function = inspect.unwrap(obj)
        assert function.__code__.co_consts[:1] == (function.__doc__,), name
        errors = [code for code, _ in validate(f"skprobeval.{name}")["errors"]
                  if code in ("PR01", "PR02", "RT01")]
        if errors:
            failures[name] = errors
    assert not failures


def test_deprecation_warnings_name_the_callers_line():
    # Stacked decorators and entry points calling each other: every warning is
    # attributed to the user's line, so each call warns (Python shows a warning
    # once per line).
    a, b = [0.8, 0.7, 0.9, 0.6], [0.7, 0.7, 0.8, 0.6]
    calls = [lambda: skprobeval.bayesian_signed_rank_test(a, b, n_samples=100),
             lambda: skprobeval.bayesian_sign_test(a, b, n_samples=100),
             lambda: make_posterior_scorer(n_samples=100),
             lambda: PosteriorRefit(n_samples=100),
             lambda: metric_posterior(ConfusionCounts(3, 2, 1, 4), "f1")]
    for call in calls:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            call()
        assert [w.filename for w in caught if w.category is FutureWarning] == [__file__]


def test_undefined_metric_warnings_name_the_callers_line():
    # The zero-division warnings of the point metrics name the user's line too.
    from sklearn.exceptions import UndefinedMetricWarning

    calls = [lambda: skprobeval.metric_score([0, 0, 1], [0, 0, 0], metric="precision"),
             lambda: skprobeval.specificity_score([1, 1], [1, 0]),
             lambda: skprobeval.distance_weighted_precision_recall(
                 [0, 1, 1], [0, 0, 0], distance=np.array([[0, 0.5], [0.5, 0]]), average=None),
             lambda: skprobeval.average_precision([0, 0, 0], [0.1, 0.2, 0.3], pos_label=1)]
    for call in calls:
        with pytest.warns(UndefinedMetricWarning, match="ill-defined") as record:
            call()
        assert record[0].filename == __file__


def test_paired_accuracy_is_one_answer_with_a_rope_and_identical_predictions():
    y = [0, 1, 1, 0, 1, 0, 1, 1]
    a = [0, 1, 0, 0, 1, 1, 1, 1]
    b = [0, 0, 1, 0, 0, 1, 0, 1]
    for second, rope in ((b, 0.05), (a, 0.0), (a, 0.05)):
        exact = skprobeval.compare_paired(y, a, second, rope=rope)
        metric = compare_paired_metric(y, a, second, metric="accuracy", rope=rope)
        assert metric.prob_first_better == pytest.approx(exact.prob_first_better, abs=1e-12)
        assert metric.prob_equivalent == pytest.approx(exact.prob_equivalent, abs=1e-12)
        assert metric.interval() == pytest.approx(tuple(exact.interval()), abs=1e-12)


def test_the_display_shows_the_estimators_own_error():
    from sklearn.datasets import make_classification
    from sklearn.linear_model import LogisticRegression

    from skprobeval._plot._curve_display import _estimator_scores

    X, y = make_classification(n_samples=60, n_features=30, random_state=0)
    model = LogisticRegression().fit(X, y)
    with pytest.raises(ValueError, match="X has 5 features"):
        _estimator_scores(model, X[:, :5], "auto", None)


def test_a_report_comparison_keeps_no_draws_and_says_so():
    # The reports read only the probabilities: no n_draws x labels array is kept
    # per pair, and asking such a result for its interval is an error, not (0, 0).
    from skprobeval._compare._metric_comparison import paired_metric_from_codes
    from skprobeval._counting._counts import joint_codes
    from skprobeval._metrics._point import get_metric

    rng = np.random.default_rng(1)
    y = rng.integers(0, 3, 120)
    a, b = (np.where(rng.random(120) < 0.8, y, (y + 1) % 3) for _ in range(2))
    joint = joint_codes(y, [a, b], average="macro", labels=None, names=["y", "a", "b"])
    options = dict(average="macro", lam=0.5, rope=0.0, beta=1.0, n_draws=500)
    kept = paired_metric_from_codes(joint, get_metric("f1"), rng=np.random.default_rng(0),
                                    **options)
    bare = paired_metric_from_codes(joint, get_metric("f1"), rng=np.random.default_rng(0),
                                    keep_difference=False, **options)
    assert bare.prob_first_better == kept.prob_first_better
    assert kept.difference.n_draws == 500
    with pytest.raises(ValueError, match="kept no draws"):
        bare.interval()
