"""The data part of a large joint table, drawn as one multivariate normal.

A draw of the joint table of a truth and N systems is, before it is
normalised, a Gamma(count) variate per observed cell plus the prior's mass;
what the metrics read are the per-label sums of those variates (the truth's
count of each label, each system's predicted and right counts).  The data
part of the sums, ``D = sum_c G_c m_c`` over cells c with indicator rows
``m_c``, is a sum of independent Gamma variates: its mean ``sum_c n_c m_c``
and covariance ``sum_c n_c m_c m_c^T`` are exact, and where every count the
metrics read is large, so is every count behind every linear combination
they depend on, and D is normal to within a skewness below ``2 / sqrt(n)``
(central limit theorem).  One normal draw of the few sums then replaces a
Gamma variate per cell (tens of thousands of cells for twenty systems on 10^5
items); the prior's mass is still added by stick-breaking and every draw
normalised by its own total, as in the exact route.

`normal_applies` says where: at most `MAX_SUMS` sums, and at least
`MIN_COUNT` items in each of every system's TP, FP, FN and TN cells of each
requested label and in the items on which each pair of systems differs; the
table takes it for binary targets only (one label: a pair's disagreements
are all on it).  A label average weighs a label on which two systems barely
differ as much as any other, and the pairs' disagreements in all say nothing
of that label, so multiclass tables keep the exact route.  ``benchmarks/rank_normal_accuracy.py``
measures the error of P(best), the rank probabilities and the pairwise
probabilities against the exact route at that bound.  Derivation: the theory
page ``docs/theory/rankings.rst``.
"""

from __future__ import annotations

import numpy as np

# Fewest items in any cell a metric reads, and in any pair's disagreements.
MIN_COUNT = 2000
# Most per-label sums (the covariance is dense, its square root by eigh).
MAX_SUMS = 1024


def normal_applies(cell_digits, counts, n_requested, n_sums):
    """Whether the normal route applies to a one-block table.

    `cell_digits` are the observed cells' digits (truth, then each system's
    prediction), `counts` their counts (weights summed).
    """
    if n_sums > MAX_SUMS or len(cell_digits) < 3:
        return False
    truth, predictions = cell_digits[0], cell_digits[1:]
    total = counts.sum()
    slot = np.where(truth < n_requested, truth, n_requested)
    true = np.bincount(slot, weights=counts, minlength=n_requested + 1)[:n_requested]
    for pred in predictions:
        right = pred == truth
        tp = np.bincount(slot[right], weights=counts[right],
                         minlength=n_requested + 1)[:n_requested]
        predicted = np.bincount(np.where(pred < n_requested, pred, n_requested),
                                weights=counts, minlength=n_requested + 1)[:n_requested]
        fp, fn = predicted - tp, true - tp
        tn = total - tp - fp - fn
        if min(tp.min(), fp.min(), fn.min(), tn.min()) < MIN_COUNT:
            return False
    for j, first in enumerate(predictions):
        for second in predictions[j + 1:]:
            if counts[first != second].sum() < MIN_COUNT:
                return False
    return True


class NormalSums:
    """Normal draws of the data part of a table's per-label sums.

    `matrix` maps cells to sums (a SciPy sparse matrix, cells x sums, 0/1), `counts` are the cells'
    counts: the sums' mean is ``counts @ matrix`` and their covariance
    ``matrix^T diag(counts) matrix`` (a Gamma(n) variate has mean and
    variance n).  The covariance's square root is taken by `numpy.linalg.eigh`
    (sums that are linear in others, such as a block's total, make it
    singular).
    """

    def __init__(self, matrix, counts):
        self.mean = np.asarray(matrix.T @ counts).ravel()
        covariance = (matrix.T @ matrix.multiply(counts[:, None])).toarray()
        values, vectors = np.linalg.eigh(covariance)
        keep = values > values.max() * 1e-12
        # Rows of `root`: each a direction of the covariance, scaled by its sd.
        self.root = (vectors[:, keep] * np.sqrt(values[keep])).T.copy()

    def draw(self, n_draws, rng):
        """(n_draws, sums) normal draws of the data part."""
        z = rng.standard_normal((n_draws, self.root.shape[0]))
        return z @ self.root + self.mean
