"""opsnn.sigmoid_backward: the gradient of sigmoid from its output, for numpy arrays, under torch's
semantics or an Ascend SoC's (docs/sigmoid-grad.md); the function is built by op_common.elementwise.

semantics="torch" is torch.ops.aten.sigmoid_backward(grad_output, output) on CPU: torch's
promotion of (grad, y) must be floating or complex (TypeError otherwise), shapes broadcast;
functional_models.sigmoid_backward_torch computes it.
semantics="ascend910b" / "ascend950" is aclnnSigmoidBackward: each dtype in the SoC's list and
their promotion too (TypeError), rank <= 8 and shapes that broadcast (ValueError); both cast to
the promoted dtype, then the family's kernel (float16 / bfloat16 / float32) or AICPU (float64,
complex). The result has the promoted dtype (0-d operands: a 0-d result, as aclnn's broadcast
shape). backend "auto" / "fast" / "reference" compute the functional models (numpy); "emulator"
runs the aclnn call on the emulated device."""
from __future__ import annotations

import numpy as np

from opsnn.dtypes import BY_NAME, bfloat16
from opsnn.op_common import elementwise as ew
from opsnn.op_common import torch_promotion
from opsnn.op_common.emulated import declared_run
from opsnn.op_common.operands import broadcast_shape
from opsnn.op_common.torch_loops import torch_vector_mask

from . import functional_models as fm
from .op_api.aclnn_sigmoid_backward import promote, supported_dtypes


def torch_result_dtype(grad: np.ndarray, y: np.ndarray) -> np.dtype:
    """torch's result dtype: torch.result_type (complex included: complex with bfloat16, an
    integer or bool computes in complex), floating or complex; TypeError otherwise (complex32,
    torch's for float16 with a 0-d complex, has no kernel)."""
    for a in (grad, y):
        if a.dtype not in torch_promotion.WITH_COMPLEX:
            raise TypeError(f"dtype {a.dtype} is not supported by torch's sigmoid_backward")
    dt = torch_promotion.result_type(grad, y)
    if torch_promotion.category(dt) < 2:
        raise TypeError(f"sigmoid_backward is not implemented for {dt}; got grad {grad.dtype} and y {y.dtype}")
    return dt


def _torch_plan(call) -> ew.Plan:
    shape = broadcast_shape(*(a.shape for a in call.tensors))  # first, as torch's TensorIterator
    return ew.Plan(torch_result_dtype(*call.tensors), shape)


def _torch(call, dy, y) -> np.ndarray:
    """torch's kernel; for bfloat16 the elements its vectorised body computes (their NaN is 0xFFFF):
    this kernel's AVX512 build steps 64 elements (128 bytes) at a time, hence itemsize 1 for
    torch_loops' 64-byte step (measured on torch 2.13), from the operands' layout."""
    vector = torch_vector_mask(call.tensors, dy.dtype, 1) if dy.dtype == bfloat16 else True
    return fm.sigmoid_backward_torch(dy, y, vector)


_TORCH = ew.TorchRule("sigmoid_backward", _torch)

sigmoid_backward = ew.build(ew.Elementwise(
    name="sigmoid_backward", tensors=("grad", "y"), scalars=(), express=None,
    torch=ew.Rule(_torch_plan, _TORCH.run),
    ascend=ew.AscendRule("aclnnSigmoidBackward", lambda call, dy, y: fm.sigmoid_grad(y, dy, call.semantics),
                         supported_dtypes, promote=lambda a, b: BY_NAME[promote(a.name, b.name)],
                         emulator_run=declared_run(__package__)),
    doc="""grad * y * (1 - y) under `semantics` (module doc); y is the forward's output."""))
