"""What HardtanhGrad computes, as numpy functions on whole arrays (docs/hardtanh-grad.md).

Kernel models take (result, grad) of one shape and dtype and the bounds, and return a fresh
array of that shape and dtype:

  hardtanh_grad_arch35   the Ascend950 DAG: result widened to float32 (exact), compared with the
                         float32 bounds; keep = (min < x < max) or x is NaN; y = keep ? grad : +0.
                         A select: grad's bits move unchanged (inf, NaN payloads, -0.0), and an
                         out-of-range element is +0.0 whatever grad is.
  hardtanh_grad_910b     the Ascend910B built-in TBE kernel as its public source reads: result and
                         grad widened to float32; in_range = float(x > min) * float(x < max);
                         y = x is NaN ? grad : in_range * grad; narrowed back (round to nearest
                         even). Same bounds, but out of range is 0 * grad: -0.0 for a negative
                         grad, NaN for an inf or NaN grad; a multiply, so a signalling NaN grad
                         comes out quieted even in range.

`hardtanh_backward_ascend` is aclnnHardtanhBackward on a SoC family (the scalars read as
float32 by aclScalar::ToFloat, the l0 kernel of the family). `hardtanh_backward_torch` is
torch.ops.aten.hardtanh_backward on CPU for inputs already promoted to one floating dtype."""
from __future__ import annotations

import math
import os
import sys

import numpy as np

from opsnn.ascendc import RoundMode
from opsnn.ascendc.cast import cast_values
from opsnn.ascendc.mul_arch35 import mul_values
from opsnn.dtypes import bfloat16

_F32, _F64 = np.dtype(np.float32), np.dtype(np.float64)
_HALVES = frozenset((np.dtype(np.float16), bfloat16))
FAMILIES = ("ascend910b", "ascend950")


def _uint(dtype: np.dtype) -> np.dtype:
    return np.dtype(f"u{dtype.itemsize}")


def _widen(a: np.ndarray) -> np.ndarray:
    """float16 / bfloat16 / float32 to float32, exactly (the vector unit's Cast, CAST_NONE)."""
    if a.dtype == _F32:
        return a
    return cast_values(np.ascontiguousarray(a).reshape(-1), _F32, RoundMode.CAST_NONE).reshape(a.shape)


def _bound(v) -> np.float32:
    """A bound as the kernels hold it: float32 (the attr / aclScalar::ToFloat)."""
    with np.errstate(over="ignore"):
        return np.float32(v)


def _select(keep: np.ndarray, grad: np.ndarray) -> np.ndarray:
    """keep ? grad : +0 on the bit patterns."""
    u = _uint(grad.dtype)
    return np.where(keep, grad.view(u), u.type(0)).view(grad.dtype)


def _check_pair(result: np.ndarray, grad: np.ndarray) -> None:
    if result.dtype != grad.dtype or result.shape != grad.shape:
        raise ValueError(f"HardtanhGrad takes result and grad of one shape and dtype, got "
                         f"{result.dtype}{list(result.shape)} and {grad.dtype}{list(grad.shape)}")


def keep_mask(x32: np.ndarray, min_val, max_val) -> np.ndarray:
    """(min < x < max) or isnan(x), compared in float32 against the float32 bounds."""
    lo, hi = _bound(min_val), _bound(max_val)
    with np.errstate(invalid="ignore"):
        return ((x32 < hi) & (x32 > lo)) | np.isnan(x32)


def hardtanh_grad_arch35(result: np.ndarray, grad: np.ndarray, min_val=-1.0, max_val=1.0) -> np.ndarray:
    result, grad = np.asarray(result), np.asarray(grad)
    _check_pair(result, grad)
    return _select(keep_mask(_widen(result), min_val, max_val), grad)


def hardtanh_grad_910b(result: np.ndarray, grad: np.ndarray, min_val=-1.0, max_val=1.0) -> np.ndarray:
    result, grad = np.asarray(result), np.asarray(grad)
    _check_pair(result, grad)
    x, g = _widen(result), _widen(grad)
    lo, hi = _bound(min_val), _bound(max_val)
    with np.errstate(invalid="ignore"):
        in_range = (x > lo).astype(_F32) * (x < hi).astype(_F32)
    product = mul_values(in_range, g, np.empty(g.shape, _F32))  # 0 * inf / NaN: NaN, 0 * -g: -0.0
    r = np.where(np.isnan(x), g.view(np.uint32), product.view(np.uint32)).view(_F32)
    if grad.dtype == _F32:
        return r
    # exact for every value r can hold
    return cast_values(r.reshape(-1), grad.dtype, RoundMode.CAST_RINT).reshape(r.shape)


