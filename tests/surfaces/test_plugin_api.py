"""The plug-in API an operator outside opsnn uses (docs/operators.md): the surface checks it runs
against itself, the emulator helpers it needs exported, the status kind of a refused attribute,
torch schema names that are Python keywords."""
from __future__ import annotations

import numpy as np
import pytest

from opsnn.atk.surfaces import check_surfaces

G, X = np.float32([1, -2, 3, 4]), np.float32([0.5, -1, 2, np.nan])


def test_surface_checks_pass_for_an_operator_and_catch_a_surface_that_differs(monkeypatch):
    pytest.importorskip("dask")
    check_surfaces("hardtanh_backward", G, X, 0.0, 6.0, torch=False)
    check_surfaces("hardtanh_backward", G, np.int8([1, -1, 2, 0]), 0.0, 6.0, torch=False)  # every surface refuses
    import opsnn.dask

    class Wrong:
        def compute(self):
            return np.zeros(4, np.float32)
    monkeypatch.setattr(opsnn.dask, "hardtanh_backward", lambda *a, **k: Wrong(), raising=False)
    with pytest.raises(AssertionError, match="dask/torch"):
        check_surfaces("hardtanh_backward", G, X, 0.0, 6.0, torch=False)


def test_surface_checks_through_torch():
    pytest.importorskip("torch")
    check_surfaces("leaky_relu_backward", G, X, 0.25, False, dask=False)


def test_schema_names_that_are_python_keywords_are_escaped():
    torch = pytest.importorskip("torch")
    from opsnn.aclnn.signature import ATTR, OUT, TENSOR, AclnnApi, Param
    from opsnn.torch._generic import _schema, _snake
    assert _snake("lambda") == "lambda_" and _snake("self") == "self_" and _snake("gradOutput") == "grad_output"
    api = AclnnApi("aclnnSoftshrinkBackward", header="h", python="softshrink_backward",
                   params=(Param("gradOutput", TENSOR), Param("self", TENSOR), Param("lambda", ATTR, c_type="double"),
                           Param("out", OUT)))
    schema = torch._C.parse_schema("opsnn::softshrink_backward" + _schema(api))
    assert [a.name for a in schema.arguments] == ["grad_output", "self_", "lambda_", "semantics"]


def test_a_refused_attribute_value_has_its_own_kind_and_is_a_value_error():
    from opsnn.aclnn import device_run, recent_error
    from opsnn.aclnn import status as st
    assert st.KIND_ATTR not in (st.KIND_SHAPE, st.KIND_DTYPE, st.KIND_VALUE)
    recent_error.record(st.ACLNN_ERR_PARAM_INVALID, st.KIND_ATTR, "lambd should not be negative")
    with pytest.raises(ValueError, match="lambd should not be negative"):
        device_run._raise_for_aclnn(st.ACLNN_ERR_PARAM_INVALID)


def test_the_emulator_helpers_an_operator_needs_are_exported():
    import opsnn.ascendc as ascendc
    import opsnn.atvoss as atvoss
    from opsnn.ascendc import binary, cast, cast_repeat, local_tensor, unary
    for name, module in (("Abs", unary), ("abs_values", unary), ("Cast", cast_repeat), ("cast_values", cast),
                         ("mul_values", binary), ("add_values", binary), ("sub_values", binary),
                         ("div_values", binary), ("read_local", local_tensor), ("write_local", local_tensor),
                         ("open_local", local_tensor), ("close_local", local_tensor),
                         ("mark_undefined", local_tensor)):
        assert name in ascendc.__all__ and getattr(ascendc, name) is getattr(module, name), name
    assert "Cast" in atvoss.__all__  # the arch35 DAG's Cast
