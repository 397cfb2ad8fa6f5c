"""Which items to send to the annotators: gold labels where they narrow the interval most.

Every item carries the prediction(s) and a second labeller's label (the
proxy); only some carry a gold label.  The proxy posteriors (``proxy=``)
read the stratum shares ``(proxy, predictions)`` from every item and the gold
label within each stratum from its labelled items.  The width of that
posterior is, to first order, that of a stratified estimator:

    Var(metric) ~ sum_s W_s^2 sigma_s^2 / n_s  (+ the shares' part, fixed),

with ``W_s`` the stratum's share of the items, ``n_s`` its gold labels and
``sigma_s`` the spread, within the stratum, of the metric's influence function
(the change of the metric when one item of that stratum is added to the
population, by its gold label).  Neyman's allocation ``n_s ~ W_s sigma_s``
makes it smallest (Neyman 1934; Cochran 1977, ch. 5): labels go where the
proxy and the predictions leave the gold label uncertain and the metric
depends on it, typically where the proxy and the prediction disagree.

`plan_labels` computes ``sigma_s`` on the current posterior's mean, forms
candidate allocations between Neyman's and the proportional one (whose
spread estimates are least trusted), and chooses among them by preposterior
simulation, as `plan_more_items` does: a population drawn from the current
posterior, the planned gold labels drawn from it, the posterior updated and
its interval's width read; the candidate of the smallest mean width wins.
Random labelling of the same budget is simulated beside it.

The proxy posterior needs no sampling rates: it conditions on the stratum,
so labels drawn at random within each stratum, at rates that differ between
strata, leave it valid (the labels are missing at random given the stratum;
Rubin 1976).  Its strata must hold those of the plan: a plan for two systems
stratifies by both predictions, so read its labels with both systems
(`compare_paired_metric`, `rank_systems`), not with one system alone.
"""

from __future__ import annotations

import html
import numbers
from dataclasses import dataclass, field
from types import SimpleNamespace

import numpy as np
import pandas as pd

from .._core import (
    N_DRAWS,
    ResultMixin,
    axes_or_new,
    check_confidence,
    check_positive,
    check_prior,
    check_random_state,
    fail,
    frame_html,
    renamed_keyword,
    rounded,
    to_host,
    warn_user,
)
from .._counting import joint_codes
from .._metrics import check_average, get_metric, label_weights
from .._posteriors import (
    ProxyTable,
    check_target_metric,
    label_counts,
    labelled_values,
    missing_labels,
    table_metric,
)

__all__ = ["LabelPlan", "plan_labels"]

# Candidate allocations: the weight of stratum s is W_s ((1 - t) sigma_s + t sigma_mean),
# Neyman's at t = 0, the proportional one at t = 1.
_CANDIDATES = {"neyman": 0.0, "neyman, shrunk 1/4": 0.25, "neyman, shrunk 1/2": 0.5,
               "proportional": 1.0}
# Step of the influence function's finite difference (a mixture weight), and the cells
# whose moved tables are evaluated at once.
_STEP = 1e-6
_CELLS_AT_ONCE = 256
# Values one simulated posterior draws, by default (`n_draws` from it).
_VALUES_PER_POSTERIOR = 10_000
# Labels in strata whose spread is below this share of the largest inform nothing.
_FLAT = 1e-3
# The most cells of the (gold, proxy, predictions) table, as the proxy posteriors allow.
_MAX_CELLS = 1 << 16


