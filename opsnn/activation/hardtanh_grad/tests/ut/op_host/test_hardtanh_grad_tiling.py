"""The arch35 tiling (upstream tests/ut/op_host/arch35/test_hardtanh_grad_tiling.cpp): every
expected string, both refusals, and the derived facts of the spec (fp32's 9 buffers, the ST rows)."""
import json
import struct
from pathlib import Path

import numpy as np
import pytest

from opsnn.activation.hardtanh_grad.op_host.arch35 import (
    WORKSPACE_SIZE,
    TensorDesc,
    hardtanh_grad_tiling,
    tiling_for,
)
from opsnn.activation.hardtanh_grad.op_kernel.arch35 import (
    DAGS,
    HardtanhGradTilingData,
    decode_tiling_key,
    hardtanh_grad_tiling_key,
)
from opsnn.atvoss import TilingError
from opsnn.platform import Platform, get_platform

UT = Platform.custom(245760, 64, "ascend950")  # UB_SIZE 245760, CORE_NUM 64
VECTORS = Path(__file__).resolve().parents[6] / "tests" / "atvoss" / "upstream_vectors.json"

# (test, shape, expected words); upstream runs all three with fp16 tensors (the names say otherwise)
UPSTREAM = [
    ("test_tiling_fp16_01", (1, 64, 2, 64), "8192 26388279066626 4096 2 1 1 4096 4096 6144 1 4575657224629649408 ", 2),
    ("test_tiling_fp32_02", (2, 3, 4), "24 26388279066625 512 1 1 1 512 24 6144 1 4575657224629649408 ", 1),
    ("test_tiling_bf16_03", (8, 26, 100), "20800 26388279066630 3584 6 1 1 3584 2880 6144 1 4575657224629649408 ", 6),
]


def _ut(shape, dtype="float16", out_shape=None, out_dtype=None):
    d = TensorDesc(shape, dtype)
    return hardtanh_grad_tiling(d, d, TensorDesc(out_shape or shape, out_dtype or dtype), -2.0, 1.0, UT)


@pytest.mark.parametrize(("name", "shape", "words", "block_dim"), UPSTREAM, ids=[u[0] for u in UPSTREAM])
def test_upstream_strings(name, shape, words, block_dim):
    r = _ut(shape)
    assert r.tiling_data.words() == words
    assert r.tiling_key == 3 and r.block_dim == block_dim and r.workspace_size == WORKSPACE_SIZE == 16777216
    assert len(r.tiling_data.to_bytes()) == 88


@pytest.mark.parametrize(("name", "shape", "words", "block_dim"), UPSTREAM, ids=[u[0] for u in UPSTREAM])
def test_bfloat16_gives_the_fp16_strings(name, shape, words, block_dim):
    assert _ut(shape, "bfloat16").tiling_data.words() == words


def test_float32_derived():
    """fp32's DAG has no Cast: 9 buffers, ubFormer 6656 (derived, not asserted upstream)."""
    got = [_ut(u[1], "float32").tiling_data.words().split() for u in UPSTREAM]
    assert [w[1] for w in got] == ["28587302322178", "28587302322177", "28587302322182"]
    assert {w[8] for w in got} == {"6656"}
    assert [w[:1] + w[2:8] for w in got] == [u[2].split()[:1] + u[2].split()[2:8] for u in UPSTREAM]


def test_upstream_vectors_file_agrees():
    for case in json.loads(VECTORS.read_text())["elewise"]:
        lo, hi = case["extra_floats"]
        d = TensorDesc(tuple(case["shape"]), "float16")
        r = hardtanh_grad_tiling(d, d, d, lo, hi, UT)
        assert r.tiling_data.words().split() == case["words"].split() and r.tiling_key == case["tiling_key"]


def test_failed_diff_shape_04():
    with pytest.raises(TilingError, match="y shape"):
        _ut((1, 1024), "float32", out_shape=(2, 1024))


def test_failed_diff_dtype_05():
    with pytest.raises(TilingError, match="y dtype"):
        _ut((1, 1024), "float32", out_dtype="float16")


@pytest.mark.parametrize(("result", "grad", "y", "message"), [
    (("int8",), ("int8",), ("int8",), "result dtype int8"),
    (("float32",), ("float64",), ("float32",), "grad dtype float64 is not in"),
    (("float32",), ("float16",), ("float32",), "grad dtype float16 differs"),
    (("float32",), ("float32",), ("int32",), "y dtype int32 is not in"),
])
def test_dtype_checks_in_order(result, grad, y, message):
    shape = (4,)
    with pytest.raises(TilingError, match=message):
        hardtanh_grad_tiling(TensorDesc(shape, *result), TensorDesc(shape, *grad), TensorDesc(shape, *y), 0, 1, UT)


