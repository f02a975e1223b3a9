"""opsnn's own ThresholdGradV2D C++ UTs (op_host tiling, op_api phase 1), written as upstream writes
them, through `opsnn ut` outside any ops-nn checkout: the op_host UT on metadef's context builders
(no upstream fakers), the op_api UT with the op_host its l0 ops' INFER_SHAPE needs linked in."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

OWN = Path(__file__).resolve().parents[2] / "opsnn" / "activation" / "threshold_grad_v2_d" / "tests" / "ut"


pytestmark = pytest.mark.usefixtures("host_twin")  # tests/host/conftest.py


@pytest.mark.parametrize("test, cases", [("op_host/test_threshold_grad_v2_d_tiling.cpp", 4),
                                         ("op_api/test_aclnn_threshold_backward.cpp", 9)])
def test_the_ut_passes_under_opsnn_ut(test, cases):
    done = subprocess.run([sys.executable, "-m", "opsnn", "ut", str(OWN / test)], capture_output=True, text=True,
                          timeout=1800)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert f"[  PASSED  ] {cases} tests." in done.stdout
