"""ElementwiseSch: the DAG run core by core over EleBaseTilingData tiles."""
from __future__ import annotations

from collections.abc import Sequence

from opsnn.ascendc import GlobalMemory, KernelArg, LaunchReport
from opsnn.platform import Platform

from .dag import Dag
from .structs import EleBaseTilingData


def elementwise_kernel(dag: Dag):
    """kernel(ctx, *gm_ptrs (inputs, then outputs), tiling_bytes) for opsnn.ascendc.launch."""
    raise NotImplementedError


def launch_elementwise(dag: Dag, *, gm: GlobalMemory, platform: Platform, tiling: EleBaseTilingData | bytes,
                       inputs: Sequence[KernelArg], outputs: Sequence[KernelArg],
                       sanitize: bool = False) -> LaunchReport:
    raise NotImplementedError
