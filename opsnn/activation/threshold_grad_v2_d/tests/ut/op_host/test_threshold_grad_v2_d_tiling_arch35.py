"""ThresholdGradV2D arch35 tiling: upstream's arch35 UT cases (tests/ut/op_host/arch35, platform
UB 245760 / 64 cores), the keys and numbers of docs/arch35-atvoss.md, and the CLI report."""
from __future__ import annotations

import numpy as np
import pytest

from opsnn.activation.threshold_grad_v2_d.op_host.arch35 import THRESHOLD_GRAD_V2D_ARCH35, TilingError, tiling_arch35
from opsnn.activation.threshold_grad_v2_d.op_host.arch35.tools import arch35_prepare_run, arch35_tiling_report
from opsnn.atvoss import BroadcastBaseTilingData, BroadcastOneDimTilingData
from opsnn.platform import Platform, get_platform
from opsnn.registry import ToolRequest

P950 = get_platform("Ascend950")
DTYPES = ("float16", "bfloat16", "float32", "int32", "int8", "uint8")


def test_platform_is_the_upstream_ut_one():
    assert (P950.ub_size, P950.aiv_cores) == (245760, 64)


@pytest.mark.parametrize("dtype", DTYPES)
def test_upstream_ut_2x128(dtype):  # upstream asserts GRAPH_SUCCESS only; the numbers are the formula's
    r = tiling_arch35([(2, 128), (2, 128)], dtype, 1.0, P950)
    d = r.tiling_data
    assert r.schedule_mode == 201 and isinstance(d, BroadcastOneDimTilingData) and len(d.to_bytes()) == 56
    want = (256, 256, 1) if dtype == "float32" else (192, 64, 2)
    assert (d.ub_former, d.ub_tail, d.block_num) == want and r.block_dim == d.block_num
    tpl = DTYPES.index(dtype) + 1
    assert r.tiling_key == 7 | tpl << 16  # index(201) = 7
    assert r.workspace_size == 16 * 1024 * 1024


def test_upstream_ut_other_shapes():
    r = tiling_arch35([(2, 4, 8, 16), (2, 4, 8, 16)], "float32", 1.0, P950)
    assert (r.tiling_data.ub_former, r.tiling_data.block_num, r.tiling_key) == (256, 4, 196615)
    r = tiling_arch35([(1024,), (1024,)], "float16", 1.0, P950)
    assert (r.tiling_data.ub_former, r.tiling_data.ub_tail, r.tiling_data.block_num) == (192, 64, 6)


def test_upstream_ut_bool_fails():
    with pytest.raises(TilingError):
        tiling_arch35([(2, 128), (2, 128)], "int64", 1.0, P950)
    with pytest.raises(TilingError):
        tiling_arch35([(2, 128), (2, 128)], ("float16", "float16", "float32"), 1.0, P950)


def test_threshold_goes_into_scalar_data_as_float32():
    d = tiling_arch35([(8,), (8,)], "float16", 0.1, P950).tiling_data
    assert d.scalar_data == np.float32(0.1).tobytes() + bytes(12)
    assert tiling_arch35([(8,), (8,)], "float16", None, P950).threshold == 1.0  # the attr default
    d = tiling_arch35([(4, 512), (4, 1)], "float16", -3.5, P950).tiling_data
    assert isinstance(d, BroadcastBaseTilingData) and d.scalar_data[:4] == np.float32(-3.5).tobytes()
    assert d.input_brc_dims[0][:2] == (4, 1) and d.input_brc_dims[1][:2] == (4, 512)  # self, then grad


def test_broadcast_keys():
    assert tiling_arch35([(1024, 512), (1024, 1)], "float16", 1.0, P950).tiling_key == 65539
    assert tiling_arch35([(1024, 512), (1024, 1)], "float32", 1.0, P950).tiling_key == 196608
    assert tiling_arch35([(8, 1, 16), (1, 32, 16)], "float16", 1.0, P950).tiling_key == 65540


def test_custom_platform_overrides():
    r = tiling_arch35([(10**6,), (10**6,)], "float32", 1.0, Platform.custom(253952, 64, "ascend950"))
    assert (r.tiling_data.ub_former, r.tiling_data.ub_tail, r.block_dim) == (7936, 64, 64)


def test_arch35_definition_record():
    d = THRESHOLD_GRAD_V2D_ARCH35
    assert [t.name for t in d.inputs] == ["gradOutput", "self"] and d.outputs[0].name == "out"
    a = d.attr("threshold")
    assert (a.attr_type, a.default) == ("OPTIONAL", 1.0) and d.supports("ascend950") and not d.supports("ascend910b")


def test_cli_report_fields():
    req = ToolRequest(((1024, 512), (1024, 1)), "float16", P950, {"threshold": 0.5})
    j = arch35_tiling_report(req).json_dict()
    assert (j["block_dim"], j["tiling_key"], j["schedule_mode"]) == (52, 65539, 102)
    assert j["ub_former"] == 10 and j["output_dims"][:2] == [1024, 512] and j["input_brc_strides"][0][:2] == [1, 0]
    assert bytes.fromhex(j["tiling_data"])[616:620] == np.float32(0.5).tobytes()
    rows = arch35_tiling_report(req).core_rows()
    assert len(rows) == 52 and rows[0]["start"] == 0 and rows[-1]["end"] == 1024 * 512
    assert all(a["end"] == b["start"] for a, b in zip(rows, rows[1:], strict=False))
    one = arch35_tiling_report(ToolRequest(((2, 128), (2, 128)), "int8", P950, {})).json_dict()
    assert {"scalar_flag", "ub_former", "ub_tail", "block_num", "block_former", "block_tail"} <= set(one)
    assert arch35_prepare_run(req).launch(sanitize=True).findings == []
    with pytest.raises(ValueError, match="broadcast"):
        arch35_tiling_report(ToolRequest(((2, 3), (4,)), "float16", P950, {}))
