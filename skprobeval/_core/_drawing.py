"""Drawing for the result types' ``plot`` methods.

Matplotlib (the ``plot`` extra) is imported only when a function runs; every
function takes ``ax=None`` (a new figure's axes by default), returns the Axes
it drew on, and never touches global rcParams.
"""

from __future__ import annotations

import numpy as np

from ._validation import check_confidence, fail

__all__ = ["draw_band", "draw_calibration", "draw_curve", "draw_precision_baseline",
           "finish_curve_axes", "plot_chance_level", "plot_intervals", "plot_mean_ranks",
           "plot_pairwise", "plot_posteriors", "plot_rank_probabilities", "plot_simplex"]


def import_pyplot():
    try:
        import matplotlib.pyplot as plt
    except ImportError as error:  # pragma: no cover - exercised without matplotlib only
        raise ImportError(
            "Plotting needs matplotlib: install the plot extra, "
            "`pip install 'skprobeval[plot]'`."
        ) from error
    return plt


def axes_or_new(ax):
    if ax is not None:
        return ax
    _, ax = import_pyplot().subplots()
    return ax


def plot_posteriors(posteriors, *, confidence=0.95, support=None, n_points=401, xlabel="value",
                    ax=None):
    """Posterior densities with their equal-tailed credible intervals.

    Parameters
    ----------
    posteriors : dict of str to posterior, list of posteriors, or a posterior
        Exact posteriors (with a ``pdf``) of single tables, by name (a list
        names them by position).
    confidence : float, default=0.95
        Level of the shaded interval.
    support : (float, float), default=None
        Range of the x axis; by default the range holding all but 0.1% of
        every posterior's mass.
    n_points : int, default=401
        Grid size of each curve.
    xlabel : str, default="value"
        Label of the x axis: the metric (e.g. ``report.metric_label``).
    ax : matplotlib Axes, default=None
        Where to draw.

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from skprobeval import ConfusionCounts, metric_posterior
    >>> from skprobeval.plotting import plot_posteriors
    >>> system_1 = metric_posterior(ConfusionCounts(tp=10, fp=10, fn=0, tn=0), metric="precision")
    >>> system_2 = metric_posterior(ConfusionCounts(tp=3, fp=2, fn=0, tn=0), metric="precision")
    >>> ax = plot_posteriors({"system 1": system_1, "system 2": system_2}, xlabel="precision")
    >>> ax.get_xlabel()
    'precision'
    """
    confidence = check_confidence(confidence)
    if isinstance(posteriors, (list, tuple)):
        posteriors = {f"posterior {i}": posterior for i, posterior in enumerate(posteriors, 1)}
    elif not isinstance(posteriors, dict):
        posteriors = {"posterior": posteriors}
    if not posteriors:
        fail("posteriors", "at least one posterior", posteriors)
    for name, posterior in posteriors.items():
        if not hasattr(posterior, "pdf"):
            fail("posteriors", "posteriors with a pdf (exact posteriors of single tables)",
                 posterior, shown=f"{type(posterior).__name__} for {name!r}")
        if np.ndim(posterior.mean()) != 0:
            fail("posteriors", "posteriors of single tables (0-d parameters)", name)
    if support is None:
        low_end = min(float(np.min(p.ppf(0.0005))) for p in posteriors.values())
        high_end = max(float(np.max(p.ppf(0.9995))) for p in posteriors.values())
        pad = 0.05 * (high_end - low_end)
        low_end, high_end = low_end - pad, high_end + pad
    else:
        low_end, high_end = (float(v) for v in support)
        if not low_end < high_end:
            fail("support", "an increasing pair (low, high)", support)
    ax = axes_or_new(ax)
    grid = np.linspace(low_end, high_end, n_points)
    inner = grid[1:-1]
    for name, posterior in posteriors.items():
        density = np.asarray(posterior.pdf(inner), dtype=float)
        if density.ndim != 1:
            fail("posteriors", "posteriors of single tables (0-d parameters)", name)
        line, = ax.plot(inner, density, label=name)
        interval = posterior.interval(confidence)
        mask = (inner >= float(interval.low)) & (inner <= float(interval.high))
        ax.fill_between(inner[mask], density[mask], alpha=0.2, color=line.get_color())
    ax.set_xlim(low_end, high_end)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("posterior density")
    ax.legend(title=f"{confidence:.0%} interval shaded")
    return ax


