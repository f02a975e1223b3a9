"""opsnn.torch.npu_semantics: an unchanged model's aten.threshold_backward / aten.threshold run with
the NPU semantics; every intercepted call is checked against the numpy API on the same tensors."""
from __future__ import annotations

import math

import numpy as np
import pytest

import opsnn

torch = pytest.importorskip("torch")
ot = pytest.importorskip("opsnn.torch")
from torch.utils._python_dispatch import TorchDispatchMode  # noqa: E402

NPU = ("ascend910b", "ascend950")
aten = torch.ops.aten


def bits(t) -> np.ndarray:
    a = ot.to_numpy(t) if isinstance(t, torch.Tensor) else t
    return a.view(f"u{a.dtype.itemsize}")


def assert_bits(a, b):
    a_np = ot.to_numpy(a) if isinstance(a, torch.Tensor) else a
    b_np = ot.to_numpy(b) if isinstance(b, torch.Tensor) else b
    assert a_np.dtype == b_np.dtype and a_np.shape == b_np.shape
    np.testing.assert_array_equal(bits(a_np), bits(b_np))


def features(shape, seed, dtype=torch.float32):
    """Random values with what tells the semantics apart: NaN, +-0, +-inf, tiny values near 0."""
    gen = torch.Generator().manual_seed(seed)
    x = torch.randn(shape, generator=gen, dtype=torch.float64).flatten()
    special = [math.nan, 0.0, -0.0, 1e-8, -1e-8, 1e-7, math.inf, -math.inf, 0.3, 0.5]
    k = min(len(special), x.numel())
    x[:k] = torch.tensor(special[:k], dtype=torch.float64)
    return x[torch.randperm(x.numel(), generator=gen)].reshape(shape).to(dtype)


class Recorder(TorchDispatchMode):
    """Inside npu_semantics: records each threshold op's inputs and the output the outer mode gave."""

    def __init__(self):
        super().__init__()
        self.seen = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        if func in (aten.threshold_backward.default, aten.threshold.default):
            self.seen.append((func, [a.clone() if isinstance(a, torch.Tensor) else a for a in args], out.clone()))
        return out


ACTIVATIONS = {
    "nn.ReLU": (lambda x: torch.nn.ReLU()(x), 0.0, "result"),
    "F.relu": (lambda x: torch.nn.functional.relu(x), 0.0, "result"),
    "F.relu_inplace": (lambda x: torch.nn.functional.relu(x * 1, inplace=True), 0.0, "result"),
    "nn.Threshold": (lambda x: torch.nn.Threshold(0.3, -1.0)(x), 0.3, "input"),
    "F.threshold_near_0": (lambda x: torch.nn.functional.threshold(x, 1e-8, 0.0), 1e-8, "input"),
}


@pytest.mark.parametrize("semantics", NPU)
@pytest.mark.parametrize("name", list(ACTIVATIONS))
def test_activation_backward_is_the_numpy_api(semantics, name):
    act, threshold, saved = ACTIVATIONS[name]
    x = features((6, 7), 1).requires_grad_()
    w = features((6, 7), 2)  # the upstream gradient, specials included (inf grads -> NaN in ReluGrad)
    with ot.npu_semantics(semantics) as mode:
        y = act(x)
        (y * w).sum().backward()
    assert mode.calls["aten::threshold_backward"] == 1
    feature = y if saved == "result" else x  # ReLU's backward reads its result, Threshold's its input
    expected = opsnn.threshold_backward(ot.to_numpy(w), ot.to_numpy(feature), threshold, semantics=semantics)
    assert_bits(x.grad, expected)
    torch_grad = torch.autograd.grad((act(x) * w).sum(), x)[0]  # outside the mode: torch's own
    assert_bits(torch_grad, opsnn.threshold_backward(ot.to_numpy(w), ot.to_numpy(feature), threshold))


@pytest.mark.parametrize("semantics", NPU)
def test_mlp_training_step_every_call_is_the_numpy_api(semantics):
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.ReLU(), torch.nn.Linear(16, 16),
                                torch.nn.Threshold(1e-9, 0.0), torch.nn.Linear(16, 1))
    x = torch.randn(32, 8)
    x[3, :] = math.nan  # a NaN sample: NaN features in every layer
    c = torch.randn(32, 1)  # the loss's weights: finite gradients reach the NaN sample's features
    rec = Recorder()
    with ot.npu_semantics(semantics, forward=False) as mode, rec:
        (model(x) * c).sum().backward()
    assert mode.calls["aten::threshold_backward"] == 2
    assert len(rec.seen) == 3  # forward aten.threshold (left to torch), two backward calls
    for func, (g, f, t), out in rec.seen:
        if func is aten.threshold_backward.default:
            assert_bits(out, opsnn.threshold_backward(ot.to_numpy(g), ot.to_numpy(f), t, semantics=semantics))
    npu_grads = [p.grad.clone() for p in model.parameters()]
    model.zero_grad()
    (model(x) * c).sum().backward()
    differs = [not np.array_equal(bits(a), bits(p.grad)) for a, p in zip(npu_grads, model.parameters(), strict=True)]
    assert differs[1] and differs[3]  # the biases before ReLU / Threshold: torch passes the NaN sample's grads


