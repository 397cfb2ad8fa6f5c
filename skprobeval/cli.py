"""The ``skprobeval`` command line.

`main` parses the sub-commands ``demo`` (cross-validate three scikit-learn
classifiers on a bundled dataset and print the comparison report, with plots
as PNG files and the report as one HTML page given ``--output-dir``),
``compare`` (posteriors and pairwise
comparisons of the systems' columns of CSV or Parquet files, globs and
Parquet directories, streamed through Dask with the ``dask`` extra; any
format printed or written to ``--output``), ``counts`` (the same report from
a table of confusion counts) and ``random-ap N R`` (the exact random-ranking
AP); bad files, columns or values print one line on stderr and exit with
status 2.  The options are documented
in the user guide, ``docs/user_guide/reports.rst``.
"""

from __future__ import annotations

import argparse
import json
import sys
import warnings

from ._cli_files import (
    _add_format,
    _check_output,
    _emit,
    _output_format,
    _parquet_error,
    _paths,
    _read_csv,
    _read_parquet,
    _UsageError,
    _write_output,
)
from ._cli_labels import add_plan_labels, plan_labels_command
from ._cli_plan import add_plan, plan_command

__all__ = ["main"]

_DATASETS = ("breast_cancer", "wine", "iris", "digits")
_AVERAGE_CHOICES = ("auto", "binary", "micro", "macro", "weighted", "powers", "none")
_TABLES = ("summary", "per_label", "pairwise", "pairwise_metric", "pairs", "ttest", "per_fold",
           "by_group", "group_gaps")


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        raise _UsageError(message)


