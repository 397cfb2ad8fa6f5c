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
import numbers
from dataclasses import dataclass, field

import numpy as np
from scipy import special, stats

from .._core import (
    N_DRAWS,
    ResultMixin,
    check_confidence,
    check_draws,
    check_positive,
    check_prior,
    check_random_state,
    fail,
    renamed_keyword,
    rounded,
    to_host,
)
from .._counting import ConfusionCounts, ConfusionMatrix, plain_labels, positive_position
from .._metrics import check_average, get_metric, range_width
from .._posteriors import metric_posterior

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


@dataclass(frozen=True, slots=True, eq=False)
class TestSizePlan(ResultMixin):
    """How many items a test set needs for an interval of a given width.

    Returned by `plan_test_size`.

    Attributes
    ----------
    n_items : int
        The smallest number of items whose interval is at most `width` wide
        with probability `assurance` (to within 2% for the exact route, 3%
        for the simulated one).
    prob_within : float
        P(interval width <= `width`) for a test set of `n_items` items.
    mc_error : float
        Monte Carlo standard error of `prob_within` (0.0 for the exact route).
    method : {"exact", "simulation"}
        Exact sums over the counts of a Beta posterior, or simulated test
        sets.
    widths : ndarray
        Interval widths of test sets of `n_items` items drawn from the
        population (seeded): the width's distribution at that size.
    metric, average, width, confidence, assurance, prior
        The settings.
    population : dict
        The cell shares the test sets are drawn from (``tp, fp, fn, tn``; a
        K x K table of shares, rows true, for a multiclass pilot).

    Methods
    -------
    summary()
        The plan as a dict: `n_items`, `prob_within`, the median width and
        the width at `assurance`.
    plot(ax=None, *, kind="curve")
        The width against the number of items (median and the `assurance`
        quantile, the target and `n_items` marked), or ``kind="distribution"``:
        the histogram of `widths`.

    Examples
    --------
    >>> from skprobeval import plan_test_size
    >>> plan = plan_test_size(metric="accuracy", width=0.05, expected=0.9, random_state=0)
    >>> plan.n_items, plan.method
    (612, 'exact')
    >>> round(plan.summary()["width_at_assurance"], 4)
    0.0495
    """

    __test__ = False      # a result, not a test class, where tests import it

    n_items: int
    prob_within: float
    mc_error: float
    method: str
    widths: np.ndarray = field(repr=False)
    metric: str = "f1"
    average: str | None = "binary"
    width: float = 0.1
    confidence: float = 0.95
    assurance: float = 0.8
    prior: float = 0.5
    population: dict = field(default_factory=dict, repr=False)
    #: With clusters (``cluster_size`` and ``icc``): the clusters to label, their mean
    #: size, the intra-cluster correlation and the design effect; else None.
    n_clusters: int | None = None
    cluster_size: float | None = None
    icc: float | None = None
    design_effect: float | None = None
    _sampler: object = field(default=None, repr=False, compare=False)

    def __repr__(self):
        mc = "" if self.method == "exact" else f", mc_error={rounded(self.mc_error)}"
        clusters = ("" if self.n_clusters is None else
                    f", n_clusters={self.n_clusters}, design_effect="
                    f"{rounded(self.design_effect)}")
        return (f"TestSizePlan(n_items={self.n_items}{clusters}, "
                f"prob_within={rounded(self.prob_within)}"
                f"{mc}, method={self.method!r}, metric={self.metric!r}, width={self.width:g}, "
                f"confidence={self.confidence:g}, assurance={self.assurance:g})")

    def summary(self):
        """The plan as a dict.

        Returns
        -------
        dict
            ``n_items``, ``prob_within``, ``mc_error``, ``median_width``,
            ``width_at_assurance`` (the `assurance` quantile of the widths),
            ``method`` and the settings.
        """
        return {"n_items": int(self.n_items), "prob_within": float(self.prob_within),
                "mc_error": float(self.mc_error),
                "median_width": float(np.median(self.widths)),
                "width_at_assurance": float(np.quantile(self.widths, self.assurance)),
                "method": self.method, "metric": self.metric, "average": self.average,
                "width": self.width, "confidence": self.confidence,
                "assurance": self.assurance, "prior": self.prior,
                **({} if self.n_clusters is None else
                   {"n_clusters": int(self.n_clusters), "cluster_size": self.cluster_size,
                    "icc": self.icc, "design_effect": self.design_effect})}

    def _dict_content(self):
        return {"type": type(self).__name__, **self.summary(), "population": self.population}

    def curve(self, n_items=None):
        """The width's median and `assurance` quantile over a range of test-set sizes.

        Parameters
        ----------
        n_items : array-like of int, default=None
            Sizes to evaluate; by default 12 sizes from a tenth to three
            times `n_items`.

        Returns
        -------
        pandas.DataFrame
            Index ``n_items``; columns ``median_width``, ``width_at_assurance``
            and ``prob_within`` (the share of sampled test sets within
            `width`).
        """
        import pandas as pd

        if n_items is None:
            n_items = np.unique(np.geomspace(max(2, self.n_items / 10), 3 * self.n_items,
                                             12).astype(np.int64))
        rows = {}
        for n in np.asarray(n_items, dtype=np.int64):
            widths = self._sampler(int(n))
            rows[int(n)] = {"median_width": float(np.median(widths)),
                            "width_at_assurance": float(np.quantile(widths, self.assurance)),
                            "prob_within": float(np.mean(widths <= self.width))}
        frame = pd.DataFrame.from_dict(rows, orient="index")
        frame.index.name = "n_items"
        return frame

    def plot(self, ax=None, *, kind="curve"):
        """The width against the number of items, or the width's distribution.

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Where to draw.
        kind : {"curve", "distribution"}, default="curve"
            ``"curve"``: median width and its `assurance` quantile against
            the number of items (log scale), the target width and `n_items`
            marked; ``"distribution"``: the histogram of `widths`.

        Returns
        -------
        matplotlib.axes.Axes
        """
        from .._core import axes_or_new

        if kind not in ("curve", "distribution"):
            fail("kind", "'curve' or 'distribution'", kind)
        ax = axes_or_new(ax)
        if kind == "distribution":
            ax.hist(self.widths, bins=40, color="C0", alpha=0.8)
            ax.axvline(self.width, color="C3", label=f"target {self.width:g}")
            ax.set_xlabel(f"width of the {self.confidence:.0%} interval at "
                          f"{self.n_items} items")
            ax.set_ylabel("test sets")
            ax.legend(frameon=False)
            return ax
        curve = self.curve()
        ax.plot(curve.index, curve["width_at_assurance"], "o-", color="C0",
                label=f"width at P = {self.assurance:g}")
        ax.plot(curve.index, curve["median_width"], "--", color="C0", alpha=0.6,
                label="median width")
        ax.axhline(self.width, color="C3", linewidth=1, label=f"target {self.width:g}")
        ax.axvline(self.n_items, color="0.4", linewidth=1, linestyle=":",
                   label=f"{self.n_items} items")
        ax.set_xscale("log")
        ax.set_xlabel("items in the test set")
        ax.set_ylabel(f"width of the {self.confidence:.0%} interval of {self.metric}")
        ax.legend(frameon=False)
        return ax


