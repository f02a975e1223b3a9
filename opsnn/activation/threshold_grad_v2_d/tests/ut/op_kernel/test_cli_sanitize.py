"""`opsnn sanitize`: text and JSON reports, exit codes."""
from __future__ import annotations

import json

import pytest

from opsnn.cli import main


def _json(capsys, *argv):
    rc = main(["sanitize", *argv, "--json"])
    out = capsys.readouterr().out
    return rc, json.loads(out)


def test_json_shape_for_the_reference_example(capsys):
    rc, doc = _json(capsys, "--shape", "2,2")
    assert rc == 0
    assert set(doc) == {"block_dim", "findings", "model_mismatches"} and doc["block_dim"] == 1
    assert doc["model_mismatches"] == []  # compared with the functional model: it agrees
    keys = {"kind", "core", "tile", "instruction", "tensor", "offset", "nbytes", "detail"}
    assert all(keys <= set(f) for f in doc["findings"])
    assert sorted(f["kind"] for f in doc["findings"]) == [
        "gm_read_past_tensor", "gm_read_past_tensor", "gm_write_past_tensor"]
    assert all(f["level"] == "expected" and f["core"] == 0 for f in doc["findings"])


def test_exactly_one_json_object(capsys):
    main(["sanitize", "--shape", "1000", "--dtype", "int8", "--ub-size", "8192", "--cores", "3", "--json"])
    out = capsys.readouterr().out
    assert out.count("\n") == 1
    json.loads(out)


def test_clean_multiple_of_blocks_has_no_findings(capsys):
    rc, doc = _json(capsys, "--shape", "64,4", "--dtype", "float32", "--soc", "Ascend910B3")
    assert rc == 0 and doc["findings"] == []


def test_upstream_int8_temp_exits_1(capsys):
    rc, doc = _json(capsys, "--shape", "13824", "--dtype", "uint8", "--upstream-int8-temp")
    assert rc == 1
    assert {f["kind"] for f in doc["findings"]} == {"local_tensor_overflow"}


def test_text_report(capsys):
    rc = main(["sanitize", "--shape", "3", "--dtype", "bfloat16", "--threshold", "-1.5"])
    out = capsys.readouterr().out
    assert rc == 0
    assert "gm_write_past_tensor" in out and "0 error(s), 3 expected" in out


@pytest.mark.parametrize("argv", [
    ["--shape", "0"], ["--shape", "2,x"], ["--shape", "4", "--dtype", "int64"],
    ["--shape", "4", "--soc", "Nope"], ["--shape", "4", "--ub-size", "8192"],
    ["--shape", "4", "--ub-size", "100", "--cores", "1"],
])
def test_bad_input_exits_2(capsys, argv):
    assert main(["sanitize", *argv]) == 2
    assert "error" in capsys.readouterr().err
