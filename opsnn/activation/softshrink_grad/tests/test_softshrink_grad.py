"""SoftShrinkGrad: the numpy API against torch and against its own kernel on the emulator, the
aclnn checks, the tiling, every surface, the CLI, and ATK case files (ours; upstream's where
OPSNN_UPSTREAM_OPS_NN names a checkout) under torch and ascend950 semantics."""
from __future__ import annotations

import math
import os
from pathlib import Path

import numpy as np
import pytest

import opsnn
from opsnn import aclnn, cli
from opsnn.activation.softshrink_grad import functional_models as fm
from opsnn.activation.softshrink_grad.op_host import softshrink_grad_tiling
from opsnn.activation.softshrink_grad.op_kernel.softshrink_grad import run_kernel
from opsnn.atk.surfaces import check_surfaces
from opsnn.dtypes import bfloat16
from opsnn.op_common.kernel_run import ExactRun
from opsnn.platform import get_platform

HERE = Path(__file__).parent
LAMBDS = (0.5, 0.0, -0.0, 2.0, math.inf, math.nan, 0.50049)


def _bits(a) -> np.ndarray:
    a = np.asarray(a)
    return a.view(f"u{a.dtype.itemsize}")


def _every_pattern(dtype) -> np.ndarray:
    return np.arange(1 << 16, dtype=np.uint32).astype(np.uint16).view(dtype)


@pytest.mark.parametrize("dtype", [np.float16, bfloat16])
def test_ascend950_fast_and_reference_equal_the_kernel_on_every_bit_pattern(dtype):
    """Every half / bfloat16 bit pattern as x (grad: every pattern reversed): the engine's lane,
    the functional model and the emulated kernel (aclnn on Ascend950) agree bit for bit."""
    x = _every_pattern(dtype)
    g = x[::-1].copy()
    for lambd in (math.nan, math.inf, 0.5):
        kernel = opsnn.softshrink_backward(g, x, lambd, semantics="ascend950", backend="emulator")
        for backend in ("auto", "reference"):
            got = opsnn.softshrink_backward(g, x, lambd, semantics="ascend950", backend=backend)
            assert (_bits(got) == _bits(kernel)).all(), (backend, lambd)
    keep = (np.abs(x.astype(np.float32)) > 0.5) | np.isnan(x.astype(np.float32))  # lambd 0.5: grad's bits or +0
    assert (_bits(kernel)[keep] == _bits(g)[keep]).all() and not _bits(kernel)[~keep].any()


def test_the_kernel_under_the_sanitizer_multi_core_and_loop():
    """600001 float32 on Ascend950: 62 cores of 9728 elements, two UB loops each, double
    buffered; clean, and the model's bits."""
    p = get_platform("Ascend950")
    rng = np.random.default_rng(3)
    g, x = (rng.standard_normal(600_001) * 2).astype(np.float32), (rng.standard_normal(600_001)).astype(np.float32)
    x[::5] = np.nan
    t = softshrink_grad_tiling(((600_001,),) * 2, ("float32",) * 2, 0.5, p)
    assert (t.block_dim, t.tiling_key, t.tiling_data.block_former, t.tiling_data.ub_former) == (62, 1, 9728, 8384)
    run = ExactRun(run_kernel, platform=p, block_dim=t.block_dim, tiling=t.tiling_data.to_bytes(),
                   inputs={"input_grad": g, "input_x": x}, outputs={"output_y": (np.float32, x.size)}, padding={},
                   dtype="float32", tiling_key=t.tiling_key)
    assert run.launch(sanitize=True).ok
    assert (_bits(run.outputs()["output_y"]) == _bits(fm.softshrink_grad_arch35(g, x, 0.5))).all()


def test_tiling_refusals_and_layout():
    p = get_platform("Ascend950")
    small = softshrink_grad_tiling(((16,), (16,)), ("float16",) * 2, 0.25, p)
    assert (small.block_dim, small.tiling_key) == (1, 0)
    assert len(small.tiling_data.to_bytes()) == 48 and small.tiling_data.to_bytes()[40:44] == np.float32(0.25).tobytes()
    assert softshrink_grad_tiling(((0, 9, 1),) * 2, ("float16",) * 2, 0.5, p).tiling_data.dim0 == 0
    for shapes, dtypes, lambd, why in ((((2,), (3,)), ("float32",) * 2, 0.5, "differ"),
                                       (((2,), (2,)), ("float32", "float16"), 0.5, "one of"),
                                       (((2,), (2,)), ("float64",) * 2, 0.5, "one of"),
                                       (((1,) * 9, (1,) * 9), ("float32",) * 2, 0.5, "rank 9"),
                                       (((2,), (2,)), ("float32",) * 2, -1.0, "lambd must be >= 0")):
        with pytest.raises(ValueError, match=why):
            softshrink_grad_tiling(shapes, dtypes, lambd, p)


