"""torch.ops.opsnn.*: bit for bit the numpy API on the same tensors, opcheck for every dtype and
semantics, autograd, in-place/out variants, zero-copy conversions, torch.compile without graph breaks."""
from __future__ import annotations

import math

import numpy as np
import pytest

import opsnn

torch = pytest.importorskip("torch")
ot = pytest.importorskip("opsnn.torch")

# opcheck's own use of torch.jit (inside torch), not ours
pytestmark = pytest.mark.filterwarnings("ignore:`torch.jit.script_method` is deprecated:DeprecationWarning")

DTYPES = [torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64, torch.float16, torch.bfloat16,
          torch.float32, torch.float64]
ALL_DTYPES = [torch.bool, *DTYPES]
SEMANTICS = ("torch", "ascend910b", "ascend950")
FLOAT_SPECIALS = [0.0, -0.0, 0.5, 0.4999, 0.5001, 1.0, -1.0, 1e-8, -1e-8, 1e-7, 2.0, 65504.0, -3.5,
                  math.inf, -math.inf, math.nan]


def bits(t: torch.Tensor) -> np.ndarray:
    a = ot.to_numpy(t)
    return a.view(f"u{a.dtype.itemsize}") if a.dtype != np.bool_ else a.view(np.uint8)


def assert_bits(a: torch.Tensor, b: torch.Tensor):
    assert a.dtype == b.dtype and a.shape == b.shape
    np.testing.assert_array_equal(bits(a), bits(b))


def sample(dtype: torch.dtype, shape, seed: int) -> torch.Tensor:
    gen = torch.Generator().manual_seed(seed)
    n = math.prod(shape)
    if dtype == torch.bool:
        return torch.randint(0, 2, shape, generator=gen).bool()
    if dtype.is_floating_point:
        x = torch.randn(n, generator=gen, dtype=torch.float64)
        specials = torch.tensor(FLOAT_SPECIALS, dtype=torch.float64)
        x[: min(n, len(specials))] = specials[: min(n, len(specials))]
        return x.to(dtype).reshape(shape)
    lo = 0 if dtype == torch.uint8 else -5
    return torch.randint(lo, 6, shape, generator=gen).to(dtype)


def numpy_or_error(fn, *args, **kwargs):
    try:
        return fn(*args, **kwargs)
    except (TypeError, ValueError) as e:
        return e


TORCH_ERROR = {TypeError: NotImplementedError, ValueError: RuntimeError}


