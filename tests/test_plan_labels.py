"""`plan_labels`: which items to label, the allocation it chooses, and bad input."""

import json

import numpy as np
import pytest

from skprobeval import compare_paired_metric, metric_posterior, plan_labels
from skprobeval._posteriors._proxy import PROXY_LEAN
from skprobeval._workflow._plan_labels import _allocate

FAST = {"n_sims": 20, "n_draws": 300, "random_state": 0}


def _pool(n=3_000, agreement=0.95, seed=0, k=2):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, size=n)
    pred = np.where(rng.random(n) < 0.85, y, (y + rng.integers(1, k, size=n)) % k)
    proxy = np.where(rng.random(n) < agreement, y, (y + rng.integers(1, k, size=n)) % k)
    return y, pred, proxy


def _labelled(y, count):
    gold = np.full(y.shape[0], np.nan)
    gold[:count] = y[:count]
    return gold


def test_items_are_unlabelled_distinct_and_match_the_allocation():
    y, pred, proxy = _pool()
    gold = _labelled(y, 150)
    plan = plan_labels(pred, proxy, metric="accuracy", budget=250, labelled=gold, **FAST)
    items = plan.items
    assert items.shape == (250,) and np.unique(items).shape == (250,)
    assert np.all(np.diff(items) > 0) and np.all(np.isnan(gold[items]))
    frame = plan.allocation
    assert frame["to_label"].sum() == 250 and frame["labelled"].sum() == 150
    assert frame["items"].sum() == 3_000
    # Every stratum's items to label are the allocation's.
    for (p, q), row in frame.iterrows():
        in_stratum = (proxy[items] == p) & (pred[items] == q)
        assert in_stratum.sum() == row["to_label"]
        assert row["rate"] == pytest.approx((row["labelled"] + row["to_label"]) / row["items"])
    assert plan.n_items == 3_000 and plan.n_labelled == 150 and plan.budget == 250


def test_labels_go_where_proxy_and_prediction_disagree():
    y, pred, proxy = _pool(agreement=0.95)
    plan = plan_labels(pred, proxy, metric="accuracy", budget=300, labelled=_labelled(y, 200),
                       **FAST)
    frame = plan.allocation
    agree = np.array([p == q for p, q in frame.index])
    rate = (frame["labelled"] + frame["to_label"]) / frame["items"]
    assert rate[~agree].min() > 2 * rate[agree].max()
    # Narrower than labelling at random, by more than the Monte Carlo error.
    gap = plan.expected_width_random - plan.expected_width
    assert gap > 3 * np.hypot(plan.expected_width_se, plan.expected_width_random_se)
    assert plan.candidates[plan.method] == plan.candidates.min()
    assert plan.width_now > plan.expected_width


def _lean(proxy, gold):
    """The share of a gold label's cell prior on a proxy value (one binary system)."""
    return PROXY_LEAN if proxy == gold else 1.0 - PROXY_LEAN


def test_accuracy_spread_is_the_bernoulli_sd_of_being_right():
    # Independent route: accuracy's influence function is 1[gold = prediction] - accuracy,
    # so within a stratum its sd is sqrt(q (1 - q)), q the posterior mean share of the
    # stratum's gold labels equal to its prediction (the cell prior 0.5 of each gold
    # label split over the proxy's two values, PROXY_LEAN of it where they agree).
    y, pred, proxy = _pool(agreement=0.9, seed=3)
    gold = _labelled(y, 400)
    plan = plan_labels(pred, proxy, metric="accuracy", budget=10, labelled=gold, **FAST)
    known = ~np.isnan(gold)
    for (p, q), row in plan.allocation.iterrows():
        inside = known & (proxy == p) & (pred == q)
        right = np.count_nonzero(y[inside] == q)
        # The one-system cell prior 0.5 on every (gold, prediction) cell (binary),
        # split over the proxy's two values.
        share = (right + 0.5 * _lean(p, q)) / (inside.sum() + 0.5)
        assert row["sd"] == pytest.approx(np.sqrt(share * (1 - share)), rel=1e-4)


