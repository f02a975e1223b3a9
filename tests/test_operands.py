"""Issue 27, the numpy side: every operator reads its array operands one way (op_common/operands.py):
non-native byte order converted as numpy's ufuncs convert it, any rank torch takes, the same answer
whatever was called before, out='s memory order without effect, opsnn's own messages."""
from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

import opsnn
from opsnn.dtypes import bfloat16
from opsnn.op_common import operands

SEMANTICS = ("torch", "ascend910b", "ascend950")
BACKENDS = ("auto", "fast", "reference", "emulator")

# (operator, its scalars): every numpy operator with two tensor operands
OPERATORS = (
    (opsnn.threshold_backward, (0.5,)),
    (opsnn.leaky_relu_backward, (0.5,)),
    (opsnn.hardtanh_backward, (-1.0, 1.0)),
)


def bits(a):
    a = np.asarray(a)
    return a.view(f"u{a.dtype.itemsize}")


def outcome(function, *args, **kw):
    try:
        result = function(*args, **kw)
    except (TypeError, ValueError) as error:
        return type(error)
    return result.dtype, result.shape, bits(result).tolist()


@pytest.mark.parametrize("code", ["f2", "f4", "f8"])
@pytest.mark.parametrize("semantics", SEMANTICS)
@pytest.mark.parametrize("backend", BACKENDS)
def test_non_native_byte_order_computes_as_native(code, semantics, backend):
    """issue 27 item 1: '>f4' inputs give the native call's values (and a native dtype) on every
    operator and backend, or the same error the native call gives."""
    g = np.array([1, 2, -3, 4, np.nan, -0.0, 0.25, -7], code)
    x = np.array([-1, 2, -3, 4, 0.5, np.nan, -0.5, 9], code)
    swapped = np.dtype(code).newbyteorder("S")
    if backend == "emulator" and semantics == "torch":
        return
    for function, scalars in OPERATORS:
        native = outcome(function, g, x, *scalars, semantics=semantics, backend=backend)
        for gg, xx in ((g.astype(swapped), x.astype(swapped)), (g.astype(swapped), x), (g, x.astype(swapped))):
            assert outcome(function, gg, xx, *scalars, semantics=semantics, backend=backend) == native, function
    forward = outcome(opsnn.threshold, x, 0.5, 3.0, semantics=semantics, backend=backend)
    assert outcome(opsnn.threshold, x.astype(swapped), 0.5, 3.0, semantics=semantics, backend=backend) == forward


def test_the_first_non_native_call_is_right():
    """The issue's example in a fresh process (no express entry learnt yet)."""
    code = ("import numpy as np, opsnn\n"
            "g = np.array([1, 2, -3, 4], '>f4'); x = np.array([-1, 2, -3, 4], '>f4')\n"
            "r = opsnn.leaky_relu_backward(g, x, 0.5, semantics='ascend910b')\n"
            "assert r.tolist() == [0.5, 2, -1.5, 4] and r.dtype.isnative, r\n"
            "r = opsnn.hardtanh_backward(g, x, semantics='ascend910b')\n"
            "assert r.dtype.isnative and r.tolist() == [0, 0, 0, 0], r\n")
    subprocess.run([sys.executable, "-c", code], check=True)


_WIDE = (
    "import numpy as np, opsnn\n"
    "a = np.ones((1,) * 64, np.float32); c = np.full((2,) + (1,) * 63, 3.0, np.float32)\n"
    "results = []\n"
    "for call in range(2):\n"
    "    for backend in ('auto', 'fast', 'reference'):\n"
    "        results.append(opsnn.threshold_backward(a, c, 0.5, backend=backend))\n"
    "        results.append(opsnn.leaky_relu_backward(a, c, 0.5, backend=backend))\n"
    "        results.append(opsnn.hardtanh_backward(a, c, -5.0, 5.0, backend=backend))\n"
    "        results.append(opsnn.threshold(c, 0.5, 0.0, backend=backend))\n"
    "for r in results:\n"
    "    assert r.shape == (2,) + (1,) * 63 and r.ravel().tolist() in ([1.0, 1.0], [3.0, 3.0]), r\n"
)


def test_rank_64_gives_one_answer_from_the_first_call():
    """issue 27 item 2: a 64-D broadcast (torch takes it) computes on the first call in a fresh
    process, on every backend, and on every later one."""
    subprocess.run([sys.executable, "-c", _WIDE], check=True)


def test_rank_64_with_out_and_0d_promotion():
    a = np.ones((1,) * 64, np.float32)
    c = np.full((2,) + (1,) * 63, -3.0, np.float32)
    out = np.empty((2,) + (1,) * 63, np.float32)
    assert opsnn.leaky_relu_backward(a, c, 0.5, out=out) is out
    assert out.ravel().tolist() == [0.5, 0.5]
    # a rank-64 float16 operand is not 0-d: it takes part in promotion as a dimensioned operand
    r = opsnn.hardtanh_backward(np.ones((1,) * 64, np.float16), np.float32(0.5)[()])
    assert r.dtype == np.float16 and r.ndim == 64
    with pytest.raises(ValueError, match="out has shape"):
        opsnn.threshold_backward(a, c, 0.5, out=np.empty((2,), np.float32))


