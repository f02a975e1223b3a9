"""opsnn.softshrink_backward: softshrink's gradient for numpy arrays, built by op_common.elementwise
(docs/softshrink-grad.md).

semantics="torch": torch.ops.aten.softshrink_backward on CPU: promotion of (grad, x) floating
(TypeError), shapes broadcast, lambd converted to that dtype (c10's check: 7e4 for float16 is a
ValueError); its two loop bodies disagree on a NaN x (vectorised 0, scalar grad), split as torch
walks the operands. semantics="ascend950": aclnnSoftshrinkBackward (dtypes float16 / float32 /
bfloat16, promoted, broadcast, rank <= 8, lambd >= 0 as float32) and the SoftShrinkGrad kernel:
grad where |x| > lambd or x is NaN, else +0. ascend910b: refused (ValueError) but for an empty
result (aclnn launches nothing then): upstream builds the kernel for Ascend950 only. Both run
on the C engine's lanes where it is built."""
from __future__ import annotations

import math

from opsnn.engine import keys, modes
from opsnn.op_common import elementwise as ew
from opsnn.op_common.emulated import declared_run

from . import functional_models as fm
from .op_api.aclnn_softshrink_backward import lambd_refusal, supported_dtypes


def _kept(dtype, lambd: float, nan: bool):
    """Engine params: grad kept where x < -lambd or x > lambd (with nan: and where x is NaN); a NaN
    lambd keeps nothing but the NaNs (with nan), a negative one (torch only) every value."""
    if lambd < 0:
        everything = (0, (1 << 8 * dtype.itemsize) - 1) if nan else (keys.key_of(-math.inf, dtype),
                                                                     keys.key_of(math.inf, dtype))
        return modes.params(everything * 2, modes.PLAIN, 0, modes.KEYED)
    above, below = keys.first_above(lambd, dtype), keys.last_below(-lambd, dtype)
    if nan:
        return modes.params((above, below) * 2, modes.PLAIN, 0, modes.CYCLIC | modes.KEYED)
    ranges = (above, keys.key_of(math.inf, dtype), keys.key_of(-math.inf, dtype), below)
    return modes.params(ranges, modes.PLAIN, 0, modes.KEYED)


def _torch_lanes(nan: bool):
    """torch's body's lane: the vectorised one never keeps a NaN x; the scalar one zeroes nothing
    for a NaN lambd (its comparisons are false)."""
    def lane(call, plan):
        lambd = float(plan.scalars[0])
        return _kept(plan.dtype, -1.0 if nan and math.isnan(lambd) else lambd, nan)
    return lane


def _ascend_check(call, plan) -> None:
    """aclnn's refusals in its order: lambd < 0, then (the l0 op, reached for a non-empty result
    only: 561003) no kernel outside Ascend950."""
    if (refusal := lambd_refusal(plan.scalars[0])) is not None:
        raise ValueError(refusal)
    if call.semantics != "ascend950" and 0 not in plan.shape:
        raise ValueError(f"{call.semantics}: SoftShrinkGrad has no kernel here (upstream builds it for ascend950 "
                         "only)")


softshrink_backward = ew.build(ew.Elementwise(
    name="softshrink_backward", tensors=("grad", "x"), scalars=(ew.Scalar("lambd", 0.5),),
    torch=ew.TorchRule("softshrink_backward", lambda call, g, x, lambd: fm.torch_vector(g, x, lambd),
                       scalar_compute=lambda call, g, x, lambd: fm.torch_scalar(g, x, lambd),
                       lane=_torch_lanes(False), scalar_lane=_torch_lanes(True),
                       scalar=ew.torch_scalar_as_dtype),
    ascend=ew.AscendRule("aclnnSoftshrinkBackward", lambda call, g, x, lambd: fm.softshrink_grad_arch35(g, x, lambd),
                         supported_dtypes, lane=lambda call, plan: _kept(plan.dtype, plan.scalars[0], True),
                         check=_ascend_check,
                         emulator_run=declared_run(__package__)),
    doc="""grad where x < -lambd or x > lambd, else 0, under `semantics` (module doc).""",
))
