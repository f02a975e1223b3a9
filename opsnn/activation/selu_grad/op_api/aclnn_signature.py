"""aclnnSeluBackward's C signature: the one declaration aclnnop/aclnn_selu_backward.h and its C
entry points are generated from (opsnn/capi). No aten op: nn.SELU's backward is aten's
elu_backward with SELU's constants, which takes other arguments."""
from opsnn.aclnn.signature import OUT, TENSOR, AclnnApi, Param

from .aclnn_selu_backward import supported_dtypes

_DTYPES = supported_dtypes("ascend910b")

APIS = (
    AclnnApi("aclnnSeluBackward", arithmetic=True, header="aclnn_selu_backward", python="selu_backward",
             numpy_api="selu_backward",
             summary="gradInput = gradOutput * (result > 0 ? scale : result + scale * alpha)",
             params=(Param("gradOutput", TENSOR, _DTYPES, doc="the incoming gradient"),
                     Param("result", TENSOR, _DTYPES, doc="the forward's output; gradOutput's shape and dtype"),
                     Param("gradInput", OUT, _DTYPES, doc="gradOutput's shape and dtype"))),
)