def _build_parser():
    from ._core import N_DRAWS

    parser = _Parser(prog="skprobeval",
                     description="Honest classifier evaluation from confusion counts.")
    parser.add_argument("--version", action="store_true", help="print the version and exit")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    demo = commands.add_parser("demo", help="compare classifiers on a bundled dataset")
    demo.add_argument("--dataset", default="breast_cancer", choices=_DATASETS,
                      help="scikit-learn bundled dataset (default: breast_cancer); multiclass "
                           "datasets compare every class")
    demo.add_argument("--average", default="auto", choices=_AVERAGE_CHOICES,
                      help="how labels are combined (default: binary for two classes, macro "
                           "otherwise)")
    demo.add_argument("--output-dir", default=None,
                      help="write PNG plots and report.html, the report as one "
                           "self-contained page, here (the figures need matplotlib)")
    demo.add_argument("--cv", type=int, default=5, help="number of folds (default: 5)")
    demo.add_argument("--random-state", type=int, default=0, help="seed (default: 0)")

    compare = commands.add_parser("compare",
                                  help="compare systems' predictions in CSV or Parquet files")
    compare.add_argument("file", nargs="+",
                         help="CSV or Parquet file(s) with a truth column and one column per "
                              "system; globs ('logs/*.parquet') and Parquet directories too")
    compare.add_argument("--truth", required=True, help="name of the truth column")
    compare.add_argument("--systems", nargs="+", default=None,
                         help="system columns (default: every other column)")
    compare.add_argument("--group", nargs="+", default=None, metavar="COLUMN",
                         help="group column(s): each system's metric per group and the gap "
                              "between the groups (binary targets; several columns: their "
                              "intersections)")
    compare.add_argument("--cluster", default=None, metavar="COLUMN",
                         help="cluster column (a patient, a document): items of one cluster "
                              "share their weight in every posterior draw (the Bayesian "
                              "bootstrap of the clusters); not a system")
    compare.add_argument("--proxy", default=None, metavar="COLUMN",
                         help="a second labeller's column (a stronger model, an LLM judge, a "
                              "crowd label) with a label on every row: rows whose truth cell "
                              "is empty are then unlabelled, and every posterior uses them "
                              "through it; not a system")
    compare.add_argument("--metric", default="f1", help="metric name (default: f1)")
    compare.add_argument("--average", default="auto", choices=_AVERAGE_CHOICES,
                         help="how labels are combined, as scikit-learn's f1_score(average=) "
                              "(default: binary for two labels; otherwise micro for accuracy "
                              "and error, macro for the rest)")
    compare.add_argument("--labels", default=None,
                         help="comma-separated labels to average over (default: all)")
    compare.add_argument("--beta", type=float, default=1.0,
                         help="beta of --metric fbeta (default: 1)")
    compare.add_argument("--prior", default="0.5",
                         help="Dirichlet prior: a number > 0, jeffreys or uniform (default: 0.5)")
    compare.add_argument("--pos-label", default="1",
                         help="positive label of --average binary (default: 1)")
    compare.add_argument("--rope", type=float, default=0.0,
                         help="region of practical equivalence (default: 0)")
    compare.add_argument("--confidence", type=float, default=0.95,
                         help="credible interval level (default: 0.95)")
    compare.add_argument("--n-draws", "--n-samples", dest="n_draws", type=int, default=N_DRAWS,
                         help=f"posterior draws of sampled figures (default: {N_DRAWS}; "
                              "--n-samples is the former name)")
    compare.add_argument("--random-state", type=int, default=0, help="seed (default: 0)")
    compare.add_argument("--plan", action="store_true",
                         help="where the leader is not decided, estimate how many more test "
                              "items would likely decide it (simulated futures: seconds for "
                              "binary targets and accuracy, longer for label averages)")
    _add_format(compare, ("text", "markdown", "html", "csv", "json"))
    compare.add_argument("--table", default=None, choices=_TABLES,
                         help="the table --format csv prints (default: summary; by_group "
                              "and group_gaps with --group)")
    compare.add_argument("--output", default=None, metavar="FILE",
                         help="write the report to FILE instead of printing it (with "
                              "--format html: one self-contained page with its figures)")

    counts = commands.add_parser(
        "counts", help="compare and rank systems from their confusion counts (a leaderboard, "
                       "a paper's table; several rows of a system are its runs)")
    counts.add_argument("file", help="CSV or Parquet file with columns tp, fp, fn, tn and one "
                                     "row per system (or per run of a system)")
    counts.add_argument("--system", default=None, metavar="COLUMN",
                        help="the column naming the systems (default: 'system' if present, "
                             "else the first column that is not a count)")
    counts.add_argument("--metric", default="accuracy", help="metric name (default: accuracy)")
    counts.add_argument("--beta", type=float, default=1.0,
                        help="F-beta's beta, for --metric fbeta (default: 1)")
    counts.add_argument("--prior", default="0.5",
                        help="Dirichlet concentration: a number, jeffreys or uniform "
                             "(default: 0.5)")
    counts.add_argument("--rope", type=float, default=0.0,
                        help="region of practical equivalence (default: 0)")
    counts.add_argument("--pooling", default="partial", choices=("partial", "none"),
                        help="partial: rank the systems from their partially pooled "
                        "posterior (near-equal systems are drawn toward each other); none: "
                        "each system's own posterior (default: partial)")
    counts.add_argument("--confidence", type=float, default=0.95,
                        help="level of the credible intervals (default: 0.95)")
    counts.add_argument("--n-draws", dest="n_draws", type=int, default=N_DRAWS,
                        help=f"posterior draws (default: {N_DRAWS})")
    counts.add_argument("--random-state", type=int, default=0, help="seed (default: 0)")
    _add_format(counts, ("text", "markdown", "html", "csv", "json"))
    counts.add_argument("--table", default=None, choices=("summary", "pairwise_metric", "pairs",
                                                          "runs"),
                        help="the table --format csv prints (default: summary)")
    counts.add_argument("--output", default=None, metavar="FILE",
                        help="write the report to FILE instead of printing it (with "
                             "--format html: one self-contained page with its figures)")

    add_plan(commands, _AVERAGE_CHOICES, N_DRAWS)
    add_plan_labels(commands, _AVERAGE_CHOICES)

    random_ap = commands.add_parser("random-ap",
                                    help="exact expected AP of a random ranking")
    random_ap.add_argument("n_items", type=int, help="number of ranked items N")
    random_ap.add_argument("n_relevant", type=int, help="number of relevant items R")
    return parser


# ---------------------------------------------------------------------------
# demo
# ---------------------------------------------------------------------------


def _estimators(random_state):
    from sklearn.ensemble import RandomForestClassifier
    from sklearn.linear_model import LogisticRegression
    from sklearn.naive_bayes import GaussianNB
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    return {
        "logistic_regression": make_pipeline(StandardScaler(), LogisticRegression(max_iter=2000)),
        "random_forest": RandomForestClassifier(n_estimators=100, random_state=random_state,
                                                n_jobs=1),
        "gaussian_nb": GaussianNB(),
    }


