"""`opsnn atk CASES.json`: run ATK case files (upstream's `tests/st/<aclnnApi>/atk_<aclnnApi>.json`
and users' own, format in docs/atk.md) against opsnn, for any registered operator that declares an
aclnn signature with a numpy function (AclnnApi.numpy_api, opsnn/aclnn/signature.py).

Each case's `aclnn_name` names a declared API; its inputs map BY POSITION to the API's non-out
params (ATK names differ: `x` for `self`, `a` for `negativeSlope`), kinds checked. Inputs are
generated from (seed, case id) alone, so a case computes the same whatever --jobs or --cases say.
The case runs through `opsnn.<numpy_api>(*values, semantics=, backend=)` and is compared bit for
bit with backend="reference" and, under torch semantics, with the torch function the case names.

Exit codes: 0 every case passed or was skipped, 1 a mismatch or an error, 2 a bad file or bad
command line (one line on stderr naming the case id and field)."""
from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
import warnings
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from opsnn.aclnn.signature import ATTR, REF, SCALAR, TENSOR, AclnnApi, Param
from opsnn.dtypes import bfloat16
from opsnn.platform import FAMILIES, SOCS

SEMANTICS = ("torch", *FAMILIES)
BACKENDS = ("fast", "reference", "emulator")
DEFAULT_MAX_ELEMENTS = 1 << 24  # per tensor, fast and reference backends
DEFAULT_MAX_ELEMENTS_EMULATOR = 1 << 22  # the emulators take ~0.1 s per M elements (measured), a little more than fast
CHUNK = 1 << 22  # elements generated per rng call: fixed, so a case's inputs never depend on the machine
WORKER_BYTES = 1 << 28  # a process with opsnn and torch loaded, beyond its arrays
MAX_IDS = 1_000_000  # --cases names at most this many ids
MEMORY_SHARE = 0.8  # of the memory available (per job) a case may be estimated to need

# ATK dtype names (and the long names) -> numpy dtype; the short name is the one reports use
_SHORT = {"fp32": np.float32, "fp16": np.float16, "bf16": bfloat16, "fp64": np.float64, "int32": np.int32,
          "int8": np.int8, "uint8": np.uint8, "int16": np.int16, "int64": np.int64, "bool": np.bool_}
_ALIASES = {"float32": "fp32", "float": "fp32", "float16": "fp16", "half": "fp16", "bfloat16": "bf16",
            "float64": "fp64", "double": "fp64", "bool_": "bool"}
DTYPES: dict[str, np.dtype] = {k: np.dtype(v) for k, v in _SHORT.items()}
# ATK input type -> the declaration's param kinds it may fill
KINDS = {"tensor": (TENSOR, REF), "scalar": (SCALAR,), "attr": (ATTR,)}
_SPECIALS = {"nan": math.nan, "inf": math.inf, "-inf": -math.inf, "+inf": math.inf}


class BadFile(Exception):
    """The case file cannot be run as written: exit 2, the message names the case and field."""


# ---------------------------------------------------------------------------------------------------
# The case file

@dataclass(frozen=True)
class Input:
    name: str  # the ATK name (x, a, ...)
    kind: str  # tensor | scalar | attr
    dtype: str  # short name (fp32, bf16, ...)
    shape: tuple[int, ...] | None  # tensors only
    range_values: object  # as the file has it, validated
    param: Param  # the declaration's parameter at this position

    @property
    def np_dtype(self) -> np.dtype:
        return DTYPES[self.dtype]

    @property
    def elements(self) -> int:
        return math.prod(self.shape) if self.shape is not None else 0


@dataclass(frozen=True)
class Case:
    id: int
    aclnn_name: str
    torch_name: str  # the case's `name` ("" when absent)
    api: AclnnApi
    inputs: tuple[Input, ...]

    @property
    def tensors(self) -> tuple[Input, ...]:
        return tuple(i for i in self.inputs if i.kind == "tensor")

    @property
    def dtype_label(self) -> str:
        """The tensors' dtype (fp16, or fp16/fp32 when they differ); scalars' when there is no tensor."""
        names = list(dict.fromkeys(i.dtype for i in (self.tensors or self.inputs)))
        return "/".join(names) or "-"

    @property
    def out_elements(self) -> int:
        shapes = [i.shape for i in self.tensors]
        if not shapes:
            return 1
        try:
            return math.prod(np.broadcast_shapes(*shapes))
        except ValueError:  # the op refuses such shapes; count the largest for the estimates
            return max(math.prod(s) for s in shapes)

    @property
    def max_elements(self) -> int:
        return max([self.out_elements, *(i.elements for i in self.tensors)])


