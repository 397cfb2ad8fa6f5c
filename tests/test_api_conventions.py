"""One set of conventions across the public API: `n_draws`, `confidence=0.95`,
`metric` keyword-only, and the former names still working for one release."""

import dataclasses
import inspect
import warnings

import numpy as np
import pytest

import skprobeval
from skprobeval import (
    ConfusionCounts,
    PosteriorRefit,
    compare_paired_metric,
    make_posterior_scorer,
    metric_posterior,
    posterior_roc_curve,
    signed_rank_test,
)
from skprobeval._validation import N_DRAWS


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
    result = signed_rank_test([0.8, 0.7, 0.9, 0.6], [0.7, 0.7, 0.8, 0.5], n_draws=100,
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
