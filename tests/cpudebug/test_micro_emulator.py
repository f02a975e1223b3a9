"""opsnn.ascendc.micro from Python kernels: the register model (lanes, byte-granular masks,
ZEROING / MERGING), its arithmetic against numpy's own (correctly rounded float32 / half ops, exp
in float64 rounded once), Cast's half-lane layouts, the load / store distributions, and the
sanitizer's view (overflow, alignment, undefined lanes)."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from opsnn.ascendc import CMPMODE, ApiContractError, EmulatorError, GlobalMemory, TBuf, TPipe, micro
from opsnn.ascendc.core import CoreContext
from opsnn.ascendc.local_tensor import read_local
from opsnn.ascendc.rounding import RoundMode
from opsnn.platform import Platform

M = micro
F32, F16 = np.dtype(np.float32), np.dtype(np.float16)


def _core(sanitize: bool = True) -> CoreContext:
    return CoreContext(0, 1, Platform.custom(ub_size=16 * 1024, aiv_cores=1), GlobalMemory(), sanitize)


def _buffer(core, dtype, n, values=None, written=None):
    pipe = TPipe(core)
    buf = TBuf(name=f"b{len(core.buffers)}")
    pipe.InitBuffer(buf, n * np.dtype(dtype).itemsize)
    t = buf.Get(dtype)
    if values is not None:
        raw = np.asarray(values, dtype=dtype).view(np.uint8)
        b = t.buffer
        b.storage[b.base:b.base + raw.size] = raw
        b.written = [(0, raw.size if written is None else written)]
    return t


def _bits(a):
    return np.ascontiguousarray(a).view({2: np.uint16, 4: np.uint32}[a.dtype.itemsize])


def _same(a, b):
    return ((_bits(a) == _bits(b)) | (np.isnan(a) & np.isnan(b))).all()


def _kinds(core):
    return [f.kind for f in core.log.items]


# every bit pattern: NaN payloads, infinities, subnormals, -0
floats32 = st.lists(st.integers(0, 2**32 - 1), min_size=64, max_size=64).map(
    lambda v: np.array(v, np.uint32).view(np.float32))
floats16 = st.lists(st.integers(0, 2**16 - 1), min_size=128, max_size=128).map(
    lambda v: np.array(v, np.uint16).view(np.float16))

_NUMPY = {"Add": np.add, "Sub": np.subtract, "Mul": np.multiply, "Div": np.divide}


@settings(max_examples=40, deadline=None)
@given(a=floats32, b=floats32, op=st.sampled_from(sorted(_NUMPY)), size=st.integers(0, 80),
       merging=st.booleans())
def test_float32_binary_ops_are_numpys_on_the_active_lanes(a, b, op, size, merging):
    core = _core()
    x, y, d = M.RegTensor(core, F32), M.RegTensor(core, F32), M.RegTensor(core, F32)
    x.lanes()[:], y.lanes()[:] = a, b
    x.undef[:] = y.undef[:] = False
    M.Duplicate(d, 3.0)
    mask = M.MaskReg(core)
    assert M.UpdateMask(mask, F32, size) == max(size - 64, 0)
    mode = M.MaskMergeMode.MERGING if merging else M.MaskMergeMode.ZEROING
    getattr(M, op)(d, x, y, mask, mode)
    with np.errstate(all="ignore"):
        want = _NUMPY[op](np.array(a, F32), np.array(b, F32))
    active = np.arange(64) < size
    assert _same(d.lanes()[active], want[active])
    rest = d.lanes()[~active]
    assert (_bits(rest) == _bits(np.full(rest.size, 3.0 if merging else 0.0, F32))).all()
    assert not d.undef.any()


@settings(max_examples=30, deadline=None)
@given(a=floats16, scalar=st.floats(width=16, allow_nan=False, allow_subnormal=False))
def test_half_scalar_ops_and_exp_round_once(a, scalar):
    core = _core()
    x, d = M.RegTensor(core, F16), M.RegTensor(core, F16)
    x.lanes()[:] = a
    x.undef[:] = False
    all16 = M.MaskReg(core)
    M.CreateMask(all16, F16)
    xa = np.array(a, F16)
    with np.errstate(all="ignore"):
        M.Muls(d, x, scalar, all16)
        assert _same(d.lanes(), xa * np.float16(scalar))
        M.Adds(d, x, scalar, all16)
        assert _same(d.lanes(), xa + np.float16(scalar))
        M.Exp(d, x, all16)
        assert _same(d.lanes(), np.exp(xa.astype(np.float64)).astype(F16))


def test_a_b32_mask_seen_by_b16_lanes_enables_the_even_ones():
    core = _core()
    m = M.MaskReg(core)
    M.UpdateMask(m, F32, 3)
    assert list(np.flatnonzero(m.active(4))) == [0, 1, 2]
    assert list(np.flatnonzero(m.active(2))) == [0, 2, 4]
    for pattern, n in ((M.MaskPattern.ALL, 64), (M.MaskPattern.ALLF, 0), (M.MaskPattern.VL16, 16),
                       (M.MaskPattern.H, 32), (M.MaskPattern.Q, 16), (M.MaskPattern.VL128, 64)):
        M.CreateMask(m, F32, pattern)
        assert int(m.active(4).sum()) == n, pattern
    with pytest.raises(EmulatorError, match="M3 is not modelled"):
        M.CreateMask(m, F32, M.MaskPattern.M3)


def test_unpack_cast_pack_round_trip_and_layouts():
    core = _core()
    x = np.arange(128, dtype=np.float16) - np.float16(60.5)
    src = _buffer(core, F16, 128, x)
    dst = _buffer(core, F16, 384)
    packed, wide, back = M.RegTensor(core, F16), M.RegTensor(core, F32), M.RegTensor(core, F16)
    all32 = M.MaskReg(core)
    M.CreateMask(all32, F32)
    M.DataCopy(packed, src, M.LoadDist.DIST_UNPACK_B16)  # 64 halves, each in the low half of a 32-bit lane
    assert _same(packed.lanes()[0::2], x[:64]) and not packed.lanes()[1::2].view(np.uint16).any()
    M.Cast(wide, packed, all32, M.CastTrait(M.RegLayout.ZERO))
    assert _same(wide.lanes(), x[:64].astype(F32))
    M.Cast(wide, packed, all32, M.CastTrait(M.RegLayout.ONE))  # the high halves: the unpack's zeros
    assert not wide.lanes().view(np.uint32).any()
    M.Cast(wide, packed, all32, M.CastTrait(M.RegLayout.ZERO))
    M.Muls(wide, wide, 0.25, all32)
    M.Cast(back, wide, all32, M.CastTrait(M.RegLayout.ZERO, roundMode=RoundMode.CAST_RINT))
    assert not back.lane_undef(2).any() and not back.lanes()[1::2].view(np.uint16).any()  # the other half: +0
    M.DataCopy(dst, back, all32, M.StoreDist.DIST_PACK_B32)
    assert _same(dst.numpy(64), (x[:64].astype(F32) * np.float32(0.25)).astype(F16))
    assert core.log.items == []
    all16 = M.MaskReg(core)
    M.CreateMask(all16, F16)
    M.DataCopy(dst[128], back, all32, M.StoreDist.DIST_NORM_B16)  # a b32 mask: the even (defined) lanes
    read_local(dst[128], 128, "DataCopy")  # as a copy to GM reads them: the odd ones nothing wrote
    assert set(_kinds(core)) == {"ub_read_before_write"} and "nothing wrote" in core.log.items[0].detail
    core.log.items.clear()
    M.DataCopy(dst[256], back, all16, M.StoreDist.DIST_NORM_B16)  # a b16 mask: the zero halves too, defined
    read_local(dst[256], 128, "DataCopy")
    assert core.log.items == [] and not dst[256].numpy(128)[1::2].view(np.uint16).any()


def test_cast_refuses_what_it_does_not_model():
    core = _core()
    f, h, m = M.RegTensor(core, F32), M.RegTensor(core, np.dtype(np.int8)), M.MaskReg(core)
    M.CreateMask(m, F32)
    with pytest.raises(ApiContractError, match="not a conversion AscendC's Reg Cast has"):
        M.Cast(h, f, m)  # float -> int8: AscendC's Reg Cast has none (its implementation compiles it to nothing)
    from opsnn.ascendc.float8 import HIFLOAT8
    with pytest.raises(EmulatorError, match="not modelled"):
        M.Cast(M.RegTensor(core, HIFLOAT8), f, m)  # float -> hifloat8: documented, not modelled
    b = M.RegTensor(core, F16)
    with pytest.raises(EmulatorError, match="SatMode::SAT is not modelled"):
        M.Cast(b, f, m, M.CastTrait(M.RegLayout.ZERO, M.SatMode.SAT))


def test_cast_float_to_int32_without_saturation_keeps_the_low_bits():
    """SatMode::NO_SAT, as AscendC's Reg Cast documents it: the rounded value's low 32 bits;
    +-inf the extremes and NaN 0, as with SAT (which clips instead)."""
    core = _core()
    x = np.zeros(64, dtype=F32)
    x[:9] = [257.5, -1.5, 3e9, -3e9, np.inf, -np.inf, np.nan, 2.0 ** 40 + 2 ** 20, 2.5]
    src = _buffer(core, F32, 64, x)
    f, i, m = M.RegTensor(core, F32), M.RegTensor(core, np.dtype(np.int32)), M.MaskReg(core)
    M.CreateMask(m, F32)
    M.DataCopy(f, src)
    M.Cast(i, f, m, M.CastTrait(M.RegLayout.UNKNOWN, M.SatMode.NO_SAT, roundMode=RoundMode.CAST_RINT))
    want = [258, -2, 3_000_000_000 - 2 ** 32, 2 ** 32 - 3_000_000_000, 2 ** 31 - 1, -2 ** 31, 0, 2 ** 20, 2]
    assert i.lanes()[:9].tolist() == want
    M.Cast(i, f, m, M.CastTrait(M.RegLayout.UNKNOWN, M.SatMode.SAT, roundMode=RoundMode.CAST_TRUNC))
    assert i.lanes()[:9].tolist() == [257, -1, 2 ** 31 - 1, -2 ** 31, 2 ** 31 - 1, -2 ** 31, 0, 2 ** 31 - 1, 2]


def _as_u32(reg):
    """reg's bits seen as a RegTensor<uint32_t> (a C++ kernel's reinterpret of the register)."""
    r = M.RegTensor(reg.ctx, np.dtype(np.uint32))
    r.data[:], r.undef[:], r.origin = reg.data, reg.undef, reg.origin
    return r


def test_cast_float_to_fp8_and_back_by_byte_of_the_lane():
    """float -> fp8 E4M3FN / E5M2 (RINT) into byte `layout` of each 32-bit lane; SAT clamps to the
    largest finite value and turns NaN into 0, NO_SAT overflows to inf (E5M2) or NaN (E4M3FN);
    fp8 -> float reads the same byte back, exactly (ml_dtypes' OCP conversions are the reference)."""
    import ml_dtypes
    core = _core()
    x = np.zeros(64, dtype=F32)
    x[:8] = [448, 464, 480, 1e9, -np.inf, np.nan, 0.3, -2.0 ** -12]
    src = _buffer(core, F32, 64, x)
    f, m = M.RegTensor(core, F32), M.MaskReg(core)
    M.CreateMask(m, F32)
    M.DataCopy(f, src)
    for t, top in ((ml_dtypes.float8_e4m3fn, 448), (ml_dtypes.float8_e5m2, 57344)):
        t = np.dtype(t)
        q, back = M.RegTensor(core, t), M.RegTensor(core, F32)
        for part, layout in enumerate((M.RegLayout.ZERO, M.RegLayout.ONE, M.RegLayout.TWO, M.RegLayout.THREE)):
            M.Cast(q, f, m, M.CastTrait(layout, M.SatMode.SAT, roundMode=RoundMode.CAST_RINT))
            want = np.where(np.isnan(x), 0, np.clip(x, -top, top)).astype(t)
            assert np.array_equal(q.lanes()[part::4].view(np.uint8), want.view(np.uint8))
            others = [i for i in range(256) if i % 4 != part]  # a narrowing Cast's other parts: +0, defined
            assert not q.lane_undef(1)[others].any() and not q.lanes()[others].view(np.uint8).any()
            M.Cast(back, q, m, M.CastTrait(layout))
            assert np.array_equal(back.lanes(), want.astype(F32), equal_nan=True)
        M.Cast(q, f, m, M.CastTrait(M.RegLayout.ZERO, M.SatMode.NO_SAT, roundMode=RoundMode.CAST_RINT))
        with np.errstate(over="ignore", invalid="ignore"):
            assert np.array_equal(q.lanes()[0::4].view(np.uint8), x.astype(t).view(np.uint8))
        out = _buffer(core, t, 64)
        M.DataCopy(out, q, m, M.StoreDist.DIST_PACK4_B32)  # the low byte of each 32-bit lane: 64 bytes
        wide = _buffer(core, np.dtype(np.uint32), 16)  # the same store typed as the register's lanes
        M.DataCopy(wide, _as_u32(q), m, M.StoreDist.DIST_PACK4_B32)
        assert np.array_equal(wide.numpy(16).view(np.uint8), out.numpy(64).view(np.uint8))
        with np.errstate(over="ignore", invalid="ignore"):
            assert np.array_equal(out.numpy(64).view(np.uint8), x.astype(t).view(np.uint8))
    with pytest.raises(EmulatorError, match="8-bit float pairs"):
        M.Cast(q, f, m, M.CastTrait(M.RegLayout.ZERO, M.SatMode.SAT, roundMode=RoundMode.CAST_ROUND))


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32"])
def test_truncate_rounds_to_integral_values_of_the_type(dtype):
    import ml_dtypes
    t = np.dtype(ml_dtypes.bfloat16) if dtype == "bfloat16" else np.dtype(dtype)
    core = _core()
    n = 256 // t.itemsize
    x = np.zeros(n, dtype=t)
    x[:10] = np.array([2.5, -2.5, 1.5, -0.4, 0.5, np.inf, -np.inf, np.nan, 3.75, -0.0], dtype=np.float32).astype(t)
    src = _buffer(core, t, n, x)
    v, r, m = M.RegTensor(core, t), M.RegTensor(core, t), M.MaskReg(core)
    M.CreateMask(m, t)
    M.DataCopy(v, src)
    wide = x.astype(np.float64)
    for mode, fn in ((RoundMode.CAST_RINT, np.rint), (RoundMode.CAST_FLOOR, np.floor), (RoundMode.CAST_CEIL, np.ceil),
                     (RoundMode.CAST_TRUNC, np.trunc),
                     (RoundMode.CAST_ROUND, lambda a: np.copysign(np.floor(np.abs(a) + 0.5), a))):
        M.Truncate(r, v, m, mode)
        with np.errstate(invalid="ignore"):
            want = fn(wide).astype(t)
        assert np.array_equal(r.lanes().view(f"u{t.itemsize}"), want.view(f"u{t.itemsize}")), mode
    with pytest.raises(EmulatorError, match="not CAST_NONE"):
        M.Truncate(r, v, m)


@pytest.mark.parametrize("dtype", [np.uint8, np.float16, np.float32])
def test_dual_loads_deinterleave_and_dual_stores_interleave(dtype):
    t = np.dtype(dtype)
    core = _core()
    n = 256 // t.itemsize
    x = (np.arange(2 * n) % 97).astype(t)
    src, dst = _buffer(core, t, 2 * n, x), _buffer(core, t, 2 * n)
    a, b, m = M.RegTensor(core, t), M.RegTensor(core, t), M.MaskReg(core)
    M.CreateMask(m, t)
    dist = {1: "B8", 2: "B16", 4: "B32"}[t.itemsize]
    M.LoadDualSecond(b, src, getattr(M.LoadDist, f"DIST_DINTLV_{dist}"))
    M.LoadDualFirst(a)
    assert np.array_equal(a.lanes(), x[0::2]) and np.array_equal(b.lanes(), x[1::2])
    M.DataCopy(dst, b, a, m, getattr(M.StoreDist, f"DIST_INTLV_{dist}"))  # b's elements first: swapped pairs
    want = np.empty_like(x)
    want[0::2], want[1::2] = x[1::2], x[0::2]
    assert np.array_equal(dst.numpy(2 * n), want) and core.log.items == []
    with pytest.raises(EmulatorError, match="DIST_DINTLV"):
        M.LoadDualSecond(b, src, M.LoadDist.DIST_NORM)


def test_mask_register_logic_under_a_predicate():
    core = _core()
    a, b, p, d = (M.MaskReg(core) for _ in range(4))
    M.CreateMask(a, F32)  # 64 lanes: every 4th bit
    M.UpdateMask(b, F16, 40)  # the first 40 half lanes: bits 0, 2, ... 78
    M.UpdateMask(p, np.dtype(np.uint8), 128)  # bits 0..127
    want_a, want_b, want_p = a.bits.copy(), b.bits.copy(), p.bits.copy()
    for fn, op in ((M.MaskAnd, np.logical_and), (M.MaskOr, np.logical_or), (M.MaskXor, np.logical_xor)):
        fn(d, a, b, p)
        assert np.array_equal(d.bits, op(want_a, want_b) & want_p) and not d.undef.any()
    M.MaskNot(d, a, p)
    assert np.array_equal(d.bits, ~want_a & want_p)
    M.MaskSel(d, a, b, p)
    assert np.array_equal(d.bits, np.where(want_p, want_a, want_b))
    fresh = M.MaskReg(core)  # undefined bits make undefined results under the predicate
    M.MaskAnd(d, fresh, b, p)
    assert d.undef[:128].all() and not d.undef[128:].any()
    with pytest.raises(EmulatorError, match="takes MaskRegs"):
        M.MaskAnd(d, a, M.RegTensor(core, F32), p)


@pytest.mark.parametrize("dtype", ["uint8", "int8", "uint16", "uint32", "bfloat16"])
def test_add_sub_max_min_mul_on_the_other_lane_types(dtype):
    """integers wrap; bfloat16 is computed in float and rounded to bfloat16 (AscendC's rule)"""
    import ml_dtypes
    t = np.dtype(ml_dtypes.bfloat16) if dtype == "bfloat16" else np.dtype(dtype)
    floating = dtype == "bfloat16"
    core = _core()
    n = 256 // t.itemsize
    rng = np.random.default_rng(5)
    if floating:
        a, b = (rng.standard_normal(n).astype(np.float32).astype(t) for _ in range(2))
    else:
        info = np.iinfo(t)
        a, b = (rng.integers(info.min, info.max, n, endpoint=True).astype(t) for _ in range(2))
    ra, rb, out, m = M.RegTensor(core, t), M.RegTensor(core, t), M.RegTensor(core, t), M.MaskReg(core)
    M.CreateMask(m, t)
    M.DataCopy(ra, _buffer(core, t, n, a))
    M.DataCopy(rb, _buffer(core, t, n, b))

    def exact(op):
        if floating:
            return op(a.astype(np.float32), b.astype(np.float32)).astype(t)
        with np.errstate(over="ignore"):
            return op(a, b)
    wants = {M.Add: exact(np.add), M.Sub: exact(np.subtract), M.Max: exact(np.maximum), M.Min: exact(np.minimum)}
    if t.itemsize >= 2:
        wants[M.Mul] = exact(np.multiply)
    else:
        with pytest.raises(EmulatorError, match="takes"):
            M.Mul(out, ra, rb, m)
    for op, want in wants.items():
        op(out, ra, rb, m)
        assert np.array_equal(out.lanes().view(f"u{t.itemsize}"), want.view(f"u{t.itemsize}")), op.__name__
    gt = M.MaskReg(core)  # Compare takes the same types
    M.Compare(gt, ra, rb, m, CMPMODE.GT)
    assert np.array_equal(gt.active(t.itemsize), a.astype(np.float64) > b.astype(np.float64))


def test_cast_between_half_and_bfloat16_in_each_directed_mode():
    import ml_dtypes
    bf = np.dtype(ml_dtypes.bfloat16)
    core = _core()
    x = np.zeros(128, dtype=F16)
    x[:6] = [1.00390625, -1.00390625, 65504, np.nan, -np.inf, 3.0]
    h, b, back, m = M.RegTensor(core, F16), M.RegTensor(core, bf), M.RegTensor(core, F16), M.MaskReg(core)
    M.CreateMask(m, F16)
    M.DataCopy(h, _buffer(core, F16, 128, x))
    modes = ((RoundMode.CAST_TRUNC, np.trunc), (RoundMode.CAST_FLOOR, np.floor), (RoundMode.CAST_CEIL, np.ceil))
    for mode, fn in modes:
        M.Cast(b, h, m, M.CastTrait(M.RegLayout.UNKNOWN, roundMode=mode))
        # 1 + 2**-8 lies between the bfloat16 neighbours 1 and 1 + 2**-7
        got = b.lanes()[:2].astype(np.float64)
        assert got.tolist() == [float(fn(128.5) / 128), float(fn(-128.5) / 128)], mode
        assert b.lanes()[2] == 65536.0 if mode is RoundMode.CAST_CEIL else b.lanes()[2] == 65280.0
        assert np.isnan(b.lanes()[3]) and b.lanes()[4] == -np.inf
    M.Cast(back, b, m, M.CastTrait(M.RegLayout.UNKNOWN, M.SatMode.SAT, roundMode=RoundMode.CAST_RINT))
    assert back.lanes()[2] == np.float16(65504) and back.lanes()[3] == 0 and back.lanes()[4] == -np.float16(65504)
    M.Cast(back, b, m, M.CastTrait(M.RegLayout.UNKNOWN, M.SatMode.NO_SAT, roundMode=RoundMode.CAST_RINT))
    assert back.lanes()[2] == np.inf and np.isnan(back.lanes()[3])
    with pytest.raises(EmulatorError, match="not CAST_NONE"):
        M.Cast(b, h, m, M.CastTrait(M.RegLayout.UNKNOWN))


@pytest.mark.parametrize("dtype", [F16, F32])
def test_element_to_block_load_broadcasts_eight_elements(dtype):
    core = _core()
    x = np.arange(1, 33, dtype=dtype)
    src = _buffer(core, dtype, 32, x)
    r = M.RegTensor(core, dtype)
    dist = M.LoadDist.DIST_E2B_B16 if dtype == F16 else M.LoadDist.DIST_E2B_B32
    M.DataCopy(r, src[2], dist)  # from the third element: each of 8 repeated over a 32-byte block
    assert np.array_equal(r.lanes(), np.repeat(x[2:10], 32 // np.dtype(dtype).itemsize)) and not r.undef.any()
    per_block = 32 // np.dtype(dtype).itemsize
    M.DataCopy(r, src[per_block], M.LoadDist.DIST_BLK)  # the second block, over all eight
    assert np.array_equal(r.lanes(), np.tile(x[per_block:2 * per_block], 8))


def test_register_gather_wraps_the_index():
    core = _core()
    x = np.arange(128, dtype=F16)
    idx = ((np.arange(128) * 7 + 168) % 65536).astype(np.uint16)  # 168 and up: past the 128 lanes
    src, ix, out = M.RegTensor(core, F16), M.RegTensor(core, np.dtype(np.uint16)), M.RegTensor(core, F16)
    M.DataCopy(src, _buffer(core, F16, 128, x))
    M.DataCopy(ix, _buffer(core, np.dtype(np.uint16), 128, idx))
    M.Gather(out, src, ix)
    assert np.array_equal(out.lanes(), x[idx.astype(np.int64) % 128]) and not out.undef.any()
    with pytest.raises(EmulatorError, match="one width"):
        M.Gather(out, src, M.RegTensor(core, np.dtype(np.uint32)))


def test_integer_casts_widen_exactly_and_narrow_by_sat_mode():
    core = _core()
    x = np.array(list(range(-3, 253)), dtype=np.int16)[:128]
    x[:4] = [-300, 300, -1, 255]
    src, u8, m16 = M.RegTensor(core, np.dtype(np.int16)), M.RegTensor(core, np.dtype(np.uint8)), M.MaskReg(core)
    M.CreateMask(m16, np.dtype(np.int16))
    M.DataCopy(src, _buffer(core, np.dtype(np.int16), 128, x))
    M.Cast(u8, src, m16, M.CastTrait(M.RegLayout.ZERO, M.SatMode.SAT))
    assert np.array_equal(u8.lanes()[0::2], np.clip(x, 0, 255).astype(np.uint8))
    M.Cast(u8, src, m16, M.CastTrait(M.RegLayout.ZERO, M.SatMode.NO_SAT))
    assert np.array_equal(u8.lanes()[0::2], x.astype(np.uint8))  # the low 8 bits
    wide = M.RegTensor(core, np.dtype(np.uint16))
    M.Cast(wide, u8, m16, M.CastTrait(M.RegLayout.ZERO))  # uint8 -> uint16: exact
    assert np.array_equal(wide.lanes(), x.astype(np.uint8).astype(np.uint16))


def test_unpack4_load_puts_each_byte_in_a_32_bit_lane():
    core = _core()
    x = np.arange(64, dtype=np.uint8) + 1
    r = M.RegTensor(core, np.dtype(np.uint8))
    M.DataCopy(r, _buffer(core, np.dtype(np.uint8), 64, x), M.LoadDist.DIST_UNPACK4_B8)
    assert np.array_equal(r.lanes()[0::4], x) and not r.lanes().reshape(64, 4)[:, 1:].any()


def test_ctrl_bits_round_trip_and_the_global_saturation_mode_is_refused():
    """SetCtrlSpr / GetCtrlSpr / ResetCtrlSpr<start, end> on the core's CTRL (reset value 0 in the
    model): the kernels' pattern -- read bit 60, clear it, Cast, restore it -- runs; with bit 60 set
    a Cast (the global saturation modes) is refused by name."""
    from opsnn.ascendc import GetCtrlSpr, ResetCtrlSpr, SetCtrlSpr
    core = _core()
    assert GetCtrlSpr(core, 60, 60) == 0
    SetCtrlSpr(core, 48, 51, 0x1F)  # only the field's 4 bits are kept
    assert GetCtrlSpr(core, 48, 51) == 0xF and GetCtrlSpr(core, 48, 48) == 1 and GetCtrlSpr(core, 52, 60) == 0
    ResetCtrlSpr(core, 49, 50)
    assert GetCtrlSpr(core, 48, 51) == 0b1001
    f, i, m = M.RegTensor(core, F32), M.RegTensor(core, np.dtype(np.int32)), M.MaskReg(core)
    M.CreateMask(m, F32)
    M.Duplicate(f, 2.5, m)
    original = GetCtrlSpr(core, 60, 60)
    SetCtrlSpr(core, 60, 60, 0)
    M.Cast(i, f, m, M.CastTrait(M.RegLayout.UNKNOWN, M.SatMode.SAT, roundMode=RoundMode.CAST_RINT))
    SetCtrlSpr(core, 60, 60, original)
    assert i.lanes()[0] == 2
    SetCtrlSpr(core, 60, 60, 1)
    with pytest.raises(EmulatorError, match=r"CTRL\[60\] = 1"):
        M.Cast(i, f, m, M.CastTrait(M.RegLayout.UNKNOWN, M.SatMode.SAT, roundMode=RoundMode.CAST_RINT))
    with pytest.raises(EmulatorError, match="startBit"):
        SetCtrlSpr(core, 61, 60, 0)


def test_compare_and_select():
    core = _core()
    x = np.linspace(-4, 4, 64, dtype=F32)
    x[5] = np.nan
    src = _buffer(core, F32, 64, x)
    v, neg, out = M.RegTensor(core, F32), M.RegTensor(core, F32), M.RegTensor(core, F32)
    all32, gt = M.MaskReg(core), M.MaskReg(core)
    M.CreateMask(all32, F32)
    M.DataCopy(v, src)
    M.Muls(neg, v, -1.0, all32)
    M.CompareScalar(gt, v, 0.0, all32, CMPMODE.GT)
    M.Select(out, v, neg, gt)
    with np.errstate(invalid="ignore"):
        want = np.where(x > 0, x, -x)
    assert _same(out.lanes(), want)


def test_loads_and_stores_are_judged_against_their_buffer():
    core = _core()
    src = _buffer(core, F32, 64, np.ones(64, F32))
    v, all32 = M.RegTensor(core, F32), M.MaskReg(core)
    M.CreateMask(all32, F32)
    M.DataCopy(v, src[4])  # 16 bytes on: unaligned, and 16 bytes past the buffer
    assert _kinds(core) == ["datacopy_unaligned"]  # a load past the end reads undefined lanes, no error
    assert core.log.items[0].instruction == "MicroAPI::DataCopy"
    assert list(np.flatnonzero(v.lane_undef(4))) == [60, 61, 62, 63]
    last = _buffer(core, F32, (16 * 1024 - 256) // 4, np.ones((16 * 1024 - 256) // 4, F32))  # to UB's end
    M.DataCopy(v, last[last.GetSize() - 8])  # this load reaches past the kernel's UB: an error
    assert _kinds(core)[-1] == "local_tensor_overflow"
    M.UpdateMask(all32, F32, 8)
    M.DataCopy(src[62], v, all32)  # 8 lanes from element 62: 6 past the end
    assert _kinds(core)[-1] == "local_tensor_overflow" and core.log.items[-1].nbytes == 24
    with pytest.raises(EmulatorError, match="DIST_DS_B16 is not modelled"):
        M.DataCopy(M.RegTensor(core, F16), src.ReinterpretCast(F16), M.LoadDist.DIST_DS_B16)
    with pytest.raises(EmulatorError, match="moves 16-bit elements"):
        M.DataCopy(v, src, M.LoadDist.DIST_UNPACK_B16)


def test_undefined_lanes_flow_valgrind_style():
    core = _core()
    src = _buffer(core, F32, 64, np.arange(64, dtype=F32), written=40 * 4)  # 40 of 64 written
    dst = _buffer(core, F32, 64)
    v, w, all32, first40 = (M.RegTensor(core, F32), M.RegTensor(core, F32), M.MaskReg(core), M.MaskReg(core))
    M.CreateMask(all32, F32)
    M.UpdateMask(first40, F32, 40)
    M.DataCopy(v, src)
    assert v.lane_undef(4).sum() == 24 and core.log.items == []  # loading them is no error
    M.Adds(w, v, 1.0, first40)  # ZEROING: the inactive lanes are defined zeros
    assert not w.undef.any()
    M.Adds(w, v, 1.0, first40, M.MaskMergeMode.MERGING)  # MERGING keeps w's (defined) lanes
    assert not w.undef.any()
    M.Adds(v, v, 1.0, first40, M.MaskMergeMode.MERGING)  # keeps v's undefined ones
    M.DataCopy(dst, v, all32)
    assert core.log.items == []  # UB holds them now; still no error
    read_local(dst, 64, "DataCopy")
    [f] = core.log.items
    assert (f.kind, f.offset, f.nbytes) == ("ub_read_before_write", 160, 96)
    assert "MicroAPI::DataCopy read bytes [160, 256)" in f.detail
    fresh = M.RegTensor(core, F32)
    M.Abs(w, fresh, all32)  # a register nothing wrote: every lane undefined
    assert w.undef.all() and "read lanes of a register nothing wrote" in w.origin


def test_deinterleave_and_interleave_registers():
    """DeInterleave: src0's then src1's lanes, the even ones into dst0, the odd into dst1;
    Interleave undoes it; a destination may be a source; undefined lanes move with their values."""
    core = _core()
    a, b, d0, d1 = (M.RegTensor(core, F32) for _ in range(4))
    a.data.view(F32)[:] = np.arange(64, dtype=F32)
    b.data.view(F32)[:] = np.arange(64, 128, dtype=F32)
    a.undef[:] = False
    b.undef[:] = False
    b.undef[4 * 63:] = True  # lane 127 of the pair undefined
    M.DeInterleave(d0, d1, a, b)
    assert list(d0.numpy()) == list(range(0, 128, 2)) and list(d1.numpy()) == list(range(1, 128, 2))
    assert not d0.undef.any() and list(np.flatnonzero(d1.lane_undef(4))) == [63]
    M.Interleave(d0, d1, d0, d1)  # in place: back to the original order
    assert list(d0.numpy()) == list(range(64)) and list(d1.numpy()) == list(range(64, 128))
    assert list(np.flatnonzero(d1.lane_undef(4))) == [63]
    with pytest.raises(EmulatorError, match="different registers"):
        M.DeInterleave(d0, d0, a, b)


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32])
def test_shift_by_a_register_lane_by_lane_and_past_the_width(dtype):
    core = _core()
    t = np.dtype(dtype)
    bits, n = 8 * t.itemsize, 256 // t.itemsize
    signed = np.dtype(f"i{t.itemsize}")
    rng = np.random.default_rng(bits)
    x = rng.integers(np.iinfo(t).min, np.iinfo(t).max, n, endpoint=True).astype(t)
    by = rng.integers(0, bits + 3, n).astype(signed)  # some at or past the width
    src, sh, out, mask = M.RegTensor(core, t), M.RegTensor(core, signed), M.RegTensor(core, t), M.MaskReg(core)
    M.CreateMask(mask, t)
    M.DataCopy(src, _buffer(core, t, n, x))
    M.DataCopy(sh, _buffer(core, signed, n, by))
    wide, k = x.astype(object), by.astype(np.int64)
    M.ShiftRight(out, src, sh, mask)
    want = [v >> int(s) if s < bits else (-1 if v < 0 else 0) for v, s in zip(wide, k, strict=True)]
    assert np.array_equal(out.lanes(), np.array(want, dtype=object).astype(np.int64).astype(t))
    M.ShiftLeft(out, src, sh, mask)
    want = [(int(v) << int(s)) & ((1 << bits) - 1) if s < bits else 0 for v, s in zip(wide, k, strict=True)]
    assert np.array_equal(out.lanes().view(f"u{t.itemsize}"), np.array(want, dtype=np.uint64).astype(f"u{t.itemsize}"))
    with pytest.raises(EmulatorError, match="shifts are"):
        M.ShiftRight(out, src, src if t.kind == "u" else M.RegTensor(core, np.dtype(f"u{t.itemsize}")), mask)
    M.DataCopy(sh, _buffer(core, signed, n, np.full(n, -1, signed)))
    with pytest.raises(EmulatorError, match="negative shift"):
        M.ShiftRight(out, src, sh, mask)


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.float16, np.float32])
def test_arange_counts_up_from_the_scalar_or_down_to_it(dtype):
    core = _core()
    t = np.dtype(dtype)
    n = 256 // t.itemsize
    out = M.RegTensor(core, t)
    M.Arange(out, 5)
    up = (5 + np.arange(n)).astype(np.int64)
    want = up.astype(np.uint64).astype(f"u{t.itemsize}").view(t) if t.kind == "i" else up.astype(t)
    assert np.array_equal(out.lanes(), want)  # int8: 127 then -128, as AscendC says
    M.Arange(out, 5, M.IndexOrder.DECREASE_ORDER)
    assert np.array_equal(out.lanes(), want[::-1])
    assert out.lanes()[-1] == 5


