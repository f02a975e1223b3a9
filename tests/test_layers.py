"""Imports flow one way: no module imports from a layer above its own, and no import cycles
(every static import counts, lazy and TYPE_CHECKING ones included). Operators are found by
opsnn.registry at run time, not imported by the layers below them."""
from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1] / "opsnn"

# Lowest first. A module may import its own layer and the layers below; activation operators may
# import each other (aclnnThresholdBackward launches ReluGrad) but nothing above them.
LAYERS = [
    {"opsnn.dtypes", "opsnn.platform", "opsnn.opdef"},
    {"opsnn.engine"},
    {"opsnn.registry"},
    {"opsnn.ascendc"},
    {"opsnn.acl", "opsnn.atvoss"},
    {"opsnn.aclnn"},
    {"opsnn.op_common"},
    {"opsnn.activation"},
    {"opsnn.backends"},
    {"opsnn.api", "opsnn.plots"},
    # the C ABI's and the CPU-debug runtime's builds (the libraries, the kernel bridge)
    {"opsnn.capi", "opsnn.cpudebug"},
    # the host twin: C++ operator folders built on those libraries
    {"opsnn.host"},
    # commands and whole-package surfaces: the C ABI's runtime bridge runs the numpy API (opsnn),
    # `opsnn ut` runs op_host / op_api tests through the host twin
    {"opsnn", "opsnn.cli", "opsnn.__main__", "opsnn.torch", "opsnn.dask", "opsnn.info", "opsnn.atk",
     "opsnn.capi.__main__", "opsnn.capi.bridge", "opsnn.capi.device_mode", "opsnn.cpudebug.ut",
     "opsnn.cpudebug.ut_survey"},
]


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path, name: str, modules: set[str]) -> set[str]:
    tree = ast.parse(path.read_text(), str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.startswith("opsnn")}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            if mod.startswith("opsnn"):
                for a in node.names:  # `from pkg import module` depends on the module, else on pkg
                    found.add(f"{mod}.{a.name}" if f"{mod}.{a.name}" in modules else mod)
    return found


@functools.cache
def _graph() -> dict[str, set[str]]:
    files = [p for p in ROOT.rglob("*.py") if "tests" not in p.relative_to(ROOT).parts
             and "examples" not in p.relative_to(ROOT).parts]
    names = {_module_name(p): p for p in files}
    return {n: {m for m in _imports(p, n, set(names)) if m in names and m != n} for n, p in names.items()}


def _layer(module: str) -> int:
    best = None
    for i, layer in enumerate(LAYERS):
        for prefix in layer:
            if module == prefix or module.startswith(prefix + ".") and prefix != "opsnn":
                if best is None or len(prefix) > best[1]:
                    best = (i, len(prefix))
    assert best is not None, f"{module} is in no layer: add it to LAYERS"
    return best[0]


def test_every_module_has_a_layer():
    for module in _graph():
        _layer(module)


def test_no_module_imports_from_a_layer_above():
    bad = [(m, d) for m, deps in _graph().items() for d in deps if _layer(d) > _layer(m)]
    assert bad == []


def test_no_import_cycles():
    graph = _graph()
    index, low, stack, on_stack, cycles = {}, {}, [], set(), []

    def visit(v):  # Tarjan's strongly connected components
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for v in graph:
        if v not in index:
            visit(v)
    assert cycles == []


@pytest.mark.parametrize("low", ["opsnn.ascendc", "opsnn.aclnn", "opsnn.acl", "opsnn.atvoss", "opsnn.op_common"])
def test_framework_names_no_operator(low):
    named = [m for m in _graph() if m.startswith(low) for d in _graph()[m] if d.startswith("opsnn.activation")]
    assert named == []
