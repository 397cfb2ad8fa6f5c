"""The result of `plan_test_size`: the items a test set needs, and the width's curve."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .._core import ResultMixin, fail, rounded

__all__ = ["TestSizePlan"]


@dataclass(frozen=True, slots=True, eq=False)
class TestSizePlan(ResultMixin):
    """How many items a test set needs for an interval of a given width.

    Returned by `plan_test_size`.

    Attributes
    ----------
    n_items : int
        The smallest number of items whose interval is at most `width` wide
        with probability `assurance` (to within 2% for the exact route, 3%
        for the simulated one).
    prob_within : float
        P(interval width <= `width`) for a test set of `n_items` items
        (from a clustered pilot: averaged over its design effect's
        posterior).
    mc_error : float
        Monte Carlo standard error of `prob_within` (0.0 for the exact route).
    method : {"exact", "simulation"}
        Exact sums over the counts of a Beta posterior, or simulated test
        sets.
    widths : ndarray
        Interval widths of test sets of `n_items` items drawn from the
        population (seeded): the width's distribution at that size.
    metric, average, width, confidence, assurance, prior
        The settings.
    population : dict
        The cell shares the test sets are drawn from (``tp, fp, fn, tn``; a
        K x K table of shares, rows true, for a multiclass pilot).
    n_clusters, cluster_size, icc, design_effect
        For a test set of clusters: the clusters to label, their mean size,
        the intra-cluster correlation (given, or that of a clustered pilot's
        design effect) and the design effect (the pilot's estimate, whose
        uncertainty the plan allows for); else None.
    pool_size, proxy_agreement, n_items_without_proxy
        With a second labeller on every item: the items it labels, its
        agreement with the gold label and the gold labels needed without
        it (`n_items` is then the number of gold labels); else None.

    Methods
    -------
    summary()
        The plan as a dict: `n_items`, `prob_within`, the median width and
        the width at `assurance`.
    plot(ax=None, *, kind="curve")
        The width against the number of items (median and the `assurance`
        quantile, the target and `n_items` marked), or ``kind="distribution"``:
        the histogram of `widths`.

    Examples
    --------
    >>> from skprobeval import plan_test_size
    >>> plan = plan_test_size(metric="accuracy", width=0.05, expected=0.9, random_state=0)
    >>> plan.n_items, plan.method
    (612, 'exact')
    >>> round(plan.summary()["width_at_assurance"], 4)
    0.0495
    """

    __test__ = False      # a result, not a test class, where tests import it

    n_items: int
    prob_within: float
    mc_error: float
    method: str
    widths: np.ndarray = field(repr=False)
    metric: str = "f1"
    average: str | None = "binary"
    width: float = 0.1
    confidence: float = 0.95
    assurance: float = 0.8
    prior: float = 0.5
    population: dict = field(default_factory=dict, repr=False)
    #: With clusters (``cluster_size`` and ``icc``): the clusters to label, their mean
    #: size, the intra-cluster correlation and the design effect; else None.
    n_clusters: int | None = None
    cluster_size: float | None = None
    icc: float | None = None
    design_effect: float | None = None
    #: With a proxy (``proxy_agreement`` and ``pool_size``): the items the proxy labels,
    #: its agreement with the gold label and the gold labels needed without it; else None.
    pool_size: int | None = None
    proxy_agreement: float | None = None
    n_items_without_proxy: int | None = None
    _sampler: object = field(default=None, repr=False, compare=False)

    def __repr__(self):
        mc = "" if self.method == "exact" else f", mc_error={rounded(self.mc_error)}"
        clusters = ("" if self.n_clusters is None else
                    f", n_clusters={self.n_clusters}, design_effect="
                    f"{rounded(self.design_effect)}")
        if self.pool_size is not None:
            clusters += (f", pool_size={self.pool_size}, n_items_without_proxy="
                         f"{self.n_items_without_proxy}")
        return (f"TestSizePlan(n_items={self.n_items}{clusters}, "
                f"prob_within={rounded(self.prob_within)}"
                f"{mc}, method={self.method!r}, metric={self.metric!r}, width={self.width:g}, "
                f"confidence={self.confidence:g}, assurance={self.assurance:g})")

    def summary(self):
        """The plan as a dict.

        Returns
        -------
        dict
            ``n_items``, ``prob_within``, ``mc_error``, ``median_width``,
            ``width_at_assurance`` (the `assurance` quantile of the widths),
            ``method`` and the settings.
        """
        return {"n_items": int(self.n_items), "prob_within": float(self.prob_within),
                "mc_error": float(self.mc_error),
                "median_width": float(np.median(self.widths)),
                "width_at_assurance": float(np.quantile(self.widths, self.assurance)),
                "method": self.method, "metric": self.metric, "average": self.average,
                "width": self.width, "confidence": self.confidence,
                "assurance": self.assurance, "prior": self.prior,
                **({} if self.n_clusters is None else
                   {"n_clusters": int(self.n_clusters), "cluster_size": self.cluster_size,
                    "icc": self.icc, "design_effect": self.design_effect}),
                **({} if self.pool_size is None else
                   {"pool_size": int(self.pool_size),
                    "proxy_agreement": self.proxy_agreement,
                    "n_items_without_proxy": int(self.n_items_without_proxy)})}

    def _dict_content(self):
        return {"type": type(self).__name__, **self.summary(), "population": self.population}

    def curve(self, n_items=None):
        """The width's median and `assurance` quantile over a range of test-set sizes.

        Parameters
        ----------
        n_items : array-like of int, default=None
            Sizes to evaluate; by default 12 sizes from a tenth to three
            times `n_items`.

        Returns
        -------
        pandas.DataFrame
            Index ``n_items``; columns ``median_width``, ``width_at_assurance``
            and ``prob_within`` (the share of sampled test sets within
            `width`).
        """
        import pandas as pd

        if n_items is None:
            n_items = np.unique(np.geomspace(max(2, self.n_items / 10), 3 * self.n_items,
                                             12).astype(np.int64))
        rows = {}
        for n in np.asarray(n_items, dtype=np.int64):
            widths = self._sampler(int(n))
            rows[int(n)] = {"median_width": float(np.median(widths)),
                            "width_at_assurance": float(np.quantile(widths, self.assurance)),
                            "prob_within": float(np.mean(widths <= self.width))}
        frame = pd.DataFrame.from_dict(rows, orient="index")
        frame.index.name = "n_items"
        return frame

    def plot(self, ax=None, *, kind="curve"):
        """The width against the number of items, or the width's distribution.

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Where to draw.
        kind : {"curve", "distribution"}, default="curve"
            ``"curve"``: median width and its `assurance` quantile against
            the number of items (log scale), the target width and `n_items`
            marked; ``"distribution"``: the histogram of `widths`.

        Returns
        -------
        matplotlib.axes.Axes
        """
        from .._core import axes_or_new

        if kind not in ("curve", "distribution"):
            fail("kind", "'curve' or 'distribution'", kind)
        ax = axes_or_new(ax)
        if kind == "distribution":
            ax.hist(self.widths, bins=40, color="C0", alpha=0.8)
            ax.axvline(self.width, color="C3", label=f"target {self.width:g}")
            ax.set_xlabel(f"width of the {self.confidence:.0%} interval at "
                          f"{self.n_items} items")
            ax.set_ylabel("test sets")
            ax.legend(frameon=False)
            return ax
        curve = self.curve()
        ax.plot(curve.index, curve["width_at_assurance"], "o-", color="C0",
                label=f"width at P = {self.assurance:g}")
        ax.plot(curve.index, curve["median_width"], "--", color="C0", alpha=0.6,
                label="median width")
        ax.axhline(self.width, color="C3", linewidth=1, label=f"target {self.width:g}")
        ax.axvline(self.n_items, color="0.4", linewidth=1, linestyle=":",
                   label=f"{self.n_items} items")
        ax.set_xscale("log")
        ax.set_xlabel("items in the test set")
        ax.set_ylabel(f"width of the {self.confidence:.0%} interval of {self.metric}")
        ax.legend(frameon=False)
        return ax
