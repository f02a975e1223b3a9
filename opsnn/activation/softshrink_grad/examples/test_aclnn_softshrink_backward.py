"""aclnnSoftshrinkBackward example, as an Ascend developer writes the C++ one: start the device,
put gradOutput, self and gradInput ({2, 2} float32) on it with lambd 0.5, run the two phases, wait
for the stream, read gradInput back, release.

gradOutput [[1, 2], [3, 4]], self [[0.25, -1], [0.5, 2]]: |self| > 0.5 passes the gradient, else
0 -> [0, 2, 0, 4]. `opsnn example softshrink_grad` runs it (OPSNN_SOC=Ascend950: the one SoC
upstream builds SoftShrinkGrad for; elsewhere phase 1 fails with 561003)."""
from __future__ import annotations

import sys

import numpy as np

from opsnn import acl, aclnn

SHAPE = [2, 2]


class Failed(Exception):
    """A call that did not return success: what it was and its status."""


def ok(ret: int, what: str) -> None:
    if ret not in (acl.ACL_SUCCESS, aclnn.ACLNN_SUCCESS):
        raise Failed(f"{what} failed. ERROR: {ret} {aclnn.get_recent_err_msg()}")


def on_device(values: list[float], held: list):
    """A {2, 2} float32 aclTensor over a device copy of values; its buffer and tensor join `held`."""
    host = np.array(values, np.float32).reshape(SHAPE)
    addr, ret = acl.rt.malloc(host.nbytes, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    ok(ret, "aclrtMalloc")
    held.append(("buffer", addr))
    ok(acl.rt.memcpy(addr, host.nbytes, acl.util.numpy_to_ptr(host), host.nbytes, acl.ACL_MEMCPY_HOST_TO_DEVICE),
       "aclrtMemcpy to the device")
    tensor = acl.create_tensor(SHAPE, acl.ACL_FLOAT, [SHAPE[1], 1], 0, acl.ACL_FORMAT_ND, SHAPE, addr)
    held.append(("tensor", tensor))
    return addr, tensor


def run(stream, held: list) -> None:
    _, grad_output = on_device([1, 2, 3, 4], held)
    _, self = on_device([0.25, -1, 0.5, 2], held)
    grad_input_addr, grad_input = on_device([0, 0, 0, 0], held)
    lambd = acl.create_scalar(0.5, acl.ACL_FLOAT)
    held.append(("scalar", lambd))
    size, executor, ret = aclnn.softshrink_backward_get_workspace_size(grad_output, self, lambd, grad_input)
    ok(ret, "aclnnSoftshrinkBackwardGetWorkspaceSize")
    workspace = 0
    if size > 0:
        workspace, ret = acl.rt.malloc(size, acl.ACL_MEM_MALLOC_HUGE_FIRST)
        ok(ret, "aclrtMalloc of the workspace")
        held.append(("buffer", workspace))
    ok(aclnn.softshrink_backward(workspace, size, executor, stream), "aclnnSoftshrinkBackward")
    ok(acl.rt.synchronize_stream(stream), "aclrtSynchronizeStream")
    host = np.empty(SHAPE, np.float32)
    ok(acl.rt.memcpy(acl.util.numpy_to_ptr(host), host.nbytes, grad_input_addr, host.nbytes,
                     acl.ACL_MEMCPY_DEVICE_TO_HOST), "aclrtMemcpy to the host")
    for i, value in enumerate(host.ravel()):
        print(f"result[{i}] is: {value:f}")


def main() -> int:
    device_id, held = 0, []
    try:
        ok(acl.init(), "aclInit")
        ok(acl.rt.set_device(device_id), "aclrtSetDevice")
        stream, ret = acl.rt.create_stream()
        ok(ret, "aclrtCreateStream")
        run(stream, held)
    except Failed as failure:
        print(failure, file=sys.stderr)
        return 1
    release = {"tensor": acl.destroy_tensor, "scalar": acl.destroy_scalar, "buffer": acl.rt.free}
    for kind, handle in reversed(held):  # tensors before the buffers under them
        release[kind](handle)
    acl.rt.destroy_stream(stream)
    acl.rt.reset_device(device_id)
    acl.finalize()
    return 0


if __name__ == "__main__":
    sys.exit(main())