def test_recall_spread_matches_its_influence_function():
    # Recall's influence function: (1[gold = 1] (1[pred = 1] - R)) / P(gold = 1).
    y, pred, proxy = _pool(agreement=0.9, seed=4)
    gold = _labelled(y, 500)
    plan = plan_labels(pred, proxy, metric="recall", budget=10, labelled=gold, **FAST)
    known = ~np.isnan(gold)
    # The posterior mean table, rebuilt by hand from the same counts and prior.
    shares, positives = {}, {}
    for p in (0, 1):
        for q in (0, 1):
            inside = known & (proxy == p) & (pred == q)
            w = (np.count_nonzero((proxy == p) & (pred == q)) + 0.5) / (3_000 + 2.0)
            pos = (np.count_nonzero(y[inside] == 1) + 0.5 * _lean(p, 1)) / (inside.sum() + 0.5)
            shares[p, q], positives[p, q] = w, pos
    prevalence = sum(shares[s] * positives[s] for s in shares)
    recall = sum(shares[p, 1] * positives[p, 1] for p in (0, 1)) / prevalence
    for (p, q), row in plan.allocation.iterrows():
        value = ((q == 1) - recall) / prevalence
        expected = abs(value) * np.sqrt(positives[p, q] * (1 - positives[p, q]))
        assert row["sd"] == pytest.approx(expected, rel=1e-3)


def test_without_gold_labels_the_accuracy_plan_is_proportional():
    # The prior makes the gold label a coin toss in every stratum: accuracy's
    # spread is then 1/2 everywhere.
    _, pred, proxy = _pool(n=2_000, seed=5)
    plan = plan_labels(pred, proxy, metric="accuracy", budget=400, **FAST)
    frame = plan.allocation
    expected = 400 * frame["items"] / frame["items"].sum()
    assert np.all(np.abs(frame["to_label"] - expected) <= 1.0)
    assert plan.width_now is None and plan.n_labelled == 0


def test_every_stratum_keeps_its_minimum():
    y, pred, proxy = _pool(n=2_000, agreement=0.98, seed=6)
    plan = plan_labels(pred, proxy, metric="accuracy", budget=60, labelled=_labelled(y, 20),
                       min_per_stratum=5, **FAST)
    frame = plan.allocation
    after = frame["labelled"] + frame["to_label"]
    assert np.all(after >= np.minimum(5, frame["items"]))


def test_two_systems_plan_for_the_difference():
    y, a, proxy = _pool(seed=7)
    rng = np.random.default_rng(8)
    b = np.where(rng.random(y.shape[0]) < 0.85, y, 1 - y)
    gold = _labelled(y, 200)
    plan = plan_labels({"a": a, "b": b}, proxy, metric="accuracy", budget=200, labelled=gold,
                       **FAST)
    frame = plan.allocation
    assert list(frame.index.names) == ["proxy", "a", "b"]
    # Where both systems predict alike the difference does not depend on the gold label.
    same = np.array([q == r for _, q, r in frame.index])
    assert np.allclose(frame["sd"][same], 0.0, atol=1e-6)
    assert frame["to_label"][~same].sum() > frame["to_label"][same].sum()
    # The labels then feed the paired comparison with a proxy.
    gold[plan.items] = y[plan.items]
    result = compare_paired_metric(gold, a, b, metric="accuracy", proxy=proxy, n_draws=2_000,
                                   random_state=0)
    assert 0.0 <= result.prob_first_better <= 1.0
    assert plan.summary()["systems"] == ["a", "b"]
    assert plan_labels([a, b], proxy, budget=50, labelled=gold, **FAST).allocation.index.names \
        == ["proxy", "A", "B"]


