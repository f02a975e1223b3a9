"""Every backend gives the same bits, NaN payloads included, and no numpy RuntimeWarning reaches
the caller (issue 35 item 17): leaky_relu_backward's NaN slope at 1 element (the reference kept
the grad's NaN there, through numpy's length-dependent operand choice, where the engine keeps the
slope's), promotions that overflow (an int32 x for a float16 result) or widen a signalling NaN
(the aclnn Cast of a bfloat16 NaN) under the reference backend."""
from __future__ import annotations

import itertools
import warnings

import numpy as np
import pytest

import opsnn
from opsnn.dtypes import bfloat16

PATTERNS = {np.dtype(np.float16): [0x7C01, 0xFE01, 0x7E00, 0x7C00, 0x3C00, 0xBC00, 0x8000],
            bfloat16: [0x7F81, 0xFFC1, 0x7FC0, 0x7F80, 0x3F80, 0xBF80, 0x8000],
            np.dtype(np.float32): [0x7F800001, 0xFFC00001, 0x7FC00000, 0x7F800000, 0x3F800000, 0xBF800000,
                                   0x80000000]}
OPERATORS = {
    "leaky_relu_backward": lambda g, x, s, **k: opsnn.leaky_relu_backward(g, x, s, False, **k),
    "hardtanh_backward": lambda g, x, s, **k: opsnn.hardtanh_backward(g, x, -abs(s), abs(s) + 0.5, **k),
    "sigmoid_backward": lambda g, x, s, **k: opsnn.sigmoid_backward(g, x, **k),
    "threshold_backward": lambda g, x, s, **k: opsnn.threshold_backward(g, x, s, **k),
}


def _pattern(dtype, n: int, k: int) -> np.ndarray:
    bits = PATTERNS[dtype]
    return np.array([bits[(k + i) % len(bits)] for i in range(n)], f"u{np.dtype(dtype).itemsize}").view(dtype)


@pytest.mark.parametrize("name", list(OPERATORS))
@pytest.mark.parametrize("semantics", ["torch", "ascend950"])
def test_backends_agree_on_nan_bits(name, semantics):
    call = OPERATORS[name]
    for dtype, n, k, s in itertools.product(PATTERNS, (1, 33), range(7), (0.5, float("nan"), -float("nan"))):
        g, x = _pattern(dtype, n, k), _pattern(dtype, n, 6 - k)
        answers = set()
        for backend in ("auto", "auto", "fast", "reference"):  # auto twice: the express entry too
            try:
                r = call(g, x, s, semantics=semantics, backend=backend)
                answers.add(tuple(r.view(f"u{r.dtype.itemsize}").tolist()))
            except (TypeError, ValueError) as e:
                answers.add(type(e).__name__)
        assert len(answers) == 1, (name, semantics, dtype, n, k, s, answers)


def test_leaky_nan_slope_is_the_slopes_nan_at_every_length():
    """docs/leaky-relu-grad.md §7: x < 0, NaN grad and NaN slope: the slope's NaN (quieted)."""
    for n in (1, 2, 64):
        g = np.full(n, 0x7C01, np.uint16).view(np.float16)
        x = np.full(n, -1.0, np.float16)
        for backend in ("auto", "reference"):
            r = opsnn.leaky_relu_backward(g, x, -float("nan"), False, backend=backend)
            assert r.view(np.uint16).tolist() == [0xFE00] * n, (n, backend)


def test_no_runtime_warning_reaches_the_caller():
    cases = [
        lambda: opsnn.leaky_relu_backward(np.full(3, np.inf, np.float16), np.full(3, 2**31 - 1, np.int32), 0.0,
                                          False, backend="reference"),
        lambda: opsnn.hardtanh_backward(np.full(3, np.inf, np.float16), np.full(3, 2**31 - 1, np.int32), -1.0,
                                        1.0, backend="reference"),
        lambda: opsnn.leaky_relu_backward(np.array([0x7F81], np.uint16).view(bfloat16),
                                          np.array([-0.0], np.float64), 0.5, False, semantics="ascend910b",
                                          backend="reference"),
    ]
    for case in cases:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            case()


def test_no_runtime_warning_from_the_numpy_engine(monkeypatch):
    """The numpy fast path (no C engine) of leaky_relu_backward with a broadcast promotion of a
    signalling NaN (fuzz seed 3603, case 1420: float64 grad row, bfloat16 x)."""
    from opsnn.engine import lanes
    monkeypatch.setenv("OPSNN_FAST_ENGINE", "numpy")
    lanes.compiled.cache_clear()
    try:
        x = np.full((4, 5), 0x7F81, np.uint16).view(bfloat16)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            r = opsnn.leaky_relu_backward(np.ones(5), x, 256, False)
            assert r.dtype == np.float64 and (r == 256).all()  # a NaN x is not > 0: grad * slope
    finally:
        monkeypatch.delenv("OPSNN_FAST_ENGINE")
        lanes.compiled.cache_clear()


def test_a_signalling_nan_slope_converts_silently():
    """An aclScalar of a signalling NaN double (the C ABI's value, fuzz seed 3900 case 2280): its
    float32 conversion raises no RuntimeWarning under the ascend semantics."""
    snan = np.array([0x7FF0_0000_0000_0001], np.uint64).view(np.float64)[0]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        r = opsnn.leaky_relu_backward(np.ones(3, np.float16), np.full(3, -1.0, np.float16), snan, False,
                                      semantics="ascend910b")
    assert np.isnan(r).all()
