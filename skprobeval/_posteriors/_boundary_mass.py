"""Boundary masses of the ranking model: the prior of AP, ROC AUC and their comparisons.

The curve model of `skprobeval._posteriors._curves` puts four pseudo-cells of
mass λ above and below every score; the defaults here are those the coverage
benchmark chose.  Derivations: the theory page ``docs/theory/curves.rst``.
"""

from __future__ import annotations

__all__ = ["AP_FULL_MASS_POSITIVES", "AUC_FEW_POSITIVES_PRIOR", "AUC_FULL_MASS_POSITIVES",
           "RANKING_PRIOR", "ap_boundary_mass", "auc_boundary_mass", "ranking_prior"]


# Default boundary mass of the ranking summaries (AP, ROC AUC, compare_scores): the best of
# the masses the coverage benchmark measured (0.5, 0.1, 0.05, 0.01).  At 0.5 the pseudo-items
# dominate a good ranker and its intervals sit below the truth; at 0.01 they no longer cover.
# Average precision keeps it up to AP_FULL_MASS_POSITIVES positives and takes
# AP_FULL_MASS_POSITIVES * RANKING_PRIOR / P above (`ap_boundary_mass`).
RANKING_PRIOR = 0.1
AP_FULL_MASS_POSITIVES = 30
# ROC AUC's boundary mass with few positives (`auc_boundary_mass`): AUC_FEW_POSITIVES_PRIOR
# up to AUC_FULL_MASS_POSITIVES positives, falling as 1 / P to RANKING_PRIOR at 90.
AUC_FEW_POSITIVES_PRIOR = 0.3
AUC_FULL_MASS_POSITIVES = 30


def ap_boundary_mass(positive_weight):
    """Default boundary mass λ of average precision's posterior: ``RANKING_PRIOR``
    (0.1) up to 30 positives, ``3 / P`` for a total positive weight ``P`` above.

    The negative pseudo-item above every score lowers each positive's precision
    by about ``g / k`` at the k-th positive, so a draw's AP by about
    ``g log(P) / P`` (``g`` its Gamma(λ) weight): a pull of the order of the
    data's own uncertainty for a near-perfect ranking, whose few misplaced
    negatives decide it.  A fixed λ therefore widens such intervals however
    many positives there are (1.6 times the bootstrap's at 3 000 positives);
    ``λ = 3 / P`` makes the pull ``3 log(P) / P^2``, of a lower order, while
    small test sets keep the mass they need.  Chosen by the coverage benchmark
    against fixed masses and other rates (docs/theory/curves.rst).
    """
    positive_weight = float(positive_weight)
    if positive_weight <= AP_FULL_MASS_POSITIVES:
        return RANKING_PRIOR
    return AP_FULL_MASS_POSITIVES * RANKING_PRIOR / positive_weight


def auc_boundary_mass(positive_weight):
    """Default boundary mass λ of ROC AUC's posterior: 0.3 up to 30 positives,
    ``9 / P`` from 30 to 90 and ``RANKING_PRIOR`` (0.1) from 90 positives on, for a
    total positive weight ``P``.

    With few positives the lower end of the positives' scores is often unseen: a
    test set of 10 positives, a tenth of which score like negatives, holds none
    of those in a third of its draws, and the data alone then put the AUC above
    the truth.  The positive pseudo-item below every score stands for them; at
    0.1 the 95% interval held the truth in 0.87-0.90 of such test sets (10 or 30
    positives, a tenth to three tenths of them hidden), at 0.3 in 0.93 or more.
    From 90 positives the data see the lower end themselves, and the mass stays
    the 0.1 that keeps a near-perfect ranking of thousands of positives within
    the bootstrap's width.  Chosen by the coverage benchmark against fixed masses
    (docs/theory/curves.rst).
    """
    positive_weight = float(positive_weight)
    if positive_weight <= AUC_FULL_MASS_POSITIVES:
        return AUC_FEW_POSITIVES_PRIOR
    return max(RANKING_PRIOR,
               AUC_FULL_MASS_POSITIVES * AUC_FEW_POSITIVES_PRIOR / positive_weight)


def ranking_prior(prior, metric, positive_weight):
    """The boundary mass λ of a ranking summary from ``check_prior(prior, auto=True)``:
    a number as it is, ``"auto"`` the metric's default of the positives' total weight
    (`ap_boundary_mass` for average precision, `auc_boundary_mass` for ROC AUC)."""
    if prior != "auto":
        return prior
    if metric == "average_precision":
        return ap_boundary_mass(positive_weight)
    return auc_boundary_mass(positive_weight)