def test_multiclass_and_string_labels():
    y, pred, proxy = _pool(n=1_500, k=3, seed=9)
    names = np.array(["ant", "bee", "cat"])
    gold = np.array([names[v] for v in y], dtype=object)
    gold[300:] = None
    plan = plan_labels(names[pred], names[proxy], metric="f1", average="macro", budget=100,
                       labelled=gold, **FAST)
    assert plan.items.shape == (100,) and all(gold[i] is None for i in plan.items)
    assert set(plan.allocation.index.get_level_values("proxy")) <= set(names)
    assert np.isfinite(plan.expected_width) and plan.expected_width > 0


def test_seeded_and_reproducible():
    y, pred, proxy = _pool(seed=10)
    gold = _labelled(y, 100)
    first = plan_labels(pred, proxy, budget=80, labelled=gold, **FAST)
    second = plan_labels(pred, proxy, budget=80, labelled=gold, **FAST)
    np.testing.assert_array_equal(first.items, second.items)
    assert first.expected_width == second.expected_width


def test_result_interface():
    y, pred, proxy = _pool(n=800, seed=11)
    plan = plan_labels(pred, proxy, budget=50, labelled=_labelled(y, 80), **FAST)
    content = json.loads(json.dumps(plan.to_dict()))
    assert content["budget"] == 50 and len(content["items"]) == 50
    assert "expected_width" in plan._repr_html_() or "wide" in plan._repr_html_()
    assert "LabelPlan(budget=50" in repr(plan)


def test_allocate_meets_bounds_and_total():
    rng = np.random.default_rng(12)
    for _ in range(200):
        size = rng.integers(1, 9)
        high = rng.integers(0, 50, size=size)
        low = np.minimum(rng.integers(0, 5, size=size), high)
        total = int(rng.integers(low.sum(), high.sum() + 1))
        weight = rng.random(size) * (rng.random(size) > 0.2)
        counts = _allocate(weight, low, high, total)
        assert counts.sum() == total
        assert np.all(counts >= low) and np.all(counts <= high)


def test_allocate_is_proportional_where_no_bound_binds():
    counts = _allocate(np.array([1.0, 2.0, 3.0, 4.0]), np.zeros(4, int), np.full(4, 1000), 100)
    np.testing.assert_array_equal(counts, [10, 20, 30, 40])


@pytest.mark.parametrize(("kwargs", "name"), [
    ({"budget": 0}, "budget"),
    ({"budget": 10_000}, "budget"),
    ({"budget": 2.5}, "budget"),
    ({"budget": True}, "budget"),
    ({"budget": 10, "proxy": np.zeros(5, int)}, "proxy"),
    ({"budget": 10, "proxy": np.where(np.arange(600) < 3, np.nan, 1.0)}, "proxy"),
    ({"budget": 10, "proxy": np.full(600, 7)}, "proxy"),
    ({"budget": 10, "labelled": np.zeros(4)}, "labelled"),
    ({"budget": 10, "metric": len}, "metric"),
    ({"budget": 10, "average": None}, "average"),
    ({"budget": 10, "n_sims": 3}, "n_sims"),
    ({"budget": 10, "min_per_stratum": -1}, "min_per_stratum"),
])
def test_bad_input_names_the_argument(kwargs, name):
    y, pred, proxy = _pool(n=600, seed=13)
    arguments = {"proxy": proxy, "labelled": _labelled(y, 50), **kwargs}
    with pytest.raises((ValueError, TypeError), match=rf"\b{name}\b"):
        plan_labels(pred, **arguments, n_draws=200)


def test_bad_systems():
    y, pred, proxy = _pool(n=200, seed=14)
    with pytest.raises(ValueError, match="y_pred"):
        plan_labels([pred, pred, pred], proxy, budget=5)
    with pytest.raises(TypeError, match="y_pred"):
        plan_labels(np.stack([pred, pred], axis=1), proxy, budget=5)
    with pytest.raises(ValueError, match="y_pred"):
        plan_labels({"a": pred, "b": pred[:100]}, proxy, budget=5)