@pytest.mark.parametrize("semantics", NPU)
@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16, torch.int32, torch.int8,
                                   torch.uint8], ids=str)
@pytest.mark.parametrize("threshold", [0.3, 0.0, 1e-8, -2.0])
def test_direct_aten_calls(semantics, dtype, threshold):
    g = features((5, 12), 3).mul(4)
    f = features((1, 12), 4).mul(4)  # broadcast
    if not dtype.is_floating_point:
        g, f = g.nan_to_num(0, 100, -100), f.nan_to_num(0, 100, -100)
    g, f = g.to(dtype), f.to(dtype)
    with ot.npu_semantics(semantics, forward=False) as mode:
        got = aten.threshold_backward(g, f, threshold)
        out = torch.empty(5, 12, dtype=dtype)
        aten.threshold_backward.grad_input(g, f, threshold, grad_input=out)
    expected = opsnn.threshold_backward(ot.to_numpy(g), ot.to_numpy(f), threshold, semantics=semantics)
    assert_bits(got, expected)
    assert_bits(out, expected)
    assert mode.calls == {"aten::threshold_backward": 1, "aten::threshold_backward.grad_input": 1}


def test_fp16_threshold_rounding_shows():
    t = 0.3  # float16(0.3) = 0.300048828125 > 0.3: the Atlas A2 kernel compares in half
    x = torch.tensor([0.3, 0.31, 0.29], dtype=torch.float16)
    g = torch.ones(3, dtype=torch.float16)
    with ot.npu_semantics("ascend910b", forward=False):
        a2 = aten.threshold_backward(g, x, t)
    with ot.npu_semantics("ascend950", forward=False):
        a5 = aten.threshold_backward(g, x, t)
    assert aten.threshold_backward(g, x, t).tolist() == [1.0, 1.0, 0.0]  # torch: compared in float32
    assert a2.tolist() == [0.0, 1.0, 0.0]
    assert a5.tolist() == [1.0, 1.0, 0.0]


def test_outside_the_mode_and_other_devices_are_torch():
    g, f = torch.ones(3), torch.tensor([math.nan, 1.0, -1.0])
    with ot.npu_semantics("ascend910b", forward=False) as mode:
        meta = aten.threshold_backward(g.to("meta"), f.to("meta"), 0.5)  # not a CPU tensor: torch's
        assert meta.device.type == "meta"
        inside = aten.threshold_backward(g, f, 0.5)
    assert mode.calls == {"aten::threshold_backward": 1}
    assert inside.tolist() == [0.0, 1.0, 0.0]
    assert torch.equal(aten.threshold_backward(g, f, 0.5), torch.tensor([1.0, 1.0, 0.0]))


def test_npu_errors():
    with pytest.raises(ValueError, match="ascend910b"):
        ot.npu_semantics("torch")
    with ot.npu_semantics("ascend910b", forward=False):
        with pytest.raises(NotImplementedError, match="float64"):  # the NPU kernels take no float64
            aten.threshold_backward(torch.ones(2, dtype=torch.float64), torch.ones(2, dtype=torch.float64), 0.5)


def test_forward_false_leaves_the_forward_to_torch():
    with ot.npu_semantics("ascend910b", forward=False) as mode:
        y = torch.nn.functional.threshold(torch.tensor([math.nan, 1.0]), 0.5, -1.0)
    assert not mode.forward and mode.calls == {}
    assert math.isnan(y[0]) and y[1] == 1.0


@pytest.mark.parametrize("semantics", NPU)
def test_forward_under_the_mode_is_the_numpy_api(semantics):
    x = features((6, 7), 5)
    with ot.npu_semantics(semantics) as mode:
        y = torch.nn.Threshold(0.3, -1.0)(x)
        z = x.clone()
        torch.nn.functional.threshold(z, 0.3, -1.0, inplace=True)
    assert mode.forward and mode.calls["aten::threshold"] == 1 and mode.calls["aten::threshold_"] == 1
    expected = opsnn.threshold(ot.to_numpy(x), 0.3, -1.0, semantics=semantics)
    assert_bits(y, expected)
    assert_bits(z, expected)


def _step_grads(model, x):
    model.zero_grad()
    model(x).sum().backward()
    return [p.grad.clone() for p in model.parameters()]


def _small_model():
    torch.manual_seed(0)
    return torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.ReLU(), torch.nn.Linear(16, 4),
                               torch.nn.Threshold(0.1, 0.0))


@pytest.mark.parametrize("backend", ["eager", "aot_eager"])
def test_a_compiled_step_is_intercepted_as_the_eager_one(backend):
    """Compiled code that calls aten's kernels (these backends) reaches the override as eager code does."""
    model, x = _small_model(), features((5, 8), 3)
    with ot.npu_semantics("ascend910b") as eager_mode:
        expected = _step_grads(model, x)
    torch._dynamo.reset()
    with ot.npu_semantics("ascend910b") as compiled_mode:
        got = torch.compile(lambda: _step_grads(model, x), backend=backend)()
    assert compiled_mode.calls["aten::threshold_backward"] == eager_mode.calls["aten::threshold_backward"] == 2
    for a, b in zip(got, expected, strict=True):
        assert_bits(a, b)


