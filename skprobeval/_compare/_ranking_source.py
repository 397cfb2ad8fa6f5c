"""What a ranking of systems is recomputed from, with more items: `RankingSource`.

`rank_systems` keeps, with its `SystemRanking`, the joint table it ranked
(the items' codes of truth and predictions, their weights) and its settings,
so that planning more test items (`plan_more_items`) can add simulated items
to the table and rank again.  The table is made dense here: every observed
combination of labels and every cell of the prior (a truth, the set of
systems wrong, their common wrong label), each with its count and its prior
mass, so that a Dirichlet over these cells is the posterior `rank_systems`
draws from (by aggregation, the prior's stick-breaking over the same cells).

Two kinds of table are ranked for many simulated futures at once, from one
Gamma draw per cell, simulation and posterior draw: binary targets
(``average="binary"``: at most 2^(N+1) cells) and accuracy or error over every
label (the 2^N patterns of systems right and wrong, which is all they read).
Any other table is handed back, future by future, as a `JointCounts` for
`rank_systems` itself.
"""

from __future__ import annotations

import numpy as np

from .._core import fail
from .._counting import JointCounts
from .._metrics import SHARE_OF_RIGHT
from .._posteriors import label_cells
from ._pooling import pool_in_range, pool_in_range_sets

__all__ = ["RankingSource"]

# Cells of a dense table (the prior's cells number K (1 + (2^N - 1)(K - 1)) for
# K labels and N systems); beyond it a ranking is not planned.
MAX_CELLS = 4096
# Gamma variates per chunk of simulated futures.
_CHUNK = 1 << 22


