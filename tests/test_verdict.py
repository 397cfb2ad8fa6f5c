"""The verdict every comparison report opens with: its claims are the report's own
tables read out (the leader has the largest P(best); a pair called decided has P
above the level; a pair called equivalent has P(equivalent) above it), in every
form of the report."""

import dataclasses
import json
import re

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_breast_cancer
from sklearn.model_selection import cross_validate
from sklearn.naive_bayes import GaussianNB
from sklearn.tree import DecisionTreeClassifier

from skprobeval import compare_counts, compare_cv_results, compare_predictions
from skprobeval._workflow._verdict import ReportVerdict

FAST = {"n_draws": 2_000}


def _systems(n=400, accuracies=(0.9, 0.86, 0.7), n_classes=2, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, n_classes, n)
    predictions = {}
    for k, accuracy in enumerate(accuracies):
        wrong = rng.random(n) > accuracy
        predictions[f"s{k}"] = np.where(wrong, (y + rng.integers(1, n_classes, n)) % n_classes,
                                        y)
    return y, predictions


def _check_claims(report, verdict):
    """Every claim of `verdict` against the report's tables."""
    level = report.confidence
    prob_best = report.ranking.prob_best
    assert verdict.leader == prob_best.idxmax()
    assert verdict.prob_best == pytest.approx(prob_best.max())
    assert verdict.leader_decided == (prob_best.max() > level)
    row = report.summary.loc[verdict.leader]
    assert (verdict.low, verdict.high) == (row["low"], row["high"])
    # The pairs' probabilities: the ranking's pairwise table (the posterior of P(best)).
    pairwise = report.ranking.pairwise
    for better, worse, prob in verdict.decided.itertuples(index=False):
        assert pairwise.loc[better, worse] == pytest.approx(prob) and prob > level
        # Coherent: no system is best more often than it beats the leader.
        assert prob_best[worse] <= 1 - prob + 1e-9
    for first, second, prob in verdict.equivalent.itertuples(index=False):
        assert prob == pytest.approx(1 - pairwise.loc[first, second]
                                     - pairwise.loc[second, first])
        assert prob > level
    for row in verdict.undecided.itertuples(index=False):
        assert max(row.prob_first_better, row.prob_second_better) <= level
        assert row.prob_first_better == pytest.approx(pairwise.loc[row.first, row.second])
    # Every pair is in exactly one of the three tables.
    n = len(prob_best)
    assert len(verdict.decided) + len(verdict.equivalent) + len(verdict.undecided) == (
        n * (n - 1) // 2)
    assert prob_best[verdict.leader] <= min(
        [1.0] + [p for b, w, p in verdict.decided.itertuples(index=False)
                 if b == verdict.leader]) + 1e-9
    # The figures in the sentences are the table's.
    assert f"P(best) {verdict.prob_best:.3f}" in verdict.text
    assert str(verdict.leader) in verdict.text.split(" leads")[0]


@pytest.mark.parametrize("rope", [0.0, 0.05])
@pytest.mark.parametrize("n_classes, average", [(2, "binary"), (4, "macro"), (4, "micro")])
def test_claims_of_reports_from_predictions(rope, n_classes, average):
    y, predictions = _systems(n_classes=n_classes)
    report = compare_predictions(y, predictions, average=average, rope=rope, **FAST)
    verdict = report.verdict(plan=False)
    _check_claims(report, verdict)
    assert verdict.leader == "s0"
    assert verdict.decided.values.tolist()[-1][:2] == ["s1", "s2"]


def test_claims_of_equivalent_systems():
    y, predictions = _systems(n=2_000, accuracies=(0.9, 0.9, 0.9), seed=3)
    report = compare_predictions(y, predictions, rope=0.05, **FAST)
    verdict = report.verdict(plan=False)
    _check_claims(report, verdict)
    assert len(verdict.equivalent) == 3
    assert "Practically equivalent within 0.05 at 95%" in verdict.text


def test_claims_of_fold_scores_and_counts():
    X, y = load_breast_cancer(return_X_y=True)
    models = {"tree": DecisionTreeClassifier(max_depth=3, random_state=0), "nb": GaussianNB()}
    folds = compare_cv_results({name: cross_validate(model, X, y, cv=5)
                                for name, model in models.items()})
    _check_claims(folds, folds.verdict())
    assert "fold scores" in folds.verdict().plan_note
    counts = compare_counts(pd.DataFrame({"system": ["a", "b", "c"], "tp": [50, 45, 30],
                                          "fp": [5, 6, 20], "fn": [5, 8, 25],
                                          "tn": [90, 91, 75]}), **FAST)
    verdict = counts.verdict()
    _check_claims(counts, verdict)
    assert "independent systems" in verdict.plan_note


def test_every_form_opens_with_the_verdict():
    y, predictions = _systems()
    report = compare_predictions(y, predictions, **FAST)
    text = report.verdict(plan=False).text
    assert str(report).split("\n\n")[1].replace("\n", " ") == f"Verdict: {text}"
    assert report.to_markdown().startswith(f"### Verdict\n\n{text}\n\n### Summary")
    page = report.to_html()
    first_section = page.index("<section>")
    assert page.index("<h2>Verdict</h2>") == first_section + len("<section>")
    notebook = report._repr_html_()
    assert notebook.index("class='verdict'") < notebook.index("<table")
    as_dict = json.loads(json.dumps(report.to_dict()))
    assert as_dict["verdict"]["leader"] == "s0"
    assert as_dict["verdict"]["text"] == text
    assert as_dict["ranking"]["prob_best"]["s0"] == report.ranking.prob_best["s0"]


def test_more_items_are_estimated_on_request_and_shown():
    # Two close systems: the leader is not decided; the plan says how many more items.
    y, predictions = _systems(n=300, accuracies=(0.85, 0.83), seed=2)
    report = compare_predictions(y, predictions, **FAST)
    quiet = report.verdict(plan=False)
    assert not quiet.leader_decided and quiet.plan is None and quiet.more_items is None
    assert "report.verdict(plan=True)" in quiet.text
    verdict = report.verdict(plan=True, random_state=0)
    assert verdict.plan is not None and verdict.plan.target == report.confidence
    assert verdict.more_items == verdict.plan.n_items
    sentence = (f"About {verdict.more_items} more test items would likely decide it"
                if verdict.more_items is not None else "would not decide it")
    assert sentence in verdict.text
    # Seeded: the same estimate again.
    assert report.verdict(plan=True, random_state=0).more_items == verdict.more_items
    # Every rendering now shows the estimate.
    for shown in (str(report).replace("\n", " "), report.to_markdown(), report.to_html()):
        assert re.search(r"more test items would", shown)
    assert report.to_dict()["verdict"]["more_items"] == verdict.more_items
    assert report.to_dict()["verdict"]["assurance"] == 0.8


def test_clustered_reports_say_why_more_items_are_not_estimated():
    y, predictions = _systems(n=400, accuracies=(0.85, 0.84), seed=0)
    report = compare_predictions(y, predictions, groups=np.repeat(np.arange(40), 10), **FAST)
    verdict = report.verdict(plan=True)
    _check_claims(report, verdict)
    assert verdict.plan is None and "items in clusters" in verdict.plan_note


def test_no_verdict_says_why():
    y, predictions = _systems()
    per_label = compare_predictions(y, predictions, average=None, **FAST)
    verdict = per_label.verdict()
    assert verdict.leader is None and "average=None" in verdict.text
    assert str(per_label).split("\n\n")[1].startswith("Verdict: One row per label")
    one = compare_predictions(y, {"s0": predictions["s0"]}, **FAST)
    row = one.summary.loc["s0"]
    assert one.verdict().text == (f"One system (s0): f1 {row['point']:.3f} (95% interval "
                                  f"{row['low']:.3f} to {row['high']:.3f}); no pair to compare.")
    X, yb = load_breast_cancer(return_X_y=True)
    scores = {"a": np.array([0.9, 0.8, np.nan, 0.85, 0.9]),
              "b": np.array([0.7, 0.75, 0.72, 0.71, 0.73])}
    with pytest.warns(Warning):
        failed = compare_cv_results(scores)
    assert failed.ranking is None
    assert "not ranked" in failed.verdict().text


def test_bad_plan_argument():
    y, predictions = _systems()
    report = compare_predictions(y, predictions, **FAST)
    for plan in ("yes", 1, None):
        with pytest.raises(ValueError, match="`plan` must be True, False or 'auto'"):
            report.verdict(plan=plan)


def test_replace_keeps_the_ranking():
    y, predictions = _systems()
    report = compare_predictions(y, predictions, **FAST)
    copy = dataclasses.replace(report, note="a note")
    assert copy.ranking is not None
    pd.testing.assert_series_equal(copy.ranking.prob_best, report.ranking.prob_best)
    drawn = dataclasses.replace(report, note="again")     # after the ranking was drawn
    assert drawn.ranking is report.ranking


def test_verdict_is_a_result():
    y, predictions = _systems()
    verdict = compare_predictions(y, predictions, **FAST).verdict(plan=False)
    assert isinstance(verdict, ReportVerdict)
    assert json.dumps(verdict.to_dict())
    assert "class='verdict'" in verdict._repr_html_()
    assert str(verdict).replace("\n", " ") == verdict.text
