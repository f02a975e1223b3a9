"""torch's type promotion (CPU eager), restated once for every operator's torch semantics: the
common dtype of two dtypes (`torch.promote_types`) and of several arrays (`torch.result_type`,
whose zero-dim rule lets a 0-d operand only lift the result into a higher category: bool <
integer < float < complex). On the dtypes torch and numpy share (torch's complex32 has no numpy
dtype: a promotion to it is a TypeError); the callers check their own dtypes first (each
operator says in its own words what it refuses)."""
from __future__ import annotations

import numpy as np

from opsnn.dtypes import bfloat16

BOOL = np.dtype(np.bool_)
_U8, _I8, _I16, _I32, _I64 = (np.dtype(t) for t in (np.uint8, np.int8, np.int16, np.int32, np.int64))
_F16, _F32, _F64 = (np.dtype(t) for t in (np.float16, np.float32, np.float64))
INTEGERS = frozenset((_U8, _I8, _I16, _I32, _I64))
# torch's "shell" unsigned types: they promote only with themselves and with a floating type (to
# it: uint16 with float16 is float16); with bool or another integer torch raises. No kernel here
# takes them, so they reach a kernel only converted to a floating common dtype.
WIDE_UNSIGNED = frozenset(np.dtype(t) for t in (np.uint16, np.uint32, np.uint64))
FLOATS = frozenset((_F16, bfloat16, _F32, _F64))
KNOWN = frozenset((BOOL, *INTEGERS, *WIDE_UNSIGNED, *FLOATS))  # the real ones
_C64, _C128 = np.dtype(np.complex64), np.dtype(np.complex128)
COMPLEX = frozenset((_C64, _C128))
WITH_COMPLEX = KNOWN | COMPLEX
_INT_RANK = {_U8: 0, _I8: 0, _I16: 1, _I32: 2, _I64: 3}
_SIGNED_BY_RANK = (_I8, _I16, _I32, _I64)
_FLOAT_RANK = {_F16: 0, bfloat16: 0, _F32: 1, _F64: 2}


def category(dt: np.dtype) -> int:
    """0 bool, 1 integer, 2 floating, 3 complex (KeyError for a dtype outside WITH_COMPLEX)."""
    if dt == BOOL:
        return 0
    if dt in FLOATS:
        return 2
    if dt in COMPLEX:
        return 3
    if dt in INTEGERS or dt in WIDE_UNSIGNED:
        return 1
    raise KeyError(f"{dt} is not one of torch's dtypes here")


def to_complex(dt: np.dtype) -> np.dtype:
    """c10's toComplexType: the complex type of a floating one (bfloat16: complex64; float16's,
    complex32, has no numpy dtype: TypeError)."""
    if dt in COMPLEX:
        return dt
    if dt == _F16:
        raise TypeError("torch computes this in complex32 (ComplexHalf), which numpy has no dtype for")
    return _C128 if dt == _F64 else _C64


def promote_types(a: np.dtype, b: np.dtype) -> np.dtype:
    """torch.promote_types; TypeError where torch refuses (uint16/32/64 with bool or an integer)."""
    if a == b:
        return a
    if a in WIDE_UNSIGNED or b in WIDE_UNSIGNED:
        other = b if a in WIDE_UNSIGNED else a
        if other in FLOATS:
            return other
        raise TypeError(f"torch does not promote {a} with {b} (uint16, uint32 and uint64 promote only with "
                        "themselves and floating types)")
    if a == BOOL:
        return b
    if b == BOOL:
        return a
    ca, cb = category(a), category(b)
    if 3 in (ca, cb):  # complex: the wider of the complex one and the other's precision
        c, other = (a, b) if ca == 3 else (b, a)
        return _C128 if _C128 in (c, other) or other == _F64 else _C64
    if ca != cb:
        return a if ca > cb else b
    if ca == 2:
        if {a, b} == {_F16, bfloat16}:
            return _F32  # neither holds the other
        return a if _FLOAT_RANK[a] > _FLOAT_RANK[b] else b
    if _U8 in (a, b):  # uint8 with a signed type: the next signed width that holds both
        other = b if a == _U8 else a
        return _SIGNED_BY_RANK[max(_INT_RANK[other], 1)]
    return a if _INT_RANK[a] > _INT_RANK[b] else b


def result_type(*arrays: np.ndarray) -> np.dtype:
    """torch.result_type: the dimensioned operands' common dtype, unless the 0-d ones' is of a
    higher category (or the dimensioned ones are all bool), which then promotes with it."""
    dim = zero = None
    for a in arrays:
        if a.ndim:
            dim = a.dtype if dim is None else promote_types(dim, a.dtype)
        else:
            zero = a.dtype if zero is None else promote_types(zero, a.dtype)
    if dim is None:
        return zero
    if zero is None or category(zero) <= category(dim):
        return dim
    if category(zero) == 3 and category(dim) == 2:  # combine_categories: the dimensioned precision
        return to_complex(dim)
    return promote_types(dim, zero)
