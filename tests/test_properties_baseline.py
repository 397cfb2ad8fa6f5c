"""Properties of the chance baselines: the random ranking's average precision."""

import itertools
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from skprobeval import (
    ConfusionCounts,
    chance_baseline,
    random_average_precision,
    random_precision_baseline,
)
from skprobeval._metrics._baseline import random_average_precision_reference


def _sizes(max_items):
    return st.integers(1, max_items).flatmap(lambda n: st.tuples(st.just(n), st.integers(1, n)))


def _enumerated(n, r):
    """Mean and variance of AP over every placement of the r relevant items (exact)."""
    values = []
    for ranks in itertools.combinations(range(1, n + 1), r):
        values.append(sum(Fraction(i + 1, rank) for i, rank in enumerate(ranks)) / r)
    mean = sum(values) / len(values)
    return mean, sum((v - mean) ** 2 for v in values) / len(values)


@given(_sizes(8))
def test_random_ap_equals_enumeration_of_every_ranking(size):
    n, r = size
    result = random_average_precision(n, r)
    mean, variance = _enumerated(n, r)        # exact fractions
    assert result.mean == pytest.approx(float(mean), rel=1e-12)
    assert result.variance == pytest.approx(float(variance), rel=1e-9, abs=1e-15)


@given(_sizes(10**6))
def test_random_ap_lies_between_the_prevalence_and_1(size):
    n, r = size
    result = random_average_precision(n, r)
    assert r / n * (1 - 1e-12) <= result.mean <= 1.0
    assert result.variance >= 0 and result.std == pytest.approx(np.sqrt(result.variance))
    assert result.prevalence == r / n


@given(_sizes(300))
def test_random_ap_closed_form_equals_the_reference_algorithm(size):
    n, r = size
    assert random_average_precision(n, r).mean == pytest.approx(
        random_average_precision_reference(n, r), rel=1e-12)


@given(_sizes(2000), st.floats(0.5, 0.999))
def test_random_precision_band_holds_the_prevalence(size, confidence):
    n, r = size
    band = random_precision_baseline(n, r, confidence=confidence)
    # Precision at k of a random ranking is a hypergeometric count over k: its
    # band lies in [0, 1] and its mean is the prevalence at every k (the band of
    # a discrete law may leave the mean out: with R = 1 most cut-offs hold 0).
    assert np.all((band.low >= 0) & (band.low <= band.high) & (band.high <= 1))
    np.testing.assert_allclose(band.mean, r / n, rtol=1e-12)


@given(st.fixed_dictionaries({cell: st.integers(0, 10**6)
                              for cell in ("tp", "fp", "fn", "tn")}))
def test_chance_levels_are_probabilities(table):
    # Whole-number counts: the hypergeometric chance model counts items.  (Up to
    # 1e6: scipy's hypergeometric tail takes a minute at 1e11 items.)
    counts = ConfusionCounts(**table)
    if counts.n == 0:
        return
    chance = chance_baseline(counts)
    for name in ("precision", "recall", "f1", "accuracy"):
        value = getattr(chance, name)
        assert 0 <= value <= 1 or np.isnan(value), (name, value)
    # Informedness is 0 at chance, and undefined without positives or negatives.
    both = (counts.tp + counts.fn) > 0 and (counts.fp + counts.tn) > 0
    assert chance.informedness == 0 if both else np.isnan(chance.informedness)
    assert 0 <= chance.p_value <= 1
