"""Every public result type has one interface: ``summary``, ``to_dict``, a notebook view, ``plot``.

Each type in ``skprobeval.__all__`` is built here from ordinary public calls on
small data, and checked the same way: ``summary`` is a DataFrame or a record,
``json.dumps(r.to_dict())`` works (strict JSON: no NaN) and round-trips,
``_repr_html_`` gives a table (and the figure where the type shows one), and
``plot`` returns a matplotlib Axes.  A guard makes every new public class
either built here or listed, with its reason, as no result type.
"""

import dataclasses
import importlib.util
import inspect
import json
import sys

import numpy as np
import pandas as pd
import pytest
from optional import needs

import skprobeval as sp

HAS_MATPLOTLIB = importlib.util.find_spec("matplotlib") is not None

# Public classes that are no result types, and why.
NOT_RESULTS = {
    "ConfusionCounts": "a count value object (the data a result is computed from)",
    "ConfusionMatrix": "a count value object (the data a result is computed from)",
    "PairedCounts": "a count value object (the data a result is computed from)",
    "JointCounts": "a count value object (the data a result is computed from)",
    "CountsScorer": "a scikit-learn scorer, a callable",
    "MetricSpec": "a metric's registry entry",
    "PosteriorRefit": "a callable for scikit-learn's refit",
    "SimplestWithinRopeRefit": "a callable for scikit-learn's refit",
    "CredibleInterval": "a NamedTuple (low, high), returned inside results",
    "GroupIntervalDisplay": "a Display: scikit-learn's plotting convention, not a result",
    "PosteriorCalibrationDisplay": "a Display: scikit-learn's plotting convention, not a result",
    "PosteriorPrecisionRecallDisplay": "a Display: scikit-learn's plotting convention",
    "PosteriorRocCurveDisplay": "a Display: scikit-learn's plotting convention, not a result",
}

Y_TRUE = np.array([0, 1, 1, 0, 1, 1, 0, 1, 0, 1, 1, 0, 1, 0, 1, 1])
Y_A = np.array([0, 1, 1, 0, 1, 0, 0, 1, 1, 1, 1, 0, 1, 0, 0, 1])
Y_B = np.array([0, 1, 0, 0, 1, 1, 1, 1, 0, 1, 0, 0, 1, 1, 1, 1])
SCORE = np.array([0.1, 0.8, 0.7, 0.3, 0.9, 0.4, 0.35, 0.6, 0.55, 0.75, 0.65, 0.2, 0.85,
                  0.45, 0.5, 0.95])
GROUP = list("aaaaaabbbbbbcccc")
FAST = {"n_draws": 300, "random_state": 0}
ACROSS = pd.DataFrame({"a": [0.81, 0.72, 0.90, 0.66, 0.75], "b": [0.78, 0.71, 0.86, 0.60, 0.74],
                       "c": [0.70, 0.69, 0.85, 0.61, 0.70]})
CV_RESULTS = {"params": [{"C": 0.1}, {"C": 1.0}],
              **{f"split{i}_test_score": [0.90 - 0.01 * i, 0.92 - 0.005 * i] for i in range(5)}}


def _frame():
    return sp.PosteriorMetricFrame(metrics="recall", y_true=Y_TRUE, y_pred=Y_A,
                                   sensitive_features=GROUP, **FAST)


def _counts():
    return sp.ConfusionCounts(tp=8, fp=2, fn=4, tn=6)


