"""UB keeps what a core wrote (kernels/test_ub_reuse.cpp): reading a re-allocated queue buffer's
earlier contents and an in-place Gather whose repeats read only their own bytes are legal, as on the
device (upstream's add_rms_norm does both; both were false findings); a re-allocation that hands
out a buffer nothing wrote is still ub_read_before_write, and an in-place Gather whose tail reads
what its first repeat wrote is refused at its line."""
from __future__ import annotations

import json
from pathlib import Path

from opsnn.cpudebug import ut

SOURCE = Path(__file__).resolve().parent / "kernels" / "test_ub_reuse.cpp"


def _line(marker: str) -> str:
    return f"test_ub_reuse.cpp:{next(i for i, t in enumerate(SOURCE.read_text().splitlines(), 1) if marker in t)}"


def test_legal_reuse_is_clean_and_the_broken_twins_are_reported(tmp_path, runtime):
    out = tmp_path / "run.json"
    rc = ut.main([str(SOURCE), "--soc", "ascend910B1", "--json", str(out)])
    legal, other_buffer, bad_gather = json.loads(out.read_text())["runs"][0]["launches"]
    assert rc == 1  # the two broken twins fail their cases
    assert legal["ok"] and legal["findings"] == []  # and its values are checked by the gtest case
    kinds = {(f["kind"], f["instruction"], f["source"], f["offset"], f["nbytes"]) for f in other_buffer["findings"]}
    assert ("ub_read_before_write", "DataCopy", _line("REREAD_LINE"), 0, 256) in kinds
    [f] = [f for f in bad_gather["findings"] if f["level"] == "error"]
    assert (f["kind"], f["instruction"], f["source"]) == ("core_failed", "Gather", _line("GATHER_LINE"))
    assert "repeat 1 reads src bytes [0, 4) that repeat 0 wrote" in f["detail"]
