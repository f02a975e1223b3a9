"""op_host tiling: the contract's vectors, invariants, the 72-byte struct, failures."""
import json
import struct
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from opsnn.activation.threshold_grad_v2_d.op_host import (
    BLOCK_SIZE,
    UB_FACTOR,
    ThresholdGradV2DTilingData,
    TilingError,
    core_plan,
    tiling,
)
from opsnn.platform import SOCS, Platform, get_platform

VECTORS = Path(__file__).with_name("tiling_vectors.json")  # upstream-derived, kept with the test
ITEMSIZE = {"float32": 4, "float16": 2, "bfloat16": 2, "int32": 4, "int8": 1, "uint8": 1}


def _vectors():
    return json.loads(VECTORS.read_text())


def test_vector_file_has_all_cases():
    cases = _vectors()
    assert len(cases) == 432
    assert {c["dtype"] for c in cases} == set(UB_FACTOR)


def test_every_tiling_vector_matches_exactly():
    mismatches = []
    cases = _vectors()
    for case in cases:
        exp = case["expected"]
        result = tiling(case["num_elements"], case["dtype"], exp["threshold"],
                        Platform.custom(case["ub_size"], case["core_num"]))
        got = result.to_json_dict()
        diff = {k: (got[k], v) for k, v in exp.items() if got[k] != v}
        if diff:
            mismatches.append((case["num_elements"], case["dtype"], case["ub_size"], case["core_num"], diff))
    assert not mismatches, f"{len(mismatches)} of {len(cases)} vectors differ, first: {mismatches[:3]}"


def test_reference_example_tiling():
    r = tiling(4, "float32", 1.0)
    assert (r.block_dim, r.tiling_key, r.workspace_size) == (1, 0, 16 * 1024 * 1024)
    d = r.tiling_data
    assert (d.tile_data_num, d.small_core_data_num, d.big_core_data_num) == (6976, 64, 128)
    assert (d.final_small_tile_num, d.final_big_tile_num, d.small_tail_data_num, d.tail_block_num) == (1, 1, 64, 0)


