"""Arrays of other libraries (PyTorch, CuPy, JAX, array-api-strict) as inputs.

Every public callable that takes arrays reads an object with ``__dlpack__`` or
``__array_namespace__`` as NumPy reads the same values, copying it to the host
once, where its input is validated.  The stand-ins below behave towards NumPy
as such arrays do: `HostArray` refuses implicit conversion, as CuPy's arrays
do, and is read through DLPack; `DeviceArray` lives on a device DLPack cannot
hand to NumPy and copies itself with ``get()``, as CuPy does (its counting
subclass checks that each argument crosses once); `TrackedArray` needs
``detach()``, as a PyTorch tensor that tracks gradients; `StrandedArray`
offers no copy at all, and the error names the argument.  Each case runs on
NumPy arrays and on the stand-ins, with the same seed, and the results must
be identical.  The coverage test at the end fails when a public callable
taking arrays has no case here.
"""

import dataclasses
import inspect
import numbers
import warnings

import numpy as np
import pandas as pd
import pytest
from optional import needs

import skprobeval
from skprobeval import (
    BetaPosterior,
    ClusteredPosterior,
    ConfusionCounts,
    ConfusionMatrix,
    FBetaPosterior,
    JointCounts,
    PairedCounts,
    PosteriorMetricFrame,
    ProxyPosterior,
    SampledPosterior,
)
from skprobeval._core import to_host

_REFUSAL = ("Implicit conversion to a NumPy array is not allowed. Please use `.get()` to "
            "construct a NumPy array explicitly.")


class HostArray:
    """An array NumPy reads through DLPack only (``__array__`` refuses; no sequence protocol)."""

    def __init__(self, array):
        self._array = np.asarray(array)

    shape = property(lambda self: self._array.shape)
    ndim = property(lambda self: self._array.ndim)
    dtype = property(lambda self: self._array.dtype)

    def __array__(self, *args, **kwargs):
        raise TypeError(_REFUSAL)

    def __dlpack__(self, **kwargs):
        return self._array.__dlpack__(**kwargs)

    def __dlpack_device__(self):
        return self._array.__dlpack_device__()

    def __repr__(self):
        return f"{type(self).__name__}({self._array.tolist()!r})"


class DeviceArray(HostArray):
    """An array on a CUDA device: DLPack refuses a CPU consumer; ``get()`` copies."""

    def __dlpack__(self, **kwargs):
        raise BufferError("the array is on device cuda:0; NumPy reads CPU arrays only")

    def __dlpack_device__(self):
        return (2, 0)

    def get(self):
        return self._array.copy()


class StrandedArray(DeviceArray):
    """A device array that offers no host copy."""

    get = None


class TrackedArray(HostArray):
    """A tensor that tracks gradients: NumPy and DLPack refuse it until ``detach()``."""

    def __array__(self, *args, **kwargs):
        raise RuntimeError("Can't call numpy() on Tensor that requires grad.")

    def __dlpack__(self, **kwargs):
        raise RuntimeError("Can't export tensors that require gradient, use tensor.detach()")

    def detach(self):
        return HostArray(self._array)


# Tiny data: 16 items, every class and group present.
Y = np.array([0, 1, 1, 0, 1, 0, 1, 1, 0, 0, 1, 0, 1, 1, 0, 1])
PRED_A = np.array([0, 1, 0, 0, 1, 1, 1, 1, 0, 0, 1, 0, 0, 1, 0, 1])
PRED_B = np.array([1, 1, 1, 0, 0, 0, 1, 0, 0, 1, 1, 0, 1, 1, 0, 0])
PRED_C = np.array([0, 1, 1, 0, 1, 0, 0, 1, 1, 0, 1, 0, 1, 0, 0, 1])
SCORE_A = np.array([0.2, 0.9, 0.4, 0.3, 0.8, 0.6, 0.7, 0.95, 0.1, 0.35, 0.85, 0.05, 0.45,
                    0.75, 0.25, 0.65])
SCORE_B = np.array([0.6, 0.7, 0.8, 0.1, 0.3, 0.2, 0.9, 0.4, 0.15, 0.55, 0.65, 0.35, 0.75,
                    0.85, 0.05, 0.5])
WEIGHT = np.array([1.0, 2.0, 1.0, 1.0, 0.5, 1.0, 1.0, 2.0, 1.0, 1.0, 1.0, 3.0, 1.0, 1.0,
                   1.0, 1.0])
