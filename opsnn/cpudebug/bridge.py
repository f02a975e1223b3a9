"""The Python side of opsnn's CPU-debug runtime: what an AscendC kernel compiled for the host
(through opsnn's kernel_operator.h / tikicpulib.h) calls, one call per instruction.

libopsnn_kt (src/runtime.cpp) starts this interpreter inside the test program and keeps one
Session. GmAlloc'd memory is an allocation of the emulator's GlobalMemory whose bytes the host
program reads and writes through a real pointer; ICPU_RUN_KF runs opsnn.ascendc.launch with one
core per block, and each core's C++ code calls back here for every TPipe/TQue/TBuf operation and
every instruction, so a C++ kernel gets the same UB model, arithmetic, NaN rules and sanitizer as a
Python one. Handles (TPipe/TQue/TBuf, UB buffers) carry the core they belong to, so an object
carried from one core or launch to another is refused by name."""
from __future__ import annotations

import bisect
import dataclasses
import json
import os
import re
import sys
import time
from dataclasses import dataclass, field

import numpy as np

from opsnn import ascendc
from opsnn.ascendc import GlobalMemory, GlobalTensor, KernelArg, LocalTensor, TBuf, TPipe, TQue, launch, micro
from opsnn.ascendc import findings as fk
from opsnn.ascendc.errors import ApiContractError, CoreAborted, CoreFailed, EmulatorError
from opsnn.ascendc.float8 import FLOAT8_TYPES
from opsnn.ascendc.global_tensor import GmPtr, gm_read, gm_write
from opsnn.ascendc.int4 import INT4
from opsnn.ascendc.local_tensor import mark_undefined, mark_written, read_local, write_local
from opsnn.ascendc.pipe import local_tensor_at
from opsnn.dtypes import bfloat16
from opsnn.platform import Platform

from . import atvoss_vec
from .cpp_text import top_level_split
from .socs import platform_for

LOCAL, GLOBAL, INT, UINT, FLOAT, ENUM, INTS, HANDLE = 1, 2, 3, 4, 5, 6, 7, 8
REG, MASK, UBPTR = 9, 10, 11  # MicroAPI operands (opsnn_kt/micro_api.h)
_INDEX_BITS = 24  # a handle is (core serial << 24) | index
_INDEX_MASK = (1 << _INDEX_BITS) - 1
_TENSORS_KEPT = 4096  # LocalTensor operands a core keeps for reuse (CoreState.tensors)
_WRITTEN, _REUSED = 1, 2  # a REG / MASK operand's flags: the instruction writes it; a destroyed one's handle

# A `__local_mem__ T*` (LocalTensor::GetPhyAddr's value): never null, and it names its buffer, so
# pointer arithmetic keeps the buffer an access is judged against. Bits 63-60: the tag 0x5; 59-44:
# the core's serial (low 16 bits); 43-32: the buffer's index in the core; 31-0: byte offset + 2**31.
_PTR_TAG, _PTR_BIAS = 0x5 << 60, 1 << 31

# the element types C++ operands name; int4 is int4b_t, two to a byte (int4.py: what runs on it)
_DTYPES = {name: (bfloat16 if name == "bfloat16" else np.dtype(name)) for name in (
    "float32", "float64", "float16", "bfloat16", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64",
    "uint64", "bool")}
_DTYPES["int4"] = INT4
_DTYPES.update(FLOAT8_TYPES)
_UINT_OF_SIZE = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}
_KERNEL_MODES = ("MIX_MODE", "AIC_MODE", "AIV_MODE", "MIX_AIC_1_1", "MIX_AIC_1_2")
# vector cores per block of each kernel mode that has any (CANN's CPU debug: MIX_MODE runs an AIC and
# two AIVs per block); only they run here: a mixed kernel's vector work runs, its cube work is refused
_AIV_PER_BLOCK = {"AIV_MODE": 1, "MIX_MODE": 2, "MIX_AIC_1_1": 1, "MIX_AIC_1_2": 2}
# The UB a C++ kernel's buffers may fill: the whole UB, as CANN's CPU-debug checker allows it
# (asc-tools' ascend910B1_ini.h: UB_SIZE 196608), not the emulator's kernel_ub, which leaves Atlas
# A2's top 8 KiB to Select's tensor-scalar scratch for every kernel; here a kernel is judged on that
# scratch only where such a Select overwrites data the kernel then uses (_select).
_TOOLKIT_UB = {"ascend910b": 196608}


# the enums and parameter structs the headers pass by name (opsnn_kt/*.h: "Type.MEMBER", struct names)
_ENUMS = {"RoundMode": ascendc.RoundMode, "CMPMODE": ascendc.CMPMODE, "SELMODE": ascendc.SELMODE,
          "TPosition": ascendc.QuePosition, "ReduceOrder": ascendc.ReduceOrder,
          "MaskMergeMode": micro.MaskMergeMode, "MaskPattern": micro.MaskPattern, "LoadDist": micro.LoadDist,
          "StoreDist": micro.StoreDist, "PaddingMode": ascendc.PaddingMode,
          "DataCopyMVType": ascendc.DataCopyMVType}
_STRUCTS = {name: getattr(ascendc, name) for name in (
    "DataCopyParams", "DataCopyExtParams", "DataCopyPadExtParams", "BinaryRepeatParams", "UnaryRepeatParams",
    "BrcbRepeatParams", "CopyRepeatParams", "TransDataTo5HDParams", "LoopModeParams")}
_STRUCTS["CastTrait"] = micro.cast_trait_from_codes
_ENUMS["PowerAlgo"] = ascendc.PowerAlgo
_ENUMS["ReducePattern"] = ascendc.ReducePattern  # the high-level Reduce's Pattern::Reduce::AR / RA
for _name in ("GatherRepeatParams", "GatherMaskParams"):
    _STRUCTS[_name] = getattr(ascendc, _name)
