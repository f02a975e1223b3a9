"""The HardtanhGrad definition and InferShape4Elewise (upstream hardtanh_grad_def.cpp,
tests/ut/op_host/test_Hardtanh_grad_infershape.cpp)."""
import pytest

from opsnn import opdef, registry
from opsnn.activation.hardtanh_grad.op_host import HARDTANH_GRAD, infer_shape


def test_definition():
    assert HARDTANH_GRAD.op_type == "HardtanhGrad"
    assert [t.name for t in HARDTANH_GRAD.inputs] == ["result", "grad"]
    assert [t.name for t in HARDTANH_GRAD.outputs] == ["y"]
    for t in HARDTANH_GRAD.inputs + HARDTANH_GRAD.outputs:
        assert t.param_type == "REQUIRED"
        assert t.dtypes == ("bfloat16", "float16", "float32")
        assert t.formats == t.unknown_shape_formats == ("ND",) * 3
    assert HARDTANH_GRAD.dtype_combinations() == [("bfloat16",) * 3, ("float16",) * 3, ("float32",) * 3]
    lo, hi = HARDTANH_GRAD.attr("min_val"), HARDTANH_GRAD.attr("max_val")
    assert (lo.attr_type, lo.value_type, lo.default) == ("REQUIRED", "Float", -1.0)
    assert (hi.attr_type, hi.value_type, hi.default) == ("REQUIRED", "Float", 1.0)


def test_aicore_ascend950_only():
    assert HARDTANH_GRAD.supports("ascend950") and not HARDTANH_GRAD.supports("ascend910b")
    cfg = HARDTANH_GRAD.aicore["ascend950"]
    assert (cfg.dynamic_compile_static, cfg.dynamic_format, cfg.dynamic_rank, cfg.dynamic_shape,
            cfg.need_check_support, cfg.precision_reduce) == (True, False, True, True, False, True)
    assert cfg.extend_cfg_info == (("opFile.value", "hardtanh_grad_apt"),)


def test_registered():
    assert opdef.get_op("HardtanhGrad") is HARDTANH_GRAD
    op = registry.get("HardtanhGrad")
    assert op.name == "hardtanh_grad" and registry.get("hardtanh_grad") is op
    assert [o.name for o in op.options] == ["min_val", "max_val"]
    assert op.python_api == {"hardtanh_backward": "opsnn.activation.hardtanh_grad.numpy_api:hardtanh_backward"}
    assert registry.aclnn_function("hardtanh_backward_get_workspace_size") is not None


@pytest.mark.parametrize(("result", "grad", "expected"), [
    ((-1, 8, 375), (-1, 8, 375), (-1, 8, 375)),  # upstream: fp32
    ((-1, 8, 35), (-1, 8, 35), (-1, 8, 35)),  # upstream: fp16 with fp32, dtypes not looked at
    ((), (), ()),
    ((2, 3), (3,), (2, 3)),  # input 0 decides
    (None, (2,), None),  # unknown rank
])
def test_infer_shape(result, grad, expected):
    assert infer_shape(result, grad) == expected


def test_infer_shape_bad_dim():
    with pytest.raises(ValueError):
        infer_shape((2, -3))
