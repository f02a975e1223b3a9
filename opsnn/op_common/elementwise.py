"""One builder for every elementwise operator's numpy function (opsnn.<name>): the operator
declares its tensors, its scalars and, per semantics, its rule; the builder writes the function.

    leaky_relu_backward = build(Elementwise(
        name="leaky_relu_backward", tensors=("grad", "x"),
        scalars=(Scalar("negative_slope", 0.0, read_slope), Scalar("self_is_result", False, read_flag)),
        torch=Rule(plan=torch_plan, run=torch_run),
        ascend=Rule(plan=ascend_plan, run=ascend_run, emulator=True),
        doc=__doc__))

What every generated function does, in this order (and so what no operator writes):
  1. backend="auto": the express entry, no checks (`express`: the engine's memo of Lanes by
     semantics, dtypes and Python scalars, lanes.express; or the operator's own hook)
  2. the semantics and backend names (check_names: TypeError / ValueError)
  3. each scalar read by its reader (default: api_args.real_scalar), then each tensor
     (operands.operand: native byte order, opsnn's ValueError where numpy cannot read it)
  4. backend="emulator" refused where the semantics' rule has none
  5. torch semantics: calls of rank above numpy's 32 folded (operands.fold_rank) and answered
     by the same function on the folded operands
  6. rule.plan(call) -> anything with .dtype and .shape (the result's); the operator's checks
  7. out= checked against them (api_args.check_out: dtype TypeError, shape/read-only ValueError)
  8. rule.run(call, plan) -> the result (in `out` where given). `call.remember(answer)` teaches the
     express entry (only where the call may: backend "auto", operands of one dtype and shape,
     scalars that make a memo key); `call.deliver(result)` copies into out.

Rules for the common case need no plan or run of their own: `TorchRule` (torch's promotion,
its kernel dtypes, scalars as torch's opmath type, broadcasting, the vectorised/scalar loop
split) and `AscendRule` (an aclnn API's dtype list per SoC, promotion or one dtype, broadcast
or one shape, rank <= 8, scalars as aclScalar::ToFloat) take an element rule
`compute(call, *tensors_cast, *scalars_converted) -> array` and, optionally, the engine's
`lane(call) -> Lane | None`. docs/operators.md §"The numpy function" has the whole API.
"""
from __future__ import annotations

import linecache
import math
import numbers
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np

from opsnn.dtypes import bfloat16
from opsnn.engine import lanes
from opsnn.engine.modes import CYCLIC as _CYCLIC
from opsnn.op_common import torch_promotion
from opsnn.op_common.api_args import check_names, check_out, deliver, real_scalar
from opsnn.op_common.operands import broadcast_shape, fold_rank, operand

BACKENDS = ("auto", "fast", "emulator", "reference")
REQUIRED = object()  # a Scalar without a default
EMULATOR_TORCH = 'backend="emulator" runs the ascend semantics only'
MAX_RANK = 8  # aclnn's tensors
_F16, _F32, _F64 = np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64)
FLOATS = (_F16, bfloat16, _F32, _F64)


read_real = real_scalar  # the default scalar reader (value, name): a real number (a 0-d array: its element)


def read_flag(value, name: str) -> bool:
    """A bool attribute: bool, numpy bool, or the integers 0 / 1 (a 0-d array: its element)."""
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value[()]
    if isinstance(value, bool | np.bool_) or (isinstance(value, numbers.Integral) and int(value) in (0, 1)):
        return bool(value)
    raise TypeError(f"{name} must be a bool, not {type(value).__name__} {value!r}")


@dataclass(frozen=True)
class Scalar:
    """A scalar parameter: its name, default (REQUIRED: none) and reader (value, name) -> value,
    raising TypeError / ValueError for what the operator refuses; `annotation` for the signature."""
    name: str
    default: Any = REQUIRED
    read: Callable = read_real
    annotation: str = "Scalar"