_STRUCTS["MrgSort4Info"] = lambda a, b, c, d, suspend, valid, repeats: ascendc.MrgSort4Info(
    (a, b, c, d), bool(suspend), valid, repeats)
_STRUCTS["SumParams"] = ascendc.SumParams
_STRUCTS["CumSumInfo"] = ascendc.CumSumInfo
_STRUCTS["Shape"] = lambda *extents: extents  # BroadCast's dstShape / srcShape
for _name in ("SoftMaxTiling", "SoftMaxShapeInfo", "SelectWithBytesMaskShapeInfo"):
    _STRUCTS[_name] = getattr(ascendc, _name)


def _short_name(expression: str) -> str:
    """The name findings give a kernel argument: the last identifier of its source text
    ("(uint8_t *)(tilingDatafromBin)" -> "tilingDatafromBin")."""
    names = re.findall(r"[A-Za-z_]\w*", expression)
    return names[-1] if names else expression.strip() or "?"


@dataclass(eq=False)
class CoreState:
    """The core whose C++ code is running: its context, its GM pointers by allocation, and the
    objects its handles name."""
    serial: int
    ctx: object
    ptrs: dict  # allocation base -> GmPtr (the launch's argument in that allocation)
    objects: list = field(default_factory=list)  # TPipe / TQue / TBuf, by handle index
    buffers: list = field(default_factory=list)  # UbBuffers, by handle index
    buffer_index: dict = field(default_factory=dict)  # id(UbBuffer) -> index
    events: dict = field(default_factory=dict)  # HardEvent name -> event ids FetchEventID handed out
    registers: list = field(default_factory=list)  # MicroAPI RegTensors / MaskRegs, by handle index
    written: int | None = None  # the handle of the register the running MicroAPI call writes
    # (handle, dtype, offset) -> the LocalTensor of a LOCAL operand: made once, reused by every call
    # that names it (a LocalTensor is immutable; building one was a third of the bridge's cost)
    tensors: dict = field(default_factory=dict)

    def handle(self, index: int) -> int:
        return (self.serial << _INDEX_BITS) | index

    def index(self, handle: int, what: str) -> int:
        if handle < 0:
            raise EmulatorError(f"{what} used before TPipe::InitBuffer gave it a buffer")
        if handle >> _INDEX_BITS != self.serial:
            raise EmulatorError(f"{what} belongs to another core or launch (core objects live for one core's run)")
        return handle & ((1 << _INDEX_BITS) - 1)

    def keep(self, obj) -> int:
        self.objects.append(obj)
        return self.handle(len(self.objects) - 1)

    def buffer_handle(self, buf) -> int:
        i = self.buffer_index.get(id(buf))
        if i is None:
            i = self.buffer_index[id(buf)] = len(self.buffers)
            self.buffers.append(buf)
        return self.handle(i)

    # ---- MicroAPI ----
    def pointer(self, tensor: LocalTensor) -> int:
        """The `__local_mem__ T*` of a LocalTensor (module comment at _PTR_TAG)."""
        index = self.buffer_handle(tensor.buffer) & ((1 << _INDEX_BITS) - 1)
        if index >= 1 << 12:
            raise EmulatorError("GetPhyAddr: more than 4096 UB buffers on one core")
        return _PTR_TAG | (self.serial & 0xFFFF) << 44 | index << 32 | (tensor.offset + _PTR_BIAS)

    def tensor_at(self, pointer: int, dtype, what: str) -> LocalTensor:
        """The LocalTensor a `__local_mem__ T*` names: its buffer, at its offset (maybe past the
        buffer's end or before its start: the access is then judged so)."""
        p = pointer & 0xFFFF_FFFF_FFFF_FFFF
        if p >> 60 != _PTR_TAG >> 60:
            raise EmulatorError(f"{what}: {p:#x} is not a UB address (a __local_mem__ pointer comes from "
                                "LocalTensor::GetPhyAddr)" + (" -- a null pointer" if p == 0 else ""))
        if (p >> 44) & 0xFFFF != self.serial & 0xFFFF:
            raise EmulatorError(f"{what}: a UB address of another core or launch")
        index = (p >> 32) & 0xFFF
        if index >= len(self.buffers):
            raise EmulatorError(f"{what}: {p:#x} names no UB buffer of this core")
        return LocalTensor(self.buffers[index], dtype, (p & 0xFFFF_FFFF) - _PTR_BIAS)

    def register(self, kind: int, handle: int, flags: int, dtype):
        """The RegTensor / MaskReg an operand names; a written one with no register (or a reused
        handle of another core) gets a fresh one, whose handle the call returns to C++."""
        cls, what = (micro.RegTensor, "a RegTensor") if kind == REG else (micro.MaskReg, "a MaskReg")
        reg = None
        if handle >= 0 and handle >> _INDEX_BITS == self.serial:
            i = handle & ((1 << _INDEX_BITS) - 1)
            if i < len(self.registers) and isinstance(self.registers[i], cls):
                reg = self.registers[i]
                if flags & _REUSED:
                    reg.reset()  # a register C++ destroyed: fresh again
        elif handle >= 0 and not flags & _REUSED:
            raise EmulatorError(f"{what} belongs to another core or launch (registers live for one core's run)")
        if reg is None:
            reg = micro.RegTensor(self.ctx, dtype) if kind == REG else micro.MaskReg(self.ctx)
            if flags & _WRITTEN:
                self.registers.append(reg)
                handle = self.handle(len(self.registers) - 1)
        if kind == REG and reg.dtype != np.dtype(dtype):
            # the C++ type of this operand: a register reinterpreted ((RegTensor<U>&)r), maybe as another
            # operand of the same call -- a view sharing its bytes, so each operand keeps its own type
            reg = reg.view_as(dtype)
        if flags & _WRITTEN:
            self.written = handle
        return reg


