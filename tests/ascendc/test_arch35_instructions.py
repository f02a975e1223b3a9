"""The Ascend950 instructions the atvoss schedules use: DataCopyPad / DataCopyNd / GetValue,
Compare (tensor-tensor and tensor-scalar, every type), SelectTensors, Mul (arch35), Broadcast."""
from __future__ import annotations

import numpy as np
import pytest

from opsnn.ascendc import CMPMODE, Broadcast, Compare, DataCopyNd, DataCopyPad, GetValue, SelectTensors
from opsnn.ascendc.mul_arch35 import Mul
from opsnn.ascendc.select import unpack_mask
from opsnn.dtypes import bfloat16
from opsnn.platform import Platform

from .helpers import Ub, bits, gm_tensor, kinds, make_core

ARCH35 = Platform.custom(64 * 1024, 4, "ascend950")  # Compare picks its rules by the SoC family


def test_datacopy_pad_is_exact_at_the_tensor_end():
    core = make_core()
    src, _ = gm_tensor(core, "x", np.arange(5, dtype=np.float32))
    dst_gm, addr = gm_tensor(core, "y", np.zeros(5, np.float32))
    ub = Ub(core).buffer(np.float32, 8)
    DataCopyPad(ub, src, 5)  # 20 bytes: no 32-byte rounding, nothing past the tensor
    DataCopyPad(dst_gm, ub, 5)
    assert kinds(core) == []
    np.testing.assert_array_equal(core.gm.bytes_view(addr, 20).view(np.float32), np.arange(5, dtype=np.float32))


def test_datacopy_pad_past_the_tensor_is_an_error():
    core = make_core()
    src, _ = gm_tensor(core, "x", np.arange(5, dtype=np.float32))
    ub = Ub(core).buffer(np.float32, 8)
    DataCopyPad(ub, src, 6)
    assert kinds(core) == ["gm_read_past_tensor"] and core.log.items[0].is_error


def test_datacopy_nd_broadcasts_with_zero_strides():
    core = make_core()
    src, _ = gm_tensor(core, "x", np.arange(6, dtype=np.int64))
    ub = Ub(core).buffer(np.int64, 24)
    DataCopyNd(ub, src[1], (4, 2, 3), (0, 0, 1))  # row [1, 2, 3] repeated 8 times
    np.testing.assert_array_equal(ub.numpy(24), np.tile([1, 2, 3], 8))
    DataCopyNd(ub, src, (3, 2), (1, 3))  # a transposing gather
    np.testing.assert_array_equal(ub.numpy(6), [0, 3, 1, 4, 2, 5])
    assert kinds(core) == []


def test_get_value():
    core = make_core()
    src, _ = gm_tensor(core, "x", np.array([-7, 3], np.int8))
    assert GetValue(src, 0) == -7 and GetValue(src, 1) == 3 and kinds(core) == []


