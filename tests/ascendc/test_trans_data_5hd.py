"""trans_data_5hd.py: TransDataTo5HD -- the documented per-width block permutations (16-bit
transpose, 32-bit two-blocks-per-element, 8-bit halves), repeats and their strides (one repeat
lies one stride on), UB addresses as GetPhyAddr gives them, the sanitizer's view."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from opsnn.ascendc import EmulatorError, TransDataTo5HD, TransDataTo5HDParams, local_at

from .helpers import Ub, bits, copy_out, kinds, make_core

P = TransDataTo5HDParams


def test_field_order_and_defaults_follow_ascendc():
    p = P(True, False, 3, 4, 5)
    assert (p.dstHighHalf, p.srcHighHalf, p.repeatTimes, p.dstRepStride, p.srcRepStride) == (True, False, 3, 4, 5)
    assert P() == P(False, False, 1, 0, 0)


def test_16_bit_is_a_16_by_16_transpose_bit_for_bit():
    core = make_core()
    ub = Ub(core)
    raw = (np.arange(256, dtype=np.uint16) | 0x7C00)  # NaN payloads and infs: moved, not computed
    src = ub.buffer(np.float16, 256, raw.view(np.float16))
    dst = ub.buffer(np.float16, 256)
    TransDataTo5HD([dst[16 * i] for i in range(16)], [src[16 * i] for i in range(16)], P(False, False, 1, 0, 0))
    assert (bits(dst.numpy(256)).reshape(16, 16) == raw.reshape(16, 16).T).all()
    assert core.log.items == []


def test_32_bit_element_k_of_the_16_blocks_makes_blocks_2k_and_2k_plus_1():
    core = make_core()
    ub = Ub(core)
    src = ub.buffer(np.float32, 128, np.arange(128, dtype=np.float32))  # S[i][k] = 8 i + k
    dst = ub.buffer(np.float32, 128)
    TransDataTo5HD([dst[8 * i] for i in range(16)], [src[8 * i] for i in range(16)], P())
    d = dst.numpy(128).reshape(16, 8)
    for k in range(8):
        assert d[2 * k].tolist() == [8 * m + k for m in range(8)]
        assert d[2 * k + 1].tolist() == [8 * (8 + m) + k for m in range(8)]


@pytest.mark.parametrize("src_high, dst_high", [(False, False), (True, False), (False, True), (True, True)])
def test_8_bit_reads_and_writes_the_halves_the_flags_name(src_high, dst_high):
    core = make_core()
    ub = Ub(core)
    src = ub.buffer(np.uint8, 512, np.arange(512) % 251)  # S[i][j] = (32 i + j) % 251
    dst = ub.buffer(np.uint8, 512, np.full(512, 255))
    TransDataTo5HD([dst[32 * i] for i in range(16)], [src[32 * i] for i in range(16)], P(dst_high, src_high, 1, 0, 0))
    d = dst.numpy(512).reshape(16, 32)
    sh, dh = 16 * src_high, 16 * dst_high
    for k in range(16):
        assert d[k, dh:dh + 16].tolist() == [(32 * m + sh + k) % 251 for m in range(16)]
        assert d[k, 16 - dh:32 - dh].tolist() == [255] * 16  # the other half keeps its bytes


def test_repeats_step_by_the_strides_and_a_single_repeat_lies_one_stride_on():
    core = make_core()
    ub = Ub(core)
    src = ub.buffer(np.int16, 16 * 16 * 3, np.arange(768))
    dst = ub.buffer(np.int16, 16 * 16 * 3, np.zeros(768))
    # rows of 48: block i of repeat r = src[48 i + 16 r], srcRepStride 1 block
    srcs = [src[48 * i] for i in range(16)]
    dsts = [dst[16 * i] for i in range(16)]
    TransDataTo5HD(dsts, srcs, P(False, False, 3, 16, 1))
    s = np.arange(768).reshape(16, 48)
    d = dst.numpy(768).reshape(3, 16, 16)
    for r in range(3):
        assert (d[r] == s[:, 16 * r:16 * r + 16].T).all()
    dst2 = ub.buffer(np.int16, 16 * 16 * 3, np.zeros(768))
    TransDataTo5HD([dst2[16 * i] for i in range(16)], srcs, P(False, False, 1, 16, 1))
    d2 = dst2.numpy(768).reshape(3, 16, 16)
    assert (d2[1] == s[:, 16:32].T).all() and not d2[0].any() and not d2[2].any()


def test_zero_repeats_do_nothing():
    core = make_core()
    ub = Ub(core)
    src = ub.buffer(np.float32, 128, np.ones(128))
    dst = ub.buffer(np.float32, 128, np.zeros(128))
    TransDataTo5HD([dst[8 * i] for i in range(16)], [src[8 * i] for i in range(16)], P(False, False, 0, 0, 0))
    assert not dst.numpy(128).any()


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 8))
def test_float_transpose_round_trips_as_the_kernels_use_it(repeats):
    # [16, 8 R] -> [8 R, 16] and back (dst rows of 16: blocks i, i + 1 halves of one row)
    core = make_core()
    ub = Ub(core)
    w = 8 * repeats
    x = np.random.default_rng(repeats).standard_normal(16 * w).astype(np.float32)
    src = ub.buffer(np.float32, 16 * w, x)
    mid = ub.buffer(np.float32, 16 * w)
    back = ub.buffer(np.float32, 16 * w)
    one = repeats == 1
    TransDataTo5HD([mid[16 * (i // 2) + 8 * (i % 2)] for i in range(16)], [src[w * i] for i in range(16)],
                   P(False, False, repeats, 0 if one else 16, 0 if one else 1))
    assert (mid.numpy(16 * w).reshape(w, 16) == x.reshape(16, w).T).all()
    TransDataTo5HD([back[w * (i // 2) + 8 * w * (i % 2)] for i in range(16)],
                   [mid[16 * (i // 2) + 8 * (i % 2)] for i in range(0, 16, 2)] +
                   [mid[16 * (i // 2) + 8 * (i % 2)] for i in range(1, 16, 2)],
                   P(False, False, repeats, 0 if one else 1, 0 if one else 16))
    assert (bits(back.numpy(16 * w)) == bits(x)).all()
    assert core.log.items == []


def test_ub_addresses_resolve_to_the_buffers_that_hold_them():
    core = make_core()
    ub = Ub(core)
    src = ub.buffer(np.float32, 128, np.arange(128, dtype=np.float32))
    dst = ub.buffer(np.float32, 128)
    assert local_at(core, dst[8].ub_addr, np.float32).buffer is dst.buffer
    TransDataTo5HD([dst[8 * i].ub_addr for i in range(16)], [src[8 * i].ub_addr for i in range(16)], P(),
                   dtype=np.float32, ctx=core)
    assert dst.numpy(16)[:8].tolist() == [8.0 * m for m in range(8)]
    with pytest.raises(EmulatorError, match="dtype"):
        TransDataTo5HD([dst.ub_addr] * 16, [src.ub_addr] * 16, P())


def test_undefined_source_elements_make_exactly_their_destinations_undefined():
    core = make_core()
    ub = Ub(core)
    src = ub.buffer(np.float32, 128)
    src.buffer.written = [(0, 15 * 32)]  # block 15 never written: S[15][k] -> D[2k + 1][7]
    dst = ub.buffer(np.float32, 128)
    TransDataTo5HD([dst[8 * i] for i in range(16)], [src[8 * i] for i in range(16)], P())
    assert kinds(core) == []
    copy_out(dst[8], 7)  # D[1][0..6]: defined
    assert kinds(core) == []
    copy_out(dst[8], 8)  # D[1][7] came from block 15
    assert kinds(core) == ["ub_read_before_write"]


def test_a_block_past_its_buffer_is_an_overflow():
    core = make_core()
    ub = Ub(core)
    src = ub.buffer(np.float32, 128, np.zeros(128))
    dst = ub.buffer(np.float32, 120)
    TransDataTo5HD([dst[8 * i] for i in range(16)], [src[8 * i] for i in range(16)], P())
    assert "local_tensor_overflow" in kinds(core)


def test_types_lists_alignment_and_ranges_are_refused_by_name():
    core = make_core()
    ub = Ub(core)
    src = ub.buffer(np.float32, 128, np.zeros(128))
    dst = ub.buffer(np.float32, 128)
    good = [dst[8 * i] for i in range(16)], [src[8 * i] for i in range(16)]
    with pytest.raises(EmulatorError, match="dstList has 8 entries"):
        TransDataTo5HD(good[0][:8], good[1], P())
    with pytest.raises(EmulatorError, match="not 32-byte aligned"):
        TransDataTo5HD([dst[1]] + good[0][1:], good[1], P())
    with pytest.raises(EmulatorError, match="takes"):
        TransDataTo5HD(good[0], good[1], P(), dtype=np.float64)
    with pytest.raises(EmulatorError, match="repeatTimes 256"):
        TransDataTo5HD(*good, P(False, False, 256, 0, 0))
    with pytest.raises(EmulatorError, match="TransDataTo5HDParams"):
        TransDataTo5HD(*good, (False, False, 1, 0, 0))
    with pytest.raises(EmulatorError, match="before every buffer"):
        local_at(core, -64, np.float32)
