"""`opsnn tiling hardtanh_grad` / `opsnn sanitize hardtanh_grad`: the tools module behind them,
the attrs as --min-val / --max-val."""
from __future__ import annotations

import json
import struct

import pytest

from opsnn.cli import main


def _json(capsys, *argv):
    rc = main([*argv, "--json"])
    return rc, json.loads(capsys.readouterr().out)


def test_tiling_json_is_upstreams_ut_case(capsys):
    rc, doc = _json(capsys, "tiling", "hardtanh_grad", "--soc", "Ascend950", "--dtype", "float16", "--shape",
                    "1,64,2,64", "--min-val", "-2", "--max-val", "1")
    assert rc == 0
    assert (doc["tiling_key"], doc["block_dim"], doc["schedule_mode"], doc["workspace_size"]) == (3, 2, 1, 16777216)
    raw = bytes.fromhex(doc["tiling_data"])
    words = " ".join(str(w) for w in struct.unpack("<11q", raw))
    assert words == "8192 26388279066626 4096 2 1 1 4096 4096 6144 1 4575657224629649408"
    assert (doc["min_val"], doc["max_val"], doc["ub_former"], doc["core_num"]) == (-2.0, 1.0, 6144, 2)


def test_tiling_text_and_defaults(capsys):
    assert main(["tiling", "hardtanh_grad", "--soc", "Ascend950", "--shape", "100000"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("HardtanhGrad tiling") and "min_val=-1.0  max_val=1.0" in out
    assert "upstream_words" in out and "per-core plan" in out


@pytest.mark.parametrize("argv", [
    ["tiling", "hardtanh_grad", "--soc", "Ascend910B2", "--shape", "4"],  # a TBE kernel there: no tiling of ours
    ["tiling", "hardtanh_grad", "--soc", "Ascend950", "--input-shapes", "4,4", "2,4"],  # no broadcasting
    ["tiling", "hardtanh_grad", "--soc", "Ascend950", "--shape", "0,4"],  # empty
    ["sanitize", "hardtanh_grad", "--soc", "Ascend950", "--input-shapes", "4", "3"],
    ["tiling", "hardtanh_grad", "--soc", "Ascend950", "--shape", "4", "--dtype", "int8"],  # not a choice
    ["sanitize", "hardtanh_grad", "--soc", "Ascend950", "--shape", "4", "--min-val", "x"],
])
def test_refused_requests_exit_2(capsys, argv):
    assert main(argv) == 2
    assert "error" in capsys.readouterr().err


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32"])
def test_sanitize_is_clean_and_matches_the_model(capsys, dtype):
    rc, doc = _json(capsys, "sanitize", "hardtanh_grad", "--soc", "Ascend950", "--dtype", dtype, "--shape",
                    "3,1000", "--min-val", "0", "--max-val", "6")
    assert rc == 0 and doc["findings"] == [] and doc["model_mismatches"] == [] and doc["block_dim"] == 1


def test_sanitize_many_cores_and_tiles(capsys):
    rc, doc = _json(capsys, "sanitize", "hardtanh_grad", "--ub-size", "16384", "--cores", "4", "--family",
                    "ascend950", "--dtype", "bfloat16", "--shape", "70001", "--min-val", "2", "--max-val", "-2")
    assert rc == 0 and doc["findings"] == [] and doc["model_mismatches"] == [] and doc["block_dim"] == 4


def test_sanitize_text_and_stats(capsys):
    assert main(["sanitize", "hardtanh_grad", "--soc", "Ascend950", "--shape", "", "--stats"]) == 0
    out = capsys.readouterr().out
    assert "clean" in out and "bit for bit" in out and "And" in out and "Or" in out
