"""ReduceSum/ReduceMax/ReduceMin over a whole tensor (reduce_full.py), PairReduceSum and
RepeatReduceSum, and the special registers they set (spr.py), against numpy references computed
the way AscendC documents them: a pairwise tree inside each repeat, repeat sums added in order
(count form) or by the tree again (mask/repeat form), every addition rounded to the type."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from opsnn.ascendc import ApiContractError, EmulatorError
from opsnn.ascendc.reduce import PairReduceSum, ReduceOrder, RepeatReduceSum, WholeReduceMax, WholeReduceMin
from opsnn.ascendc.reduce_full import ReduceMax, ReduceMin, ReduceSum, work_rounds
from opsnn.ascendc.repeat import SetMaskCount, SetVectorMask
from opsnn.ascendc.spr import GetAccVal, GetReduceRepeatMaxMinSpr

from .helpers import Ub, bits, copy_out, kinds, make_core


def tree(values, t):
    """Lane 2k + lane 2k+1, then pairs of those... each sum rounded to t (an odd level gets -0.0)."""
    x = [t.type(v) for v in values]
    while len(x) > 1:
        if len(x) % 2:
            x.append(t.type(-0.0))
        with np.errstate(all="ignore"):
            x = [t.type(x[i] + x[i + 1]) for i in range(0, len(x), 2)]
    return x[0]


def lanes(t):
    return 256 // np.dtype(t).itemsize


def setup(x, t, dst_n=16, work_n=512):
    core = make_core()
    ub = Ub(core)
    t = np.dtype(t)
    src = ub.buffer(t, x.size, x.astype(t))
    dst = ub.buffer(t, dst_n, np.full(dst_n, 7, t))
    work = ub.buffer(t, work_n)
    return core, src, dst, work


@pytest.mark.parametrize("dtype", [np.float16, np.float32])
@pytest.mark.parametrize("count", [1, 5, 64, 127, 128, 300, 1000])
def test_count_form_sum_is_the_tree_then_the_repeats_in_order(dtype, count):
    t = np.dtype(dtype)
    rng = np.random.default_rng(count)
    x = (rng.standard_normal(count) * 30).astype(t)
    x[0] = t.type(6e4 if t == np.float16 else 3e37)  # cancellation: the order shows
    x[-1] = -x[0]
    core, src, dst, work = setup(x, t)
    ReduceSum(dst, src, work, count)
    n = lanes(t)
    acc = None
    for r in range(0, count, n):
        s = tree(x[r:r + n], t)
        with np.errstate(all="ignore"):
            acc = s if acc is None else t.type(acc + s)
    assert bits(dst.numpy(1))[0] == bits(np.array([acc], t))[0]
    assert dst.numpy(2)[1] == 7  # one result
    assert GetAccVal(core) == int(bits(np.array([acc], t))[0])  # ACC_VAL: the sum's bits
    assert kinds(core) == []


@pytest.mark.parametrize("dtype", [np.float16, np.float32])
def test_mask_repeat_sum_is_a_tree_of_trees_and_writes_the_work_buffer(dtype):
    t = np.dtype(dtype)
    n = lanes(t)
    repeats = n + 3  # two groups of repeat sums
    rng = np.random.default_rng(5)
    x = (rng.standard_normal(repeats * n) * 10).astype(t)
    core, src, dst, work = setup(x, t, work_n=2 * n + 64)
    ReduceSum(dst, src, work, n - 1, repeats, 8)  # continuous mask: the last lane of each repeat out
    sums = [tree(x[r * n:r * n + n - 1], t) for r in range(repeats)]
    groups = [tree(sums[g:g + n], t) for g in range(0, repeats, n)]
    want = tree(groups, t)
    assert bits(dst.numpy(1))[0] == bits(np.array([want], t))[0]
    got_work = work.numpy(repeats)
    assert (bits(got_work[:2]) == bits(np.array(groups, t))).all()  # the group sums over the repeat sums
    assert (bits(got_work[2:repeats]) == bits(np.array(sums[2:], t))).all()
    copy_out(dst, 1)
    assert kinds(core) == []


def test_mask_repeat_sum_bit_mask_and_src_rep_stride():
    t = np.dtype(np.float32)
    x = np.arange(64 * 6, dtype=t)
    core, src, dst, work = setup(x, t)
    ReduceSum(dst, src, work, [0b1011, 0], 3, 16)  # lanes 0, 1, 3 of repeats at 0, 128, 256
    want = tree([tree([x[b], x[b + 1], x[b + 3]], t) for b in (0, 128, 256)], t)
    assert dst.numpy(1)[0] == want == 3 * (0 + 1 + 3) + 3 * (128 + 256)


@pytest.mark.parametrize("reduce, largest", [(ReduceMax, True), (ReduceMin, False)])
@pytest.mark.parametrize("dtype", [np.float16, np.float32])
def test_count_form_extreme_with_its_first_index(reduce, largest, dtype):
    t = np.dtype(dtype)
    count = 2 * lanes(t) + 17
    x = np.random.default_rng(2).standard_normal(count).astype(t)
    pick = t.type(9) if largest else t.type(-9)
    x[[40, count - 3]] = pick  # a tie: the smaller index (documented)
    core, src, dst, work = setup(x, t)
    reduce(dst, src, work, count, True)
    got = dst.numpy(2)
    assert got[0] == pick
    assert got[1:2].view({2: np.uint16, 4: np.uint32}[t.itemsize])[0] == 40
    value, index = GetReduceRepeatMaxMinSpr(core) & 0xFFFF_FFFF, GetReduceRepeatMaxMinSpr(core) >> 32
    assert (value, index) == (int(bits(np.array([pick], t))[0]), 40)
    reduce(dst, src, work, count)  # without calIndex: dst[1] untouched
    assert dst.numpy(2)[1:2].view({2: np.uint16, 4: np.uint32}[t.itemsize])[0] == 40


def test_extreme_nan_wins_and_the_mask_repeat_index_counts_the_stride():
    t = np.dtype(np.float32)
    x = np.zeros(64 * 8, t)
    x[64 * 4 + 5] = 100.0  # repeat 2 with srcRepStride 16
    x[64 * 6 + 9] = np.nan  # repeat 3, lane 9
    core, src, dst, work = setup(x, t)
    ReduceMax(dst, src, work, 32, 3, 16, True)  # lanes 0..31 of repeats at 0, 128, 256
    assert dst.numpy(1)[0] == 100.0
    assert dst.numpy(2)[1:].view(np.uint32)[0] == 2 * 16 * 8 + 5  # r * srcRepStride * 8 + lane
    ReduceMax(dst, src, work, 64, 4, 16, True)
    assert np.isnan(dst.numpy(1)[0]) and dst.numpy(2)[1:].view(np.uint32)[0] == 3 * 128 + 9


def test_the_work_buffer_must_hold_ascendcs_rounds():
    """calIndex over 130 float repeats: rounds of 260, 10, 2 elements, each after the previous
    one's 32-byte-aligned end (AscendC's formula): 264 + 16 + 8 = 288 elements."""
    assert work_rounds(130, 64, 8, True) == [(0, 260), (264, 10), (280, 2)]
    assert work_rounds(130, 64, 8, False) == [(0, 260), (0, 10), (0, 2)]
    t = np.dtype(np.float32)
    x = np.arange(64 * 130, dtype=t)
    core, src, dst, work = setup(x, t, work_n=288)
    ReduceMax(dst, src, work, 64, 130, 8, True)
    assert kinds(core) == []
    core, src, dst, work = setup(x, t, work_n=280)  # 8 elements short
    ReduceMax(dst, src, work, 64, 130, 8, True)
    assert kinds(core) == ["local_tensor_overflow"]
    core, src, dst, work = setup(x, t, work_n=264)  # without calIndex the first round's space is enough
    ReduceMax(dst, src, work, 64, 130, 8)
    assert kinds(core) == []
    assert dst.numpy(1)[0] == 64 * 130 - 1


def test_count_form_from_the_mask_register():
    t = np.dtype(np.float32)
    x = np.arange(200, dtype=t)
    core, src, dst, work = setup(x, t)
    with pytest.raises(EmulatorError, match="counter mode"):
        ReduceSum(dst, src, work, 1, False)
    SetMaskCount(core)
    SetVectorMask(core, 0, 150)
    ReduceSum(dst, src, work, 1, False)  # the count is the register's 150, not 1
    assert dst.numpy(1)[0] == sum(range(150))


def test_nothing_to_do_and_refusals():
    t = np.dtype(np.float16)
    x = np.ones(128, t)
    core, src, dst, work = setup(x, t)
    ReduceSum(dst, src, work, 0)
    ReduceMax(dst, src, work, 0, 3, 8)
    ReduceSum(dst, src, work, [0, 0], 3, 8)
    assert dst.numpy(1)[0] == 7 and kinds(core) == []
    with pytest.raises(EmulatorError, match="one type"):
        ReduceSum(dst.ReinterpretCast(np.float32), src, work, 4)
    with pytest.raises(EmulatorError, match="half or float"):
        ReduceSum(src.ReinterpretCast(np.int16), src.ReinterpretCast(np.int16), work.ReinterpretCast(np.int16), 4)
    with pytest.raises(ApiContractError, match="GetAccVal reads ACC_VAL"):  # the kernel's defect: a stale register
        GetAccVal(core)


def test_undefined_sources_make_the_result_undefined():
    core = make_core()
    ub = Ub(core)
    src = ub.buffer(np.float32, 64, np.ones(32, np.float32), nbytes=256)  # 32 written, 32 not
    dst = ub.buffer(np.float32, 8)
    work = ub.buffer(np.float32, 64)
    ReduceSum(dst, src, work, 32)
    copy_out(dst, 1)
    assert kinds(core) == []
    ReduceSum(dst, src, work, 64)
    copy_out(dst, 1)
    assert kinds(core) == ["ub_read_before_write"]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.floats(-1e4, 1e4, width=16), min_size=1, max_size=400))
def test_count_sum_hypothesis_half(values):
    t = np.dtype(np.float16)
    x = np.array(values, t)
    core, src, dst, work = setup(x, t)
    ReduceSum(dst, src, work, x.size)
    acc = None
    for r in range(0, x.size, 128):
        s = tree(x[r:r + 128], t)
        with np.errstate(all="ignore"):
            acc = s if acc is None else t.type(acc + s)
    assert bits(dst.numpy(1))[0] == bits(np.array([acc], t))[0]


def test_pair_and_repeat_reduce_sum():
    t = np.dtype(np.float32)
    x = np.arange(128, dtype=t) * t.type(1.5)
    core = make_core()
    ub = Ub(core)
    src = ub.buffer(t, 128, x)
    dst = ub.buffer(t, 96, np.full(96, -1, t))
    PairReduceSum(dst, src, 2, [0b0111, 0], 2, 1, 8)  # pairs (0,1) and (2,-): the pair (2,3) has lane 2 only
    got = dst.numpy(96)
    assert list(got[:3]) == [x[0] + x[1], x[2], -1]  # a pair with no active lane keeps dst
    assert list(got[64:66]) == [x[64] + x[65], x[66]]  # repeat 1 at dstRepStride 2 x 32 floats
    RepeatReduceSum(dst, src, 2, 64, 5, 1, 1, 8)  # dstBlkStride 5 is not used on A2
    assert list(dst.numpy(2)) == [tree(x[:64], t), tree(x[64:], t)]


def test_whole_reduce_only_index_is_a_uint32_and_max_min_cnt():
    t = np.dtype(np.float16)
    x = np.zeros(256, t)
    x[130] = -5
    x[3] = -5
    core = make_core()
    ub = Ub(core)
    src = ub.buffer(t, 256, x)
    dst = ub.buffer(t, 16, np.zeros(16, t))
    WholeReduceMin(dst, src, 128, 2, 1, 1, 8, ReduceOrder.ORDER_ONLY_INDEX)
    assert list(dst.numpy(4).view(np.uint32)) == [3, 2]  # a uint32 a repeat even for half
    assert GetReduceRepeatMaxMinSpr(core) >> 32 == 3  # over both repeats: the first -5
    WholeReduceMax(dst, src, 128, 2, 1, 1, 8, ReduceOrder.ORDER_VALUE_INDEX)
    assert GetReduceRepeatMaxMinSpr(core) >> 32 == 0


@pytest.mark.parametrize("dtype, n", [(np.float32, 40), (np.float32, 1000), (np.float16, 300)])
def test_sum_rows_tree_of_trees_and_the_mask_it_leaves(dtype, n):
    t = np.dtype(dtype)
    per = lanes(t)
    inner = -(-n * t.itemsize // 32) * 32 // t.itemsize
    rows = 3
    x = (np.random.default_rng(n).standard_normal(rows * inner) * 7).astype(t)
    core = make_core()
    ub = Ub(core)
    src, dst = ub.buffer(t, rows * inner, x), ub.buffer(t, 8, np.full(8, 5, t))
    work = ub.buffer(np.uint8, 4096)
    from opsnn.ascendc.reduce_full import Sum, SumParams
    Sum(dst, src, work, SumParams(rows, inner, n))
    for r in range(rows):
        level = list(x[r * inner:r * inner + n])
        while len(level) > 1:
            level = [tree(level[k:k + per], t) for k in range(0, len(level), per)]
        assert bits(dst.numpy(rows))[r] == bits(np.array([level[0]], t))[0]
    assert dst.numpy(4)[3] == 5
    mask = core.vector_mask
    assert not mask.counter and mask.low == ((1 << 64) - 1 if n <= per else -(-n // per))
    with pytest.raises(EmulatorError, match="inner"):
        Sum(dst, src, SumParams(1, inner + 1, n))


def test_broadcast_along_an_axis():
    from opsnn.ascendc.broadcast_adv import BroadCast
    core = make_core()
    ub = Ub(core)
    src = ub.buffer(np.float32, 8, np.arange(8, dtype=np.float32))
    dst = ub.buffer(np.float32, 64)
    BroadCast(dst, src, (4, 16), (4, 1), 1)
    assert (dst.numpy(64).reshape(4, 16) == np.arange(4, dtype=np.float32)[:, None]).all()
    BroadCast(dst, src, (3, 8), (1, 8), 0)
    assert (dst.numpy(24).reshape(3, 8) == np.arange(8, dtype=np.float32)[None, :]).all()
    with pytest.raises(EmulatorError, match="with 1 on that axis"):
        BroadCast(dst, src, (4, 16), (4, 1), 0)
