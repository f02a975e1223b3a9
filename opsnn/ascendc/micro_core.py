"""MicroAPI's registers, masks, moves and arithmetic (micro.py presents them with the reductions,
bit operations, Pack/UnPack and unaligned moves of micro_*.py, which are built on these).

AscendC::MicroAPI on Ascend950: register-level vector code (``__VEC_SCOPE__``), for Python kernels
and, through opsnn's CPU-debug bridge, for C++ ones.

The model. A core has vector registers (`RegTensor`) of VECTOR_REG_WIDTH = 256 bytes, seen as
256 / sizeof(T) lanes of the type an instruction names, and mask registers (`MaskReg`) of one bit
per byte of a vector register: an element of size s at lane k is active when bit k * s is set (so a
32-bit mask read as a 16-bit one enables the even lanes, as the hardware's predicates do).
`UpdateMask(mask, T, size)` sets the first min(size, lanes) lanes and gives size less those;
`CreateMask(mask, T, pattern)` sets a pattern (ALL, ALLF, VL1..VL128, H, Q).

Instructions take a mask and a MaskMergeMode: ZEROING writes +0 (all bits clear) to the inactive
lanes of the destination, MERGING leaves them as they were. Arithmetic is the LocalTensor
instructions' own (binary.py, scalar_ops.py, unary.py, ieee.py): Add Sub Mul Div and their scalar
forms correctly rounded in the lane type, Exp and Ln in float64 rounded once, NaNs settled by the
same host-independent rule; Cast is cast.py's conversion on the Atlas A2 pairs and round modes.

Moves between UB and registers (`DataCopy`): a load reads UB through a LocalTensor (C++: a
``__local_mem__ T*`` the bridge maps back to its buffer) with a LoadDist -- NORM (256 bytes),
UNPACK_B8/B16/B32 (128 bytes, element k into the low half of lane k of twice the width, the high
half zero: an assumption, the unpack's fill is not documented), BRC_B8/B16/B32 (one element to
every lane); a store writes only the active lanes, with a StoreDist -- NORM / NORM_B8/B16/B32,
PACK_B16/B32/B64 (the low half of each lane, packed), FIRST_ELEMENT_B8/B16/B32. Other
distributions are refused by name.

Sanitizer (the LocalTensor model's, local_tensor.py): a store past its buffer, or an access before
it or past the kernel's UB, is local_tensor_overflow / underflow; a load that runs past its
buffer's end inside UB (a register loop's tail) reads those bytes as undefined lanes, an error
only where they leave the vector unit (below); an address not 32-byte aligned is datacopy_unaligned (a
BRC load or a FIRST_ELEMENT store moves one element: its address need only be aligned to it). A
register holds defined and undefined bytes, valgrind-style: a fresh register is all undefined, a
load of UB bytes nothing wrote gives undefined lanes, an active lane computed from an undefined one
(or under an undefined mask bit) is undefined, a ZEROING instruction's inactive lanes are defined
zeros. Undefined lanes stored to UB make those UB bytes undefined, and the error is reported where
they leave the vector unit (a DataCopy to GM, GetValue), naming the instruction that first read
them; computing on them is no error (a kernel routinely loads a whole register past its last
valid element)."""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

import numpy as np
from numpy.typing import DTypeLike

from opsnn.dtypes import bfloat16, dtype_name

from . import float8, spr
from .binary import add_values, div_values, max_values, min_values, mul_values, sub_values
from .cast import cast_values, check_cast, round_integral_float
from .compare import CMPMODE
from .compare_tensor import compare_values
from .core import UB_ALIGN, CoreContext
from .datacopy_params import _check_ub_aligned
from .errors import ApiContractError, EmulatorError
from .ieee import F16, F32, settle_nans, sign_bits
from .local_tensor import LocalTensor, _span, mark_undefined, register_read, write_local
from .rounding import RoundMode, saturated_float, to_float
from .scalar_ops import to_scalar
from .unary import abs_values, exp_values, ln_values, relu_values, sqrt_values

VECTOR_REG_WIDTH = 256  # bytes of one vector register
I16, I32 = np.dtype(np.int16), np.dtype(np.int32)
FLOATS = (F16, F32)
ARITH = (F16, F32, I16, I32)
# Reg Add / Sub / Max / Min take every 8- to 32-bit type, Mul every 16- and 32-bit one (AscendC's
# Reg documentation; the 64-bit lanes are not modelled)
_B8 = (np.dtype(np.int8), np.dtype(np.uint8))
ARITH_ALL = (F16, F32, bfloat16, *_B8, I16, np.dtype(np.uint16), I32, np.dtype(np.uint32))
ARITH_MUL = tuple(t for t in ARITH_ALL if t not in _B8)
REG_TYPES = tuple(np.dtype(t) for t in (np.float16, np.float32, np.int8, np.uint8, np.int16, np.uint16, np.int32,
                                        np.uint32)) + (bfloat16,)


class MaskMergeMode(Enum):
    UNKNOWN = "UNKNOWN"
    MERGING = "MERGING"
    ZEROING = "ZEROING"


class MaskPattern(Enum):
    ALL = "ALL"
    VL1 = "VL1"
    VL2 = "VL2"
    VL3 = "VL3"
    VL4 = "VL4"
    VL8 = "VL8"
    VL16 = "VL16"
    VL32 = "VL32"
    VL64 = "VL64"
    VL128 = "VL128"
    M3 = "M3"
    M4 = "M4"
    H = "H"
    Q = "Q"
    ALLF = "ALLF"


class LoadDist(Enum):
    DIST_NORM = "DIST_NORM"
    DIST_BRC_B8 = "DIST_BRC_B8"
    DIST_BRC_B16 = "DIST_BRC_B16"
    DIST_BRC_B32 = "DIST_BRC_B32"
    DIST_US_B8 = "DIST_US_B8"
    DIST_US_B16 = "DIST_US_B16"
    DIST_DS_B8 = "DIST_DS_B8"
    DIST_DS_B16 = "DIST_DS_B16"
    DIST_BDINTLV = "DIST_BDINTLV"
    DIST_DINTLV_B8 = "DIST_DINTLV_B8"
    DIST_DINTLV_B16 = "DIST_DINTLV_B16"
    DIST_UNPACK_B8 = "DIST_UNPACK_B8"
    DIST_UNPACK_B16 = "DIST_UNPACK_B16"
    DIST_BLK = "DIST_BLK"
    DIST_E2B_B16 = "DIST_E2B_B16"
    DIST_E2B_B32 = "DIST_E2B_B32"
    DIST_UNPACK_B32 = "DIST_UNPACK_B32"
    DIST_DINTLV_B32 = "DIST_DINTLV_B32"
    DIST_UNPACK4_B8 = "DIST_UNPACK4_B8"
    DIST_SPLT4CHN_B8 = "DIST_SPLT4CHN_B8"
    DIST_SPLT2CHN_B8 = "DIST_SPLT2CHN_B8"
    DIST_SPLT2CHN_B16 = "DIST_SPLT2CHN_B16"


class StoreDist(Enum):
    DIST_NORM_B8 = "DIST_NORM_B8"
    DIST_NORM_B16 = "DIST_NORM_B16"
    DIST_NORM_B32 = "DIST_NORM_B32"
    DIST_FIRST_ELEMENT_B8 = "DIST_FIRST_ELEMENT_B8"
    DIST_FIRST_ELEMENT_B16 = "DIST_FIRST_ELEMENT_B16"
    DIST_FIRST_ELEMENT_B32 = "DIST_FIRST_ELEMENT_B32"
    DIST_PACK_B16 = "DIST_PACK_B16"
    DIST_PACK_B32 = "DIST_PACK_B32"
    DIST_INTLV_B8 = "DIST_INTLV_B8"
    DIST_INTLV_B16 = "DIST_INTLV_B16"
    DIST_PACK_B64 = "DIST_PACK_B64"
    DIST_INTLV_B32 = "DIST_INTLV_B32"
    DIST_PACK4_B32 = "DIST_PACK4_B32"
    DIST_MRG4CHN_B8 = "DIST_MRG4CHN_B8"
    DIST_MRG2CHN_B8 = "DIST_MRG2CHN_B8"
    DIST_MRG2CHN_B16 = "DIST_MRG2CHN_B16"
    DIST_NORM = "DIST_NORM"


class RegLayout(Enum):
    UNKNOWN = "UNKNOWN"
    ZERO = "ZERO"
    ONE = "ONE"
    TWO = "TWO"
    THREE = "THREE"


