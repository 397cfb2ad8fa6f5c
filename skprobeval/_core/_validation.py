"""Small validation helpers shared by every public entry point.

Every message has one shape: ``"`name` must be <requirement>; got <value!r>."``
(`ValueError` for bad values, `TypeError` for bad types).  Nothing here is public.
"""

from __future__ import annotations

import functools
import numbers
import warnings

import numpy as np

__all__ = [
    "MAX_DRAWN_VALUES",
    "MAX_DRAWS",
    "N_DRAWS",
    "check_confidence",
    "check_count_array",
    "check_draws",
    "check_positive",
    "check_prior",
    "check_random_state",
    "check_sample_weight",
    "check_score_pair",
    "fail",
    "keyword_only",
    "renamed_attribute",
    "renamed_keyword",
    "to_host",
    "warn_future",
]

# Default number of posterior draws of every function that samples: scipy's
# bootstrap default order of magnitude, a Monte Carlo error of a probability of
# at most 0.005 (reported as ``mc_error`` where it matters).
N_DRAWS = 10_000

_PRIOR_NAMES = {"jeffreys": 0.5, "uniform": 1.0}


def _plain(value):
    """numpy scalars and small arrays as plain Python values (no ``np.float64(nan)``)."""
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, (list, tuple)) and len(value) <= 8:
        return type(value)(_plain(v) for v in value)
    return value


def _show(value):
    """Short repr of ``value`` for an error message (arrays are summarised)."""
    if isinstance(value, np.ndarray) and value.size > 8:
        return f"array of shape {value.shape} with dtype {value.dtype}"
    if isinstance(value, (list, tuple)) and len(value) > 8:
        return f"a {type(value).__name__} of {len(value)} items"
    return repr(_plain(value))


def fail(name, requirement, value, *, error=ValueError, shown=None):
    """Raise ``error`` with the project's one message shape.

    ``shown`` replaces the repr of ``value`` when a description reads better
    (for example ``"length 3"``).
    """
    got = _show(value) if shown is None else shown
    raise error(f"`{name}` must be {requirement}; got {got}.")


# Values NumPy reads as they are: returned by `to_host` without a look.
_HOST_TYPES = (np.ndarray, np.generic, list, tuple, range, str, bytes, numbers.Number)

# The DLPack header's device types (``DLDeviceType``), to name a device in messages.
_DLPACK_DEVICES = {1: "cpu", 2: "cuda", 3: "cuda_host", 4: "opencl", 7: "vulkan", 8: "metal",
                   9: "vpi", 10: "rocm", 11: "rocm_host", 13: "cuda_managed", 14: "oneapi",
                   15: "webgpu", 16: "hexagon", 17: "maia"}


def _device_name(value):
    """The device `value` lives on, as ``'cuda:0'`` (DLPack's numbering) where it says."""
    try:
        kind, index = value.__dlpack_device__()
        return f"{_DLPACK_DEVICES.get(int(kind), f'device type {int(kind)}')}:{int(index)}"
    except Exception:
        device = getattr(value, "device", None)
        return "unknown" if device is None or callable(device) else str(device)


def _library_copy(value):
    """A host copy made by `value`'s own library: ``get()`` (CuPy), ``detach()`` and
    ``cpu()`` (PyTorch), ``to_device("cpu")`` (array-API libraries that name it so)."""
    get = getattr(value, "get", None)
    if callable(get):
        try:
            host = get()
        except TypeError:       # a `get` of another meaning, which needs arguments
            host = None
        if isinstance(host, np.ndarray):
            return host
    moved = value
    if callable(getattr(moved, "detach", None)):
        moved = moved.detach()
    if callable(getattr(moved, "cpu", None)):
        moved = moved.cpu()
    elif callable(getattr(moved, "to_device", None)):
        moved = moved.to_device("cpu")
    return np.from_dlpack(moved)


def _read_as_numpy(value):
    """``np.asarray(value)``, kept only where it is the array `value` stands for (an
    object NumPy cannot read would become a 0-d object array)."""
    array = np.asarray(value)
    shape = getattr(value, "shape", None)
    if (array.ndim == 0 and array.dtype.kind == "O") or (
            shape is not None and array.shape != tuple(shape)):
        raise TypeError(f"NumPy reads a {type(value).__name__} as an array of shape "
                        f"{array.shape} and dtype {array.dtype}")
    return array


def _from_dlpack_on_cpu(value):
    """A host copy asked of the producer through DLPack (NumPy >= 2.1, DLPack 1.0)."""
    return np.from_dlpack(value, device="cpu")


