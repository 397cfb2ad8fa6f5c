"""Per-group posteriors of a binary classifier's metrics, as fairlearn's ``MetricFrame``.

`PosteriorMetricFrame` counts each group of the sensitive features once and
gives it the package's posterior of each metric; the groups are independent,
so the gap of two groups is an exact `DifferencePosterior` where their
posteriors are Beta, and spreads, extremes and ratios of more groups are
sampled.  `GroupDisparity` holds one gap with its posterior, simultaneous and
anchored intervals; `demographic_parity_disparity` and
`equalized_odds_disparity` are fairlearn's two criteria on top of the frame,
and `report_group_tables` builds a report's group tables.  Derivations: the
theory page ``docs/theory/groups.rst``.
"""

from __future__ import annotations

from contextlib import contextmanager

import numpy as np
from sklearn.exceptions import UndefinedMetricWarning

from .._core import (
    N_DRAWS,
    ClusterTableDraws,
    ResultMixin,
    check_confidence,
    check_draws,
    check_positive,
    check_prior,
    check_random_state,
    cluster_concentration,
    clustered_cells,
    fail,
    renamed_keyword,
    rounded,
    to_host,
    warn_user,
)
from .._counting import ConfusionCounts, joint_codes
from .._metrics import SIGNED_METRICS, check_zero_division
from .._posteriors import (
    BetaPosterior,
    ClusteredPosterior,
    DifferencePosterior,
    ProxyPosterior,
    SampledPosterior,
    metric_posterior,
    posterior_from_codes,
)
from ._group_disparity import GroupDisparity
from ._group_inputs import (
    check_metrics,
    features_on_host,
    group_codes,
    kept_clusters,
    sensitive_columns,
)
from ._proxy_systems import proxy_group_draws

__all__ = [
    "GroupDisparity",
    "PosteriorMetricFrame",
    "demographic_parity_disparity",
    "equalized_odds_disparity",
]

# The columns of `by_group` for each metric.
STATS = ("point", "mean", "low", "high")


@contextmanager
def _binary_labels():
    """The frame's own words for labels that are not binary (one positive class)."""
    try:
        yield
    except ValueError as error:
        if not str(error).startswith("`average`"):
            raise
        shown = str(error).split("; got ", 1)[1].removeprefix("'binary' with ")
        raise ValueError("`y_true` and `y_pred` must hold binary labels (two at most, "
                         "`pos_label` among them): the groups are compared on one "
                         f"positive class; got {shown}") from None


# ---------------------------------------------------------------------------
# The frame
# ---------------------------------------------------------------------------