class SatMode(Enum):
    UNKNOWN = "UNKNOWN"
    NO_SAT = "NO_SAT"
    SAT = "SAT"


@dataclass(frozen=True)
class CastTrait:
    """MicroAPI::CastTrait: which half of a lane a widening Cast reads / a narrowing one writes
    (ZERO: the low half, ONE: the high half), saturation, merge mode and round mode (None:
    RoundMode::UNKNOWN, the pair's default: CAST_NONE)."""
    layoutMode: RegLayout = RegLayout.UNKNOWN  # noqa: N815 - AscendC name
    satMode: SatMode = SatMode.UNKNOWN  # noqa: N815
    mrgMode: MaskMergeMode = MaskMergeMode.UNKNOWN  # noqa: N815
    roundMode: RoundMode | None = None  # noqa: N815


# C++'s enum values (opsnn_kt/micro_api.h packs a CastTrait as these integers)
_LAYOUTS = {-1: RegLayout.UNKNOWN, 0: RegLayout.ZERO, 1: RegLayout.ONE, 2: RegLayout.TWO, 3: RegLayout.THREE}
_SATS = {-1: SatMode.UNKNOWN, 0: SatMode.NO_SAT, 1: SatMode.SAT}
_MERGES = {0: MaskMergeMode.UNKNOWN, 1: MaskMergeMode.MERGING, 2: MaskMergeMode.ZEROING}
_ROUNDS = (RoundMode.CAST_NONE, RoundMode.CAST_RINT, RoundMode.CAST_FLOOR, RoundMode.CAST_CEIL, RoundMode.CAST_ROUND,
           RoundMode.CAST_TRUNC, RoundMode.CAST_ODD)


def cast_trait_from_codes(layout: int, sat: int, merge: int, round_mode: int) -> CastTrait:
    """The CastTrait whose fields C++ passes as its enums' integer values (RoundMode: CAST_NONE = 0
    .. CAST_ODD = 6; CAST_HYBRID = 7 is refused, UNKNOWN = 8 is None)."""
    if round_mode == 8:
        rm = None
    elif 0 <= round_mode < len(_ROUNDS):
        rm = _ROUNDS[round_mode]
    else:
        raise EmulatorError(f"MicroAPI::CastTrait round mode {round_mode} (CAST_HYBRID?) is not modelled")
    try:
        return CastTrait(_LAYOUTS[layout], _SATS[sat], _MERGES[merge], rm)
    except KeyError as e:
        raise EmulatorError(f"MicroAPI::CastTrait field value {e} is not one opsnn knows") from None


class RegTensor:
    """`MicroAPI::RegTensor<T>`: one vector register of a core, 256 bytes, all undefined at first.

    Parameters
    ----------
    ctx : CoreContext
        The core whose register it is.
    dtype : numpy dtype-like
        T, the type its lanes are seen as (an instruction may see them as another).
    """

    __slots__ = ("ctx", "dtype", "data", "undef", "origin")

    def __init__(self, ctx: CoreContext, dtype: DTypeLike):
        self.ctx = ctx
        self.dtype = np.dtype(dtype)
        self.data = np.zeros(VECTOR_REG_WIDTH, dtype=np.uint8)
        self.undef = np.ones(VECTOR_REG_WIDTH, dtype=bool)  # per byte: holds an undefined value
        self.origin: str | None = None  # where its undefined bytes were first read (None: never written)

    def view_as(self, dtype: DTypeLike) -> RegTensor:
        """The same register seen as RegTensor<dtype>: its bytes shared (a write through either is
        the register's)."""
        view = RegTensor.__new__(RegTensor)
        view.ctx, view.dtype, view.data, view.undef, view.origin = self.ctx, np.dtype(dtype), self.data, self.undef, \
            self.origin
        return view

    def lanes(self, dtype: DTypeLike | None = None) -> np.ndarray:
        """The register's lanes as `dtype` (its own by default): a view, not a copy."""
        return self.data.view(self.dtype if dtype is None else np.dtype(dtype))

    def lane_undef(self, size: int) -> np.ndarray:
        """Per lane of `size` bytes: does it hold an undefined byte?"""
        return self.undef.reshape(-1, size).any(axis=1)

    def numpy(self) -> np.ndarray:
        """A copy of the lanes as T: for tests and debugging (undefined lanes read as what they hold)."""
        return self.lanes().copy()

    def reset(self) -> None:
        """Back to a fresh register's state (the bridge reuses a register C++ destroyed)."""
        self.data[:] = 0
        self.undef[:] = True
        self.origin = None

    def __repr__(self) -> str:
        return f"RegTensor<{dtype_name(self.dtype)}>({int(self.undef.sum())} undefined bytes)"


class MaskReg:
    """`MicroAPI::MaskReg`: one bit per byte of a vector register, all undefined at first.

    Parameters
    ----------
    ctx : CoreContext
        The core whose register it is.
    """

    __slots__ = ("ctx", "bits", "undef", "origin")

    def __init__(self, ctx: CoreContext):
        self.ctx = ctx
        self.bits = np.zeros(VECTOR_REG_WIDTH, dtype=bool)
        self.undef = np.ones(VECTOR_REG_WIDTH, dtype=bool)
        self.origin: str | None = None

    def active(self, size: int) -> np.ndarray:
        """Per lane of `size` bytes: is it active (bit k * size set)?"""
        return self.bits[::size].copy()

    def reset(self) -> None:
        self.bits[:] = False
        self.undef[:] = True
        self.origin = None

    def __repr__(self) -> str:
        return f"MaskReg({int(self.bits.sum())} bits set)"


# ---- helpers ----

def _where(ctx: CoreContext) -> str:
    return f" at {ctx.log.source}" if ctx.log.source else ""


def _issue(name: str, ctx: CoreContext) -> str:
    full = f"MicroAPI::{name}"
    ctx.counters.issue(full)
    return full


def _lane_type(name: str, allowed, *regs: RegTensor) -> np.dtype:
    t = regs[0].dtype
    if t not in allowed or any(r.dtype != t for r in regs[1:]):
        got = ", ".join(dtype_name(r.dtype) for r in regs)
        raise EmulatorError(f"MicroAPI::{name} on {got}: takes {', '.join(dtype_name(a) for a in allowed)}, "
                            "one type on every register")
    return t


def _merge_mode(name: str, mode) -> MaskMergeMode:
    if mode not in (MaskMergeMode.ZEROING, MaskMergeMode.MERGING):
        raise EmulatorError(f"MicroAPI::{name}: MaskMergeMode must be ZEROING or MERGING, got {mode!r}")
    return mode


def _mask_lanes(name: str, mask: MaskReg | None, size: int) -> tuple[np.ndarray, np.ndarray, str | None]:
    """(active, undefined, origin) per lane of `size` bytes; no mask: every lane, defined."""
    n = VECTOR_REG_WIDTH // size
    if mask is None:
        return np.ones(n, dtype=bool), np.zeros(n, dtype=bool), None
    if not isinstance(mask, MaskReg):
        raise EmulatorError(f"MicroAPI::{name}: the mask must be a MaskReg, got {type(mask).__name__}")
    undef = mask.undef[::size]
    origin = mask.origin
    if undef.any() and origin is None:
        origin = f"MicroAPI::{name}{_where(mask.ctx)} used a mask register nothing set"
    return mask.bits[::size].copy(), undef.copy(), origin


def _source_origin(name: str, ctx: CoreContext, regs, used: list[np.ndarray]) -> str | None:
    """Where the undefined lanes an instruction used came from: the first register's origin that
    has some, or this instruction (a register nothing wrote)."""
    for r, u in zip(regs, used, strict=True):
        if u.any():
            return r.origin or f"MicroAPI::{name}{_where(ctx)} read lanes of a register nothing wrote"
    return None


def _write_lanes(dst: RegTensor, t: np.dtype, result: np.ndarray, active: np.ndarray, undef: np.ndarray,
                 mode: MaskMergeMode, origin: str | None) -> None:
    """dst's lanes (as t): result where active; inactive lanes +0 (ZEROING) or kept (MERGING)."""
    size = t.itemsize
    lanes = dst.lanes(t)
    old_undef = dst.lane_undef(size)
    if mode is MaskMergeMode.ZEROING:
        lanes.view(np.uint8)[:] = 0
        new_undef = undef & active
    else:
        new_undef = np.where(active, undef, old_undef)
    lanes[active] = result[active]
    dst.undef[:] = np.repeat(new_undef, size)
    if (new_undef & active).any():
        dst.origin = origin
    elif not new_undef.any():
        dst.origin = None  # else: only kept (MERGING) lanes are undefined, their origin stays