GROUP = np.array([0, 1, 2, 1, 0, 2, 1, 2, 0, 0, 1, 2, 0, 1, 2, 0])
Y3 = np.array([0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 2, 1, 0, 1])
PRED3 = np.array([0, 1, 1, 0, 2, 2, 0, 1, 2, 1, 1, 2, 0, 1, 0, 2])
DISTANCE = np.array([[0.0, 0.5, 1.0], [0.5, 0.0, 0.5], [1.0, 0.5, 0.0]])
Y_MULTI = np.array([[1, 0, 1], [0, 1, 1], [1, 1, 0], [0, 0, 1], [1, 0, 0], [0, 1, 0]])
PRED_MULTI = np.array([[1, 0, 0], [0, 1, 1], [1, 0, 0], [0, 1, 1], [1, 0, 1], [0, 1, 0]])
FOLD_A = np.array([0.81, 0.79, 0.84, 0.80, 0.83, 0.78])
FOLD_B = np.array([0.78, 0.80, 0.80, 0.77, 0.82, 0.76])
TABLE = np.array([[0.81, 0.79, 0.70], [0.84, 0.80, 0.72], [0.60, 0.65, 0.55],
                  [0.90, 0.88, 0.86], [0.75, 0.70, 0.71]])
UTILITY = np.array([[1.0, -1.0], [-2.0, 3.0]])
DRAWS = {"n_draws": 200, "random_state": 0}


def _label_pair(function, **options):
    return lambda T: function(T(Y), T(PRED_A), sample_weight=T(WEIGHT), **options)


def _scores(function, **options):
    return lambda T: function(T(Y), T(SCORE_A), sample_weight=T(WEIGHT), **options)


def _cv_results(T):
    return {"params": [{"c": 1}, {"c": 2}, {"c": 3}],
            **{f"split{k}_test_score": T(TABLE[k]) for k in range(TABLE.shape[0])}}


def _fold_results(T):
    test = [np.arange(0, 8), np.arange(8, 16)]
    return {name: {"indices": {"test": test}, "predictions": [T(pred[t]) for t in test],
                   "test_score": np.array([0.5, 0.5])}
            for name, pred in (("a", PRED_A), ("b", PRED_B))}


