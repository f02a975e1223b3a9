"""MicroAPI's in-register reductions (opsnn.ascendc.micro_reduce through opsnn.ascendc.micro):
Reduce<SUM | MAX | MIN> and ReduceDataBlock under masks -- the pairwise tree over the lanes in
element order, each addition rounded to the type (half sums in half), masked-off lanes taking no
part, the results in lane 0 (and the index in lane 1) or one per 32-byte block, every other lane
+0; the documented edge rules (no active lane, NaN, +-0, ties); the widening int16 -> int32 sum;
undefined lanes; what AscendC refuses."""
from __future__ import annotations

import numpy as np
import pytest

from opsnn.ascendc import EmulatorError, micro

from .helpers import Ub, kinds, make_core


def _tree(values: np.ndarray) -> np.generic:
    """The documented pairwise tree, written out: (v0 + v1), (v2 + v3), ... then pairs of those."""
    v = list(values)
    while len(v) > 1:
        v = [v[2 * k] + v[2 * k + 1] for k in range(len(v) // 2)]
    return v[0]


def _in_order(values: np.ndarray) -> np.generic:
    acc = values[0]
    for v in values[1:]:
        acc = acc + v
    return acc


def _load(core, dtype, values):
    ub = Ub(core)
    t = ub.buffer(dtype, len(values), values)
    reg = micro.RegTensor(core, dtype)
    micro.DataCopy(reg, t)
    return reg


def _mask(core, dtype, count):
    m = micro.MaskReg(core)
    micro.UpdateMask(m, dtype, count)
    return m


def test_sum_is_the_pairwise_tree_of_the_active_lanes():
    core = make_core()
    rng = np.random.default_rng(0)
    x = (rng.uniform(-1, 1, 64) * np.exp2(rng.integers(0, 24, 64))).astype(np.float32)
    src = _load(core, np.float32, x)
    dst = micro.RegTensor(core, np.float32)
    micro.Reduce(dst, src, _mask(core, np.float32, 37), micro.ReduceType.SUM)
    masked = np.concatenate([x[:37], np.full(27, -0.0, np.float32)])
    got = dst.numpy()
    assert got.view(np.uint32)[0] == np.float32(_tree(masked)).view(np.uint32)
    assert got.view(np.uint32)[0] != _in_order(x[:37]).view(np.uint32)  # the order shows in the bits
    assert (got[1:] == 0).all() and not np.signbit(got[1:]).any()
    assert kinds(core) == []


def test_half_sums_round_in_half():
    core = make_core()
    x = np.full(128, 0.1, np.float16)
    x[0] = 2048.0
    src = _load(core, np.float16, x)
    dst = micro.RegTensor(core, np.float16)
    micro.ReduceSum(dst, src, _mask(core, np.float16, 128))
    assert dst.numpy()[0] == _tree(x)  # each pairwise addition rounded to half
    assert dst.numpy()[0] != _in_order(x)  # one after another, 2048 would absorb every 0.1


def test_widening_int16_sum_to_int32():
    core = make_core()
    x = np.full(128, 30000, np.int16)
    src = _load(core, np.int16, x)
    dst = micro.RegTensor(core, np.int32)
    micro.Reduce(dst, src, _mask(core, np.int16, 100), micro.ReduceType.SUM)
    assert dst.numpy()[0] == 3_000_000


def test_max_min_value_and_first_index():
    core = make_core()
    x = np.arange(64, dtype=np.float32) % 7 - 3
    src = _load(core, np.float32, x)
    dst = micro.RegTensor(core, np.float32)
    micro.Reduce(dst, src, _mask(core, np.float32, 20), micro.ReduceType.MAX)
    assert dst.numpy()[0] == 3 and dst.lanes(np.uint32)[1] == 6  # 3 first at lane 6 (also at 13)
    micro.ReduceMin(dst, src, _mask(core, np.float32, 20))
    assert dst.numpy()[0] == -3 and dst.lanes(np.uint32)[1] == 0


def test_nan_zeros_and_no_active_lane():
    core = make_core()
    payload = np.array([0x7F800ABC], np.uint32).view(np.float32)[0]
    x = np.zeros(64, np.float32)
    x[[0, 1]] = [-0.0, 0.0]
    x[5] = payload
    x[9] = np.nan
    src = _load(core, np.float32, x)
    dst = micro.RegTensor(core, np.float32)
    micro.ReduceMax(dst, src, _mask(core, np.float32, 64))
    assert dst.lanes(np.uint32)[0] == 0x7FC00000 and dst.lanes(np.uint32)[1] == 5  # the type's NaN, the first NaN
    micro.ReduceMax(dst, src, _mask(core, np.float32, 2))
    assert dst.numpy()[0] == 0 and not np.signbit(dst.numpy()[0]) and dst.lanes(np.uint32)[1] == 1  # +0 > -0
    micro.ReduceMin(dst, src, _mask(core, np.float32, 2))
    assert np.signbit(dst.numpy()[0]) and dst.lanes(np.uint32)[1] == 0
    micro.ReduceMax(dst, src, _mask(core, np.float32, 0))
    assert dst.numpy()[0] == -np.inf
    micro.ReduceSum(dst, src, _mask(core, np.float32, 0))
    assert dst.lanes(np.uint32)[0] == 0  # +0, not -0
    i16 = _load(core, np.int16, np.arange(128, dtype=np.int16))
    d16 = micro.RegTensor(core, np.int16)
    micro.ReduceMin(d16, i16, _mask(core, np.int16, 0))
    assert d16.numpy()[0] == 32767


def test_data_block_reductions_one_result_a_block():
    core = make_core()
    rng = np.random.default_rng(2)
    x = (rng.standard_normal(64) * 100).astype(np.float32)
    src = _load(core, np.float32, x)
    dst = micro.RegTensor(core, np.float32)
    micro.ReduceDataBlock(dst, src, _mask(core, np.float32, 44), micro.ReduceType.SUM)
    blocks = [np.concatenate([x[8 * b:8 * b + 8][:max(0, min(8, 44 - 8 * b))],
                              np.full(8 - max(0, min(8, 44 - 8 * b)), -0.0, np.float32)]) for b in range(8)]
    want = [_tree(b) if k < 6 else np.float32(0) for k, b in enumerate(blocks)]  # blocks 6, 7: no active lane
    assert (dst.numpy()[:8].view(np.uint32) == np.array(want, np.float32).view(np.uint32)).all()
    assert (dst.numpy()[8:] == 0).all()
    micro.ReduceMaxWithDataBlock(dst, src, _mask(core, np.float32, 64))
    assert (dst.numpy()[:8] == x.reshape(8, 8).max(axis=1)).all()
    micro.ReduceMinWithDataBlock(dst, src, _mask(core, np.float32, 64))
    assert (dst.numpy()[:8] == x.reshape(8, 8).min(axis=1)).all()


def test_a_register_reduced_into_itself():
    core = make_core()
    x = np.arange(64, dtype=np.float32)
    reg = _load(core, np.float32, x)
    micro.Reduce(reg, reg, _mask(core, np.float32, 64), micro.ReduceType.SUM)
    assert reg.numpy()[0] == x.sum() and (reg.numpy()[1:] == 0).all()


def test_undefined_lanes_make_the_result_undefined():
    core = make_core()
    ub = Ub(core)
    t = ub.buffer(np.float32, 64)
    t.buffer.written = [(0, 32 * 4)]  # lanes 32.. never written
    src = micro.RegTensor(core, np.float32)
    micro.DataCopy(src, t)
    dst = micro.RegTensor(core, np.float32)
    micro.ReduceSum(dst, src, _mask(core, np.float32, 32))
    assert not dst.undef.any()  # only written lanes active
    micro.ReduceSum(dst, src, _mask(core, np.float32, 40))
    assert dst.undef[:4].all() and not dst.undef[4:].any()
    blocks = micro.RegTensor(core, np.float32)
    micro.ReduceDataBlock(blocks, src, _mask(core, np.float32, 64), micro.ReduceType.MAX)
    assert not blocks.lane_undef(4)[:4].any() and blocks.lane_undef(4)[4:8].all()


@pytest.mark.parametrize("fn, dst_t, src_t, match", [
    (micro.ReduceSum, np.int16, np.int16, "takes"), (micro.ReduceMax, np.float32, np.float16, "takes"),
    (micro.ReduceSumWithDataBlock, np.int64, np.int64, "takes")])
def test_types_ascendc_refuses(fn, dst_t, src_t, match):
    core = make_core()
    src = micro.RegTensor(core, src_t)
    with pytest.raises(EmulatorError, match=match):
        fn(micro.RegTensor(core, dst_t), src, _mask(core, np.int32, 8))


def test_merging_is_refused():
    core = make_core()
    src = _load(core, np.float32, np.ones(64, np.float32))
    with pytest.raises(EmulatorError, match="ZEROING"):
        micro.ReduceSum(micro.RegTensor(core, np.float32), src, _mask(core, np.float32, 8), micro.MaskMergeMode.MERGING)