class Session:
    """One test program's emulated device: GM, the running core, the launches' reports.

    Parameters
    ----------
    platform : Platform
        The SoC (UB size, core count).
    sanitize : bool
        Record findings (a finding of level error fails the launch) instead of raising on misuse.
    json_path : str or None
        Where finish() writes the launches' records.
    """

    def __init__(self, platform: Platform, sanitize: bool = True, json_path: str | None = None):
        self.platform = dataclasses.replace(platform, kernel_ub=_TOOLKIT_UB.get(platform.family, platform.kernel_ub))
        self.sanitize = sanitize
        self.json_path = json_path
        self.gm = GlobalMemory()
        self._host_starts: list[int] = []
        self._by_host: dict[int, object] = {}  # host address of an allocation's bytes -> Allocation
        self.kernel_mode = "AIV_MODE"
        self.device_launch = False  # set_device_launch: the host twin's LaunchKernel, not a UT's ICPU_RUN_KF
        self.core: CoreState | None = None
        self._serial = 0
        self.launches: list[dict] = []
        self.failures = 0
        self.calls = 0
        self._runners: dict[str, object] = {}  # instruction name -> _runner(name)

    @classmethod
    def from_environ(cls) -> Session:
        """The session `opsnn ut` asks for through OPSNN_UT_SOC, OPSNN_UT_SANITIZE (on/off) and
        OPSNN_UT_JSON; a program run by hand gets the default SoC with the sanitizer on."""
        soc = os.environ.get("OPSNN_UT_SOC") or None
        sanitize = os.environ.get("OPSNN_UT_SANITIZE", "on").lower() not in ("0", "off", "false", "no")
        return cls(platform_for(soc), sanitize, os.environ.get("OPSNN_UT_JSON") or None)

    # ---- GM ----
    def gm_alloc(self, nbytes: int, file: str, line: int) -> int:
        if nbytes < 0:
            raise EmulatorError(f"GmAlloc({nbytes}) at {file}:{line}: a size cannot be negative")
        # GmAlloc(0): upstream's UTs allocate absent optional inputs so; a buffer of no bytes, which
        # any access runs past (one byte is reserved behind it so that it has an address of its own)
        base = self.gm.malloc(max(nbytes, 1))
        alloc = self.gm.allocation(base)
        alloc.size = nbytes
        host = int(alloc.data.ctypes.data)
        bisect.insort(self._host_starts, host)
        self._by_host[host] = alloc
        return host

    def gm_free(self, host: int, file: str, line: int) -> None:
        if host == 0:
            return  # free(NULL)
        alloc = self._by_host.pop(host, None)
        if alloc is None:
            raise EmulatorError(f"GmFree({host:#x}) at {file}:{line}: not a pointer GmAlloc returned "
                                "(or freed already)")
        self._host_starts.pop(bisect.bisect_left(self._host_starts, host))
        self.gm.free(alloc.base)

    def _below(self, host: int):
        """The allocation a host address past every buffer lies behind (the nearest one starting
        below it), or None: a GlobalTensor set past its buffer is legal until it is used, and a
        use is judged against that buffer (past it: gm_*_past_allocation, the bytes dropped)."""
        i = bisect.bisect_right(self._host_starts, host) - 1
        return self._by_host[self._host_starts[i]] if i >= 0 else None

    def _resolve(self, host: int):
        """(allocation, GM address) of a host address inside a GmAlloc'd buffer, or (None, None)."""
        i = bisect.bisect_right(self._host_starts, host) - 1
        if i < 0:
            return None, None
        start = self._host_starts[i]
        alloc = self._by_host[start]
        if host >= start + alloc.padded:
            return None, None
        return alloc, alloc.base + (host - start)

    # ---- launches ----
    def set_kernel_mode(self, mode: int) -> None:
        self.kernel_mode = _KERNEL_MODES[mode] if 0 <= mode < len(_KERNEL_MODES) else str(mode)

    def set_device_launch(self, on: int) -> None:
        """Launches from now on are an aclnn launch of the host twin (opsnn/host, LaunchKernel) on
        device memory (aclrtMalloc's, this GM): a kernel's whole-block traffic past a tensor but
        inside its allocation's pool padding (512 bytes, gm.py) is what a device tolerates, so it
        is declared as expected padding for every core; reports name the launch, not ICPU_RUN_KF."""
        self.device_launch = bool(on)

    def _pool_padding(self, alloc, addr: int, nbytes: int, cores: int) -> tuple:
        past = alloc.padded - (addr - alloc.base) - nbytes
        return tuple(ascendc.Padding(c, nbytes, past) for c in range(cores)) if past > 0 else ()

    def run(self, kernel_name: str, block_dim: int, core_fn, arg_text: str, ptrs: tuple, file: str, line: int,
            tiling_key: int):
        """ICPU_RUN_KF: returns None when the launch ran clean, else the text that fails it."""
        where = (f"kernel {kernel_name} on {block_dim} core(s) launched at {file}:{line}" if self.device_launch
                 else f"ICPU_RUN_KF({kernel_name}, {block_dim}) at {file}:{line}")
        label = "opsnn" if self.device_launch else "opsnn ut"
        started, cpu_started = time.perf_counter(), time.thread_time()
        record = {"kernel": kernel_name, "file": file, "line": line, "block_dim": block_dim, "tiling_key": tiling_key,
                  "soc": self.platform.name, "sanitize": self.sanitize}
        try:
            ration = _AIV_PER_BLOCK.get(self.kernel_mode)
            if ration is None:
                raise EmulatorError(f"KernelMode::{self.kernel_mode} is not modelled: it runs cube (AIC) cores only, "
                                    "and opsnn emulates vector (AIV) cores; SetKernelMode(KernelMode::AIV_MODE)")
            names = [_short_name(s) for s in top_level_split(arg_text, "([{<", ")]}>")]
            args = []
            for name, host in zip(names, ptrs, strict=False):
                alloc, addr = (None, None) if host is None else self._resolve(host)
                nbytes = None if alloc is None else alloc.size - (addr - alloc.base)
                padding = self._pool_padding(alloc, addr, nbytes, block_dim * ration) \
                    if alloc is not None and self.device_launch and ration else ()
                args.append(None if alloc is None else KernelArg(name, addr, nbytes, padding))
            report = launch(self._core_kernel(core_fn, args, block_dim, ration), gm=self.gm, platform=self.platform,
                            block_dim=block_dim * ration, args=args, tiling=b"", sanitize=self.sanitize,
                            on_core_error="report")
        except (EmulatorError, ascendc.GMError, RuntimeError, ValueError, TypeError) as e:
            message = f"{where}: {type(e).__name__}: {e}"
            print(f"{label}: {message}", file=sys.stderr, flush=True)
            record.update(ok=False, error=message, findings=[], seconds=time.perf_counter() - started)
            self.launches.append(record)
            self.failures += 1
            return message
        finally:
            self.core = None
        from opsnn.ascendc.findings import format_report  # the same lines `opsnn sanitize` prints
        seconds = time.perf_counter() - started
        # CPU seconds of the launching thread: the launch's cost on a shared machine (where wall
        # time waits for the CPU); the cores that waited at a SyncAll ran partly on other threads
        cpu_seconds = time.thread_time() - cpu_started
        instructions = sum(sum(s.instructions.values()) for s in report.core_stats)
        record.update(ok=report.ok, error=None, findings=[f.to_dict() for f in report.findings], seconds=seconds,
                      cpu_seconds=cpu_seconds,
                      instructions=instructions, aborted_cores=list(report.aborted_cores),
                      core_stats=[s.to_dict() for s in report.core_stats])
        self.launches.append(record)
        status = "clean" if report.ok else "FAILED"
        print(f"{label}: {where}: {status} ({report.block_dim} core(s), {instructions} instruction(s), "
              f"{seconds * 1e3:.1f} ms, sanitizer {'on' if self.sanitize else 'off'})", file=sys.stderr)
        if report.findings:
            for text in format_report(report, os.environ.get("OPSNN_UT_VERBOSE") == "1"):  # opsnn ut --verbose
                print(f"  {text}", file=sys.stderr)
        sys.stderr.flush()
        if report.ok:
            return None
        self.failures += 1
        first = report.errors[0]
        return f"{where}: {len(report.errors)} error(s); first: {first}"

    def _core_kernel(self, core_fn, args, blocks: int, ration: int):
        """The launch's kernel: one C++ core. `self.core` is the running core's state: set as a
        core starts and again as it resumes from SyncAll or CrossCoreWaitFlag (_may_wait), so one
        attribute serves the cores that take turns (cores.py runs one at a time)."""
        def kernel(ctx, *rest):
            self._serial += 1
            ptrs = {}
            for gm_ptr in rest[:-1]:  # launch passes the tiling bytes last
                if gm_ptr is not None:
                    ptrs.setdefault(gm_ptr.alloc.base, gm_ptr)
            self.core = CoreState(self._serial, ctx, ptrs)
            try:
                core_fn(ctx.block_idx, blocks, ration)
            finally:
                self.core = None
        return kernel

    def fail(self, what: str, file: str, line: int):
        """ASSERT / Trap in kernel code: stops the core (assert_failed, at the kernel's line)."""
        core = self.core
        source = f"{os.path.basename(file)}:{line}"
        if core is None:
            raise EmulatorError(f"{what} at {source}")
        for check in ("ASSERT", "Trap"):
            if what.startswith(check):
                raise CoreFailed(core.ctx.block_idx, check, source, what, "assert_failed")
        raise CoreFailed(core.ctx.block_idx, "kernel", source, what)  # a check of opsnn's generated code

    def finish(self) -> int:
        """At the program's exit: write the JSON record; 1 when a launch failed, else 0."""
        if self.json_path:
            doc = {"soc": self.platform.name, "sanitize": self.sanitize, "launches": self.launches,
                   "failures": self.failures, "calls": self.calls}
            with open(self.json_path, "w") as f:
                json.dump(doc, f, indent=1, default=str)
        return 1 if self.failures else 0

    # ---- instructions ----
    def call(self, name: str, raw_args: tuple, where: str):
        """One call of the kernel headers: the instruction's name, its operands (kind, dtype, a, b,
        s, ints: abi.h), and where the kernel makes it ("file.cpp:line", made once per call site
        by runtime.cpp). Each name is resolved once to the function that runs it (_runner)."""
        self.calls += 1
        core = self.core
        if core is None:
            if name != "GetTilingData":
                raise EmulatorError(f"{name} at {where} runs outside a kernel launch")
        else:
            core.ctx.log.source = where
        run = self._runners.get(name)
        if run is None:
            run = self._runners[name] = _runner(name)
        try:
            return run(self, core, raw_args)
        except (CoreAborted, CoreFailed):
            raise
        except Exception as e:  # noqa: BLE001 - the core stops here, named: core, instruction, line
            if core is None:
                raise
            kind = fk.API_CONTRACT_VIOLATION if isinstance(e, ApiContractError) else fk.CORE_FAILED
            raise CoreFailed(core.ctx.block_idx, name, core.ctx.log.source, f"{type(e).__name__}: {e}", kind) from e

    def _micro(self, name: str, raw_args: tuple, core: CoreState):
        """A MicroAPI call: opsnn.ascendc.micro's function of the name, on the core's registers;
        returns the handle of the register it wrote (C++ keeps it)."""
        fn = getattr(micro, name[len("MicroAPI."):], None)
        if not callable(fn):
            raise EmulatorError(f"{name} is not modelled by opsnn's emulator")
        core.written = None
        fn(*(self._decode(a, core) for a in raw_args))
        return core.written

    def _mask_flag(self, core: CoreState, args: list) -> list:
        """A mask/repeat form's trailing isSetMask: false means "use the mask SetVectorMask gave"."""
        if not args or not isinstance(args[-1], _IsSetMask):
            return args
        flag, args = args[-1], args[:-1]
        if not flag.value:
            # the mask argument sits before repeatTimes and the params; None: the core's register
            # (repeat.active_elements)
            args[-3] = None
        return args

    def _decode(self, raw: tuple, core: CoreState | None):
        kind, dtype, a, b, s, ints = raw
        if kind == LOCAL:
            if core is not None and a >= 0 and a >> _INDEX_BITS == core.serial:  # the usual operand
                tensors = core.tensors
                tensor = tensors.get((a, dtype, b))
                if tensor is None:
                    if len(tensors) >= _TENSORS_KEPT:  # a kernel walking offsets: bound what is kept
                        tensors.clear()
                    tensor = tensors[(a, dtype, b)] = LocalTensor(core.buffers[a & _INDEX_MASK], _DTYPES[dtype], b)
                return tensor
            if core is None:
                raise EmulatorError("a LocalTensor outside a kernel launch")
            if a < 0:
                raise EmulatorError("an empty LocalTensor (one no TQue/TBuf handed out) is used")
            return LocalTensor(core.buffers[core.index(a, "a LocalTensor")], _DTYPES[dtype], b)
        if kind == GLOBAL:
            return self._global(core, a, b, _DTYPES[dtype])
        if kind in (INT, UINT):
            if dtype == "bool":
                return bool(a)
            return a if kind == INT else a & 0xFFFF_FFFF_FFFF_FFFF
        if kind == FLOAT:
            return _float_from_bits(dtype, a)
        if kind == ENUM:
            type_name, _, member = s.partition(".")
            enum = _ENUMS.get(type_name)
            if type_name == "HardEvent":
                return member
            if enum is None or member not in enum.__members__:
                raise EmulatorError(f"{s} is not modelled by opsnn's emulator")
            return enum[member]
        if kind == INTS:
            if s == "MaskPair":  # C++'s uint64_t mask[2]: [low word, high word], as repeat.py takes it
                return [ints[1] & 0xFFFF_FFFF_FFFF_FFFF, ints[0] & 0xFFFF_FFFF_FFFF_FFFF]
            if s == "UbAddrList":  # TransDataTo5HD's uint64_t list[16] of GetPhyAddr values
                return _UbAddrList(tuple(v & 0xFFFF_FFFF_FFFF_FFFF for v in ints))
            cls = _STRUCTS.get(s)
            if cls is None:
                raise EmulatorError(f"{s} is not modelled by opsnn's emulator")
            return cls(*ints)
        if kind == HANDLE:
            return a
        if kind in (REG, MASK):
            if core is None:
                raise EmulatorError("a MicroAPI register outside a kernel launch")
            return core.register(kind, a, b, _DTYPES[dtype] if dtype else None)
        if kind == UBPTR:
            if core is None:
                raise EmulatorError("a __local_mem__ pointer outside a kernel launch")
            return core.tensor_at(a, _DTYPES[dtype], "a __local_mem__ pointer")
        if s == "registerMask":
            return None  # the mask SetVectorMask left (repeat.active_elements)
        if s == "absent":
            return None  # an optional operand the call leaves out (CumSum without sharedTmpBuffer)
        if s == "isSetMask":
            return _IsSetMask(bool(a))
        if s == "dtype":
            return _DTYPES[dtype]
        raise EmulatorError(f"an operand of kind {kind} ({s}) the bridge does not know")

    def _global(self, core: CoreState | None, host: int, origin: int, dtype) -> GlobalTensor:
        if core is None:
            raise EmulatorError("a GlobalTensor outside a kernel launch")
        if origin == 0:
            raise EmulatorError("a GlobalTensor used before SetGlobalBuffer")
        alloc = self._resolve(origin)[0] or self._below(origin)
        if alloc is None:
            raise EmulatorError(f"a GlobalTensor set on host address {origin:#x}, which no GmAlloc'd buffer holds")
        ptr = core.ptrs.get(alloc.base)
        if ptr is None:
            # GmAlloc'd memory the kernel reached through a pointer it read from GM, not an argument of
            # the launch: legal (a tensor list's addresses, dynamic inputs). Judged against its buffer.
            name = f"GmAlloc@{int(alloc.data.ctypes.data):#x}"
            ptr = core.ptrs[alloc.base] = GmPtr(core.ctx, name, alloc.base, alloc.size, alloc, alloc.base)
        host_start = int(alloc.data.ctypes.data)
        gt = GlobalTensor(dtype)
        gt.ptr = ptr._with(alloc.base + (host - host_start), gt.dtype)
        return gt


