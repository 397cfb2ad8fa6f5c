"""Items for a width: the smallest test set whose credible interval is narrow enough.

`plan_test_size` answers "how many items must I label to know the metric within
a given width?" before any test data exist, from a guessed population: the cell
shares of a pilot table, or an expected value and the share of items the metric
counts.  The answer is the smallest n whose equal-tailed interval is at most
`width` wide with probability `assurance` over test sets of n items drawn from
that population.

Two routes:

- **Exact** where the posterior is a Beta, or a monotone map of one (precision,
  recall, accuracy and the other Beta metrics; F1 through the Jaccard index
  ``J = tp / (tp + fp + fn)``, ``F1 = 2J / (1 + J)``; their affine maps).  A test
  set then enters the posterior through two counts: the m items the metric
  counts (Binomial(n, s)) and the k of them on its "a" side (Binomial(m, p)).
  For each m the interval's width is unimodal in k, so the ks whose width is
  at most `width` are the two tails beyond the roots of ``width(k) = width``,
  found by bisection; P(width <= `width`) is then a sum of binomial tail
  probabilities over m (the roots interpolated between at most 41 nodes of m).
  n is found by bracketing and bisection from the normal approximation's n.
- **Simulation** elsewhere (informedness, MCC, F-beta with beta != 1, macro
  averages of a K x K table): test sets drawn from the population, each one's
  posterior interval computed, the width's `assurance` quantile followed
  across n on the log-log scale (where it falls as n^(-1/2)).
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

import numpy as np
from scipy import special, stats

from .._core import (
    N_DRAWS,
    check_confidence,
    check_draws,
    check_positive,
    check_prior,
    check_random_state,
    fail,
    renamed_keyword,
    to_host,
)
from .._counting import ConfusionCounts, ConfusionMatrix, plain_labels, positive_position
from .._metrics import check_average, get_metric, range_width
from .._posteriors import metric_posterior
from ._plan_clusters import check_clusters, in_clusters, real
from ._plan_proxy import check_proxy, proxy_plan
from ._plan_result import TestSizePlan

__all__ = ["TestSizePlan", "plan_test_size"]



# m nodes where the k roots are solved (interpolated between).
_M_NODES = 81
# Largest test set planned for.
_MAX_ITEMS = 10**12
_CELLS = ("tp", "fp", "fn", "tn")


def _identity(x):
    return x


def _f1_of_jaccard(j):
    return 2.0 * j / (1.0 + j)


@dataclass(frozen=True)
class _BetaRoute:
    """How a metric's exact posterior is a monotone map of one Beta."""

    cells_a: tuple
    cells_b: tuple
    weight_a: float       # prior mass of the "a" side, in units of λ
    weight_b: float
    scale: float          # |affine scale| times the map
    transform: object     # the monotone map of the Beta variable


def _beta_route(exact, beta):
    """The Beta route of an exact recipe, or None where the posterior is not one Beta."""
    if exact is None:
        return None
    kind = exact[0]
    if kind == "beta":
        return _BetaRoute(exact[1], exact[2], len(exact[1]), len(exact[2]), 1.0, _identity)
    if kind == "share":
        return _BetaRoute(exact[1], exact[2], 1.0, 1.0, 1.0, _identity)
    if kind == "fbeta" and beta == 1.0:
        return _BetaRoute(("tp",), ("fp", "fn"), 1.0, 2.0, 1.0, _f1_of_jaccard)
    if kind == "affine":
        inner = _beta_route(exact[3], beta)
        if inner is None:
            return None
        return _BetaRoute(inner.cells_a, inner.cells_b, inner.weight_a, inner.weight_b,
                          abs(exact[1]) * inner.scale, inner.transform)
    return None


def _widths(k, m, route, lam, confidence):
    """Width of the equal-tailed interval for real k of m (arrays)."""
    a = k + lam * route.weight_a
    b = m - k + lam * route.weight_b
    tail = (1.0 - confidence) / 2.0
    # Both ends in one call (scipy's inverse: the planner's sizes stay far below the
    # counts where it loses digits).
    ends = special.betaincinv(np.stack([a, a]), np.stack([b, b]),
                              np.array([tail, 1.0 - tail]).reshape((2,) + (1,) * np.ndim(a)))
    return route.scale * (route.transform(ends[1]) - route.transform(ends[0]))


def _approximate_widths(k, m, route, lam):
    """The width's normal approximation (up to a constant factor): where it peaks."""
    a = k + lam * route.weight_a
    b = m - k + lam * route.weight_b
    mean = a / (a + b)
    sd = np.sqrt(a * b / ((a + b) ** 2 * (a + b + 1.0)))
    step = 1e-6
    slope = (route.transform(np.minimum(mean + step, 1.0))
             - route.transform(np.maximum(mean - step, 0.0))) / (2 * step)
    return sd * slope


