"""The Cast instruction: the A2 pair table, round modes through UB, clear errors."""
from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

from opsnn.ascendc import ALLOWED_CASTS, Cast, EmulatorError, RoundMode
from opsnn.platform import Platform

from .helpers import Ub, bits, kinds, make_core

M = RoundMode
F16, F32, I32, I8, U8 = (np.dtype(t) for t in (np.float16, np.float32, np.int32, np.int8, np.uint8))
BF16 = np.dtype(ml_dtypes.bfloat16)


def test_pair_table_is_the_spec():
    # asc-devkit dav_c220 CheckCastDatatype / CastIntrinsicsImpl (cast.py's docstring)
    I16, I64 = np.dtype(np.int16), np.dtype(np.int64)
    rfcaz = set(M) - {M.CAST_NONE, M.CAST_ODD}
    none_only = {(I8, F16), (U8, F16), (F16, F32), (BF16, F32), (I16, F32), (I32, I64), (I32, I16), (I64, I32)}
    none_rfcaz = {(F16, I8), (F16, U8), (I16, F16), (I32, F32)}
    only_rfcaz = {(F32, I32), (F32, BF16), (F32, F32), (F16, I16), (F16, I32), (F32, I16), (F32, I64),
                  (BF16, I32), (I64, F32)}
    assert set(ALLOWED_CASTS) == none_only | none_rfcaz | only_rfcaz | {(F32, F16)}
    assert ALLOWED_CASTS[F32, F16] == set(M)
    for p in none_only:
        assert ALLOWED_CASTS[p] == {M.CAST_NONE}
    for p in none_rfcaz:
        assert ALLOWED_CASTS[p] == rfcaz | {M.CAST_NONE}
    for p in only_rfcaz:
        assert ALLOWED_CASTS[p] == rfcaz


@pytest.mark.parametrize("src, dst, mode", [
    (F32, I8, M.CAST_TRUNC), (I32, F16, M.CAST_RINT), (F16, BF16, M.CAST_RINT), (F32, F32, M.CAST_NONE),
    (F32, I32, M.CAST_NONE), (F32, BF16, M.CAST_NONE), (F16, F32, M.CAST_RINT), (I8, F16, M.CAST_TRUNC),
    (F16, I8, M.CAST_ODD), (I32, F32, M.CAST_ODD), (np.dtype(np.int64), F32, M.CAST_NONE),
    (np.dtype(np.int32), np.dtype(np.int8), M.CAST_NONE),
])
def test_disallowed_pair_or_mode_is_a_clear_error(src, dst, mode):
    ub = Ub(make_core())
    a, b = ub.buffer(src, 64), ub.buffer(dst, 64)
    with pytest.raises(EmulatorError, match="Cast"):
        Cast(b, a, mode, 64)


def test_round_mode_must_be_a_round_mode():
    ub = Ub(make_core())
    with pytest.raises(EmulatorError):
        Cast(ub.buffer(F16, 64), ub.buffer(F32, 64), "RINT", 64)


BIG_UB = Platform.custom(ub_size=1 << 20, aiv_cores=1)  # room for all 65536 half patterns


def _cast(src_values, src, dst, mode):
    core = make_core(platform=BIG_UB)
    ub = Ub(core)
    n = len(src_values)
    a = ub.buffer(src, n, src_values)
    b = ub.buffer(dst, n)
    Cast(b, a, mode, n)
    assert kinds(core) == []
    return b.numpy(n)


def test_exact_widenings():
    i8 = np.arange(-128, 128, dtype=np.int8)
    np.testing.assert_array_equal(_cast(i8, I8, F16, M.CAST_NONE).astype(np.int64), i8)
    u8 = np.arange(256).astype(np.uint8)
    np.testing.assert_array_equal(_cast(u8, U8, F16, M.CAST_NONE).astype(np.int64), u8)
    h = np.arange(65536, dtype=np.uint32).astype(np.uint16).view(np.float16)
    f = _cast(h, F16, F32, M.CAST_NONE)
    finite = np.isfinite(h)
    np.testing.assert_array_equal(f[finite].astype(np.float64), h[finite].astype(np.float64))
    assert np.all(np.isnan(f[np.isnan(h)]))
    b = np.arange(65536, dtype=np.uint32).astype(np.uint16).view(BF16)
    fb = _cast(b, BF16, F32, M.CAST_NONE)
    keep = ~np.isnan(b.astype(np.float32))
    # bf16 -> f32 is a 16-bit shift of the pattern.
    np.testing.assert_array_equal(bits(fb)[keep], (bits(b).astype(np.uint32) << 16)[keep])


def test_float_to_int32_trunc_saturates_through_ub():
    x = np.array([2.0 ** 31, -3.7, 3.7, np.nan, -np.inf, -(2.0 ** 31)] + [0.0] * 58, dtype=np.float32)
    got = _cast(x, F32, I32, M.CAST_TRUNC)
    assert list(got[:6]) == [2 ** 31 - 1, -3, 3, 0, -(2 ** 31), -(2 ** 31)]


def test_float_to_half_and_back_to_int8():
    x = np.array([1.5, 2.5, -1.5, 1e6, -1e6, 65519.0] + [0.0] * 58, dtype=np.float32)
    h = _cast(x, F32, F16, M.CAST_NONE)
    assert list(h[:6].astype(np.float64)) == [1.5, 2.5, -1.5, np.inf, -np.inf, 65504.0]
    assert list(_cast(h, F16, I8, M.CAST_RINT)[:6]) == [2, 2, -2, 127, -128, 127]
    assert list(_cast(h, F16, U8, M.CAST_ROUND)[:6]) == [2, 3, 0, 255, 0, 255]


@pytest.mark.parametrize("mode", list(M))
def test_cast_instruction_matches_the_rounding_function_for_every_mode(mode):
    from opsnn.ascendc.rounding import to_float

    rng = np.random.default_rng(int.from_bytes(mode.value.encode(), "little") % 2 ** 32)
    x = (rng.standard_normal(256) * 1000).astype(np.float32)
    np.testing.assert_array_equal(bits(_cast(x, F32, F16, mode)), bits(to_float(x, F16, mode)))


def test_cast_past_the_buffer_is_reported():
    core = make_core()
    ub = Ub(core)
    a = ub.buffer(F16, 128, np.zeros(128))
    b = ub.buffer(F32, 64)  # 256 bytes, but 128 floats need 512
    Cast(b, a, M.CAST_NONE, 128)
    assert kinds(core) == ["local_tensor_overflow"]
    f = core.log.items[0]
    assert (f.instruction, f.tensor, f.offset, f.nbytes) == ("Cast", "buf1", 256, 256)
