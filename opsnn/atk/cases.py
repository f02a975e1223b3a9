"""The case file: ATK's JSON (docs/atk.md) parsed and validated whole, each case's inputs mapped
by position to the declared aclnn API's params; `--cases` id lists."""
from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from opsnn.aclnn.signature import ATTR, REF, SCALAR, TENSOR, AclnnApi, Param
from opsnn.dtypes import bfloat16

MAX_IDS = 1_000_000  # --cases names at most this many ids

# ATK dtype names (and the long names) -> numpy dtype; the short name is the one reports use
_SHORT = {"fp32": np.float32, "fp16": np.float16, "bf16": bfloat16, "fp64": np.float64, "int32": np.int32,
          "int8": np.int8, "uint8": np.uint8, "int16": np.int16, "int64": np.int64, "bool": np.bool_,
          "complex64": np.complex64, "complex128": np.complex128}
_ALIASES = {"float32": "fp32", "float": "fp32", "float16": "fp16", "half": "fp16", "bfloat16": "bf16",
            "float64": "fp64", "double": "fp64", "bool_": "bool"}
DTYPES: dict[str, np.dtype] = {k: np.dtype(v) for k, v in _SHORT.items()}
# ATK input type -> the declaration's param kinds it may fill
KINDS = {"tensor": (TENSOR, REF), "scalar": (SCALAR,), "attr": (ATTR,)}
SPECIALS = {"nan": math.nan, "inf": math.inf, "-inf": -math.inf, "+inf": math.inf}


class BadFile(Exception):
    """The case file cannot be run as written: exit 2, the message names the case and field."""



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
    accuracy: str = ""  # the case's `standard` `acc` name (e.g. "single_bm"); "" when it has none

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


def spelling_key(aclnn_name: str) -> str:
    """What two spellings of one API share: upstream's files write `aclnnThresholdBackward` and also
    `SoftshrinkBackward` (no prefix); the case of letters varies too (Softshrink, SoftShrink)."""
    key = aclnn_name.strip().lower()
    return key[len("aclnn"):] if key.startswith("aclnn") else key


def find_api(aclnn_name: str) -> AclnnApi:
    """The declaration named `aclnn_name` among every registered operator's (BadFile if none): the
    exact name first, else the one spelling_key matches (`SoftshrinkBackward` is
    aclnnSoftshrinkBackward)."""
    from opsnn import registry
    from opsnn.aclnn.declarations import operator_apis
    broken = []
    known: list[AclnnApi] = []
    for op in registry.discover().values():
        try:
            apis = operator_apis(op)
        except Exception as e:  # one operator's broken declaration does not stop the others
            broken.append(f"{op.name} ({type(e).__name__}: {e})")
            continue
        for api in apis:
            if api.name == aclnn_name:
                return api
            known.append(api)
    alike = [api for api in known if spelling_key(api.name) == spelling_key(aclnn_name)]
    if len(alike) == 1:
        return alike[0]
    more = f"; operators whose declarations failed to load: {', '.join(broken)}" if broken else ""
    raise BadFile(f"unknown aclnn_name {aclnn_name!r}; declared: {', '.join(a.name for a in known)}{more}")


@dataclass(frozen=True)
class CaseFile:
    """A file's cases, and what about the file itself deserves a warning (it runs all the same)."""
    cases: list[Case]
    warnings: tuple[str, ...] = ()


def load_cases(path: str | os.PathLike) -> list[Case]:
    """Every case of the file, validated (BadFile naming the case id and field otherwise)."""
    return load_file(path).cases


def load_file(path: str | os.PathLike, resolve=None) -> CaseFile:
    """The file's cases, validated (BadFile naming the case id and field otherwise), with warnings
    for a file that runs but is probably not what its author meant: no case at all, or one case
    object where ATK writes an array of them. resolve: aclnn_name -> AclnnApi for a surface that
    runs its own APIs (a C++ operator folder, cpp_surface.py) instead of the registered ones."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise BadFile(f"cannot read {path}: {e}") from None
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as e:
        raise BadFile(f"{path} is not JSON: {e}") from None
    warnings = []
    if isinstance(doc, dict):  # one case on its own
        warnings.append(f"{path} holds one JSON object, not an array of cases: it is run as one case")
        doc = [doc]
    if not isinstance(doc, list):
        raise BadFile(f"{path}: the file must hold a JSON array of case objects, not {type(doc).__name__}")
    if not doc:
        warnings.append(f"{path} holds no cases: nothing is run")
    apis: dict[str, AclnnApi] = {}
    cases, seen = [], set()
    for index, raw in enumerate(doc):
        case = _parse_case(raw, index, apis, resolve)
        if case.id in seen:
            raise BadFile(f"case {case.id}: field 'id': id {case.id} appears twice")
        seen.add(case.id)
        cases.append(case)
    return CaseFile(cases, tuple(warnings))


def _parse_case(raw, index: int, apis: dict[str, AclnnApi], resolve=None) -> Case:
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
            apis[name] = (resolve or find_api)(name)
        except BadFile as e:
            raise BadFile(f"{where}: field 'aclnn_name': {e}") from None
    api = apis[name]
    if not api.numpy_api and resolve is None:
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
    return Case(cid, api.name, torch_name, api,
                tuple(_parse_input(item, param, f"{where}: inputs[{k}]") for k, (item, param)
                      in enumerate(zip(inputs, params, strict=True))), _accuracy(raw.get("standard")))


def _accuracy(standard) -> str:
    """`"standard": {"acc": "single_bm"}` or `{"acc": {"single_bm": {...}}}` -> "single_bm"."""
    acc = standard.get("acc") if isinstance(standard, dict) else None
    if isinstance(acc, dict) and len(acc) == 1:
        acc = next(iter(acc))
    return acc if isinstance(acc, str) else ""


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


def is_number(v) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool)


def _range_problem(rv) -> str:
    """'' when range_values has a form docs/atk.md describes, else what is wrong."""
    for v in rv if isinstance(rv, list) else [rv]:
        if is_number(v):
            try:
                float(v)
            except OverflowError:
                return f"{v} is beyond float64's range"
    if isinstance(rv, bool) or is_number(rv):
        return ""
    if isinstance(rv, str):
        return "" if rv.lower() in SPECIALS else f"{rv!r} is not one of 'nan', 'inf', '-inf'"
    if isinstance(rv, list):
        if len(rv) == 1 and (isinstance(rv[0], bool) or is_number(rv[0])
                             or (isinstance(rv[0], str) and rv[0].lower() in SPECIALS)):
            return ""
        if len(rv) == 2 and all(is_number(v) for v in rv):
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


def dtype_name(dt: np.dtype) -> str:
    for short, known in DTYPES.items():
        if dt == known:
            return short
    return str(dt)

