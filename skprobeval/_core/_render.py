"""Number formatting, one home: reports' tables, reprs and notebooks' HTML.

Report tables render as text, Markdown and HTML (`render_text`,
`render_markdown`, `render_html`) with four decimals and whole-number counts
(`whole_counts` gives CSV and JSON exports the same integer counts); result
reprs round to four decimals (`rounded`); count objects show whole counts as
integers and other values to six significant digits (`format_array`); and
the notebooks' key-value tables show four significant digits
(`key_value_html`).  The styles differ on purpose: each is read where its
numbers appear.  pandas is imported lazily.
"""

from __future__ import annotations

import numpy as np

__all__ = ["COUNT_COLUMNS", "rounded", "format_array", "key_value_html", "render_html",
           "render_markdown", "render_text", "shown_table", "whole_counts"]

COUNT_COLUMNS = ("tp", "fp", "fn", "tn")
# Columns of the summary that are blank when no system has scores, and those
# that are blank when the report holds fold scores only (no counts).
_SCORE_COLUMNS = ("average_precision", "random_average_precision")
_COUNTS_COLUMNS = (*COUNT_COLUMNS, "prob_better_than_chance")


def render_text(header, sections, note=None):
    """Plain text: the header line, then each section's title and table.

    Parameters
    ----------
    header : str
        First line.
    sections : list of (str, pandas.DataFrame, bool)
        Title, table and whether its index is shown.
    note : str, default=None
        A last paragraph.

    Returns
    -------
    str
    """
    import pandas as pd

    parts = [header]
    with pd.option_context("display.width", 160, "display.max_columns", 30,
                           "display.float_format", _format_number):
        for title, table, index in sections:
            table = shown_table(table)
            parts += ["", f"{title}:", table.to_string(
                index=index, formatters=_counts_formatters(table))]
    if note is not None:
        parts += ["", note]
    return "\n".join(parts)


def render_markdown(sections, note=None):
    """GitHub-flavoured Markdown: a level-3 heading and a table per section.

    Parameters
    ----------
    sections : list of (str, pandas.DataFrame, bool)
        Title, table and whether its index is shown.
    note : str, default=None
        A last paragraph.

    Returns
    -------
    str
    """
    parts = [f"### {title}\n\n{_markdown_table(shown_table(table), index)}"
             for title, table, index in sections]
    if note is not None:
        parts.append(note)
    return "\n\n".join(parts) + "\n"


def render_html(sections, note=None):
    """HTML: an ``h3`` heading and a table per section.

    Parameters
    ----------
    sections : list of (str, pandas.DataFrame, bool)
        Title, table and whether its index is shown.
    note : str, default=None
        A last paragraph.

    Returns
    -------
    str
    """
    import html

    parts = []
    for title, table, index in sections:
        table = shown_table(table)
        parts.append(f"<h3>{html.escape(title)}</h3>")
        parts.append(table.to_html(index=index, formatters=_counts_formatters(table),
                                   float_format=_format_number, na_rep=""))
    if note is not None:
        parts.append(f"<p>{html.escape(note)}</p>")
    return "\n".join(parts)


def whole_counts(frame):
    """`frame` with its count columns as integers where every count is whole."""
    if not hasattr(frame, "columns"):
        return frame
    whole = [c for c in _counts_formatters(frame) if np.all(np.isfinite(frame[c].to_numpy(float)))]
    if not whole:
        return frame
    return frame.astype({c: np.int64 for c in whole})


def _format_number(value):
    """Four decimals (probabilities, metrics); no "-0.0000"."""
    text = f"{float(value):.4f}"
    return text[1:] if text == "-0.0000" else text


def _format_count(value):
    """A whole-number count without decimals."""
    return f"{value:.0f}"


def shown_table(table):
    """A table as printed: the score columns left out where every row is blank
    (hard labels only), and the count columns where every row is blank (fold
    scores only); the data (``to_csv``, ``to_dict``) keep them."""
    blank = [c for c in (*_SCORE_COLUMNS, *_COUNTS_COLUMNS) if c in getattr(table, "columns", ())
             and table[c].isna().all()]
    return table.drop(columns=blank) if blank else table


def _counts_formatters(frame):
    """Whole-number count columns print without decimals."""
    formatters = {}
    for column in COUNT_COLUMNS:
        if column in frame and np.all(np.mod(frame[column].to_numpy(dtype=float), 1) == 0):
            formatters[column] = _format_count
    return formatters


def _markdown_table(frame, index):
    names = [n or "" for n in frame.index.names] if index else []
    columns = [str(n) for n in names] + [str(c) for c in frame.columns]
    lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    whole = set(_counts_formatters(frame))
    for label, row in frame.iterrows():
        cells = ([str(v) for v in (label if isinstance(label, tuple) else (label,))]
                 if index else [])
        for column, value in zip(frame.columns, row.tolist()):
            if isinstance(value, (float, np.floating)):
                if np.isnan(value):
                    cells.append("")
                else:
                    cells.append(_format_count(value) if column in whole else _format_number(value))
            else:
                cells.append(str(value))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def rounded(value, digits=4):
    """Rounded, readable text for a float or an array (no ``np.float64(...)``).

    A value that rounds to zero prints as ``0.0``, never ``-0.0``.
    """
    array = np.asarray(value, dtype=float)
    if array.ndim == 0:
        return repr(round(float(array), digits) + 0.0)
    items = [repr(round(v, digits) + 0.0) for v in array.ravel()[:6].tolist()]
    if array.size > 6:
        items.append("...")
    return "[" + ", ".join(items) + "]"


def format_array(values, limit=6):
    values = np.asarray(values)
    if values.ndim == 0:
        return _format_scalar(values.item())
    items = [_format_scalar(v) for v in values.ravel()[:limit].tolist()]
    if values.size > limit:
        items.append("...")
    return "[" + ", ".join(items) + "]"


def _format_scalar(value):
    if isinstance(value, float):
        if value.is_integer() and abs(value) < 1e15:
            return str(int(value))
        return f"{value:.6g}"
    return repr(value)


def key_value_html(caption, items):
    """A two-column HTML table (notebooks' ``_repr_html_``) of ``(name, value)`` pairs:
    floats to 4 significant digits, arrays to 4 decimals, anything else as text."""
    import html

    rows = []
    for key, value in items:
        if isinstance(value, np.ndarray):
            shown = np.array2string(value, precision=4, threshold=8, separator=", ")
        elif isinstance(value, float):
            shown = f"{value:.4g}"
        else:
            shown = str(value)
        rows.append(f"<tr><th style='text-align:left'>{html.escape(str(key))}</th>"
                    f"<td>{html.escape(shown)}</td></tr>")
    return f"<table><caption>{html.escape(caption)}</caption>" + "".join(rows) + "</table>"