# One builder per result type, from ordinary public calls; a base class is
# covered by an instance of one of its subclasses.
BUILDERS = {
    "AcrossDatasetsReport": lambda: sp.compare_across_datasets(ACROSS, **FAST),
    "AffinePosterior": lambda: sp.AffinePosterior(sp.FBetaPosterior(8.5, 2.5, 3.5),
                                                  scale=-1.0, shift=1.0),
    "BetaPosterior": lambda: sp.metric_posterior(_counts(), metric="precision"),
    "CVResultsRanking": lambda: sp.rank_cv_results(CV_RESULTS, **FAST),
    "CalibrationCurve": lambda: sp.posterior_calibration_curve(Y_TRUE, SCORE, n_bins=4),
    "CalibrationErrorPosterior": lambda: sp.calibration_error_posterior(
        Y_TRUE, SCORE, n_bins=4, **FAST),
    "ChanceBaseline": lambda: sp.chance_baseline(_counts()),
    "ComparisonReport": lambda: sp.compare_predictions(Y_TRUE, {"a": Y_A, "b": Y_B}, **FAST),
    "ComparisonResult": lambda: sp.compare_paired(Y_TRUE, Y_A, Y_B, rope=0.05),
    "CorrelatedTTestResult": lambda: sp.correlated_ttest(
        [0.81, 0.80, 0.83, 0.79, 0.82], [0.78, 0.80, 0.80, 0.77, 0.80], test_fraction=0.2),
    "CurveBand": lambda: sp.posterior_roc_curve(Y_TRUE, SCORE).band(0.9),
    "DatasetsComparison": lambda: sp.bayesian_signed_rank_test(
        ACROSS["a"], ACROSS["b"], rope=0.01, **FAST),
    "DifferencePosterior": lambda: sp.DifferencePosterior(sp.BetaPosterior(21.5, 9.5),
                                                          sp.BetaPosterior(14.5, 56.5)),
    "FBetaPosterior": lambda: sp.metric_posterior(_counts(), metric="f1"),
    "GroupDisparity": lambda: _frame().difference(),
    "LabelPlan": lambda: sp.plan_labels(Y_A, Y_B, labelled=np.where(
        np.arange(len(Y_A)) % 2 == 0, Y_TRUE, np.nan), budget=3, n_sims=10, n_draws=100,
        random_state=0),
    "LossComparison": lambda: sp.compare_losses([0.2, 0.1, 0.5, 0.3], [0.3, 0.2, 0.4, 0.6],
                                                **FAST),
    "MeanLossPosterior": lambda: sp.mean_loss_posterior([0.2, 0.0, 1.3, 0.4, 0.1], **FAST),
    "MetricComparison": lambda: sp.compare_independent(_counts(), sp.ConfusionCounts(
        tp=6, fp=3, fn=5, tn=6), **FAST),
    "MoreItemsPlan": lambda: sp.plan_more_items(sp.compare_paired(Y_TRUE, Y_A, Y_B), n_sims=50,
                                                random_state=0),
    "PairedComparison": lambda: sp.compare_paired(Y_TRUE, Y_A, Y_B),
    "ReportVerdict": lambda: sp.compare_predictions(Y_TRUE, {"a": Y_A, "b": Y_B},
                                                    **FAST).verdict(plan=False),
    "PlackettLuceRanking": lambda: sp.rank_across_datasets(ACROSS, **FAST),
    "PosteriorCurve": lambda: sp.posterior_precision_recall_curve(Y_TRUE, SCORE),
    "PosteriorMetricFrame": _frame,
    "PosteriorSummary": lambda: sp.BetaPosterior([3.5, 2.0], [2.5, 4.0]).summary(),
    "RandomAveragePrecision": lambda: sp.random_average_precision(16, 9),
    "RandomPrecisionBaseline": lambda: sp.random_precision_baseline(16, 9),
    "RandomRankingTest": lambda: sp.random_ranking_test(Y_TRUE, SCORE, n_permutations=50,
                                                        random_state=0),
    "RankingPosterior": lambda: sp.average_precision_posterior(Y_TRUE, SCORE, **FAST),
    "SampledPosterior": lambda: sp.SampledPosterior(np.random.default_rng(0).beta(3, 2, 300)),
    "ProxyPosterior": lambda: sp.recall_posterior(
        [1, 0, 1, np.nan, 0, 1, np.nan, 0], [1, 0, 0, 1, 0, 1, 1, 1],
        proxy=[1, 0, 1, 1, 0, 1, 0, 0], n_draws=300, random_state=0),
    "ClusteredPosterior": lambda: sp.recall_posterior(
        [1, 0, 1, 1, 0, 1, 1, 0], [1, 0, 0, 1, 0, 1, 1, 1], groups=[0, 0, 1, 1, 2, 2, 3, 3],
        n_draws=300, random_state=0),
    "StoppingDecision": lambda: sp.should_stop(sp.compare_paired(Y_TRUE, Y_A, Y_B),
                                               budget=200, n_sims=50, random_state=0),
    "SystemRanking": lambda: sp.rank_systems(Y_TRUE, {"a": Y_A, "b": Y_B}, **FAST),
    "TestSizePlan": lambda: sp.plan_test_size(metric="precision", width=0.3, expected=0.8,
                                              prevalence=0.5, random_state=0),
    "ThresholdChoice": lambda: sp.choose_threshold(Y_TRUE, SCORE, constraint=("precision", 0.6),
                                                   **FAST),
    "ThresholdUtility": lambda: sp.threshold_utility(Y_TRUE, SCORE, utility=[[0, -1], [-5, 0]],
                                                     **FAST),
}
# Records themselves: no summary of their own, no figure.
RECORDS = {"PosteriorSummary"}


def _public_classes():
    return sorted(name for name in sp.__all__ if inspect.isclass(getattr(sp, name)))


