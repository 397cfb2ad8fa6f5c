"""A second look at the coverage grid's proxy section: fresh test sets for the cells
outside the promise, and what a narrower paired interval would rest on.

``--low``: the section's results outside the promise, on fresh test sets (a seed
of their own, independent of the grid's): the paired nulls at 200 gold labels,
agreement 0.9 and a hundred unlabelled items per labelled one; the F1 difference
at 50 gold labels, agreement 0.7, a hundred unlabelled per labelled one; and
precision's width against the labelled items alone at 50 gold labels, agreement
0.95, ten unlabelled per labelled one.

``--shared``: the paired accuracy difference (system A minus the weaker system C
of the grid's population) where the proxy's errors are, and are not, independent
of the systems' given the gold label.  Three populations:

* ``independent``: the grid's own (agreement 0.95 or 0.98): the proxy errs at
  random, whatever the systems do;
* ``copies A``: the proxy repeats system A's label on 15% of items (a second
  labeller that is an earlier version of A, or was trained on its output), and
  is right with probability 0.964 elsewhere (agreement 0.95, as in the grid);
* ``hard items``: a fifth of the items are hard for everyone (A right with
  probability 0.55, C with 0.45, the proxy with 0.7; on the others 0.95, 0.93 and
  0.99): agreement 0.932, the difference 0.036.

Methods: the library (``compare_paired_metric(..., proxy=)``); prediction-powered
inference (``ppi_py.ppi_mean_ci``, when installed) of the difference of the gold
correctness; and a candidate model that assumes the proxy's errors independent of
the systems' given the gold label (a latent-class reading: the proxy's confusion
matrix, from every labelled item, and the proxy's labels within each (A, C) cell,
from every item, give each stratum's gold-label shares, which are the centre of
that stratum's prior with a mass the labelled items choose, as the library's
pooled rates do).  The candidate is narrower than prediction-powered inference
where its assumption holds, and also where the errors are linked only through
the items' difficulty; where the proxy copies a system it fails, with as many as
1 000 gold labels.  The library's model, which does not assume it, covers in
all three.  Prediction-powered inference needs ``ppi_py`` (optional: without
it, its rows are left out).

``--chance``: one binary system's intervals (accuracy, recall, precision, F1)
where the proxy is no better than chance (agreement 0.5) or worse (0.3, a
labeller whose labels were flipped), under the library's cell prior (split
evenly over the proxy's values) and the candidate that leans to the proxy's
agreeing with the gold label: what the lean would cost where its belief is
wrong.

Run ``python -m benchmarks.proxy_recheck --low --shared --chance`` (``--reps``, 1 000 and
400 by default; ``--quick``: a few test sets of one cell each).
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np
from scipy import special

from benchmarks._coverage_proxy import (
    BINARY,
    DIFFERENCE,
    LEANING,
    PREVALENCE,
    TRUTH,
    _leaning,
    _ppi,
    _ppi_interval,
    _test_set,
)
from skprobeval import compare_paired_metric, metric_posterior
from skprobeval._posteriors import read_proxy
from skprobeval._posteriors._proxy import MASS_GRID, _relations

__all__ = ["IndependentProxyErrors", "main", "run_chance", "run_low", "run_shared"]

INDEPENDENT = "proxy errs independently of the systems (candidate)"
LIBRARY = "skprobeval"
PPI = "prediction-powered inference (ppi_py)"
# (labelled items, unlabelled per labelled one).
SHARED_CELLS = [(50, 100), (200, 100), (1000, 10)]
POPULATIONS = ("independent 0.95", "independent 0.98", "copies A", "hard items")
COPY_SHARE, COPY_RIGHT = 0.15, 0.964
HARD_SHARE = 0.2
HARD = {"a": (0.55, 0.95), "c": (0.45, 0.93), "proxy": (0.7, 0.99)}


class IndependentProxyErrors:
    """The candidate: each stratum's gold-label shares centred on what a proxy whose
    errors are independent of the systems' given the gold label implies.

    ``table`` is a `ProxyTable` of two systems.  In every draw the proxy's
    confusion matrix ``Q[y, p]`` is drawn from the labelled items (Dirichlet, an
    item a row), the (proxy, A, C) shares ``pi`` from every item (the table's
    own draw); within each (A, C) cell the gold label's shares ``r`` solve
    ``pi(p | cell) = sum_y r_y Q[y, p]`` (clipped to the simplex), and a
    stratum's prior centre is ``Q[y, p] r_y`` normalised over ``y``.  The
    stratum's shares are Dirichlet(labelled counts + ``c`` centre), with the
    mass ``c`` on the library's grid, its posterior from the Dirichlet-
    multinomial likelihood of the strata of each pattern at the centre's mean.
    """

    def __init__(self, table):
        self.table = table
        size, systems = table.size, table.n_systems
        self.size, self.cells = size, size ** systems
        self.pattern = _relations(size, systems)[0]
        n_patterns = (systems + 1) ** (systems + 1)
        counts = table.in_strata
        self.confusion_alpha = counts.reshape(size, size, self.cells).sum(axis=2) + 1.0 / size
        share = table.pi_alpha / table.pi_alpha.sum()
        confusion = self.confusion_alpha / self.confusion_alpha.sum(axis=1, keepdims=True)
        centre = self.centre(confusion[None], share[None])[0]
        n = counts.sum(axis=0)
        mass = MASS_GRID[:, None, None] * centre[None]
        log_like = (special.gammaln(MASS_GRID[:, None]) - special.gammaln(MASS_GRID[:, None] + n)
                    + (special.gammaln(counts[None] + mass) - special.gammaln(mass)).sum(axis=1))
        log_like = np.where(n > 0, log_like, 0.0)
        members = self.pattern[:, None] == np.arange(n_patterns)[None, :]
        log_post = (log_like @ members).T
        post = np.exp(log_post - log_post.max(axis=1, keepdims=True))
        self.cumulative = np.cumsum(post / post.sum(axis=1, keepdims=True), axis=1)
        self.cumulative[:, -1] = 1.0

    def centre(self, confusion, share):
        """Prior centres (draws, gold, strata) from confusion matrices (draws, gold,
        proxy) and (proxy, A, C) shares (draws, strata)."""
        size, cells = self.size, self.cells
        pi = share.reshape(-1, size, cells)
        total = pi.sum(axis=1, keepdims=True)
        within = np.divide(pi, total, out=np.full_like(pi, 1.0 / size), where=total > 0)
        # The pseudo-inverse: a singular draw of the confusion (a proxy that says nothing)
        # gives the least-squares mix of that draw alone.
        gold = np.clip(np.linalg.pinv(np.swapaxes(confusion, 1, 2)) @ within, 0.0, None)
        total = gold.sum(axis=1, keepdims=True)
        gold = np.divide(gold, total, out=np.full_like(gold, 1.0 / size), where=total > 0)
        joint = confusion[:, :, :, None] * gold[:, :, None, :]           # gold, proxy, cell
        total = joint.sum(axis=1, keepdims=True)
        centre = np.divide(joint, total, out=np.full_like(joint, 1.0 / size), where=total > 0)
        # A floor keeps every Dirichlet proper.
        return (0.999 * centre + 0.001 / size).reshape(-1, size, size * cells)

    def accuracy_difference(self, n_draws, rng):
        """Draws of A's accuracy minus C's."""
        table, size = self.table, self.size
        share = rng.standard_gamma(table.pi_alpha, size=(n_draws, table.n_strata))
        share /= share.sum(axis=1, keepdims=True)
        confusion = rng.standard_gamma(self.confusion_alpha,
                                       size=(n_draws,) + self.confusion_alpha.shape)
        confusion /= confusion.sum(axis=2, keepdims=True)
        pick = np.stack([np.searchsorted(row, rng.random(n_draws), side="right")
                         for row in self.cumulative], axis=1)
        mass = MASS_GRID[pick[:, self.pattern]]
        theta = rng.standard_gamma(table.in_strata + mass[:, None, :]
                                   * self.centre(confusion, share))
        theta /= theta.sum(axis=1, keepdims=True)
        theta *= share[:, None, :]
        p = theta.reshape(n_draws, size, size, size, size).sum(axis=2)     # gold, A, C
        return np.einsum("nggc->n", p) - np.einsum("ngag->n", p)


def _population(rng, name, labelled, n):
    """``(y, gold, a, c, proxy, truth)`` of one test set of population `name`."""
    if name.startswith("independent"):
        agreement = float(name.split()[1])
        y, gold, (a, _, c), proxy, *_ = _test_set(rng, labelled, n, agreement)
        return y, gold, a, c, proxy, DIFFERENCE["accuracy difference"]
    if name == "copies A":
        y, gold, (a, _, c), _, *_ = _test_set(rng, labelled, n, 1.0)
        own = np.where(rng.random(n) < COPY_RIGHT, y, 1 - y)
        proxy = np.where(rng.random(n) < COPY_SHARE, a, own)
        return y, gold, a, c, proxy, DIFFERENCE["accuracy difference"]
    y = (rng.random(n) < PREVALENCE).astype(int)
    hard = rng.random(n) < HARD_SHARE
    labels = {who: np.where(rng.random(n) < np.where(hard, *rates), y, 1 - y)
              for who, rates in HARD.items()}
    gold = y.astype(float)
    gold[labelled:] = np.nan
    truth = sum(share * (HARD["a"][i] - HARD["c"][i])
                for i, share in enumerate((HARD_SHARE, 1 - HARD_SHARE)))
    return y, gold, labels["a"], labels["c"], labels["proxy"], truth


def _equal_tailed(draws, level=0.95):
    """The equal-tailed interval of `draws`, as the library's ``interval`` reads it."""
    low, high = np.quantile(draws, [(1 - level) / 2, (1 + level) / 2])
    return float(low), float(high)


