"""NaN payloads, decided once (docs/nan-payloads.md): the reference, every fast engine and the
emulated kernels give the same bits. ReluGrad is a multiply, so a signalling NaN grad comes out
quiet on both branches; a select passes NaN bits unchanged; float32 -> bfloat16 Casts keep the
top payload bits on both SoCs."""
from __future__ import annotations

import importlib.util

import numpy as np
import pytest

import opsnn
from opsnn.ascendc.cast import BF16, F32, cast_values
from opsnn.ascendc.rounding import RoundMode
from opsnn.dtypes import bfloat16

# grad bits -> (result where feature > 0, result where feature <= 0) on the ReluGrad path
RELU = {
    np.dtype(np.float32): {0x7F800001: (0x7FC00001, 0x7FC00001), 0xFF800001: (0xFFC00001, 0xFFC00001),
                           0x7FC00001: (0x7FC00001, 0x7FC00001), 0x7F800000: (0x7F800000, 0x7FC00000),
                           0xFF800000: (0xFF800000, 0xFFC00000), 0xBF800000: (0xBF800000, 0x80000000),
                           0x3F800000: (0x3F800000, 0x00000000), 0x80000000: (0x80000000, 0x80000000)},
    np.dtype(np.float16): {0x7C01: (0x7E01, 0x7E01), 0xFD55: (0xFF55, 0xFF55), 0x7E01: (0x7E01, 0x7E01),
                           0x7C00: (0x7C00, 0x7E00), 0xBC00: (0xBC00, 0x8000), 0x3C00: (0x3C00, 0x0000)},
    bfloat16: {0x7F81: (0x7FC1, 0x7FC1), 0xFFA0: (0xFFE0, 0xFFE0), 0x7FC6: (0x7FC6, 0x7FC6),
               0x7F80: (0x7F80, 0x7FC0), 0xBF80: (0xBF80, 0x8000), 0x3F80: (0x3F80, 0x0000)},
}
FAST_ENGINES = ["numpy"] + (["c"] if importlib.util.find_spec("opsnn.engine._select") else [])


def _case(dtype, n: int):
    table = RELU[dtype]
    u = np.dtype(f"u{dtype.itemsize}")
    patterns = np.array(list(table), u)
    grad_bits = np.resize(np.repeat(patterns, 2), n)  # each pattern at a positive and a negative feature
    feature = np.resize(np.array([1.0, -1.0], np.float32), n).astype(dtype)
    kept = np.array([table[int(b)][0] for b in patterns], u)
    masked = np.array([table[int(b)][1] for b in patterns], u)
    want = np.resize(np.stack([kept, masked], 1).reshape(-1), n)
    return grad_bits.view(dtype), feature, want, u


@pytest.mark.parametrize("semantics", ["ascend910b", "ascend950"])
@pytest.mark.parametrize("dtype", list(RELU), ids=str)
def test_relugrad_nan_bits_reference_and_emulator(dtype, semantics):
    grad, feature, want, u = _case(dtype, 4 * len(RELU[dtype]))
    for backend in ("reference", "emulator"):
        got = opsnn.threshold_backward(grad, feature, 0.0, semantics=semantics, backend=backend).view(u)
        assert [hex(v) for v in got] == [hex(v) for v in want], backend


@pytest.mark.parametrize("n", [16, 100_003, 3_500_000], ids=["serial", "parallel", "streamed"])
@pytest.mark.parametrize("dtype", list(RELU), ids=str)
def test_relugrad_nan_bits_fast_engines(dtype, n):
    from opsnn.backends.plan import plan_backward

    from opsnn.backends import fast
    grad, feature, want, u = _case(dtype, n)
    plan = plan_backward(grad, feature, 0.0, "ascend910b")
    for engine in FAST_ENGINES:
        got = fast.threshold_backward(grad, feature, plan, engine=engine).view(u)
        assert np.array_equal(got, want), (engine, np.flatnonzero(got != want)[:5])
    got = opsnn.threshold_backward(grad, feature, 0.0, semantics="ascend910b").view(u)  # the default lane (C)
    assert np.array_equal(got, want)


@pytest.mark.parametrize("dtype", list(RELU), ids=str)
def test_relugrad_nan_bits_strided_and_broadcast(dtype):
    grad, feature, want, u = _case(dtype, 96 * 128)
    g2, f2, w2 = grad.reshape(96, 128), feature.reshape(96, 128), want.reshape(96, 128)
    got = opsnn.threshold_backward(g2.T, f2.T, 0.0, semantics="ascend910b", backend="fast").view(u)
    assert np.array_equal(got, w2.T)
    row = np.resize(np.array([1.0, -1.0], np.float32), 128).astype(dtype)  # the same features, as a row
    got = opsnn.threshold_backward(g2, row, 0.0, semantics="ascend910b", backend="fast").view(u)
    assert np.array_equal(got, w2)
    from opsnn.backends.plan import plan_backward

    from opsnn.backends import fast
    for engine in FAST_ENGINES:  # each engine's strided and broadcast walks, not only the default one
        for g, f, w in ((g2.T, f2.T, w2.T), (g2, row, w2), (g2[::-1, ::3], f2[::-1, ::3], w2[::-1, ::3])):
            got = fast.threshold_backward(g, f, plan_backward(g, f, 0.0, "ascend910b"), engine=engine).view(u)
            assert np.array_equal(got, w), engine


@pytest.mark.parametrize("semantics", ["ascend910b", "ascend950", "torch"])
def test_a_select_passes_nan_bits_unchanged(semantics):
    """bfloat16 on the select path (threshold 0.5) goes through float32 and back on both SoCs:
    0x7FC6 stayed 0x7FC0 on the 910B emulator before (ml_dtypes' default NaN)."""
    bits = np.array([0x7FC6, 0x7F81, 0xFFC1, 0xFFFF, 0x7F80, 0x3F80], np.uint16)
    grad, feature = bits.view(bfloat16), np.ones(6, bfloat16)
    backends = ("reference", "fast") + (("emulator",) if semantics != "torch" else ())
    for backend in backends:
        got = opsnn.threshold_backward(grad, feature, 0.5, semantics=semantics, backend=backend)
        assert [hex(v) for v in got.view(np.uint16)] == [hex(v) for v in bits], backend


def test_float32_to_bfloat16_cast_keeps_the_top_payload_bits():
    values = np.array([0x7FC60000, 0x7F800001, 0xFFC12345, 0x7FFFFFFF, 0x7F800000, 0x3F808000], np.uint32).view(F32)
    for mode in (RoundMode.CAST_RINT, RoundMode.CAST_TRUNC):
        got = cast_values(values, BF16, mode).view(np.uint16)
        assert [hex(v) for v in got[:5]] == ["0x7fc6", "0x7f81", "0xffc1", "0x7fff", "0x7f80"], mode