def test_planned_labels_give_a_narrower_posterior_than_random_ones():
    # One pool, the realised widths: the planned labels against as many at random.
    y, pred, proxy = _pool(n=4_000, agreement=0.95, seed=15)
    gold = _labelled(y, 100)
    plan = plan_labels(pred, proxy, budget=300, labelled=gold, **FAST)
    planned = gold.copy()
    planned[plan.items] = y[plan.items]
    at_random = _labelled(y, 400)
    widths = [np.subtract(*metric_posterior(g, pred, metric="accuracy", proxy=proxy,
                                            n_draws=4_000, random_state=0).interval()[::-1])
              for g in (planned, at_random)]
    assert widths[0] < widths[1]


@pytest.mark.slow
def test_efficiency_benchmark_quick_mode():
    from benchmarks import plan_labels_efficiency

    (row,) = plan_labels_efficiency.main(quick=True)
    assert row["pools"] == 20
    assert 0 < row["width_planned"] and 0 < row["width_random"]
    assert row["label_share"] < 1.0


def test_command_line(tmp_path, capsys):
    import pandas as pd

    from skprobeval.cli import main

    y, pred, proxy = _pool(n=1_500, seed=16)
    rng = np.random.default_rng(17)
    other = np.where(rng.random(y.shape[0]) < 0.8, y, 1 - y)
    gold = pd.array(y, dtype="Int64")
    gold[100:] = pd.NA
    path = tmp_path / "pool.csv"
    pd.DataFrame({"id": [f"item{i}" for i in range(y.shape[0])], "gold": gold, "model": pred,
                  "other": other, "judge": proxy}).to_csv(path, index=False)
    common = [str(path), "--truth", "gold", "--proxy", "judge", "--n-sims", "20"]
    assert main(["plan-labels", *common, "--systems", "model", "--budget", "60"]) == 0
    text = capsys.readouterr().out
    assert "1500 rows, 100 with a gold label" in text and "proxy model" in text
    assert main(["plan-labels", *common, "--systems", "model", "other", "--budget", "40",
                 "--format", "csv"]) == 0
    rows = pd.read_csv(__import__("io").StringIO(capsys.readouterr().out))
    assert rows.shape[0] == 40 and rows["gold"].isna().all()
    assert list(rows.columns) == ["row", "id", "gold", "model", "other", "judge"]
    assert (rows["id"] == [f"item{i}" for i in rows["row"]]).all()
    # The rows are the plan's: the same call from Python.
    plan = plan_labels({"model": pred, "other": other}, proxy, budget=40,
                       labelled=np.where(np.arange(y.shape[0]) < 100, y, np.nan), n_sims=20,
                       random_state=0)
    np.testing.assert_array_equal(rows["row"], plan.items)
    assert main(["plan-labels", *common, "--systems", "model", "--budget", "5",
                 "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["budget"] == 5
    # Without --format, a .csv output gets the rows to label, as --format csv prints them.
    assert main(["plan-labels", *common, "--systems", "model", "other", "--budget", "40",
                 "--output", str(tmp_path / "next.csv")]) == 0
    written = pd.read_csv(tmp_path / "next.csv")
    np.testing.assert_array_equal(written["row"], plan.items)
    assert main(["plan-labels", *common, "--budget", "5"]) == 2      # id, model, other
    assert "--systems" in capsys.readouterr().err
    assert main(["plan-labels", *common, "--systems", "model", "--budget", "0"]) == 2
    assert "budget" in capsys.readouterr().err


def test_too_many_labels_for_the_table_are_refused():
    rng = np.random.default_rng(18)
    y = rng.integers(0, 20, size=2_000)
    with pytest.raises(ValueError, match="`y_pred`.*cells"):
        plan_labels([y, y[::-1]], y, metric="f1", average="macro", budget=10, **FAST)


def test_labels_beyond_the_informative_strata_are_flagged():
    # Two systems that disagree on few items: the difference depends on the gold label
    # only there; a budget beyond those items is said to inform nothing more.
    y, a, proxy = _pool(n=1_000, seed=19)
    b = a.copy()
    b[:40] = 1 - b[:40]
    gold = _labelled(y, 60)
    with pytest.warns(UserWarning, match=r"labels go to \(proxy, prediction\) strata where"):
        plan = plan_labels({"a": a, "b": b}, proxy, budget=300, labelled=gold, **FAST)
    frame = plan.allocation
    differ = np.array([q != r for _, q, r in frame.index])
    assert (frame["labelled"] + frame["to_label"])[differ].sum() == frame["items"][differ].sum()


def test_nothing_left_to_label_is_refused():
    y, pred, proxy = _pool(n=300, seed=20)
    with pytest.raises(ValueError, match="`labelled`.*nothing is left"):
        plan_labels(pred, proxy, budget=5, labelled=y.astype(float), **FAST)


def test_command_line_warnings_are_one_line(tmp_path, capsys):
    import pandas as pd

    from skprobeval.cli import main

    y, pred, proxy = _pool(n=2_000, agreement=0.99, seed=21)
    gold = pd.array(y, dtype="Int64")
    gold[6:] = pd.NA
    path = tmp_path / "few.csv"
    pd.DataFrame({"gold": gold, "model": pred, "judge": proxy}).to_csv(path, index=False)
    assert main(["compare", str(path), "--truth", "gold", "--proxy", "judge"]) == 0
    err = capsys.readouterr().err
    assert err.startswith("skprobeval: warning: ") and "Warning" not in err
    assert main(["plan-labels", str(path), "--truth", "gold", "--proxy", "judge",
                 "--budget", "-3"]) == 2
    assert "--budget must be" in capsys.readouterr().err


def test_review_edge_cases():
    import warnings

    # A proxy label that only `labels` names is accepted, as the posterior accepts it.
    rng = np.random.default_rng(22)
    y = rng.integers(0, 2, size=600)
    pred = np.where(rng.random(600) < 0.85, y, 1 - y)
    proxy = np.where(rng.random(600) < 0.9, y, 2)
    gold = _labelled(y, 100)
    plan = plan_labels(pred, proxy, metric="recall", average="macro", labels=[0, 1, 2],
                       budget=20, labelled=gold, **FAST)
    assert plan.items.shape == (20,)
    # Gold labels all in one stratum of several: no current width (the posterior refuses).
    y, pred, proxy = _pool(n=300, seed=23)
    inside = np.flatnonzero((proxy == 1) & (pred == 1))[:20]
    one = np.full(300, np.nan)
    one[inside] = y[inside]
    assert plan_labels(pred, proxy, budget=10, labelled=one, **FAST).width_now is None
    # A budget too small for every stratum's minimum says so.
    with pytest.warns(UserWarning, match="min_per_stratum=5"):
        plan_labels(pred, proxy, budget=3, min_per_stratum=5, **FAST)
    # Candidates that coincide are named together.
    plan = plan_labels(pred, proxy, budget=40, **FAST)
    assert "proportional" in plan.method and " = " in plan.method
    # Huge weights: no overflow while the weighted strata are labelled whole.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        counts = _allocate(np.array([1e10, 0.0]), np.array([0, 0]), np.array([5, 100]), 50)
    np.testing.assert_array_equal(counts, [5, 45])


def test_command_line_csv_with_a_row_column(tmp_path, capsys):
    import io

    import pandas as pd

    from skprobeval.cli import main

    y, pred, proxy = _pool(n=400, seed=24)
    gold = pd.array(y, dtype="Int64")
    gold[50:] = pd.NA
    path = tmp_path / "rows.csv"
    pd.DataFrame({"row": np.arange(400) * 10, "gold": gold, "model": pred,
                  "judge": proxy}).to_csv(path, index=False)
    assert main(["plan-labels", str(path), "--truth", "gold", "--proxy", "judge", "--systems",
                 "model", "--budget", "7", "--n-sims", "10", "--format", "csv"]) == 0
    rows = pd.read_csv(io.StringIO(capsys.readouterr().out))
    assert list(rows.columns)[:2] == ["_row", "row"] and (rows["row"] == rows["_row"] * 10).all()