# Every public function or constructor taking arrays, with a call on tiny data; `T`
# turns each NumPy argument into the array under test.
CASES = {
    # Confusion counts and their metrics.
    "ConfusionCounts": lambda T: ConfusionCounts(T(np.array(3.0)), T(np.array(1.0)),
                                                 T(np.array(2.0)), T(np.array(4.0))),
    "ConfusionCounts.from_predictions": _label_pair(ConfusionCounts.from_predictions),
    "ConfusionCounts.from_confusion_matrix": lambda T: ConfusionCounts.from_confusion_matrix(
        T(np.array([[5.0, 1.0, 0.0], [2.0, 4.0, 1.0], [0.0, 1.0, 6.0]]))),
    "PairedCounts": lambda T: PairedCounts(T(np.array([3.0, 1.0])), T(np.array([1.0, 2.0])),
                                           T(np.array([8.0, 9.0]))),
    "ConfusionMatrix": lambda T: ConfusionMatrix(
        T(np.array([[5.0, 1.0, 0.0], [2.0, 4.0, 1.0], [0.0, 1.0, 6.0]]))),
    "ConfusionMatrix.from_predictions": _label_pair(ConfusionMatrix.from_predictions),
    "PairedCounts.from_predictions": lambda T: PairedCounts.from_predictions(
        T(Y), T(PRED_A), T(PRED_B), sample_weight=T(WEIGHT)),
    "confusion_count": _label_pair(skprobeval.confusion_count),
    "metric_score": _label_pair(skprobeval.metric_score, metric="f1"),
    "e_measure_score": _label_pair(skprobeval.e_measure_score),
    "fallout_score": _label_pair(skprobeval.fallout_score),
    "generality_score": _label_pair(skprobeval.generality_score),
    "informedness_score": _label_pair(skprobeval.informedness_score),
    "k_measure_score": _label_pair(skprobeval.k_measure_score),
    "markedness_score": _label_pair(skprobeval.markedness_score),
    "noise_score": _label_pair(skprobeval.noise_score),
    "overlap_score": _label_pair(skprobeval.overlap_score),
    "silence_score": _label_pair(skprobeval.silence_score),
    "specificity_score": _label_pair(skprobeval.specificity_score),
    "distance_weighted_precision_recall": lambda T: skprobeval.distance_weighted_precision_recall(
        T(Y3), T(PRED3), distance=T(DISTANCE), labels=T(np.array([0, 1, 2])),
        sample_weight=T(WEIGHT)),
    # Posteriors of metrics.
    "metric_posterior": _label_pair(skprobeval.metric_posterior, metric="f1", **DRAWS),
    # Gold labels on half the items (NaN on the rest) and a second labeller on all.
    "metric_posterior (proxy)": lambda T: skprobeval.metric_posterior(
        T(np.where(np.arange(Y.shape[0]) % 2 == 0, Y, np.nan)), T(PRED_A), proxy=T(PRED_B),
        metric="f1", sample_weight=T(WEIGHT), **DRAWS),
    "fbeta_posterior": _label_pair(skprobeval.fbeta_posterior, **DRAWS),
    "precision_posterior": _label_pair(skprobeval.precision_posterior, **DRAWS),
    "recall_posterior": _label_pair(skprobeval.recall_posterior, **DRAWS),
    "informedness_posterior": _label_pair(skprobeval.informedness_posterior, **DRAWS),
    "markedness_posterior": _label_pair(skprobeval.markedness_posterior, **DRAWS),
    "posterior_report": _label_pair(skprobeval.posterior_report, **DRAWS),
    "posterior_score": _label_pair(skprobeval.posterior_score, **DRAWS),
    "BetaPosterior": lambda T: BetaPosterior(T(np.array([3.5, 2.5])), T(np.array(4.5))),
    "FBetaPosterior": lambda T: FBetaPosterior(T(np.array(3.0)), T(np.array(1.0)),
                                               T(np.array(2.0))),
    "SampledPosterior": lambda T: SampledPosterior(T(SCORE_A)),
    "ClusteredPosterior": lambda T: ClusteredPosterior(T(SCORE_A), n_clusters=2, n_items=4.0,
                                                       effective_n=3.0),
    "ProxyPosterior": lambda T: ProxyPosterior(T(SCORE_A), n_items=10.0, n_labelled=4.0,
                                               labelled_only=BetaPosterior(3.5, 2.5)),
    # Paired comparisons and rankings of systems.
    "compare_paired": lambda T: skprobeval.compare_paired(
        T(Y), T(PRED_A), T(PRED_B), sample_weight=T(WEIGHT)),
    "compare_paired_metric": lambda T: skprobeval.compare_paired_metric(
        T(Y), T(PRED_A), T(PRED_B), sample_weight=T(WEIGHT), **DRAWS),
    "pairwise_comparison": lambda T: skprobeval.pairwise_comparison(
        T(Y), {"a": T(PRED_A), "b": T(PRED_B)}, sample_weight=T(WEIGHT)),
    "compare_predictions": lambda T: skprobeval.compare_predictions(
        T(Y), {"a": T(PRED_A), "b": T(PRED_B)}, scores={"a": T(SCORE_A), "b": T(SCORE_B)},
        sensitive_features=T(GROUP), sample_weight=T(WEIGHT), **DRAWS),
    "compare_cv_results": lambda T: skprobeval.compare_cv_results(_fold_results(T), y=T(Y),
                                                                  **DRAWS),
    "rank_systems": lambda T: skprobeval.rank_systems(
        T(Y), {"a": T(PRED_A), "b": T(PRED_B), "c": T(PRED_C)}, sample_weight=T(WEIGHT),
        **DRAWS),
    "JointCounts.from_predictions": lambda T: JointCounts.from_predictions(
        T(Y), {"a": T(PRED_A), "b": T(PRED_B), "c": T(PRED_C)}, sample_weight=T(WEIGHT)),
    "JointCounts": lambda T: JointCounts(T(Y), T(np.column_stack([PRED_A, PRED_B])),
                                         T(WEIGHT), names=["a", "b"]),
    "compare_counts": lambda T: skprobeval.compare_counts(
        {"a": T(np.array([[5.0, 1.0], [2.0, 4.0]])),
         "b": [T(np.array([[4.0, 2.0], [1.0, 5.0]])), T(np.array([[6.0, 1.0], [1.0, 3.0]]))]},
        **DRAWS),
    "compare_independent": lambda T: skprobeval.compare_independent(
        ConfusionCounts(T(np.array(3.0)), T(np.array(1.0)), T(np.array(2.0)),
                        T(np.array(4.0))),
        ConfusionCounts(T(np.array(5.0)), T(np.array(2.0)), T(np.array(1.0)),
                        T(np.array(3.0))), **DRAWS),
    "chance_baseline": lambda T: skprobeval.chance_baseline(ConfusionCounts.from_predictions(
        T(Y), T(PRED_A))),
    # Scores: ranking metrics, their posteriors, curves and thresholds.
    "average_precision": _scores(skprobeval.average_precision),
    "average_precision_posterior": _scores(skprobeval.average_precision_posterior, **DRAWS),
    "roc_auc_posterior": _scores(skprobeval.roc_auc_posterior, **DRAWS),
    "compare_scores": lambda T: skprobeval.compare_scores(
        T(Y), T(SCORE_A), T(SCORE_B), sample_weight=T(WEIGHT), **DRAWS),
    "precision_at_k_score": lambda T: skprobeval.precision_at_k_score(T(Y), T(SCORE_A), k=5),
    "random_ranking_test": lambda T: skprobeval.random_ranking_test(
        T(Y), T(SCORE_A), n_permutations=50, random_state=0),
    "d_measure_score": lambda T: skprobeval.d_measure_score(T(SCORE_A)),
    "posterior_precision_recall_curve": _scores(skprobeval.posterior_precision_recall_curve),
    "posterior_roc_curve": _scores(skprobeval.posterior_roc_curve),
    "choose_threshold": _scores(skprobeval.choose_threshold, constraint=("precision", 0.6),
                                **DRAWS),
    "threshold_utility": _scores(skprobeval.threshold_utility, utility=UTILITY, **DRAWS),
    # Calibration and losses.
    "posterior_calibration_curve": _scores(skprobeval.posterior_calibration_curve, n_bins=3),
    "brier_score_posterior": _scores(skprobeval.brier_score_posterior, **DRAWS),
    "log_loss_posterior": _scores(skprobeval.log_loss_posterior, **DRAWS),
    "calibration_error_posterior": _scores(skprobeval.calibration_error_posterior, n_bins=3,
                                           **DRAWS),
    "mean_loss_posterior": lambda T: skprobeval.mean_loss_posterior(
        T(SCORE_A), sample_weight=T(WEIGHT), **DRAWS),
    "compare_losses": lambda T: skprobeval.compare_losses(
        T(SCORE_A), T(SCORE_B), sample_weight=T(WEIGHT), **DRAWS),
    # Groups.
    "PosteriorMetricFrame": lambda T: PosteriorMetricFrame(
        metrics="recall", y_true=T(Y), y_pred=T(PRED_A), sensitive_features=T(GROUP),
        sample_weight=T(WEIGHT), **DRAWS),
    "demographic_parity_disparity": _label_pair(skprobeval.demographic_parity_disparity,
                                                sensitive_features=GROUP, **DRAWS),
    "equalized_odds_disparity": _label_pair(skprobeval.equalized_odds_disparity,
                                            sensitive_features=GROUP, **DRAWS),
    # Scores per fold or per data set.
    "correlated_ttest": lambda T: skprobeval.correlated_ttest(T(FOLD_A), T(FOLD_B),
                                                              test_fraction=0.2),
    "bayesian_signed_rank_test": lambda T: skprobeval.bayesian_signed_rank_test(
        T(FOLD_A), T(FOLD_B), **DRAWS),
    "bayesian_sign_test": lambda T: skprobeval.bayesian_sign_test(T(FOLD_A), T(FOLD_B),
                                                                  **DRAWS),
    "compare_across_datasets": lambda T: skprobeval.compare_across_datasets(T(TABLE), **DRAWS),
    "rank_across_datasets": lambda T: skprobeval.rank_across_datasets(
        T(TABLE), n_draws=100, n_chains=2, burn_in=10, thin=1, random_state=0),
    "rank_cv_results": lambda T: skprobeval.rank_cv_results(_cv_results(T), **DRAWS),
    "plan_labels": lambda T: skprobeval.plan_labels(
        T(PRED_A), T(PRED_B), labelled=T(np.where(np.arange(Y.shape[0]) % 2 == 0, Y, np.nan)),
        budget=4, n_sims=10, n_draws=100, random_state=0),
    "plan_test_size": lambda T: skprobeval.plan_test_size(
        metric="f1", width=0.3, average="macro", n_sims=20, n_draws=100, random_state=0,
        pilot=T(np.array([[5.0, 1.0, 0.0], [2.0, 4.0, 1.0], [0.0, 1.0, 6.0]]))),
}

