"""The report from fold scores alone.

`compare_cv_results` sends here results that hold no predictions and no
counts: ``{name: cross_validate(...)}`` with ``test_score`` (or
``test_<scorer>``) only, and ``{name: cross_val_score(...)}`` arrays.  This
module reads them (the scorer, the test fraction from the splitter, the
repeats) and builds the report: the correlated t-test of every pair, each
system's mean score with its Student-t interval, and the ranking of
`rank_cv_results` over the systems.  pandas is imported lazily.
"""

from __future__ import annotations

import math
import numbers
import re

import numpy as np

from .._compare import (
    check_test_fraction,
    choose_scoring,
    rank_fold_scores,
    splitter_test_fraction,
)
from .._core import COUNT_COLUMNS, check_confidence, check_draws, check_rope, fail
from ._report import (
    _PAIR_COLUMNS,
    SUMMARY_COLUMNS,
    ComparisonReport,
    _holds_counts,
    _ttest_table,
    with_ranking,
)

__all__ = ["compare_fold_scores", "refuse_search_results", "result_kind"]


# ---------------------------------------------------------------------------
# Reading the results
# ---------------------------------------------------------------------------


_SEARCH_SPLIT_KEY = re.compile(r"^split\d+_test_.+$")


def refuse_search_results(results):
    """Name `rank_cv_results` when `results` is a search or its ``cv_results_``."""
    use = ("{name: cross_validate(...)} or {name: cross_val_score(...)} results of several "
           "systems (for the candidates of a search, use rank_cv_results)")
    if not isinstance(results, dict) and hasattr(results, "cv_results_"):
        fail("results", use, results, shown=f"a fitted {type(results).__name__}")
    if isinstance(results, dict) and "params" in results and any(
            _SEARCH_SPLIT_KEY.match(str(key)) for key in results):
        fail("results", use, results, shown="the cv_results_ of a search (keys 'params', "
             f"{sorted(str(k) for k in results if _SEARCH_SPLIT_KEY.match(str(k)))[0]!r}, ...)")


def result_kind(result, X):
    """What a system's result holds, as the report reads it."""
    if not isinstance(result, dict):
        return "fold scores only"              # cross_val_score's array (or a list)
    if "predictions" in result or ("estimator" in result and X is not None):
        return "out-of-fold predictions"
    if _holds_counts(result):
        return "CountsScorer counts"
    if any(str(key).startswith("test_") for key in result):
        return "fold scores only"
    return "nothing the report reads"


def compare_fold_scores(results, *, scoring, cv, test_fraction, rope, confidence, n_draws,
                        random_state):
    """The report of `compare_cv_results` for results holding fold scores only."""
    rope = check_rope(rope, width=math.inf)
    confidence = check_confidence(confidence)
    n_draws = check_draws(n_draws)
    fold_scores, scoring = _fold_scores_of(results, scoring)
    n_splits = next(iter(fold_scores.values())).shape[0]
    test_fraction, n_repeats, source = _fold_test_fraction(cv, test_fraction, n_splits)
    hint = (" (pass X and y to predict with the fitted estimators)" if all(
        isinstance(r, dict) and "estimator" in r and "indices" in r for r in results.values())
        else "")
    note = (f"Fold scores only: no counts, so no per-item posterior{hint}; test fraction "
            f"{test_fraction:.4g} ({source}).")
    return _fold_scores_report(fold_scores, scoring, test_fraction=test_fraction,
                               n_repeats=n_repeats, note=note, rope=rope,
                               confidence=confidence, n_draws=n_draws,
                               random_state=random_state)


