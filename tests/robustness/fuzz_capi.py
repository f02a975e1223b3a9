"""The C ABI surface of the differential fuzz (tests/robustness/fuzz.py): a case under an ascend
semantics called again through the acl/aclnn C ABI (libascendcl.so loaded into the worker with
ctypes, as a C program calls it), generically from the API's declaration (AclnnApi.params):
tensors through aclCreateTensor (a view's own strides and a storage offset, so non-contiguous
inputs reach the aclnn layer as such), scalars through aclCreateScalar of the dtype the case's
value travels as (bool, int64 / uint64, float64, or a numpy scalar's own; in 3 of 10, any other
dtype that holds it exactly, the numpy API getting that typed value too), attrs as their C type,
the out tensor of the numpy API's dtype and shape (strided where the case asks for a strided
out=), both phases, a synchronize, the storage copied back. The result must be the numpy API's
bit for bit; where the numpy API refuses (TypeError / ValueError) the C ABI must refuse too (a
nonzero status at some step), and the other way round.

Device modes: the SoC and OPSNN_DEVICE_MODE are both read at aclInit, and an in-process
aclInit / aclFinalize costs ~40 us, so each case runs on its own init of the SoC its semantics
names (ascend910b -> Ascend910B2, ascend950 -> Ascend950) in a mode drawn per case: the emulator
(the AscendC kernels, Python per instruction) for half of the cases of up to EMULATED_MAX
elements, else fast (the numpy API's engine, the worker's OPSNN_FAST_ENGINE). Every worker thus
covers both modes on both SoCs, and each case starts clean: a leak (memory or streams left at
aclFinalize) is a failure of the case that left it.

`check(case, rng)` returns None (agrees, or not this surface's case), a problem, or a "known:"
label (one: an empty tensor in a dtype upstream's aclnn list has but no kernel here computes).
Where the C ABI cannot be built here (no C++ compiler, no shared libpython) the surface is
skipped: `prepare()` says so in one line, and check returns None."""
from __future__ import annotations

import ctypes

import numpy as np

KNOWN = "known:"
SIZE_MAX = 70_000  # elements: the C ABI's device memory is emulated, each case copies in and out
EMULATED_MAX = 2048  # elements: the emulator mode runs the AscendC kernel in Python
SOC = {"ascend910b": "Ascend910B2", "ascend950": "Ascend950"}  # docs/c-abi.md: OPSNN_SOC at aclInit
_I64P = ctypes.POINTER(ctypes.c_int64)
_ATTR_CTYPES = {"bool": ctypes.c_bool, "int64_t": ctypes.c_int64, "double": ctypes.c_double,
                "float": ctypes.c_float}
COUNTS: dict[str, int] = {}  # "<mode> result" / "<mode> refusal": the cases this process compared
_state: dict = {}  # "lib" (the CDLL, or None) and "why" (why not), found once per process


def _load():
    """The C ABI loaded into this process (built where it is missing or stale), or None and why."""
    if "lib" in _state:
        return _state["lib"]
    from opsnn.capi.build import BuildUnavailable, build
    try:
        path = build() / "libascendcl.so"
    except BuildUnavailable as e:
        _state.update(lib=None, why=str(e))
        return None
    lib = ctypes.CDLL(str(path))
    lib.aclGetRecentErrMsg.restype = ctypes.c_char_p
    lib.opsnnGetDeviceMode.restype = ctypes.c_char_p
    lib.aclrtGetSocName.restype = ctypes.c_char_p
    lib.aclCreateTensor.restype = ctypes.c_void_p
    lib.aclCreateTensor.argtypes = [_I64P, ctypes.c_uint64, ctypes.c_int, _I64P, ctypes.c_int64, ctypes.c_int, _I64P,
                                    ctypes.c_uint64, ctypes.c_void_p]
    lib.aclCreateScalar.restype = ctypes.c_void_p
    lib.aclCreateScalar.argtypes = [ctypes.c_void_p, ctypes.c_int]
    lib.aclDestroyTensor.argtypes = [ctypes.c_void_p]
    lib.aclDestroyScalar.argtypes = [ctypes.c_void_p]
    lib.aclrtMalloc.argtypes = [ctypes.POINTER(ctypes.c_void_p), ctypes.c_size_t, ctypes.c_int]
    lib.aclrtFree.argtypes = [ctypes.c_void_p]
    lib.aclrtMemcpy.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
    lib.aclrtSynchronizeStream.argtypes = [ctypes.c_void_p]
    lib.aclrtDestroyStream.argtypes = [ctypes.c_void_p]
    _state.update(lib=lib, why=None)
    return lib


