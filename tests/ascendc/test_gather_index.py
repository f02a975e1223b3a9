"""Gather, Gatherb, GatherMask (gather.py, gather_mask.py) and CreateVecIndex / ArithProgression
(vec_index.py) against numpy: byte offsets, masks and repeat strides, patterns in both modes,
rsvdCnt, the A2 implementation's rounding of index sequences, the blocks and mask
ArithProgression leaves."""
from __future__ import annotations

import numpy as np
import pytest

from opsnn.ascendc import ApiContractError, EmulatorError
from opsnn.ascendc.core import FULL_MASK
from opsnn.ascendc.gather import Gather, Gatherb, GatherRepeatParams, Scatter
from opsnn.ascendc.gather_mask import GatherMask, GatherMaskParams, GetGatherMaskRemainCount
from opsnn.ascendc.vec_index import ArithProgression, CreateVecIndex
from opsnn.platform import Platform

from .helpers import Ub, bits, copy_out, kinds, make_core

ARCH35 = Platform.custom(64 * 1024, 4, "ascend950")


def bufs(*specs, platform=None):
    core = make_core() if platform is None else make_core(platform=platform)
    ub = Ub(core)
    return core, [ub.buffer(np.dtype(t), n, v) for t, n, v in specs]


@pytest.mark.parametrize("dtype", [np.float16, np.int32, np.float32, np.uint16])
def test_gather_count_form_reads_byte_offsets_from_the_base(dtype):
    t = np.dtype(dtype)
    x = np.arange(300).astype(t)
    idx = np.random.default_rng(1).integers(0, 290, 150)
    base = 8 * t.itemsize
    core, (src, off, dst) = bufs((t, 300, x), (np.uint32, 150, (idx * t.itemsize).astype(np.uint32)), (t, 160, None))
    Gather(dst, src, off, base, 150)
    assert (bits(dst.numpy(150)) == bits(x[idx + 8])).all()
    copy_out(dst, 150)
    assert kinds(core) == []


def test_gather_mask_repeat_form_and_dst_stride():
    t = np.dtype(np.float32)
    x = np.arange(64, dtype=t) * 2
    off = (np.arange(128)[::-1] % 64 * 4).astype(np.uint32)
    core, (src, table, dst) = bufs((t, 64, x), (np.uint32, 128, off), (t, 256, np.full(256, -1, t)))
    Gather(dst, src, table, 0, [0b101, 0], 2, 16)  # lanes 0, 2 of repeats 0, 1; repeat 1 at block 16
    got = dst.numpy(256)
    assert list(got[[0, 2, 128, 130]]) == [x[63], x[61], x[63], x[61]]
    assert got[1] == -1 and got[64] == -1  # masked lanes and the skipped blocks untouched


def test_gather_refuses_misaligned_offsets():
    t = np.dtype(np.float32)
    core, (src, off, dst) = bufs((t, 16, np.zeros(16, t)), (np.uint32, 8, np.array([0, 4, 6, 8] * 2, np.uint32)),
                                 (t, 16, None))
    with pytest.raises(EmulatorError, match="srcOffset\\[2\\].*not a multiple of sizeof"):
        Gather(dst, src, off, 0, 8)