def find_api(aclnn_name: str) -> AclnnApi:
    """The declaration named `aclnn_name` among every registered operator's (BadFile if none)."""
    from opsnn import registry
    from opsnn.aclnn.declarations import operator_apis
    broken = []
    known = []
    for op in registry.discover().values():
        try:
            apis = operator_apis(op)
        except Exception as e:  # one operator's broken declaration does not stop the others
            broken.append(f"{op.name} ({type(e).__name__}: {e})")
            continue
        for api in apis:
            if api.name == aclnn_name:
                return api
            known.append(api.name)
    more = f"; operators whose declarations failed to load: {', '.join(broken)}" if broken else ""
    raise BadFile(f"unknown aclnn_name {aclnn_name!r}; declared: {', '.join(known)}{more}")


def load_cases(path: str | os.PathLike) -> list[Case]:
    """Every case of the file, validated (BadFile naming the case id and field otherwise)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise BadFile(f"cannot read {path}: {e}") from None
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as e:
        raise BadFile(f"{path} is not JSON: {e}") from None
    if isinstance(doc, dict):  # one case on its own
        doc = [doc]
    if not isinstance(doc, list):
        raise BadFile(f"{path}: the file must hold a JSON array of case objects, not {type(doc).__name__}")
    apis: dict[str, AclnnApi] = {}
    cases, seen = [], set()
    for index, raw in enumerate(doc):
        case = _parse_case(raw, index, apis)
        if case.id in seen:
            raise BadFile(f"case {case.id}: field 'id': id {case.id} appears twice")
        seen.add(case.id)
        cases.append(case)
    return cases


def _parse_case(raw, index: int, apis: dict[str, AclnnApi]) -> Case:
    where = f"case at index {index}"
    if not isinstance(raw, dict):
        raise BadFile(f"{where}: a case must be a JSON object, not {type(raw).__name__}")
    cid = raw.get("id")
    if type(cid) is not int or cid < 0:
        raise BadFile(f"{where}: field 'id' must be a non-negative integer, got {cid!r}")
    where = f"case {cid}"
    name = raw.get("aclnn_name")
    if not isinstance(name, str):
        raise BadFile(f"{where}: field 'aclnn_name' must be a string, got {name!r}")
    if name not in apis:
        try:
            apis[name] = find_api(name)
        except BadFile as e:
            raise BadFile(f"{where}: field 'aclnn_name': {e}") from None
    api = apis[name]
    if not api.numpy_api:
        raise BadFile(f"{where}: field 'aclnn_name': {name} declares no numpy function (AclnnApi.numpy_api), "
                      "so opsnn atk cannot run it")
    torch_name = raw.get("name", "")
    if torch_name is None:
        torch_name = ""
    if not isinstance(torch_name, str):
        raise BadFile(f"{where}: field 'name' must be a string, got {torch_name!r}")
    inputs = raw.get("inputs")
    if not isinstance(inputs, list):
        raise BadFile(f"{where}: field 'inputs' must be a list, got {inputs!r}")
    params = api.inputs
    if len(inputs) != len(params):
        raise BadFile(f"{where}: field 'inputs': {name} takes {len(params)} inputs "
                      f"({', '.join(p.name for p in params)}), the case gives {len(inputs)}")
    return Case(cid, name, torch_name, api,
                tuple(_parse_input(item, param, f"{where}: inputs[{k}]") for k, (item, param)
                      in enumerate(zip(inputs, params, strict=True))))


def _parse_input(item, param: Param, where: str) -> Input:
    if not isinstance(item, dict):
        raise BadFile(f"{where}: an input must be a JSON object, not {type(item).__name__}")
    name = item.get("name", param.name)
    where = f"{where} ({name})"
    kind = item.get("type")
    if not isinstance(kind, str) or kind not in KINDS:
        raise BadFile(f"{where}.type: {kind!r} is not one of {', '.join(KINDS)}")
    if param.kind not in KINDS[kind]:
        want = next(k for k, kinds in KINDS.items() if param.kind in kinds) if any(
            param.kind in ks for ks in KINDS.values()) else param.kind
        raise BadFile(f"{where}.type: {kind!r} at this position, where the API's parameter {param.name} "
                      f"is a {want}")
    dtype = item.get("dtype")
    if isinstance(dtype, str):
        dtype = _ALIASES.get(dtype.lower(), dtype.lower())
    if not isinstance(dtype, str) or dtype not in DTYPES:
        raise BadFile(f"{where}.dtype: unknown dtype {item.get('dtype')!r}; known: {', '.join(DTYPES)}")
    shape = item.get("shape")
    if kind == "tensor":
        if not isinstance(shape, list) or not all(type(d) is int and d >= 0 for d in shape):
            raise BadFile(f"{where}.shape: a tensor's shape must be a list of non-negative integers "
                          f"([] for 0-d), got {shape!r}")
        shape = tuple(shape)
    else:
        shape = None
    if "range_values" not in item:
        raise BadFile(f"{where}.range_values: missing")
    rv = item["range_values"]
    problem = _range_problem(rv)
    if problem:
        raise BadFile(f"{where}.range_values: {problem}")
    return Input(name, kind, dtype, shape, rv, param)


def _is_number(v) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool)


def _range_problem(rv) -> str:
    """'' when range_values has a form docs/atk.md describes, else what is wrong."""
    for v in rv if isinstance(rv, list) else [rv]:
        if _is_number(v):
            try:
                float(v)
            except OverflowError:
                return f"{v} is beyond float64's range"
    if isinstance(rv, bool) or _is_number(rv):
        return ""
    if isinstance(rv, str):
        return "" if rv.lower() in _SPECIALS else f"{rv!r} is not one of 'nan', 'inf', '-inf'"
    if isinstance(rv, list):
        if len(rv) == 1 and (isinstance(rv[0], bool) or _is_number(rv[0])
                             or (isinstance(rv[0], str) and rv[0].lower() in _SPECIALS)):
            return ""
        if len(rv) == 2 and all(_is_number(v) for v in rv):
            lo, hi = rv
            if not (math.isfinite(lo) and math.isfinite(hi)):
                return f"a range [lo, hi] needs finite bounds, got {rv!r}"
            if lo > hi:
                return f"range [{lo}, {hi}] has lo > hi"
            return ""
    return (f"{rv!r} is none of [lo, hi], ['nan'|'inf'|'-inf'], a number, 'nan'|'inf'|'-inf' or a bool")


def parse_ids(text: str) -> set[int]:
    """'0-9,14' -> {0, ..., 9, 14} (ValueError on bad syntax)."""
    ids: set[int] = set()
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        lo, dash, hi = part.partition("-")
        try:
            a = int(lo)
            b = int(hi) if dash else a
        except ValueError:
            raise ValueError(f"bad --cases {text!r}: {part!r} is not an id or a range a-b") from None
        if a < 0 or b < a:
            raise ValueError(f"bad --cases {text!r}: {part!r} is not a range of ids")
        if b - a >= MAX_IDS or len(ids) + b - a >= MAX_IDS:
            raise ValueError(f"bad --cases {text!r}: more than {MAX_IDS} ids")
        ids.update(range(a, b + 1))
    if not ids:
        raise ValueError(f"bad --cases {text!r}: no ids")
    return ids


# ---------------------------------------------------------------------------------------------------
# Input generation

def case_rng(seed: int, case_id: int) -> np.random.Generator:
    return np.random.default_rng([seed, case_id])


def _spec_value(rv):
    """A one-value form (number, bool, special string, one-element list) as a Python number, else None."""
    if isinstance(rv, list) and len(rv) == 1:
        rv = rv[0]
    if isinstance(rv, str):
        return _SPECIALS[rv.lower()]
    if isinstance(rv, bool) or _is_number(rv):
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


# ---------------------------------------------------------------------------------------------------
# Running and comparing

@dataclass
class Outcome:
    """What one side computed: an array or the exception it raised."""
    value: np.ndarray | None = None
    error: BaseException | None = None

    def describe(self) -> str:
        if self.error is not None:
            return f"raised {type(self.error).__name__}: {_short(str(self.error))}"
        return f"returned {_dtype_name(self.value.dtype)} {list(self.value.shape)}"


def _short(text: str, limit: int = 200) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _dtype_name(dt: np.dtype) -> str:
    for short, known in DTYPES.items():
        if dt == known:
            return short
    return str(dt)


def _call(fn, args, kwargs=None, convert=np.asarray) -> Outcome:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with np.errstate(all="ignore"):
                result = fn(*args, **(kwargs or {}))
        return Outcome(value=convert(result))
    except Exception as e:  # a refusal is an outcome to compare
        return Outcome(error=e)


def _bits(a: np.ndarray) -> np.ndarray:
    if _floating(a):
        return a.view(np.dtype(f"u{a.dtype.itemsize}"))
    return a


def _show(a: np.ndarray, index) -> str:
    v = a[index]
    if _floating(a):
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
                return "refused", f"both refused ({a.__name__} / {b.__name__}: {_short(str(ours.error), 120)})"
        return "mismatch", f"opsnn {ours.describe()}; {what} {theirs.describe()}"
    a, b = ours.value, theirs.value
    if a.dtype != b.dtype:
        return "mismatch", f"dtype {_dtype_name(a.dtype)}, {what} {_dtype_name(b.dtype)}"
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
    if _floating(a) and _nan_only(a, b, diff):
        if loose_nan:
            return "equal", f"NaN bits differ ({detail}); --loose-nan counts any NaN as equal"
        return "mismatch", f"NaN bits only: {detail}"
    return "mismatch", detail


def _floating(a: np.ndarray) -> bool:
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


_TORCH: list = []  # the torch module once imported ([None] when it is not importable)


def _torch():
    if not _TORCH:
        try:
            import torch
            _TORCH.append(torch)
        except Exception:  # not installed or broken: the comparison is skipped
            _TORCH.append(None)
    return _TORCH[0]


def _torch_function(torch, name: str):
    parts = name.split(".")
    if parts[0] != "torch" or len(parts) < 2:
        return None
    obj = torch
    for part in parts[1:]:
        obj = getattr(obj, part, None)
        if obj is None:
            return None
    return obj if callable(obj) else None


def _to_torch(torch, arr: np.ndarray):
    if not arr.flags.c_contiguous:  # (np.ascontiguousarray would make a 0-d array 1-d)
        arr = arr.copy()
    if arr.dtype == bfloat16:
        return torch.from_numpy(arr.view(np.int16)).view(torch.bfloat16)
    return torch.from_numpy(arr)


def _from_torch(torch, t) -> np.ndarray:
    t = t.detach().cpu()
    if t.dtype == torch.bfloat16:
        return t.contiguous().view(torch.int16).numpy().view(bfloat16)
    return t.numpy()


def run_torch(case: Case, values: list) -> tuple[Outcome | None, str]:
    """torch's outcome, or (None, why the comparison is skipped)."""
    torch = _torch()
    if torch is None:
        return None, "torch is not importable"
    # the case's `name`, else the aten op the declaration names (AclnnApi.aten)
    name = case.torch_name or (f"torch.ops.aten.{case.api.aten}" if case.api.aten else "")
    if not name:
        return None, "the case names no torch function (field 'name') and its API declares no aten op"
    fn = _torch_function(torch, name)
    if fn is None:
        return None, f"torch has no {name}"
    args = [_to_torch(torch, v) if isinstance(v, np.ndarray) else v for v in values]
    return _call(fn, args, convert=lambda t: _from_torch(torch, t)), ""


