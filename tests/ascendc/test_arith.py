"""Duplicate and Mul as ReluGrad uses them: values, NaN results independent of the host (inf * 0
keeps the inf's sign), aliasing, overflow."""
import numpy as np
import pytest

from opsnn.ascendc import EmulatorError
from opsnn.ascendc.arith import Duplicate, Mul

from .helpers import Ub, bits, kinds, make_core

F16, F32 = np.float16, np.float32


@pytest.mark.parametrize("dtype,value", [(F32, 1.5), (F16, -2.0), (np.int32, 7), (np.int16, -3)])
def test_duplicate_fills_count_elements_only(dtype, value):
    ub = Ub(make_core())
    t = ub.buffer(dtype, 128, np.full(128, 9, dtype))
    Duplicate(t, value, 64)
    got = t.numpy(128)
    assert (got[:64] == np.asarray(value, dtype)).all() and (got[64:] == 9).all()


def test_duplicate_refuses_int8():
    ub = Ub(make_core())
    with pytest.raises(EmulatorError):
        Duplicate(ub.buffer(np.int8, 32), 1, 32)


@pytest.mark.parametrize("dtype", [F32, F16])
def test_mul_floats_and_signed_zeros(dtype):
    ub = Ub(make_core())
    a = np.array([1.5, -2.0, 3.0, -0.0, 0.0, 65504 if dtype is F16 else 3e38, -7, 1e-3] * 16, dtype)
    b = np.array([2.0, 0.0, 0.0, 1.0, -1.0, 2.0, 1.0, 1.0] * 16, dtype)
    x, y, out = ub.buffer(dtype, 128, a), ub.buffer(dtype, 128, b), ub.buffer(dtype, 128)
    Mul(out, x, y, 128)
    with np.errstate(over="ignore"):
        expected = a * b
    np.testing.assert_array_equal(bits(out.numpy(128)), bits(expected))  # -2*0 = -0.0, overflow = inf


@pytest.mark.parametrize("dtype,nan_bits,default", [(F32, np.uint32, 0x7FC00000), (F16, np.uint16, 0x7E00)])
def test_mul_nan_results_do_not_depend_on_the_host(dtype, nan_bits, default):
    sign = 0x80000000 if dtype is F32 else 0x8000
    ub = Ub(make_core())
    snan = np.array([0x7F800001 if dtype is F32 else 0x7C01], nan_bits).view(dtype)[0]  # signalling, payload 1
    neg_nan = np.array([0xFFC00005 if dtype is F32 else 0xFE05], nan_bits).view(dtype)[0]
    a = np.array([np.inf, -np.inf, 0.0, snan, neg_nan, 2.0, neg_nan, 1.0] * 16, dtype)
    b = np.array([0.0, 0.0, np.inf, 1.0, 0.0, snan, snan, 1.0] * 16, dtype)
    x, y, out = ub.buffer(dtype, 128, a), ub.buffer(dtype, 128, b), ub.buffer(dtype, 128)
    Mul(out, x, y, 128)
    quiet = 0x00400000 if dtype is F32 else 0x0200
    expected = np.array([default, default | sign, default, snan.view(nan_bits) | quiet, neg_nan.view(nan_bits),
                         snan.view(nan_bits) | quiet, neg_nan.view(nan_bits), np.array(1.0, dtype).view(nan_bits)]
                        * 16, nan_bits)
    np.testing.assert_array_equal(bits(out.numpy(128)), expected)


def test_mul_int32_wraps_and_may_alias():
    ub = Ub(make_core())
    a = np.array([2**30, -5, 7, 0] * 16, np.int32)
    x = ub.buffer(np.int32, 64, a)
    Mul(x, x, x, 64)
    np.testing.assert_array_equal(x.numpy(64), (a.astype(np.int64) ** 2).astype(np.int32))


def test_mul_type_mismatch_is_an_error():
    ub = Ub(make_core())
    with pytest.raises(EmulatorError):
        Mul(ub.buffer(F32, 64), ub.buffer(F32, 64), ub.buffer(F16, 64), 64)
    with pytest.raises(EmulatorError):
        Mul(ub.buffer(np.int8, 64), ub.buffer(np.int8, 64), ub.buffer(np.int8, 64), 64)


def test_mul_past_the_buffer_is_reported():
    core = make_core()
    ub = Ub(core)
    x = ub.buffer(F32, 64, np.ones(64, F32))
    Mul(x, x, x, 72)
    assert "local_tensor_overflow" in kinds(core)


def test_ascend950_duplicates_bytes_and_64_bit_integers_in_the_count_form():
    from opsnn.platform import SOCS
    core = make_core(platform=next(p for p in SOCS.values() if p.family == "ascend950"))
    ub = Ub(core)
    b, q = ub.buffer(np.uint8, 64), ub.buffer(np.int64, 4)
    Duplicate(b, 200, 40)
    Duplicate(q, -5, 4)
    assert b.numpy(40).tolist() == [200] * 40 and q.numpy(4).tolist() == [-5] * 4
    with pytest.raises(EmulatorError, match="count form only"):
        Duplicate(b, 1, 64, 1, 1, 8)
    with pytest.raises(EmulatorError, match="int16/32"):
        Duplicate(Ub(make_core()).buffer(np.uint8, 32), 1, 32)  # Atlas A2: not at all