def test_gather_in_place_where_each_repeat_reads_its_own_bytes():
    # Upstream's add_rms_norm: each row's value at the start of its 32-byte block, broadcast over
    # the block in place (9 rows: a whole repeat and a tail of one block). Legal: every repeat reads
    # only bytes it overwrites itself.
    t = np.dtype(np.float32)
    x = np.where(np.arange(72) % 8 == 0, np.arange(72) // 8 + 1.0, -1.0).astype(t)
    off = (np.arange(72) // 8 * 32).astype(np.uint32)
    core, (x_ub, table) = bufs((t, 72, x), (np.uint32, 72, off))
    Gather(x_ub, x_ub, table, 0, 72)
    np.testing.assert_array_equal(x_ub.numpy(72), np.repeat(np.arange(1, 10, dtype=t), 8))
    # one repeat reversed in place: its reads all come before its writes
    reverse = (np.arange(64)[::-1] * 4).astype(np.uint32)
    core, (y_ub, table) = bufs((t, 64, np.arange(64, dtype=t)), (np.uint32, 64, reverse))
    Gather(y_ub, y_ub, table, 0, 64, 1, 8)
    np.testing.assert_array_equal(y_ub.numpy(64), np.arange(64, dtype=t)[::-1])
    copy_out(y_ub, 64)
    assert kinds(core) == []


def test_gather_in_place_reading_what_an_earlier_repeat_wrote_is_refused():
    # The same broadcast with the tail's block taken from row 0: the tail runs after the whole
    # repeat wrote element 0, so the device would gather the new value.
    t = np.dtype(np.float32)
    off = (np.arange(72) // 8 * 32 % 256).astype(np.uint32)  # rows 0..7, then row 0 again
    core, (x_ub, table) = bufs((t, 72, np.arange(72, dtype=t)), (np.uint32, 72, off))
    with pytest.raises(EmulatorError, match=r"repeat 1 reads src bytes \[0, 4\) that repeat 0 wrote"):
        Gather(x_ub, x_ub, table, 0, 72)
    # a dst that overlaps src elsewhere (shifted by one block) reads what repeat 0 wrote too
    ramp = (np.arange(128) * 4).astype(np.uint32)
    core, (x_ub, table) = bufs((t, 200, np.arange(200, dtype=t)), (np.uint32, 128, ramp))
    with pytest.raises(EmulatorError, match="repeat 1 reads src bytes"):
        Gather(x_ub[8], x_ub, table, 0, 128)


def test_gather_past_the_source_buffer_is_an_overflow():
    t = np.dtype(np.float32)
    core, (src, off, dst) = bufs((t, 8, np.zeros(8, t)), (np.uint32, 8, np.array([0, 4, 64] + [0] * 5, np.uint32)),
                                 (t, 8, None))
    Gather(dst, src, off, 0, 3)
    assert kinds(core) == ["local_tensor_overflow"]


def test_gatherb_moves_blocks():
    t = np.dtype(np.uint32)
    x = np.arange(128, dtype=t)
    order = np.array([3, 0, 15, 1, 2, 2, 7, 9, 4, 4, 4, 4, 0, 0, 0, 1], np.uint32)  # 16 blocks, 2 repeats
    core, (src, off, dst) = bufs((t, 128, x), (np.uint32, 16, order * 32), (t, 512, np.zeros(512, t)))
    Gatherb(dst, src, off, 2, GatherRepeatParams(2, 32))
    got = dst.numpy(512).reshape(-1, 8)
    for r in range(2):
        for k in range(8):
            assert (got[r * 32 + k * 2] == x.reshape(-1, 8)[order[r * 8 + k]]).all()
    assert (got[1] == 0).all()


@pytest.mark.parametrize("pattern, keep", [(1, lambda j: j % 2 == 0), (2, lambda j: j % 2 == 1),
                                           (3, lambda j: j % 4 == 0), (6, lambda j: j % 4 == 3),
                                           (7, lambda j: j >= 0)])
def test_gather_mask_fixed_patterns_normal_mode(pattern, keep):
    t = np.dtype(np.float16)
    x = np.arange(512).astype(t)
    core, (src, dst) = bufs((t, 512, x), (t, 512, np.zeros(512, t)))
    n = GatherMask(dst, src, pattern, False, 0, GatherMaskParams(1, 2, 16, 0))  # repeats at 0 and 256
    j = np.concatenate([np.arange(128), 256 + np.arange(128)])
    want = x[j[keep(j % 128)]]
    assert n == want.size == GetGatherMaskRemainCount(core)
    assert (dst.numpy(n) == want).all()


def test_gather_mask_tensor_pattern_counter_mode_runs_on_through_repeats():
    t = np.dtype(np.float32)
    x = np.arange(256, dtype=t)
    pattern = np.array([0x99999999] * 8, np.uint32)  # 1001...: lanes 0 and 3 of every 4
    core, (src, pat, dst) = bufs((t, 256, x), (np.uint32, 8, pattern), (t, 256, None))
    n = GatherMask(dst, src, pat, True, 70, GatherMaskParams(1, 1, 8, 8))  # 70 elements, one repeat
    want = x[[e for e in range(70) if e % 4 in (0, 3)]]
    assert n == want.size and (dst.numpy(n) == want).all()
    copy_out(dst, n)
    assert kinds(core) == []


def test_gather_mask_counter_mode_repeats_of_more_than_one_repeat_of_lanes():
    """mask above a repeat's lanes with repeatTimes > 1 (the model's extrapolation of AscendC's two
    documented cases): repeat i covers hardware repeats i * ceil(mask / lanes) onwards."""
    t = np.dtype(np.float32)
    x = np.arange(512, dtype=t)
    core, (src, dst) = bufs((t, 512, x), (t, 512, None))
    n = GatherMask(dst, src, 7, True, 70, GatherMaskParams(1, 2, 8, 0))
    assert n == 140 and list(dst.numpy(n)[68:72]) == [68, 69, 128, 129]


def test_gather_mask_in_place_compaction():
    t = np.dtype(np.int32)
    x = np.arange(64, dtype=t)
    core, (buf,) = bufs((t, 64, x))
    n = GatherMask(buf, buf, 2, False, 0, GatherMaskParams(1, 1, 8, 0))
    assert n == 32 and list(buf.numpy(32)) == list(range(1, 64, 2))


def test_gather_mask_refusals():
    t = np.dtype(np.float32)
    core, (src, dst, bad) = bufs((t, 64, np.zeros(64, t)), (t, 64, None), (np.uint16, 16, np.zeros(16, np.uint16)))
    with pytest.raises(EmulatorError, match="fixed patterns are 1..7"):
        GatherMask(dst, src, 8, False, 0, GatherMaskParams(1, 1, 8, 0))
    with pytest.raises(EmulatorError, match="pattern tensor is uint32"):
        GatherMask(dst, src, bad, False, 0, GatherMaskParams(1, 1, 8, 0))
    with pytest.raises(EmulatorError, match="GetGatherMaskRemainCount reads"):
        GetGatherMaskRemainCount(make_core())


def chained(first_block, block_step, repeat_step, n, per_block, repeats, t):
    """AscendC A2's index sequences: the first block, then block + block_step, repeat + repeat_step,
    each addition in t."""
    row = list(first_block)
    for _ in range(1, n // per_block):
        with np.errstate(all="ignore"):
            row += [t.type(v + t.type(block_step)) for v in row[-per_block:]]
    rows = [np.array(row, t)]
    for _ in range(1, repeats):
        with np.errstate(all="ignore"):
            rows.append((rows[-1] + t.type(repeat_step)).astype(t))
    return np.concatenate(rows)


@pytest.mark.parametrize("dtype, first, count", [(np.float16, 30000.0, 600), (np.float16, 32700.0, 300),
                                                  (np.float32, 16777200.0, 300),
                                                  (np.int16, 32700, 200), (np.int32, -5, 70)])
def test_create_vec_index_rounds_as_the_a2_implementation(dtype, first, count):
    t = np.dtype(dtype)
    n, per_block = 256 // t.itemsize, 32 // t.itemsize
    core, (dst,) = bufs((t, 1024, None))
    CreateVecIndex(dst, first, count)
    with np.errstate(all="ignore"):
        block = (np.float32(t.type(first)) + np.arange(per_block, dtype=np.float32)).astype(t)  # firstValue is a T
    want = chained(block, per_block, n, n, per_block, -(-count // n), t)[:count]
    assert (bits(dst.numpy(count)) == bits(want)).all()
    if t == np.float16:  # the chained half sums differ from first + i rounded once
        direct = (np.float64(first) + np.arange(count)).astype(t)
        assert (bits(want) != bits(direct)).any()


def test_create_vec_index_mask_repeat_form():
    t = np.dtype(np.int32)
    core, (dst,) = bufs((t, 256, np.full(256, -1, t)))
    CreateVecIndex(dst, 10, 20, 2, 2, 16)  # lanes 0..19, blocks 2 apart, repeats 16 blocks apart
    got = dst.numpy(256)
    assert list(got[[0, 7, 16, 23, 32, 35, 128, 131]]) == [10, 17, 18, 25, 26, 29, 74, 77]
    assert got[8] == -1 and got[36] == -1


def test_arith_progression_blocks_and_mask_left():
    t = np.dtype(np.float32)
    core, (dst,) = bufs((t, 256, np.full(256, -1, t)))
    ArithProgression(dst, 1.5, 0.25, 70)  # 70 > one repeat: whole blocks to 72
    got = dst.numpy(256)
    want = chained(np.float32(1.5) + np.float32(0.25) * np.arange(8, dtype=np.float32), np.float32(2.0),
                   np.float32(16.0), 64, 8, 2, t)[:72]
    assert (bits(got[:72]) == bits(want)).all() and got[72] == -1
    assert (core.vector_mask.high, core.vector_mask.low) == (0, 0xFF)  # the tail's lanes, rounded up to a block
    ArithProgression(dst, 0, 1, 128)
    assert (core.vector_mask.high, core.vector_mask.low) == (FULL_MASK, FULL_MASK)
    ArithProgression(dst, 3, 1, 5)  # within a block: the scalar unit writes exactly 5
    assert list(dst.numpy(6)) == [3, 4, 5, 6, 7, 5]


def test_arith_progression_past_its_buffer_overflows():
    core, (buf,) = bufs((np.int32, 16, None))  # two 32-byte blocks
    ArithProgression(buf[8], 0, 1, 8)  # one block: fits
    assert kinds(core) == []
    ArithProgression(buf[8], 0, 1, 9)  # 9 elements are written as two whole blocks, one past the buffer
    assert kinds(core) == ["local_tensor_overflow"]


@pytest.mark.parametrize("dtype", [np.int8, np.float16, np.float32])
def test_scatter_count_form_writes_byte_offsets_from_the_base(dtype):
    t = np.dtype(dtype)
    x = (np.arange(64) + 1).astype(t)
    at = np.random.default_rng(2).permutation(100)[:64]  # distinct element positions
    base = 4 * t.itemsize
    core, (src, off, dst) = bufs((t, 64, x), (np.uint32, 64, (at * t.itemsize).astype(np.uint32)),
                                 (t, 128, np.zeros(128, t)), platform=ARCH35)
    Scatter(dst, src, off, base, 64)
    want = np.zeros(128, t)
    want[at + 4] = x
    assert (bits(dst.numpy(128)) == bits(want)).all()
    copy_out(dst, 128)
    assert kinds(core) == []


def test_scatter_rules():
    t = np.dtype(np.float32)
    core, (src, off, dst) = bufs((t, 8, np.ones(8, t)), (np.uint32, 8, np.array([0, 4, 4, 8, 12, 16, 20, 24],
                                 np.uint32)), (t, 16, None), platform=ARCH35)
    with pytest.raises(ApiContractError, match="distinct"):  # offset 4 twice
        Scatter(dst, src, off, 0, 8)
    with pytest.raises(ApiContractError, match="not a multiple of sizeof"):
        Scatter(dst, src, off, 2, 1)
    with pytest.raises(EmulatorError, match="mask/repeat forms are not modelled"):
        Scatter(dst, src, off, 0, 64, 1, 8)
    h = np.dtype(np.int8)
    _, (s8, far, d8) = bufs((h, 2, np.ones(2, h)), (np.uint32, 8, np.array([1 << 16] + [0] * 7, np.uint32)),
                            (h, 32, None), platform=ARCH35)
    with pytest.raises(ApiContractError, match="at most 65535"):
        Scatter(d8, s8, far, 0, 1)
    _, (a2src, a2off, a2dst) = bufs((t, 8, np.ones(8, t)), (np.uint32, 8, np.arange(8, dtype=np.uint32) * 4),
                                    (t, 16, None))
    with pytest.raises(EmulatorError, match="not on"):  # Atlas A2: not a Scatter AscendC lists
        Scatter(a2dst, a2src, a2off, 0, 8)