@dataclass(repr=False)
class LabelPlan(ResultMixin):
    """Which unlabelled items to label next, and the width expected after.

    Returned by `plan_labels`.

    Attributes
    ----------
    items : ndarray of int
        Positions of the items to label (``budget`` of them, sorted).
    allocation : pandas.DataFrame
        One row per stratum (the proxy's label, then each system's
        prediction): ``items`` in the stratum, ``labelled`` now,
        ``to_label``, ``rate`` (the stratum's share labelled after) and
        ``sd`` (the spread of the metric's influence function there, on
        the current posterior's mean).
    method : str
        The allocation chosen: ``"neyman"``, ``"neyman, shrunk 1/4"`` or
        ``"1/2"`` (spreads pulled toward their mean), or ``"proportional"``
        (to the strata's sizes, among those where the metric depends on the
        gold label); candidates that give the same allocation are named
        together (``"neyman = ... = proportional"``).
    expected_width : float
        Mean width of the `confidence` interval after labelling `items`, over
        `n_sims` simulated outcomes drawn afresh once the allocation is chosen
        (the chosen candidate's mean in `candidates` is biased low by the
        choice); ``expected_width_se`` its Monte Carlo standard error.
    expected_width_random : float
        The same for `budget` items labelled at random (the reference);
        ``expected_width_random_se`` its standard error.
    width_now : float or None
        Width of the interval from the gold labels in hand (None without
        any).
    candidates : pandas.Series
        Mean width of every candidate allocation, on the same simulated
        populations (the simulations that chose).
    metric, budget, confidence, n_sims, n_items, n_labelled
        The settings and the pool: items, and gold labels in hand.

    Examples
    --------
    >>> import numpy as np
    >>> from skprobeval import plan_labels
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 2_000)
    >>> pred = np.where(rng.random(2_000) < 0.85, y, 1 - y)
    >>> proxy = np.where(rng.random(2_000) < 0.95, y, 1 - y)
    >>> gold = np.where(np.arange(2_000) < 100, y, np.nan)     # 100 labelled
    >>> plan = plan_labels(pred, proxy, budget=100, labelled=gold, random_state=0)
    >>> plan.items.shape, plan.summary()["method"] in plan.candidates.index
    ((100,), True)
    >>> bool(plan.expected_width < plan.expected_width_random < plan.width_now)
    True
    """

    items: np.ndarray
    allocation: pd.DataFrame
    method: str
    expected_width: float
    expected_width_se: float
    expected_width_random: float
    expected_width_random_se: float
    width_now: float | None
    candidates: pd.Series
    metric: str
    budget: int
    confidence: float
    n_sims: int
    n_items: int
    n_labelled: int
    _systems: list = field(default_factory=list)

    def summary(self):
        """The plan in one record: the widths expected with it and at random."""
        return {"metric": self.metric, "systems": list(self._systems), "budget": self.budget,
                "method": self.method, "expected_width": self.expected_width,
                "expected_width_se": self.expected_width_se,
                "expected_width_random": self.expected_width_random,
                "expected_width_random_se": self.expected_width_random_se,
                "width_now": self.width_now, "n_items": self.n_items,
                "n_labelled": self.n_labelled, "confidence": self.confidence,
                "n_sims": self.n_sims}

    def _dict_content(self):
        content = self.summary()
        content.update(items=self.items, allocation=self.allocation,
                       candidates=self.candidates)
        return content

    def _html_table(self):
        what = f"{self.metric} difference" if len(self._systems) == 2 else self.metric
        lead = (f"<p>Label <b>{self.budget}</b> items ({html.escape(self.method)} "
                f"allocation): the {self.confidence:.0%} interval of {html.escape(what)} "
                f"is expected {rounded(self.expected_width)} wide, against "
                f"{rounded(self.expected_width_random)} with as many labelled at random.</p>")
        return lead + frame_html(self.allocation)

    def plot(self, ax=None):
        """Bars per stratum: gold labels in hand and to add, beside the stratum's items."""
        ax = axes_or_new(ax)
        frame = self.allocation
        names = [" / ".join(str(v) for v in (key if isinstance(key, tuple) else (key,)))
                 for key in frame.index]
        x = np.arange(len(frame))
        ax.bar(x, frame["labelled"], color="0.55", label="labelled now")
        ax.bar(x, frame["to_label"], bottom=frame["labelled"], color="C0", label="to label")
        ax.set_xticks(x, names, rotation=45 if len(x) > 6 else 0, ha="right"
                      if len(x) > 6 else "center")
        ax.set_xlabel("stratum (" + " / ".join(frame.index.names) + ")")
        ax.set_ylabel("gold labels")
        ax.set_title(f"{self.budget} more gold labels: interval {rounded(self.expected_width)} "
                     f"wide (at random {rounded(self.expected_width_random)})", fontsize=10)
        ax.margins(y=0.25)
        ax.legend(frameon=False, loc="upper left", ncols=2)
        return ax

    def __repr__(self):
        return (f"LabelPlan(budget={self.budget}, method={self.method!r}, "
                f"expected_width={rounded(self.expected_width)}, "
                f"expected_width_random={rounded(self.expected_width_random)}, "
                f"metric={self.metric!r})")


