"""opsnn.sigmoid_backward and opsnn.selu_backward on the elementwise builder: 0-d operands give a
0-d result on every backend and semantics (aclnn's broadcast of two 0-d shapes is 0-d, as torch's;
before, the models answered (1,) and the emulator ()), out= of that shape, torch's bits and the
refusals torch and aclnn make, in their order."""
import numpy as np
import pytest
import torch

import opsnn
from opsnn.dtypes import bfloat16

OPS = {"sigmoid_backward": (opsnn.sigmoid_backward, torch.ops.aten.sigmoid_backward),
       "selu_backward": (opsnn.selu_backward,
                         lambda g, r: torch.ops.aten.elu_backward(g, 1.6732632423543772, 1.0507009873554805, 1.0,
                                                                  True, r))}
SEMANTICS_BACKENDS = [("torch", "auto"), ("torch", "reference"), *[(s, b) for s in ("ascend910b", "ascend950")
                                                                   for b in ("auto", "reference", "emulator")]]


def _bits(a):
    a = np.asarray(a)
    return a.dtype.str, a.shape, a.tobytes()


@pytest.mark.parametrize("name", sorted(OPS))
@pytest.mark.parametrize(("semantics", "backend"), SEMANTICS_BACKENDS)
@pytest.mark.parametrize("dtype", [np.float16, bfloat16, np.float32])
def test_zero_d_operands_give_a_zero_d_result(name, semantics, backend, dtype):
    fn = OPS[name][0]
    g, y = np.array(0.75, dtype), np.array(-0.25 if name == "selu_backward" else 0.25, dtype)
    got = fn(g, y, semantics=semantics, backend=backend)
    assert got.shape == () and got.dtype == np.dtype(dtype)
    one = fn(g.reshape(1), y.reshape(1), semantics=semantics, backend=backend)
    assert got.tobytes() == one.tobytes()
    out = np.empty((), dtype)
    assert fn(g, y, semantics=semantics, backend=backend, out=out) is out and _bits(out) == _bits(got)
    with pytest.raises(ValueError, match="shape"):
        fn(g, y, semantics=semantics, backend=backend, out=np.empty(1, dtype))


@pytest.mark.parametrize("name", sorted(OPS))
def test_zero_d_torch_bits(name):
    fn, aten = OPS[name]
    for dtype, tdtype in ((np.float16, torch.float16), (np.float32, torch.float32), (np.float64, torch.float64)):
        g, y = np.array(0.3, dtype), np.array(-0.6, dtype)
        want = aten(torch.tensor(g.item(), dtype=tdtype), torch.tensor(y.item(), dtype=tdtype)).numpy()
        assert _bits(fn(g, y)) == _bits(want)


@pytest.mark.parametrize("name", sorted(OPS))
def test_torch_refuses_a_shape_before_a_dtype(name):
    """torch's TensorIterator computes the shape first: int32 (4,) with (5,) is a size error."""
    fn, aten = OPS[name]
    with pytest.raises(RuntimeError, match="size"):
        aten(torch.zeros(4, dtype=torch.int32), torch.zeros(5, dtype=torch.int32))
    with pytest.raises(ValueError):
        fn(np.zeros(4, np.int32), np.zeros(5, np.int32))
    with pytest.raises(TypeError):
        fn(np.zeros(4, np.int32), np.zeros(4, np.int32))


def test_ascend_refusals():
    with pytest.raises(TypeError):  # aclnnSigmoidBackward's list has no int32
        opsnn.sigmoid_backward(np.zeros(4, np.int32), np.zeros(4, np.float32), semantics="ascend910b")
    s = opsnn.sigmoid_backward(np.zeros(4, np.float16), np.zeros((2, 1), bfloat16), semantics="ascend950")
    assert (s.dtype, s.shape) == (np.float32, (2, 4))  # op::PromoteType, broadcast
    c = opsnn.sigmoid_backward(np.zeros(2, np.complex64), np.zeros(2, np.float64), semantics="ascend910b")
    assert c.dtype == np.complex128
    with pytest.raises(TypeError):  # aclnnSeluBackward: one dtype
        opsnn.selu_backward(np.zeros(4, np.float16), np.zeros(4, np.float32), semantics="ascend910b")
    with pytest.raises(ValueError):  # ... and one shape
        opsnn.selu_backward(np.zeros(4, np.float32), np.zeros((1, 4), np.float32), semantics="ascend950")
    with pytest.raises(ValueError, match="ascend semantics only"):
        opsnn.selu_backward(np.zeros(4, np.float32), np.zeros(4, np.float32), backend="emulator")