def _bisect(m, narrow_end, wide_end, route, lam, confidence, width, steps):
    """The real k between `narrow_end` (width <= `width`) and `wide_end` where the width
    crosses `width`, to within (wide_end - narrow_end) / 2^steps, on the narrow side."""
    a, b = narrow_end.copy(), wide_end.copy()
    for _ in range(steps):
        middle = (a + b) / 2.0
        narrow = _widths(middle, m, route, lam, confidence) <= width
        a = np.where(narrow, middle, a)
        b = np.where(narrow, b, middle)
    return a


def _k_roots(m, route, lam, confidence, width):
    """For each m, real (k_low, k_high): the ks with width <= `width` are k <= k_low
    and k >= k_high (k_low = -1, k_high = m + 1 where a side has none)."""
    m = np.asarray(m, dtype=float)
    # The widest k, by golden-section search on the normal approximation of the width
    # (the Beta's standard deviation through the map's slope): no quantile needed.
    low, high = np.zeros_like(m), m.copy()
    ratio = (math.sqrt(5.0) - 1.0) / 2.0
    for _ in range(60):
        left, right = high - ratio * (high - low), low + ratio * (high - low)
        wider_left = (_approximate_widths(left, m, route, lam)
                      > _approximate_widths(right, m, route, lam))
        high = np.where(wider_left, right, high)
        low = np.where(wider_left, low, left)
        if np.all(high - low < 0.25):
            break
    mode = (low + high) / 2.0
    steps = int(math.ceil(math.log2(float(m.max()) + 2.0))) + 2
    zero = np.zeros_like(m)
    # Both sides at once: from k = 0 up to the mode, and from k = m down to it.
    both = np.concatenate([m, m])
    ends = np.concatenate([zero, m])
    narrow = _widths(ends, both, route, lam, confidence) <= width
    roots = _bisect(both, ends, np.concatenate([mode, mode]), route, lam, confidence, width,
                    steps)
    size = m.shape[0]
    k_low = np.where(narrow[:size], roots[:size], -1.0)
    k_high = np.where(narrow[size:], roots[size:], m + 1.0)
    everywhere = _widths(mode, m, route, lam, confidence) <= width
    # Which case each m is in: every k narrow, or which sides have narrow ks.
    status = np.where(everywhere, 4, narrow[:size] * 1 + narrow[size:] * 2)
    return np.where(everywhere, m, k_low), np.where(everywhere, 0.0, k_high), status


def _prob_within(n, share, p, route, lam, confidence, width):
    """P(width <= `width`) over test sets of n items (exact up to the m interpolation)."""
    if share >= 1.0:
        ms, weights = np.array([float(n)]), np.array([1.0])
    else:
        mean, sd = n * share, math.sqrt(n * share * (1.0 - share))
        first = max(0, int(math.floor(mean - 8.0 * sd)))
        last = min(n, int(math.ceil(mean + 8.0 * sd)))
        if last - first + 1 <= 4001:
            ms = np.arange(first, last + 1, dtype=float)
            weights = stats.binom.pmf(ms, n, share)
        else:
            # A Riemann sum over an even grid of m (the pmf is smooth at this size).
            ms = np.unique(np.round(np.linspace(first, last, 4001)))
            weights = stats.binom.pmf(ms, n, share) * np.gradient(ms)
    nodes = ms if ms.shape[0] <= _M_NODES else np.unique(
        np.round(np.linspace(ms[0], ms[-1], _M_NODES)))
    k_low, k_high, status = _k_roots(nodes, route, lam, confidence, width)
    if nodes.shape[0] != ms.shape[0]:
        # Roots as shares of m vary smoothly with m while the case does not change:
        # interpolate those; between two nodes of different cases (a side gains its
        # narrow ks, or every k turns narrow) solve every m.
        right = np.clip(np.searchsorted(nodes, ms), 0, nodes.shape[0] - 1)
        left = np.clip(right - 1, 0, nodes.shape[0] - 1)
        changing = status[left] != status[right]
        k_low_all = np.interp(ms, nodes, k_low / np.maximum(nodes, 1.0)) * ms
        k_high_all = np.interp(ms, nodes, k_high / np.maximum(nodes, 1.0)) * ms
        if changing.any():
            k_low_all[changing], k_high_all[changing], _ = _k_roots(
                ms[changing], route, lam, confidence, width)
        k_low, k_high = k_low_all, k_high_all
    inside = stats.binom.cdf(np.floor(k_low), ms, p) + stats.binom.sf(np.ceil(k_high) - 1.0, ms, p)
    return float(np.clip(np.sum(weights * np.minimum(inside, 1.0)) / np.sum(weights), 0.0, 1.0))