def _elementwise(name: str, fn, allowed, dst: RegTensor, srcs: list[RegTensor], mask, mode) -> None:
    t = _lane_type(name, allowed, dst, *srcs)
    ctx = dst.ctx
    _issue(name, ctx)
    mode = _merge_mode(name, mode)
    active, m_undef, m_origin = _mask_lanes(name, mask, t.itemsize)
    with np.errstate(all="ignore"):
        result = np.asarray(fn(*(s.lanes(t).copy() for s in srcs)), dtype=t)
    used = [s.lane_undef(t.itemsize) & active for s in srcs]
    undef = np.logical_or.reduce(used) | m_undef if used else m_undef.copy()
    origin = _source_origin(name, ctx, srcs, used) or m_origin
    _write_lanes(dst, t, result, active | m_undef, undef, mode, origin)


# ---- arithmetic ----

def _binary(name, fn, allowed):
    def op(dst: RegTensor, src0: RegTensor, src1: RegTensor, mask: MaskReg,
           mode: MaskMergeMode = MaskMergeMode.ZEROING) -> None:
        _elementwise(name, fn, allowed, dst, [src0, src1], mask, mode)
    op.__name__ = op.__qualname__ = name
    op.__doc__ = (f"MicroAPI::{name}(dst, src0, src1, mask, mode): dst = {name}(src0, src1) on the active lanes; "
                  f"{', '.join(dtype_name(a) for a in allowed)}.")
    return op


def _with_scalar(name, fn, allowed):
    def op(dst: RegTensor, src: RegTensor, scalar, mask: MaskReg,
           mode: MaskMergeMode = MaskMergeMode.ZEROING) -> None:
        s = to_scalar(scalar, src.dtype)
        _elementwise(name, lambda x: fn(x, s), allowed, dst, [src], mask, mode)
    op.__name__ = op.__qualname__ = name
    op.__doc__ = (f"MicroAPI::{name}(dst, src, scalar, mask, mode): the scalar converted to the lane type "
                  f"first; {', '.join(dtype_name(a) for a in allowed)}.")
    return op


def _unary(name, fn, allowed):
    def op(dst: RegTensor, src: RegTensor, mask: MaskReg, mode: MaskMergeMode = MaskMergeMode.ZEROING) -> None:
        _elementwise(name, fn, allowed, dst, [src], mask, mode)
    op.__name__ = op.__qualname__ = name
    op.__doc__ = f"MicroAPI::{name}(dst, src, mask, mode); {', '.join(dtype_name(a) for a in allowed)}."
    return op


Add = _binary("Add", add_values, ARITH_ALL)
Sub = _binary("Sub", sub_values, ARITH_ALL)
Mul = _binary("Mul", mul_values, ARITH_MUL)
Div = _binary("Div", div_values, FLOATS)
Max = _binary("Max", max_values, ARITH_ALL)
Min = _binary("Min", min_values, ARITH_ALL)
# the scalar forms take AscendC's 8- to 32-bit lists (Muls: no b8, no bfloat16)
Adds = _with_scalar("Adds", add_values, ARITH_ALL)
Muls = _with_scalar("Muls", mul_values, tuple(t for t in ARITH_MUL if t != bfloat16))
Maxs = _with_scalar("Maxs", max_values, ARITH_ALL)
Mins = _with_scalar("Mins", min_values, ARITH_ALL)
Exp = _unary("Exp", exp_values, FLOATS)
Ln = _unary("Ln", ln_values, FLOATS)
Sqrt = _unary("Sqrt", sqrt_values, FLOATS)
Abs = _unary("Abs", abs_values, FLOATS)
Relu = _unary("Relu", relu_values, (F16, F32, I32))
Log = _unary("Log", ln_values, FLOATS)  # AscendC's other name of Ln


def _negate(x: np.ndarray) -> np.ndarray:
    """-x: the sign bit flipped for floats (IEEE negate: exact, a NaN keeps its payload), two's
    complement (wrapping) for integers."""
    if x.dtype.kind == "f":
        u = np.dtype(f"u{x.dtype.itemsize}")
        return (x.view(u) ^ u.type(1 << (8 * x.dtype.itemsize - 1))).view(x.dtype)
    return np.negative(x, dtype=x.dtype)


Neg = _unary("Neg", _negate, ARITH)


# Gather from UB: (destination, source) lane types AscendC lists (64-bit lanes are not modelled)
_UB_GATHER = {(I16, np.dtype(np.int8)), (I16, I16), (np.dtype(np.uint16), np.dtype(np.uint8)),
              (np.dtype(np.uint16), np.dtype(np.uint16)), (F16, F16), (bfloat16, bfloat16), (I32, I32),
              (np.dtype(np.uint32), np.dtype(np.uint32)), (F32, F32)}


def _gather_from_ub(dst: RegTensor, src: LocalTensor, index: RegTensor, mask: MaskReg) -> None:
    """MicroAPI::Gather(dstReg, baseAddr, index, mask): dst[i] = baseAddr[index[i]] on the active lanes
    (0 on the others); baseAddr 32-byte aligned; index lanes unsigned, of the destination's width."""
    t = dst.dtype
    if (t, src.dtype) not in _UB_GATHER or index.dtype.itemsize != t.itemsize:
        raise EmulatorError(f"MicroAPI::Gather from UB: {dtype_name(src.dtype)} into {dtype_name(t)} lanes with "
                            f"{dtype_name(index.dtype)} indices is not one of AscendC's pairs")
    if src.ub_addr % UB_ALIGN:
        raise ApiContractError(f"MicroAPI::Gather: baseAddr UB {src.ub_addr:#x} is not {UB_ALIGN}-byte aligned")
    ctx = dst.ctx
    _issue("Gather", ctx)
    size = t.itemsize
    active, m_undef, m_origin = _mask_lanes("Gather", mask, size)
    picks = index.data.view(f"u{size}").astype(np.int64)
    values = np.zeros(picks.size, dtype=t)
    undef = m_undef | (index.lane_undef(size) & active)
    origin = index.origin if undef.any() else m_origin
    step = src.dtype.itemsize
    for lane in np.flatnonzero(active):
        one = LocalTensor(src.buffer, src.dtype, src.offset + int(picks[lane]) * step)
        got, bad, where = register_read(one, 1, "Gather")
        values[lane] = got.view(f"u{step}")[0] if step != size else got.view(t)[0]
        if bad[0]:
            undef[lane], origin = True, origin or where
    _write_lanes(dst, t, values, active | m_undef, undef, MaskMergeMode.ZEROING, origin)


# Scatter to UB: the index lanes each element type takes (64-bit lanes are not modelled)
_UB_SCATTER = {np.dtype(np.int8): np.dtype(np.uint16), np.dtype(np.uint8): np.dtype(np.uint16),
               I16: np.dtype(np.uint16), np.dtype(np.uint16): np.dtype(np.uint16), F16: np.dtype(np.uint16),
               bfloat16: np.dtype(np.uint16), I32: np.dtype(np.uint32), np.dtype(np.uint32): np.dtype(np.uint32),
               F32: np.dtype(np.uint32)}


def Scatter(dst: LocalTensor, src: RegTensor, index: RegTensor, mask: MaskReg) -> None:  # noqa: N802
    """MicroAPI::Scatter(baseAddr, srcReg, index, mask): baseAddr[index[i]] = src[i] for each active
    lane (index in elements; baseAddr 32-byte aligned). b8 elements go with b16 indices: lane i
    stores the register's byte 2i, as AscendC says. Two active lanes with one index: AscendC keeps
    one of them, unspecified which -- an api_contract_violation here."""
    t = dst.dtype
    want = _UB_SCATTER.get(t)
    if want is None or index.dtype != want:
        raise EmulatorError(f"MicroAPI::Scatter of {dtype_name(t)} with {dtype_name(index.dtype)} indices is not one "
                            f"of AscendC's pairs ({dtype_name(t)} takes {dtype_name(want) if want else 'none'})")
    if dst.ub_addr % UB_ALIGN:
        raise ApiContractError(f"MicroAPI::Scatter: baseAddr UB {dst.ub_addr:#x} is not {UB_ALIGN}-byte aligned")
    ctx = dst.ctx
    lane = want.itemsize
    active, m_undef, m_origin = _mask_lanes("Scatter", mask, lane)
    picks = index.lanes(want).astype(np.int64)
    chosen = np.flatnonzero(active)
    if np.unique(picks[chosen]).size != chosen.size:
        raise ApiContractError("MicroAPI::Scatter: two active lanes name one element (the indices must be unique; "
                               "which lane's value the device keeps is unspecified)")
    _issue("Scatter", ctx)
    if t.itemsize == 1:  # the even bytes
        values, undef = src.data[0::2].view(t), src.undef[0::2].copy()
    else:
        values, undef = src.lanes(t), src.lane_undef(lane)
    undef = undef | index.lane_undef(lane) | m_undef
    origin = src.origin or index.origin or m_origin
    for i in chosen:
        one = LocalTensor(dst.buffer, t, dst.offset + int(picks[i]) * t.itemsize)
        write_local(one, values[i:i + 1], "Scatter", count=False)
        if undef[i]:
            mark_undefined(one, [0], origin or "MicroAPI::Scatter stored a lane nothing wrote")


