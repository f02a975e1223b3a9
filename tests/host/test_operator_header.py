"""How opsnn.host.operator reads an op_api's aclnn header: the phase-1 parameters in order, which
tensors are outputs (upstream's convention, not const-ness), the plain C parameters it can pass."""
from __future__ import annotations

import pytest

from opsnn.host.operator import parse_header

HEADER = """
#ifndef X_H
#define X_H
#include "aclnn/aclnn_base.h"
/* aclnnFooGetWorkspaceSize(const aclTensor *commented, ...) is documented here */
ACLNN_API aclnnStatus aclnnFooGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor *self,
    const aclScalar* alpha, bool isResult, int64_t dim, double limit, const char *approximate,
    const aclIntArray *sizes, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);
ACLNN_API aclnnStatus aclnnFoo(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);
ACLNN_API aclnnStatus aclnnBarGetWorkspaceSize(const aclTensor *self, const aclTensor *out, uint64_t *workspaceSize,
                                               aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnInplaceBarGetWorkspaceSize(const aclTensor *self, uint64_t *workspaceSize,
                                                      aclOpExecutor **executor);
ACLNN_API aclnnStatus aclnnInplaceBazGetWorkspaceSize(aclTensor *selfRef, const aclTensor *other,
                                                      uint64_t *workspaceSize, aclOpExecutor **executor);
#endif
"""


def test_parameters_in_order_with_their_kinds(tmp_path):
    h = tmp_path / "aclnn_foo.h"
    h.write_text(HEADER)
    apis = {a.name: a for a in parse_header(h)}
    assert list(apis) == ["aclnnFoo", "aclnnBar", "aclnnInplaceBar", "aclnnInplaceBaz"]
    assert [(p.name, p.kind, p.c_type) for p in apis["aclnnFoo"].params] == [
        ("gradOutput", "tensor", ""), ("self", "tensor", ""), ("alpha", "scalar", ""), ("isResult", "attr", "bool"),
        ("dim", "attr", "int64_t"), ("limit", "attr", "double"), ("approximate", "attr", "char *"),
        ("sizes", "int_array", ""), ("out", "out", "")]
    assert [p.name for p in apis["aclnnFoo"].inputs] == ["gradOutput", "self", "alpha", "isResult", "dim", "limit",
                                                         "approximate", "sizes"]


def test_the_last_tensor_is_written_whatever_its_const_an_inplace_apis_is_read_too(tmp_path):
    h = tmp_path / "aclnn_foo.h"
    h.write_text(HEADER)
    apis = {a.name: a for a in parse_header(h)}
    assert [p.kind for p in apis["aclnnBar"].params] == ["tensor", "out"]  # `const aclTensor *out`
    assert [p.kind for p in apis["aclnnInplaceBar"].params] == ["ref"]
    assert [p.kind for p in apis["aclnnInplaceBaz"].params] == ["ref", "tensor"]


def test_a_parameter_python_cannot_pass_is_named(tmp_path):
    h = tmp_path / "aclnn_q.h"
    h.write_text("aclnnStatus aclnnQGetWorkspaceSize(const aclTensorList *xs, aclTensor *out, uint64_t *workspaceSize,"
                 " aclOpExecutor **executor);")
    with pytest.raises(ValueError, match="aclnnQ: parameter xs of type 'const aclTensorList \\*'"):
        parse_header(h)
