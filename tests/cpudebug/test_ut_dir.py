"""`opsnn ut DIR` on a small tree of our own UTs (tests/cpudebug/ut_tree, its README says what each
exercises): one line per UT, the verdicts and their classes, the table, the JSON; and the parts of
upstream's UT build they go through (a SoC not modelled skipped while the others run, CMake
if/else per SoC, the tiling header generated from op_host, a kernel's __CCE_KT_TEST__ entry, the
generated entry reported as the only reason a test links)."""
from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest

from opsnn.cpudebug import ut

TREE = Path(__file__).resolve().parent / "ut_tree"


@pytest.fixture(scope="module")
def survey(tmp_path_factory, runtime):
    out = tmp_path_factory.mktemp("dir") / "survey.json"
    text = io.StringIO()
    with contextlib.redirect_stdout(text):
        rc = ut.main([str(TREE), "--jobs", "2", "--json", str(out)])
    doc = json.loads(out.read_text())
    return rc, text.getvalue(), {Path(t["test"]).parent.parent.parent.parent.name: t for t in doc["tests"]}, doc


def test_one_line_each_and_a_table(survey):
    rc, text, by_op, doc = survey
    assert rc == 1  # not all pass
    lines = [ln for ln in text.splitlines() if ln.startswith("[")]
    assert len(lines) == 7 and doc["counts"] == {"passed": 2, "ut-defect": 3, "opsnn-lacks": 1, "finding": 1}
    assert any(ln.endswith(")") and "PASS  addone/tests/ut/op_kernel/test_addone.cpp (compares values; "
               "ascend310p: skipped" in ln for ln in lines)
    assert "| passed, compares values | 1 |" in text and "| total | 7 |" in text
    assert "| opsnn-lacks: NoSuchVectorInstruction | 1 | unknown_api |" in text


def test_values_compared_soc_skipped_list_options_generated_tiling(survey):
    _, _, by_op, _ = survey
    t = by_op["addone"]
    assert (t["class"], t["compares_values"]) == ("passed", True)
    assert t["skipped"][0].startswith("ascend310p: skipped, opsnn does not model this SoC")
    [run] = t["runs"]
    assert run["soc"] == "Ascend910B1" and run["defines"] == ["-DDTYPE_X=float", "-DADD_VALUE=1.0f", "-DUNUSED=2"]
    assert "tiling header: generated from op_host" in run["options_from"]
    assert [launch["block_dim"] for launch in run["launches"]] == [2] and run["launches"][0]["ok"]


def test_each_soc_gets_its_branch_and_the_kernels_own_cpu_entry(survey):
    _, _, by_op, _ = survey
    t = by_op["branches"]
    assert (t["class"], t["compares_values"], t["notes"]) == ("passed", False, [])
    assert sorted(r["soc"] for r in t["runs"]) == ["Ascend910B1", "Ascend950"]
    assert all(r["exit_status"] == 0 for r in t["runs"])


def test_a_test_linking_through_opsnns_entry_is_a_ut_defect(survey):
    _, _, by_op, _ = survey
    t = by_op["wrapped"]
    assert t["class"] == "ut-defect" and t["runs"][0]["exit_status"] == 0
    assert t["reason"].startswith("passes only with opsnn's help: links only through opsnn's generated kernel "
                                  "entry, a kernel template's entry")


def test_findings_defects_and_lacks_are_told_apart(survey):
    _, _, by_op, _ = survey
    assert by_op["overrun"]["class"] == "finding"
    assert by_op["overrun"]["reason"].startswith("gm_write_past_tensor: DataCopy at overrun.cpp:16")
    assert by_op["mistyped"]["class"] == "ut-defect"
    assert by_op["mistyped"]["reason"].startswith("the code reads DTYPE_X, the UT's options define DTYPE_Y")
    assert by_op["divzero"]["class"] == "ut-defect"  # the SIGFPE's line, found through addr2line
    assert by_op["divzero"]["reason"].startswith("the program died of SIGFPE (an integer division by zero) at "
                                                 "divzero.cpp:8 `const uint32_t tail = ")
    assert by_op["unknown_api"]["class"] == "opsnn-lacks"
    assert by_op["unknown_api"]["reason"].startswith("NoSuchVectorInstruction (unknown_api.cpp:5:")


def test_single_test_says_which_soc_it_skips(runtime, capfd):
    assert ut.main([str(TREE / "addone/tests/ut/op_kernel/test_addone.cpp")]) == 0
    err = capfd.readouterr().err
    assert "opsnn ut: ascend310p: skipped, opsnn does not model this SoC" in err
    assert "running on Ascend910B1" in err


def test_a_folder_without_tests_and_a_layer_filter(tmp_path, capsys):
    assert ut.main([str(tmp_path)]) == 2
    assert "no unit test below" in capsys.readouterr().err
    assert ut.main([str(TREE), "--layer", "op_host"]) == 2
    assert "tests/ut/op_host" in capsys.readouterr().err
