"""Operators as plug-ins: each operator folder under `opsnn/activation/` registers one `Operator`
at import, and the CLI, the emulator backend, the aclnn namespace and the benchmarks find
operators here instead of naming them.

Operators of installed packages outside opsnn are found through the entry-point group
`opsnn.operators`: each entry names a module whose import registers them (pyproject.toml:
`[project.entry-points."opsnn.operators"] myop = "mypkg.myop"`).

An operator folder holds `op_host/`, `op_kernel/`, `op_api/`, `examples/` and `tests/`, and its
`__init__.py` calls `register(Operator(...))`. Nothing heavy is imported at registration: the
record names modules, which are imported when a tool first needs them.

The tools module of an operator (`Operator.tools`) provides, for the CLI:

    tiling_report(request: ToolRequest) -> TilingReport
    prepare_run(request: ToolRequest) -> opsnn.op_common.kernel_run.ExactRun
        (the kernel's tensors allocated and filled; `.launch(sanitize)` gives a LaunchReport:
        `opsnn sanitize` launches once under the sanitizer, benchmarks/bench_emulator.py times it;
        given the operator's functional model (`model=`), `.mismatches()` compares the outputs
        with it, and `opsnn sanitize` exits 1 when they differ)

and may raise ValueError/TypeError (a bad request: the CLI prints the message and exits 2)."""
from __future__ import annotations

import importlib
import importlib.util
import pkgutil
import threading
import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any, Protocol

from opsnn.opdef import OpDef
from opsnn.platform import Platform


@dataclass(frozen=True)
class Option:
    """A per-operator command-line option (`--name`), from an attr or a tool flag."""
    name: str  # snake_case; the CLI spells it --kebab-case
    type: type  # float | int | str | bool (bool: a flag)
    default: Any
    help: str
    commands: tuple[str, ...] = ("tiling", "sanitize")  # the CLI commands that take it


@dataclass(frozen=True)
class ToolRequest:
    """What the CLI asks an operator's tools for: one shape per input (definition order), the
    dtype of every tensor, the platform and the option values (attrs and flags) by name."""
    input_shapes: tuple[tuple[int, ...], ...]
    dtype: str
    platform: Platform
    options: Mapping[str, Any] = field(default_factory=dict)


class TilingReport(Protocol):
    def json_dict(self) -> dict: ...  # block_dim, tiling_key, ..., tiling_data (hex)
    def text_lines(self) -> list[str]: ...  # the human-readable table
    # per core: core, start, end; optionally role (or big), tile_num, tail_num, tile_data_num,
    # pad_bytes, itemsize (what opsnn.plots.plot_core_plan reads, and how)
    def core_rows(self) -> list[dict]: ...


@dataclass(frozen=True)
class Operator:
    name: str  # the folder name, e.g. "threshold_grad_v2_d"
    op_def: OpDef  # the 910B/950 definition its op_host registered
    package: str  # "opsnn.activation.threshold_grad_v2_d"
    summary: str  # one line: the formula
    tools: str | None = None  # module with tiling_report / prepare_run
    options: tuple[Option, ...] = ()  # attrs and tool flags the CLI offers for this operator
    aclnn_module: str | None = None  # module holding the public two-phase functions
    aclnn_functions: tuple[str, ...] = ()  # e.g. ("threshold_backward_get_workspace_size", "threshold_backward")
    example: str | None = None  # file name under <package>/examples/
    scheme_dtypes: tuple[str, ...] = ()  # dtypes one scheme's kernel takes beyond op_def's (ReluGrad's
                                         # int64 on arch35): offered by the CLI, refused by the other scheme
    # numpy-API functions the folder defines, published as opsnn.<name>: name -> "module:function"
    # (e.g. {"leaky_relu_backward": "opsnn.activation.leaky_relu_grad.numpy_api:leaky_relu_backward"})
    python_api: Mapping[str, str] = field(default_factory=dict)

    @property
    def op_type(self) -> str:
        return self.op_def.op_type

    def tools_module(self) -> ModuleType:
        if self.tools is None:
            raise ValueError(f"operator {self.name} has no tiling/sanitize tools")
        return importlib.import_module(self.tools)

    def example_path(self) -> Path | None:
        if self.example is None:
            return None
        spec = importlib.util.find_spec(self.package)
        return Path(next(iter(spec.submodule_search_locations))) / "examples" / self.example

    def kernel_cpp_sources(self) -> list[Path]:
        """The operator's AscendC C++ kernel sources (op_kernel/*.cpp in its folder); [] when it has none."""
        spec = importlib.util.find_spec(self.package)
        return sorted((Path(next(iter(spec.submodule_search_locations))) / "op_kernel").glob("*.cpp"))

    def kernel_cpp_tests(self) -> list[Path]:
        """The op_kernel UTs of the operator's AscendC C++ kernel (tests/ut/op_kernel/test_*.cpp in
        its folder), which `opsnn ut` runs; [] when it has no C++ kernel."""
        spec = importlib.util.find_spec(self.package)
        folder = Path(next(iter(spec.submodule_search_locations))) / "tests" / "ut" / "op_kernel"
        return sorted(folder.glob("test_*.cpp"))