def test_no_python_mode_runs_for_the_ops_it_does_not_intercept():
    """The contexts override the intercepted ops' CPU kernels only: no dispatch mode is pushed, so an
    add or a matmul under npu_semantics never enters Python (a mode cost a training step 10-19 %)."""
    from torch.utils._python_dispatch import _get_current_dispatch_mode
    with ot.npu_semantics("ascend910b"):
        assert _get_current_dispatch_mode() is None
        assert not torch._C._dispatch_tls_is_dispatch_key_included(torch._C.DispatchKey.Python)


def _distinguishing():
    """A call whose 910B answer differs from torch's and the 950's (test_fp16_threshold_rounding_shows)."""
    return torch.ones(3, dtype=torch.float16), torch.tensor([0.3, 0.31, 0.29], dtype=torch.float16), 0.3


def test_other_threads_get_torch_and_the_context_is_the_entering_threads():
    """A context changes only its own thread's dispatch (a thread-local included key): the aten ops'
    CPU kernels are torch's throughout, before, inside and after (no dispatch-table write while other
    threads call: issue 27 item 0, tests/surfaces/test_npu_semantics_threads.py)."""
    import threading

    from opsnn.torch import _mode

    g, x, t = _distinguishing()
    torch_answer = aten.threshold_backward(g, x, t)
    results = {}
    inside, leave = threading.Event(), threading.Event()

    def other_thread():
        inside.wait(10)
        results["other"] = aten.threshold_backward(g, x, t)  # while the main thread's context is open
        results["other_key"] = torch._C._dispatch_tls_is_dispatch_key_included(_mode._KEY)
        leave.set()

    cpu = {name: torch._C._dispatch_dump(name).split("\nCPU: ")[1].split("\n")[0]
           for name in ("aten::threshold_backward", "aten::threshold")}
    thread = threading.Thread(target=other_thread, daemon=True)
    thread.start()
    assert not torch._C._dispatch_tls_is_dispatch_key_included(_mode._KEY)
    try:
        with ot.npu_semantics("ascend910b", forward=False) as mode:
            inside.set()
            assert torch._C._dispatch_tls_is_dispatch_key_included(_mode._KEY)
            assert leave.wait(10)
            results["mode"] = aten.threshold_backward(g, x, t)
            for name, kernel in cpu.items():  # torch's CPU kernels stay registered as they were
                assert torch._C._dispatch_dump(name).split("\nCPU: ")[1].split("\n")[0] == kernel
    finally:
        inside.set()
        thread.join(10)
    assert not torch._C._dispatch_tls_is_dispatch_key_included(_mode._KEY)
    assert results["other_key"] is False
    assert mode.calls == {"aten::threshold_backward": 1}  # the other thread's call was not counted
    assert_bits(results["other"], torch_answer)
    assert not torch.equal(results["mode"], torch_answer)
    assert_bits(results["mode"], opsnn.threshold_backward(ot.to_numpy(g), ot.to_numpy(x), t,
                                                          semantics="ascend910b"))
    assert_bits(aten.threshold_backward(g, x, t), torch_answer)


def test_contexts_nest_and_an_error_inside_still_closes():
    g, x, t = _distinguishing()
    torch_answer = aten.threshold_backward(g, x, t)
    with ot.npu_semantics("ascend950", forward=False) as outer:
        with pytest.raises(RuntimeError, match="boom"):
            with ot.npu_semantics("ascend910b", forward=False) as inner:
                a2 = aten.threshold_backward(g, x, t)
                raise RuntimeError("boom")
        a5 = aten.threshold_backward(g, x, t)
    assert inner.calls == outer.calls == {"aten::threshold_backward": 1}
    assert_bits(a2, opsnn.threshold_backward(ot.to_numpy(g), ot.to_numpy(x), t, semantics="ascend910b"))
    assert_bits(a5, opsnn.threshold_backward(ot.to_numpy(g), ot.to_numpy(x), t, semantics="ascend950"))
    assert not torch.equal(a2, a5)
    assert_bits(aten.threshold_backward(g, x, t), torch_answer)


def test_double_backward_is_recorded_under_the_context():
    """The override sits below autograd: threshold_backward's own derivative is still recorded."""
    x = features((4, 5), 11).requires_grad_()
    g = torch.randn(4, 5, requires_grad=True)
    with ot.npu_semantics("ascend910b") as mode:
        y = torch.nn.functional.relu(x)
        (dx,) = torch.autograd.grad(y, x, g, create_graph=True)
        (dg,) = torch.autograd.grad(dx.sum(), g)
    assert mode.calls["aten::threshold_backward"] == 2
    expected = opsnn.threshold_backward(np.ones((4, 5), np.float32), ot.to_numpy(x), 0.0, semantics="ascend910b")
    assert_bits(dg, expected)
