"""The comparison report of systems with gold labels on some items and a proxy on all.

`compare_predictions(..., proxy=)` (and ``skprobeval compare --proxy COLUMN``):
every figure is the double-sampling posterior of `metric_posterior` with
``proxy=`` -- each system's metric, every pair's share-right and metric
comparisons (`compare_paired_metric`) and the ranking (`rank_systems`) -- while
the count columns and ``point`` are those of the labelled items, the only ones
whose gold label is known.  With sensitive features, each system's per-group
tables come from `PosteriorMetricFrame` with the proxy (each group's own items).
"""

from __future__ import annotations

import warnings

import numpy as np

from .._compare import compare_paired_metric, rank_systems, report_group_tables
from .._core import check_random_state, fail, to_host, warn_user
from .._counting import ConfusionCounts
from .._metrics import metric_score
from .._posteriors import (
    BARE_WARNING,
    check_proxy_cells,
    labelled_values,
    metric_posterior,
    missing_labels,
)
from ._options import _check_common
from ._report import _PAIR_COLUMNS, _TTEST_COLUMNS, SUMMARY_COLUMNS, ComparisonReport, with_ranking

__all__ = ["proxy_report"]


def _labelled_counts(gold, pred, *, average, labels, pos_label, weight):
    """The labelled items' counts: the binary table, or the labels' one-vs-rest tables
    summed (as the summary of a report sums them)."""
    if average == "binary":
        return ConfusionCounts.from_predictions(gold, pred, pos_label=pos_label,
                                                sample_weight=weight)
    per_label = ConfusionCounts.from_predictions(gold, pred, labels=labels, average=None,
                                                 sample_weight=weight)
    return ConfusionCounts(*(float(np.sum(getattr(per_label, c)))
                             for c in ("tp", "fp", "fn", "tn")))


