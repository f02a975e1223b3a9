"""docs/writing-a-kernel.md runs: its ```python blocks, extracted and executed in order in one
namespace, build, launch and sanitize the Double operator, and its deliberate overrun is an error.
The public emulator API the page uses is typed and documented (numpydoc sections)."""
from __future__ import annotations

import contextlib
import inspect
import io
import re
import sys
import types
from pathlib import Path

import pytest

import opsnn.ascendc as ascendc
from opsnn import registry
from opsnn.ascendc import arith

DOC = Path(__file__).resolve().parents[1] / "docs" / "writing-a-kernel.md"
_BLOCK = re.compile(r"^```python\n(.*?)^```$", re.S | re.M)


def python_blocks(text: str) -> list[str]:
    return _BLOCK.findall(text)


@pytest.fixture(scope="module")
def namespace() -> dict:
    # A real module object: dataclasses look their class's module up in sys.modules.
    module = types.ModuleType("writing_a_kernel_doc_code")
    out = io.StringIO()
    sys.modules[module.__name__] = module
    operators = dict(registry._OPERATORS)  # the page registers Double (section 12): not for the other tests
    try:
        with contextlib.redirect_stdout(out):
            for i, block in enumerate(python_blocks(DOC.read_text())):
                exec(compile(block, f"{DOC.name} block {i + 1}", "exec"), module.__dict__)  # noqa: S102
        yield {**module.__dict__, "__stdout__": out.getvalue()}
    finally:
        del sys.modules[module.__name__]
        sys.modules.pop("double_tools", None)
        registry._OPERATORS.clear()
        registry._OPERATORS.update(operators)


def test_the_page_has_its_code_blocks():
    blocks = python_blocks(DOC.read_text())
    assert len(blocks) == 19
    assert blocks[0].startswith("from opsnn.opdef import")


def test_the_operator_runs_clean_under_the_sanitizer(namespace):
    report = namespace["report"]
    assert report.ok and report.block_dim == 1
    assert {(f.kind, f.level, f.core) for f in report.findings} == {
        ("gm_read_past_tensor", "expected", 0), ("gm_write_past_tensor", "expected", 0)}
    assert namespace["report48"].ok and namespace["report48"].block_dim == 48


def test_the_skeleton_kernel_gives_the_same_result_clean(namespace):
    assert namespace["skeleton_report"].ok and namespace["skeleton_report"].block_dim == 48


def test_the_deliberate_overrun_is_reported_as_an_error(namespace):
    broken = namespace["broken"]
    assert not broken.ok
    past = [f for f in broken.errors if f.kind == "gm_write_past_tensor"]
    assert [(f.core, f.tile, f.instruction, f.tensor, f.offset, f.nbytes) for f in past] == [
        (0, 0, "DataCopy", "y", 3840, 256)]


def test_the_masked_kernel_is_clean_and_its_budgeting_slips_are_caught(namespace):
    report = namespace["masked_report"]
    assert report.ok and {f.kind for f in report.findings} == {"gm_read_past_tensor", "gm_write_past_tensor"}
    assert report.core_stats[0].instructions == {"DataCopy": 2, "Duplicate": 1, "Compares": 1, "Mul": 1, "Select": 1}
    assert {f.kind for f in namespace["too_few_slices"].errors} == {"ub_exhausted"}
    assert {f.kind for f in namespace["small_mask"].errors} == {"local_tensor_overflow"}


def test_the_instruction_table_names_what_the_emulator_exports():
    table = DOC.read_text().split("## 9.")[1].split("## 10.")[0]
    named = set(re.findall(r"^\| `(\w+)\(", table, re.M))
    assert named == {"DataCopy", "Duplicate", "Mul", "Compares", "Select", "Cast"}
    assert named <= set(ascendc.__all__)


def test_the_registered_operator_is_the_clis_and_goes_away_after(namespace):
    assert registry.get("double").tools == "double_tools"
    assert registry.get("double").tools_module().prepare_run is namespace["prepare_run"]


def test_the_core_rows_are_what_the_plot_draws(namespace, tmp_path):
    pytest.importorskip("matplotlib")
    from opsnn import plots

    report = namespace["tiling_report"](registry.ToolRequest(((100_003,),), "float32", namespace["platform"]))
    path = plots.plot_core_plan(report.core_rows(), tmp_path / "double.png", "Double")
    assert path.stat().st_size > 10_000


def test_the_printed_reports_are_the_ones_the_page_shows(namespace):
    shown = re.findall(r"^```text\n(.*?)^```$", DOC.read_text(), re.S | re.M)
    printed = namespace["__stdout__"]
    assert shown and "".join(shown) == printed


# --- the public emulator API the page uses: typed, numpydoc -----------------------------------------

PUBLIC = [
    ascendc.launch, ascendc.KernelArg, ascendc.Padding, ascendc.LaunchReport, ascendc.Finding,
    ascendc.GlobalMemory, ascendc.GlobalMemory.malloc, ascendc.GlobalMemory.free, ascendc.GlobalMemory.bytes_view,
    ascendc.GlobalTensor, ascendc.GlobalTensor.SetGlobalBuffer, ascendc.GlobalTensor.GetSize,
    ascendc.GlobalTensor.__getitem__, ascendc.GmPtr, ascendc.GmPtr.as_type, ascendc.GmPtr.__add__,
    ascendc.LocalTensor, ascendc.LocalTensor.GetSize, ascendc.LocalTensor.ReinterpretCast,
    ascendc.LocalTensor.__getitem__, ascendc.LocalTensor.numpy,
    ascendc.TPipe, ascendc.TPipe.InitBuffer, ascendc.TQue, ascendc.TQue.AllocTensor, ascendc.TQue.EnQue,
    ascendc.TQue.DeQue, ascendc.TQue.FreeTensor, ascendc.TBuf, ascendc.TBuf.Get,
    ascendc.CoreContext, ascendc.CoreContext.GetBlockIdx, ascendc.CoreContext.GetBlockNum,
    ascendc.CoreContext.begin_tile, ascendc.DataCopy, ascendc.Compares, ascendc.Select, ascendc.Cast,
    arith.Duplicate, arith.Mul,
]


def _name(obj) -> str:
    return getattr(obj, "__qualname__", repr(obj))


@pytest.mark.parametrize("obj", PUBLIC, ids=_name)
def test_public_api_is_documented_in_numpydoc(obj):
    doc = inspect.getdoc(obj) or ""
    target = obj.__init__ if inspect.isclass(obj) else obj
    params = [p for p in inspect.signature(target).parameters if p not in ("self", "cls")]
    if params:
        assert re.search(r"^Parameters\n-{10}$", doc, re.M), f"{_name(obj)}: no Parameters section"
        for p in params:
            assert re.search(rf"^(\w+, )*\**{p}\b.*:", doc, re.M), f"{_name(obj)}: parameter {p} undocumented"
    returns = inspect.signature(target).return_annotation
    if not inspect.isclass(obj) and returns not in (None, "None", inspect.Signature.empty):
        assert re.search(r"^Returns\n-{7}$", doc, re.M), f"{_name(obj)}: no Returns section"


@pytest.mark.parametrize("obj", [o for o in PUBLIC if not inspect.isclass(o)], ids=_name)
def test_public_functions_are_typed(obj):
    sig = inspect.signature(obj)
    assert sig.return_annotation is not inspect.Signature.empty, f"{_name(obj)}: no return annotation"
    for name, p in sig.parameters.items():
        if name not in ("self", "cls") and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            assert p.annotation is not inspect.Parameter.empty, f"{_name(obj)}: {name} untyped"

