"""op_host definition and shape inference (docs/threshold-grad-v2d.md §2, §3)."""
import pytest

from opsnn.activation.threshold_grad_v2_d.op_host import THRESHOLD_GRAD_V2D, infer_shape
from opsnn.opdef import get_op

DTYPES = ("float16", "float32", "bfloat16", "int32", "int8", "uint8")


def test_registered_under_its_op_type():
    assert get_op("ThresholdGradV2D") is THRESHOLD_GRAD_V2D
    with pytest.raises(KeyError, match="unknown operator"):
        get_op("NoSuchOp")


def test_inputs_outputs_share_dtypes_and_nd_format():
    op = THRESHOLD_GRAD_V2D
    assert [t.name for t in op.inputs] == ["input_gradient", "input_feature"]
    assert [t.name for t in op.outputs] == ["output_backprops"]
    for t in op.inputs + op.outputs:
        assert t.param_type == "REQUIRED"
        assert t.dtypes == DTYPES
        assert set(t.formats) == {"ND"} and set(t.unknown_shape_formats) == {"ND"}
    assert op.dtype_combinations() == [(d, d, d) for d in DTYPES]


def test_threshold_attr():
    attr = THRESHOLD_GRAD_V2D.attr("threshold")
    assert (attr.attr_type, attr.value_type, attr.default) == ("REQUIRED", "Float", 1.0)


def test_aicore_config_for_ascend910b_only():
    op = THRESHOLD_GRAD_V2D
    assert op.supports("ascend910b") and not op.supports("ascend950")
    cfg = op.aicore["ascend910b"]
    assert cfg.dynamic_compile_static and not cfg.dynamic_format
    assert cfg.dynamic_rank and cfg.dynamic_shape
    assert not cfg.need_check_support and cfg.precision_reduce
    assert dict(cfg.extend_cfg_info) == {"opFile.value": "threshold_grad_v2_d"}


@pytest.mark.parametrize("shape", [(), (0,), (2, 2), (1, 2, 3, 4, 5, 6, 7, 8)])
def test_infer_shape_copies_input0(shape):
    assert infer_shape(shape, (9,)) == shape


def test_infer_shape_rejects_negative():
    with pytest.raises(ValueError):
        infer_shape((2, -1))