def Gather(dst: RegTensor, src, index: RegTensor, *rest) -> None:  # noqa: N802 - AscendC name
    """MicroAPI::Gather(dstReg, srcReg, indexReg): dst[i] = src[index[i] % n] over all n lanes (an
    index past the register wraps, as AscendC documents); b8 / b16 / b32 lanes, the index lanes of the
    same width (uint8 / uint16 / uint32). With a UB address for src and a mask: _gather_from_ub."""
    if isinstance(src, LocalTensor):
        if len(rest) != 1:
            raise EmulatorError("MicroAPI::Gather(dstReg, baseAddr, index, mask): the UB form takes a mask")
        _gather_from_ub(dst, src, index, rest[0])
        return
    if not isinstance(src, RegTensor) or rest:
        raise EmulatorError("MicroAPI::Gather: the register form is Gather(dstReg, srcReg, indexReg)")
    size = dst.dtype.itemsize
    if src.dtype.itemsize != size or index.dtype.itemsize != size or size not in (1, 2, 4):
        raise EmulatorError(f"MicroAPI::Gather: source, destination and index lanes of one width (8, 16 or 32 bits), "
                            f"got {dtype_name(src.dtype)}, {dtype_name(dst.dtype)}, {dtype_name(index.dtype)}")
    ctx = dst.ctx
    _issue("Gather", ctx)
    n = VECTOR_REG_WIDTH // size
    pick = index.data.view(f"u{size}").astype(np.int64) % n
    idx_undef = index.lane_undef(size)
    values = src.data.reshape(n, size)[pick]
    undef = src.lane_undef(size)[pick] | idx_undef
    dst.data[:] = values.reshape(-1)
    dst.undef[:] = np.repeat(undef, size)
    dst.origin = (index.origin or src.origin) if undef.any() else None


def Truncate(dst: RegTensor, src: RegTensor, mask: MaskReg, round_mode: RoundMode = RoundMode.CAST_NONE,  # noqa: N802
             mode: MaskMergeMode = MaskMergeMode.ZEROING) -> None:
    """MicroAPI::Truncate<T, roundMode>: each active lane rounded to an integral value of its own type
    (half, bfloat16, float) in RINT / ROUND / FLOOR / CEIL / TRUNC, the sign of a zero kept, NaN and
    inf passed with their bits (AscendC's Reg Truncate; MERGING is not supported there)."""
    if round_mode not in _TRUNCATE_MODES:
        raise EmulatorError(f"MicroAPI::Truncate takes RINT, ROUND, FLOOR, CEIL or TRUNC, not {round_mode.name}")
    if _merge_mode("Truncate", mode) is not MaskMergeMode.ZEROING:
        raise EmulatorError("MicroAPI::Truncate: MaskMergeMode::MERGING is not supported (AscendC)")

    def integral(x):
        out = np.empty_like(x)
        round_integral_float(x, round_mode, out)
        return out
    _elementwise("Truncate", integral, (F16, F32, bfloat16), dst, [src], mask, mode)


_TRUNCATE_MODES = (RoundMode.CAST_RINT, RoundMode.CAST_ROUND, RoundMode.CAST_FLOOR, RoundMode.CAST_CEIL,
                   RoundMode.CAST_TRUNC)


def _multiply_add(product: np.ndarray, acc: np.ndarray) -> np.ndarray:
    """acc + product, each rounded to the lane type: whether the unit fuses the multiply and the
    add is not documented; the model rounds twice, as ternary.py's Axpy / MulAddDst do."""
    return add_values(product, acc)


def Axpy(dst: RegTensor, src: RegTensor, scalar, mask: MaskReg,  # noqa: N802 - AscendC name
         mode: MaskMergeMode = MaskMergeMode.ZEROING) -> None:
    """MicroAPI::Axpy(dst, src, scalar, mask): dst = src * scalar + dst on the active lanes (the
    product rounded to the lane type, then the sum); half and float."""
    s = to_scalar(scalar, src.dtype)
    _elementwise("Axpy", lambda d, x: _multiply_add(mul_values(x, s), d), FLOATS, dst, [dst, src], mask, mode)


def MulAddDst(dst: RegTensor, src0: RegTensor, src1: RegTensor, mask: MaskReg,  # noqa: N802 - AscendC name
              mode: MaskMergeMode = MaskMergeMode.ZEROING) -> None:
    """MicroAPI::MulAddDst (AscendC's other name: Mula)(dst, src0, src1, mask): dst = src0 * src1 +
    dst on the active lanes (two roundings, as Axpy); half, float, int16, int32 (integers wrap)."""
    _elementwise("MulAddDst", lambda d, a, b: _multiply_add(mul_values(a, b), d), ARITH, dst, [dst, src0, src1],
                 mask, mode)


Mula = MulAddDst


