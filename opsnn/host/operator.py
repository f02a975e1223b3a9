"""A C++ operator folder from Python: its op_host, op_api (and the operators it reaches) built into
a shared library against the host twin, loaded into this process, and its aclnn API called on
numpy arrays through ctypes, both phases, on the emulator (docs/cpp-operators.md).

    from opsnn.host.operator import load_operator
    op = load_operator("ops-nn/experimental/activation/threshold_grad_v2_d")
    out = op.call("aclnnThresholdBackward", grad, x, np.float32(1.0), np.empty_like(x))

The arguments follow the C declaration of `<api>GetWorkspaceSize` in the folder's aclnn header,
in order, without workspaceSize and executor: an array for each aclTensor (None for a NULL
optional one; its contents are copied to the device), a numpy scalar or a Python number for an
aclScalar (its dtype is the scalar's: np.float16(1) is an ACL_FLOAT16 scalar, a Python float
ACL_DOUBLE), a sequence of ints for an aclIntArray, a number or bool for a plain C parameter.
An output (a non-const aclTensor *) is given as an array of the shape and dtype the result has;
it is not written: the results come back as new arrays (one, or a tuple in declaration order).
Inputs are never modified. A failure of either phase (or of the stream's work: the kernel's
launch, a sanitizer finding) raises OperatorError with the status and the runtime's message,
which names the layer, file and line.

One process holds one emulated device: the SoC and the sanitizer setting of the first load stay
for every operator loaded after it (ValueError for another)."""
from __future__ import annotations

import ctypes
import os
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from opsnn.acl.constants import acl_data_type_of

from . import kernels
from .op_build import BuildStats, OperatorBuild
from .op_folder import OperatorFolder, is_operator_folder

# parameter kinds, as opsnn.aclnn.signature names them
TENSOR, OUT, REF, SCALAR, INT_ARRAY, ATTR = "tensor", "out", "ref", "scalar", "int_array", "attr"
_C_ATTRS = {"bool": ctypes.c_bool, "int64_t": ctypes.c_int64, "int32_t": ctypes.c_int32, "double": ctypes.c_double,
            "float": ctypes.c_float, "int8_t": ctypes.c_int8, "uint64_t": ctypes.c_uint64, "char *": ctypes.c_char_p}
_ACL_MEMCPY_HOST_TO_DEVICE, _ACL_MEMCPY_DEVICE_TO_HOST = 1, 2
_ACL_FORMAT_ND = 2


class OperatorError(RuntimeError):
    """An aclnn call that failed: its status and the runtime's message (aclGetRecentErrMsg), which
    names the failing layer (op_api, op_host tiling, op_kernel), its file and line."""

    def __init__(self, api: str, step: str, status: int, message: str):
        self.api, self.step, self.status, self.message = api, step, status, message
        super().__init__(f"{api}: {step} returned {status}" + (f": {message}" if message else ""))


@dataclass(frozen=True)
class CParam:
    name: str
    kind: str
    c_type: str = ""  # ATTR only


@dataclass(frozen=True)
class CApi:
    """One aclnn API as its header declares phase 1 (workspaceSize and executor left out)."""
    name: str
    params: tuple[CParam, ...]
    header: Path

    @property
    def inputs(self) -> tuple[CParam, ...]:
        return tuple(p for p in self.params if p.kind != OUT)


_PHASE1 = re.compile(r'aclnnStatus\s+(aclnn\w+?)GetWorkspaceSize\s*\(([^)]*)\)', re.S)


def parse_header(path: Path) -> list[CApi]:
    """The aclnn APIs an op_api header declares (ValueError for a parameter type opsnn cannot pass).

    Which tensors are outputs follows upstream's convention rather than const-ness, which its
    headers do not keep (aclnnRelu declares `const aclTensor *out`): a non-const aclTensor * is an
    output; where none is, the last parameter is, when it is a tensor. In an in-place API
    (aclnnInplace*) the written tensor is read too."""
    text = re.sub(r'//[^\n]*|/\*.*?\*/', " ", Path(path).read_text(errors="replace"), flags=re.S)
    apis = []
    for m in _PHASE1.finditer(text):
        name = m.group(1)
        raw = []
        for decl in (p.strip() for p in m.group(2).split(",")):
            words = re.sub(r'\s*\*\s*', " * ", decl).split()
            if words[-1] not in ("workspaceSize", "executor"):
                raw.append((words[-1], " ".join(words[:-1])))
        declared = any(ctype == "aclTensor *" for _, ctype in raw)  # a non-const tensor names the written one
        params = [CParam(n, *_kind(ctype, n, name, last=k == len(raw) - 1 and not declared))
                  for k, (n, ctype) in enumerate(raw)]
        apis.append(CApi(name, tuple(params), Path(path)))
    return apis


