"""The sanitizer on the real kernel: expected padding, the upstream int8 temp defect, UB
exhaustion, cross-core overlap and queue misuse."""
from __future__ import annotations

import functools

import numpy as np
import pytest

from opsnn.activation.threshold_grad_v2_d.op_host import ThresholdGradV2DTilingData, tiling
from opsnn.activation.threshold_grad_v2_d.op_kernel import run_kernel
from opsnn.activation.threshold_grad_v2_d.op_kernel.sanitize import sanitize_tiling
from opsnn.activation.threshold_grad_v2_d.op_kernel.threshold_grad_v2_d import KernelThresholdGradV2D
from opsnn.ascendc import EmulatorError, GlobalMemory, TPipe, launch
from opsnn.platform import SOCS, Platform, get_platform

from .kernel_helpers import NP, alloc_tensor, as_bits, random_inputs, reference, run


def test_four_floats_read_and_write_past_the_tensor_on_the_last_core_only():
    g = np.array([4.5, 4.4, 4.3, 4.2], dtype=np.float32)
    f = np.array([0.2, 1.2, 2.2, 3.2], dtype=np.float32)
    out, report = run("float32", g, f, 1.0)
    assert list(out) == [0.0, np.float32(4.4), np.float32(4.3), np.float32(4.2)]
    got = sorted((x.kind, x.tensor, x.core, x.tile, x.instruction, x.offset, x.nbytes, x.level)
                 for x in report.findings)
    assert got == [
        ("gm_read_past_tensor", "input_feature", 0, 0, "DataCopy", 16, 240, "expected"),
        ("gm_read_past_tensor", "input_gradient", 0, 0, "DataCopy", 16, 240, "expected"),
        ("gm_write_past_tensor", "output_backprops", 0, 0, "DataCopy", 16, 240, "expected"),
    ]
    assert report.errors == [] and report.ok


def test_multi_core_padding_is_on_the_last_core_and_last_tile():
    rng = np.random.default_rng(0)
    n = 100_001
    g, f = random_inputs("float32", n, 1.0, rng)
    _, report = run("float32", g, f, 1.0)
    assert report.block_dim == 48
    assert {(x.core, x.level) for x in report.findings} == {(47, "expected")}
    plan_tiles = tiling(n, "float32", 1.0, get_platform()).tiling_data.final_small_tile_num
    assert {x.tile for x in report.findings} == {plan_tiles - 1}
    assert not any("allocation" in x.kind for x in report.findings)


@pytest.mark.parametrize("dtype", ["int8", "uint8"])
def test_upstream_int8_temp_sizing_overflows_its_buffer(dtype):
    n = tiling(1, dtype, 1.0, get_platform()).tiling_data.tile_data_num  # one full tile
    rng = np.random.default_rng(1)
    g, f = random_inputs(dtype, n, 1.0, rng)
    out, report = run(dtype, g, f, 1.0, upstream_int8_temp=True)
    overflows = [x for x in report.errors if x.kind == "local_tensor_overflow"]
    assert overflows and {x.tensor for x in overflows} == {"tmp_float_buf"}
    assert {x.instruction for x in overflows} >= {"Cast", "Compares", "Select"}
    assert overflows[0].offset == n * 2 and overflows[0].nbytes == n * 2
    # The excess lands in unused UB, so upstream still computes the right answer here (silently).
    np.testing.assert_array_equal(out, reference(g, f, 1.0, dtype))
    _, fixed = run(dtype, g, f, 1.0)
    assert fixed.errors == []


def test_upstream_sizing_is_silent_on_short_tiles():
    # With at most tile/2 elements the 2 B/element buffer is big enough: no finding.
    g, f = random_inputs("int8", 300, 1.0, np.random.default_rng(2))
    _, report = run("int8", g, f, 1.0, upstream_int8_temp=True)
    assert report.errors == []


def _launch_with(dtype, n, tiling_bytes, block_dim, platform, sanitize=True, grad=None, feature=None):
    gm = GlobalMemory()
    nbytes = n * NP[dtype].itemsize
    args = [alloc_tensor(gm, "input_gradient", grad, nbytes), alloc_tensor(gm, "input_feature", feature, nbytes),
            alloc_tensor(gm, "output_backprops", None, nbytes)]
    report = run_kernel(gm=gm, platform=platform, dtype=dtype, block_dim=block_dim, tiling=tiling_bytes,
                        input_gradient=args[0], input_feature=args[1], output_backprops=args[2], sanitize=sanitize)
    return report, gm.bytes_view(args[2].addr, nbytes).view(NP[dtype]).copy()


