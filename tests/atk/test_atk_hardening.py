"""`opsnn atk` against what a new user and upstream's own files met (issue 27 items 10-13): upstream's
spellings of aclnn_name, reports checked writable before any case runs, empty files, one case object
and torch names that are no torch function said aloud and counted, NaN-only failures named as such."""
import json
from pathlib import Path

import numpy as np
import pytest

import opsnn
from opsnn import atk, cli
from opsnn.atk import cases as atk_cases
from opsnn.atk import reports

HERE = Path(__file__).resolve().parent
TB = HERE / "threshold_backward_cases.json"


def _run(capsys, *argv):
    rc = cli.main(["atk", *map(str, argv)])
    out, err = capsys.readouterr()
    return rc, out, err


def _write(tmp_path, doc, name="cases.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(doc))
    return path


def _tb(n=2) -> list:
    return json.loads(TB.read_text())[:n]


# --- item 10: upstream's spellings ------------------------------------------------------------

@pytest.mark.parametrize("spelling", ["ThresholdBackward", "thresholdbackward", "AclnnThresholdBackward",
                                      "aclnnThresholdBackward"])
def test_aclnn_name_without_the_prefix_or_in_another_case_is_the_declared_api(capsys, tmp_path, spelling):
    cases = _tb()
    for c in cases:
        c["aclnn_name"] = spelling
    report = tmp_path / "r.json"
    rc, out, err = _run(capsys, _write(tmp_path, cases), "--json", report)
    assert rc == 0 and out.splitlines()[-1] == "2 passed, 0 failed, 0 skipped" and err == ""
    doc = json.loads(report.read_text())
    assert doc["aclnn_names"] == "aclnnThresholdBackward"
    assert {c["aclnn_name"] for c in doc["cases"]} == {"aclnnThresholdBackward"}


def test_upstream_softshrink_spelling_is_the_same_key_and_unknown_names_stay_bad():
    assert atk_cases.spelling_key("SoftshrinkBackward") == atk_cases.spelling_key("aclnnSoftshrinkBackward")
    with pytest.raises(atk.BadFile, match="unknown aclnn_name 'NoSuchBackward'"):
        atk.find_api("NoSuchBackward")
    with pytest.raises(atk.BadFile):
        atk.find_api("Threshold_Backward")  # spellings differ in prefix and case only


# --- item 11: reports writable before the run -------------------------------------------------

@pytest.mark.parametrize("option", ["--json", "--junit"])
@pytest.mark.parametrize("where", ["missing folder", "a folder"])
def test_an_unwritable_report_is_refused_before_any_case_runs(capsys, tmp_path, monkeypatch, option, where):
    ran = []
    monkeypatch.setattr(atk.command, "run_cases", lambda *a, **k: ran.append(1) or [])
    path = tmp_path / "no" / "r.out" if where == "missing folder" else tmp_path
    rc, out, err = _run(capsys, TB, option, path)
    assert rc == 2 and out == "" and not ran
    assert err.count("\n") == 1 and err.startswith("opsnn atk: error: cannot write the " + option)


def test_checking_a_report_leaves_no_file_and_keeps_an_old_one(capsys, tmp_path):
    old = tmp_path / "old.json"
    old.write_text("kept")
    bad = _write(tmp_path, [{"id": 0}], "bad.json")
    new = tmp_path / "new.xml"
    rc, _, _ = _run(capsys, bad, "--json", old, "--junit", new)
    assert rc == 2 and old.read_text() == "kept" and not new.exists()


def test_the_same_file_for_both_reports_is_refused(capsys, tmp_path):
    rc, out, err = _run(capsys, TB, "--json", tmp_path / "r", "--junit", tmp_path / "r")
    assert rc == 2 and out == "" and "same file" in err


def test_a_report_failing_after_the_run_is_one_line_and_exit_1(capsys, tmp_path, monkeypatch):
    def full(*a, **k):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(atk.command, "write_json", full)
    rc, out, err = _run(capsys, _write(tmp_path, _tb(1)), "--json", tmp_path / "r.json")
    assert rc == 1 and "No space left on device" in err and "Traceback" not in err
    assert out.splitlines()[-1] == "1 passed, 0 failed, 0 skipped"


# --- item 12: what runs but deserves a word ---------------------------------------------------

def test_an_empty_case_list_warns(capsys, tmp_path):
    rc, out, err = _run(capsys, _write(tmp_path, []))
    assert rc == 0 and out.splitlines()[-1] == "0 passed, 0 failed, 0 skipped"
    assert err.startswith("opsnn atk: warning:") and "holds no cases" in err


def test_one_case_object_runs_as_one_case_with_a_warning(capsys, tmp_path):
    rc, out, err = _run(capsys, _write(tmp_path, _tb(1)[0]))
    assert rc == 0 and out.splitlines()[-1] == "1 passed, 0 failed, 0 skipped"
    assert "one JSON object, not an array" in err


def test_a_torch_function_that_does_not_exist_is_warned_and_counted_apart(capsys, tmp_path):
    cases = _tb(3)
    cases[0]["name"] = cases[2]["name"] = "torch.ops.aten.no_such_op"
    rc, out, err = _run(capsys, _write(tmp_path, cases))
    assert rc == 0
    assert out.splitlines()[-1] == "3 passed, 0 failed, 0 skipped (2 of the passed not compared with torch)"
    assert err == ("opsnn atk: warning: 2 case(s) not compared with torch: torch has no "
                   "torch.ops.aten.no_such_op (ids 0, 2)\n")


def test_torch_missing_is_counted_apart_too(monkeypatch):
    monkeypatch.setattr(atk.oracle, "_TORCH", [None])
    results = atk.run_cases(atk.load_cases(TB)[:2])
    assert reports.last_line(results) == "2 passed, 0 failed, 0 skipped (2 of the passed not compared with torch)"
    assert reports.warnings_for(results) == ["2 case(s) not compared with torch: torch is not importable (ids 0-1)"]


def test_a_name_that_is_no_torch_path_falls_back_to_the_declared_aten_op(tmp_path):
    cases = _tb(1)
    cases[0]["name"] = "aclnn.threshold.backward"  # as upstream's SeluBackward file writes its name
    r = atk.run_cases(atk.load_cases(_write(tmp_path, cases)))[0]
    assert r.status == "passed" and r.checks["torch"]["status"] == "equal"
    assert any("compared with torch.ops.aten.threshold_backward" in n for n in r.notes)


def test_id_ranges():
    assert reports.id_ranges([7, 0, 1, 2, 5, 8]) == "0-2, 5, 7-8"
    assert reports.id_ranges([]) == ""


# --- item 13: a run whose failures are NaN bits only says so ----------------------------------

def _flip_nan_sign(monkeypatch, only_torch_side: bool):
    real = opsnn.threshold_backward

    def flip(*a, backend="auto", **k):
        out = real(*a, backend=backend, **k)
        if out.dtype == np.float32 and (backend != "reference" or not only_torch_side):
            out = out.copy()
            out.view(np.uint32)[np.isnan(out)] ^= np.uint32(0x80000000)
        return out

    monkeypatch.setattr(opsnn, "threshold_backward", flip)


def test_nan_only_failures_against_torch_name_loose_nan(capsys, monkeypatch):
    _flip_nan_sign(monkeypatch, only_torch_side=False)  # the reference agrees: torch alone differs
    rc, out, _ = _run(capsys, TB, "--cases", "12")
    lines = out.splitlines()
    assert rc == 1 and lines[-1] == "0 passed, 1 failed, 0 skipped"
    assert lines[-2].startswith("every failure is NaN bits only, against torch") and "--loose-nan" in lines[-2]
    rc, out, _ = _run(capsys, TB, "--cases", "12", "--loose-nan")
    assert rc == 0 and "--loose-nan counts" not in out


def test_nan_only_against_the_reference_does_not_name_loose_nan(capsys, monkeypatch):
    _flip_nan_sign(monkeypatch, only_torch_side=True)  # the fast backend differs from its reference
    rc, out, _ = _run(capsys, TB, "--cases", "12", "--semantics", "ascend950")
    assert rc == 1 and "--loose-nan" not in out


def test_other_failures_beside_nan_ones_are_counted(capsys, monkeypatch):
    _flip_nan_sign(monkeypatch, only_torch_side=False)
    results = atk.run_cases([c for c in atk.load_cases(TB) if c.id in (0, 12)])
    results[0].status, results[0].checks = "failed", {"torch": {"status": "mismatch", "detail": "x"}}
    assert reports.nan_summary(results).startswith("1 of the 2 failures are NaN bits only")
    assert reports.nan_summary(results[:1]) == ""


# --- item 13: --jobs shares the cores out -------------------------------------------------------

def test_pool_workers_share_the_cores(monkeypatch):
    from opsnn.atk import runner
    from opsnn.engine import machine
    monkeypatch.setattr(machine, "usable_cpus", lambda: tuple(range(16)))
    assert [runner.worker_threads(j) for j in (1, 2, 3, 16, 40)] == [16, 8, 5, 1, 1]


def test_a_workers_share_leaves_the_users_setting(monkeypatch):
    from opsnn.atk import runner
    monkeypatch.setenv("OPSNN_NUM_THREADS", "3")
    monkeypatch.setenv("OMP_NUM_THREADS", "")  # recorded, so that teardown restores the real value
    monkeypatch.delenv("OMP_NUM_THREADS")
    runner._share_cores(2)
    import os
    assert os.environ["OPSNN_NUM_THREADS"] == "3" and os.environ["OMP_NUM_THREADS"] == "2"


def test_the_default_is_one_job(capsys):
    with pytest.raises(SystemExit):
        cli.main(["atk", "--help"])
    assert "processes running cases" in capsys.readouterr().out
    assert atk.command._parser().parse_args(["f.json"]).jobs == 1
