"""arch35 tiling (docs/threshold-v2.md §7) against upstream's tiling facts (tiling_vectors.json)."""
import json
import math
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from opsnn.activation.threshold_v2.op_host.arch35 import TensorDesc, threshold_v2_tiling, tiling_for
from opsnn.activation.threshold_v2.op_kernel.arch35 import decode_tiling_key, threshold_dag, threshold_tiling_key
from opsnn.atvoss import EleBaseTilingData, TilingError
from opsnn.platform import Platform

VECTORS = json.loads((Path(__file__).parent / "tiling_vectors.json").read_text())
UT_PLATFORM = Platform.custom(245760, 64, "ascend950")  # upstream's UT fixture


def _shape(text: str) -> tuple[int, ...]:
    return () if text == "[]" else tuple(int(d) for d in text.split("_"))


def _desc(pair):
    return None if pair is None else TensorDesc(_shape(pair[0]), pair[1])


def _run(row):
    return threshold_v2_tiling(_desc(row["x"]), _desc(row["threshold"]), _desc(row.get("value")), _desc(row["y"]),
                               UT_PLATFORM)


@pytest.mark.parametrize("row", VECTORS["ut_rows"], ids=lambda r: r["case"])
def test_upstream_ut_rows(row):
    if not row["ok"]:
        with pytest.raises(TilingError):
            _run(row)
        return
    result = _run(row)
    assert result.tiling_key == row["tiling_key"]
    assert result.block_dim > 0 and result.block_dim == result.tiling_data.block_num
    assert result.workspace_size == 0


def test_upstream_ut_rows_from_three_threads():
    """Upstream runs its csv rows from three threads too: the tiling keeps no shared state."""
    ok = [r for r in VECTORS["ut_rows"] if r["ok"]]
    serial = [_run(r) for r in ok]
    with ThreadPoolExecutor(3) as pool:
        for _ in range(3):
            assert list(pool.map(_run, ok)) == serial


@pytest.mark.parametrize("row", VECTORS["dag_constants"], ids=lambda r: r["dtype"])
def test_dag_constants_and_ub_former(row):
    for has_value in (True, False):
        dag = threshold_dag(row["dtype"], has_value)
        assert (dag.buffer_num(), dag.max_dtype_bytes, dag.min_dtype_bytes) == (
            row["buffer_num"], row["max_dtype_bytes"], row["min_dtype_bytes"])
        for ub, expected in row["ub_former"].items():
            platform = Platform.custom(int(ub), 64, "ascend950")
            data = tiling_for((1, 64, 2, 64), row["dtype"], platform, has_value).tiling_data
            assert data.ub_former == data.elem_num == expected


@pytest.mark.parametrize("ex", VECTORS["formula_examples"], ids=lambda e: str(e["dim0"]))
@pytest.mark.parametrize("dtype", ["float16", "int8", "int64", "bfloat16"])
def test_formula_examples(ex, dtype):
    data = tiling_for((ex["dim0"],), dtype, UT_PLATFORM).tiling_data
    assert (data.dim0, data.core_num, data.block_former, data.block_num) == (
        ex["dim0"], ex["core_num"], ex["block_former"], ex["block_num"])
    if dtype == "float16" and "float16_at_245760" in ex:
        f = ex["float16_at_245760"]
        assert data.ub_loop_of_former_block == f["ub_loop_of_former_block"]
        assert data.ub_tail_of_former_block == f["ub_tail_of_former_block"]


def test_tiling_key_3_with_value_1_without():
    assert threshold_tiling_key(1, True) == 3 and threshold_tiling_key(1, False) == 1
    assert decode_tiling_key(3) == (1, True) and decode_tiling_key(1) == (1, False)
    assert tiling_for((4, 4), "float32", UT_PLATFORM, has_value=False).tiling_key == 1


@pytest.mark.parametrize("n", [1, 511, 512, 513, 4096, 4097, 100_000, 3 * 2**20 + 7])
@pytest.mark.parametrize("dtype", ["float16", "float32", "int8", "int64", "bfloat16"])
def test_blocks_and_tiles_cover_every_element_once(n, dtype):
    d = tiling_for((n,), dtype, UT_PLATFORM).tiling_data
    assert d.block_former % 512 == 0 and d.core_num <= 64 and d.block_num <= d.core_num
    tail = n - (d.block_num - 1) * d.block_former
    assert 0 < tail <= d.block_former
    for size, loops, last in ((d.block_former, d.ub_loop_of_former_block, d.ub_tail_of_former_block),
                              (tail, d.ub_loop_of_tail_block, d.ub_tail_of_tail_block)):
        assert loops == math.ceil(size / d.ub_former) and (loops - 1) * d.ub_former + last == size
        assert 0 < last <= d.ub_former


def test_struct_is_80_bytes_little_endian():
    d = tiling_for((8192,), "float16", UT_PLATFORM).tiling_data
    raw = d.to_bytes()
    assert len(raw) == 80 and EleBaseTilingData.from_bytes(raw) == d
    assert int.from_bytes(raw[0:8], "little") == 8192  # dim0
    assert int.from_bytes(raw[8:12], "little") == 2  # coreNum
    assert int.from_bytes(raw[12:16], "little") == 24576  # ubFormer
    assert int.from_bytes(raw[72:80], "little") == 1  # scheMode


def test_zero_d_x_is_tiled_as_one_element():
    r = threshold_v2_tiling(TensorDesc((), "float32"), TensorDesc((), "float32"), None, TensorDesc((1,), "float32"),
                            UT_PLATFORM)
    assert (r.tiling_data.dim0, r.block_dim, r.tiling_key) == (1, 1, 1)


def test_checks_run_in_upstream_order():
    bad_x = TensorDesc((4,), "float64")
    with pytest.raises(TilingError, match="x dtype"):  # before y's dtype and shape
        threshold_v2_tiling(bad_x, TensorDesc((1,), "float64"), None, TensorDesc((5,), "int8"), UT_PLATFORM)
    with pytest.raises(TilingError, match="threshold dtype"):
        threshold_v2_tiling(TensorDesc((4,), "int8"), TensorDesc((1,), "bool"), None, TensorDesc((5,), "int8"),
                            UT_PLATFORM)
    with pytest.raises(TilingError, match="y dtype"):
        threshold_v2_tiling(TensorDesc((4,), "int8"), TensorDesc((1,), "int8"), None, TensorDesc((5,), "int16"),
                            UT_PLATFORM)


def test_platform_without_cores_or_room_fails():
    with pytest.raises(TilingError):
        tiling_for((4,), "float32", Platform.custom(245760, 0, "ascend950"))
    with pytest.raises(TilingError):
        tiling_for((4,), "int64", Platform.custom(1024, 64, "ascend950"))  # 5 buffers of 8 B hold < 256