def _systems(y_pred):
    """``(names, arrays)`` of one system or two (a dict, or a list of two arrays)."""
    if isinstance(y_pred, dict):
        names, arrays = [str(k) for k in y_pred], list(y_pred.values())
    elif (isinstance(y_pred, (list, tuple)) and len(y_pred) > 0
          and all(np.ndim(p) >= 1 for p in y_pred)):
        names, arrays = ["A", "B"][:len(y_pred)], list(y_pred)
    else:
        names, arrays = ["y_pred"], [y_pred]
    if not 1 <= len(arrays) <= 2:
        fail("y_pred", "the predictions of one system, or of two (a dict or a list of two "
             "arrays) whose difference is planned for", y_pred,
             shown=f"{len(arrays)} systems")
    arrays = [np.asarray(to_host(a, "y_pred")) for a in arrays]
    for a in arrays:
        if a.ndim != 1:
            fail("y_pred", "one label per item (multilabel targets are not supported)",
                 y_pred, error=TypeError, shown=f"shape {a.shape}")
    return names, arrays


def _encode(y_pred, proxy, labelled, average, labels, pos_label):
    """Validate and encode: ``(joint, names, gold_known)``; the joint's codes are the
    gold label (the proxy's where unlabelled), each prediction, the proxy."""
    names, preds = _systems(y_pred)
    if labels is not None:
        labels = to_host(labels, "labels")         # read once, used twice
    n = preds[0].shape[0]
    if any(p.shape[0] != n for p in preds):
        fail("y_pred", "predictions of the same items", y_pred,
             shown="lengths " + ", ".join(str(p.shape[0]) for p in preds))
    proxy = np.asarray(to_host(proxy, "proxy"))
    if proxy.ndim != 1 or proxy.shape[0] != n:
        fail("proxy", f"the second labeller's label of every item, shape ({n},)", proxy,
             shown=f"shape {proxy.shape}")
    _, proxy_missing = missing_labels(proxy)
    if proxy_missing is not None:
        fail("proxy", "a label on every item (the second labeller covers them all)", proxy,
             shown=f"{int(proxy_missing.sum())} missing value(s)")
    if labelled is None:
        missing = np.ones(n, dtype=bool)
        values = proxy
    else:
        values, missing = missing_labels(to_host(labelled, "labelled"))
        if np.ndim(values) != 1 or np.shape(values)[0] != n:
            fail("labelled", f"the gold labels in hand, missing where not labelled, shape "
                 f"({n},)", labelled, shown=f"shape {np.shape(values)}")
        if missing is None:
            missing = np.zeros(n, dtype=bool)
    known = ~missing
    pred_names = ["y_pred"] if len(preds) == 1 else [f"y_pred[{name!r}]" for name in names]
    if known.any():
        gold = labelled_values(values, missing)
        joint_codes(gold, [p[known] for p in preds], average=average, labels=labels,
                    pos_label=pos_label, names=["labelled", *pred_names])
        filled = np.asarray(values, dtype=object).copy()
        filled[missing] = proxy[missing]
        filled[known] = gold.astype(object)
        filled = np.asarray(filled.tolist())
    else:
        gold, filled = proxy[:0], proxy
    # The proxy guesses the gold label: its labels must be among the gold labels' and
    # the predictions'.
    seen = np.concatenate([np.asarray(gold), *preds]) if known.any() else np.concatenate(preds)
    if labels is not None:
        seen = np.concatenate([seen, np.asarray(labels).ravel()])
    try:
        inside = np.isin(proxy, np.unique(seen))
    except TypeError:
        inside = np.zeros(n, dtype=bool)
    if not inside.all():
        fail("proxy", f"labels among those of the gold labels and the predictions "
             f"{np.unique(seen)[:10].tolist()}", proxy,
             shown=f"labels {list(dict.fromkeys(proxy[~inside].tolist()))[:5]}")
    joint = joint_codes(filled, [*preds, proxy], average=average, labels=labels,
                        pos_label=pos_label, names=["labelled", *pred_names, "proxy"])
    return joint, names, known


