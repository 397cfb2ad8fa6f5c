"""Shared fixtures and the hypothesis profiles.

Seeded Monte Carlo tests must pass for any seed: the ``seed`` fixture reads
``SKPROBEVAL_TEST_SEED`` (default 0) so a run can be repeated under another seed.

Property-based tests run under the hypothesis profile named by
``SKPROBEVAL_HYPOTHESIS_PROFILE``: ``fast`` (the default: 10 examples per
property, derandomized so a run is repeatable, no example database), ``ci``
(200 examples, otherwise as ``fast``: CI's heavy step runs every property test
under it), ``thorough`` (2 000 random examples per property, with the database,
for local runs hunting new failures) or ``dev`` (as ``ci`` without shrinking:
the first failure as found, quickly)::

    SKPROBEVAL_HYPOTHESIS_PROFILE=ci python -m pytest -m "slow or hypothesis"
    SKPROBEVAL_HYPOTHESIS_PROFILE=thorough python -m pytest tests/test_properties_*.py
"""

import os

import numpy as np
import pytest
from hypothesis import HealthCheck, Phase, settings

_SLOW_DATA = [HealthCheck.too_slow, HealthCheck.data_too_large]
settings.register_profile("ci", max_examples=200, deadline=None, derandomize=True,
                          database=None, print_blob=True, suppress_health_check=_SLOW_DATA)
# The default run: every property exercised, in a fraction of the time.
settings.register_profile("fast", parent=settings.get_profile("ci"), max_examples=10)
settings.register_profile("thorough", max_examples=2000, deadline=None, print_blob=True,
                          suppress_health_check=_SLOW_DATA)
# Hunting: report the first failure as found, without the (slow) shrinking.
settings.register_profile("dev", parent=settings.get_profile("ci"),
                          phases=[Phase.explicit, Phase.generate])
settings.load_profile(os.environ.get("SKPROBEVAL_HYPOTHESIS_PROFILE", "fast"))


@pytest.fixture
def seed():
    """Integer seed for Monte Carlo tests, overridable by ``SKPROBEVAL_TEST_SEED``."""
    return int(os.environ.get("SKPROBEVAL_TEST_SEED", "0"))


@pytest.fixture
def rng(seed):
    """A numpy Generator seeded by the ``seed`` fixture."""
    return np.random.default_rng(seed)
