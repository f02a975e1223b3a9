"""aclnnSoftshrinkBackward's C signature: aclnnop/aclnn_softshrink_backward.h, its C entry points,
torch.ops.opsnn.softshrink_backward, opsnn.dask.softshrink_backward and `opsnn atk` come from it."""
from opsnn.aclnn.signature import OUT, SCALAR, TENSOR, AclnnApi, Param

from .aclnn_softshrink_backward import supported_dtypes

_DTYPES = supported_dtypes("ascend950")

APIS = (
    AclnnApi("aclnnSoftshrinkBackward", header="aclnn_softshrink_backward", python="softshrink_backward",
             numpy_api="softshrink_backward", aten="softshrink_backward",
             summary="gradInput = gradOutput where self < -lambd or self > lambd, else 0",
             params=(Param("gradOutput", TENSOR, _DTYPES), Param("self", TENSOR, _DTYPES),
                     Param("lambd", SCALAR, doc=">= 0"), Param("gradInput", OUT, _DTYPES))),
)
