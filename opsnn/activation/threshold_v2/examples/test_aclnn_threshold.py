"""aclnnThreshold example, the way an Ascend developer writes it (upstream's
test_aclnn_threshold.cpp): init the device, build the tensor and the two scalars, the two phases,
synchronize, copy the result back, release. Then aclnnInplaceThreshold on the same tensor.

self [0, 1, 2, 3, 4.1, 5, 6, 7], threshold 4.1, value 10 -> [10, 10, 10, 10, 10, 5, 6, 7].
Run it with `opsnn example threshold_v2` (SoC: $OPSNN_SOC, else Ascend910B2)."""
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


def run_two_phases(name: str, phase1, phase2, stream) -> int:
    """Phase 1 (workspace size), the workspace, phase 2, synchronize; frees the workspace."""
    workspace_size, executor, ret = phase1()
    if not check_ret(ret == aclnn.ACLNN_SUCCESS,
                     f"{name}GetWorkspaceSize failed. ERROR: {ret} {aclnn.get_recent_err_msg()}"):
        return ret
    workspace_addr = 0
    if workspace_size > 0:
        workspace_addr, ret = acl.rt.malloc(workspace_size, acl.ACL_MEM_MALLOC_HUGE_FIRST)
        if not check_ret(ret == acl.ACL_SUCCESS, f"allocate workspace failed. ERROR: {ret}"):
            return ret
    ret = phase2(workspace_addr, workspace_size, executor, stream)
    if check_ret(ret == aclnn.ACLNN_SUCCESS, f"{name} failed. ERROR: {ret} {aclnn.get_recent_err_msg()}"):
        ret = acl.rt.synchronize_stream(stream)
        check_ret(ret == acl.ACL_SUCCESS, f"aclrtSynchronizeStream failed. ERROR: {ret}")
    if workspace_size > 0:
        acl.rt.free(workspace_addr)
    return ret


def print_result(label: str, device_addr: int, n: int) -> int:
    result_data = np.zeros(n, dtype=np.float32)
    size = result_data.nbytes
    ret = acl.rt.memcpy(acl.util.numpy_to_ptr(result_data), size, device_addr, size, acl.ACL_MEMCPY_DEVICE_TO_HOST)
    if not check_ret(ret == acl.ACL_SUCCESS, f"copy result from device to host failed. ERROR: {ret}"):
        return ret
    for i, value in enumerate(result_data):
        print(f"{label}[{i}] is: {value:f}")
    return acl.ACL_SUCCESS


def main() -> int:
    # 1. device and stream
    device_id = 0
    stream, ret = init(device_id)
    if not check_ret(ret == acl.ACL_SUCCESS, f"Init acl failed. ERROR: {ret}"):
        return 1

    # 2. self and out {4, 2} float32, threshold and value scalars
    self_shape = [4, 2]
    out_shape = [4, 2]
    self_host_data = np.array([0, 1, 2, 3, 4.1, 5, 6, 7], dtype=np.float32)
    out_host_data = np.zeros(8, dtype=np.float32)
    self_device_addr, self_tensor, ret = create_acl_tensor(self_host_data, self_shape, acl.ACL_FLOAT)
    if not check_ret(ret == acl.ACL_SUCCESS, "create self failed"):
        return 1
    out_device_addr, out, ret = create_acl_tensor(out_host_data, out_shape, acl.ACL_FLOAT)
    if not check_ret(ret == acl.ACL_SUCCESS, "create out failed"):
        return 1
    threshold = acl.create_scalar(4.1, acl.ACL_FLOAT)
    value = acl.create_scalar(10.0, acl.ACL_FLOAT)
    if not check_ret(threshold is not None and value is not None, "aclCreateScalar failed"):
        return 1

    # 3. aclnnThreshold: out = self > threshold ? self : value
    ret = run_two_phases("aclnnThreshold",
                         lambda: aclnn.threshold_get_workspace_size(self_tensor, threshold, value, out),
                         aclnn.threshold, stream)
    if ret != 0 or print_result("result", out_device_addr, math.prod(out_shape)) != 0:
        return 1

    # 4. aclnnInplaceThreshold: self itself is rewritten
    ret = run_two_phases("aclnnInplaceThreshold",
                         lambda: aclnn.inplace_threshold_get_workspace_size(self_tensor, threshold, value),
                         aclnn.inplace_threshold, stream)
    if ret != 0 or print_result("inplace result", self_device_addr, math.prod(self_shape)) != 0:
        return 1

    # 5. release aclTensor and aclScalar, then device resources
    acl.destroy_tensor(self_tensor)
    acl.destroy_tensor(out)
    acl.destroy_scalar(threshold)
    acl.destroy_scalar(value)
    acl.rt.free(self_device_addr)
    acl.rt.free(out_device_addr)
    acl.rt.destroy_stream(stream)
    acl.rt.reset_device(device_id)
    acl.finalize()
    return 0


if __name__ == "__main__":
    sys.exit(main())
