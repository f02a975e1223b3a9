"""Workspace planning: where each intermediate of an executor lives inside the caller's workspace.

Layout: the intermediates' slots one after another, each 512-byte aligned and a multiple of 512
bytes long (so a kernel's block padding past a tensor, < 256 bytes, never reaches the next slot),
then one region for the kernels' own workspace. Kernels of one executor run one after another on
the stream, so they share that region: it is the largest any of them asks for, not the sum.

The total must fit the C API's `uint64_t workspaceSize`: a plan beyond it (a tensor claiming
2**80 elements, say) is refused here, for every operator and SoC alike, as 561002: upstream sizes
the workspace in the tiling, so a workspace no uint64 can state is a tiling failure."""
from __future__ import annotations

from opsnn.acl.args import UINT64_MAX

from . import status as s
from .l0_tensor import WorkspaceSlot

WORKSPACE_ALIGN = 512


def align(nbytes: int) -> int:
    return -(-int(nbytes) // WORKSPACE_ALIGN) * WORKSPACE_ALIGN


class WorkspacePlan:
    def __init__(self):
        self.slots: list[WorkspaceSlot] = []
        self._intermediates = 0
        self.kernel_workspace = 0  # bytes, aligned

    def reserve(self, nbytes: int, label: str) -> WorkspaceSlot:
        slot = WorkspaceSlot(self._intermediates, align(max(int(nbytes), 1)), label)
        _check_fits(self._intermediates + slot.nbytes + self.kernel_workspace, f"{label} ({int(nbytes)} bytes)")
        self.slots.append(slot)
        self._intermediates += slot.nbytes
        return slot

    def need_kernel_workspace(self, nbytes: int) -> None:
        kernel_workspace = max(self.kernel_workspace, align(nbytes))
        _check_fits(self._intermediates + kernel_workspace, f"a kernel workspace of {int(nbytes)} bytes")
        self.kernel_workspace = kernel_workspace

    @property
    def kernel_workspace_offset(self) -> int:
        return self._intermediates

    @property
    def size(self) -> int:
        return self._intermediates + self.kernel_workspace


def _check_fits(total: int, what: str) -> None:
    if total > UINT64_MAX:
        raise s.AclnnError(s.ACLNN_ERR_INNER_TILING, s.KIND_TILING,
                           f"workspace of {total} bytes with {what} does not fit the uint64 workspaceSize")
