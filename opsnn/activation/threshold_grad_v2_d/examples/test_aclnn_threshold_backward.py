"""aclnnThresholdBackward reference example (docs/threshold-grad-v2d.md §10), the way an Ascend developer writes it:
init the device, build tensors, the two phases, synchronize, copy the result back, release.

Run it with `opsnn example` or `python examples/test_aclnn_threshold_backward.py`."""
from __future__ import annotations

import math
import sys

import numpy as np

from opsnn import acl, aclnn


def check_ret(cond: bool, message: str) -> bool:
    """CHECK_RET: on failure say what failed (to stderr) and let the caller return."""
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
    """Device buffer filled from host_data and a contiguous aclTensor on it: (device_addr, tensor, ret)."""
    size = math.prod(shape) * host_data.itemsize
    device_addr, ret = acl.rt.malloc(size, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    if not check_ret(ret == acl.ACL_SUCCESS, f"aclrtMalloc failed. ERROR: {ret}"):
        return None, None, ret
    ret = acl.rt.memcpy(device_addr, size, acl.util.numpy_to_ptr(host_data), size, acl.ACL_MEMCPY_HOST_TO_DEVICE)
    if not check_ret(ret == acl.ACL_SUCCESS, f"aclrtMemcpy failed. ERROR: {ret}"):
        return device_addr, None, ret
    strides = [1] * len(shape)  # row-major
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

    # 2. inputs and output, all {2, 2} float32
    self_shape = [2, 2]
    grad_output_shape = [2, 2]
    out_shape = [2, 2]
    self_host_data = np.array([0.2, 1.2, 2.2, 3.2], dtype=np.float32)  # input_feature
    grad_output_host_data = np.array([4.5, 4.4, 4.3, 4.2], dtype=np.float32)  # input_gradient
    out_host_data = np.zeros(4, dtype=np.float32)
    threshold_value = 1.0

    self_device_addr, self_tensor, ret = create_acl_tensor(self_host_data, self_shape, acl.ACL_FLOAT)
    if not check_ret(ret == acl.ACL_SUCCESS, "create self failed"):
        return 1
    grad_output_device_addr, grad_output, ret = create_acl_tensor(grad_output_host_data, grad_output_shape,
                                                                  acl.ACL_FLOAT)
    if not check_ret(ret == acl.ACL_SUCCESS, "create gradOutput failed"):
        return 1
    threshold = acl.create_scalar(threshold_value, acl.ACL_FLOAT)
    if not check_ret(threshold is not None, "aclCreateScalar failed"):
        return 1
    out_device_addr, out, ret = create_acl_tensor(out_host_data, out_shape, acl.ACL_FLOAT)
    if not check_ret(ret == acl.ACL_SUCCESS, "create out failed"):
        return 1

    # 3. the two phases: workspace size first, then the run
    workspace_size, executor, ret = aclnn.threshold_backward_get_workspace_size(grad_output, self_tensor,
                                                                                threshold, out)
    if not check_ret(ret == aclnn.ACLNN_SUCCESS,
                     f"aclnnThresholdBackwardGetWorkspaceSize failed. ERROR: {ret} {aclnn.get_recent_err_msg()}"):
        return 1
    workspace_addr = 0
    if workspace_size > 0:
        workspace_addr, ret = acl.rt.malloc(workspace_size, acl.ACL_MEM_MALLOC_HUGE_FIRST)
        if not check_ret(ret == acl.ACL_SUCCESS, f"allocate workspace failed. ERROR: {ret}"):
            return 1
    ret = aclnn.threshold_backward(workspace_addr, workspace_size, executor, stream)
    if not check_ret(ret == aclnn.ACLNN_SUCCESS,
                     f"aclnnThresholdBackward failed. ERROR: {ret} {aclnn.get_recent_err_msg()}"):
        return 1

    # 4. wait for the stream
    ret = acl.rt.synchronize_stream(stream)
    if not check_ret(ret == acl.ACL_SUCCESS, f"aclrtSynchronizeStream failed. ERROR: {ret}"):
        return 1

    # 5. copy the result back and print it
    result_data = np.zeros(math.prod(out_shape), dtype=np.float32)
    size = result_data.size * result_data.itemsize
    ret = acl.rt.memcpy(acl.util.numpy_to_ptr(result_data), size, out_device_addr, size,
                        acl.ACL_MEMCPY_DEVICE_TO_HOST)
    if not check_ret(ret == acl.ACL_SUCCESS, f"copy result from device to host failed. ERROR: {ret}"):
        return 1
    for i, value in enumerate(result_data):
        print(f"result[{i}] is: {value:f}")

    # 6. release aclTensor and aclScalar
    acl.destroy_tensor(self_tensor)
    acl.destroy_tensor(grad_output)
    acl.destroy_scalar(threshold)
    acl.destroy_tensor(out)

    # 7. release device resources
    acl.rt.free(self_device_addr)
    acl.rt.free(grad_output_device_addr)
    acl.rt.free(out_device_addr)
    if workspace_size > 0:
        acl.rt.free(workspace_addr)
    acl.rt.destroy_stream(stream)
    acl.rt.reset_device(device_id)
    acl.finalize()
    return 0


if __name__ == "__main__":
    sys.exit(main())
