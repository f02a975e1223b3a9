"""ElewiseBaseTiling and BroadcastBaseTiling against the numbers docs/arch35-atvoss.md derives
(upstream's formulas, checked there against upstream's expected strings), and tiling keys."""
from __future__ import annotations

import pytest

from opsnn.activation.threshold_grad_v2_d.op_kernel.arch35 import threshold_grad_v2_d_dag
from opsnn.atvoss import (
    BRC_SCH_MODES,
    BroadcastBaseTiling,
    BroadcastBaseTilingData,
    BroadcastOneDimTilingData,
    EleBaseTilingData,
    ElewiseBaseTiling,
    TilingError,
    TplBool,
    TplDtype,
    TplUint,
    brc_tiling_key,
    tiling_key,
)
from opsnn.platform import Platform

from .dags import threshold_v2_like

UB245, UB253 = Platform.custom(245760, 64, "ascend950"), Platform.custom(253952, 64, "ascend950")


@pytest.mark.parametrize(("dtype", "ub245", "ub253"), [
    ("float16", 24576, 25344), ("int16", 24576, 25344), ("float32", 12288, 12544), ("int32", 12288, 12544),
    ("int8", 49152, 50688), ("uint8", 49152, 50688), ("int64", 6144, 6144), ("bfloat16", 8704, 8960)])
def test_elewise_ub_former(dtype, ub245, ub253):
    dag = threshold_v2_like(dtype)
    assert ElewiseBaseTiling(dag, UB245).do_tiling((4096,)).ub_former == ub245
    assert ElewiseBaseTiling(dag, UB253).do_tiling((4096,)).ub_former == ub253


@pytest.mark.parametrize(("n", "cores", "block_former", "block_num"), [
    (8192, 2, 4096, 2), (524288, 64, 8192, 64), (16777216, 64, 262144, 64), (1, 1, 512, 1)])
def test_elewise_blocks(n, cores, block_former, block_num):
    d = ElewiseBaseTiling(threshold_v2_like("float16"), UB245).do_tiling((n,), [(n,), (), (1,)])
    assert (d.core_num, d.block_former, d.block_num) == (cores, block_former, block_num)
    assert d.sche_mode == 1 and d.elem_num == d.ub_former
    if n == 16777216:
        assert (d.ub_loop_of_former_block, d.ub_tail_of_former_block) == (11, 16384)


def test_elewise_refusals():
    t = ElewiseBaseTiling(threshold_v2_like("float32"), UB245)
    with pytest.raises(TilingError):
        t.do_tiling((4, 4), [(4, 4), (4, 1)])  # a shape that is neither the output's nor one element
    with pytest.raises(TilingError):
        t.do_tiling((0, 4))
    with pytest.raises(TilingError):
        ElewiseBaseTiling(threshold_v2_like("float32"), Platform.custom(64, 64, "ascend950")).do_tiling((8,))


ONE_DIM = [  # N, alive 10 @245760, alive 8 @245760, alive 10 @253952, alive 8 @253952
    (1, (192, 1, 1, 1, 1), (256, 1, 1, 1, 1), (192, 1, 1, 1, 1), (256, 1, 1, 1, 1)),
    (256, (192, 64, 2, 1, 1), (256, 256, 1, 1, 1), (192, 64, 2, 1, 1), (256, 256, 1, 1, 1)),
    (1024, (192, 64, 6, 1, 1), (256, 256, 4, 1, 1), (192, 64, 6, 1, 1), (256, 256, 4, 1, 1)),
    (8192, (256, 256, 32, 1, 1), (256, 256, 32, 1, 1), (256, 256, 32, 1, 1), (256, 256, 32, 1, 1)),
    (1000000, (6144, 4672, 55, 3, 1), (7680, 1600, 44, 3, 2), (6336, 5248, 53, 3, 2), (7936, 64, 64, 2, 1)),
    (16777216, (6144, 4096, 64, 43, 22), (7680, 4096, 63, 35, 15), (6336, 5824, 64, 42, 2),
     (7936, 512, 63, 34, 7)),
]


@pytest.mark.parametrize("row", ONE_DIM, ids=[str(r[0]) for r in ONE_DIM])
def test_one_dim_table(row):
    n = row[0]
    for (dtype, platform), want in zip([("float16", UB245), ("float32", UB245), ("float16", UB253),
                                        ("float32", UB253)], row[1:], strict=True):
        r = BroadcastBaseTiling(threshold_grad_v2_d_dag(dtype), platform).do_tiling([(n,), (n,)])
        d = r.tiling_data
        assert r.schedule_mode == 201 and isinstance(d, BroadcastOneDimTilingData)
        assert (d.ub_former, d.ub_tail, d.block_num, d.block_former, d.block_tail) == want
        assert d.scalar_flag == (3 if n == 1 else 0) and r.block_dim == d.block_num  # dims[0] == 1: bit set