def fused_multiply_add(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """a * b + c rounded once to a's type (half / float), ties to even; NaNs as ieee.py settles
    them (an invalid product inf * 0 gives the sign sign(a) xor sign(b)).

    How, without a fused multiply-add on the host: a * b is exact in float64 (at most 48
    significant bits); the float64 sum s = a * b + c is then made round-to-odd -- when the sum was
    inexact (its exact error, TwoSum's, is not 0) and s's last bit is even, s moves one float64
    ulp towards the error -- and round-to-odd through 53 >= p + 2 bits followed by one rounding to
    p bits is the correctly rounded result (Boldo and Melquiond, "Emulation of FMA and correctly
    rounded sums: proved algorithms using rounding to odd", 2008)."""
    t = a.dtype
    with np.errstate(all="ignore"):
        a64, b64, c64 = (np.asarray(v, t).astype(np.float64) for v in (a, b, c))
        p = a64 * b64
        s = p + c64
        bv = s - p
        err = (p - (s - bv)) + (c64 - bv)
        even = (s.view(np.uint64) & np.uint64(1)) == 0
        nudge = np.isfinite(s) & np.isfinite(err) & (err != 0) & even
        s = np.where(nudge, np.nextafter(s, np.copysign(np.inf, err)), s)
        out = s.astype(t)
    invalid_product = (np.isinf(a64) & (b64 == 0)) | ((a64 == 0) & np.isinf(b64))
    sign = np.where(invalid_product, sign_bits(np.asarray(a, t)) ^ sign_bits(np.asarray(b, t)), 0)
    return settle_nans(out, [np.asarray(a, t), np.asarray(b, t), np.asarray(c, t)],
                       sign.astype(sign_bits(out).dtype))


def MulDstAdd(dst: RegTensor, src0: RegTensor, src1: RegTensor, mask: MaskReg,  # noqa: N802 - AscendC name
              mode: MaskMergeMode = MaskMergeMode.ZEROING) -> None:
    """MicroAPI::MulDstAdd (FusedMulDstAdd)(dst, src0, src1, mask): dst = dst * src0 + src1 on the
    active lanes, fused -- one rounding (AscendC: one instruction, more precise than Mul then
    Add); half and float."""
    _elementwise("MulDstAdd", fused_multiply_add, FLOATS, dst, [dst, src0, src1], mask, mode)


FusedMulDstAdd = MulDstAdd


class HighLowPart(Enum):
    """Which half of a register (Pack / UnPack) or which end lane (Duplicate from a register)."""
    LOWEST = 0
    HIGHEST = 1


def high_low_part(name: str, part) -> HighLowPart:
    """A HighLowPart, or its C++ value (0 LOWEST, 1 HIGHEST: how C++ passes it)."""
    try:
        return part if isinstance(part, HighLowPart) else HighLowPart(int(part))
    except (TypeError, ValueError):
        raise EmulatorError(f"MicroAPI::{name}: the part must be HighLowPart LOWEST or HIGHEST, got {part!r}") from None


def Duplicate(dst: RegTensor, scalar, mask: MaskReg | None = None,  # noqa: N802 - AscendC name
              mode: MaskMergeMode = MaskMergeMode.ZEROING, pos: HighLowPart = HighLowPart.LOWEST) -> None:
    """MicroAPI::Duplicate: the scalar (converted to the lane type) in every active lane; without
    a mask, in every lane. With a RegTensor for the scalar (and a mask): its lowest lane (pos
    LOWEST: where a Reduce leaves its result) or its highest one (HIGHEST) in every active lane."""
    t = _lane_type("Duplicate", REG_TYPES, dst)
    n = VECTOR_REG_WIDTH // t.itemsize
    if isinstance(scalar, RegTensor):
        if mask is None:
            raise EmulatorError("MicroAPI::Duplicate(dst, srcReg, mask): the register form takes a mask")
        src = scalar
        _lane_type("Duplicate", REG_TYPES, dst, src)
        ctx = dst.ctx
        _issue("Duplicate", ctx)
        mode = _merge_mode("Duplicate", mode)
        k = 0 if high_low_part("Duplicate", pos) is HighLowPart.LOWEST else n - 1
        active, m_undef, m_origin = _mask_lanes("Duplicate", mask, t.itemsize)
        from_k = bool(src.lane_undef(t.itemsize)[k])  # every lane written is lane k's value
        undef = m_undef | from_k
        origin = (src.origin or f"MicroAPI::Duplicate{_where(ctx)} read a lane of a register nothing wrote"
                  if from_k else m_origin)
        _write_lanes(dst, t, np.full(n, src.lanes(t)[k], dtype=t), active | m_undef, undef, mode, origin)
        return
    s = to_scalar(scalar, t)
    _elementwise("Duplicate", lambda: np.full(n, s, dtype=t), REG_TYPES, dst, [], mask, mode)


class IndexOrder(Enum):
    INCREASE_ORDER = 0
    DECREASE_ORDER = 1


ARANGE_TYPES = (np.dtype(np.int8), I16, I32, F16, F32)


def Arange(dst: RegTensor, scalar, order: IndexOrder = IndexOrder.INCREASE_ORDER) -> None:  # noqa: N802
    """MicroAPI::Arange: lane i = scalar + i (INCREASE_ORDER); DECREASE_ORDER ends at the scalar,
    lane i = scalar + (lanes - 1 - i). Integer lanes wrap past their range, as AscendC says."""
    t = _lane_type("Arange", ARANGE_TYPES, dst)
    if not isinstance(order, IndexOrder):
        order = IndexOrder(int(order))
    n = VECTOR_REG_WIDTH // t.itemsize
    steps = np.arange(n, dtype=np.int64)
    if order is IndexOrder.DECREASE_ORDER:
        steps = steps[::-1]
    if t.kind == "i":
        values = (int(scalar) + steps).astype(t)  # int64 -> the lane type keeps the low bits: the wrap
    else:
        values = (np.float64(to_scalar(scalar, t)) + steps).astype(t)
    _elementwise("Arange", lambda: values, ARANGE_TYPES, dst, [], None, MaskMergeMode.ZEROING)


def Copy(dst: RegTensor | MaskReg, src: RegTensor | MaskReg) -> None:  # noqa: N802 - AscendC name
    """A register's whole value (bytes or bits, definedness and origin) into another: C++'s
    assignment of a RegTensor / MaskReg. Not an instruction (not counted)."""
    if isinstance(dst, RegTensor) and isinstance(src, RegTensor):
        dst.data[:] = src.data
    elif isinstance(dst, MaskReg) and isinstance(src, MaskReg):
        dst.bits[:] = src.bits
    else:
        raise EmulatorError(f"MicroAPI: cannot copy a {type(src).__name__} into a {type(dst).__name__}")
    dst.undef[:] = src.undef
    dst.origin = src.origin


def Move(dst: RegTensor, src: RegTensor, mask: MaskReg,  # noqa: N802 - AscendC name
         mode: MaskMergeMode = MaskMergeMode.ZEROING) -> None:
    """MicroAPI::Move (AscendC's other name: Copy with a mask)(dst, src, mask): src's active lanes
    into dst; the inactive ones +0 (ZEROING) or dst's own (MERGING). Any register type."""
    _elementwise("Move", lambda x: x, REG_TYPES, dst, [src], mask, mode)


# ---- masks ----

def _mask_type(name: str, dtype) -> int:
    t = np.dtype(dtype)
    if t.itemsize not in (1, 2, 4):
        raise EmulatorError(f"MicroAPI::{name}<{dtype_name(t)}>: b8, b16 and b32 types only")
    return t.itemsize


def _set_mask(dst: MaskReg, size: int, active: np.ndarray) -> None:
    dst.bits[:] = False
    dst.bits[::size] = active
    dst.undef[:] = False
    dst.origin = None


_VL = {MaskPattern.VL1: 1, MaskPattern.VL2: 2, MaskPattern.VL3: 3, MaskPattern.VL4: 4, MaskPattern.VL8: 8,
       MaskPattern.VL16: 16, MaskPattern.VL32: 32, MaskPattern.VL64: 64, MaskPattern.VL128: 128}


def CreateMask(dst: MaskReg, dtype: DTypeLike, pattern: MaskPattern = MaskPattern.ALL) -> None:  # noqa: N802
    """MicroAPI::CreateMask<T, pattern>: ALL (every lane of T), ALLF (none), VLn (the first n), H
    (the first half), Q (the first quarter). M3 / M4 are refused (not modelled)."""
    size = _mask_type("CreateMask", dtype)
    dst.ctx.counters.issue("MicroAPI::CreateMask")
    n = VECTOR_REG_WIDTH // size
    if pattern is MaskPattern.ALL:
        k = n
    elif pattern is MaskPattern.ALLF:
        k = 0
    elif pattern is MaskPattern.H:
        k = n // 2
    elif pattern is MaskPattern.Q:
        k = n // 4
    elif pattern in _VL:
        k = min(_VL[pattern], n)
    else:
        raise EmulatorError(f"MicroAPI::CreateMask pattern {getattr(pattern, 'name', pattern)} is not modelled")
    _set_mask(dst, size, np.arange(n) < k)


def UpdateMask(dst: MaskReg, dtype: DTypeLike, size: int) -> int:  # noqa: N802 - AscendC name
    """MicroAPI::UpdateMask<T>(size): the first min(size, lanes of T) lanes active; returns size
    less the lanes (at least 0), what C++'s reference argument becomes."""
    s = _mask_type("UpdateMask", dtype)
    dst.ctx.counters.issue("MicroAPI::UpdateMask")
    n = VECTOR_REG_WIDTH // s
    size = int(size) & 0xFFFF_FFFF
    _set_mask(dst, s, np.arange(n) < min(size, n))
    return max(size - n, 0)


def _compare(name: str, dst: MaskReg, src: RegTensor, other, mask: MaskReg, mode: CMPMODE, regs) -> None:
    if not isinstance(mode, CMPMODE):
        raise EmulatorError(f"MicroAPI::{name} mode must be a CMPMODE, got {mode!r}")
    t = _lane_type(name, ARITH_ALL, *regs)  # every 8- to 32-bit type (AscendC's Reg Compare list)
    ctx = src.ctx
    _issue(name, ctx)
    size = t.itemsize
    active, m_undef, m_origin = _mask_lanes(name, mask, size)
    with np.errstate(invalid="ignore"):
        result = compare_values(src.lanes(t), other, mode)
    used = [r.lane_undef(size) & active for r in regs]
    undef = np.logical_or.reduce(used) | m_undef
    dst.bits[:] = False
    dst.bits[::size] = result & active  # a predicate's inactive lanes are clear
    dst.undef[:] = False
    dst.undef[::size] = undef
    dst.origin = (_source_origin(name, ctx, regs, used) or m_origin) if undef.any() else None


def Compare(dst: MaskReg, src0: RegTensor, src1: RegTensor, mask: MaskReg,  # noqa: N802 - AscendC name
            mode: CMPMODE = CMPMODE.EQ) -> None:
    """MicroAPI::Compare<T, mode>: dst's lane bit = src0 <mode> src1 on the active lanes (clear on
    the others); a comparison with NaN is false except NE, which is true: Ascend950's rule, the
    one its count-form Compare follows (compare_tensor.py)."""
    _compare("Compare", dst, src0, src1.lanes(src0.dtype), mask, mode, [src0, src1])


def CompareScalar(dst: MaskReg, src: RegTensor, scalar, mask: MaskReg,  # noqa: N802 - AscendC name
                  mode: CMPMODE = CMPMODE.EQ) -> None:
    """MicroAPI::CompareScalar<T, mode> (AscendC also names it Compares): as Compare, against the
    scalar converted to the lane type."""
    _compare("CompareScalar", dst, src, to_scalar(scalar, src.dtype), mask, mode, [src])


Compares = CompareScalar


def Select(dst: RegTensor, src0: RegTensor, src1: RegTensor, sel: MaskReg) -> None:  # noqa: N802 - AscendC name
    """MicroAPI::Select: every lane of dst from src0 where sel's lane bit is set, else from src1."""
    t = _lane_type("Select", REG_TYPES, dst, src0, src1)
    ctx = dst.ctx
    _issue("Select", ctx)
    size = t.itemsize
    pick, m_undef, m_origin = _mask_lanes("Select", sel, size)
    result = np.where(pick, src0.lanes(t), src1.lanes(t))
    used = [src0.lane_undef(size) & pick, src1.lane_undef(size) & ~pick]
    undef = used[0] | used[1] | m_undef
    origin = _source_origin("Select", ctx, [src0, src1], used) or m_origin
    _write_lanes(dst, t, result, np.ones_like(pick), undef, MaskMergeMode.ZEROING, origin)


# ---- Cast ----

def Cast(dst: RegTensor, src: RegTensor, mask: MaskReg, trait: CastTrait = CastTrait()) -> None:  # noqa: N802
    """MicroAPI::Cast<Dst, Src, trait>: each active lane converted by cast.py's conversion (the
    Atlas A2 pairs and round modes; RoundMode UNKNOWN is CAST_NONE, which is RINT where precision
    is lost, and float -> bfloat16 needs a mode). The mask is read in lanes of the wider type.

    A widening Cast reads one part of each wider lane -- RegLayout ZERO (or UNKNOWN) the lowest, ONE,
    TWO, THREE the next (2:1 pairs have two parts, the 4:1 fp8 pairs four); a narrowing one writes
    its result there and +0 in the other parts (AscendC: a narrowing Cast's invalid elements are 0,
    which kernels rely on when they add four fp8 layouts into one register). The 8-bit float pairs are
    float8.py's (float <-> fp8 E4M3FN / E5M2). Merge
    mode UNKNOWN is ZEROING. SatMode: UNKNOWN or SAT for float -> integer (saturating, NaN -> 0),
    UNKNOWN or NO_SAT for float -> float (overflow to inf); NO_SAT for float -> integer keeps the
    rounded value's low bits (+-inf: the extremes, NaN: 0), as AscendC's Reg Cast documents it;
    SAT on a narrowing float -> float is refused."""
    name = "Cast"
    ts, td = src.dtype, dst.dtype
    ctx = dst.ctx
    spr.check_per_instruction_saturation(ctx, "MicroAPI::Cast")
    if not isinstance(trait, CastTrait):
        raise EmulatorError(f"MicroAPI::Cast: trait must be a CastTrait, got {type(trait).__name__}")
    mode = trait.roundMode or RoundMode.CAST_NONE
    merge = MaskMergeMode.ZEROING if trait.mrgMode is MaskMergeMode.UNKNOWN else trait.mrgMode
    layout = RegLayout.ZERO if trait.layoutMode is RegLayout.UNKNOWN else trait.layoutMode
    names = (dtype_name(ts), dtype_name(td))
    pair = f"{names[0]} -> {names[1]}"
    if names[1] not in _REG_CAST_PAIRS.get(names[0], ()):
        raise ApiContractError(f"MicroAPI::Cast {pair}: not a conversion AscendC's Reg Cast has (its documented "
                               f"pairs from {names[0]}: {', '.join(_REG_CAST_PAIRS.get(names[0], ())) or 'none'}); "
                               "AscendC's own implementation compiles such a Cast to no conversion")
    fp8 = float8.is_float8(ts) or float8.is_float8(td)
    half_bf16 = (ts, td) in _HALF_BF16
    int_int = ts.kind in "iu" and td.kind in "iu"  # every documented integer pair: cast_values' integer branch
    if half_bf16 and mode not in _DIRECTED:
        raise EmulatorError(f"MicroAPI::Cast {pair} takes RINT, ROUND, FLOOR, CEIL or TRUNC, not {mode.name}")
    if fp8:
        modes = float8.MICRO_CASTS.get((ts, td))
        if modes is None or mode.name not in modes:
            pairs = ", ".join(f"{dtype_name(a)} -> {dtype_name(b)}" for a, b in float8.MICRO_CASTS)
            raise EmulatorError(f"MicroAPI::Cast {pair} with {mode.name}: not modelled (the 8-bit float pairs "
                                f"modelled: {pairs})")
    elif not (int_int or half_bf16):
        try:
            check_cast(ts, td, mode)
        except EmulatorError as e:
            raise EmulatorError(f"MicroAPI::Cast {pair} with {mode.name}: not modelled ({e})") from None
    to_int = td.kind in "iu" and ts.kind not in "iu"
    if not (fp8 or half_bf16 or int_int) and not to_int and trait.satMode is SatMode.SAT and td.itemsize < ts.itemsize:
        raise EmulatorError(f"MicroAPI::Cast {pair} with SatMode::{trait.satMode.name} is not modelled")
    wide, narrow = max(ts.itemsize, td.itemsize), min(ts.itemsize, td.itemsize)
    ratio = wide // narrow
    if ratio not in (1, 2, 4):
        raise EmulatorError(f"MicroAPI::Cast {pair}: only same-size, 2:1 and 4:1 pairs are modelled")
    part = None
    if ratio > 1:
        part = _LAYOUT_PART.get(layout)
        if part is None or part >= ratio:
            raise EmulatorError(f"MicroAPI::Cast {pair}: RegLayout::{layout.name} is not one of the "
                                f"{ratio} parts of a {8 * wide}-bit lane")
    _issue(name, ctx)
    active, m_undef, m_origin = _mask_lanes(name, mask, wide)
    src_undef = src.lane_undef(ts.itemsize)
    values = src.lanes(ts)
    if part is not None and td.itemsize > ts.itemsize:  # widening: one part of each wider lane
        values, src_undef = values[part::ratio], src_undef[part::ratio]
    values = np.ascontiguousarray(values)
    if half_bf16:
        converted = _half_bf16(values, td, mode, saturate=trait.satMode is SatMode.SAT)
    elif fp8:
        converted = float8.convert(values, td, saturate=trait.satMode is SatMode.SAT)
    else:
        wrap = (to_int or int_int) and trait.satMode is SatMode.NO_SAT  # NO_SAT into an integer: the low bits
        converted = cast_values(values, td, mode, saturate=not wrap)
    used = src_undef & active
    undef = used | m_undef
    origin = _source_origin(name, ctx, [src], [used]) or m_origin
    if part is None or td.itemsize > ts.itemsize:
        _write_lanes(dst, td, converted, active | m_undef, undef, merge, origin)
        return
    # narrowing: the result in one part of each wide lane, +0 in the other parts (defined)
    n = VECTOR_REG_WIDTH // td.itemsize
    full = np.zeros(n, dtype=td)
    full[part::ratio] = converted
    lane_active = np.repeat(active | m_undef, ratio)
    lane_undef = np.zeros(n, dtype=bool)
    lane_undef[part::ratio] = undef
    _write_lanes(dst, td, full, lane_active, lane_undef, merge, origin)


_LAYOUT_PART = {RegLayout.ZERO: 0, RegLayout.ONE: 1, RegLayout.TWO: 2, RegLayout.THREE: 3}
# The conversions AscendC's Reg Cast documents (source -> destinations), by opsnn's dtype names;
# which of them the emulator models is the pair tables' business (cast.py, float8.py, _HALF_BF16).
_REG_CAST_PAIRS = {
    "int4x2": ("int16", "float16", "bfloat16"), "int8": ("int16", "float16", "int32"),
    "uint8": ("uint16", "float16", "uint32"), "float4_e2m1x2": ("bfloat16",), "float4_e1m2x2": ("bfloat16",),
    "hifloat8": ("float16", "float32"), "float8_e8m0": ("bfloat16",), "float8_e5m2": ("float32",),
    "float8_e4m3fn": ("float32",), "int16": ("int4x2", "uint8", "float16", "int32", "uint32", "float32"),
    "uint16": ("uint8", "uint32"),
    "float16": ("int4x2", "int8", "uint8", "hifloat8", "int16", "bfloat16", "int32", "float32"),
    "bfloat16": ("float4_e2m1x2", "float4_e1m2x2", "float8_e8m0", "float16", "int32", "float32"),
    "int32": ("uint8", "int16", "float32", "int64"), "uint32": ("uint8", "int16", "uint16"),
    "float32": ("hifloat8", "float8_e5m2", "float8_e4m3fn", "int16", "float16", "bfloat16", "int32", "int64"),
    "int64": ("int32", "float32"),
}
# Ascend950's half <-> bfloat16 (AscendC's Reg Cast, "float to float"): each of the directed modes
_HALF_BF16 = ((F16, bfloat16), (bfloat16, F16))
_DIRECTED = (RoundMode.CAST_RINT, RoundMode.CAST_ROUND, RoundMode.CAST_FLOOR, RoundMode.CAST_CEIL,
             RoundMode.CAST_TRUNC)


def _half_bf16(values: np.ndarray, dst: np.dtype, mode: RoundMode, saturate: bool) -> np.ndarray:
    """half -> bfloat16 (always in range) or bfloat16 -> half in `mode`: SatMode::SAT clamps to
    half's largest finite value and turns NaN into 0, otherwise overflow follows the mode (IEEE:
    inf, or the largest finite value when rounding toward zero) and NaN stays NaN."""
    wide = values.astype(np.float64)
    if saturate and dst == F16:  # half -> bfloat16 never overflows; SAT does not touch its NaN either
        wide = saturated_float(wide, dst)
    return to_float(wide, dst, mode).astype(dst)


# ---- UB <-> registers ----

# an unpacking load: (element bytes, lanes per element) -- each element into the low bytes of a wider lane
_LOAD_UNPACK = {LoadDist.DIST_UNPACK_B8: (1, 2), LoadDist.DIST_UNPACK_B16: (2, 2), LoadDist.DIST_UNPACK_B32: (4, 2),
                LoadDist.DIST_UNPACK4_B8: (1, 4)}
_LOAD_BRC = {LoadDist.DIST_BRC_B8: 1, LoadDist.DIST_BRC_B16: 2, LoadDist.DIST_BRC_B32: 4}
# element to data block: VL / 32 elements, each repeated over a 32-byte block (its alignment: the element's)
_LOAD_E2B = {LoadDist.DIST_E2B_B16: 2, LoadDist.DIST_E2B_B32: 4}
_STORE_NORM = {StoreDist.DIST_NORM_B8: 1, StoreDist.DIST_NORM_B16: 2, StoreDist.DIST_NORM_B32: 4}
# a packing store: (element bytes, lanes per element) -- the low element bytes of each lane
_STORE_PACK = {StoreDist.DIST_PACK_B16: (1, 2), StoreDist.DIST_PACK_B32: (2, 2), StoreDist.DIST_PACK_B64: (4, 2),
               StoreDist.DIST_PACK4_B32: (1, 4)}
_STORE_FIRST = {StoreDist.DIST_FIRST_ELEMENT_B8: 1, StoreDist.DIST_FIRST_ELEMENT_B16: 2,
                StoreDist.DIST_FIRST_ELEMENT_B32: 4}
_NAME = "MicroAPI::DataCopy"


def _element_size(dist, expected: int, t: np.dtype) -> None:
    if t.itemsize != expected:
        raise EmulatorError(f"{_NAME} with {dist.name} moves {8 * expected}-bit elements, not "
                            f"{dtype_name(t)}")


def _load(dst: RegTensor, src: LocalTensor, dist: LoadDist) -> None:
    t = src.dtype
    if not isinstance(dist, LoadDist):
        raise EmulatorError(f"{_NAME}: a load takes a LoadDist, got {dist!r}")
    if dst.dtype.itemsize != t.itemsize:
        raise EmulatorError(f"{_NAME}: a RegTensor<{dtype_name(dst.dtype)}> loaded from a {dtype_name(t)} address")
    ctx = src.ctx
    ctx.counters.issue(_NAME)
    size = t.itemsize
    if dist is LoadDist.DIST_NORM:
        count, step, unit = VECTOR_REG_WIDTH // size, 1, UB_ALIGN
    elif dist in _LOAD_UNPACK:
        element, ratio = _LOAD_UNPACK[dist]
        _element_size(dist, element, t)
        count, step, unit = VECTOR_REG_WIDTH // (ratio * size), ratio, UB_ALIGN
    elif dist in _LOAD_BRC:
        _element_size(dist, _LOAD_BRC[dist], t)
        count, step, unit = 1, 0, size
    elif dist is LoadDist.DIST_BLK:  # one 32-byte block, repeated over the register
        count, step, unit = UB_ALIGN // size, -2, UB_ALIGN
    elif dist in _LOAD_E2B:  # VL / 32 elements, each broadcast to a 32-byte block
        _element_size(dist, _LOAD_E2B[dist], t)
        count, step, unit = VECTOR_REG_WIDTH // UB_ALIGN, -1, size
    else:
        raise EmulatorError(f"{_NAME} with LoadDist::{dist.name} is not modelled")
    _check_ub_aligned(src, _NAME, count * size, unit)
    values, undefined, origin = register_read(src, count, _NAME)
    lanes = dst.data.view(t)
    dst.data[:] = 0
    dst.undef[:] = False
    per_lane = dst.undef.reshape(-1, size)
    if step == 0:  # broadcast
        lanes[:] = values[0]
        per_lane[:] = undefined[0]
    elif step == -2:  # block broadcast
        lanes[:] = np.tile(values, VECTOR_REG_WIDTH // UB_ALIGN)
        per_lane[:] = np.tile(undefined, VECTOR_REG_WIDTH // UB_ALIGN)[:, None]
    elif step == -1:  # element to block
        lanes[:] = np.repeat(values, UB_ALIGN // size)
        per_lane[:] = np.repeat(undefined, UB_ALIGN // size)[:, None]
    else:
        lanes[::step] = values
        per_lane[::step] = undefined[:, None]
    dst.origin = origin if dst.undef.any() else None


def _store(dst: LocalTensor, src: RegTensor, mask: MaskReg, dist: StoreDist) -> None:
    t = dst.dtype
    if not isinstance(dist, StoreDist):
        raise EmulatorError(f"{_NAME}: a store takes a StoreDist, got {dist!r}")
    if src.dtype.itemsize != t.itemsize:
        raise EmulatorError(f"{_NAME}: a RegTensor<{dtype_name(src.dtype)}> stored to a {dtype_name(t)} address")
    ctx = dst.ctx
    ctx.counters.issue(_NAME)
    size = t.itemsize
    if dist is StoreDist.DIST_NORM or dist in _STORE_NORM:
        if dist in _STORE_NORM:
            _element_size(dist, _STORE_NORM[dist], t)
        lane, first = size, False
    elif dist in _STORE_PACK:
        element, ratio = _STORE_PACK[dist]
        if size == element * ratio:  # typed as the register's lanes (AscendC's T is the register's type):
            t, size = np.dtype(f"u{element}"), element  # the narrow elements land as raw bits
        _element_size(dist, element, t)
        lane, first = ratio * size, False
    elif dist in _STORE_FIRST:
        _element_size(dist, _STORE_FIRST[dist], t)
        lane, first = size, True
    else:
        raise EmulatorError(f"{_NAME} with StoreDist::{dist.name} is not modelled")
    n = VECTOR_REG_WIDTH // lane
    active, m_undef, m_origin = _mask_lanes("DataCopy", mask, lane)
    if first:
        active[1:], m_undef[1:] = False, False
    active |= m_undef  # a lane under an undefined mask bit may be written: its bytes become undefined
    # element k: the low `size` bytes of lane k
    raw = src.data.reshape(n, lane)[:, :size]
    src_undef = src.undef.reshape(n, lane)[:, :size].any(axis=1)
    undef = src_undef | m_undef
    if (src_undef & active).any():
        origin = src.origin or f"{_NAME}{_where(ctx)} stored lanes of a register nothing wrote"
    else:
        origin = m_origin
    # FIRST_ELEMENT writes one element: its address need only be the element's (AscendC's own
    # reductions store row results with it at consecutive floats)
    _check_ub_aligned(dst, _NAME, n * size, size if first else UB_ALIGN)
    idx = np.flatnonzero(active)
    if idx.size == 0:
        return
    cuts = np.flatnonzero(np.diff(idx) != 1) + 1
    for run in np.split(idx, cuts):  # one write per run of active lanes (a tail mask: one run)
        k0, k1 = int(run[0]), int(run[-1]) + 1
        target = LocalTensor(dst.buffer, t, dst.offset + k0 * size)
        run_undef = np.flatnonzero(undef[k0:k1])
        if run_undef.size and ctx.sanitize:
            pieces = np.split(run_undef, np.flatnonzero(np.diff(run_undef) != 1) + 1)
            ctx.undefined_inputs.extend((_NAME, int(p[0]), int(p[-1]) + 1, origin) for p in pieces)
        data = np.ascontiguousarray(raw[k0:k1]).reshape(-1)
        start, stop, head = _span(target, data.size, _NAME, True, True)
        target.buffer.storage[start:stop] = data[head:head + stop - start]
        ctx.undefined_inputs[:] = [e for e in ctx.undefined_inputs if e[0] != _NAME]


_LOAD_DINTLV = {LoadDist.DIST_DINTLV_B8: 1, LoadDist.DIST_DINTLV_B16: 2, LoadDist.DIST_DINTLV_B32: 4}
_STORE_INTLV = {StoreDist.DIST_INTLV_B8: 1, StoreDist.DIST_INTLV_B16: 2, StoreDist.DIST_INTLV_B32: 4}


def _dual_move(local: LocalTensor, regs, dist, table: dict, way: str, family: str) -> tuple[np.dtype, int, int]:
    """The checks and the count of a two-register move of 2 x VL bytes at `local`: (type, size, lanes)."""
    t = local.dtype
    if dist not in table:
        raise EmulatorError(f"{_NAME} {way} two registers with {type(dist).__name__}::{getattr(dist, 'name', dist)} "
                            f"is not modelled ({family}_B8/B16/B32)")
    _element_size(dist, table[dist], t)
    if any(r.dtype.itemsize != t.itemsize for r in regs):
        raise EmulatorError(f"{_NAME}: registers of another width than the {dtype_name(t)} address")
    local.ctx.counters.issue(_NAME)
    size, n = t.itemsize, VECTOR_REG_WIDTH // t.itemsize
    _check_ub_aligned(local, _NAME, 2 * n * size, UB_ALIGN)
    return t, size, n


def _load_dual(dst0: RegTensor, dst1: RegTensor, src: LocalTensor, dist: LoadDist) -> None:
    """The de-interleaving load: 2 x VL bytes from src, the even elements into dst0, the odd into dst1."""
    t, size, n = _dual_move(src, (dst0, dst1), dist, _LOAD_DINTLV, "into", "DIST_DINTLV")
    values, undefined, origin = register_read(src, 2 * n, _NAME)
    for k, dst in enumerate((dst0, dst1)):
        dst.data.view(t)[:] = values[k::2]
        dst.undef.reshape(-1, size)[:] = undefined[k::2, None]
        dst.origin = origin if dst.undef.any() else None


def LoadDualSecond(dst1: RegTensor, src: LocalTensor, dist: LoadDist) -> None:  # noqa: N802
    """The C++ bridge's form of the de-interleaving load (one result register per call): this call
    loads both, fills dst1 and keeps the even elements for LoadDualFirst's register."""
    first = RegTensor(dst1.ctx, dst1.dtype)
    _load_dual(first, dst1, src, dist)
    dst1.ctx.spr["MICRO_LOAD_DUAL_FIRST"] = first


def LoadDualFirst(dst0: RegTensor) -> None:  # noqa: N802
    first = dst0.ctx.spr.pop("MICRO_LOAD_DUAL_FIRST", None)
    if first is None:
        raise EmulatorError(f"{_NAME}: the first register of a de-interleaving load without the load")
    dst0.data[:], dst0.undef[:], dst0.origin = first.data, first.undef, first.origin


def _store_dual(dst: LocalTensor, src0: RegTensor, src1: RegTensor, mask: MaskReg, dist: StoreDist) -> None:
    """The interleaving store: src0[0], src1[0], src0[1], ... -- 2 x VL bytes. The mask is not applied:
    AscendC documents the interleaving store as ignoring it (asc_storealign_intlv)."""
    t, size, n = _dual_move(dst, (src0, src1), dist, _STORE_INTLV, "from", "DIST_INTLV")
    ctx = dst.ctx
    raw = np.empty((2 * n, size), dtype=np.uint8)
    raw[0::2], raw[1::2] = src0.data.reshape(n, size), src1.data.reshape(n, size)
    undef = np.empty(2 * n, dtype=bool)
    undef[0::2], undef[1::2] = src0.lane_undef(size), src1.lane_undef(size)
    if undef.any() and ctx.sanitize:
        origin = src0.origin or src1.origin or f"{_NAME}{_where(ctx)} stored lanes of a register nothing wrote"
        bad = np.flatnonzero(undef)
        for p in np.split(bad, np.flatnonzero(np.diff(bad) != 1) + 1):
            ctx.undefined_inputs.append((_NAME, int(p[0]), int(p[-1]) + 1, origin))
    start, stop, head = _span(dst, raw.size, _NAME, True, True)
    dst.buffer.storage[start:stop] = raw.reshape(-1)[head:head + stop - start]
    ctx.undefined_inputs[:] = [e for e in ctx.undefined_inputs if e[0] != _NAME]


def DataCopy(dst, src, *rest) -> None:  # noqa: N802 - AscendC name
    """MicroAPI::DataCopy, both directions:

    - ``DataCopy(reg, local, dist=LoadDist.DIST_NORM)``: a load from the LocalTensor's address
      (``__local_mem__ T*``), every lane (no mask);
    - ``DataCopy(local, reg, mask, dist=StoreDist.DIST_NORM)``: a store of the active lanes;
    - ``DataCopy(reg0, reg1, local, dist)``: a de-interleaving load (DIST_DINTLV_B*) of 2 x VL bytes;
    - ``DataCopy(local, reg0, reg1, mask, dist)``: an interleaving store (DIST_INTLV_B*), 2 x VL bytes.
    """
    if isinstance(dst, RegTensor) and isinstance(src, RegTensor) and rest and isinstance(rest[0], LocalTensor):
        _load_dual(dst, src, rest[0], rest[1] if len(rest) > 1 else None)
        return
    if isinstance(dst, LocalTensor) and isinstance(src, RegTensor) and rest and isinstance(rest[0], RegTensor):
        if len(rest) != 3:
            raise EmulatorError(f"{_NAME}(local, reg0, reg1, mask, dist): an interleaving store")
        _store_dual(dst, src, rest[0], rest[1], rest[2])
        return
    if isinstance(dst, RegTensor) and isinstance(src, LocalTensor):
        if len(rest) > 1:
            raise EmulatorError(f"{_NAME}(reg, local[, dist]): a load takes no mask")
        _load(dst, src, rest[0] if rest else LoadDist.DIST_NORM)
    elif isinstance(dst, LocalTensor) and isinstance(src, RegTensor):
        if not rest or len(rest) > 2:
            raise EmulatorError(f"{_NAME}(local, reg, mask[, dist]): a store takes a mask")
        _store(dst, src, rest[0], rest[1] if len(rest) > 1 else StoreDist.DIST_NORM)
    else:
        raise EmulatorError(f"{_NAME}: (RegTensor, LocalTensor[, LoadDist]) or (LocalTensor, RegTensor, MaskReg"
                            f"[, StoreDist]), got ({type(dst).__name__}, {type(src).__name__}, ...)")


LoadAlign = DataCopy  # the newer names of the same moves
StoreAlign = DataCopy

__all__ = [
    "VECTOR_REG_WIDTH", "Abs", "Add", "Adds", "Arange", "Axpy", "Cast", "CastTrait", "Compare", "CompareScalar",
    "Compares",
    "Copy", "CreateMask", "DataCopy", "Div", "Duplicate", "Exp", "Gather", "LoadAlign", "LoadDist", "Ln", "Log",
    "MaskMergeMode", "MaskPattern", "MaskReg", "Max", "Maxs", "Min", "Mins", "Mul", "MulDstAdd", "Muls", "Neg",
    "RegLayout", "RegTensor", "Relu", "SatMode", "Scatter", "Select", "Sqrt", "StoreAlign", "StoreDist", "Sub",
    "Truncate",
    "UpdateMask",
    "cast_trait_from_codes", "FusedMulDstAdd", "HighLowPart", "LoadDualFirst", "LoadDualSecond", "Move", "MulAddDst",
    "Mula", "fused_multiply_add",
    "high_low_part", "IndexOrder",
]
