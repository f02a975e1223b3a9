"""Ascend950's DMA forms and kernel helpers from C++ (kernels/test_dma950_kernels.cpp): the NDDMA
DataCopy (a transpose and constant padding), DataCopyPad's Compact mode, the loop mode,
NumericLimits, GetTPipePtr and a __simd_vf__ function through asc_vf_call / VF_CALL -- each value
checked by the program against AscendC's documented layouts, the launch clean."""
from __future__ import annotations

import json
from pathlib import Path

from opsnn.cpudebug import ut

SOURCE = Path(__file__).resolve().parent / "kernels" / "test_dma950_kernels.cpp"


def test_ascend950_dma_layouts_and_helpers(tmp_path, runtime, capfd):
    out = tmp_path / "run.json"
    rc = ut.main([str(SOURCE), "--soc", "ascend950", "--workdir", str(tmp_path), "--json", str(out)])
    printed = capfd.readouterr()
    assert rc == 0, printed.out + printed.err
    [launch] = json.loads(out.read_text())["runs"][0]["launches"]
    assert launch["ok"] and launch["findings"] == []
    counts = launch["core_stats"][0]["instructions"]
    assert counts["SetLoopModePara"] == 1 and counts["ResetLoopModePara"] == 1
