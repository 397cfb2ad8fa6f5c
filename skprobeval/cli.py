"""The ``skprobeval`` command line.

Sub-commands:

``demo [--dataset NAME] [--output-dir DIR]``
    Cross-validate three scikit-learn classifiers on a dataset bundled with
    scikit-learn and print the full comparison report; with matplotlib
    installed and ``--output-dir``, write the plots as PNG files.
``compare FILE.csv --truth COLUMN [--systems COL ...] [--metric f1] [--beta 1]
[--prior 0.5] [--format text|markdown|csv|json]``
    Posteriors and pairwise comparisons of the systems' columns of a CSV.
``random-ap N R``
    The exact expected average precision of a random ranking (mean, std)
    next to the prevalence approximation.

Bad files, columns or values print one line on stderr and exit with status 2.
"""

from __future__ import annotations

import argparse
import json
import sys

__all__ = ["main"]

_DATASETS = ("breast_cancer", "wine", "iris", "digits")


class _UsageError(Exception):
    """An error to report as one line on stderr with exit status 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        raise _UsageError(message)


def _build_parser():
    parser = _Parser(prog="skprobeval",
                     description="Honest classifier evaluation from confusion counts.")
    parser.add_argument("--version", action="store_true", help="print the version and exit")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    demo = commands.add_parser("demo", help="compare classifiers on a bundled dataset")
    demo.add_argument("--dataset", default="breast_cancer", choices=_DATASETS,
                      help="scikit-learn bundled dataset (default: breast_cancer); multiclass "
                           "datasets are turned binary: first class against the rest")
    demo.add_argument("--output-dir", default=None,
                      help="write PNG plots here (needs matplotlib)")
    demo.add_argument("--cv", type=int, default=5, help="number of folds (default: 5)")
    demo.add_argument("--random-state", type=int, default=0, help="seed (default: 0)")

    compare = commands.add_parser("compare", help="compare systems' predictions in a CSV")
    compare.add_argument("file", help="CSV file with a truth column and one column per system")
    compare.add_argument("--truth", required=True, help="name of the truth column")
    compare.add_argument("--systems", nargs="+", default=None,
                         help="system columns (default: every other column)")
    compare.add_argument("--metric", default="f1", help="metric name (default: f1)")
    compare.add_argument("--beta", type=float, default=1.0,
                         help="beta of --metric fbeta (default: 1)")
    compare.add_argument("--prior", default="0.5",
                         help="Dirichlet prior: a number > 0, jeffreys or uniform (default: 0.5)")
    compare.add_argument("--pos-label", default="1", help="positive label (default: 1)")
    compare.add_argument("--rope", type=float, default=0.0,
                         help="region of practical equivalence (default: 0)")
    compare.add_argument("--confidence", type=float, default=0.95,
                         help="credible interval level (default: 0.95)")
    compare.add_argument("--format", default="text",
                         choices=("text", "markdown", "csv", "json"), help="output format")

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


def _demo(args, out):
    import numpy as np
    from sklearn import datasets

    from ._report import compare_estimators

    X, y = getattr(datasets, f"load_{args.dataset}")(return_X_y=True)
    classes = np.unique(y)
    note = ""
    if classes.shape[0] > 2:
        y = (y == classes[0]).astype(int)
        note = f" (multiclass: class {classes[0]} against the rest)"
    if args.cv < 2:
        raise _UsageError(f"argument --cv: must be at least 2; got {args.cv}")
    print(f"dataset: {args.dataset}{note}; {X.shape[0]} items, {X.shape[1]} features; "
          f"{args.cv}-fold stratified cross-validation, positive label 1", file=out)
    report = compare_estimators(_estimators(args.random_state), X, y, cv=args.cv, metric="f1",
                                random_state=args.random_state)
    print(report, file=out)
    if args.output_dir:
        _write_plots(report, args.output_dir, out)
    return 0


def _write_plots(report, directory, out):
    import os

    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is not installed: no plots written "
              "(pip install 'skprobeval[plot]')", file=out)
        return
    from ._bayes import metric_posterior
    from ._counts import ConfusionCounts
    from .plotting import plot_pairwise, plot_posteriors, plot_random_ap_baseline

    os.makedirs(directory, exist_ok=True)
    posteriors = {}
    for name, row in report.summary.iterrows():
        counts = ConfusionCounts(row["tp"], row["fp"], row["fn"], row["tn"])
        posteriors[name] = metric_posterior(counts, report.metric)
    for filename, draw in (("posteriors.png", lambda ax: plot_posteriors(posteriors, ax=ax)),
                           ("pairwise.png", lambda ax: plot_pairwise(report.pairwise, ax=ax)),
                           ("random_ap_baseline.png", lambda ax: plot_random_ap_baseline(ax=ax))):
        figure, ax = plt.subplots(figsize=(6.4, 4.8))
        draw(ax)
        path = os.path.join(directory, filename)
        figure.savefig(path, dpi=100, bbox_inches="tight")
        plt.close(figure)
        print(f"wrote {path}", file=out)


# ---------------------------------------------------------------------------
# compare
# ---------------------------------------------------------------------------


def _read_table(args):
    import pandas as pd

    try:
        frame = pd.read_csv(args.file)
    except FileNotFoundError:
        raise _UsageError(f"cannot read {args.file!r}: no such file") from None
    except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError,
            IsADirectoryError) as error:
        raise _UsageError(f"cannot read {args.file!r} as CSV: {error}".splitlines()[0]) from None
    if args.truth not in frame.columns:
        raise _UsageError(f"truth column {args.truth!r} not in {list(frame.columns)!r}")
    systems = args.systems or [c for c in frame.columns if c != args.truth]
    missing = [c for c in systems if c not in frame.columns]
    if missing:
        raise _UsageError(f"system column(s) {missing!r} not in {list(frame.columns)!r}")
    if not systems:
        raise _UsageError("no system columns to compare")
    if len(set(systems)) != len(systems) or args.truth in systems:
        raise _UsageError(f"--systems must name distinct columns other than the truth; "
                          f"got {systems!r}")
    if frame.shape[0] == 0:
        raise _UsageError(f"{args.file!r} has no rows")
    columns = [args.truth, *systems]
    if frame[columns].isna().any().any():
        bad = [c for c in columns if frame[c].isna().any()]
        raise _UsageError(f"missing values in column(s) {bad!r}")
    return frame, systems


def _pos_label(text, truth):
    """The positive label in the truth column's own type."""
    import numpy as np

    if truth.dtype.kind in "iu":
        try:
            return int(text)
        except ValueError:
            raise _UsageError(f"--pos-label {text!r} is not an integer label of the truth "
                              "column") from None
    if truth.dtype.kind == "f":
        try:
            return float(text)
        except ValueError:
            raise _UsageError(f"--pos-label {text!r} is not a number label of the truth "
                              "column") from None
    if truth.dtype.kind == "b":
        if text.lower() in ("1", "true"):
            return True
        if text.lower() in ("0", "false"):
            return False
        raise _UsageError(f"--pos-label {text!r} is not a label of the boolean truth column "
                          "(true/false)")
    values = set(np.asarray(truth).astype(str))
    if text not in values:
        raise _UsageError(f"--pos-label {text!r} is not among the truth labels "
                          f"{sorted(values)!r}")
    return text


