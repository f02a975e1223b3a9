"""opsnn.leaky_relu_backward: torch's leaky_relu_backward, and what aclnnLeakyReluBackward returns
on each SoC, on numpy arrays (published by the registry: Operator.python_api)."""
from __future__ import annotations

import functools
import numbers
from typing import Literal, TypeAlias

import numpy as np

from opsnn.dtypes import bfloat16, float_layout
from opsnn.engine import keys, lanes, modes
from opsnn.op_common import elementwise as ew
from opsnn.op_common.api_args import deliver, real_scalar

from . import ascend_semantics, torch_semantics
from . import functional_models as fm

__DOC__ = """out = grad where x > 0, else grad * negative_slope, grad and x broadcast together.

    grad, x: anything np.asarray takes (bfloat16 as ml_dtypes.bfloat16, opsnn.dtypes.bfloat16).
    negative_slope: a real number (Python or numpy scalar, or a 0-d array). self_is_result: x
    holds the forward's result (then the slope must not be negative).

    semantics:
      "torch"       bit for bit torch.ops.aten.leaky_relu_backward on the CPU: torch's dtype
                    promotion (0-d operands lift only the category), float types only, halves
                    computed in float32 and rounded once, the slope as float32 (float64 for
                    float64; a finite slope beyond float32 is a ValueError), a slope that is not
                    >= 0 (NaN too) with self_is_result a ValueError.
      "ascend910b"  what aclnnLeakyReluBackward returns on an Atlas A2 / Ascend910B: float16,
                    bfloat16, float32, float64 promoted (fp16 with bf16 is fp32); the TBE
                    kernel rounds the slope to fp16 / bf16 first; float64 via AiCpu.
      "ascend950"   the same on Ascend950: the AscendC DAG (float32 product, one rounding).
                    Under both: only a negative slope fails with self_is_result (NaN passes),
                    rank above 8 is a ValueError, an empty x gives an empty result.
    backend: "auto" = "fast" (the compiled engine, opsnn.engine; where it was not built, vectorised
    numpy in cache-sized chunks; torch's bfloat16: the engine, then its NaN elements by torch's loop split),
    "reference" (the functional models on whole arrays, functional_models.py), "emulator"
    (ascend semantics only: aclnnLeakyReluBackward's two phases on an emulated device, the
    Ascend950 DAG kernel running on the AscendC emulator).
    out: an array of the result's shape and dtype to write into (it may be grad or x).

    TypeError for dtypes (and non-real slopes), ValueError for shapes and slope values; inputs are
    never written (unless passed as out). NaN results are NaN under every backend; their payload
    bits follow docs/nan-payloads.md's multiply rule (not torch's, which varies with its loops)."""
CHUNK = 1 << 16  # elements per step of the fast path: temporaries stay in cache

Semantics: TypeAlias = Literal["torch", "ascend910b", "ascend950"]
Backend: TypeAlias = Literal["auto", "fast", "emulator", "reference"]
Scalar: TypeAlias = "int | float | bool | np.number | np.bool_"


def _torch_plan(call):
    """torch's checks and plan (torch_semantics.plan); a huge long-double slope refused first, as
    threshold's and hardtanh's are (no silent inf from a finite 1e4000)."""
    (grad, x), (slope, flag) = call.tensors, call.scalars
    if isinstance(slope, np.longdouble):
        slope = real_scalar(slope, "negative_slope")
    return torch_semantics.plan(grad, x, slope, flag)


def _torch_run(call, plan):
    (grad, x), tp, out, backend = call.tensors, plan, call.out, call.backend
    if tp.dtype == bfloat16 and backend != "reference":  # the engine, then NaNs by torch's loop split
        result = _torch_bfloat16(grad, x, tp, out, call.memo_key())
        if result is not None:
            return result
    if backend == "reference" or tp.dtype == bfloat16:
        return call.deliver(torch_semantics.compute(grad, x, tp))
    return _fast(grad, x, tp.dtype, tp.slope, fm.F64 if tp.dtype == fm.F64 else fm.F32, out,
                 torch_semantics.host_multiply, call.memo_key())


def _ascend_plan(call):
    (grad, x), (slope, flag) = call.tensors, call.scalars
    return ascend_semantics.plan(grad, x, slope, flag, call.semantics)