def _on_cpu(value):
    """Whether `value` says, through DLPack, that it lives on the CPU (True if it says nothing)."""
    try:
        return int(value.__dlpack_device__()[0]) == 1
    except Exception:
        return True


def to_host(value, name):
    """`value` as a NumPy array on the host when it is another library's array.

    NumPy arrays, pandas and Dask objects, lists and scalars come back as they
    are (Dask collections are counted block by block, never loaded).  An
    object with ``__dlpack__`` or ``__array_namespace__`` (PyTorch, CuPy, JAX,
    array-api-strict) becomes a NumPy array of its dtype and shape.  On the
    CPU, NumPy reads it as it is, or through ``np.from_dlpack`` where
    ``np.asarray`` is refused (array-api-strict's other devices) and, for a
    PyTorch tensor that tracks gradients, after ``detach()``.  On another
    device, the host copy is asked of DLPack (``np.from_dlpack(value,
    device="cpu")``, NumPy >= 2.1), then of the array's library (``get()``
    for CuPy, ``cpu()`` for PyTorch, ``to_device("cpu")``), then of
    ``np.asarray`` (JAX).  Where no copy can be made, a `TypeError` names the
    argument and the device.  Each entry point calls this once per argument,
    where its input is validated, so that a device array crosses once.
    """
    if value is None or isinstance(value, _HOST_TYPES):
        return value
    kind = type(value)
    if not (hasattr(kind, "__dlpack__") or hasattr(kind, "__array_namespace__")):
        return value
    if callable(getattr(value, "__dask_graph__", None)):
        return value
    copies = [np.from_dlpack, _from_dlpack_on_cpu, _library_copy]
    # NumPy's own reading first where it applies: DLPack would give the same array,
    # but pyarrow exports no nulls, booleans or strings through it, and producers of
    # unversioned DLPack capsules make NumPy 2.4 warn.
    copies.insert(0 if hasattr(kind, "__array__") and _on_cpu(value) else 3, _read_as_numpy)
    errors = {}
    for copy in copies:
        try:
            return copy(value)
        except Exception as error:  # each library refuses in its own way
            errors[copy] = error
    error = errors[np.from_dlpack]
    fail(name, f"an array NumPy can read, or one its library copies to the host (pass "
         f"`{name}.cpu()` or `cupy.asnumpy({name})`)", value, error=TypeError,
         shown=f"a {kind.__module__.split('.')[0]}.{kind.__name__} on device "
               f"{_device_name(value)!r} that could not be copied to the host "
               f"({type(error).__name__}: {error})")


def as_array(values, name):
    """``np.asarray(values)``, naming the argument where NumPy cannot make one
    array of it (rows of different lengths); another library's array is first
    copied to the host (`to_host`)."""
    values = to_host(values, name)
    try:
        return np.asarray(values)
    except ValueError:
        fail(name, "an array-like with rows of one length", values,
             shown=f"a ragged sequence {_show(values)}")


def _is_real_scalar(value):
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def check_positive(value, name, *, allow_zero=False):
    """Return ``value`` as a float, checking it is a finite real > 0 (or >= 0)."""
    if not _is_real_scalar(value):
        if isinstance(value, np.ndarray) and value.ndim == 0 and value.dtype.kind in "iuf":
            value = value.item()
        else:
            fail(name, "a real number", value, error=TypeError)
    value = float(value)
    ok = value >= 0 if allow_zero else value > 0
    if not (np.isfinite(value) and ok):
        fail(name, "a finite number >= 0" if allow_zero else "a finite number > 0", value)
    return value


def check_rope(rope, name="rope", *, width=1.0):
    """Return the half-width of the region of practical equivalence.

    `width` is the width of the compared scores' range: differences of scores
    in [0, 1] lie in (-1, 1), of informedness or MCC in (-2, 2), so a rope of
    `width` or more would call every difference equivalent whatever the data.
    Unbounded scores (per-fold or per-data-set scores of any kind) take any
    finite rope >= 0 (``width=inf``).
    """
    rope = check_positive(rope, name, allow_zero=True)
    if rope >= width:
        fail(name, f"a finite number in [0, {width:g}) (a rope of {width:g} or more makes "
             f"every difference of scores whose range is {width:g} wide equivalent)", rope)
    return rope