def test_gather_from_ub_by_element_index_under_a_mask():
    core = _core()
    table = np.arange(200, dtype=np.float32) * 1.5
    src = _buffer(core, F32, 200, table)
    idx = ((np.arange(64) * 37) % 200).astype(np.uint32)
    ix, out, mask = M.RegTensor(core, np.dtype(np.uint32)), M.RegTensor(core, F32), M.MaskReg(core)
    M.DataCopy(ix, _buffer(core, np.dtype(np.uint32), 64, idx))
    left = M.UpdateMask(mask, F32, 40)  # lanes 40..63 inactive: zeros (ZEROING)
    assert left == 0
    M.Gather(out, src, ix, mask)
    assert np.array_equal(out.lanes()[:40], table[idx[:40]]) and not out.lanes()[40:].any()
    assert not out.undef.any()
    # int8 into int16 lanes: the byte, zeros above (-40 reads as 216)
    b8 = _buffer(core, np.dtype(np.int8), 64, np.array([-40, 40] * 32, np.int8))
    i16, w = M.RegTensor(core, np.dtype(np.uint16)), M.RegTensor(core, np.dtype(np.int16))
    M.DataCopy(i16, _buffer(core, np.dtype(np.uint16), 128, np.arange(128) % 2))
    m16 = M.MaskReg(core)
    M.CreateMask(m16, np.dtype(np.int16))
    M.Gather(w, b8, i16, m16)
    assert list(w.lanes()[:4]) == [216, 40, 216, 40]
    # an index into bytes nothing wrote: an undefined lane, not a value
    partial = _buffer(core, F32, 64, np.ones(64, np.float32), written=32 * 4)
    M.CreateMask(mask, F32)
    M.Gather(out, partial, ix, mask)
    assert out.lane_undef(4)[np.flatnonzero(idx % 200 >= 32)].all()
    with pytest.raises(EmulatorError, match="not one of AscendC's pairs"):
        M.Gather(M.RegTensor(core, np.dtype(np.int32)), src, ix, mask)
    with pytest.raises(ApiContractError, match="32-byte aligned"):
        M.Gather(out, src[1], ix, mask)