def _fold_scores_of(results, scoring):
    """Each system's fold scores (float arrays of one length, at least 2) and the scorer."""
    forms = {name: "cross_validate dict" if isinstance(result, dict) else "array"
             for name, result in results.items()}
    if len(set(forms.values())) > 1:
        fail("results", "fold scores of one form for every system (all cross_validate dicts "
             "or all cross_val_score arrays)", forms)
    if next(iter(forms.values())) == "array":
        if scoring is None:
            scoring = "score"
        elif not isinstance(scoring, str):
            fail("scoring", "None or a scorer name (str)", scoring, error=TypeError)
        values = {name: (result, "") for name, result in results.items()}
    else:
        recorded = {name: [str(key)[len("test_"):] for key in result
                           if str(key).startswith("test_")]
                    for name, result in results.items()}
        first, *others = recorded.values()
        common = [name for name in first if all(name in other for other in others)]
        if not common:
            fail("results", "fold scores of one scorer for every system (test_<scorer> keys)",
                 {name: [f"test_{s}" for s in found] for name, found in recorded.items()})
        scoring = choose_scoring(dict.fromkeys(common), scoring, holder="every result")
        values = {name: (result[f"test_{scoring}"], f"['test_{scoring}']")
                  for name, result in results.items()}
    fold_scores = {}
    for name, (value, key) in values.items():
        try:
            array = np.asarray(value, dtype=float)
        except (TypeError, ValueError):
            fail("results", "real fold scores", value, error=TypeError,
                 shown=f"results[{name!r}]{key} = {value!r}")
        if array.ndim != 1:
            fail("results", "one 1-d array of fold scores per system", value,
                 shown=f"results[{name!r}]{key} of shape {array.shape}")
        fold_scores[name] = array
    lengths = {name: array.shape[0] for name, array in fold_scores.items()}
    if len(set(lengths.values())) > 1:
        fail("results", "fold scores of one length for every system (one score per split, "
             "on the same splits)", lengths, shown=f"lengths {lengths}")
    if next(iter(lengths.values())) < 2:
        fail("results", "at least two fold scores per system (the t-test needs a spread)",
             lengths, shown=f"lengths {lengths}")
    return fold_scores, scoring


def _fold_test_fraction(cv, test_fraction, n_splits):
    """``(rho, n_repeats, where rho comes from)`` for `n_splits` fold scores.

    ``rho`` is `test_fraction` when given, else the test fraction of `cv`
    (as `rank_cv_results` reads a search's splitter), else ``1 / n_splits``:
    one k-fold partition.  The repeats come from `cv` (a repeated k-fold
    splitter, or splits that test every item equally often), else 1.
    """
    n_repeats, shown = 1, None
    if cv is not None:
        if isinstance(cv, bool) or isinstance(cv, str):
            fail("cv", "None, an int, a cross-validation splitter or a list of (train, test) "
                 "splits", cv, error=TypeError)
        if isinstance(cv, numbers.Integral):
            made, shown = int(cv), f"cv={int(cv)}"
        elif hasattr(cv, "split"):
            try:
                made = int(cv.get_n_splits())
            except (TypeError, ValueError, AttributeError):
                made = None                    # needs the data (LeaveOneOut, groups)
            repeats = getattr(cv, "n_repeats", 1)
            if isinstance(repeats, numbers.Integral) and repeats > 1 and not n_splits % repeats:
                n_repeats = int(repeats)
            shown = f"cv={type(cv).__name__}" + (f", {n_repeats} repeats" if n_repeats > 1
                                                 else "")
        elif hasattr(cv, "__iter__"):
            cv = list(cv)
            made, shown = len(cv), f"the {len(cv)} splits passed as cv"
            n_repeats = _splits_repeats(cv, n_splits)
        else:
            fail("cv", "None, an int, a cross-validation splitter or a list of (train, test) "
                 "splits", cv, error=TypeError)
        if made is not None and made != n_splits:
            fail("cv", f"the splitter that gave the fold scores ({n_splits} per system)", cv,
                 shown=f"{cv!r}, which makes {made} splits" if not isinstance(cv, list)
                 else f"a list of {made} splits")
    if test_fraction is not None:
        return check_test_fraction(test_fraction), n_repeats, "passed as test_fraction"
    if cv is not None:
        return check_test_fraction(splitter_test_fraction(cv, n_splits)), n_repeats, \
            f"from {shown}"
    return 1.0 / n_splits, 1, (f"1/{n_splits}: one {n_splits}-fold partition; pass "
                               "test_fraction= for repeated cross-validation")