def _table(totals, in_strata, classes, n_systems, lam):
    """The `ProxyTable` of strata holding `totals` items, `in_strata` (gold, stratum) of
    them labelled: one weighted entry per (labelled, gold, stratum)."""
    size, n_strata = in_strata.shape
    unlabelled = totals - in_strata.sum(axis=0)
    alone = np.flatnonzero(unlabelled > 0)
    gold_of, kept = np.nonzero(in_strata > 0)
    strata = np.concatenate([alone, kept])
    digits, rest = [], strata
    for _ in range(n_systems + 1):
        digits.append(rest % size)
        rest = rest // size
    # Strata put the proxy first (most significant), then each system's prediction.
    proxy, *preds = digits[::-1]
    gold = np.concatenate([proxy[:alone.shape[0]], gold_of])
    codes = np.vstack([gold, *preds, proxy]).astype(np.intp)
    mask = np.arange(strata.shape[0]) >= alone.shape[0]
    weight = np.concatenate([unlabelled[alone], in_strata[gold_of, kept]]).astype(float)
    return ProxyTable(SimpleNamespace(codes=codes, classes=classes), mask, weight,
                      n_systems, lam)


class _Metric:
    """The planned quantity of draws of (gold, predictions...) tables: one system's
    metric, or the first's minus the second's."""

    def __init__(self, joint, spec, average, beta, n_systems, table):
        self.kind, self.spec, self.average = joint.kind, spec, average
        self.params = {"beta": beta} if "beta" in spec.params else {}
        self.every = joint.kind == "multiclass" and joint.n_requested == joint.n_classes
        self.requested = joint.n_requested if joint.kind == "multiclass" else 1
        self.others = [tuple(2 + j for j in range(n_systems) if j != i)
                       for i in range(n_systems)]
        self.weights = [None] * n_systems
        if average in ("weighted", "powers"):
            mean = table.mean_table() * table.n_items
            self.weights = [label_weights(label_counts(mean.sum(axis=tuple(a - 1 for a in axes))
                                                       if axes else mean, self.requested),
                                          average, spec.name) for axes in self.others]

    def __call__(self, tables):
        values = [table_metric(tables.sum(axis=axes) if axes else tables, self.kind,
                               self.spec.function, self.params, self.spec.name, self.average,
                               self.weights[i], self.requested, self.every)
                  for i, axes in enumerate(self.others)]
        return values[0] if len(values) == 1 else values[0] - values[1]


def _width(table, quantity, n_draws, confidence, rng):
    values = np.concatenate([quantity(draws) for draws in table.draws(n_draws, rng)])
    values = values[np.isfinite(values)]
    if values.size < 2:
        return np.nan
    tail = (1 - confidence) / 2
    low, high = np.quantile(values, [tail, 1 - tail])
    return float(high - low)


def _spreads(table, quantity):
    """sd within every stratum of the metric's influence function (Gateaux derivative
    of the metric at the posterior mean table toward one item of each cell)."""
    mean = table.mean_table()
    size = mean.shape[0]
    cells = mean.size
    influence = np.empty(cells)
    with np.errstate(all="ignore"):
        base = quantity(mean[None])[0]
        for start in range(0, cells, _CELLS_AT_ONCE):
            # The tables moved toward one item of each cell, a block of cells at a time.
            block = np.arange(start, min(start + _CELLS_AT_ONCE, cells))
            perturbed = np.repeat((1 - _STEP) * mean[None], block.size, axis=0)
            flat = perturbed.reshape(block.size, -1)
            flat[np.arange(block.size), block] += _STEP
            influence[block] = (quantity(perturbed) - base) / _STEP
    influence = np.nan_to_num(influence.reshape(size, -1), nan=0.0, posinf=0.0, neginf=0.0)
    theta = table.theta_mean
    n_strata = theta.shape[1]
    preds = np.arange(n_strata) % influence.shape[1]        # the stratum's predictions
    values = influence[:, preds]                            # (gold, stratum)
    first = (theta * values).sum(axis=0)
    return np.sqrt(np.maximum((theta * values ** 2).sum(axis=0) - first ** 2, 0.0))