def _sampled_widths(n, share, p, route, lam, confidence, size, rng):
    """Widths of `size` test sets of n items, drawn (for the width's distribution)."""
    m = rng.binomial(n, share, size).astype(float) if share < 1.0 else np.full(size, float(n))
    k = rng.binomial(m.astype(np.int64), p).astype(float)
    return _widths(k, m, route, lam, confidence)


# ---------------------------------------------------------------------------
# The population
# ---------------------------------------------------------------------------


def _pilot_shares(pilot, lam, average, pos_label=1):
    """(kind, shares, labels) of the pilot: its posterior mean cell shares (each cell's
    count plus λ, normalised).  kind "binary": shares of (tp, fp, fn, tn); "matrix":
    the K x K shares, rows true."""
    import pandas as pd

    if isinstance(pilot, ConfusionCounts):
        if pilot.shape != ():
            fail("pilot", "one binary table (a 0-d ConfusionCounts) or a K x K matrix "
                 "(ConfusionMatrix, array or DataFrame)", pilot, shown=f"cells of shape "
                 f"{pilot.shape}")
        cells = np.array([float(getattr(pilot, c)) for c in _CELLS])
        return "binary", (cells + lam) / (cells.sum() + 4 * lam), None
    if isinstance(pilot, ConfusionMatrix):
        matrix, labels = np.asarray(pilot.matrix, dtype=float), list(pilot.labels)
    elif isinstance(pilot, pd.DataFrame):
        rows = [str(v) for v in pilot.index]
        columns = [str(v) for v in pilot.columns]
        if sorted(rows) != sorted(columns) or len(set(rows)) != len(rows):
            fail("pilot", "a K x K DataFrame whose columns are its index's labels (rows true, "
                 "columns predicted)", pilot, shown=f"index {rows} and columns {columns}")
        # The columns in the rows' order, whatever order the table came in.
        order = [columns.index(v) for v in rows]
        matrix, labels = pilot.to_numpy(dtype=float)[:, order], list(pilot.index)
    else:
        try:
            matrix = np.asarray(to_host(pilot, "pilot"), dtype=float)
        except (TypeError, ValueError):
            fail("pilot", "a ConfusionCounts, a ConfusionMatrix or a K x K array of counts",
                 pilot, error=TypeError)
        labels = list(range(matrix.shape[0])) if matrix.ndim == 2 else None
    if matrix.ndim != 2 or matrix.shape[0] != matrix.shape[1] or matrix.shape[0] < 2:
        fail("pilot", "a square K x K matrix of counts with K >= 2", pilot,
             shown=f"shape {matrix.shape}")
    if not np.all(np.isfinite(matrix)) or np.any(matrix < 0):
        fail("pilot", "finite, non-negative counts", pilot,
             shown="negative or non-finite counts")
    if matrix.shape[0] == 2 and average == "binary":
        # The table of pos_label (the second of labels 0, 1, as scikit-learn's layout
        # reads), the rule of every entry point that takes a 2 x 2 matrix.
        i = positive_position(labels, pos_label)
        (tp, fn), (fp, tn) = matrix[[i, 1 - i]][:, [i, 1 - i]]
        cells = np.array([tp, fp, fn, tn])
        return "binary", (cells + lam) / (cells.sum() + 4 * lam), None
    return "matrix", (matrix + lam) / (matrix.sum() + matrix.size * lam), labels


def _expected_shares(spec, expected, prevalence, beta):
    """Binary cell shares from an expected value (and the share of items it counts)."""
    if spec.name in ("accuracy", "error"):
        right = expected if spec.name == "accuracy" else 1.0 - expected
        # Only the right/wrong split matters for these; split each half by half.
        return np.array([right, 1 - right, 1 - right, right]) / 2.0
    if spec.name in ("f1", "fbeta", "e_measure"):
        f = expected if spec.name != "e_measure" else 1.0 - expected
        # As many predicted positives as positives: precision = recall = F.
        tp, wrong = prevalence * f, prevalence * (1.0 - f)
        return np.array([tp, wrong, wrong, max(1.0 - tp - 2 * wrong, 0.0)])
    route = _beta_route(spec.exact, beta)
    if route is None:
        return None
    # The metric is a / (a + b) of its cells: `prevalence` of the items in them, a share
    # `expected` of those on the "a" side, spread evenly over each side's cells.
    shares = dict.fromkeys(_CELLS, 0.0)
    for cell in route.cells_a:
        shares[cell] += prevalence * expected / len(route.cells_a)
    for cell in route.cells_b:
        shares[cell] += prevalence * (1.0 - expected) / len(route.cells_b)
    rest = [c for c in _CELLS if c not in route.cells_a + route.cells_b]
    for cell in rest:
        shares[cell] += (1.0 - prevalence) / len(rest)
    # (A metric of every cell has prevalence 1 here: nothing is left for `rest`.)
    return np.array([shares[c] for c in _CELLS])


