"""One AIV core's private state during a launch: its index, its UB, its sanitizer log.

A kernel receives its CoreContext as the first argument; nothing about a core lives in module
state, so any number of launches (and cores) can run at once on different threads."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from opsnn.platform import Platform

from .findings import NO_TILE, FindingLog
from .gm import GlobalMemory
from .stats import CoreCounters

UB_ALIGN = 32  # bytes: UB buffers and DataCopy UB addresses
FULL_MASK = (1 << 64) - 1


class MaskState(NamedTuple):
    """The vector unit's mask register and mode (repeat.SetMaskCount / SetVectorMask / ResetMask).

    counter: counter mode (SetMaskCount) rather than normal mode (SetMaskNorm). In normal mode
    (high, low) are the bit mask of one repeat; in counter mode `low` is the element count."""
    counter: bool = False
    high: int = FULL_MASK
    low: int = FULL_MASK


class GmRange(NamedTuple):
    """GM bytes [start, end) one instruction of a core read or wrote (kept for the cross-core
    checks). The accessors record plain tuples of these fields (one per GM access: a tuple is the
    cheapest thing to build); the checks read them by position and name them as GmRange.

    phase: how many SyncAll barriers the core had passed (accesses of different phases are
    ordered by the barrier between them, so never race); atomic: for a write made under
    SetAtomicAdd/Max/Min, the operation and type ("add float32"): such writes of one kind commute;
    source: the instruction's file:line in a C++ kernel, for the findings."""
    start: int
    end: int
    core: int
    tile: int
    tensor: str
    tensor_base: int
    instruction: str = "DataCopy"
    phase: int = 0
    atomic: str | None = None
    source: str | None = None


WriteRange = GmRange  # the name the overlap check has always used


@dataclass(eq=False)
class CoreContext:
    """One AIV core's private state during a launch; the kernel's first argument.

    Parameters
    ----------
    block_idx : int
        This core's index, ``0 <= block_idx < block_num``.
    block_num : int
        The launch's block_dim.
    platform : Platform
        The SoC (its ``kernel_ub`` sizes the UB).
    gm : GlobalMemory
        The device memory all cores of the launch share.
    sanitize : bool
        Whether the sanitizer records findings (otherwise misuse raises and nothing is recorded).

    Other Parameters
    ----------------
    ub_used : int
        Bytes of UB InitBuffer handed out so far (starts at 0).
    writes, reads : list of tuple
        Sanitizer: the GM ranges the core wrote / read (GmRange fields), for the cross-core checks.
    buffers : list of UbBuffer
        The core's UB buffers in UB order, while the kernel runs.
    counters : CoreCounters
        Bytes moved and instructions issued (``opsnn sanitize --stats``).
    vector_mask : MaskState
        The mask mode and register the mask/repeat ("level 0") instructions read (repeat.py).
    undefined_inputs : list of tuple
        Sanitizer: the undefined elements the running instruction read, for its write to mark
        (local_tensor: undefined values are tracked valgrind-style).
    ub_defined : local_tensor.Definedness or None
        Sanitizer: which bytes of the core's UB were written since its run began.
    phase : int
        How many SyncAll barriers the core has passed.
    atomic : tuple or None
        The atomic mode SetAtomicAdd/Max/Min set: (operation, dtype), or None (SetAtomicNone).
    barrier : callable or None
        The launch's SyncAll, ``barrier(ctx, expected_cores)``; None for a core outside a launch.
    spr : dict
        The special registers instructions set and scalar code reads back (spr.py).
    """
    block_idx: int
    block_num: int
    platform: Platform
    gm: GlobalMemory
    sanitize: bool
    ub: np.ndarray = field(init=False, repr=False)  # uint8[kernel_ub]: this core's UB, nobody else's
    log: FindingLog = field(init=False, repr=False)
    ub_used: int = 0  # bytes of UB handed out by InitBuffer so far (32-byte aligned)
    writes: list[tuple] = field(default_factory=list, repr=False)  # sanitizer: GmRange fields
    reads: list[tuple] = field(default_factory=list, repr=False)  # sanitizer: GmRange fields
    buffers: list = field(default_factory=list, repr=False)  # UbBuffers in UB order (InitBuffer)
    counters: CoreCounters = field(default_factory=CoreCounters, repr=False)  # for --stats
    vector_mask: MaskState = MaskState()  # normal mode, full mask: what a core starts with
    # sanitizer: the undefined elements the running instruction read, for its write (local_tensor)
    undefined_inputs: list = field(default_factory=list, repr=False)
    # sanitizer: which UB bytes the core wrote since its run began (local_tensor.Definedness; made by
    # the first buffer). Per UB address, not per buffer: a re-allocated buffer keeps its bytes
    ub_defined: object = field(default=None, repr=False)
    # the vector unit's special registers instructions leave results in (ACC_VAL of ReduceSum,
    # MAX_MIN_CNT of ReduceMax/Min, DEQSCALE, GatherMask's count...), by name: spr.py
    spr: dict = field(default_factory=dict, repr=False)
    phase: int = 0  # SyncAll barriers passed (cores.py); GM accesses record it for the race checks
    atomic: tuple | None = None  # SetAtomicAdd/Max/Min's (operation, dtype) for DMA writes to GM (atomic.py)
    # the launch's SyncAll (cores.Cores.sync_all); None outside a launch
    barrier: object = field(default=None, repr=False)

    def __post_init__(self):
        self.ub = np.zeros(self.platform.kernel_ub, dtype=np.uint8)
        self.log = FindingLog(self.block_idx, self.sanitize)

    # AscendC's GetBlockIdx() / GetBlockNum(), reached through the context instead of a global.
    def GetBlockIdx(self) -> int:  # noqa: N802 - AscendC name
        """This core's index in the launch.

        Returns
        -------
        int
        """
        return self.block_idx

    def GetBlockNum(self) -> int:  # noqa: N802 - AscendC name
        """The number of cores in the launch (block_dim).

        Returns
        -------
        int
        """
        return self.block_num

    def begin_tile(self, tile: int) -> None:
        """Emulator-only annotation (no hardware counterpart): findings from now on name `tile`.

        Parameters
        ----------
        tile : int
            The tile index the following instructions belong to.
        """
        self.log.tile = tile

    def end_tiles(self) -> None:
        """Findings from now on name no tile."""
        self.log.tile = NO_TILE

    @property
    def tile(self) -> int:
        return self.log.tile


def GetBlockIdx(ctx: CoreContext) -> int:  # noqa: N802 - AscendC name
    return ctx.block_idx


def GetBlockNum(ctx: CoreContext) -> int:  # noqa: N802 - AscendC name
    return ctx.block_num
