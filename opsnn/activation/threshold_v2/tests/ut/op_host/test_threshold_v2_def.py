"""op_host definition and shape inference (docs/threshold-v2.md §2)."""
import pytest

from opsnn import registry
from opsnn.activation.threshold_v2.op_host import THRESHOLD_V2, infer_shape
from opsnn.opdef import get_op

DTYPES = ("int64", "int32", "int16", "float32", "float16", "bfloat16", "int8", "uint8")


def test_registered_under_its_op_type_and_folder_name():
    assert get_op("ThresholdV2") is THRESHOLD_V2
    assert registry.get("threshold_v2").op_def is THRESHOLD_V2
    assert registry.get("ThresholdV2").name == "threshold_v2"


def test_inputs_outputs_eight_dtypes_nd_value_optional():
    op = THRESHOLD_V2
    assert [t.name for t in op.inputs] == ["x", "threshold", "value"]
    assert [t.param_type for t in op.inputs] == ["REQUIRED", "REQUIRED", "OPTIONAL"]
    assert [t.name for t in op.outputs] == ["y"] and op.outputs[0].param_type == "REQUIRED"
    for t in op.inputs + op.outputs:
        assert t.dtypes == DTYPES
        assert set(t.formats) == {"ND"} and set(t.unknown_shape_formats) == {"ND"}
    assert op.dtype_combinations() == [(d, d, d, d) for d in DTYPES]
    assert op.attrs == ()


def test_aicore_config_for_ascend950_only():
    op = THRESHOLD_V2
    assert op.supports("ascend950") and not op.supports("ascend910b")
    cfg = op.aicore["ascend950"]
    assert cfg.dynamic_compile_static and not cfg.dynamic_format
    assert cfg.dynamic_rank and cfg.dynamic_shape
    assert not cfg.need_check_support and cfg.precision_reduce


def test_infer_shape_upstream_case():
    assert infer_shape((3, 5), (1,), (1,)) == (3, 5)  # upstream's UT: fp16 {3,5} -> {3,5}


@pytest.mark.parametrize("shape", [(), (0,), (2, 2), (1, 2, 3, 4, 5, 6, 7, 8), (-1, 4)])
def test_infer_shape_copies_x(shape):
    assert infer_shape(shape, (9, 9)) == shape


def test_infer_shape_unknown_rank_propagates_and_bad_dims_refused():
    assert infer_shape(None) is None
    with pytest.raises(ValueError):
        infer_shape((2, -2))


def test_aclnn_namespace_finds_the_four_functions():
    from opsnn import aclnn
    from opsnn.activation.threshold_v2 import OPERATOR
    from opsnn.activation.threshold_v2.op_api import aclnn_threshold

    assert OPERATOR.aclnn_functions == ("threshold_get_workspace_size", "threshold",
                                        "inplace_threshold_get_workspace_size", "inplace_threshold")
    for name in OPERATOR.aclnn_functions:
        assert getattr(aclnn, name) is getattr(aclnn_threshold, name) and name in dir(aclnn)
    assert OPERATOR.example_path().is_file()
