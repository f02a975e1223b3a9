"""GM reached other than through a launch argument (kernels/test_gm_reach.cpp): a GmAlloc'd buffer
whose address the kernel reads from a pointer table in GM, and a GlobalTensor set past its buffer
by a core with no work, are legal (upstream's multi_add_rms_norm_dynamic_quant and
top_k_top_p_sample_v2 stopped as core_failed on them); their accesses are judged: past the listed
buffer, or a non-empty access through the dangling tensor, is a finding at its line."""
from __future__ import annotations

import json
from pathlib import Path

from opsnn.cpudebug import ut

SOURCE = Path(__file__).resolve().parent / "kernels" / "test_gm_reach.cpp"


def _line(marker: str) -> str:
    return f"test_gm_reach.cpp:{next(i for i, t in enumerate(SOURCE.read_text().splitlines(), 1) if marker in t)}"


def test_reached_gm_is_legal_and_its_accesses_are_judged(tmp_path, runtime):
    out = tmp_path / "run.json"
    rc = ut.main([str(SOURCE), "--soc", "ascend910B1", "--json", str(out)])
    legal, past_listed, dangling = json.loads(out.read_text())["runs"][0]["launches"]
    assert rc == 1  # the two broken twins fail their cases; the legal one checks y's values
    assert legal["ok"] and legal["findings"] == []
    found = {(f["kind"], f["core"], f["source"], f["offset"], f["nbytes"]) for f in past_listed["findings"]}
    assert ("gm_read_past_tensor", 0, _line("LISTED_LINE"), 256, 32) in found
    assert past_listed["aborted_cores"] == []
    [name] = {f["tensor"] for f in past_listed["findings"]}
    assert name.startswith("GmAlloc@0x")  # the listed buffer, named by its host address
    kinds = {(f["kind"], f["core"], f["instruction"], f["source"]) for f in dangling["findings"]}
    assert ("gm_write_past_allocation", 1, "InitGlobalMemory", _line("DANGLING_LINE")) in kinds
    assert dangling["aborted_cores"] == []
