"""aclnnThresholdBackward's C signature: the one declaration the C header
aclnnop/aclnn_threshold_backward.h and its C entry points are generated from (opsnn/capi)."""
from opsnn.aclnn.signature import OUT, SCALAR, TENSOR, AclnnApi, Param

from ..op_host import THRESHOLD_GRAD_V2D

_DTYPES = THRESHOLD_GRAD_V2D.input("input_gradient").dtypes  # what aclnn_threshold_backward checks on 910B

APIS = (
    AclnnApi("aclnnThresholdBackward", header="aclnn_threshold_backward", python="threshold_backward",
             numpy_api="threshold_backward", aten="threshold_backward",
             summary="out = gradOutput where self > threshold, else 0 (gradOutput and self broadcast)",
             params=(Param("gradOutput", TENSOR, _DTYPES, doc="the incoming gradient"),
                     Param("self", TENSOR, _DTYPES, doc="the forward input"),
                     Param("threshold", SCALAR, doc="read as float32"),
                     Param("out", OUT, _DTYPES, doc="the broadcast shape, self's dtype"))),
)