def _average(choice, n_labels, metric="f1"):
    """The average a CLI choice stands for ("auto": binary for two labels; otherwise
    micro for accuracy and error, the share of items right as scikit-learn's
    accuracy_score, and macro for every other metric)."""
    if choice == "auto":
        if n_labels <= 2:
            return "binary"
        from ._metrics import get_metric

        return "micro" if get_metric(metric).name in ("accuracy", "error") else "macro"
    return None if choice == "none" else choice


def _demo(args, out):
    import numpy as np
    from sklearn import datasets

    from ._workflow import compare_estimators

    if args.cv < 2:
        raise _UsageError(f"argument --cv: must be at least 2; got {args.cv}")
    X, y = getattr(datasets, f"load_{args.dataset}")(return_X_y=True)
    classes = np.unique(y)
    average = _average(args.average, classes.shape[0])
    positive = f", positive label {classes[-1]}" if average == "binary" else ""
    print(f"dataset: {args.dataset}; {X.shape[0]} items, {X.shape[1]} features, "
          f"{classes.shape[0]} classes; {args.cv}-fold stratified cross-validation{positive}",
          file=out)
    report = compare_estimators(_estimators(args.random_state), X, y, cv=args.cv, metric="f1",
                                average=average, pos_label=classes[-1].item(),
                                random_state=args.random_state)
    # The verdict says how many more items would decide the leader where that is quick.
    report.verdict(plan="auto", random_state=args.random_state)
    print(report, file=out)
    if average == "binary":
        _demo_probabilities(X, y, classes[-1].item(), args, out)
    if args.output_dir:
        _write_plots(report, y, args.cv, args.output_dir, out)
        _write_report_page(report, args.output_dir, out)
    return 0


def _write_report_page(report, directory, out):
    """The report as one self-contained page, ``report.html`` in `directory`."""
    import os

    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, "report.html")
    _write_output(report.to_html(), path, "--output-dir")
    print(f"wrote {path}", file=out)


def _demo_probabilities(X, y, positive, args, out):
    """The demo's calibration table and a threshold chosen under a precision target,
    from out-of-fold probabilities (the report's folds)."""
    import numpy as np
    import pandas as pd
    from sklearn.model_selection import StratifiedKFold, cross_val_predict

    from ._posteriors import brier_score_posterior, calibration_error_posterior
    from ._workflow import choose_threshold

    folds = StratifiedKFold(args.cv, shuffle=True, random_state=args.random_state)
    rows, scores = {}, {}
    for name, estimator in _estimators(args.random_state).items():
        proba = cross_val_predict(estimator, X, y, cv=folds, method="predict_proba")
        score = proba[:, list(np.unique(y)).index(positive)]
        scores[name] = score
        brier = brier_score_posterior(y, score, pos_label=positive,
                                      random_state=args.random_state)
        ece = calibration_error_posterior(y, score, pos_label=positive,
                                          random_state=args.random_state)
        rows[name] = {"brier": brier.point, "brier_low": brier.interval(0.95).low,
                      "brier_high": brier.interval(0.95).high, "ece": ece.point,
                      "ece_low": ece.interval(0.95).low, "ece_high": ece.interval(0.95).high,
                      "ece_if_calibrated": ece.expected_if_calibrated}
    table = pd.DataFrame.from_dict(rows, orient="index")
    table.index.name = "estimator"
    with pd.option_context("display.width", 160, "display.float_format", "{:.4f}".format):
        print("\nCalibration of the out-of-fold probabilities (Brier score and 10-bin ECE, "
              "95% intervals; a calibrated model's ECE sits near ece_if_calibrated):",
              file=out)
        print(table.to_string(), file=out)
    best = min(rows, key=lambda name: rows[name]["brier"])
    target = 0.98
    choice = choose_threshold(y, scores[best], constraint=("precision", target),
                              maximize="recall", pos_label=positive,
                              random_state=args.random_state)
    print(f"\nA threshold for {best} (lowest Brier score) with precision >= {target} "
          f"on the population with probability 0.95:", file=out)
    if not choice.feasible:
        print("  none of its thresholds meets that with enough probability", file=out)
        return
    recall = choice.objective_posterior
    low, high = recall.interval(0.95)
    print(f"  threshold {choice.threshold:.4f}: P(precision >= {target}) = "
          f"{float(choice.constraint_posterior.sf(target)):.4f}, recall {recall.mean():.4f} "
          f"[{low:.4f}, {high:.4f}]", file=out)
    print("  (the first threshold whose sample precision reaches the target missed it on the "
          "population in 25-50% of simulated data sets: see the coverage benchmark)", file=out)