def run_shared(population, labelled, ratio, reps, n_draws=4_000, seed=20261206):
    """Coverage and mean width of the paired accuracy difference's 95% interval by each
    method over `reps` fresh test sets of `population`."""
    rng = np.random.default_rng([seed, POPULATIONS.index(population), labelled, ratio])
    n = labelled * (1 + ratio)
    ppi_mean_ci = _ppi()
    methods = [LIBRARY, INDEPENDENT] + ([PPI] if ppi_mean_ci is not None else [])
    hits = {m: 0 for m in methods}
    widths = {m: [] for m in methods}
    truth = None
    for _ in range(reps):
        y, gold, a, c, proxy, truth = _population(rng, population, labelled, n)
        intervals = {}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = compare_paired_metric(gold, a, c, metric="accuracy", proxy=proxy,
                                           n_draws=n_draws, random_state=rng)
            intervals[LIBRARY] = result.difference.interval(0.95)
            table, _, _ = read_proxy(gold, [a, c], proxy, average="binary", labels=None,
                                     pos_label=1, sample_weight=None, lam=0.5,
                                     pred_names=["y_pred_a", "y_pred_b"], warn_bare=False)
            intervals[INDEPENDENT] = _equal_tailed(
                IndependentProxyErrors(table).accuracy_difference(n_draws, rng))
        if ppi_mean_ci is not None:
            right = (y == a).astype(float) - (y == c)
            seen = (proxy == a).astype(float) - (proxy == c)
            intervals[PPI] = _ppi_interval(ppi_mean_ci, right, seen, labelled, 0.95)
        for method, (low, high) in intervals.items():
            hits[method] += low <= truth <= high
            widths[method].append(high - low)
    rows = []
    for method in methods:
        coverage = hits[method] / reps
        rows.append({"population": population, "labelled": labelled,
                     "unlabelled_ratio": ratio, "method": method, "reps": reps,
                     "truth": float(truth), "coverage_95": coverage,
                     "se_95": float(np.sqrt(coverage * (1 - coverage) / reps)),
                     "width_95": float(np.mean(widths[method]))})
    return rows