# Arrays in other places than the first arguments, and other shapes and dtypes.
EXTRA_CASES = {
    "bool labels": lambda T: ConfusionCounts.from_predictions(T(Y.astype(bool)),
                                                              T(PRED_A.astype(bool))),
    "float labels": lambda T: ConfusionCounts.from_predictions(T(Y.astype(np.float32)),
                                                               T(PRED_A.astype(np.float32))),
    "uint8 multiclass labels": lambda T: skprobeval.metric_posterior(
        T(Y3.astype(np.uint8)), T(PRED3.astype(np.uint8)), metric="f1", average="macro",
        labels=T(np.array([0, 1, 2], dtype=np.uint8)), **DRAWS),
    "multilabel indicator": lambda T: ConfusionCounts.from_predictions(
        T(Y_MULTI), T(PRED_MULTI), average=None),
    "bool multilabel indicator": lambda T: skprobeval.compare_paired_metric(
        T(Y_MULTI.astype(bool)), T(PRED_MULTI.astype(bool)), T(Y_MULTI[::-1].astype(bool)),
        average="macro", **DRAWS),
    "float32 scores": lambda T: skprobeval.roc_auc_posterior(
        T(Y), T(SCORE_A.astype(np.float32)), **DRAWS),
    "sensitive features as columns": lambda T: PosteriorMetricFrame(
        metrics="recall", y_true=Y, y_pred=PRED_A,
        sensitive_features=T(np.column_stack([GROUP, GROUP % 2])), **DRAWS),
    "sensitive features as a dict": lambda T: skprobeval.demographic_parity_disparity(
        Y, PRED_A, sensitive_features={"g": T(GROUP), "h": T(GROUP % 2)}, **DRAWS),
    "columns of a dict as data": lambda T: skprobeval.compare_predictions(
        "y", ["a", "b"], data={"y": T(Y), "a": T(PRED_A), "b": T(PRED_B)}, **DRAWS),
    "scores by data set as a dict": lambda T: skprobeval.compare_across_datasets(
        {"a": T(TABLE[:, 0]), "b": T(TABLE[:, 1])}, **DRAWS),
    "ranking metric of rank_systems": lambda T: skprobeval.rank_systems(
        T(Y), {"a": T(SCORE_A), "b": T(SCORE_B)}, metric="roc_auc", **DRAWS),
    "utility matrix": lambda T: skprobeval.threshold_utility(Y, SCORE_A, utility=T(UTILITY),
                                                            **DRAWS),
    "distance matrix": lambda T: skprobeval.distance_weighted_precision_recall(
        Y3, PRED3, distance=T(DISTANCE)),
    "z-scores of average precision": lambda T: skprobeval.random_average_precision(
        16, 8).z_score(T(np.array([0.5, 0.75]))),
}

