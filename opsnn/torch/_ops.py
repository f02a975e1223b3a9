"""torch.ops.opsnn.*: opsnn's threshold_backward / threshold as torch custom operators.

Every op is a `torch.library.custom_op` with a fake (meta) implementation that decides dtype, shape
and errors exactly as the real one does (it runs the numpy API on 1-element stand-ins of the same
dtypes and ranks), so torch.compile, FakeTensor and opcheck see what eager does. The real
implementations hand numpy views of the tensors' memory to opsnn and wrap the result without a copy.

Errors follow torch, not the numpy API: a dtype the semantics does not take raises
NotImplementedError (torch: `"threshold_cpu" not implemented for 'Bool'`), everything else opsnn
reports as ValueError (overflowing threshold, shapes that do not broadcast, ...) raises RuntimeError.
"""
from __future__ import annotations

import numpy as np
import torch
from torch import Tensor
from torch.types import Number

from opsnn import api
from opsnn.backends import SEMANTICS
from opsnn.torch._convert import from_numpy, numpy_dtype, to_numpy


def _torch_errors(fn, *args, **kwargs):
    try:
        return fn(*args, **kwargs)
    except TypeError as e:
        raise NotImplementedError(str(e)) from None
    except ValueError as e:
        raise RuntimeError(str(e)) from None


def _check_semantics(semantics: str) -> None:
    if semantics not in SEMANTICS:
        raise RuntimeError(f"unknown semantics {semantics!r}; known: {', '.join(SEMANTICS)}")


def np_threshold_backward(grad: np.ndarray, feature: np.ndarray, threshold, semantics: str, out=None):
    _check_semantics(semantics)
    return _torch_errors(api.threshold_backward, grad, feature, threshold, out=out, semantics=semantics)


def np_threshold(x: np.ndarray, threshold, value, semantics: str, out=None):
    _check_semantics(semantics)
    return _torch_errors(api.threshold, x, threshold, value, out=out, semantics=semantics)


def _stand_in(t: Tensor) -> np.ndarray:
    """1 element per dimension, same dtype and rank: enough for the API to decide dtype and errors."""
    return np.zeros((1,) * t.dim(), numpy_dtype(t.dtype))


def _backward_dtype(grad: Tensor, feature: Tensor, threshold, semantics: str) -> torch.dtype:
    result = np_threshold_backward(_stand_in(grad), _stand_in(feature), threshold, semantics)
    return from_numpy(np.asarray(result)).dtype


def _check_forward(x: Tensor, threshold, value, semantics: str) -> None:
    np_threshold(_stand_in(x), threshold, value, semantics)


def _result(a) -> Tensor:
    # the fake implementations promise a C-contiguous result (what opsnn allocates); a backend that
    # followed an input's layout (channels_last, transposed) is copied once into C order
    a = np.asarray(a)
    return from_numpy(a if a.flags.c_contiguous else a.copy(order="C"))


def _check_out(out: Tensor, shape, dtype: torch.dtype, name: str) -> None:
    if tuple(out.shape) != tuple(shape):
        raise RuntimeError(f"{name} has shape {tuple(out.shape)}, the result is {tuple(shape)} "
                           "(opsnn does not resize out= tensors)")
    if not torch.can_cast(dtype, out.dtype):
        raise RuntimeError(f"result type {dtype} can't be cast to the desired output type {out.dtype}")
    if out.device.type != "cpu" and out.device.type != "meta":
        raise RuntimeError(f"{name} is on {out.device}; opsnn computes on CPU")


# ---- the eager bodies: the custom ops' CPU implementations, which npu_semantics also calls directly
# (inside the mode, below autograd, the custom-op layer would only add its own dispatch per call)

def eager_threshold_backward(grad: Tensor, feature: Tensor, threshold: Number, semantics: str) -> Tensor:
    return _result(np_threshold_backward(to_numpy(grad), to_numpy(feature), threshold, semantics))


def eager_threshold_backward_out(grad: Tensor, feature: Tensor, threshold: Number, semantics: str,
                                 grad_input: Tensor) -> Tensor:
    g, f = to_numpy(grad), to_numpy(feature)
    dtype = _backward_dtype(grad, feature, threshold, semantics)
    _check_out(grad_input, torch.broadcast_shapes(grad.shape, feature.shape), dtype, "grad_input")
    if grad_input.dtype == dtype:
        np_threshold_backward(g, f, threshold, semantics, out=to_numpy(grad_input))
    else:
        grad_input.copy_(_result(np_threshold_backward(g, f, threshold, semantics)))
    return grad_input


def eager_threshold(x: Tensor, threshold: Number, value: Number, semantics: str) -> Tensor:
    return _result(np_threshold(to_numpy(x), threshold, value, semantics))


