"""Select in its three Atlas A2 modes, the CMPMASK register it loads, SetCmpMask/GetCmpMask, and
the uint8 mask Not."""
from __future__ import annotations

import numpy as np
import pytest

from opsnn.ascendc import SELMODE, EmulatorError, Select
from opsnn.ascendc.cmpmask import GetCmpMask, SetCmpMask, cmpmask
from opsnn.ascendc.mask_logic import Not

from .helpers import Ub, bits, copy_out, kinds, make_core

PATTERNS32 = np.array([0x7FC00123, 0xFFC00001, 0x7F800001, 0x80000000, 0x7F800000, 0xFF800000, 0, 0x3F800000],
                      dtype=np.uint32)
PATTERNS16 = np.array([0x7E01, 0xFE00, 0x7C01, 0x8000, 0x7C00, 0xFC00, 0, 0x3C00], dtype=np.uint16)


def _patterns(dtype, n, shift=0):
    p = PATTERNS32 if np.dtype(dtype) == np.float32 else PATTERNS16
    return np.roll(np.resize(p, n), shift).view(dtype)


def _setup(dtype, n, mask_bytes, mask_dtype=np.uint8):
    core = make_core()
    ub = Ub(core)
    m = ub.buffer(mask_dtype, mask_bytes.size // np.dtype(mask_dtype).itemsize, mask_bytes.view(mask_dtype))
    a = ub.buffer(dtype, n, _patterns(dtype, n))
    b = ub.buffer(dtype, n, _patterns(dtype, n, 3))
    d = ub.buffer(dtype, n)
    return core, m, a, b, d


@pytest.mark.parametrize("mask_dtype", [np.uint8, np.uint16, np.uint32, np.uint64])
@pytest.mark.parametrize("dtype", [np.float16, np.float32])
@pytest.mark.parametrize("n", [1, 77, 300])
def test_tensor_tensor_mode_moves_bits(dtype, n, mask_dtype):
    rng = np.random.default_rng(n)
    mask = rng.integers(0, 256, 64).astype(np.uint8)
    core, m, a, b, d = _setup(dtype, n, mask, mask_dtype)
    Select(d, m, a, b, SELMODE.VSEL_TENSOR_TENSOR_MODE, n)
    sel = np.unpackbits(mask, bitorder="little")[:n].astype(bool)
    want = np.where(sel, bits(_patterns(dtype, n)), bits(_patterns(dtype, n, 3)))
    np.testing.assert_array_equal(bits(d.numpy(n)), want)
    assert kinds(core) == []
    # CMPMASK now holds selMask's UB address (four uint32)
    assert list(cmpmask(core).view(np.uint32)) == [m.ub_addr] * 4


@pytest.mark.parametrize("dtype", [np.float16, np.float32])
def test_cmpmask_spr_mode_reuses_the_first_128_bits_every_repeat(dtype):
    per_repeat = 256 // np.dtype(dtype).itemsize
    n = 2 * per_repeat + 5
    mask = np.random.default_rng(5).integers(0, 256, 64).astype(np.uint8)
    core, m, a, b, d = _setup(dtype, n, mask)
    Select(d, m, a, b, SELMODE.VSEL_CMPMASK_SPR, n)
    reg = np.unpackbits(mask[:16], bitorder="little")[:per_repeat].astype(bool)
    sel = np.resize(reg, n)  # bit i % per_repeat
    want = np.where(sel, bits(_patterns(dtype, n)), bits(_patterns(dtype, n, 3)))
    np.testing.assert_array_equal(bits(d.numpy(n)), want)
    np.testing.assert_array_equal(cmpmask(core), mask[:16])
    # the mask bytes past the first 16 are never read: not a read-before-write even if unwritten
    assert kinds(core) == []


def test_cmpmask_spr_differs_from_tensor_tensor_past_one_repeat():
    n = 128  # two float repeats: bits 64..127 matter to mode 2 only
    mask = np.concatenate([np.full(8, 0xFF, np.uint8), np.zeros(56, np.uint8)])
    core, m, a, b, d = _setup(np.float32, n, mask)
    Select(d, m, a, b, SELMODE.VSEL_CMPMASK_SPR, n)
    assert (bits(d.numpy(n)) == bits(_patterns(np.float32, n))).all()
    Select(d, m, a, b, SELMODE.VSEL_TENSOR_TENSOR_MODE, n)
    np.testing.assert_array_equal(bits(d.numpy(n))[64:], bits(_patterns(np.float32, n, 3))[64:])


@pytest.mark.parametrize("dtype", [np.float16, np.float32])
def test_tensor_scalar_mode_and_its_cmpmask(dtype):
    n = 64
    mask = np.array([0x0F] * 8, np.uint8)
    core, m, a, _, d = _setup(dtype, n, mask)
    Select(d, m, a, dtype(-2.5), SELMODE.VSEL_TENSOR_SCALAR_MODE, n)
    sel = np.unpackbits(mask, bitorder="little").astype(bool)
    want = np.where(sel, bits(_patterns(dtype, n)), bits(np.array([-2.5], dtype))[0])
    np.testing.assert_array_equal(bits(d.numpy(n)), want)
    np.testing.assert_array_equal(cmpmask(core).view(dtype), np.full(16 // np.dtype(dtype).itemsize, -2.5, dtype))


def test_dst_may_be_either_source():
    n = 64
    mask = np.array([0xF0] * 8, np.uint8)
    core, m, a, b, _ = _setup(np.float32, n, mask)
    Select(b, m, a, b, SELMODE.VSEL_TENSOR_TENSOR_MODE, n)  # as upstream's ReluGrad does
    sel = np.unpackbits(mask, bitorder="little").astype(bool)
    want = np.where(sel, bits(_patterns(np.float32, n)), bits(_patterns(np.float32, n, 3)))
    np.testing.assert_array_equal(bits(b.numpy(n)), want)
    core, m, a, b, _ = _setup(np.float32, n, mask)
    Select(a, m, a, b, SELMODE.VSEL_CMPMASK_SPR, n)
    np.testing.assert_array_equal(bits(a.numpy(n)), want)


def test_wrong_operands_are_refused_with_what_select_takes():
    core, m, a, b, d = _setup(np.float32, 64, np.zeros(8, np.uint8))
    with pytest.raises(EmulatorError, match="VSEL_TENSOR_TENSOR_MODE takes src1 as a LocalTensor"):
        Select(d, m, a, 0.0, SELMODE.VSEL_TENSOR_TENSOR_MODE, 64)
    with pytest.raises(EmulatorError, match="VSEL_CMPMASK_SPR takes src1 as a LocalTensor"):
        Select(d, m, a, 0.0, SELMODE.VSEL_CMPMASK_SPR, 64)
    with pytest.raises(EmulatorError, match="VSEL_TENSOR_SCALAR_MODE takes src1 as a scalar"):
        Select(d, m, a, b, SELMODE.VSEL_TENSOR_SCALAR_MODE, 64)
    with pytest.raises(EmulatorError, match="Select mode must be a SELMODE"):
        Select(d, m, a, b, 2, 64)
    with pytest.raises(EmulatorError, match="src1 of float16 with src0 of float32"):
        Select(d, m, a, b.ReinterpretCast(np.float16), SELMODE.VSEL_TENSOR_TENSOR_MODE, 64)
    with pytest.raises(EmulatorError, match="selMask of int8"):
        Select(d, m.ReinterpretCast(np.int8), a, b, SELMODE.VSEL_TENSOR_TENSOR_MODE, 64)
    i = a.ReinterpretCast(np.int32)
    with pytest.raises(EmulatorError, match="half or float"):
        Select(i, m, i, i, SELMODE.VSEL_TENSOR_TENSOR_MODE, 64)


def test_sanitizer_sees_overflow_and_read_before_write():
    core = make_core()
    ub = Ub(core)
    m = ub.buffer(np.uint8, 32, np.full(32, 0xFF, np.uint8))
    a = ub.buffer(np.float32, 512, np.ones(512, np.float32))
    b = ub.buffer(np.float32, 512)  # never written
    d = ub.buffer(np.float32, 512)
    Select(d, m, a, b, SELMODE.VSEL_TENSOR_TENSOR_MODE, 512)  # 64 mask bytes from a 32-byte buffer
    assert kinds(core) == ["local_tensor_overflow"]
    copy_out(d, 256)  # mask bits 0..255 are set: a's elements, all written
    assert kinds(core) == ["local_tensor_overflow"]
    copy_out(d, 512)  # bits 256.. come from a's bytes; where they are clear, b's garbage is picked
    assert set(kinds(core)) == {"local_tensor_overflow", "ub_read_before_write"}


def test_set_and_get_cmpmask():
    core = make_core()
    ub = Ub(core)
    src = ub.buffer(np.uint16, 8, np.arange(8, dtype=np.uint16) * 257)
    dst = ub.buffer(np.uint8, 32)
    assert not cmpmask(core).any()  # a core starts with zeros
    SetCmpMask(src)
    GetCmpMask(dst)
    np.testing.assert_array_equal(dst.numpy(16), (np.arange(8, dtype=np.uint16) * 257).view(np.uint8))
    assert kinds(core) == []
    other = make_core()  # each core its own register
    assert not cmpmask(other).any()
    SetCmpMask(ub.buffer(np.uint8, 16))  # never written
    assert kinds(core) == ["ub_read_before_write"]


def test_not_inverts_whole_mask_bytes():
    core = make_core()
    ub = Ub(core)
    src = ub.buffer(np.uint8, 32, np.arange(32, dtype=np.uint8))
    dst = ub.buffer(np.uint8, 32, np.full(32, 0x55, np.uint8))
    Not(dst, src, 77)  # 10 bytes
    np.testing.assert_array_equal(dst.numpy(32)[:10], ~np.arange(10, dtype=np.uint8))
    assert (dst.numpy(32)[10:] == 0x55).all()
    Not(src, src, 256)  # in place
    np.testing.assert_array_equal(src.numpy(32), ~np.arange(32, dtype=np.uint8))
    Not(dst, src, 0)
    assert kinds(core) == []