def _runner(name: str):
    """What runs the instruction `name`: run(session, core, raw_args) -> its integer result or None."""
    if name.startswith("MicroAPI."):
        return lambda session, core, raw: session._micro(name, raw, core)
    if name.startswith("Atvoss."):  # a Vec op of the C++ atvoss framework (include/atvoss/util/vec.h)
        op = name[len("Atvoss."):]

        def atvoss(session, core, raw):
            atvoss_vec.run(op, [session._decode(a, core) for a in raw])
        return atvoss
    special = _SPECIAL.get(name)
    if special is not None:
        return lambda session, core, raw: special(session, core, *[session._decode(a, core) for a in raw])
    fn = getattr(ascendc, name, None)
    if not callable(fn):
        def refused(session, core, raw):
            raise EmulatorError(f"{name} is not modelled by opsnn's emulator")
        return refused

    def instruction(session, core, raw):
        args = [session._decode(a, core) for a in raw]
        if any(getattr(a, "dtype", None) is INT4 for a in args):  # identity: cheap on every call
            args = _int4_operands(name, args)
        result = fn(*session._mask_flag(core, args))
        return result if isinstance(result, int) else None  # an instruction's count (GatherMask's rsvdCnt)
    return instruction


def _int4_operands(name: str, args: list) -> list:
    """The operands of an instruction on int4b_t tensors (int4.py): Cast takes them as they are;
    a DataCopy / DataCopyPad moves their bytes (a DataCopy's element count halved); any other
    instruction on them is refused by name."""
    if name == "Cast":
        return args
    if name not in ("DataCopy", "DataCopyPad"):
        raise EmulatorError(f"{name} on int4 tensors (int4b_t) is not modelled by opsnn's emulator")
    out = [_as_bytes(a) if getattr(a, "dtype", None) is INT4 else a for a in args]
    if name == "DataCopy" and len(out) == 3 and isinstance(out[2], (int, np.integer)):
        if out[2] % 2:
            raise EmulatorError(f"DataCopy of {out[2]} int4 elements splits a byte of two")
        out[2] = int(out[2]) // 2
    return out


