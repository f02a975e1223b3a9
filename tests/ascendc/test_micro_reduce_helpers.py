"""The MicroAPI instructions upstream's Ascend950 reduction helpers are written with, beyond the
in-register reductions (norm_common's reduce_common_regbase.h, the welford / dichotomy loops):
the multiply-adds (MulDstAdd fused, MulAddDst / Mula twice rounded), Move (Copy with a mask), the
bit operations (And / Or / Xor / Not, ShiftLefts / ShiftRights -- the tail-zeroing idiom), the
unaligned moves (LoadUnAlign, StoreUnAlign / StoreUnAlignPost and their older names), and the
scalar bit counting a binary-cache reduce indexes its cache with."""
from __future__ import annotations

import numpy as np
import pytest

import opsnn.ascendc as asc
from opsnn.ascendc import EmulatorError, micro

from .exact_rounding import fma
from .helpers import Ub, bits, copy_out, kinds, make_core


def _reg(core, dtype, values):
    ub = Ub(core)
    t = ub.buffer(dtype, 256 // np.dtype(dtype).itemsize, values)
    reg = micro.RegTensor(core, dtype)
    micro.DataCopy(reg, t)
    return reg


def _mask(core, dtype, count):
    m = micro.MaskReg(core)
    micro.UpdateMask(m, dtype, count)
    return m


# ---- multiply-adds ----

@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_muldstadd_is_dst_times_src0_plus_src1_rounded_once(dtype):
    """AscendC: dstReg = dstReg * srcReg0 + srcReg1, one fused instruction. Operands chosen so the
    product's low bits decide the rounding of the sum (two roundings differ from one)."""
    core = make_core()
    n = 256 // np.dtype(dtype).itemsize
    rng = np.random.default_rng(3)
    eps = np.finfo(dtype).eps
    a = (1 + rng.integers(1, 64, n) * eps).astype(dtype)
    b = (1 + rng.integers(1, 64, n) * eps).astype(dtype)
    c = (-a.astype(np.float64) * b.astype(np.float64)).astype(dtype)  # cancels to the product's tail
    dst, s0, s1 = _reg(core, dtype, a), _reg(core, dtype, b), _reg(core, dtype, c)
    micro.MulDstAdd(dst, s0, s1, _mask(core, dtype, n - 3))
    want = fma(a, b, c)
    got = dst.numpy()
    assert (bits(got[:n - 3]) == bits(want[:n - 3])).all()
    assert (bits(got[n - 3:]) == 0).all()  # ZEROING
    twice = (a * b + c).astype(dtype)
    assert (bits(twice[:n - 3]) != bits(want[:n - 3])).any()  # the test tells one rounding from two
    assert kinds(core) == []


def test_muldstadd_is_not_the_float64_sum_rounded_again():
    """(1 + 2^-12)^2 + 2^-80: the product ends exactly half a float ulp above 1 + 2^-11, the 2^-80
    lifts the exact sum over the tie (so float rounds up), but a float64 sum drops it and the tie
    then goes to even (down): one rounding is not float64's sum rounded to float."""
    core = make_core()
    a = np.full(64, 1 + 2.0 ** -12, np.float32)
    c = np.full(64, 2.0 ** -80, np.float32)
    dst = _reg(core, np.float32, a)
    micro.MulDstAdd(dst, _reg(core, np.float32, a), _reg(core, np.float32, c), _mask(core, np.float32, 64))
    want = np.float32(1 + 2.0 ** -11 + 2.0 ** -23)
    assert (dst.numpy() == want).all()
    assert np.float32(np.float64(a[0]) * np.float64(a[0]) + np.float64(c[0])) != want


def test_muldstadd_nans_and_infinities():
    core = make_core()
    a = np.zeros(64, np.float32)
    b = np.zeros(64, np.float32)
    c = np.zeros(64, np.float32)
    a[:4] = [np.inf, -np.inf, 1.0, np.nan]
    b[:4] = [0.0, 0.0, np.inf, 2.0]
    c[:4] = [1.0, 1.0, -np.inf, 3.0]
    dst = _reg(core, np.float32, a)
    micro.MulDstAdd(dst, _reg(core, np.float32, b), _reg(core, np.float32, c), _mask(core, np.float32, 64))
    got = bits(dst.numpy()[:4])
    assert list(got[:2]) == [0x7FC00000, 0xFFC00000]  # inf * 0: the default NaN, sign(a) ^ sign(b)
    assert got[2] == 0x7FC00000  # inf - inf
    assert got[3] == 0x7FC00000  # a NaN operand comes through (quiet)


def test_muladddst_and_mula_are_src0_times_src1_plus_dst_rounded_twice():
    core = make_core()
    rng = np.random.default_rng(4)
    a, b, d = (rng.uniform(-2, 2, 64).astype(np.float32) for _ in range(3))
    for name in ("MulAddDst", "Mula"):
        dst = _reg(core, np.float32, d)
        getattr(micro, name)(dst, _reg(core, np.float32, a), _reg(core, np.float32, b), _mask(core, np.float32, 64))
        assert (bits(dst.numpy()) == bits((a * b) + d)).all()


def test_move_copies_the_active_lanes_merging_or_zeroing():
    core = make_core()
    x = np.arange(64, dtype=np.int32) + 100
    y = -np.arange(64, dtype=np.int32)
    dst = _reg(core, np.int32, y)
    micro.Move(dst, _reg(core, np.int32, x), _mask(core, np.int32, 10), micro.MaskMergeMode.MERGING)
    assert (dst.numpy() == np.concatenate([x[:10], y[10:]])).all()
    micro.Move(dst, _reg(core, np.int32, x), _mask(core, np.int32, 5))
    assert (dst.numpy() == np.concatenate([x[:5], np.zeros(59, np.int32)])).all()


# ---- bit operations ----

def test_and_or_xor_not_on_integer_lanes():
    core = make_core()
    rng = np.random.default_rng(5)
    a = rng.integers(0, 1 << 16, 128).astype(np.uint16)
    b = rng.integers(0, 1 << 16, 128).astype(np.uint16)
    m = _mask(core, np.uint16, 128)
    for name, want in (("And", a & b), ("Or", a | b), ("Xor", a ^ b)):
        dst = micro.RegTensor(core, np.uint16)
        getattr(micro, name)(dst, _reg(core, np.uint16, a), _reg(core, np.uint16, b), m)
        assert (dst.numpy() == want).all(), name
    dst = micro.RegTensor(core, np.uint16)
    micro.Not(dst, _reg(core, np.uint16, a), _mask(core, np.uint16, 100))
    assert (dst.numpy() == np.concatenate([~a[:100], np.zeros(28, np.uint16)])).all()
    with pytest.raises(EmulatorError, match="And"):
        micro.And(micro.RegTensor(core, np.float32), _reg(core, np.float32, np.zeros(64)),
                  _reg(core, np.float32, np.zeros(64)), m)


def test_shifts_left_logical_right_arithmetic_on_signed_lanes():
    core = make_core()
    x = np.array([1, -8, 0x4000_0001, -1] * 16, np.int32)
    m = _mask(core, np.int32, 64)
    dst = micro.RegTensor(core, np.int32)
    micro.ShiftRights(dst, _reg(core, np.int32, x), 2, m)
    assert (dst.numpy() == x >> 2).all() and dst.numpy()[1] == -2
    u = x.view(np.uint32)
    udst = micro.RegTensor(core, np.uint32)
    micro.ShiftRights(udst, _reg(core, np.uint32, u), 2, m)
    assert (udst.numpy() == u >> np.uint32(2)).all() and udst.numpy()[3] == 0x3FFF_FFFF
    micro.ShiftLefts(udst, _reg(core, np.uint32, u), 3, m)
    assert (udst.numpy() == u << np.uint32(3)).all()
    for bad in (-1, 32):
        with pytest.raises(EmulatorError, match=f"ShiftLefts by {bad}"):
            micro.ShiftLefts(udst, _reg(core, np.uint32, u), bad, m)


def test_shiftlefts_by_zero_under_a_tail_mask_clears_a_float_registers_tail():
    """reduce_common_regbase.h's idiom: ShiftLefts((RegTensor<uint32_t>&)reg, ..., 0, tailMask)."""
    core = make_core()
    x = np.linspace(-3, 3, 64).astype(np.float32)
    reg = _reg(core, np.float32, x)
    reg.dtype = np.dtype(np.uint32)  # C++'s reinterpreting reference
    micro.ShiftLefts(reg, reg, 0, _mask(core, np.uint32, 40))
    reg.dtype = np.dtype(np.float32)
    assert (bits(reg.numpy()) == bits(np.concatenate([x[:40], np.zeros(24, np.float32)]))).all()


# ---- unaligned moves ----

def _ub_bytes(t, nbytes):
    b = t.buffer
    return b.storage[b.base + t.offset:b.base + t.offset + nbytes].copy()


@pytest.mark.parametrize("dtype,counts,start", [
    (np.float32, [5, 64, 3, 17, 1], 3),
    (np.int16, [7, 128, 50, 1, 9], 1),
    (np.float16, [16, 16, 16], 0),
])
def test_stores_continue_one_another_and_post_writes_the_last_partial_block(dtype, counts, start):
    core = make_core()
    t = np.dtype(dtype)
    lanes = 256 // t.itemsize
    total = start + sum(counts) + 40
    ub = Ub(core)
    sentinel = np.full(total, 7, dtype)
    out = ub.buffer(dtype, total, sentinel)
    rng = np.random.default_rng(6)
    ureg = micro.UnalignReg(core)
    pos, want = start, sentinel.copy()
    for c in counts:
        vals = rng.integers(-100, 100, lanes).astype(dtype)
        micro.StoreUnAlign(out[pos], _reg(core, dtype, vals), ureg, c)
        want[pos:pos + c] = vals[:c]
        pos += c
    end_bytes = pos * t.itemsize
    flushed = end_bytes - (out.ub_addr + end_bytes) % 32  # whole blocks only, before the Post
    before_post = _ub_bytes(out, total * t.itemsize)
    assert (before_post[:flushed] == want.view(np.uint8)[:flushed]).all()
    assert (before_post[flushed:] == sentinel.view(np.uint8)[flushed:]).all()
    micro.StoreUnAlignPost(out[pos], ureg)
    assert (_ub_bytes(out, total * t.itemsize) == want.view(np.uint8)).all()
    assert kinds(core) == []


def test_a_store_starting_inside_a_block_leaves_the_bytes_before_it():
    core = make_core()
    out = Ub(core).buffer(np.int32, 16, np.full(16, -1, np.int32))
    ureg = micro.UnalignReg(core)
    micro.StoreUnAlign(out[3], _reg(core, np.int32, np.arange(64, dtype=np.int32)), ureg, 2)
    micro.StoreUnAlignPost(out[5], ureg)
    got = _ub_bytes(out, 64).view(np.int32)
    assert list(got) == [-1, -1, -1, 0, 1] + [-1] * 11
    micro.StoreUnAlignPost(out[5], ureg)  # a second Post writes nothing more
    assert list(_ub_bytes(out, 64).view(np.int32)) == list(got)
    # the Post forgot its bytes: a store in the next block, at the same place in it, adds only its own
    micro.StoreUnAlign(out[13], _reg(core, np.int32, np.full(64, 9, np.int32)), ureg, 1)
    micro.StoreUnAlignPost(out[14], ureg)
    assert list(_ub_bytes(out, 64).view(np.int32)) == [-1, -1, -1, 0, 1] + [-1] * 8 + [9, -1, -1]


def test_the_older_names_are_the_same_moves():
    core = make_core()
    src = Ub(core).buffer(np.float32, 200, np.arange(200, dtype=np.float32))
    out = Ub(core).buffer(np.float32, 200, np.zeros(200, np.float32))
    u_in, u_out, reg = micro.UnalignReg(core), micro.UnalignReg(core), micro.RegTensor(core, np.float32)
    micro.DataCopyUnAlignPre(u_in, src[5])
    micro.DataCopyUnAlign(reg, u_in, src[5])
    micro.DataCopyUnAlign(out[1], reg, u_out, 30)
    micro.DataCopyUnAlignPost(out[31], u_out)
    assert (_ub_bytes(out, 800).view(np.float32)[1:31] == np.arange(5, 35)).all()


def test_loadunalign_reads_a_register_from_any_address():
    core = make_core()
    x = np.arange(300, dtype=np.int16)
    src = Ub(core).buffer(np.int16, 300, x)
    u, reg = micro.UnalignReg(core), micro.RegTensor(core, np.int16)
    for k in (0, 1, 7, 33):
        micro.LoadUnAlignPre(u, src[k])
        micro.LoadUnAlign(reg, u, src[k])
        assert (reg.numpy() == x[k:k + 128]).all()
    assert kinds(core) == []  # no alignment rule


def test_undefined_values_move_through_the_unaligned_moves():
    core = make_core()
    src = Ub(core).buffer(np.float32, 128)  # nothing written
    out = Ub(core).buffer(np.float32, 128, np.zeros(128, np.float32))
    u_in, u_out, reg = micro.UnalignReg(core), micro.UnalignReg(core), micro.RegTensor(core, np.float32)
    micro.LoadUnAlign(reg, u_in, src[3])
    micro.StoreUnAlign(out[1], reg, u_out, 10)
    micro.StoreUnAlignPost(out[11], u_out)
    assert kinds(core) == []  # moving them is no error
    copy_out(out, 1)
    assert kinds(core) == []  # element 0 was never touched
    copy_out(out[1], 10)
    assert "ub_read_before_write" in kinds(core)


def test_a_store_past_its_buffer_is_an_overflow_and_count_is_bounded():
    core = make_core()
    out = Ub(core).buffer(np.float32, 16, np.zeros(16, np.float32))
    u = micro.UnalignReg(core)
    reg = _reg(core, np.float32, np.ones(64, np.float32))
    micro.StoreUnAlign(out[10], reg, u, 20)
    assert "local_tensor_overflow" in kinds(core)
    with pytest.raises(EmulatorError, match="count 65"):
        micro.StoreUnAlign(out[0], reg, u, 65)


# ---- scalar bit counting ----

def test_scalar_bit_counting():
    assert asc.GetBitCount(0b1011) == 3 and asc.GetBitCount(0b1011, 0) == 61
    assert asc.ScalarGetCountOfValue(-1) == 64  # taken as uint64
    assert asc.CountLeadingZero(0x0FFF_FFFF_FFFF_FFFF) == 4 and asc.ScalarCountLeadingZero(0) == 64
    assert asc.GetSFFValue(28) == 2 and asc.GetSFFValue(0) == -1 and asc.ScalarGetSFFValue(0b0111, 0) == 3
    assert asc.sbitset0(0b111, 1) == 0b101 and asc.sbitset1(0, 63) == 1 << 63
    # a binary-cache reduce's slot for tile i: how many low bits i + 1 carries into, less one
    assert [asc.GetBitCount(i ^ (i + 1)) - 1 for i in range(8)] == [0, 1, 0, 2, 0, 1, 0, 3]
    with pytest.raises(EmulatorError, match="countValue"):
        asc.GetBitCount(1, 2)


# ---- Pack / UnPack, Duplicate from a register ----

def test_unpack_widens_a_half_and_pack_narrows_into_a_half():
    """bfloat16 bits through uint16 -> uint32 and back, as the norm kernels move them; signed lanes
    sign-extend."""
    core = make_core()
    x = np.arange(128, dtype=np.uint16) * np.uint16(509)
    wide = micro.RegTensor(core, np.uint32)
    micro.UnPack(wide, _reg(core, np.uint16, x))  # LOWEST
    assert (wide.numpy() == x[:64].astype(np.uint32)).all()
    micro.UnPack(wide, _reg(core, np.uint16, x), micro.HighLowPart.HIGHEST)
    assert (wide.numpy() == x[64:].astype(np.uint32)).all()
    s = micro.RegTensor(core, np.int32)
    micro.UnPack(s, _reg(core, np.int16, x.view(np.int16)), 1)  # C++ passes the part's value
    assert (s.numpy() == x[64:].view(np.int16).astype(np.int32)).all() and (s.numpy() < 0).any()
    narrow = micro.RegTensor(core, np.uint16)
    src = np.arange(64, dtype=np.uint32) * np.uint32(0x0001_0003)  # high halves dropped
    micro.Pack(narrow, _reg(core, np.uint32, src))
    assert (narrow.numpy()[:64] == (src & 0xFFFF)).all() and (narrow.numpy()[64:] == 0).all()
    micro.Pack(narrow, _reg(core, np.uint32, src), micro.HighLowPart.HIGHEST)
    assert (narrow.numpy()[64:] == (src & 0xFFFF)).all() and (narrow.numpy()[:64] == 0).all()
    with pytest.raises(EmulatorError, match="half"):
        micro.Pack(micro.RegTensor(core, np.uint8), _reg(core, np.uint32, src))
    assert kinds(core) == []


def test_pack_and_unpack_masks_keep_the_lanes():
    """A b16 predicate of 50 lanes unpacked is the b32 predicate of the same 50 (of 64) lanes;
    packed back, the b16 one again."""
    core = make_core()
    m16 = _mask(core, np.uint16, 50)
    m32 = micro.MaskReg(core)
    micro.UnPack(m32, m16)
    assert (m32.active(4) == (np.arange(64) < 50)).all()
    back = micro.MaskReg(core)
    micro.Pack(back, m32)
    assert (back.active(2)[:64] == (np.arange(64) < 50)).all() and not back.bits[128:].any()
    micro.UnPack(m32, _mask(core, np.uint16, 100), micro.HighLowPart.HIGHEST)
    assert (m32.active(4) == (np.arange(64) < 36)).all()


def test_duplicate_from_a_register_broadcasts_its_lowest_or_highest_lane():
    """Reduce leaves its result in lane 0; Duplicate(dst, src, mask) spreads it."""
    core = make_core()
    x = np.arange(64, dtype=np.float32) + 0.5
    dst = _reg(core, np.float32, -np.ones(64, np.float32))
    micro.Duplicate(dst, _reg(core, np.float32, x), _mask(core, np.float32, 40))
    assert (dst.numpy() == np.concatenate([np.full(40, 0.5), np.zeros(24)]).astype(np.float32)).all()
    micro.Duplicate(dst, _reg(core, np.float32, x), _mask(core, np.float32, 8), micro.MaskMergeMode.MERGING,
                    micro.HighLowPart.HIGHEST)
    assert (dst.numpy()[:8] == 63.5).all() and (dst.numpy()[8:40] == 0.5).all()
    fresh = micro.RegTensor(core, np.float32)  # nothing wrote it: every written lane undefined
    micro.Duplicate(dst, fresh, _mask(core, np.float32, 64))
    assert dst.undef.all()


def test_first_element_stores_need_only_the_elements_alignment():
    """A row's reduced value stored at dst + i (AscendC's own ReduceSum rows do this); a NORM store
    there is still datacopy_unaligned."""
    core = make_core()
    out = Ub(core).buffer(np.float32, 16, np.zeros(16, np.float32))
    one = _mask(core, np.float32, 1)
    for i in range(5):
        micro.DataCopy(out[i], _reg(core, np.float32, np.full(64, i + 1.0, np.float32)), one,
                       micro.StoreDist.DIST_FIRST_ELEMENT_B32)
    assert list(_ub_bytes(out, 64).view(np.float32)[:6]) == [1, 2, 3, 4, 5, 0]
    assert kinds(core) == []
    micro.DataCopy(out[1], _reg(core, np.float32, np.zeros(64, np.float32)), one)
    assert "datacopy_unaligned" in kinds(core)
