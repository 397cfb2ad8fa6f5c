"""The quantile solver shared by the exact posteriors defined through quadrature.

`FBetaPosterior` (``_posterior_fbeta.py``) and `DifferencePosterior`
(``_posterior_difference.py``) evaluate cdf, survival function, density and
the density's derivative from one set of cached nodes (``_parts``); the
solver here works on any posterior that provides them: quantiles by
safeguarded Halley steps (`_solve_quantile`).  Their highest-density
intervals come from ``skprobeval._core._hdi`` (`parts_hdi_newton` on the
same ``_parts``).  `AffinePosterior`, the affine maps of exact posteriors, is in
``_posterior_affine.py``.
"""

from __future__ import annotations

import numpy as np

from .._core import EPS, solve_increasing
from ._posterior import take_params

# Smallest parameter for which quantile steps stop early (see _solve_quantile).
_NEAR_NORMAL = 10.0


def _solve_quantile(post, p, q, upper, guess, lo, hi, scale, near_normal, curved=None):
    """Quantiles by safeguarded Halley steps on ``post._parts`` (cdf or sf, pdf, pdf').

    ``scale`` is about the posterior's standard deviation: every tolerance is
    relative to it, so that quantiles of posteriors concentrated within
    1e-12 of an end keep their digits (a tolerance relative to the value
    would stop 100 units in the last place away).  Halley steps cube the
    error (in units of the scale, with a constant of order one for
    near-normal densities, ``near_normal``: every parameter at least 10): an
    element stops after a step below 1e-4 of the scale, which leaves an
    error near 1e-12 of it.  Elsewhere Newton steps go on down to 1e-8 of
    the scale.  Bisections there split the exponent near 0: a quantile of a
    density spike at 0 can lie below 1e-300, or below the smallest float.
    ``curved`` (default `near_normal`) marks the elements whose density slope
    is reliable: they take Halley steps whatever their tolerances.
    """
    scale = np.maximum(scale, 1e-300)
    curved = near_normal if curved is None else curved

    def func(x, active):
        part = take_params(p, active)
        cdf, sf, density, slope = post._parts(part, x, (1, 2, 3) if upper else (0, 2, 3))
        value = (q[active] - sf) if upper else (cdf - q[active])
        # Newton steps where parameters below 1 make the density's slope unreliable.
        return value, density, np.where(curved[active], slope, 0.0)

    accept_rel = np.where(near_normal, 1e-4, 1e-8)
    accept = accept_rel * scale
    # A step below 1e-4 of the scale leaves a residual up to about 4e-5 where the
    # density is near-normal (at most 0.4 / scale): trusted there, so that one
    # Halley step from a close start settles an element.  Elsewhere residuals
    # up to 1e-8 only (a density spike makes steps tiny far from the root).
    # Away from near-normal shapes no absolute floor: a density spike (priors
    # far below 1) makes steps tiny far from the root.
    xtol = np.where(near_normal, 1e-14 * scale, 0.0)
    return solve_increasing(func, lo, hi, np.clip(guess, lo, hi), xtol=xtol,
                            rtol=4 * EPS, newton_rtol=0.0, accept=accept,
                            accept_rel=accept_rel, residual=np.where(near_normal, 1e-4, 1e-8),
                            near_zero=True)
