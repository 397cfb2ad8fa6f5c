"""Affine maps of the exact posteriors, `AffinePosterior`.

``shift + scale * M`` of a Beta, F-beta or difference posterior ``M``: the
E-measure ``1 - F_beta`` and balanced accuracy ``(1 + J) / 2``.  Every
summary maps the base posterior's exactly.
"""

from __future__ import annotations

import math

import numpy as np

from .._core import fail, rounded
from ._posterior import BetaPosterior, _Posterior
from ._posterior_difference import DifferencePosterior
from ._posterior_fbeta import FBetaPosterior

__all__ = ["AffinePosterior"]


class AffinePosterior(_Posterior):
    """Posterior of ``shift + scale * M`` for an exact posterior ``M``.

    Exact metrics that are affine maps of another: the E-measure
    ``1 - F_beta`` (``scale=-1, shift=1``) and balanced accuracy
    ``(1 + informedness) / 2`` (``scale=0.5, shift=0.5``).  Every summary
    maps the base posterior's exactly; a negative scale swaps the tails.

    Parameters
    ----------
    base : BetaPosterior, FBetaPosterior or DifferencePosterior
        The posterior of ``M``.
    scale : float
        Non-zero factor.
    shift : float
        Offset.

    Examples
    --------
    >>> from skprobeval import FBetaPosterior
    >>> from skprobeval import AffinePosterior
    >>> f1 = FBetaPosterior(8.5, 2.5, 3.5)
    >>> e = AffinePosterior(f1, scale=-1.0, shift=1.0)
    >>> round(e.mean() + f1.mean(), 12), round(e.cdf(0.3) - f1.sf(0.7), 12)
    (1.0, 0.0)
    """

    __slots__ = ("_base", "_scale", "_shift")
    _shape_params = property(lambda self: self._base._shape_params)
    _hdi_affine = property(lambda self: (self._base, self._scale, self._shift))

    def __init__(self, base, scale, shift):
        if not isinstance(base, (BetaPosterior, FBetaPosterior, DifferencePosterior)):
            fail("base", "an exact posterior (Beta, F-beta or difference)", base,
                 error=TypeError)
        scale = float(scale)
        if scale == 0 or not np.isfinite(scale):
            fail("scale", "a finite non-zero number", scale)
        self._base = base
        self._scale = scale
        self._shift = float(shift)

    @property
    def base(self):
        """The posterior of the untransformed metric."""
        return self._base

    @property
    def scale(self):
        """Factor of the map."""
        return self._scale

    @property
    def shift(self):
        """Offset of the map."""
        return self._shift

    @property
    def shape(self):
        """Shape of the parameter arrays."""
        return self._base.shape

    @property
    def _support(self):
        ends = [self._shift + self._scale * end for end in self._base._support]
        return min(ends), max(ends)

    def __getitem__(self, index):
        return AffinePosterior(self._base[index], self._scale, self._shift)

    def __repr__(self):
        return (f"AffinePosterior(scale={rounded(self._scale)}, shift={rounded(self._shift)}, "
                f"base={self._base!r})")

    def _inverse(self, x):
        return (x - self._shift) / self._scale

    def _params(self, shape):
        return self._base._params(shape)

    def _cdf_flat(self, params, x):
        kernel = self._base._cdf_flat if self._scale > 0 else self._base._sf_flat
        return kernel(params, self._inverse(x))

    def _sf_flat(self, params, x):
        kernel = self._base._sf_flat if self._scale > 0 else self._base._cdf_flat
        return kernel(params, self._inverse(x))

    def _logpdf_flat(self, params, x):
        return self._base._logpdf_flat(params, self._inverse(x)) - math.log(abs(self._scale))

    def _quantile_flat(self, params, q, upper):
        base = self._base._quantile_flat(params, q, upper if self._scale > 0 else not upper)
        return self._shift + self._scale * base

    def _rvs_flat(self, params, rng):
        return self._shift + self._scale * self._base._rvs_flat(params, rng)

    def _mean_array(self):
        return self._shift + self._scale * self._base._mean_array()

    def _var_array(self):
        return self._scale * self._scale * self._base._var_array()

    def _mode_array(self):
        return self._shift + self._scale * self._base._mode_array()
