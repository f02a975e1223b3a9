"""opsnn.selu_backward: SELU's gradient from its output, for numpy arrays (docs/selu-grad.md); the
function is built by op_common.elementwise.

semantics="torch": torch's elu_backward(grad, alpha, scale, 1, is_result=True, result) with
SELU's constants on CPU (what nn.SELU's backward calls): promotion of (grad, result) must be
floating (TypeError), shapes broadcast. semantics="ascend910b" / "ascend950": aclnnSeluBackward:
grad and result of one dtype of the SoC's list and one shape, any rank (TypeError / ValueError;
upstream reshapes a rank above 8 to 1-d around the kernel, so it takes one;
int32 / int8 pass the API's checks but no kernel is built for them here: TypeError), then the
family's kernel model. backend "auto" / "fast" / "reference" compute the functional models;
"emulator" runs the aclnn call on the emulated device."""
from __future__ import annotations

from opsnn.op_common import elementwise as ew
from opsnn.op_common.emulated import declared_run
from opsnn.op_common.torch_loops import torch_vector_mask

from . import functional_models as fm
from .op_host import KERNEL_DTYPES


def _torch(call, g, r):
    """torch's kernel, with where its vectorised body computes (elu_backward's AVX512 build: 128
    bytes a step, hence half the itemsize for torch_loops' 64-byte step), from the operands'
    layout: a strided one runs the scalar body everywhere."""
    vector = torch_vector_mask(call.tensors, g.dtype, max(g.dtype.itemsize // 2, 1))
    return fm.selu_backward_torch(g, r, vector)


selu_backward = ew.build(ew.Elementwise(
    name="selu_backward", tensors=("grad", "result"), scalars=(), express=None,
    torch=ew.TorchRule("elu_backward", _torch),
    ascend=ew.AscendRule("aclnnSeluBackward", lambda call, g, r: fm.KERNELS[call.semantics](g, r),
                         lambda semantics: KERNEL_DTYPES, promote=False, broadcast=False, max_rank=None,
                         emulator_run=declared_run(__package__)),
    doc="""grad * (result > 0 ? scale : result + scale * alpha) under `semantics` (module doc)."""))