def _splits_repeats(splits, n_splits):
    """How many times splits test each item, where they test all equally often (else 1)."""
    try:
        tests = [np.asarray(test, dtype=np.intp).reshape(-1) for _, test in splits]
        seen = np.bincount(np.concatenate(tests))
    except (TypeError, ValueError):
        return 1
    tested = seen[seen > 0]
    if tested.size and tested.min() == tested.max() and not n_splits % int(tested[0]):
        return int(tested[0])
    return 1


# ---------------------------------------------------------------------------
# The report
# ---------------------------------------------------------------------------


_NAN_FOLDS = ("{metric} is NaN on some folds of {undefined!r} (a failed fit, which "
              "cross_validate scores NaN by default, or a score undefined on the fold); the "
              "t-tests and summary rows of those systems are NaN, and the report has no ranking.")


def _fold_scores_report(fold_scores, scoring, *, test_fraction, n_repeats, note, rope,
                        confidence, n_draws, random_state):
    """Summary, per-fold table, t-tests and ranking from fold scores alone.

    `fold_scores` maps each system to its float array of fold scores (one
    length n >= 2, checked).  The ranking is `rank_cv_results`' multivariate
    Student-t over the systems; each summary row is its one-system marginal:
    location the mean fold score, squared scale ``(1/n + rho/(1 - rho)) s^2``,
    n - 1 degrees of freedom (the posterior the t-test gives a difference).
    """
    import pandas as pd

    names = list(fold_scores)
    matrix = np.column_stack([fold_scores[name] for name in names])
    n_splits = matrix.shape[0]
    ttest = _ttest_table(fold_scores, scoring, test_fraction=test_fraction, rope=rope,
                         runs=n_repeats, undefined_message=_NAN_FOLDS)
    summary = pd.DataFrame(np.nan, index=pd.Index(names, name="estimator"),
                           columns=list(SUMMARY_COLUMNS))
    finite = np.isfinite(matrix).all(axis=0)
    ranking = None
    if finite.any():
        # The marginals of the systems with finite scores do not depend on the others.
        kept = [name for name, ok in zip(names, finite) if ok]
        ranked = rank_fold_scores(matrix[:, finite], kept, scoring=scoring, rope=rope,
                                  test_fraction=test_fraction, n_draws=n_draws,
                                  random_state=random_state)
        bounds = ranked.interval(confidence)
        summary.loc[kept, "point"] = ranked.mean.to_numpy()
        summary.loc[kept, "mean"] = ranked.mean.to_numpy()
        summary.loc[kept, "low"] = bounds["low"].to_numpy()
        summary.loc[kept, "high"] = bounds["high"].to_numpy()
        summary.loc[kept, "mc_error"] = 0.0
        if finite.all():
            ranking = ranked
    per_repeat = n_splits // n_repeats
    per_fold = pd.DataFrame(
        [{"estimator": name, "repeat": k // per_repeat, "fold": k % per_repeat,
          **dict.fromkeys(COUNT_COLUMNS, np.nan), "score": float(matrix[k, i])}
         for i, name in enumerate(names) for k in range(n_splits)])
    empty = pd.DataFrame(np.nan, index=pd.Index(names, name="first"),
                         columns=pd.Index(names, name="second"))
    pairs = pd.DataFrame(columns=["first", "second"] + list(_PAIR_COLUMNS))
    return with_ranking(ComparisonReport(
        summary=summary.astype(float), pairwise=empty, pairwise_metric=empty.copy(),
        ttest=ttest, per_fold=per_fold, metric=scoring, confidence=confidence,
        rope=float(rope), n_repeats=n_repeats, average="binary", labels=None,
        per_label=pd.DataFrame(), pairs=pairs, n_draws=n_draws, note=note), ranking)
