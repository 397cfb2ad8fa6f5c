"""plan_test_size: the items a test set needs for an interval of a given width.

The exact route is checked against a brute-force sum over every test set's counts
and against simulated test sets (metric_posterior on each); the simulated route
against test sets drawn at the planned size."""

import json

import numpy as np
import pytest
from scipy import stats

from skprobeval import ConfusionCounts, ConfusionMatrix, get_metric, metric_posterior
from skprobeval import plan_test_size as plan
from skprobeval._workflow._plan_size import _beta_route, _prob_within, _widths


def _brute_force(n, share, p, route, width, lam=0.5, confidence=0.95):
    """P(width <= width) summed over every (m, k) of n items."""
    total = 0.0
    for m in range(n + 1) if share < 1 else [n]:
        weight = stats.binom.pmf(m, n, share) if share < 1 else 1.0
        if weight < 1e-14:
            continue
        ks = np.arange(m + 1, dtype=float)
        widths = _widths(ks, np.full(m + 1, float(m)), route, lam, confidence)
        total += weight * np.sum(stats.binom.pmf(ks, m, p) * (widths <= width))
    return total


@pytest.mark.parametrize("metric, share, p, n, width", [
    ("precision", 0.3, 0.8, 300, 0.18),
    ("f1", 0.6, 0.6, 400, 0.10),
    ("f1", 0.3, 0.5, 300, 0.20),
    ("accuracy", 1.0, 0.8, 300, 0.09),
    ("precision", 0.5, 0.99, 200, 0.05),
    ("specificity", 0.7, 0.95, 150, 0.08),
])
def test_the_exact_sum_is_the_brute_force_one(metric, share, p, n, width):
    route = _beta_route(get_metric(metric).exact, 1.0)
    # Roots interpolated between 81 values of m: within 0.001 of every term's sum.
    assert _prob_within(n, share, p, route, 0.5, 0.95, width) == pytest.approx(
        _brute_force(n, share, p, route, width), abs=1e-3)


def test_the_f1_route_is_the_library_posterior():
    # F1 through the Jaccard index's Beta: the same interval as FBetaPosterior's.
    route = _beta_route(get_metric("f1").exact, 1.0)
    counts = ConfusionCounts(tp=40, fp=10, fn=8, tn=42)
    low, high = metric_posterior(counts, metric="f1").interval(0.9)
    assert _widths(np.array(40.0), np.array(58.0), route, 0.5, 0.9) == pytest.approx(
        high - low, rel=1e-9)


def test_the_planned_size_is_the_smallest_within_two_percent():
    result = plan(metric="recall", width=0.1, expected=0.9, prevalence=0.2)
    assert result.method == "exact" and result.prob_within >= 0.8
    route = _beta_route(get_metric("recall").exact, 1.0)
    smaller = int(result.n_items / 1.02) - 1
    # Below 2% less, no size reaches the assurance (a scan of every fourth size).
    assert all(_prob_within(n, 0.2, 0.9, route, 0.5, 0.95, 0.1) < 0.8
               for n in range(max(1, smaller - 40), smaller, 4))


def test_a_pilot_and_its_expected_value_plan_alike():
    # A pilot whose recall side has shares 0.18 / 0.02 of the items: recall 0.9 on 20%.
    pilot = ConfusionCounts(tp=18_000, fp=4_000, fn=2_000, tn=76_000)
    from_pilot = plan(metric="recall", width=0.1, pilot=pilot)
    from_expected = plan(metric="recall", width=0.1, expected=0.9, prevalence=0.2)
    assert from_pilot.population["tp"] == pytest.approx(0.18, abs=1e-5)
    # The same population to 1e-5: the same size to the search's 2%.
    assert from_pilot.n_items == pytest.approx(from_expected.n_items, rel=0.02)


def test_a_two_by_two_matrix_is_the_binary_table():
    table = ConfusionCounts(tp=80, fp=12, fn=20, tn=88)
    matrix = np.array([[88, 12], [20, 80]])
    assert (plan(metric="f1", width=0.05, pilot=matrix).n_items
            == plan(metric="f1", width=0.05, pilot=table).n_items
            == plan(metric="f1", width=0.05, pilot=ConfusionMatrix(matrix)).n_items)


