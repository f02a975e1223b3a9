"""npu_semantics: a TorchDispatchMode that runs aten's threshold ops with an NPU kernel's semantics."""
from __future__ import annotations

from collections import Counter

import torch
from torch.utils._python_dispatch import TorchDispatchMode

from opsnn.torch import _generic, _ops

aten = torch.ops.aten
NPU_SEMANTICS = ("ascend910b", "ascend950")
_PLAIN = frozenset((torch.Tensor, torch.nn.Parameter))
_STRIDED = torch.strided


def _cpu_dense(*tensors) -> bool:
    for t in tensors:
        if type(t) not in _PLAIN or not t.is_cpu or t.layout is not _STRIDED:
            return False
    return True


def _can_skip_by_code() -> bool:
    try:
        from torch._C._dynamo.eval_frame import _FrameAction, _FrameExecStrategy, set_code_exec_strategy
    except ImportError:
        return False
    return all(callable(x) for x in (_FrameExecStrategy, set_code_exec_strategy)) and hasattr(_FrameAction, "SKIP")


_SKIP_BY_CODE = _can_skip_by_code()


def _skip_dynamo(code) -> None:
    """torch.compile never traces this code nor anything it calls (what torch._disable_dynamo(...,
    recursive=True) does per call, done once on the code object)."""
    from torch._C._dynamo.eval_frame import _FrameAction, _FrameExecStrategy, set_code_exec_strategy
    set_code_exec_strategy(code, _FrameExecStrategy(_FrameAction.SKIP, _FrameAction.SKIP))


class npu_semantics(TorchDispatchMode):  # noqa: N801 - a context manager, named like one
    """Under `with npu_semantics("ascend910b"):` (or "ascend950"), every CPU call of
    aten.threshold_backward (the backward of ReLU, nn.Threshold, F.relu, F.threshold) and of
    aten.threshold / threshold_ (the forward of nn.Threshold, F.threshold) runs through opsnn with
    that semantics, so an unchanged model's training step computes what the NPU kernels would.
    Other ops, and tensors that are not plain CPU tensors, go to torch as usual.

    forward: True (default) intercepts the forward too, False leaves it to torch.
    `calls` counts the intercepted calls by aten op name.

    An intercepted call runs the same Python body as the torch.ops.opsnn op's CPU kernel, called
    directly: inside the mode, below autograd, the custom op's own dispatch would only add cost.
    """

    def __init__(self, semantics: str, *, forward: bool = True):
        super().__init__()
        if semantics not in NPU_SEMANTICS:
            raise ValueError(f"npu_semantics takes {' or '.join(map(repr, NPU_SEMANTICS))}, not {semantics!r}")
        self.semantics = semantics
        self.forward = forward
        self.calls: Counter[str] = Counter()
        # func -> (its name for `calls`, how many leading args are tensors that must be CPU-dense, handler)
        self._handlers = {
            aten.threshold_backward.default: (2, self._backward),
            aten.threshold_backward.grad_input: (2, self._backward_out),
        }
        if forward:
            self._handlers.update({aten.threshold.default: (1, self._threshold),
                                   aten.threshold_.default: (1, self._threshold_),
                                   aten.threshold.out: (1, self._threshold_out)})
        for generic in _generic.OPS.values():
            packet = getattr(aten, generic.api.aten, None)
            if packet is None or (not forward and not generic.api.aten.endswith("_backward")):
                continue
            for overload in packet.overloads():
                if overload != "default" and not overload.endswith(("out", "grad_input")):
                    continue  # another signature: torch's own
                func = getattr(packet, overload)
                self._handlers[func] = (len(generic.tensors), self._generic_handler(generic))
        self._handlers = {func: (func.name(), *entry) for func, entry in self._handlers.items()}

    @classmethod
    def _should_skip_dynamo(cls) -> bool:
        # TorchDispatchMode wraps __torch_dispatch__ in torch._disable_dynamo (about 3-4 us on every
        # aten op, as much as the mode itself); where dynamo can mark the code object instead (see
        # _skip_dynamo below: the same protection, free when nothing is compiling), that is used
        return not _SKIP_BY_CODE

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        entry = self._handlers.get(func)
        if entry is None:
            return func(*args, **kwargs) if kwargs else func(*args)
        name, leading, handler = entry
        if not _cpu_dense(*args[:leading]) or (kwargs and not _cpu_dense(*kwargs.values())):
            return func(*args, **kwargs) if kwargs else func(*args)
        self.calls[name] += 1
        return handler(*args, **kwargs) if kwargs else handler(*args)

    def _generic_handler(self, generic):
        """aten.<op>.default -> the generic op's CPU body; an out overload (grad_input=, out=) -> the
        same, copied into the one tensor given by keyword."""
        real, semantics = generic._real, self.semantics

        def handle(*args, **kwargs):
            result = real(*args, semantics)
            if not kwargs:
                return result
            (target,) = kwargs.values()
            target.copy_(result)
            return target

        return handle

    def _backward(self, grad_output, self_, threshold):
        return _ops.eager_threshold_backward(grad_output, self_, threshold, self.semantics)

    def _backward_out(self, grad_output, self_, threshold, *, grad_input):
        return _ops.eager_threshold_backward_out(grad_output, self_, threshold, self.semantics, grad_input)

    def _threshold(self, x, threshold, value):
        return _ops.eager_threshold(x, threshold, value, self.semantics)

    def _threshold_(self, x, threshold, value):
        return _ops.eager_threshold_(x, threshold, value, self.semantics)

    def _threshold_out(self, x, threshold, value, *, out):
        return _ops.eager_threshold_out(x, threshold, value, self.semantics, out)


if _SKIP_BY_CODE:
    _skip_dynamo(npu_semantics.__torch_dispatch__.__code__)
