"""`opsnn tiling`: JSON for the reference example, readable table, error exits."""
import json
import subprocess
import sys

import pytest

from opsnn.cli import main, parse_shape

REFERENCE = {
    "block_dim": 1, "tiling_key": 0, "workspace_size": 16777216, "small_core_data_num": 64,
    "big_core_data_num": 128, "final_big_tile_num": 1, "final_small_tile_num": 1, "tile_data_num": 6976,
    "small_tail_data_num": 64, "big_tail_data_num": 128, "tail_block_num": 0, "threshold": 1.0,
    "tiling_data": "40000000000000008000000000000000010000000000000001000000000000"
                       "00401b0000000000004000000000000000800000000000000000000000000000000000803f00000000",
}


def test_reference_json(capsys):
    assert main(["tiling", "--shape", "2,2", "--dtype", "float32", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == REFERENCE


def test_json_field_names_are_snake_case_everywhere_and_the_bytes_upstreams(capsys):
    # README: upstream's fields in snake_case; the 910B structs' camelCase names stay in CAMEL.
    from opsnn.activation.threshold_grad_v2_d.op_host import tiling
    for argv in (["tiling", "--shape", "2,2"], ["tiling", "relu_grad", "--shape", "2,2"],
                 ["tiling", "--shape", "2,2", "--soc", "Ascend950"],
                 ["tiling", "threshold_v2", "--shape", "2,2", "--soc", "Ascend950"]):
        assert main([*argv, "--json"]) == 0
        doc = json.loads(capsys.readouterr().out)
        assert all(k == k.lower() for k in doc), doc
    assert REFERENCE["tiling_data"] == tiling(4, "float32", 1.0).tiling_data.to_bytes().hex()


def test_json_is_exactly_one_object_via_console_script():
    proc = subprocess.run([sys.executable, "-m", "opsnn.cli", "tiling", "--shape", "[2,2]", "--json"],
                          capture_output=True, text=True, check=True)
    assert json.loads(proc.stdout) == REFERENCE


def test_custom_platform_and_threshold(capsys):
    assert main(["tiling", "--shape", "1000000", "--dtype", "int8", "--ub-size", "196608", "--cores", "4",
                 "--threshold", "0.5", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["block_dim"] == 4 and out["tail_block_num"] == 3 and out["threshold"] == 0.5


def test_human_output_has_fields_and_plan(capsys):
    assert main(["tiling", "--shape", "100003", "--dtype", "float16", "--soc", "Ascend910B3"]) == 0
    out = capsys.readouterr().out
    for word in ("block_dim", "tile_data_num", "tail_block_num", "per-core plan", "big", "small", "pad_bytes"):
        assert word in out
    lines = [ln for ln in out.splitlines() if ln.strip().split(" ")[0].isdigit()]
    assert len(lines) == 40  # one row per core
    assert lines[-1].split()[-1] == str((100096 - 100003) * 2)  # padding past the end, in bytes


@pytest.mark.parametrize("text,shape", [("2,2", (2, 2)), ("[2,2]", (2, 2)), ("", ()), ("[]", ()), ("7", (7,))])
def test_parse_shape(text, shape):
    assert parse_shape(text) == shape


def test_rank0_is_one_element(capsys):
    assert main(["tiling", "--shape", "[]", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["small_core_data_num"] == 64


@pytest.mark.parametrize("argv", [
    ["tiling", "--shape", "2,-1"],
    ["tiling", "--shape", "2,a"],
    ["tiling", "--shape", "2", "--dtype", "float64"],
    ["tiling", "--shape", "2", "--dtype", "junk"],
    ["tiling", "--shape", "0"],
    ["tiling", "--shape", "2", "--soc", "Ascend310"],
    ["tiling", "--shape", "2", "--ub-size", "1000"],
    ["tiling", "--shape", "2", "--ub-size", "100", "--cores", "4"],
])
def test_bad_input_exits_2_without_traceback(argv):
    proc = subprocess.run([sys.executable, "-m", "opsnn.cli", *argv], capture_output=True, text=True)
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr and "error" in proc.stderr
    assert proc.stdout == ""


@pytest.mark.parametrize("op", ["leaky_relu_grad", "hardtanh_grad", "threshold_v2"])
def test_without_soc_an_operator_gets_a_soc_where_it_has_a_kernel(capsys, op):
    # issue 27 item 14: these have an AscendC kernel for ascend950 only (on Ascend910B a built-in TBE
    # one); `opsnn tiling OP --shape ...` used to fail first time, naming --soc Ascend950
    from opsnn import registry
    from opsnn.cli import default_soc
    assert default_soc(registry.get(op)) == "Ascend950"
    assert main(["tiling", op, "--shape", "4,4", "--json"]) == 0
    assert main(["tiling", op, "--shape", "4,4", "--soc", "Ascend950", "--json"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert json.loads(out[0]) == json.loads(out[1])
    assert main(["tiling", op, "--shape", "4,4", "--ub-size", "196608", "--cores", "2"]) == 0  # no --family
    assert main(["tiling", op, "--shape", "4,4", "--soc", "Ascend910B2"]) == 2  # still refused when asked


def test_an_operator_with_a_kernel_on_the_default_soc_keeps_it(capsys):
    from opsnn import registry
    from opsnn.cli import default_soc
    assert {name: default_soc(registry.get(name)) for name in ("threshold_grad_v2_d", "relu_grad")} == \
        {"threshold_grad_v2_d": "Ascend910B2", "relu_grad": "Ascend910B2"}
