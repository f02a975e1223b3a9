"""The high-level ReduceSum / ReduceMax / ReduceMin<T, Pattern::Reduce::AR | RA, isReuseSource> of
Ascend950 (opsnn.ascendc.reduce_pattern) against reduce_reference.py, a literal loop-by-loop
transcription of AscendC's folding order: float sums bit for bit over every path (a row within a
register, in blocks, over registers with a tail, aligned or not, with and without isReuseSource,
several rows, RA's three row-folding variants), what the algorithm leaves in src and in
sharedTmpBuffer, the NaN / +-0 rules of max and min, undefined values element by element, and the
types AscendC refuses."""
from __future__ import annotations

import numpy as np
import pytest

from opsnn import ascendc
from opsnn.ascendc import EmulatorError, ReducePattern
from opsnn.ascendc.local_tensor import read_local
from opsnn.platform import Platform

from .helpers import Ub, kinds
from .helpers import make_core as _make_core
from .reduce_reference import reduce_ar, reduce_ra

AR, RA = ReducePattern.AR, ReducePattern.RA
BIG_UB = Platform.custom(ub_size=512 * 1024, aiv_cores=4)  # room for a few rows of 4096 floats


def make_core():
    return _make_core(platform=BIG_UB)

# (rows, cols): within a register (1, 8, 16, 24 blocks, 40, 64), over registers (72 .. 2056: tails,
# a partial tail register, one main round of 16 registers, power-of-two rows), not 32-byte aligned
AR_SHAPES = [(3, 1), (4, 8), (5, 16), (3, 24), (2, 40), (2, 64), (3, 72), (2, 128), (2, 200), (2, 1024),
             (1, 2056), (4, 4096), (3, 37), (2, 100), (1, 1001), (1, 4101)]
# RA: concat (cols <= 32), local (32 < cols <= 64), global (cols > 64 or unaligned); several row counts
RA_SHAPES = [(1, 16), (2, 8), (3, 8), (40, 8), (256, 24), (7, 40), (33, 48), (64, 48), (100, 64), (20, 72),
             (37, 200), (70, 130), (18, 37), (16, 3)]


def _data(rng, shape) -> np.ndarray:
    """Values of very different magnitudes, so that the order of the additions shows in the bits."""
    x = rng.standard_normal(shape) * np.exp2(rng.integers(-12, 12, shape))
    return x.astype(np.float32)


def _run(fn, x: np.ndarray, pattern, reuse: bool, tmp: bool = False, src_pad: int = 64):
    core = make_core()
    ub = Ub(core)
    rows, cols = x.shape
    flat = np.concatenate([x.reshape(-1), np.zeros(src_pad, x.dtype)])
    src = ub.buffer(x.dtype, flat.size, flat)
    n = rows if pattern is AR else cols
    dst = ub.buffer(x.dtype, max(n, 8))
    work = ub.buffer(np.uint8, 4 * rows * cols + 256) if tmp else None
    fn(dst, src, [rows, cols], False, pattern, reuse, work)
    return core, dst.numpy(n).copy(), src.numpy(rows * cols).reshape(rows, cols).copy(), work


def _bits(a: np.ndarray) -> np.ndarray:
    return a.view(np.uint32)


@pytest.mark.parametrize("reuse", [False, True])
@pytest.mark.parametrize("shape", AR_SHAPES)
def test_ar_sum_bit_for_bit(shape, reuse):
    x = _data(np.random.default_rng(sum(shape)), shape)
    core, got, _, _ = _run(ascendc.PatternReduceSum, x, AR, reuse)
    assert (_bits(got) == _bits(reduce_ar("sum", x, reuse))).all()
    assert kinds(core) == []


@pytest.mark.parametrize("reuse", [False, True])
@pytest.mark.parametrize("shape", RA_SHAPES)
def test_ra_sum_bit_for_bit(shape, reuse):
    x = _data(np.random.default_rng(7 * sum(shape)), shape)
    core, got, _, _ = _run(ascendc.PatternReduceSum, x, RA, reuse)
    assert (_bits(got) == _bits(reduce_ra("sum", x, reuse))).all()
    assert kinds(core) == []


def test_the_order_shows_in_the_bits():
    """The data of the tests above are such that another order gives other bits, so those tests
    would see a wrong one: numpy's own sums, and the first halving isReuseSource=false adds for a
    power-of-two extent."""
    rng = np.random.default_rng(1)
    x = _data(rng, (4, 4101))
    assert (_bits(reduce_ar("sum", x, True)) != _bits(x.sum(axis=1, dtype=np.float32))).any()
    y = _data(rng, (70, 130))
    assert (_bits(reduce_ra("sum", y, True)) != _bits(np.add.reduce(y, axis=0, dtype=np.float32))).any()
    x = _data(np.random.default_rng(sum((4, 4096))), (4, 4096))
    assert (_bits(reduce_ar("sum", x, False)) != _bits(reduce_ar("sum", x, True))).any()
    y = _data(np.random.default_rng(7 * sum((64, 48))), (64, 48))
    assert (_bits(reduce_ra("sum", y, False)) != _bits(reduce_ra("sum", y, True))).any()