def _as_bytes(t):
    if isinstance(t, LocalTensor):
        return t.ReinterpretCast(np.uint8)
    view = GlobalTensor(np.uint8)
    view.ptr = t.ptr._with(t.ptr.addr, np.dtype(np.uint8))
    return view


# A FLOAT operand's bits -> the scalar of its type, through one reused array per type: building a
# fresh array per operand cost ~20 times as much (a scalar call from C++ has one or two of them).
_BITS_VIEWS: dict = {}


def _float_from_bits(dtype: str, bits: int):
    views = _BITS_VIEWS.get(dtype)
    if views is None:
        t = _DTYPES[dtype]
        raw = np.zeros(1, dtype=_UINT_OF_SIZE[t.itemsize])
        views = _BITS_VIEWS[dtype] = (raw, raw.view(t), (1 << (8 * t.itemsize)) - 1)
    raw, typed, mask = views
    raw[0] = bits & mask
    return typed[0]


@dataclass(frozen=True)
class _IsSetMask:
    value: bool


@dataclass(frozen=True)
class _UbAddrList:
    addresses: tuple


# ---- the calls that are not plain opsnn.ascendc instructions ----

def _pipe_new(session, core):
    return core.keep(TPipe(core.ctx))


def _pipe_reset(session, core, pipe_handle):
    core.objects[core.index(pipe_handle, "a TPipe")].Reset()


