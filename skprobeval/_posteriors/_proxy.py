"""Posteriors from a few gold labels and a second labeller on every item.

Gold labels are the expensive part of an evaluation.  Where every test item
also carries a cheaper second opinion -- a stronger or older model, an LLM
judge, a crowd label, a rule: the *proxy* -- the items without a gold label
still say how often each (proxy, prediction) combination occurs, and the
labelled items say how the gold label is spread within each combination.

The model (double sampling; Tenenbein 1970, in Bayesian form): the items'
strata ``s = (proxy, prediction)`` have shares ``pi ~ Dirichlet(M_s + a_s)``
from *all* items, and within a stratum the gold label has shares
``theta_s ~ Dirichlet(n_gs + b_gs)`` from the *labelled* items, which are a
random sample of their stratum (missing at random given the proxy and the
prediction).  The likelihood factorises into those two parts, so the two
Dirichlets are the exact posterior.  The (gold, prediction) table of the
population is ``p(g, y) = sum over proxies of pi_(proxy, y) theta_(proxy, y)(g)``
and every metric is read off its draws.

For one system's binary targets the prior splits the library's (gold,
prediction) cell prior evenly over the proxy's values (``b_gs = lambda_gy /
K``, ``a_s = sum_g b_gs``; `PROXY_LEAN`), so that by the Dirichlet's aggregation and
neutrality, with every item labelled the posterior is exactly the
labelled-only one: the proxy adds nothing then, and adds the more, the more
items it alone covers and the better it predicts the gold label.

With three labels or more the strata multiply (K^2 for one system) and most
hold a few gold labels or none; with two systems or more, binary too, the
strata where the systems differ -- those a paired difference rests on -- hold
few.  There the gold label's prior within a
stratum follows how the gold label relates to the stratum's labels -- equal
to the proxy's, to the prediction's, or another -- in all strata of the same
pattern (`PooledRates`), with a weight (how alike the pattern's strata are)
that the labelled items choose: a hierarchical Dirichlet-multinomial whose
weight and rates are drawn afresh from their posterior in every draw.
"""

from __future__ import annotations

import numpy as np
from scipy import special

from .._core import check_random_state, fail, warn_user
from .._counting import ConfusionCounts, joint_codes
from .._metrics import SHARE_OF_RIGHT, label_weights
from ._joint import average_values, label_concentration
from ._posterior import SampledPosterior, _out, rounded

__all__ = ["BARE_WARNING", "MASS_GRID", "PROXY_LEAN", "PooledRates", "ProxyPosterior",
           "ProxyTable", "check_proxy_cells", "label_counts", "labelled_values", "missing_labels",
           "proxy_posterior", "read_proxy", "table_metric"]

# The warning about combinations without a gold label (after their number).
BARE_WARNING = ("(proxy, prediction) combination(s) hold items but no gold label: the gold "
                "label there rests on the prior (wide).  Label a few items of each "
                "combination.")

# One binary system: the share of a (gold, prediction) cell's prior mass on the proxy's
# value equal to the gold label, the rest on the other value.  An even split: leaning to
# the proxy (0.6) made the 95% intervals at 50 gold labels 2-4% narrower and covered less
# (down to 0.895 where the even split kept 0.905 or more; the coverage grid's proxy
# section measures both).
PROXY_LEAN = 0.5
# Values drawn at once: draws x strata x labels.
_CHUNK_VALUES = 2_000_000
# Small integer labels: the table is read from the items' distinct (labelled, gold,
# predictions, proxy) combinations, each weighted by its count, where they take at
# most this many codes.  10^6 binary items, 10^3 labelled: read_proxy 70 -> 9 ms.
_DISTINCT_CODES = 1 << 16