@pytest.mark.parametrize("fn, op", [(ascendc.PatternReduceMax, "max"), (ascendc.PatternReduceMin, "min")])
@pytest.mark.parametrize("pattern, shape", [(AR, (3, 24)), (AR, (2, 200)), (AR, (3, 37)), (RA, (33, 48)),
                                            (RA, (70, 130))])
def test_max_min_float(fn, op, pattern, shape):
    x = _data(np.random.default_rng(3), shape)
    _, got, _, _ = _run(fn, x, pattern, True)
    ref = (reduce_ar if pattern is AR else reduce_ra)(op, x, True)
    assert (got == ref).all()


def test_max_over_halves_and_8_bit_types():
    core = make_core()
    ub = Ub(core)
    x = np.array([[1, -3, 7, 2] * 8, [-100, 5, 127, -128] * 8], dtype=np.int8)
    src = ub.buffer(np.int8, 64, x.reshape(-1))
    dst = ub.buffer(np.int8, 32)
    ascendc.PatternReduceMax(dst, src, [2, 32], False, AR)
    assert list(dst.numpy(2)) == [7, 127]
    h = np.array([[0.5, -2.0, np.inf, 3.0], [-np.inf, -1.0, -0.0, 0.0]], dtype=np.float16)
    hs = ub.buffer(np.float16, 16, np.concatenate([h.reshape(-1), np.zeros(8, np.float16)]))
    hd = ub.buffer(np.float16, 16)
    ascendc.PatternReduceMin(hd, hs, [2, 4], False, RA)
    assert list(hd.numpy(4)) == [-np.inf, -2.0, -0.0, 0.0] and np.signbit(hd.numpy(4)[2])
    assert kinds(core) == []


def test_nan_and_signed_zeros():
    """A NaN wins: the register reduction that ends AR writes the default NaN; RA ends with the
    binary Max, which passes on the first NaN operand's payload (quieted). max(-0, +0) = +0."""
    core = make_core()
    ub = Ub(core)
    payload = np.array([0x7F800123], dtype=np.uint32).view(np.float32)[0]  # a signalling NaN
    x = np.array([[1.0, payload, 2.0, 3.0, 0, 0, 0, 0], [-0.0, 0.0, -0.0, -0.0, -1, -2, -3, -4]], np.float32)
    src = ub.buffer(np.float32, 32, np.concatenate([x.reshape(-1), np.zeros(16, np.float32)]))
    dst = ub.buffer(np.float32, 8)
    ascendc.PatternReduceMax(dst, src, [2, 8], False, AR)
    got = dst.numpy(2)
    assert got.view(np.uint32)[0] == 0x7FC00000 and got[1] == 0 and not np.signbit(got[1])
    src2 = ub.buffer(np.float32, 32, np.concatenate([x.reshape(-1), np.zeros(16, np.float32)]))
    ascendc.PatternReduceMax(dst, src2, [2, 8], False, RA)
    assert dst.numpy(8).view(np.uint32)[1] == 0x7FC00123  # the payload, quieted
    assert kinds(core) == []


def test_what_the_algorithm_leaves_in_src_and_the_tmp_buffer():
    x = _data(np.random.default_rng(5), (2, 200))  # main 128, tail 72: no round of 16 registers
    _, _, src_after, _ = _run(ascendc.PatternReduceSum, x, AR, True)
    merged = x.copy()
    merged[:, :72] = x[:, :72] + x[:, 128:200]
    assert (_bits(src_after) == _bits(merged)).all()  # isReuseSource: the tail folded in place
    _, _, src_after, work = _run(ascendc.PatternReduceSum, x, AR, False, tmp=True)
    assert (_bits(src_after) == _bits(x)).all()  # without it src is left alone
    tmp = work.ReinterpretCast(np.float32).numpy(2 * 128).reshape(2, 128)
    expect = x[:, :128].copy()
    expect[:, :64] = x[:, :64] + x[:, 128:192]
    expect[:, :8] = expect[:, :8] + x[:, 192:200]  # the tail's partial register onto register 0
    assert (_bits(tmp) == _bits(expect)).all()
    y = _data(np.random.default_rng(6), (2, 100))  # not aligned: in place whatever isReuseSource says
    _, _, src_after, _ = _run(ascendc.PatternReduceSum, y, AR, False)
    expect = y.copy()
    expect[:, :36] = y[:, :36] + y[:, 64:100]
    assert (_bits(src_after) == _bits(expect)).all()