def test_one_dim_scalar_flag():
    r = BroadcastBaseTiling(threshold_grad_v2_d_dag("float32"), UB245).do_tiling([(1,), (300,)])
    assert r.tiling_data.scalar_flag == 1  # bit 0: gradOutput is one element
    r = BroadcastBaseTiling(threshold_grad_v2_d_dag("float32"), UB245).do_tiling([(300,), ()])
    assert r.tiling_data.scalar_flag == 2


MULTI = [  # dtype, grad, self, ub broadcast, buffers, mode, key, split, ub_former, ub_tail, ub_outer,
    #        block_former, block_tail, block_num, elem_num
    ("float16", (1024, 512), (1024, 1), True, 12, 102, 65539, 0, 10, 4, 103, 2, 1, 52, 5120),
    ("float16", (8, 1, 16), (1, 32, 16), True, 12, 103, 65540, 0, 10, 8, 1, 1, 1, 1, 5120),
    ("float16", (2, 3), (3,), False, 10, 1, 65536, 0, 2048, 2, 1, 1, 1, 1, 6144),
    ("float32", (1024, 512), (1024, 1), False, 8, 1, 196608, 0, 15, 4, 69, 2, 1, 35, 7680),
    ("int8", (8, 1, 16), (1, 32, 16), False, 10, 1, 327680, 0, 12, 8, 1, 1, 1, 1, 6144),
]
TPL = {"float16": 1, "float32": 3, "int8": 5}


@pytest.mark.parametrize("row", MULTI, ids=[f"{r[0]}-{r[1]}-{r[2]}" for r in MULTI])
def test_multi_dim_table(row):
    dtype, g, s, ub_brc, buffers, mode, key, *fields = row
    r = BroadcastBaseTiling(threshold_grad_v2_d_dag(dtype), UB245).do_tiling([g, s])
    d = r.tiling_data
    assert isinstance(d, BroadcastBaseTilingData) and len(d.to_bytes()) == 632
    assert (r.ub_broadcast, r.buffer_num, r.schedule_mode) == (ub_brc, buffers, mode)
    assert brc_tiling_key(r.schedule_mode, TPL[dtype]) == key
    assert [d.ub_split_axis, d.ub_former, d.ub_tail, d.ub_outer, d.block_former, d.block_tail, d.block_num,
            d.elem_num] == fields
    assert d.sche_mode == 0 and r.workspace_size == 16 * 1024 * 1024
    assert BroadcastBaseTilingData.from_bytes(d.to_bytes(), 2, 2) == d


def test_big_last_axis_goes_ub_broadcast_for_float32():
    # a contiguous last axis of >= 4 KiB under a broadcast axis: UB broadcast even for float32
    r = BroadcastBaseTiling(threshold_grad_v2_d_dag("float32"), UB245).do_tiling([(3, 1, 2048), (3, 4, 2048)])
    assert r.ub_broadcast and r.buffer_num == 10 and r.schedule_mode == 102


def test_tiling_keys():
    assert [brc_tiling_key(201, t) for t in range(1, 7)] == [65543, 131079, 196615, 262151, 327687, 393223]
    assert BRC_SCH_MODES.index(201) == 7
    thr = TplUint(1, (0, 1))
    assert tiling_key((thr, 1), (thr, 1)) == 3 and tiling_key((thr, 1), (thr, 0)) == 1  # ThresholdV2
    assert tiling_key((TplDtype(8), 5), (TplBool(), True)) == 5 | 1 << 8
    with pytest.raises(TilingError):
        brc_tiling_key(7, 1)


def test_structs_round_trip():
    e = EleBaseTilingData(8192, 2, 6144, 4096, 2, 1, 1, 4096, 4096, 6144, 1)
    assert len(e.to_bytes()) == 80 and EleBaseTilingData.from_bytes(e.to_bytes()) == e
    o = BroadcastOneDimTilingData(1, 0, 192, 64, 2, 1, 1).with_scalars(0.5)
    raw = o.to_bytes()
    assert len(raw) == 56 and raw[40:44] == bytes.fromhex("0000003f") and BroadcastOneDimTilingData.from_bytes(raw) == o
    assert BroadcastBaseTilingData.size_for(2, 2) == 632 and BroadcastBaseTilingData.size_for(3, 2) == 712
