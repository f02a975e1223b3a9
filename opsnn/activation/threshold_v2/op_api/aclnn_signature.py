"""aclnnThreshold and aclnnInplaceThreshold's C signatures: the one declaration the C header
aclnnop/aclnn_threshold.h and its C entry points are generated from (opsnn/capi)."""
from opsnn.aclnn.signature import OUT, REF, SCALAR, TENSOR, AclnnApi, Param

from .aclnn_threshold import supported_dtypes

_DTYPES = supported_dtypes("ascend910b")  # what aclnn_threshold checks on 910B
_TO_SELF = "converted to self's dtype (161002 where an integer self cannot hold it)"
_TO_REF = "converted to selfRef's dtype (161002 where an integer selfRef cannot hold it)"

APIS = (
    AclnnApi("aclnnThreshold", header="aclnn_threshold", python="threshold", numpy_api="threshold",
             aten="threshold",
             summary="out = self where self > threshold, else value",
             params=(Param("self", TENSOR, _DTYPES),
                     Param("threshold", SCALAR, doc=_TO_SELF),
                     Param("value", SCALAR, doc=_TO_SELF),
                     Param("out", OUT, doc="self's shape; a dtype self casts to"))),
    AclnnApi("aclnnInplaceThreshold", header="aclnn_threshold", python="inplace_threshold",
             summary="selfRef = selfRef where selfRef > threshold, else value",
             params=(Param("selfRef", REF, _DTYPES),
                     Param("threshold", SCALAR, doc=_TO_REF),
                     Param("value", SCALAR, doc=_TO_REF))),
)