def _init_buf_pool(session, core, pipe_handle, position, length):
    pipe = core.objects[core.index(pipe_handle, "a TPipe")]
    pool = ascendc.TBufPool(position, name=f"TBufPool@{core.ctx.log.source or '?'}")
    pipe.InitBufPool(pool, int(length))
    return core.keep(pool)


def _init_buffer(session, core, pipe_handle, position, depth, num, length, bind_dst=None):
    pipe = core.objects[core.index(pipe_handle, "a TPipe or TBufPool")]  # both place buffers
    src = core.ctx.log.source or "?"
    label = f"{position.value.lower()}@{src}"
    if depth == 0:
        holder = TBuf(position, name=label)
        pipe.InitBuffer(holder, int(length))
    else:
        holder = (TQue(position, int(depth), name=label) if bind_dst is None
                  else ascendc.TQueBind(position, bind_dst, int(depth), name=label))
        pipe.InitBuffer(holder, int(num), int(length))
    return core.keep(holder)


def _holder(core, handle, what):
    return core.objects[core.index(handle, what)]


def _alloc_tensor(session, core, h):
    return core.buffer_handle(_holder(core, h, "a TQue").AllocTensor(np.uint8).buffer)


def _enque(session, core, h, tensor):
    _holder(core, h, "a TQue").EnQue(tensor)


def _deque(session, core, h):
    return core.buffer_handle(_holder(core, h, "a TQue").DeQue(np.uint8).buffer)


def _free_tensor(session, core, h, tensor):
    _holder(core, h, "a TQue").FreeTensor(tensor)


def _que_count(session, core, h):
    return len(_holder(core, h, "a TQue")._fifo)


def _vacant(session, core, h):
    que = _holder(core, h, "a TQue")
    return int(len(que._fifo) < que.depth)


def _local_at(session, core, position, ub_addr, nbytes):
    return core.buffer_handle(local_tensor_at(core.ctx, position, ub_addr, nbytes, np.uint8).buffer)


def _tbuf_get(session, core, h, length=None):
    return core.buffer_handle(_holder(core, h, "a TBuf").Get(np.uint8).buffer)


def _fetch_event(session, core, pipe_handle, event):
    n = core.events.get(event, 0)  # ids 0..7 in turn, per event type
    core.events[event] = n + 1
    return n % 8


