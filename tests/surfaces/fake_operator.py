"""An operator registered from outside opsnn for the surface tests: a declaration (AclnnApi with
numpy_api and aten) and a numpy function, nothing else; opsnn.torch and opsnn.dask must serve it."""
import importlib.machinery
import sys
import types

import numpy as np

from opsnn import registry
from opsnn.aclnn.signature import ATTR, OUT, SCALAR, TENSOR, AclnnApi, Param
from opsnn.activation.relu_grad import OPERATOR as RELU


def scale_backward(grad, x, scale, negate=False, *, semantics="torch", backend="auto"):
    grad, x = np.asarray(grad), np.asarray(x)
    if grad.dtype != x.dtype:
        raise TypeError("dtypes differ")
    r = np.where(x > 0, grad * grad.dtype.type(scale), grad.dtype.type(0))
    return -r if negate else r

def _module(name, **attrs):
    """A module in sys.modules only (find_spec answers from its __spec__)."""
    m = types.ModuleType(name)
    m.__spec__ = importlib.machinery.ModuleSpec(name, None)
    m.__dict__.update(attrs)
    sys.modules[name] = m
    return m

_module("fakeops", scale_backward=scale_backward)
_module("fakeops.op_api")
_module("fakeops.op_api.aclnn_signature", APIS=(AclnnApi("aclnnScaleBackward", header="aclnn_scale_backward",
    python="scale_backward", numpy_api="scale_backward", aten="scale_backward",
    params=(Param("gradOutput", TENSOR), Param("self", TENSOR), Param("scale", SCALAR),
            Param("negate", ATTR, c_type="bool"), Param("out", OUT))),))
_module("fakeops.op_api.api", scale_backward_get_workspace_size=None, scale_backward=None)
registry.register(registry.Operator(name="scale_grad", op_def=RELU.op_def, package="fakeops", summary="x",
    aclnn_module="fakeops.op_api.api", aclnn_functions=("scale_backward_get_workspace_size", "scale_backward"),
    python_api={"scale_backward": "fakeops:scale_backward"}))