@dataclass
class Result:
    id: int
    status: str  # passed | failed | skipped
    reason: str = ""
    dtype: str = ""
    shapes: list = field(default_factory=list)
    elements: int = 0
    seconds: float = 0.0
    refused: bool = False
    checks: dict = field(default_factory=dict)  # against -> {"status", "detail"}
    notes: list = field(default_factory=list)
    digest: str = ""  # of the generated inputs (input_digest): equal for equal (seed, case)
    aclnn_name: str = ""

    def to_json(self) -> dict:
        return {"id": self.id, "aclnn_name": self.aclnn_name, "status": self.status, "reason": self.reason,
                "dtype": self.dtype,
                "shapes": self.shapes, "elements": self.elements, "seconds": round(self.seconds, 6),
                "refused": self.refused, "checks": self.checks, "notes": self.notes, "inputs_digest": self.digest}


def _base_result(case: Case, status: str, reason: str = "") -> Result:
    return Result(case.id, status, reason, case.dtype_label,
                  [list(i.shape) if i.shape is not None else None for i in case.inputs], case.max_elements,
                  aclnn_name=case.aclnn_name)


def run_case(case: Case, seed: int, semantics: str, backend: str, loose_nan: bool = False) -> Result:
    """Generate the case's inputs, run them, compare; never raises for what the operator does.
    loose_nan: in the comparison with torch, any NaN equals any NaN (the reference's stays bitwise)."""
    import opsnn
    start = time.perf_counter()
    result = _base_result(case, "passed")
    ours_in, torch_in, notes = make_inputs(case, seed)
    result.notes = notes
    result.digest = input_digest(ours_in)
    fn = getattr(opsnn, case.api.numpy_api, None)
    if fn is None:
        result.status, result.reason = "failed", f"opsnn has no function {case.api.numpy_api}"
        return result
    ours = _call(fn, ours_in, {"semantics": semantics, "backend": backend})
    failures, refusals = [], []
    if input_digest(ours_in) != result.digest:
        failures.append(f"the {backend} backend changed its inputs")
    if backend != "reference":
        ref = _call(fn, ours_in, {"semantics": semantics, "backend": "reference"})
        status, detail = compare(ours, ref, "the reference")
        result.checks["reference"] = {"status": status, "detail": detail}
    else:
        result.checks["reference"] = {"status": "skipped", "detail": "the backend is the reference"}
    if semantics == "torch":
        theirs, why = run_torch(case, torch_in)
        if theirs is None:
            result.checks["torch"] = {"status": "skipped", "detail": why}
        else:
            status, detail = compare(ours, theirs, "torch", torch_side=True, loose_nan=loose_nan)
            if status == "equal" and detail:
                result.notes.append(detail)
            result.checks["torch"] = {"status": status, "detail": detail}
    if backend == "reference" and (semantics != "torch" or result.checks["torch"]["status"] == "skipped"):
        # nothing to compare with: the reference's own refusal is still a result worth naming
        if ours.error is not None:
            refusals.append(f"refused: {type(ours.error).__name__}: {_short(str(ours.error), 120)}")
    for against, check in result.checks.items():
        if check["status"] == "mismatch":
            failures.append(f"{against}: {check['detail']}")
        elif check["status"] == "refused":
            refusals.append(check["detail"])
    if failures:
        result.status, result.reason = "failed", "; ".join(failures)
    elif refusals or ours.error is not None:
        result.refused = True
        result.reason = refusals[0] if refusals else f"refused: {type(ours.error).__name__}"
    result.seconds = time.perf_counter() - start
    return result