def _ascend_run(call, plan):
    (grad, x), ap, out, semantics = call.tensors, plan, call.out, call.semantics
    if call.backend == "emulator":
        from . import emulator
        slope, flag = call.scalars
        return call.deliver(emulator.leaky_relu_backward(grad, x, slope, ap.slope_dtype, flag, semantics, ap.dtype))
    if call.backend == "reference" or ap.empty or 0 in ap.shape:
        return call.deliver(ascend_semantics.compute(grad, x, ap))
    wide = fm.F64 if ap.dtype == fm.F64 else fm.F32
    return _fast(grad, x, ap.dtype, fm.kernel_slope(ap.dtype, ap.slope, semantics), wide, out,
                 memo_key=call.memo_key())


_EXPRESS: dict = {}  # lanes.memo_key -> the Lane that answered such a call
_BF16_EXPONENT = int(float_layout(bfloat16).exponent)


def _express_key(backend, semantics, grad, x, slope, self_is_result):
    """Where this call may teach the express entry (same dtypes and shapes, Python scalars)."""
    if backend != "auto" or grad.dtype != x.dtype or grad.shape != x.shape:
        return None
    return lanes.memo_key(semantics, grad, x, slope, self_is_result)


def _compiled(grad: np.ndarray, x: np.ndarray, dtype: np.dtype, slope, host: bool, out, memo_key=None):
    """The C engine (opsnn.engine's LEAKY modes), or None where it is not in use or declines: grad
    where x > 0, else the product narrowed once, its NaNs by the device's rule or (host) this
    CPU's; operands cast to `dtype` on the way, broadcast together."""
    if lanes.compiled() is None:
        return None
    wide, bits = (fm.F64, np.uint64) if dtype == fm.F64 else (fm.F32, np.uint32)
    max_rank = lanes.ANY_RANK if host else ascend_semantics.MAX_RANK
    lane = lanes.lane(dtype, _params(dtype, int(np.asarray(slope, wide).view(bits)), host), max_rank=max_rank)
    if memo_key is not None:  # a key is given for one dtype only (_express_key)
        lanes.remember(_EXPRESS, memo_key, lane)
    return lanes.run(lane, grad, x, dtype, out)


def _torch_bfloat16(grad: np.ndarray, x: np.ndarray, tp, out, memo_key=None):
    """torch semantics for bfloat16 on the engine (this CPU's multiply, one rounding), then the
    NaN elements as torch's loop split writes them (torch_semantics.bfloat16_nans, which reads
    grad and x again: not where out is one of them); None where the engine does not answer.
    memo_key: where this call may teach the express entry (a callable doing the same)."""
    if out is not None and (np.may_share_memory(out, grad) or np.may_share_memory(out, x)):
        return None
    if lanes.compiled() is None:
        return None
    lane = lanes.lane(bfloat16, _params(bfloat16, int(np.asarray(tp.slope, fm.F32).view(np.uint32)), True))
    if memo_key is not None:
        lanes.remember(_EXPRESS, memo_key, functools.partial(_bfloat16_run, lane))
    g, f = grad.astype(bfloat16, copy=False), x.astype(bfloat16, copy=False)
    result = lane.cast(g, f, out)
    return None if result is None else _bfloat16_nans(grad, x, g, f, result)


def _bfloat16_run(lane, grad: np.ndarray, x: np.ndarray, out):
    """The express entry of torch's bfloat16 (one dtype, one shape): lane, then torch's NaNs."""
    if grad.dtype != bfloat16 or x.dtype != bfloat16 or (
            out is not None and (np.may_share_memory(out, grad) or np.may_share_memory(out, x))):
        return None
    answer = lane.nan_checked(grad, x, out, _BF16_EXPONENT)
    if answer is None:
        return None
    result, found = answer
    if found is None:  # not one flat job: the engine did not check
        return _bfloat16_nans(grad, x, grad, x, result)
    return torch_semantics.bfloat16_nans(grad, x, grad, x, result) if found else result


def _bfloat16_nans(grad, x, g, f, result):
    """torch_semantics.bfloat16_nans, after the engine's one-pass check that there is a NaN at all."""
    return torch_semantics.bfloat16_nans(grad, x, g, f, result) if lanes.has_nan(result) else result