class PosteriorMetricFrame(ResultMixin):
    """Posteriors of metrics for every group of items, as fairlearn's ``MetricFrame``.

    Each group (a value of the sensitive feature; the intersections of the
    values for several features) gets its own confusion table and, for each
    metric, the posterior of the Dirichlet model of that table (see
    `metric_posterior`): exact where the metric has an exact posterior,
    sampled otherwise.  Groups are disjoint, so their posteriors are
    independent.  `by_group` tabulates them: fairlearn's point value
    (``point``, the metric of the group's counts, equal to fairlearn's
    ``MetricFrame.by_group``), then the posterior ``mean`` and the
    equal-tailed credible interval ``low``, ``high`` at `confidence`.  The
    posterior mean is not the point value: it carries the prior's pull,
    strong in small groups.

    A group with no item of a class a metric needs (no positive item for
    recall, say) keeps a defined posterior: the prior's, for the part
    without evidence.  An `UndefinedMetricWarning` (a `UserWarning`) names
    the groups; the point value there follows `zero_division`, as in
    scikit-learn.

    Parameters
    ----------
    metrics : str, list of str or dict of str to str
        A registered metric name (see `available_metrics`: ``"recall"``
        (``"tpr"``), ``"fallout"`` (``"fpr"``), ``"selection_rate"``,
        ``"precision"``, ``"accuracy"``, ``"f1"``, ...), a list of names, or
        a dict of column name to metric name.  A single name gives
        `by_group` the columns ``point, mean, low, high``; a list or dict
        gives a column MultiIndex (metric, statistic), as fairlearn.
    y_true : array-like of shape (n_samples,)
        True binary labels.
    y_pred : array-like of shape (n_samples,)
        Predicted binary labels.
    sensitive_features : array-like, pandas Series, DataFrame or dict of arrays
        One feature (1-d) or several (a DataFrame, a dict of 1-d arrays or a
        2-d array of one column per feature), each of length n_samples.
        Names as in fairlearn: the Series' name, the columns or keys, else
        ``sensitive_feature_<i>``.
    pos_label : int, float, bool or str, default=1
        The positive class.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights, acting as counts.
    prior : float or {"jeffreys", "uniform"}, default=0.5
        Dirichlet concentration λ > 0 of every cell.
    beta : float, default=1.0
        Recall weight of the metrics that take one (fbeta, e_measure,
        k_measure).
    zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
        Point value of a metric undefined in a group, as in scikit-learn
        ("warn": 0.0, scikit-learn's and so fairlearn's value).
    n_draws : int, default=10_000
        Posterior draws of sampled metrics and of the sampled gaps, extremes
        and ratios.
    random_state : None, int or numpy.random.Generator, default=None
        Seed of everything sampled.  With an int every call draws the same
        numbers; with a Generator each call continues it.
    confidence : float, default=0.95
        Mass of the credible intervals of `by_group` and `overall`.
    groups : array-like of shape (n_samples,), default=None
        Cluster of each item (a patient, a document: any sortable ids), as
        everywhere in the package: not the sensitive feature.  The clusters,
        not the items, are then the draws from the population: every draw
        gives each cluster one Gamma weight for all its items, the same in
        every sensitive group (a cluster may cross the groups), so the
        groups' tables are drawn jointly and their gaps, extremes and ratios
        are joint draws; every group's posterior is then a
        `ClusteredPosterior` (sampled, with each group's ``effective_n``),
        and `overall` is the clustered posterior of all items.  Where every
        cluster holds one item, the frame without `groups`.
    proxy : array-like of shape (n_samples,), default=None
        A second labeller's label of every item, where `y_true` holds a
        missing value (NaN, None, pandas' NA, masked) for the items without a
        gold label.  Each group's posterior is then the `ProxyPosterior` of
        its own items (see `metric_posterior`: the group's (proxy,
        prediction) shares from all its items, the gold label's within each
        from its labelled ones), `overall` that of all items; point values
        and `by_group_counts` are the labelled items'.  Every group needs
        gold labels, in two (proxy, prediction) combinations or more where
        its items fall in several.  Not with `groups`.

    Attributes
    ----------
    by_group : pandas.DataFrame
        One row per group (index as fairlearn's: the feature's name, or a
        MultiIndex of the features), columns ``point, mean, low, high``
        (a MultiIndex (metric, statistic) for several metrics).
    overall : pandas.Series
        The same for all items together (index: the statistics, or
        (metric, statistic) pairs).
    by_group_posteriors : pandas.Series or pandas.DataFrame
        The posterior objects of the groups, laid out as fairlearn lays out
        its ``by_group`` (a Series for a single metric name).
    overall_posterior : posterior or pandas.Series
        The posterior of all items together (a Series by metric for several).
    by_group_counts : pandas.DataFrame
        Each group's ``tp, fp, fn, tn`` (with `proxy`: of its labelled items,
        then ``n_labelled`` and ``n_items``).
    metrics : list of str
        The metrics' column names.
    sensitive_levels : list of str
        Names of the sensitive features.
    n_groups : int
        Number of groups with at least one item.
    n_clusters : int or None
        Clusters the posteriors rest on (``groups=``), else None.

    Methods
    -------
    difference(method="between_groups"), ratio(method="between_groups")
        The disparity between the groups (`GroupDisparity`).
    group_min(), group_max()
        Posteriors of the worst and best group's metric.
    summary()
        `by_group`.
    plot(ax=None, *, metric=None)
        Each group's nested credible intervals.

    See Also
    --------
    metric_posterior : The posterior of one table.
    GroupDisparity : The result of `difference` and `ratio`.
    GroupIntervalDisplay : One credible interval per group, plotted.

    Notes
    -----
    fairlearn lists every combination of several features' values, with
    NaN where no item has it; here such empty intersections are not groups
    and are left out.  ``method="to_overall"`` is not offered: the overall
    table shares its items with every group, so its gap to a group is not a
    difference of independent posteriors.

    References
    ----------
    .. [1] H. Weerts, M. Dudík, R. Edgar, A. Jalali, R. Lutz and M. Madaio,
       "Fairlearn: Assessing and Improving Fairness of AI Systems", JMLR 24
       (2023).

    Examples
    --------
    >>> from skprobeval import PosteriorMetricFrame
    >>> y_true = [1, 1, 1, 0, 1, 1, 1, 0, 1, 1]
    >>> y_pred = [1, 1, 1, 0, 1, 0, 0, 1, 1, 0]
    >>> group = ["a", "a", "a", "a", "a", "b", "b", "b", "b", "b"]
    >>> frame = PosteriorMetricFrame(metrics="recall", y_true=y_true, y_pred=y_pred,
    ...                              sensitive_features=group)
    >>> frame.by_group.round(3)
                         point  mean    low   high
    sensitive_feature_0
    a                     1.00   0.9  0.555  1.000
    b                     0.25   0.3  0.028  0.716
    >>> frame.by_group_posteriors["b"]
    BetaPosterior(a=1.5, b=3.5)
    >>> frame.overall.round(3).to_dict()
    {'point': 0.625, 'mean': 0.611, 'low': 0.295, 'high': 0.881}
    >>> frame.difference().interval(0.95)
    CredibleInterval(low=0.1029, high=0.9387)

    Gold labels on one item in ten, a second labeller on every item:

    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 4_000)
    >>> group = rng.choice(["a", "b"], 4_000)
    >>> y_pred = np.where(rng.random(4_000) < np.where(group == "a", 0.9, 0.8), y, 1 - y)
    >>> judge = np.where(rng.random(4_000) < 0.95, y, 1 - y)
    >>> gold = np.where(rng.random(4_000) < 0.1, y, np.nan)
    >>> frame = PosteriorMetricFrame(metrics="recall", y_true=gold, y_pred=y_pred,
    ...                              sensitive_features=group, proxy=judge, random_state=0)
    >>> frame.by_group_counts["n_labelled"].tolist(), frame.by_group_counts["n_items"].tolist()
    ([215.0, 199.0], [2033.0, 1967.0])
    >>> posterior = frame.by_group_posteriors["a"]
    >>> width = np.subtract(*posterior.interval(0.95)[::-1])
    >>> bool(width < 0.7 * np.subtract(*posterior.labelled_only.interval(0.95)[::-1]))
    True
    """

    @renamed_keyword("n_samples", "n_draws")
    def __init__(self, *, metrics, y_true, y_pred, sensitive_features, pos_label=1,
                 sample_weight=None, prior=0.5, beta=1.0, zero_division="warn",
                 n_draws=N_DRAWS, random_state=None, confidence=0.95, groups=None,
                 proxy=None):
        import pandas as pd

        self._single, self._specs = check_metrics(metrics)
        self._lam = check_prior(prior)
        self._beta = check_positive(beta, "beta")
        self._zero_division = check_zero_division(zero_division)
        self._n_draws = check_draws(n_draws)
        rng = check_random_state(random_state)
        self._random_state = random_state
        self.confidence = check_confidence(confidence)
        if proxy is not None:
            if groups is not None:
                fail("proxy", "None with `groups` (items in clusters with a second labeller "
                     "are not modelled yet)", "an array", error=TypeError)
            with _binary_labels():
                self._init_proxy(y_true, y_pred, proxy, sensitive_features, pos_label,
                                 sample_weight, rng)
            return
        with _binary_labels():
            joint = joint_codes(y_true, [y_pred], average="binary", pos_label=pos_label,
                                sample_weight=sample_weight, names=["y_true", "y_pred"],
                                groups=to_host(groups, "groups"))
        n = joint.codes[0].shape[0]
        columns = sensitive_columns(sensitive_features, n)
        group, self._keys, self._index = group_codes(columns)
        self.sensitive_levels = [name for name, _ in columns]
        cells = []
        for g in range(len(self._keys)):
            mask = group == g
            part = type(joint)("binary", [code[mask] for code in joint.codes], joint.classes,
                               1, None if joint.weight is None else joint.weight[mask])
            c = part.counts()
            cells.append((float(c.tp), float(c.fp), float(c.fn), float(c.tn)))
        tp, fp, fn, tn = (np.asarray(column) for column in zip(*cells))
        self._counts = ConfusionCounts(tp=tp, fp=fp, fn=fn, tn=tn)
        self._total = joint.counts()
        clusters = kept_clusters(joint, groups)
        self.n_clusters = None if clusters is None else clusters.n_clusters
        self._posteriors, self._overall, self._points, self._overall_points = {}, {}, {}, {}
        for column, spec in self._specs.items():
            options = {"prior": self._lam, "beta": self._beta, "n_draws": self._n_draws,
                       "random_state": rng}
            self._posteriors[column] = metric_posterior(self._counts, metric=spec.name,
                                                        **options)
            if clusters is None:
                self._overall[column] = metric_posterior(self._total, metric=spec.name,
                                                         **options)
            self._points[column] = self._point(spec, self._counts, warn=True)
            self._overall_points[column] = float(self._point(spec, self._total, warn=False))
        if clusters is not None:
            self._posteriors = self._clustered(joint, group, clusters, rng)
            for column, spec in self._specs.items():
                self._overall[column] = posterior_from_codes(
                    joint, spec.name, average="binary", lam=self._lam, beta=self._beta,
                    n_draws=self._n_draws, random_state=rng)
        self.by_group_counts = pd.DataFrame(
            {"tp": tp, "fp": fp, "fn": fn, "tn": tn}, index=self._index)

    # -- construction helpers -------------------------------------------------

    def _init_proxy(self, y_true, y_pred, proxy, sensitive_features, pos_label,
                    sample_weight, rng):
        """The frame with gold labels on some items and a second labeller on all: each
        group's posterior from its own items' double-sampling table, its point value
        and counts from its labelled items."""
        import pandas as pd

        y_true, y_pred, proxy = (to_host(v, name) for v, name in
                                 ((y_true, "y_true"), (y_pred, "y_pred"), (proxy, "proxy")))
        columns = sensitive_columns(sensitive_features, len(y_true))
        group, self._keys, self._index = group_codes(columns)
        self.sensitive_levels = [name for name, _ in columns]
        self.n_clusters = None
        draws, overall, self._counts, n_items, n_labelled = proxy_group_draws(
            y_true, y_pred, proxy, group, self._keys, specs=self._specs, params=self._params,
            pos_label=pos_label, sample_weight=to_host(sample_weight, "sample_weight"),
            lam=self._lam, n_draws=self._n_draws, rng=rng)
        self._total = self._counts.sum()
        self._posteriors, self._overall, self._points, self._overall_points = {}, {}, {}, {}
        for column, spec in self._specs.items():
            options = {"metric": spec.name, "prior": self._lam, "beta": self._beta,
                       "n_draws": self._n_draws, "random_state": rng}
            self._posteriors[column] = ProxyPosterior(
                draws[column], n_items=n_items, n_labelled=n_labelled,
                labelled_only=metric_posterior(self._counts, **options))
            self._overall[column] = ProxyPosterior(
                overall[column], n_items=n_items.sum(), n_labelled=n_labelled.sum(),
                labelled_only=metric_posterior(self._total, **options))
            self._points[column] = self._point(spec, self._counts, warn=True)
            self._overall_points[column] = float(self._point(spec, self._total, warn=False))
        c = self._counts
        self.by_group_counts = pd.DataFrame({"tp": c.tp, "fp": c.fp, "fn": c.fn, "tn": c.tn,
                                             "n_labelled": n_labelled, "n_items": n_items},
                                            index=self._index)

    def _clustered(self, joint, group, clusters, rng):
        """Every metric's posterior in every group from one set of draws of the
        clusters' Bayesian bootstrap of the groups' cells (group x (TP, FP, FN, TN)):
        each cluster's weight is the same in every group, so the groups' (and the
        metrics') draws are joint."""
        truth, pred = joint.codes[0] == 0, joint.codes[1] == 0       # code 0: pos_label
        cell = np.where(pred, np.where(truth, 0, 1), np.where(truth, 2, 3)) + 4 * group
        keep = np.ones(cell.shape[0], dtype=bool) if joint.weight is None else joint.weight > 0
        n_cells = 4 * self.n_groups
        counts = clustered_cells(cell[keep], clusters, n_cells,
                                 None if joint.weight is None else joint.weight[keep])
        draws = ClusterTableDraws(counts, np.full(n_cells, self._lam),
                                  cluster_concentration(clusters.n_clusters))
        parts = {column: [] for column in self._specs}
        for cells in draws.chunks(self._n_draws, rng):
            tp, fp, fn, tn = (cells.reshape(cells.shape[0], self.n_groups, 4)[:, :, i]
                              for i in range(4))
            for column, spec in self._specs.items():
                with np.errstate(all="ignore"):
                    parts[column].append(np.asarray(spec(tp, fp, fn, tn, **self._params(spec)),
                                                    dtype=float))
        c = self._counts
        items = np.asarray(c.tp + c.fp + c.fn + c.tn, dtype=float)
        n_items = float(items.sum())
        out = {}
        for column, values in parts.items():
            samples = np.concatenate(values)
            # Each group's items times its variance without clusters over that with them.
            with np.errstate(divide="ignore", invalid="ignore"):
                ratio = (np.asarray(self._posteriors[column].var(), dtype=float)
                         / samples.var(axis=0, ddof=1))
            out[column] = ClusteredPosterior(
                samples, n_clusters=clusters.n_clusters, n_items=n_items,
                effective_n=np.where(np.isfinite(ratio), items * ratio, items))
        return out

    def _params(self, spec):
        return {"beta": self._beta} if "beta" in spec.params else {}

    def _point(self, spec, counts, *, warn):
        values = np.asarray(spec(counts.tp, counts.fp, counts.fn, counts.tn,
                                 **self._params(spec)), dtype=float)
        undefined = np.isnan(values)
        if not undefined.any():
            return values
        fill = 0.0 if self._zero_division == "warn" else self._zero_division
        if warn:
            groups = [self._keys[i] for i in np.flatnonzero(undefined)]
            warn_user(
                f"{spec.name.capitalize()} is ill-defined in group(s) {groups!r} because "
                f"{spec.undefined_when}: its posterior there is the prior's for the part "
                f"without items (defined, not NaN), and its point value is set to {fill} "
                "(use the `zero_division` parameter to set the point value).",
                UndefinedMetricWarning)
        return np.where(undefined, fill, values)

    # -- tables -----------------------------------------------------------------

    @property
    def metrics(self):
        """The metrics' column names (the registry's names for a name or a list)."""
        return list(self._specs)

    @property
    def n_groups(self):
        """Number of groups (combinations of the features' values with items)."""
        return len(self._keys)

    def _summary(self, posterior, point):
        low, high = posterior.interval(self.confidence)
        return {"point": point, "mean": posterior.mean(), "low": low, "high": high}

    @property
    def by_group(self):
        """Point value, posterior mean and credible interval of every group."""
        import pandas as pd

        frames = {column: pd.DataFrame(self._summary(self._posteriors[column],
                                                     self._points[column]),
                                       index=self._index, columns=list(STATS))
                  for column in self._specs}
        if self._single:
            return next(iter(frames.values()))
        return pd.concat(frames, axis=1)

    @property
    def overall(self):
        """Point value, posterior mean and credible interval of all items together."""
        import pandas as pd

        rows = {column: pd.Series(self._summary(self._overall[column],
                                                self._overall_points[column]),
                                  index=list(STATS), dtype=float)
                for column in self._specs}
        if self._single:
            return next(iter(rows.values())).rename("overall")
        return pd.concat(rows).rename("overall")

    @property
    def by_group_posteriors(self):
        """The groups' posterior objects (0-d each), laid out as fairlearn's ``by_group``."""
        import pandas as pd

        data = {column: pd.Series([posterior[g] for g in range(self.n_groups)],
                                  index=self._index, dtype=object)
                for column, posterior in self._posteriors.items()}
        if self._single:
            return next(iter(data.values())).rename(next(iter(data)))
        return pd.DataFrame(data)

    @property
    def overall_posterior(self):
        """The posterior of all items together (a Series by metric for several metrics)."""
        import pandas as pd

        if self._single:
            return next(iter(self._overall.values()))
        return pd.Series(self._overall, dtype=object)

    def summary(self):
        """`by_group`: each group's point value, posterior mean and credible interval.

        Returns
        -------
        pandas.DataFrame
        """
        return self.by_group

    def _dict_content(self):
        by_group, overall = self.by_group, self.overall
        if not self._single:        # one table per metric rather than pairs of column names
            by_group = {column: by_group[column] for column in self._specs}
            overall = {column: overall[column] for column in self._specs}
        content = {"type": "PosteriorMetricFrame", "metrics": self.metrics,
                   "sensitive_levels": self.sensitive_levels, "confidence": self.confidence,
                   "by_group": by_group, "overall": overall}
        if self.n_clusters is not None:
            content["n_clusters"] = self.n_clusters
        if "n_items" in self.by_group_counts:
            content.update({name: float(self.by_group_counts[name].sum())
                            for name in ("n_labelled", "n_items")})
        return content

    def _html_caption(self):
        return (f"PosteriorMetricFrame: {', '.join(self.metrics)} by group, "
                f"{self.confidence:.0%} intervals")

    def plot(self, ax=None, *, metric=None):
        """Draw each group's 50%, 80% and `confidence` intervals, first group at the top.

        The posterior mean is the dot, fairlearn's point value the cross, and
        the posterior mean of all items together the vertical line.
        `GroupIntervalDisplay` draws one interval per group with the overall
        interval shaded.

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Where to draw; a new figure's axes by default.
        metric : str, default=None
            The metric to show; by default the first of `metrics`.

        Returns
        -------
        matplotlib.axes.Axes

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> from skprobeval import PosteriorMetricFrame
        >>> frame = PosteriorMetricFrame(
        ...     metrics="recall", y_true=[1, 1, 1, 0, 1, 1, 1, 0, 1, 1],
        ...     y_pred=[1, 1, 1, 0, 1, 0, 0, 1, 1, 0], sensitive_features=list("aaaaabbbbb"))
        >>> [t.get_text() for t in frame.plot().get_yticklabels()]
        ['a', 'b']
        """
        from .._core import plot_intervals

        column = self.metrics[0] if metric is None else metric
        if column not in self._specs:
            fail("metric", f"one of the frame's metrics {self.metrics!r}", metric)
        posterior = self._posteriors[column]
        levels = sorted({0.5, 0.8, self.confidence})
        bounds = {level: [np.ravel(v) for v in posterior.interval(level)] for level in levels}
        mean = np.ravel(posterior.mean())
        rows = [(", ".join(map(str, key)) if isinstance(key, tuple) else str(key),
                 float(mean[g]),
                 [(level, float(bounds[level][0][g]), float(bounds[level][1][g]))
                  for level in levels]) for g, key in enumerate(self._keys)]
        ax = plot_intervals(rows, ax=ax, xlabel=column,
                            reference=float(self._overall[column].mean()))
        ax.plot(self._points[column], range(len(rows)), "x", color="k", label="point value",
                zorder=4)
        ax.legend(loc="best", fontsize="small")
        return ax

    def __repr__(self):
        clusters = "" if self.n_clusters is None else f", n_clusters={self.n_clusters}"
        if "n_items" in self.by_group_counts:       # a second labeller (proxy)
            counts = self.by_group_counts
            clusters += (f", n_labelled={rounded(counts['n_labelled'].sum())}, "
                         f"n_items={rounded(counts['n_items'].sum())}")
        return (f"PosteriorMetricFrame(metrics={list(self._specs)!r}, "
                f"sensitive_levels={self.sensitive_levels!r}, n_groups={self.n_groups}"
                f"{clusters})")

    # -- draws and their reductions --------------------------------------------

    def _draws(self, column, rng):
        """Joint draws of every group's metric, shape (n_draws, n_groups), independent columns."""
        posterior = self._posteriors[column]
        if isinstance(posterior, SampledPosterior):
            return posterior.samples
        return np.asarray(posterior.rvs(size=(self._n_draws, self.n_groups),
                                        random_state=rng)).reshape(self._n_draws, -1)

    def _per_metric(self, function):
        import pandas as pd

        rng = check_random_state(self._random_state)
        values = {column: function(column, rng) for column in self._specs}
        if self._single:
            return next(iter(values.values()))
        return pd.Series(values, dtype=object)

    def _extreme(self, column, rng, reduce):
        if self.n_groups == 1:
            return self._posteriors[column][0]
        return SampledPosterior(reduce(self._draws(column, rng), axis=1))

    def group_min(self):
        """Posterior of the smallest of the groups' true metric values.

        Sampled: the minimum over groups of each joint draw of their
        independent posteriors (one group: its own posterior).  The point
        value, fairlearn's ``group_min()``, is ``by_group["point"].min()``.

        Returns
        -------
        SampledPosterior or pandas.Series
            A Series of posteriors by metric for several metrics.

        Examples
        --------
        >>> from skprobeval import PosteriorMetricFrame
        >>> frame = PosteriorMetricFrame(
        ...     metrics="selection_rate", y_true=[1, 0, 1, 0, 1, 0], y_pred=[1, 1, 1, 0, 0, 0],
        ...     sensitive_features=[0, 0, 1, 1, 2, 2], random_state=0)
        >>> round(frame.group_min().mean(), 2)
        0.2
        """
        return self._per_metric(lambda column, rng: self._extreme(column, rng, np.min))

    def group_max(self):
        """Posterior of the largest of the groups' true metric values.

        Sampled as `group_min`, with the maximum.

        Returns
        -------
        SampledPosterior or pandas.Series

        Examples
        --------
        >>> from skprobeval import PosteriorMetricFrame
        >>> frame = PosteriorMetricFrame(
        ...     metrics="selection_rate", y_true=[1, 0, 1, 0, 1, 0], y_pred=[1, 1, 1, 0, 0, 0],
        ...     sensitive_features=[0, 0, 1, 1, 2, 2], random_state=0)
        >>> round(frame.group_max().mean(), 2)
        0.8
        """
        return self._per_metric(lambda column, rng: self._extreme(column, rng, np.max))

    def _check_method(self, method):
        if method == "to_overall":
            fail("method", "'between_groups' (the overall table shares its items with every "
                 "group: its gap to a group is not a difference of independent posteriors)",
                 method)
        if method != "between_groups":
            fail("method", "'between_groups'", method)

    def _gap(self, column, rng):
        spec = self._specs[column]
        points = self._points[column]
        finite = points[np.isfinite(points)]
        point = float(finite.max() - finite.min()) if finite.size else float("nan")
        posterior = self._posteriors[column]
        if self.n_groups == 1:
            return GroupDisparity(spec.name, "difference", point, None, None, 1, True)
        if self.n_groups == 2:
            # Order by point value (the posterior mean where the point is NaN).
            key = np.where(np.isfinite(points), points, np.asarray(posterior.mean()))
            high, low = np.argsort(-key, kind="stable")
            pair = (self._keys[high], self._keys[low])
            if isinstance(posterior, BetaPosterior):
                exact = DifferencePosterior(posterior[int(high)], posterior[int(low)])
                return GroupDisparity(spec.name, "difference", point, exact, pair, 2, True,
                                      (posterior,))
            draws = self._draws(column, rng)
            return GroupDisparity(spec.name, "difference", point,
                                  SampledPosterior(draws[:, high] - draws[:, low]), pair, 2,
                                  False, (posterior,))
        draws = self._draws(column, rng)
        return GroupDisparity(spec.name, "difference", point,
                              SampledPosterior(draws.max(axis=1) - draws.min(axis=1)), None,
                              self.n_groups, False, (posterior,), (draws,))

    def difference(self, method="between_groups"):
        """Posterior of the gap ``max - min`` between the groups' metric values.

        Two groups: the signed difference of the group with the higher point
        value minus the other, exact (`DifferencePosterior`) for metrics
        whose posterior is a Beta (precision, recall, fallout, specificity,
        selection rate, accuracy, ...), sampled for the others.  More groups:
        ``max - min`` of each joint draw of the independent group posteriors,
        sampled.  One group: no gap (`GroupDisparity.posterior` None, mean 0).
        The point value is fairlearn's ``difference()``.

        Parameters
        ----------
        method : {"between_groups"}, default="between_groups"
            fairlearn's default; ``"to_overall"`` is refused (see Notes of
            the class).

        Returns
        -------
        GroupDisparity or pandas.Series
            A Series of `GroupDisparity` by metric for several metrics.

        Examples
        --------
        >>> from skprobeval import PosteriorMetricFrame
        >>> frame = PosteriorMetricFrame(
        ...     metrics="selection_rate", y_true=[1, 0, 1, 0, 1, 0], y_pred=[1, 1, 1, 0, 0, 0],
        ...     sensitive_features=[0, 0, 1, 1, 2, 2], n_draws=20_000, random_state=0)
        >>> gap = frame.difference()
        >>> gap.point, gap.exact
        (1.0, False)
        >>> round(gap.mean(), 2), round(gap.prob_disparity_greater(0.5), 2)
        (0.72, 0.84)
        """
        self._check_method(method)
        return self._per_metric(self._gap)

    def _ratio(self, column, rng):
        spec = self._specs[column]
        if spec.name in SIGNED_METRICS:
            fail("metrics", "metrics in [0, 1] for a ratio (a ratio of signed values, such "
                 f"as {spec.name}, says nothing of a gap)", spec.name)
        points = self._points[column]
        finite = points[np.isfinite(points)]
        with np.errstate(divide="ignore", invalid="ignore"):
            point = float(finite.min() / finite.max()) if finite.size else float("nan")
        if self.n_groups == 1:
            return GroupDisparity(spec.name, "ratio", point, None, None, 1, True)
        draws = self._draws(column, rng)
        top = draws.max(axis=1)
        # Every draw of every group 0 (underflow of a tiny prior): equal, ratio 1.
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = np.where(top > 0, draws.min(axis=1) / np.where(top > 0, top, 1.0), 1.0)
        return GroupDisparity(spec.name, "ratio", point, SampledPosterior(ratio), None,
                              self.n_groups, False, (self._posteriors[column],), (draws,))

    def ratio(self, method="between_groups"):
        """Posterior of the ratio ``min / max`` of the groups' metric values, sampled.

        The ratio of each joint draw of the independent group posteriors (in
        [0, 1]); the point value is fairlearn's ``ratio()``.  The
        four-fifths rule asks for ``prob_disparity_greater(0.2)``, the
        probability that the ratio is below 0.8.  Refused for signed metrics
        (informedness, markedness, MCC).

        Parameters
        ----------
        method : {"between_groups"}, default="between_groups"

        Returns
        -------
        GroupDisparity or pandas.Series

        Examples
        --------
        >>> from skprobeval import PosteriorMetricFrame
        >>> frame = PosteriorMetricFrame(
        ...     metrics="selection_rate", y_true=[0] * 40,
        ...     y_pred=[1] * 15 + [0] * 5 + [1] * 9 + [0] * 11,
        ...     sensitive_features=["a"] * 20 + ["b"] * 20, random_state=0)
        >>> ratio = frame.ratio()
        >>> ratio.point
        0.6
        >>> round(ratio.prob_disparity_greater(0.2), 2)
        0.85
        """
        self._check_method(method)
        return self._per_metric(self._ratio)

    def _worst_gap(self, columns, name):
        """Posterior of the largest of several metrics' ``max - min`` gaps (sampled)."""
        rng = check_random_state(self._random_state)
        points = [self._points[c][np.isfinite(self._points[c])] for c in columns]
        point = max(float(p.max() - p.min()) if p.size else float("nan") for p in points)
        if self.n_groups == 1:
            return GroupDisparity(name, "difference", point, None, None, 1, True)
        draws = tuple(self._draws(column, rng) for column in columns)
        gaps = [d.max(axis=1) - d.min(axis=1) for d in draws]
        return GroupDisparity(name, "difference", point, SampledPosterior(np.max(gaps, axis=0)),
                              None, self.n_groups, False,
                              tuple(self._posteriors[c] for c in columns), draws)