def test_every_public_class_is_a_result_built_here_or_listed_as_none():
    classes = set(_public_classes())
    unaccounted = classes - set(BUILDERS) - set(NOT_RESULTS)
    assert unaccounted == set(), (
        f"new public classes {sorted(unaccounted)}: build them in BUILDERS (a result type) "
        "or list them in NOT_RESULTS with the reason")
    assert set(BUILDERS) & set(NOT_RESULTS) == set()
    assert set(BUILDERS) <= classes


@pytest.fixture(scope="module")
def results():
    return {name: build() for name, build in BUILDERS.items()}


def _summary(result):
    summary = result.summary
    return summary() if callable(summary) else summary


@pytest.mark.parametrize("name", sorted(BUILDERS))
def test_summary_is_a_table_or_a_record(results, name):
    result = results[name]
    assert isinstance(result, getattr(sp, name))
    if name in RECORDS:
        assert dataclasses.is_dataclass(result)
        return
    summary = _summary(result)
    assert isinstance(summary, (pd.DataFrame, dict)) or dataclasses.is_dataclass(summary), (
        type(summary))
    if isinstance(summary, pd.DataFrame):
        assert len(summary) > 0


def _as_json_reads_it(value):
    """`value` with only Python's plain types, as ``json.loads`` gives it back."""
    if isinstance(value, dict):
        return {str(key): _as_json_reads_it(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_as_json_reads_it(item) for item in value]
    assert value is None or type(value) in (str, int, float, bool), type(value)
    return value


@pytest.mark.parametrize("name", sorted(BUILDERS))
def test_to_dict_is_plain_json(results, name):
    data = results[name].to_dict()
    assert isinstance(data, dict) and data
    text = json.dumps(data, allow_nan=False)       # strict JSON: NaN must be None
    assert json.loads(text) == _as_json_reads_it(data)


def _shows_figure(result):
    return bool(getattr(type(result), "_html_figure", False)) and hasattr(result, "plot")


@pytest.mark.parametrize("name", sorted(BUILDERS))
def test_notebook_view_is_a_table_and_the_figure(results, name):
    result = results[name]
    html = result._repr_html_()
    assert isinstance(html, str) and "<table" in html
    if HAS_MATPLOTLIB:
        assert ("<svg" in html) == _shows_figure(result)


@needs("matplotlib")
@pytest.mark.parametrize("name", sorted(name for name in BUILDERS if name not in RECORDS))
def test_plot_returns_axes(results, name):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.axes import Axes

    result = results[name]
    if not hasattr(result, "plot"):
        assert not type(result)._html_figure      # no figure: none in the notebook either
        return
    try:
        ax = result.plot()
        assert isinstance(ax, Axes)
        _, given = plt.subplots()
        assert result.plot(ax=given) is given
    finally:
        plt.close("all")


# One page builder for all: the report's richer page, and these results' own.
PAGES = ("AcrossDatasetsReport", "CalibrationCurve", "ComparisonReport", "MoreItemsPlan",
         "SystemRanking", "TestSizePlan", "ThresholdChoice", "ThresholdUtility")


@pytest.mark.parametrize("name", PAGES)
def test_to_html_is_one_self_contained_page(results, name, tmp_path):
    import re

    page = results[name].to_html()
    assert page.startswith("<!DOCTYPE html>") and "<table" in page
    assert not re.search(r"https?://|<script|<link|url\((?!#)", page)
    assert ("<svg" in page) == HAS_MATPLOTLIB
    assert results[name].to_html(tmp_path / "page.html") is None
    assert (tmp_path / "page.html").read_text(encoding="utf-8") == page


def test_every_result_type_with_a_figure_has_plot():
    missing = [name for name in BUILDERS
               if getattr(getattr(sp, name), "_html_figure", False)
               and not hasattr(getattr(sp, name), "plot")]
    assert missing == []


def _without_matplotlib(monkeypatch):
    for module in list(sys.modules):
        if module == "matplotlib" or module.startswith("matplotlib."):
            monkeypatch.setitem(sys.modules, module, None)
    for module in ("matplotlib", "matplotlib.pyplot", "matplotlib.figure"):
        monkeypatch.setitem(sys.modules, module, None)


@pytest.mark.parametrize("name", ["CalibrationCurve", "PosteriorMetricFrame", "ThresholdUtility",
                                  "RandomPrecisionBaseline", "AcrossDatasetsReport"])
def test_without_matplotlib_plot_names_the_extra_and_the_table_stays(results, name,
                                                                     monkeypatch):
    result = results[name]
    _without_matplotlib(monkeypatch)
    with pytest.raises(ImportError, match=r"skprobeval\[plot\]"):
        result.plot()
    html = result._repr_html_()
    assert "<table" in html and "<svg" not in html
