"""The definition (upstream leaky_relu_grad_def.cpp) and InferShape4Broadcast
(test_leaky_relu_grad_infershape.cpp: 10 cases, all GRAPH_SUCCESS; and the failures it implies)."""
import pytest

from opsnn import registry
from opsnn.activation.leaky_relu_grad.op_host import LEAKY_RELU_GRAD, infer_shape


def test_definition():
    d = LEAKY_RELU_GRAD
    assert d.op_type == "LeakyReluGrad"
    assert [(t.name, t.param_type) for t in d.inputs] == [("gradients", "REQUIRED"), ("features", "REQUIRED")]
    assert [(t.name, t.param_type) for t in d.outputs] == [("backprops", "REQUIRED")]
    assert d.dtype_combinations() == [("bfloat16",) * 3, ("float16",) * 3, ("float32",) * 3]
    assert all(t.formats == ("ND",) * 3 and t.unknown_shape_formats == ("ND",) * 3 for t in d.inputs + d.outputs)
    attr = d.attr("negative_slope")
    assert (attr.attr_type, attr.value_type, attr.default) == ("OPTIONAL", "Float", 0.0)
    assert list(d.aicore) == ["ascend950"] and not d.supports("ascend910b")
    cfg = d.aicore["ascend950"]
    assert (cfg.dynamic_compile_static, cfg.dynamic_rank, cfg.dynamic_shape, cfg.precision_reduce) == (True,) * 4
    assert (cfg.dynamic_format, cfg.need_check_support) == (False, False)
    assert cfg.extend_cfg_info == (("opFile.value", "leaky_relu_grad_apt"),)


def test_registered():
    op = registry.get("LeakyReluGrad")
    assert op.name == "leaky_relu_grad" and registry.get("leaky_relu_grad") is op
    assert op.python_api == {"leaky_relu_backward": "opsnn.activation.leaky_relu_grad.numpy_api:leaky_relu_backward"}


@pytest.mark.parametrize("a, b, want", [
    ((16, 16), (16, 16), (16, 16)),
    ((1, 16), (16, 16), (16, 16)),
    ((16, 16), (1, 16), (16, 16)),
    ((4, 3, 2), (2,), (4, 3, 2)),
    ((0, 0), (0, 0), (0, 0)),
    ((1, 0), (3, 1), (3, 0)),
    ((), (), ()),
    ((), (5, 1), (5, 1)),
    ((-1, 16), (8, 16), (8, 16)),
    ((-1, 1), (1, -1), (-1, -1)),
])
def test_infer_shape(a, b, want):
    assert infer_shape(a, b) == want


def test_infer_shape_unknown_rank_and_failures():
    assert infer_shape(None, (2, 3)) is None and infer_shape((2,), None) is None
    with pytest.raises(ValueError, match="do not broadcast"):
        infer_shape((2, 3), (4, 3))
    with pytest.raises(ValueError, match="bad dimension"):
        infer_shape((-3,), (1,))
