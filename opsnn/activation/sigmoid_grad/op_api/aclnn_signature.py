"""aclnnSigmoidBackward's C signature: the one declaration its C header
aclnnop/aclnn_sigmoid_backward.h and C entry points are generated from (opsnn/capi)."""
from opsnn.aclnn.signature import OUT, TENSOR, AclnnApi, Param

from .aclnn_sigmoid_backward import supported_dtypes

_DTYPES = supported_dtypes("ascend910b")

APIS = (
    AclnnApi("aclnnSigmoidBackward", arithmetic=True, header="aclnn_sigmoid_backward",
             python="sigmoid_backward", numpy_api="sigmoid_backward", aten="sigmoid_backward",
             summary="gradInput = gradOutput * output * (1 - output)",
             params=(Param("gradOutput", TENSOR, _DTYPES, doc="the incoming gradient"),
                     Param("output", TENSOR, _DTYPES, doc="the forward output sigmoid(x)"),
                     Param("gradInput", OUT, _DTYPES, doc="the broadcast shape; the promoted dtype cast to it"))),
)
