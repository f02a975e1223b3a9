"""The arch35 tiling (upstream tests/ut/op_host/arch35/test_leaky_relu_grad_tiling.cpp: six
TEST_F on {1,64,2,64}, platform UB 245760 / 64 cores, which assert only status and key > 0) with
the values the spec derives for them, the ST csv rows' derived tilings, the multi-dim keys and
struct layouts, and the equality with ThresholdGradV2D's tiling the spec states."""
import struct

import numpy as np
import pytest

from opsnn.activation.leaky_relu_grad.op_host.arch35 import TilingError, leaky_relu_grad_tiling
from opsnn.activation.leaky_relu_grad.op_kernel.arch35 import decode_tiling_key, leaky_relu_grad_dag
from opsnn.activation.threshold_grad_v2_d.op_host.arch35 import tiling_arch35 as tgv2d_tiling
from opsnn.atvoss import BroadcastBaseTilingData, BroadcastOneDimTilingData
from opsnn.platform import MiB, Platform, get_platform

UT_PLATFORM = Platform.custom(245760, 64, family="ascend950")
SHAPE = (1, 64, 2, 64)


def words(data) -> tuple[int, ...]:
    raw = data.to_bytes()
    return struct.unpack(f"<{len(raw) // 8}q", raw)


@pytest.mark.parametrize("name, dtypes, slope, key, slope_word", [
    ("fp16_001", ("float16",) * 3, 0.01, 65543, 1008981770),
    ("bf16_002", ("bfloat16",) * 3, 0.01, 131079, 1008981770),
    ("fp32_003", ("float32",) * 3, 0.01, 196615, 1008981770),
    ("negative_slope_004", ("float16",) * 3, 0.2, 65543, 1045220557),
])
def test_upstream_success_cases(name, dtypes, slope, key, slope_word):
    r = leaky_relu_grad_tiling((SHAPE, SHAPE), dtypes, slope, UT_PLATFORM)
    assert r.tiling_key > 0  # all upstream asserts
    assert (r.tiling_key, r.block_dim, r.schedule_mode, r.workspace_size) == (key, 32, 201, 16 * MiB)
    assert words(r.tiling_data) == (0, 1099511628032, 32, 1, 1, slope_word, 0)
    d = r.tiling_data
    assert (d.scalar_flag, d.ub_split_axis, d.ub_former, d.ub_tail, d.block_num, d.block_former, d.block_tail) == \
        (0, 0, 256, 256, 32, 1, 1)


@pytest.mark.parametrize("name, dtypes", [
    ("failed_dtype_input_diff_005", ("float32", "float16", "float32")),
    ("failed_unsupported_dtype_006", ("int8",) * 3),
])
def test_upstream_failure_cases(name, dtypes):
    with pytest.raises(TilingError):
        leaky_relu_grad_tiling((SHAPE, SHAPE), dtypes, 0.01, UT_PLATFORM)


def test_more_refusals():
    for dtypes in (("float16", "float16", "float32"), "float64", "bool", ("float32",) * 2):
        with pytest.raises(TilingError):
            leaky_relu_grad_tiling((SHAPE, SHAPE), dtypes, 0.0, UT_PLATFORM)
    with pytest.raises(TilingError):
        leaky_relu_grad_tiling((SHAPE,), "float16", 0.0, UT_PLATFORM)
    with pytest.raises(TilingError):  # a 0 dim reaches the collapse (docs/leaky-relu-grad.md §9.5)
        leaky_relu_grad_tiling(((0, 3), (1, 3)), "float16", 0.0, UT_PLATFORM)
    with pytest.raises(TilingError):
        leaky_relu_grad_tiling(((2, 3), (4, 3)), "float16", 0.0, UT_PLATFORM)


def test_absent_attr_is_zero_and_slope_is_float32():
    r = leaky_relu_grad_tiling((SHAPE, SHAPE), "float32", None, UT_PLATFORM)
    assert r.negative_slope == 0.0 and r.tiling_data.scalar_data == bytes(16)
    r = leaky_relu_grad_tiling((SHAPE, SHAPE), "float32", 1e40, UT_PLATFORM)
    assert r.negative_slope == np.inf
    assert r.tiling_data.to_bytes()[40:44] == np.float32(np.inf).tobytes()


