"""The common rules (op_common.elementwise's TorchRule / AscendRule) for an operator with a scalar
attribute, its two torch loop bodies and its engine lanes, and what the express entry may learn
from a call (issue 35, items 1-5)."""
from __future__ import annotations

import math

import numpy as np
import pytest

from opsnn.dtypes import bfloat16
from opsnn.engine import keys, lanes, modes
from opsnn.op_common import elementwise as ew
from opsnn.op_common.emulated import declared_run
from opsnn.op_common.float32_values import narrow, widen

needs_engine = pytest.mark.skipif(lanes.compiled() is None, reason="the C engine is not built")
F16, F32 = np.dtype(np.float16), np.dtype(np.float32)


def _outside(dtype: np.dtype, lambd: float, nan: bool):
    """Engine params: keep grad where x < -lambd or x > lambd (and where x is NaN, with nan)."""
    above, below = keys.first_above(lambd, dtype), keys.last_below(-lambd, dtype)
    if nan:
        return modes.params((above, below, above, below), modes.PLAIN, 0, modes.CYCLIC | modes.KEYED)
    ranges = (above, keys.key_of(math.inf, dtype), keys.key_of(-math.inf, dtype), below)
    return modes.params(ranges, modes.PLAIN, 0, modes.KEYED)


def _vector(call, g, x, lambd):  # softshrink_backward's two bodies: a NaN x is 0 here...
    calls.append(("vector", g.size))
    with np.errstate(invalid="ignore"):
        return np.where((x < -lambd) | (x > lambd), g, g.dtype.type(0))


def _scalar(call, g, x, lambd):  # ... and grad here
    calls.append(("scalar", g.size))
    with np.errstate(invalid="ignore"):
        return np.where((x >= -lambd) & (x <= lambd), g.dtype.type(0), g)


def _refuse_negative(call, plan):
    if plan.scalars[0] < 0:
        raise ValueError(f"lambd should be greater or equal to 0, but found to be [{plan.scalars[0]}]")


calls: list = []
SHRINK = ew.build(ew.Elementwise(
    name="shrink_backward", tensors=("grad", "x"), scalars=(ew.Scalar("lambd", 0.5),),
    torch=ew.TorchRule("softshrink_backward", _vector, scalar_compute=_scalar,
                       lane=lambda call, plan: _outside(plan.dtype, float(plan.scalars[0]), False),
                       scalar_lane=lambda call, plan: _outside(plan.dtype, float(plan.scalars[0]), True),
                       scalar=ew.torch_scalar_as_dtype),
    ascend=ew.AscendRule("aclnnShrinkBackward", _scalar, lambda s: ("float16", "float32", "bfloat16"),
                         lane=lambda call, plan: _outside(plan.dtype, float(plan.scalars[0]), True),
                         check=_refuse_negative),
    doc="grad where |x| > lambd (torch's two bodies for a NaN x), else 0"))


# -- item 1: backend="emulator" for an API that takes an aclScalar -----------------------------

def test_declared_run_passes_the_scalars_in_the_apis_order():
    """hardtanh's aclnn API takes (gradOutput, self, min, max): the declared run gives it the
    call's tensors and scalars as the declaration orders them (a StopIteration before)."""
    from opsnn.activation.hardtanh_grad.numpy_api import hardtanh_backward
    g = np.array([1, 2, 3, 4], np.float32)
    x = np.array([-2, 0.25, 0.5, np.nan], np.float32)
    call = ew.Call("ascend950", "emulator", (g, x), (-0.5, 0.3), (-0.5, 0.3), None, None, None)
    got = declared_run("opsnn.activation.hardtanh_grad")(call, ew.Plan(F32, (4,)))
    want = hardtanh_backward(g, x, -0.5, 0.3, semantics="ascend950", backend="emulator")
    assert got.view(np.uint32).tolist() == want.view(np.uint32).tolist() == [0, 0x40000000, 0, 0x40800000]


# -- item 2: the express entry and the operands' layout ---------------------------------------

@needs_engine
def test_a_fortran_call_does_not_teach_the_c_contiguous_answer():
    """A Fortran-order call and then the same values C-contiguous: torch's scalar tail (the last
    8 of 40 elements, a NaN x keeps grad) answers the C call whatever came before."""
    g = np.ones((5, 8), np.float32)
    x = np.full((5, 8), np.nan, np.float32)
    fresh = SHRINK(g, x).copy()
    assert fresh.reshape(-1)[-8:].tolist() == [1.0] * 8 and fresh.reshape(-1)[:32].tolist() == [0.0] * 32
    SHRINK(np.asfortranarray(g), np.asfortranarray(x))
    assert SHRINK(g, x).tolist() == fresh.tolist()


def test_fortran_operands_split_as_torch_does():
    """torch walks same-strided operands in memory order: the scalar tail is the last elements
    in Fortran order (torch 2.13 measured: tests/robustness and torch_loops' own tests)."""
    g = np.asfortranarray(np.ones((5, 8), np.float32))
    x = np.asfortranarray(np.full((5, 8), np.nan, np.float32))
    r = SHRINK(g, x)
    assert r.reshape(-1, order="F")[-8:].tolist() == [1.0] * 8 and r.reshape(-1, order="F")[:32].sum() == 0