X = np.column_stack([SCORE_A, SCORE_B])


def _estimators():
    from sklearn.dummy import DummyClassifier
    from sklearn.naive_bayes import GaussianNB

    return {"bayes": GaussianNB(), "prior": DummyClassifier(strategy="prior")}


def _fitted(y=Y):
    from sklearn.naive_bayes import GaussianNB

    return GaussianNB().fit(X, y)


# With estimators, the labels `y` are the package's to read; the features `X` go to the
# estimators as given (an estimator under scikit-learn's array API dispatch takes them).
ESTIMATOR_CASES = {
    "compare_estimators": lambda T: skprobeval.compare_estimators(
        _estimators(), X, T(Y), cv=2, n_draws=200),
    "compare_estimators_across_datasets": lambda T: skprobeval.compare_estimators_across_datasets(
        _estimators(), {"one": (X, T(Y))}, cv=2, n_draws=200),
    "make_posterior_scorer": lambda T: skprobeval.make_posterior_scorer(n_draws=200)(
        _fitted(), X, T(Y)),
    "CountsScorer": lambda T: skprobeval.CountsScorer()(_fitted(), X, T(Y)),
}

LABELS = np.array([2, 0, 1])
MATRIX3 = np.array([[5.0, 1.0, 0.0], [2.0, 4.0, 1.0], [0.0, 1.0, 6.0]])


def _macro(function, **options):
    return lambda T: function(T(Y3), T(PRED3), labels=T(LABELS), average="macro", **options)