def test_rank_beyond_what_opsnn_takes_is_its_own_value_error():
    many = np.lib.stride_tricks.as_strided(np.zeros(1, np.float32), shape=(2,) * 33 + (1,) * 20,
                                           strides=(0,) * 53)
    for function, scalars in OPERATORS:
        with pytest.raises(ValueError, match="at most 32"):
            function(many, many, *scalars, backend="fast")
    with pytest.raises(ValueError, match="rank 64 exceeds 8|more than 8|rank above 8|rank 64"):
        opsnn.threshold_backward(np.ones((1,) * 64, np.float32), np.ones((1,) * 64, np.float32), 0.5,
                                 semantics="ascend950")


def test_broadcast_shape_of_any_rank():
    assert operands.broadcast_shape((1,) * 40, (3,) + (1,) * 39) == (3,) + (1,) * 39
    assert operands.broadcast_shape((2, 1), (5,)) == (2, 5)
    with pytest.raises(ValueError, match=r"shapes \(3,\) and \(4,\) are not broadcastable"):
        operands.broadcast_shape((3,), (4,))
    with pytest.raises(ValueError, match="not broadcastable"):
        operands.broadcast_shape((1,) * 40 + (3,), (4,))


@pytest.mark.parametrize("dtype", [np.float16, bfloat16, np.float32])
@pytest.mark.parametrize("backend", ["auto", "fast", "reference"])
def test_out_memory_order_does_not_change_torch_bits(dtype, backend):
    """issue 27 item 3: torch's vectorised/scalar split follows the logical order, whatever out's
    memory order (hardtanh float16, NaN x, 315 elements, a Fortran-ordered out)."""
    rng = np.random.default_rng(3)
    g = rng.standard_normal((15, 21)).astype(dtype)
    x = rng.standard_normal((15, 21)).astype(dtype)
    x[::2, ::3] = np.nan
    for function, scalars in OPERATORS[1:]:
        expected = function(g, x, *scalars, backend=backend)
        for order in "CF":
            out = np.zeros(expected.shape, expected.dtype, order=order)
            assert function(g, x, *scalars, backend=backend, out=out) is out
            assert bits(np.ascontiguousarray(out)).tolist() == bits(expected).tolist(), (function, order)
        strided = np.zeros((15, 42), expected.dtype)[:, ::2]
        function(g, x, *scalars, backend=backend, out=strided)
        assert bits(np.ascontiguousarray(strided)).tolist() == bits(expected).tolist(), function


def test_huge_long_double_slope_is_refused_under_torch():
    """issue 27 item 6b: 1e4000 as a long double is refused as threshold and hardtanh refuse it."""
    g = np.ones(3, np.float32)
    huge = np.longdouble("1e4000")
    if not np.isfinite(huge):
        pytest.skip("long double is a double here")
    with pytest.raises(ValueError, match="negative_slope .* without overflow"):
        opsnn.leaky_relu_backward(g, -g, huge)
    with pytest.raises(ValueError, match="without overflow"):
        opsnn.threshold_backward(g, g, huge)
    with pytest.raises(ValueError, match="without overflow"):
        opsnn.hardtanh_backward(g, g, huge)
    # a long double in double's range is read as before
    assert opsnn.leaky_relu_backward(g, -g, np.longdouble(0.5)).tolist() == [0.5] * 3


@pytest.mark.parametrize("bad", [["torch"], {"torch": 1}, ("torch",), b"torch", None, 3])
def test_semantics_not_a_str_is_opsnns_type_error(bad):
    """issue 27 item 7: semantics=["torch"] is opsnn's TypeError on every operator, whatever was called before."""
    g = np.ones(4, np.float32)
    for function, scalars in OPERATORS:
        function(g, g, *scalars)  # an express entry exists for this dtype and shape
        with pytest.raises(TypeError, match="semantics must be a str"):
            function(g, g, *scalars, semantics=bad)
        with pytest.raises(TypeError, match="backend must be a str"):
            function(g, g, *scalars, backend=bad)


def test_hardtanh_torch_non_broadcastable_is_opsnns_message():
    """issue 27 item 7: hardtanh_backward (torch semantics) words it as the other operators do."""
    for function, scalars in OPERATORS:
        with pytest.raises(ValueError, match=r"^shapes \(3,\) and \(4,\) are not broadcastable$"):
            function(np.ones(3, np.float32), np.ones(4, np.float32), *scalars)


def test_ragged_input_is_opsnns_value_error():
    for function, scalars in OPERATORS:
        with pytest.raises(ValueError, match="grad cannot be read as an array"):
            function([[1.0], [1.0, 2.0]], np.ones(2, np.float32), *scalars)
