"""aclnnHardtanhBackward's C signature: the one declaration the C header
aclnnop/aclnn_hardtanh_backward.h and its C entry points are generated from (opsnn/capi)."""
from opsnn.aclnn.signature import OUT, SCALAR, TENSOR, AclnnApi, Param

from .aclnn_hardtanh_backward import supported_dtypes

_DTYPES = supported_dtypes("ascend910b")  # what aclnn_hardtanh_backward checks on 910B (and 950)

APIS = (
    AclnnApi("aclnnHardtanhBackward", header="aclnn_hardtanh_backward", python="hardtanh_backward",
             numpy_api="hardtanh_backward", aten="hardtanh_backward",
             summary="out = gradOutput where min < self < max (or self is NaN), else 0",
             params=(Param("gradOutput", TENSOR, _DTYPES, doc="the incoming gradient; self's dtype and shape"),
                     Param("self", TENSOR, _DTYPES, doc="the forward input"),
                     Param("min", SCALAR, doc="lower bound, read as float32 (exclusive)"),
                     Param("max", SCALAR, doc="upper bound, read as float32 (exclusive)"),
                     Param("out", OUT, _DTYPES, doc="self's shape and dtype"))),
)
