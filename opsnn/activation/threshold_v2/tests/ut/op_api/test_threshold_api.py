"""opsnn.threshold with semantics ascend910b / ascend950 (docs/threshold-v2.md §8): every backend
against the oracle, bit for bit; the emulator backend through aclnnThreshold; errors and out."""
import math

import numpy as np
import pytest

import opsnn

from .. import oracle as o

ORACLE = {"ascend910b": o.forward_910b, "ascend950": o.forward_950}
SEMANTICS = tuple(ORACLE)
SCALARS = [(0, 0), (1.5, -2.5), (math.nan, 3.0), (2.0, math.nan), (2**24 + 1, -(2**24) - 1), (300.7, -129.2),
           (1e39, 65519.0), (True, 2**63 + 5), (-0.0, math.inf), (np.float32(0.1), np.int8(-3))]


@pytest.mark.parametrize("semantics", SEMANTICS)
@pytest.mark.parametrize("dtype", o.DTYPES, ids=str)
def test_fast_and_reference_match_the_oracle(semantics, dtype):
    rng = np.random.default_rng(1)
    for t, v in SCALARS:
        x = o.edge_values(dtype, 200, rng, around=[t] if not isinstance(t, bool) else [])
        if not (o.scalar_fits(t, dtype) and o.scalar_fits(v, dtype)):
            for backend in ("auto", "fast", "reference"):
                with pytest.raises(ValueError, match="without overflow"):
                    opsnn.threshold(x, t, v, semantics=semantics, backend=backend)
            continue
        expected = o.bits(ORACLE[semantics](x, t, v))
        for backend in ("auto", "fast", "reference"):
            got = opsnn.threshold(x, t, v, semantics=semantics, backend=backend)
            assert got.dtype == x.dtype and got.shape == x.shape
            np.testing.assert_array_equal(o.bits(got), expected, err_msg=f"{backend} t={t!r} v={v!r}")


@pytest.mark.parametrize("semantics", SEMANTICS)
@pytest.mark.parametrize("dtype", o.DTYPES, ids=str)
def test_emulator_backend_matches_the_oracle(semantics, dtype):
    rng = np.random.default_rng(2)
    for t, v in SCALARS[:6]:
        x = o.edge_values(dtype, 300, rng, around=[t]).reshape(3, 10, 10)
        if not (o.scalar_fits(t, dtype) and o.scalar_fits(v, dtype)):  # aclnnThreshold's 161002
            with pytest.raises(ValueError, match="without overflow"):
                opsnn.threshold(x, t, v, semantics=semantics, backend="emulator")
            continue
        got = opsnn.threshold(x, t, v, semantics=semantics, backend="emulator")
        np.testing.assert_array_equal(o.bits(got), o.bits(ORACLE[semantics](x, t, v)), err_msg=f"t={t!r} v={v!r}")


def test_socs_differ_where_the_facts_say():
    x = np.array([2**24 + 1, 3], np.int32)
    assert opsnn.threshold(x, 0, 0, semantics="ascend910b").tolist() == [2**24, 3]
    assert opsnn.threshold(x, 0, 0, semantics="ascend950").tolist() == [2**24 + 1, 3]
    h = np.array([np.nextafter(np.float16(1), np.float16(2))], np.float16)  # 1.00098
    assert opsnn.threshold(h, 1.0006, -1.0, semantics="ascend950")[0] == -1  # threshold rounds to half
    assert opsnn.threshold(h, 1.0006, -1.0, semantics="torch")[0] == h[0]  # torch compares in float32


def test_zero_d_empty_and_strided():
    for semantics in SEMANTICS:
        for backend in ("fast", "emulator"):
            assert opsnn.threshold(np.float32(0.5), 1.0, 2.0, semantics=semantics, backend=backend)[()] == 2.0
            empty = opsnn.threshold(np.zeros((2, 0), np.int8), 1, 2, semantics=semantics, backend=backend)
            assert empty.shape == (2, 0) and empty.dtype == np.int8
            base = np.arange(24, dtype=np.float16).reshape(4, 6)
            view = base[::-2, 1::2]
            got = opsnn.threshold(view, 9, -1, semantics=semantics, backend=backend)
            np.testing.assert_array_equal(got, np.where(view <= 9, np.float16(-1), view))


