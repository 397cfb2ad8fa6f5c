"""Arrays of other libraries (PyTorch, CuPy, JAX, array-api-strict) as inputs.

`to_host` reads an object with ``__dlpack__`` or ``__array_namespace__`` as
NumPy reads the same values.  The stand-ins below behave towards NumPy as such
arrays do: `HostArray` refuses implicit conversion, as CuPy's arrays do, and
is read through DLPack; `DeviceArray` lives on a device DLPack cannot hand to
NumPy and copies itself with ``get()``, as CuPy does; `TrackedArray` needs
``detach()``, as a PyTorch tensor that tracks gradients; `StrandedArray`
offers no copy at all, and the error names the argument.
"""

import numpy as np
import pandas as pd
import pytest
from optional import needs

import skprobeval
from skprobeval import ConfusionCounts
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


Y = np.array([0, 1, 1, 0, 1, 0, 1, 1, 0, 0, 1, 0, 1, 1, 0, 1])
PRED_A = np.array([0, 1, 0, 0, 1, 1, 1, 1, 0, 0, 1, 0, 0, 1, 0, 1])
WEIGHT = np.array([1.0, 2.0, 1.0, 1.0, 0.5, 1.0, 1.0, 2.0, 1.0, 1.0, 1.0, 3.0, 1.0, 1.0,
                   1.0, 1.0])
FOLD_A = np.array([0.81, 0.79, 0.84, 0.80, 0.83, 0.78])
FOLD_B = np.array([0.78, 0.80, 0.80, 0.77, 0.82, 0.76])
DRAWS = {"n_draws": 200, "random_state": 0}


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