def _release_event(session, core, pipe_handle, event, event_id):
    return None


def _set_flag(session, core, event, event_id):
    core.ctx.counters.issue("SetFlag")


def _wait_flag(session, core, event, event_id):
    core.ctx.counters.issue("WaitFlag")


def _bits(values: np.ndarray) -> int:
    return int(values.view(_UINT_OF_SIZE[values.dtype.itemsize])[0])


def _local_get(session, core, tensor: LocalTensor, index: int):
    return _bits(read_local(tensor[index], 1, "GetValue"))


def _local_set(session, core, tensor: LocalTensor, index: int, value):
    write_local(tensor[index], np.array([value], dtype=tensor.dtype), "SetValue")


def _global_get(session, core, gt: GlobalTensor, index: int):
    return _bits(gm_read(gt[index], gt.dtype.itemsize, "GetValue").view(gt.dtype))


def _global_set(session, core, gt: GlobalTensor, index: int, value):
    gm_write(gt[index], np.array([value], dtype=gt.dtype).view(np.uint8), "SetValue")


def _tiling(session, core, host: int, nbytes: int):
    """GET_TILING_DATA: the struct read from the tiling argument (a finding past its bytes)."""
    if core is None:
        return None
    alloc, _ = session._resolve(host)
    if alloc is None:
        return None  # host memory passed as the tiling pointer: C++ reads it directly
    gt = session._global(core, host, host, np.dtype(np.uint8))
    gm_read(gt, int(nbytes), "GET_TILING_DATA")
    return None


def _trans_data_to_5hd(session, core, dst: _UbAddrList, src: _UbAddrList, params, dtype):
    """TransDataTo5HD's address-list form: the addresses are GetPhyAddr's (CoreState.pointer)."""
    def tensors(addresses, what):
        return [core.tensor_at(a, dtype, f"TransDataTo5HD {what}[{k}]") for k, a in enumerate(addresses)]
    ascendc.TransDataTo5HD(tensors(dst.addresses, "dstList"), tensors(src.addresses, "srcList"), params, dtype=dtype)


def _may_wait(fn):
    """A call that may make this core wait (its thread blocks) while the others run -- SyncAll,
    CrossCoreWaitFlag: the core is the running one again when it resumes."""
    def call(session, core, *args):
        try:
            fn(core.ctx, *args)
        finally:
            session.core = core
    return call


def _scalar_cast(session, core, value, mode, src, dst):
    """ScalarCast<T, U, mode>(value): one element through the vector Cast's conversion."""
    from opsnn.ascendc.cast import cast_values, check_cast
    check_cast(src, dst, mode)
    return _bits(cast_values(np.array([value], dtype=src), dst, mode))


def _select(session, core, dst, sel_mask, src0, src1, mode, *rest):
    """Select. In VSEL_TENSOR_SCALAR_MODE on Atlas A2 the unit first duplicates the scalar into 32
    elements at UB byte 188416 (AscendC's TMP_UB_OFFSET, 184 KiB: dav_c220's VselIntrinsicsImplPre)
    and loads the compare mask from there: a kernel buffer lying on those bytes loses them. They get
    the scalar, marked undefined for the kernel (origin: this Select), so that only a later use of
    the lost data is an error -- a buffer that merely spans the bytes, or is rewritten first, is fine."""
    ctx = core.ctx
    if mode is ascendc.SELMODE.VSEL_TENSOR_SCALAR_MODE and ctx.sanitize and ctx.platform.family == "ascend910b":
        _clobber_select_scratch(ctx, dst.dtype, src1)
    ascendc.Select(*session._mask_flag(core, [dst, sel_mask, src0, src1, mode, *rest]))


_SELECT_TMP_UB = 184 * 1024  # Atlas A2's TMP_UB_OFFSET
_SELECT_TMP_ELEMENTS = 32  # ONE_BLK_SIZE elements of the Select's type


def _clobber_select_scratch(ctx, dtype: np.dtype, scalar) -> None:
    lo, hi = _SELECT_TMP_UB, _SELECT_TMP_UB + _SELECT_TMP_ELEMENTS * dtype.itemsize
    origin = (f"Select (tensor-scalar mode) at {ctx.log.source or '?'} overwrote UB [{lo}, {hi}) with its "
              f"scalar: Atlas A2's scratch for that mode")
    fill = np.full(_SELECT_TMP_ELEMENTS, scalar, dtype=dtype).view(np.uint8)
    for b in ctx.buffers:
        a, z = max(lo, b.ub_addr), min(hi, b.ub_addr + b.nbytes)
        if a >= z or b.storage is not ctx.ub:
            continue
        b.storage[b.base + a - b.ub_addr:b.base + z - b.ub_addr] = fill[a - lo:z - lo]
        mark_undefined(LocalTensor(b, np.uint8, a - b.ub_addr), range(z - a), origin)


def _count(instruction: str):
    """An instruction with nothing to emulate (the emulator has no data cache): counted."""
    return lambda session, core, *args: core.ctx.counters.issue(instruction)


def _with_ctx(fn):
    """An instruction of the core's own state (the vector mask): the core comes first."""
    return lambda session, core, *args: fn(core.ctx, *args)


# SIMT (opsnn_kt/simt.h): the threads run in C++; the emulator checks the launch and lends them UB
_SIMT_MAX_THREADS = 2048  # __launch_bounds__'s ceiling: a VF runs at most 2048 threads


