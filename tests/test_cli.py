"""The CLI's contract for any operator: bad input exits 2 with one line and no traceback, sizes
the machine cannot hold are refused before allocating, --help shows choices and defaults."""
import json
import subprocess
import sys

import pytest

from opsnn import cli

BAD = [
    ["tiling", "--shape", "2,2", "--ub-size", "1000000000000000000000", "--cores", "1"],
    ["tiling", "--shape", ",".join(["10000000000"] * 4)],  # 10^40 elements overflow the uint64 fields
    ["sanitize", "--shape", "1000000,1000000"],  # 3.6 TiB of tensors
    ["tiling", "--shape", ",".join(["1"] * 9)],  # rank 9
    ["tiling", "--shape", ",".join(["1"] * 34)],
    ["tiling", "--shape", "-1,2"],
    ["tiling", "--shape=-1,2"],
    ["tiling", "--shape", "4", "--dtype", "int64"],
    ["tiling", "--shape", "4", "--cores", "0", "--ub-size", "196608"],
    ["tiling", "--shape", "4", "--cores", "-3", "--ub-size", "196608"],
    ["tiling", "--shape", "4", "--threshold", "abc"],
    ["tiling", "--shape", "4", "--threshold"],
    ["tiling", "--shape", "4", "--unknown"],
    ["tiling", "no_such_op", "--shape", "4"],
    ["tiling"],
    ["tiling", "--shape", "4", "--input-shapes", "4", "4"],
    ["tiling", "--input-shapes", "4"],
    ["tiling", "--input-shapes", "4", "5"],
    ["sanitize", "--shape", "4", "--soc", "Ascend910B2", "--cores", "2"],
    ["frobnicate"],
    ["example", "threshold_grad_v2_d", "--shape", "4"],
]


@pytest.mark.parametrize("argv", BAD, ids=[" ".join(a)[:60] for a in BAD])
def test_bad_input_exits_2_with_one_line(capsys, argv):
    assert cli.main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and captured.err.startswith("opsnn") and "error:" in captured.err


def test_no_traceback_from_a_fresh_process():
    proc = subprocess.run([sys.executable, "-m", "opsnn.cli", "tiling", "--shape", "2,2", "--threshold", "1e40",
                           "--ub-size", "1e3", "--cores", "1"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr and proc.stderr.count("\n") == 1


def _strict(text: str) -> dict:
    """json.loads refusing Infinity/NaN, which are not JSON (jq and most parsers reject them)."""
    def refuse(constant):
        raise ValueError(f"not JSON: {constant}")
    return json.loads(text, parse_constant=refuse)


def test_threshold_beyond_float32_is_stored_as_c_does(capsys):
    assert cli.main(["tiling", "--shape", "2,2", "--threshold", "1e40", "--json"]) == 0
    doc = _strict(capsys.readouterr().out)
    assert doc["threshold"] == "inf" and doc["tiling_data"].endswith("0000807f00000000")


@pytest.mark.parametrize(("value", "named"), [("-inf", "-inf"), ("nan", "nan")])
def test_non_finite_thresholds_are_named_in_strict_json(capsys, value, named):
    assert cli.main(["tiling", "--shape", "2,2", f"--threshold={value}", "--json"]) == 0
    assert _strict(capsys.readouterr().out)["threshold"] == named


@pytest.mark.parametrize("value", ["-1", "-0.5", "-1e3"])
def test_negative_threshold_as_a_separate_word(capsys, value):
    assert cli.main(["tiling", "--shape", "4", "--threshold", value, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["threshold"] == float(value)


def test_operator_is_named_or_defaulted(capsys):
    assert cli.main(["tiling", "--shape", "4", "--json"]) == 0
    default = capsys.readouterr().out
    assert cli.main(["tiling", "threshold_grad_v2_d", "--shape", "4", "--json"]) == 0
    assert capsys.readouterr().out == default
    assert cli.main(["tiling", "ThresholdGradV2D", "--shape", "4", "--json"]) == 0  # the op type works too
    assert capsys.readouterr().out == default


def test_input_shapes_of_one_shape(capsys):
    assert cli.main(["tiling", "--input-shapes", "3,5", "3,5", "--json"]) == 0
    a = capsys.readouterr().out
    assert cli.main(["tiling", "--shape", "3,5", "--json"]) == 0
    assert capsys.readouterr().out == a


def test_help_shows_choices_and_defaults(capsys):
    with pytest.raises(SystemExit) as e:
        cli.main(["tiling", "--help"])
    assert e.value.code == 0
    out = capsys.readouterr().out
    for word in ("float16", "bfloat16", "uint8", "Ascend910B2", "Ascend950", "default: 1.0", "default: float32",
                 "--input-shapes", "--threshold"):
        assert word in out, word
    assert "int64" not in out  # only what the operator's definition lists


def test_sanitize_only_option_is_not_offered_to_tiling(capsys):
    assert cli.main(["tiling", "--shape", "4", "--upstream-int8-temp"]) == 2
    assert "unrecognized" in capsys.readouterr().err


def test_top_level_help_lists_operators(capsys):
    assert cli.main(["--help"]) == 0
    out = capsys.readouterr().out
    assert "threshold_grad_v2_d" in out and "tiling" in out


def test_a_dtype_only_one_scheme_takes(capsys):
    """ReluGrad's arch35 DAG takes int64, its 910B kernel does not: offered, then refused on 910B."""
    assert cli.main(["tiling", "relu_grad", "--soc", "Ascend950", "--dtype", "int64", "--shape", "4,4",
                     "--json"]) == 0
    assert _strict(capsys.readouterr().out)["block_dim"] >= 1
    assert cli.main(["sanitize", "relu_grad", "--soc", "Ascend950", "--dtype", "int64", "--shape", "1000"]) == 0
    capsys.readouterr()
    assert cli.main(["tiling", "relu_grad", "--dtype", "int64", "--shape", "4,4"]) == 2
    assert "does not support int64" in capsys.readouterr().err
