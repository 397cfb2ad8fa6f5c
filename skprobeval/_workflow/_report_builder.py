"""The one builder of comparison reports from predictions, `_ReportBuilder`.

It turns each system's per-fold predictions (and scores, for average
precision) into the tables of a `ComparisonReport` for binary, multiclass
and multilabel targets alike: the summary, the one-vs-rest rows per label,
the average-precision columns, the paired comparisons and the per-fold
scores with their t-tests.  The entry points (`compare_estimators`,
`compare_cv_results`, `compare_predictions`, in ``_crossval.py``) only
gather predictions into `_Fold` order.  pandas is imported lazily.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np
from sklearn.exceptions import UndefinedMetricWarning

from .._compare import (
    PairedComparison,
    clustered_metric_draws,
    paired_metric_from_codes,
    sampled_comparison,
    shared_metric_draws,
)
from .._core import COUNT_COLUMNS, check_random_state, check_sample_weight, fail, result_entry
from .._counting import (
    JointCodes,
    PairedCounts,
    cluster_codes,
    frame_column,
    frame_matrix,
    joint_codes,
    label_masks,
    plain_labels,
)
from .._metrics import (
    average_precision,
    averaged_value,
    label_weights,
    nan_skipping_mean,
    random_average_precision,
)
from .._posteriors import (
    check_target_metric,
    metric_posterior,
    posterior_from_codes,
    sampled_average,
)
from ._report import (
    _PAIR_COLUMNS,
    _TTEST_COLUMNS,
    ComparisonReport,
    _summary_frame,
    _ttest_table,
    with_ranking,
)
from ._report_clusters import (
    cluster_note,
    clustered_right_comparisons,
    clustered_summary_posterior,
    one_vs_rest_codes,
)


def _fold_average_precision(relevant, scores, average):
    """(AP, expected AP of a random ranking) of one fold, combined over labels.

    ``relevant`` and ``scores`` have shape (n, R).  Labels with no relevant
    item (or no scores) in the fold are left out.  Returns arrays of shape
    (R,) for ``average=None``.
    """
    n, n_labels = relevant.shape
    ap = np.full(n_labels, np.nan)
    chance = np.full(n_labels, np.nan)
    for r in range(n_labels):
        hits = int(relevant[:, r].sum())
        if hits and np.all(np.isfinite(scores[:, r])):
            ap[r] = average_precision(relevant[:, r].astype(int), scores[:, r])
            chance[r] = random_average_precision(n, hits).mean
    if average is None:
        return ap, chance
    if average == "micro" and n_labels > 1:
        usable = np.all(np.isfinite(scores), axis=0)
        flat_relevant = relevant[:, usable].ravel()
        if not flat_relevant.any():
            return np.nan, np.nan
        return (average_precision(flat_relevant.astype(int), scores[:, usable].ravel()),
                random_average_precision(flat_relevant.shape[0],
                                         int(flat_relevant.sum())).mean)
    weights = None if average in ("macro", "micro") else relevant.sum(axis=0).astype(float)
    return nan_skipping_mean(ap, weights), nan_skipping_mean(chance, weights)


@dataclass
class _Fold:
    test: np.ndarray       # item indices of the fold
    repeat: int
    fold: int


def _pair_joint(joint, *systems):
    """The codes of the truth and the given systems (1 = the first), same labels."""
    return joint.with_codes([joint.codes[0]] + [joint.codes[s] for s in systems])


class _ReportBuilder:
    """The tables of a ComparisonReport, from each system's per-fold predictions.

    The out-of-fold predictions, concatenated over folds (weight 1/n_repeats
    per item and repeat), give the pooled summary and the paired tables;
    fold scores give the t-tests.  The builder holds what every table reads:
    the checked settings, the pooled truth and predictions, their joint
    codes, the labels reported, the labels each system is averaged over and
    one random stream.  Each table has its method; `build` calls them in one
    fixed order, so that seeded reports take the same draws.

    Parameters
    ----------
    y : ndarray
        The truth of every item: labels, or a label indicator matrix.
    folds : list of _Fold
        The test folds, in the order of the prediction arrays.
    predictions : dict of str to list of ndarray
        Each system's predictions, one array per fold.
    scores : dict of str to list of ndarray or None
        Each system's scores, one array per fold, for average precision; None
        (or a None fold) for a system without scores.
    spec : MetricSpec
        The metric compared.
    average, labels, pos_label, beta, lam, rope, confidence, n_draws
        The entry point's checked settings (``lam``: the prior per cell).
    n_repeats : int
        How many times each item is tested.
    random_state : None, int or numpy.random.Generator
        Seed of every sampled table.
    sample_weight : ndarray, default=None
        One weight per item of `y`.
    truth_name : str, default="y"
        The truth's name in error messages.
    groups : ndarray of shape (n_items,), default=None
        Each item's cluster (`ClusterCodes.codes` of the checked ids), or
        None.  With clusters of more than one item every posterior, pair
        and the ranking are drawn by the clusters' Bayesian bootstrap
        (``_report_clusters.py``); with one item per cluster the report is
        the one without them, number for number.
    """

    def __init__(self, y, folds, predictions, scores, *, spec, average, labels, pos_label, beta,
                 lam, rope, confidence, n_repeats, n_draws, random_state, sample_weight=None,
                 truth_name="y", groups=None):
        self.rng = check_random_state(random_state)
        self.y, self.folds, self.predictions, self.scores = y, folds, predictions, scores
        self.spec, self.average, self.labels, self.pos_label = spec, average, labels, pos_label
        self.beta, self.lam, self.rope, self.confidence = beta, lam, rope, confidence
        self.n_repeats, self.n_draws = n_repeats, n_draws
        self.names = list(predictions)
        self.params = {"beta": beta} if "beta" in spec.params else {}
        order = np.concatenate([fold.test for fold in folds])
        self.truth = y[order]
        sample_weight = check_sample_weight(sample_weight, y.shape[0])
        weight = None if sample_weight is None else sample_weight[order]
        if n_repeats > 1:
            weight = (np.ones(order.shape[0]) if weight is None else weight) / n_repeats
        self.weight = weight
        self.pooled = [np.concatenate(predictions[name]) for name in self.names]
        self.joint = joint = joint_codes(
            self.truth, self.pooled, average=average, labels=labels, pos_label=pos_label,
            sample_weight=weight, labels_present=True,
            names=[truth_name] + [f"predictions of {name!r}" for name in self.names])
        # The clusters of the tested items, in pooled order (a repeated item keeps its
        # cluster); kept on the joint codes only where some cluster holds several items.
        self.clusters = None if groups is None else cluster_codes(groups[order], order.shape[0],
                                                                  weight=weight)
        self.clustered = self.clusters is not None and not self.clusters.singletons
        if self.clustered:
            self.joint = joint = joint.with_clusters(self.clusters)
        check_target_metric(joint, spec.name, average)
        self.requested = joint.classes[:joint.n_requested]
        self.label_names = [pos_label] if joint.kind == "binary" else plain_labels(self.requested)
        self.masks = label_masks(joint, labels, average)
        self.shared = None      # `summary_tables` sets the shared draws, where they apply
        # average=None on labels: the summary, pair, t-test and fold tables have
        # one row per label.
        self.per_label = average is None and joint.kind != "binary"

    def build(self, *, strict_scores=False, store_predictions=True):
        """The report.

        Parameters
        ----------
        strict_scores : bool, default=False
            Whether every score array must have the report's shape (scores
            the user passed); scores an estimator returned in another shape
            are left out.
        store_predictions : bool, default=True
            Whether the report keeps the predictions in item order (not for
            columns of a Dask DataFrame, never loaded whole).

        Returns
        -------
        ComparisonReport
        """
        summary, per_label, posteriors = self.summary_tables()
        self.add_average_precision(summary, strict=strict_scores)
        pairwise, pairwise_metric, pairs = self.pair_tables()
        per_fold, ttest = self.fold_tables()
        return with_ranking(ComparisonReport(
            summary=summary, pairwise=pairwise, pairwise_metric=pairwise_metric, ttest=ttest,
            per_fold=per_fold, metric=self.spec.name, confidence=self.confidence,
            rope=float(self.rope), n_repeats=self.n_repeats,
            predictions=self.stored_predictions() if store_predictions else {},
            average=self.average,
            labels=None if self.labels is None else plain_labels(self.requested),
            per_label=per_label, pairs=pairs, n_draws=self.n_draws, posteriors=posteriors,
            prior=float(self.lam), note=self.note(), n_clusters=self.n_clusters()),
            source=self.ranking_source())

    def n_clusters(self):
        """The number of clusters the report rests on (None without `groups`)."""
        return None if self.clusters is None else self.clusters.n_clusters

    def note(self):
        """The report's line on its clusters (None without `groups`)."""
        if self.clusters is None:
            return None
        return cluster_note(self.clusters.n_clusters, self.n_items())

    def ranking_source(self):
        """A function drawing the report's ranking from the joint posterior of the pooled
        predictions (`rank_systems` with the report's settings), or None where no ranking
        applies (one system, ``average=None``)."""
        if len(self.names) < 2 or self.average is None:
            return None
        from functools import partial

        from .._compare import rank_systems

        # A seed from the report's stream, taken now: the ranking is the same whenever it
        # is first read, and reading it changes nothing else.
        seed = int(self.rng.integers(2 ** 32))
        if self.clustered and self.shared is not None:
            # The summary's draws of the clustered joint table are the ranking's: pooled
            # and ranked as rank_systems(groups=) would, without drawing them again.
            from .._compare import ranking_of_clustered_draws

            return partial(ranking_of_clustered_draws, self.shared[0], self.names,
                           metric=self.spec.name, average=self.average, prior=self.lam,
                           rope=self.rope, random_state=seed,
                           n_clusters=self.clusters.n_clusters)
        return partial(rank_systems, self.truth, dict(zip(self.names, self.pooled)),
                       metric=self.spec.name, average=self.average, labels=self.labels,
                       pos_label=self.pos_label, beta=self.beta, prior=self.lam,
                       rope=self.rope, n_draws=self.n_draws, random_state=seed,
                       sample_weight=self.weight,
                       groups=self.clusters.codes if self.clustered else None)

    # -- summary and per-label rows -------------------------------------------

    def summary_tables(self):
        """The summary, the one-vs-rest per-label table and the summary's posteriors.

        The score columns are left blank (`add_average_precision` fills
        them).  One pass over the systems: each system's draws are taken
        before the next system's.
        """
        import pandas as pd

        rows, label_rows, posteriors = [], [], {}
        if self.clustered and not self.per_label:
            # Items in clusters: every system's and every pair's draws from one joint
            # table drawn by the clusters' Bayesian bootstrap, whatever the classes.
            self.shared = clustered_metric_draws(self.joint, self.spec, self.average,
                                                 self.labels, self.lam, self.beta,
                                                 self.n_draws, self.rng)
        elif not self.clustered:
            # Many classes: every system's and every pair's draws from one joint table.
            self.shared = shared_metric_draws(self.joint, self.spec, self.average, self.masks,
                                              self.lam, self.beta, self.n_draws, self.rng)
        for position, name in enumerate(self.names, start=1):
            counts = self.joint.counts(position)
            rows += self._summary_rows(position, name, counts, posteriors)
            label_rows += self._label_rows(name, counts, position, posteriors)
        per_label_index = ["estimator", "label"]
        per_label_table = pd.DataFrame(label_rows).set_index(per_label_index)
        summary = pd.DataFrame(rows)
        summary = _summary_frame(
            summary.set_index(per_label_index if "label" in summary else ["estimator"]))
        if self.clusters is not None:
            # Where the posteriors come from: the clusters, and as many independent items
            # (all the items where every cluster holds one).
            n_items = self.n_items()
            summary["n_clusters"] = float(self.clusters.n_clusters)
            summary["effective_n"] = [
                float(getattr(posteriors[key], "effective_n", n_items)) for key in (
                    [(name, label) for name in self.names for label in self.label_names]
                    if self.per_label else self.names)]
        return summary, per_label_table, posteriors

    def n_items(self):
        """The pooled items (their weights)."""
        weight = self.joint.weight
        return float(self.truth.shape[0] if weight is None else np.sum(weight))

    def _own_codes(self, position):
        """The truth and one system: with labels=None, that system's own label set."""
        if self.masks[position - 1] is None:
            return _pair_joint(self.joint, position)
        return joint_codes(self.truth, [self.pooled[position - 1]], average=self.average,
                           labels=self.labels, pos_label=self.pos_label,
                           sample_weight=self.weight).with_clusters(self.joint.clusters)

    def _summary_rows(self, position, name, counts, posteriors):
        """One system's summary rows (one per label for average=None); adds its posteriors."""
        joint, average, lam, rng = self.joint, self.average, self.lam, self.rng
        own = self._own_codes(position)
        # P(better than chance): the binary table's informedness, Powers' bookmaker
        # over labels otherwise, from the same table draws where both are sampled.
        labelled = joint.kind != "binary" and average is not None
        if self.shared is not None and self.clustered:
            draws, above = self.shared
            posterior = clustered_summary_posterior(
                draws[:, position - 1], own, self.spec.name, average=average, lam=lam,
                beta=self.beta, n_draws=self.n_draws, rng=rng,
                n_clusters=self.clusters.n_clusters)
            chance = above[position - 1] / draws.shape[0]
            labelled = True         # P(better than chance) read off the same draws
        elif self.shared is not None:
            draws, above = self.shared
            own_weights = label_weights(own.counts(1), average, self.spec.name)
            posterior = sampled_average(draws[:, position - 1], own.counts(1), self.spec.name,
                                        lam, self.beta, average, own_weights, own)
            chance = above[position - 1] / draws.shape[0]
        else:
            posterior = posterior_from_codes(own, self.spec.name, average=average, lam=lam,
                                             beta=self.beta, n_draws=self.n_draws,
                                             random_state=rng, chance=labelled)
            if labelled:
                posterior, chance = posterior
        mask = self.masks[position - 1]
        own_counts = counts if mask is None else counts[mask]
        # An undefined metric warns (zero_division="warn") at the user's line.
        point = averaged_value(self.spec, own_counts, average, self.params, kind=joint.kind,
                               every_label=joint.n_requested == joint.n_classes)
        if self.per_label:
            for i, label in enumerate(self.label_names):
                posteriors[name, label] = posterior[i]
        else:
            posteriors[name] = posterior
        interval = posterior.interval(self.confidence)
        error = getattr(posterior, "mc_error", 0.0)
        if not labelled and self.clustered:
            # Per label, each label's one-vs-rest informedness, its clusters drawn.
            chance = self._clustered_label_posterior(position, "informedness").prob_greater(0.0)
        elif not labelled:
            chance = metric_posterior(counts, metric="informedness", prior=lam).prob_greater(0.0)
        if not self.per_label:
            return [{
                "estimator": name,
                **{c: float(np.sum(getattr(own_counts, c))) for c in COUNT_COLUMNS},
                "point": float(point), "mean": float(posterior.mean()),
                "low": float(interval.low), "high": float(interval.high),
                "mc_error": float(error), "prob_better_than_chance": float(chance),
            }]
        return [{
            "estimator": name, "label": label,
            **{c: float(getattr(counts, c)[i]) for c in COUNT_COLUMNS},
            "point": float(point[i]), "mean": float(posterior.mean()[i]),
            "low": float(interval.low[i]), "high": float(interval.high[i]),
            "mc_error": result_entry(error, i),
            "prob_better_than_chance": float(np.atleast_1d(chance)[i]),
        } for i, label in enumerate(self.label_names)]

    def _clustered_label_posterior(self, position, metric):
        """One system's one-vs-rest posteriors of `metric`, label by label, each label's
        binary table (λ on every cell) drawn by the clusters' Bayesian bootstrap."""
        own = one_vs_rest_codes(_pair_joint(self.joint, position))
        return posterior_from_codes(own, metric, average="binary" if own.kind == "binary"
                                    else None, lam=self.lam, beta=self.beta,
                                    n_draws=self.n_draws, random_state=self.rng)

    def _label_rows(self, name, counts, position=None, posteriors=None):
        """One system's one-vs-rest rows: counts, point and the exact posterior per label
        (with clusters, the clusters' Bayesian bootstrap of each label's table; for a
        binary table, the summary's own)."""
        kind = self.joint.kind
        if self.clustered and kind == "binary":
            per_label = posteriors[name]
        elif self.clustered:
            per_label = self._clustered_label_posterior(position, self.spec.name)
        else:
            per_label = metric_posterior(counts, metric=self.spec.name, prior=self.lam,
                                         beta=self.beta, n_draws=self.n_draws,
                                         random_state=self.rng)
        label_interval = per_label.interval(self.confidence)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UndefinedMetricWarning)
            label_point = np.atleast_1d(averaged_value(
                self.spec, counts, None if kind != "binary" else "binary", self.params,
                kind=kind))
        return [{
            "estimator": name, "label": label,
            **{c: float(np.atleast_1d(getattr(counts, c))[i]) for c in COUNT_COLUMNS},
            "point": float(label_point[i]),
            "mean": float(np.atleast_1d(per_label.mean())[i]),
            "low": float(np.atleast_1d(label_interval.low)[i]),
            "high": float(np.atleast_1d(label_interval.high)[i]),
        } for i, label in enumerate(self.label_names)]

    # -- score-based columns ----------------------------------------------------

    def add_average_precision(self, summary, *, strict=False):
        """Fill the summary's average precision columns, fold by fold, from the scores.

        User-given scores (``strict``) must have the right shape.
        """
        y, joint, requested, average = self.y, self.joint, self.requested, self.average
        for name in list(self.scores):
            if self.scores[name] is None or any(s is None for s in self.scores[name]):
                continue
            values, chances = [], []
            for fold, fold_scores in zip(self.folds, self.scores[name]):
                y_test = y[fold.test]
                if joint.kind == "multilabel":
                    columns = np.asarray(requested, dtype=np.intp)
                    relevant = np.asarray(y_test, dtype=bool)[:, columns]
                elif joint.kind == "binary":
                    relevant = (y_test == self.pos_label)[:, None]
                    fold_scores = np.asarray(fold_scores, dtype=float).reshape(-1, 1)
                else:
                    relevant = np.column_stack([y_test == label for label in requested])
                fold_scores = np.asarray(fold_scores, dtype=float)
                if fold_scores.shape != relevant.shape:
                    if strict:
                        expected = ((relevant.shape[0],) if joint.kind == "binary"
                                    else relevant.shape)
                        fail("scores",
                             f"arrays of shape {expected} (items, labels of the report)",
                             {name: fold_scores},
                             shown=f"shape {fold_scores.shape} for {name!r}")
                    continue
                ap, chance = _fold_average_precision(relevant, fold_scores,
                                                     "binary" if joint.kind == "binary"
                                                     else average)
                values.append(np.atleast_1d(ap))
                chances.append(np.atleast_1d(chance))
            if not values:
                continue
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)   # all-NaN label columns
                ap = np.nanmean(np.vstack(values), axis=0)
                chance = np.nanmean(np.vstack(chances), axis=0)
            if self.per_label:
                for i, label in enumerate(plain_labels(requested)):
                    summary.loc[(name, label), "average_precision"] = ap[i]
                    summary.loc[(name, label), "random_average_precision"] = chance[i]
            else:
                summary.loc[name, "average_precision"] = ap[0]
                summary.loc[name, "random_average_precision"] = chance[0]

    # -- paired comparisons -------------------------------------------------------

    def pair_tables(self):
        """The pairwise (right more often), pairwise metric and every-pair tables."""
        import pandas as pd

        joint, names, masks, average = self.joint, self.names, self.masks, self.average
        rows = []
        if self.clustered:
            right_more_often = clustered_right_comparisons(joint, self.lam, self.rope,
                                                           self.n_draws, self.rng)
        for i, first in enumerate(names):
            for j in range(i + 1, len(names)):
                second = names[j]
                if self.clustered:
                    # Who is right alone, its cells drawn by the clusters (the exact
                    # paired Dirichlet takes no clusters).
                    correct = right_more_often[i + 1, j + 1]
                else:
                    right = PairedCounts.from_predictions(
                        np.ones(joint.codes[0].shape[0], dtype=bool), joint.right(i + 1),
                        joint.right(j + 1), sample_weight=joint.weight)
                    correct = PairedComparison.from_counts(right, prior=self.lam,
                                                           rope=self.rope)
                pair = _pair_joint(joint, i + 1, j + 1)
                pair_masks = None
                if masks[i] is not None or masks[j] is not None:
                    # Only the labels of the truth and of these two systems.
                    pair = joint_codes(self.truth, [self.pooled[i], self.pooled[j]],
                                       average=average, pos_label=self.pos_label,
                                       sample_weight=joint.weight).with_clusters(
                                           joint.clusters)
                    pair_masks = [np.ones(pair.n_requested, bool) if mask is None else mask
                                  for mask in label_masks(pair, None, average)]
                if self.shared is not None:
                    draws = self.shared[0]
                    metric = sampled_comparison(self.spec.name, [draws[:, i] - draws[:, j]],
                                                self.rope, self.n_draws)
                else:
                    # With clusters only per label (average=None on labels): the pair's
                    # clustered JointTable, sampled; the exact share-right shortcut there
                    # takes binary tables and micro averages, neither of which comes here.
                    metric = paired_metric_from_codes(
                        pair, self.spec, average=average, lam=self.lam, rope=self.rope,
                        beta=self.beta, n_draws=self.n_draws, rng=self.rng, masks=pair_masks,
                        keep_difference=False)
                values = [correct.prob_first_better, correct.prob_equivalent,
                          correct.prob_second_better, metric.prob_first_better,
                          metric.prob_equivalent, metric.prob_second_better, metric.mc_error]
                for k, label in enumerate(self.label_names if self.per_label else [None]):
                    row = {"first": first, "second": second}
                    if self.per_label:
                        row = {"label": label, **row}
                    row.update({column: result_entry(value, k)
                                for column, value in zip(_PAIR_COLUMNS, values)})
                    rows.append(row)
        lead = ["label", "first", "second"] if self.per_label else ["first", "second"]
        pairs = pd.DataFrame(rows, columns=lead + list(_PAIR_COLUMNS))
        for column in _PAIR_COLUMNS:
            pairs[column] = pairs[column].astype(float)

        def square(first_column, second_column, label=None):
            table = pd.DataFrame(np.nan, index=pd.Index(names, name="first"),
                                 columns=pd.Index(names, name="second"))
            chosen = pairs if label is None else pairs[pairs["label"] == label]
            for row in chosen.itertuples(index=False):
                table.loc[row.first, row.second] = getattr(row, first_column)
                table.loc[row.second, row.first] = getattr(row, second_column)
            return table

        pairwise = square("prob_first_right_more_often", "prob_second_right_more_often",
                          self.label_names[0] if self.per_label else None)
        if self.per_label:
            pairwise_metric = pd.concat(
                {label: square("prob_first_better", "prob_second_better", label)
                 for label in self.label_names}, names=["label"])
        else:
            pairwise_metric = square("prob_first_better", "prob_second_better")
        return pairwise, pairwise_metric, pairs

    # -- fold scores and t-tests ----------------------------------------------------

    def fold_tables(self):
        """Per-fold counts and averaged scores, and the correlated t-tests between systems.

        One test set (`compare_predictions`) has no t-test: an empty table.
        """
        import pandas as pd

        joint, names, folds, average = self.joint, self.names, self.folds, self.average
        fold_rows, fold_scores = [], {name: [] for name in names}
        offset = 0
        for fold in folds:
            size = fold.test.shape[0]
            piece = slice(offset, offset + size)
            offset += size
            # Fold counts are the fold's own (weighted) counts, not divided by the repeats.
            fold_weight = None if joint.weight is None else joint.weight[piece] * self.n_repeats
            sliced = JointCodes(joint.kind, [c[piece] for c in joint.codes], joint.classes,
                                joint.n_requested, fold_weight)
            for position, name in enumerate(names, start=1):
                counts = sliced.counts(position)
                mask = self.masks[position - 1]
                score = averaged_value(self.spec, counts if mask is None else counts[mask],
                                       average, self.params, kind=joint.kind,
                                       every_label=joint.n_requested == joint.n_classes,
                                       zero_division=np.nan)
                fold_scores[name].append(np.atleast_1d(score))
                for k, label in enumerate(self.label_names if self.per_label else [None]):
                    row = {"estimator": name, "repeat": fold.repeat, "fold": fold.fold}
                    if self.per_label:
                        row["label"] = label
                        row.update({c: float(getattr(counts, c)[k]) for c in COUNT_COLUMNS})
                    else:
                        own = counts if mask is None else counts[mask]
                        row.update({c: float(np.sum(getattr(own, c))) for c in COUNT_COLUMNS})
                    row["score"] = float(np.atleast_1d(score)[k])
                    fold_rows.append(row)
        lead = ["estimator", "repeat", "fold"] + (["label"] if self.per_label else [])
        per_fold = pd.DataFrame(fold_rows, columns=lead + list(COUNT_COLUMNS) + ["score"])
        ttest_columns = (["label"] if self.per_label else []) + list(_TTEST_COLUMNS)
        if len(folds) < 2:
            return per_fold, pd.DataFrame(columns=ttest_columns)
        test_fraction = float(np.mean([fold.test.shape[0] for fold in folds])) / self.y.shape[0]
        scores = {name: np.vstack(values) for name, values in fold_scores.items()}
        rows = []
        for k, label in enumerate(self.label_names if self.per_label else [None]):
            table = _ttest_table({name: values[:, k] for name, values in scores.items()},
                                 self.spec.name, test_fraction=test_fraction, rope=self.rope,
                                 runs=self.n_repeats)
            if self.per_label:
                table.insert(0, "label", [label] * len(table))
            rows.append(table)
        return per_fold, pd.concat(rows, ignore_index=True)[ttest_columns]

    def stored_predictions(self):
        """Each system's predictions in item order, of shape (n_repeats, n_items, ...)."""
        y, n_repeats = self.y, self.n_repeats
        stored = {}
        for position, name in enumerate(self.names):
            shape = (n_repeats, y.shape[0]) + y.shape[1:]
            tested = sum(fold.test.shape[0] for fold in self.folds) == n_repeats * y.shape[0]
            # Items a scheme never tests (e.g. PredefinedSplit's -1) hold None.
            array = (np.empty(shape, dtype=np.asarray(self.pooled[position]).dtype)
                     if tested else np.full(shape, None, dtype=object))
            for fold, values in zip(self.folds, self.predictions[name]):
                array[fold.repeat, fold.test] = values
            stored[name] = array
        return stored


def group_columns(data, sensitive_features):
    """The groups as `PosteriorMetricFrame` takes them; columns of `data` keep their names."""
    if data is None:
        return sensitive_features
    keys = sensitive_features if isinstance(sensitive_features, (list, tuple)) else [
        sensitive_features]
    if keys and all(isinstance(key, str) for key in keys):
        return {key: frame_column(data, key, "sensitive_features") for key in keys}
    return frame_matrix(data, sensitive_features, "sensitive_features")