def check_prior(prior, name="prior", *, auto=False):
    """Return the Dirichlet concentration ``lambda`` as a float.

    Accepts a float > 0, or ``"jeffreys"`` (0.5) / ``"uniform"`` (1.0); with
    `auto`, also ``"auto"`` (returned as such: a default the caller sets from
    the data).
    """
    expected = "a float > 0, 'auto', 'jeffreys' or 'uniform'" if auto else \
        "a float > 0, 'jeffreys' or 'uniform'"
    if isinstance(prior, str):
        key = prior.lower()
        if auto and key == "auto":
            return "auto"
        if key not in _PRIOR_NAMES:
            fail(name, expected, prior)
        return _PRIOR_NAMES[key]
    if not _is_real_scalar(prior):
        fail(name, expected, prior, error=TypeError)
    return check_positive(prior, name)


def check_confidence(confidence, name="confidence"):
    """Return ``confidence`` as a float strictly inside (0, 1)."""
    if not _is_real_scalar(confidence):
        fail(name, "a float in the open interval (0, 1)", confidence, error=TypeError)
    confidence = float(confidence)
    if not 0.0 < confidence < 1.0:
        fail(name, "a float in the open interval (0, 1)", confidence)
    return confidence


def warn_user(message, category=UserWarning):
    """Warn with `category`, attributed to the first caller outside the package.

    Every warning raised on the user's behalf goes through here.  Decorators
    stack and entry points call each other: a fixed ``stacklevel`` would name
    a line of the package (the line of `renamed_keyword` that calls the entry
    point, for instance), and Python shows a warning once per line, so later
    calls from the user's code would print nothing.
    """
    import os
    import sys

    # The package's folder, with a separator: its stages' files start with it.
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep
    frame, level = sys._getframe(1), 2
    while frame is not None and os.path.abspath(frame.f_code.co_filename).startswith(package):
        frame, level = frame.f_back, level + 1
    warnings.warn(message, category, stacklevel=level)


def warn_future(message):
    """A `FutureWarning` attributed to the first caller outside the package."""
    warn_user(message, FutureWarning)


# Most posterior draws of one call: their Monte Carlo error of a probability is
# below 5e-5, and one float per draw is 800 MB (10**12 draws asked for 22 TiB).
MAX_DRAWS = 10**8
# Most values a call holds for its draws (draws x values per draw): 8 GiB of floats.
MAX_DRAWN_VALUES = 2**30


def check_draws(n_draws, name="n_draws", *, values_per_draw=1):
    """Return ``n_draws`` as an int from 2 to `MAX_DRAWS` (bool refused), and at
    most `MAX_DRAWN_VALUES` values in all when each draw holds ``values_per_draw``
    (a curve's points, many tables' cells): a ValueError, not a MemoryError."""
    if (not isinstance(n_draws, numbers.Integral) or isinstance(n_draws, bool)
            or not 2 <= n_draws <= MAX_DRAWS):
        fail(name, f"an integer from 2 to {MAX_DRAWS:_} (the Monte Carlo error of a "
             "probability is below 5e-5 there)", n_draws,
             error=ValueError if isinstance(n_draws, numbers.Real) else TypeError)
    values_per_draw = max(1, int(values_per_draw))
    if n_draws * values_per_draw > MAX_DRAWN_VALUES:
        fail(name, f"at most {MAX_DRAWN_VALUES // values_per_draw:_} here: each draw holds "
             f"{values_per_draw:_} values, and {MAX_DRAWN_VALUES:_} values (8 GiB) is the "
             "most one call keeps", n_draws)
    return int(n_draws)


def renamed_keyword(old, new, *, since="0.2", removed="0.3"):
    """Decorator: accept keyword `old` for `new` with a `FutureWarning`.

    As scikit-learn renames a parameter: the old name keeps working for one
    release; passing both is a `TypeError`.
    """
    def decorate(function):
        @functools.wraps(function)
        def wrapper(*args, **kwargs):
            if old in kwargs:
                if new in kwargs:
                    raise TypeError(f"{function.__qualname__}() got both `{old}` and `{new}`; "
                                    f"`{old}` was renamed `{new}`: pass `{new}` only.")
                warn_future(f"`{old}` was renamed `{new}` in {since} and will be removed in "
                            f"{removed}; pass `{new}`.")
                kwargs[new] = kwargs.pop(old)
            return function(*args, **kwargs)

        wrapper.renamed_keywords = {**getattr(function, "renamed_keywords", {}), old: new}
        return wrapper
    return decorate