# The `labels` argument (the labels to report, in order) of every public callable taking it.
LABELS_CASES = {
    **{name: _macro(getattr(skprobeval, name)) for name in (
        "e_measure_score", "fallout_score", "generality_score", "informedness_score",
        "k_measure_score", "markedness_score", "noise_score", "overlap_score",
        "silence_score", "specificity_score")},
    **{name: _macro(getattr(skprobeval, name), **DRAWS) for name in (
        "fbeta_posterior", "informedness_posterior", "markedness_posterior",
        "precision_posterior", "recall_posterior",
        "posterior_score")},
    "metric_score": _macro(skprobeval.metric_score, metric="f1"),
    "plan_labels": lambda T: skprobeval.plan_labels(
        T(PRED3), T(Y3[::-1]), labelled=T(np.where(np.arange(16) < 10, Y3, np.nan)),
        metric="f1", average="macro", labels=T(LABELS), budget=3, min_per_stratum=0,
        n_sims=10, n_draws=100, random_state=0),
    "plan_test_size": lambda T: skprobeval.plan_test_size(
        metric="f1", width=0.3, pilot=np.array([[5.0, 1.0, 0.0], [2.0, 4.0, 1.0], [0.0, 1.0, 6.0]]),
        average="macro", labels=T(LABELS), n_sims=20, n_draws=100, random_state=0),
    "metric_posterior": _macro(skprobeval.metric_posterior, metric="f1", **DRAWS),
    "distance_weighted_precision_recall": _macro(skprobeval.distance_weighted_precision_recall,
                                                 distance=DISTANCE[np.ix_(LABELS, LABELS)]),
    "ConfusionCounts.from_predictions": lambda T: ConfusionCounts.from_predictions(
        T(Y3), T(PRED3), labels=T(LABELS), average=None),
    "ConfusionCounts.from_confusion_matrix": lambda T: ConfusionCounts.from_confusion_matrix(
        T(MATRIX3), labels=T(LABELS)),
    "ConfusionCounts": lambda T: ConfusionCounts(T(np.array([3.0, 1.0])), T(np.array([1.0, 2.0])),
                                                 T(np.array([2.0, 0.0])), T(np.array([4.0, 7.0])),
                                                 labels=T(np.array([7, 9]))),
    "PairedCounts": lambda T: PairedCounts(T(np.array([3.0, 1.0])), T(np.array([1.0, 2.0])),
                                           T(np.array([8.0, 9.0])), labels=T(np.array([7, 9]))),
    "ConfusionMatrix": lambda T: ConfusionMatrix(T(MATRIX3), labels=T(LABELS)),
    "ConfusionMatrix.from_predictions": lambda T: ConfusionMatrix.from_predictions(
        T(Y3), T(PRED3), labels=T(LABELS), sample_weight=T(WEIGHT)),
    "posterior_report": lambda T: skprobeval.posterior_report(T(Y3), T(PRED3), labels=T(LABELS),
                                                              **DRAWS),
    "compare_paired_metric": lambda T: skprobeval.compare_paired_metric(
        T(Y3), T(PRED3), T(Y3[::-1]), labels=T(LABELS), average="macro", **DRAWS),
    "compare_predictions": lambda T: skprobeval.compare_predictions(
        T(Y3), {"a": T(PRED3), "b": T(Y3[::-1])}, labels=T(LABELS), average="macro", **DRAWS),
    "rank_systems": lambda T: skprobeval.rank_systems(
        T(Y3), {"a": T(PRED3), "b": T(Y3[::-1]), "c": T(Y3)}, metric="f1", labels=T(LABELS),
        average="macro", **DRAWS),
    "JointCounts.from_predictions": lambda T: JointCounts.from_predictions(
        T(Y3), {"a": T(PRED3), "b": T(Y3[::-1])}, labels=T(LABELS), average="macro"),
    "JointCounts": lambda T: JointCounts(T(Y3), T(np.column_stack([PRED3, Y3[::-1]])),
                                         T(WEIGHT), names=["a", "b"], labels=T(LABELS),
                                         average="macro"),
    "compare_cv_results": lambda T: skprobeval.compare_cv_results(
        {name: {"indices": {"test": [np.arange(0, 8), np.arange(8, 16)]},
                "predictions": [T(pred[:8]), T(pred[8:])]}
         for name, pred in (("a", PRED3), ("b", Y3[::-1]))},
        y=T(Y3), labels=T(LABELS), average="macro", **DRAWS),
    "compare_estimators": lambda T: skprobeval.compare_estimators(
        _estimators(), X, T(Y3), labels=T(LABELS), average="macro", cv=2, n_draws=200),
    "compare_counts": lambda T: skprobeval.compare_counts(
        {"a": T(MATRIX3), "b": T(MATRIX3.T.copy())}, metric="f1", labels=T(LABELS[:2]),
        average="macro", **DRAWS),
    "make_posterior_scorer": lambda T: skprobeval.make_posterior_scorer(
        labels=T(LABELS), average="macro", n_draws=200)(_fitted(Y3), X, T(Y3)),
    "CountsScorer": lambda T: skprobeval.CountsScorer(labels=T(LABELS))(_fitted(Y3), X, T(Y3)),
}

# Displays: matplotlib draws the same result objects as the functions above.
DISPLAY_CASES = {
    "PosteriorPrecisionRecallDisplay.from_predictions":
        _scores(lambda *a, **k: skprobeval.PosteriorPrecisionRecallDisplay.from_predictions(
            *a, **k), **DRAWS),
    "PosteriorRocCurveDisplay.from_predictions":
        _scores(lambda *a, **k: skprobeval.PosteriorRocCurveDisplay.from_predictions(*a, **k),
                **DRAWS),
    "PosteriorCalibrationDisplay.from_predictions":
        _scores(lambda *a, **k: skprobeval.PosteriorCalibrationDisplay.from_predictions(
            *a, **k), n_bins=3),
    "PosteriorPrecisionRecallDisplay.from_estimator":
        lambda T: skprobeval.PosteriorPrecisionRecallDisplay.from_estimator(
            _fitted(), X, T(Y), sample_weight=T(WEIGHT), **DRAWS),
    "PosteriorRocCurveDisplay.from_estimator":
        lambda T: skprobeval.PosteriorRocCurveDisplay.from_estimator(
            _fitted(), X, T(Y), sample_weight=T(WEIGHT), **DRAWS),
    "PosteriorCalibrationDisplay.from_estimator":
        lambda T: skprobeval.PosteriorCalibrationDisplay.from_estimator(
            _fitted(), X, T(Y), sample_weight=T(WEIGHT), n_bins=3),
    "GroupIntervalDisplay.from_predictions":
        _label_pair(lambda *a, **k: skprobeval.GroupIntervalDisplay.from_predictions(*a, **k),
                    sensitive_features=GROUP, **DRAWS),
}


