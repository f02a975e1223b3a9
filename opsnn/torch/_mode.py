"""npu_semantics: aten's threshold ops on CPU computed with an NPU kernel's semantics.

How the calls are intercepted: the intercepted aten ops get a kernel under one dispatch key that
torch leaves unused (`Fake`, reserved for a C++ FakeTensor mode: no kernel, no fallback and in no
alias set in torch 2.13), registered once per process at the first context, never removed; every
other op falls through that key. Entering a context adds the key to the entering thread's included
keys (a thread-local set) and leaving removes it, so only that thread's calls reach the kernel, which
asks the thread's innermost open context for a handler and runs it, or redispatches to torch's own
kernel below the key (another device, an op the context does not intercept).

Why not override the CPU kernels while a context is open (what this was): registering and removing a
kernel rewrites the op's dispatch table while other threads dispatch through it; a thread that had
looked up the override ran it after it was freed (SIGSEGV, issue 27 item 0). Here enter and leave
write only thread-local state; the one registration happens once, in a slot no thread without a
context reads. Why not a TorchDispatchMode: a Python mode is entered for every aten op of a step;
at ~3 us an op, a do-nothing mode alone cost a 53-op MLP training step 1.10-1.19x plain torch. The
key costs only the calls it intercepts (~2 us each for boxing).
"""
from __future__ import annotations

import threading
import warnings
from collections import Counter

import torch

from opsnn.torch import _compile, _generic, _ops

aten = torch.ops.aten
NPU_SEMANTICS = ("ascend910b", "ascend950")
# threshold's own overloads -> the npu_semantics method that answers each (the forward ones only
# with forward=True)
_BACKWARD = {aten.threshold_backward.default: "_backward", aten.threshold_backward.grad_input: "_backward_out",
             # nn.SELU's backward: elu_backward with SELU's constants (other ELUs: torch's, NotImplemented)
             aten.elu_backward.default: "_selu_backward", aten.elu_backward.grad_input: "_selu_backward_out"}
SELU_ALPHA, SELU_SCALE = 1.6732632423543772848170429916717, 1.0507009873554804934193349852946  # torch's, as doubles
_FORWARD = {aten.threshold.default: "_threshold", aten.threshold_.default: "_threshold_",
            aten.threshold.out: "_threshold_out"}

_local = threading.local()  # .open: this thread's open npu_semantics contexts, innermost last


def _generic_ops(forward: bool):
    """(aten overload, GenericOp) for every declared operator's aten op and its out= overload."""
    for generic in _generic.OPS.values():
        packet = getattr(aten, generic.api.aten, None) if generic.api.aten else None
        if packet is None or (not forward and not generic.api.aten.endswith("_backward")):
            continue
        for overload in packet.overloads():
            if overload == "default" or overload.endswith(("out", "grad_input")):  # others: another signature
                yield getattr(packet, overload), generic


def _intercepted() -> list:
    """Every aten overload some npu_semantics may intercept."""
    return [*_BACKWARD, *_FORWARD, *(func for func, _ in _generic_ops(True))]


_KEY = torch._C.DispatchKey(12)  # c10's DispatchKey::Fake (pybind11 does not name it)
_BELOW = torch._C._dispatch_keyset_full_after(_KEY)


def _kernel(func):
    """The kernel of `func` under _KEY: reached only by threads with a context open."""
    name = func.name()

    def kernel(keyset, *args, **kwargs):
        open_ = getattr(_local, "open", None)
        if open_ and (keyset & _BELOW).highestPriorityTypeId() == _CPU:
            mode = open_[-1]
            handler = mode._handlers.get(func)
            if handler is not None:
                result = handler(*args, **kwargs)
                if result is not NotImplemented:  # a call the handler leaves to torch (an ELU, not SELU)
                    mode.calls[name] += 1
                    return result
        return func.redispatch(keyset & _BELOW, *args, **kwargs)

    return kernel


_CPU = torch._C.DispatchKey.CPU