def hardtanh_grad_golden(result: np.ndarray, grad: np.ndarray, min_val=-1.0, max_val=1.0) -> np.ndarray:
    """Upstream's test golden (tests/assets/golden.py), restated: float16 / bfloat16 widened to
    float32, zero where result <= min or result >= max (float32 compares against the float32
    bounds; NaN keeps grad), back to the input dtype. Equal to the arch35 kernel's bits except
    that a NaN grad travels through float32 on the way."""
    result, grad = np.asarray(result), np.asarray(grad)
    r = result.astype(_F32)
    g = grad.astype(_F32)
    with np.errstate(invalid="ignore"):
        zero = (r <= _bound(min_val)) | (r >= _bound(max_val))
    return np.where(zero, np.float32(0), g).astype(grad.dtype)


KERNELS = {"ascend910b": hardtanh_grad_910b, "ascend950": hardtanh_grad_arch35}


def hardtanh_backward_ascend(grad_output: np.ndarray, self: np.ndarray, min_val, max_val,
                             family: str) -> np.ndarray:
    """aclnnHardtanhBackward's out on a SoC family, for arguments its checks accept (one shape,
    one dtype of the list): the scalars read as float32, then the family's kernel with
    result = self and grad = gradOutput."""
    try:
        kernel = KERNELS[family]
    except KeyError:
        raise ValueError(f"unknown SoC family {family!r}; known: {', '.join(FAMILIES)}") from None
    return kernel(self, grad_output, _bound(min_val), _bound(max_val))


# -- torch's CPU loop ---------------------------------------------------------------------------
# torch's hardtanh_backward kernel has two bodies that disagree where x or a bound is NaN: the
# scalar one zeroes `x <= min or x >= max` (NaN keeps grad), the vectorised one keeps
# `x > min and x < max` (NaN gives 0). Which element goes through which is TensorIterator's
# doing: dims coalesced, the range split over threads, each inner row segment run two vectors at
# a time from its start with its remainder scalar. Measured on torch 2.13, x86 (the kernel's AVX2
# build runs on AVX2 and AVX512 machines: 64 bytes per vectorised step).
TORCH_GRAIN_SIZE = 32768  # at::internal::GRAIN_SIZE: below it TensorIterator runs on one thread
TORCH_STEP_BYTES = 64  # two 32-byte vectors per step of vectorized_loop


def _env_threads(name: str) -> int:
    try:
        n = int(os.environ.get(name, ""))
    except ValueError:
        return 0
    return max(n, 0)


