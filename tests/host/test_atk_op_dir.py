"""`opsnn atk FILE --op-dir DIR` (opsnn/atk/cpp_surface.py): an ATK case file run against a C++
operator folder (opsnn's own ThresholdGradV2D: op_api, tiling and kernel on the emulator), compared
with opsnn's reference of the same API bit for bit and with torch, the file's golden, by the
file's standard."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
OWN = REPO / "opsnn" / "activation" / "threshold_grad_v2_d"
CASES = REPO / "tests" / "atk" / "threshold_backward_cases.json"


pytestmark = pytest.mark.usefixtures("host_twin")  # tests/host/conftest.py


def atk(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "opsnn", "atk", *args], capture_output=True, text=True, cwd=REPO,
                          timeout=1800)


def test_every_case_equals_opsnns_reference_and_torch_judges_by_the_files_standard(tmp_path):
    report = tmp_path / "r.json"
    done = atk(str(CASES), "--op-dir", str(OWN), "--soc", "Ascend910B2", "--json", str(report))
    assert "C++ operator threshold_grad_v2_d, ascend910b semantics" in done.stdout, done.stderr[-2000:]
    doc = json.loads(report.read_text())
    cases = doc["cases"]
    assert len(cases) == 22
    # the C++ chain computes what opsnn's model of the NPU computes, and refuses what it refuses
    assert {c["checks"]["reference"]["status"] for c in cases} <= {"equal", "refused"}
    assert sum(c["checks"]["reference"]["status"] == "refused" for c in cases) == 3  # fp64, int16, int64
    torch = {c["id"]: c["checks"].get("torch", {}).get("status") for c in cases}
    if set(torch.values()) == {"skipped"}:
        pytest.skip("torch is not importable: only the reference was compared")
    failed = {c["id"] for c in cases if c["status"] == "failed"}
    assert failed == {i for i, s in torch.items() if s == "mismatch"}
    assert done.returncode == (1 if failed else 0)
    # where the NPU's semantics and torch's part: NaN thresholds, bfloat16's threshold rounding,
    # the dtypes Atlas A2 lacks (refused by the op_api, computed by torch), an int8 threshold past int8
    assert failed == {3, 7, 8, 10, 12, 13, 14}


@pytest.mark.parametrize("extra, message", [
    (["--jobs", "2"], "--op-dir runs the cases in this process"),
    (["--semantics", "torch"], "give --soc, not --semantics"),
])
def test_options_the_surface_cannot_honour_are_refused(extra, message):
    done = atk(str(CASES), "--op-dir", str(OWN), *extra)
    assert done.returncode == 2 and message in done.stderr


def test_an_api_the_folder_does_not_declare_is_a_bad_file(tmp_path):
    case = json.loads(CASES.read_text())[0]
    case["aclnn_name"] = "aclnnRelu"
    (tmp_path / "f.json").write_text(json.dumps([case]))
    done = atk(str(tmp_path / "f.json"), "--op-dir", str(OWN))
    assert done.returncode == 2
    assert "threshold_grad_v2_d declares no aclnnRelu; its APIs: aclnnThresholdBackward" in done.stderr