def _write_plots(report, y, n_folds, directory, out):
    import os

    import numpy as np

    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is not installed: no plots written "
              "(pip install 'skprobeval[plot]')", file=out)
        return
    from .plotting import plot_posteriors, plot_random_ap_baseline

    os.makedirs(directory, exist_ok=True)
    posteriors = report.posteriors
    fold_size = max(2, int(round(y.shape[0] / n_folds)))
    classes, counts = np.unique(y, return_counts=True)
    shares = sorted(set(np.round(counts / y.shape[0], 2).tolist()))
    prevalences = tuple(shares if len(shares) <= 4 else
                        [shares[0], shares[len(shares) // 3], shares[2 * len(shares) // 3],
                         shares[-1]])
    n_items = np.unique(np.geomspace(max(4, fold_size // 10), fold_size * 10, 60).astype(int))
    drawings = [
        ("posteriors.png", lambda ax: plot_posteriors(posteriors, ax=ax,
                                                      xlabel=report.metric_label)),
        ("pairwise.png", lambda ax: report.plot(ax=ax, table="pairwise_metric")),
        ("random_ap_baseline.png", lambda ax: plot_random_ap_baseline(
            n_items, prevalences=prevalences, mark=fold_size, ax=ax)),
    ]
    if report.average is None:
        drawings = drawings[2:]
    for filename, draw in drawings:
        figure, ax = plt.subplots(figsize=(6.4, 4.8))
        draw(ax)
        path = os.path.join(directory, filename)
        figure.savefig(path, dpi=100, bbox_inches="tight")
        plt.close(figure)
        print(f"wrote {path}", file=out)


# ---------------------------------------------------------------------------
# compare
# ---------------------------------------------------------------------------


def _read_table(args, *, need_gold=True):
    """The truth, each system's predictions, the item weights (None: one per row), the
    groups of --group (None without) and the clusters of --cluster (None without).

    Parquet read through Dask is reduced, in one pass, to its distinct rows of
    labels with the number of items of each (the counts are the same).
    """
    import numpy as np
    import pandas as pd

    from ._counting import resolve_columns

    paths, parquet = _paths(args.file)
    frame = _read_parquet(paths) if parquet else _read_csv(paths)
    shown = paths[0] if len(paths) == 1 else f"{len(paths)} files"
    columns = list(frame.columns)
    if args.truth not in columns:
        raise _UsageError(f"truth column {args.truth!r} not in {columns!r}")
    groups = args.group or []
    missing = [c for c in groups if c not in columns]
    if missing:
        raise _UsageError(f"group column(s) {missing!r} not in {columns!r}")
    if len(set(groups)) != len(groups) or args.truth in groups:
        raise _UsageError(f"--group must name distinct columns other than the truth; "
                          f"got {groups!r}")
    proxy = [] if getattr(args, "proxy", None) is None else [args.proxy]
    if proxy and (proxy[0] not in columns or proxy[0] == args.truth
                  or proxy[0] in groups or proxy[0] == args.cluster
                  or proxy[0] in (args.systems or [])):
        raise _UsageError(f"--proxy must name a column other than the truth, the groups, the "
                          f"cluster and the systems; got {args.proxy!r} (columns: "
                          f"{columns!r})")
    cluster = [] if args.cluster is None else [args.cluster]
    if cluster and cluster[0] not in columns:
        raise _UsageError(f"cluster column {args.cluster!r} not in {columns!r}")
    if cluster and (args.cluster == args.truth or args.cluster in groups
                    or args.cluster in (args.systems or [])):
        raise _UsageError(f"--cluster must name a column other than the truth, the groups and "
                          f"the systems; got {args.cluster!r}")
    systems = args.systems or [c for c in columns
                                if c != args.truth and c not in groups and c not in cluster
                                and c not in proxy]
    missing = [c for c in systems if c not in columns]
    if missing:
        raise _UsageError(f"system column(s) {missing!r} not in {columns!r}")
    if not systems:
        raise _UsageError("no system columns to compare")
    if len(set(systems)) != len(systems) or args.truth in systems or set(systems) & set(groups):
        raise _UsageError(f"--systems must name distinct columns other than the truth and "
                          f"the groups; got {systems!r}")
    names = [args.truth, *systems, *groups, *cluster, *proxy]
    if proxy and hasattr(frame, "compute"):
        # Unlabelled rows (an empty truth cell) must stay rows: read the files whole.
        frame = frame[names].compute()
    with warnings.catch_warnings():
        # The Parquet reader's own deprecation notices are not the user's business.
        warnings.filterwarnings("ignore", category=DeprecationWarning, module="dask")
        warnings.filterwarnings("ignore", category=FutureWarning, module="dask")
        try:
            arrays, weight, _ = resolve_columns(frame, names, names)
        except KeyError as error:
            raise _UsageError(f"the files do not all have the columns {names!r} "
                              f"(missing: {error})") from None
        except OSError as error:
            raise _UsageError(_parquet_error(paths, error)) from None
    if arrays[0].shape[0] == 0:
        raise _UsageError(f"{shown!r} has no rows")
    # With a proxy an empty truth cell is an unlabelled row; nowhere else is a cell empty.
    counts = [(i, name, int(np.count_nonzero(pd.isna(values))))
              for i, (name, values) in enumerate(zip(names, arrays)) if not (i == 0 and proxy)]
    bad = [(i, name, count) for i, name, count in counts if count]
    if bad:
        hint = ("; a truth column with unlabelled rows needs --proxy COLUMN (a second "
                "labeller's labels of every row)" if bad[0][0] == 0 else "")
        raise _UsageError(f"missing values in column(s) {[name for _, name, _ in bad]!r} ("
                          + ", ".join(f"{count} of {arrays[0].shape[0]} in {name!r}"
                                      for _, name, count in bad) + f"){hint}")
    if proxy and need_gold and not np.any(~pd.isna(arrays[0])):
        raise _UsageError(f"truth column {args.truth!r} has no label (--proxy needs gold "
                          "labels on some rows)")
    n_systems, n_groups = len(systems), len(groups)
    return (arrays[0], dict(zip(systems, arrays[1:1 + n_systems])), weight,
            dict(zip(groups, arrays[1 + n_systems:1 + n_systems + n_groups])) or None,
            arrays[1 + n_systems + n_groups] if cluster else None,
            arrays[-1] if proxy else None)


def _pos_label(text, truth, option="--pos-label"):
    """A label given on the command line, in the truth column's own type."""
    import numpy as np

    if truth.dtype.kind in "iu":
        try:
            return int(text)
        except ValueError:
            raise _UsageError(f"{option} {text!r} is not an integer label of the truth "
                              "column") from None
    if truth.dtype.kind == "f":
        try:
            return float(text)
        except ValueError:
            raise _UsageError(f"{option} {text!r} is not a number label of the truth "
                              "column") from None
    if truth.dtype.kind == "b":
        if text.lower() in ("1", "true"):
            return True
        if text.lower() in ("0", "false"):
            return False
        raise _UsageError(f"{option} {text!r} is not a label of the boolean truth column "
                          "(true/false)")
    values = sorted(set(np.asarray(truth).astype(str).tolist()))
    if text not in values:
        shown = ", ".join(values[:10]) + (" ..." if len(values) > 10 else "")
        raise _UsageError(f"{option} {text!r} is not among the truth labels ({shown})")
    return text


def _prior(text):
    if text.lower() in ("jeffreys", "uniform"):
        return text.lower()
    try:
        return float(text)
    except ValueError:
        raise _UsageError(f"--prior must be a number > 0, jeffreys or uniform; got {text!r}") \
            from None


def _labels(text, truth):
    """--labels as a list of labels in the truth column's own type."""
    if text is None:
        return None
    return [_pos_label(item.strip(), truth, option="--labels") for item in text.split(",")]


def _compare(args, out):
    import numpy as np
    import pandas as pd

    from ._core import check_rope
    from ._workflow import check_report_options, compare_predictions

    if args.table is not None and args.format != "csv":
        raise _UsageError("--table goes with --format csv (the other formats print every table)")
    if args.output is not None:
        _check_output(args.output)
    # The options first: a bad one must not wait for the data to be read.
    check_report_options(args.metric, args.beta, _prior(args.prior), args.confidence, args.n_draws)
    # The report's rope serves the share-right comparison too: [0, 1) whatever the metric.
    check_rope(args.rope)
    truth, predictions, weight, groups, clusters, proxy = _read_table(args)
    labelled = truth if proxy is None else truth[~pd.isna(truth)]
    # Hash-based distinct labels: O(n), no conversion of every label to a string.
    n_labels = len({label for values in (labelled, *predictions.values())
                    for label in pd.unique(np.asarray(values).ravel()).tolist()})
    average = _average(args.average, n_labels, args.metric)
    if groups is not None and average != "binary":
        raise _UsageError(f"--group needs binary targets (--average binary); got --average "
                          f"{average}")
    if args.table in ("by_group", "group_gaps") and groups is None:
        raise _UsageError(f"--table {args.table} goes with --group")
    if proxy is not None and clusters is not None:
        raise _UsageError("--proxy goes without --cluster")
    try:
        report = compare_predictions(
            truth, predictions, metric=args.metric, average=average,
            labels=_labels(args.labels, labelled), beta=args.beta, prior=_prior(args.prior),
            rope=args.rope, confidence=args.confidence,
            pos_label=(_pos_label(args.pos_label, labelled)
                       if average == "binary" and n_labels <= 2 else 1),
            sample_weight=weight, sensitive_features=groups, n_draws=args.n_draws,
            random_state=args.random_state, groups=clusters, proxy=proxy)
    except ValueError as error:
        if proxy is None or args.systems is not None or "cells" not in str(error):
            raise
        raise _UsageError(f"{error} (every column other than the truth, the groups, the "
                          "cluster and the proxy is read as a system: name the systems "
                          "with --systems)") from None
    if args.plan:
        report.verdict(plan=True, random_state=args.random_state)
    return _print_report(report, args, out)


def _print_report(report, args, out):
    """The report in the format asked (``--format``, ``--table`` for CSV), printed or
    written to ``--output``; exit status 0."""
    if args.format == "json":
        text = json.dumps(report.to_dict(), indent=2)
    elif args.format == "csv":
        text = report.to_csv(args.table or "summary").rstrip("\n")
    elif args.format == "markdown":
        text = report.to_markdown().rstrip("\n")
    elif args.format == "html":
        text = report.to_html().rstrip("\n")
    else:
        text = str(report)
    return _emit(text, args.output, out)


# ---------------------------------------------------------------------------
# counts
# ---------------------------------------------------------------------------


def _counts(args, out):
    import pandas as pd

    from ._core import COUNT_COLUMNS
    from ._workflow import compare_counts

    if args.table is not None and args.format != "csv":
        raise _UsageError("--table goes with --format csv (the other formats print every table)")
    if args.output is not None:
        _check_output(args.output)
    import os

    path = args.file
    if not os.path.exists(path):
        raise _UsageError(f"no such file: {path!r}")
    frame = (pd.read_parquet(path) if path.endswith((".parquet", ".pq"))
             else pd.read_csv(path))
    missing = [c for c in COUNT_COLUMNS if c not in frame.columns]
    if missing:
        raise _UsageError(f"{path!r} needs the count columns tp, fp, fn and tn; missing "
                          f"{missing} (columns: {list(frame.columns)})")
    others = [c for c in frame.columns if c not in COUNT_COLUMNS]
    system = args.system or ("system" if "system" in frame.columns else
                             others[0] if others else None)
    if system is None:
        raise _UsageError("the file has no column naming the systems (pass --system COLUMN)")
    if system not in frame.columns:
        raise _UsageError(f"--system {system!r} is not a column of {path!r} (columns: "
                          f"{list(frame.columns)})")
    frame = frame[[system, *COUNT_COLUMNS]].rename(columns={system: "system"})
    frame["system"] = frame["system"].astype(str)
    report = compare_counts(frame, metric=args.metric, beta=args.beta, prior=_prior(args.prior),
                            rope=args.rope, pooling=args.pooling,
                            confidence=args.confidence, n_draws=args.n_draws,
                            random_state=args.random_state)
    return _print_report(report, args, out)


# ---------------------------------------------------------------------------
# random-ap
# ---------------------------------------------------------------------------


def _random_ap(args, out):
    from ._metrics import random_average_precision

    result = random_average_precision(args.n_items, args.n_relevant)
    print(f"N = {args.n_items}, R = {args.n_relevant}", file=out)
    print(f"exact expected AP of a random ranking: {result.mean:.7g}", file=out)
    print(f"standard deviation:                    {result.std:.7g}", file=out)
    print(f"prevalence approximation R/N:          {result.prevalence:.7g}", file=out)
    return 0


def _plan(args, out):
    return plan_command(args, out, prior=_prior)


def _plan_labels(args, out):
    return plan_labels_command(args, out, read_table=_read_table, average=_average,
                               labels=_labels, pos_label=_pos_label, prior=_prior)


_COMMANDS = {"demo": _demo, "compare": _compare, "counts": _counts, "plan": _plan,
             "plan-labels": _plan_labels, "random-ap": _random_ap}


def main(argv=None):
    """Run the command line; return the exit status.

    Parameters
    ----------
    argv : list of str, default=None
        Arguments without the program name; ``sys.argv[1:]`` by default.

    Returns
    -------
    int
        0 on success, 2 on a usage or input error (one line on stderr).

    Examples
    --------
    >>> from skprobeval.cli import main
    >>> main(["random-ap", "5", "2"])
    N = 5, R = 2
    exact expected AP of a random ranking: 0.5925
    standard deviation:                    0.2104377
    prevalence approximation R/N:          0.4
    0
    """
    from ._version import __version__

    parser = _build_parser()
    try:
        args = parser.parse_args(argv)
        if args.version:
            print(f"skprobeval {__version__}")
            return 0
        if args.command is None:
            parser.print_help()
            return 0
        if hasattr(args, "format_choices"):
            args.format = _output_format(args)
        with warnings.catch_warnings():
            # The library's warnings as one line each, not as a source line of this file.
            warnings.showwarning = _show_warning
            return _COMMANDS[args.command](args, sys.stdout)
    except BrokenPipeError:
        # The reader (e.g. `| head`) closed the pipe: stop quietly, as Unix tools do.
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except _UsageError as error:
        print(f"skprobeval: error: {error}", file=sys.stderr)
        return 2
    except (ValueError, TypeError, OverflowError) as error:
        # Validation errors of the library: one line, no traceback, the option as
        # typed ("`n_draws` must be ..." is "--n-draws must be ...").
        message = str(error).splitlines()[0] if str(error) else type(error).__name__
        print(f"skprobeval: error: {_option_names(message)}", file=sys.stderr)
        return 2


def _show_warning(message, category, filename, lineno, file=None, line=None):
    print(f"skprobeval: warning: {_option_names(str(message))}", file=sys.stderr)


# The library's parameters that the command line passes on from an option.
_OPTIONS = {"n_draws": "--n-draws", "prior": "--prior", "rope": "--rope",
            "width": "--width", "expected": "--expected", "prevalence": "--prevalence",
            "assurance": "--assurance", "pilot": "--pilot",
            "confidence": "--confidence", "beta": "--beta", "metric": "--metric",
            "average": "--average", "labels": "--labels", "random_state": "--random-state",
            "pos_label": "--pos-label", "cluster_size": "--cluster-size", "icc": "--icc",
            "proxy_agreement": "--proxy-agreement", "pool_size": "--pool-size",
            "n_sims": "--n-sims", "budget": "--budget", "proxy": "--proxy"}


def _option_names(message):
    """A library message that names a parameter (```name` must``) with the option's
    spelling on the command line."""
    import re

    match = re.match(r"`(\w+)` must", message)
    if match and match.group(1) in _OPTIONS:
        rest = message[match.end(1) + 1:]
        if match.group(1) == "average":     # Python's None is spelt none here
            rest = rest.replace(" None", " 'none'")
        return _OPTIONS[match.group(1)] + rest
    return message
