"""One side's outcome (an array or the exception it raised) against another's: a refusal matches
a refusal; two arrays of one dtype and shape are judged by a Standard (today bit for bit, with or
without --loose-nan), which standard_for picks per case and side."""
from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from opsnn.atk.cases import Case, dtype_name
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
    if a.dtype.kind == "c":  # NaN parts compare by their bits too
        return a.view(np.dtype(f"V{a.dtype.itemsize}"))
    if floating(a):
        return a.view(np.dtype(f"u{a.dtype.itemsize}"))
    return a


def _show(a: np.ndarray, index) -> str:
    v = a[index]
    if floating(a):
        return f"{float(v)!r} (0x{int(_bits(a)[index]):0{2 * a.itemsize}x})"
    return repr(v.item())


class Verdict(NamedTuple):
    status: str  # equal | refused | mismatch
    detail: str = ""
    nan_only: bool = False  # a mismatch confined to elements that are NaN on both sides


class Standard:
    """How two arrays of one dtype and shape must agree to count as equal. Subclasses judge; the
    refusal and dtype/shape rules are compare's, the same for every standard."""
    name = "abstract"

    def judge(self, a: np.ndarray, b: np.ndarray, what: str) -> Verdict:
        raise NotImplementedError


@dataclass(frozen=True)
class Bitwise(Standard):
    """Every element's bits; a NaN equals only a NaN of the same bits, or any NaN with loose_nan."""
    loose_nan: bool = False

    @property
    def name(self) -> str:
        return "bitwise, any NaN for any NaN" if self.loose_nan else "bitwise"

    def judge(self, a: np.ndarray, b: np.ndarray, what: str) -> Verdict:
        ba, bb = _bits(a), _bits(b)
        if np.array_equal(ba, bb):
            return Verdict("equal")
        diff = ba != bb
        count = int(np.count_nonzero(diff))
        first = tuple(int(i) for i in np.unravel_index(int(np.argmax(diff.reshape(-1))), a.shape))
        detail = (f"{count} of {a.size} elements differ from {what}; first at {list(first)}: "
                  f"opsnn {_show(a, first)}, {what} {_show(b, first)}")
        if floating(a) and _nan_only(a, b, diff):
            if self.loose_nan:
                return Verdict("equal", f"NaN bits differ ({detail}); --loose-nan counts any NaN as equal")
            return Verdict("mismatch", f"NaN bits only: {detail}", nan_only=True)
        return Verdict("mismatch", detail)


BITWISE = Bitwise()
LOOSE_NAN = Bitwise(loose_nan=True)

# ATK's single-benchmark thresholds (atk/configs/single_benchmark_config.py, SingleBenchmarkCompareStandard):
# float16 2^-10, bfloat16 2^-7, float32 2^-13; ATK names none for float64 / complex: float32's here.
SINGLE_BM_THRESHOLDS = {"fp16": 2.0**-10, "bf16": 2.0**-7, "fp32": 2.0**-13}


@dataclass(frozen=True)
class SingleBenchmark(Standard):
    """An accuracy standard (a case's `"acc": "single_bm"`), against torch only: NaN where torch
    has NaN and nowhere else, the same infinities, and every finite element within
    |ours - torch| <= threshold * max(|torch|, 1) (relative, absolute below 1: opsnn's reading of
    ATK's small-value rule), the threshold by dtype (SINGLE_BM_THRESHOLDS); complex dtypes judge
    the real and imaginary parts so. Other dtypes: bitwise."""
    name = "single_bm"

    def judge(self, a: np.ndarray, b: np.ndarray, what: str) -> Verdict:
        if not (floating(a) or a.dtype.kind == "c"):
            return BITWISE.judge(a, b, what)
        thd = SINGLE_BM_THRESHOLDS.get(dtype_name(a.dtype) if a.dtype.kind != "c" else "", 2.0**-13)
        parts = [(a.real, b.real), (a.imag, b.imag)] if a.dtype.kind == "c" else [(a, b)]
        bad = np.zeros(a.shape, bool)
        with np.errstate(all="ignore"):
            for x, y in parts:
                x, y = np.asarray(x, np.float64), np.asarray(y, np.float64)
                finite = np.isfinite(y)
                bad |= np.isnan(x) != np.isnan(y)
                bad |= np.isinf(y) & (x != y)
                bad |= finite & ~(np.abs(x - y) <= thd * np.maximum(np.abs(y), 1.0))
        if not bad.any():
            return Verdict("equal")
        first = tuple(int(i) for i in np.unravel_index(int(np.argmax(bad.reshape(-1))), a.shape))
        return Verdict("mismatch", f"{int(bad.sum())} of {a.size} elements beyond single_bm (threshold {thd!r}) "
                                   f"from {what}; first at {list(first)}: opsnn {a[first]!r}, {what} {b[first]!r}")


SINGLE_BM = SingleBenchmark()
def standard_for(case: Case, against: str, loose_nan: bool = False) -> Standard:
    """The standard `case`'s result is held to against `against` ("reference" or "torch").

    Against the reference: bit for bit, always (the same semantics computed another way). Against
    torch: bit for bit, or any NaN for any NaN with --loose-nan. This is the one place that
    chooses: accuracy standards for arithmetic operators (a case's `standard` field, e.g.
    {"acc": "single_bm"}) are judged against torch only, by SingleBenchmark, for the APIs whose
    declaration says they are arithmetic (AclnnApi.arithmetic: the result rounds); a selection
    operator stays bitwise whatever its file says."""
    if against == "torch" and case.accuracy == "single_bm" and case.api.arithmetic:
        return SINGLE_BM
    if against == "torch" and loose_nan:
        return LOOSE_NAN
    return BITWISE


def compare(ours: Outcome, theirs: Outcome, what: str, torch_side: bool = False,
            standard: Standard = BITWISE, refusals_match=None) -> Verdict:
    """Refusals against refusals (the same exception type; against torch, torch_side, its c10
    RuntimeError matches opsnn's ValueError, TypeError, OverflowError or RuntimeError; a surface's
    own rule, refusals_match(ours, theirs), where its errors are of another kind), then dtype and
    shape, then the elements by `standard`."""
    if ours.error is not None or theirs.error is not None:
        if ours.error is not None and theirs.error is not None:
            a, b = type(ours.error), type(theirs.error)
            if a is b or (torch_side and _torch_refusal_matches(ours.error, theirs.error)) or \
                    (refusals_match is not None and refusals_match(ours.error, theirs.error)):
                return Verdict("refused", f"both refused ({a.__name__} / {b.__name__}: "
                                          f"{short(str(ours.error), 120)})")
        return Verdict("mismatch", f"opsnn {ours.describe()}; {what} {theirs.describe()}")
    a, b = ours.value, theirs.value
    if a.dtype != b.dtype:
        return Verdict("mismatch", f"dtype {dtype_name(a.dtype)}, {what} {dtype_name(b.dtype)}")
    if a.shape != b.shape:
        return Verdict("mismatch", f"shape {list(a.shape)}, {what} {list(b.shape)}")
    return standard.judge(a, b, what)


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

