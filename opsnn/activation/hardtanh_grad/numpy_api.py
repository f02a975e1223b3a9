"""opsnn.hardtanh_backward: the gradient of hardtanh (nn.Hardtanh, nn.ReLU6) for numpy arrays,
under torch's semantics or an Ascend SoC's (published through Operator.python_api).

semantics="torch" is torch.ops.aten.hardtanh_backward on CPU, bit for bit:
  - dtypes: torch's promotion of (grad, x) (a 0-d operand only lifts the category), which must
    come out floating (float16, bfloat16, float32, float64); integers, bool, complex: TypeError
  - shapes: broadcast together (numpy rules, ValueError where they do not)
  - out = 0 where x <= min_val or x >= max_val, else grad's value (its bits: -0.0, inf, NaN
    payloads move unchanged)
  - a NaN x or a NaN bound: torch's CPU loop answers grad from its scalar body and 0 from its
    vectorised one, element by element as TensorIterator hands them out (row segments two vectors
    at a time from their start, the range split over at::get_num_threads() threads from 32768
    elements, in the order of the operands' strides; a strided row all scalar); opsnn reproduces
    that split (op_common/torch_loops.torch_vector_mask) for any layout, an x86 torch (64 bytes
    per vectorised step) and torch's default thread count (OMP_NUM_THREADS, else
    MKL_NUM_THREADS, else the physical cores this process may use)
  - float16 / bfloat16 / float32 compare in float32 against the bounds converted to float32
    (torch's checked conversion: a finite bound beyond float32's range is a ValueError);
    float64 compares in float64
semantics="ascend910b" / "ascend950" is aclnnHardtanhBackward on that SoC:
  - grad and x of one dtype in {float32, float16, bfloat16} (TypeError otherwise), one shape of
    rank <= 8 (ValueError otherwise: the API does not broadcast)
  - the bounds read as float32 (aclScalar::ToFloat: beyond float32's range they become +-inf)
  - ascend950: out-of-range elements are +0.0; ascend910b: 0 * grad (-0.0 for a negative grad,
    NaN for an inf or NaN grad), as the TBE kernel multiplies
backend: "auto" / "fast": the compiled engine (opsnn.engine; the numpy implementation where it
was not built, and under torch semantics where x or a bound holds a NaN);
"reference": the functional models of functional_models.py; "emulator": the aclnn call on the
emulated device (ascend semantics only). out: an array of the result's shape and dtype to write
into (it may be grad or x); the inputs are never written otherwise."""
from __future__ import annotations

import functools
import math
import numbers
from typing import NamedTuple

import numpy as np

from opsnn.dtypes import bfloat16, float_layout
from opsnn.engine import keys, lanes, modes
from opsnn.op_common import elementwise as ew
from opsnn.op_common import torch_promotion
from opsnn.op_common.api_args import deliver, real_scalar
from opsnn.op_common.operands import broadcast_shape
from opsnn.op_common.torch_loops import TORCH_GRAIN_SIZE, TORCH_STEP_BYTES, torch_scalar_runs

from . import functional_models as fm
from .op_api.aclnn_hardtanh_backward import supported_dtypes

BACKENDS = ("auto", "fast", "reference", "emulator")
MAX_RANK = 8

_BOOL = np.dtype(np.bool_)
_F16, _F32, _F64 = np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64)
_FLOATS = {_F16: 0, bfloat16: 0, _F32: 1, _F64: 2}
_HALVES = frozenset((_F16, bfloat16))
_F32_MAX = float(np.finfo(np.float32).max)


# -- torch's dtype rules -------------------------------------------------------------------------

def torch_result_dtype(grad: np.ndarray, x: np.ndarray) -> np.dtype:
    """The dtype torch computes hardtanh_backward(grad, x) in; TypeError where it has no kernel."""
    for a in (grad, x):
        if a.dtype not in torch_promotion.KNOWN:
            raise TypeError(f"dtype {a.dtype} is not supported by torch's hardtanh_backward")
    dt = torch_promotion.result_type(grad, x)
    if dt not in _FLOATS:
        raise TypeError(f"hardtanh_backward is not implemented for {dt} (torch: only floating types); "
                        f"got grad {grad.dtype} and x {x.dtype}")
    return dt


# -- scalars -------------------------------------------------------------------------------------

def _real(value, what: str):
    """A real scalar (opsnn.op_common.api_args.real_scalar) as a Python int (within 64 bits) or float."""
    value = real_scalar(value, what)
    if isinstance(value, numbers.Integral | np.bool_):
        v = int(value)
        if not -(2**63) <= v < 2**64:
            raise ValueError(f"{what} {v} does not fit a 64-bit integer")
        return v
    return float(value)