def _run_one(payload) -> Result:
    """A worker's entry (module level, for the process pool)."""
    case, seed, semantics, backend, loose_nan = payload
    try:
        return run_case(case, seed, semantics, backend, loose_nan)
    except MemoryError:
        result = _base_result(case, "failed", "out of memory")
    except Exception as e:  # a defect in the runner itself still reports the case
        result = _base_result(case, "failed", f"runner error {type(e).__name__}: {_short(str(e))}")
    return result


# ---------------------------------------------------------------------------------------------------
# Limits

def available_memory() -> int:
    """Bytes this process may still allocate: MemAvailable (else os.sysconf's free pages), capped by
    a cgroup v2 limit when there is one."""
    avail = None
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    avail = int(line.split()[1]) * 1024
                    break
    except (OSError, ValueError, IndexError):
        pass
    if avail is None:
        try:
            avail = os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
        except (ValueError, OSError, AttributeError):
            avail = 1 << 62
    try:
        limit = Path("/sys/fs/cgroup/memory.max").read_text().strip()
        if limit != "max":
            used = int(Path("/sys/fs/cgroup/memory.current").read_text())
            avail = min(avail, max(0, int(limit) - used))
    except (OSError, ValueError):
        pass
    return avail


def estimate_bytes(case: Case) -> int:
    """What running the case holds at once: its tensors, then three results (backend, reference,
    torch) and float64 temporaries of the result's size (measured: a 32 M-element float64 case
    peaks at 1.8 GiB, float16 at 0.9 GiB, torch and the fast engine loaded)."""
    inputs = sum(i.elements * i.np_dtype.itemsize for i in case.tensors)
    itemsize = max([i.np_dtype.itemsize for i in case.tensors] or [8])
    return inputs + case.out_elements * (3 * max(itemsize, 4) + 24) + CHUNK * 8 + WORKER_BYTES