# ---------------------------------------------------------------------------
# fairlearn's two criteria
# ---------------------------------------------------------------------------


@renamed_keyword("n_samples", "n_draws")
def demographic_parity_disparity(y_true, y_pred, *, sensitive_features, pos_label=1,
                                 sample_weight=None, prior=0.5, n_draws=N_DRAWS,
                                 random_state=None, groups=None):
    """Posterior of the demographic parity difference: the gap in selection rate.

    The selection rate ``P(ŷ = pos_label)`` of each group has the exact
    posterior Beta(selected + λ, not selected + λ); the gap ``max - min`` is
    `PosteriorMetricFrame.difference` of ``metrics="selection_rate"``:
    exact for two groups, sampled for more.  The point value is fairlearn's
    ``demographic_parity_difference``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True binary labels (only their length is used, as in fairlearn).
    y_pred : array-like of shape (n_samples,)
        Predicted binary labels.
    sensitive_features : array-like, pandas Series, DataFrame or dict of arrays
        As in `PosteriorMetricFrame`.
    pos_label : int, float, bool or str, default=1
        The positive (selected) class.
    sample_weight : array-like of shape (n_samples,), default=None
    prior : float or {"jeffreys", "uniform"}, default=0.5
    n_draws : int, default=10_000
        Draws of the sampled gap (more than two groups).
    random_state : None, int or numpy.random.Generator, default=None
    groups : array-like of shape (n_samples,), default=None
        Cluster of each item (not the sensitive feature), as in
        `PosteriorMetricFrame`: the gap is then drawn from the clusters'
        Bayesian bootstrap, sampled.

    Returns
    -------
    GroupDisparity

    Examples
    --------
    >>> from skprobeval import demographic_parity_disparity
    >>> y_pred = [1] * 30 + [0] * 20 + [1] * 20 + [0] * 30
    >>> group = ["a"] * 50 + ["b"] * 50
    >>> gap = demographic_parity_disparity([0] * 100, y_pred, sensitive_features=group)
    >>> round(gap.point, 2), gap.exact
    (0.2, True)
    >>> round(gap.prob_disparity_greater(0.1), 2)
    0.84
    """
    frame = PosteriorMetricFrame(
        metrics="selection_rate", y_true=y_true, y_pred=y_pred,
        sensitive_features=sensitive_features, pos_label=pos_label,
        sample_weight=sample_weight, prior=prior, n_draws=n_draws, random_state=random_state,
        groups=groups)
    return frame.difference()