def _summary(value, depth=0):
    """What a result holds, as nested lists, dicts and arrays for `np.testing.assert_equal`."""
    if value is None or isinstance(value, (str, bytes, bool, numbers.Number, np.generic,
                                           np.ndarray)):
        return value
    if depth > 4:
        return type(value).__name__
    if isinstance(value, (pd.DataFrame, pd.Series)):
        return _summary(value.to_dict(), depth + 1)
    if isinstance(value, pd.Index):
        return value.tolist()
    if isinstance(value, dict):
        return {str(key): _summary(item, depth + 1) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_summary(item, depth + 1) for item in value]
    if type(value).__module__.startswith(("matplotlib", "numpy.random")):
        return type(value).__name__
    if dataclasses.is_dataclass(value):
        return {field.name: _summary(getattr(value, field.name), depth + 1)
                for field in dataclasses.fields(value)}
    out = {"type": type(value).__name__}
    if callable(getattr(value, "mean", None)) and callable(getattr(value, "interval", None)):
        out["mean"] = value.mean()
        out["interval"] = list(value.interval(0.9))
    for name in dir(value):
        if name.startswith("_") or name in out:
            continue
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                item = getattr(value, name)
            except Exception as error:  # a property undefined for this result
                item = type(error).__name__
        if any(issubclass(w.category, FutureWarning) for w in caught):
            continue        # a deprecated alias of another attribute
        if not callable(item):
            out[name] = _summary(item, depth + 1)
    return out


def _same(call, convert):
    expected = _summary(call(lambda array: array))
    np.testing.assert_equal(_summary(call(convert)), expected)


class CountingDeviceArray(DeviceArray):
    """A device array that counts its copies to the host."""

    def __init__(self, array):
        super().__init__(array)
        self.copies = 0

    def get(self):
        self.copies += 1
        return super().get()


def _same_and_copied_once(call):
    """The stand-ins give NumPy's result, and each device array is copied once."""
    _same(call, HostArray)
    arrays = []

    def device(array):
        arrays.append(CountingDeviceArray(array))
        return arrays[-1]

    _same(call, device)
    assert [array.copies for array in arrays] == [1] * len(arrays)


@pytest.mark.parametrize("name", sorted(CASES))
def test_array_of_another_library_gives_the_numpy_result(name):
    _same_and_copied_once(CASES[name])


@pytest.mark.parametrize("name", sorted(EXTRA_CASES))
def test_array_of_another_library_in_other_places(name):
    _same_and_copied_once(EXTRA_CASES[name])


@pytest.mark.parametrize("name", sorted(LABELS_CASES))
def test_labels_argument_of_another_library(name):
    _same_and_copied_once(LABELS_CASES[name])


@pytest.mark.parametrize("name", sorted(ESTIMATOR_CASES))
def test_labels_of_another_library_with_estimators(name):
    _same_and_copied_once(ESTIMATOR_CASES[name])


@needs("matplotlib")
@pytest.mark.parametrize("name", sorted(DISPLAY_CASES))
def test_displays_take_arrays_of_another_library(name):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    try:
        _same_and_copied_once(DISPLAY_CASES[name])
    finally:
        plt.close("all")


def test_device_array_without_a_copy_names_the_argument():
    with pytest.raises(TypeError, match=r"`y_true` must be an array NumPy can read.*"
                                        r"`y_true\.cpu\(\)`.*on device 'cuda:0' that could "
                                        r"not be copied to the host \(BufferError: the array "
                                        r"is on device cuda:0"):
        skprobeval.metric_posterior(StrandedArray(Y), PRED_A, metric="f1", **DRAWS)
    with pytest.raises(TypeError, match="`sample_weight` must be .* on device 'cuda:0'"):
        ConfusionCounts.from_predictions(Y, PRED_A, sample_weight=StrandedArray(WEIGHT))
    with pytest.raises(TypeError, match="`scores_b` must be .* on device 'cuda:0'"):
        skprobeval.correlated_ttest(FOLD_A, StrandedArray(FOLD_B), test_fraction=0.2)


@pytest.mark.parametrize("value", [np.arange(3), [0, 1], (0, 1), 3, 2.5, "a", None,
                                   np.float64(1.5), pd.Series([0, 1]), pd.DataFrame({"a": [1]}),
                                   range(3)])
def test_host_values_pass_unchanged(value):
    assert to_host(value, "y_true") is value