class _Registration:
    """The kernels under _KEY and the fall-through for every other op: once per process, kept."""

    def __init__(self):
        self._lock = threading.Lock()
        self._libraries = None

    def ensure(self) -> None:
        if self._libraries is not None:
            return
        with self._lock:
            if self._libraries is not None:
                return
            if "Fake" not in repr(torch._C.DispatchKeySet(_KEY)) or torch._C._dispatch_has_backend_fallback(_KEY):
                raise RuntimeError(f"npu_semantics needs the dispatch key Fake unused; torch {torch.__version__} "
                                   "uses it (opsnn.torch is tested with torch 2.13)")
            fallthrough = torch.library.Library("_", "IMPL")
            fallthrough.fallback(torch.library.fallthrough_kernel, "Fake")
            kernels = torch.library.Library("aten", "IMPL")
            with warnings.catch_warnings():  # torch warns once that an aten kernel is overridden: meant here
                warnings.simplefilter("ignore")
                for func in _intercepted():
                    kernels.impl(func, _kernel(func), "Fake", with_keyset=True)
            self._libraries = (fallthrough, kernels)


_REGISTRATION = _Registration()


def _intercepts(func) -> bool:
    """Does the calling thread's innermost open context take `func` (None: is one open)."""
    open_ = getattr(_local, "open", None)
    return bool(open_) and (func is None or func in open_[-1]._handlers)


class npu_semantics:  # noqa: N801 - a context manager, named like one
    """Under `with npu_semantics("ascend910b"):` (or "ascend950"), every CPU call of
    aten.threshold_backward (the backward of ReLU, nn.Threshold, F.relu, F.threshold), of
    aten.elu_backward with SELU's constants (nn.SELU's backward), of each declared operator's aten
    op (leaky_relu_backward, hardtanh_backward, sigmoid_backward...) and of
    aten.threshold / threshold_ (the forward of nn.Threshold, F.threshold) made by this thread runs
    through opsnn with that semantics, so an unchanged model's training step computes what the NPU
    kernels would. Other ops, other devices and other threads' calls are torch's.

    forward: True (default) intercepts the forward too, False leaves it to torch.
    `calls` counts the intercepted calls by aten op name.

    An intercepted call runs the same Python body as the torch.ops.opsnn op's CPU kernel, called
    directly from its kernel below autograd (the backward graph is recorded as usual).
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
        _REGISTRATION.ensure()
        _compile.watch(_intercepted(), _intercepts)  # inductor bypasses the mode: warn (once)
        open_ = getattr(_local, "open", None)
        if open_ is None:
            open_ = _local.open = []
        if not open_:  # this thread's first: its calls reach the kernels from now on
            _local.had_key = torch._C._dispatch_tls_is_dispatch_key_included(_KEY)
            torch._C._dispatch_tls_set_dispatch_key_included(_KEY, True)
        open_.append(self)
        return self

    def __exit__(self, *exc):
        open_ = _local.open
        del open_[len(open_) - 1 - open_[::-1].index(self)]  # this context's innermost entry
        if not open_:
            torch._C._dispatch_tls_set_dispatch_key_included(_KEY, _local.had_key)
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

    def _selu_backward(self, grad_output, alpha, scale, input_scale, is_result, self_or_result):
        """aten.elu_backward with SELU's alpha, scale and input_scale 1 -> aclnnSeluBackward on the
        forward's result: given (is_result, the in-place nn.SELU), else elu(x) recomputed by torch
        as the forward computed it (nn.SELU saves its input); other ELUs: NotImplemented."""
        if (alpha, scale, input_scale) != (SELU_ALPHA, SELU_SCALE, 1):
            return NotImplemented
        result = self_or_result if is_result else aten.elu.default(self_or_result, alpha, scale, input_scale)
        return _generic.OPS["selu_backward"]._real(grad_output, result, self.semantics)

    def _selu_backward_out(self, grad_output, alpha, scale, input_scale, is_result, self_or_result, *, grad_input):
        result = self._selu_backward(grad_output, alpha, scale, input_scale, is_result, self_or_result)
        return result if result is NotImplemented else grad_input.copy_(result)

    def _threshold(self, x, threshold, value):
        return _ops.eager_threshold(x, threshold, value, self.semantics)

    def _threshold_(self, x, threshold, value):
        return _ops.eager_threshold_(x, threshold, value, self.semantics)

    def _threshold_out(self, x, threshold, value, *, out):
        return _ops.eager_threshold_out(x, threshold, value, self.semantics, out)
