"""The proxy section of the coverage benchmark: a few gold labels and a second
labeller on every item.

Each test set draws ``L`` labelled items and ``r L`` unlabelled ones (``r`` 10
or 100, so ``(r + 1) L`` items) from a population; the items are independent,
so the first ``L`` are a simple random sample of the test set and carry the
gold label, the others a missing value.  Every item carries the proxy's
label: the gold label with probability ``agreement`` (0.7, 0.8, 0.9, 0.95 or
0.98), else another label at random, independently of the systems' errors.

* binary items (prevalence 0.3): the system finds a positive with probability
  0.8 and rejects a negative with 0.9; accuracy (0.87), recall (0.8),
  precision (0.24 / 0.31) and F1 (0.48 / 0.61);
* five balanced classes, on items of their own: the system is right with
  probability 0.8, else another label at random; macro F1 (0.8: each class's
  precision and recall are 0.8);
* paired systems on the binary items, each with errors of its own given the
  gold label: a second system equal to the first in the population (the
  paired null of accuracy and of F1: the share of test sets where
  P(first better) > 0.95), and a third that finds a positive with 0.7 (the
  first's accuracy is 0.03 higher, its F1 0.48 / 0.61 - 0.42 / 0.58): the
  coverage of the differences' intervals.

Methods, for every quantity: the library (``proxy=``), the posterior of the
labelled items alone (a reference: ``labelled_only``, and
`compare_paired_metric` of the labelled items for the differences), and,
when ``ppi_py`` is installed, prediction-powered inference for accuracy and
the paired accuracy difference (``ppi_mean_ci``, power-tuned: Y the gold
correctness on the labelled items, Yhat the proxy's reading of it there and
on the unlabelled ones).  Recall and the other ratios have no
prediction-powered mean in ``ppi_py``: recall is a mean over the true
positives, which are unknown on the unlabelled items, so it needs a ratio
estimator (a delta method over two means) that the package does not offer.

Judged: the library's 95% interval covers at least 0.92 in every cell
(within two Monte Carlo standard errors, 0.022 at 400 test sets); paired
nulls exceed 0.95 in 2% to 7% of test sets (two standard errors allowed);
at agreement 0.95 with ten times as many unlabelled items the interval is
at most 0.65 times as wide as the labelled-only one; where ``ppi_py``
applies and both intervals cover 0.92, at most 1.10 times as wide as its
interval.  Every cell runs the full test sets: the 30 cells took 1027 s on
one core (a test set about 0.15 s at 101 000 items, 0.08 s at 11 000 or
fewer), so no cell needs fewer.
"""

from __future__ import annotations

import warnings

import numpy as np

from skprobeval import compare_paired_metric, metric_posterior

__all__ = ["proxy_cells", "run_proxy", "verdict_rows"]

PREVALENCE, RECALL, SPECIFICITY, WEAKER_RECALL = 0.3, 0.8, 0.9, 0.7
N_CLASSES, RIGHT = 5, 0.8
BINARY = ("accuracy", "recall", "precision", "f1")
LABELLED_ONLY = "labelled items alone"
LEANING = "cell prior leaning 0.6 to the proxy's agreeing with the gold label"
PPI = "prediction-powered inference (ppi_py)"
AGREEMENTS = (0.7, 0.8, 0.9, 0.95, 0.98)
WIDTH_AGREEMENT, WIDTH_RATIO, WIDTH_LIMIT, PPI_LIMIT = 0.95, 10, 0.65, 1.10


def _binary_truth(recall):
    tp, fn = PREVALENCE * recall, PREVALENCE * (1 - recall)
    fp, tn = (1 - PREVALENCE) * (1 - SPECIFICITY), (1 - PREVALENCE) * SPECIFICITY
    return {"accuracy": tp + tn, "recall": recall, "precision": tp / (tp + fp),
            "f1": 2 * tp / (2 * tp + fp + fn)}


TRUTH = {**_binary_truth(RECALL), "macro F1": RIGHT}
DIFFERENCE = {f"{q} difference": _binary_truth(RECALL)[q] - _binary_truth(WEAKER_RECALL)[q]
              for q in ("accuracy", "f1")}


def proxy_cells(quick):
    """``("proxy", L, r, agreement)``: labelled items, unlabelled per labelled, agreement."""
    if quick:
        return [("proxy", 50, 10, 0.9), ("proxy", 200, 100, 0.95)]
    return [("proxy", labelled, ratio, agreement) for labelled in (50, 200, 1000)
            for ratio in (10, 100) for agreement in AGREEMENTS]