def run_low(reps, n_draws=4_000, seed=20261206):
    """The proxy section's results outside the promise, on `reps` fresh test sets."""
    rows = []
    rng = np.random.default_rng([seed, 200, 100, 90])
    above = {"accuracy": 0, "f1": 0}
    for _ in range(reps):
        _, gold, (a, b, _), proxy, *_ = _test_set(rng, 200, 200 * 101, 0.9)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for metric in above:
                result = compare_paired_metric(gold, a, b, metric=metric, proxy=proxy,
                                               n_draws=n_draws, random_state=rng)
                above[metric] += result.prob_first_better > 0.95
    for metric, count in above.items():
        share = count / reps
        rows.append({"cell": "agreement 0.9, 200 labelled, 100x unlabelled",
                     "quantity": f"paired null, {metric}", "reps": reps,
                     "share_above_95": share, "se": float(np.sqrt(share * (1 - share) / reps))})
    rng = np.random.default_rng([seed, 50, 100, 70])
    truth, hits = DIFFERENCE["f1 difference"], 0
    for _ in range(reps):
        _, gold, (a, _, c), proxy, *_ = _test_set(rng, 50, 50 * 101, 0.7)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = compare_paired_metric(gold, a, c, metric="f1", proxy=proxy,
                                           n_draws=n_draws, random_state=rng)
        low, high = result.difference.interval(0.95)
        hits += low <= truth <= high
    coverage = hits / reps
    rows.append({"cell": "agreement 0.7, 50 labelled, 100x unlabelled",
                 "quantity": "f1 difference", "reps": reps, "coverage_95": coverage,
                 "se_95": float(np.sqrt(coverage * (1 - coverage) / reps))})
    rng = np.random.default_rng([seed, 50, 10, 95])
    pairs = []
    for _ in range(reps):
        _, gold, (a, _, _), proxy, *_ = _test_set(rng, 50, 50 * 11, 0.95)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            posterior = metric_posterior(gold, a, metric="precision", proxy=proxy,
                                         n_draws=n_draws, random_state=rng)
        low, high = posterior.interval(0.95)
        alone_low, alone_high = posterior.labelled_only.interval(0.95)
        pairs.append((high - low, alone_high - alone_low))
    proxy_width, alone = np.asarray(pairs).T
    ratio = proxy_width.mean() / alone.mean()
    # Delta method: the ratio of two means of paired values.
    se = (proxy_width - ratio * alone).std(ddof=1) / (alone.mean() * np.sqrt(reps))
    rows.append({"cell": "agreement 0.95, 50 labelled, 10x unlabelled",
                 "quantity": "precision width vs labelled only", "reps": reps,
                 "width_ratio": float(ratio), "se": float(se)})
    return rows


