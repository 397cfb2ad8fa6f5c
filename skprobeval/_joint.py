"""Joint Dirichlet models of multiclass and multilabel predictions.

One system, single-label multiclass: the K x K table (true label x
prediction) has cell probabilities ~ Dirichlet(counts + prior), the prior
being d = 2λ/K on the diagonal and d / (K - 1) off it: the binary table's
total mass 4λ, whatever K (a prior whose mass grew with K pulled every
label's metric the same way, and averages over labels kept the pull).  By
the aggregation property every label's one-vs-rest (TP, FP, FN) cells carry
d each, and the share of items right is Beta(right + 2λ, wrong + 2λ) (its
exact posterior, as the binary accuracy's, takes λ a side instead).  For
K = 2, d = λ: the binary model.

Two systems on the same items: the (true label, prediction A, prediction B)
table.  Its prior is spread so that each system's K x K marginal is exactly
the one-system prior above, and so that every "who is right" outcome has
mass: d/2 on each (t, t, t) cell, d / (2(K - 1)) on each cell where only A is
right (t, t, b), only B is right (t, a, t), or both make the same mistake
(t, a, a); none on the K(K - 1)(K - 2) cells where both are wrong in
different ways.  The total is 4λ, the same as one system's prior, and the
support has 3K² - 2K cells instead of K³.  For K = 2 (a binary table) every
one of the 8 cells gets λ/2.

Multilabel indicator targets: each column is its own binary table (4 cells
for one system, 8 for two), independent of the others.

Everything here is private; the public entry points live in ``_bayes.py``
and ``_compare.py``.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from ._numerics import TINY as _TINY
from ._numerics import dirichlet, weighted_mean

__all__ = [
    "JointTable",
    "average_values",
    "dirichlet",
    "joint_prior",
    "label_concentration",
    "label_prior",
]

# Cells x draws generated at once (bounds memory at a few hundred MB).
_CELLS_PER_CHUNK = 1 << 22


def label_concentration(size, lam):
    """Prior mass of each label's TP cell (and of its FP and FN groups) in the K x K table.

    The binary table's total mass 4λ, spread over K labels: 2λ / K (λ for K = 2),
    so the table's prior does not grow with the number of classes.
    """
    return lam if size <= 2 else 2.0 * lam / size


def label_prior(size, lam):
    """Prior concentrations of one label's (TP, FP, FN, TN) cells in the K x K table.

    By the aggregation property a label's one-vs-rest table is Dirichlet with
    the summed prior of the cells it gathers: d = 2λ/K on TP (its diagonal
    cell), d on FP (its column's K - 1 other cells, d / (K - 1) each), d on
    FN (its row's) and the rest of the total 4λ, 4λ - 3d, on TN.  λ on every
    cell for K = 2 (the binary table); one class has only its TP cell.
    """
    if size < 2:
        return np.array([lam, 0.0, 0.0, 0.0])
    per_label = label_concentration(size, lam)
    return np.array([per_label, per_label, per_label, 4 * lam - 3 * per_label])


def joint_prior(size, lam):
    """Concentrations of the one-system K x K prior: d = 2λ/K on the diagonal,
    d / (K - 1) elsewhere (total mass 4λ whatever K)."""
    per_label = label_concentration(size, lam)
    prior = np.full((size, size), per_label / max(size - 1, 1))
    np.fill_diagonal(prior, per_label)
    return prior


def _paired_prior(size, lam):
    """Cell codes ``(t K + a) K + b`` and concentrations of the two-system prior."""
    per_label = label_concentration(size, lam)
    off = per_label / (2 * max(size - 1, 1))
    t, a, b = np.meshgrid(np.arange(size), np.arange(size), np.arange(size), indexing="ij")
    t, a, b = t.ravel(), a.ravel(), b.ravel()
    alpha = np.where((a == t) & (b == t), per_label / 2,
                     np.where((a == t) | (b == t) | (a == b), off, 0.0))
    keep = alpha > 0
    return (t[keep] * size + a[keep]) * size + b[keep], alpha[keep]


# Tables of at most this many possible cells (or twice the items) are counted with
# one bincount; larger ones sort the observed codes.
_DIRECT_CELLS = 1 << 20
_DIRECT_PER_ITEM = 2


def _digits(codes, size, n_digits):
    """Split cell codes into their base-`size` digits, most significant first."""
    out = []
    for _ in range(n_digits):
        out.append(codes % size)
        codes = codes // size
    return out[::-1]


class JointTable:
    """The Dirichlet posterior of a truth and one or two systems' predictions.

    Built from `skprobeval._counts.JointCodes`; `sample` yields, chunk by
    chunk, every system's per-label ``(tp, fp, fn, tn)`` cell probabilities
    of the requested labels (arrays of shape ``(draws, R)``).
    """

    def __init__(self, joint, lam):
        self.kind = joint.kind
        self.n_systems = len(joint.codes) - 1
        self.n_requested = joint.n_requested
        self.labels = joint.classes[:joint.n_requested]
        if self.kind == "multilabel":
            self._init_multilabel(joint, lam)
        else:
            self._init_multiclass(joint, lam)

    # -- construction -----------------------------------------------------

    def _init_multiclass(self, joint, lam):
        size = joint.classes.shape[0] if self.kind == "multiclass" else 2
        self.size = size
        n_digits = self.n_systems + 1
        code = np.zeros(joint.codes[0].shape[0], dtype=np.int64)
        for digit in joint.codes:
            code = code * size + digit
        n_codes = size ** n_digits
        if n_codes <= max(_DIRECT_CELLS, _DIRECT_PER_ITEM * code.shape[0]):
            # Few possible cells: count them directly, in O(n) (no sort).
            seen = np.bincount(code, minlength=n_codes)
            observed = np.flatnonzero(seen)
            counts = (seen if joint.weight is None else
                      np.bincount(code, weights=joint.weight, minlength=n_codes))[observed]
        else:
            observed, inverse = np.unique(code, return_inverse=True)
            counts = np.bincount(inverse, weights=joint.weight, minlength=observed.shape[0])
        if self.n_systems == 1:
            prior_codes = np.arange(size * size)
            prior_alpha = joint_prior(size, lam).ravel()
        else:
            prior_codes, prior_alpha = _paired_prior(size, lam)
        cells, position = np.unique(np.concatenate([prior_codes, observed]),
                                    return_inverse=True)
        n_prior = prior_codes.shape[0]
        alpha = np.zeros(cells.shape[0])
        observed_counts = np.zeros(cells.shape[0])
        np.add.at(alpha, position[:n_prior], prior_alpha)
        np.add.at(observed_counts, position[n_prior:], counts)
        alpha += observed_counts
        keep = alpha > 0           # cells seen only with weight 0 and no prior mass
        cells, alpha, observed_counts = cells[keep], alpha[keep], observed_counts[keep]
        # The cells are drawn in an order set by the data, not by the labels' names:
        # renaming the classes then gives each cell the same variates.  (A binary
        # table's codes are positive, negative: set by `pos_label`, not by names.)
        unordered = _digits(cells, size, n_digits)
        rank = (np.arange(size) if self.kind == "binary" else
                _label_ranks(unordered, observed_counts, size, self.n_requested))
        canonical = np.zeros(cells.shape[0], dtype=np.int64)
        for digit in unordered:
            canonical = canonical * size + rank[digit]
        order = np.argsort(canonical)
        cells, self.alpha, self._observed_counts = (
            cells[order], alpha[order], observed_counts[order])
        self.canonical = np.argsort(rank[:self.n_requested])
        digits = _digits(cells, size, n_digits)
        truth = digits[0]
        rows = np.arange(cells.shape[0])
        ones = np.ones(cells.shape[0])

        def indicator(columns, mask=None):
            data = ones if mask is None else mask.astype(float)
            return sp.csr_matrix((data, (rows, columns)), shape=(cells.shape[0], size))

        # One map of every cell to the per-label sums (true, then per system
        # predicted and right): a dense matrix product for small tables, sparse
        # for large ones.
        maps = [indicator(truth)]
        for digit in digits[1:]:
            maps += [indicator(digit), indicator(truth, digit == truth)]
        combined = sp.hstack(maps, format="csr")
        self._map = combined.toarray() if combined.shape[0] * combined.shape[1] <= 1 << 22 \
            else combined
        self.differ = None if self.n_systems == 1 else digits[1] != digits[2]
        self._cell_digits = digits

    def right_alone(self):
        """Dirichlet masses (posterior, observed) of three aggregated cells of a
        two-system table: the first system right and the second wrong, the
        reverse, and the rest (by the aggregation property, the posterior of
        the share of items right of each system)."""
        truth, first, second = self._cell_digits
        a_alone = (first == truth) & (second != truth)
        b_alone = (second == truth) & (first != truth)
        masks = (a_alone, b_alone, ~(a_alone | b_alone))
        return (tuple(float(self.alpha[m].sum()) for m in masks),
                tuple(float(self._observed_counts[m].sum()) for m in masks))

    def _init_multilabel(self, joint, lam):
        codes = np.zeros(joint.codes[0].shape, dtype=np.intp)
        for digit in joint.codes:
            codes = codes * 2 + digit.astype(np.intp)
        n_cells = 2 ** (self.n_systems + 1)
        n_labels = codes.shape[1]
        flat = codes + n_cells * np.arange(n_labels)
        weight = None if joint.weight is None else np.repeat(joint.weight, n_labels)
        counts = np.bincount(flat.ravel(), weights=weight,
                             minlength=n_cells * n_labels).reshape(n_labels, n_cells)
        prior = lam if self.n_systems == 1 else lam / 2
        self.alpha = counts[:self.n_requested] + prior
        self._observed_counts = counts[:self.n_requested]
        # Columns are independent tables, drawn in the order of their counts (equal
        # counts are exchangeable): renaming the labels gives each the same variates.
        self.canonical = np.lexsort(self.alpha.T[::-1])
        # Cell index bits: truth is the most significant, then A, then B (1 = positive).
        index = np.arange(n_cells)
        bits = _digits(index, 2, self.n_systems + 1)
        self._ml_truth = bits[0] == 1
        self._ml_pred = [b == 1 for b in bits[1:]]
        self.differ = None if self.n_systems == 1 else bits[1] != bits[2]

    # -- queries ----------------------------------------------------------

    @property
    def any_difference(self):
        """True when some item with positive weight gets different predictions."""
        if self.differ is None:
            return True
        if self.kind == "multilabel":
            return bool(self._observed_counts[:, self.differ].sum() > 0)
        return bool(self._observed_counts[self.differ].sum() > 0)

    def sample(self, n_draws, rng):
        """Yield ``[(tp, fp, fn, tn) per system]`` for chunks of posterior draws."""
        n_cells = self.alpha.size
        chunk = max(1, _CELLS_PER_CHUNK // n_cells)
        if self.kind == "multilabel":
            alpha, back = self.alpha[self.canonical], np.argsort(self.canonical)
        for start in range(0, n_draws, chunk):
            size = min(chunk, n_draws - start)
            if self.kind == "multilabel":
                draws = dirichlet(alpha, size, rng)[:, back]
            else:
                draws = dirichlet(self.alpha, size, rng)
            yield self._tables(draws)

    def _tables(self, draws):
        n_req = self.n_requested
        out = []
        if self.kind == "multilabel":
            # draws: (S, R, cells); each column's table sums to 1.
            true = draws[..., self._ml_truth].sum(axis=-1)
            for pred_mask in self._ml_pred:
                tp = draws[..., self._ml_truth & pred_mask].sum(axis=-1)
                pred = draws[..., pred_mask].sum(axis=-1)
                out.append(_cells(tp, pred, true, 1.0))
            return out
        # draws: (S, C) over the whole table; one product sums the cells per label.
        if sp.issparse(self._map):
            sums = np.asarray((self._map.T @ draws.T).T)
        else:
            sums = draws @ self._map
        size = self.size
        true = sums[:, :n_req]
        for system in range(self.n_systems):
            start = size * (1 + 2 * system)
            pred = sums[:, start:start + n_req]
            tp = sums[:, start + size:start + size + n_req]
            out.append(_cells(tp, pred, true, 1.0))
        return out


def _label_ranks(digits, counts, size, n_requested):
    """A rank of each label that renaming the labels carries along.

    The requested labels come first; among them (and among the others) labels
    are ordered by what the observed cells say about them: for each position
    of a cell's code (truth, each system) and each pattern of equal positions
    in it, the sum, the sum of squares and the number of the observed counts
    of the cells holding the label there.  Only labels alike in all of these
    keep their code order.
    """
    n_digits = len(digits)
    pairs = [(i, j) for i in range(n_digits) for j in range(i + 1, n_digits)]
    pattern = np.zeros(counts.shape[0], dtype=np.intp)
    for bit, (i, j) in enumerate(pairs):
        pattern |= (digits[i] == digits[j]).astype(np.intp) << bit
    n_patterns = 1 << len(pairs)
    seen = counts > 0
    features = []
    for position, digit in enumerate(digits):
        slot = (digit * n_digits + position) * n_patterns + pattern
        length = size * n_digits * n_patterns
        for values in (counts, counts * counts, seen.astype(float)):
            features.append(np.bincount(slot[seen], weights=values[seen], minlength=length)
                            .reshape(size, n_digits * n_patterns))
    features = np.hstack(features)
    outside = np.arange(size) >= n_requested
    order = np.lexsort([np.arange(size), *features.T[::-1], outside])
    rank = np.empty(size, dtype=np.int64)
    rank[order] = np.arange(size)
    return rank


def _cells(tp, pred, true, total):
    fp = np.maximum(pred - tp, 0.0)
    fn = np.maximum(true - tp, 0.0)
    tn = np.maximum(total - tp - fp - fn, 0.0)
    return (np.maximum(tp, _TINY), np.maximum(fp, _TINY), np.maximum(fn, _TINY),
            np.maximum(tn, _TINY))


def average_values(function, params, cells, average, weights=None, *, share_of_right=False):
    """A metric of per-label cells combined over labels, per draw.

    Parameters
    ----------
    function : callable(tp, fp, fn, tn, **params)
    cells : tuple of 4 arrays of shape (S, R)
    average : {"micro", "macro", "weighted", "powers", None}
    weights : ndarray of shape (R,), default=None
        Label weights of ``"weighted"`` and ``"powers"`` (observed shares).
    share_of_right : bool, default=False
        ``average="micro"`` on single-label multiclass data with every label:
        the metric is the share of items right (the sum of the diagonal).

    Returns
    -------
    ndarray of shape (S,), or (S, R) for ``average=None``
    """
    tp, fp, fn, tn = cells
    with np.errstate(all="ignore"):
        if average == "micro":
            if share_of_right:
                return tp.sum(axis=1)
            return np.asarray(function(tp.sum(axis=1), fp.sum(axis=1), fn.sum(axis=1),
                                       tn.sum(axis=1), **params), dtype=float)
        values = np.asarray(function(tp, fp, fn, tn, **params), dtype=float)
        if average is None:
            return values
        if average == "macro" or weights is None or weights.sum() == 0:
            weights = np.ones(values.shape[1])
        return weighted_mean(values, weights)