def _mask(lt, n):
    return unpack_mask(lt.ReinterpretCast(np.uint8).numpy(-(-n // 8)), n)


@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.int32, np.int64, np.int8, np.uint8, np.int16])
def test_compare_tensor_tensor_every_type(dtype):
    rng = np.random.default_rng(1)
    a = rng.integers(-5, 5, 77).astype(dtype)
    b = rng.integers(-5, 5, 77).astype(dtype)
    core = make_core(platform=ARCH35)
    ub = Ub(core)
    ta, tb, m = ub.buffer(dtype, 77, a), ub.buffer(dtype, 77, b), ub.buffer(np.uint8, 16)
    for mode, op in ((CMPMODE.LE, np.less_equal), (CMPMODE.GT, np.greater), (CMPMODE.NE, np.not_equal)):
        Compare(m, ta, tb, mode, 77)  # 77 elements: no 256-byte repeat rule on arch35
        np.testing.assert_array_equal(_mask(m, 77), op(a, b))
        Compare(m, ta, dtype(1), mode, 77)
        np.testing.assert_array_equal(_mask(m, 77), op(a, dtype(1)))
    assert kinds(core) == []


def test_compare_nan_is_false_except_ne():
    a = np.array([np.nan, 1.0, -0.0, np.inf, np.nan], np.float32)
    b = np.array([np.nan, np.nan, 0.0, np.inf, 1.0], np.float32)
    core = make_core(platform=ARCH35)
    ub = Ub(core)
    ta, tb, m = ub.buffer(np.float32, 5, a), ub.buffer(np.float32, 5, b), ub.buffer(np.uint8, 8)
    Compare(m, ta, tb, CMPMODE.LE, 5)
    assert _mask(m, 5).tolist() == [False, False, True, True, False]
    Compare(m, ta, tb, CMPMODE.NE, 5)
    assert _mask(m, 5).tolist() == [True, True, False, False, True]


@pytest.mark.parametrize("dtype", [np.float32, np.float16, bfloat16, np.int64, np.int8])
def test_select_modes_move_bit_patterns(dtype):
    raw = np.array([0x7FA1, 0xFFC3, 0x3C00, 0x8000, 0x0001, 0x7C00, 0x1234, 0x4321, 0x7F81], np.uint16)
    itemsize = np.dtype(dtype).itemsize
    src0 = (raw.astype(np.uint64) * 0x10001).astype(f"u{itemsize}").view(dtype)
    src1 = src0[::-1].copy()
    keep = np.array([1, 0, 1, 1, 0, 0, 1, 0, 1], bool)
    core = make_core()
    ub = Ub(core)
    t0, t1 = ub.buffer(dtype, 9, src0), ub.buffer(dtype, 9, src1)
    m, out = ub.buffer(np.uint8, 8, np.packbits(keep, bitorder="little")), ub.buffer(dtype, 9)
    SelectTensors(out, m, t0, t1, 9)
    np.testing.assert_array_equal(bits(out.numpy(9)), bits(np.where(keep, src0, src1)))
    SelectTensors(out, m, src0[2], t1, 9)
    np.testing.assert_array_equal(bits(out.numpy(9)), bits(np.where(keep, src0[2], src1)))
    SelectTensors(out, m, t0, np.zeros((), dtype), 9)
    np.testing.assert_array_equal(bits(out.numpy(9)), bits(np.where(keep, src0, np.zeros((), dtype))))
    assert kinds(core) == []


def test_mul_arch35_types_and_nans():
    core = make_core()
    ub = Ub(core)
    big = np.array([2**40, -3, 7], np.int64)
    a, b, o = ub.buffer(np.int64, 3, big), ub.buffer(np.int64, 3, [3, 5, 0]), ub.buffer(np.int64, 3)
    Mul(o, a, b, 3)
    np.testing.assert_array_equal(o.numpy(3), [3 * 2**40, -15, 0])
    f = np.array([np.inf, -np.inf, -2.0, 5.0], np.float32)
    f = np.concatenate([f, np.array([0x7F800001], np.uint32).view(np.float32)])  # a signalling NaN
    ta, to = ub.buffer(np.float32, 5, f), ub.buffer(np.float32, 5)
    Mul(to, ta, np.float32(0.0), 5)
    assert bits(to.numpy(5)).tolist() == [0x7FC00000, 0xFFC00000, 0x80000000, 0, 0x7FC00001]
    Mul(to, ta, np.float32(1.0), 5)
    assert bits(to.numpy(5)).tolist()[:4] == bits(f).tolist()[:4]
    assert kinds(core) == []


def test_broadcast_in_ub():
    core = make_core()
    ub = Ub(core)
    src, dst = ub.buffer(np.float16, 6, np.arange(6)), ub.buffer(np.float16, 24)
    Broadcast(dst, src, (2, 4, 3), (2, 1, 3))
    np.testing.assert_array_equal(dst.numpy(24).reshape(2, 4, 3), np.broadcast_to(np.arange(6).reshape(2, 1, 3),
                                                                                  (2, 4, 3)))
    assert kinds(core) == []


def test_cast_arch35_keeps_bfloat16_nan_payloads():
    from opsnn.ascendc import RoundMode
    from opsnn.ascendc.cast_arch35 import Cast

    patterns = np.array([0x7FC1, 0xFFBF, 0x7F81, 0x3F80, 0xFF80], np.uint16)  # qNaN, -qNaN, sNaN, 1.0, -inf
    wide = (patterns.astype(np.uint32) << 16).view(np.float32)
    wide = np.append(wide, np.array([0x7F800001], np.uint32).view(np.float32))  # payload only in the low bits
    core = make_core()
    ub = Ub(core)
    src, dst = ub.buffer(np.float32, 6, wide), ub.buffer(bfloat16, 6)
    Cast(dst, src, RoundMode.CAST_RINT, 6)
    assert bits(dst.numpy(6)).tolist() == [0x7FC1, 0xFFBF, 0x7F81, 0x3F80, 0xFF80, 0x7F81]


@pytest.mark.parametrize(("dst", "mode"), [(np.float32, "CAST_NONE"), (np.int8, "CAST_RINT"), (np.uint8, "CAST_RINT")])
def test_cast_arch35_from_half_equals_the_a2_cast(dst, mode):
    from opsnn.ascendc import Cast as A2Cast
    from opsnn.ascendc import RoundMode
    from opsnn.ascendc.cast_arch35 import Cast

    every = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16).view(np.float16)
    core = make_core(platform=Platform.custom(1 << 20, 1))  # room for all 65536 halves
    ub = Ub(core)
    src, a, b = ub.buffer(np.float16, every.size, every), ub.buffer(dst, every.size), ub.buffer(dst, every.size)
    Cast(a, src, RoundMode[mode], every.size)
    A2Cast(b, src, RoundMode[mode], every.size)
    np.testing.assert_array_equal(bits(a.numpy(every.size)), bits(b.numpy(every.size)))


