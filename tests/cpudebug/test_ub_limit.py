"""A C++ kernel's buffers may fill Atlas A2's whole UB (192 KiB), as CANN's CPU-debug checker
allows: upstream kernels whose tilings use 185-192 KiB were false ub_exhausted findings against
the emulator's 184 KiB. The top 8 KiB is Select's tensor-scalar scratch: ub_exhausted at a Select
in that mode while buffers lie there (kernels/test_ub_limit.cpp)."""
from __future__ import annotations

import json
from pathlib import Path

from opsnn.cpudebug import ut

SOURCE = Path(__file__).resolve().parent / "kernels" / "test_ub_limit.cpp"


def test_the_whole_ub_is_legal_but_not_under_a_tensor_scalar_select(tmp_path, runtime):
    out = tmp_path / "run.json"
    rc = ut.main([str(SOURCE), "--soc", "ascend910B1", "--json", str(out)])
    fits, select = json.loads(out.read_text())["runs"][0]["launches"]
    assert rc == 1
    assert fits["ok"] and fits["findings"] == []  # 190 KiB of buffers: clean
    line = next(i for i, t in enumerate(SOURCE.read_text().splitlines(), 1) if "SELECT_LINE" in t)
    [f] = select["findings"]
    assert (f["kind"], f["instruction"], f["source"]) == ("ub_exhausted", "Select", f"test_ub_limit.cpp:{line}")
    assert "uses UB [188416, 196608) as scratch" in f["detail"]
