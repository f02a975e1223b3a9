"""The host's scalar -> tensor-dtype conversion (docs/threshold-v2.md §5) against the oracle's,
and its documented corners."""
import math

import numpy as np
import pytest

from opsnn.activation.threshold_v2.scalar_to_tensor import convert_scalar, exact_value

from .. import oracle as o

VALUES = [0, 1, -1, -0.0, 4.1, 1e39, -1e39, math.nan, -math.nan, math.inf, -math.inf, 65504.0, 65519.99, 65520.0,
          1 + 2**-11 + 2**-40, 2**31, 2.0**31, -(2.0**31) - 1, 3e9, 40000, 40000.0, -129.7, 255.9, 256.5, 2**63,
          2**64 - 1, -(2**63), 2.0**63, 1e-45, 6e-8, 3e-5, True, 2**24 + 1, 16777217.0, 0.1, 1 / 3,
          np.float16(1.5), np.float32(0.1), np.int8(-3), np.uint64(2**64 - 1)]


@pytest.mark.parametrize("dtype", o.DTYPES, ids=str)
def test_against_the_oracle(dtype):
    for v in VALUES:
        got = np.asarray(convert_scalar(v, dtype), dtype)
        assert got.dtype == dtype
        assert o.bits(got) == o.bits(o.scalar_as(v, dtype)), f"{v!r} -> {dtype}"


def _bits(v, dtype):
    return o.bits(np.asarray(convert_scalar(v, dtype), dtype)).item()


def test_documented_corners():
    assert _bits(math.nan, np.float16) == 0x7FFF and _bits(-math.nan, np.float16) == 0xFFFF
    assert _bits(math.nan, o.BF16) == 0x7FC0 and _bits(-math.nan, o.BF16) == 0x7FC0
    assert _bits(65519.99, np.float16) == 0x7BFF and _bits(65520.0, np.float16) == 0x7C00
    assert _bits(1 + 2**-11 + 2**-40, np.float16) == 0x3C01  # one rounding from the double
    assert _bits(1 + 2**-8 + 2**-40, o.BF16) == 0x3F80  # via float32 first: the tie goes to even
    assert convert_scalar(-129.7, np.int8) == 127  # -129 wraps
    assert convert_scalar(1e10, np.int8) == 0 and convert_scalar(1e10, np.int32) == -(2**31)
    assert convert_scalar(math.nan, np.int64) == -(2**63) and convert_scalar(2.0**63, np.int64) == -(2**63)
    assert convert_scalar(40000, np.int16) == -25536 and convert_scalar(-1, np.uint8) == 255
    assert convert_scalar(1e39, np.float32) == np.inf and convert_scalar(2**24 + 1, np.float32) == 2**24


def test_exact_value_of_stored_scalars():
    assert exact_value(np.float16(0.1)) == float(np.float16(0.1))
    assert exact_value(np.uint64(2**64 - 1)) == 2**64 - 1 and isinstance(exact_value(np.int8(3)), int)
    assert exact_value(np.complex64(2 + 3j)) == 2.0 and exact_value(np.bool_(True)) == 1


def test_refuses_non_tensor_dtypes():
    with pytest.raises(TypeError):
        convert_scalar(1.0, np.float64)


hypothesis = pytest.importorskip("hypothesis")
st = hypothesis.strategies


@hypothesis.settings(max_examples=400, deadline=None)
@hypothesis.given(v=st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.integers(-(2**63), 2**64 - 1)),
                  dtype=st.sampled_from(o.DTYPES))
def test_any_double_or_64_bit_integer(v, dtype):
    assert o.bits(np.asarray(convert_scalar(v, dtype), dtype)) == o.bits(o.scalar_as(v, dtype))
