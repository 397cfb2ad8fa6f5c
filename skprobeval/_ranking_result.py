"""What every ranking result shares: its figures as plain data and its notebook table.

`rank_systems`, `rank_cv_results` and `rank_across_datasets` answer the same
question, "which is best, and how sure is that?", with the same figures
(``prob_best``, ``expected_rank``, ``rank_probabilities``, ``mc_error`` and a
pairwise table) from different models.  Their results take the presentation
from here: `RankingMixin` gives ``_repr_html_`` (the result's `summary` under a
caption) and the helpers that turn Series and DataFrames into plain dicts and a
short ``repr``.
"""

from __future__ import annotations

import html

import numpy as np

from ._posterior import _fmt

__all__ = ["RankingMixin", "limited", "plain_frame", "plain_series"]


def limited(mapping, digits=4, most=6):
    """``{name: value, ...}`` of the first `most` entries, for a ``repr``."""
    items = [f"{name!r}: {_fmt(value, digits)}" for name, value in list(mapping.items())[:most]]
    if len(mapping) > most:
        items.append("...")
    return "{" + ", ".join(items) + "}"


def _key(name):
    """A label as a plain key: Python ints and strings as they are, numpy scalars as
    Python ones, anything else as its text."""
    if isinstance(name, np.generic):
        name = name.item()
    return name if isinstance(name, (int, str)) and not isinstance(name, bool) else str(name)


def plain_series(values):
    """A Series as ``{name: float}`` (see `_key`)."""
    return {_key(name): float(value) for name, value in values.items()}


def plain_frame(values):
    """A DataFrame as ``{row: {column: float}}`` (see `_key`)."""
    return {_key(row): plain_series(values.loc[row]) for row in values.index}


class RankingMixin:
    """The notebook table of a ranking result: `summary` under `_caption`."""

    __slots__ = ()

    def _caption(self):          # pragma: no cover - every result defines it
        raise NotImplementedError

    def _repr_html_(self):
        caption = html.escape(self._caption())
        table = self.summary().to_html(float_format=lambda value: f"{value:.4g}")
        return f"<div><p>{caption}</p>{table}</div>"