def skip_reason(case: Case, max_elements: int, memory: int) -> str:
    if max_elements and case.max_elements > max_elements:
        return f"{case.max_elements} elements in a tensor, more than --max-elements {max_elements}"
    need = estimate_bytes(case)
    if need > memory:
        return (f"needs about {need / 2**30:.1f} GiB, more than the {memory / 2**30:.1f} GiB of memory "
                "available to a job")
    return ""


# ---------------------------------------------------------------------------------------------------
# Reports

class Progress:
    """A bar on stderr when it is a terminal; otherwise a plain line every `every` seconds."""

    def __init__(self, total: int, stream=None, every: float = 30.0):
        self.total, self.done, self.failed = total, 0, 0
        self.stream = stream or sys.stderr
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.start = self.last = time.monotonic()
        self.every = every

    def update(self, result: Result) -> None:
        self.done += 1
        self.failed += result.status == "failed"
        now = time.monotonic()
        rate = self.done / max(now - self.start, 1e-9)
        if self.tty:
            width = 30
            filled = width * self.done // max(self.total, 1)
            self.stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total} "
                              f"{self.failed} failed {rate:.1f} cases/s ")
            self.stream.flush()
        elif now - self.last >= self.every:
            self.last = now
            self.stream.write(f"opsnn atk: {self.done}/{self.total} cases, {self.failed} failed, "
                              f"{rate:.1f} cases/s\n")
            self.stream.flush()

    def close(self) -> None:
        if self.tty and self.total:
            self.stream.write("\r" + " " * 79 + "\r")
            self.stream.flush()