@dataclass(frozen=True)
class Rule:
    """One semantics' part of an operator: plan(call) -> .dtype/.shape, run(call, plan) -> result.
    emulator: whether backend="emulator" runs it (run sees call.backend == "emulator");
    fold: torch's rank folding (operands of rank above 32 folded to their size>1 axes)."""
    plan: Callable
    run: Callable
    emulator: bool = False
    fold: bool = True


class Call(NamedTuple):
    """One call on the general way, as plan and run read it (built by the generated function)."""
    semantics: str
    backend: str
    tensors: tuple  # the operands as arrays (operands.operand), in declaration order
    scalars: tuple  # the scalars as their readers returned them
    raw: tuple      # the scalars as passed (the express entry's key is made of these)
    out: np.ndarray | None
    spec: Any       # the Elementwise declaration
    memo: dict | None  # the express entry's memo (express="memo"), else None

    def memo_key(self):
        """The express entry's key for this call, or None where it may not teach it: not
        backend "auto", no memo, operands of several dtypes or shapes, a scalar that makes no key."""
        if self.backend != "auto" or self.memo is None or len(self.tensors) != 2:
            return None
        a, b = self.tensors
        if a.dtype != b.dtype or a.shape != b.shape:
            return None
        return lanes.memo_key(self.semantics, a, b, *self.raw)

    def remember(self, answer, key=None) -> None:
        """Teach the express entry: `answer(*tensors, out)` answers the next call like this one
        (a Lane, or a callable returning None where it declines)."""
        key = key if key is not None else self.memo_key()
        if key is not None and answer is not None:
            lanes.remember(self.memo, key, answer)

    def deliver(self, result: np.ndarray) -> np.ndarray:
        """The result, or out with the result copied into it."""
        return deliver(result, self.out)


@dataclass(frozen=True)
class Elementwise:
    """An operator's numpy function, declared. express: "memo" (lanes.express on a memo of this
    operator: two tensors of one shape), None (no express entry), or a hook called as
    hook(*tensors, *scalars, semantics, out) -> result or None (it checks its operands' types).
    keywords: the keyword-only parameters' order in the signature."""
    name: str
    tensors: tuple[str, ...]
    scalars: tuple[Scalar, ...]
    torch: Rule
    ascend: Rule
    doc: str = ""
    backends: tuple[str, ...] = BACKENDS
    express: Any = "memo"
    keywords: tuple[str, ...] = ("semantics", "backend", "out")
    module: str | None = None  # __module__ of the function (default: the caller's)
    memo: dict = field(default_factory=dict, compare=False)  # the express entry's memo (express="memo")


_KEYWORD_DEFAULTS = {"semantics": '"torch"', "backend": '"auto"', "out": "None"}
_KEYWORD_ANNOTATIONS = {"semantics": "Semantics", "backend": "Backend", "out": "np.ndarray | None"}


