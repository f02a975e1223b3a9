"""aclnnLeakyReluBackward example, the way an Ascend developer writes it (upstream's
test_aclnn_leaky_relu_backward.cpp, in Python): start the device, build gradOutput, self, out and
the negativeSlope scalar, run the two phases, synchronize, copy the result back, release.

gradOutput [2, 3, 4, 5], self [1, 2, 3, 4] (all positive), negativeSlope 0.01, selfIsResult true
-> [2, 3, 4, 5]. Run it with `opsnn example leaky_relu_grad` (SoC: $OPSNN_SOC, else Ascend910B2)."""
from __future__ import annotations

import math
import sys

import numpy as np

from opsnn import acl, aclnn


def check_ret(cond: bool, message: str) -> bool:
    """CHECK_RET: on failure say what failed (on stderr) and let the caller return."""
    if not cond:
        print(message, file=sys.stderr)
    return cond


def init(device_id: int):
    """aclInit, aclrtSetDevice, aclrtCreateStream: (stream, ret)."""
    ret = acl.init()
    if not check_ret(ret == acl.ACL_SUCCESS, f"aclInit failed. ERROR: {ret}"):
        return None, ret
    ret = acl.rt.set_device(device_id)
    if not check_ret(ret == acl.ACL_SUCCESS, f"aclrtSetDevice failed. ERROR: {ret}"):
        return None, ret
    stream, ret = acl.rt.create_stream()
    if not check_ret(ret == acl.ACL_SUCCESS, f"aclrtCreateStream failed. ERROR: {ret}"):
        return None, ret
    return stream, acl.ACL_SUCCESS


def create_acl_tensor(host_data: np.ndarray, shape: list[int], data_type: int):
    """A device copy of host_data and a row-major aclTensor over it: (device_addr, tensor, ret)."""
    size = math.prod(shape) * host_data.itemsize
    device_addr, ret = acl.rt.malloc(size, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    if not check_ret(ret == acl.ACL_SUCCESS, f"aclrtMalloc failed. ERROR: {ret}"):
        return None, None, ret
    ret = acl.rt.memcpy(device_addr, size, acl.util.numpy_to_ptr(host_data), size, acl.ACL_MEMCPY_HOST_TO_DEVICE)
    if not check_ret(ret == acl.ACL_SUCCESS, f"aclrtMemcpy failed. ERROR: {ret}"):
        return device_addr, None, ret
    strides = [1] * len(shape)
    for i in range(len(shape) - 2, -1, -1):
        strides[i] = shape[i + 1] * strides[i + 1]
    tensor = acl.create_tensor(shape, data_type, strides, 0, acl.ACL_FORMAT_ND, shape, device_addr)
    return device_addr, tensor, acl.ACL_SUCCESS


def main() -> int:
    # 1. device and stream
    device_id = 0
    stream, ret = init(device_id)
    if not check_ret(ret == acl.ACL_SUCCESS, f"Init acl failed. ERROR: {ret}"):
        return 1

    # 2. the inputs: gradOutput, self and out {4} float32, the slope an ACL_FLOAT scalar
    shape = [4]
    grad_host = np.array([2, 3, 4, 5], dtype=np.float32)
    self_host = np.array([1, 2, 3, 4], dtype=np.float32)
    out_host = np.zeros(4, dtype=np.float32)
    grad_addr, grad_output, ret = create_acl_tensor(grad_host, shape, acl.ACL_FLOAT)
    if not check_ret(ret == acl.ACL_SUCCESS, "create gradOutput failed"):
        return 1
    self_addr, self_tensor, ret = create_acl_tensor(self_host, shape, acl.ACL_FLOAT)
    if not check_ret(ret == acl.ACL_SUCCESS, "create self failed"):
        return 1
    out_addr, out, ret = create_acl_tensor(out_host, shape, acl.ACL_FLOAT)
    if not check_ret(ret == acl.ACL_SUCCESS, "create out failed"):
        return 1
    negative_slope = acl.create_scalar(0.01, acl.ACL_FLOAT)
    if not check_ret(negative_slope is not None, "aclCreateScalar failed"):
        return 1
    self_is_result = True

    # 3. phase 1: check the parameters, plan the work, size the workspace
    workspace_size, executor, ret = aclnn.leaky_relu_backward_get_workspace_size(
        grad_output, self_tensor, negative_slope, self_is_result, out)
    if not check_ret(ret == aclnn.ACLNN_SUCCESS, f"aclnnLeakyReluBackwardGetWorkspaceSize failed. ERROR: {ret} "
                                                 f"{aclnn.get_recent_err_msg()}"):
        return 1
    workspace_addr = 0
    if workspace_size > 0:
        workspace_addr, ret = acl.rt.malloc(workspace_size, acl.ACL_MEM_MALLOC_HUGE_FIRST)
        if not check_ret(ret == acl.ACL_SUCCESS, f"allocate workspace failed. ERROR: {ret}"):
            return 1

    # 4. phase 2: queue the work, then wait for it
    ret = aclnn.leaky_relu_backward(workspace_addr, workspace_size, executor, stream)
    if not check_ret(ret == aclnn.ACLNN_SUCCESS, f"aclnnLeakyReluBackward failed. ERROR: {ret} "
                                                 f"{aclnn.get_recent_err_msg()}"):
        return 1
    ret = acl.rt.synchronize_stream(stream)
    if not check_ret(ret == acl.ACL_SUCCESS, f"aclrtSynchronizeStream failed. ERROR: {ret}"):
        return 1

    # 5. the result back to the host
    result = np.zeros(math.prod(shape), dtype=np.float32)
    ret = acl.rt.memcpy(acl.util.numpy_to_ptr(result), result.nbytes, out_addr, result.nbytes,
                        acl.ACL_MEMCPY_DEVICE_TO_HOST)
    if not check_ret(ret == acl.ACL_SUCCESS, f"copy result from device to host failed. ERROR: {ret}"):
        return 1
    for i, value in enumerate(result):
        print(f"result[{i}] is: {value:f}")

    # 6. release the aclTensors and the aclScalar, then the device
    for tensor in (grad_output, self_tensor, out):
        acl.destroy_tensor(tensor)
    acl.destroy_scalar(negative_slope)
    for addr in (grad_addr, self_addr, out_addr):
        acl.rt.free(addr)
    if workspace_size > 0:
        acl.rt.free(workspace_addr)
    acl.rt.destroy_stream(stream)
    acl.rt.reset_device(device_id)
    acl.finalize()
    return 0


if __name__ == "__main__":
    sys.exit(main())
