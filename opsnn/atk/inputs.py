"""Input generation: a case's tensors, scalars and attrs from (seed, case id) alone (docs/atk.md,
"Input generation"), and a digest of them for the reports."""
from __future__ import annotations

import math

import numpy as np

from opsnn.atk.cases import SPECIALS, Case, Input, is_number
from opsnn.dtypes import bfloat16

CHUNK = 1 << 22  # elements generated per rng call: fixed, so a case's inputs never depend on the machine


def case_rng(seed: int, case_id: int) -> np.random.Generator:
    return np.random.default_rng([seed, case_id])


def _spec_value(rv):
    """A one-value form (number, bool, special string, one-element list) as a Python number, else None."""
    if isinstance(rv, list) and len(rv) == 1:
        rv = rv[0]
    if isinstance(rv, str):
        return SPECIALS[rv.lower()]
    if isinstance(rv, bool) or is_number(rv):
        return rv
    return None


def _int_info(dt: np.dtype):
    return np.iinfo(dt) if dt.kind in "iu" else None


def _fill_value(value, dt: np.dtype):
    """A Python number as one element of a tensor of dtype dt (docs/atk.md: integer and bool rules)."""
    if dt.kind == "b":
        return bool(value)  # NaN and ±inf are truthy
    info = _int_info(dt)
    if info is not None:
        if isinstance(value, float):
            if math.isnan(value):
                return 0
            if math.isinf(value):
                return info.max if value > 0 else info.min
            value = math.trunc(value)  # as C casts
        return min(max(int(value), info.min), info.max)
    return value  # floats: the array's cast rounds (to nearest even; beyond the range: inf)


def make_tensor(inp: Input, rng: np.random.Generator) -> np.ndarray:
    dt = inp.np_dtype
    out = np.empty(inp.shape, dt)
    value = _spec_value(inp.range_values)
    if value is not None:
        with np.errstate(all="ignore"):
            out[...] = _fill_value(value, dt)
        return out
    lo, hi = inp.range_values
    flat = out.reshape(-1)
    n = flat.size
    info = _int_info(dt)
    exact = dt.kind in "iub" and float(lo).is_integer() and float(hi).is_integer()
    if exact:  # integers in [lo, hi], both ends included (within the dtype's range for int dtypes)
        a, b = int(lo), int(hi)
        if info is not None:
            a, b = min(max(a, info.min), info.max), min(max(b, info.min), info.max)
    for start in range(0, n, CHUNK):
        stop = min(n, start + CHUNK)
        if exact:
            chunk = rng.integers(a, b, size=stop - start, endpoint=True, dtype=np.int64)
        else:  # uniform in [lo, hi), drawn in float64, then cast to the dtype
            chunk = rng.uniform(lo, hi, size=stop - start)
            if dt.kind == "c":  # complex: the imaginary part drawn the same way, after the real one
                chunk = chunk + 1j * rng.uniform(lo, hi, size=stop - start)
            if info is not None:  # fractional bounds on an integer dtype: truncated as C casts
                chunk = np.clip(np.trunc(chunk), info.min, info.max)
        if dt.kind == "b":
            chunk = chunk != 0  # as a cast to bool
        with np.errstate(all="ignore"):
            flat[start:stop] = chunk
    return out


def make_scalar(inp: Input, rng: np.random.Generator):
    """The scalar as a numpy scalar of its dtype; a value the dtype cannot hold (NaN, ±inf or out of
    range for an integer dtype) stays a Python float/int, for the operator's own checks to judge.
    Returns (value for opsnn, value for torch, note)."""
    dt = inp.np_dtype
    value = _spec_value(inp.range_values)
    if value is None:
        lo, hi = inp.range_values
        if dt.kind in "iub" and float(lo).is_integer() and float(hi).is_integer():
            value = int(rng.integers(int(lo), int(hi), endpoint=True))
        else:
            value = float(rng.uniform(lo, hi))
    if dt.kind == "b":
        return np.bool_(bool(value)), bool(value), ""
    info = _int_info(dt)
    if info is not None:
        if isinstance(value, float) and math.isfinite(value):
            value = math.trunc(value)  # as C casts
        if not (isinstance(value, int) and info.min <= value <= info.max):  # NaN, ±inf, out of range
            return value, value, f"{inp.name}: {value} does not fit {inp.dtype}; passed as a Python number"
        return dt.type(value), int(value), ""  # (torch takes True for a bool, not an int)
    with np.errstate(all="ignore"):
        converted = dt.type(value)
    return converted, float(converted), ""


def make_attr(inp: Input, rng: np.random.Generator):
    """An attr as the plain value its C type takes. A bool attr is the truth of its value: the
    generator's ["inf"] / ["-inf"] on selfIsResult read as True (Python's bool(±inf))."""
    c_type = inp.param.c_type
    value = _spec_value(inp.range_values)
    if value is None:
        lo, hi = inp.range_values
        if c_type in ("bool", "int64_t") and float(lo).is_integer() and float(hi).is_integer():
            value = int(rng.integers(int(lo), int(hi), endpoint=True))
        else:
            value = float(rng.uniform(lo, hi))
    if c_type == "bool":
        return bool(value), bool(value), ""
    if c_type == "int64_t":
        if isinstance(value, float) and not math.isfinite(value):  # for the operator to refuse
            return value, value, f"{inp.name}: {value} is no int64 value; passed as a Python float"
        return int(value), int(value), ""
    dt = inp.np_dtype
    if dt.kind == "f" or dt == bfloat16:
        with np.errstate(all="ignore"):
            value = float(dt.type(value))
    return float(value), float(value), ""


def make_inputs(case: Case, seed: int):
    """(values for opsnn, values for torch, notes), the same for the same (seed, case id)."""
    rng = case_rng(seed, case.id)
    ours, theirs, notes = [], [], []
    for inp in case.inputs:
        if inp.kind == "tensor":
            arr = make_tensor(inp, rng)
            ours.append(arr)
            theirs.append(arr)
            continue
        mine, torchs, note = (make_scalar if inp.kind == "scalar" else make_attr)(inp, rng)
        ours.append(mine)
        theirs.append(torchs)
        if note:
            notes.append(note)
    return ours, theirs, notes


def input_digest(values: list) -> str:
    """A short hash of the generated inputs (dtypes, shapes, bytes; scalars by type and value)."""
    import hashlib
    h = hashlib.sha256()  # (with the CPU's SHA instructions: ~2 GB/s, 3x blake2b here)
    for v in values:
        if isinstance(v, np.ndarray):
            h.update(f"{v.dtype.str}{v.shape}".encode())
            flat = np.ascontiguousarray(v.reshape(-1))
            h.update(memoryview(flat.view(np.uint8)))
        else:
            h.update(f"{type(v).__name__}:{v!r}".encode())
    return h.hexdigest()[:16]