def test_the_result_shows_itself():
    result = plan(metric="precision", width=0.1, expected=0.8, prevalence=0.3, random_state=0)
    summary = result.summary()
    assert summary["n_items"] == result.n_items and summary["method"] == "exact"
    assert abs(summary["width_at_assurance"] - 0.1) < 0.01
    assert json.loads(json.dumps(result.to_dict()))["population"]["tp"] == pytest.approx(0.24)
    curve = result.curve([result.n_items // 4, result.n_items, 4 * result.n_items])
    assert curve["median_width"].is_monotonic_decreasing
    assert "TestSizePlan(n_items=" in repr(result) and "0.8" in repr(result)


def test_the_simulated_route_meets_its_assurance():
    pilot = ConfusionCounts(tp=80, fp=12, fn=20, tn=88)
    result = plan(metric="informedness", width=0.15, pilot=pilot, n_sims=200, random_state=0)
    assert result.method == "simulation" and result.mc_error > 0
    assert result.prob_within >= 0.8 - 4 * result.mc_error
    assert abs(np.quantile(result.widths, 0.8) - 0.15) < 0.01


@pytest.mark.slow      # about 5 s: 2 000 test sets, each with its posterior
@pytest.mark.parametrize("metric, width", [("f1", 0.06), ("precision", 0.05)])
def test_simulated_test_sets_of_the_planned_size_meet_the_width(metric, width):
    pilot = ConfusionCounts(tp=80, fp=12, fn=20, tn=88)
    result = plan(metric=metric, width=width, pilot=pilot)
    shares = (np.array([80, 12, 20, 88]) + 0.5) / 202
    rng = np.random.default_rng(20261127)
    cells = rng.multinomial(result.n_items, shares, size=2000).astype(float)
    low, high = metric_posterior(ConfusionCounts(*cells.T), metric=metric).interval(0.95)
    within = np.mean(np.asarray(high) - np.asarray(low) <= width)
    se = np.sqrt(within * (1 - within) / 2000)
    assert within >= 0.8 - 0.03 - 4 * se and abs(within - result.prob_within) < 4 * se + 0.01


@pytest.mark.parametrize("arguments, match", [
    ({"width": 0.0, "expected": 0.8, "prevalence": 0.5}, "`width` must be a finite number > 0"),
    ({"width": 1.0, "expected": 0.8, "prevalence": 0.5}, "`width` must be less than the range"),
    ({"width": 0.1, "expected": 1.2, "prevalence": 0.5}, r"`expected` must be a value of "
                                                         r"precision in \[0, 1\]"),
    ({"width": 0.1, "expected": 0.8}, "`prevalence` must be given with `expected`"),
    ({"width": 0.1, "expected": 0.8, "prevalence": 0.0}, r"`prevalence` must be a share in"),
    ({"width": 0.1}, "`pilot` must be given, or else `expected`.*neither"),
    ({"width": 0.1, "expected": 0.8, "prevalence": 0.5, "pilot": ConfusionCounts(1, 2, 3, 4)},
     "`pilot` must be given, or else `expected`.*both"),
    ({"width": 0.1, "expected": 0.8, "prevalence": 0.5, "assurance": 1.0}, "`assurance`"),
    ({"width": 0.1, "pilot": np.ones((2, 3))}, "`pilot` must be a square K x K matrix"),
    ({"width": 0.1, "pilot": -np.ones((3, 3)), "average": "macro"},
     "`pilot` must be finite, non-negative counts"),
    ({"width": 0.1, "pilot": np.ones((3, 3))}, "`average` must be 'micro', 'macro' or "),
])
def test_bad_input_names_the_argument(arguments, match):
    with pytest.raises(ValueError, match=match):
        plan(metric="precision", **arguments)


def test_metrics_one_share_does_not_determine_need_a_pilot():
    with pytest.raises(ValueError, match="`expected` must be a pilot table instead"):
        plan(metric="informedness", width=0.1, expected=0.5, prevalence=0.3)
    with pytest.raises(TypeError, match="`metric` must be a registered metric name"):
        plan(metric=len, width=0.1, expected=0.5, prevalence=0.3)
    with pytest.raises(ValueError, match="`width` must be less than the range of mcc"):
        plan(metric="mcc", width=2.0, pilot=ConfusionCounts(5, 1, 1, 5))


def test_the_command_line_plans(tmp_path):
    from test_cli import run

    result = run("plan", "--metric", "recall", "--width", 0.1, "--expected", 0.9,
                 "--prevalence", 0.2)
    assert result.returncode == 0, result.stderr
    assert "items needed: 826 (exact; P(width <= 0.1) = 0.8189" in result.stdout
    matrix = tmp_path / "pilot.csv"
    matrix.write_text(",cat,dog,fox\ncat,50,5,3\ndog,6,40,4\nfox,2,3,30\n")
    result = run("plan", "--width", 0.2, "--pilot-file", matrix, "--n-draws", 500,
                 "--format", "json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["method"] == "simulation" and data["average"] == "macro"
    assert data["population"]["labels"] == ["cat", "dog", "fox"]
    for arguments, message in [
            (("--width", 0.1, "--pilot", "1,2,3"), "--pilot: four counts TP,FP,FN,TN"),
            (("--width", 0, "--expected", 0.8, "--prevalence", 0.3), "--width must be"),
            (("--width", 0.1, "--expected", 0.8), "--prevalence must be given"),
            (("--width", 0.1, "--pilot", "1,2,3,4", "--pilot-file", matrix), "not both")]:
        result = run("plan", *arguments)
        assert result.returncode == 2 and message in result.stderr, result.stderr


def test_the_command_line_plans_clusters_and_gold_labels():
    from test_cli import run

    recall = ("--metric", "recall", "--width", 0.1, "--expected", 0.9, "--prevalence", 0.2)
    result = run("plan", *recall, "--cluster-size", 10, "--icc", 0.2)
    assert result.returncode == 0, result.stderr
    # As plan_test_size(cluster_size=10, icc=0.2): 115 clusters, design effect 1.36.
    assert "clusters needed: 115 of 10 items (1150 items; exact;" in result.stdout
    assert "design effect: 1.3600 (icc 0.2)" in result.stdout
    result = run("plan", *recall, "--cluster-size", 10, "--icc", 0.2, "--format", "json")
    data = json.loads(result.stdout)
    assert (data["n_clusters"], data["n_items"], data["cluster_size"]) == (115, 1150, 10.0)
    result = run("plan", *recall, "--proxy-agreement", 0.95, "--pool-size", 5000,
                 "--n-sims", 50, "--n-draws", 1000)
    assert result.returncode == 0, result.stderr
    expected = plan(metric="recall", width=0.1, expected=0.9, prevalence=0.2,
                    proxy_agreement=0.95, pool_size=5000, n_sims=50, n_draws=1000,
                    random_state=0)
    assert (f"gold labels needed: {expected.n_items} of the 5000 items the proxy labels"
            in result.stdout)
    assert "without the proxy: 826 gold labels" in result.stdout
    for arguments, message in [
            (("--icc", 0.2), "--cluster-size must be given with --icc"),
            (("--cluster-size", 10), "--icc must be given with --cluster-size"),
            (("--pool-size", 5000), "--proxy-agreement must be given with --pool-size"),
            (("--cluster-size", 10, "--icc", 2), "--icc must be an intra-cluster correlation"),
            (("--proxy-agreement", 0.95, "--pool-size", 50),
             "--pool-size must be at least the 826 items"),
            (("--cluster-size", 10, "--icc", 0.2, "--proxy-agreement", 0.9, "--pool-size",
              5000), "--proxy-agreement must be None for a test set of clusters")]:
        result = run("plan", *recall, *arguments)
        assert result.returncode == 2 and message in result.stderr, result.stderr


@pytest.mark.slow      # about 4 s: the accuracy benchmark's quick mode
def test_the_accuracy_benchmark_runs_and_keeps_the_promise():
    from benchmarks import plan_accuracy

    (row,) = plan_accuracy.main(quick=True)
    assert row["within"] >= 0.8 - 0.03 - 4 * row["se"] and row["ratio"] <= 1.1


def test_the_sum_is_exact_where_every_k_turns_narrow_between_two_nodes():
    # Precision near 0.5 on 30% of 5 121 items: past some m every k is narrow; the nodes
    # on either side of it are in different cases, and every m between them is solved.
    route = _beta_route(get_metric("precision").exact, 1.0)
    value = _prob_within(5121, 0.3, 0.5, route, 0.5, 0.95, 0.05)
    mean, sd = 5121 * 0.3, np.sqrt(5121 * 0.21)
    total = 0.0
    for m in range(int(mean - 9 * sd), int(mean + 9 * sd)):
        ks = np.arange(m + 1, dtype=float)
        widths = _widths(ks, np.full(m + 1, float(m)), route, 0.5, 0.95)
        total += stats.binom.pmf(m, 5121, 0.3) * np.sum(stats.binom.pmf(ks, m, 0.5)
                                                          * (widths <= 0.05))
    assert value == pytest.approx(total, abs=1e-3)


def test_populations_from_an_expected_value_are_distributions():
    # Generality counts every cell: its prevalence is 1, whatever was passed.
    result = plan(metric="generality", width=0.05, expected=0.5, prevalence=0.3)
    assert sum(result.population.values()) == pytest.approx(1.0)
    assert result.n_items == plan(metric="accuracy", width=0.05, expected=0.5).n_items
    with pytest.raises(ValueError, match=r"`prevalence` must be at most 1 / \(2 - F\) = "
                                         r"0.6667 for f1 0.5"):
        plan(metric="f1", width=0.1, expected=0.5, prevalence=0.9)
    # NumPy numbers are numbers.
    assert plan(metric="precision", width=0.1, expected=np.int64(1),
                prevalence=np.array(0.3)).n_items > 0


def test_a_dataframe_pilot_is_read_by_its_labels_not_its_column_order():
    import pandas as pd

    ordered = pd.DataFrame([[5, 50], [40, 3]], index=["a", "b"], columns=["a", "b"])
    shuffled = ordered[["b", "a"]]
    assert (plan(metric="precision", width=0.1, pilot=shuffled, pos_label="b").population
            == plan(metric="precision", width=0.1, pilot=ordered, pos_label="b").population)
    with pytest.raises(ValueError, match="`pilot` must be a K x K DataFrame whose columns"):
        plan(metric="precision", width=0.1,
             pilot=pd.DataFrame([[1, 2], [3, 4]], index=["a", "b"], columns=["a", "c"]))


def test_an_unreachable_width_is_refused_on_both_routes():
    for route in ({"metric": "precision", "expected": 0.5, "prevalence": 0.3},
                  {"metric": "mcc", "pilot": ConfusionCounts(30, 5, 4, 61), "n_sims": 20,
                   "n_draws": 200}):
        with pytest.raises(ValueError, match="`width` must be a width reachable with at most"):
            plan(width=1e-7, **route)


def test_plans_compare_by_identity_and_name_their_type():
    result = plan(metric="recall", width=0.1, expected=0.9, prevalence=0.2)
    assert result == result and result != plan(metric="recall", width=0.1, expected=0.9,
                                              prevalence=0.2)
    assert isinstance(hash(result), int) and result.to_dict()["type"] == "TestSizePlan"


def test_two_by_two_pilot_takes_pos_label_as_every_entry_point_does():
    import pandas as pd

    pilot = ConfusionMatrix([[80, 20], [10, 90]], labels=["neg", "pos"])
    with pytest.raises(ValueError, match=r"`pos_label` must be one of the labels "
                                         r"\['neg', 'pos'\]; got 1"):
        plan(metric="precision", width=0.1, pilot=pilot)
    # The same table with its labels swapped and pos_label naming the same class: the
    # same plan; unlabelled, the second row (label 1).
    named = plan(metric="precision", width=0.1, pilot=pilot, pos_label="pos")
    swapped = pd.DataFrame([[90, 10], [20, 80]], index=["pos", "neg"], columns=["pos", "neg"])
    assert plan(metric="precision", width=0.1, pilot=swapped,
                          pos_label="pos").n_items == named.n_items
    assert plan(metric="precision", width=0.1,
                          pilot=[[80, 20], [10, 90]]).n_items == named.n_items
    other = plan(metric="precision", width=0.1, pilot=pilot, pos_label="neg")
    assert other.n_items != named.n_items


@pytest.mark.slow      # about 15 s: the breast-cancer pilot, a clustered pilot, a proxy plan
def test_the_user_guide_page_runs():
    import doctest
    import pathlib

    page = pathlib.Path(__file__).resolve().parents[1] / "docs" / "user_guide" / "planning.rst"
    result = doctest.testfile(str(page), module_relative=False,
                              optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    assert result.attempted >= 20 and result.failed == 0