def test_ra_writes_src_only_with_is_reuse_source():
    x = _data(np.random.default_rng(8), (6, 48))  # main 4 rows, tail 2
    _, _, src_after, work = _run(ascendc.PatternReduceSum, x, RA, False, tmp=True)
    assert (_bits(src_after) == _bits(x)).all()
    tmp = work.ReinterpretCast(np.float32).numpy(4 * 48).reshape(4, 48)
    assert (_bits(tmp[:2]) == _bits(x[:2] + x[4:6])).all() and (_bits(tmp[2:]) == _bits(x[2:4])).all()
    _, _, src_after, _ = _run(ascendc.PatternReduceSum, x, RA, True)
    assert (_bits(src_after[:2]) != _bits(x[:2])).any()


def test_a_tmp_buffer_too_small_is_an_overflow():
    core = make_core()
    ub = Ub(core)
    x = np.ones((2, 256), np.float32)
    src = ub.buffer(np.float32, 512, x.reshape(-1))
    dst = ub.buffer(np.float32, 8)
    small = ub.buffer(np.uint8, 256)  # the algorithm keeps 2 rows of 128 floats there
    ascendc.PatternReduceSum(dst, src, [2, 256], False, AR, False, small)
    assert "local_tensor_overflow" in kinds(core)
    assert list(dst.numpy(2)) == [256.0, 256.0]


def test_undefined_values_travel_by_element():
    core = make_core()
    ub = Ub(core)
    src = ub.buffer(np.float32, 3 * 64)
    b = src.buffer
    b.written = [(0, 64 * 4), (128 * 4, 3 * 64 * 4)]  # row 1 never written
    dst = ub.buffer(np.float32, 8)
    ascendc.PatternReduceSum(dst, src, [3, 64], False, AR, True)
    for k in range(3):
        read_local(dst[k], 1, "GetValue")
    found = [f for f in core.log.items if f.kind == "ub_read_before_write"]
    assert len(found) == 1 and found[0].offset == 4  # dst[1] only


def test_batch_invariant_ra_folds_in_groups_of_16_rows():
    rng = np.random.default_rng(9)
    x = _data(rng, (64, 72))
    core = make_core()
    ub = Ub(core)
    src = ub.buffer(np.float32, x.size + 64, np.concatenate([x.reshape(-1), np.zeros(64, np.float32)]))
    dst = ub.buffer(np.float32, 72)
    ascendc.BatchInvariantReduceSumRA(dst, src, [64, 72])
    got = dst.numpy(72)
    assert (_bits(got) == _bits(reduce_ra("sum", x, True, batch_invariant=True))).all()
    assert (_bits(got) != _bits(reduce_ra("sum", x, True))).any()  # ReduceSum<RA>'s order is another


@pytest.mark.parametrize("fn, dtype", [(ascendc.PatternReduceSum, np.float16), (ascendc.PatternReduceSum, np.int8),
                                       (ascendc.PatternReduceMax, np.float64)])
def test_types_ascendc_refuses(fn, dtype):
    core = make_core()
    ub = Ub(core)
    src = ub.buffer(dtype, 64, np.zeros(64, dtype))
    dst = ub.buffer(dtype, 16)
    with pytest.raises(EmulatorError, match="takes"):
        fn(dst, src, [2, 16], False, AR)


def test_the_pattern_must_be_a_reduce_pattern():
    core = make_core()
    ub = Ub(core)
    src = ub.buffer(np.float32, 16, np.zeros(16, np.float32))
    with pytest.raises(EmulatorError, match="ReducePattern"):
        ascendc.PatternReduceSum(ub.buffer(np.float32, 8), src, [2, 8], False, "AR")


def test_integer_sums_wrap():
    core = make_core()
    ub = Ub(core)
    x = np.array([[2**31 - 1, 1, 5, 6, 0, 0, 0, 0]], dtype=np.int32)
    src = ub.buffer(np.int32, 8, x.reshape(-1))
    dst = ub.buffer(np.int32, 8)
    ascendc.PatternReduceSum(dst, src, [1, 8], False, AR)
    assert dst.numpy(1)[0] == np.int32(-(2**31) + 11)
    big = ub.buffer(np.int64, 8, np.array([2**62, 2**62, 2**62, 7], dtype=np.int64))
    bd = ub.buffer(np.int64, 4)
    ascendc.PatternReduceSum(bd, big, [1, 4], False, AR)
    assert bd.numpy(1)[0] == np.int64(-(2**62) + 7)
