"""aclnnLeakyReluBackward's C signature: the one declaration the C header
aclnnop/aclnn_leaky_relu_backward.h and its C entry points are generated from (opsnn/capi)."""
from opsnn.aclnn.signature import ATTR, OUT, SCALAR, TENSOR, AclnnApi, Param

from .aclnn_leaky_relu_backward import supported_dtypes

_DTYPES = supported_dtypes("ascend910b")  # what aclnn_leaky_relu_backward checks on 910B and 950

APIS = (
    AclnnApi("aclnnLeakyReluBackward", header="aclnn_leaky_relu_backward", python="leaky_relu_backward",
             numpy_api="leaky_relu_backward", aten="leaky_relu_backward",
             summary="out = gradOutput where self > 0, else gradOutput * negativeSlope (broadcast)",
             params=(Param("gradOutput", TENSOR, _DTYPES, doc="the incoming gradient"),
                     Param("self", TENSOR, _DTYPES, doc="the forward input (or its result, see selfIsResult)"),
                     Param("negativeSlope", SCALAR, doc="read as float32; >= 0 when selfIsResult"),
                     Param("selfIsResult", ATTR, c_type="bool", doc="self holds the forward's result"),
                     Param("out", OUT, doc="the broadcast shape; a dtype the promoted dtype casts to"))),
)
