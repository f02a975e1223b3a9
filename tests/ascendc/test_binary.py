"""Add Sub Mul Div Max Min And Or (count form): exact bits against exact rational arithmetic,
NaN/inf/signed-zero/subnormal cases, integer wrap, aliasing, the sanitizer, refused types."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from opsnn.ascendc import Add, And, Div, EmulatorError, Max, Min, Mul, Or, Sub

from .exact import exact, round_fraction
from .helpers import Ub, bits, copy_out, kinds, make_core

F16, F32 = np.dtype(np.float16), np.dtype(np.float32)
U = {F16: np.uint16, F32: np.uint32}
QUIET = {F16: 0x0200, F32: 0x0040_0000}
DEFAULT = {F16: 0x7E00, F32: 0x7FC0_0000}
SIGN = {F16: 0x8000, F32: 0x8000_0000}
OPS = {"Add": (Add, lambda a, b: a + b), "Sub": (Sub, lambda a, b: a - b),
       "Mul": (Mul, lambda a, b: a * b), "Div": (Div, lambda a, b: a / b)}


def _run(fn, dtype, a, b):
    ub = Ub(make_core())
    a, b = np.asarray(a, dtype), np.asarray(b, dtype)
    x, y, out = ub.buffer(dtype, a.size, a), ub.buffer(dtype, b.size, b), ub.buffer(dtype, a.size)
    fn(out, x, y, a.size)
    return out.numpy(a.size)


def _pattern(dtype, raw):
    return np.asarray(raw, dtype=np.uint64).astype(U[dtype]).view(dtype)


def _reference(name, a, b, dtype):
    """Correctly rounded a <op> b from exact rationals, for finite operands with a defined result."""
    ref = OPS[name][1]
    out = []
    for x, y in zip(a, b, strict=True):
        if name == "Div" and y == 0:
            out.append(None)
            continue
        q = ref(exact(x), exact(y))
        with np.errstate(all="ignore"):  # an exact zero's sign: IEEE's rule, which float64 follows
            zero_sign = bool(np.signbit(OPS[name][1](np.float64(x), np.float64(y))))
        out.append(round_fraction(q, dtype, negative_zero=zero_sign))
    return out


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(sorted(OPS)), st.sampled_from([F16, F32]),
       st.lists(st.integers(0, 2**32 - 1), min_size=32, max_size=32),
       st.lists(st.integers(0, 2**32 - 1), min_size=32, max_size=32))
def test_arithmetic_is_correctly_rounded_in_the_type(name, dtype, raw_a, raw_b):
    a, b = _pattern(dtype, raw_a), _pattern(dtype, raw_b)
    finite = np.isfinite(a) & np.isfinite(b)
    a, b = a[finite], b[finite]
    if a.size == 0:
        return
    got = _run(OPS[name][0], dtype, a, b)
    for g, r in zip(got, _reference(name, a, b, dtype), strict=True):
        if r is not None:
            assert bits(np.array([g]))[0] == bits(np.array([r], dtype))[0], (name, dtype, g, r)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(0, 0xFFFF), min_size=64, max_size=64),
       st.lists(st.integers(0, 0xFFFF), min_size=64, max_size=64))
def test_half_results_equal_numpy_float16_arithmetic_through_float32(raw_a, raw_b):
    # Figueroa: rounding to float32 first (24 >= 2 * 11 + 2 bits) cannot change a half result, so
    # numpy's float16 ops (which go through float32) and the emulator's (through float64) agree.
    a, b = _pattern(F16, raw_a), _pattern(F16, raw_b)
    for name in ("Add", "Sub", "Mul", "Div"):
        with np.errstate(all="ignore"):
            expected = OPS[name][1](a, b)
        got = _run(OPS[name][0], F16, a, b)
        ok = ~np.isnan(expected)
        np.testing.assert_array_equal(bits(got)[ok], bits(expected)[ok])
        assert np.isnan(got[~ok]).all()


def test_half_ties_round_to_even_and_subnormals_are_kept():
    tiny = np.float16(2.0**-24)  # the smallest subnormal half
    a = np.array([2048, 2048, 1.0, tiny, 3 * tiny, tiny, 65504, -65504, 1.0, tiny], F16)
    b = np.array([1, 3, 2.0**-11, tiny, tiny, -tiny, 16, -16, 2.0**-11 + 2.0**-21, 0.5], F16)
    got = _run(Add, F16, a[:9], b[:9])
    # 2048 + 1 ties to 2048 (even), 2048 + 3 to 2052; 1 + 2^-11 ties to 1; subnormal sums exact;
    # 65504 + 16 = 65520 ties away to inf (the even neighbour is 2^16); -65504 - 16 to -inf.
    expected = np.array([2048, 2052, 1.0, 2 * tiny, 4 * tiny, 0.0, np.inf, -np.inf, 1.0 + 2.0**-10], F16)
    np.testing.assert_array_equal(bits(got), bits(expected))
    # tiny * 0.5 is exactly halfway between 0 and tiny: ties to even, +0
    assert bits(_run(Mul, F16, a[9:], b[9:]))[0] == 0
    assert bits(_run(Mul, F16, [3 * tiny], [0.5]))[0] == 2  # 1.5 tiny -> 2 tiny (even)


@pytest.mark.parametrize("dtype", [F16, F32])
def test_signed_zeros(dtype):
    a = np.array([1.0, -0.0, -0.0, 0.0, -0.0, -1.0, 0.0, -1.0], dtype)
    b = np.array([-1.0, -0.0, 0.0, -0.0, 5.0, np.inf, -3.0, 0.0], dtype)
    np.testing.assert_array_equal(bits(_run(Add, dtype, a[:4], b[:4])), bits(np.array([0.0, -0.0, 0.0, 0.0], dtype)))
    np.testing.assert_array_equal(bits(_run(Sub, dtype, a[:4], b[:4])), bits(np.array([2.0, 0.0, -0.0, 0.0], dtype)))
    np.testing.assert_array_equal(bits(_run(Div, dtype, a[4:], b[4:])), bits(np.array([-0.0, -0.0, -0.0, -np.inf],
                                                                                  dtype)))


@pytest.mark.parametrize("dtype", [F16, F32])
def test_nan_results_follow_the_rule_whatever_the_host(dtype):
    u, q, d, s = U[dtype], QUIET[dtype], DEFAULT[dtype], SIGN[dtype]
    snan = np.array([d & ~q | 1], u).view(dtype)[0]  # signalling, payload 1
    neg_nan = np.array([s | d | 5], u).view(dtype)[0]
    inf = np.inf
    cases = [  # (op, a, b, expected bits)
        (Add, inf, -inf, d), (Add, -inf, inf, d), (Sub, inf, inf, d), (Sub, -inf, -inf, d),
        (Mul, -inf, 0.0, d | s), (Mul, 0.0, inf, d), (Div, 0.0, 0.0, d), (Div, -0.0, 0.0, d | s),
        (Div, inf, -inf, d | s), (Div, -inf, -inf, d),
        (Add, snan, 1.0, int(snan.view(u)) | q), (Sub, 1.0, neg_nan, int(neg_nan.view(u))),
        (Div, neg_nan, snan, int(neg_nan.view(u))), (Div, snan, neg_nan, int(snan.view(u)) | q),
        (Mul, snan, 0.0, int(snan.view(u)) | q), (Add, inf, neg_nan, int(neg_nan.view(u))),
    ]
    for op, a, b, expected in cases:
        got = _run(op, dtype, [a] * 16, [b] * 16)
        assert (bits(got) == expected).all(), (op.__name__, a, b, hex(bits(got)[0]), hex(expected))


@pytest.mark.parametrize("dtype", [F16, F32])
def test_max_min_propagate_nan_and_order_zeros(dtype):
    u, q = U[dtype], QUIET[dtype]
    snan = np.array([DEFAULT[dtype] & ~q | 3], u).view(dtype)[0]
    a = np.array([1, -0.0, 0.0, -0.0, snan, 2, np.nan, -np.inf], dtype)
    b = np.array([2, 0.0, -0.0, -0.0, 1, snan, snan, 5], dtype)
    mx, mn = _run(Max, dtype, a, b), _run(Min, dtype, a, b)
    qs = int(snan.view(u)) | q
    np.testing.assert_array_equal(bits(mx)[:4], bits(np.array([2, 0.0, 0.0, -0.0], dtype)))
    np.testing.assert_array_equal(bits(mn)[:4], bits(np.array([1, -0.0, -0.0, -0.0], dtype)))
    assert bits(mx)[4] == qs and bits(mn)[5] == qs and bits(mx)[6] == int(np.array(np.nan, dtype).view(u))
    assert mx[7] == 5 and mn[7] == -np.inf


@pytest.mark.parametrize("dtype", [np.int16, np.int32])
def test_integers_wrap(dtype):
    info = np.iinfo(dtype)
    a = np.array([info.max, info.min, 7, -7, info.min, 3], dtype)
    b = np.array([1, 1, -9, 2, -1, 3], dtype)
    wide = a.astype(np.int64), b.astype(np.int64)
    for fn, ref in ((Add, np.add), (Sub, np.subtract), (Mul, np.multiply)):
        np.testing.assert_array_equal(_run(fn, dtype, a, b), ref(*wide).astype(dtype))
    np.testing.assert_array_equal(_run(Max, dtype, a, b), np.maximum(a, b))
    np.testing.assert_array_equal(_run(Min, dtype, a, b), np.minimum(a, b))


@pytest.mark.parametrize("dtype", [np.int16, np.uint16])
def test_and_or_on_16_bit_elements(dtype):
    a = np.array([0x00FF, 0x0F0F, 0xFFFF, 0x1234], np.uint16).view(dtype)
    b = np.array([0x0FF0, 0x00FF, 0x8001, 0x0000], np.uint16).view(dtype)
    np.testing.assert_array_equal(_run(And, dtype, a, b), a & b)
    np.testing.assert_array_equal(_run(Or, dtype, a, b), a | b)


def test_and_on_uint8_masks_keeps_the_bit_count_form():
    ub = Ub(make_core())
    a = ub.buffer(np.uint8, 4, [0xFF, 0x0F, 0xAA, 0x55])
    b = ub.buffer(np.uint8, 4, [0x3C, 0xFF, 0xFF, 0xFF])
    out = ub.buffer(np.uint8, 4, [0, 0, 0, 0])
    And(out, a, b, 12)  # 12 bits: 2 bytes
    np.testing.assert_array_equal(out.numpy(4), [0x3C, 0x0F, 0, 0])


@pytest.mark.parametrize("op", [Add, Sub, Mul, Div, Max, Min])
def test_dst_may_alias_both_sources(op):
    ub = Ub(make_core())
    v = np.array([1.5, -2, 3, 0.25] * 16, F32)
    x = ub.buffer(F32, 64, v)
    op(x, x, x, 64)
    ref = {Add: v + v, Sub: v - v, Mul: v * v, Div: v / v, Max: v, Min: v}[op]
    np.testing.assert_array_equal(x.numpy(64), ref)


def test_count_zero_does_nothing_and_each_call_counts_once():
    core = make_core()
    ub = Ub(core)
    x = ub.buffer(F32, 8, np.ones(8, F32))
    out = ub.buffer(F32, 8, np.zeros(8, F32))
    Add(out, x, x, 0)
    assert core.counters.instructions == {} and (out.numpy() == 0).all()
    Add(out, x, x, 8)
    Sub(out, x, x, 8)
    Add(out, x, x, 8)
    assert core.counters.instructions == {"Add": 2, "Sub": 1}


@pytest.mark.parametrize("op", [Add, Div, Max, Or])
def test_a_count_past_the_buffer_is_an_overflow_finding(op):
    core = make_core()
    ub = Ub(core)
    dtype = np.int16 if op is Or else F32
    x = ub.buffer(dtype, 64, np.ones(64, dtype))
    op(x, x, x, 72)
    assert kinds(core) == ["local_tensor_overflow"]


def test_reading_an_unwritten_source_is_reported():
    core = make_core()
    ub = Ub(core)
    written, fresh, out = ub.buffer(F16, 64, np.ones(64, F16)), ub.buffer(F16, 64), ub.buffer(F16, 64)
    Add(out, written, fresh, 64)
    assert kinds(core) == []  # computing on undefined values is no error; using them is
    copy_out(out[8], 8)
    assert kinds(core) == ["ub_read_before_write"]
    f = core.log.items[0]
    assert (f.instruction, f.tensor, f.offset, f.nbytes) == ("DataCopy", out.buffer.name, 16, 16)
    assert fresh.buffer.name in f.detail and "Add" in f.detail


@pytest.mark.parametrize("op,dtypes", [
    (Add, (np.int8,) * 3), (Add, (F32, F32, F16)), (Sub, (np.uint16,) * 3), (Div, (np.int32,) * 3),
    (Max, (np.uint32,) * 3), (Min, (np.int8,) * 3), (And, (F32,) * 3), (Or, (np.int32,) * 3),
    (Mul, (np.uint8,) * 3)])
def test_types_the_instruction_does_not_take_are_refused(op, dtypes):
    ub = Ub(make_core())
    dst, a, b = (ub.buffer(t, 16, np.zeros(16, t)) for t in dtypes)
    with pytest.raises(EmulatorError, match=op.__name__):
        op(dst, a, b, 16)


def test_a_wrong_number_of_arguments_is_refused():
    ub = Ub(make_core())
    x = ub.buffer(F32, 8, np.ones(8, F32))
    with pytest.raises(EmulatorError, match="Add takes 4 arguments"):
        Add(x, x, x)