class ProxyPosterior(SampledPosterior):
    """The posterior of a metric from gold labels on some items and a proxy on all.

    Built by `metric_posterior` (and the named posteriors) with ``proxy=``:
    draws of the (gold, prediction) table from the items' (proxy,
    prediction) shares and the gold labels' shares within them (see the
    theory page "A second labeller").  Every summary is a
    `SampledPosterior`'s.

    Parameters
    ----------
    samples : array-like of shape (n_draws,) or (n_draws, K)
        The posterior draws.
    n_items : float or array-like of shape (K,)
        Items (their weights), labelled or not; one per posterior for posteriors
        of several item sets (the groups of a `PosteriorMetricFrame`).
    n_labelled : float or array-like of shape (K,)
        Items with a gold label (their weights), as `n_items`.
    labelled_only : posterior
        The posterior of the labelled items alone (what it would be without
        the proxy).  A fair reference only where the labelled items are a
        random sample of all the items: after `plan_labels` chose them by
        stratum, it describes the chosen items, not the test set.

    Attributes
    ----------
    n_items, n_labelled, labelled_only
        As given.

    Examples
    --------
    >>> import numpy as np
    >>> from skprobeval import metric_posterior
    >>> rng = np.random.default_rng(0)
    >>> y_true = rng.integers(0, 2, 2_000)
    >>> y_pred = np.where(rng.random(2_000) < 0.85, y_true, 1 - y_true)
    >>> proxy = np.where(rng.random(2_000) < 0.95, y_true, 1 - y_true)
    >>> gold = np.where(np.arange(2_000) < 200, y_true, np.nan)   # 200 labelled
    >>> posterior = metric_posterior(gold, y_pred, metric="accuracy", proxy=proxy,
    ...                              random_state=0)
    >>> posterior.n_labelled, posterior.n_items
    (200.0, 2000.0)
    >>> width = np.subtract(*posterior.interval(0.95)[::-1])
    >>> alone = np.subtract(*posterior.labelled_only.interval(0.95)[::-1])
    >>> bool(width < 0.7 * alone)
    True
    """

    __slots__ = ("n_items", "n_labelled", "labelled_only")

    def __init__(self, samples, *, n_items, n_labelled, labelled_only):
        super().__init__(samples)
        self.n_items, self.n_labelled = _out(n_items), _out(n_labelled)
        self.labelled_only = labelled_only

    def __getitem__(self, index):
        if not self.shape:
            raise TypeError("A posterior of one table (0-d) cannot be indexed.")
        # Counts of several item sets are indexed with the posteriors; one set's stay.
        n_items, n_labelled = (value if np.ndim(value) == 0 else value[index]
                               for value in (self.n_items, self.n_labelled))
        return ProxyPosterior(self._samples[:, index], n_items=n_items,
                              n_labelled=n_labelled, labelled_only=self.labelled_only[index])

    def __repr__(self):
        def count(value):
            return int(value) if float(value).is_integer() else rounded(value)

        return (f"ProxyPosterior(n_draws={self.n_draws}, mean={rounded(self._mean_array())}, "
                f"mc_error={rounded(self._mc_error)}, n_labelled={count(self.n_labelled)}, "
                f"n_items={count(self.n_items)})")

    def _dict_content(self):
        content = super()._dict_content()
        low, high = self.labelled_only.interval(0.95)
        content.update(n_items=self.n_items, n_labelled=self.n_labelled,
                       labelled_only_width_95=_out(np.asarray(high) - np.asarray(low)))
        return content


def _is_missing(value):
    if value is None:
        return True
    if isinstance(value, float) and value != value:
        return True
    # pandas' NA and NaT, without importing pandas.
    return type(value).__name__ in ("NAType", "NaTType")


def missing_labels(y_true):
    """``(values, missing)``: the labels as an array and a boolean mask of the missing
    ones (NaN, None, pandas' NA, or masked), or ``(values, None)`` where none is."""
    if isinstance(y_true, np.ma.MaskedArray):
        mask = np.ma.getmaskarray(y_true)
        values = np.asarray(y_true.data)
        if values.ndim != 1:
            return y_true, None
        return values, (mask if mask.any() else None)
    values = np.asarray(y_true)
    if values.ndim != 1:
        return values, None
    if values.dtype.kind == "f":
        mask = np.isnan(values)
    elif values.dtype.kind == "O":
        mask = np.fromiter((_is_missing(v) for v in values), dtype=bool, count=values.size)
    else:
        return values, None
    return values, (mask if mask.any() else None)


