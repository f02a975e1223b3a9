"""ListTensorDesc / TensorDesc from C++ (kernels/test_list_tensor.cpp, our own kernel): a two-tensor
list block decoded as AscendC's A2 decoder reads it -- the count from the last record's index (or
stated in the first record), dims, indices and shapes, each tensor's data through GetDataObj and
GetDataPtr -- and a block whose stated count disagrees with its layout stops the core at the
decoder's ASSERT (assert_failed), as CANN's CPU debug asserts."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from opsnn.cpudebug import ut

SOURCE = Path(__file__).resolve().parent / "kernels" / "test_list_tensor.cpp"


def test_the_list_is_decoded_and_a_bad_block_asserts(tmp_path, runtime):
    out = tmp_path / "run.json"
    rc = ut.main([str(SOURCE), "--soc", "ascend910B1", "--workdir", str(tmp_path), "--json", str(out)])
    counted, stated, bad = json.loads(out.read_text())["runs"][0]["launches"]
    assert rc == 1 and counted["ok"] and stated["ok"]
    a = np.float32(1.5) + np.arange(8, dtype=np.float32)
    b = np.float32(-0.25) * np.arange(8, dtype=np.float32)
    for name in ("counted", "stated"):
        y = np.fromfile(tmp_path / f"list.{name}.bin", dtype=np.float32)
        assert y[0] == 2
        assert y[1:9].tolist() == [2, 0, 2, 4, 2, 1, 1, 8]
        assert y[9] == b[7]
        assert np.array_equal(y[16:32], np.concatenate([a, b]))
    [f] = bad["findings"]
    assert f["kind"] == "assert_failed" and f["source"].startswith("list_tensor.h:")
