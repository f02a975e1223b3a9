"""npu_semantics: a TorchDispatchMode that runs aten's threshold ops with an NPU kernel's semantics."""
from __future__ import annotations

from collections import Counter

import torch
from torch.utils._python_dispatch import TorchDispatchMode

from opsnn.torch import _generic, _ops

aten = torch.ops.aten
NPU_SEMANTICS = ("ascend910b", "ascend950")
_PLAIN = (torch.Tensor, torch.nn.Parameter)


def _cpu_dense(*tensors) -> bool:
    return all(type(t) in _PLAIN and t.device.type == "cpu" and t.layout == torch.strided
               for t in tensors)


class npu_semantics(TorchDispatchMode):  # noqa: N801 - a context manager, named like one
    """Under `with npu_semantics("ascend910b"):` (or "ascend950"), every CPU call of
    aten.threshold_backward (the backward of ReLU, nn.Threshold, F.relu, F.threshold) and of
    aten.threshold / threshold_ (the forward of nn.Threshold, F.threshold) runs through opsnn with
    that semantics, so an unchanged model's training step computes what the NPU kernels would.
    Other ops, and tensors that are not plain CPU tensors, go to torch as usual.

    forward: True (default) intercepts the forward too, False leaves it to torch.
    `calls` counts the intercepted calls by aten op name.
    """

    def __init__(self, semantics: str, *, forward: bool = True):
        super().__init__()
        if semantics not in NPU_SEMANTICS:
            raise ValueError(f"npu_semantics takes {' or '.join(map(repr, NPU_SEMANTICS))}, not {semantics!r}")
        self.semantics = semantics
        self.forward = forward
        self.calls: Counter[str] = Counter()
        self._handlers = {
            aten.threshold_backward.default: self._backward,
            aten.threshold_backward.grad_input: self._backward_out,
        }
        if forward:
            self._handlers.update({aten.threshold.default: self._threshold, aten.threshold_.default: self._threshold_,
                                   aten.threshold.out: self._threshold_out})
        self._tensor_args = {}  # generic ops: how many leading args are tensors that must be CPU-dense
        for generic in _generic.OPS.values():
            packet = getattr(aten, generic.api.aten, None)
            if packet is None or (not forward and not generic.api.aten.endswith("_backward")):
                continue
            for overload in packet.overloads():
                if overload != "default" and not overload.endswith(("out", "grad_input")):
                    continue  # another signature: torch's own
                func = getattr(packet, overload)
                self._handlers[func] = self._generic_handler(generic)
                self._tensor_args[func] = len(generic.tensors)

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        handler = self._handlers.get(func)
        leading = self._tensor_args.get(func, 2 if func in _BACKWARD_OPS else 1)
        if handler is None or not _cpu_dense(*args[:leading], *kwargs.values()):
            return func(*args, **kwargs)
        self.calls[func.name()] += 1
        return handler(*args, **kwargs)

    def _generic_handler(self, generic):
        """aten.<op>.default -> the generic op; an out overload (grad_input=, out=) -> the same,
        copied into the one tensor given by keyword."""
        op = generic.op

        def handle(*args, **kwargs):
            result = op(*args, self.semantics)
            if not kwargs:
                return result
            (target,) = kwargs.values()
            target.copy_(result)
            return target

        return handle

    def _backward(self, grad_output, self_, threshold):
        return _ops.threshold_backward(grad_output, self_, threshold, self.semantics)

    def _backward_out(self, grad_output, self_, threshold, *, grad_input):
        _ops.threshold_backward_out(grad_output, self_, threshold, self.semantics, grad_input)
        return grad_input

    def _threshold(self, x, threshold, value):
        return _ops.threshold(x, threshold, value, self.semantics)

    def _threshold_(self, x, threshold, value):
        _ops.threshold_(x, threshold, value, self.semantics)
        return x

    def _threshold_out(self, x, threshold, value, *, out):
        _ops.threshold_out(x, threshold, value, self.semantics, out)
        return out


_BACKWARD_OPS = frozenset((aten.threshold_backward.default, aten.threshold_backward.grad_input))
