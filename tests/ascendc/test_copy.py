"""copy.py: Copy, AscendC's UB -> UB move in mask/repeat form -- bits moved unchanged, the
CopyRepeatParams strides (a srcRepeatSize of 0 broadcasts one source row), masks, ranges."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from opsnn.ascendc import Copy, CopyRepeatParams, EmulatorError, SetVectorMask

from .helpers import Ub, bits, copy_out, kinds, make_core

F32, F16 = np.dtype(np.float32), np.dtype(np.float16)


def test_field_order_and_defaults_follow_ascendc():
    p = CopyRepeatParams(1, 2, 3, 4)
    assert (p.dstStride, p.srcStride, p.dstRepeatSize, p.srcRepeatSize) == (1, 2, 3, 4)
    assert CopyRepeatParams() == CopyRepeatParams(1, 1, 8, 8)


def test_contiguous_copy_moves_every_bit_nan_payloads_and_minus_zero_included():
    core = make_core()
    ub = Ub(core)
    raw = np.array([0x7FC01234, 0xFF800001, 0x80000000, 0x3F800000] * 32, dtype=np.uint32)
    src = ub.buffer(F32, 128, raw.view(F32))
    dst = ub.buffer(F32, 128)
    Copy(dst, src, 64, 2, CopyRepeatParams())
    assert (bits(dst.numpy(128)) == raw).all()  # 0xFF800001 is a signalling NaN: not quieted
    assert core.log.items == []


def test_src_repeat_size_zero_broadcasts_one_row_and_dst_repeat_size_places_the_rows():
    # the shape log-softmax's backward uses: one 16-float row copied to 3 rows 2 blocks apart
    core = make_core()
    ub = Ub(core)
    src = ub.buffer(F32, 16, np.arange(16, dtype=F32))
    dst = ub.buffer(F32, 48, np.full(48, -1, dtype=F32))
    Copy(dst, src, 16, 3, CopyRepeatParams(1, 1, 2, 0))
    assert dst.numpy(48).tolist() == list(range(16)) * 3


def test_block_strides_and_masked_off_elements_keep_their_bits():
    core = make_core()
    ub = Ub(core)
    src = ub.buffer(F16, 64, np.arange(64, dtype=F16))
    dst = ub.buffer(F16, 64, np.full(64, 7, dtype=F16))
    # 20 elements: block 0 (16) and 4 of block 1; dst blocks 2 apart, src blocks 1 apart
    Copy(dst, src, 20, 1, CopyRepeatParams(2, 1, 8, 8))
    got = dst.numpy(64)
    assert got[:16].tolist() == list(range(16))
    assert got[16:32].tolist() == [7] * 16
    assert got[32:36].tolist() == [16, 17, 18, 19] and got[36:48].tolist() == [7] * 12


def test_bit_mask_and_the_mask_register():
    core = make_core()
    ub = Ub(core)
    src = ub.buffer(F32, 64, np.arange(64, dtype=F32))
    dst = ub.buffer(F32, 64, np.zeros(64, dtype=F32))
    Copy(dst, src, [0b101, 0], 1, CopyRepeatParams())
    assert np.flatnonzero(dst.numpy(64)).tolist() == [2]  # element 0 copies a 0
    SetVectorMask(core, 0, 1 << 63)
    Copy(dst, src, None, 1, CopyRepeatParams())
    assert np.flatnonzero(dst.numpy(64)).tolist() == [2, 63]


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 64), st.integers(1, 4), st.integers(0, 3), st.integers(0, 3), st.integers(0, 9),
       st.integers(0, 9))
def test_matches_the_strided_move_elementwise(mask, repeats, dst_blk, src_blk, dst_rep, src_rep):
    core = make_core()
    ub = Ub(core)
    n = 8 * (repeats * 12 + 8 * 4)
    src = ub.buffer(np.int32, n, np.arange(n, dtype=np.int32))
    dst = ub.buffer(np.int32, n, np.full(n, -1, dtype=np.int32))
    Copy(dst, src, mask, repeats, CopyRepeatParams(dst_blk, src_blk, dst_rep, src_rep))
    want = np.full(n, -1, dtype=np.int32)
    for r in range(repeats):
        for j in range(mask):
            d = (r * dst_rep + j // 8 * dst_blk) * 8 + j % 8
            s = (r * src_rep + j // 8 * src_blk) * 8 + j % 8
            want[d] = s
    assert (dst.numpy(n) == want).all()


def test_undefined_source_elements_are_found_where_they_leave_ub():
    core = make_core()
    ub = Ub(core)
    src = ub.buffer(F32, 64)  # never written
    dst = ub.buffer(F32, 64)
    Copy(dst, src, 8, 1, CopyRepeatParams())
    assert kinds(core) == []  # computing on them is no error
    copy_out(dst, 8)
    assert kinds(core) == ["ub_read_before_write"]


def test_types_params_and_ranges_are_refused_by_name():
    core = make_core()
    ub = Ub(core)
    a, b = ub.buffer(np.int8, 64), ub.buffer(np.int8, 64)
    with pytest.raises(EmulatorError, match="Copy on int8"):
        Copy(a, b, 8, 1, CopyRepeatParams())
    f, g = ub.buffer(F32, 64), ub.buffer(F16, 64)
    with pytest.raises(EmulatorError, match="one type"):
        Copy(f, g, 8, 1, CopyRepeatParams())
    with pytest.raises(EmulatorError, match="dstRepeatSize 4096"):
        Copy(f, f, 8, 1, CopyRepeatParams(1, 1, 4096, 8))
    with pytest.raises(EmulatorError, match="CopyRepeatParams"):
        Copy(f, f, 8, 1, (1, 1, 8, 8))
    with pytest.raises(EmulatorError, match="continuous mask 65"):
        Copy(f, f, 65, 1, CopyRepeatParams())


def test_count_form_copies_the_first_elements_bit_for_bit():
    """Ascend950's Copy(dst, src, count): the first count elements, NaN payloads and all."""
    core = make_core()
    ub = Ub(core)
    raw = np.array([0x7FC00001, 0xFF800000, 0x3F800000, 0x00000001] * 4, np.uint32)
    src = ub.buffer(np.float32, 16, raw.view(np.float32))
    dst = ub.buffer(np.float32, 16, np.zeros(16, np.float32))
    Copy(dst, src, 10)
    assert list(dst.numpy(16).view(np.uint32)) == list(raw[:10]) + [0] * 6


@pytest.mark.parametrize("dtype", [np.float16, np.int16, np.uint16])
def test_transpose_is_the_16_by_16_block_transposed(dtype):
    from opsnn.ascendc import Transpose
    core = make_core()
    ub = Ub(core)
    x = np.arange(256).astype(np.uint16).view(dtype).reshape(16, 16)
    src, dst = ub.buffer(dtype, 256, x.reshape(-1)), ub.buffer(dtype, 256)
    Transpose(dst, src)
    assert np.array_equal(dst.numpy(256).view(np.uint16).reshape(16, 16), x.view(np.uint16).T)
    with pytest.raises(EmulatorError, match="Transpose on"):
        Transpose(ub.buffer(np.float32, 256), ub.buffer(np.float32, 256, np.zeros(256, np.float32)))