# (labelled items, unlabelled per labelled one, agreement): proxies no better than chance.
CHANCE_CELLS = [(50, 10, 0.5), (50, 10, 0.3), (50, 100, 0.3), (200, 100, 0.3)]


def run_chance(reps, n_draws=4_000, seed=20261206):
    """Coverage of one binary system's 95% intervals where the proxy is no better than
    chance (agreement 0.5) or worse (0.3), under the library's cell prior (split evenly
    over the proxy's values) and the candidate leaning to the proxy's agreeing, on `reps`
    fresh test sets a cell."""
    rows = []
    for labelled, ratio, agreement in CHANCE_CELLS:
        rng = np.random.default_rng([seed, labelled, ratio, round(agreement * 100), 1])
        hits = {(q, m): 0 for q in BINARY for m in (LIBRARY, LEANING)}
        for r in range(reps):
            _, gold, (a, _, _), proxy, *_ = _test_set(rng, labelled, labelled * (1 + ratio),
                                                      agreement)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                for q in BINARY:
                    library = metric_posterior(gold, a, metric=q, proxy=proxy,
                                               n_draws=n_draws, random_state=rng)
                    even = _leaning(gold, a, proxy, q, n_draws,
                                       np.random.default_rng([r, len(q)]))
                    for method, posterior in ((LIBRARY, library), (LEANING, even)):
                        low, high = posterior.interval(0.95)
                        hits[(q, method)] += low <= TRUTH[q] <= high
        for (q, method), count in hits.items():
            coverage = count / reps
            rows.append({"labelled": labelled, "unlabelled_ratio": ratio,
                         "agreement": agreement, "quantity": q, "method": method,
                         "reps": reps, "coverage_95": coverage,
                         "se_95": float(np.sqrt(coverage * (1 - coverage) / reps))})
    return rows


def main(argv=None):
    """Run the chosen parts (``--low``, ``--shared``, ``--quick``), print a line a result
    and return the rows."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.proxy_recheck")
    parser.add_argument("--low", action="store_true",
                        help="the section's results outside the promise, fresh test sets")
    parser.add_argument("--shared", action="store_true",
                        help="the paired accuracy difference with proxies that share the "
                             "systems' errors")
    parser.add_argument("--chance", action="store_true",
                        help="one system's intervals with a proxy no better than chance")
    parser.add_argument("--reps", type=int, default=None,
                        help="test sets a cell (default 1000 for --low, 400 for --shared)")
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args(argv)
    rows = []
    if args.low or args.quick:
        start = time.perf_counter()
        for row in run_low(20 if args.quick else args.reps or 1000):
            rows.append(row)
            figure = ", ".join(f"{key} {row[key]:.4f}" for key in
                               ("share_above_95", "coverage_95", "width_ratio", "se", "se_95")
                               if key in row)
            print(f"{row['cell']}, {row['quantity']}: {figure} ({row['reps']} test sets)",
                  flush=True)
        print(f"[{time.perf_counter() - start:.0f} s]", flush=True)
    if args.chance or args.quick:
        start = time.perf_counter()
        for row in run_chance(10 if args.quick else args.reps or 400):
            rows.append(row)
            print(f"agreement {row['agreement']}, {row['labelled']} labelled, "
                  f"{row['unlabelled_ratio']}x unlabelled, {row['quantity']}, "
                  f"{row['method']}: coverage {row['coverage_95']:.3f} "
                  f"(SE {row['se_95']:.3f})", flush=True)
        print(f"[{time.perf_counter() - start:.0f} s]", flush=True)
    if args.shared or args.quick:
        cells = [(p, *cell) for p in POPULATIONS for cell in SHARED_CELLS]
        if args.quick:
            cells = [("copies A", 50, 10), ("hard items", 50, 10)]
        for population, labelled, ratio in cells:
            start = time.perf_counter()
            for row in run_shared(population, labelled, ratio,
                                  10 if args.quick else args.reps or 400):
                rows.append(row)
                print(f"{population}, {labelled} labelled, {ratio}x unlabelled, "
                      f"{row['method']}: coverage {row['coverage_95']:.3f} "
                      f"(SE {row['se_95']:.3f}), width {row['width_95']:.4f}", flush=True)
            print(f"[{time.perf_counter() - start:.0f} s]", flush=True)
    return rows


if __name__ == "__main__":
    main()