def plot_pairwise(pairwise, *, title="P(row better than column)", ax=None, cmap="RdBu_r",
                  colorbar=True):
    """Heatmap of a square table of probabilities P(row better than column).

    Parameters
    ----------
    pairwise : pandas.DataFrame or array-like of shape (n, n)
        A square table of probabilities (``ComparisonReport.pairwise_metric``,
        ``ComparisonReport.pairwise`` or the result of `pairwise_comparison`);
        `ComparisonReport.plot` titles them for you.
    title : str, default="P(row better than column)"
        What the cells are.
    ax : matplotlib Axes, default=None
        Where to draw.
    cmap : str, default="RdBu_r"
        Colormap (0.5 is neutral).
    colorbar : bool, default=True
        Add a colorbar (once per Axes: a second call on the same Axes reuses it).

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import pandas as pd
    >>> from skprobeval.plotting import plot_pairwise
    >>> table = pd.DataFrame([[float("nan"), 0.9], [0.1, float("nan")]],
    ...                      index=["a", "b"], columns=["a", "b"])
    >>> ax = plot_pairwise(table)
    >>> [t.get_text() for t in ax.get_xticklabels()]
    ['a', 'b']
    """
    table = pairwise
    try:
        values = np.asarray(table, dtype=float)
    except (TypeError, ValueError):
        fail("pairwise", "a square table of probabilities", pairwise, error=TypeError)
    if values.ndim != 2 or values.shape[0] != values.shape[1]:
        fail("pairwise", "a square table of probabilities", pairwise)
    ax = axes_or_new(ax)
    image = ax.imshow(values, vmin=0.0, vmax=1.0, cmap=cmap)
    names = [str(name) for name in getattr(table, "index", range(values.shape[0]))]
    ax.set_xticks(range(len(names)), labels=names, rotation=30, ha="right")
    ax.set_yticks(range(len(names)), labels=names)
    for i in range(values.shape[0]):
        for j in range(values.shape[1]):
            if np.isfinite(values[i, j]):
                ax.text(j, i, f"{values[i, j]:.2f}", ha="center", va="center",
                        color="white" if abs(values[i, j] - 0.5) > 0.3 else "black")
    ax.set_xlabel("column")
    ax.set_ylabel("row")
    ax.set_title(title)
    if colorbar and not getattr(ax, "_skprobeval_colorbar", False):
        ax.figure.colorbar(image, ax=ax)
        ax._skprobeval_colorbar = True
    return ax


def plot_simplex(samples, *, names=("first", "second"), ax=None, gridsize=40, cmap="Blues"):
    """Posterior draws of (first better, equivalent, second better) in a triangle.

    Each draw of the three region masses is a point of the simplex: the
    corner of the first system at the bottom left, of the second at the
    bottom right, of practical equivalence at the top.  The lines from the
    centre split the triangle where each region holds the largest mass.

    Parameters
    ----------
    samples : array-like of shape (n_draws, 3) or a result with ``samples``
        Draws of the three masses (`DatasetsComparison.samples`).
    names : (str, str), default=("first", "second")
        Names of the two systems, for the corners.
    ax : matplotlib Axes, default=None
        Where to draw.
    gridsize : int, default=40
        Hexagons across the triangle.
    cmap : str, default="Blues"
        Colormap of the draw density.

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from skprobeval import bayesian_signed_rank_test
    >>> from skprobeval.plotting import plot_simplex
    >>> result = bayesian_signed_rank_test([0.8, 0.7, 0.9, 0.6], [0.78, 0.71, 0.85, 0.6], rope=0.01,
    ...                           n_draws=2000, random_state=0)
    >>> ax = plot_simplex(result, names=("A", "B"))
    >>> ax.get_title()
    'A vs B'
    """
    values = np.asarray(getattr(samples, "samples", samples), dtype=float)
    if values.ndim != 2 or values.shape[1] != 3:
        fail("samples", "draws of shape (n_draws, 3)", samples,
             shown=f"shape {values.shape}")
    first_name, second_name = (str(n) for n in names)
    ax = axes_or_new(ax)
    height = np.sqrt(3) / 2
    # Barycentric coordinates: first -> (0, 0), second -> (1, 0), equivalent -> (1/2, h).
    x = values[:, 2] + 0.5 * values[:, 1]
    y = height * values[:, 1]
    ax.hexbin(x, y, gridsize=gridsize, mincnt=1, cmap=cmap, extent=(0, 1, 0, height))
    ax.plot([0, 1, 0.5, 0], [0, 0, height, 0], color="black", linewidth=1)
    centre = (0.5, height / 3)
    for corner in ((0.25, height / 2), (0.75, height / 2), (0.5, 0.0)):
        ax.plot([centre[0], corner[0]], [centre[1], corner[1]], color="grey", linewidth=0.8)
    share = np.bincount(np.argmax(values, axis=1), minlength=3) / max(values.shape[0], 1)
    ax.text(0, -0.04, f"{first_name} better\np = {share[0]:.3f}", ha="center", va="top")
    ax.text(1, -0.04, f"{second_name} better\np = {share[2]:.3f}", ha="center", va="top")
    ax.text(0.5, height + 0.03, f"equivalent\np = {share[1]:.3f}", ha="center", va="bottom")
    ax.set_xlim(-0.2, 1.2)
    ax.set_ylim(-0.2, height + 0.2)
    ax.set_aspect("equal")
    ax.axis("off")
    ax.set_title(f"{first_name} vs {second_name}")
    return ax