def build(spec: Elementwise) -> Callable:
    """The numpy function of `spec`: generated Python (as dataclasses writes __init__), so that
    it costs what a hand-written function does: no loops over the parameters at call time."""
    tensors, scalars = spec.tensors, tuple(s.name for s in spec.scalars)
    if len(set(tensors + scalars + spec.keywords)) != len(tensors + scalars + spec.keywords) or not all(
            n.isidentifier() and not n.startswith("_") for n in tensors + scalars):
        raise ValueError(f"{spec.name}: parameter names must be distinct identifiers not starting with _")
    params, namespace = list(tensors), {}
    for i, s in enumerate(spec.scalars):
        namespace[f"_r{i}"] = s.read
        if s.default is REQUIRED:
            params.append(s.name)
        else:
            namespace[f"_d{i}"] = s.default
            params.append(f"{s.name}=_d{i}")
    params.append("*")
    params += [f"{k}={_KEYWORD_DEFAULTS[k]}" for k in spec.keywords]
    t, a = ", ".join(tensors), ", ".join((*tensors, *scalars))
    sc = "".join(f"{n}, " for n in scalars)  # the scalars as leading items of a tuple or an argument list
    lines = [f"def {spec.name}({', '.join(params)}):"]
    if spec.express is not None:
        call = f"_express(_memo, semantics, {t}, out, {sc})" if spec.express == "memo" else \
            f"_express({a}, semantics, out)"
        lines += ["    if backend == 'auto':", f"        result = {call}", "        if result is not None:",
                  "            return result"]
    lines.append(f"    return _general(semantics, backend, out, {a})")
    # the general way (steps 2-8 of the module doc)
    lines += [f"def _general(semantics, backend, out, {a}):",
              "    _check_names(semantics, backend, _backends)",
              f"    raw = ({sc})"]
    lines += [f"    {n} = _r{i}({n}, {n!r})" for i, n in enumerate(scalars)]
    lines += [f"    {n} = _operand({n}, {n!r})" for n in tensors]
    lines += ["    rule = _torch if semantics == 'torch' else _ascend",
              "    if backend == 'emulator' and not rule.emulator:",
              "        raise ValueError(_EMULATOR_TORCH)",
              f"    if semantics == 'torch' and rule.fold and (wide := _fold_rank(({t},), out)) is not None:",
              "        folded, folded_out, shape = wide",
              f"        result = {spec.name}(*folded, {sc}semantics=semantics, backend=backend, "
              "out=folded_out)",
              "        return out if out is not None else result.reshape(shape)",
              f"    call = _new(_Call, (semantics, backend, ({t},), ({sc}), raw, out, _spec, _memo))",
              "    plan = rule.plan(call)",
              "    _check_out(out, plan.dtype, plan.shape)",
              "    return rule.run(call, plan)"]
    namespace.update(_express=lanes.express if spec.express == "memo" else spec.express, _backends=spec.backends,
                     _memo=spec.memo if spec.express == "memo" else None, _torch=spec.torch, _ascend=spec.ascend,
                     _spec=spec, _check_names=check_names, _operand=operand, _fold_rank=fold_rank, _Call=Call,
                     _check_out=check_out, _EMULATOR_TORCH=EMULATOR_TORCH, _new=tuple.__new__)
    # a file name in this package (tracebacks name opsnn's code), its source in linecache (they show it)
    source, filename = "\n".join(lines) + "\n", os.path.join(os.path.dirname(__file__), f"<elementwise {spec.name}>")
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    exec(compile(source, filename, "exec"), namespace)  # noqa: S102 - our own source, from identifiers checked above
    function = namespace[spec.name]
    function.__doc__ = spec.doc
    function.__module__ = spec.module or sys._getframe(1).f_globals.get("__name__", __name__)
    function.__annotations__ = {**{n: "npt.ArrayLike" for n in tensors},
                                **{s.name: s.annotation for s in spec.scalars},
                                **{k: _KEYWORD_ANNOTATIONS[k] for k in spec.keywords}, "return": "np.ndarray"}
    function.spec = spec
    return function


# -- the common rules: torch's CPU kernel, an aclnn API -----------------------------------------

class Plan(NamedTuple):
    dtype: np.dtype  # the result's; the operands are cast to it
    shape: tuple     # the broadcast shape
    scalars: tuple = ()  # the scalars as the kernel sees them


def torch_scalar(value, dtype: np.dtype, name: str):
    """torch's Scalar.to<opmath_t>() for a floating kernel: float64 for float64, else float32
    (c10's checked conversion: a finite value beyond float32's range is a ValueError)."""
    if isinstance(value, numbers.Integral | np.bool_) and not isinstance(value, np.floating):
        v = int(value)
        if not -(2**63) <= v < 2**64:
            raise ValueError(f"{name} {v} does not fit a 64-bit integer")
        return np.array(v, np.int64 if v < 2**63 else np.uint64).astype(_F64 if dtype == _F64 else _F32)[()]
    v = float(value)
    if dtype == _F64:
        return np.float64(v)
    if math.isfinite(v) and abs(v) > float(np.finfo(np.float32).max):
        raise ValueError(f"{name} {v!r} cannot be converted to float32 without overflow")
    return np.float32(v)


