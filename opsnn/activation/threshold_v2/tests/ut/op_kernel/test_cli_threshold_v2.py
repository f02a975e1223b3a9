"""`opsnn tiling threshold_v2` / `opsnn sanitize threshold_v2`: the tools module behind them."""
from __future__ import annotations

import json

import pytest

from opsnn.cli import main


def _json(capsys, *argv):
    rc = main([*argv, "--json"])
    return rc, json.loads(capsys.readouterr().out)


def test_tiling_json_fields(capsys):
    rc, doc = _json(capsys, "tiling", "threshold_v2", "--soc", "Ascend950", "--dtype", "float16",
                    "--shape", "1024,512")
    assert rc == 0
    assert doc["tiling_key"] == 3 and doc["schedule_mode"] == 1 and doc["workspace_size"] == 0
    for key in ("dim0", "core_num", "ub_former", "block_former", "block_num", "ub_loop_of_former_block",
                "ub_loop_of_tail_block", "ub_tail_of_former_block", "ub_tail_of_tail_block", "elem_num"):
        assert isinstance(doc[key], int), key
    assert doc["dim0"] == 524288 and doc["block_dim"] == doc["block_num"] == 64 and doc["block_former"] == 8192
    assert len(bytes.fromhex(doc["tiling_data"])) == 80


def test_tiling_custom_platform_input_shapes_no_value(capsys):
    rc, doc = _json(capsys, "tiling", "threshold_v2", "--ub-size", "245760", "--cores", "64", "--family",
                    "ascend950", "--dtype", "bfloat16", "--input-shapes", "8192", "1", "--no-value")
    assert rc == 0 and doc["tiling_key"] == 1
    assert (doc["ub_former"], doc["core_num"], doc["block_former"], doc["block_num"]) == (8704, 2, 4096, 2)


def test_tiling_text_lists_every_core(capsys):
    assert main(["tiling", "threshold_v2", "--soc", "Ascend950", "--dtype", "int8", "--shape", "100000"]) == 0
    out = capsys.readouterr().out
    assert "tiling_key" in out and "per-core plan" in out
    assert out.count(" former ") + out.count(" tail ") >= 4


@pytest.mark.parametrize("argv", [
    ["tiling", "threshold_v2", "--soc", "Ascend910B2", "--shape", "4"],  # no AscendC tiling on 910B
    ["tiling", "threshold_v2", "--soc", "Ascend950", "--input-shapes", "4,4", "2,4"],  # threshold shape
    ["tiling", "threshold_v2", "--soc", "Ascend950", "--shape", "0,4"],  # empty
    ["sanitize", "threshold_v2", "--soc", "Ascend950", "--input-shapes", "4", "3"],
])
def test_refused_requests_exit_2(capsys, argv):
    assert main(argv) == 2
    assert "error" in capsys.readouterr().err


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "int16", "int64", "uint8"])
def test_sanitize_is_clean(capsys, dtype):
    rc, doc = _json(capsys, "sanitize", "threshold_v2", "--soc", "Ascend950", "--dtype", dtype, "--shape", "3,1000")
    assert rc == 0 and doc["findings"] == [] and doc["block_dim"] >= 1


def test_sanitize_full_shape_threshold_and_no_value(capsys):
    rc, doc = _json(capsys, "sanitize", "threshold_v2", "--ub-size", "16384", "--cores", "4", "--family",
                    "ascend950", "--dtype", "float32", "--shape", "70000", "--no-value")
    assert rc == 0 and doc["findings"] == [] and doc["block_dim"] == 4
