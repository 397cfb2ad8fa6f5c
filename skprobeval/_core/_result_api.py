"""One interface for every result: ``summary``, ``to_dict``, a notebook view, a figure.

Every public result type mixes in `ResultMixin`.  Its ``summary`` is the
result's own (a DataFrame for results about several things, a record or a dict
for one posterior or one comparison); the mixin derives from it

- ``to_dict()``: plain Python data, so that ``json.dumps`` works (arrays become
  lists, NumPy scalars Python numbers, NaN and infinities None, DataFrames nested
  dicts or lists of records as `ComparisonReport.to_dict` writes them);
- ``_repr_html_()``: the summary as a compact table and, where the result has a
  ``plot``, its figure inline as SVG (a notebook shows both; without matplotlib,
  the table alone);
- ``to_html(path=None)``: the same as one self-contained page (`html_page`),
  returned or written to ``path``.  Results with more to show (a comparison
  report) give the page more sections, through the same builder.

`figure_svg` draws a figure off-screen (a bare `matplotlib.figure.Figure`, no
pyplot state) and returns it as an inline SVG element whose text is drawn as
paths: no fonts or outside files are needed to show it.
"""

from __future__ import annotations

import dataclasses
import html
import io
import math
import re

import numpy as np

__all__ = ["ResultMixin", "figure_svg", "frame_html", "jsonable"]