@renamed_keyword("n_samples", "n_draws")
def equalized_odds_disparity(y_true, y_pred, *, sensitive_features, pos_label=1,
                             sample_weight=None, prior=0.5, n_draws=N_DRAWS, random_state=None,
                             groups=None):
    """Posterior of the equalized odds difference: the worse of the TPR and FPR gaps.

    ``max(max_g tpr_g - min_g tpr_g, max_g fpr_g - min_g fpr_g)``, sampled
    from the groups' independent exact posteriors of the true positive rate
    (recall, Beta(TP + λ, FN + λ)) and the false positive rate (fallout,
    Beta(FP + λ, TN + λ)); each draw takes both gaps and keeps the larger.
    The point value is fairlearn's ``equalized_odds_difference`` (its
    default ``agg="worst_case"``).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True binary labels.
    y_pred : array-like of shape (n_samples,)
        Predicted binary labels.
    sensitive_features : array-like, pandas Series, DataFrame or dict of arrays
        As in `PosteriorMetricFrame`.
    pos_label : int, float, bool or str, default=1
    sample_weight : array-like of shape (n_samples,), default=None
    prior : float or {"jeffreys", "uniform"}, default=0.5
    n_draws : int, default=10_000
    random_state : None, int or numpy.random.Generator, default=None
    groups : array-like of shape (n_samples,), default=None
        Cluster of each item (not the sensitive feature), as in
        `PosteriorMetricFrame`: both rates of every group are then drawn
        jointly from the clusters' Bayesian bootstrap.

    Returns
    -------
    GroupDisparity
        Of metric ``"equalized_odds"``, kind ``"difference"``, sampled.

    Examples
    --------
    >>> from skprobeval import equalized_odds_disparity
    >>> y_true = ([1] * 20 + [0] * 30) * 2
    >>> y_pred = ([1] * 16 + [0] * 4 + [1] * 3 + [0] * 27
    ...           + [1] * 10 + [0] * 10 + [1] * 6 + [0] * 24)
    >>> group = ["a"] * 50 + ["b"] * 50
    >>> gap = equalized_odds_disparity(y_true, y_pred, sensitive_features=group,
    ...                                random_state=0)
    >>> round(gap.point, 2), round(gap.prob_disparity_greater(0.1), 2)
    (0.3, 0.95)
    """
    frame = PosteriorMetricFrame(
        metrics=["recall", "fallout"], y_true=y_true, y_pred=y_pred,
        sensitive_features=sensitive_features, pos_label=pos_label,
        sample_weight=sample_weight, prior=prior, n_draws=n_draws, random_state=random_state,
        groups=groups)
    return frame._worst_gap(["recall", "fallout"], "equalized_odds")