def test_tiling_for_a_bigger_ub_exhausts_this_one():
    n = 100_000
    big_ub = Platform.custom(ub_size=400_000, aiv_cores=48)
    r = tiling(n, "float32", 1.0, big_ub)
    g, f = random_inputs("float32", n, 1.0, np.random.default_rng(3))
    report, out = _launch_with("float32", n, r.tiling_data.to_bytes(), r.block_dim, get_platform(),
                               grad=g, feature=f)
    exhausted = [x for x in report.errors if x.kind == "ub_exhausted"]
    assert exhausted and all(x.instruction == "InitBuffer" for x in exhausted)
    assert {x.core for x in exhausted} == set(range(r.block_dim))
    np.testing.assert_array_equal(as_bits(out), as_bits(reference(g, f, 1.0, "float32")))
    with pytest.raises(EmulatorError, match="UB exhausted"):
        _launch_with("float32", n, r.tiling_data.to_bytes(), r.block_dim, get_platform(), sanitize=False)


def test_cores_given_overlapping_ranges_are_a_write_overlap():
    # Each core owns 64 floats but is told to run 2 tiles of 64: core 0's second tile is core 1's first.
    data = ThresholdGradV2DTilingData(
        small_core_data_num=64, big_core_data_num=64, final_big_tile_num=2, final_small_tile_num=2,
        tile_data_num=64, small_tail_data_num=64, big_tail_data_num=64, tail_block_num=0, threshold=1.0)
    report, _ = _launch_with("float32", 256, data.to_bytes(), 2, get_platform())
    overlaps = [x for x in report.errors if x.kind == "gm_write_overlap"]
    assert [(x.core, x.tile, x.tensor, x.offset, x.nbytes) for x in overlaps] == [
        (1, 0, "output_backprops", 256, 256)]
    assert "core 0 tile 1" in overlaps[0].detail


class _ForgetsToFree(KernelThresholdGradV2D):
    """A broken kernel: Compute never frees its input tensors."""

    def Compute(self, progress):  # noqa: N802
        self.in_queue_grad.FreeTensor = lambda t: None
        super().Compute(progress)


def _broken_kernel(ctx, g, f, o, workspace, tiling_bytes, *, dtype):
    op = _ForgetsToFree(ctx, dtype)
    op.Init([g, f], o, ThresholdGradV2DTilingData.from_bytes(tiling_bytes), TPipe(ctx))
    op.Process()


def test_queue_misuse_in_a_kernel_is_reported_and_stops_the_core():
    n = 6976 * 3
    r = tiling(n, "float32", 1.0, Platform.custom(196352, 1))
    gm = GlobalMemory()
    args = [alloc_tensor(gm, name, None, n * 4) for name in ("g", "f", "o")]
    kernel = functools.partial(_broken_kernel, dtype=np.dtype(np.float32))
    report = launch(kernel, gm=gm, platform=get_platform(), block_dim=r.block_dim, args=[*args, None],
                    tiling=r.tiling_data.to_bytes(), sanitize=True)
    (finding,) = report.errors
    assert (finding.kind, finding.instruction, finding.tensor, finding.tile) == (
        "queue_misuse", "AllocTensor", "in_queue_grad", 2)
    assert report.aborted_cores == (0,)
    with pytest.raises(EmulatorError, match="in use"):
        launch(kernel, gm=gm, platform=get_platform(), block_dim=r.block_dim, args=[*args, None],
               tiling=r.tiling_data.to_bytes())


@pytest.mark.parametrize("soc", sorted(SOCS))
@pytest.mark.parametrize("dtype", ["float32", "float16", "bfloat16", "int32", "int8", "uint8"])
def test_every_soc_and_dtype_is_clean(soc, dtype):
    """The right-sized kernel fits every SoC's usable UB and stays inside its tensors' allocations."""
    platform = get_platform(soc)
    tile = tiling(1, dtype, 1.0, platform).tiling_data.tile_data_num
    for n in (1, tile, 50 * tile + 3):
        report = sanitize_tiling(tiling(n, dtype, 1.0, platform), platform)
        assert report.errors == []
        assert max(report.ub_used) <= platform.kernel_ub


@pytest.mark.parametrize("dtype, temp_bytes_per_element", [
    ("float32", 0), ("float16", 0), ("bfloat16", 4), ("int32", 4), ("int8", 2 + 4), ("uint8", 2 + 4)])
def test_ub_layout_is_the_specs(dtype, temp_bytes_per_element):
    """3 queues x 2 buffers x tile, a 1 B/element mask, and the temporaries of §6 (all 32-aligned)."""
    platform = get_platform()
    r = tiling(1000, dtype, 1.0, platform)
    tile = r.tiling_data.tile_data_num
    report = sanitize_tiling(r, platform)
    want = 6 * tile * NP[dtype].itemsize + tile + temp_bytes_per_element * tile
    assert report.ub_used == (want,)
    if dtype in ("int8", "uint8"):
        upstream = sanitize_tiling(r, platform, upstream_int8_temp=True)
        assert upstream.ub_used == (want - 2 * tile,)
