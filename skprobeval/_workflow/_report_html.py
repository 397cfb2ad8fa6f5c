"""A comparison report as one self-contained HTML page, and its notebook view.

The page is built by the one page builder of every result (`html_page`), from
the report's own tables in reading order (the text form's sections), each with
the figure that shows it: the systems' intervals under the summary, the
pairwise probabilities as a heat map, P(best) and the rank probabilities under
the ranking, a forest plot under the runs, the groups' intervals under the
groups.  The method notes say the level, the rope, the prior, the number of
draws and the largest Monte Carlo error; the footer the library's version.
"""

from __future__ import annotations

import html

import numpy as np

from .._core import figure_svg, frame_html, plot_intervals, shown_table

__all__ = ["report_notebook_html", "report_page"]


def _height(rows):
    return min(0.32 * rows + 1.3, 12.0)


def _interval_rows(frame, confidence):
    """(name, mean, [(confidence, low, high)]) of each row with mean, low and high."""
    rows = []
    for key, row in frame.iterrows():
        name = " / ".join(str(k) for k in key) if isinstance(key, tuple) else str(key)
        if not np.isfinite([row["mean"], row["low"], row["high"]]).all():
            continue
        rows.append((name, float(row["mean"]), [(confidence, float(row["low"]),
                                                  float(row["high"]))]))
    return rows


def _intervals_svg(frame, confidence, xlabel, title=None):
    if frame is None or not {"mean", "low", "high"} <= set(frame.columns):
        return None
    rows = _interval_rows(frame, confidence)
    if not rows:
        return None
    return figure_svg(lambda figure: plot_intervals(rows, ax=figure.subplots(), xlabel=xlabel,
                                                    title=title),
                      size=(6.4, _height(len(rows))))


def _plot_svg(report, table, size):
    return figure_svg(lambda figure: report.plot(table=table, ax=figure.subplots()), size=size)


def _ranking_svg(ranking):
    """P(best) as bars beside the rank probabilities' heat map, systems best first."""
    def draw(figure):
        bars, heat = figure.subplots(1, 2, width_ratios=(1, 1.6))
        ranking.plot(ax=heat)
        # The heat map's rows are the systems best first (by expected rank), as the
        # summary's; the bars follow them, and only they carry the names.
        order = list(ranking.summary().index)
        bars.barh(range(len(order)), [float(ranking.prob_best[name]) for name in order],
                  color="C0")
        bars.set_xlim(0, 1)
        bars.set_ylim(len(order) - 0.5, -0.5)
        bars.set_xlabel("P(best)")
        bars.set_yticks(range(len(order)), labels=[str(name) for name in order])
        heat.tick_params(axis="y", labelleft=False)

    size = len(ranking.prob_best)
    return figure_svg(draw, size=(9.6, _height(size) + 0.6))


def _table(frame, index):
    """A table as the text form prints it: columns blank in every row left out."""
    frame = shown_table(frame)
    return frame_html(frame if index else frame.reset_index(drop=True), index=index,
                      max_rows=200)


def _verdict_html(verdict):
    """The verdict's sentences, one line each, the leader's first in bold."""
    lines = [html.escape(sentence) for sentence in verdict._sentences()]
    lines[0] = f"<strong>{lines[0]}</strong>"
    return "<div class='verdict'>" + "".join(f"<p>{line}</p>" for line in lines) + "</div>"