def report_group_tables(y_true, predictions, sensitive_features, *, metric, pos_label,
                        sample_weight, prior, beta, rope, confidence, n_draws, random_state,
                        groups=None, proxy=None):
    """The per-group tables of a comparison report.

    Returns ``(by_group, group_gaps)``: one row per (estimator, group) with
    the counts, fairlearn's point value and the posterior's mean and
    interval; one row per estimator with the gap between its groups
    (`PosteriorMetricFrame.difference`): point, mean, interval, the groups of
    a two-group gap and P(gap > rope) (two groups: the signed gap, so that at
    rope 0 it is the probability that the group with the higher point value
    is truly higher; more groups: the spread ``max - min``).  `groups`: each
    item's cluster (the frame's clusters), or None; `proxy`: the frame's.
    """
    import pandas as pd

    rng = check_random_state(random_state)
    sensitive_features = features_on_host(sensitive_features)
    frames, gaps = {}, {}
    for name, y_pred in predictions.items():
        frame = PosteriorMetricFrame(metrics=metric, y_true=y_true, y_pred=y_pred,
                                     sensitive_features=sensitive_features,
                                     pos_label=pos_label, sample_weight=sample_weight,
                                     prior=prior, beta=beta, n_draws=n_draws,
                                     random_state=rng, confidence=confidence, groups=groups,
                                     proxy=proxy)
        table = pd.concat([frame.by_group_counts, frame.by_group], axis=1)
        frames[name] = table
        gap = frame.difference()
        low, high = gap.interval(confidence)
        gaps[name] = {"n_groups": gap.n_groups, "point": gap.point, "mean": gap.mean(),
                      "low": low, "high": high,
                      "higher": None if gap.pair is None else str(gap.pair[0]),
                      "lower": None if gap.pair is None else str(gap.pair[1]),
                      "prob_gap_above_rope": (float(gap.posterior.sf(rope))
                                              if gap.posterior is not None else 0.0),
                      "mc_error": 0.0 if gap.mc_error is None else float(gap.mc_error)}
    by_group = pd.concat(frames, names=["estimator"])
    group_gaps = pd.DataFrame.from_dict(gaps, orient="index")
    group_gaps.index.name = "estimator"
    return by_group, group_gaps