def test_scalar_forms_take_unsigned_and_byte_lanes():
    core = _core()
    u32 = np.dtype(np.uint32)
    x = np.array([0, 1, 2**32 - 1] + [7] * 61, dtype=u32)
    src, out, mask = M.RegTensor(core, u32), M.RegTensor(core, u32), M.MaskReg(core)
    M.CreateMask(mask, u32)
    M.DataCopy(src, _buffer(core, u32, 64, x))
    M.Adds(out, src, 1, mask)
    assert list(out.lanes()[:3]) == [1, 2, 0]  # wraps
    M.Maxs(out, src, 5, mask)
    assert list(out.lanes()[:4]) == [5, 5, 2**32 - 1, 7]
    with pytest.raises(EmulatorError, match="takes"):
        M.Muls(M.RegTensor(core, np.dtype(np.int8)), M.RegTensor(core, np.dtype(np.int8)), 2, mask)


def test_scatter_stores_each_active_lane_at_its_index():
    core = _core()
    out = _buffer(core, F32, 128)
    x = np.arange(64, dtype=np.float32) + 0.5
    idx = ((np.arange(64) * 37) % 128).astype(np.uint32)  # distinct
    src, ix, mask = M.RegTensor(core, F32), M.RegTensor(core, np.dtype(np.uint32)), M.MaskReg(core)
    M.DataCopy(src, _buffer(core, F32, 64, x))
    M.DataCopy(ix, _buffer(core, np.dtype(np.uint32), 64, idx))
    M.UpdateMask(mask, F32, 40)  # lanes 40.. stay where they are: nothing stored
    M.Scatter(out, src, ix, mask)
    got = read_local(out, 128, "test", check=False)
    want = np.zeros(128, np.float32)
    want[idx[:40]] = x[:40]
    assert np.array_equal(got, want)
    def covered(k):
        return any(a <= 4 * k and 4 * k + 4 <= b for a, b in out.buffer.written)
    assert all(covered(int(k)) for k in idx[:40]) and not covered(int(idx[45]))  # the sanitizer's record
    # int8: the register's even bytes, with b16 indices
    b8 = _buffer(core, np.dtype(np.int8), 64)
    r8, i16, m16 = M.RegTensor(core, np.dtype(np.int8)), M.RegTensor(core, np.dtype(np.uint16)), M.MaskReg(core)
    M.DataCopy(r8, _buffer(core, np.dtype(np.int8), 256, np.arange(256).astype(np.int8)))
    M.DataCopy(i16, _buffer(core, np.dtype(np.uint16), 128, (np.arange(128) + 1) % 64))
    M.UpdateMask(m16, np.dtype(np.uint16), 63)
    M.Scatter(b8, r8, i16, m16)
    got8 = read_local(b8, 64, "test", check=False)
    assert got8[1] == 0 and got8[2] == 2 and got8[63] == np.int8(124)  # lane i -> byte 2i at index i + 1
    # one index twice among active lanes: AscendC keeps one of them, unspecified which
    M.DataCopy(ix, _buffer(core, np.dtype(np.uint32), 64, np.zeros(64, np.uint32)))
    with pytest.raises(ApiContractError, match="unique"):
        M.Scatter(out, src, ix, mask)
    with pytest.raises(EmulatorError, match="not one of AscendC's pairs"):
        M.Scatter(out, src, M.RegTensor(core, np.dtype(np.uint16)), mask)
    with pytest.raises(ApiContractError, match="32-byte aligned"):
        M.Scatter(out[1], src, ix, mask)