def keyword_only(*names, since="0.2", removed="0.3"):
    """Decorator: parameters `names` became keyword-only; positional use still
    works for one release, with a `FutureWarning` (scikit-learn's rule)."""
    def decorate(function):
        import inspect

        params = list(inspect.signature(function).parameters.values())
        n_positional = sum(p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
                           for p in params)

        @functools.wraps(function)
        def wrapper(*args, **kwargs):
            extra = args[n_positional:]
            if extra:
                if len(extra) > len(names):
                    raise TypeError(f"{function.__qualname__}() takes {n_positional} positional "
                                    f"arguments but {len(args)} were given")
                passed = dict(zip(names, extra))
                for name in passed:
                    if name in kwargs:
                        raise TypeError(f"{function.__qualname__}() got multiple values for "
                                        f"argument `{name}`")
                shown = ", ".join(f"{k}={v!r}" for k, v in passed.items())
                warn_future(f"Pass {shown} as keyword argument(s): positional use is "
                            f"deprecated since {since} and will be an error in {removed}.")
                kwargs.update(passed)
                args = args[:n_positional]
            return function(*args, **kwargs)

        return wrapper
    return decorate


def renamed_attribute(old, new, *, since="0.2", removed="0.3"):
    """A read-only property `old` returning attribute `new` with a `FutureWarning`."""
    def getter(self):
        warn_future(f"`{old}` was renamed `{new}` in {since} and will be removed in "
                    f"{removed}; read `{new}`.")
        return getattr(self, new)

    return property(getter, doc=f"Deprecated alias of `{new}`.")


def check_random_state(random_state):
    """Normalise ``random_state`` (None, int or Generator) to a `numpy.random.Generator`."""
    if random_state is None or isinstance(random_state, (numbers.Integral, np.integer)):
        if random_state is not None and random_state < 0:
            fail("random_state", "None, a non-negative int or a numpy Generator", random_state)
        return np.random.default_rng(random_state)
    if isinstance(random_state, np.random.Generator):
        return random_state
    if isinstance(random_state, np.random.RandomState):
        # Draw a seed from the legacy object so results stay reproducible.
        return np.random.default_rng(random_state.randint(0, 2**31 - 1))
    fail(
        "random_state",
        "None, a non-negative int or a numpy Generator",
        random_state,
        error=TypeError,
    )


def check_count_array(value, name):
    """Return ``value`` as a float64 array, checking it is finite and non-negative."""
    value = to_host(value, name)
    try:
        array = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError):
        fail(name, "an array of finite non-negative counts", value, error=TypeError)
    if not np.all(np.isfinite(array)):
        fail(name, "finite (no NaN or inf)", value)
    if np.any(array < 0):
        fail(name, "non-negative", value)
    return array


def check_sample_weight(sample_weight, n_samples):
    """Return ``sample_weight`` as a 1-d float64 array (or None), finite and >= 0."""
    if sample_weight is None:
        return None
    sample_weight = to_host(sample_weight, "sample_weight")
    weight = np.asarray(sample_weight)
    if weight.dtype.kind not in "iufb":
        fail("sample_weight", "an array of non-negative numbers", sample_weight, error=TypeError)
    weight = weight.astype(np.float64, copy=False)
    if weight.ndim != 1:
        fail("sample_weight", "1-dimensional", weight, shown=f"shape {weight.shape}")
    if weight.shape[0] != n_samples:
        fail(
            "sample_weight",
            f"of the same length as the labels ({n_samples})",
            weight,
            shown=f"length {weight.shape[0]}",
        )
    if not np.all(np.isfinite(weight)):
        fail("sample_weight", "finite (no NaN or inf)", sample_weight)
    if np.any(weight < 0):
        fail("sample_weight", "non-negative", sample_weight)
    return weight


def _check_scores(values, name):
    array = as_array(values, name)
    if array.dtype.kind not in "iuf" or array.ndim != 1:
        if array.dtype.kind not in "iufb":
            fail(name, "a 1-d array of real scores", values, error=TypeError)
        fail(name, "a 1-d array of real scores", values, shown=f"shape {array.shape}")
    array = array.astype(np.float64, copy=False)
    if not np.isfinite(array).all():
        fail(name, "finite (no NaN or inf)", values)
    return array


def check_score_pair(scores_a, scores_b, *, minimum=1):
    """Two systems' scores as float64 arrays of one length (at least `minimum`)."""
    a = _check_scores(scores_a, "scores_a")
    b = _check_scores(scores_b, "scores_b")
    if a.shape != b.shape:
        fail("scores_b", f"of the same length as `scores_a` ({a.shape[0]})", scores_b,
             shown=f"length {b.shape[0]}")
    if a.shape[0] < minimum:
        fail("scores_a", f"at least {minimum} score{'s' if minimum > 1 else ''}", scores_a)
    return a, b