class RankingSource:
    """The dense joint table of a `SystemRanking` and how to rank it again.

    Attributes
    ----------
    alpha : ndarray of shape (n_cells,)
        The posterior's Dirichlet parameters (counts and prior mass).
    n_items : float
        The items (total weight) in hand.
    reason : str or None
        Why the table cannot be planned (None when it can).
    """

    def __init__(self, joint, names, *, metric, average, labels, pos_label, lam, beta,
                 pooling, width, higher):
        self.names, self.metric, self.average = tuple(names), metric, average
        # The labels asked for, as the table encoded them (the argument itself may be
        # another library's array, read once already).
        self.labels = (None if labels is None or joint.kind != "multiclass"
                       else np.asarray(joint.classes[:joint.n_requested]))
        self.pos_label, self.lam, self.beta = pos_label, lam, beta
        self.pooling, self.width, self.higher = pooling, width, higher
        self._joint = joint
        self.n_items = float(np.sum(joint.weight)) if joint.weight is not None else float(
            np.shape(joint.codes[0])[0])
        self.reason = None
        self._built = False
        if joint.kind == "multilabel":
            self.reason = "multilabel tables are not planned"
            return
        clusters = getattr(joint, "clusters", None)
        if clusters is not None and not clusters.singletons:
            self.reason = "rankings of items in clusters are not planned (more clusters, " \
                          "not more items, would be what to plan)"
            return
        n_sys, size = len(names), joint.n_classes
        if size * (1 + (2 ** n_sys - 1) * (size - 1)) > MAX_CELLS:
            self.reason = (f"the joint table of {size} labels and {n_sys} systems has more "
                           f"than {MAX_CELLS} cells")

    # -- the dense table ----------------------------------------------------

    def _build(self):
        if self._built:
            return
        joint, lam = self._joint, self.lam
        n_sys, size = len(self.names), self._joint.n_classes
        observed = np.stack([np.asarray(c, dtype=np.int64) for c in joint.codes], axis=1)
        weight = (np.ones(observed.shape[0]) if joint.weight is None
                  else np.asarray(joint.weight, dtype=float))
        # The prior's cells: a truth, the systems wrong (a fair coin each), and
        # their common wrong label (uniform among the others).
        wrong = (np.arange(2 ** n_sys)[:, None] >> np.arange(n_sys)) & 1
        rows, masses = [], []
        per_truth = 4.0 * lam / (size * 2 ** n_sys)
        for truth in range(size):
            rows.append(np.full((1, n_sys + 1), truth))
            masses.append([per_truth])
            for other in range(size):
                if other == truth:
                    continue
                cells = np.where(wrong[1:] == 1, other, truth)
                rows.append(np.column_stack([np.full(cells.shape[0], truth), cells]))
                masses.append(np.full(cells.shape[0], per_truth / (size - 1)))
        prior_rows, prior_mass = np.concatenate(rows), np.concatenate(masses)
        cells, inverse = np.unique(np.concatenate([observed, prior_rows]), axis=0,
                                   return_inverse=True)
        inverse = np.ravel(inverse)
        n_cells, n_obs = cells.shape[0], observed.shape[0]
        counts = np.bincount(inverse[:n_obs], weights=weight, minlength=n_cells)
        prior = np.bincount(inverse[n_obs:], weights=prior_mass, minlength=n_cells)
        present = np.bincount(inverse[:n_obs], minlength=n_cells) > 0
        truth, predictions = cells[:, 0], cells[:, 1:]
        self._every = (joint.kind == "multiclass" and joint.n_requested == size)
        self._share = (self._every and self.metric in SHARE_OF_RIGHT | {"error"}
                       and self.average == "micro")
        self._binary = joint.kind == "binary"
        self._identical = np.array([[np.array_equal(observed[:, 1 + j], observed[:, 1 + k])
                                     for k in range(n_sys)] for j in range(n_sys)])
        if self._share:
            # Accuracy reads only who is right: the 2^N patterns (aggregation).
            right = (predictions == truth[:, None]).astype(np.int64)
            pattern = right @ (1 << np.arange(n_sys))
            self._pattern = pattern
            counts = np.bincount(pattern, weights=counts, minlength=2 ** n_sys)
            prior = np.bincount(pattern, weights=prior, minlength=2 ** n_sys)
            self._right = ((np.arange(2 ** n_sys)[:, None] >> np.arange(n_sys)) & 1).astype(
                float)
            self._differ = self._right[:, :, None] != self._right[:, None, :]
            self._present = np.zeros(2 ** n_sys, dtype=bool)
        else:
            self._pattern = None
            positive = truth == 0
            self._truth = positive.astype(float)
            self._predicted = (predictions == 0).astype(float)
            self._right = ((predictions == truth[:, None]) & positive[:, None]).astype(float)
            self._differ = predictions[:, :, None] != predictions[:, None, :]
            self._present = present
        self._cells, self._cell_counts = cells, counts
        self.counts, self.prior = counts, prior
        self._built = True

    @property
    def alpha(self):
        """Dirichlet parameters of the posterior over the dense cells."""
        self._build()
        return self.counts + self.prior

    @property
    def vectorised(self):
        """Whether futures are ranked many at once (binary targets, accuracy)."""
        self._build()
        return self._binary or self._share

    # -- ranking futures ----------------------------------------------------

    def leader_probability(self, extra, rope, n_draws, rng):
        """The leader's P(best) (with ``rope > 0``: P(within `rope` of the best)) after
        adding `extra` items, shape (n_sims, n_cells), to the table: shape (n_sims,)."""
        if self.reason is not None:
            fail("result", "a ranking whose joint table can be planned", None,
                 shown=self.reason)
        self._build()
        extra = np.asarray(extra, dtype=float)
        if not self.vectorised:
            fail("result", "a ranking of binary targets or of accuracy (others are ranked "
                 "future by future by rank_systems)", None, shown="another table")
        n_cells = self.alpha.shape[0]
        step = max(1, _CHUNK // (n_draws * n_cells))
        out = np.empty(extra.shape[0])
        for begin in range(0, extra.shape[0], step):
            chunk = extra[begin:begin + step]
            values = self._metric_draws(chunk, n_draws, rng)
            values = self._pooled(values, chunk, rng)
            out[begin:begin + step] = _leader(values if self.higher else -values, rope)
        return out

    def _metric_draws(self, extra, n_draws, rng):
        """(n_sims, n_draws, N) metric draws of every system after `extra`."""
        alpha = self.alpha + extra
        gamma = rng.standard_gamma(np.broadcast_to(alpha[:, None, :], (
            extra.shape[0], n_draws, alpha.shape[1])))
        gamma /= gamma.sum(axis=2, keepdims=True)
        right = gamma @ self._right
        if self._pattern is not None:
            return 1.0 - right if self.metric == "error" else right
        from .._metrics import get_metric

        spec = get_metric(self.metric)
        params = {"beta": self.beta} if "beta" in spec.params else {}
        true = gamma @ self._truth
        predicted = gamma @ self._predicted
        out = np.empty(right.shape)
        for j in range(right.shape[2]):
            cells = label_cells(right[..., j], predicted[..., j], true, 1.0)
            with np.errstate(all="ignore"):
                out[..., j] = spec.function(*cells, **params)
        return out

    def _pooled(self, values, extra, rng):
        """The draws with identical systems tied and (``pooling="partial"``) pooled."""
        n_sys = values.shape[2]
        present = self._present[None, :] | (extra > 0)
        # Systems j and k are one classifier in a future where no item tells them apart.
        same = self._identical[None] & ~np.einsum("sc,cjk->sjk", present,
                                                   self._differ).astype(bool)
        of_system = np.argmax(same, axis=2)
        values = np.take_along_axis(values, of_system[:, None, :], axis=2)
        if self.pooling != "partial" or n_sys < 3:
            return values
        low = 1.0 - self.width
        distinct = np.array([np.unique(row).size for row in of_system])
        alone = distinct == n_sys
        pooled = np.array(values)
        if alone.any():
            pooled[alone] = pool_in_range_sets(values[alone], low, 1.0, rng, self.higher)
        for s in np.flatnonzero(~alone):
            pooled[s] = pool_in_range(values[s], low, 1.0, rng, self.higher)
        return pooled

    def joint_counts(self, extra):
        """The table with `extra` items (shape (n_cells,)) added, as a `JointCounts`."""
        self._build()
        counts = self._cell_counts + extra
        keep = (counts > 0) | self._present
        classes = np.asarray(self._joint.classes)
        cells = self._cells[keep]
        return JointCounts(classes[cells[:, 0]], classes[cells[:, 1:]], counts[keep],
                           names=self.names, labels=self.labels, pos_label=self.pos_label,
                           average=self.average)


def _leader(values, rope):
    """Per set (n_sims, n_draws, N) of draws, higher better: the largest P(best) (ties
    split), or with ``rope > 0`` the largest P(within `rope` of the draw's best);
    draws with an undefined metric are left out."""
    defined = np.all(np.isfinite(values), axis=2)
    best = np.max(np.where(defined[..., None], values, -np.inf), axis=2, keepdims=True)
    if rope == 0:
        top = values == best
        share = top / np.maximum(top.sum(axis=2, keepdims=True), 1)
    else:
        share = values >= best - rope
    share = np.where(defined[..., None], share, 0.0).sum(axis=1)
    return share.max(axis=1) / np.maximum(defined.sum(axis=1), 1)