def prepare() -> str:
    """Build (or find) the C ABI before the workers start, so that they never compile it at once;
    one line for the fuzz's output: the surface is on, or skipped and why."""
    if _load() is None:
        return f"capi surface: skipped, the C ABI cannot be built here ({_state['why']})"
    return "capi surface: on (libascendcl.so in-process, fast and emulator modes)"


def _api_and_args(case):
    """(AclnnApi, the numpy API's positional inputs in declaration order) of a case."""
    from opsnn.aclnn.declarations import all_apis
    if "api" in case:
        name, args = case["api"], list(case["args"])
    elif case["forward"]:
        name, args = "threshold", [case["grad"], case["threshold"], case["value"]]
    else:
        name, args = "threshold_backward", [case["grad"], case["feature"], case["threshold"]]
    api = next((a for a in all_apis() if a.numpy_api == name), None)
    return api, args


def scalar_dtype(value) -> str:
    """The aclScalar dtype a case's value travels as from C: a bool as BOOL, an integer as INT64
    (UINT64 above), a Python float as DOUBLE, a numpy scalar as its own dtype."""
    if isinstance(value, bool | np.bool_):
        return "bool"
    if isinstance(value, np.generic):
        return value.dtype.name
    if isinstance(value, int):
        return "int64" if value < 2**63 else "uint64"
    return "float64"


_INT_SCALARS = ("int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64")
_FLOAT_SCALARS = ("float16", "bfloat16", "float32", "float64")


def retype(value, rng):
    """`value` as a numpy scalar of another aclScalar dtype that holds it exactly (an integer as
    any integer type, a real as any float type), else unchanged: what a C program passes to
    aclCreateScalar varies, and the numpy API gets the same typed value."""
    from opsnn.dtypes import BY_NAME
    if isinstance(value, bool | np.bool_) or not isinstance(value, int | float | np.integer | np.floating):
        return value
    name = str(rng.choice(_INT_SCALARS if isinstance(value, int | np.integer) else _FLOAT_SCALARS))
    try:
        with np.errstate(all="ignore"):
            typed = np.array(value, BY_NAME[name])[()]
    except (OverflowError, ValueError):
        return value
    if isinstance(value, int | np.integer):
        return typed if int(typed) == int(value) else value
    return typed if float(typed) == float(value) or (np.isnan(float(typed)) and np.isnan(float(value))) else value


