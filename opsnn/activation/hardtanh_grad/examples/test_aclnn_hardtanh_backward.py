"""aclnnHardtanhBackward example, the way an Ascend developer writes it (upstream's
examples/test_aclnn_hardtanh_grad.cpp): init the device, build gradOutput, self and out and the two
bound scalars, the two phases, synchronize, copy the result back, release.

gradOutput [0..7], self [1, 1, 1, 2, 1, 2, 3, 3] ({4, 2} float32), min 1.2, max 2.4: only self = 2
lies inside (1.2, 2.4) -> [0, 0, 0, 3, 0, 5, 0, 0]. Run it with `opsnn example hardtanh_grad`
(SoC: $OPSNN_SOC, else Ascend910B2)."""
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
    """A device buffer filled from host_data and a row-major aclTensor over it: (device_addr, tensor, ret)."""
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

    # 2. gradOutput, self and out {4, 2} float32; the bounds as float scalars
    shape = [4, 2]
    grad_output_host = np.arange(8, dtype=np.float32)
    self_host = np.array([1, 1, 1, 2, 1, 2, 3, 3], dtype=np.float32)
    out_host = np.zeros(8, dtype=np.float32)
    grad_output_addr, grad_output, ret = create_acl_tensor(grad_output_host, shape, acl.ACL_FLOAT)
    if not check_ret(ret == acl.ACL_SUCCESS, "create gradOutput failed"):
        return 1
    self_addr, self_tensor, ret = create_acl_tensor(self_host, shape, acl.ACL_FLOAT)
    if not check_ret(ret == acl.ACL_SUCCESS, "create self failed"):
        return 1
    out_addr, out, ret = create_acl_tensor(out_host, shape, acl.ACL_FLOAT)
    if not check_ret(ret == acl.ACL_SUCCESS, "create out failed"):
        return 1
    min_value = acl.create_scalar(1.2, acl.ACL_FLOAT)
    max_value = acl.create_scalar(2.4, acl.ACL_FLOAT)
    if not check_ret(min_value is not None and max_value is not None, "aclCreateScalar failed"):
        return 1

    # 3. phase 1: the workspace size and the executor
    workspace_size, executor, ret = aclnn.hardtanh_backward_get_workspace_size(
        grad_output, self_tensor, min_value, max_value, out)
    if not check_ret(ret == aclnn.ACLNN_SUCCESS, f"aclnnHardtanhBackwardGetWorkspaceSize failed. ERROR: {ret} "
                                                 f"{aclnn.get_recent_err_msg()}"):
        return 1
    workspace_addr = 0
    if workspace_size > 0:
        workspace_addr, ret = acl.rt.malloc(workspace_size, acl.ACL_MEM_MALLOC_HUGE_FIRST)
        if not check_ret(ret == acl.ACL_SUCCESS, f"allocate workspace failed. ERROR: {ret}"):
            return 1

    # 4. phase 2 on the stream, then wait for it
    ret = aclnn.hardtanh_backward(workspace_addr, workspace_size, executor, stream)
    if not check_ret(ret == aclnn.ACLNN_SUCCESS, f"aclnnHardtanhBackward failed. ERROR: {ret} "
                                                 f"{aclnn.get_recent_err_msg()}"):
        return 1
    ret = acl.rt.synchronize_stream(stream)
    if not check_ret(ret == acl.ACL_SUCCESS, f"aclrtSynchronizeStream failed. ERROR: {ret}"):
        return 1

    # 5. the result back to the host
    result = np.zeros(8, dtype=np.float32)
    ret = acl.rt.memcpy(acl.util.numpy_to_ptr(result), result.nbytes, out_addr, result.nbytes,
                        acl.ACL_MEMCPY_DEVICE_TO_HOST)
    if not check_ret(ret == acl.ACL_SUCCESS, f"copy result from device to host failed. ERROR: {ret}"):
        return 1
    for i, value in enumerate(result):
        print(f"result[{i}] is: {value:f}")

    # 6. release the tensors, the scalars, the buffers, then the device
    for tensor in (grad_output, self_tensor, out):
        acl.destroy_tensor(tensor)
    acl.destroy_scalar(min_value)
    acl.destroy_scalar(max_value)
    for addr in (grad_output_addr, self_addr, out_addr):
        acl.rt.free(addr)
    if workspace_size > 0:
        acl.rt.free(workspace_addr)
    acl.rt.destroy_stream(stream)
    acl.rt.reset_device(device_id)
    acl.finalize()
    return 0


if __name__ == "__main__":
    sys.exit(main())