def test_shape_checks():
    f = "float32"
    with pytest.raises(TilingError, match="grad shape"):
        hardtanh_grad_tiling(TensorDesc((2, 3), f), TensorDesc((3,), f), TensorDesc((2, 3), f), 0, 1, UT)
    with pytest.raises(TilingError, match="empty"):
        tiling_for((0, 4), f, platform=UT)
    # 0-d is [1] (EnsureNotScalar), also against a [1] output
    r = hardtanh_grad_tiling(TensorDesc((), f), TensorDesc((1,), f), TensorDesc((), f), 0, 1, UT)
    assert r.tiling_data.base.dim0 == 1 and r.block_dim == 1


def test_attrs_after_the_base_struct():
    r = tiling_for((1000,), "float16", -0.5, 0.8, UT)
    raw = r.tiling_data.to_bytes()
    assert raw[:80] == r.tiling_data.base.to_bytes()
    assert struct.unpack("<ff", raw[80:]) == (np.float32(-0.5), np.float32(0.8))
    assert HardtanhGradTilingData.from_bytes(raw) == r.tiling_data
    # NaN / inf / beyond float32 bounds are stored as float32 bits; a null attr writes nothing (0 here)
    odd = tiling_for((8,), "float32", float("nan"), 1e39, UT).tiling_data
    assert np.isnan(odd.min_val) and odd.max_val == float("inf")
    none = hardtanh_grad_tiling(*(TensorDesc((8,), "float32"),) * 3, None, None, UT).tiling_data
    assert none.to_bytes()[80:] == bytes(8)


@pytest.mark.parametrize(("shape", "dtype", "block_former", "block_num", "loops", "tails"), [
    ((30, 8, 22, 21, 11), "bfloat16", 19456, 63, (4, 3), (1024, 1120)),  # hardtanh_grad_fuzz_43
    ((1,), "bfloat16", 512, 1, (1, 1), (512, 1)),  # fuzz_57, fp16_001
    ((23, 25), "float16", 1024, 1, (1, 1), (1024, 575)),  # fuzz_71
    ((16, 192, 64, 64), "bfloat16", 196608, 64, (32, 32), (6144, 6144)),  # bf16_029 (ReLU6-style)
])
def test_st_rows_derived(shape, dtype, block_former, block_num, loops, tails):
    d = tiling_for(shape, dtype, 0.0, 6.0, UT).tiling_data.base
    assert (d.block_former, d.block_num) == (block_former, block_num)
    assert (d.ub_loop_of_former_block, d.ub_loop_of_tail_block) == loops
    assert (d.ub_tail_of_former_block, d.ub_tail_of_tail_block) == tails


@pytest.mark.parametrize(("ub", "fp16", "fp32"), [(245760, 6144, 6656), (253952, 6144, 6912), (262144, 6400, 7168)])
def test_ub_former_per_ub_size(ub, fp16, fp32):
    p = Platform.custom(ub, 64, "ascend950")
    assert tiling_for((100000,), "float16", platform=p).tiling_data.base.ub_former == fp16
    assert tiling_for((100000,), "bfloat16", platform=p).tiling_data.base.ub_former == fp16
    assert tiling_for((100000,), "float32", platform=p).tiling_data.base.ub_former == fp32


def test_dag_accounting():
    assert {t: d.buffer_num() for t, d in DAGS.items()} == {"bfloat16": 10, "float16": 10, "float32": 9}
    for d in DAGS.values():
        assert (d.max_dtype_bytes, d.min_dtype_bytes, d.var_num, d.input_size) == (4, 1, 2, 2)
    ops = [f.op for f in DAGS["float16"].fun_list]
    assert ops == ["CopyIn", "Cast", "Compare", "Compare", "And", "Compare", "Or", "CopyIn", "Select", "CopyOut"]
    assert [f.op for f in DAGS["float32"].fun_list] == [o for o in ops if o != "Cast"]
    assert [a.op for a in DAGS["float16"].fun_list if a.op == "Compare"] == ["Compare"] * 3
    modes = [f.attrs[0].name for f in DAGS["float16"].fun_list if f.op == "Compare"]
    assert modes == ["LT", "GT", "NE"]


def test_tiling_key():
    assert hardtanh_grad_tiling_key(1) == 3 and hardtanh_grad_tiling_key(0) == 2
    assert decode_tiling_key(3) == (1, 1) and decode_tiling_key(2) == (0, 1)
    for bad in (0, 1, 5, 1 << 9):
        with pytest.raises(TilingError):
            decode_tiling_key(bad)
    with pytest.raises(TilingError):
        hardtanh_grad_tiling_key(2)


def test_named_soc_and_cores():
    r = tiling_for((524288,), "float32", platform=get_platform("Ascend950"))
    assert (r.block_dim, r.tiling_data.base.block_former, r.tiling_data.base.core_num) == (64, 8192, 64)