def _shapes_label(shapes: list) -> str:
    """The tensors' shapes: one when they agree ([2, 3]), else each ([2, 3] x [3])."""
    tensors = [s for s in shapes if s is not None]
    if not tensors:
        return "scalars"
    return str(tensors[0]) if all(s == tensors[0] for s in tensors) else " x ".join(map(str, tensors))


def summary_table(results: list[Result]) -> str:
    rows: dict[str, list[int]] = {}
    for r in results:
        row = rows.setdefault(r.dtype, [0, 0, 0, 0, 0])
        row[0] += 1
        row[{"passed": 1, "failed": 2, "skipped": 3}[r.status]] += 1
        row[4] += r.refused and r.status == "passed"
    total = [sum(col) for col in zip(*rows.values(), strict=True)] if rows else [0] * 5
    width = max([5, *(len(k) for k in rows)])
    lines = [f"{'dtype':<{width}} {'cases':>6} {'passed':>7} {'failed':>7} {'skipped':>8} {'refused':>8}"]
    for name, row in sorted(rows.items()):
        lines.append(f"{name:<{width}} {row[0]:>6} {row[1]:>7} {row[2]:>7} {row[3]:>8} {row[4]:>8}")
    lines.append(f"{'total':<{width}} {total[0]:>6} {total[1]:>7} {total[2]:>7} {total[3]:>8} {total[4]:>8}")
    return "\n".join(lines)


def counts(results: list[Result]) -> tuple[int, int, int]:
    return tuple(sum(r.status == s for r in results) for s in ("passed", "failed", "skipped"))


def write_json(path: str, results: list[Result], meta: dict) -> None:
    passed, failed, skipped = counts(results)
    head = {**meta, "passed": passed, "failed": failed, "skipped": skipped}
    lines = [json.dumps(head)[:-1] + ', "cases": [']  # one line per case: greppable, diffable
    lines += [json.dumps(r.to_json()) + ("," if k + 1 < len(results) else "") for k, r in enumerate(results)]
    Path(path).write_text("\n".join(lines) + "\n]}\n")


def _xml(text: str) -> str:
    """text without the characters XML 1.0 cannot hold (an exception message may have any)."""
    return "".join(c if c in "\t\n\r" or 0x20 <= ord(c) < 0xD800 or 0xE000 <= ord(c) < 0xFFFE
                   or 0x10000 <= ord(c) < 0x110000 else "?" for c in text)


