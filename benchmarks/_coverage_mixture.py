"""ROC AUC with few positives, some of which score like negatives: cells of the ranking section.

Negatives score N(0, 1); each positive scores N(separation, 1) or, with
probability ``mix``, N(0, 1) like a negative (a positive the model does not
see).  The population AUC is exact:
``(1 - mix) Phi(separation / sqrt(2)) + mix / 2``.  With 10 or 30 positives
a test set often holds none or one of the hidden positives, and an interval
read from the data alone sits above the truth; the boundary pseudo-cells of
the ranking model (a positive below every score among them) are what can
reach it.  Per cell (n items, of which a fixed number positive): the
library's `roc_auc_posterior` (its default boundary mass), the same model at
other masses (candidates), the item bootstrap (percentile) and DeLong's
interval (DeLong et al. 1988).  Only AUC is measured: the cells are cheap.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import stats

from benchmarks import _references as ref
from skprobeval._posteriors._curves import CurveCells, auc_from_shares

# Fixed boundary masses measured beside the library's default.
MASSES = (0.2, 0.3, 0.5)


def mixture_cells(quick):
    if quick:
        return [("ranking", 100, 10, 0.3, 2.0)]
    return [("ranking", n, positives, mix, separation)
            for separation in (2.0, 4.0) for mix in (0.1, 0.3)
            for positives in (10, 30) for n in (100, 1000)]


def true_auc(mix, separation):
    return (1 - mix) * stats.norm.cdf(separation / math.sqrt(2)) + mix / 2


def run_mixture(cell, reps, n_draws, *, coverage_row, seed, levels, library, library_mass,
                former_mass):
    """Rows of one cell: ``library_mass`` the library's default mass as a function of
    the number of positives, ``former_mass`` the former default (a fixed mass)."""
    _, n, n_pos, mix, separation = cell
    truth = true_auc(mix, separation)
    labelled = {library: library_mass(n_pos),
                f"boundary mass {former_mass:g} (former default)": former_mass}
    labelled.update({f"boundary mass {m:g}": m for m in MASSES})
    # Drawn in increasing order of mass, whichever is the library's.
    masses = tuple(sorted(set(labelled.values())))
    relevant = np.r_[np.ones(n_pos, dtype=bool), np.zeros(n - n_pos, dtype=bool)]
    rng = seed("ranking mixture", n, n_pos, round(mix * 100), round(separation * 10))
    auc = {m: np.empty((reps, n_draws)) for m in masses}
    boot = np.empty((reps, n_draws))
    delong = {level: (np.empty(reps), np.empty(reps)) for level in levels}
    for r in range(reps):
        seen = relevant & (rng.random(n) >= mix)
        score = rng.normal(size=n) + separation * seen
        cells = CurveCells.from_items(relevant, score, np.ones(n))
        g_pos = rng.standard_gamma(cells.positive, size=(n_draws, cells.positive.size))
        g_neg = rng.standard_gamma(cells.negative, size=(n_draws, cells.negative.size))
        for m in masses:
            pseudo = rng.standard_gamma(m, size=(4, n_draws, 1))
            gp = np.concatenate([pseudo[0], g_pos, pseudo[2]], axis=1)
            gn = np.concatenate([pseudo[1], g_neg, pseudo[3]], axis=1)
            auc[m][r] = auc_from_shares(gp, gn, gp.sum(axis=1, keepdims=True),
                                        gn.sum(axis=1, keepdims=True))
        picks = rng.integers(0, n, size=(n_draws, n))
        weights = np.bincount((picks + n * np.arange(n_draws)[:, None]).ravel(),
                              minlength=n * n_draws).reshape(n_draws, n).astype(float)
        boot[r] = ref.weighted_auc(relevant, score, weights)
        for level in levels:
            _, low, high, _ = ref.delong_interval(relevant, score, level)
            delong[level][0][r], delong[level][1][r] = low, high

    def quantiles(draws):
        out = {}
        for level in levels:
            tail = (1 - level) / 2
            with np.errstate(invalid="ignore"):
                out[level] = tuple(np.nanquantile(draws, [tail, 1 - tail], axis=1))
        return out

    name = (f"n={n} positives={n_pos} hidden share={mix:g} separation={separation:g}")
    rows = []
    for label, m in labelled.items():
        kind = "library" if label == library else "candidate"
        rows.append(coverage_row("ranking", name, "ROC AUC, hidden positives", label, kind,
                                 truth, quantiles(auc[m])))
    rows.append(coverage_row("ranking", name, "ROC AUC, hidden positives", "bootstrap",
                             "reference", truth, quantiles(boot)))
    rows.append(coverage_row("ranking", name, "ROC AUC, hidden positives", "DeLong",
                             "reference", truth, delong))
    return rows