# ---- conversions ------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
def test_to_numpy_and_back_share_memory(dtype):
    t = sample(dtype, (4, 6), 1)
    for view in (t, t[:, ::2], t.T, t[1]):
        a = ot.to_numpy(view)
        assert a.shape == tuple(view.shape)
        assert a.ctypes.data == view.data_ptr()
        assert tuple(s // a.itemsize for s in a.strides) == view.stride()
        back = ot.from_numpy(a)
        assert back.dtype == dtype and back.data_ptr() == view.data_ptr()
        assert_bits(back, view)
    if dtype == torch.bfloat16:
        assert ot.to_numpy(t).dtype == opsnn.dtypes.bfloat16


def test_to_numpy_detaches():
    t = torch.ones(3, requires_grad=True)
    assert ot.to_numpy(t).ctypes.data == t.data_ptr()


def test_to_numpy_resolves_conjugate_and_negative_views():
    t = torch.tensor([1.5, -2.0, 0.0])
    np.testing.assert_array_equal(ot.to_numpy(t._neg_view()), -ot.to_numpy(t))
    c = torch.tensor([1 + 2j, -3j], dtype=torch.complex64)
    np.testing.assert_array_equal(ot.to_numpy(c.conj()), np.conj(ot.to_numpy(c)))
    b = t.to(torch.bfloat16)
    assert_bits(ot.from_numpy(ot.to_numpy(b._neg_view())), -b)


def test_to_numpy_refuses_other_devices():
    with pytest.raises(TypeError):
        ot.to_numpy(torch.ones(3, device="meta"))


# ---- bit for bit: the custom ops against the numpy API on the same tensors ---------------------

@pytest.mark.parametrize("semantics", SEMANTICS)
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
@pytest.mark.parametrize("threshold", [0.5, 0.0, 1e-8, -1, 2])
def test_backward_matches_numpy_api(dtype, semantics, threshold):
    grad, feature = sample(dtype, (5, 7), 2), sample(dtype, (5, 7), 3)
    expected = numpy_or_error(opsnn.threshold_backward, ot.to_numpy(grad), ot.to_numpy(feature), threshold,
                              semantics=semantics)
    if isinstance(expected, Exception):
        with pytest.raises(TORCH_ERROR[type(expected)]):
            torch.ops.opsnn.threshold_backward(grad, feature, threshold, semantics)
        return
    got = torch.ops.opsnn.threshold_backward(grad, feature, threshold, semantics)
    assert_bits(got, ot.from_numpy(expected))


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_torch_semantics_is_aten(dtype):
    grad, feature = sample(dtype, (3, 1, 4), 4), sample(dtype, (5, 4), 5)  # broadcasting
    got = torch.ops.opsnn.threshold_backward(grad, feature, 0.5, "torch")
    expected = torch.ops.aten.threshold_backward(grad, feature, 0.5)
    if dtype in (torch.float16, torch.bfloat16):  # aten's vectorised half path rewrites NaN payloads
        nan = expected.isnan()
        got, expected = got.masked_fill(nan, 0), expected.masked_fill(nan, 0)
    assert_bits(got, expected)


def test_torch_semantics_promotes_like_aten():
    grad, feature = torch.ones(3, dtype=torch.int8), torch.tensor(2.0, dtype=torch.float64)
    got = torch.ops.opsnn.threshold_backward(grad, feature, 1.0)
    assert got.dtype == torch.ops.aten.threshold_backward(grad, feature, 1.0).dtype


def test_errors_follow_torch():
    b = torch.ones(2, dtype=torch.bool)
    with pytest.raises(NotImplementedError):  # aten: "threshold_cpu" not implemented for 'Bool'
        torch.ops.opsnn.threshold_backward(b, b, 1)
    i8 = torch.ones(2, dtype=torch.int8)
    with pytest.raises(RuntimeError, match="overflow"):
        torch.ops.opsnn.threshold_backward(i8, i8, 1000)
    with pytest.raises(RuntimeError):
        torch.ops.opsnn.threshold_backward(torch.ones(2), torch.ones(3), 1.0)
    with pytest.raises(RuntimeError, match="unknown semantics"):
        torch.ops.opsnn.threshold_backward(torch.ones(2), torch.ones(2), 1.0, "cuda")
    with pytest.raises(NotImplementedError, match="differs"):
        torch.ops.opsnn.threshold_backward(torch.ones(2), torch.ones(2, dtype=torch.float16), 1.0, "ascend910b")
    with pytest.raises(NotImplementedError):  # the fake implementation raises the same
        with torch._subclasses.FakeTensorMode():
            torch.ops.opsnn.threshold_backward(torch.ones(2), torch.ones(2, dtype=torch.float16), 1.0, "ascend950")


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("args", [(0.5, -2.0), (0.0, 0.0), (-1, 7)])
def test_forward_matches_numpy_api_and_aten(dtype, args):
    x = sample(dtype, (6, 5), 6)
    expected = numpy_or_error(opsnn.threshold, ot.to_numpy(x), *args)
    if isinstance(expected, Exception):
        with pytest.raises(TORCH_ERROR[type(expected)]):
            torch.ops.opsnn.threshold(x, *args)
        return
    got = torch.ops.opsnn.threshold(x, *args)
    assert_bits(got, ot.from_numpy(expected))
    aten = torch.ops.aten.threshold(x, *args)
    if dtype in (torch.float16, torch.bfloat16):
        nan = aten.isnan()
        got, aten = got.masked_fill(nan, 0), aten.masked_fill(nan, 0)
    assert_bits(got, aten)


@pytest.mark.parametrize("semantics", ["ascend910b", "ascend950"])
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_forward_ascend_semantics_matches_numpy_api(dtype, semantics):
    x = sample(dtype, (6, 5), 7)
    expected = numpy_or_error(opsnn.threshold, ot.to_numpy(x), 0.5, -2.0, semantics=semantics)
    if isinstance(expected, Exception):
        with pytest.raises(TORCH_ERROR[type(expected)]):
            torch.ops.opsnn.threshold(x, 0.5, -2.0, semantics)
        return
    assert_bits(torch.ops.opsnn.threshold(x, 0.5, -2.0, semantics), ot.from_numpy(expected))


# ---- in place and out= ---------------------------------------------------------------------------

@pytest.mark.parametrize("semantics", SEMANTICS)
def test_backward_out_and_in_place(semantics):
    grad, feature = sample(torch.float32, (4, 5), 8), sample(torch.float32, (4, 5), 9)
    expected = torch.ops.opsnn.threshold_backward(grad, feature, 0.5, semantics)
    out = torch.empty(4, 5)
    assert ot.threshold_backward(grad, feature, 0.5, semantics=semantics, grad_input=out) is out
    assert_bits(out, expected)
    g = grad.clone()
    ot.threshold_backward(g, feature, 0.5, semantics=semantics, grad_input=g)  # out = grad, in place
    assert_bits(g, expected)
    wider = torch.empty(4, 5, dtype=torch.float64)  # torch's out= casts where can_cast allows
    ot.threshold_backward(grad, feature, 0.5, semantics=semantics, grad_input=wider)
    assert_bits(wider, expected.double())
    with pytest.raises(RuntimeError, match="can't be cast"):
        ot.threshold_backward(grad, feature, 0.5, semantics=semantics, grad_input=torch.empty(4, 5, dtype=torch.int32))
    with pytest.raises(RuntimeError, match="shape"):
        ot.threshold_backward(grad, feature, 0.5, semantics=semantics, grad_input=torch.empty(5, 4))


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_forward_in_place_and_out(dtype):
    x = sample(dtype, (4, 5), 10)
    expected = torch.ops.opsnn.threshold(x, 1, 3)
    y = x.clone()
    assert ot.threshold_(y, 1, 3) is y
    assert_bits(y, expected)
    z = x.clone()
    assert ot.threshold(z, 1, 3, inplace=True) is z
    assert_bits(z, expected)
    out = torch.empty_like(x)
    assert ot.threshold(x, 1, 3, out=out) is out
    assert_bits(out, expected)
    view = x.clone()[:, ::2]  # in place through a strided view
    ot.threshold_(view, 1, 3)
    assert_bits(view, expected[:, ::2])


# ---- autograd -------------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16, torch.float32, torch.float64], ids=str)
def test_forward_autograd_is_aten_threshold_backward(dtype):
    x = sample(dtype, (5, 6), 11).requires_grad_()
    w = sample(dtype, (5, 6), 12)
    (torch.ops.opsnn.threshold(x, 0.5, -1.0) * w).sum().backward()
    ours = x.grad.clone()
    x.grad = None
    (torch.nn.functional.threshold(x, 0.5, -1.0) * w).sum().backward()
    assert_bits(ours, x.grad)


@pytest.mark.parametrize("semantics", ["ascend910b", "ascend950"])
def test_forward_autograd_uses_the_same_semantics(semantics):
    x = sample(torch.float32, (5, 6), 13).requires_grad_()
    g = sample(torch.float32, (5, 6), 14)
    torch.ops.opsnn.threshold(x, 0.0, 0.0, semantics).backward(g)
    expected = opsnn.threshold_backward(ot.to_numpy(g), ot.to_numpy(x), 0.0, semantics=semantics)
    assert_bits(x.grad, ot.from_numpy(expected))


@pytest.mark.parametrize("semantics", SEMANTICS)
def test_backward_is_differentiable_in_grad(semantics):
    grad = sample(torch.float64 if semantics == "torch" else torch.float32, (4, 4), 15).nan_to_num().requires_grad_()
    feature = sample(grad.dtype, (4, 4), 16)
    gg = torch.randn(4, 4, dtype=grad.dtype)
    (torch.ops.opsnn.threshold_backward(grad, feature, 0.5, semantics) * gg).sum().backward()
    assert_bits(grad.grad, torch.ops.opsnn.threshold_backward(gg, feature, 0.5, semantics))


# ---- opcheck: schema, fake tensors, autograd registration, AOT dispatch, every dtype ------------

def _supported(fn, *args, **kw) -> bool:
    args = [ot.to_numpy(a) if isinstance(a, torch.Tensor) else a for a in args]
    return not isinstance(numpy_or_error(fn, *args, **kw), Exception)


def _backward_threshold(dtype):
    return 0.0 if dtype == torch.int64 else 0.5  # ascend950 takes int64 only at |t| <= FLT_EPSILON


# every (dtype, semantics) the numpy API takes; the others' errors: test_backward_matches_numpy_api
BACKWARD_CASES = [(d, s) for s in SEMANTICS for d in DTYPES
                  if _supported(opsnn.threshold_backward, np.zeros(1, ot._convert.numpy_dtype(d)),
                                np.zeros(1, ot._convert.numpy_dtype(d)), _backward_threshold(d), semantics=s)]


@pytest.mark.parametrize(("dtype", "semantics"), BACKWARD_CASES, ids=str)
def test_opcheck_backward(dtype, semantics):
    threshold = _backward_threshold(dtype)
    grad, feature = sample(dtype, (3, 4), 17), sample(dtype, (1, 4), 18)
    if dtype.is_floating_point:
        grad.requires_grad_()
    torch.library.opcheck(torch.ops.opsnn.threshold_backward.default, (grad, feature, threshold, semantics))
    out = torch.empty(3, 4, dtype=dtype)
    torch.library.opcheck(torch.ops.opsnn.threshold_backward_out.default,
                          (grad.detach(), feature, threshold, semantics, out))


# every (dtype, semantics) the forward takes
FORWARD_CASES = [(d, s) for s in SEMANTICS for d in DTYPES
                 if _supported(opsnn.threshold, np.zeros(1, ot._convert.numpy_dtype(d)), 1, -2, semantics=s)]


@pytest.mark.parametrize(("dtype", "semantics"), FORWARD_CASES, ids=str)
def test_opcheck_forward(dtype, semantics):
    x = sample(dtype, (3, 4), 19)
    if dtype.is_floating_point:
        x.requires_grad_()
    torch.library.opcheck(torch.ops.opsnn.threshold.default, (x, 1, -2, semantics))
    torch.library.opcheck(torch.ops.opsnn.threshold_.default, (x.detach().clone(), 1, -2, semantics))
    torch.library.opcheck(torch.ops.opsnn.threshold_out.default, (x.detach(), 1, -2, semantics, torch.empty_like(x)))


# ---- torch.compile ----------------------------------------------------------------------------------

def _model(x, g):
    y = torch.ops.opsnn.threshold(x * 2, 0.5, -1.0, "torch")
    z = torch.ops.opsnn.threshold_backward(g, y, 0.0, "ascend910b")
    return torch.ops.opsnn.threshold_backward(z, x, 0.25, "ascend950") + 1


def test_compile_fullgraph_inductor():
    import torch._dynamo
    torch._dynamo.reset()
    x, g = sample(torch.float32, (64,), 20), sample(torch.float32, (64,), 21)
    compiled = torch.compile(_model, fullgraph=True)  # fullgraph: a graph break would raise
    assert_bits(compiled(x, g), _model(x, g))
    explained = torch._dynamo.explain(_model)(x, g)
    assert explained.graph_break_count == 0 and explained.graph_count == 1


def test_compile_fullgraph_dynamic_shapes_and_autograd():
    import torch._dynamo
    torch._dynamo.reset()

    def step(x, w):
        return (torch.ops.opsnn.threshold(x, 0.1, 0.0) * w).sum()

    compiled = torch.compile(step, fullgraph=True, dynamic=True, backend="aot_eager")
    for n in (8, 13, 21):
        x = sample(torch.float32, (n,), n).nan_to_num().requires_grad_()
        w = sample(torch.float32, (n,), n + 1).nan_to_num()
        compiled(x, w).backward()
        ours = x.grad.clone()
        x.grad = None
        step(x, w).backward()
        assert_bits(ours, x.grad)


@pytest.mark.parametrize("semantics", SEMANTICS)
@pytest.mark.parametrize("case", ["0-d", "empty", "strided", "channels_last"])
def test_shapes_and_layouts(semantics, case):
    if case == "0-d":
        g, f = torch.tensor(2.0), torch.tensor(3.0)
    elif case == "empty":
        g, f = torch.ones(0, 3), torch.ones(0, 3)
    elif case == "strided":
        g, f = sample(torch.float32, (4, 6), 22)[:, ::2], sample(torch.float32, (3, 4), 23).T
    else:
        g = sample(torch.float32, (2, 3, 4, 5), 24).to(memory_format=torch.channels_last)
        f = sample(torch.float32, (2, 3, 4, 5), 25).to(memory_format=torch.channels_last)
    expected = opsnn.threshold_backward(ot.to_numpy(g), ot.to_numpy(f), 0.5, semantics=semantics)
    assert_bits(torch.ops.opsnn.threshold_backward(g, f, 0.5, semantics), ot.from_numpy(expected))
    # opcheck compares with assert_close, where NaN != NaN: NaN-free copies of the same layout
    g_, f_ = (t.nan_to_num() if t.dim() else t for t in (g, f))
    torch.library.opcheck(torch.ops.opsnn.threshold_backward.default, (g_, f_, 0.5, semantics))
    expected = opsnn.threshold(ot.to_numpy(f), 0.5, -1.0, semantics=semantics)
    assert_bits(torch.ops.opsnn.threshold(f, 0.5, -1.0, semantics), ot.from_numpy(expected))


_NUMBERS = {w: i for i, w in enumerate("zero one two three four five six seven eight nine ten eleven twelve".split())}


def test_the_docs_count_the_custom_operators():
    """docs/integrations.md's "registers N custom operators" and the operators it names are what
    `import opsnn.torch` registers (issue 27 item 16: it said five when there were seven)."""
    import re
    from pathlib import Path

    doc = (Path(__file__).parents[1] / "docs" / "integrations.md").read_text()
    word = re.search(r"`import opsnn.torch` registers (\w+) custom operators", doc).group(1)
    section = doc[doc.index("`import opsnn.torch` registers"):doc.index("```python", doc.index("registers"))]
    named = set(re.findall(r"^\| `(\w+)\(", section, re.MULTILINE))
    from opsnn.torch import _generic
    registered = {name.split("::")[1] for name in torch._C._dispatch_get_all_op_names() if name.startswith("opsnn::")}
    # an operator registered from outside opsnn (tests/surfaces/fake_operator.py) is not opsnn's
    registered -= {name for name, op in _generic.OPS.items() if not op.numpy.__module__.startswith("opsnn.")}
    assert _NUMBERS[word] == len(registered), (word, sorted(registered))
    assert named == registered


def test_an_arithmetic_ops_gradient_in_its_other_inputs_is_torchs():
    """sigmoid_backward (dy*y*(1-y)) is not constant in y: its custom op differentiates in y as
    aten.sigmoid_backward does (before: None, a silent zero); selu_backward, which mirrors no aten
    op, says so when its result needs a gradient, and differentiates in grad."""
    import opsnn.torch  # noqa: F401
    g = torch.randn(6, dtype=torch.float64, requires_grad=True)
    y = torch.rand(6, dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(lambda g, y: torch.ops.opsnn.sigmoid_backward(g, y, "torch"), (g, y))
    ours = torch.autograd.grad(torch.ops.opsnn.sigmoid_backward(g, y, "torch").sum(), [g, y])
    theirs = torch.autograd.grad(torch.ops.aten.sigmoid_backward(g, y).sum(), [g, y])
    assert all(torch.equal(a, b) for a, b in zip(ours, theirs, strict=True))
    r = torch.rand(6, dtype=torch.float64)
    (dg,) = torch.autograd.grad(torch.ops.opsnn.selu_backward(g, r, "torch").sum(), [g])
    assert torch.equal(dg, torch.ops.opsnn.selu_backward(torch.ones_like(g), r, "torch"))
    with pytest.raises(RuntimeError, match="selu_backward: its gradient with respect to result is not implemented"):
        torch.autograd.grad(torch.ops.opsnn.selu_backward(g, r.requires_grad_(), "torch").sum(), [g])