@renamed_keyword("n_samples", "n_draws")
def plan_test_size(*, metric="f1", width, pilot=None, expected=None, prevalence=None,
                   confidence=0.95, average="binary", labels=None, assurance=0.8, prior=0.5,
                   beta=1.0, n_sims=400, n_draws=N_DRAWS, random_state=None,
                   cluster_size=None, icc=None, pos_label=1):
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
        weights' concentration ``(C - 1) / (C + 2)``: the plan is the
        smallest number of clusters ``C`` whose ``m ((C - 1) C / (C + 2) +
        1) / deff - 1`` equivalent items meet the plan without clusters.
        An approximation: on simulated test sets of recall 0.9 (prevalence
        0.2, clusters of 5, 10 and 30 items, icc 0.05, 0.2 and 0.5) the
        planned clusters met the width in 0.75-0.86 of test sets where 0.8
        was asked (the width of few clusters varies more than that of as
        many independent items); plan with some margin.
    icc : float, default=None
        With `cluster_size`: the intra-cluster correlation of the items'
        outcomes (in [0, 1]; 0: items of a cluster as independent as any).

    Returns
    -------
    TestSizePlan
        `n_items`, `prob_within` at that size, the width's distribution
        there (`widths`) and `plot()` of the width against the size; with
        clusters also `n_clusters` and `design_effect`.

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
    clustered = _check_clusters(cluster_size, icc)
    if (pilot is None) == (expected is None):
        fail("pilot", "given, or else `expected` (one of the two)", pilot,
             shown="both" if pilot is not None else "neither")
    if pilot is not None:
        kind, shares, pilot_labels = _pilot_shares(pilot, lam, average, pos_label)
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
        return _in_clusters(plan, clustered, s)
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
    # (The share of items a simulated metric counts is taken as 1: conservative.)
    return _in_clusters(plan, clustered, 1.0)