def _kind(ctype: str, name: str, api: str, last: bool) -> tuple[str, str]:
    const = ctype.startswith("const ")
    base = ctype.removeprefix("const ").strip()
    if base == "aclTensor *":
        written = not const or last
        if not written:
            return TENSOR, ""
        return (REF, "") if "Inplace" in api or name.endswith("Ref") else (OUT, "")
    if base == "aclScalar *":
        return SCALAR, ""
    if base == "aclIntArray *":
        return INT_ARRAY, ""
    if base in _C_ATTRS:
        return ATTR, base
    raise ValueError(f"{api}: parameter {name} of type {ctype!r} cannot be passed from Python")


class _Runtime:
    """This process's emulated device: aclInit, device 0, one stream (made on the first load)."""

    def __init__(self, lib: ctypes.PyDLL, soc: str, sanitize: bool):
        self.lib, self.soc, self.sanitize = lib, soc, sanitize
        c = ctypes
        sig = {"aclInit": ([c.c_char_p], c.c_int), "aclrtSetDevice": ([c.c_int32], c.c_int),
               "aclrtCreateStream": ([c.POINTER(c.c_void_p)], c.c_int),
               "aclrtSynchronizeStream": ([c.c_void_p], c.c_int),
               "aclrtMalloc": ([c.POINTER(c.c_void_p), c.c_size_t, c.c_int], c.c_int),
               "aclrtFree": ([c.c_void_p], c.c_int),
               "aclrtMemcpy": ([c.c_void_p, c.c_size_t, c.c_void_p, c.c_size_t, c.c_int], c.c_int),
               "aclCreateTensor": ([c.POINTER(c.c_int64), c.c_uint64, c.c_int, c.POINTER(c.c_int64), c.c_int64,
                                    c.c_int, c.POINTER(c.c_int64), c.c_uint64, c.c_void_p], c.c_void_p),
               "aclCreateScalar": ([c.c_void_p, c.c_int], c.c_void_p),
               "aclCreateIntArray": ([c.POINTER(c.c_int64), c.c_uint64], c.c_void_p),
               "aclDestroyTensor": ([c.c_void_p], c.c_int), "aclDestroyScalar": ([c.c_void_p], c.c_int),
               "aclDestroyIntArray": ([c.c_void_p], c.c_int), "aclGetRecentErrMsg": ([], c.c_char_p)}
        for name, (args, res) in sig.items():
            fn = getattr(lib, name)
            fn.argtypes, fn.restype = args, res
        self.check("aclInit", lib.aclInit(None))
        self.check("aclrtSetDevice", lib.aclrtSetDevice(0))
        self.stream = ctypes.c_void_p()
        self.check("aclrtCreateStream", lib.aclrtCreateStream(ctypes.byref(self.stream)))

    def message(self) -> str:
        text = self.lib.aclGetRecentErrMsg()
        return text.decode(errors="replace") if text else ""

    def check(self, what: str, status: int, api: str = "acl") -> None:
        if status != 0:
            raise OperatorError(api, what, status, self.message())


_RUNTIME: list[_Runtime] = []


