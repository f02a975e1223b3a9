"""ReluGrad op_host: the definition, the tiling on the shared block split, the 64-byte struct."""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from opsnn import registry
from opsnn.activation.relu_grad.op_host import RELU_GRAD, TilingError, tiling, ub_factor
from opsnn.activation.relu_grad.op_kernel import ReluGradTilingData, ub_bytes_per_element
from opsnn.dtypes import to_numpy
from opsnn.platform import SOCS, Platform

DTYPES = ("float32", "float16", "bfloat16", "int32", "int8", "uint8")
A2 = [p for p in SOCS.values() if p.family == "ascend910b"]


def test_definition_and_registration():
    assert RELU_GRAD.op_type == "ReluGrad"
    assert [t.name for t in RELU_GRAD.inputs] == ["gradients", "features"]
    assert [t.name for t in RELU_GRAD.outputs] == ["backprops"]
    assert set(RELU_GRAD.input("gradients").dtypes) == set(DTYPES)
    assert registry.get("relu_grad").op_def is RELU_GRAD and registry.get("ReluGrad").name == "relu_grad"


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("platform", A2, ids=lambda p: p.name)
def test_buffers_fit_below_the_select_scratch(dtype, platform):
    r = tiling(10**7, dtype, platform)
    assert r.tiling_data.tile_data_num * ub_bytes_per_element(to_numpy(dtype)) <= platform.kernel_ub


@pytest.mark.parametrize("dtype,factor", [("float32", 10), ("float16", 10), ("bfloat16", 16), ("int32", 12),
                                          ("int8", 16), ("uint8", 16)])
def test_ub_factor(dtype, factor):
    assert ub_factor(dtype) == factor


def test_reference_shape():
    r = tiling(4, "float32", "Ascend910B2")
    assert r.block_dim == 1 and r.tiling_key == 0 and r.workspace_size == 16 << 20
    d = r.tiling_data
    assert (d.small_core_data_num, d.big_core_data_num, d.tile_data_num, d.tail_block_num) == (64, 128, 4864, 0)
    assert ReluGradTilingData.from_bytes(d.to_bytes()) == d and len(d.to_bytes()) == 64


@settings(max_examples=60, deadline=None)
@given(n=st.integers(1, 3_000_000), dtype=st.sampled_from(DTYPES), cores=st.integers(1, 64),
       ub=st.integers(16 * 1024, 256 * 1024))
def test_cores_cover_the_tensor_in_whole_blocks(n, dtype, cores, ub):
    r = tiling(n, dtype, Platform.custom(ub, cores))
    plans = r.core_plan()
    itemsize = to_numpy(dtype).itemsize
    assert plans[0].start == 0 and all(a.end == b.start for a, b in zip(plans, plans[1:], strict=False))
    assert 0 <= (plans[-1].end - n) * itemsize < 256
    assert all(p.data_num * itemsize % 256 == 0 for p in plans)
    assert all((p.tile_num - 1) * r.tiling_data.tile_data_num + p.tail_num == p.data_num for p in plans)
    pad = r.padding()
    assert [p.core for p in pad] in ([], [r.block_dim - 1]) and all(p.nbytes < 256 for p in pad)


def test_failures():
    with pytest.raises(TilingError, match="0 elements"):
        tiling(0, "float32")
    with pytest.raises(TypeError):
        tiling(4, "int64")
    with pytest.raises(TilingError, match="cannot hold one tile"):
        tiling(4, "bfloat16", Platform.custom(2048, 1))
    with pytest.raises(ValueError, match="uint64"):
        tiling(2**70, "float32")