def plot_mean_ranks(mean_ranks, *, interval=None, ax=None, xlabel="mean rank (1 = best)"):
    """Systems by mean rank across data sets, best at the top.

    Parameters
    ----------
    mean_ranks : pandas.Series
        Mean rank of each system (`AcrossDatasetsReport.mean_ranks`, or the
        posterior expected ranks `PlackettLuceRanking.expected_rank`).
    interval : pandas.DataFrame or array-like of shape (n_systems, 2), default=None
        Lower and upper end of an interval around each rank, in the order of
        `mean_ranks` (`PlackettLuceRanking.expected_rank_interval`), drawn
        as a bar; None draws a line from rank 1 instead.
    ax : matplotlib Axes, default=None
        Where to draw.
    xlabel : str, default="mean rank (1 = best)"
        Label of the x axis.

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import pandas as pd
    >>> from skprobeval.plotting import plot_mean_ranks
    >>> ax = plot_mean_ranks(pd.Series({"a": 1.4, "b": 1.6}))
    >>> [t.get_text() for t in ax.get_yticklabels()]
    ['a', 'b']
    >>> ax = plot_mean_ranks(pd.Series({"a": 1.4, "b": 1.6}), interval=[[1.1, 1.8], [1.2, 1.9]])
    """
    try:
        ranks = np.asarray(mean_ranks, dtype=float)
    except (TypeError, ValueError):
        fail("mean_ranks", "a Series of mean ranks", mean_ranks, error=TypeError)
    if ranks.ndim != 1:
        fail("mean_ranks", "a Series of mean ranks", mean_ranks, shown=f"shape {ranks.shape}")
    bounds = None
    if interval is not None:
        try:
            bounds = np.asarray(interval, dtype=float)
        except (TypeError, ValueError):
            fail("interval", "an array of (low, high) pairs", interval, error=TypeError)
        if bounds.shape != (ranks.shape[0], 2):
            fail("interval", f"of shape ({ranks.shape[0]}, 2), one (low, high) per rank",
                 interval, shown=f"shape {bounds.shape}")
    names = [str(n) for n in getattr(mean_ranks, "index", range(ranks.shape[0]))]
    order = np.argsort(ranks, kind="stable")
    ax = axes_or_new(ax)
    positions = np.arange(ranks.shape[0])
    if bounds is None:
        ax.hlines(positions, 1, ranks[order], color="lightgrey")
        ax.plot(ranks[order], positions, "o")
    else:
        low, high = bounds[order, 0], bounds[order, 1]
        ax.errorbar(ranks[order], positions, xerr=[ranks[order] - low, high - ranks[order]],
                    fmt="o", capsize=3)
    ax.set_yticks(positions, labels=[names[i] for i in order])
    ax.invert_yaxis()
    ax.set_xlabel(xlabel)
    return ax


