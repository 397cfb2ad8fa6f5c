"""Reading the command line's CSV and Parquet files: paths and globs, one-line errors.

`_read_csv` and `_read_parquet` read what ``skprobeval compare`` is given; a bad
file, a header that repeats a name or files that disagree raise `_UsageError`,
which the command line prints as one line with exit status 2.
"""

from __future__ import annotations

__all__ = ["_UsageError", "_add_format", "_check_output", "_emit", "_output_format",
           "_parquet_error", "_paths", "_read_csv", "_read_parquet", "_write_output"]


class _UsageError(Exception):
    """An error to report as one line on stderr with exit status 2."""


_PARQUET_SUFFIXES = (".parquet", ".pq", ".parq")

# The format an --output file's suffix names, where --format is not given.
_SUFFIX_FORMATS = {".csv": "csv", ".json": "json", ".html": "html", ".htm": "html",
                   ".md": "markdown", ".markdown": "markdown", ".txt": "text"}
_FORMAT_DEFAULT = ("the one --output's suffix names (.csv, .json, .html, .md), where "
                   "offered; else text")


def _add_format(parser, choices, help="output format"):
    """A command's ``--format`` of `choices`, by default the one its ``--output`` file's
    suffix names (`_output_format`)."""
    parser.add_argument("--format", default=None, choices=choices,
                        help=f"{help} (default: {_FORMAT_DEFAULT})")
    parser.set_defaults(format_choices=choices)


def _output_format(args):
    """The format asked: ``--format``, else the one the ``--output`` file's suffix names
    where the command offers it, else text."""
    import os

    if args.format is not None:
        return args.format
    named = _SUFFIX_FORMATS.get(os.path.splitext(args.output or "")[1].lower())
    return named if named in args.format_choices else "text"


def _paths(patterns):
    """The files the arguments name (globs expanded, sorted), and whether they are Parquet."""
    import glob
    import os

    paths = []
    for pattern in patterns:
        if glob.has_magic(pattern):
            found = sorted(glob.glob(pattern))
            if not found:
                raise _UsageError(f"cannot read {pattern!r}: no file matches")
            paths.extend(found)
        elif not os.path.exists(pattern):
            raise _UsageError(f"cannot read {pattern!r}: no such file")
        else:
            paths.append(pattern)
    for path in paths:
        if os.path.isdir(path) and not any(
                name.lower().endswith(_PARQUET_SUFFIXES)
                for _, _, names in os.walk(path) for name in names):
            raise _UsageError(f"cannot read {path!r}: a directory without Parquet files")
    parquet = [os.path.isdir(p) or p.lower().endswith(_PARQUET_SUFFIXES) for p in paths]
    if any(parquet) and not all(parquet):
        raise _UsageError("files must be all CSV or all Parquet; got "
                          f"{', '.join(repr(p) for p in paths[:4])}")
    return paths, all(parquet)


# File signatures of binary formats a CSV name may hide.
_SIGNATURES = ((b"PK\x03\x04", "a zip archive"), (b"PAR1", "a Parquet file"),
               (b"\x1f\x8b", "a gzip file"), (b"BZh", "a bzip2 file"),
               (b"\xfd7zXZ", "an xz file"), (b"\x28\xb5\x2f\xfd", "a zstd file"))
# Names pandas decompresses by itself.
_COMPRESSED_SUFFIXES = (".gz", ".bz2", ".zip", ".xz", ".zst", ".tar")


def _check_text(path):
    """A one-line error for a binary file given as CSV (no NUL bytes printed)."""
    import os

    if path.lower().endswith(_COMPRESSED_SUFFIXES) or not os.path.isfile(path):
        return
    with open(path, "rb") as handle:
        head = handle.read(8192)
    if b"\x00" not in head and not head.startswith(tuple(s for s, _ in _SIGNATURES)):
        return
    what = next((name for signature, name in _SIGNATURES if head.startswith(signature)),
                "binary data")
    hint = (": name it .parquet" if what == "a Parquet file" else
            ": name it with its compression suffix (.csv.gz, .csv.zip, ...)"
            if what != "binary data" else "")
    raise _UsageError(f"{path!r} is not a text CSV file (it holds {what}){hint}")


def _read_csv(paths):
    import os

    import pandas as pd

    frames = []
    for path in paths:
        _check_text(path)
        try:
            header = pd.read_csv(path, header=None, nrows=1, dtype=str).iloc[0].tolist() \
                if os.path.getsize(path) else []
            # Blank names are left to pandas ("Unnamed: 0", ...), which keeps them apart.
            named = [name for name in header if isinstance(name, str) and name.strip()]
            repeated = sorted({name for name in named if named.count(name) > 1})
            if repeated:
                raise _UsageError(f"{path!r} repeats the column name(s) {repeated!r} in its "
                                  "header: every column needs its own name")
            frames.append(pd.read_csv(path))
        except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError,
                IsADirectoryError) as error:
            raise _UsageError(f"cannot read {path!r} as CSV: {error}".splitlines()[0]) \
                from None
    _check_same_columns({path: list(f.columns) for path, f in zip(paths, frames)})
    return frames[0] if len(frames) == 1 else pd.concat(frames, ignore_index=True)


