"""One side's outcome (an array or the exception it raised) against another's: bit for bit, a
refusal matching a refusal."""
from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np

from opsnn.atk.cases import dtype_name
from opsnn.dtypes import bfloat16


@dataclass
class Outcome:
    """What one side computed: an array or the exception it raised."""
    value: np.ndarray | None = None
    error: BaseException | None = None

    def describe(self) -> str:
        if self.error is not None:
            return f"raised {type(self.error).__name__}: {short(str(self.error))}"
        return f"returned {dtype_name(self.value.dtype)} {list(self.value.shape)}"


def short(text: str, limit: int = 200) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 3] + "..."



def call(fn, args, kwargs=None, convert=np.asarray) -> Outcome:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with np.errstate(all="ignore"):
                result = fn(*args, **(kwargs or {}))
        return Outcome(value=convert(result))
    except Exception as e:  # a refusal is an outcome to compare
        return Outcome(error=e)


def _bits(a: np.ndarray) -> np.ndarray:
    if floating(a):
        return a.view(np.dtype(f"u{a.dtype.itemsize}"))
    return a


def _show(a: np.ndarray, index) -> str:
    v = a[index]
    if floating(a):
        return f"{float(v)!r} (0x{int(_bits(a)[index]):0{2 * a.itemsize}x})"
    return repr(v.item())


def compare(ours: Outcome, theirs: Outcome, what: str, torch_side: bool = False,
            loose_nan: bool = False) -> tuple[str, str]:
    """('equal' | 'refused' | 'mismatch', detail). Bit for bit: a NaN equals only a NaN of the same
    bits, unless loose_nan (any NaN equals any NaN)."""
    if ours.error is not None or theirs.error is not None:
        if ours.error is not None and theirs.error is not None:
            a, b = type(ours.error), type(theirs.error)
            if a is b or (torch_side and _torch_refusal_matches(ours.error, theirs.error)):
                return "refused", f"both refused ({a.__name__} / {b.__name__}: {short(str(ours.error), 120)})"
        return "mismatch", f"opsnn {ours.describe()}; {what} {theirs.describe()}"
    a, b = ours.value, theirs.value
    if a.dtype != b.dtype:
        return "mismatch", f"dtype {dtype_name(a.dtype)}, {what} {dtype_name(b.dtype)}"
    if a.shape != b.shape:
        return "mismatch", f"shape {list(a.shape)}, {what} {list(b.shape)}"
    ba, bb = _bits(a), _bits(b)
    if np.array_equal(ba, bb):
        return "equal", ""
    diff = ba != bb
    count = int(np.count_nonzero(diff))
    first = tuple(int(i) for i in np.unravel_index(int(np.argmax(diff.reshape(-1))), a.shape))
    detail = (f"{count} of {a.size} elements differ from {what}; first at {list(first)}: "
              f"opsnn {_show(a, first)}, {what} {_show(b, first)}")
    if floating(a) and _nan_only(a, b, diff):
        if loose_nan:
            return "equal", f"NaN bits differ ({detail}); --loose-nan counts any NaN as equal"
        return "mismatch", f"NaN bits only: {detail}"
    return "mismatch", detail


def floating(a: np.ndarray) -> bool:
    return a.dtype.kind == "f" or a.dtype == bfloat16


def _nan_only(a: np.ndarray, b: np.ndarray, diff: np.ndarray) -> bool:
    """Every differing element is a NaN on both sides."""
    with np.errstate(all="ignore"):
        return bool(np.all(np.isnan(a[diff].astype(np.float32)) & np.isnan(b[diff].astype(np.float32))))


def _torch_refusal_matches(ours: BaseException, theirs: BaseException) -> bool:
    """torch raises RuntimeError (c10::Error and friends) where opsnn raises ValueError, TypeError,
    OverflowError or RuntimeError; torch's TypeError (bad argument types) matches opsnn's TypeError."""
    if isinstance(theirs, RuntimeError) and not isinstance(theirs, NotImplementedError):
        return isinstance(ours, ValueError | TypeError | OverflowError | RuntimeError)
    return isinstance(theirs, TypeError | ValueError) and isinstance(ours, type(theirs))