@pytest.mark.parametrize("dtype, shape, slope, ub_former, ub_tail, block_num, scalar_flag", [
    ("float32", (18, 24), 458.9240251987642, 256, 176, 2, 0),   # fuzz_124
    ("float16", (1,), -752.277139130999, 192, 1, 1, 3),         # fuzz_44
    ("float32", (2, 28, 38), 291.962, 256, 80, 9, 0),           # fuzz_107
    ("float16", (38,), 0.0, 192, 38, 1, 0),                     # fuzz_122
    ("float16", (5, 13), -83.338, 192, 65, 1, 0),               # fuzz_128
])
def test_st_csv_rows(dtype, shape, slope, ub_former, ub_tail, block_num, scalar_flag):
    r = leaky_relu_grad_tiling((shape, shape), dtype, slope, UT_PLATFORM)
    d = r.tiling_data
    assert isinstance(d, BroadcastOneDimTilingData) and len(d.to_bytes()) == 56
    assert (d.ub_former, d.ub_tail, d.block_num, d.block_former, d.block_tail, d.scalar_flag) == \
        (ub_former, ub_tail, block_num, 1, 1, scalar_flag)
    assert d.to_bytes()[40:44] == np.float32(slope).tobytes() and d.to_bytes()[44:] == bytes(12)


@pytest.mark.parametrize("dtype, grad, feat, mode, key, fields", [
    ("float16", (1024, 512), (1024, 1), 102, 65539, (0, 10, 4, 103, 2, 1, 52, 5120)),
    ("float16", (8, 1, 16), (1, 32, 16), 103, 65540, (0, 10, 8, 1, 1, 1, 1, 5120)),
    ("float16", (2, 3), (3,), 1, 65536, (0, 2048, 2, 1, 1, 1, 1, 6144)),
    ("float32", (1024, 512), (1024, 1), 1, 196608, (0, 15, 4, 69, 2, 1, 35, 7680)),
    ("bfloat16", (2, 3), (3,), 1, 131072, (0, 2048, 2, 1, 1, 1, 1, 6144)),
])
def test_multi_dim(dtype, grad, feat, mode, key, fields):
    r = leaky_relu_grad_tiling((grad, feat), dtype, -0.5, UT_PLATFORM)
    d = r.tiling_data
    assert isinstance(d, BroadcastBaseTilingData) and len(d.to_bytes()) == 632
    assert (r.schedule_mode, r.tiling_key) == (mode, key) and decode_tiling_key(key) == (mode, dtype)
    assert (d.ub_split_axis, d.ub_former, d.ub_tail, d.ub_outer, d.block_former, d.block_tail, d.block_num,
            d.elem_num) == fields
    assert r.block_dim == d.block_num and d.to_bytes()[616:620] == np.float32(-0.5).tobytes()
    assert d.sche_mode == 0  # unwritten on this path


def test_dag_buffer_accounting():
    for dtype, nddma, ub_brc in (("float16", 10, 12), ("bfloat16", 10, 12), ("float32", 8, 10)):
        dag = leaky_relu_grad_dag(dtype)
        assert (dag.buffer_num(True, True), dag.buffer_num(False, True)) == (nddma, ub_brc)
        assert (dag.max_dtype_bytes, dag.min_dtype_bytes, dag.copy_brc_inputs, dag.var_num) == (4, 1, (1, 0), 1)


@pytest.mark.parametrize("shapes", [(SHAPE, SHAPE), ((1024, 512), (1024, 1)), ((8, 1, 16), (1, 32, 16)),
                                    ((7,), (1,)), ((3, 1, 5, 1), (1, 4, 1, 6)), ((1_000_000,), (1_000_000,))])
@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32"])
def test_same_as_threshold_grad_v2d_but_the_scalar(shapes, dtype):
    """The spec: equal DAG constants, dtypeTpl, input and CopyInBrc order => equal key, block dim
    and bytes, scalar_data aside."""
    for platform in (UT_PLATFORM, get_platform("Ascend950"), Platform.custom(253952, 48, family="ascend950")):
        ours = leaky_relu_grad_tiling(shapes, dtype, 0.0, platform)
        theirs = tgv2d_tiling(shapes, dtype, 0.0, platform)
        assert (ours.tiling_key, ours.block_dim, ours.workspace_size) == \
            (theirs.tiling_key, theirs.block_dim, theirs.workspace_size)
        assert ours.tiling_data.to_bytes() == theirs.tiling_data.to_bytes()