def _name(cell):
    _, labelled, ratio, agreement = cell
    return f"agreement {agreement:g}, {labelled} labelled, {ratio}x unlabelled"


def _binary_system(rng, y, recall):
    n = y.shape[0]
    return np.where(y == 1, rng.random(n) < recall, rng.random(n) > SPECIFICITY).astype(int)


def _other_label(rng, y, right, k):
    """`y` where `right`, else another of `k` labels at random."""
    return np.where(right, y, (y + rng.integers(1, k, y.shape[0])) % k)


def _test_set(rng, labelled, n, agreement):
    y = (rng.random(n) < PREVALENCE).astype(int)
    systems = [_binary_system(rng, y, r) for r in (RECALL, RECALL, WEAKER_RECALL)]
    proxy = _other_label(rng, y, rng.random(n) < agreement, 2)
    k = rng.integers(0, N_CLASSES, n)
    pred_k = _other_label(rng, k, rng.random(n) < RIGHT, N_CLASSES)
    proxy_k = _other_label(rng, k, rng.random(n) < agreement, N_CLASSES)
    gold, gold_k = y.astype(float), k.astype(float)
    gold[labelled:] = np.nan
    gold_k[labelled:] = np.nan
    return y, gold, systems, proxy, k, gold_k, pred_k, proxy_k


def _leaning(gold, y_pred, proxy, metric, n_draws, rng, lean=0.6):
    """The posterior with one binary system's cell prior leaning to the proxy's agreeing
    with the gold label, `lean` of each cell's mass, in place of the even split."""
    from skprobeval._posteriors import _proxy

    former, _proxy.PROXY_LEAN = _proxy.PROXY_LEAN, lean
    try:
        return metric_posterior(gold, y_pred, metric=metric, proxy=proxy, n_draws=n_draws,
                                random_state=rng)
    finally:
        _proxy.PROXY_LEAN = former


def _ppi():
    try:
        from ppi_py import ppi_mean_ci
    except ImportError:
        return None
    return ppi_mean_ci


def _ppi_interval(ppi_mean_ci, y, yhat, labelled, level):
    low, high = ppi_mean_ci(y[:labelled], yhat[:labelled], yhat[labelled:],
                            alpha=1 - level)
    return float(np.ravel(low)[0]), float(np.ravel(high)[0])


