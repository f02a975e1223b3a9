"""A device for aclnnThreshold tests: a private acl runtime, tensors from numpy arrays (dense or
strided over a storage array), reading them back, both phases, and a leak check at close."""
from __future__ import annotations

import math

import numpy as np
from numpy.lib.stride_tricks import as_strided

from opsnn import acl, aclnn


class Device:
    def __init__(self, soc: str):
        self.runtime = acl.Runtime()
        assert self.runtime.init(soc) == 0 and self.runtime.set_device(0) == 0
        self.context, _ = acl.rt.get_context()
        self.stream, ret = self.runtime.create_stream()
        assert ret == 0
        self._ptrs: list[int] = []
        self._objects: list = []

    def use(self) -> None:
        assert acl.rt.set_context(self.context) == 0

    def malloc(self, nbytes: int) -> int:
        self.use()
        ptr, ret = self.runtime.malloc(nbytes, acl.ACL_MEM_MALLOC_HUGE_FIRST)
        assert ret == 0, acl.get_recent_err_msg()
        self._ptrs.append(ptr)
        return ptr

    def _upload(self, storage: np.ndarray) -> int:
        storage = np.ascontiguousarray(storage)
        if storage.nbytes == 0:
            return 0
        ptr = self.malloc(storage.nbytes)
        assert self.runtime.memcpy(ptr, storage.nbytes, acl.util.numpy_to_ptr(storage), storage.nbytes,
                                   acl.ACL_MEMCPY_HOST_TO_DEVICE) == 0
        return ptr

    def tensor(self, array, data_type=None):
        """A dense tensor holding `array` (data_type: an aclDataType overriding the array's)."""
        array = np.asarray(array)
        dt = acl.acl_data_type_of(array.dtype) if data_type is None else data_type
        t = acl.create_tensor(array.shape, dt, None, 0, acl.ACL_FORMAT_ND, array.shape, self._upload(array))
        assert t is not None
        self._objects.append(t)
        return t

    def strided(self, storage: np.ndarray, shape, strides, offset: int):
        storage = np.ascontiguousarray(storage).reshape(-1)
        t = acl.create_tensor(tuple(shape), acl.acl_data_type_of(storage.dtype), tuple(strides), offset,
                              acl.ACL_FORMAT_ND, (storage.size,), self._upload(storage))
        assert t is not None
        self._objects.append(t)
        return t

    def empty(self, shape, dtype, fill=0):
        return self.tensor(np.full(shape, fill, dtype=dtype))

    def scalar(self, value, data_type=acl.ACL_FLOAT):
        s = acl.create_scalar(value, data_type)
        assert s is not None
        self._objects.append(s)
        return s

    def read_storage(self, t) -> np.ndarray:
        self.use()
        storage = np.zeros(math.prod(t.storage_dims), dtype=t.numpy_dtype)
        if storage.nbytes:
            assert self.runtime.memcpy(acl.util.numpy_to_ptr(storage), storage.nbytes, t.data_ptr, storage.nbytes,
                                       acl.ACL_MEMCPY_DEVICE_TO_HOST) == 0
        return storage

    def read(self, t) -> np.ndarray:
        """The tensor's view, as a fresh numpy array."""
        storage = self.read_storage(t)
        if t.numel == 0:
            return np.zeros(t.view_dims, t.numpy_dtype)
        item = storage.itemsize
        return np.array(as_strided(storage[t.offset:], t.view_dims, tuple(s * item for s in t.strides)))

    def run(self, phase1_result, phase2) -> int:
        """Phase 2 and a synchronize after a phase-1 (ws, executor, ret); the first non-zero status."""
        ws, executor, ret = phase1_result
        if ret:
            return ret
        ret = phase2(self.malloc(ws) if ws else 0, ws, executor, self.stream)
        return ret or self.runtime.synchronize_stream(self.stream)

    def threshold(self, x, t, v, out) -> int:
        self.use()
        return self.run(aclnn.threshold_get_workspace_size(x, t, v, out), aclnn.threshold)

    def inplace_threshold(self, x, t, v) -> int:
        self.use()
        return self.run(aclnn.inplace_threshold_get_workspace_size(x, t, v), aclnn.inplace_threshold)

    def close(self) -> list[str]:
        self.use()
        for obj in self._objects:
            (acl.destroy_tensor if isinstance(obj, acl.AclTensor) else acl.destroy_scalar)(obj)
        for ptr in self._ptrs:
            assert self.runtime.free(ptr) == 0
        assert self.runtime.destroy_stream(self.stream) == 0
        assert self.runtime.reset_device(0) == 0 and self.runtime.finalize() == 0
        return self.runtime.leak_report
