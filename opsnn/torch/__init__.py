"""opsnn for PyTorch: custom operators `torch.ops.opsnn.*` and the `npu_semantics` context.

Importing this module imports torch and registers the operators; `import opsnn` alone never does.

    torch.ops.opsnn.threshold_backward(grad, self, threshold, semantics="torch")
    torch.ops.opsnn.threshold(x, threshold, value, semantics="torch")      # autograd: threshold_backward
    torch.ops.opsnn.threshold_(x, threshold, value, semantics="torch")     # in place
    torch.ops.opsnn.threshold_backward_out(grad, self, threshold, semantics, grad_input)
    torch.ops.opsnn.threshold_out(x, threshold, value, semantics, out)

    with opsnn.torch.npu_semantics("ascend910b"):   # aten.threshold_backward / aten.threshold on CPU
        loss = model(x).sum(); loss.backward()      # ... computed as the NPU kernel would

Every other registered operator whose aclnn declaration names its numpy API and its aten op
(e.g. LeakyReluBackward: aten.leaky_relu_backward) gets torch.ops.opsnn.<numpy_api>(..., semantics)
and opsnn.torch.<numpy_api>, and npu_semantics intercepts its aten op (opsnn/torch/_generic.py).

Where torch's conventions differ from the numpy API, these follow torch: the forward's arguments
are (input, threshold, value) like torch.nn.functional.threshold, unsupported dtypes raise
NotImplementedError and other bad input RuntimeError (the numpy API: TypeError / ValueError).
"""
from __future__ import annotations

try:
    import torch
except ModuleNotFoundError as e:
    if e.name != "torch":  # torch is there but broken: its own error says why
        raise
    raise ImportError("opsnn.torch needs PyTorch: pip install 'opsnn[torch]'") from None

from opsnn.backends import SEMANTICS
from opsnn.torch import _generic, _ops
from opsnn.torch._compile import NpuSemanticsBypassWarning
from opsnn.torch._convert import from_numpy, to_numpy
from opsnn.torch._mode import NPU_SEMANTICS, npu_semantics

__all__ = ["NPU_SEMANTICS", "SEMANTICS", "NpuSemanticsBypassWarning", "from_numpy", "npu_semantics", "threshold",
           "threshold_", "threshold_backward", "to_numpy"]


def __getattr__(name: str):
    """Every other operator's op (declared by its folder: AclnnApi.numpy_api), as
    opsnn.torch.<name>(*inputs, semantics="torch") = torch.ops.opsnn.<name>."""
    generic = _generic.OPS.get(name)
    if generic is None:
        raise AttributeError(f"module 'opsnn.torch' has no attribute {name!r}")
    op = generic.op

    def call(*inputs, semantics: str = "torch"):
        return op(*inputs, semantics)

    call.__name__ = call.__qualname__ = name
    call.__doc__ = f"torch.ops.opsnn.{name}: {generic.api.name}'s numpy API" + (
        f" (torch.ops.aten.{generic.api.aten} with opsnn's `semantics`)" if generic.api.aten else "")
    return call


def __dir__():
    return sorted({*globals(), *_generic.OPS})


def threshold_backward(grad_output: torch.Tensor, self: torch.Tensor, threshold: float | int, *,
                       semantics: str = "torch", grad_input: torch.Tensor | None = None) -> torch.Tensor:
    """torch.ops.aten.threshold_backward with opsnn's `semantics`; grad_input= is the out= variant."""
    if grad_input is None:
        return _ops.threshold_backward(grad_output, self, threshold, semantics)
    _ops.threshold_backward_out(grad_output, self, threshold, semantics, grad_input)
    return grad_input


def threshold(input: torch.Tensor, threshold: float | int, value: float | int, inplace: bool = False, *,
              semantics: str = "torch", out: torch.Tensor | None = None) -> torch.Tensor:
    """torch.nn.functional.threshold (and torch.threshold's out=) with opsnn's `semantics`."""
    if inplace:
        if out is not None:
            raise RuntimeError("threshold: inplace=True and out= together")
        return threshold_(input, threshold, value, semantics=semantics)
    if out is None:
        return _ops.threshold(input, threshold, value, semantics)
    _ops.threshold_out(input, threshold, value, semantics, out)
    return out


def threshold_(input: torch.Tensor, threshold: float | int, value: float | int, *,
               semantics: str = "torch") -> torch.Tensor:
    """torch.threshold_ with opsnn's `semantics`: input overwritten, and returned."""
    _ops.threshold_(input, threshold, value, semantics)
    return input