@functools.lru_cache(maxsize=256)
def _params(dtype: np.dtype, slope_bits: int, host: bool) -> tuple:
    mode = modes.LEAKY_BF16 if dtype == bfloat16 else modes.LEAKY
    return modes.params(keys.raw_greater(dtype, 0.0), mode, slope_bits, modes.HOST_NAN if host else 0)


def _fast(grad: np.ndarray, x: np.ndarray, dtype: np.dtype, slope, wide: np.dtype, out,
          product=fm.multiply, memo_key=None) -> np.ndarray:
    """The C engine where it is in use; else the kernel over the output in chunks: each input
    chunk cast to `dtype`, grad widened to `wide`; the compare and the select done on the bit
    patterns (branch-free integer operations, the same answers as the functional models' float
    compare and np.where); the product with the models' multiply; narrowed straight into the
    result."""
    result = _compiled(grad, x, dtype, slope, product is not fm.multiply, out, memo_key)
    if result is not None:
        return result
    shape = np.broadcast_shapes(grad.shape, x.shape)
    if grad.shape != shape or x.shape != shape:
        with np.errstate(over="ignore", invalid="ignore"):  # the promotion's overflow or signalling NaN: silent
            g, f = np.broadcast_arrays(grad.astype(dtype, copy=False), x.astype(dtype, copy=False))
        return deliver(fm.leaky(g, f, slope, wide, dtype, product), out)
    direct = out is not None and out.flags.c_contiguous and all(
        _same_place(out, a) or not np.may_share_memory(out, a) for a in (grad, x))
    target = out if direct else np.empty(shape, dtype)  # chunk i is read before it is written
    g, f, r = np.ravel(grad), np.ravel(x), target.reshape(-1)
    wide_bits = float_layout(wide).uint
    for start in range(0, r.size, CHUNK):
        part = slice(start, start + CHUNK)
        with np.errstate(over="ignore", invalid="ignore"):  # the promotion's overflow or signalling NaN: silent
            gw = g[part].astype(dtype, copy=False).astype(wide, copy=False)
            fc = f[part].astype(dtype, copy=False)
        product_ = product(gw, slope)  # a new array: the select goes into it
        keep = _positive(fc).astype(wide_bits)
        np.negative(keep, out=keep)  # all ones where x > 0
        bits = product_.view(wide_bits)
        bits ^= (bits ^ gw.view(wide_bits)) & keep
        r[part] = fm.narrow(product_, dtype)
    return target if out is None or target is out else deliver(target, out)


def _positive(a: np.ndarray) -> np.ndarray:
    """a > 0 on the bits: as a signed integer, above zero and at most +inf (NaN and zeros: False)."""
    lay = float_layout(a.dtype)
    v = np.ascontiguousarray(a).view(f"i{a.dtype.itemsize}")
    return (v > 0) & (v <= lay.exponent)


def _same_place(a: np.ndarray, b: np.ndarray) -> bool:
    """a and b are the same elements in the same layout (writing a's chunk only after reading b's
    is then safe)."""
    return (a.__array_interface__["data"][0] == b.__array_interface__["data"][0] and a.strides == b.strides
            and a.shape == b.shape)


def _real_scalar(value):
    """A Python or numpy real scalar (a 0-d array is read as its element); TypeError otherwise.
    Unlike api_args.real_scalar a bfloat16 scalar stays one (the ascend semantics make its
    aclScalar BF16) and a long double is range-checked under torch semantics only (the ascend
    ones refuse its type: no aclScalar dtype)."""
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value[()]
    if type(value) is bfloat16.type:
        return value
    if isinstance(value, complex | np.complexfloating) or not isinstance(value, numbers.Real | np.bool_):
        raise TypeError(f"negative_slope must be a real number, not {type(value).__name__}")
    return value


leaky_relu_backward = ew.build(ew.Elementwise(
    name="leaky_relu_backward", tensors=("grad", "x"),
    scalars=(ew.Scalar("negative_slope", 0.0, lambda v, _: _real_scalar(v)),
             ew.Scalar("self_is_result", False, ew.read_flag, "bool")),
    torch=ew.Rule(_torch_plan, _torch_run), ascend=ew.Rule(_ascend_plan, _ascend_run, emulator=True, fold=False),
    memo=_EXPRESS, doc=__DOC__))
