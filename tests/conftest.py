"""Shared fixtures.

Seeded Monte Carlo tests must pass for any seed: the ``seed`` fixture reads
``SKPROBEVAL_TEST_SEED`` (default 0) so a run can be repeated under another seed.
"""

import os

import numpy as np
import pytest


@pytest.fixture
def seed():
    """Integer seed for Monte Carlo tests, overridable by ``SKPROBEVAL_TEST_SEED``."""
    return int(os.environ.get("SKPROBEVAL_TEST_SEED", "0"))


@pytest.fixture
def rng(seed):
    """A numpy Generator seeded by the ``seed`` fixture."""
    return np.random.default_rng(seed)