def test_to_host_keeps_dtype_and_shape():
    for array in (np.array(2.5), np.array([True, False]), np.arange(6, dtype=np.int16).reshape(
            2, 3), np.array([[1.5], [2.5]], dtype=np.float32)):
        for stand_in in (HostArray, DeviceArray, TrackedArray):
            host = to_host(stand_in(array), "y_true")
            assert isinstance(host, np.ndarray)
            assert host.dtype == array.dtype and host.shape == array.shape
            np.testing.assert_array_equal(host, array)
        # On the CPU the data are not copied.
        assert np.shares_memory(to_host(HostArray(array), "y_true"), array)


@needs("pyarrow")
def test_arrays_dlpack_refuses_are_read_by_numpy():
    # pyarrow (15 and later) exports no nulls, booleans or strings through DLPack;
    # NumPy reads them as before.
    import pyarrow as pa

    for values in ([1, None, 3], [True, False], ["a", None], [1.5, 2.5]):
        array = pa.array(values)
        host = np.asarray(to_host(array, "y_true"))
        np.testing.assert_array_equal(host, np.asarray(array))
        assert host.dtype == np.asarray(array).dtype


@needs("dask")
def test_dask_collections_are_not_loaded():
    import dask.array as da

    value = da.from_array(Y, chunks=4)
    assert to_host(value, "y_true") is value


def _array_api_strict():
    return pytest.importorskip("array_api_strict",
                               reason="array-api-strict tests the array API standard's arrays")


@pytest.mark.parametrize("name", ["ConfusionCounts.from_predictions", "metric_posterior",
                                  "compare_predictions", "rank_systems", "compare_scores",
                                  "posterior_roc_curve", "brier_score_posterior",
                                  "PosteriorMetricFrame", "correlated_ttest",
                                  "bayesian_signed_rank_test", "choose_threshold",
                                  "ConfusionCounts.from_confusion_matrix"])
def test_array_api_strict_arrays(name):
    xp = _array_api_strict()
    _same(CASES[name], xp.asarray)


def test_array_api_strict_bool_and_multilabel():
    xp = _array_api_strict()
    _same(EXTRA_CASES["bool labels"], xp.asarray)
    _same(EXTRA_CASES["multilabel indicator"], xp.asarray)


def test_array_api_strict_arrays_on_another_device():
    # array-api-strict's other devices refuse np.asarray; DLPack still reads them.
    xp = _array_api_strict()
    device = xp.Device("device1")
    _same(CASES["compare_paired_metric"], lambda array: xp.asarray(array, device=device))


# Parameters through which a public callable takes arrays.
_ARRAY_PARAMETERS = {
    "y_true", "y_pred", "y_score", "y_prob", "y_pred_first", "y_pred_second", "y_pred_a",
    "y_pred_b", "y_score_a", "y_score_b", "sample_weight", "sensitive_features",
    "predictions", "scores", "scores_a", "scores_b", "losses", "losses_a", "losses_b",
    "matrix", "distance", "pertinence", "utility", "cv_results", "results", "counts", "pilot",
    "counts_a", "X", "y", "datasets", "tp", "first_better", "samples",
}
# Result types: the package builds them, from arrays it has already read.
_RESULT_TYPES = {
    "AcrossDatasetsReport", "CVResultsRanking", "CalibrationCurve", "CalibrationErrorPosterior",
    "ChanceBaseline", "ComparisonReport", "CurveBand", "DatasetsComparison", "GroupDisparity",
    "LabelPlan", "MeanLossPosterior", "MetricComparison", "PlackettLuceRanking",
    "PosteriorCurve",
    "RankingPosterior", "ReportVerdict", "SystemRanking", "TestSizePlan", "ThresholdChoice",
    "ThresholdUtility",
    "PosteriorCalibrationDisplay", "PosteriorPrecisionRecallDisplay",
    "PosteriorRocCurveDisplay", "GroupIntervalDisplay",
}


def _public_array_callables(parameters=_ARRAY_PARAMETERS):
    for name in skprobeval.__all__:
        value = getattr(skprobeval, name)
        if not callable(value):
            continue
        entries = [(name, value)]
        if inspect.isclass(value):
            entries = [] if name in _RESULT_TYPES else [(name, value)]
            entries += [(f"{name}.{method}", getattr(value, method)) for method in dir(value)
                        if method.startswith("from_")]
        for entry, function in entries:
            try:
                signature = inspect.signature(function).parameters
            except (TypeError, ValueError):
                continue
            if parameters & set(signature):
                yield entry


def test_every_public_array_entry_point_is_covered():
    covered = set(CASES) | set(ESTIMATOR_CASES) | set(DISPLAY_CASES)
    missing = sorted(set(_public_array_callables()) - covered)
    assert not missing, f"public callables taking arrays without a case here: {missing}"
    missing = sorted(set(_public_array_callables({"labels"})) - set(LABELS_CASES))
    assert not missing, f"public callables taking `labels` without a case here: {missing}"