def jsonable(value):
    """`value` as plain Python data that ``json.dumps`` accepts (NaN as None).

    Examples
    --------
    >>> import json
    >>> import numpy as np
    >>> from skprobeval._core import jsonable
    >>> json.dumps(jsonable({"p": np.float64(0.25), "k": np.array([1, 2]), "x": np.nan}))
    '{"p": 0.25, "k": [1, 2], "x": null}'
    """
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        return float(value) if math.isfinite(value) else None
    if isinstance(value, np.generic):
        return jsonable(value.item())
    if isinstance(value, np.ndarray):
        return jsonable(value.tolist())
    if isinstance(value, dict):
        return {_key(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [jsonable(v) for v in value]
    kind = type(value).__module__.split(".")[0]
    if kind == "pandas":
        return _pandas_jsonable(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {field.name: jsonable(getattr(value, field.name))
                for field in dataclasses.fields(value)}
    if hasattr(value, "to_dict"):
        return jsonable(value.to_dict())
    return str(value)


def _key(key):
    if isinstance(key, np.generic):
        key = key.item()
    return key if isinstance(key, str) else str(key)


def _pandas_jsonable(value):
    import pandas as pd

    if isinstance(value, pd.DataFrame):
        if value.index.nlevels == 1 and value.index.is_unique and not isinstance(
                value.index, pd.RangeIndex):
            # {row: {column: value}}, as ComparisonReport.to_dict writes its tables.
            return {_key(row): {_key(column): jsonable(cell) for column, cell in values.items()}
                    for row, values in value.to_dict(orient="index").items()}
        flat = value.reset_index() if not isinstance(value.index, pd.RangeIndex) else value
        return [{_key(column): jsonable(cell) for column, cell in record.items()}
                for record in flat.to_dict(orient="records")]
    if isinstance(value, pd.Series):
        return {_key(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, pd.Index):
        return jsonable(value.tolist())
    if value is pd.NaT or value is pd.NA:
        return None
    if isinstance(value, pd.Interval):
        return [jsonable(value.left), jsonable(value.right)]
    return str(value)


def frame_html(frame, *, index=True, max_rows=30):
    """A DataFrame as a compact HTML table: floats to 4 decimals, at most `max_rows` rows."""
    from ._render import whole_counts

    shown = whole_counts(frame)
    more = ""
    if len(shown) > max_rows:
        more = f"<p>{len(shown) - max_rows} more rows: see <code>summary</code>.</p>"
        shown = shown.head(max_rows)
    table = shown.to_html(float_format=lambda v: f"{v:.4f}", na_rep="", border=0,
                          index=index, classes="skprobeval-table")
    return f"<div style='overflow-x:auto'>{table}</div>{more}"


def figure_svg(draw, *, size=(6.4, 3.6)):
    """Draw a figure off-screen and return it as an inline ``<svg>`` element.

    Parameters
    ----------
    draw : callable
        ``draw(figure)`` draws on a `matplotlib.figure.Figure`.
    size : (float, float), default=(6.4, 3.6)
        Figure size in inches.

    Returns
    -------
    str or None
        The SVG element, or None without matplotlib.
    """
    try:
        import matplotlib
        from matplotlib.figure import Figure
    except ImportError:
        return None
    figure = Figure(figsize=size)
    draw(figure)
    buffer = io.StringIO()
    with matplotlib.rc_context({"svg.fonttype": "path", "svg.hashsalt": "skprobeval"}):
        figure.savefig(buffer, format="svg", bbox_inches="tight")
    text = buffer.getvalue()
    text = text[text.index("<svg"):]
    # Inline in HTML, the namespaces are implied and the RDF metadata (its
    # vocabulary's addresses) says nothing a reader needs: the page names no URL.
    text = re.sub(r"<metadata>.*?</metadata>\s*", "", text, count=1, flags=re.DOTALL)
    return re.sub(r'\s+xmlns(:xlink)?="[^"]*"', "", text, count=2)


class ResultMixin:
    """`to_dict` and the notebook view, derived from a result's ``summary``.

    A class sets ``_html_figure = False`` where its figure is not the point of
    the result, and overrides ``_dict_content`` where a summary leaves out what
    a tracker needs.  ``plot`` is each class's own.
    """

    __slots__ = ()

    #: Whether the notebook view shows ``plot()``'s figure under the table.
    _html_figure = True
    #: Size of that figure, in inches.
    _html_figure_size = (6.4, 3.6)

    def _summary_value(self):
        summary = self.summary
        return summary() if callable(summary) else summary

    def _dict_content(self):
        """What `to_dict` writes: the type and the summary (a record flattened)."""
        import pandas as pd

        summary = self._summary_value()
        content = {"type": type(self).__name__}
        if isinstance(summary, (pd.DataFrame, pd.Series)):
            content["summary"] = summary
        elif isinstance(summary, dict):
            content.update(summary)
        elif hasattr(summary, "to_dict"):
            content.update(summary.to_dict())
        else:
            content["summary"] = summary
        return content

    def to_dict(self):
        """The result as plain Python data: ``json.dumps(result.to_dict())`` works.

        Arrays become lists, NumPy scalars Python numbers, NaN None, and
        tables nested dicts (``{row: {column: value}}``) or lists of records.

        Returns
        -------
        dict
        """
        return jsonable(self._dict_content())

    def _html_caption(self):
        return type(self).__name__

    def _html_table(self):
        import pandas as pd

        from ._render import key_value_html

        summary = self._summary_value()
        caption = self._html_caption()
        if isinstance(summary, pd.Series):
            summary = summary.to_frame()
        if isinstance(summary, pd.DataFrame):
            return (f"<p><strong>{html.escape(caption)}</strong></p>"
                    + frame_html(summary))
        items = summary if isinstance(summary, dict) else (
            summary.to_dict() if hasattr(summary, "to_dict") else {"value": summary})
        return key_value_html(caption, items.items())

    def _draw_figure(self, figure):
        self.plot(ax=figure.subplots())

    def _html_figure_svg(self):
        if not self._html_figure or not hasattr(self, "plot"):
            return None
        return figure_svg(self._draw_figure, size=self._html_figure_size)

    def _repr_html_(self):
        svg = self._html_figure_svg()
        figure = "" if svg is None else f"<div class='skprobeval-figure'>{svg}</div>"
        return f"<div class='skprobeval-result'>{self._html_table()}{figure}</div>"

    def _html_sections(self):
        """(heading, fragments) of the page, in reading order."""
        return [("Summary", [self._html_table(), self._html_figure_svg()])]

    def _html_settings(self):
        return None

    def _html_notes(self):
        return []

    def to_html(self, path=None):
        """The result as one self-contained HTML page: its table and figure inline.

        No script, style sheet or font is fetched: figures are inline SVG
        whose text is drawn as paths, so the page reads the same offline.

        Parameters
        ----------
        path : str or os.PathLike, default=None
            Where to write the page (replaced if it exists); the directory
            must exist.  Written whole or not at all.

        Returns
        -------
        str or None
            The page, or None when it was written to `path`.
        """
        from ._html_page import check_page_path, write_page

        if path is not None:
            path = check_page_path(path)
        page = self._html_document()
        if path is None:
            return page
        write_page(page, path)
        return None

    def _html_document(self):
        """The whole page: a result with more to show lays it out here."""
        from ._html_page import html_page

        return html_page(f"skprobeval: {type(self).__name__}", self._html_sections(),
                         settings=self._html_settings(), notes=self._html_notes())