def torch_scalar_as_dtype(value, dtype: np.dtype, name: str):
    """torch's Scalar.to<scalar_t>() (a kernel that converts its attribute to the tensors' own
    dtype, as softshrink_backward does): c10's checked conversion refuses a finite value beyond
    the dtype's range (7e4 for float16: ValueError); halves go through float, as c10::Half(float)."""
    wide = torch_scalar(value, dtype, name)  # float32 (halves, float32) or float64
    if dtype == wide.dtype:
        return wide
    limit = float(np.finfo(np.float16).max) if dtype == _F16 else float(bfloat16.type(np.finfo(np.float32).max))
    if math.isfinite(float(value)) and abs(float(value)) > limit:
        raise ValueError(f"{name} {float(value)!r} cannot be converted to {dtype} without overflow")
    with np.errstate(over="ignore"):
        return wide.astype(dtype)


def acl_to_float(value) -> np.float32:
    """aclScalar::ToFloat: a C++ conversion to float (nearest even; beyond range +-inf)."""
    if isinstance(value, numbers.Integral | np.bool_) and not isinstance(value, np.floating):
        v = int(value)
        return np.array(v, np.int64 if v < 2**63 else np.uint64).astype(_F32)[()]
    with np.errstate(over="ignore"):
        return np.float32(float(value))


def _cast(call: Call, dtype: np.dtype) -> tuple:
    with np.errstate(over="ignore", invalid="ignore"):  # a promotion's overflow is inf, as torch's
        return tuple(a.astype(dtype, copy=False) for a in call.tensors)


def _apply(compute, call: Call, plan: Plan) -> np.ndarray:
    """compute(call, *operands, *scalars) on the operands cast to plan.dtype and broadcast: a
    fresh array (out is written only afterwards: it may be an operand)."""
    arrays = _cast(call, plan.dtype)
    if any(a.shape != plan.shape for a in arrays):
        arrays = np.broadcast_arrays(*arrays)
    with np.errstate(all="ignore"):
        result = np.asarray(compute(call, *arrays, *plan.scalars), dtype=plan.dtype)
    if result.shape != plan.shape:
        return np.broadcast_to(result, plan.shape).copy()
    return result.copy() if any(np.may_share_memory(result, t) for t in call.tensors) else result


def engine_lane(make, call: Call, plan: Plan, max_rank: int):
    """The engine's Lane for a rule's element rule: make(call, plan) -> its params (engine.modes.params)
    or None; None where the engine is not in use, the backend is the reference, or the params keep
    nothing (the engine has no lane for that: the compute answers). max_rank: the semantics' limit
    (the Lane declines a call above it, the express entry too)."""
    if make is None or call.backend == "reference" or lanes.compiled() is None:
        return None
    params = make(call, plan)
    if params is None or (not params[-1] & _CYCLIC and params[0] > params[1] and params[2] > params[3]):
        return None
    return lanes.lane(plan.dtype, tuple(params), max_rank=max_rank)


def _compute(rule, call: Call, plan: Plan, max_rank: int) -> np.ndarray:
    """The rule's lane where it has one and the engine answers (the express entry learns it), else
    its compute; delivered into out."""
    lane = engine_lane(rule.lane, call, plan, max_rank)
    if lane is not None:
        result = lanes.run(lane, *call.tensors, plan.dtype, call.out)
        if result is not None:
            if result.size:  # an empty call teaches nothing (a check may pass it alone: aclnn launches nothing)
                call.remember(lane)
            return result
    return call.deliver(_apply(rule.compute, call, plan))


