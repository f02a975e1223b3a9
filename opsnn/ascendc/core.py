"""One AIV core's private state during a launch: its index, its UB, its sanitizer log.

A kernel receives its CoreContext as the first argument; nothing about a core lives in module
state, so any number of launches (and cores) can run at once on different threads."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from opsnn.platform import Platform

from .findings import NO_TILE, FindingLog
from .gm import GlobalMemory

UB_ALIGN = 32  # bytes: UB buffers and DataCopy UB addresses


@dataclass(frozen=True)
class WriteRange:
    """GM bytes [start, end) one DataCopy of a core wrote (kept for the overlap check)."""
    start: int
    end: int
    core: int
    tile: int
    tensor: str
    tensor_base: int


@dataclass(eq=False)
class CoreContext:
    block_idx: int
    block_num: int
    platform: Platform
    gm: GlobalMemory
    sanitize: bool
    ub: np.ndarray = field(init=False, repr=False)  # uint8[kernel_ub]: this core's UB, nobody else's
    log: FindingLog = field(init=False, repr=False)
    ub_used: int = 0  # bytes of UB handed out by InitBuffer so far (32-byte aligned)
    writes: list[WriteRange] = field(default_factory=list, repr=False)

    def __post_init__(self):
        self.ub = np.zeros(self.platform.kernel_ub, dtype=np.uint8)
        self.log = FindingLog(self.block_idx, self.sanitize)

    # AscendC's GetBlockIdx() / GetBlockNum(), reached through the context instead of a global.
    def GetBlockIdx(self) -> int:  # noqa: N802 - AscendC name
        return self.block_idx

    def GetBlockNum(self) -> int:  # noqa: N802 - AscendC name
        return self.block_num

    def begin_tile(self, tile: int) -> None:
        """Emulator-only annotation (no hardware counterpart): findings from now on name `tile`."""
        self.log.tile = tile

    def end_tiles(self) -> None:
        self.log.tile = NO_TILE

    @property
    def tile(self) -> int:
        return self.log.tile


def GetBlockIdx(ctx: CoreContext) -> int:  # noqa: N802 - AscendC name
    return ctx.block_idx


def GetBlockNum(ctx: CoreContext) -> int:  # noqa: N802 - AscendC name
    return ctx.block_num