def _check_same_columns(columns):
    """One line naming the columns that some files lack.

    ``columns`` maps each file to its column names; their order may differ (the
    readers align columns by name).
    """
    sets = {path: set(names) for path, names in columns.items()}
    every = list(dict.fromkeys(c for names in columns.values() for c in names))
    differing = [c for c in every if any(c not in n for n in sets.values())]
    if differing:
        lacking = next(path for path, n in sets.items() if not n.issuperset(differing))
        raise _UsageError(f"the files do not all have the same columns: {differing!r} "
                          f"not in every file ({lacking!r} has {columns[lacking]!r})")


def _parquet_schemas(paths):
    """The schema of every Parquet file the paths name (directories walked as the
    readers walk them), from the files' footers alone."""
    import os

    import pyarrow.dataset as ds
    import pyarrow.parquet as pq

    files = [file for path in paths for file in
             (ds.dataset(path, format="parquet").files if os.path.isdir(path) else [path])]
    return {file: pq.read_schema(file) for file in files}


def _check_parquet_schemas(schemas):
    """The same columns in every file, and no column that is text in one file and a
    number in another: Dask would give it mixed labels while pandas casts one file to
    the other's type, so the outcome would depend on the extras."""
    import pyarrow.types as pat

    def kind(dtype):
        return ("string" if pat.is_string(dtype) or pat.is_large_string(dtype) else
                "number" if pat.is_integer(dtype) or pat.is_floating(dtype) else None)

    # A stored pandas index is no column.
    columns = {file: [n for n in schema.names if not n.startswith("__index_level_")]
               for file, schema in schemas.items()}
    _check_same_columns(columns)
    for name in next(iter(columns.values())):
        kinds = {}
        for file, schema in schemas.items():
            dtype = schema.field(name).type
            kinds.setdefault(kind(dtype), (file, dtype))
        if "string" in kinds and "number" in kinds:
            (a, a_type), (b, b_type) = kinds["number"], kinds["string"]
            raise _UsageError(f"Mix of label input types (string and number) across the "
                              f"files: column {name!r} is {a_type} in {a!r} and {b_type} in "
                              f"{b!r}")


def _read_parquet(paths):
    """A Dask DataFrame when the dask extra is installed, else a pandas one."""
    try:
        import dask.dataframe as dd
    except ImportError:
        dd = None
    try:
        # Checked here, not left to the reader: Dask refuses files that differ and pandas
        # fills the missing columns with NaN, so the message would depend on the extras.
        _check_parquet_schemas(_parquet_schemas(paths))
        if dd is not None:
            return dd.read_parquet(paths if len(paths) > 1 else paths[0])
        import pandas as pd

        frames = [pd.read_parquet(path) for path in paths]
        return frames[0] if len(frames) == 1 else pd.concat(frames, ignore_index=True)
    except ImportError as error:
        raise _UsageError("reading Parquet needs pyarrow: pip install 'skprobeval[dask]'") \
            from error
    except (OSError, ValueError) as error:
        raise _UsageError(_parquet_error(paths, error)) from None


def _parquet_error(paths, error):
    """One line naming the file and the reader's own reason (not Dask's wrapper)."""
    cause = error
    while cause.__cause__ is not None or cause.__context__ is not None:
        cause = cause.__cause__ or cause.__context__
    shown = paths[0] if len(paths) == 1 else f"{len(paths)} files"
    reason = str(cause).strip().splitlines()[0] if str(cause).strip() else type(cause).__name__
    return f"cannot read {shown!r} as Parquet: {reason}"


def _check_output(path, option="--output"):
    """Refuse an --output that cannot be written before any work."""
    from ._core import check_page_path

    try:
        check_page_path(path)
    except (OSError, TypeError) as error:
        raise _UsageError(str(error).replace("`path`", option)) from None


def _write_output(text, path, option):
    """Write a whole file or nothing; an error names the option."""
    from ._core import write_page

    try:
        write_page(text, path)
    except (OSError, TypeError) as error:
        raise _UsageError(str(error).replace("`path`", option)) from None


def _emit(text, output, out):
    """Print `text`, or write it to the file `output` (``--output``) and say so; 0."""
    if output is None:
        print(text, file=out)
        return 0
    _write_output(text + "\n", output, "--output")
    print(f"wrote {output}", file=out)
    return 0
