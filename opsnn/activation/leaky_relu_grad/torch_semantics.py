"""What torch.ops.aten.leaky_relu_backward(grad, self, negative_slope, self_is_result) does on the
CPU (torch 2.x eager), restated for numpy arrays (docs/leaky-relu-grad.md §7). The core never
imports torch; the tests compare with it.

In torch's order:
  1. self_is_result with a slope that is not >= 0 (as a double; NaN included) is an error
  2. the common dtype of (self, grad): torch.result_type, whose 0-d operands only lift the result
     into a higher category (bool < integer < float); both are cast to it
  3. shapes broadcast
  4. the kernel exists for float16, bfloat16, float32, float64 only (integers, bool: not implemented)
  5. the slope becomes the kernel's scalar: float32 for the three narrower types (a finite value
     beyond float32's range is an overflow error; inf and NaN pass), float64 for float64
  6. per element: self > 0 ? grad : grad * slope, halves widened to float32 and rounded back once,
     with this CPU's multiply (torch runs the same instruction): inf * 0 is the CPU's default NaN
     (x86: negative, 0xFFC00000), a NaN operand comes out quieted
  7. bfloat16 NaN results depend on which loop computed the element (op_common/torch_loops
     reproduces the split): the vectorised body writes 0xFFFF for any NaN, the scalar one 0x7FC0
     for any NaN (a kept NaN grad included: the element goes through float and c10's rounding)
Errors come out as numpy's conventions want them: TypeError for dtypes, ValueError for shapes and
values (the slope)."""
from __future__ import annotations

import numbers
from typing import NamedTuple

import numpy as np

from opsnn.dtypes import bfloat16
from opsnn.op_common import torch_nans, torch_promotion
from opsnn.op_common.torch_loops import torch_vector_mask

from . import functional_models as fm

_BOOL = np.dtype(np.bool_)
_U8, _I8, _I16, _I32, _I64 = (np.dtype(t) for t in (np.uint8, np.int8, np.int16, np.int32, np.int64))
F16, F32, F64 = fm.F16, fm.F32, fm.F64
FLOATS = (F16, bfloat16, F32, F64)
_KNOWN = (*torch_promotion.KNOWN,)  # uint16/32/64 included: torch promotes them with a floating type
_FLT_MAX = float(np.finfo(np.float32).max)


class TorchPlan(NamedTuple):
    dtype: np.dtype  # the common dtype: inputs are cast to it, the result has it
    shape: tuple[int, ...]
    slope: np.floating  # the kernel's scalar: float32, or float64 for float64


def result_type(grad: np.ndarray, x: np.ndarray) -> np.dtype:
    """torch.result_type(self, grad): dimensioned operands decide unless a 0-d one is of a higher
    category. TypeError for dtypes torch has no counterpart of here (complex, unsigned > 8 bits)."""
    for a in (grad, x):
        if a.dtype not in _KNOWN:
            raise TypeError(f"leaky_relu_backward does not support dtype {a.dtype}")
    return torch_promotion.result_type(x, grad)


def slope_as_double(slope) -> float:
    """The slope as torch's Scalar::to<double> (bool -> 0/1, ints correctly rounded)."""
    if isinstance(slope, numbers.Integral | np.bool_):
        return float(_int_to(int(slope), F64))
    return float(np.float64(slope))


def _check_int(slope) -> None:
    """A Python int becomes an int64 (or uint64) torch Scalar; beyond those it cannot."""
    if isinstance(slope, numbers.Integral) and not -(2**63) <= int(slope) < 2**64:
        raise ValueError(f"negative_slope {int(slope)} does not fit a 64-bit integer")


def _int_to(value: int, dtype: np.dtype):
    """One correctly rounded conversion, as C's (float)int64 / (double)uint64."""
    return np.asarray(value, np.int64 if value < 2**63 else np.uint64).astype(dtype)[()]


def kernel_slope(slope, dtype: np.dtype) -> np.floating:
    if isinstance(slope, numbers.Integral | np.bool_):
        return _int_to(int(slope), F64 if dtype == F64 else F32)  # any int64 is in float32's range
    if dtype == F64:
        return np.float64(slope_as_double(slope))
    value = slope_as_double(slope)
    if value == value and abs(value) != np.inf and abs(value) > _FLT_MAX:
        raise ValueError(f"negative_slope {value!r} cannot be converted to float32 without overflow")
    return np.float32(value)


def plan(grad: np.ndarray, x: np.ndarray, slope, self_is_result: bool) -> TorchPlan:
    _check_int(slope)
    if self_is_result and not slope_as_double(slope) >= 0.0:
        raise ValueError("leaky_relu_backward with self_is_result=True needs a non-negative negative_slope "
                         f"(got {slope!r}): the in-place forward with a negative slope cannot be differentiated")
    dtype = result_type(grad, x)
    try:
        shape = np.broadcast_shapes(grad.shape, x.shape)
    except ValueError:
        raise ValueError(f"shapes {grad.shape} and {x.shape} are not broadcastable") from None
    if dtype not in FLOATS:
        raise TypeError(f"leaky_relu_backward is not implemented for {dtype} (torch: floating types only)")
    return TorchPlan(dtype, shape, kernel_slope(slope, dtype))


def host_multiply(a: np.ndarray, s) -> np.ndarray:
    """a * s as this CPU multiplies (what torch's kernel computes on it, step 6), the NaN of a
    NaN product pinned as the engine's lane gives it: the slope's where it is NaN, else a's, both
    quieted, else the default NaN (numpy's own loops keep either operand's NaN by the array's
    length: a 1-element call and a 64-element one disagreed)."""
    s = np.asarray(s, a.dtype)
    with np.errstate(all="ignore"):
        return torch_nans.first_nan(np.asarray(np.multiply(a, s)), s, a)


def compute(grad: np.ndarray, x: np.ndarray, p: TorchPlan) -> np.ndarray:
    """The kernel on inputs cast to the common dtype (the reference: whole arrays)."""
    with np.errstate(over="ignore", invalid="ignore"):  # a promotion's overflow is inf, as torch's: no warning
        g, f = grad.astype(p.dtype, copy=False), x.astype(p.dtype, copy=False)
    wide = F64 if p.dtype == F64 else F32
    result = fm.leaky(g, f, p.slope, wide, p.dtype, product=host_multiply)
    if p.dtype == bfloat16 and result.size:
        result = bfloat16_nans(grad, x, g, f, result)
    return result


def bfloat16_nans(grad, x, g, f, result) -> np.ndarray:
    """Step 7 on the NaN elements of a bfloat16 result (in place): g, f are grad and x as bfloat16."""
    bits = result.view(np.uint16)
    nan = (bits & 0x7FFF) > 0x7F80
    if not nan.any():
        return result
    lanes = torch_vector_mask((grad, x), bfloat16, 2)  # the operands' layout decides (a strided one: none)
    # the scalar loop computes in float and rounds back with c10's BFloat16 conversion, which writes
    # every NaN as 0x7FC0: a kept NaN grad too (its own bits do not survive; issue 27)
    bits[nan] = np.where(lanes, np.uint16(0xFFFF), np.uint16(0x7FC0))[nan]
    return result
