"""op_common.elementwise_tools and op_common.aclnn_phases: the pieces SigmoidGrad's and SeluGrad's
tools.py and op_api share (one shape, special values, the tiling report; the two phases)."""
import numpy as np
import pytest

from opsnn.op_common.aclnn_phases import phases
from opsnn.op_common.elementwise_tools import TilingReport, one_shape, tiling_fields, with_specials
from opsnn.platform import get_platform
from opsnn.registry import ToolRequest


def test_one_shape():
    request = ToolRequest(((4, 5), (4, 5)), "float32", get_platform("Ascend910B2"))
    assert one_shape(request, "Op", "a and b") == (4, 5)
    with pytest.raises(ValueError, match=r"Op takes a and b of one shape, got \[\[4, 5\], \[5\]\]"):
        one_shape(ToolRequest(((4, 5), (5,)), "float32", get_platform("Ascend910B2")), "Op", "a and b")


def test_with_specials_mixes_about_one_in_ten():
    v = with_specials(np.random.default_rng(0), np.float16, 10_000, (np.nan, -0.0))
    nan, neg_zero = np.isnan(v), v.view(np.uint16) == 0x8000
    assert v.dtype == np.float16 and 300 < nan.sum() < 700 and 300 < neg_zero.sum() < 700


def test_tiling_report_and_fields():
    from opsnn.activation.selu_grad.op_host import selu_grad_tiling
    t = selu_grad_tiling(5000, "float32", "Ascend910B2")
    fields = tiling_fields(t.block_dim, t.tiling_key, t.tiling_data, t.workspace_size)
    assert list(fields)[:3] == ["block_dim", "tiling_key", "workspace_size"] and fields["tiling_data"] == \
        t.tiling_data.to_bytes().hex()
    report = TilingReport("T", fields, [{"core": 0}])
    assert report.json_dict() is fields and report.core_rows() == [{"core": 0}]
    assert report.text_lines()[0] == "T" and len(report.text_lines()) == 1 + len(fields)
    assert "workspace_size" not in tiling_fields(1, 0, t.tiling_data)


def test_phases_run_the_plan_with_the_parameters():
    seen = []
    phase1, phase2 = phases("aclnnToy", lambda executor, *params: seen.append(params), "toy")
    assert (phase1.__name__, phase2.__name__) == ("toy_get_workspace_size", "toy")
    assert phase1(1, 2)[2] == 561101 and seen == []  # no device: the executor first, the plan never runs
    assert phase2(None, 0, None, None) == 161001


def test_dag_runner_refuses_a_key_or_dtype_without_a_binary():
    from opsnn.ascendc import EmulatorError, GlobalMemory
    from opsnn.op_common.kernel_entry import dag_runner
    run = dag_runner(lambda dtype: {"float32": "dag"}[dtype], ("a",), ("b",), lambda dtype: 7, "Toy")
    for dtype, key in (("float32", 8), ("int8", 7)):
        with pytest.raises(EmulatorError, match=f"no Toy arch35 kernel for key {key} and dtype {dtype}"):
            run(gm=GlobalMemory(), platform="Ascend950", dtype=dtype, tiling_key=key, block_dim=1, tiling=b"")


def test_entry_runner_launches_the_entry_with_its_dtype():
    from opsnn.ascendc import GlobalMemory
    from opsnn.op_common.kernel_entry import entry_runner
    seen = []
    run = entry_runner(lambda ctx, a, b, tiling, *, dtype: seen.append((ctx.GetBlockIdx(), tiling, dtype)), ("a", "b"))
    run(gm=GlobalMemory(), platform="Ascend910B2", dtype="float16", block_dim=2, tiling=b"\x01")
    assert sorted(seen) == [(0, b"\x01", "float16"), (1, b"\x01", "float16")]
    with pytest.raises(TypeError, match="unknown kernel argument"):
        run(gm=GlobalMemory(), platform="Ascend910B2", dtype="float16", block_dim=1, tiling=b"", c=None)


def test_block_split_tiling_and_its_struct():
    from opsnn.activation.sigmoid_grad.op_kernel.sigmoid_grad_tiling_data import SigmoidGradTilingData
    from opsnn.op_common.block_tiling import TilingError, block_split_tiling
    t = block_split_tiling("Toy", 100_000, "float16", "Ascend910B2", {"float16": 16}, SigmoidGradTilingData)
    assert isinstance(t.tiling_data, SigmoidGradTilingData) and (t.tiling_key, t.dtype, t.num_elements) == (
        0, "float16", 100_000)
    assert SigmoidGradTilingData.from_bytes(t.tiling_data.to_bytes()) == t.tiling_data
    assert len(t.tiling_data.to_bytes()) == 64 and list(t.tiling_data.upstream_dict())[0] == "smallCoreDataNum"
    with pytest.raises(TilingError, match="Toy does not support int32; supported: float16"):
        block_split_tiling("Toy", 10, "int32", "Ascend910B2", {"float16": 16})


def test_infer_elementwise_and_float32_values():
    from opsnn.dtypes import bfloat16
    from opsnn.op_common.float32_values import narrow, widen
    from opsnn.op_common.infershape import infer_elementwise
    assert infer_elementwise([2, -1], [5]) == (2, -1) and infer_elementwise(None) is None
    with pytest.raises(ValueError, match="bad dimension"):
        infer_elementwise((2, -2))
    h = np.array([[1.5, -np.inf], [np.nan, 3e-8]], bfloat16)
    w = widen(h)
    assert w.dtype == np.float32 and w.shape == (2, 2) and narrow(w, bfloat16).tobytes() == h.tobytes()
    assert narrow(np.float32([1 + 2**-9]), bfloat16).view(np.uint16)[0] == 0x3F80  # a tie: to even