def _check_clusters(cluster_size, icc):
    """(m, icc) of a clustered plan, or None; both or neither given."""
    if cluster_size is None and icc is None:
        return None
    if cluster_size is None or icc is None:
        fail("cluster_size" if cluster_size is None else "icc",
             "given with `icc`" if cluster_size is None else "given with `cluster_size`",
             None)
    size, correlation = _real(cluster_size), _real(icc)
    if size is None or not (math.isfinite(size) and size >= 1.0):
        fail("cluster_size", "a mean number of items per cluster, at least 1", cluster_size)
    if correlation is None or not 0.0 <= correlation <= 1.0:
        fail("icc", "an intra-cluster correlation in [0, 1]", icc)
    return size, correlation


def _equivalent_items(n_clusters, size, effect):
    """Independent items worth `n_clusters` clusters of `size` items at design effect
    `effect`: the clusters' Bayesian bootstrap with Gamma((C - 1)/(C + 2)) weights has
    the variance of ``m (a C + 1) / deff - 1`` independent items."""
    a = (n_clusters - 1.0) / (n_clusters + 2.0)
    return size * (a * n_clusters + 1.0) / effect - 1.0


def _in_clusters(plan, clustered, share):
    """`plan` (for independent items) in clusters: the smallest number of clusters worth
    its items, with the widths of that many equivalent items."""
    if clustered is None:
        return plan
    size, icc = clustered
    effect = max(1.0, 1.0 + share * (size - 1.0) * icc)
    if size == 1.0:
        # One item a cluster: the posterior without clusters, exactly.
        n_clusters = plan.n_items
    else:
        n_clusters = 2
        while _equivalent_items(n_clusters, size, effect) < plan.n_items:
            n_clusters *= 2
        low = n_clusters // 2
        while n_clusters - low > 1:
            middle = (low + n_clusters) // 2
            if _equivalent_items(middle, size, effect) >= plan.n_items:
                n_clusters = middle
            else:
                low = middle
    sampler = plan._sampler

    def clustered_sampler(n_items):
        clusters = max(2.0, n_items / size)
        return sampler(max(2, int(round(_equivalent_items(clusters, size, effect)))))

    return dataclasses.replace(plan, n_items=int(math.ceil(n_clusters * size)),
                               n_clusters=int(n_clusters), cluster_size=float(size),
                               icc=float(icc), design_effect=float(effect),
                               _sampler=clustered_sampler if size > 1.0 else sampler)


def _check_count(value, name, smallest):
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < smallest:
        fail(name, f"an int >= {smallest}", value)
    return int(value)


def _real(value):
    """`value` as a float when it is a real number (a NumPy scalar or 0-d array too)."""
    if isinstance(value, (bool, np.bool_)):
        return None
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value.item()
    return float(value) if isinstance(value, numbers.Real) else None


def _counts_every_cell(spec, beta):
    """True where the metric's Beta counts all four cells (prevalence then says nothing)."""
    if spec.name in ("accuracy", "error"):
        return True
    route = _beta_route(spec.exact, beta)
    return route is not None and set(route.cells_a + route.cells_b) == set(_CELLS)


def _population_from_expected(spec, expected, prevalence, beta):
    """Cell shares from `expected` and `prevalence`, checked."""
    low = 1.0 - range_width(spec.name)
    value = _real(expected)
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
        share = _real(prevalence)
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