def test_upstream_kernel_ut_tiling_fixture():
    # Upstream's UT fixture platform: UB_SIZE 196608, CORE_NUM 48; 2048 float32 elements.
    d = tiling(2048, "float32", 1.0, Platform.custom(196608, 48)).tiling_data
    assert d.tile_data_num == (196608 // 256 // 7) * 256 // 4 == 6976
    assert d.small_core_data_num == 2048 and d.tail_block_num == 0


# -- struct layout -------------------------------------------------------------------------------

def test_tiling_data_layout_offsets():
    data = ThresholdGradV2DTilingData(1, 2, 3, 4, 5, 6, 7, 8, 0.5)
    raw = data.to_bytes()
    assert len(raw) == ThresholdGradV2DTilingData.SIZE == 72
    for i, expected in enumerate(range(1, 9)):
        assert struct.unpack_from("<Q", raw, 8 * i)[0] == expected, f"field {i} not at offset {8 * i}"
    assert struct.unpack_from("<f", raw, 64)[0] == 0.5
    assert raw[68:72] == b"\0\0\0\0"


def test_tiling_data_threshold_is_float32():
    stored = ThresholdGradV2DTilingData(0, 0, 0, 0, 0, 0, 0, 0, 0.1).threshold
    assert stored == struct.unpack("<f", struct.pack("<f", 0.1))[0] != 0.1


@given(st.lists(st.integers(0, 2**64 - 1), min_size=8, max_size=8),
       st.floats(width=32, allow_nan=False))
def test_tiling_data_round_trip(ints, threshold):
    data = ThresholdGradV2DTilingData(*ints, threshold)
    assert ThresholdGradV2DTilingData.from_bytes(data.to_bytes()) == data


def test_from_bytes_rejects_wrong_size():
    with pytest.raises(ValueError, match="72 bytes"):
        ThresholdGradV2DTilingData.from_bytes(b"\0" * 71)


# -- invariants ----------------------------------------------------------------------------------

def _check_plan(n, dtype, platform):
    b = ITEMSIZE[dtype]
    r = tiling(n, dtype, 1.0, platform)
    d = r.tiling_data
    aligned = -(-n * b // BLOCK_SIZE) * BLOCK_SIZE // b
    assert 1 <= r.block_dim <= max(1, platform.aiv_cores)
    assert d.tile_data_num * b % BLOCK_SIZE == 0 and d.tile_data_num > 0
    position = 0
    for p in core_plan(d, r.block_dim):
        assert p.start == position, f"core {p.core} starts at {p.start}, expected {position}"
        assert p.data_num * b % BLOCK_SIZE == 0 and p.data_num > 0
        assert 0 < p.tail_num <= d.tile_data_num
        assert (p.tile_num - 1) * d.tile_data_num + p.tail_num == p.data_num
        assert p.big == (p.core < d.tail_block_num)
        position = p.end
    assert position == aligned
    return r


@settings(max_examples=300, deadline=None)
@given(n=st.integers(1, 2**34), dtype=st.sampled_from(sorted(UB_FACTOR)),
       ub_blocks=st.integers(14, 4096), cores=st.integers(1, 128))
def test_per_core_ranges_tile_the_aligned_tensor_once(n, dtype, ub_blocks, cores):
    _check_plan(n, dtype, Platform.custom(ub_blocks * BLOCK_SIZE + 17, cores))


@settings(max_examples=200, deadline=None)
@given(n=st.integers(1, 10**9), dtype=st.sampled_from(sorted(UB_FACTOR)), soc=st.sampled_from(sorted(SOCS)))
def test_named_socs_tile_and_kernel_buffers_fit(n, dtype, soc):
    platform = get_platform(soc)
    r = _check_plan(n, dtype, platform)
    assert _kernel_ub_bytes(dtype, r.tiling_data.tile_data_num) <= platform.kernel_ub


def _align32(x):
    return -(-x // 32) * 32


def _kernel_ub_bytes(dtype, tile):
    """UB the kernel of docs/threshold-grad-v2d.md §6 claims: 3 double-buffered queues, the mask, the temporaries."""
    b = ITEMSIZE[dtype]
    total = 6 * _align32(tile * b) + _align32(tile)
    if dtype in ("bfloat16", "int32"):
        total += _align32(tile * 4)
    if dtype in ("int8", "uint8"):
        total += _align32(tile * 2) + _align32(tile * 4)
    return total


@pytest.mark.parametrize("soc", sorted(SOCS))
@pytest.mark.parametrize("dtype", sorted(UB_FACTOR))
def test_kernel_buffers_fit_below_kernel_ub(soc, dtype):
    platform = get_platform(soc)
    tile = tiling(10**8, dtype, 1.0, platform).tiling_data.tile_data_num
    assert _kernel_ub_bytes(dtype, tile) <= platform.kernel_ub


def test_single_core_when_one_tile_holds_everything():
    r = tiling(6976, "float32")
    assert r.block_dim == 1
    assert tiling(6977, "float32").block_dim == 48  # 6977 floats = 110 blocks > 48 cores


# -- failures ------------------------------------------------------------------------------------

def test_zero_elements_is_a_tiling_failure():
    with pytest.raises(TilingError, match="0 elements"):
        tiling(0, "float32")


@pytest.mark.parametrize("dtype", ["int64", "float64", "bool", "nonsense"])
def test_unsupported_dtype(dtype):
    with pytest.raises(TilingError) as info:
        tiling(4, dtype)
    assert isinstance(info.value, TypeError)


def test_ub_too_small_for_one_tile():
    with pytest.raises(TilingError, match="cannot hold one tile"):
        tiling(4, "int8", 1.0, Platform.custom(256 * 13, 8))
    tiling(4, "int8", 1.0, Platform.custom(256 * 14, 8))  # exactly one block per slice is enough


def test_zero_cores():
    with pytest.raises(TilingError, match="no AIV cores"):
        tiling(4, "float32", 1.0, Platform.custom(196608, 0))


def test_soc_name_accepted():
    assert tiling(10**6, "float32", 1.0, "Ascend950").block_dim == 64
    assert tiling(10**6, "float32", 1.0, "Ascend910B3").block_dim == 40


def test_declared_padding_is_the_last_cores_rounding_to_whole_blocks():
    from opsnn.activation.threshold_grad_v2_d.op_host import padding

    for case in _vectors():
        r = tiling(case["num_elements"], case["dtype"], 1.0, Platform.custom(case["ub_size"], case["core_num"]))
        b = ITEMSIZE[case["dtype"]]
        tail = -(case["num_elements"] * b) % BLOCK_SIZE
        pad = padding(r)
        if tail == 0:
            assert pad == ()
        else:
            (p,) = pad
            assert (p.core, p.offset, p.nbytes) == (r.block_dim - 1, case["num_elements"] * b, tail)
            assert p.nbytes <= 255