def test_cast_arch35_float32_to_half_equals_the_a2_cast():
    from opsnn.ascendc import Cast as A2Cast
    from opsnn.ascendc import RoundMode
    from opsnn.ascendc.cast_arch35 import Cast

    rng = np.random.default_rng(7)
    patterns = rng.integers(0, 2**32, 60000, dtype=np.uint64).astype(np.uint32)
    specials = np.array([0x7F800001, 0xFF800001, 0x7FC00000, 0x7F802000, 0x7F801FFF, 0x477FF000, 0x477FEFFF,
                         0x33000000, 0x33000001, 0x387FC000, 0x80000000, 0x7F800000, 0x38800000], np.uint32)
    values = np.concatenate([patterns, specials]).view(np.float32)
    core = make_core(platform=Platform.custom(1 << 20, 1))
    ub = Ub(core)
    src, a, b = ub.buffer(np.float32, values.size, values), ub.buffer(np.float16, values.size), \
        ub.buffer(np.float16, values.size)
    for mode in (RoundMode.CAST_RINT, RoundMode.CAST_NONE):
        Cast(a, src, mode, values.size)
        A2Cast(b, src, mode, values.size)
        np.testing.assert_array_equal(bits(a.numpy(values.size)), bits(b.numpy(values.size)))


def test_cast_arch35_float32_to_int32_rint_equals_the_a2_cast():
    from opsnn.ascendc import Cast as A2Cast
    from opsnn.ascendc import RoundMode
    from opsnn.ascendc.cast_arch35 import Cast

    rng = np.random.default_rng(8)
    values = np.concatenate([rng.integers(0, 2**32, 30000, dtype=np.uint64).astype(np.uint32).view(np.float32),
                             (rng.standard_normal(30000) * 3e9).astype(np.float32),
                             np.array([2.5, -2.5, 0.5, -0.5, 2**31, -(2**31), 2147483520.0, np.inf, -np.inf, np.nan],
                                      np.float32)])
    core = make_core(platform=Platform.custom(1 << 20, 1))
    ub = Ub(core)
    src, a, b = ub.buffer(np.float32, values.size, values), ub.buffer(np.int32, values.size), \
        ub.buffer(np.int32, values.size)
    Cast(a, src, RoundMode.CAST_RINT, values.size)
    with np.errstate(invalid="ignore"):  # the A2 conversion's float64 widening of signalling NaNs
        A2Cast(b, src, RoundMode.CAST_RINT, values.size)
    np.testing.assert_array_equal(a.numpy(values.size), b.numpy(values.size))


