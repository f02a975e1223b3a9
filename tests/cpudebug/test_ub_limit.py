"""A C++ kernel's buffers may fill Atlas A2's whole UB (192 KiB), as CANN's CPU-debug checker
allows: upstream kernels whose tilings use 185-192 KiB were false ub_exhausted findings against
the emulator's 184 KiB. A tensor-scalar Select writes its scalar into 32 elements at UB byte 188416
(Atlas A2's TMP_UB_OFFSET): a kernel that then uses the data it had there reads bytes the Select
overwrote (ub_read_before_write, naming the Select); one that rewrites them first is clean
(kernels/test_ub_limit.cpp)."""
from __future__ import annotations

import json
from pathlib import Path

from opsnn.cpudebug import ut

SOURCE = Path(__file__).resolve().parent / "kernels" / "test_ub_limit.cpp"


def _line(marker: str) -> int:
    return next(i for i, t in enumerate(SOURCE.read_text().splitlines(), 1) if marker in t)


def test_the_whole_ub_is_legal_and_a_select_only_spoils_what_it_overwrote(tmp_path, runtime):
    out = tmp_path / "run.json"
    rc = ut.main([str(SOURCE), "--soc", "ascend910B1", "--json", str(out)])
    fits, used, rewritten = json.loads(out.read_text())["runs"][0]["launches"]
    assert rc == 1
    assert fits["ok"] and fits["findings"] == []  # 190 KiB of buffers: clean
    assert rewritten["ok"] and rewritten["findings"] == []
    [f] = used["findings"]
    assert (f["kind"], f["instruction"], f["source"]) == ("ub_read_before_write", "DataCopy",
                                                          f"test_ub_limit.cpp:{_line('USE_LINE')}")
    assert f"Select (tensor-scalar mode) at test_ub_limit.cpp:{_line('SELECT_LINE')} overwrote UB [188416, 188544)" \
        in f["detail"]