def write_junit(path: str, results: list[Result], meta: dict) -> None:
    import xml.etree.ElementTree as ET
    passed, failed, skipped = counts(results)
    suite_name = f"atk {meta['file_name']}"
    total_time = sum(r.seconds for r in results)
    suites = ET.Element("testsuites", name="opsnn atk", tests=str(len(results)), failures=str(failed),
                        errors="0", skipped=str(skipped), time=f"{total_time:.3f}")
    suite = ET.SubElement(suites, "testsuite", name=suite_name, tests=str(len(results)), failures=str(failed),
                          errors="0", skipped=str(skipped), time=f"{total_time:.3f}")
    props = ET.SubElement(suite, "properties")
    for key in ("aclnn_names", "semantics", "backend", "seed"):
        ET.SubElement(props, "property", name=key, value=str(meta[key]))
    for r in results:
        case = ET.SubElement(suite, "testcase", classname=f"atk.{meta['file_name']}",
                             name=f"case {r.id} {r.dtype} {_shapes_label(r.shapes)}", time=f"{r.seconds:.3f}")
        if r.status == "failed":
            ET.SubElement(case, "failure", message=_xml(_short(r.reason, 500))).text = _xml(r.reason)
        elif r.status == "skipped":
            ET.SubElement(case, "skipped", message=_xml(r.reason))
        elif r.reason or r.notes:
            ET.SubElement(case, "system-out").text = _xml("; ".join([r.reason, *r.notes]).strip("; "))
    ET.ElementTree(suites).write(path, encoding="utf-8", xml_declaration=True)


# ---------------------------------------------------------------------------------------------------
# The command

def run_cases(cases: list[Case], *, seed: int = 0, semantics: str = "torch", backend: str = "fast",
              jobs: int = 1, max_elements: int | None = None, progress: Progress | None = None,
              memory: int | None = None, loose_nan: bool = False) -> list[Result]:
    """Every case's result, in the cases' order (skipped ones with their reason)."""
    if max_elements is None:
        max_elements = DEFAULT_MAX_ELEMENTS_EMULATOR if backend == "emulator" else DEFAULT_MAX_ELEMENTS
    memory = int((available_memory() if memory is None else memory) * MEMORY_SHARE) // max(jobs, 1)
    results: dict[int, Result] = {}
    todo = []
    for case in cases:
        why = skip_reason(case, max_elements, memory)
        if why:
            results[case.id] = _base_result(case, "skipped", why)
            if progress:
                progress.update(results[case.id])
        else:
            todo.append(case)
    if jobs <= 1 or len(todo) <= 1:
        if semantics == "torch" and todo:
            _torch()  # imported once here, so that no case's time counts it
        for case in todo:
            results[case.id] = _run_one((case, seed, semantics, backend, loose_nan))
            if progress:
                progress.update(results[case.id])
    else:
        _run_pool(todo, (seed, semantics, backend, loose_nan), jobs, results, progress)
    return [results[c.id] for c in cases]


