"""What one core did during a launch, for `opsnn sanitize --stats`: bytes moved each way between
GM and UB, instructions issued by kind, and the UB its buffers took. Counted always (a few integer
additions per instruction), reported per core in LaunchReport.core_stats."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field


@dataclass
class CoreCounters:
    """Mutable, owned by one core (no lock needed)."""
    gm_to_ub_bytes: int = 0
    ub_to_gm_bytes: int = 0
    instructions: dict[str, int] = field(default_factory=dict)

    def issue(self, instruction: str) -> None:
        self.instructions[instruction] = self.instructions.get(instruction, 0) + 1


@dataclass(frozen=True)
class CoreStats:
    """One core's totals.

    Attributes
    ----------
    core : int
        The core's block index.
    gm_to_ub_bytes, ub_to_gm_bytes : int
        Bytes the core's copies read from GM and wrote to GM.
    instructions : dict[str, int]
        Instructions issued, by name (DataCopy in both directions included).
    peak_ub_bytes : int
        UB its buffers took (buffers are allocated once, at Init).
    ub_size : int
        The UB the kernel may use on this platform.
    """
    core: int
    gm_to_ub_bytes: int
    ub_to_gm_bytes: int
    instructions: dict[str, int]
    peak_ub_bytes: int
    ub_size: int

    def to_dict(self) -> dict:
        return asdict(self)