# -- item 3: the express entry keeps the ascend checks -----------------------------------------

@pytest.mark.parametrize("taught", [False, True])
def test_rank_nine_is_refused_after_a_rank_one_call(taught):
    a = np.ones(4, np.float32)
    if taught:
        SHRINK(a, a, semantics="ascend950")
    nine = np.ones((1,) * 9, np.float32)
    with pytest.raises(ValueError, match="rank 9, more than 8"):
        SHRINK(nine, nine, semantics="ascend950")


# -- item 4: float32_values on 0-d arrays ------------------------------------------------------

def test_widen_and_narrow_keep_a_0d_shape():
    h = np.array(1.5, np.float16)
    assert widen(h).shape == () and widen(h)[()] == 1.5
    assert narrow(np.array(2.5, np.float32), F16).shape == ()
    assert widen(np.array(3.0, np.float32)).shape == ()


# -- item 5: an attribute's conversion and refusal, two bodies with lanes, mixed dtypes --------

def test_torch_converts_the_attribute_to_the_tensors_dtype():
    """softshrink_backward's lambd.to<scalar_t>(): a half rounds it (0.5004 -> 0.50049, so
    x = 0.50049 is not above it), 7e4 cannot be a float16 (c10: RuntimeError; here ValueError)."""
    g = np.ones(3, np.float16)
    x = np.array([0.5005, 0.5, 0.501], np.float16)
    assert SHRINK(g, x, 0.5004).tolist() == [0.0, 0.0, 1.0]
    with pytest.raises(ValueError, match="cannot be converted to float16 without overflow"):
        SHRINK(g, x, 7e4)
    assert SHRINK(g.astype(bfloat16), x.astype(bfloat16), 7e4).tolist() == [0.0, 0.0, 0.0]
    assert ew.torch_scalar_as_dtype(65504.0, F16, "v") == np.float16(65504)
    assert ew.torch_scalar_as_dtype(1e39, np.dtype(np.float64), "v") == 1e39


def test_ascend_check_refuses_a_scalar_value():
    a = np.ones(3, np.float32)
    with pytest.raises(ValueError, match="lambd should be greater or equal to 0"):
        SHRINK(a, a, -0.5, semantics="ascend950")
    assert SHRINK(a, a, 0.0, semantics="ascend950").tolist() == [1.0, 1.0, 1.0]


@needs_engine
def test_a_lane_and_the_scalar_body_combine():
    """With both lanes the numpy bodies run nowhere: the vectorised lane answers all, the scalar
    lane the tails (37 float32: 32 vectorised, 5 scalar)."""
    g, x = np.arange(1, 38, dtype=np.float32), np.full(37, np.nan, np.float32)
    calls.clear()
    r = SHRINK(g, x, 0.5)
    assert calls == [] and r[:32].tolist() == [0.0] * 32 and r[32:].tolist() == g[32:].tolist()
    calls.clear()
    assert SHRINK(g, x, 0.5).tolist() == r.tolist() and calls == []  # the express entry: the same split


def test_the_numpy_bodies_split_the_same_way():
    g, x = np.arange(1, 38, dtype=np.float32), np.full(37, np.nan, np.float32)
    calls.clear()
    r = SHRINK(g, x, 0.5, backend="reference")
    assert r[:32].tolist() == [0.0] * 32 and r[32:].tolist() == g[32:].tolist()
    assert sorted(calls) == [("scalar", 5), ("vector", 37)]  # the scalar body on the tail only


def test_mixed_dtypes_take_the_scalar_body_where_torch_does():
    """float16 grad, float32 NaN x: torch converts grad to float32 (contiguous) and runs three
    elements through its scalar body: grad (1.0), not 0."""
    g, x = np.ones(3, np.float16), np.full(3, np.nan, np.float32)
    assert SHRINK(g, x, 0.5).tolist() == [1.0, 1.0, 1.0]
    assert SHRINK(g, x, 0.5, backend="reference").tolist() == [1.0, 1.0, 1.0]


def test_a_strided_operand_runs_the_scalar_body_everywhere():
    """torch's basic loop (an operand not contiguous in the inner dimension) is all scalar."""
    g = np.ones(80, np.float32)[::2]
    x = np.full(40, np.nan, np.float32)
    assert SHRINK(g, x, 0.5).tolist() == [1.0] * 40


def test_a_rule_that_keeps_nothing_has_no_lane():
    """lambd = inf: the vectorised body keeps nothing, which the engine has no lane for; the
    compute answers (no 'both ranges are empty')."""
    g, x = np.ones(40, np.float32), np.full(40, 2.0, np.float32)
    assert SHRINK(g, x, math.inf).tolist() == [0.0] * 40
    call = ew.Call("torch", "auto", (), (), (), None, None, None)
    assert ew.engine_lane(lambda call, plan: modes.params(keys.NOTHING_KEPT, modes.PLAIN), call,
                          ew.Plan(F32, (1,)), 8) is None