def plot_rank_probabilities(rank_probabilities, *, ax=None, cmap="Blues", colorbar=True):
    """Heat map of the probability of each system (row) having each rank (column).

    Parameters
    ----------
    rank_probabilities : pandas.DataFrame or array-like of shape (n_systems, n_ranks)
        Probabilities, one row per system (`PlackettLuceRanking.rank_probabilities`;
        its ``plot("probabilities")`` sorts the systems best first).
    ax : matplotlib Axes, default=None
        Where to draw.
    cmap : str, default="Blues"
        Colormap (0 to 1).
    colorbar : bool, default=True
        Add a colorbar (once per Axes).

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import pandas as pd
    >>> from skprobeval.plotting import plot_rank_probabilities
    >>> table = pd.DataFrame([[0.8, 0.2], [0.2, 0.8]], index=["a", "b"], columns=[1, 2])
    >>> ax = plot_rank_probabilities(table)
    >>> [t.get_text() for t in ax.get_yticklabels()]
    ['a', 'b']
    """
    try:
        values = np.asarray(rank_probabilities, dtype=float)
    except (TypeError, ValueError):
        fail("rank_probabilities", "a table of probabilities", rank_probabilities,
             error=TypeError)
    if values.ndim != 2:
        fail("rank_probabilities", "a 2-d table of probabilities", rank_probabilities,
             shown=f"shape {values.shape}")
    rows = [str(n) for n in getattr(rank_probabilities, "index", range(values.shape[0]))]
    columns = [str(n) for n in getattr(rank_probabilities, "columns",
                                       range(1, values.shape[1] + 1))]
    ax = axes_or_new(ax)
    image = ax.imshow(values, vmin=0.0, vmax=1.0, cmap=cmap, aspect="auto")
    ax.set_xticks(range(len(columns)), labels=columns)
    ax.set_yticks(range(len(rows)), labels=rows)
    if values.size <= 400:
        for i in range(values.shape[0]):
            for j in range(values.shape[1]):
                ax.text(j, i, f"{values[i, j]:.2f}", ha="center", va="center", fontsize=8,
                        color="white" if values[i, j] > 0.5 else "black")
    ax.set_xlabel("rank")
    ax.set_title("P(system has rank)")
    if colorbar and not getattr(ax, "_skprobeval_colorbar", False):
        ax.figure.colorbar(image, ax=ax)
        ax._skprobeval_colorbar = True
    return ax


def plot_intervals(rows, *, ax=None, xlabel="value", rope=None, reference=None, title=None):
    """Nested credible intervals, one row each, first row at the top.

    Parameters
    ----------
    rows : list of (str, float, list of (float, float, float))
        Each row's name, centre (a mean) and intervals as ``(confidence, low,
        high)``, drawn thinner the wider the confidence.
    ax : matplotlib Axes, default=None
        Where to draw.
    xlabel : str, default="value"
        Label of the x axis.
    rope : float, default=None
        Half-width of a region of practical equivalence around `reference`,
        shaded.
    reference : float, default=None
        A vertical line (0 for a difference).
    title : str, default=None
        The axes' title.

    Returns
    -------
    matplotlib.axes.Axes
    """
    ax = axes_or_new(ax)
    if reference is not None:
        if rope:
            ax.axvspan(reference - rope, reference + rope, color="0.88", zorder=0,
                       label=f"rope ±{rope:g}")
        ax.axvline(reference, color="0.5", linewidth=0.8, zorder=1)
    levels = sorted({level for _, _, intervals in rows for level, _, _ in intervals},
                    reverse=True)
    widths = {level: 1.2 + 2.8 * i / max(len(levels) - 1, 1) for i, level in enumerate(levels)}
    for position, (_, centre, intervals) in enumerate(rows):
        for level, low, high in sorted(intervals, reverse=True):
            ax.hlines(position, low, high, color="C0", linewidth=widths[level],
                      label=f"{level:.0%}" if position == 0 else None)
        ax.plot([centre], [position], "o", color="C3", markersize=4,
                label="mean" if position == 0 else None, zorder=3)
    ax.set_yticks(range(len(rows)), labels=[str(name) for name, _, _ in rows])
    ax.set_ylim(len(rows) - 0.5, -0.5)
    ax.set_xlabel(xlabel)
    if title is not None:
        ax.set_title(title)
    # Beside the axes: inside, it would hide an interval's end.
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="small", frameon=False)
    return ax


# Axis labels, line style and legend place of each kind of curve.
_CURVE_STYLES = {
    "precision_recall": (("Recall", "Precision"), "steps-post", "lower left"),
    "roc": (("False positive rate", "True positive rate"), "default", "lower right"),
    "calibration": (("Mean predicted probability", "Fraction of positives"), "default",
                    "lower right"),
}
_CALIBRATED = "Perfectly calibrated"


