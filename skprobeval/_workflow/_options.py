"""Validation shared by the comparison reports' entry points."""

from __future__ import annotations

from .._core import check_confidence, check_draws, check_positive, check_prior
from .._metrics import check_average, get_metric

__all__ = ["check_report_options"]


def check_report_options(metric, beta, prior, confidence, n_draws):
    """The options of every report but the averaging (checked once labels are known)."""
    spec = get_metric(metric)
    beta = check_positive(beta, "beta")
    lam = check_prior(prior)
    confidence = check_confidence(confidence)
    n_draws = check_draws(n_draws)
    return spec, beta, lam, confidence, n_draws


def _check_common(metric, average, beta, prior, confidence, n_draws):
    spec, beta, lam, confidence, n_draws = check_report_options(metric, beta, prior, confidence,
                                                            n_draws)
    average = check_average(average, spec.name)
    return spec, average, beta, lam, confidence, n_draws
