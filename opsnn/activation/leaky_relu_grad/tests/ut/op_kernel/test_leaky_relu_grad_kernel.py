"""The arch35 kernel on the emulator under the sanitizer (upstream
tests/ut/op_kernel/test_leaky_relu_grad_apt.cpp: fp32 x 256, a hand-filled one-dim tiling, the
<201, 3> instantiation, block dim 1; upstream compares nothing, we compare with the model bit for
bit), every schedule family, special values, and `opsnn sanitize` through the tools."""
import contextlib
import io
import json
import math

import numpy as np
import pytest

from opsnn import cli
from opsnn.activation.leaky_relu_grad import functional_models as fm
from opsnn.activation.leaky_relu_grad.op_host.arch35 import leaky_relu_grad_tiling
from opsnn.activation.leaky_relu_grad.op_kernel.arch35 import decode_tiling_key, run_kernel
from opsnn.atvoss import BroadcastOneDimTilingData
from opsnn.dtypes import bfloat16
from opsnn.op_common.kernel_run import run_exact
from opsnn.platform import get_platform

P950 = get_platform("Ascend950")
SPECIALS = np.array([0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan, -np.nan, 1e-40, -1e-40, 65504.0, -7.5],
                    np.float32)


def bits(a):
    a = np.ascontiguousarray(a)
    return a.view({2: np.uint16, 4: np.uint32}[a.itemsize])


def run(grad, features, slope, *, tiling=None, block_dim=None, schedule_mode=None):
    r = leaky_relu_grad_tiling((grad.shape, features.shape), grad.dtype, slope, P950)
    n = math.prod(np.broadcast_shapes(grad.shape, features.shape))
    done = run_exact(run_kernel, platform=P950, block_dim=block_dim or r.block_dim,
                     tiling=tiling or r.tiling_data.to_bytes(),
                     inputs={"gradients": grad.reshape(-1), "features": features.reshape(-1)},
                     outputs={"backprops": (grad.dtype, n)}, padding={}, dtype=grad.dtype,
                     schedule_mode=schedule_mode or r.schedule_mode)
    return done.report, done.outputs["backprops"]


def test_upstream_kernel_ut():
    rng = np.random.default_rng(0)
    g, x = (rng.uniform(-2, 2, 256).astype(np.float32) for _ in range(2))
    tiling = BroadcastOneDimTilingData(scalar_flag=0, ub_split_axis=0, ub_former=256, ub_tail=256, block_num=1,
                                       block_former=1, block_tail=1).with_scalars(0.01)
    # the hand-filled struct is the real tiling of 256 fp32 elements
    assert tiling.to_bytes() == leaky_relu_grad_tiling(((256,), (256,)), "float32", 0.01, P950).tiling_data.to_bytes()
    assert decode_tiling_key(196615) == (201, "float32")
    report, out = run(g, x, 0.01, tiling=tiling.to_bytes(), block_dim=1, schedule_mode=201)
    assert report.ok and report.block_dim == 1
    np.testing.assert_array_equal(bits(out), bits(fm.leaky_relu_grad_arch35(g, x, 0.01)))
    np.testing.assert_array_equal(out, np.where(x > 0, g, g * np.float32(0.01)))


@pytest.mark.parametrize("dtype", [np.float16, bfloat16, np.float32])
@pytest.mark.parametrize("grad_shape, feat_shape", [
    ((8192,), (8192,)),          # one-dim, 32 cores
    ((300,), (1,)),              # one-dim, features a scalar (scalarFlag)
    ((2, 3), (3,)),              # NDDMA
    ((64, 32), (64, 1)),         # UB broadcast for the halves, NDDMA for fp32
    ((8, 1, 16), (1, 32, 16)),   # both broadcast
    ((), ()),                    # 0-d
])
def test_schedules_match_the_model(dtype, grad_shape, feat_shape):
    rng = np.random.default_rng(1)
    n_g, n_f = math.prod(grad_shape), math.prod(feat_shape)
    g = rng.choice(SPECIALS, n_g).astype(dtype).reshape(grad_shape) if n_g > 1 else np.asarray(-np.inf, dtype)
    with np.errstate(over="ignore", invalid="ignore"):
        g = (g * rng.uniform(0.5, 2, grad_shape)).astype(dtype) if n_g > 1 else g
    x = rng.choice(SPECIALS, n_f).astype(dtype).reshape(feat_shape) if n_f > 1 else np.asarray(-0.0, dtype)
    for slope in (0.0, 0.01, -3.25, float("nan")):
        report, out = run(g, x, slope)
        assert report.ok, report.errors[:3]
        want = fm.leaky_relu_grad_arch35(g, x, slope).reshape(-1)
        np.testing.assert_array_equal(bits(out), bits(want))


def test_nan_and_zero_features_take_the_product_and_inf_times_zero_is_nan():
    g = np.array([2.0, np.inf, -np.inf, 3.0, np.nan, 5.0], np.float32)
    x = np.array([np.nan, -0.0, 0.0, 1e-45, -1.0, 0.0], np.float32)
    report, out = run(g, x, 0.0)
    assert report.ok
    assert out[0] == 0.0 and np.isnan(out[1]) and np.isnan(out[2]) and out[3] == 3.0 and np.isnan(out[4])
    assert bits(out[5:6])[0] == 0  # +5 * +0 = +0


def _cli(*argv):
    with contextlib.redirect_stdout(io.StringIO()) as printed:
        rc = cli.main(list(argv))
    return rc, printed.getvalue()


@pytest.mark.parametrize("args", [
    ["--shape", "1,64,2,64", "--dtype", "float16", "--negative-slope", "0.01"],
    ["--input-shapes", "1024,512", "1024,1", "--dtype", "bfloat16", "--negative-slope", "-0.2"],
    ["--input-shapes", "3,5,7", "5,1", "--dtype", "float32"],
])
def test_cli_sanitize(args):
    rc, text = _cli("sanitize", "leaky_relu_grad", "--soc", "Ascend950", *args, "--json")
    doc = json.loads(text)
    assert rc == 0 and doc["model_mismatches"] == [] and not [f for f in doc["findings"] if f["level"] == "error"]


def test_cli_tiling_and_refusals():
    rc, text = _cli("tiling", "leaky_relu_grad", "--soc", "Ascend950", "--shape", "1,64,2,64", "--dtype", "float16",
                    "--negative-slope", "0.2", "--json")
    doc = json.loads(text)
    assert rc == 0 and (doc["tiling_key"], doc["block_dim"], doc["schedule_mode"]) == (65543, 32, 201)
    assert doc["tiling_data"].startswith("00000000000000000001000000010000200000")
    with contextlib.redirect_stderr(io.StringIO()):
        assert _cli("tiling", "leaky_relu_grad", "--soc", "Ascend910B2", "--shape", "4")[0] == 2  # a TBE kernel
        assert _cli("tiling", "leaky_relu_grad", "--shape", "4")[0] == 0  # no --soc: a SoC it has a kernel for
        assert _cli("sanitize", "leaky_relu_grad", "--soc", "Ascend950", "--input-shapes", "2,3", "4,3")[0] == 2
