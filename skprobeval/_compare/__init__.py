"""Comparisons of systems, from two systems to rankings of many.

Two systems on independent or paired test items, scores and rankings, the
correlated t-test over folds, the Bayesian rank tests across data sets,
per-group posteriors and disparities, and rankings of many systems (paired
tables, cross-validated candidates, Plackett-Luce).
"""

from ._across import AcrossDatasetsReport, check_across_options, compare_across_datasets
from ._groups import (
    GroupDisparity,
    PosteriorMetricFrame,
    demographic_parity_disparity,
    equalized_odds_disparity,
    report_group_tables,
)
from ._metric_comparison import (
    MetricComparison,
    compare_independent,
    compare_paired_metric,
    paired_metric_from_codes,
    sampled_comparison,
)
from ._paired import (
    PairedComparison,
    compare_paired,
    paired_probabilities,
    pairwise_comparison,
)
from ._plackett_luce import PlackettLuceRanking, rank_across_datasets
from ._pooling import pool_in_range
from ._rank_cv import (
    CVResultsRanking,
    SimplestWithinRopeRefit,
    check_test_fraction,
    choose_scoring,
    rank_cv_results,
    rank_fold_scores,
    splitter_test_fraction,
)
from ._rank_systems import (
    SystemRanking,
    rank_systems,
    ranking_from_draws,
    ranking_of_clustered_draws,
)
from ._rank_tests import DatasetsComparison, bayesian_sign_test, bayesian_signed_rank_test
from ._ranking_posteriors import (
    RankingPosterior,
    average_precision_posterior,
    compare_scores,
    roc_auc_posterior,
)
from ._report_draws import clustered_metric_draws, shared_metric_draws
from ._runs import runs_draws
from ._ttest import CorrelatedTTestResult, correlated_ttest

__all__ = [
    "AcrossDatasetsReport",
    "CVResultsRanking",
    "CorrelatedTTestResult",
    "DatasetsComparison",
    "GroupDisparity",
    "MetricComparison",
    "PairedComparison",
    "PlackettLuceRanking",
    "PosteriorMetricFrame",
    "RankingPosterior",
    "SimplestWithinRopeRefit",
    "SystemRanking",
    "average_precision_posterior",
    "bayesian_sign_test",
    "bayesian_signed_rank_test",
    "check_across_options",
    "check_test_fraction",
    "clustered_metric_draws",
    "choose_scoring",
    "compare_across_datasets",
    "compare_independent",
    "compare_paired",
    "compare_paired_metric",
    "compare_scores",
    "correlated_ttest",
    "demographic_parity_disparity",
    "equalized_odds_disparity",
    "paired_metric_from_codes",
    "paired_probabilities",
    "pairwise_comparison",
    "pool_in_range",
    "rank_across_datasets",
    "rank_cv_results",
    "rank_fold_scores",
    "rank_systems",
    "ranking_from_draws",
    "ranking_of_clustered_draws",
    "runs_draws",
    "report_group_tables",
    "roc_auc_posterior",
    "sampled_comparison",
    "shared_metric_draws",
    "splitter_test_fraction",
]
