"""A device to run any operator's aclnn calls on in tests: a private acl runtime, tensors from
numpy arrays (dense or strided over a storage array), reading tensors back, both phases, and a
leak check at close. Each operator's op_api tests subclass it with their API's calls."""
from __future__ import annotations

import math

import numpy as np
from numpy.lib.stride_tricks import as_strided

from opsnn import acl


class Device:
    def __init__(self, soc: str = "Ascend910B2"):
        self.runtime = acl.Runtime()
        assert self.runtime.init(soc) == 0
        assert self.runtime.set_device(0) == 0
        self.context, _ = acl.rt.get_context()
        self.stream, ret = self.runtime.create_stream()
        assert ret == 0
        self._ptrs: list[int] = []
        self._objects: list = []

    def use(self) -> None:
        """Make this device the thread's current one (aclrtSetCurrentContext): a test may hold two."""
        assert acl.rt.set_context(self.context) == 0

    # -- memory and tensors ------------------------------------------------------------------

    def malloc(self, nbytes: int) -> int:
        self.use()
        ptr, ret = self.runtime.malloc(nbytes, acl.ACL_MEM_MALLOC_HUGE_FIRST)
        assert ret == 0, acl.get_recent_err_msg()
        self._ptrs.append(ptr)
        return ptr

    def upload_storage(self, storage: np.ndarray) -> int:
        storage = np.ascontiguousarray(storage)
        if storage.nbytes == 0:
            return 0
        ptr = self.malloc(storage.nbytes)
        assert self.runtime.memcpy(ptr, storage.nbytes, acl.util.numpy_to_ptr(storage), storage.nbytes,
                                   acl.ACL_MEMCPY_HOST_TO_DEVICE) == 0
        return ptr

    def tensor(self, array: np.ndarray, dtype=None):
        """A dense tensor holding `array` (dtype: an aclDataType overriding the array's)."""
        array = np.asarray(array)
        ptr = self.upload_storage(array)
        data_type = acl.acl_data_type_of(array.dtype) if dtype is None else dtype
        t = acl.create_tensor(array.shape, data_type, None, 0, acl.ACL_FORMAT_ND, array.shape, ptr)
        assert t is not None
        self._objects.append(t)
        return t

    def strided(self, storage: np.ndarray, shape, strides, offset: int):
        """A view (shape, element strides, element offset) over a 1-d `storage` array."""
        storage = np.ascontiguousarray(storage).reshape(-1)
        ptr = self.upload_storage(storage)
        t = acl.create_tensor(tuple(shape), acl.acl_data_type_of(storage.dtype), tuple(strides), offset,
                              acl.ACL_FORMAT_ND, (storage.size,), ptr)
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

    # -- the two phases ----------------------------------------------------------------------

    def run(self, phase1_result, phase2, sync: bool = True) -> int:
        """Phase 2 (and a synchronize) after a phase 1's (workspace_size, executor, status): the
        first non-zero status of phase 1, phase 2 or the synchronize."""
        ws, executor, ret = phase1_result
        if ret:
            return ret
        ret = phase2(self.malloc(ws) if ws else 0, ws, executor, self.stream)
        if ret or not sync:
            return ret
        return self.runtime.synchronize_stream(self.stream)

    def close(self) -> list[str]:
        self.use()
        for obj in self._objects:
            (acl.destroy_tensor if isinstance(obj, acl.AclTensor) else acl.destroy_scalar)(obj)
        for ptr in self._ptrs:
            assert self.runtime.free(ptr) == 0
        assert self.runtime.destroy_stream(self.stream) == 0
        assert self.runtime.reset_device(0) == 0
        assert self.runtime.finalize() == 0
        return self.runtime.leak_report


def bits(a: np.ndarray) -> np.ndarray:
    """The raw bits, so that NaN == NaN and -0.0 != +0.0 in comparisons."""
    a = np.ascontiguousarray(a)
    return a.view({1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}[a.itemsize])


def device_fixtures(device_cls=Device):
    """The op_api tests' pytest fixtures for a Device subclass, for a conftest to bind:
    `dev, dev950, any_dev = device_fixtures(Device)`. dev is an Ascend910B2, dev950 an Ascend950,
    any_dev each in turn; every one checks at teardown that the test leaked no device resource."""
    import pytest  # here: the package itself never needs it

    def device(soc):
        d = device_cls(soc)
        yield d
        assert d.close() == [], "the test leaked device resources"

    @pytest.fixture
    def dev():
        yield from device("Ascend910B2")

    @pytest.fixture
    def dev950():
        yield from device("Ascend950")

    @pytest.fixture(params=["Ascend910B2", "Ascend950"])
    def any_dev(request):
        yield from device(request.param)

    return dev, dev950, any_dev