def proxy_report(y_true, predictions, proxy, **options):
    """The `ComparisonReport` of `predictions` (a dict of arrays) with a proxy (see
    `_report_with_proxy`), warning once about combinations without a gold label
    however many posteriors of the report meet them."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        report = _report_with_proxy(y_true, predictions, proxy, **options)
    bare = [w for w in caught if BARE_WARNING in str(w.message)]
    if bare:
        counts = [int(str(w.message).split(" ", 1)[0]) for w in bare]
        warn_user(f"up to {max(counts)} {BARE_WARNING}")
    for w in caught:
        if w not in bare:
            warn_user(str(w.message), w.category)
    return report


def _report_with_proxy(y_true, predictions, proxy, *, metric, average, labels, pos_label, beta,
                       prior, rope, confidence, n_draws, random_state, sample_weight,
                       refused, sensitive_features=None):
    """The `ComparisonReport` of `predictions` (a dict of arrays) with a proxy;
    `refused` names the arguments that must be None with one."""
    import pandas as pd

    for name, value in refused.items():
        if value is not None:
            fail(name, "None with `proxy` (not drawn from a second labeller yet)", value,
                 error=TypeError, shown="a value")
    if not isinstance(predictions, dict) or not predictions:
        fail("predictions", "a dict of named prediction arrays", predictions)
    spec, average, beta, lam, confidence, n_draws = _check_common(
        metric, average, beta, prior, confidence, n_draws)
    if average is None:
        fail("average", "an average over labels with `proxy` (a report of one row per label "
             "is not drawn from a second labeller)", average)
    if sensitive_features is not None and average != "binary":
        fail("sensitive_features", "None unless average='binary' (the groups are compared "
             "on one positive class)", sensitive_features, error=TypeError,
             shown=f"groups with average={average!r}")
    values = to_host(y_true, "y_true")
    proxy = to_host(proxy, "proxy")
    weight = None if sample_weight is None else np.asarray(
        to_host(sample_weight, "sample_weight"), dtype=float)
    predictions = {name: np.asarray(to_host(p, f"predictions[{name!r}]"))
                   for name, p in predictions.items()}
    plain, missing = missing_labels(values)
    if missing is None:
        missing = np.zeros(np.shape(plain)[0], dtype=bool)
    labelled = ~missing
    gold = labelled_values(plain, missing)
    names = list(predictions)
    if len(names) > 2:
        # The ranking draws every system's table at once: refused before any work.
        seen = {label for array in (gold, proxy, *predictions.values())
                for label in pd.unique(np.asarray(array, dtype=object).ravel()).tolist()}
        check_proxy_cells(len(seen), len(names))
    rng = check_random_state(random_state)
    seeds = iter(rng.integers(2**63 - 1, size=4 * len(names) ** 2 + 8))
    common = {"average": average, "labels": labels, "pos_label": pos_label,
              "sample_weight": weight, "beta": beta}
    rows, posteriors, per_label_rows = {}, {}, []
    for name in names:
        pred = predictions[name]
        posterior = metric_posterior(values, pred, metric=spec.name, prior=lam, proxy=proxy,
                                     n_draws=n_draws, random_state=next(seeds), **common)
        posteriors[name] = posterior
        counts = _labelled_counts(gold, pred[labelled], average=average, labels=labels,
                                  pos_label=pos_label,
                                  weight=None if weight is None else weight[labelled])
        point = metric_score(gold, pred[labelled], metric=spec.name, average=average,
                             labels=labels, pos_label=pos_label, beta=beta,
                             sample_weight=None if weight is None else weight[labelled],
                             zero_division=0.0)
        chance = metric_posterior(values, pred, metric="informedness",
                                  average="binary" if average == "binary" else "powers",
                                  prior=lam, proxy=proxy, n_draws=n_draws,
                                  random_state=next(seeds), labels=labels,
                                  pos_label=pos_label, sample_weight=weight)
        low, high = posterior.interval(confidence)
        rows[name] = {"tp": counts.tp, "fp": counts.fp, "fn": counts.fn, "tn": counts.tn,
                      "point": float(point), "mean": float(posterior.mean()),
                      "low": float(low), "high": float(high),
                      "mc_error": float(posterior.mc_error),
                      "prob_better_than_chance": float(chance.prob_greater(0.0)),
                      "average_precision": np.nan, "random_average_precision": np.nan,
                      "n_labelled": posterior.n_labelled}
        per_label_rows.append({"estimator": name, "label": "all", **{
            k: rows[name][k] for k in ("tp", "fp", "fn", "tn", "point", "mean", "low",
                                       "high")}})
    summary = pd.DataFrame.from_dict(rows, orient="index")[[*SUMMARY_COLUMNS, "n_labelled"]]
    summary.index.name = "estimator"
    if np.all(summary["n_labelled"] == np.round(summary["n_labelled"])):
        summary["n_labelled"] = summary["n_labelled"].astype(np.int64)
    share = {"metric": "accuracy", "average": "binary" if average == "binary" else "micro"}
    pair_rows = []
    pairwise = pd.DataFrame(np.nan, index=pd.Index(names, name="first"),
                            columns=pd.Index(names, name="second"))
    pairwise_metric = pairwise.copy()
    for i, first in enumerate(names):
        for second in names[i + 1:]:
            arrays = (values, predictions[first], predictions[second])
            right = compare_paired_metric(*arrays, prior=lam, rope=rope, proxy=proxy,
                                          n_draws=n_draws, random_state=next(seeds),
                                          pos_label=pos_label, sample_weight=weight, **share)
            metric = compare_paired_metric(*arrays, metric=spec.name, prior=lam, rope=rope,
                                           proxy=proxy, n_draws=n_draws,
                                           random_state=next(seeds), **common)
            pairwise.loc[first, second] = right.prob_first_better
            pairwise.loc[second, first] = right.prob_second_better
            pairwise_metric.loc[first, second] = metric.prob_first_better
            pairwise_metric.loc[second, first] = metric.prob_second_better
            pair_rows.append({
                "first": first, "second": second,
                "prob_first_right_more_often": right.prob_first_better,
                "prob_equally_often": right.prob_equivalent,
                "prob_second_right_more_often": right.prob_second_better,
                "prob_first_better": metric.prob_first_better,
                "prob_equivalent": metric.prob_equivalent,
                "prob_second_better": metric.prob_second_better,
                "mc_error": max(float(right.mc_error), float(metric.mc_error))})
    pairs = pd.DataFrame(pair_rows, columns=["first", "second", *_PAIR_COLUMNS])
    per_fold = summary[["tp", "fp", "fn", "tn"]].reset_index()
    per_fold.insert(1, "repeat", 0)
    per_fold.insert(2, "fold", 0)
    per_fold["score"] = summary["point"].to_numpy()
    n_labelled = int(round(float(np.sum(labelled if weight is None else weight[labelled]))))
    n_items = int(round(float(labelled.shape[0] if weight is None else weight.sum())))
    read = "each posterior, pair and the ranking is" if len(pairs) else "the posterior is"
    note = (f"Gold labels on {n_labelled} of {n_items} items and a second labeller (proxy) on "
            f"every item: {read} the double-sampling posterior (sampled); the counts and point "
            "are the labelled items'.")
    tables = {}
    if sensitive_features is not None:
        tables = dict(zip(("by_group", "group_gaps"), report_group_tables(
            values, predictions, sensitive_features, metric=spec.name, pos_label=pos_label,
            sample_weight=weight, prior=lam, beta=beta, rope=rope, confidence=confidence,
            n_draws=n_draws, random_state=next(seeds), proxy=proxy)))
    report = ComparisonReport(
        summary, pairwise, pairwise_metric, pd.DataFrame(columns=list(_TTEST_COLUMNS)),
        per_fold, spec.name, confidence, rope, n_repeats=1,
        predictions={name: pred[None, :] for name, pred in predictions.items()},
        average=average, labels=None if labels is None else list(labels),
        per_label=pd.DataFrame(per_label_rows).set_index(["estimator", "label"]).iloc[:0],
        pairs=pairs, n_draws=n_draws, posteriors=posteriors, note=note, prior=lam, **tables)
    ranking_seed = next(seeds)

    def ranking():
        if len(names) < 2:
            return None
        with warnings.catch_warnings():
            # The report warned once already about combinations without a gold label.
            warnings.filterwarnings("ignore", message=r".*combination\(s\) hold items but no "
                                    "gold label")
            return rank_systems(values, predictions, metric=spec.name, prior=lam, rope=rope,
                                proxy=proxy, n_draws=n_draws, random_state=ranking_seed,
                                **common)

    return with_ranking(report, source=ranking)