def run_proxy(cell, reps, n_draws, *, seed, coverage_row, levels, library):
    """Coverage rows of one cell (library, labelled-only, ppi) and its paired nulls."""
    _, labelled, ratio, agreement = cell
    name = _name(cell)
    n = labelled * (1 + ratio)
    rng = seed("proxy", labelled, ratio, round(agreement * 100))
    ppi_mean_ci = _ppi()
    quantities = (*BINARY, "macro F1", *DIFFERENCE)
    methods = (library, LABELLED_ONLY, PPI, LEANING)
    bounds = {(q, m): {level: (np.full(reps, np.nan), np.full(reps, np.nan))
                       for level in levels} for q in quantities for m in methods}
    nulls = {(q, m): np.full(reps, np.nan) for q in ("accuracy", "f1")
             for m in (library, LABELLED_ONLY)}
    cut = slice(0, labelled)
    for r in range(reps):
        y, gold, (a, b, c), proxy, k, gold_k, pred_k, proxy_k = _test_set(
            rng, labelled, n, agreement)

        def put(q, method, interval, r=r):
            for level in levels:
                low, high = interval(level)
                bounds[(q, method)][level][0][r] = low
                bounds[(q, method)][level][1][r] = high

        with warnings.catch_warnings():
            # Strata without a gold label (small L, five classes): the prior's guess.
            warnings.simplefilter("ignore")
            for q in BINARY:
                posterior = metric_posterior(gold, a, metric=q, proxy=proxy, n_draws=n_draws,
                                             random_state=rng)
                put(q, library, posterior.interval)
                put(q, LABELLED_ONLY, posterior.labelled_only.interval)
                # The candidate draws from a stream of its own: the library's rows stay
                # those of a run without it.
                put(q, LEANING, _leaning(gold, a, proxy, q, n_draws,
                                         np.random.default_rng([r, len(q)])).interval)
            posterior = metric_posterior(gold_k, pred_k, metric="f1", average="macro",
                                         proxy=proxy_k, n_draws=n_draws, random_state=rng)
            put("macro F1", library, posterior.interval)
            put("macro F1", LABELLED_ONLY, posterior.labelled_only.interval)
            for q in ("accuracy", "f1"):
                null = compare_paired_metric(gold, a, b, metric=q, proxy=proxy,
                                             n_draws=n_draws, random_state=rng)
                alone = compare_paired_metric(y[cut], a[cut], b[cut], metric=q,
                                              n_draws=n_draws, random_state=rng)
                nulls[(q, library)][r] = null.prob_first_better
                nulls[(q, LABELLED_ONLY)][r] = alone.prob_first_better
                differ = compare_paired_metric(gold, a, c, metric=q, proxy=proxy,
                                               n_draws=n_draws, random_state=rng)
                alone = compare_paired_metric(y[cut], a[cut], c[cut], metric=q,
                                              n_draws=n_draws, random_state=rng)
                put(f"{q} difference", library, differ.difference.interval)
                put(f"{q} difference", LABELLED_ONLY, alone.difference.interval)
        if ppi_mean_ci is not None:
            # Y: the gold correctness (labelled items); Yhat: the proxy's reading of it.
            right, seen = (y == a).astype(float), (proxy == a).astype(float)
            put("accuracy", PPI,
                lambda level: _ppi_interval(ppi_mean_ci, right, seen, labelled, level))
            diff = right - (y == c)
            seen_diff = seen - (proxy == c)
            put("accuracy difference", PPI,
                lambda level: _ppi_interval(ppi_mean_ci, diff, seen_diff, labelled, level))
    truth = {**TRUTH, **DIFFERENCE}
    extra = {"agreement": agreement, "labelled": labelled, "unlabelled_ratio": ratio,
             "items": n}
    rows = []
    for q in quantities:
        own = {}
        for method in methods:
            if method == PPI and (ppi_mean_ci is None or
                                  q not in ("accuracy", "accuracy difference")):
                continue
            if method == LEANING and q not in BINARY:
                continue
            kind = ("library" if method == library else
                    "candidate" if method == LEANING else "reference")
            own[method] = coverage_row("proxy", name, q, method, kind, truth[q],
                                       bounds[(q, method)])
            own[method].update(extra)
        row = own[library]
        for method in (library, LEANING):
            if method in own:
                own[method]["width_vs_labelled_only"] = (own[method]["width_95"]
                                                         / own[LABELLED_ONLY]["width_95"])
        if PPI in own:
            row["width_vs_ppi"] = row["width_95"] / own[PPI]["width_95"]
        rows.extend(own.values())
    for (q, method), probability in nulls.items():
        rows.append({"section": "proxy", "cell": name, "quantity": f"paired null, {q}",
                     "method": method,
                     "kind": "library" if method == library else "information",
                     "share_above_95": float(np.mean(probability > 0.95)),
                     "share_below_05": float(np.mean(probability < 0.05)),
                     "nan_share": float(np.mean(~np.isfinite(probability))),
                     "reps": reps, **extra})
    return rows


def verdict_rows(rows):
    """(checked, failures) of the section's promises."""
    checked, failures = 0, []
    ppi = {(row["cell"], row["quantity"]): row for row in rows if row["method"] == PPI}
    for row in rows:
        if row["kind"] != "library":
            continue
        checked += 1
        where = f"proxy {row['cell']} {row['quantity']}"
        if str(row["quantity"]).startswith("paired null"):
            share = row["share_above_95"]
            se = np.sqrt(0.05 * 0.95 / row["reps"])
            if not 0.02 - 2 * se <= share <= 0.07 + 2 * se:
                failures.append(f"{where}: share of P > 0.95 = {share:.3f} outside "
                                "[0.02, 0.07]")
            continue
        floor = 0.92 - 2 * row["se_95"]
        if row["coverage_95"] < floor:
            failures.append(f"{where}: coverage {row['coverage_95']:.3f} < 0.92")
        if row["agreement"] == WIDTH_AGREEMENT and row["unlabelled_ratio"] == WIDTH_RATIO and \
                row["width_vs_labelled_only"] > WIDTH_LIMIT:
            failures.append(f"{where}: width {row['width_vs_labelled_only']:.3f} x the "
                            f"labelled items alone > {WIDTH_LIMIT}")
        # Against prediction-powered inference where both cover: an interval that
        # misses the truth is no width to match.
        other = ppi.get((row["cell"], row["quantity"]))
        if other is not None and row["coverage_95"] >= floor and \
                other["coverage_95"] >= 0.92 - 2 * other["se_95"] and \
                row["width_vs_ppi"] > PPI_LIMIT:
            failures.append(f"{where}: width {row['width_vs_ppi']:.3f} x prediction-powered "
                            f"inference's > {PPI_LIMIT}")
    return checked, failures
