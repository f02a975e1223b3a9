"""launch(): run a kernel on `block_dim` emulated AIV cores and collect what the sanitizer saw.

Each core gets its own CoreContext (UB, finding log); the cores share only GM. Cores of a correct
kernel write disjoint GM bytes between two SyncAlls, so the result does not depend on the order
they run in. The cores run one at a time (cores.py): one after another on the launching thread,
and where the kernel calls SyncAll, each waiting at the barrier on a thread of its own until every
core has arrived. A core that fails (an instruction the emulator refuses, an ASSERT) stops alone:
the others run on, and the launch reports it or raises it once they all have."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from opsnn.platform import Platform

from . import findings as fk
from .core import CoreContext
from .cores import Cores
from .errors import ApiContractError, CoreAborted, CoreFailed, EmulatorError
from .findings import NO_TILE, Finding
from .global_tensor import GmPtr
from .gm import GlobalMemory, GMError
from .kernel_arg import KernelArg
from .overlap import cross_core_findings
from .stats import CoreStats

MAX_BLOCK_DIM = 65535  # what the runtime accepts; cores beyond the physical ones run in waves


@dataclass(frozen=True)
class LaunchReport:
    """What a launch returns: what the sanitizer saw, and per-core facts.

    Parameters
    ----------
    block_dim : int
        How many cores ran.
    findings : list of Finding
        Every core's findings in core order, then the cross-core ones (gm_write_overlap,
        gm_read_write_race). Empty when the launch ran without the sanitizer.
    aborted_cores : tuple of int
        Cores that stopped before their end: the sanitizer stopped them (queue misuse), they
        failed (core_failed, assert_failed), or they waited at a SyncAll that could never complete.
    ub_used : tuple of int
        Bytes of UB each core's buffers took.
    core_stats : tuple of CoreStats
        Per core: bytes moved each way, instructions by kind, UB (``opsnn sanitize --stats``).
    """
    block_dim: int
    findings: list[Finding] = field(default_factory=list)
    aborted_cores: tuple[int, ...] = ()  # cores that stopped early (see above)
    ub_used: tuple[int, ...] = ()  # bytes of UB each core's buffers took
    core_stats: tuple[CoreStats, ...] = ()  # per core: bytes moved, instructions, UB (for --stats)

    @property
    def errors(self) -> list[Finding]:
        """The findings that are errors (not declared padding).

        Returns
        -------
        list of Finding
        """
        return [f for f in self.findings if f.is_error]

    @property
    def ok(self) -> bool:
        """True when no finding is an error.

        Returns
        -------
        bool
        """
        return not self.errors


def _resolve(gm: GlobalMemory, arg: KernelArg, block_dim: int):
    alloc = gm.find(arg.addr)
    if alloc is None:
        raise GMError(f"kernel argument {arg.name}: {arg.addr:#x} is not inside any GM allocation")
    if arg.nbytes < 0 or arg.addr + arg.nbytes > alloc.end:
        raise GMError(f"kernel argument {arg.name}: {arg.nbytes} bytes at {arg.addr:#x} do not fit its "
                      f"allocation [{alloc.base:#x}, +{alloc.padded})")
    for p in arg.padding:
        # A declaration the launch cannot honour is a bug of whoever computed it: refuse it rather
        # than let it excuse bytes of a core that does not exist, or bytes of the tensor itself.
        if not 0 <= p.core < block_dim:
            raise EmulatorError(f"kernel argument {arg.name}: padding declared for core {p.core}, but the "
                                f"launch has cores 0..{block_dim - 1}")
        if p.nbytes < 0 or p.offset < arg.nbytes or arg.addr + p.offset + p.nbytes > alloc.end:
            raise GMError(f"kernel argument {arg.name}: padding [{p.offset}, {p.offset + p.nbytes}) must lie "
                          f"past its {arg.nbytes} bytes and inside its allocation "
                          f"(up to byte {alloc.end - arg.addr})")
    return alloc


def _core_padding(arg: KernelArg, core: int) -> tuple[tuple[int, int], ...]:
    """The absolute GM ranges [lo, hi) `arg` declares as padding of `core`."""
    if not arg.padding:  # the usual argument: nothing to filter (once per argument and core)
        return ()
    return tuple((arg.addr + p.offset, arg.addr + p.offset + p.nbytes)
                 for p in arg.padding if p.core == core and p.nbytes)


def launch(kernel: Callable, *, gm: GlobalMemory, platform: Platform, block_dim: int,
           args: Sequence[KernelArg | None], tiling: bytes, sanitize: bool = False,
           on_core_error: str = "raise") -> LaunchReport:
    """Run `kernel(ctx, *gm_addrs, tiling)` on every core; `None` args arrive as None (nullptr).

    The kernel reads its tiling from the `tiling` bytes, as GET_TILING_DATA does on device.

    Parameters
    ----------
    kernel : callable
        ``kernel(ctx: CoreContext, *ptrs: GmPtr | None, tiling: bytes) -> None``, run once per core.
    gm : GlobalMemory
        The device memory holding every argument.
    platform : Platform
        The SoC: its ``kernel_ub`` sizes each core's UB.
    block_dim : int
        How many cores run, 1 to 65535.
    args : sequence of KernelArg or None
        The GM_ADDR arguments in the kernel's order; None is a nullptr.
    tiling : bytes
        The tiling data the kernel reads.
    sanitize : bool
        Record findings (otherwise bad GM / UB / queue use raises `GMError` or `EmulatorError`).
    on_core_error : {"raise", "report"}
        What an error that stops a core becomes (an instruction the emulator refuses, a
        `CoreFailed`, a SyncAll no core can complete): "raise" raises the first core's once every
        core has run; "report" makes it a finding (core_failed, assert_failed,
        sync_all_missing_core), with or without the sanitizer, and the launch returns.

    Returns
    -------
    LaunchReport
        The findings, the aborted cores, and per-core UB use and counters.

    Raises
    ------
    EmulatorError
        A block_dim out of range, padding declared for a core outside the launch, or (raise) a
        core's error.
    GMError
        An argument outside every allocation, padding that does not lie past its tensor and inside
        its allocation, or (raise) a core's bad GM access without the sanitizer.
    """
    block_dim = int(block_dim)
    if not 1 <= block_dim <= MAX_BLOCK_DIM:
        raise EmulatorError(f"block_dim must be in [1, {MAX_BLOCK_DIM}], got {block_dim}")
    if on_core_error not in ("raise", "report"):
        raise ValueError(f"on_core_error must be 'raise' or 'report', got {on_core_error!r}")
    tiling = bytes(tiling)
    allocs = [None if a is None else _resolve(gm, a, block_dim) for a in args]
    contexts: list[CoreContext | None] = [None] * block_dim
    aborted: set[int] = set()
    errors: list[tuple[int, BaseException]] = []

    def run_core(i: int) -> None:
        ctx = contexts[i] = CoreContext(i, block_dim, platform, gm, sanitize)
        ctx.barrier = cores
        ptrs = [None if a is None else GmPtr(ctx, a.name, a.addr, a.nbytes, al, a.addr, None, _core_padding(a, i))
                for a, al in zip(args, allocs, strict=True)]
        try:
            kernel(ctx, *ptrs, tiling)
        except CoreAborted:
            aborted.add(i)
        except Exception as e:  # noqa: BLE001 - one core's error: the others run on
            aborted.add(i)
            if on_core_error == "raise":
                errors.append((i, e))
            else:
                _report_failure(ctx, e)
        finally:
            # ctx.buffers -> UbBuffer -> ctx is a cycle: break it, so the core's UB is freed by
            # reference counting when the launch ends (waiting for the GC measurably slows launches).
            ctx.buffers.clear()
            ctx.barrier = None

    def missing(waiting: list[int], absent: list[int], barrier: int, expected: int | None) -> None:
        site = contexts[waiting[0]].log.source
        detail = (f"cores {_listed(waiting)} wait at SyncAll #{barrier}"
                  + (f" for {expected} cores" if expected is not None else "")
                  + (f" ({site})" if site else "") + ", which can never complete: on the device the launch hangs "
                  "(the emulator stops the waiting cores)")
        if on_core_error == "raise":
            errors.append((waiting[0], EmulatorError(f"core(s) {_listed(absent)} ended without reaching "
                                                     f"SyncAll #{barrier}: {detail}")))
            return
        for c in absent:
            log = contexts[c].log
            log.items.append(Finding(fk.SYNC_ALL_MISSING_CORE, c, NO_TILE, "SyncAll", "-", 0, 0,
                                     f"core {c} ended after {contexts[c].phase} SyncAll(s); {detail}",
                                     source=site))

    def never_set(waits: dict[int, tuple[int, int]], unset: list[int]) -> None:
        first = next(iter(waits))
        flag, k = waits[first]
        site = contexts[first].log.source
        detail = (f"cores {_listed(list(waits))} wait at CrossCoreWaitFlag({flag}) (wait #{k}"
                  + (f", {site}" if site else "") + f") for sets that cores {_listed(unset)}, which ended, never made: "
                  "on the device the launch hangs (the emulator stops the waiting cores)")
        if on_core_error == "raise":
            errors.append((first, EmulatorError(detail)))
            return
        for c in unset:
            contexts[c].log.items.append(Finding(fk.CROSS_CORE_FLAG_NEVER_SET, c, NO_TILE, "CrossCoreWaitFlag", "-",
                                                 0, 0, f"core {c} ended without its set #{k} of flag {flag}; {detail}",
                                                 source=site))

    cores = Cores(block_dim, run_core, missing, never_set)
    cores.run()
    if errors:
        raise min(errors, key=lambda e: e[0])[1]
    findings = [f for ctx in contexts for f in ctx.log.findings()]
    if sanitize:
        findings += cross_core_findings([r for ctx in contexts for r in ctx.reads],
                                        [w for ctx in contexts for w in ctx.writes])
    return LaunchReport(
        block_dim=block_dim,
        findings=findings,
        aborted_cores=tuple(sorted(aborted)),
        ub_used=tuple(ctx.ub_used for ctx in contexts),
        core_stats=tuple(CoreStats(ctx.block_idx, ctx.counters.gm_to_ub_bytes, ctx.counters.ub_to_gm_bytes,
                                   dict(ctx.counters.instructions), ctx.ub_used, platform.kernel_ub)
                         for ctx in contexts),
    )


def _listed(cores: list[int]) -> str:
    return ", ".join(map(str, cores)) if len(cores) <= 8 else f"{cores[0]}..{cores[-1]} ({len(cores)})"


def _report_failure(ctx: CoreContext, e: Exception) -> None:
    """A core's error as its finding: where the kernel says it failed (CoreFailed), else where
    the core was (the running instruction's source line, for C++ kernels)."""
    if isinstance(e, CoreFailed):
        kind, instruction, source, message = e.kind, e.instruction, e.source, e.message
    else:
        kind = fk.API_CONTRACT_VIOLATION if isinstance(e, ApiContractError) else fk.CORE_FAILED
        kind, instruction, source, message = (kind, _instruction_of(e), ctx.log.source,
                                              f"{type(e).__name__}: {e}")
    ctx.log.items.append(Finding(kind, ctx.block_idx, ctx.log.tile, instruction, "-", 0, 0,
                                 f"{message}; the core stops here", source=source))


def _instruction_of(e: BaseException) -> str:
    """The AscendC instruction a Python kernel's error came from: the outermost frame of the
    emulator's instructions (a function of opsnn.ascendc named as AscendC names them) in its
    traceback; "?" when the error is the kernel's own."""
    tb = e.__traceback__
    while tb is not None:
        code = tb.tb_frame.f_code
        if tb.tb_frame.f_globals.get("__name__", "").startswith("opsnn.ascendc.") and code.co_name[:1].isupper():
            return code.co_name
        tb = tb.tb_next
    return "?"