def eager_threshold_(x: Tensor, threshold: Number, value: Number, semantics: str) -> Tensor:
    a = to_numpy(x)
    np_threshold(a, threshold, value, semantics, out=a)
    return x


def eager_threshold_out(x: Tensor, threshold: Number, value: Number, semantics: str, out: Tensor) -> Tensor:
    _check_out(out, x.shape, x.dtype, "out")
    if out.dtype == x.dtype:
        np_threshold(to_numpy(x), threshold, value, semantics, out=to_numpy(out))
    else:
        out.copy_(_result(np_threshold(to_numpy(x), threshold, value, semantics)))
    return out


# ---- threshold_backward -------------------------------------------------------------------------

@torch.library.custom_op("opsnn::threshold_backward", mutates_args=(), device_types="cpu")
def threshold_backward(grad: Tensor, self: Tensor, threshold: Number, semantics: str = "torch") -> Tensor:
    """aten.threshold_backward(grad_output, self, threshold) under `semantics`."""
    return eager_threshold_backward(grad, self, threshold, semantics)


@threshold_backward.register_fake
def _(grad, self, threshold, semantics="torch"):
    dtype = _backward_dtype(grad, self, threshold, semantics)
    shape = torch.broadcast_shapes(grad.shape, self.shape)
    return torch.empty(shape, dtype=dtype, device=grad.device)  # the real result: a fresh C-contiguous array


def _backward_setup(ctx, inputs, output):
    _, feature, threshold, semantics = inputs
    ctx.save_for_backward(feature)
    ctx.threshold, ctx.semantics = threshold, semantics


def _backward_backward(ctx, gg):
    # linear in grad: d/dgrad is the op itself; the feature only selects (zero derivative a.e.)
    (feature,) = ctx.saved_tensors
    return torch.ops.opsnn.threshold_backward(gg, feature, ctx.threshold, ctx.semantics), None, None, None


threshold_backward.register_autograd(_backward_backward, setup_context=_backward_setup)


@torch.library.custom_op("opsnn::threshold_backward_out", mutates_args=("grad_input",), device_types="cpu")
def threshold_backward_out(grad: Tensor, feature: Tensor, threshold: Number, semantics: str,
                           grad_input: Tensor) -> None:
    """aten.threshold_backward.grad_input: the result written into grad_input (it may be grad)."""
    eager_threshold_backward_out(grad, feature, threshold, semantics, grad_input)


@threshold_backward_out.register_fake
def _(grad, feature, threshold, semantics, grad_input):
    dtype = _backward_dtype(grad, feature, threshold, semantics)
    _check_out(grad_input, torch.broadcast_shapes(grad.shape, feature.shape), dtype, "grad_input")


# ---- threshold (the forward) --------------------------------------------------------------------

@torch.library.custom_op("opsnn::threshold", mutates_args=(), device_types="cpu")
def threshold(x: Tensor, threshold: Number, value: Number, semantics: str = "torch") -> Tensor:
    """aten.threshold(self, threshold, value) under `semantics`: x where x > threshold, else value."""
    return eager_threshold(x, threshold, value, semantics)


@threshold.register_fake
def _(x, threshold, value, semantics="torch"):
    _check_forward(x, threshold, value, semantics)
    return torch.empty_like(x, memory_format=torch.contiguous_format)


def _forward_setup(ctx, inputs, output):
    x, threshold, _, semantics = inputs
    ctx.save_for_backward(x)
    ctx.threshold, ctx.semantics = threshold, semantics


def _forward_backward(ctx, grad):
    # aten: threshold's derivative is threshold_backward(grad, self, threshold); same semantics here
    (x,) = ctx.saved_tensors
    return torch.ops.opsnn.threshold_backward(grad, x, ctx.threshold, ctx.semantics), None, None, None


threshold.register_autograd(_forward_backward, setup_context=_forward_setup)


@torch.library.custom_op("opsnn::threshold_", mutates_args=("x",), device_types="cpu")
def threshold_(x: Tensor, threshold: Number, value: Number, semantics: str = "torch") -> None:
    """aten.threshold_: x overwritten in place."""
    eager_threshold_(x, threshold, value, semantics)


@threshold_.register_fake
def _(x, threshold, value, semantics="torch"):
    _check_forward(x, threshold, value, semantics)


@torch.library.custom_op("opsnn::threshold_out", mutates_args=("out",), device_types="cpu")
def threshold_out(x: Tensor, threshold: Number, value: Number, semantics: str, out: Tensor) -> None:
    """aten.threshold.out: the result written into out."""
    eager_threshold_out(x, threshold, value, semantics, out)


@threshold_out.register_fake
def _(x, threshold, value, semantics, out):
    _check_forward(x, threshold, value, semantics)
    _check_out(out, x.shape, x.dtype, "out")