def _prior(text):
    if text.lower() in ("jeffreys", "uniform"):
        return text.lower()
    try:
        return float(text)
    except ValueError:
        raise _UsageError(f"--prior must be a number > 0, jeffreys or uniform; got {text!r}") \
            from None


def _compare(args, out):
    from ._report import compare_predictions

    frame, systems = _read_table(args)
    truth = frame[args.truth].to_numpy()
    predictions = {name: frame[name].to_numpy() for name in systems}
    summary, pairwise, pairwise_metric = compare_predictions(
        truth, predictions, metric=args.metric, beta=args.beta, prior=_prior(args.prior),
        rope=args.rope,
        confidence=args.confidence, pos_label=_pos_label(args.pos_label, frame[args.truth]))
    metric = args.metric
    if args.format == "json":
        payload = {
            "metric": metric, "confidence": args.confidence,
            "summary": json.loads(summary.to_json(orient="index")),
            "pairwise": json.loads(pairwise.to_json(orient="index")),
            "pairwise_metric": json.loads(pairwise_metric.to_json(orient="index")),
        }
        print(json.dumps(payload, indent=2), file=out)
    elif args.format == "csv":
        print(summary.to_csv().rstrip("\n"), file=out)
        print(file=out)
        print(pairwise.to_csv().rstrip("\n"), file=out)
        print(file=out)
        print(pairwise_metric.to_csv().rstrip("\n"), file=out)
    elif args.format == "markdown":
        from ._report import _markdown_table

        print(f"### Posteriors ({metric}, {args.confidence:.0%} intervals)\n", file=out)
        print(_markdown_table(summary, True), file=out)
        print("\n### P(row right more often than column)\n", file=out)
        print(_markdown_table(pairwise, True), file=out)
        print(f"\n### P(row {metric} > column {metric})\n", file=out)
        print(_markdown_table(pairwise_metric, True), file=out)
    else:
        import pandas as pd

        from ._report import _format_number

        with pd.option_context("display.width", 160, "display.max_columns", 20,
                               "display.float_format", _format_number):
            print(f"Posteriors of {metric} ({args.confidence:.0%} credible intervals):",
                  file=out)
            from ._report import _counts_formatters

            print(summary.to_string(formatters=_counts_formatters(summary)), file=out)
            print("\nP(row right more often than column), paired Dirichlet:", file=out)
            print(pairwise.to_string(), file=out)
            print(f"\nP(row {metric} > column {metric}), paired 8-cell Dirichlet:", file=out)
            print(pairwise_metric.to_string(), file=out)
    return 0


# ---------------------------------------------------------------------------
# random-ap
# ---------------------------------------------------------------------------


def _random_ap(args, out):
    from ._baseline import random_average_precision

    result = random_average_precision(args.n_items, args.n_relevant)
    print(f"N = {args.n_items}, R = {args.n_relevant}", file=out)
    print(f"exact expected AP of a random ranking: {result.mean:.7g}", file=out)
    print(f"standard deviation:                    {result.std:.7g}", file=out)
    print(f"prevalence approximation R/N:          {result.prevalence:.7g}", file=out)
    return 0


_COMMANDS = {"demo": _demo, "compare": _compare, "random-ap": _random_ap}


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
    from . import __version__

    parser = _build_parser()
    try:
        args = parser.parse_args(argv)
        if args.version:
            print(f"skprobeval {__version__}")
            return 0
        if args.command is None:
            parser.print_help()
            return 0
        return _COMMANDS[args.command](args, sys.stdout)
    except _UsageError as error:
        print(f"skprobeval: error: {error}", file=sys.stderr)
        return 2
    except (ValueError, TypeError, IndexError, KeyError, OverflowError) as error:
        # Validation errors of the library: one line, no traceback.
        message = str(error).splitlines()[0] if str(error) else type(error).__name__
        print(f"skprobeval: error: {message}", file=sys.stderr)
        return 2