@dataclass(frozen=True)
class TorchRule:
    """torch's CPU kernel for `op` (its aten name): the operands' common dtype (torch.result_type),
    which must be one of `dtypes`; the broadcast shape; each scalar converted by `scalar` (default
    torch_scalar, the opmath type; torch_scalar_as_dtype for a kernel that converts to scalar_t);
    compute(call, *cast, *scalars) -> the result (halves: compute widens and rounds once, as
    torch's opmath does). Where torch's two loop bodies differ (NaNs, usually), compute is the
    vectorised body and scalar_compute the scalar one, for the elements torch_loops says run
    scalar (the operands' layout decides; `step_bytes` per vectorised step). lane / scalar_lane:
    (call, plan) -> the engine's params for compute / scalar_compute, or None (engine_lane)."""
    op: str
    compute: Callable
    dtypes: tuple = FLOATS
    lane: Callable | None = None
    scalar_compute: Callable | None = None
    scalar_lane: Callable | None = None
    scalar: Callable = torch_scalar
    step_bytes: int = 64
    emulator: bool = False
    fold: bool = True

    def plan(self, call: Call) -> Plan:
        for a in call.tensors:
            if a.dtype not in torch_promotion.KNOWN:
                raise TypeError(f"{self.op} does not support dtype {a.dtype}")
        dtype = torch_promotion.result_type(*call.tensors)
        shape = broadcast_shape(*(a.shape for a in call.tensors))
        if dtype not in self.dtypes:
            raise TypeError(f"{self.op} is not implemented for {dtype} (torch: "
                            f"{', '.join(str(d) for d in self.dtypes)} only)")
        names = (s.name for s in call.spec.scalars)
        return Plan(dtype, shape, tuple(self.scalar(v, dtype, n) for v, n in zip(call.scalars, names, strict=True)))

    def run(self, call: Call, plan: Plan) -> np.ndarray:
        if self.scalar_compute is None:
            return _compute(self, call, plan, lanes.ANY_RANK)
        from opsnn.op_common import torch_loops
        itemsize = max(plan.dtype.itemsize * 64 // self.step_bytes, 1)
        lane = engine_lane(self.lane, call, plan, lanes.ANY_RANK)
        if all(t.shape == plan.shape and t.flags.c_contiguous for t in call.tensors):
            scalar_lane = engine_lane(self.scalar_lane, call, plan, lanes.ANY_RANK)
            result = _split_run(self, call, plan.dtype, plan.scalars, itemsize, call.tensors, call.out, lane,
                                scalar_lane)
            if lane is not None and result is not None:
                call.remember(_split_answer(self, call, plan, itemsize, lane, scalar_lane))
            return result
        vector = torch_loops.torch_vector_mask(call.tensors, plan.dtype, itemsize)
        result = lanes.run(lane, *call.tensors, plan.dtype, None) if lane is not None else None
        if result is None:
            result = _apply(self.compute, call, plan)
        if not vector.all():
            np.copyto(result, _apply(self.scalar_compute, call, plan), where=~vector)
        return call.deliver(result)


def _split_run(rule: TorchRule, call: Call, dtype: np.dtype, scalars: tuple, itemsize: int, tensors: tuple, out,
               lane, scalar_lane):
    """torch's loop on C-contiguous operands of one shape: the vectorised body (lane, else
    compute) over all, then the scalar body over each thread range's tail (torch_scalar_runs),
    each computed from the operands before out (which may be one of them) is written. None where
    the lane declines (an express call it is not for)."""
    from opsnn.op_common.torch_loops import torch_scalar_runs
    runs = torch_scalar_runs(tensors[0].size, itemsize)
    tails = []
    for a, b in runs:
        piece = tuple(t.reshape(-1)[a:b] for t in tensors)
        answer = lanes.run(scalar_lane, *piece, dtype, None) if scalar_lane is not None else None
        if answer is None:
            answer = _apply(rule.scalar_compute, call._replace(tensors=piece, out=None), Plan(dtype, (b - a,), scalars))
        tails.append((a, b, answer))
    direct = out is None or out.flags.c_contiguous
    if lane is not None:
        result = lanes.run(lane, *tensors, dtype, out if direct else None)
        if result is None:
            return None
    else:
        result = _apply(rule.compute, call, Plan(dtype, tensors[0].shape, scalars))
        direct = False
    flat = result.reshape(-1)
    for a, b, answer in tails:
        flat[a:b] = answer
    return result if direct else deliver(result, out)


def _split_answer(rule: TorchRule, call: Call, plan: Plan, itemsize: int, lane, scalar_lane):
    """The express entry's answer for a rule with two bodies: (a, b, out) -> the result of _split_run
    on C-contiguous operands, else None (the general way models any other layout)."""
    template = call._replace(tensors=(), out=None)

    def answer(*args):
        *tensors, out = args
        if not all(t.flags.c_contiguous for t in tensors):
            return None
        return _split_run(rule, template, plan.dtype, plan.scalars, itemsize, tuple(tensors), out, lane, scalar_lane)
    return answer


@dataclass(frozen=True)
class AscendRule:
    """An aclnn API on an Ascend SoC: every tensor's dtype in dtypes(semantics) (names, as the
    API's list), promoted together (promote=True: torch.promote_types; a callable (a, b) -> dtype:
    the API's own, e.g. op::PromoteType with complex) or required equal, the promoted dtype in the
    list too (TypeError); shapes broadcast (broadcast=True) or required equal; rank <= max_rank
    (None: any, for an API that reshapes a longer tensor to 1-d, as aclnnSeluBackward does); each
    scalar as aclScalar::ToFloat; then check(call, plan): the API's own refusals of a scalar value
    (raise ValueError, as aclnn's 161002 of KIND_ATTR reads).
    compute(call, *cast, *scalars) -> the kernel's result; lane(call, plan) -> the engine's params
    for it (engine_lane; the Lane declines rank > 8). emulator_run(call, plan) -> the result
    computed by the aclnn API on the emulated device (None: backend="emulator" is refused)."""
    api: str
    compute: Callable
    dtypes: Callable  # semantics -> tuple of dtype names
    promote: bool | Callable = True
    broadcast: bool = True
    lane: Callable | None = None
    emulator_run: Callable | None = None
    fold: bool = False
    check: Callable | None = None
    max_rank: int | None = MAX_RANK

    @property
    def emulator(self) -> bool:
        return self.emulator_run is not None

    def plan(self, call: Call) -> Plan:
        family, arrays = call.semantics, call.tensors
        allowed = self.dtypes(family)
        for name, a in zip(call.spec.tensors, arrays, strict=True):
            if a.dtype.name not in allowed:
                raise TypeError(f"{family}: {name} dtype {a.dtype} is not in {self.api}'s list [{', '.join(allowed)}]")
        if not self.promote and len({a.dtype for a in arrays}) > 1:
            raise TypeError(f"{family}: {self.api} takes operands of one dtype, not "
                            f"{' and '.join(str(a.dtype) for a in arrays)}")
        for name, a in zip(call.spec.tensors, arrays, strict=True):
            if self.max_rank is not None and a.ndim > self.max_rank:
                raise ValueError(f"{family}: {name} has rank {a.ndim}, more than {self.max_rank}")
        if not self.broadcast and len({a.shape for a in arrays}) > 1:
            raise ValueError(f"{family}: {self.api} takes operands of one shape, not "
                             f"{' and '.join(str(a.shape) for a in arrays)}")
        shape = broadcast_shape(*(a.shape for a in arrays))
        dtype, promote = arrays[0].dtype, self.promote if callable(self.promote) else torch_promotion.promote_types
        for a in arrays[1:]:
            dtype = promote(dtype, a.dtype)
        if dtype.name not in allowed:
            raise TypeError(f"{family}: {self.api} promotes the operands to {dtype}, which is not in its list")
        plan = Plan(dtype, shape, tuple(acl_to_float(v) for v in call.scalars))
        if self.check is not None:
            self.check(call, plan)
        return plan

    def run(self, call: Call, plan: Plan) -> np.ndarray:
        if call.backend == "emulator":
            return call.deliver(np.asarray(self.emulator_run(call, plan)))
        return _compute(self, call, plan, lanes.ANY_RANK if self.max_rank is None else self.max_rank)
