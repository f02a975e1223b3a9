"""launch(): run a kernel on `block_dim` emulated AIV cores and collect what the sanitizer saw.

Each core gets its own CoreContext (UB, finding log); the cores share only GM. Cores of a correct
kernel write disjoint GM bytes, so the result does not depend on the order they run in. By default
the cores run one after another: the per-instruction Python work holds the GIL and tiles are
small, so a thread pool measured slower (about half the float32 throughput on 2 CPUs); max_workers > 1 runs
them on a pool anyway."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from opsnn.platform import Platform

from .core import CoreContext
from .errors import CoreAborted, EmulatorError
from .findings import Finding
from .global_tensor import GmPtr
from .gm import GlobalMemory, GMError
from .kernel_arg import KernelArg
from .overlap import read_write_races, write_overlaps
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
        Cores the sanitizer stopped (queue misuse).
    ub_used : tuple of int
        Bytes of UB each core's buffers took.
    core_stats : tuple of CoreStats
        Per core: bytes moved each way, instructions by kind, UB (``opsnn sanitize --stats``).
    """
    block_dim: int
    findings: list[Finding] = field(default_factory=list)
    aborted_cores: tuple[int, ...] = ()  # cores the sanitizer stopped (queue misuse)
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
           max_workers: int | None = None) -> LaunchReport:
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
    max_workers : int or None
        Run the cores on this many threads (default: one after another, measured faster).

    Returns
    -------
    LaunchReport
        The findings, the aborted cores, and per-core UB use and counters.

    Raises
    ------
    EmulatorError
        A block_dim out of range, or padding declared for a core outside the launch.
    GMError
        An argument outside every allocation, or padding that does not lie past its tensor and
        inside its allocation.
    """
    block_dim = int(block_dim)
    if not 1 <= block_dim <= MAX_BLOCK_DIM:
        raise EmulatorError(f"block_dim must be in [1, {MAX_BLOCK_DIM}], got {block_dim}")
    tiling = bytes(tiling)
    allocs = [None if a is None else _resolve(gm, a, block_dim) for a in args]

    def run_core(i: int) -> tuple[CoreContext, bool]:
        ctx = CoreContext(i, block_dim, platform, gm, sanitize)
        ptrs = [None if a is None else GmPtr(ctx, a.name, a.addr, a.nbytes, al, a.addr, None, _core_padding(a, i))
                for a, al in zip(args, allocs, strict=True)]
        try:
            kernel(ctx, *ptrs, tiling)
        except CoreAborted:
            return ctx, True
        finally:
            # ctx.buffers -> UbBuffer -> ctx is a cycle: break it, so the core's UB is freed by
            # reference counting when the launch ends (waiting for the GC measurably slows launches).
            ctx.buffers.clear()
        return ctx, False

    workers = min(block_dim, max_workers or 1)  # see the module docstring
    if workers <= 1:
        results = [run_core(i) for i in range(block_dim)]
    else:
        with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="aiv") as pool:
            results = list(pool.map(run_core, range(block_dim)))
    findings = [f for ctx, _ in results for f in ctx.log.findings()]
    if sanitize:
        writes = [w for ctx, _ in results for w in ctx.writes]
        findings += write_overlaps(writes)
        findings += read_write_races([r for ctx, _ in results for r in ctx.reads], writes)
    return LaunchReport(
        block_dim=block_dim,
        findings=findings,
        aborted_cores=tuple(ctx.block_idx for ctx, aborted in results if aborted),
        ub_used=tuple(ctx.ub_used for ctx, _ in results),
        core_stats=tuple(CoreStats(ctx.block_idx, ctx.counters.gm_to_ub_bytes, ctx.counters.ub_to_gm_bytes,
                                   dict(ctx.counters.instructions), ctx.ub_used, platform.kernel_ub)
                         for ctx, _ in results),
    )
