"""Sanitizer findings (spec §7): what went wrong, where, and how bad it is."""
from __future__ import annotations

from dataclasses import asdict, dataclass, replace

# The kinds, as exact strings (tools and tests match on them).
GM_READ_PAST_TENSOR = "gm_read_past_tensor"
GM_WRITE_PAST_TENSOR = "gm_write_past_tensor"
GM_READ_PAST_ALLOCATION = "gm_read_past_allocation"
GM_WRITE_PAST_ALLOCATION = "gm_write_past_allocation"
LOCAL_TENSOR_OVERFLOW = "local_tensor_overflow"
UB_EXHAUSTED = "ub_exhausted"
DATACOPY_UNALIGNED = "datacopy_unaligned"
COMPARE_COUNT_UNALIGNED = "compare_count_unaligned"
GM_WRITE_OVERLAP = "gm_write_overlap"
QUEUE_MISUSE = "queue_misuse"

KINDS = (
    GM_READ_PAST_TENSOR, GM_WRITE_PAST_TENSOR, GM_READ_PAST_ALLOCATION, GM_WRITE_PAST_ALLOCATION,
    LOCAL_TENSOR_OVERFLOW, UB_EXHAUSTED, DATACOPY_UNALIGNED, COMPARE_COUNT_UNALIGNED,
    GM_WRITE_OVERLAP, QUEUE_MISUSE,
)

ERROR = "error"
# Reported, but what the design intends: the last core's block padding past the tensor.
EXPECTED = "expected"

NO_TILE = -1  # the finding happened outside any tile (Init, launch-level checks)


@dataclass(frozen=True)
class Finding:
    kind: str
    core: int
    tile: int
    instruction: str
    tensor: str  # GM: the kernel argument's name; UB: the buffer's name
    offset: int  # bytes from the start of that tensor / buffer where the bad range begins
    nbytes: int  # length of the bad range in bytes
    detail: str
    level: str = ERROR

    @property
    def is_error(self) -> bool:
        return self.level == ERROR

    def to_dict(self) -> dict:
        return asdict(self)

    def __str__(self) -> str:
        tile = "-" if self.tile == NO_TILE else str(self.tile)
        return (f"[{self.level}] {self.kind}: core {self.core} tile {tile} {self.instruction} "
                f"{self.tensor} +{self.offset} ({self.nbytes} B): {self.detail}")


class FindingLog:
    """One core's findings, in program order. Owned by that core only, so it needs no lock.

    The same defect met again (same kind, instruction, tensor and byte range, as a UB overflow is
    on every tile) is counted, not listed again: see `findings()`."""

    def __init__(self, core: int, enabled: bool):
        self.core = core
        self.enabled = enabled
        self.tile = NO_TILE
        self.items: list[Finding] = []
        self._repeats: dict[tuple, list[int]] = {}  # key -> [index in items, times seen again]

    def add(self, kind: str, instruction: str, tensor: str, offset: int, nbytes: int, detail: str,
            level: str = ERROR) -> None:
        key = (kind, instruction, tensor, int(offset), int(nbytes), level)
        seen = self._repeats.get(key)
        if seen is not None:
            seen[1] += 1
            return
        self._repeats[key] = [len(self.items), 0]
        self.items.append(Finding(kind, self.core, self.tile, instruction, tensor, int(offset), int(nbytes),
                                  detail, level))

    def findings(self) -> list[Finding]:
        """The findings, each repeated one saying how often it came back."""
        out = list(self.items)
        for index, again in self._repeats.values():
            if again:
                f = out[index]
                out[index] = replace(f, detail=f"{f.detail} (seen {again} more time(s) after this)")
        return out