def labelled_values(values, mask):
    """The labelled values as an array of their own type (ints stay ints)."""
    kept = values[~mask]
    if kept.dtype.kind == "O":
        kept = np.asarray(kept.tolist())
    if kept.dtype.kind == "f" and np.all(kept == np.round(kept)):
        kept = kept.astype(np.int64)
    return kept


class ProxyTable:
    """The double-sampling posterior of the (gold, prediction, ...) table of one or more
    systems, from gold labels on some items and a proxy on every item.

    Built by `read_proxy`.  ``joint`` holds the codes (gold, every system, the
    proxy; the gold code of an unlabelled item is meaningless), ``labelled``
    marks the items with a gold label, ``weight`` the items' weights.  The
    items may be the distinct combinations of the codes, weighted by their
    counts: the table is the same.
    """

    def __init__(self, joint, labelled, weight, n_systems, lam, prior=None):
        self.joint, self.labelled, self.weight = joint, labelled, weight
        self.n_systems = n_systems
        size = self.size = joint.classes.shape[0]
        codes = joint.codes
        gold, preds, proxy = codes[0], codes[1:1 + n_systems], codes[1 + n_systems]
        # Stratum of an item: (proxy, prediction of each system), proxy most significant.
        strata = proxy.astype(np.int64)
        for pred in preds:
            strata = strata * size + pred
        self.n_strata = n_strata = size ** (n_systems + 1)
        all_items = np.bincount(strata, weights=weight, minlength=n_strata)
        in_strata = np.bincount(gold[labelled] * n_strata + strata[labelled],
                                weights=weight[labelled],
                                minlength=size * n_strata).reshape(size, n_strata)
        occupied = all_items > 0
        sampled = in_strata.sum(axis=0) > 0
        self.single_stratum = np.count_nonzero(sampled) < 2 and np.count_nonzero(occupied) > 1
        self.bare = int(np.count_nonzero(occupied & ~sampled))
        # The (gold, predictions) cell prior, split over the proxy's values: with every
        # item labelled, the posterior of the (gold, predictions) table.  One system's
        # two labels put PROXY_LEAN of each cell's mass on the proxy agreeing with the
        # gold label (an even split); the strata of more labels or systems, whose gold
        # label follows the pooled rates, split it evenly.
        cells = prior if prior is not None else _cell_prior(size, n_systems, lam)
        lean = PROXY_LEAN if size == 2 and n_systems == 1 else 1.0 / size
        given = np.where(np.eye(size, dtype=bool), lean, (1.0 - lean) / max(size - 1, 1))
        within = (cells.reshape(size, 1, -1) * given[:, :, None]).reshape(size, -1)
        self.pi_alpha = all_items + within.sum(axis=0)
        self.in_strata = in_strata
        self._pooled = None
        if size > 2 or n_systems > 1:
            # Many labels or systems make many strata, most with few gold labels or none:
            # there the gold label follows how it relates to the stratum's labels
            # elsewhere, with a weight the data choose, drawn afresh in every draw
            # (`PooledRates`).  One system's binary strata keep the split cell prior.
            self._pooled = PooledRates(in_strata, size, n_systems)
            self.theta_mean = self._pooled.mean_shares()
        else:
            theta_alpha = self.theta_alpha = in_strata + within
            self.theta_mean = theta_alpha / theta_alpha.sum(axis=0, keepdims=True)
        self.n_items = float(weight.sum())
        self.n_labelled = float(weight[labelled].sum())

    def mean_table(self):
        """Posterior mean of the (gold, predictions...) shares, shape (K, K, ...)."""
        share = self.pi_alpha / self.pi_alpha.sum()
        size, m = self.size, self.n_systems
        return (self.theta_mean * share).reshape((size, size) + (size,) * m).sum(axis=1)

    def draw_within(self, count, rng):
        """Draws of the gold label's shares within every stratum, shape (count, K, strata)
        (a stratum of no prior mass and no gold label: zeros)."""
        if self._pooled is None:
            theta = rng.standard_gamma(self.theta_alpha, size=(count,) + self.in_strata.shape)
        else:
            theta = rng.standard_gamma(self.in_strata + self._pooled.draw_prior(count, rng))
        total = theta.sum(axis=1, keepdims=True)
        if self._pooled is None and (self.theta_alpha.sum(axis=0) > 0).all():
            theta /= total            # every stratum has prior mass: no empty total
        else:
            np.divide(theta, total, out=theta, where=total > 0)
        return theta

    def draws(self, n_draws, rng):
        """Chunks of draws of the (gold, predictions...) shares, shape (draws, K, K, ...)."""
        size, m, n_strata = self.size, self.n_systems, self.n_strata
        chunk = max(1, _CHUNK_VALUES // (n_strata * size))
        for start in range(0, n_draws, chunk):
            count = min(chunk, n_draws - start)
            share = rng.standard_gamma(self.pi_alpha, size=(count, n_strata))
            share /= share.sum(axis=1, keepdims=True)
            theta = self.draw_within(count, rng)
            # p(gold, preds) = sum over proxies of pi_(proxy, preds) theta_(proxy, preds)(gold).
            theta *= share[:, None, :]
            yield theta.reshape((count, size, size) + (size,) * m).sum(axis=2)


# The prior masses (items' worth) a stratum's gold-label shares may take, three labels
# or more: a grid on the log scale, wide enough for strata that differ at will (0.1)
# and for strata alike (1000: the pattern's rates, whatever the stratum's own items).
MASS_GRID = np.geomspace(0.1, 1000.0, 41)
# The mass's prior: every value of the grid alike (uniform on log c from 0.1 to 1000).
_LOG_MASS_PRIOR = np.zeros(MASS_GRID.shape)


def _relations(size, n_systems):
    """For every (gold, stratum): the stratum's pattern (which of its labels -- proxy,
    predictions -- are equal) and the gold label's relation to them (the first of them
    it equals, or one past the last for none), each as a small integer."""
    n_strata = size ** (n_systems + 1)
    digits = np.empty((n_systems + 1, n_strata), dtype=np.int64)
    rest = np.arange(n_strata)
    for k in range(n_systems, -1, -1):
        digits[k], rest = rest % size, rest // size
    # The pattern: each label's first position among the stratum's labels.
    first = np.stack([np.argmax(digits == digits[k], axis=0) for k in range(n_systems + 1)])
    pattern = np.zeros(n_strata, dtype=np.int64)
    for k in range(n_systems + 1):
        pattern = pattern * (n_systems + 1) + first[k]
    gold = np.arange(size)[:, None]
    equal = gold[:, :, None] == digits.T[None, :, :]          # (gold, stratum, position)
    relation = np.where(equal.any(axis=2), np.argmax(equal, axis=2), n_systems + 1)
    distinct = np.array([np.unique(digits[:, s]).shape[0] for s in range(n_strata)])
    return pattern, relation, distinct


class PooledRates:
    """How the gold label relates to a stratum's labels, pooled over strata of one pattern.

    A stratum's labels (the proxy's, each prediction's) form a pattern (which of them
    are equal); the gold label equals one of them, or another label.  Within a
    pattern, each stratum's gold-label shares are Dirichlet with mean the pattern's
    rates of those relations and a mass ``c`` (items' worth) that the data choose: a
    hierarchical Dirichlet-multinomial (Mosimann 1962).  Small ``c`` lets the strata
    differ, large ``c`` makes them alike.

    ``c`` takes the values of `MASS_GRID`, alike a priori (uniform on ``log c``),
    with a posterior from the Dirichlet-multinomial likelihood of the strata's
    labelled counts at the rates' mean.  Given ``c``, the rates have a Dirichlet
    posterior (half an item a relation) in which a stratum's ``n`` labelled items
    count ``(c + 1) / (c + n)`` each: items of one stratum share its shares, so they
    tell the pattern's rates less than as many items of as many strata (the design
    effect of a Dirichlet-multinomial; Kish 1965).
    Every posterior draw draws ``c`` for each pattern, then the rates, then the
    strata's shares, so that the uncertainty of both carries into the table (plug-in
    values would count the labelled items twice).
    """

    def __init__(self, in_strata, size, n_systems):
        pattern, relation, distinct = _relations(size, n_systems)
        self.n_relations = n_relations = n_systems + 2
        self.n_patterns = (n_systems + 1) ** (n_systems + 1)
        self.keys = pattern[None, :] * n_relations + relation
        self.n_keys = n_keys = self.n_patterns * n_relations
        self.pattern = pattern
        self.in_strata = in_strata
        flat = self.keys.ravel()
        # Only the relations a pattern allows: its distinct labels and, below K of
        # them, another label.
        self.allowed = np.bincount(flat, minlength=n_keys) > 0
        # A relation holding several labels ("another") shares its part among them.
        others = np.maximum(size - distinct, 1)[None, :]
        self.per_label = np.where(relation == n_systems + 1, 1.0 / others, 1.0)
        # The rates given each mass: a stratum's n items count (c + 1) / (c + n) each.
        n_stratum = in_strata.sum(axis=0)
        grid = MASS_GRID[:, None]
        counted = np.minimum(1.0, (grid + 1.0) / (grid + n_stratum))      # (grid, strata)
        weights = (in_strata[None, :, :] * counted[:, None, :]).reshape(grid.shape[0], -1)
        shift = np.arange(grid.shape[0])[:, None] * n_keys
        seen = np.bincount((flat[None, :] + shift).ravel(), weights=weights.ravel(),
                           minlength=grid.shape[0] * n_keys).reshape(grid.shape[0], n_keys)
        self.alpha = np.where(self.allowed, seen + 0.5, 0.0)                 # (grid, keys)
        # The mass's posterior, pattern by pattern: the Dirichlet-multinomial likelihood
        # of every stratum's labelled counts at the rates' mean (all items counted).
        every = np.bincount(flat, weights=in_strata.ravel(), minlength=n_keys)
        mean = self._shares(self._normalise(np.where(self.allowed, every + 0.5, 0.0)))
        c = grid[:, :, None]
        with np.errstate(divide="ignore"):
            log_like = (special.gammaln(grid) - special.gammaln(grid + n_stratum)
                        + (special.gammaln(in_strata + c * mean[None, :, :])
                           - special.gammaln(c * mean[None, :, :])).sum(axis=1))
        log_like = np.where(n_stratum > 0, log_like, 0.0)                  # (grid, strata)
        members = pattern[:, None] == np.arange(self.n_patterns)[None, :]
        log_post = (log_like @ members).T                                   # (patterns, grid)
        log_post += _LOG_MASS_PRIOR
        log_post -= log_post.max(axis=1, keepdims=True)
        post = np.exp(log_post)
        self.mass_posterior = post / post.sum(axis=1, keepdims=True)

    def _normalise(self, rates):
        grouped = rates.reshape(rates.shape[:-1] + (self.n_patterns, self.n_relations))
        total = grouped.sum(axis=-1, keepdims=True)
        return np.divide(grouped, total, out=np.zeros_like(grouped),
                         where=total > 0).reshape(rates.shape)

    def _shares(self, rates):
        """The gold-label shares (gold, stratum) that rates of shape (..., keys) give."""
        return rates[..., self.keys] * self.per_label

    def mean_shares(self):
        """Posterior mean of every stratum's gold-label shares, shape (gold, strata)."""
        n_stratum = self.in_strata.sum(axis=0)
        total = np.zeros(self.in_strata.shape)
        for j, c in enumerate(MASS_GRID):
            weight = self.mass_posterior[self.pattern, j]
            mean = self._shares(self._normalise(self.alpha[j]))
            total += weight * (self.in_strata + c * mean) / (n_stratum + c)
        return total

    def draw_prior(self, count, rng):
        """Prior concentrations (draws, gold, stratum) of `count` draws of the mass and
        the rates of every pattern."""
        cumulative = np.cumsum(self.mass_posterior, axis=1)
        cumulative[:, -1] = 1.0
        pick = np.stack([np.searchsorted(row, rng.random(count), side="right")
                         for row in cumulative], axis=1)                  # (draws, patterns)
        key_pattern = np.arange(self.n_keys) // self.n_relations
        shape = self.alpha[pick[:, key_pattern], np.arange(self.n_keys)]
        rates = self._normalise(rng.standard_gamma(shape))
        mass = MASS_GRID[pick[:, self.pattern]]                           # (draws, strata)
        return mass[:, None, :] * self._shares(rates)


def _cell_prior(size, n_systems, lam):
    """The cell prior of the (gold, predictions) table: the library's for one and for two
    systems; for more, total mass 4λ spread over the gold labels evenly and, given the
    gold label, each system right or wrong by a fair coin, independently (the one-system
    prior's form)."""
    d = label_concentration(size, lam)
    if n_systems == 1:
        prior = np.full((size, size), d / (size - 1) if size > 1 else 0.0)
        np.fill_diagonal(prior, d)
        return prior
    if n_systems == 2:
        off = d / (2 * max(size - 1, 1))
        t, a, b = np.meshgrid(np.arange(size), np.arange(size), np.arange(size),
                              indexing="ij")
        return np.where((a == t) & (b == t), d / 2,
                        np.where((a == t) | (b == t) | (a == b), off, 0.0))
    given = np.full((size, size), 0.5 / max(size - 1, 1))
    np.fill_diagonal(given, 0.5)
    prior = np.full((size,), 4.0 * lam / size)
    for _ in range(n_systems):
        prior = prior[..., None] * given.reshape((size,) + (1,) * (prior.ndim - 1) + (size,))
    return prior


def _distinct_items(gold, preds, proxy, labelled):
    """The items' distinct (labelled, gold or proxy, predictions, proxy) combinations:
    ``(labelled, filled, preds, proxy, counts)``, one entry per combination, the labels
    of their arrays' types and the gold label where labelled, the proxy's elsewhere;
    None unless every label is a small non-negative integer (or boolean).

    One stratum code per item and a ``np.bincount`` of them, in place of encoding each
    array's labels: every item's (predictions, proxy) counted at once, the labelled
    items' (gold, stratum) apart and taken off.  The table counts the same items.
    """
    arrays = [*preds, proxy]
    if gold.dtype.kind not in "iub" or any(a.dtype.kind not in "iub" or
                                           a.shape != labelled.shape for a in arrays):
        return None
    low = min(int(a.min()) for a in (gold, *arrays))
    base = max(int(a.max()) for a in (gold, *arrays)) + 1
    n_strata = base ** len(arrays)
    if low < 0 or 2 * base * n_strata > _DISTINCT_CODES:
        return None
    stratum = arrays[0].astype(np.intp)
    for digit in arrays[1:]:
        stratum *= base
        np.add(stratum, digit, out=stratum, casting="unsafe")
    every = np.bincount(stratum, minlength=n_strata)
    in_labelled = np.bincount(gold.astype(np.intp) * n_strata + stratum[labelled],
                              minlength=base * n_strata)
    unlabelled = every - in_labelled.reshape(base, n_strata).sum(axis=0)
    # Unlabelled entries first (gold digit: the proxy's), then the labelled ones.
    alone = np.flatnonzero(unlabelled)
    kept = np.flatnonzero(in_labelled)
    strata = np.concatenate([alone, kept % n_strata])
    digits, rest = [], strata
    for a in arrays[::-1]:
        digits.append((rest % base).astype(a.dtype))
        rest = rest // base
    *others, proxy_digit = digits[::-1]
    filled = np.concatenate([proxy_digit[:alone.shape[0]], kept // n_strata]).astype(gold.dtype)
    mask = np.arange(strata.shape[0]) >= alone.shape[0]
    counts = np.concatenate([unlabelled[alone], in_labelled[kept]]).astype(float)
    return mask, filled, others, proxy_digit, counts


def check_proxy_cells(size, n_systems, max_cells=1 << 16):
    """Refuse a (gold, proxy, predictions) table of more than `max_cells` cells."""
    cells = size ** (n_systems + 2)
    if cells > max_cells:
        fail("proxy", f"a table of (gold, proxy, predictions) of at most {max_cells} cells "
             "(compare fewer systems at once, or fewer labels)", "a proxy",
             shown=f"{size} labels and {n_systems} system(s), {cells} cells")


def read_proxy(y_true, y_preds, proxy, *, average, labels, pos_label, sample_weight, lam,
               pred_names, max_cells=1 << 16, cell_prior=None, by_item=False, warn_bare=True):
    """Validate gold labels with missing values, predictions and a proxy; `ProxyTable`.

    Returns ``(table, gold, labelled)``: the table, the labelled gold values (of
    their own type) and the mask of labelled items.  `cell_prior(size)` gives the
    (gold, predictions) cell prior for `size` labels (default: the library's one- and
    two-system priors of λ = `lam`); with `by_item` the table's codes are the
    items' own, in order (not their distinct combinations), so that parts of the
    items can be read apart; without `warn_bare` the caller warns about strata
    without a gold label (`BARE_WARNING`).
    """
    values, missing = missing_labels(y_true)
    n = np.shape(values)[0] if np.ndim(values) else 0
    if missing is None:
        missing = np.zeros(n, dtype=bool)
    preds = [np.asarray(p) for p in y_preds]
    proxy = np.asarray(proxy)
    if any(p.ndim != 1 for p in preds) or np.ndim(values) != 1:
        fail("proxy", "None for multilabel targets here (a second labeller's indicator "
             "matrix is read by metric_posterior and the named posteriors only)", proxy,
             error=TypeError, shown="a proxy")
    if proxy.ndim != 1 or proxy.shape[0] != n:
        fail("proxy", f"the second labeller's label of every item, shape ({n},)", proxy,
             shown=f"shape {proxy.shape}")
    _, proxy_missing = missing_labels(proxy)
    if proxy_missing is not None:
        fail("proxy", "a label on every item (the second labeller covers them all)", proxy,
             shown=f"{int(proxy_missing.sum())} missing value(s)")
    labelled = ~missing
    if not labelled.any():
        fail("y_true", "at least one gold label (the proxy is calibrated on the labelled "
             "items)", y_true, shown=f"{n} missing values and no label")
    gold = labelled_values(values, missing)
    names = ["y_true", *pred_names]
    # The labelled items' own checks (a binary average of two labels, pos_label among them).
    joint_codes(gold, [p[labelled] for p in preds], average=average, labels=labels,
                pos_label=pos_label, names=names)
    distinct = None
    if sample_weight is None and values.dtype.kind != "O" and missing.any() and not by_item:
        distinct = _distinct_items(gold, preds, proxy, labelled)
    if distinct is None:
        items_labelled, items_gold, items_preds, items_proxy = labelled, gold, preds, proxy
        items_weight = sample_weight
    else:
        items_labelled, filled, items_preds, items_proxy, items_weight = distinct
        items_gold = filled[items_labelled]
    # The proxy guesses the gold label: its labels must be the gold labels' or the
    # predictions'.
    seen = np.concatenate([items_gold, *items_preds])
    everything = joint_codes(seen, [seen], average="macro" if average == "binary" else average,
                             labels=labels, names=["y_true", "y_pred"])
    try:
        inside = bool(np.isin(items_proxy, everything.classes).all())
    except TypeError:
        inside = False
    if not inside:
        try:
            outside = list(dict.fromkeys(
                proxy[~np.isin(proxy, everything.classes)].tolist()))[:5]
        except TypeError:
            outside = proxy[:5].tolist()
        fail("proxy", f"labels among those of y_true and the predictions "
             f"{everything.classes[:10].tolist()}", proxy, shown=f"labels {outside}")
    if distinct is None and (values.dtype.kind == "O" or not missing.any()):
        filled = np.asarray(values, dtype=object).copy()
        filled[missing] = proxy[missing]
        filled[labelled] = gold.astype(object)
        filled = np.asarray(filled.tolist())
    elif distinct is None:
        filled = np.where(missing, proxy, values).astype(gold.dtype)
    joint = joint_codes(filled, [*items_preds, items_proxy], average=average, labels=labels,
                        pos_label=pos_label, sample_weight=items_weight,
                        names=[*names, "proxy"])
    size = joint.classes.shape[0]
    check_proxy_cells(size, len(preds), max_cells)
    weight = (np.ones(items_labelled.shape[0]) if joint.weight is None
              else np.asarray(joint.weight, dtype=float))
    table = ProxyTable(joint, items_labelled, weight, len(preds), lam,
                       None if cell_prior is None else cell_prior(size))
    if table.single_stratum:
        fail("y_true", "gold labels in at least two strata of (proxy, prediction) where the "
             "items fall in several (the gold labels are read within each stratum)", y_true,
             shown="every labelled item in one stratum")
    if table.bare and warn_bare:
        warn_user(f"{table.bare} {BARE_WARNING}")
    return table, gold, labelled


def proxy_posterior(y_true, y_pred, proxy, *, metric, function, params, name, average,
                    labels, pos_label, sample_weight, lam, n_draws, random_state,
                    labelled_only):
    """The `ProxyPosterior` of `metric` (see the module's docstring);
    `labelled_only(gold, y_pred, sample_weight)` is the posterior of the labelled
    items alone."""
    table, gold, labelled = read_proxy(y_true, [y_pred], proxy, average=average,
                                       labels=labels, pos_label=pos_label,
                                       sample_weight=sample_weight, lam=lam,
                                       pred_names=["y_pred"])
    joint = table.joint
    rng = check_random_state(random_state)
    every = joint.kind == "multiclass" and joint.n_requested == joint.n_classes
    requested = joint.n_requested if joint.kind == "multiclass" else 1
    weights = None
    if average in ("weighted", "powers"):
        counts = label_counts(table.mean_table() * table.n_items, requested)
        weights = label_weights(counts, average, name)
    parts = [table_metric(draws, joint.kind, function, params, name, average, weights,
                          requested, every) for draws in table.draws(n_draws, rng)]
    samples = np.concatenate(parts)
    bad = ~np.isfinite(samples)
    if bad.any():
        fail("metric", "a function of the four cells that is finite on every posterior draw",
             name or metric, shown=f"{int(bad.sum())} non-finite value(s)")
    weight = None if sample_weight is None else table.weight[labelled]
    alone = labelled_only(gold, np.asarray(y_pred)[labelled], weight)
    return ProxyPosterior(samples, n_items=table.n_items, n_labelled=table.n_labelled,
                          labelled_only=alone)


def label_counts(table, requested):
    """One-vs-rest cells of the first `requested` labels of a (gold, prediction) table."""
    tp = np.diagonal(table)
    fp = table.sum(axis=0) - tp
    fn = table.sum(axis=1) - tp
    tn = table.sum() - tp - fp - fn
    cut = slice(0, requested)
    return ConfusionCounts(tp[cut], fp[cut], fn[cut], tn[cut])


def table_metric(table, kind, function, params, name, average, weights, requested, every):
    """The metric of draws of (gold, prediction) tables, shape (draws, K, K)."""
    with np.errstate(all="ignore"):
        if kind == "binary":
            # Code 0 is the positive label.
            return np.asarray(function(table[:, 0, 0], table[:, 1, 0], table[:, 0, 1],
                                       table[:, 1, 1], **params), dtype=float)
        tp = np.diagonal(table, axis1=1, axis2=2)
        fp = table.sum(axis=1) - tp
        fn = table.sum(axis=2) - tp
        tn = 1.0 - tp - fp - fn
        cells = tuple(np.maximum(c[:, :requested], 0.0) for c in (tp, fp, fn, tn))
        if average == "micro" and every and name == "error":
            return 1.0 - tp.sum(axis=1)
        return average_values(function, params, cells, average, weights,
                              share_of_right=every and average == "micro"
                              and name in SHARE_OF_RIGHT)
