"""repeat.py: which elements a mask/repeat instruction touches (both mask kinds, counter mode, the
core's mask state), where they lie (block and repeat strides), and that the sanitizer sees exactly
those bytes."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from opsnn.ascendc import EmulatorError
from opsnn.ascendc.core import FULL_MASK, MaskState
from opsnn.ascendc.repeat import (
    BinaryRepeatParams,
    ResetMask,
    SetMaskCount,
    SetMaskNorm,
    SetVectorMask,
    UnaryRepeatParams,
    active_elements,
    element_offsets,
    gather,
    repeat_offsets,
    scatter,
)

from .helpers import Ub, copy_out, kinds, make_core

F16, F32 = np.dtype(np.float16), np.dtype(np.float32)


def _pairs(r, j):
    return list(zip(r.tolist(), j.tolist(), strict=True))


def test_params_field_order_and_defaults_follow_ascendc():
    assert BinaryRepeatParams(1, 2, 3, 4, 5, 6).strides() == ((1, 4), (2, 5), (3, 6))
    assert BinaryRepeatParams().strides() == ((1, 8), (1, 8), (1, 8))
    assert UnaryRepeatParams(1, 2, 3, 4).strides() == ((1, 3), (2, 4))
    assert UnaryRepeatParams().strides() == ((1, 8), (1, 8))


def test_a_core_starts_in_normal_mode_with_a_full_mask():
    assert make_core().vector_mask == MaskState(False, FULL_MASK, FULL_MASK)
    r, j = active_elements(F16, None, 1, make_core())
    assert j.tolist() == list(range(128))


def test_continuous_mask_takes_the_first_elements_of_every_repeat():
    r, j = active_elements(F32, 5, 2, make_core())
    assert _pairs(r, j) == [(0, k) for k in range(5)] + [(1, k) for k in range(5)]


def test_bit_mask_is_low_word_then_high_word_as_in_cpp():
    # uint64_t mask[2] = {low, high}: mask[0] bit i = element i, mask[1] bit i = element 64 + i.
    r, j = active_elements(F16, [0b1010, 1 | 1 << 63], 1, make_core())
    assert j.tolist() == [1, 3, 64, 127]
    # 32-bit types: a repeat has 64 elements, only the low word counts.
    r, j = active_elements(F32, (1 << 63 | 1, FULL_MASK), 3, make_core())
    assert _pairs(r, j) == [(0, 0), (0, 63), (1, 0), (1, 63), (2, 0), (2, 63)]


def test_mask_none_reads_the_core_mask_register():
    core = make_core()
    SetVectorMask(core, 1, 0b110)  # (maskHigh, maskLow)
    assert active_elements(F16, None, 1, core)[1].tolist() == [1, 2, 64]
    SetVectorMask(core, 70)  # normal mode, continuous: the first 70 elements as bits
    assert active_elements(F16, None, 1, core)[1].tolist() == list(range(70))
    assert active_elements(F32, None, 1, core)[1].tolist() == list(range(64))
    ResetMask(core)
    assert active_elements(F16, None, 1, core)[1].tolist() == list(range(128))
    # An explicit mask does not change the register.
    SetVectorMask(core, 0, 1)
    active_elements(F16, 7, 1, core)
    assert core.vector_mask == MaskState(False, 0, 1)


@pytest.mark.parametrize("set_count", [lambda c: SetVectorMask(c, 0, 150), lambda c: SetVectorMask(c, 150)])
def test_counter_mode_processes_the_set_count_whatever_mask_and_repeat_say(set_count):
    core = make_core()
    SetMaskCount(core)
    set_count(core)
    r, j = active_elements(F32, 3, 1, core)
    assert r.size == 150 and _pairs(r, j)[:2] == [(0, 0), (0, 1)]
    assert _pairs(r, j)[64] == (1, 0) and _pairs(r, j)[-1] == (2, 150 - 129)
    SetMaskNorm(core)
    assert active_elements(F32, 3, 1, core)[1].tolist() == [0, 1, 2]


def test_counter_mode_len_and_reset_keep_the_mode():
    core = make_core()
    SetMaskCount(core)
    ResetMask(core)
    assert core.vector_mask.counter
    SetVectorMask(core, 0)
    assert active_elements(F16, None, 9, core)[0].size == 0


@pytest.mark.parametrize("dtype,mask,repeat", [
    (F32, 65, 1), (F16, 129, 1), (F16, [0, 0], 1), (F32, [0, 5], 1), (F16, 8, 256),
    (F16, 8, -1), (F16, [1 << 64, 0], 1), (F16, [1, 2, 3], 1), (F16, 2.5, 1)])
def test_bad_masks_and_repeat_times_are_refused(dtype, mask, repeat):
    with pytest.raises(EmulatorError):
        active_elements(dtype, mask, repeat, make_core())


def test_a_continuous_mask_of_0_is_a_nop_and_past_the_repeat_the_kernels_defect():
    """AscendC's CheckMaskValue takes 0..elements of a repeat (0 warns of a NOP); beyond that the
    CPU debug asserts: an api_contract_violation (ApiContractError), not an emulator gap."""
    from opsnn.ascendc import ApiContractError
    assert active_elements(F32, 0, 3, make_core())[0].size == 0
    with pytest.raises(ApiContractError, match="continuous mask 65 for float32"):
        active_elements(F32, 65, 1, make_core())


def test_bad_set_vector_mask_calls_are_refused():
    core = make_core()
    for args in [(), (1, 2, 3), (-1,), (129,), (-1, 0)]:
        with pytest.raises(EmulatorError):
            SetVectorMask(core, *args)


def _brute_offsets(dtype, pairs, blk, rep):
    size = np.dtype(dtype).itemsize
    per_block = 32 // size
    out = []
    for r, j in pairs:
        byte = (r * rep + (j // per_block) * blk) * 32 + (j % per_block) * size
        assert byte % size == 0
        out.append(byte // size)
    return out


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([F16, F32, np.dtype(np.int16), np.dtype(np.int32)]), st.integers(0, 6),
       st.integers(0, 20), st.integers(1, 5), st.integers(0, 2**64 - 1), st.integers(0, 2**64 - 1))
def test_offsets_follow_the_documented_byte_formula(dtype, blk, rep, repeat, low, high):
    core = make_core()
    if (low, high if dtype.itemsize == 2 else 0) == (0, 0):
        low = 1
    r, j = active_elements(dtype, [low, high], repeat, core)
    got = element_offsets(dtype, r, j, blk, rep)
    assert got.tolist() == _brute_offsets(dtype, _pairs(r, j), blk, rep)
    assert repeat_offsets(dtype, [low, high], repeat, blk, rep, core).tolist() == got.tolist()


def test_offsets_with_strides_by_hand():
    # float, blkStride 2, repStride 20: block b of repeat r starts at (20 r + 2 b) * 8 floats.
    r, j = active_elements(F32, 10, 2, make_core())
    got = element_offsets(F32, r, j, 2, 20).tolist()
    assert got == [0, 1, 2, 3, 4, 5, 6, 7, 16, 17] + [160, 161, 162, 163, 164, 165, 166, 167, 176, 177]
    with pytest.raises(EmulatorError):
        element_offsets(F32, r, j, -1, 8)


def test_gather_reads_only_the_active_elements():
    core = make_core()
    ub = Ub(core)
    t = ub.buffer(F32, 64, nbytes=256)
    b = t.buffer
    values = np.arange(64, dtype=F32)
    b.storage[b.base:b.base + 256] = values.view(np.uint8)
    b.written = [(0, 32), (64, 96)]  # blocks 0 and 2 written, 1 and 3 never
    offsets = element_offsets(F32, *active_elements(F32, 16, 1, core), 2, 8)  # blocks 0 and 2
    np.testing.assert_array_equal(gather(t, offsets, "Probe"), np.r_[values[:8], values[16:24]])
    assert kinds(core) == []
    gather(t, element_offsets(F32, *active_elements(F32, 16, 1, core), 1, 8), "DataCopy")  # blocks 0, 1
    assert kinds(core) == ["ub_read_before_write"]
    assert core.log.items[0].offset == 32 and core.log.items[0].nbytes == 32


def test_scatter_writes_only_the_active_elements_and_counts_once():
    core = make_core()
    ub = Ub(core)
    t = ub.buffer(np.int32, 64, np.full(64, -1, np.int32))
    offsets = element_offsets(np.int32, *active_elements(np.int32, [0b101, 0], 2, core), 2, 3)
    scatter(t, offsets, np.array([10, 20, 30, 40], np.int32), "Probe")
    expected = np.full(64, -1, np.int32)
    expected[[0, 2, 24, 26]] = [10, 20, 30, 40]
    np.testing.assert_array_equal(t.numpy(64), expected)
    assert core.counters.instructions == {"Probe": 1} and kinds(core) == []


def test_scatter_to_one_address_keeps_the_last_repeat():
    core = make_core()
    t = Ub(core).buffer(F32, 8, np.zeros(8, F32))
    offsets = element_offsets(F32, *active_elements(F32, 2, 3, core), 1, 0)  # repStride 0
    scatter(t, offsets, np.array([1, 2, 3, 4, 5, 6], F32), "Probe")
    np.testing.assert_array_equal(t.numpy(2), [5, 6])


def test_scatter_and_gather_past_the_buffer_are_overflow_findings():
    core = make_core()
    ub = Ub(core)
    t = ub.buffer(F32, 8, np.zeros(8, F32))
    ub.buffer(F32, 64, np.zeros(64, F32))  # what lies behind it in UB
    offsets = element_offsets(F32, *active_elements(F32, 8, 2, core), 1, 8)  # repeat 1: bytes 256..288
    scatter(t, offsets, np.ones(16, F32), "Probe")
    gather(t, offsets, "Probe2")
    assert kinds(core) == ["local_tensor_overflow", "local_tensor_overflow"]
    assert core.log.items[0].offset == 256 and core.log.items[0].nbytes == 32


# --- the instructions' mask/repeat forms ---------------------------------------------------------

def _ref_binary(op, a, b, out, dtype, mask, repeat, params: BinaryRepeatParams, core):
    """The expected dst by the documented formula, element by element."""
    expected = out.copy()
    r, j = active_elements(dtype, mask, repeat, core)
    (db, dr), (ab, ar), (bb, br) = params.strides()
    for rr, jj in zip(r.tolist(), j.tolist(), strict=True):
        [d], [x], [y] = (_brute_offsets(dtype, [(rr, jj)], s, t) for s, t in ((db, dr), (ab, ar), (bb, br)))
        expected[d] = op(a[x], b[y])
    return expected


@pytest.mark.parametrize("mask", [37, [0xF0F0_0000_0000_0001, 0x8000_0000_0000_0003]])
@pytest.mark.parametrize("dtype", [F16, F32, np.dtype(np.int16), np.dtype(np.int32)])
def test_add_repeat_form_with_strides_and_both_mask_kinds(dtype, mask):
    from opsnn.ascendc import Add
    core = make_core()
    ub = Ub(core)
    n = 4096 // dtype.itemsize  # 4 KiB each: room for the strides
    rng = np.random.default_rng(3)
    a = rng.integers(-50, 50, n).astype(dtype)
    b = rng.integers(-50, 50, n).astype(dtype)
    x, y = ub.buffer(dtype, n, a), ub.buffer(dtype, n, b)
    out = ub.buffer(dtype, n, np.full(n, 99, dtype))
    params = BinaryRepeatParams(2, 1, 3, 16, 9, 24)
    Add(out, x, y, mask, 3, params)
    expected = _ref_binary(lambda p, q: p + q, a, b, np.full(n, 99, dtype), dtype, mask, 3, params, core)
    np.testing.assert_array_equal(out.numpy(n), expected)  # masked-off elements keep 99
    assert core.counters.instructions == {"Add": 1} and kinds(core) == []


def test_counter_mode_runs_the_set_count_and_the_count_form_ignores_it():
    from opsnn.ascendc import Add, Adds
    core = make_core()
    ub = Ub(core)
    x = ub.buffer(F32, 256, np.arange(256, dtype=F32))
    out = ub.buffer(F32, 256, np.zeros(256, F32))
    SetMaskCount(core)
    SetVectorMask(core, 0, 150)
    Add(out, x, x, 5, 1, BinaryRepeatParams())  # mask 5 and 1 repeat are ignored: 150 elements
    expected = np.zeros(256, F32)
    expected[:150] = 2 * np.arange(150)
    np.testing.assert_array_equal(out.numpy(), expected)
    Adds(out, x, 1.0, 200)  # the count form is not affected by counter mode
    np.testing.assert_array_equal(out.numpy(200), np.arange(200) + 1)
    SetMaskNorm(core)
    ResetMask(core)


def test_mask_none_uses_the_register_in_normal_mode():
    from opsnn.ascendc import Muls
    core = make_core()
    ub = Ub(core)
    x = ub.buffer(F16, 256, np.ones(256, F16))
    out = ub.buffer(F16, 256, np.zeros(256, F16))
    SetVectorMask(core, 1, 0b11)  # elements 0, 1 and 64 of each repeat
    Muls(out, x, 3.0, None, 2, UnaryRepeatParams())
    got = out.numpy()
    assert np.flatnonzero(got).tolist() == [0, 1, 64, 128, 129, 192] and (got[got != 0] == 3).all()


def test_unary_and_scalar_repeat_forms_use_unary_params():
    from opsnn.ascendc import Exp, LeakyRelu, ShiftRight
    core = make_core()
    ub = Ub(core)
    x = ub.buffer(F32, 128, np.linspace(-2, 2, 128).astype(F32))
    out = ub.buffer(F32, 128, np.full(128, 7, F32))
    Exp(out, x, 8, 2, UnaryRepeatParams(1, 2, 2, 4))  # src: blocks 0 and 4 of each 32-float repeat stride
    got = out.numpy()
    xs = x.numpy()
    np.testing.assert_array_equal(got[:8], np.exp(xs[:8].astype(np.float64)).astype(F32))
    np.testing.assert_array_equal(got[16:24], np.exp(xs[32:40].astype(np.float64)).astype(F32))
    assert (got[8:16] == 7).all() and (got[24:] == 7).all()
    LeakyRelu(out, x, 0.5, [0b1, 0], 1, UnaryRepeatParams())
    assert out.numpy(1)[0] == np.float32(-1.0)
    i = ub.buffer(np.int16, 128, np.full(128, -64, np.int16))
    ShiftRight(i, i, 2, 16, 1, UnaryRepeatParams(), False)
    assert (i.numpy(16) == -16).all() and (i.numpy()[16:] == -64).all()
    with pytest.raises(EmulatorError, match="roundEn"):
        ShiftRight(i, i, 2, 16, 1, UnaryRepeatParams(), True)


def test_repeat_form_refuses_the_wrong_params_and_arity():
    from opsnn.ascendc import Abs, Add
    ub = Ub(make_core())
    x = ub.buffer(F32, 64, np.ones(64, F32))
    with pytest.raises(EmulatorError, match="BinaryRepeatParams"):
        Add(x, x, x, 64, 1, UnaryRepeatParams())
    with pytest.raises(EmulatorError, match="UnaryRepeatParams"):
        Abs(x, x, 64, 1, BinaryRepeatParams())
    with pytest.raises(EmulatorError, match="Abs takes 3 arguments"):
        Abs(x, x, 64, 1)


def test_repeat_form_sanitizer_sees_only_active_bytes():
    from opsnn.ascendc import Sub
    core = make_core()
    ub = Ub(core)
    a = ub.buffer(F32, 64, nbytes=256)
    a.buffer.storage[a.buffer.base:a.buffer.base + 32] = np.ones(8, F32).view(np.uint8)
    a.buffer.written = [(0, 32)]  # only block 0
    out = ub.buffer(F32, 64, np.zeros(64, F32))
    Sub(out, a, a, 8, 1, BinaryRepeatParams())  # reads block 0 only
    assert kinds(core) == []
    Sub(out, a, a, 8, 2, BinaryRepeatParams(1, 1, 1, 1, 1, 1))  # repeat 1 reads block 1: unwritten
    assert kinds(core) == []  # out's block 1 now holds undefined values: an error once used
    copy_out(out, 8)
    assert kinds(core) == []
    copy_out(out[8], 8)
    assert kinds(core) == ["ub_read_before_write"]
    assert (core.log.items[0].offset, core.log.items[0].nbytes) == (32, 32)
    Sub(out, a, a, 8, 1, BinaryRepeatParams(1, 1, 1, 8, 8, 8))
    Sub(out[60], out[60], out[60], 8, 1, BinaryRepeatParams())  # 8 floats from element 60: 4 past the end
    assert kinds(core)[-1] == "local_tensor_overflow"


def test_repeat_times_zero_does_nothing():
    from opsnn.ascendc import Add
    core = make_core()
    x = Ub(core).buffer(F32, 64, np.ones(64, F32))
    Add(x, x, x, 64, 0, BinaryRepeatParams())
    assert core.counters.instructions == {} and (x.numpy() == 1).all()


def test_repeat_form_in_place():
    from opsnn.ascendc import Mul, Relu
    core = make_core()
    x = Ub(core).buffer(F32, 128, np.arange(-64, 64, dtype=F32))
    Mul(x, x, x, [0xFF, 0], 2, BinaryRepeatParams())  # the first 8 of each repeat squared
    Relu(x, x, 64, 2, UnaryRepeatParams())
    v = np.arange(-64, 64, dtype=F32)
    v[:8] **= 2
    v[64:72] **= 2
    np.testing.assert_array_equal(x.numpy(), np.maximum(v, 0))
    assert core.counters.instructions == {"Mul": 1, "Relu": 1} and kinds(core) == []