def _int_to(v: int, dtype: np.dtype):
    return np.array(v, np.int64 if v < 2**63 else np.uint64).astype(dtype)[()]


def torch_bound(value, dtype: np.dtype, what: str):
    """torch's Scalar.to<opmath_t>(): float64 for float64 tensors, else float32 (a finite value
    beyond float32's range is refused, as c10's checked conversion does)."""
    if isinstance(value, int):
        return _int_to(value, _F64 if dtype == _F64 else _F32)
    if dtype == _F64:
        return np.float64(value)
    if math.isfinite(value) and abs(value) > _F32_MAX:
        raise ValueError(f"{what} {value!r} cannot be converted to float32 without overflow")
    return np.float32(value)


def ascend_bound(value) -> np.float32:
    """aclScalar::ToFloat: a C++ conversion to float (out of range: +-inf)."""
    if isinstance(value, int):
        return _int_to(value, _F32)
    with np.errstate(over="ignore"):
        return np.float32(value)


# -- the function --------------------------------------------------------------------------------

def _check_ascend(grad: np.ndarray, x: np.ndarray, semantics: str) -> None:
    """What aclnnHardtanhBackward refuses (161002), as TypeError (dtype) / ValueError (shape)."""
    allowed = supported_dtypes(semantics)
    for name, arr in (("grad", grad), ("x", x)):
        if arr.dtype.name not in allowed and arr.dtype != bfloat16:
            raise TypeError(f"{semantics}: {name} dtype {arr.dtype} is not supported; supported: {', '.join(allowed)}")
    if grad.dtype != x.dtype:
        raise TypeError(f"{semantics}: grad dtype {grad.dtype} differs from x dtype {x.dtype} "
                        "(aclnnHardtanhBackward does not promote)")
    for name, arr in (("grad", grad), ("x", x)):
        if arr.ndim > MAX_RANK:
            raise ValueError(f"{semantics}: {name} has rank {arr.ndim}, more than {MAX_RANK}")
    if grad.shape != x.shape:
        raise ValueError(f"{semantics}: grad shape {grad.shape} differs from x shape {x.shape} "
                         "(aclnnHardtanhBackward does not broadcast)")


def _zero_where(zero: np.ndarray, grad: np.ndarray, shape, out: np.ndarray | None) -> np.ndarray:
    """grad's bits where `zero` is clear, +0 where set, broadcast to `shape`: an AND with a mask
    of all ones or all zeros (a select without np.where's per-element branching)."""
    u = np.dtype(f"u{grad.dtype.itemsize}")
    mask = np.broadcast_to(zero, shape).astype(u)  # 1 where zero
    mask -= u.type(1)  # 0 where zero, all ones elsewhere (unsigned wrap)
    result = np.empty(shape, grad.dtype) if out is None else out
    np.bitwise_and(mask, np.broadcast_to(grad, shape).view(u), out=result.view(u))
    return result


_EXPRESS: dict = {}  # lanes.memo_key -> what answered such a call: a Lane, or (torch) a
                    # callable (grad, x, out) that runs the lane and torch's scalar tails


def _lane(dtype: np.dtype, lo, hi, mode: int, nan_kept: bool, max_rank: int = MAX_RANK):
    """The engine's Lane for the rule (rank up to 8 by default: the ascend limit), or None where
    the engine is not in use or nothing can be kept."""
    if lanes.compiled() is None:
        return None
    params = _params(dtype, float(lo), float(hi), mode, nan_kept)
    return None if params is None else lanes.lane(dtype, params, max_rank=max_rank)


def _torch_contiguous(lane, scalar_lane, grad: np.ndarray, x: np.ndarray, dtype: np.dtype, out):
    """torch semantics where grad and x are one C-contiguous shape of `dtype` (and the bounds are
    not NaN): the vectorised body's rule (lo < x < hi) on `lane`, the scalar body's (not (x <= lo
    or x >= hi): a NaN x keeps grad) on `scalar_lane`, over each thread range's tail
    (torch_scalar_runs); None where this does not apply."""
    if not (grad.dtype == dtype and x.dtype == dtype and grad.flags.c_contiguous and x.flags.c_contiguous):
        return None
    runs = torch_scalar_runs(x.size, dtype.itemsize)
    if runs == ((0, x.size),):  # all scalar body (fewer elements than one vectorised step)
        return scalar_lane(grad, x, out)
    if runs and out is not None and not out.flags.c_contiguous:
        # the runs are positions in logical (C) order: a reshape(-1) of such an out would be a copy
        result = _torch_contiguous(lane, scalar_lane, grad, x, dtype, None)
        return None if result is None else deliver(result, out)
    flat_g, flat_x = grad.reshape(-1), x.reshape(-1)
    if runs and out is not None and (np.may_share_memory(out, grad) or np.may_share_memory(out, x)):
        tails = [(a, b, flat_g[a:b].copy(), flat_x[a:b].copy()) for a, b in runs]  # out may be grad or x
    else:
        tails = [(a, b, flat_g[a:b], flat_x[a:b]) for a, b in runs]
    result = lane(grad, x, out)
    if result is not None and tails:
        flat = result.reshape(-1)
        for a, b, g, f in tails:
            scalar_lane(g, f, flat[a:b])
    return result


