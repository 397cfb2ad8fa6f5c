"""Per-group posteriors: PosteriorMetricFrame against fairlearn, the exact two-group
difference, brute-force Monte Carlo for the sampled gaps, and bad input."""

import math
import warnings

import numpy as np
import pandas as pd
import pytest

from skprobeval import (
    BetaPosterior,
    DifferencePosterior,
    GroupDisparity,
    GroupIntervalDisplay,
    PosteriorMetricFrame,
    SampledPosterior,
    demographic_parity_disparity,
    equalized_odds_disparity,
)

# 90 items, three groups by `race`, two by `sex`, six intersections (none empty): every
# group has items of both classes and both predictions.
_I = np.arange(90)
Y_TRUE = ((_I * 7) % 11 < 5).astype(int)
Y_PRED = np.where(_I % 3 == 0, (_I * 5) % 13 < 8, Y_TRUE ^ ((_I * 3) % 7 == 0)).astype(int)
SEX = np.where(_I % 2 == 0, "F", "M")
RACE = np.array(["x", "y", "z"])[(_I // 2) % 3]
METRICS = ["recall", "fallout", "selection_rate", "precision", "accuracy", "f1"]
LAM = 0.5


def _frame(features=RACE, metrics=METRICS, **options):
    return PosteriorMetricFrame(metrics=metrics, y_true=Y_TRUE, y_pred=Y_PRED,
                                sensitive_features=features, **options)


def _points(frame):
    return frame.by_group.xs("point", axis=1, level=1)


def label_cells(mask):
    """TP, FP, FN, TN of the items in `mask`, counted here with numpy."""
    t, p = Y_TRUE[mask] == 1, Y_PRED[mask] == 1
    return (float(np.sum(t & p)), float(np.sum(~t & p)), float(np.sum(t & ~p)),
            float(np.sum(~t & ~p)))


# ---------------------------------------------------------------------------
# Point values: fairlearn's MetricFrame
# ---------------------------------------------------------------------------

# Computed once with fairlearn 0.15.0 (scikit-learn 1.9.1):
#   from fairlearn.metrics import (MetricFrame, selection_rate, false_positive_rate,
#       demographic_parity_difference, equalized_odds_difference)
#   from sklearn.metrics import recall_score, precision_score, accuracy_score, f1_score
#   mf = MetricFrame(metrics={"recall": recall_score, "fallout": false_positive_rate,
#                             "selection_rate": selection_rate, "precision": precision_score,
#                             "accuracy": accuracy_score, "f1": f1_score},
#                    y_true=Y_TRUE, y_pred=Y_PRED, sensitive_features=RACE)
#   mf.by_group.to_dict(orient="list"), mf.overall.to_dict(), mf.difference().to_dict(),
#   mf.ratio().to_dict()
FAIRLEARN_BY_RACE = {
    "recall": [0.8461538461538461, 0.8461538461538461, 0.8666666666666667],
    "fallout": [0.35294117647058826, 0.47058823529411764, 0.13333333333333333],
    "selection_rate": [0.5666666666666667, 0.6333333333333333, 0.5],
    "precision": [0.6470588235294118, 0.5789473684210527, 0.8666666666666667],
    "accuracy": [0.7333333333333333, 0.6666666666666666, 0.8666666666666667],
    "f1": [0.7333333333333333, 0.6875, 0.8666666666666667],
}
FAIRLEARN_OVERALL = {
    "recall": 0.8536585365853658, "fallout": 0.32653061224489793,
    "selection_rate": 0.5666666666666667, "precision": 0.6862745098039216,
    "accuracy": 0.7555555555555555, "f1": 0.7608695652173914}
FAIRLEARN_DIFFERENCE = {
    "recall": 0.02051282051282055, "fallout": 0.33725490196078434,
    "selection_rate": 0.1333333333333333, "precision": 0.28771929824561404,
    "accuracy": 0.20000000000000007, "f1": 0.1791666666666667}
FAIRLEARN_RATIO = {
    "recall": 0.9763313609467456, "fallout": 0.2833333333333333,
    "selection_rate": 0.7894736842105263, "precision": 0.6680161943319838,
    "accuracy": 0.7692307692307692, "f1": 0.7932692307692307}
# The same MetricFrame with sensitive_features=pd.DataFrame({"sex": SEX, "race": RACE}):
#   mf.by_group.index.tolist(), mf.by_group["recall"].tolist(),
#   mf.by_group["selection_rate"].tolist()
FAIRLEARN_INTERSECTIONS = [("F", "x"), ("F", "y"), ("F", "z"), ("M", "x"), ("M", "y"),
                           ("M", "z")]
FAIRLEARN_RECALL_BY_SEX_RACE = [0.8333333333333334, 1.0, 1.0, 0.8571428571428571,
                                0.6666666666666666, 0.7142857142857143]
FAIRLEARN_SELECTION_BY_SEX_RACE = [0.6666666666666666, 0.6, 0.6666666666666666,
                                   0.4666666666666667, 0.6666666666666666, 0.3333333333333333]
# demographic_parity_difference(Y_TRUE, Y_PRED, sensitive_features=RACE) and
# equalized_odds_difference(...) (agg="worst_case"); then with sensitive_features=SEX.
FAIRLEARN_DP_RACE, FAIRLEARN_EO_RACE = 0.1333333333333333, 0.33725490196078434
FAIRLEARN_DP_SEX, FAIRLEARN_EO_SEX = 0.1555555555555556, 0.20238095238095233


def test_points_equal_stored_fairlearn_values():
    frame = _frame()
    points = _points(frame)
    assert list(points.index) == ["x", "y", "z"] and points.index.name == "sensitive_feature_0"
    for metric in METRICS:
        np.testing.assert_allclose(points[metric], FAIRLEARN_BY_RACE[metric], rtol=1e-12)
        assert frame.overall[metric, "point"] == pytest.approx(FAIRLEARN_OVERALL[metric],
                                                               rel=1e-12)
    differences, ratios = frame.difference(), frame.ratio()
    for metric in METRICS:
        assert differences[metric].point == pytest.approx(FAIRLEARN_DIFFERENCE[metric],
                                                          rel=1e-12)
        assert ratios[metric].point == pytest.approx(FAIRLEARN_RATIO[metric], rel=1e-12)
    both = _frame(pd.DataFrame({"sex": SEX, "race": RACE}), ["recall", "selection_rate"])
    assert list(both.by_group.index) == FAIRLEARN_INTERSECTIONS
    assert list(both.by_group.index.names) == ["sex", "race"]
    np.testing.assert_allclose(_points(both)["recall"], FAIRLEARN_RECALL_BY_SEX_RACE,
                               rtol=1e-12)
    np.testing.assert_allclose(_points(both)["selection_rate"],
                               FAIRLEARN_SELECTION_BY_SEX_RACE, rtol=1e-12)
    options = {"n_draws": 200, "random_state": 0}
    for features, dp, eo in ((RACE, FAIRLEARN_DP_RACE, FAIRLEARN_EO_RACE),
                             (SEX, FAIRLEARN_DP_SEX, FAIRLEARN_EO_SEX)):
        assert demographic_parity_disparity(Y_TRUE, Y_PRED, sensitive_features=features,
                                            **options).point == pytest.approx(dp, rel=1e-12)
        assert equalized_odds_disparity(Y_TRUE, Y_PRED, sensitive_features=features,
                                        **options).point == pytest.approx(eo, rel=1e-12)


def _fairlearn_metrics():
    from fairlearn.metrics import false_positive_rate, selection_rate
    from sklearn.metrics import accuracy_score, f1_score, precision_score, recall_score

    return {"recall": recall_score, "fallout": false_positive_rate,
            "selection_rate": selection_rate, "precision": precision_score,
            "accuracy": accuracy_score, "f1": f1_score}


# One feature as an array and two as a dict (the intersections) stay in the fast tier; the
# other forms of the same features, about 0.7 s each, are slow.
@pytest.mark.parametrize("features", [
    RACE, pytest.param(SEX, marks=pytest.mark.slow),
    pytest.param(pd.Series(RACE, name="race"), marks=pytest.mark.slow), {"sex": SEX, "race": RACE},
    pytest.param(pd.DataFrame({"race": RACE, "sex": SEX}), marks=pytest.mark.slow),
    pytest.param(np.column_stack([SEX, RACE]), marks=pytest.mark.slow)],
    ids=["array", "two-groups", "series", "dict", "dataframe", "2d-array"])
def test_points_equal_fairlearn_live(features):
    fairlearn = pytest.importorskip("fairlearn.metrics")
    reference = fairlearn.MetricFrame(metrics=_fairlearn_metrics(), y_true=Y_TRUE,
                                      y_pred=Y_PRED, sensitive_features=features)
    frame = _frame(features)
    points = _points(frame)[list(reference.by_group.columns)]
    pd.testing.assert_frame_equal(points, reference.by_group, check_dtype=False,
                                  check_index_type=False, check_names=True, rtol=1e-12)
    for metric in METRICS:
        assert frame.overall[metric, "point"] == pytest.approx(reference.overall[metric],
                                                               rel=1e-12)
        assert frame.difference()[metric].point == pytest.approx(
            reference.difference()[metric], rel=1e-12, abs=1e-15)
        assert frame.ratio()[metric].point == pytest.approx(reference.ratio()[metric],
                                                            rel=1e-12)
    assert frame.sensitive_levels == list(reference.by_group.index.names)
    options = {"n_draws": 200, "random_state": 0}
    assert demographic_parity_disparity(
        Y_TRUE, Y_PRED, sensitive_features=features, **options).point == pytest.approx(
        fairlearn.demographic_parity_difference(Y_TRUE, Y_PRED, sensitive_features=features),
        rel=1e-12)
    assert equalized_odds_disparity(
        Y_TRUE, Y_PRED, sensitive_features=features, **options).point == pytest.approx(
        fairlearn.equalized_odds_difference(Y_TRUE, Y_PRED, sensitive_features=features),
        rel=1e-12)


def test_intersections_are_fairlearns_groups_less_the_empty_ones():
    fairlearn = pytest.importorskip("fairlearn.metrics")
    from sklearn.metrics import recall_score

    # (b, y) has no item: fairlearn lists it as a NaN row, here it is not a group.
    y_true = np.array([1, 0, 1, 1, 0, 0, 1, 0, 1, 1, 0, 1])
    y_pred = np.array([1, 0, 0, 1, 1, 0, 1, 1, 1, 0, 0, 1])
    features = pd.DataFrame({"sex": list("abababababab"),
                             "race": ["x", "x", "y", "x", "x", "x", "y", "x", "x", "x", "y",
                                      "x"]})
    reference = fairlearn.MetricFrame(metrics=recall_score, y_true=y_true, y_pred=y_pred,
                                      sensitive_features=features)
    frame = PosteriorMetricFrame(metrics="recall", y_true=y_true, y_pred=y_pred,
                                 sensitive_features=features)
    expected = reference.by_group.dropna()
    assert frame.by_group.index.equals(expected.index)
    assert list(frame.by_group.index) == [("a", "x"), ("a", "y"), ("b", "x")]
    np.testing.assert_allclose(frame.by_group["point"], expected, rtol=1e-12)
    assert len(reference.by_group) == 4


# ---------------------------------------------------------------------------
# The posteriors
# ---------------------------------------------------------------------------


def test_group_posteriors_are_the_groups_own_tables():
    frame = _frame(metrics="recall")
    for key in ("x", "y", "z"):
        tp, fp, fn, tn = label_cells(RACE == key)
        posterior = frame.by_group_posteriors[key]
        assert isinstance(posterior, BetaPosterior)
        assert (posterior.a, posterior.b) == (tp + LAM, fn + LAM)
        row = frame.by_group.loc[key]
        assert row["mean"] == pytest.approx((tp + LAM) / (tp + fn + 2 * LAM), rel=1e-14)
        low, high = posterior.interval(0.95)
        assert (row["low"], row["high"]) == (low, high)
    assert frame.overall_posterior.mean() == frame.overall["mean"]


@pytest.mark.parametrize("metric", ["recall", "fallout", "selection_rate", "precision"])
def test_two_group_difference_is_the_exact_difference_posterior(metric):
    frame = _frame(SEX, metric)
    gap = frame.difference()
    tables = {key: label_cells(SEX == key) for key in ("F", "M")}
    # The Beta of each group from its own counts (the selection rate takes λ a side).
    beta = {"recall": lambda t: (t[0] + LAM, t[2] + LAM),
            "fallout": lambda t: (t[1] + LAM, t[3] + LAM),
            "selection_rate": lambda t: (t[0] + t[1] + LAM, t[2] + t[3] + LAM),
            "precision": lambda t: (t[0] + LAM, t[1] + LAM)}[metric]
    points = {key: frame.by_group.loc[key, "point"] for key in tables}
    higher = max(points, key=points.get)
    lower = "M" if higher == "F" else "F"
    direct = DifferencePosterior(BetaPosterior(*beta(tables[higher])),
                                 BetaPosterior(*beta(tables[lower])))
    assert gap.exact and gap.pair == (higher, lower)
    assert gap.point == pytest.approx(points[higher] - points[lower], rel=1e-12)
    assert abs(gap.mean() - direct.mean()) <= 1e-9
    for confidence in (0.5, 0.95):
        np.testing.assert_allclose(gap.interval(confidence), direct.interval(confidence),
                                   rtol=0, atol=1e-9)
    for tolerance in (0.0, 0.05, 0.2):
        expected = direct.sf(tolerance) + direct.cdf(-tolerance)
        assert abs(gap.prob_disparity_greater(tolerance) - expected) <= 1e-9


def test_two_group_difference_of_a_sampled_metric_is_sampled():
    frame = _frame(SEX, "f1", n_draws=4000, random_state=1)
    gap = frame.difference()
    assert not gap.exact and isinstance(gap.posterior, SampledPosterior)
    first, second = (frame.by_group_posteriors[key] for key in gap.pair)
    # F1's group posteriors are exact: the sampled gap's mean is their means' difference.
    expected = first.mean() - second.mean()
    assert abs(gap.mean() - expected) <= 4 * gap.mc_error


def _brute_force_draws(features, cells, n_draws, rng):
    """Independent numpy Beta draws of every group, shape (n_draws, n_groups)."""
    groups = np.unique(features)
    a = np.array([cells(label_cells(features == key))[0] for key in groups])
    b = np.array([cells(label_cells(features == key))[1] for key in groups])
    return rng.beta(a, b, size=(n_draws, groups.size))


def _recall_cells(t):
    return t[0] + LAM, t[2] + LAM


def _fallout_cells(t):
    return t[1] + LAM, t[3] + LAM


def _within(value, reference, errors, k=4.0):
    return abs(value - reference) <= k * math.hypot(*errors)


def test_sampled_gap_of_three_groups_matches_brute_force_monte_carlo(seed):
    n_draws = 20_000
    frame = _frame(RACE, "recall", n_draws=n_draws, random_state=seed)
    gap = frame.difference()
    assert not gap.exact and gap.pair is None and gap.n_groups == 3
    draws = _brute_force_draws(RACE, _recall_cells, n_draws, np.random.default_rng(seed + 1))
    spread = draws.max(axis=1) - draws.min(axis=1)
    mc = spread.std(ddof=1) / math.sqrt(n_draws)
    assert _within(gap.mean(), spread.mean(), (gap.mc_error, mc))
    for tolerance in (0.05, 0.1, 0.2):
        p = float(np.mean(spread > tolerance))
        q = gap.prob_disparity_greater(tolerance)
        assert _within(q, p, (math.sqrt(p * (1 - p) / n_draws),
                              math.sqrt(q * (1 - q) / n_draws)))
    smallest, largest = frame.group_min(), frame.group_max()
    for posterior, reference in ((smallest, draws.min(axis=1)), (largest, draws.max(axis=1))):
        assert _within(posterior.mean(), reference.mean(),
                       (posterior.mc_error, reference.std(ddof=1) / math.sqrt(n_draws)))
    ratio = frame.ratio()
    shares = draws.min(axis=1) / draws.max(axis=1)
    p = float(np.mean(shares < 0.9))
    q = ratio.prob_disparity_greater(0.1)
    assert _within(q, p, (math.sqrt(p * (1 - p) / n_draws), math.sqrt(q * (1 - q) / n_draws)))


def test_equalized_odds_matches_brute_force_monte_carlo(seed):
    n_draws = 20_000
    gap = equalized_odds_disparity(Y_TRUE, Y_PRED, sensitive_features=RACE, n_draws=n_draws,
                                   random_state=seed)
    assert gap.metric == "equalized_odds" and not gap.exact
    rng = np.random.default_rng(seed + 1)
    tpr = _brute_force_draws(RACE, _recall_cells, n_draws, rng)
    fpr = _brute_force_draws(RACE, _fallout_cells, n_draws, rng)
    worst = np.maximum(tpr.max(axis=1) - tpr.min(axis=1), fpr.max(axis=1) - fpr.min(axis=1))
    assert _within(gap.mean(), worst.mean(),
                   (gap.mc_error, worst.std(ddof=1) / math.sqrt(n_draws)))
    p, q = float(np.mean(worst > 0.3)), gap.prob_disparity_greater(0.3)
    assert _within(q, p, (math.sqrt(p * (1 - p) / n_draws), math.sqrt(q * (1 - q) / n_draws)))


def test_demographic_parity_of_two_groups_is_exact():
    gap = demographic_parity_disparity(Y_TRUE, Y_PRED, sensitive_features=SEX)
    frame = _frame(SEX, "selection_rate")
    assert gap.exact
    assert gap.mean() == frame.difference().mean()
    assert gap.interval(0.9) == frame.difference().interval(0.9)


def test_seeded_calls_repeat_and_seeds_differ():
    frame = _frame(RACE, "precision", n_draws=2000, random_state=3)
    first, second = frame.difference(), frame.difference()
    assert first.mean() == second.mean()
    other = _frame(RACE, "precision", n_draws=2000, random_state=4).difference()
    assert other.mean() != first.mean()


def test_several_metrics_layout():
    frame = _frame(RACE, {"tpr": "recall", "sr": "selection_rate"})
    assert list(frame.by_group.columns) == [
        (name, stat) for name in ("tpr", "sr") for stat in ("point", "mean", "low", "high")]
    assert list(frame.overall.index) == list(frame.by_group.columns)
    posteriors = frame.by_group_posteriors
    assert list(posteriors.columns) == ["tpr", "sr"] and list(posteriors.index) == ["x", "y", "z"]
    assert posteriors.loc["y", "tpr"].mean() == frame.by_group.loc["y", ("tpr", "mean")]
    differences = frame.difference()
    assert list(differences.index) == ["tpr", "sr"]
    assert all(isinstance(value, GroupDisparity) for value in differences)
    assert frame.metrics == ["tpr", "sr"]
    single = _frame(RACE, "tpr")
    assert list(single.by_group.columns) == ["point", "mean", "low", "high"]
    assert single.metrics == ["recall"]


def test_counts_by_group():
    frame = _frame(SEX, "recall")
    for key in ("F", "M"):
        assert tuple(frame.by_group_counts.loc[key]) == label_cells(SEX == key)


# ---------------------------------------------------------------------------
# Edge cases
# ---------------------------------------------------------------------------


def test_group_without_positives_warns_and_keeps_the_prior():
    y_true = [1, 0, 1, 0, 0, 0, 0]
    y_pred = [1, 0, 0, 1, 0, 1, 0]
    group = ["a", "a", "a", "a", "b", "b", "b"]
    with pytest.warns(UserWarning, match=r"Recall is ill-defined in group\(s\) \['b'\]"):
        frame = PosteriorMetricFrame(metrics="recall", y_true=y_true, y_pred=y_pred,
                                     sensitive_features=group)
    posterior = frame.by_group_posteriors["b"]
    assert (posterior.a, posterior.b) == (LAM, LAM)        # the prior, Beta(λ, λ)
    assert not frame.by_group.isna().any().any()
    # scikit-learn's (so fairlearn's) recall_score of no positive item: 0.0 with a warning.
    assert frame.by_group.loc["b", "point"] == 0.0
    assert frame.by_group.loc["b", "mean"] == 0.5
    with pytest.warns(UserWarning, match="point value is set to nan"):
        nan_point = PosteriorMetricFrame(metrics="recall", y_true=y_true, y_pred=y_pred,
                                         sensitive_features=group, zero_division=np.nan)
    assert np.isnan(nan_point.by_group.loc["b", "point"])
    gap = nan_point.difference()
    assert gap.pair == ("b", "a") or gap.pair == ("a", "b")
    assert np.isfinite(gap.mean())
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        PosteriorMetricFrame(metrics="selection_rate", y_true=y_true, y_pred=y_pred,
                             sensitive_features=group)


def test_one_group_has_no_disparity():
    frame = PosteriorMetricFrame(metrics=["recall", "selection_rate"], y_true=[1, 0, 1],
                                 y_pred=[1, 1, 0], sensitive_features=["a", "a", "a"])
    gap = frame.difference()["recall"]
    assert gap.posterior is None and gap.point == 0.0 and gap.n_groups == 1
    assert gap.mean() == 0.0 and tuple(gap.interval()) == (0.0, 0.0)
    assert gap.prob_disparity_greater(0.0) == 0.0
    ratio = frame.ratio()["selection_rate"]
    assert ratio.mean() == 1.0 and ratio.point == 1.0
    assert frame.group_min()["recall"].mean() == frame.by_group_posteriors.loc["a", "recall"].mean()


def test_one_item():
    frame = PosteriorMetricFrame(metrics="selection_rate", y_true=[1], y_pred=[1],
                                 sensitive_features=["a"])
    assert frame.by_group.loc["a", "mean"] == pytest.approx(1.5 / 2)


@pytest.mark.parametrize("options, error, pattern", [
    ({"sensitive_features": ["a", "b"]}, ValueError,
     r"`sensitive_features` and `y_true` must have one length; got 2 .* and 4"),
    ({"sensitive_features": {"s": ["a"] * 4, "r": ["x"] * 3}}, ValueError,
     r"got 3 \(column 'r'\) and 4"),
    ({"y_pred": [1, 0, 1]}, ValueError, r"`y_true` and `y_pred` .* got 4 and 3"),
    ({"y_true": [], "y_pred": [], "sensitive_features": []}, ValueError,
     "`y_true` must be non-empty"),
    ({"y_true": [0, 1, 2, 1]}, ValueError, r"binary labels .* got 3 labels \[0, 1, 2\]"),
    ({"n_draws": 1}, ValueError, "`n_draws` must be an integer from 2"),
    ({"confidence": 1.5}, ValueError, "`confidence` must be a float in the open interval"),
    ({"metrics": "recal"}, ValueError, "`metric` must be one of"),
    ({"metrics": len}, TypeError, "`metrics` must be a registered metric name"),
    ({"metrics": {"a": 3}}, TypeError, "`metric` must be a metric name"),
    ({"metrics": [len]}, TypeError, "`metrics` must be metric names"),
    ({"metrics": []}, ValueError, "`metrics` must be at least one"),
    ({"sensitive_features": ["a", None, "b", "a"]}, ValueError,
     "`sensitive_features` must be free of missing values"),
    ({"sensitive_features": [[["a"]]] * 4}, ValueError,
     r"`sensitive_features` must be 1-d \(one feature\) or 2-d"),
    ({"prior": 0.0}, ValueError, "`prior` must be"),
    ({"random_state": "seed"}, TypeError, "`random_state`"),
])
def test_bad_input(options, error, pattern):
    arguments = {"metrics": "recall", "y_true": [1, 0, 1, 0], "y_pred": [1, 1, 0, 0],
                 "sensitive_features": ["a", "a", "b", "b"], **options}
    with pytest.raises(error, match=pattern):
        PosteriorMetricFrame(**arguments)


def test_bad_method_tolerance_and_signed_ratio():
    frame = _frame(SEX, ["recall", "informedness"], n_draws=200, random_state=0)
    with pytest.raises(ValueError, match="`method` must be 'between_groups' .*shares its items"):
        frame.difference(method="to_overall")
    with pytest.raises(ValueError, match="`method` must be 'between_groups'; got 'max'"):
        frame.ratio(method="max")
    with pytest.raises(ValueError, match="`tolerance` must be a finite number >= 0; got -0.1"):
        frame.difference()["recall"].prob_disparity_greater(-0.1)
    with pytest.raises(ValueError, match="`metrics` must be metrics in \\[0, 1\\] for a ratio"):
        frame.ratio()


def test_repr():
    frame = _frame(SEX, "recall")
    assert repr(frame) == ("PosteriorMetricFrame(metrics=['recall'], sensitive_levels="
                           "['sensitive_feature_0'], n_groups=2)")
    assert repr(frame.difference()).startswith(
        "GroupDisparity(metric='recall', kind='difference', point=0.2024, mean=")


# ---------------------------------------------------------------------------
# Display
# ---------------------------------------------------------------------------


def test_group_interval_display():
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    frame = _frame(pd.DataFrame({"sex": SEX, "race": RACE}), ["recall", "selection_rate"])
    with pytest.raises(ValueError, match="`metric` must be one of the frame's metrics"):
        GroupIntervalDisplay.from_frame(frame)
    display = GroupIntervalDisplay.from_frame(frame, metric="recall")
    labels = [tick.get_text() for tick in display.ax_.get_yticklabels()]
    rows = display.ax_.get_yticks()
    # Top to bottom in the frame's order.
    assert [labels[i] for i in np.argsort(-rows)] == ["F, x", "F, y", "F, z", "M, x", "M, y",
                                                      "M, z"]
    table = frame.by_group["recall"]
    np.testing.assert_allclose(display.points_.get_xdata(), table["point"])
    line = display.errorbar_.lines[0]
    np.testing.assert_allclose(line.get_xdata(), table["mean"])
    assert display.overall_line_.get_xdata()[0] == frame.overall["recall", "mean"]
    assert display.ax_.get_xlabel() == "recall"
    plt.close("all")
    with pytest.raises(ValueError, match="`low` must be an array of shape \\(2,\\)"):
        GroupIntervalDisplay(groups=["a", "b"], mean=[0.5, 0.5], low=[0.1], high=[0.9, 0.9])


def test_comparison_report_by_group_is_the_metric_frame():
    # compare_predictions(sensitive_features=...) holds each system's
    # PosteriorMetricFrame: its by_group rows and counts, and the two-group gap
    # whose P(gap > rope) is the exact signed difference's.
    from skprobeval import DifferencePosterior, PosteriorMetricFrame, compare_predictions

    rng = np.random.default_rng(11)
    n = 300
    group = rng.choice(["a", "b"], n)
    y = rng.integers(0, 2, n)
    systems = {"s": np.where(rng.random(n) < 0.85, y, 1 - y),
               "t": np.where(rng.random(n) < np.where(group == "a", 0.9, 0.7), y, 1 - y)}
    report = compare_predictions(y, systems, metric="recall", sensitive_features=group,
                                 rope=0.02)
    for name, pred in systems.items():
        frame = PosteriorMetricFrame(metrics="recall", y_true=y, y_pred=pred,
                                     sensitive_features=group)
        expected = frame.by_group
        got = report.by_group.loc[name]
        np.testing.assert_allclose(got[["point", "mean", "low", "high"]].to_numpy(float),
                                   expected[["point", "mean", "low", "high"]].to_numpy(float),
                                   rtol=1e-12)
        counts = frame.by_group_counts
        np.testing.assert_array_equal(got[["tp", "fp", "fn", "tn"]].to_numpy(),
                                      counts.to_numpy())
        gap = frame.difference()
        high, low = (list(frame.by_group.index).index(k) for k in gap.pair)
        posteriors = frame.by_group_posteriors
        exact = DifferencePosterior(posteriors.iloc[high], posteriors.iloc[low])
        assert report.group_gaps.loc[name, "prob_gap_above_rope"] == pytest.approx(
            float(exact.sf(0.02)), abs=1e-12)
    with pytest.raises(TypeError, match="sensitive_features"):
        compare_predictions(np.r_[y[:-1], 2], systems, average="macro",
                            sensitive_features=group)


def test_spread_of_more_groups_takes_anchored_interval():
    # Three groups: the simultaneous bounds of the spread are built from each group's
    # equal-tailed interval at 0.95 ** (1 / 3) (computed here from BetaPosterior
    # directly); kind="posterior" is the spread posterior's own interval; two groups
    # keep the exact signed difference's interval by default.
    from skprobeval import BetaPosterior, PosteriorMetricFrame

    y_true = np.ones(90, dtype=int)
    y_pred = np.r_[np.ones(25), np.zeros(5), np.ones(20), np.zeros(10), np.ones(27),
                   np.zeros(3)].astype(int)
    group = np.repeat(["a", "b", "c"], 30)
    gap = PosteriorMetricFrame(metrics="recall", y_true=y_true, y_pred=y_pred,
                               sensitive_features=group, random_state=0).difference()
    low, high = BetaPosterior([25.5, 20.5, 27.5], [5.5, 10.5, 3.5]).interval(0.95 ** (1 / 3))
    expected = (max(0.0, low.max() - high.min()), high.max() - low.min())
    np.testing.assert_allclose(gap.interval(0.95, kind="simultaneous"), expected, rtol=1e-12)
    np.testing.assert_allclose(gap.interval(0.95, kind="posterior"),
                               gap.posterior.interval(0.95), rtol=1e-12)
    # Default (anchored): the posterior's upper quantile, and a lower end at parity
    # here (groups of 30 items whose intervals overlap).
    np.testing.assert_allclose(gap.interval(0.95), (0.0, gap.posterior.ppf(0.975)),
                               rtol=1e-12)
    ratio = PosteriorMetricFrame(metrics="recall", y_true=y_true, y_pred=y_pred,
                                 sensitive_features=group, random_state=0).ratio()
    np.testing.assert_allclose(ratio.interval(0.95, kind="simultaneous"),
                               (low.min() / high.max(), min(1.0, high.min() / low.max())),
                               rtol=1e-12)
    assert ratio.interval(0.95)[0] == pytest.approx(ratio.posterior.ppf(0.025), rel=1e-12)
    two = PosteriorMetricFrame(metrics="recall", y_true=y_true[:60], y_pred=y_pred[:60],
                               sensitive_features=group[:60]).difference()
    np.testing.assert_allclose(two.interval(0.9), two.posterior.interval(0.9), rtol=1e-12)
    with pytest.raises(ValueError, match="kind"):
        gap.interval(0.95, kind="hdi")


def _anchored_by_brute_force(draws, tail, ratio=False):
    # The anchored end by its definition, with scipy's ranks and plain loops: the
    # unordered pairs that are the (largest, smallest) pair in the most draws, up to
    # 99% of them, both orientations; every pair's quantile at the one level k where
    # a share >= 1 - tail of the draws has every pair at or above its k-th value.
    from scipy.stats import rankdata

    n, g = draws.shape
    counts = {}
    for row in draws:
        hi, lo = int(row.argmax()), int(row.argmin())
        if hi != lo:
            key = (min(hi, lo), max(hi, lo))
            counts[key] = counts.get(key, 0) + 1
    ordered = sorted(counts, key=lambda k: (-counts[k], k[0] * g + k[1]))
    kept, total = [], 0
    for key in ordered:
        kept.append(key)
        total += counts[key]
        if total >= 0.99 * sum(counts.values()):
            break
    pairs = kept + [(b, a) for a, b in kept]
    if ratio:
        values = np.column_stack([-(draws[:, a] / draws[:, b]) for a, b in pairs])
    else:
        values = np.column_stack([draws[:, a] - draws[:, b] for a, b in pairs])
    # SciPy 1.18 returns ranks as floats, whatever the method: cast, they index below.
    ranks = np.column_stack([rankdata(values[:, j], method="ordinal").astype(np.intp) - 1
                             for j in range(values.shape[1])])
    least = np.sort(ranks.min(axis=1))
    k = least[int(np.floor(tail * n))]
    assert np.mean(ranks.min(axis=1) >= k) >= 1 - tail
    bound = max(np.sort(values[:, j])[k] for j in range(values.shape[1]))
    return min(1.0, -bound) if ratio else max(0.0, bound)


def test_anchored_end_from_pairwise_bounds():
    # Four groups of 200 positives with recall 0.95, 0.85, 0.75, 0.6 (well apart): the
    # anchored lower end of the spread is the largest pairwise lower bound at a common
    # level (brute force above), above parity and above the simultaneous bounds' lower
    # end, which adds two groups' separate errors; the ratio's upper end likewise.
    from skprobeval import PosteriorMetricFrame

    rates = (0.95, 0.85, 0.75, 0.6)
    y_pred = np.concatenate([np.r_[np.ones(round(200 * r)), np.zeros(200 - round(200 * r))]
                             for r in rates]).astype(int)
    frame = PosteriorMetricFrame(metrics="recall", y_true=np.ones(800, dtype=int),
                                 y_pred=y_pred, sensitive_features=np.repeat(list("abcd"), 200),
                                 n_draws=4000, random_state=0)
    gap, ratio = frame.difference(), frame.ratio()
    for confidence in (0.95, 0.8):
        tail = (1 - confidence) / 2
        low = gap.interval(confidence)[0]
        assert low == pytest.approx(_anchored_by_brute_force(gap.draws[0], tail), abs=1e-15)
        assert 0.2 < low < 0.35
        assert low > gap.interval(confidence, kind="simultaneous")[0]
        high = ratio.interval(confidence)[1]
        assert high == pytest.approx(_anchored_by_brute_force(ratio.draws[0], tail, True),
                                     abs=1e-15)
        assert 0.6 / 0.95 < high < ratio.interval(confidence, kind="simultaneous")[1]


def test_spread_bounds_cover_equal_groups():
    # Four groups with the same true positive rate (0.8), 40 positives each: the
    # spread's truth is 0, which its posterior's credible interval never holds
    # (its lower end is above 0 in every sample); the default interval's lower end
    # (the simultaneous bound) holds it in at least 95% of samples (the bound holds
    # whenever every group's interval holds its rate: probability >= 0.95).
    from skprobeval import PosteriorMetricFrame

    rng = np.random.default_rng(2)
    covered = credible = 0
    reps = 120
    group = np.repeat(np.arange(4), 40)
    for rep in range(reps):
        y_pred = (rng.random(160) < 0.8).astype(int)
        gap = PosteriorMetricFrame(metrics="recall", y_true=np.ones(160, dtype=int),
                                   y_pred=y_pred, sensitive_features=group, n_draws=2000,
                                   random_state=rep).difference()
        covered += gap.interval(0.95)[0] <= 0.0
        credible += gap.interval(0.95, kind="posterior")[0] <= 0.0
    assert covered / reps >= 0.95
    assert credible == 0
