"""Hypothesis strategies shared by the property-based tests (``test_properties_*.py``).

Labels come in every kind a user passes (ints, strings, bools, object arrays,
pandas categoricals, multilabel indicator matrices), with classes that occur in
neither array; counts range from 0 through fractional (weighted) values to
1e12; priors from 1e-3 to 10.
"""

import numpy as np
import pandas as pd
from hypothesis import strategies as st

LABEL_KINDS = ("int", "str", "bool", "object", "category")

# Strings as users write labels (including the empty string and non-ASCII).
_TEXT = st.text(alphabet="abcXYZ é_-0", min_size=0, max_size=4)


def _classes(draw, kind, n_classes):
    if kind == "bool":
        return [False, True]
    if kind == "int":
        values = draw(st.lists(st.integers(-5, 10**6), min_size=n_classes,
                               max_size=n_classes, unique=True))
    else:
        values = draw(st.lists(_TEXT, min_size=n_classes, max_size=n_classes, unique=True))
    return sorted(values)


def as_kind(values, kind, classes):
    """``values`` (a list of class values) as the array type of `kind`."""
    if kind == "category":
        return pd.Series(pd.Categorical(values, categories=classes))
    if kind == "object":
        return np.array(values, dtype=object)
    return np.array(values)


def weights(n):
    """None or ``n`` non-negative weights: zeros, integers, fractions, large values."""
    one = st.one_of(st.just(0.0), st.integers(0, 5).map(float),
                    st.floats(0, 10, allow_nan=False, allow_infinity=False),
                    st.sampled_from([1e-3, 0.5, 1e6]))
    return st.one_of(st.none(), st.lists(one, min_size=n, max_size=n).map(np.array))


@st.composite
def label_pairs(draw, *, min_size=1, max_size=40, max_classes=5, min_classes=1,
                with_weights=True):
    """A dict: y_true, y_pred (one label kind), classes (sorted, some possibly
    absent from both arrays), kind, sample_weight, and the class codes."""
    kind = draw(st.sampled_from(LABEL_KINDS))
    n_classes = 2 if kind == "bool" else draw(st.integers(max(min_classes, 1), max_classes))
    classes = _classes(draw, kind, n_classes)
    n = draw(st.integers(min_size, max_size))
    codes = st.lists(st.integers(0, n_classes - 1), min_size=n, max_size=n)
    true_codes, pred_codes = np.array(draw(codes), int), np.array(draw(codes), int)
    weight = draw(weights(n)) if with_weights else None
    return {
        "kind": kind,
        "classes": classes,
        "y_true": as_kind([classes[c] for c in true_codes], kind, classes),
        "y_pred": as_kind([classes[c] for c in pred_codes], kind, classes),
        "true_codes": true_codes,
        "pred_codes": pred_codes,
        "sample_weight": weight,
    }


@st.composite
def indicator_pairs(draw, *, max_size=30, max_labels=5):
    """(y_true, y_pred, sample_weight): multilabel indicator matrices, columns possibly empty."""
    n = draw(st.integers(1, max_size))
    n_labels = draw(st.integers(2, max_labels))
    cells = st.lists(st.integers(0, 1), min_size=n * n_labels, max_size=n * n_labels)
    y_true = np.array(draw(cells)).reshape(n, n_labels)
    y_pred = np.array(draw(cells)).reshape(n, n_labels)
    return y_true, y_pred, draw(weights(n))


def counts(*, max_value=1e12):
    """One confusion-table cell: 0, small integers, fractions, up to `max_value`."""
    return st.one_of(
        st.just(0.0),
        st.integers(0, 60).map(float),
        st.floats(0, 60, allow_nan=False, allow_infinity=False),
        st.floats(0, max_value, allow_nan=False, allow_infinity=False),
        st.sampled_from([0.5, 1e-3, 1e6, max_value - 1, max_value]),
    )


def tables(*, max_value=1e12):
    """A confusion table as a dict tp, fp, fn, tn of counts."""
    return st.fixed_dictionaries({cell: counts(max_value=max_value)
                                  for cell in ("tp", "fp", "fn", "tn")})


def priors():
    """A Dirichlet concentration from 1e-3 to 10, or a prior's name."""
    return st.one_of(st.floats(1e-3, 10), st.sampled_from([1e-3, 0.5, 1.0, 10.0]),
                     st.sampled_from(["jeffreys", "uniform"]))


def confidences():
    """A credible mass in (0, 1), with the usual levels and the extremes."""
    return st.one_of(st.floats(0.01, 0.999),
                     st.sampled_from([0.5, 0.8, 0.9, 0.95, 0.99, 0.999, 0.9999, 1e-3]))


def ropes():
    """A region of practical equivalence in [0, 1)."""
    return st.one_of(st.just(0.0), st.floats(0, 0.999),
                     st.sampled_from([1e-12, 1e-6, 0.01, 0.05, 0.5]))


@st.composite
def scores_with_ties(draw, n):
    """``n`` scores drawn from a few values (many ties) or from all floats in [0, 1]."""
    grid = draw(st.lists(st.floats(0, 1), min_size=1, max_size=4))
    one = st.one_of(st.sampled_from(grid), st.floats(0, 1))
    return np.array(draw(st.lists(one, min_size=n, max_size=n)))
