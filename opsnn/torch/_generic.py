"""torch.ops.opsnn.<name> for every registered operator whose aclnn declaration names its numpy
API (AclnnApi.numpy_api; the aten op it mirrors, AclnnApi.aten, where there is one: npu_semantics
intercepts that op), with no code per operator:
the schema comes from the declaration (tensors -> Tensor, scalars -> Scalar, attrs -> their C
type), the real implementation calls the numpy API on zero-copy views, the fake one runs it on
1-element stand-ins (dtype, shape and errors as eager), and an elementwise backward ("*_backward",
linear in its first tensor) differentiates as aten does: d/d(grad) is the op itself.

threshold_backward and threshold keep their hand-written ops (_ops.py: out= and in-place
variants); the generic ones are the functional form, which is what npu_semantics needs."""
from __future__ import annotations

import keyword

import numpy as np
import torch

import opsnn
from opsnn import registry
from opsnn.aclnn import signature as sig
from opsnn.aclnn.declarations import all_apis
from opsnn.torch._convert import from_numpy, to_numpy
from opsnn.torch._ops import _check_semantics, _result, _stand_in, _torch_errors

HAND_WRITTEN = frozenset({"threshold_backward", "threshold"})  # _ops.py
_ATTR_SCHEMA = {"bool": "bool", "int64_t": "int", "double": "float", "float": "float"}


def _snake(name: str) -> str:
    out = "".join(f"_{c.lower()}" if c.isupper() else c for c in name).lstrip("_")
    # `self` is not a schema argument name torch accepts, nor a Python keyword (upstream's `lambda`)
    return f"{out}_" if out == "self" or keyword.iskeyword(out) else out


def _schema(api: sig.AclnnApi) -> str:
    args = []
    for p in api.inputs:
        if p.kind in (sig.TENSOR, sig.REF):
            args.append(f"Tensor {_snake(p.name)}")
        elif p.kind == sig.SCALAR:
            args.append(f"Scalar {_snake(p.name)}")
        elif p.kind == sig.ATTR:
            args.append(f"{_ATTR_SCHEMA[p.c_type]} {_snake(p.name)}")
        else:
            raise ValueError(f"{api.name}: parameter kind {p.kind} has no torch schema here")
    # semantics positional (with its default), as in _ops.py: autograd's setup sees it
    return f"({', '.join(args)}, str semantics=\"torch\") -> Tensor"


class GenericOp:
    """One declared API as a torch custom op: `torch.ops.opsnn.<numpy_api>`."""

    def __init__(self, api: sig.AclnnApi, library: torch.library.Library):
        self.api, self.name = api, api.numpy_api
        self.tensors = [i for i, p in enumerate(api.inputs) if p.kind in (sig.TENSOR, sig.REF)]
        self.numpy = getattr(opsnn, api.numpy_api)
        library.define(f"{self.name}{_schema(api)}")
        library.impl(self.name, self._real, "CPU")
        torch.library.register_fake(f"opsnn::{self.name}", self._fake, lib=library)
        if (api.aten or api.numpy_api).endswith("_backward"):
            torch.library.register_autograd(f"opsnn::{self.name}", self._backward, setup_context=self._setup,
                                            lib=library)

    @property
    def op(self):
        return getattr(torch.ops.opsnn, self.name).default

    def _call(self, args, semantics: str):
        _check_semantics(semantics)
        return _torch_errors(self.numpy, *args, semantics=semantics)

    def _split(self, args):
        n = len(self.api.inputs)
        return args[:n], (args[n] if len(args) > n else "torch")

    def _real(self, *args):
        args, semantics = self._split(args)
        values = [to_numpy(a) if i in self.tensors else a for i, a in enumerate(args)]
        return _result(self._call(values, semantics))

    def _fake(self, *args):
        args, semantics = self._split(args)
        values = [_stand_in(a) if i in self.tensors else a for i, a in enumerate(args)]
        dtype = from_numpy(np.asarray(self._call(values, semantics))).dtype
        shape = torch.broadcast_shapes(*(args[i].shape for i in self.tensors))
        return torch.empty(shape, dtype=dtype, device=args[self.tensors[0]].device)

    def _setup(self, ctx, inputs, output):
        ctx.save_for_backward(*(inputs[i] for i in self.tensors))
        ctx.others = [None if i in self.tensors else a for i, a in enumerate(inputs)]

    def _backward(self, ctx, grad):
        # linear in its first tensor (the incoming gradient): the derivative there is the op
        # itself on the new gradient. A selection (threshold, hardtanh, leaky) only selects or
        # scales by its other inputs (zero a.e.); an arithmetic op (AclnnApi.arithmetic: sigmoid's
        # dy*y*(1-y)) is not constant in them: their derivative is torch's own op's
        saved = ctx.saved_tensors
        args = list(ctx.others)
        args[self.tensors[0]] = grad
        for i, t in zip(self.tensors[1:], saved[1:], strict=True):
            args[i] = t
        grads = [self.op(*args)] + [None] * (len(args) - 1)
        wanted = [i for i in self.tensors[1:] if ctx.needs_input_grad[i]]
        if self.api.arithmetic and wanted:
            for i, g in zip(wanted, self._other_grads(ctx, saved, wanted, grad), strict=True):
                grads[i] = g
        return tuple(grads)

    def _other_grads(self, ctx, saved, wanted: list[int], grad) -> tuple:
        if not self.api.aten:
            names = ", ".join(self.api.inputs[i].name for i in wanted)
            raise RuntimeError(f"torch.ops.opsnn.{self.name}: its gradient with respect to {names} is not "
                               "implemented (the op is arithmetic in it and mirrors no aten op)")
        with torch.enable_grad():
            ins = [t.detach().requires_grad_(i in wanted) for i, t in zip(self.tensors, saved, strict=True)]
            args = list(ctx.others)
            for i, t in zip(self.tensors, ins, strict=True):
                args[i] = t
            out = getattr(torch.ops.aten, self.api.aten)(*args[:len(self.api.inputs)])
            return torch.autograd.grad(out, [ins[self.tensors.index(i)] for i in wanted], grad)


def register() -> dict[str, GenericOp]:
    """Define every generic op once per process; the ops by name."""
    library = torch.library.Library("opsnn", "FRAGMENT")
    ops = {}
    registry.discover()
    for api in all_apis():
        if api.numpy_api and api.numpy_api not in HAND_WRITTEN:  # no aten op (selu_backward) too
            ops[api.numpy_api] = GenericOp(api, library)
    _LIBRARIES.append(library)  # a Library unregisters its ops when collected
    return ops


_LIBRARIES: list = []
OPS = register()  # at import of opsnn.torch, as the hand-written ops