def report_sections(report):
    """(heading, fragments) of every section of `report`'s page."""
    label = report.metric_label
    square = 0.55 * len(report.summary.index.get_level_values(0).unique()) + 2.2
    sections = [("Verdict", [_verdict_html(report._shown_verdict())])]
    for title, frame, index in report._sections():
        fragments = [_table(frame, index)]
        if title.startswith("Summary"):
            fragments.append(_intervals_svg(report.summary, report.confidence, label,
                                            title=f"{label}: {report.confidence:.0%} intervals"))
        elif title.startswith("Per label"):
            fragments.append(_intervals_svg(frame, report.confidence, label))
        elif "right more often" in title:
            fragments.append(_plot_svg(report, "pairwise", (square + 1.2, square)))
        elif title.startswith(f"P(row {label}") and report.average is not None:
            fragments.append(_plot_svg(report, "pairwise_metric", (square + 1.2, square)))
        elif title.startswith("By group"):
            fragments.append(_intervals_svg(frame, report.confidence, label))
        elif title.startswith("Every run"):
            rows = len(report.runs) + 2 * len(report.summary)
            fragments.append(_plot_svg(report, "runs", (6.4, _height(rows))))
        elif title.startswith("Ranking"):
            fragments.append(_ranking_svg(report.ranking))
        sections.append((title, fragments))
    ranked = any(title.startswith("Ranking") for title, _ in sections)
    if not ranked and report.ranking is not None:
        ranking = report.ranking
        table = ranking.summary(report.confidence)
        columns = [c for c in ("prob_best", "expected_rank", "prob_within_rope_of_best", "mean",
                               "low", "high") if c in table]
        sections.append(("Ranking (best first)", [_table(table[columns], True),
                                                  _ranking_svg(ranking)]))
    return sections


def report_notes(report):
    """The method notes: level, rope, prior, draws and Monte Carlo error, the report's note."""
    notes = [f"Credible intervals are equal-tailed at {report.confidence:.0%}; the region of "
             f"practical equivalence (rope) is {report.rope:g}."]
    if report.independent:
        notes.append("The systems are independent (each its own posterior, from its own "
                     "counts): the comparisons are unpaired.")
    elif report._has_counts() and len(report.pairs):
        notes.append("The systems were tested on the same items: the comparisons are paired "
                     "(one joint posterior of every item's outcomes).")
    prior = getattr(report, "prior", None)
    if prior is not None:
        notes.append(f"Prior: Dirichlet concentration {prior:g} (the prior argument; the "
                     "library's theory pages say how each metric's posterior takes it).")
    frames = [report.summary, report.pairs]
    if report.ranking is not None:
        # P(best) is drawn too, whatever the other tables are.
        frames.append(report.ranking.summary(report.confidence))
    errors = [float(np.nanmax(frame["mc_error"].to_numpy(float)))
              for frame in frames
              if frame is not None and "mc_error" in frame and len(frame)
              and np.isfinite(frame["mc_error"].to_numpy(float)).any()]
    if report.n_draws:
        notes.append(f"Sampled figures use {report.n_draws} posterior draws (seeded); the "
                     f"largest Monte Carlo standard error of a figure in these tables is "
                     f"{max(errors, default=0.0):.4f} (0 for exact figures).")
    note = report._note()
    if note:
        notes.append(note)
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        notes.append("The figures need matplotlib: pip install 'skprobeval[plot]'.")
    return notes


def report_settings(report):
    kind = ("independent systems, from counts" if report.independent else
            f"repeats: {report.n_repeats}")
    return (f"metric: {report.metric_label}; {report.confidence:.0%} credible intervals; "
            f"rope: {report.rope:g}; {kind}")


def report_page(report):
    """The whole page (a str)."""
    from .._core import html_page

    count = len(report.summary.index.get_level_values(0).unique())
    title = (f"Comparison of {count} systems" if count > 1 else "One system")
    return html_page(f"{title}: {report.metric_label}", report_sections(report),
                     settings=report_settings(report), notes=report_notes(report))


def report_notebook_html(report):
    """The notebook view: the summary table and the systems' intervals."""
    svg = _intervals_svg(report.summary, report.confidence, report.metric_label)
    figure = "" if svg is None else f"<div class='skprobeval-figure'>{svg}</div>"
    title, frame, index = report._sections()[0]
    return (f"<div class='skprobeval-result'><p><strong>ComparisonReport</strong> "
            f"({html.escape(report_settings(report))}; <code>to_html()</code> for every "
            f"table and figure)</p>{_verdict_html(report._shown_verdict())}"
            f"<p><strong>{html.escape(title)}</strong></p>{_table(frame, index)}{figure}</div>")
