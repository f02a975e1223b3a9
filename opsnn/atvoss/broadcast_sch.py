"""BroadcastSch: the DAG run core by core, one-dim (201) or multi-dim (NDDMA 1/2, UB broadcast
101-104/109), broadcasting the CopyInBrc inputs inside the kernel."""
from __future__ import annotations

from collections.abc import Sequence

from opsnn.ascendc import GlobalMemory, KernelArg, LaunchReport
from opsnn.platform import Platform

from .dag import Dag
from .structs import BroadcastBaseTilingData, BroadcastOneDimTilingData


def broadcast_kernel(dag: Dag, schedule_mode: int):
    """kernel(ctx, *gm_ptrs (inputs, then outputs), tiling_bytes) for opsnn.ascendc.launch."""
    raise NotImplementedError


def launch_broadcast(dag: Dag, *, gm: GlobalMemory, platform: Platform, schedule_mode: int,
                     tiling: BroadcastOneDimTilingData | BroadcastBaseTilingData | bytes,
                     inputs: Sequence[KernelArg], outputs: Sequence[KernelArg],
                     sanitize: bool = False) -> LaunchReport:
    raise NotImplementedError
