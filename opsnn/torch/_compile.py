"""torch.compile with inductor under an open npu_semantics: warn once that the mode is bypassed.

Inductor decomposes the intercepted aten ops (threshold_backward into a `where`, ...) while it
traces, and generates its own loops for them: the compiled code never calls aten's kernel, so
npu_semantics has nothing to intercept and the NPU semantics silently do not apply (issue 27
item 9). The decompositions inductor uses for the intercepted ops are wrapped (once, the first
time a context is entered, or when inductor is imported later) so that running one in a thread
with an open context that intercepts the op warns, once per process; inductor's compile_fx is
wrapped so that a graph compiled under an open context is traced (not taken from inductor's caches,
which would skip the decomposition). A graph compiled earlier outside any context and run inside
one is not traced again: it does not warn. The wrappers cost nothing at run time: they run only
while a graph is compiled.
"""
from __future__ import annotations

import importlib.abc
import importlib.util
import sys
import threading
import warnings

_DECOMPOSITION = "torch._inductor.decomposition"
_COMPILE_FX = "torch._inductor.compile_fx"
_lock = threading.Lock()
_state = {"watching": False, "warned": False}


class NpuSemanticsBypassWarning(UserWarning):
    """A graph compiled under npu_semantics computes an intercepted op in its own code (torch's
    semantics): inductor decomposed it. Use backend="eager"/"aot_eager" or torch.ops.opsnn.*."""


def _warn(func) -> None:
    with _lock:
        if _state["warned"]:
            return
        _state["warned"] = True
    warnings.warn(f"torch.compile (inductor) decomposed {func} under an open npu_semantics: the compiled "
                  "graph computes it with torch's semantics, not the NPU's. Compile with backend='eager' or "
                  "'aot_eager' (their graphs call aten's kernels, which the mode intercepts), or call "
                  "torch.ops.opsnn.* explicitly. (Warned once per process.)", NpuSemanticsBypassWarning,
                  stacklevel=2)


def _wrap_table(table: dict, intercepted, intercepts) -> None:
    for func in intercepted:
        decomp = table.get(func)
        if decomp is None or getattr(decomp, "_opsnn_checked", False):
            continue

        def checked(*args, _decomp=decomp, _func=func, **kwargs):
            if intercepts(_func):
                _warn(_func)
            return _decomp(*args, **kwargs)

        checked._opsnn_checked = True
        table[func] = checked


def _wrap_compile_fx(module, intercepts_any) -> None:
    """inductor's entry point: a graph compiled under an open context is traced afresh (inductor's
    and AOTAutograd's caches off for that compile), so the wrapped decompositions run and can warn
    (a cache hit would skip the trace that decomposes)."""
    compile_fx = module.compile_fx
    if getattr(compile_fx, "_opsnn_checked", False):
        return

    def checked(*args, **kwargs):
        if not intercepts_any():
            return compile_fx(*args, **kwargs)
        import torch._functorch.config as functorch_config
        import torch._inductor.config as inductor_config
        with inductor_config.patch(fx_graph_cache=False), functorch_config.patch(enable_autograd_cache=False):
            return compile_fx(*args, **kwargs)

    checked._opsnn_checked = True
    module.compile_fx = checked


class _AfterImport(importlib.abc.MetaPathFinder):
    """Runs then[name](module) right after each named module is imported (by torch.compile)."""

    def __init__(self, then: dict):
        self.then = then

    def find_spec(self, name, path, target=None):
        then = self.then.pop(name, None)
        if then is None:
            return None
        sys.meta_path.remove(self)  # the real spec, found by the others; back while modules are left
        try:
            spec = importlib.util.find_spec(name)
        finally:
            if self.then:
                sys.meta_path.insert(0, self)
        if spec is None or spec.loader is None:
            return spec
        loader = spec.loader

        class Loader(importlib.abc.Loader):
            def create_module(self, spec):
                return loader.create_module(spec)

            def exec_module(self, module):
                loader.exec_module(module)
                then(module)

        spec.loader = Loader()
        return spec


def watch(intercepted, intercepts) -> None:
    """Wrap inductor's decompositions of `intercepted` (aten overloads) and its compile_fx now where
    inductor is loaded, else right after it is; `intercepts(func)`: does the calling thread's
    innermost open context take func (func None: any)."""
    if _state["watching"]:  # every later context: nothing to do
        return
    with _lock:
        if _state["watching"]:
            return
        _state["watching"] = True
    then = {_DECOMPOSITION: lambda m: _wrap_table(m.decompositions, intercepted, intercepts),
            _COMPILE_FX: lambda m: _wrap_compile_fx(m, lambda: intercepts(None))}
    for name in list(then):
        module = sys.modules.get(name)
        if module is not None:
            then.pop(name)(module)
    if then:
        sys.meta_path.insert(0, _AfterImport(then))