def test_cast_arch35_float32_to_half_fast_path_equals_the_general_one():
    """The integer fast path (every value zero or in half's normal range) against numpy's own
    conversion: every float32 whose low 16 bits are one of many patterns (ties, carries, the
    rounding bit, random), whole tiles and tiles with one value the fast path must refuse."""
    from opsnn.ascendc.cast_arch35 import _float32_to_half, _float32_to_half_general, _float32_to_half_normal

    rng = np.random.default_rng(11)
    high = np.arange(1 << 16, dtype=np.uint32) << 16
    lows = [0, 1, 0x0800, 0x0FFF, 0x1000, 0x1001, 0x17FF, 0x1FFF, 0x2000, 0x2001, 0x3FFF, 0x6000, 0x8000, 0xE000,
            0xFFFF, *rng.integers(0, 1 << 16, 8).tolist()]
    for low in lows:
        values = (high | np.uint32(low)).view(np.float32)
        a = values.view(np.uint32) & 0x7FFFFFFF
        normal = values[(a == 0) | ((a >= 113 << 23) & (a < 143 << 23))]
        for v in (values, normal):
            want, got = np.empty(v.size, np.float16), np.empty(v.size, np.float16)
            _float32_to_half_general(v, want)
            _float32_to_half(v, got)
            np.testing.assert_array_equal(bits(got), bits(want))
        assert _float32_to_half_normal(normal, np.empty(normal.size, np.float16))
    refuse = np.array([0x7F800000, 0x7FC00000, 0x47800000, 0x38000000, 0x387FE000, 0xB3800000], np.uint32)
    for u in refuse:  # inf, NaN, 2**16, a subnormal half, ... : left to the general conversion
        tile = np.append(np.ones(8, np.float32), np.array([u], np.uint32).view(np.float32))
        assert not _float32_to_half_normal(tile, np.empty(tile.size, np.float16))


def test_float32_to_half_ignores_the_callers_floating_point_traps():
    """Underflow and overflow are what the instruction does, not errors: a caller's np.seterr(all="raise")
    must not turn them into FloatingPointError (both the integer fast path and the general one)."""
    from opsnn.ascendc import cast_arch35

    for values in ([1.0, 0.5, 1e-30], [1.0, 3e-8, 0.0], [1e30, -7e4, 2.0], [np.nan, 1.0, 65504.0]):
        v = np.array(values, np.float32)
        out = np.empty(v.shape, np.float16)
        with np.errstate(all="raise"):
            cast_arch35._float32_to_half(v, out)
        with np.errstate(all="ignore"):
            expected = v.astype(np.float16)
        finite = np.isfinite(expected)
        np.testing.assert_array_equal(out[finite].view(np.uint16), expected[finite].view(np.uint16))


@pytest.mark.parametrize("dtype", [np.float16, np.float32, bfloat16], ids=str)
def test_tensor_compare_with_nan_is_false_but_ne_is_true_every_float_type(dtype):
    """arch35's NE is the unordered not-equal (upstream's HardtanhGrad NaN test, Compare(x, x, NE),
    needs it), the other modes ordered; bfloat16 too, and without warnings."""
    import warnings

    from opsnn.ascendc.compare import CMPMODE
    from opsnn.ascendc.compare_tensor import compare_values
    a = np.array([np.nan, 1.0, np.nan, -0.0], np.float32).astype(dtype)
    b = np.array([np.nan, 1.0, 2.0, 0.0], np.float32).astype(dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert compare_values(a, b, CMPMODE.NE).tolist() == [True, False, True, False]
        assert compare_values(a, a, CMPMODE.NE).tolist() == [True, False, True, False]  # the NaN test
        assert compare_values(a, np.array(np.nan, a.dtype), CMPMODE.NE).tolist() == [True] * 4
        assert compare_values(a, b, CMPMODE.EQ).tolist() == [False, True, False, True]
        assert compare_values(a, b, CMPMODE.LE).tolist() == [False, True, False, True]