def _curve_style(kind):
    return _CURVE_STYLES.get(kind, (("x", "value"), "default", "best"))


def draw_band(ax, band, *, color="C0", band_kw=None):
    """A `CurveBand` on `ax`: shaded between its limits, or one bar per bin of a
    calibration curve; one legend entry for the bands of an axes.  Returns the artist."""
    if band.curve_kind == "calibration":
        words = f"{band.confidence:.0%} {band.kind} intervals"
        labelled = words in ax.get_legend_handles_labels()[1]
        return ax.vlines(band.x, band.low, band.high, **{
            "color": color, "alpha": 0.35, "linewidth": 5,
            "label": "_nolegend_" if labelled else words, **(band_kw or {})})
    words = f"{band.confidence:.0%} {band.kind} band"
    labelled = any(c.get_label() == words for c in ax.collections)
    return ax.fill_between(band.x, band.low, band.high, **{
        "alpha": 0.25, "color": color, "linewidth": 0,
        "label": "_nolegend_" if labelled else words, **(band_kw or {})})


def draw_curve(ax, x, y, band, *, kind, label=None, band_kw=None, **kwargs):
    """A threshold curve's observed points (x, y) and its band, in one colour.

    Returns ``(line, band_artist)``.
    """
    (line,) = ax.plot(x, y, label=label, **{"drawstyle": _curve_style(kind)[1], **kwargs})
    return line, draw_band(ax, band, color=line.get_color(), band_kw=band_kw)


def draw_calibration(ax, prob_pred, prob_true, band, *, name=None, ref_line=True,
                     band_kw=None, **kwargs):
    """A reliability diagram: the diagonal (once per axes), the curve and each bin's interval.

    Returns ``(diagonal or None, line, band_artist)``.
    """
    diagonal = None
    if ref_line and _CALIBRATED not in ax.get_legend_handles_labels()[1]:
        (diagonal,) = ax.plot([0, 1], [0, 1], "k:", label=_CALIBRATED)
    style = {"marker": "s", **({"label": name} if name is not None else {}), **kwargs}
    (line,) = ax.plot(prob_pred, prob_true, **style)
    return diagonal, line, draw_band(ax, band, color=line.get_color(), band_kw=band_kw)


def finish_curve_axes(ax, kind, *, suffix=""):
    """Axis labels (each followed by `suffix`), the unit square and the legend of a curve."""
    (xlabel, ylabel), _, place = _curve_style(kind)
    ax.set(xlabel=xlabel + suffix, ylabel=ylabel + suffix, xlim=(-0.01, 1.01),
           ylim=(-0.01, 1.01))
    ax.legend(loc=place)
    return ax


def draw_precision_baseline(ax, baseline, *, color="k"):
    """A `RandomPrecisionBaseline`'s band of precisions against the expected recall."""
    return ax.fill_between(baseline.recall, baseline.low, baseline.high, color=color, alpha=0.1,
                           linewidth=0,
                           label=f"random ranking, {baseline.confidence:.0%} of precisions")


def plot_chance_level(mean, std, *, reference=None, reference_label=None, title=None,
                      xlabel="average precision", ax=None):
    """A chance level's mean with bars of one and two standard deviations.

    Parameters
    ----------
    mean, std : float
        Mean and standard deviation of the score by chance.
    reference : float, default=None
        A value to mark with a vertical line (an observed score, an approximation).
    reference_label : str, default=None
        Its legend entry.
    title : str, default=None
    xlabel : str, default="average precision"
    ax : matplotlib Axes, default=None
        Where to draw.

    Returns
    -------
    matplotlib.axes.Axes
    """
    ax = axes_or_new(ax)
    for spread, width, label in ((2, 1.2, "mean ± 2 sd"), (1, 4.0, "mean ± 1 sd")):
        ax.hlines(0, mean - spread * std, mean + spread * std, color="C0", linewidth=width,
                  label=label)
    ax.plot([mean], [0], "o", color="C3", markersize=4, label="mean by chance", zorder=3)
    if reference is not None:
        ax.axvline(reference, color="0.3", linestyle="--", linewidth=1, label=reference_label)
    ax.set_yticks([0], labels=["random"])
    ax.set_ylim(-1, 1)
    ax.set_xlabel(xlabel)
    if title is not None:
        ax.set_title(title)
    ax.legend(loc="best", fontsize="small")
    return ax