def _torch_lanes(dtype: np.dtype, lo, hi):
    """torch's two bodies' lanes: the vectorised one (lo < x < hi) and the scalar one (a NaN x
    kept too); None where the engine is not in use or a bound is NaN."""
    if np.isnan(lo) or np.isnan(hi):
        return None
    lane = _lane(dtype, lo, hi, modes.PLAIN, False, lanes.ANY_RANK)
    return None if lane is None else (lane, _lane(dtype, lo, hi, modes.PLAIN, True, lanes.ANY_RANK))


def _torch_express(lane, scalar_lane, dtype: np.dtype):
    """The express entry's callable for torch semantics: (grad, x, out) -> result or None. A call
    below torch's grain size whose length is whole vectorised steps has no scalar tail: the lane
    alone answers it (C-contiguous operands: torch vectorises them all)."""
    step = max(TORCH_STEP_BYTES // dtype.itemsize, 1)

    def run(grad, x, out):
        n = x.size
        if (n < TORCH_GRAIN_SIZE and n % step == 0 and grad.dtype == dtype and x.dtype == dtype
                and grad.flags.c_contiguous and x.flags.c_contiguous):
            return lane(grad, x, out)
        return _torch_contiguous(lane, scalar_lane, grad, x, dtype, out)
    return run


@functools.lru_cache(maxsize=256)
def _params(dtype: np.dtype, lo: float, hi: float, mode: int, nan_kept: bool) -> tuple | None:
    """The lane's parameters (None: nothing lies between the bounds and NaNs are not kept)."""
    inside, nans = keys.open_interval_or_nan(dtype, lo, hi)
    if not nan_kept:
        if inside == nans:
            return None
        nans = inside
    lay = float_layout(dtype)
    layout = (int(lay.sign), int(lay.exponent), int(lay.quiet)) if mode == modes.RELU else (0, 0, 0)
    return modes.params(inside + nans, mode, 0, modes.CYCLIC | modes.KEYED, layout)


def _fast_torch(grad: np.ndarray, x: np.ndarray, lo, hi, dtype: np.dtype, shape, out, express_key=None):
    both = _torch_lanes(dtype, lo, hi)
    lane = None if both is None else both[0]
    if lane is not None and grad.shape == x.shape:
        result = _torch_contiguous(*both, grad, x, dtype, out)
        if result is not None:
            if express_key is not None:
                lanes.remember(_EXPRESS, express_key, _torch_express(*both, dtype))
            return result
    if lane is not None and not lanes.has_nan(x):  # both of torch's bodies agree: the C engine
        result = lanes.run(lane, grad, x, dtype, out)
        if result is not None:
            return result
    with np.errstate(invalid="ignore", over="ignore"):  # a signalling NaN widened; big ints to half
        xc = x.astype(dtype, copy=False)  # TensorIterator's common dtype first
        xw = xc.astype(_F32) if dtype in _HALVES else xc  # then the float32 opmath of the reduced types
        zero = np.less_equal(xw, lo)
        zero |= np.greater_equal(xw, hi)
    bound_nan = bool(np.isnan(lo) or np.isnan(hi))
    if bound_nan or (xw.size and np.isnan(xw.min())):  # torch's vectorised body gives 0 there, its scalar body grad
        vector = fm.torch_vector_mask((grad, x), dtype, dtype.itemsize)  # their layout decides
        zero = np.broadcast_to(zero, shape) | (vector if bound_nan else vector & np.broadcast_to(np.isnan(xw), shape))
    with np.errstate(invalid="ignore", over="ignore"):  # as x's conversion above
        g = grad.astype(dtype, copy=False)
    return _zero_where(zero, g, shape, out)


def _fast_arch35(grad: np.ndarray, x: np.ndarray, lo: np.float32, hi: np.float32, out) -> np.ndarray:
    """functional_models.hardtanh_grad_arch35, the same bits, faster (numpy)."""
    xw = x if x.dtype == _F32 else x.astype(_F32)
    with np.errstate(invalid="ignore"):
        keep = np.less(xw, hi)
        keep &= np.greater(xw, lo)
        keep |= np.isnan(xw)
    return _zero_where(~keep, grad, x.shape, out)


def _fast_910b(grad: np.ndarray, x: np.ndarray, lo: np.float32, hi: np.float32, out) -> np.ndarray:
    """functional_models.hardtanh_grad_910b, the same bits, faster: for a finite grad the TBE
    kernel's in_range * grad is grad or a zero of grad's sign; the other elements (inf, NaN grad)
    go through the model itself."""
    xw = x if x.dtype == _F32 else x.astype(_F32)
    with np.errstate(invalid="ignore"):
        keep = np.less(xw, hi)
        keep &= np.greater(xw, lo)
        keep |= np.isnan(xw)
    u = np.dtype(f"u{grad.dtype.itemsize}")
    mask = np.asarray((~keep).astype(u))  # an array even for 0-d inputs: the wrap below is silent
    mask -= u.type(1)  # all ones where kept, 0 elsewhere
    mask |= u.type(1 << (8 * u.itemsize - 1))  # out of range: the sign bit survives (0 * grad)
    with np.errstate(invalid="ignore"):
        special = np.flatnonzero(~np.isfinite(grad))
    picked = (x.reshape(-1)[special], grad.reshape(-1)[special]) if special.size else None  # before out is written
    result = np.bitwise_and(mask, grad.view(u)).view(grad.dtype)
    if picked is not None:
        result.reshape(-1)[special] = fm.hardtanh_grad_910b(*picked, lo, hi)
    return deliver(result, out)


class _TorchPlan(NamedTuple):
    dtype: np.dtype
    shape: tuple
    lo: np.floating
    hi: np.floating


def _torch_plan(call) -> _TorchPlan:
    (grad, x), (lo, hi) = call.tensors, call.scalars
    dtype = torch_result_dtype(grad, x)
    shape = broadcast_shape(grad.shape, x.shape)
    return _TorchPlan(dtype, shape, torch_bound(lo, dtype, "min_val"), torch_bound(hi, dtype, "max_val"))


def _torch_run(call, plan):
    (grad, x), p = call.tensors, plan
    if call.backend == "reference":
        with np.errstate(over="ignore", invalid="ignore"):  # a promotion's overflow is inf, as torch's
            g, xc = grad.astype(p.dtype, copy=False), x.astype(p.dtype, copy=False)
        result = fm.hardtanh_backward_torch(g, xc, p.lo, p.hi)
        return call.deliver(result)
    return _fast_torch(grad, x, p.lo, p.hi, p.dtype, p.shape, call.out, call.memo_key())


def _ascend_plan(call):
    grad, x = call.tensors
    _check_ascend(grad, x, call.semantics)
    return x


def _ascend_run(call, plan):
    (grad, x), (lo, hi), semantics, out = call.tensors, call.scalars, call.semantics, call.out
    if call.backend == "emulator":
        from . import device_run
        return call.deliver(device_run.hardtanh_backward(grad, x, lo, hi, semantics))
    lo32, hi32 = ascend_bound(lo), ascend_bound(hi)
    if call.backend in ("auto", "fast"):
        lane = _lane(x.dtype, lo32, hi32, modes.PLAIN if semantics == "ascend950" else modes.RELU, True)
        result = None if lane is None else lane(grad, x, out)  # one dtype and shape: checked above
        if result is not None:
            call.remember(lane)
            return result
        return (_fast_arch35 if semantics == "ascend950" else _fast_910b)(grad, x, lo32, hi32, out)
    return call.deliver(fm.hardtanh_backward_ascend(grad, x, lo32, hi32, semantics))


hardtanh_backward = ew.build(ew.Elementwise(
    name="hardtanh_backward", tensors=("grad", "x"),
    scalars=(ew.Scalar("min_val", -1.0, _real), ew.Scalar("max_val", 1.0, _real)),
    torch=ew.Rule(_torch_plan, _torch_run), ascend=ew.Rule(_ascend_plan, _ascend_run, emulator=True, fold=False),
    backends=BACKENDS, memo=_EXPRESS,
    doc="""out = grad where min_val < x < max_val (or x is NaN), else 0, under `semantics` (see the
    module doc). grad, x: anything np.asarray takes (bfloat16 as ml_dtypes.bfloat16). min_val,
    max_val: real numbers (Python or numpy scalars, or 0-d arrays)."""))