def _run_pool(todo, settings, jobs, results, progress) -> None:
    import concurrent.futures as cf
    import multiprocessing
    # spawn: a fork of a process whose fast engine already started threads could deadlock
    context = multiprocessing.get_context("spawn")
    with cf.ProcessPoolExecutor(max_workers=min(jobs, len(todo)), mp_context=context) as pool:
        # the largest first, so that no big case starts last and runs alone
        order = sorted(todo, key=lambda c: -c.max_elements)
        futures = {pool.submit(_run_one, (case, *settings)): case for case in order}
        try:
            for future in cf.as_completed(futures):
                case = futures[future]
                try:
                    results[case.id] = future.result()
                except Exception as e:  # a worker died (killed for memory, crashed): the pool is gone
                    results[case.id] = _base_result(case, "failed", "a worker process died, this case "
                                                    f"unfinished ({type(e).__name__}: {_short(str(e))}); "
                                                    "run it alone with --cases to see which")
                if progress:
                    progress.update(results[case.id])
        except KeyboardInterrupt:
            pool.shutdown(wait=False, cancel_futures=True)
            raise


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        raise BadFile(message)


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog="opsnn atk", formatter_class=argparse.ArgumentDefaultsHelpFormatter,
                description="Run an ATK case file (upstream's tests/st/<aclnnApi>/atk_<aclnnApi>.json or your "
                            "own) against opsnn: each case through --backend, compared bit for bit with the "
                            "reference backend and, under torch semantics, with the torch function it names. "
                            "Exit 0: all passed or skipped; 1: a mismatch or error; 2: a bad file. docs/atk.md.")
    p.add_argument("file", help="the case file (a JSON array of cases)")
    p.add_argument("--seed", type=int, default=0, help="input generation seed (one rng per case from seed and id)")
    p.add_argument("--backend", choices=BACKENDS, default="fast", help="the backend under test")
    p.add_argument("--semantics", choices=SEMANTICS, default=None,
                   help="whose arithmetic: torch or an SoC family (default torch)")
    p.add_argument("--soc", choices=list(SOCS), default=None, help="an SoC: its family's semantics")
    p.add_argument("--jobs", type=int, default=1, help="processes running cases")
    p.add_argument("--cases", default=None, help="the ids to run, e.g. 0-9,14 (default all)")
    p.add_argument("--max-elements", type=int, default=None,
                   help=f"skip cases with a tensor larger than this, 0 for no limit (default "
                        f"{DEFAULT_MAX_ELEMENTS}; {DEFAULT_MAX_ELEMENTS_EMULATOR} with --backend emulator)")
    p.add_argument("--json", metavar="FILE", default=None, help="write a JSON report")
    p.add_argument("--junit", metavar="FILE", default=None, help="write a JUnit XML report")
    p.add_argument("--loose-nan", action="store_true",
                   help="against torch, count any NaN equal to any NaN (torch's vectorised CPU loops change NaN "
                        "bits; the comparison with the reference stays bit for bit)")
    p.add_argument("-v", "--verbose", action="store_true", help="a line for every case, passed ones too")
    return p


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        return _main(argv)
    except BadFile as e:
        print(f"opsnn atk: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("opsnn atk: interrupted", file=sys.stderr)
        return 130


def _main(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    if args.semantics is not None and args.soc is not None:
        raise BadFile("give either --semantics or --soc, not both")
    semantics = SOCS[args.soc].family if args.soc else (args.semantics or "torch")
    if args.backend == "emulator" and semantics == "torch":
        raise BadFile("--backend emulator runs the NPU's semantics only: give --semantics ascend910b|ascend950 "
                      "or --soc")
    if args.jobs < 1:
        raise BadFile(f"--jobs must be at least 1, got {args.jobs}")
    if args.max_elements is not None and args.max_elements < 0:
        raise BadFile(f"--max-elements must be >= 0, got {args.max_elements}")
    cases = load_cases(args.file)
    if args.cases is not None:
        try:
            wanted = parse_ids(args.cases)
        except ValueError as e:
            raise BadFile(str(e)) from None
        present = {c.id for c in cases}
        missing = sorted(wanted - present)
        if missing:
            shown = ", ".join(map(str, missing[:10])) + (" ..." if len(missing) > 10 else "")
            raise BadFile(f"--cases names ids the file does not have: {shown}")
        cases = [c for c in cases if c.id in wanted]
    max_elements = args.max_elements
    if max_elements is None:
        max_elements = DEFAULT_MAX_ELEMENTS_EMULATOR if args.backend == "emulator" else DEFAULT_MAX_ELEMENTS
    progress = Progress(len(cases))
    start = time.perf_counter()
    try:
        results = run_cases(cases, seed=args.seed, semantics=semantics, backend=args.backend, jobs=args.jobs,
                            max_elements=max_elements, progress=progress, loose_nan=args.loose_nan)
    finally:
        progress.close()
    elapsed = time.perf_counter() - start
    meta = {"file": str(args.file), "file_name": Path(args.file).stem,
            "aclnn_names": ",".join(dict.fromkeys(c.aclnn_name for c in cases)), "semantics": semantics,
            "soc": args.soc, "backend": args.backend, "seed": args.seed, "jobs": args.jobs,
            "max_elements": max_elements, "loose_nan": args.loose_nan, "seconds": round(elapsed, 3)}
    for r in results:
        if r.status != "passed" or r.refused or args.verbose:  # an expected refusal is named too
            label = {"passed": "PASS", "failed": "FAIL", "skipped": "SKIP"}[r.status]
            text = r.reason or "; ".join(f"{k}: {v['status']}" for k, v in r.checks.items())
            print(f"{label} case {r.id} ({r.dtype} {_shapes_label(r.shapes)}): {text}")
    print(f"{args.backend} backend, {semantics} semantics, seed {args.seed}, {elapsed:.1f} s")
    print(summary_table(results))
    if args.json:
        write_json(args.json, results, meta)
    if args.junit:
        write_junit(args.junit, results, meta)
    passed, failed, skipped = counts(results)
    print(f"{passed} passed, {failed} failed, {skipped} skipped")
    return 1 if failed else 0