@pytest.mark.parametrize("backend", ["fast", "emulator"])
def test_out_and_in_place(backend):
    x = np.array([0.5, 1.5, np.nan, -2], np.float32)
    out = np.empty_like(x)
    assert opsnn.threshold(x, 1.0, 9.0, out=out, semantics="ascend950", backend=backend) is out
    np.testing.assert_array_equal(o.bits(out), o.bits(np.array([9, 1.5, np.nan, 9], np.float32)))
    opsnn.threshold(x, 1.0, 9.0, out=x, semantics="ascend910b", backend=backend)
    np.testing.assert_array_equal(o.bits(x), o.bits(out))
    with pytest.raises(TypeError, match="dtype"):
        opsnn.threshold(x, 1.0, 9.0, out=np.empty(4, np.float16), semantics="ascend950", backend=backend)
    with pytest.raises(ValueError, match="shape"):
        opsnn.threshold(x, 1.0, 9.0, out=np.empty(5, np.float32), semantics="ascend950", backend=backend)


@pytest.mark.parametrize("backend", ["fast", "reference", "emulator"])
def test_refusals(backend):
    for semantics in SEMANTICS:
        for bad in (np.ones(3, np.float64), np.ones(3, bool), np.ones(3, np.complex64), np.ones(3, np.uint16)):
            with pytest.raises(TypeError):
                opsnn.threshold(bad, 1, 0, semantics=semantics, backend=backend)
        with pytest.raises(ValueError, match="rank 9"):
            opsnn.threshold(np.ones((1,) * 9, np.float32), 1, 0, semantics=semantics, backend=backend)
        for t, v in (("1", 0), (1, 1j), (1, None)):
            with pytest.raises(TypeError):
                opsnn.threshold(np.ones(3, np.float32), t, v, semantics=semantics, backend=backend)
        with pytest.raises(ValueError, match="64-bit"):
            opsnn.threshold(np.ones(3, np.int32), 2**64, 0, semantics=semantics, backend=backend)


def test_unknown_semantics_backend_and_torch_on_the_emulator():
    x = np.ones(3, np.float32)
    with pytest.raises(ValueError, match="semantics"):
        opsnn.threshold(x, 1, 0, semantics="ascend910")
    with pytest.raises(ValueError, match="backend"):
        opsnn.threshold(x, 1, 0, semantics="ascend950", backend="gpu")
    with pytest.raises(ValueError, match="ascend semantics only"):
        opsnn.threshold(x, 1, 0, backend="emulator")


def test_scalars_an_integer_x_cannot_hold_are_refused():
    """What C++'s static_cast would wrap (300 -> 44 in int8) or leave undefined (1e10, NaN into an
    integer: x86's "integer indefinite") is a ValueError on every backend, as aclnnThreshold's 161002;
    a float in range truncates toward zero, as the conversion does."""
    x = np.array([-128, 0, 127], np.int8)
    for semantics in SEMANTICS:
        for backend in ("fast", "reference", "emulator"):
            for t, v, what in ((300.7, -1, "threshold 300.7"), (128, 0, "threshold 128"),
                               (0.0, 1e10, "value 10000000000.0"), (9.0, math.nan, "value nan"),
                               (0, -math.inf, "value -inf"), (-129, 0, "threshold -129")):
                with pytest.raises(ValueError, match=f"{what} cannot be converted to int8 without overflow"):
                    opsnn.threshold(x, t, v, semantics=semantics, backend=backend)
            assert opsnn.threshold(x, -0.9, 127.9, semantics=semantics, backend=backend).tolist() == [127, 127, 127]
            assert opsnn.threshold(x, -128, -128.99, semantics=semantics, backend=backend).tolist() == [-128, 0, 127]
    u = np.array([0, 255], np.uint8)
    with pytest.raises(ValueError, match="value -1 cannot be converted to uint8"):  # torch would wrap -1 to 255
        opsnn.threshold(u, 0, -1, semantics="ascend910b")
    with pytest.raises(ValueError, match="threshold 300 cannot be converted to uint8"):
        opsnn.threshold(u, 300, 0, semantics="ascend910b")


hypothesis = pytest.importorskip("hypothesis")
st = hypothesis.strategies
_scalars = st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.integers(-(2**63), 2**64 - 1), st.booleans())


@hypothesis.settings(max_examples=300, deadline=None)
@hypothesis.given(dtype=st.sampled_from(o.DTYPES), seed=st.integers(0, 2**32 - 1), t=_scalars, v=_scalars,
                  semantics=st.sampled_from(SEMANTICS))
def test_random_calls_match_the_oracle(dtype, seed, t, v, semantics):
    x = o.edge_values(dtype, 24, np.random.default_rng(seed), around=[t] if isinstance(t, int) or
                      math.isfinite(t) else [])
    if not (o.scalar_fits(t, dtype) and o.scalar_fits(v, dtype)):
        with pytest.raises(ValueError, match="without overflow"):
            opsnn.threshold(x, t, v, semantics=semantics)
        return
    got = opsnn.threshold(x, t, v, semantics=semantics)
    np.testing.assert_array_equal(o.bits(got), o.bits(ORACLE[semantics](x, t, v)))
