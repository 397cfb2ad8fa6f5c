"""The ``skprobeval`` command line.

Sub-commands:

``demo``
    Fit scikit-learn classifiers on a dataset bundled with scikit-learn and
    print their confusion counts and point metrics.

Bad arguments print one line on stderr and exit with status 2.
"""

from __future__ import annotations

import argparse
import sys

__all__ = ["main"]

_DATASETS = ("breast_cancer", "wine", "digits", "iris")


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
                      help="scikit-learn bundled dataset (default: breast_cancer)")
    demo.add_argument("--random-state", type=int, default=0,
                      help="seed of the train/test split and the models (default: 0)")
    return parser


def _load(name):
    from sklearn import datasets

    loader = getattr(datasets, f"load_{name}")
    return loader(return_X_y=True)


def _estimators(random_state):
    from sklearn.ensemble import RandomForestClassifier
    from sklearn.linear_model import LogisticRegression
    from sklearn.naive_bayes import GaussianNB
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    return {
        "logistic_regression": make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000)),
        "random_forest": RandomForestClassifier(n_estimators=200, random_state=random_state),
        "gaussian_nb": GaussianNB(),
    }


def _demo(args, out):
    import numpy as np
    from sklearn.model_selection import train_test_split

    from ._counts import ConfusionCounts
    from ._metrics import get_metric

    X, y = _load(args.dataset)
    X_train, X_test, y_train, y_test = train_test_split(
        X, y, test_size=0.3, stratify=y, random_state=args.random_state)
    binary = np.unique(y).shape[0] == 2
    average = "binary" if binary else "micro"
    names = ("precision", "recall", "f1", "accuracy", "specificity", "informedness",
             "markedness", "mcc")
    print(f"dataset: {args.dataset} ({X.shape[0]} items, {X.shape[1]} features, "
          f"{np.unique(y).shape[0]} classes); test set: {y_test.shape[0]} items", file=out)
    if not binary:
        print("multiclass: one-vs-rest tables pooled (micro)", file=out)
    header = f"{'estimator':<20} {'tp':>5} {'fp':>5} {'fn':>5} {'tn':>5} " + " ".join(
        f"{name[:12]:>12}" for name in names)
    print(header, file=out)
    for label, estimator in _estimators(args.random_state).items():
        y_pred = estimator.fit(X_train, y_train).predict(X_test)
        counts = ConfusionCounts.from_predictions(y_test, y_pred, average=average)
        cells = (counts.tp, counts.fp, counts.fn, counts.tn)
        values = [float(get_metric(name)(*cells)) for name in names]
        print(f"{label:<20} " + " ".join(f"{float(c):>5g}" for c in cells) + " "
              + " ".join(f"{v:>12.4f}" for v in values), file=out)
    return 0


def main(argv=None):
    """Run the command line; return the exit status.

    Parameters
    ----------
    argv : list of str, default=None
        Arguments without the program name; ``sys.argv[1:]`` by default.

    Returns
    -------
    int
        0 on success, 2 on a usage or input error.

    Examples
    --------
    >>> from skprobeval.cli import main
    >>> main(["--version"])  # doctest: +ELLIPSIS
    skprobeval ...
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
        if args.command == "demo":
            return _demo(args, sys.stdout)
    except _UsageError as error:
        print(f"skprobeval: error: {error}", file=sys.stderr)
        return 2
    return 0