def _allocate(weight, low, high, total):
    """Integer totals ``low <= f <= high`` summing to `total`, as near ``c * weight`` as
    the bounds allow (largest remainders)."""
    def filled(c):
        return np.clip(c * weight, low, high)

    saturated = np.where(weight > 0, high, low)
    if filled(0.0).sum() >= total or not (weight > 0).any():
        share = np.clip(low + (total - low.sum()) * (high - low) / max((high - low).sum(), 1),
                        low, high)
    elif saturated.sum() <= total:
        # The weighted strata labelled whole: the rest by the remainders below.
        share = saturated.astype(float)
    else:
        lo, hi = 0.0, 1.0
        while filled(hi).sum() < total and hi < 1e300:
            hi *= 2.0
        for _ in range(200):
            mid = (lo + hi) / 2
            if filled(mid).sum() < total:
                lo = mid
            else:
                hi = mid
        share = filled(hi)
    counts = np.floor(share).astype(np.int64)
    counts = np.clip(counts, low, high)
    left = int(total - counts.sum())
    order = np.argsort(-(share - np.floor(share)), kind="stable")
    while left > 0:
        room = order[counts[order] < high[order]]
        if room.size == 0:
            break
        step = room[:left]
        counts[step] += 1
        left -= step.size
    while left < 0:
        room = np.flatnonzero(counts > low)
        cut = room[np.argsort(share[room] - counts[room])][:-left]
        counts[cut] -= 1
        left += cut.size
    return counts


def _check_budget(budget, pool):
    if (not isinstance(budget, numbers.Integral) or isinstance(budget, bool)):
        fail("budget", "a positive integer (the gold labels to add)", budget, error=TypeError)
    if not 1 <= budget <= pool:
        fail("budget", f"from 1 to the {pool} items without a gold label", budget)
    return int(budget)


