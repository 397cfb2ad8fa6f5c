"""Gold labels for a width when a second labeller (a proxy) labels every item.

With a proxy on every item of a pool, the posterior of `metric_posterior(...,
proxy=)` takes the shares of the (proxy, prediction) strata from all the
pool's items and the gold label's shares within each stratum from the
labelled ones (double sampling; Tenenbein 1970): a good proxy on a large
pool needs fewer gold labels for the same width.  `proxy_plan` finds the
smallest number of gold labels, a random sample of the pool, whose interval
is at most `width` wide in a share `assurance` of simulated pools:

- each pool holds `pool_size` items drawn from the population's (gold,
  prediction) shares, each item's proxy label equal to its gold label with
  probability `proxy_agreement`, independently of the prediction;
- ``n`` of its items, drawn without replacement, carry their gold label;
- the interval is that of the library's own proxy posterior, read from the
  pool's distinct (gold or missing, prediction, proxy) combinations weighted
  by their counts (the same posterior as from the items one by one).

The number of gold labels is searched between a few and the plan without a
proxy (with every item of the pool labelled the proxy posterior is the one
without a proxy), by bisection on the log scale to within 3%; where a proxy
that adds little falls short there, on above it, up to the whole pool.
"""

from __future__ import annotations

import math
import warnings

import numpy as np

from .._core import fail
from .._posteriors import metric_posterior
from ._plan_clusters import real

__all__ = ["check_proxy", "proxy_plan"]


def check_proxy(proxy_agreement, pool_size):
    """(agreement, pool size) of a plan with a proxy, or None; both or neither."""
    if proxy_agreement is None and pool_size is None:
        return None
    if proxy_agreement is None:
        fail("pool_size", "None without `proxy_agreement` (the pool is the proxy's items)",
             pool_size)
    agreement = real(proxy_agreement)
    if agreement is None or not 0.0 <= agreement <= 1.0:
        fail("proxy_agreement", "the share of items whose proxy label is the gold label, "
             "in [0, 1]", proxy_agreement)
    if pool_size is None:
        fail("pool_size", "given with `proxy_agreement` (the number of items the proxy "
             "labels)", pool_size)
    if (isinstance(pool_size, (bool, np.bool_))
            or not isinstance(pool_size, (int, np.integer)) or pool_size < 2):
        fail("pool_size", "an int >= 2 (the items the proxy labels, the gold-labelled "
             "ones among them)", pool_size)
    return agreement, int(pool_size)


def _population(shares, agreement):
    """(gold, prediction, proxy, share) of the 8 cells: the binary cells (tp, fp, fn, tn)
    with the proxy right at rate `agreement` within each."""
    gold, pred, proxy, share = [], [], [], []
    for (g, y), cell in zip(((1, 1), (0, 1), (1, 0), (0, 0)), shares, strict=True):
        for q, rate in ((g, agreement), (1 - g, 1.0 - agreement)):
            gold.append(g)
            pred.append(y)
            proxy.append(q)
            share.append(cell * rate)
    share = np.asarray(share, dtype=float)
    return (np.asarray(gold), np.asarray(pred), np.asarray(proxy), share / share.sum())


def _width(counts, labelled, population, posterior, confidence):
    """Interval width of one pool: `counts` of its 8 cells, `labelled` of them gold."""
    gold, pred, proxy, _ = population
    rest = counts - labelled
    mine, others = labelled > 0, rest > 0
    y_true = np.r_[gold[mine].astype(float), np.full(int(others.sum()), np.nan)]
    with warnings.catch_warnings():
        # Strata without a gold label are what a few labels give: the width says so.
        warnings.simplefilter("ignore")
        result = posterior(y_true, np.r_[pred[mine], pred[others]],
                           proxy=np.r_[proxy[mine], proxy[others]],
                           sample_weight=np.r_[labelled[mine], rest[others]].astype(float))
    low, high = result.interval(confidence)
    return float(high) - float(low)


def proxy_plan(spec, shares, *, agreement, pool_size, without_proxy, beta, lam, confidence,
               width, assurance, n_sims, n_draws, rng, precision=0.03):
    """(n, prob_within, widths at n, sampler of the widths, {n: widths}) of the smallest
    number of gold labels, at most `without_proxy` (the plan without a proxy)."""
    population = _population(shares, agreement)
    seed = int(rng.integers(2**63))

    def posterior(y_true, y_pred, *, proxy, sample_weight, random_state=0):
        return metric_posterior(y_true, y_pred, proxy=proxy, sample_weight=sample_weight,
                                metric=spec.name, prior=lam, beta=beta, n_draws=n_draws,
                                random_state=random_state)

    # A small pool first, outside the simulation: a metric the proxy posterior does not
    # take is refused here, by its own error.
    counts = np.array([4, 1, 1, 4, 1, 4, 4, 1])
    _width(counts, np.array([2, 1, 1, 2, 1, 2, 2, 1]), population, posterior, confidence)

    def widths(n):
        n = int(min(max(n, 1), pool_size))
        local = np.random.default_rng([seed, n])
        pools = local.multinomial(pool_size, population[3], size=n_sims)
        out = np.empty(n_sims)
        for i, counts in enumerate(pools):
            labelled = local.multivariate_hypergeometric(counts, n)
            try:
                out[i] = _width(counts, labelled, population,
                                lambda *a, **k: posterior(*a, **k, random_state=local),
                                confidence)
            except ValueError:
                # Gold labels in one stratum only, or of one class: no posterior.
                out[i] = np.inf
        return out

    seen = {}

    def prob(n):
        if n not in seen:
            seen[n] = widths(n)
        return float(np.mean(seen[n] <= width))

    high = int(min(without_proxy, pool_size))
    # A proxy that adds little leaves the interval about as wide as the labels' own,
    # and its split prior a little wider: search on above the plan without a proxy.
    while prob(high) < assurance and high < pool_size:
        high = min(int(pool_size), math.ceil(high * 1.25))
    low = max(2, high // 16)
    while low < high and prob(low) >= assurance:
        high, low = low, max(2, low // 8)
    if low < high and prob(low) < assurance:
        while high - low > max(1, precision * high):
            middle = round(math.sqrt(low * high))
            if middle in (low, high):
                middle = (low + high) // 2
                if middle in (low, high):
                    break
            if prob(middle) >= assurance:
                high = middle
            else:
                low = middle

    def sampler(size):
        return seen[size] if size in seen else widths(size)

    return high, prob(high), seen[high], sampler, seen