class CppOperator:
    """A loaded operator folder: its aclnn APIs (`apis`), callable with `call`."""

    def __init__(self, build: OperatorBuild, library: Path, stats: BuildStats):
        self.build, self.library, self.stats = build, library, stats
        self.lib = ctypes.PyDLL(str(library), mode=os.RTLD_LOCAL)  # keeps the GIL: the runtime calls Python
        self.apis: dict[str, CApi] = {}
        for f in build.folders[:1]:
            for header in f.aclnn_headers():
                for api in parse_header(header):
                    self.apis.setdefault(api.name, api)

    @property
    def runtime(self) -> _Runtime:
        return _RUNTIME[0]

    def api(self, name: str) -> CApi:
        """The API named `name` (exact, else the one with the same name ignoring case and the
        aclnn prefix, as ATK files spell them); KeyError listing the folder's APIs."""
        if name in self.apis:
            return self.apis[name]
        key = name.lower().removeprefix("aclnn")
        alike = [a for n, a in self.apis.items() if n.lower().removeprefix("aclnn") == key]
        if len(alike) == 1:
            return alike[0]
        raise KeyError(f"{self.build.folder.name} declares no {name}; its APIs: {', '.join(self.apis) or 'none'}")

    def call(self, api_name: str, *args):
        """Both phases of `api_name` on the arguments (see the module's doc); the outputs as new
        arrays. OperatorError for a failing status; TypeError / ValueError for arguments that do
        not fit the declaration."""
        api = self.api(api_name)
        if len(args) != len(api.params):
            raise TypeError(f"{api.name} takes {len(api.params)} arguments "
                            f"({', '.join(p.name for p in api.params)}), got {len(args)}")
        rt, keep, cleanup, outs = self.runtime, [], [], []
        try:
            c_args = [self._argument(p, a, keep, cleanup, outs) for p, a in zip(api.params, args, strict=True)]
            ws_size, executor = ctypes.c_uint64(0), ctypes.c_void_p()
            phase1 = getattr(self.lib, f"{api.name}GetWorkspaceSize")
            phase1.restype = ctypes.c_int
            status = phase1(*c_args, ctypes.byref(ws_size), ctypes.byref(executor))
            rt.check(f"{api.name}GetWorkspaceSize", status, api.name)
            workspace = ctypes.c_void_p()
            if ws_size.value:
                rt.check("aclrtMalloc", rt.lib.aclrtMalloc(ctypes.byref(workspace), ws_size.value, 0), api.name)
                cleanup.append((rt.lib.aclrtFree, workspace))
            phase2 = getattr(self.lib, api.name)
            phase2.argtypes = [ctypes.c_void_p, ctypes.c_uint64, ctypes.c_void_p, ctypes.c_void_p]
            phase2.restype = ctypes.c_int
            rt.check(api.name, phase2(workspace, ws_size, executor, rt.stream), api.name)
            rt.check("aclrtSynchronizeStream", rt.lib.aclrtSynchronizeStream(rt.stream), api.name)
            results = []
            for device, like in outs:
                host = np.empty(like.shape, like.dtype)
                if host.nbytes:
                    rt.check("aclrtMemcpy", rt.lib.aclrtMemcpy(host.ctypes.data, host.nbytes, device, host.nbytes,
                                                               _ACL_MEMCPY_DEVICE_TO_HOST), api.name)
                results.append(host)
            return results[0] if len(results) == 1 else tuple(results)
        finally:
            for fn, handle in reversed(cleanup):
                fn(handle)

    def _argument(self, p: CParam, value, keep: list, cleanup: list, outs: list):
        rt = self.runtime
        if p.kind in (TENSOR, OUT, REF):
            if value is None:
                if p.kind != TENSOR:
                    raise TypeError(f"{p.name}: an output needs an array (its shape and dtype), got None")
                return None
            if not isinstance(value, np.ndarray):
                raise TypeError(f"{p.name}: expected a numpy array, got {type(value).__name__}")
            host = value if value.flags.c_contiguous else value.copy()  # (ascontiguousarray makes 0-d 1-d)
            device = ctypes.c_void_p()
            rt.check("aclrtMalloc", rt.lib.aclrtMalloc(ctypes.byref(device), max(host.nbytes, 1), 0), p.name)
            cleanup.append((rt.lib.aclrtFree, device))
            if host.nbytes:
                rt.check("aclrtMemcpy", rt.lib.aclrtMemcpy(device, host.nbytes, host.ctypes.data, host.nbytes,
                                                           _ACL_MEMCPY_HOST_TO_DEVICE), p.name)
            dims = (ctypes.c_int64 * max(host.ndim, 1))(*host.shape)
            strides = (ctypes.c_int64 * max(host.ndim, 1))(*(s // host.itemsize for s in host.strides))
            keep += [dims, strides]
            handle = rt.lib.aclCreateTensor(dims, host.ndim, acl_data_type_of(host.dtype), strides, 0, _ACL_FORMAT_ND,
                                            dims, host.ndim, device)
            if not handle:
                raise OperatorError(p.name, "aclCreateTensor", -1, rt.message())
            cleanup.append((rt.lib.aclDestroyTensor, ctypes.c_void_p(handle)))
            if p.kind != TENSOR:
                outs.append((device, host))
            return ctypes.c_void_p(handle)
        if p.kind == SCALAR:
            scalar = _scalar(value, p.name)
            keep.append(scalar)
            handle = rt.lib.aclCreateScalar(scalar.ctypes.data, acl_data_type_of(scalar.dtype))
            if not handle:
                raise OperatorError(p.name, "aclCreateScalar", -1, rt.message())
            cleanup.append((rt.lib.aclDestroyScalar, ctypes.c_void_p(handle)))
            return ctypes.c_void_p(handle)
        if p.kind == INT_ARRAY:
            values = [int(v) for v in value]
            array = (ctypes.c_int64 * max(len(values), 1))(*values)
            keep.append(array)
            handle = rt.lib.aclCreateIntArray(array, len(values))
            cleanup.append((rt.lib.aclDestroyIntArray, ctypes.c_void_p(handle)))
            return ctypes.c_void_p(handle)
        if p.c_type == "char *":
            return ctypes.c_char_p(value.encode() if isinstance(value, str) else value)
        return _C_ATTRS[p.c_type](value)


def _scalar(value, name: str) -> np.ndarray:
    """A one-element array holding the scalar in its own dtype (a Python number: bool, int64, float64)."""
    if isinstance(value, np.generic):
        return np.array([value], dtype=value.dtype)
    if isinstance(value, bool):
        return np.array([value], dtype=np.bool_)
    if isinstance(value, int):
        return np.array([value], dtype=np.int64)
    if isinstance(value, float):
        return np.array([value], dtype=np.float64)
    raise TypeError(f"{name}: expected a number or a numpy scalar, got {type(value).__name__}")


def load_operator(op_dir: str | os.PathLike, soc: str = "Ascend910B2", sanitize: bool = True,
                  verbose: bool = False) -> CppOperator:
    """Build (or reuse the cached build of) the operator folder's op_host and op_api, and those of
    the operators its op_api reaches, into a shared library; load it; start this process's device
    on the first load (which sets OPSNN_SOC, OPSNN_UT_SOC, OPSNN_UT_SANITIZE and OPSNN_SANITIZE in
    this process's environment, as the runtime reads them: child processes inherit them).
    ValueError: no operator folder, an unknown SoC, or a SoC / sanitizer setting other than the
    device's; opsnn.host.op_build.HostBuildError: the build failed."""
    d = Path(op_dir)
    if not is_operator_folder(d):
        raise ValueError(f"{op_dir} is no operator folder (it has no op_host/, op_api/ or op_kernel/)")
    build = OperatorBuild(OperatorFolder(d.resolve()), soc, verbose=verbose)
    if _RUNTIME and (_RUNTIME[0].soc, _RUNTIME[0].sanitize) != (build.platform.name, sanitize):
        raise ValueError(f"this process's device is {_RUNTIME[0].soc} with the sanitizer "
                         f"{'on' if _RUNTIME[0].sanitize else 'off'}; one process runs one device")
    stats = BuildStats()
    objects = build.compile(build.sources(), stats)
    library = build.link(objects, build.work / f"libopsnn_op_{build.folder.name}.so", shared=True, stats=stats)
    kernels.register_manifest(build.manifest())
    if not _RUNTIME:
        env = build.environment(sanitize)
        for name in ("OPSNN_SOC", "OPSNN_UT_SOC", "OPSNN_UT_SANITIZE", "OPSNN_SANITIZE"):
            os.environ[name] = env[name]  # read once, when the runtime starts
    op = CppOperator(build, library, stats)
    if not _RUNTIME:
        _RUNTIME.append(_Runtime(op.lib, build.platform.name, sanitize))
    return op


__all__ = ["CApi", "CParam", "CppOperator", "OperatorError", "load_operator", "parse_header"]