@renamed_keyword("n_samples", "n_draws")
def plan_labels(y_pred, proxy, *, metric="accuracy", budget, labelled=None, average="binary",
                labels=None, pos_label=1, beta=1.0, prior=0.5, confidence=0.95,
                min_per_stratum=2, n_sims=100, n_draws=N_DRAWS, random_state=None):
    """Which unlabelled items to send to annotators for the narrowest interval.

    Every item has the system's prediction and a second labeller's label (the
    proxy: a cheaper model, an LLM judge, a crowd label); some may have a gold
    label already.  The items fall in strata of (proxy, prediction), and the
    posterior with ``proxy=`` reads the gold label within each stratum from
    its labelled items.  `budget` more gold labels go to the strata where
    the metric depends most on the unknown gold label (Neyman's allocation
    on the current posterior, or a blend of it with the proportional one,
    whichever a preposterior simulation finds narrowest), drawn at random
    within each.  The plan reports the interval's expected width after, and
    with as many labels drawn at random.

    Parameters
    ----------
    y_pred : array-like of shape (n_samples,), or a dict / list of two
        The system's predicted labels; for two systems (``{"A": ..., "B":
        ...}`` or ``[y_a, y_b]``) the plan narrows the interval of the
        difference of their metric (first minus second), which decides their
        comparison soonest.  Read the labels with both systems then
        (`compare_paired_metric`, `rank_systems`): the strata include both
        predictions.  A dict of one system names it in the allocation's
        index (else ``y_pred``).
    proxy : array-like of shape (n_samples,)
        The second labeller's label of every item, among the labels of the
        predictions and gold labels.
    metric : str, default="accuracy"
        A name from `available_metrics`.
    budget : int
        How many more items to label: from 1 to the number without a gold
        label.
    labelled : array-like of shape (n_samples,), default=None
        The gold labels in hand, a missing value (NaN, None, ``pd.NA``, or
        masked) where an item has none; None when there are none yet.  The
        spreads then rest on the prior alone, under which the gold label is
        a coin toss in every stratum (accuracy's plan is then the
        proportional one): a few random labels first let the plan aim.
    average : {"binary", "micro", "macro", "weighted"}, default="binary"
        How labels are averaged, as in `metric_posterior`.
    labels : array-like, default=None
        Labels to average over.
    pos_label : int, float, bool or str, default=1
        The positive label with ``average="binary"``.
    beta : float, default=1.0
        F-beta's beta.
    prior : float or {"jeffreys", "uniform"}, default=0.5
        Dirichlet concentration of the posterior, as in `metric_posterior`.
    confidence : float, default=0.95
        Level of the interval whose width is planned for.
    min_per_stratum : int, default=2
        Gold labels every stratum holds after the plan at least (all its
        items where it has fewer): a stratum without any would rest on the
        prior.
    n_sims : int, default=100
        Simulated outcomes of each allocation.
    n_draws : int, default=10_000
        The most posterior draws of each simulated outcome (and of the
        current posterior, ``width_now``): a simulated posterior takes at
        most about 10^4 values, so fewer draws where the table has many
        cells (1 250 for one binary system, 200 at least).  The expected
        widths average over `n_sims` outcomes, so a few hundred draws each
        suffice.
    random_state : None, int or numpy.random.Generator, default=None
        Seed of the simulations and of the items drawn within strata.

    Returns
    -------
    LabelPlan
        ``items`` to label, the ``allocation`` per stratum, the
        ``expected_width`` after (and ``expected_width_random``), ``plot()``.

    See Also
    --------
    metric_posterior : The posterior (``proxy=``) that reads the labels.
    plan_test_size : How many gold labels a width needs.
    plan_more_items : More items to decide a comparison.

    Notes
    -----
    The posterior with ``proxy=`` stays valid under this plan without knowing
    its rates: it conditions on the stratum, and within a stratum the items
    labelled are drawn at random.  Strata that the plan labels at different
    rates must be strata of the posterior too, which is why a plan for two
    systems is read with both.  The posterior's ``labelled_only`` (the
    labelled items alone) is no reference after a plan: the planned items
    over-represent the strata where the proxy and the prediction disagree.

    Time: the simulation draws ``n_sims`` posteriors for each of up to four
    allocations and for random labelling; about a second for binary targets,
    tens of seconds for ten labels or two systems of many labels.

    Examples
    --------
    A pool of 5 000 items whose proxy agrees with the gold label on 95% of
    them, 200 already labelled at random; 300 more to label:

    >>> import numpy as np
    >>> from skprobeval import plan_labels
    >>> rng = np.random.default_rng(0)
    >>> y_true = rng.integers(0, 2, size=5_000)
    >>> y_pred = np.where(rng.random(5_000) < 0.85, y_true, 1 - y_true)
    >>> proxy = np.where(rng.random(5_000) < 0.95, y_true, 1 - y_true)
    >>> labelled = np.full(5_000, np.nan)
    >>> labelled[:200] = y_true[:200]
    >>> plan = plan_labels(y_pred, proxy, metric="accuracy", budget=300,
    ...                    labelled=labelled, random_state=0)
    >>> plan.method, len(plan.items)
    ('neyman', 300)
    >>> bool(plan.expected_width < plan.expected_width_random)
    True

    The strata where the proxy and the prediction disagree get most labels:

    >>> plan.allocation[["items", "labelled", "to_label"]]
                  items  labelled  to_label
    proxy y_pred
    1     1        2044        90        95
          0         470        17       100
    0     1         435        21       105
          0        2051        72         0
    >>> round(plan.expected_width, 3), round(plan.expected_width_random, 3)
    (0.033, 0.041)

    Then label ``plan.items`` and read them with the proxy:
    ``metric_posterior(labelled, y_pred, metric="accuracy", proxy=proxy)``.
    """
    spec = get_metric(metric) if isinstance(metric, str) else None
    if spec is None:
        fail("metric", "a registered metric name (see available_metrics)", metric,
             error=TypeError)
    average = check_average(average, spec.name)
    if average is None or average == "samples":
        fail("average", "'binary', 'micro', 'macro' or 'weighted' (one number to plan for)",
             average)
    lam = check_prior(prior)
    beta = check_positive(beta, "beta")
    confidence = check_confidence(confidence)
    for value, name, smallest in ((min_per_stratum, "min_per_stratum", 0),
                                  (n_sims, "n_sims", 10),
                                  (n_draws, "n_draws", 100)):
        if (not isinstance(value, numbers.Integral) or isinstance(value, bool)
                or value < smallest):
            fail(name, f"an integer >= {smallest}", value)
    rng = check_random_state(random_state)
    joint, names, known = _encode(y_pred, proxy, labelled, average, labels, pos_label)
    check_target_metric(joint, spec.name, average)
    n_systems = len(names)
    size = joint.classes.shape[0]
    if size ** (n_systems + 2) > _MAX_CELLS:
        fail("y_pred", f"at most {_MAX_CELLS} cells of the (gold, proxy, predictions) table; "
             f"{size} labels and {n_systems} system(s) make {size ** (n_systems + 2)}",
             y_pred, shown=f"{size} labels")
    codes = joint.codes
    stratum = codes[1 + n_systems].astype(np.int64)
    for k in range(n_systems):
        stratum = stratum * size + codes[1 + k]
    n_strata = size ** (n_systems + 1)
    totals = np.bincount(stratum, minlength=n_strata)
    in_strata = np.bincount(codes[0][known] * n_strata + stratum[known],
                            minlength=size * n_strata).reshape(size, n_strata)
    held = in_strata.sum(axis=0)
    if not (totals - held).any():
        fail("labelled", "some items without a gold label (nothing is left to plan)",
             labelled, shown=f"a gold label on every one of the {int(totals.sum())} items")
    budget = _check_budget(budget, int((totals - held).sum()))
    now_draws = n_draws
    n_draws = int(min(n_draws, max(200, _VALUES_PER_POSTERIOR // (n_strata * size))))
    table = _table(totals, in_strata, joint.classes, n_systems, lam)
    quantity = _Metric(joint, spec, average, beta, n_systems, table)
    sd = _spreads(table, quantity)
    width_now = None
    if known.any() and not table.single_stratum:
        # (Gold labels all in one stratum of several: the posterior refuses them.)
        width_now = _width(table, quantity, now_draws, confidence, rng)
        width_now = None if not np.isfinite(width_now) else width_now

    # Candidate allocations: totals per stratum after labelling.
    total = int(held.sum()) + budget
    low = np.maximum(held, np.minimum(min_per_stratum, totals))
    if low.sum() > total:
        # Not enough for the minimum everywhere: the largest strata get it first.
        low = held.copy()
        left = budget
        for s in np.argsort(-totals, kind="stable"):
            add = int(min(max(min_per_stratum - held[s], 0), totals[s] - held[s], left))
            low[s] += add
            left -= add
        warn_user(f"a budget of {budget} cannot give every stratum min_per_stratum="
                  f"{min_per_stratum} gold labels: the largest strata get them first, and "
                  f"{int(np.count_nonzero(low < np.minimum(min_per_stratum, totals)))} "
                  "strata fewer")
    occupied = totals > 0
    # Strata where the metric does not depend on the gold label get no more than their
    # minimum unless nothing else is left; the blends pull the others' spreads together.
    flat = (sd <= _FLAT * sd.max()) if sd.max() > 0 else np.zeros_like(sd, dtype=bool)
    informative = occupied & ~flat if (occupied & ~flat).any() else occupied
    sd_mean = float((totals * sd)[informative].sum() / totals[informative].sum())
    plans = {}
    for name, t in _CANDIDATES.items():
        weight = totals * ((1 - t) * sd + t * sd_mean)
        after = _allocate(np.where(informative, weight, 0.0), low, totals, total)
        same = [other for other, value in plans.items() if np.array_equal(value, after)]
        if same:
            plans[f"{same[0]} = {name}"] = plans.pop(same[0])
        else:
            plans[name] = after

    # Preposterior simulation, on common populations: gold shares within every
    # stratum drawn from the current posterior.
    seed = int(rng.integers(2 ** 63))
    theta = table.draw_within(n_sims, np.random.default_rng(seed))
    theta = np.moveaxis(theta, 1, 2)                         # (sim, stratum, gold)
    theta[theta.sum(axis=2) == 0] = 1.0 / size

    def simulate(added, sub):
        widths = np.empty(n_sims)
        new = sub.multinomial(added, theta)                  # (sim, stratum, gold)
        for i in range(n_sims):
            widths[i] = _width(_table(totals, in_strata + new[i].T, joint.classes,
                                      n_systems, lam), quantity, n_draws, confidence, sub)
        widths = widths[np.isfinite(widths)]
        return float(widths.mean()), float(widths.std(ddof=1) / np.sqrt(widths.size))

    results = {name: simulate(after - held, np.random.default_rng(seed + 1))
               for name, after in plans.items()}
    pool = np.random.default_rng(seed + 2)
    at_random = pool.multivariate_hypergeometric(totals - held, budget, size=n_sims)
    random_width = simulate(at_random, np.random.default_rng(seed + 1))
    method = min(results, key=lambda k: results[k][0])
    after = plans[method]
    if len(plans) > 1:
        # The least of several noisy means is biased low: the chosen allocation's width,
        # and random labelling's beside it, drawn again from populations of their own.
        fresh = int(rng.integers(2 ** 63))
        theta = np.moveaxis(table.draw_within(n_sims, np.random.default_rng(fresh)), 1, 2)
        theta[theta.sum(axis=2) == 0] = 1.0 / size
        chosen_width = simulate(after - held, np.random.default_rng(fresh + 1))
        at_random = np.random.default_rng(fresh + 2).multivariate_hypergeometric(
            totals - held, budget, size=n_sims)
        random_width = simulate(at_random, np.random.default_rng(fresh + 1))
    else:
        chosen_width = results[method]
    idle = int(np.maximum(after - np.maximum(held, np.minimum(min_per_stratum, totals)),
                          0)[flat].sum())
    if idle:
        warn_user(f"{idle} of the {budget} labels go to (proxy, prediction) strata where the "
                  f"{spec.name} does not depend on the gold label (the strata that could "
                  "inform it are labelled whole): a budget of "
                  f"{budget - idle} narrows the interval as much.")
    chosen = []
    for s in np.flatnonzero(after > held):
        free = np.flatnonzero((stratum == s) & ~known)
        chosen.append(rng.choice(free, size=int(after[s] - held[s]), replace=False))
    items = np.sort(np.concatenate(chosen)) if chosen else np.empty(0, dtype=np.intp)

    digits, rest = [], np.arange(n_strata)
    for _ in range(n_systems + 1):
        digits.append(joint.classes[rest % size])
        rest = rest // size
    digits = digits[::-1]                                     # proxy, then each system
    index = pd.MultiIndex.from_arrays(
        digits, names=["proxy", *names])
    allocation = pd.DataFrame({"items": totals, "labelled": held, "to_label": after - held,
                               "rate": np.divide(after, totals, out=np.zeros(n_strata),
                                                 where=totals > 0),
                               "sd": sd}, index=index)[occupied]
    return LabelPlan(items=items, allocation=allocation, method=method,
                     expected_width=chosen_width[0], expected_width_se=chosen_width[1],
                     expected_width_random=random_width[0],
                     expected_width_random_se=random_width[1], width_now=width_now,
                     candidates=pd.Series({k: v[0] for k, v in results.items()},
                                          name="expected_width"),
                     metric=spec.name, budget=budget, confidence=confidence, n_sims=n_sims,
                     n_items=int(known.shape[0]), n_labelled=int(known.sum()),
                     _systems=names)
