"""opsnn.op_common.elementwise: the function an operator's declaration and rules generate, with the
common rules (TorchRule, AscendRule); every step the builder owns, on a toy operator."""
from __future__ import annotations

import inspect

import numpy as np
import pytest

from opsnn.dtypes import bfloat16
from opsnn.op_common import elementwise as ew


def _torch(call, g, x, alpha):
    return np.where(x > 0, g * alpha, g.dtype.type(0)) if g.dtype.itemsize > 2 else (
        np.where(x > 0, g.astype(np.float32) * alpha, 0).astype(g.dtype))


def _ascend(call, g, x, alpha):
    return np.where(x > 0, (g.astype(np.float32) * alpha).astype(g.dtype), g.dtype.type(0))


def _emulated(call, plan):
    return np.full(plan.shape, 7, plan.dtype)  # stands in for a device run


TOY = ew.build(ew.Elementwise(
    name="toy_backward", tensors=("grad", "x"), scalars=(ew.Scalar("alpha", 1.0),),
    torch=ew.TorchRule("toy_backward", _torch),
    ascend=ew.AscendRule("aclnnToyBackward", _ascend, lambda s: ("float16", "float32", "bfloat16"),
                         promote=False, broadcast=False, emulator_run=_emulated),
    doc="toy: grad * alpha where x > 0, else 0"))


def test_signature_doc_and_module():
    assert str(inspect.signature(TOY)) == ("(grad: 'npt.ArrayLike', x: 'npt.ArrayLike', alpha: 'Scalar' = 1.0, *, "
                                           "semantics: 'Semantics' = 'torch', backend: 'Backend' = 'auto', "
                                           "out: 'np.ndarray | None' = None) -> 'np.ndarray'")
    assert TOY.__doc__.startswith("toy:") and TOY.__module__ == __name__ and TOY.__name__ == "toy_backward"


def test_torch_promotion_broadcast_and_scalars():
    g = np.array([[1.0, 2.0, 3.0]], np.float32)
    x = np.array([[1.0], [-1.0]], np.float64)
    r = TOY(g, x, 2)
    assert r.dtype == np.float64 and r.shape == (2, 3)
    np.testing.assert_array_equal(r, [[2, 4, 6], [0, 0, 0]])
    zero_d = TOY(g, np.array(1.0, np.float64), 2)  # a 0-d operand lifts the category only
    assert zero_d.dtype == np.float32
    with pytest.raises(TypeError, match="toy_backward is not implemented for int32"):
        TOY(np.ones(2, np.int32), np.ones(2, np.int32))
    with pytest.raises(TypeError, match="does not support dtype complex64"):
        TOY(np.ones(2, np.complex64), np.ones(2, np.float32))
    with pytest.raises(ValueError, match="alpha 1e\\+39 cannot be converted to float32"):
        TOY(g, g, 1e39)
    with pytest.raises(ValueError, match="not broadcastable"):
        TOY(np.ones(2, np.float32), np.ones(3, np.float32))


def test_ascend_checks_in_order():
    a = np.ones(3, np.float32)
    with pytest.raises(TypeError, match="x dtype float64 is not in aclnnToyBackward's list"):
        TOY(a, a.astype(np.float64), semantics="ascend910b")
    with pytest.raises(TypeError, match="one dtype"):
        TOY(a, a.astype(np.float16), semantics="ascend950")
    with pytest.raises(ValueError, match="one shape"):
        TOY(a, a[:1], semantics="ascend950")
    with pytest.raises(ValueError, match="rank 9, more than 8"):
        TOY(np.ones((1,) * 9, np.float32), np.ones((1,) * 9, np.float32), semantics="ascend950")
    b = np.array([1, -1, 2], bfloat16)
    r = TOY(b, b, 1e39, semantics="ascend910b")  # ToFloat: inf, no error
    assert r.dtype == bfloat16 and np.isinf(r[0]) and r[1] == 0
    np.testing.assert_array_equal(TOY(a, a, semantics="ascend950", backend="emulator"), [7, 7, 7])