def _route_shares(route, shares):
    """(s, p): the share of items the metric counts, and its "a" side's share of them."""
    cells = dict(zip(_CELLS, shares, strict=True))
    a = sum(cells[c] for c in route.cells_a)
    b = sum(cells[c] for c in route.cells_b)
    return min(a + b, 1.0), a / (a + b)


# ---------------------------------------------------------------------------
# The search
# ---------------------------------------------------------------------------


def _smallest_n(prob, start, assurance, precision=0.02):
    """The smallest n (to within `precision`, relative) with prob(n) >= assurance,
    bracketed from `start`; the evaluated points as {n: prob}."""
    seen = {}

    def at(n):
        n = int(min(max(n, 1), _MAX_ITEMS))
        if n not in seen:
            seen[n] = prob(n)
        return n, seen[n]

    n, value = at(start)
    if value >= assurance:
        high, low = n, None
        while low is None:
            if high == 1:
                return 1, seen
            n, value = at(max(1, math.floor(high / 1.5)))
            if value >= assurance:
                high = n
            else:
                low = n
    else:
        low, high = n, None
        while high is None:
            if low >= _MAX_ITEMS:
                fail("width", f"a width reachable with at most {_MAX_ITEMS:.0e} items",
                     None, shown="a narrower one")
            n, value = at(math.ceil(low * 1.5) + 1)
            if value >= assurance:
                high = n
            else:
                low = n
    while high - low > max(1, precision * high):
        n, value = at(round(math.sqrt(low * high)) if low > 0 else (low + high) // 2)
        if n in (low, high):
            n, value = at((low + high) // 2)
            if n in (low, high):
                break
        if value >= assurance:
            high = n
        else:
            low = n
    return high, seen


def _start(route, s, p, lam, confidence, width):
    """The normal approximation's n: the width at the expected counts equals `width`."""
    z = stats.norm.ppf(0.5 + confidence / 2.0)
    step = 1e-6
    slope = (route.transform(min(p + step, 1.0)) - route.transform(max(p - step, 0.0))) / (
        2 * step)
    spread = max(p * (1.0 - p), 1.0 / 16.0 * 1e-3)
    n = (2.0 * z * route.scale * slope) ** 2 * spread / (max(s, 1e-9) * width ** 2)
    return max(1, int(n))


def _simulator(kind, shares, labels, spec, average, beta, lam, confidence, n_sims, n_draws,
               rng, averaged=None):
    """widths(n): the interval widths of `n_sims` test sets of n items (posteriors drawn
    with `n_draws` draws where sampled)."""
    seed = int(rng.integers(2**63))

    def widths(n):
        local = np.random.default_rng([seed, n])
        if kind == "binary":
            cells = local.multinomial(n, shares, size=n_sims).astype(float)
            counts = ConfusionCounts(*cells.T)
            posterior = metric_posterior(counts, metric=spec.name, prior=lam, beta=beta,
                                         n_draws=n_draws, random_state=local)
            low, high = posterior.interval(confidence)
            return np.asarray(high, dtype=float) - np.asarray(low, dtype=float)
        size = len(labels)
        out = np.empty(n_sims)
        tables = local.multinomial(n, shares.ravel(), size=n_sims).reshape(n_sims, size, size)
        for i, table in enumerate(tables):
            posterior = metric_posterior(ConfusionMatrix(table, labels=labels),
                                         metric=spec.name, average=average, labels=averaged,
                                         prior=lam, beta=beta, n_draws=n_draws,
                                         random_state=local)
            low, high = posterior.interval(confidence)
            out[i] = float(high) - float(low)
        return out

    return widths


def _simulated_n(widths, start, width, assurance, precision=0.03):
    """n where the widths' `assurance` quantile meets `width`, followed on the log-log
    scale (a slope of -1/2 until two points give their own); {n: widths} evaluated."""
    seen = {}
    n = int(min(max(4, start), _MAX_ITEMS))
    for _ in range(8):
        if n not in seen:
            seen[n] = widths(n)
        quantile = float(np.quantile(seen[n], assurance))
        ns = sorted(seen)
        slope = -0.5
        if len(ns) >= 2:
            near = sorted(ns, key=lambda m: abs(math.log(m / n)))[:2]
            q = [math.log(float(np.quantile(seen[m], assurance))) for m in near]
            if near[0] != near[1] and q[0] != q[1]:
                slope = float(np.clip((q[0] - q[1]) / math.log(near[0] / near[1]), -1.0,
                                      -0.25))
        following = int(min(max(round(n * (width / quantile) ** (1.0 / slope)), 4),
                            _MAX_ITEMS))
        if n >= _MAX_ITEMS and np.mean(seen[n] <= width) < assurance:
            fail("width", f"a width reachable with at most {_MAX_ITEMS:.0e} items", width)
        if abs(following - n) <= precision * n:
            if np.mean(seen[n] <= width) >= assurance:
                break
            # Within reach but short of the assurance (Monte Carlo noise): a step up.
            following = max(following, math.ceil(n * (1.0 + precision)))
        n = following
    # The answer: the smallest evaluated n that meets the assurance, else the last.
    meeting = [m for m in sorted(seen) if np.mean(seen[m] <= width) >= assurance]
    return (meeting[0] if meeting else n), seen


@renamed_keyword("n_samples", "n_draws")
def plan_test_size(*, metric="f1", width, pilot=None, expected=None, prevalence=None,
                   confidence=0.95, average="binary", labels=None, assurance=0.8, prior=0.5,
                   beta=1.0, n_sims=400, n_draws=N_DRAWS, random_state=None,
                   cluster_size=None, icc=None, pos_label=1, pilot_clusters=None,
                   proxy_agreement=None, pool_size=None):
    """How many items must a test set have for the metric's interval to be `width` wide?

    The smallest n whose equal-tailed credible interval is at most `width`
    wide with probability `assurance`, over test sets of n items drawn from
    a guessed population: the cell shares of `pilot` (a table from a pilot
    study or an earlier model), or for metrics that one share determines,
    the `expected` value with the `prevalence` of the items it counts.

    Exact where the posterior is a Beta or a monotone map of one (precision,
    recall, accuracy, specificity and the other Beta metrics; F1 through the
    Jaccard index; their affine maps): sums over the test set's counts,
    within 0.001 of a brute-force sum.  Simulated elsewhere (informedness,
    markedness, MCC, F-beta with beta != 1, averages over a K x K pilot):
    `n_sims` test sets at each size tried, each with its own posterior.
    For a test set of clusters, with `cluster_size` and `icc` or from a
    clustered pilot (`pilot_clusters`), the plan is in clusters; with a
    second labeller on every item (`proxy_agreement`, `pool_size`), in
    gold labels.

    Parameters
    ----------
    metric : str, default="f1"
        A name from `available_metrics`.
    width : float
        The widest acceptable interval: > 0, less than the metric's range
        (1, or 2 for informedness, markedness, MCC and the K-measure).
    pilot : ConfusionCounts, ConfusionMatrix, array-like or DataFrame, default=None
        A binary table (0-d `ConfusionCounts`) or a K x K confusion matrix
        (rows true labels): the population's cell shares are its posterior
        mean (each count plus `prior`, normalised).  A 2 x 2 matrix with
        ``average="binary"`` takes `pos_label` as the positive label.
    expected : float, default=None
        Instead of a pilot: the metric's expected value.
    prevalence : float, default=None
        With `expected`: the share of all items that the metric counts,
        in (0, 1] — the positives for recall, the predicted positives for
        precision, the negatives for specificity and fallout, the positives
        for F1 / F-beta (whose population then has as many predicted
        positives as positives, so that precision = recall = F).  Not
        needed for accuracy and error.
    confidence : float, default=0.95
        Level of the interval.
    average : {"binary", "micro", "macro", "weighted"}, default="binary"
        How a K x K pilot's labels are averaged (as `metric_posterior`).
    labels : array-like, default=None
        Labels of a K x K pilot to average over (default: all).
    pos_label : int, float, bool or str, default=1
        The positive label of a 2 x 2 pilot with ``average="binary"`` (the
        second of labels 0, 1); pilots whose labels lack it are refused.
    assurance : float, default=0.8
        Probability, over test sets, that the interval is narrow enough.
    prior : float or {"jeffreys", "uniform"}, default=0.5
        Dirichlet concentration of the posterior (and of the pilot's shares).
    beta : float, default=1.0
        F-beta's beta.
    n_sims : int, default=400
        Test sets simulated at each size (simulation route), and drawn for
        `TestSizePlan.widths`.
    n_draws : int, default=10_000
        Posterior draws of each simulated test set's sampled posterior.
    random_state : None, int or numpy.random.Generator, default=None
        Seed of the simulated test sets.
    cluster_size : float, default=None
        For a test set of clusters (patients with several images, documents
        with several sentences: the posteriors' ``groups=``), the mean
        number of items a cluster holds, with `icc`.  The plan is then in
        clusters (`TestSizePlan.n_clusters`) and in items: a cluster of
        ``m`` items of which the metric counts a share ``s`` (the positives
        for recall; 1 for the simulated metrics) is worth ``m / deff``
        independent items, ``deff = 1 + s (m - 1) icc`` (Kish's design
        effect of a ratio whose clusters hold a binomial number of counted
        items), and few clusters widen the clustered posterior by its
        weights' concentration ``a = C / (C + 3)``: the plan is the
        smallest number of clusters ``C`` whose ``m (a C + 1) / deff - 1``
        equivalent items meet the plan without clusters.
        An approximation: on simulated test sets of recall 0.9 (prevalence
        0.2, clusters of 5, 10 and 30 items, icc 0.05, 0.2 and 0.5) the
        planned clusters met the width in 0.75-0.86 of test sets where 0.8
        was asked (the width of few clusters varies more than that of as
        many independent items; measured with the weights' earlier
        concentration, and 0.78 for clusters of 10 at icc 0.2 with the
        current one); plan with some margin.
    icc : float, default=None
        With `cluster_size`: the intra-cluster correlation of the items'
        outcomes (in [0, 1]; 0: items of a cluster as independent as any).
    pilot_clusters : ClusteredPosterior, default=None
        Instead of `cluster_size` and `icc` (giving both is an error): the
        posterior of the metric on a clustered pilot, computed with
        ``groups=`` (``recall_posterior(y_true, y_pred, groups=patient)``).
        Its mean cluster size ``m = n_items / n_clusters`` is the planned
        clusters' size, and its `effective_n` gives the design effect, as
        the plan reads clusters: ``deff = m (a C + 1) / (effective_n + 1)``
        (at least 1) for its ``C`` clusters, ``a = C / (C + 3)``; the
        plan's `icc` is the one of that design effect.  The population's
        shares still come from `pilot` or `expected`.  The design effect of
        ``C`` clusters is uncertain, and a small pilot's is as often too
        low as too high: the plan averages its assurance over the design
        effect's posterior (a scaled inverse chi-square on ``(C - 1) / 2``
        degrees of freedom around the pilot's, at least 1) and is the
        smallest number of clusters whose average reaches `assurance`;
        `prob_within` is that average.  For recall 0.9 on 20% positives in
        clusters of 10 (icc 0.2), the plans of 40 pilots of 40 clusters met
        the width in 0.83 +- 0.02 of test sets on average where 0.8 was
        asked, with 1.11 times the clusters of the plan from the
        population's icc (0.79 +- 0.02 and 1.05 from pilots of 100
        clusters; the design effect taken as known: 0.67 and 0.73; on less
        skewed clusters, accuracy in clusters of 5, 0.92 and 0.87 with 1.23
        and 1.08 times the clusters, where the population's design effect
        met it in 0.87).  The
        smaller the pilot, the larger the plan: at the design effect 1.36,
        211 clusters from a pilot of 10 clusters, 135 from 40, 123 from
        100, 115 as if known.
    proxy_agreement : float, default=None
        With `pool_size`: plan for a second labeller (a proxy: a stronger
        model, an LLM judge) that labels every item of a pool of
        `pool_size` items, of which the gold-labelled ones are a random
        sample (`metric_posterior` with ``proxy=``); the share of items
        whose proxy label is the gold label, in [0, 1].  The plan is then
        the number of gold labels: `n_items` counts the gold-labelled items
        (`n_items_without_proxy` those needed without the proxy).  Simulated
        for binary populations and every metric the proxy posterior takes:
        `n_sims` pools at each number of gold labels tried, whose proxy
        agrees with the gold label at that rate, independently of the
        prediction (a proxy that errs where the system errs is worth less:
        plan with a lower agreement), each with its own proxy posterior of
        `n_draws` draws.  Not with clusters nor a K x K pilot.
    pool_size : int, default=None
        With `proxy_agreement`: the items the proxy labels (the test set,
        the gold-labelled items among them).  A pool smaller than the plan
        without a proxy is refused: labelling all of it would not reach
        the width.

    Returns
    -------
    TestSizePlan
        `n_items`, `prob_within` at that size, the width's distribution
        there (`widths`) and `plot()` of the width against the size; with
        clusters also `n_clusters` and `design_effect`; with a proxy,
        `n_items` is the number of gold labels, beside `pool_size` and
        `n_items_without_proxy`.

    See Also
    --------
    metric_posterior : The posterior whose interval is planned for.

    Examples
    --------
    Recall within 0.1 (a 95% interval at most 0.1 wide, in 80% of test
    sets) where about 20% of the items are positive and recall is near 0.9:

    >>> from skprobeval import plan_test_size
    >>> plan = plan_test_size(metric="recall", width=0.1, expected=0.9, prevalence=0.2,
    ...                       random_state=0)
    >>> plan
    TestSizePlan(n_items=826, prob_within=0.8189, method='exact', metric='recall', width=0.1,
    confidence=0.95, assurance=0.8)

    From a pilot table, F1 within 0.05:

    >>> from skprobeval import ConfusionCounts
    >>> plan_test_size(metric="f1", width=0.05,
    ...                pilot=ConfusionCounts(tp=80, fp=12, fn=20, tn=88)).n_items
    1141

    The same recall on patients with 10 images each, images of one patient
    correlated (ICC 0.2):

    >>> plan = plan_test_size(metric="recall", width=0.1, expected=0.9, prevalence=0.2,
    ...                       cluster_size=10, icc=0.2, random_state=0)
    >>> plan.n_clusters, plan.n_items, round(plan.design_effect, 2)
    (115, 1150, 1.36)

    The same from a clustered pilot: the pilot's recall posterior with its
    patients as ``groups`` gives the clusters' size and design effect:

    >>> import numpy as np
    >>> from skprobeval import recall_posterior
    >>> rng = np.random.default_rng(0)
    >>> patient = np.repeat(np.arange(100), 10)
    >>> y_true = (rng.random(1000) < 0.2).astype(int)
    >>> found = rng.beta(3.6, 0.4, size=100)[patient]      # recall varies by patient
    >>> y_pred = np.where(rng.random(1000) < found, y_true, 1 - y_true)
    >>> pilot = recall_posterior(y_true, y_pred, groups=patient, random_state=0)
    >>> plan = plan_test_size(metric="recall", width=0.1, expected=0.9, prevalence=0.2,
    ...                       pilot_clusters=pilot, random_state=0)
    >>> plan.n_clusters, plan.cluster_size, round(plan.design_effect, 2)
    (133, 10.0, 1.47)

    Recall within 0.1 where a proxy agreeing with the gold label on 95% of
    the items labels all 5 000 items of the test set: the gold labels
    needed (about half of the 826 without the proxy):

    >>> plan = plan_test_size(metric="recall", width=0.1, expected=0.9, prevalence=0.2,
    ...                       proxy_agreement=0.95, pool_size=5000, n_sims=100,
    ...                       n_draws=2000, random_state=0)
    >>> plan.n_items < plan.n_items_without_proxy == 826
    True
    """
    if callable(metric) or not isinstance(metric, str):
        fail("metric", "a registered metric name (see available_metrics)", metric,
             error=TypeError)
    spec = get_metric(metric)
    lam = check_prior(prior)
    confidence = check_confidence(confidence)
    assurance = check_confidence(assurance, "assurance")
    beta = check_positive(beta, "beta")
    width = check_positive(width, "width")
    span = range_width(spec.name)
    if width >= span:
        fail("width", f"less than the range of {spec.name} ({span:g})", width)
    n_sims = _check_count(n_sims, "n_sims", 20)
    n_draws = check_draws(n_draws)
    rng = check_random_state(random_state)
    clustered = check_clusters(cluster_size, icc, pilot_clusters, spec.name)
    proxied = check_proxy(proxy_agreement, pool_size)
    if proxied is not None and clustered is not None:
        fail("proxy_agreement", "None for a test set of clusters (the proxy posterior takes "
             "no `groups`)", proxy_agreement)
    if (pilot is None) == (expected is None):
        fail("pilot", "given, or else `expected` (one of the two)", pilot,
             shown="both" if pilot is not None else "neither")
    if pilot is not None:
        kind, shares, pilot_labels = _pilot_shares(pilot, lam, average, pos_label)
        if kind == "matrix" and proxied is not None:
            fail("proxy_agreement", "None for a K x K pilot (a proxy's plan is for one "
                 "binary table)", proxy_agreement)
        if kind == "matrix":
            check_average(average, spec.name)
            if average in ("binary", None):
                fail("average", "'micro', 'macro' or 'weighted' for a K x K pilot (one "
                     "number to plan for)", average)
    else:
        kind, pilot_labels = "binary", None
        shares = _population_from_expected(spec, expected, prevalence, beta)
    route = _beta_route(spec.exact, beta) if kind == "binary" else None
    population = ({c: float(v) for c, v in zip(_CELLS, shares, strict=True)}
                  if kind == "binary" else {"labels": [str(v) for v in pilot_labels],
                                            "shares": shares.tolist()})
    settings = {"metric": spec.name, "average": average if kind == "matrix" else "binary",
                "width": width, "confidence": confidence, "assurance": assurance,
                "prior": lam, "population": population}
    if route is not None:
        s, p = _route_shares(route, shares)
        if s <= 0:
            fail("pilot" if pilot is not None else "prevalence",
                 f"a population with items that {spec.name} counts", s)

        def prob(n):
            return _prob_within(n, s, p, route, lam, confidence, width)

        n, seen = _smallest_n(prob, _start(route, s, p, lam, confidence, width), assurance)
        seed = int(rng.integers(2**63))

        def sampler(size):
            return _sampled_widths(size, s, p, route, lam, confidence, max(n_sims, 2000),
                                   np.random.default_rng([seed, size]))

        plan = TestSizePlan(n_items=int(n), prob_within=seen[n], mc_error=0.0, method="exact",
                            widths=sampler(n), _sampler=sampler, **settings)
        if proxied is not None:
            return _with_proxy(plan, spec, shares, proxied, beta, lam, n_sims, n_draws, rng)
        return in_clusters(plan, clustered, s, prob)
    if labels is not None and kind == "matrix":
        labels = plain_labels(np.asarray(to_host(labels, "labels")))
        absent = [v for v in labels if v not in plain_labels(pilot_labels)]
        if absent:
            fail("labels", f"labels of the pilot ({pilot_labels})", labels)
    widths = _simulator(kind, shares, pilot_labels, spec, average, beta, lam, confidence,
                        n_sims, n_draws, rng, labels)
    z = stats.norm.ppf(0.5 + confidence / 2.0)
    start = max(20, int((z * span / width) ** 2))
    n, seen = _simulated_n(widths, start, width, assurance)
    if n not in seen:
        seen[n] = widths(n)
    within = float(np.mean(seen[n] <= width))
    plan = TestSizePlan(n_items=int(n), prob_within=within,
                        mc_error=math.sqrt(within * (1 - within) / n_sims),
                        method="simulation", widths=seen[n],
                        _sampler=lambda size: seen[size] if size in seen else widths(size),
                        **settings)
    if proxied is not None:
        return _with_proxy(plan, spec, shares, proxied, beta, lam, n_sims, n_draws, rng)
    # (The share of items a simulated metric counts is taken as 1: conservative.)
    return in_clusters(plan, clustered, 1.0)


def _with_proxy(plan, spec, shares, proxied, beta, lam, n_sims, n_draws, rng):
    """`plan` (every item gold-labelled) with a proxy on a pool: the gold labels needed."""
    agreement, pool = proxied
    if plan.n_items > pool:
        fail("pool_size", f"at least the {plan.n_items} items the width needs with every "
             "item gold-labelled", pool)
    n, within, widths, sampler, _ = proxy_plan(
        spec, shares, agreement=agreement, pool_size=pool, without_proxy=plan.n_items,
        beta=beta, lam=lam, confidence=plan.confidence, width=plan.width,
        assurance=plan.assurance, n_sims=n_sims, n_draws=n_draws, rng=rng)
    return dataclasses.replace(plan, n_items=int(n), prob_within=within,
                               mc_error=math.sqrt(within * (1 - within) / n_sims),
                               method="simulation", widths=widths, _sampler=sampler,
                               pool_size=pool, proxy_agreement=agreement,
                               n_items_without_proxy=int(plan.n_items))


def _check_count(value, name, smallest):
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < smallest:
        fail(name, f"an int >= {smallest}", value)
    return int(value)


def _counts_every_cell(spec, beta):
    """True where the metric's Beta counts all four cells (prevalence then says nothing)."""
    if spec.name in ("accuracy", "error"):
        return True
    route = _beta_route(spec.exact, beta)
    return route is not None and set(route.cells_a + route.cells_b) == set(_CELLS)


def _population_from_expected(spec, expected, prevalence, beta):
    """Cell shares from `expected` and `prevalence`, checked."""
    low = 1.0 - range_width(spec.name)
    value = real(expected)
    if value is None or not low <= value <= 1.0:
        fail("expected", f"a value of {spec.name} in [{low:g}, 1]", expected)
    expected = value
    if _counts_every_cell(spec, beta):
        # Every item counts: the share is 1, whatever `prevalence` says.
        prevalence = 1.0
    else:
        if prevalence is None:
            fail("prevalence", f"given with `expected` for {spec.name} (the share of items "
                 "it counts)", prevalence)
        share = real(prevalence)
        if share is None or not 0.0 < share <= 1.0:
            fail("prevalence", "a share in (0, 1]", prevalence)
        prevalence = share
        if spec.name in ("f1", "fbeta", "e_measure"):
            f = expected if spec.name != "e_measure" else 1.0 - expected
            # tp + fp + fn = prevalence (2 - F) of the items must fit in all of them.
            if prevalence * (2.0 - f) > 1.0 + 1e-12:
                fail("prevalence", f"at most 1 / (2 - F) = {1.0 / (2.0 - f):.4g} for "
                     f"{spec.name} {expected:g} (positives as many as predicted positives)",
                     prevalence)
    shares = _expected_shares(spec, expected, prevalence, beta)
    if shares is None:
        fail("expected", f"a pilot table instead (`pilot`): {spec.name} is not determined by "
             "one share", expected)
    return shares