def test_refusals_agree_on_every_backend():
    a = np.ones(3, np.float32)
    for backend in ("auto", "reference", "emulator"):
        with pytest.raises(ValueError, match=r"lambd should be greater or equal to 0, but found to be \[-0.5"):
            opsnn.softshrink_backward(a, a, -0.5, semantics="ascend950", backend=backend)
        with pytest.raises(ValueError, match="ascend910b: SoftShrinkGrad has no kernel here"):
            opsnn.softshrink_backward(a, a, semantics="ascend910b", backend=backend)
        with pytest.raises(TypeError, match="float64 is not in aclnnSoftshrinkBackward's list"):
            opsnn.softshrink_backward(a, a.astype(np.float64), semantics="ascend950", backend=backend)
        empty = np.ones((0, 3), np.float32)  # aclnn launches nothing: success on any SoC, as the C ABI
        assert opsnn.softshrink_backward(empty, empty, semantics="ascend910b", backend=backend).shape == (0, 3)
        with pytest.raises(ValueError, match="no kernel here"):  # the empty call taught the express entry nothing
            opsnn.softshrink_backward(a, a, semantics="ascend910b", backend=backend)
    with pytest.raises(ValueError, match="cannot be converted to float16 without overflow"):
        opsnn.softshrink_backward(a.astype(np.float16), a.astype(np.float16), 7e4)
    r = opsnn.softshrink_backward(a.astype(np.float16), a, 0.5, semantics="ascend950", backend="emulator")
    assert r.dtype == np.float32  # promoted: aclnn casts both to float32


def _phase1(soc: str, bad: str | None) -> int:
    from opsnn.aclnn.device_run import Session
    f32 = np.dtype(np.float32)
    with Session(soc) as session:
        g = session.tensor((4,), np.dtype(np.float64) if bad == "dtype" else f32)[0]
        x = session.tensor((4,), f32)[0]
        out = session.tensor((5,) if bad == "out_shape" else (4,), f32)[0]
        lambd = session.scalar(-1.0 if bad == "lambd" else 0.5, "float32")
        return aclnn.softshrink_backward_get_workspace_size(None if bad == "null" else g, x, lambd, out)[2]


def test_aclnn_statuses():
    """Phase 1's statuses in upstream's order; ascend910b has no SoftShrinkGrad kernel: 561003."""
    for soc, bad, status in (("Ascend950", "null", 161001), ("Ascend950", "dtype", 161002),
                             ("Ascend950", "out_shape", 161002), ("Ascend950", "lambd", 161002),
                             ("Ascend950", None, 0), ("Ascend910B2", None, 561003)):
        assert _phase1(soc, bad) == status, (soc, bad)


def test_every_surface():
    g = np.array([1, -2, 3, 4, 0.5, 6], np.float32)
    x = np.array([0.5, -1, 2, np.nan, 0.25, -0.75], np.float32)
    check_surfaces("softshrink_backward", g, x, 0.5, semantics=("torch", "ascend950"))


def test_torch_bits_for_every_lambd_and_layout():
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(5)
    for dtype, n, lambd in ((np.float32, 70_001, 0.5), (np.float16, 37, 0.50049), (np.float64, 40, math.nan),
                            (np.float32, 40, -1.0), (np.float32, 40, math.inf), (np.float16, 33, -0.0)):
        x = rng.standard_normal(n).astype(dtype)
        x[rng.random(n) < 0.3] = np.nan
        x[rng.random(n) < 0.1] = abs(lambd) if not math.isnan(lambd) else 0
        g = rng.standard_normal(n).astype(dtype)
        want = torch.ops.aten.softshrink_backward(torch.from_numpy(g), torch.from_numpy(x), lambd).numpy()
        for backend in ("auto", "reference"):
            assert (_bits(opsnn.softshrink_backward(g, x, lambd, backend=backend)) == _bits(want)).all(), \
                (dtype, n, lambd, backend)
    base = np.ones(80, np.float32)  # a strided grad: torch's basic loop, the scalar body everywhere
    nan = np.full(40, np.nan, np.float32)
    assert opsnn.softshrink_backward(base[::2], nan).tolist() == [1.0] * 40


def test_cli_tools_and_example(capsys):
    assert cli.main(["tiling", "softshrink_grad", "--shape", "5000", "--shape", "5000", "--soc", "Ascend950",
                     "--lambd", "0.25"]) == 0
    printed = capsys.readouterr().out
    assert "SoftShrinkGrad tiling" in printed and "block_dim" in printed and "lambd" in printed
    assert cli.main(["sanitize", "softshrink_grad", "--shape", "3000", "--shape", "3000", "--soc", "Ascend950",
                     "--dtype", "bfloat16"]) == 0
    assert cli.main(["tiling", "softshrink_grad", "--shape", "8", "--shape", "8", "--soc", "Ascend910B2"]) == 2
    os.environ["OPSNN_SOC"], previous = "Ascend950", os.environ.get("OPSNN_SOC")
    try:
        assert cli.main(["example", "softshrink_grad"]) == 0
    finally:
        os.environ.pop("OPSNN_SOC") if previous is None else os.environ.__setitem__("OPSNN_SOC", previous)
    assert "result[0] is: 0.000000" in capsys.readouterr().out


@pytest.mark.parametrize("semantics", ["torch", "ascend950"])
def test_our_atk_cases(semantics, capsys):
    assert cli.main(["atk", str(HERE / "softshrink_backward_cases.json"), "--semantics", semantics]) == 0
    assert "45 passed, 0 failed, 0 skipped" in capsys.readouterr().out


UPSTREAM = os.environ.get("OPSNN_UPSTREAM_OPS_NN")


@pytest.mark.skipif(not UPSTREAM, reason="set OPSNN_UPSTREAM_OPS_NN to a checkout of upstream's ops-nn")
@pytest.mark.parametrize("semantics", ["torch", "ascend950"])
def test_upstreams_atk_file(semantics, capsys):
    path = Path(UPSTREAM, "activation/soft_shrink_grad/tests/st/aclnnSoftshrinkBackward",
                "atk_aclnnSoftshrinkBackward.json")
    assert cli.main(["atk", str(path), "--semantics", semantics, "--jobs", "2"]) == 0
    assert " 0 failed" in capsys.readouterr().out.splitlines()[-1]