def _simt_launch(session, core, x, y, z):
    ctx = core.ctx
    if ctx.platform.family != "ascend950":
        raise ApiContractError(f"asc_vf_call(dim3(...)): SIMT vector functions run on Ascend950 only, not on "
                               f"{ctx.platform.name}")
    if not 1 <= x * y * z <= _SIMT_MAX_THREADS or 0 in (x, y, z):
        raise ApiContractError(f"asc_vf_call(dim3({x}, {y}, {z})): a SIMT launch runs 1 to {_SIMT_MAX_THREADS} "
                               f"threads, not {x * y * z}")
    ctx.counters.issue("asc_vf_call(SIMT)")


def _simt_ub_host(session, core, pointer):
    """The host address of the UB bytes a `__ubuf__` pointer names, for SIMT threads to dereference."""
    lt = core.tensor_at(pointer, np.uint8, "asc_vf_call(SIMT)")
    if not 0 <= lt.offset < lt.buffer.nbytes:
        raise EmulatorError(f"asc_vf_call(SIMT): a __ubuf__ argument {lt.offset} bytes into the "
                            f"{lt.buffer.nbytes}-byte buffer {lt.buffer.name} points outside it")
    return int(lt.buffer.storage.ctypes.data) + lt.buffer.base + lt.offset


def _simt_ub_written(session, core, pointer):
    lt = core.tensor_at(pointer, np.uint8, "asc_vf_call(SIMT)")
    mark_written(lt, lt.buffer.nbytes - lt.offset, "asc_vf_call(SIMT)")


def _simt_unmodelled(session, core, _):
    raise EmulatorError("asc_syncthreads: not modelled: opsnn runs a SIMT launch's threads one after another, "
                        "so no thread can wait for the others")


def _mrg_sort(session, core, dst, params, *lists):
    ascendc.MrgSort(dst, ascendc.MrgSortSrcList(*lists), params)


def _mrg_sort_result(session, core):
    a, b, c, d = ascendc.GetMrgSortResult(core.ctx)
    return a | b << 16 | c << 32 | d << 48


_SPECIAL = {
    "TPipe.new": _pipe_new, "TPipe.InitBuffer": _init_buffer, "TPipe.FetchEventID": _fetch_event,
    "TPipe.InitBufPool": _init_buf_pool, "TPipe.Reset": _pipe_reset,
    "TBufPool.Reset": lambda s, c, h: c.objects[c.index(h, "a TBufPool")].Reset(),
    "TPipe.AllocEventID": _fetch_event, "TPipe.ReleaseEventID": _release_event,
    "TQue.AllocTensor": _alloc_tensor, "TQue.EnQue": _enque, "TQue.DeQue": _deque, "TQue.FreeTensor": _free_tensor,
    "TQue.VacantInQue": _vacant, "TQue.HasTensorInQue": lambda s, c, h: int(_que_count(s, c, h) > 0),
    "TQue.GetTensorCountInQue": _que_count, "TBuf.Get": _tbuf_get, "LocalTensor.At": _local_at,
    "LocalTensor.GetValue": _local_get, "LocalTensor.SetValue": _local_set,
    "LocalTensor.GetSize": lambda s, c, t: t.GetSize(), "LocalTensor.GetPhyAddr": lambda s, c, t: c.pointer(t),
    "GlobalTensor.GetValue": _global_get, "GlobalTensor.SetValue": _global_set,
    "SetFlag": _set_flag, "WaitFlag": _wait_flag, "GetTilingData": _tiling,
    "TransDataTo5HD": _trans_data_to_5hd,
    "SetMaskCount": _with_ctx(ascendc.SetMaskCount), "SetMaskNorm": _with_ctx(ascendc.SetMaskNorm),
    "SetVectorMask": _with_ctx(ascendc.SetVectorMask), "ResetMask": _with_ctx(ascendc.ResetMask),
    "SyncAll": _may_wait(ascendc.SyncAll), "ScalarCast": _scalar_cast, "Select": _select,
    "CrossCoreSetFlag": _with_ctx(ascendc.CrossCoreSetFlag), "CrossCoreWaitFlag": _may_wait(ascendc.CrossCoreWaitFlag),
    "SetCtrlSpr": _with_ctx(ascendc.SetCtrlSpr), "GetCtrlSpr": _with_ctx(ascendc.GetCtrlSpr),
    "ResetCtrlSpr": _with_ctx(ascendc.ResetCtrlSpr),
    "SetLoopModePara": _with_ctx(ascendc.SetLoopModePara), "ResetLoopModePara": _with_ctx(ascendc.ResetLoopModePara),
    "SetAtomicAdd": _with_ctx(ascendc.SetAtomicAdd), "SetAtomicMax": _with_ctx(ascendc.SetAtomicMax),
    "SetAtomicMin": _with_ctx(ascendc.SetAtomicMin), "SetAtomicType": _with_ctx(ascendc.SetAtomicType),
    "SetAtomicNone": _with_ctx(ascendc.SetAtomicNone),
    "DataCacheCleanAndInvalid": _count("DataCacheCleanAndInvalid"),
    "GetAccVal": _with_ctx(ascendc.GetAccVal), "GetReduceRepeatSumSpr": _with_ctx(ascendc.GetReduceRepeatSumSpr),
    "GetReduceRepeatMaxMinSpr": _with_ctx(ascendc.GetReduceRepeatMaxMinSpr),
    "GetGatherMaskRemainCount": _with_ctx(ascendc.GetGatherMaskRemainCount),
    "SetDeqScale": _with_ctx(ascendc.SetDeqScale), "MrgSort": _mrg_sort, "GetMrgSortResult": _mrg_sort_result,
    "Simt.Launch": _simt_launch, "Simt.UbHost": _simt_ub_host, "Simt.UbWritten": _simt_ub_written,
    "Simt.Unmodelled": _simt_unmodelled,
}

__all__ = ["CoreAborted", "CoreState", "Session"]