def _physical_cores() -> int:
    """The physical cores among the CPUs this process may run on (SMT siblings counted once)."""
    try:
        cpus = sorted(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1
    cores = set()
    for cpu in cpus:
        try:
            topology = f"/sys/devices/system/cpu/cpu{cpu}/topology/"
            with open(topology + "physical_package_id") as f1, open(topology + "core_id") as f2:
                cores.add((f1.read().strip(), f2.read().strip()))
        except OSError:
            return len(cpus)
    return len(cores) or len(cpus)


def torch_threads() -> int:
    """at::get_num_threads(): torch's own answer where torch is already loaded in this process (a
    torch.set_num_threads() seen, and the environment as torch read it at its start: a library
    may change OMP_NUM_THREADS later, as dask's distributed does), else as torch would start it:
    OMP_NUM_THREADS, else MKL_NUM_THREADS, else the physical cores. torch is never imported here."""
    torch = sys.modules.get("torch")
    if torch is not None and callable(getattr(torch, "get_num_threads", None)):
        return int(torch.get_num_threads())
    return _env_threads("OMP_NUM_THREADS") or _env_threads("MKL_NUM_THREADS") or _physical_cores()


def _operand_strides(shape: tuple[int, ...], out_shape: tuple[int, ...]) -> list[int]:
    """Element strides of a C-contiguous operand broadcast to out_shape (0 on broadcast dims)."""
    shape = (1,) * (len(out_shape) - len(shape)) + tuple(shape)
    strides, step = [], 1
    for d, o in zip(reversed(shape), reversed(out_shape), strict=True):
        strides.append(0 if d == 1 and o != 1 else step)
        step *= d
    return strides[::-1]


def torch_vector_lanes(grad_shape, x_shape, itemsize: int, threads: int | None = None) -> np.ndarray:
    """Bool array of the broadcast shape: True where torch's CPU loop runs the vectorised body
    for hardtanh_backward(grad, x) with C-contiguous operands of one dtype of `itemsize` bytes."""
    out_shape = tuple(np.broadcast_shapes(tuple(grad_shape), tuple(x_shape)))
    numel = math.prod(out_shape)
    lanes = np.zeros(numel, dtype=bool)
    if numel < 2:
        return lanes.reshape(out_shape)
    # TensorIterator's view: dims fastest first, then coalesced
    shape = list(out_shape[::-1])
    strides = [_operand_strides(s, out_shape)[::-1] for s in (out_shape, tuple(grad_shape), tuple(x_shape))]
    prev = 0
    for dim in range(1, len(shape)):
        if shape[prev] == 1 or shape[dim] == 1 or all(st[prev] * shape[prev] == st[dim] for st in strides):
            if shape[prev] == 1:
                for st in strides:
                    st[prev] = st[dim]
            shape[prev] *= shape[dim]
        else:
            prev += 1
            shape[prev] = shape[dim]
            for st in strides:
                st[prev] = st[dim]
    inner = shape[0]
    out_s, *in_s = (st[0] for st in strides)
    contiguous = out_s == 1 and all(s == 1 for s in in_s)
    one_scalar = out_s == 1 and sorted(in_s) == [0, 1]  # VectorizedLoop2d's single stride-0 operand
    if not (contiguous or one_scalar):
        return lanes.reshape(out_shape)  # basic_loop: every element scalar
    step = max(TORCH_STEP_BYTES // itemsize, 1)
    threads = torch_threads() if threads is None else max(int(threads), 1)
    if numel < TORCH_GRAIN_SIZE or threads == 1:
        ranges = [(0, numel)]
    else:
        tasks = min(threads, -(-numel // TORCH_GRAIN_SIZE))
        size = -(-numel // tasks)
        ranges = [(b, min(numel, b + size)) for b in range(0, numel, size)]
    # whole rows: the first floor(inner / step) * step columns; then the rows a range cuts
    col = np.arange(numel, dtype=np.int64) % inner
    lanes[:] = col < inner // step * step
    for begin, end in ranges:
        pos = begin
        while pos < end:
            c = pos % inner
            seg = min(inner - c, end - pos)
            if c or seg != inner:  # a segment that is not a whole row: its own vector prefix
                lanes[pos:pos + seg] = False
                lanes[pos:pos + seg // step * step] = True
                pos += seg
            else:  # whole rows up to the range's last one
                whole = (end - pos) // inner
                pos += max(whole, 1) * inner
    return lanes.reshape(out_shape)


def hardtanh_backward_torch(grad: np.ndarray, x: np.ndarray, min_val, max_val,
                            threads: int | None = None) -> np.ndarray:
    """torch's CPU kernel on grad and x of one floating dtype (broadcast together): 0 where
    x <= min or x >= max, else grad (its bits). float16 / bfloat16 / float32 compare in float32
    against the bounds as float32, float64 in float64. Where x or a bound is NaN the answer is
    the loop's: grad from the scalar body, 0 from the vectorised one (torch_vector_lanes)."""
    dtype = grad.dtype
    shape = tuple(np.broadcast_shapes(grad.shape, x.shape))
    if dtype == _F64:
        xw, lo, hi = x, np.float64(min_val), np.float64(max_val)
    else:
        xw, lo, hi = (x.astype(_F32) if dtype in _HALVES else x), _bound(min_val), _bound(max_val)
    with np.errstate(invalid="ignore"):
        zero = (xw <= lo) | (xw >= hi)
    result = np.array(_select(~np.broadcast_to(zero, shape), np.broadcast_to(grad, shape)))
    nan_x = np.isnan(xw)
    bound_nan = bool(np.isnan(lo) or np.isnan(hi))
    if bound_nan or nan_x.any():
        lanes = torch_vector_lanes(grad.shape, x.shape, dtype.itemsize, threads)
        hit = lanes if bound_nan else lanes & np.broadcast_to(nan_x, shape)
        result.view(_uint(dtype))[hit] = 0
    return result