class _Call:
    """One case's device objects (buffers, tensors, scalars), all released by close()."""

    def __init__(self, lib, rng):
        self.lib, self.rng = lib, rng
        self.buffers: list[int] = []
        self.tensors: list[int] = []
        self.scalars: list[int] = []

    def malloc(self, nbytes: int) -> int:
        addr = ctypes.c_void_p()
        status = self.lib.aclrtMalloc(ctypes.byref(addr), max(nbytes, 1), 0)
        if status:
            raise RuntimeError(f"aclrtMalloc({nbytes}): {status}")
        self.buffers.append(addr.value)
        return addr.value

    def upload(self, storage: np.ndarray) -> int:
        addr = self.malloc(storage.nbytes)
        if storage.nbytes:
            status = self.lib.aclrtMemcpy(addr, storage.nbytes, storage.ctypes.data, storage.nbytes, 1)
            if status:
                raise RuntimeError(f"aclrtMemcpy host to device: {status}")
        return addr

    def tensor(self, shape, strides, offset: int, storage: np.ndarray, acl_dtype: int) -> tuple[int, int]:
        """(aclTensor handle or 0, device address) of a view onto `storage` uploaded."""
        addr = self.upload(storage)
        ndim = len(shape)
        dims = (ctypes.c_int64 * max(ndim, 1))(*shape)
        steps = (ctypes.c_int64 * max(ndim, 1))(*strides)
        store = (ctypes.c_int64 * 1)(storage.size)
        handle = self.lib.aclCreateTensor(dims, ndim, acl_dtype, steps, offset, 2, store, 1, addr)  # ACL_FORMAT_ND
        if handle:
            self.tensors.append(handle)
        return handle or 0, addr

    def input_tensor(self, a: np.ndarray, acl_dtype: int) -> int:
        """An aclTensor of the case's array: a view keeps its strides (in elements) over the span of
        memory it covers, behind a storage offset of 0-3 elements; negative strides, which
        aclCreateTensor refuses, are uploaded compact."""
        if any(s < 0 for s in a.strides) or a.size == 0:
            a = np.ascontiguousarray(a)
        item = a.dtype.itemsize
        view = not a.flags.c_contiguous
        strides = [s // item for s in a.strides] if view else _contiguous(a.shape)
        span = 0 if a.size == 0 else 1 + sum((d - 1) * s for d, s in zip(a.shape, strides, strict=True))
        offset = int(self.rng.integers(0, 4)) if view or self.rng.random() < 0.2 else 0
        storage = np.zeros((offset + span) * item, np.uint8).view(a.dtype)
        if span:
            source = (ctypes.c_uint8 * (span * item)).from_address(a.ctypes.data)
            storage.view(np.uint8)[offset * item:] = np.frombuffer(source, np.uint8)
        return self.tensor(a.shape, strides, offset, storage, _acl_dtype(a.dtype))[0]

    def scalar(self, value) -> int:
        name = scalar_dtype(value)
        from opsnn.dtypes import BY_NAME
        host = np.array(value, BY_NAME[name])
        handle = self.lib.aclCreateScalar(host.ctypes.data, _acl_dtype(host.dtype))
        if handle:
            self.scalars.append(handle)
        return handle or 0

    def close(self) -> None:
        for h in self.tensors:
            self.lib.aclDestroyTensor(h)
        for h in self.scalars:
            self.lib.aclDestroyScalar(h)
        for addr in self.buffers:
            self.lib.aclrtFree(addr)


def _contiguous(shape) -> list[int]:
    strides, step = [], 1
    for d in reversed(shape):
        strides.append(step)
        step *= max(d, 1)
    return strides[::-1]


def _acl_dtype(dtype) -> int:
    from opsnn.acl.constants import acl_data_type_of
    return acl_data_type_of(dtype)


def _message(lib) -> str:
    text = lib.aclGetRecentErrMsg()
    return text.decode(errors="replace").splitlines()[0][:160] if text else ""


def run_c(lib, api, args, out_shape, out_dtype, strided_out: bool, rng) -> tuple[bool, object]:
    """(True, the result array) or (False, 'status N at <step>: message') of `api` on `args`
    through the C ABI, on the device and stream the caller opened."""
    call = _Call(lib, rng)
    stream = _state["stream"]
    try:
        handles, values = [], iter(args)
        out_storage = out_addr = None
        for p in api.params:
            if p.kind == "out":
                shape = tuple(out_shape)
                strided = strided_out and len(shape) > 0 and int(np.prod(shape)) > 0
                full = shape[:-1] + (2 * shape[-1],) if strided else shape
                strides = _contiguous(full)
                if strided:
                    strides[-1] = 2
                # a pattern the result must overwrite everywhere it says (0xA5 in every byte)
                out_storage = np.full(int(np.prod(full, dtype=np.int64)) * np.dtype(out_dtype).itemsize, 0xA5,
                                      np.uint8).view(out_dtype).reshape(full)
                handle, out_addr = call.tensor(shape, strides, 0, out_storage.reshape(-1), _acl_dtype(out_dtype))
                if not handle:
                    return False, f"aclCreateTensor(out) NULL: {_message(lib)}"
                handles.append(ctypes.c_void_p(handle))
                continue
            value = next(values)
            if p.kind == "tensor":
                handle = call.input_tensor(np.asarray(value), _acl_dtype(np.asarray(value).dtype))
                if not handle:
                    return False, f"aclCreateTensor({p.name}) NULL: {_message(lib)}"
                handles.append(ctypes.c_void_p(handle))
            elif p.kind == "scalar":
                handle = call.scalar(value)
                if not handle:
                    return False, f"aclCreateScalar({p.name}) NULL: {_message(lib)}"
                handles.append(ctypes.c_void_p(handle))
            elif p.kind == "attr":
                handles.append(_ATTR_CTYPES[p.c_type](value))
            else:  # a kind the fuzz's cases never declare (tensor lists, int arrays, in-place)
                raise NotImplementedError(f"{api.name}: parameter kind {p.kind}")
        size, executor = ctypes.c_uint64(), ctypes.c_void_p()
        status = getattr(lib, api.phase1_name)(*handles, ctypes.byref(size), ctypes.byref(executor))
        if status:
            return False, f"status {status} at {api.phase1_name}: {_message(lib)}"
        workspace = call.malloc(size.value) if size.value else None
        status = getattr(lib, api.name)(ctypes.c_void_p(workspace), size, executor, stream)
        if status:
            return False, f"status {status} at {api.name}: {_message(lib)}"
        status = lib.aclrtSynchronizeStream(stream)
        if status:
            return False, f"status {status} at aclrtSynchronizeStream: {_message(lib)}"
        if out_storage.nbytes:
            status = lib.aclrtMemcpy(out_storage.ctypes.data, out_storage.nbytes, out_addr, out_storage.nbytes, 2)
            if status:
                return False, f"status {status} at aclrtMemcpy device to host: {_message(lib)}"
        return True, out_storage[..., ::2] if out_storage.shape != tuple(out_shape) else out_storage
    finally:
        call.close()


def _bits(a: np.ndarray) -> np.ndarray:
    a = np.ascontiguousarray(a)
    return a.reshape(-1).view(f"u{a.dtype.itemsize}") if a.dtype.itemsize in (1, 2, 4, 8) else a.view(np.uint8)


def _guess_out(args):
    """The out tensor handed to the C ABI where the numpy API refuses (the C ABI must refuse too):
    the tensors' broadcast shape (else the first's) and the first tensor's dtype."""
    tensors = [np.asarray(a) for a in args if isinstance(a, np.ndarray)]
    try:
        shape = np.broadcast_shapes(*(t.shape for t in tensors))
    except ValueError:
        shape = tensors[0].shape
    return shape, tensors[0].dtype


def _open(lib, soc: str, mode: str) -> str | None:
    """aclInit on `soc` in `mode`, device 0 and a stream (kept in _state); a problem, or None."""
    import os
    # OPSNN_SANITIZE=1 would force the emulator: a process that loaded a C++ operator folder
    # (opsnn.host.operator) sets it for its children.
    saved = {k: os.environ.get(k) for k in ("OPSNN_SOC", "OPSNN_DEVICE_MODE", "OPSNN_SANITIZE")}
    os.environ.update(OPSNN_SOC=soc, OPSNN_DEVICE_MODE=mode, OPSNN_SANITIZE="")
    try:
        status = lib.aclInit(None)
    finally:
        for k, v in saved.items():
            os.environ.pop(k) if v is None else os.environ.__setitem__(k, v)
    if status:
        return f"aclInit ({soc}, {mode}): status {status}: {_message(lib)}"
    stream = ctypes.c_void_p()
    if lib.aclrtSetDevice(0) or lib.aclrtCreateStream(ctypes.byref(stream)):
        lib.aclFinalize()
        return f"aclrtSetDevice / aclrtCreateStream: {_message(lib)}"
    if (lib.aclrtGetSocName() or b"").decode() != soc or (lib.opsnnGetDeviceMode() or b"").decode() != mode:
        _close(lib, stream)
        return f"aclInit did not take OPSNN_SOC={soc} OPSNN_DEVICE_MODE={mode}"
    _state["stream"] = stream
    return None


def _close(lib, stream) -> str | None:
    """Stream, device and acl released; a leak aclFinalize found is a problem."""
    from opsnn import acl
    lib.aclrtDestroyStream(stream)
    lib.aclrtResetDevice(0)
    status = lib.aclFinalize()
    leaks = acl.rt.DEFAULT_RUNTIME.leak_report
    if status or leaks:
        return f"aclFinalize: status {status}, leaked: {'; '.join(leaks)}"
    return None


def check(case, rng) -> str | None:
    if case["semantics"] not in SOC:  # the C ABI runs the SoC's semantics only
        return None
    api, args = _api_and_args(case)
    if api is None or not all(p.kind in ("tensor", "scalar", "attr", "out") for p in api.params):
        return None
    size = max((np.size(a) for a in args if isinstance(a, np.ndarray)), default=0)
    if size > SIZE_MAX:
        return None
    lib = _load()
    if lib is None:
        return None
    import opsnn
    args = [retype(a, rng) if p.kind == "scalar" and rng.random() < 0.3 else a
            for p, a in zip(api.inputs, args, strict=True)]
    mode = "emulator" if size <= EMULATED_MAX and rng.random() < 0.5 else "fast"
    strided_out = case.get("out") == "strided"
    try:
        want, ok = getattr(opsnn, api.numpy_api)(*args, semantics=case["semantics"]), True
    except (TypeError, ValueError) as e:
        want, ok = e, False
    out_shape, out_dtype = (want.shape, want.dtype) if ok else _guess_out(args)
    problem = _open(lib, SOC[case["semantics"]], mode)
    if problem:
        return f"C ABI: {problem}"
    try:
        got_ok, got = run_c(lib, api, args, out_shape, out_dtype, strided_out, rng)
    finally:
        leak = _close(lib, _state.pop("stream"))
    key = f"{mode} {'result' if ok else 'refusal'}"
    COUNTS[key] = COUNTS.get(key, 0) + 1
    where = f"C ABI {api.name} ({mode} mode, {SOC[case['semantics']]})"
    if got_ok and not ok and size == 0 and isinstance(want, TypeError):
        # aclnn checks the dtype against the API's list, in which upstream has dtypes opsnn builds
        # no kernel for (docs/selu-grad.md: int32/int8); empty, nothing is launched: a result. The
        # numpy API refuses a dtype it cannot compute whatever the size, as numpy's ufuncs do.
        return f"{KNOWN}{api.name} empty {out_dtype}: in aclnn's list, nothing to launch; no kernel: the numpy " \
               "API refuses"
    if got_ok != ok:
        return f"{where}: {'a result' if got_ok else got}; numpy API: " \
               f"{'a result' if ok else type(want).__name__ + ': ' + str(want)[:160]}"
    if leak:
        return f"{where}: {leak}"
    if ok and not np.array_equal(_bits(got), _bits(want)):
        differ = np.flatnonzero(_bits(got) != _bits(want))
        i = int(differ[0])
        return f"{where}: {differ.size} of {want.size} elements differ from the numpy API's; first at flat " \
               f"index {i}: {got.reshape(-1)[i]!r} against {want.reshape(-1)[i]!r}"
    return None