_OPERATORS: dict[str, Operator] = {}
_LOCK = threading.Lock()
_FOLDERS_IMPORTED = False
_DISCOVERED = False
OPERATOR_ROOTS = ("opsnn.activation",)  # packages whose sub-packages are operator folders
ENTRY_POINT_GROUP = "opsnn.operators"  # installed packages' operators: each entry names a module to import


def register(op: Operator) -> Operator:
    """Called once by each operator folder's __init__; a second, different record is an error."""
    with _LOCK:
        if _OPERATORS.setdefault(op.name, op) is not op:
            raise ValueError(f"operator {op.name} registered twice")
    return op


def _import_folders() -> dict[str, Operator]:
    """Import this package's operator folders (each registers itself); the operators so far, sorted."""
    global _FOLDERS_IMPORTED
    if not _FOLDERS_IMPORTED:
        for root in OPERATOR_ROOTS:
            package = importlib.import_module(root)
            for info in pkgutil.iter_modules(package.__path__):
                if info.ispkg:
                    importlib.import_module(f"{root}.{info.name}")
        _FOLDERS_IMPORTED = True  # imports are idempotent, so a race here only repeats them
    return dict(sorted(_OPERATORS.items()))


def discover() -> dict[str, Operator]:
    """Import every operator folder and every installed plug-in's; the operators by name, sorted."""
    global _DISCOVERED
    if not _DISCOVERED:
        _import_folders()
        from importlib import metadata  # here: ~20 ms, which `import opsnn` should not pay

        for entry in metadata.entry_points(group=ENTRY_POINT_GROUP):
            try:
                entry.load()  # the module registers its operators at import, as a folder here does
            except Exception as e:  # a broken plug-in must not take every command down with it
                warnings.warn(f"opsnn: the operator entry point {entry.name} = {entry.value} failed to load: "
                              f"{type(e).__name__}: {e}", RuntimeWarning, stacklevel=2)
        _DISCOVERED = True
    return dict(sorted(_OPERATORS.items()))


def find(predicate) -> Operator | None:
    """The first operator, by name, for which `predicate(op)` holds: this package's folders are
    asked first, installed plug-ins (entry points, ~20 ms to list) only when none matches, so a C
    program's first call of an in-tree API does not pay for them."""
    for ops in (_import_folders, discover):
        for op in ops().values():
            if predicate(op):
                return op
    return None


def is_submodule(package: str, name: str) -> bool:
    """Whether `package.name` is a module. A package whose __getattr__ publishes operators' functions
    asks this first: `from package import submodule` calls __getattr__ before importing the submodule,
    and answering by listing the operators would import every plug-in (~20 ms) for nothing."""
    return importlib.util.find_spec(f"{package}.{name}") is not None


def python_api() -> dict[str, str]:
    """Every registered operator's numpy-API functions: public name -> "module:function"."""
    found: dict[str, str] = {}
    for op in discover().values():
        for name, target in op.python_api.items():
            if found.setdefault(name, target) != target:
                raise ValueError(f"opsnn.{name} is published by two operators")
    return found


def resolve(target: str):
    """The object a "module:attribute" string names."""
    module, _, attribute = target.partition(":")
    return getattr(importlib.import_module(module), attribute)


def get(name: str) -> Operator:
    """An operator by folder name (`threshold_grad_v2_d`) or op type (`ThresholdGradV2D`)."""
    ops = discover()
    if name in ops:
        return ops[name]
    for op in ops.values():
        if op.op_type == name:
            return op
    raise ValueError(f"unknown operator {name!r}; known: {', '.join(ops)}")


def aclnn_function(name: str):
    """The public two-phase function `name` of whichever operator registered it, or None."""
    op = find(lambda op: name in op.aclnn_functions)
    return None if op is None else getattr(importlib.import_module(op.aclnn_module), name)


def aclnn_function_names() -> tuple[str, ...]:
    return tuple(n for op in discover().values() for n in op.aclnn_functions)
