"""npu_semantics: aten's threshold ops on CPU computed with an NPU kernel's semantics.

While any npu_semantics context is open, the CPU kernels of the intercepted aten ops are overridden
(torch.library, in aten's namespace); the override asks the calling thread's innermost open context
for a handler and runs it, or runs torch's own kernel (torch.library.get_kernel, kept before the
override) where the thread has none or it does not intercept that op. The last context to close
removes the override: torch's kernels are back as they were.

Why not a TorchDispatchMode (what this was): a Python mode is entered for every aten op of a step,
not only the intercepted ones; at ~3 us an op, a do-nothing mode alone cost a 53-op MLP training step
1.10-1.19x plain torch. The override costs only the calls it intercepts (~2 us each for boxing).
"""
from __future__ import annotations

import threading
import warnings
from collections import Counter

import torch

from opsnn.torch import _generic, _ops

aten = torch.ops.aten
NPU_SEMANTICS = ("ascend910b", "ascend950")
# threshold's own overloads -> the npu_semantics method that answers each (the forward ones only
# with forward=True)
_BACKWARD = {aten.threshold_backward.default: "_backward", aten.threshold_backward.grad_input: "_backward_out"}
_FORWARD = {aten.threshold.default: "_threshold", aten.threshold_.default: "_threshold_",
            aten.threshold.out: "_threshold_out"}

_local = threading.local()  # .open: this thread's open npu_semantics contexts, innermost last


def _generic_ops(forward: bool):
    """(aten overload, GenericOp) for every declared operator's aten op and its out= overload."""
    for generic in _generic.OPS.values():
        packet = getattr(aten, generic.api.aten, None)
        if packet is None or (not forward and not generic.api.aten.endswith("_backward")):
            continue
        for overload in packet.overloads():
            if overload == "default" or overload.endswith(("out", "grad_input")):  # others: another signature
                yield getattr(packet, overload), generic


def _intercepted() -> list:
    """Every aten overload some npu_semantics may intercept."""
    return [*_BACKWARD, *_FORWARD, *(func for func, _ in _generic_ops(True))]


def _kernel(func, original):
    """The CPU kernel of `func` while the override is in place."""
    name = func.name()

    def kernel(keyset, *args, **kwargs):
        open_ = getattr(_local, "open", None)
        if open_:
            mode = open_[-1]
            handler = mode._handlers.get(func)
            if handler is not None:
                mode.calls[name] += 1
                return handler(*args, **kwargs)
        return original.call_boxed(keyset, *args, **kwargs)

    return kernel


class _Override:
    """The process's one override of the intercepted CPU kernels, in place while any context is open
    (in any thread): counted, under a lock."""

    def __init__(self):
        self._lock = threading.Lock()
        self._users = 0
        self._library = None

    def acquire(self) -> None:
        with self._lock:
            if self._users == 0:
                library = torch.library.Library("aten", "IMPL")
                with warnings.catch_warnings():  # torch warns once that an aten kernel is overridden: meant here
                    warnings.simplefilter("ignore")
                    for func in _intercepted():
                        original = torch.library.get_kernel(func, "CPU")
                        library.impl(func, _kernel(func, original), "CPU", with_keyset=True)
                self._library = library
            self._users += 1

    def release(self) -> None:
        with self._lock:
            self._users -= 1
            if self._users == 0:
                self._library._destroy()  # torch's own kernels answer again
                self._library = None


_OVERRIDE = _Override()


class npu_semantics:  # noqa: N801 - a context manager, named like one
    """Under `with npu_semantics("ascend910b"):` (or "ascend950"), every CPU call of
    aten.threshold_backward (the backward of ReLU, nn.Threshold, F.relu, F.threshold) and of
    aten.threshold / threshold_ (the forward of nn.Threshold, F.threshold) made by this thread runs
    through opsnn with that semantics, so an unchanged model's training step computes what the NPU
    kernels would. Other ops, other devices and other threads' calls are torch's.

    forward: True (default) intercepts the forward too, False leaves it to torch.
    `calls` counts the intercepted calls by aten op name.

    An intercepted call runs the same Python body as the torch.ops.opsnn op's CPU kernel, called
    directly from aten's CPU kernel (below autograd: the backward graph is recorded as usual).
    Contexts nest; the innermost answers. torch.compile keeps the interception where the compiled
    code calls aten's kernels (backend "eager", "aot_eager"); inductor generates its own loops.
    """

    def __init__(self, semantics: str, *, forward: bool = True):
        if semantics not in NPU_SEMANTICS:
            raise ValueError(f"npu_semantics takes {' or '.join(map(repr, NPU_SEMANTICS))}, not {semantics!r}")
        self.semantics = semantics
        self.forward = forward
        self.calls: Counter[str] = Counter()
        own = {**_BACKWARD, **_FORWARD} if forward else _BACKWARD
        self._handlers = {func: getattr(self, method) for func, method in own.items()}
        for func, generic in _generic_ops(forward):
            self._handlers[func] = self._generic_handler(generic)

    def __enter__(self):
        _OVERRIDE.acquire()
        open_ = getattr(_local, "open", None)
        if open_ is None:
            open_ = _local.open = []
        open_.append(self)
        return self

    def __exit__(self, *exc):
        open_ = _local.open
        del open_[len(open_) - 1 - open_[::-1].index(self)]  # this context's innermost entry
        _OVERRIDE.release()
        return False

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