def test_generic_steps():
    a = np.ones(3, np.float32)
    with pytest.raises(ValueError, match="runs the ascend semantics only"):
        TOY(a, a, backend="emulator")
    with pytest.raises(ValueError, match="unknown semantics 'cuda'"):
        TOY(a, a, semantics="cuda")
    with pytest.raises(TypeError, match="backend must be a str"):
        TOY(a, a, backend=1)
    with pytest.raises(TypeError, match="alpha must be a real number"):
        TOY(a, a, "2")
    with pytest.raises(TypeError, match="out has dtype float64"):
        TOY(a, a, out=np.empty(3))
    with pytest.raises(ValueError, match="out has shape"):
        TOY(a, a, out=np.empty(4, np.float32))
    out = np.empty(3, np.float32)
    assert TOY(a, a, 3.0, out=out) is out and (out == 3).all()
    assert TOY([1.0, 2.0], [1.0, -1.0]).tolist() == [1.0, 0.0]  # lists read as np.asarray reads them
    swapped = np.array([1.0, 2.0], ">f4")
    assert TOY(swapped, swapped).dtype == np.dtype("<f4")  # native byte order
    wide = np.ones((1,) * 40 + (3,), np.float32)  # rank 41: folded for numpy's 32-axis iterators
    assert TOY(wide, wide, 2.0).shape == wide.shape


def test_out_may_be_an_input():
    g = np.array([1.0, 2.0, 3.0], np.float32)
    assert TOY(g, np.array([1.0, -1.0, 1.0], np.float32), 2.0, out=g) is g
    assert g.tolist() == [2.0, 0.0, 6.0]


def test_express_memo_learns_from_a_lane():
    """A rule with a lane (its engine params): the call teaches the express entry, whose next
    answer is the lane's (the compute never runs)."""
    from opsnn.engine import keys, lanes, modes
    if lanes.compiled() is None:
        pytest.skip("no C engine: the rule's compute answers")
    seen = []

    def compute(call, g, x):
        seen.append("compute")
        return np.where(x > 0, g, g.dtype.type(0))

    def positive(call, plan):  # keep grad where x > 0
        dt = plan.dtype
        kept = (keys.first_above(0.0, dt), keys.key_of(np.inf, dt), *keys.EMPTY_RANGE)
        return modes.params(kept, modes.PLAIN, 0, modes.KEYED)

    spec = ew.Elementwise(name="laned", tensors=("grad", "x"), scalars=(),
                          torch=ew.TorchRule("laned", compute, lane=positive),
                          ascend=ew.AscendRule("aclnnLaned", compute, lambda s: ("float32",)))
    laned = ew.build(spec)
    a, x = np.ones(4, np.float32), np.array([-1, 1, 0, 2], np.float32)
    assert laned(a, x).tolist() == [0, 1, 0, 1] and seen == [] and len(spec.memo) == 1
    assert laned(a, x).tolist() == [0, 1, 0, 1] and seen == []  # the express entry: the lane without the checks
    assert laned(a, x, backend="reference").tolist() == [0, 1, 0, 1] and seen == ["compute"]  # does not teach
    assert len(spec.memo) == 1


def _torch_no_scalar(call, g, x):
    return g * x


def test_torch_scalar_body_where_the_loops_differ():
    """scalar_compute answers the elements torch's loop runs scalar (the tail past whole vector steps)."""
    rule = ew.TorchRule("split", lambda call, g, x: np.zeros_like(g), scalar_compute=lambda call, g, x: g + 1)
    split = ew.build(ew.Elementwise(name="split", tensors=("grad", "x"), scalars=(), torch=rule,
                                    ascend=ew.AscendRule("aclnnSplit", rule.compute, lambda s: ("float32",))))
    a = np.ones(37, np.float32)  # 16 float32 per 64-byte step: 32 vectorised, 5 scalar
    r = split(a, a)
    assert r[:32].tolist() == [0.0] * 32 and r[32:].tolist() == [2.0] * 5


def test_declaration_errors():
    with pytest.raises(ValueError, match="distinct identifiers"):
        ew.build(ew.Elementwise(name="bad", tensors=("x", "x"), scalars=(), torch=TOY.spec.torch,
                                ascend=TOY.spec.ascend))


def test_scalar_body_reads_the_operands_before_out_is_written():
    rule = ew.TorchRule("split2", lambda call, g, x: g * 0, scalar_compute=lambda call, g, x: g + x)
    split = ew.build(ew.Elementwise(name="split2", tensors=("grad", "x"), scalars=(), torch=rule,
                                    ascend=ew.AscendRule("aclnnSplit2", rule.compute, lambda s: ("float32",))))
    g, x = np.ones(37, np.float32), np.full(37, 2.0, np.float32)
    assert split(g, x, out=g) is g
    assert g[:32].tolist() == [0.0] * 32 and g[32:].tolist() == [3.0] * 5  # 1 + 2, not 0 + 2
