"""aclnnSigmoidBackward example, written as an Ascend developer writes the C++ one: the device and
a stream, gradOutput / output / gradInput on the device, the two phases, synchronize, the result
back to the host, everything released.

gradOutput [1, 2, 3, 4] and output [0.5, 0.25, 0.75, 0.125] ({4} float32, output being sigmoid's
result) give gradInput = gradOutput * output * (1 - output) = [0.25, 0.375, 0.5625, 0.4375], exact
in float32 on both SoCs. Run it with `opsnn example sigmoid_grad` (SoC: $OPSNN_SOC, else
Ascend910B2)."""
from __future__ import annotations

import sys

import numpy as np

from opsnn import acl, aclnn


def failed(what: str, ret: int) -> int:
    """What CHECK_RET prints on stderr; the 1 main returns."""
    print(f"{what} failed. ERROR: {ret} {aclnn.get_recent_err_msg()}", file=sys.stderr)
    return 1


def device_vector(host: np.ndarray):
    """Copy a 1-D float32 array to a new device buffer and describe it as an aclTensor: (addr, tensor, ret)."""
    addr, ret = acl.rt.malloc(host.nbytes, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    if ret != acl.ACL_SUCCESS:
        return None, None, ret
    ret = acl.rt.memcpy(addr, host.nbytes, acl.util.numpy_to_ptr(host), host.nbytes, acl.ACL_MEMCPY_HOST_TO_DEVICE)
    dims = [host.size]
    return addr, acl.create_tensor(dims, acl.ACL_FLOAT, [1], 0, acl.ACL_FORMAT_ND, dims, addr), ret


def main() -> int:
    device_id = 0
    for what, ret in (("aclInit", acl.init()), ("aclrtSetDevice", acl.rt.set_device(device_id))):
        if ret != acl.ACL_SUCCESS:
            return failed(what, ret)
    stream, ret = acl.rt.create_stream()
    if ret != acl.ACL_SUCCESS:
        return failed("aclrtCreateStream", ret)

    hosts = {"gradOutput": np.float32([1, 2, 3, 4]), "output": np.float32([0.5, 0.25, 0.75, 0.125]),
             "gradInput": np.zeros(4, np.float32)}
    addrs, tensors = {}, {}
    for name, host in hosts.items():
        addrs[name], tensors[name], ret = device_vector(host)
        if ret != acl.ACL_SUCCESS:
            return failed(f"device copy of {name}", ret)

    # phase 1 checks the tensors and plans the launch; phase 2 queues it on the stream
    workspace_size, executor, ret = aclnn.sigmoid_backward_get_workspace_size(
        tensors["gradOutput"], tensors["output"], tensors["gradInput"])
    if ret != aclnn.ACLNN_SUCCESS:
        return failed("aclnnSigmoidBackwardGetWorkspaceSize", ret)
    workspace = 0
    if workspace_size:
        workspace, ret = acl.rt.malloc(workspace_size, acl.ACL_MEM_MALLOC_HUGE_FIRST)
        if ret != acl.ACL_SUCCESS:
            return failed("workspace aclrtMalloc", ret)
    ret = aclnn.sigmoid_backward(workspace, workspace_size, executor, stream)
    if ret != aclnn.ACLNN_SUCCESS:
        return failed("aclnnSigmoidBackward", ret)
    ret = acl.rt.synchronize_stream(stream)
    if ret != acl.ACL_SUCCESS:
        return failed("aclrtSynchronizeStream", ret)

    result = np.empty(4, np.float32)
    ret = acl.rt.memcpy(acl.util.numpy_to_ptr(result), result.nbytes, addrs["gradInput"], result.nbytes,
                        acl.ACL_MEMCPY_DEVICE_TO_HOST)
    if ret != acl.ACL_SUCCESS:
        return failed("copy of gradInput to the host", ret)
    for i, value in enumerate(result):
        print(f"result[{i}] is: {value:f}")

    for name in hosts:
        acl.destroy_tensor(tensors[name])
        acl.rt.free(addrs[name])
    if workspace_size:
        acl.rt.free(workspace)
    acl.rt.destroy_stream(stream)
    acl.rt.reset_device(device_id)
    acl.finalize()
    return 0


if __name__ == "__main__":
    sys.exit(main())
