"""Sanitizer findings (docs/threshold-grad-v2d.md §7): what went wrong, where, and how bad it is."""
from __future__ import annotations

from dataclasses import asdict, dataclass, replace

# The kinds, as exact strings (tools and tests match on them).
GM_READ_PAST_TENSOR = "gm_read_past_tensor"
GM_WRITE_PAST_TENSOR = "gm_write_past_tensor"
GM_READ_PAST_ALLOCATION = "gm_read_past_allocation"
GM_WRITE_PAST_ALLOCATION = "gm_write_past_allocation"
LOCAL_TENSOR_OVERFLOW = "local_tensor_overflow"
LOCAL_TENSOR_UNDERFLOW = "local_tensor_underflow"  # an access starting before its buffer (t[-k])
UB_EXHAUSTED = "ub_exhausted"
DATACOPY_UNALIGNED = "datacopy_unaligned"
COMPARE_COUNT_UNALIGNED = "compare_count_unaligned"
GM_WRITE_OVERLAP = "gm_write_overlap"  # two cores of one launch write the same GM bytes
GM_READ_WRITE_RACE = "gm_read_write_race"  # a core reads GM bytes another core of the launch writes
QUEUE_MISUSE = "queue_misuse"
UB_READ_BEFORE_WRITE = "ub_read_before_write"  # UB bytes read that nothing wrote since allocation
# The core stopped on an error that is no sanitizer check: an instruction the emulator refuses (not
# modelled, a wrong operand), an exception out of the kernel's own code. The other cores run on.
CORE_FAILED = "core_failed"
ASSERT_FAILED = "assert_failed"  # the kernel's ASSERT (or Trap) stopped the core
# A call broke a rule AscendC documents for that API (errors.ApiContractError); the core stops.
API_CONTRACT_VIOLATION = "api_contract_violation"
# A core ended (returned or stopped) without reaching the SyncAll the others wait at: on the device
# the launch hangs; the emulator stops the waiting cores instead.
SYNC_ALL_MISSING_CORE = "sync_all_missing_core"
# Cores wait at CrossCoreWaitFlag for sets of the flag that no core can make any more (the cores
# that owe them ended): on the device the launch hangs; the emulator stops the waiting cores.
CROSS_CORE_FLAG_NEVER_SET = "cross_core_flag_never_set"

KINDS = (
    GM_READ_PAST_TENSOR, GM_WRITE_PAST_TENSOR, GM_READ_PAST_ALLOCATION, GM_WRITE_PAST_ALLOCATION,
    LOCAL_TENSOR_OVERFLOW, LOCAL_TENSOR_UNDERFLOW, UB_EXHAUSTED, DATACOPY_UNALIGNED, COMPARE_COUNT_UNALIGNED,
    GM_WRITE_OVERLAP, GM_READ_WRITE_RACE, QUEUE_MISUSE, UB_READ_BEFORE_WRITE, CORE_FAILED, ASSERT_FAILED,
    API_CONTRACT_VIOLATION, SYNC_ALL_MISSING_CORE, CROSS_CORE_FLAG_NEVER_SET,
)

ERROR = "error"
# Reported, but what the design intends: past-the-tensor bytes inside the padding that the launch
# declares for the core touching them (a tiling's block padding, see kernel_arg.Padding).
EXPECTED = "expected"

NO_TILE = -1  # the finding happened outside any tile (Init, launch-level checks)


def core_and_tile(core: int, tile: int) -> str:
    """Where a finding happened: "core 1 tile 3", or "core 1" outside any tile (a kernel that
    declares no tiles, as C++ kernels do, is never inside one)."""
    return f"core {core}" if tile == NO_TILE else f"core {core} tile {tile}"


@dataclass(frozen=True)
class Finding:
    """One thing the sanitizer saw.

    Parameters
    ----------
    kind : str
        One of `KINDS`, e.g. ``"gm_write_past_tensor"``.
    core : int
        The block index of the core that did it.
    tile : int
        The tile the core was in (`CoreContext.begin_tile`), or ``NO_TILE`` (-1).
    instruction : str
        The instruction, e.g. ``"DataCopy"``, ``"Select"``, ``"InitBuffer"``.
    tensor : str
        GM: the kernel argument's name; UB: the buffer's name.
    offset : int
        Bytes from the start of that tensor / buffer where the bad range begins (negative: before it).
    nbytes : int
        Length of the bad range in bytes.
    detail : str
        A sentence for people.
    level : str
        ``ERROR`` or ``EXPECTED`` (declared padding).
    other_core : int or None
        For the cross-core kinds (gm_write_overlap, gm_read_write_race): the other core involved.
    source : str or None
        ``file:line`` of the instruction in the kernel's source, where the kernel is C++ (opsnn ut);
        None for Python kernels.
    """
    kind: str
    core: int
    tile: int
    instruction: str
    tensor: str  # GM: the kernel argument's name; UB: the buffer's name
    offset: int  # bytes from the start of that tensor / buffer where the bad range begins
    nbytes: int  # length of the bad range in bytes
    detail: str
    level: str = ERROR
    other_core: int | None = None  # cross-core kinds: the other core
    source: str | None = None  # C++ kernels: file:line of the instruction

    @property
    def is_error(self) -> bool:
        """True unless the finding is ``EXPECTED`` (declared padding).

        Returns
        -------
        bool
        """
        return self.level == ERROR

    def to_dict(self) -> dict:
        """The finding as a JSON-ready dict (field name -> value).

        Returns
        -------
        dict
        """
        return asdict(self)

    def __str__(self) -> str:
        at = f" at {self.source}" if self.source else ""
        return (f"[{self.level}] {self.kind}: {core_and_tile(self.core, self.tile)} {self.instruction}{at} "
                f"{self.tensor} {self.offset:+d} ({self.nbytes} B): {self.detail}")


class FindingLog:
    """One core's findings, in program order. Owned by that core only, so it needs no lock.

    The same defect met again (same kind, instruction, tensor and byte range, as a UB overflow is
    on every tile) is counted, not listed again: see `findings()`."""

    def __init__(self, core: int, enabled: bool):
        self.core = core
        self.enabled = enabled
        self.tile = NO_TILE
        self.source: str | None = None  # C++ kernels: where the running instruction is (file:line)
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
                                  detail, level, source=self.source))

    def findings(self) -> list[Finding]:
        """The findings, each repeated one saying how often it came back."""
        out = list(self.items)
        for index, again in self._repeats.values():
            if again:
                f = out[index]
                out[index] = replace(f, detail=f"{f.detail} (seen {again} more time(s) after this)")
        return out


def format_report(report, verbose: bool = False) -> list[str]:
    """Readable lines, then a summary. verbose: one line per finding. Otherwise findings of one
    kind, level, instruction and tensor make one line (their cores, how many, the first one),
    so 48 cores repeating a defect read as one defect."""
    if verbose:
        lines = [str(f) for f in report.findings]
    else:
        groups: dict[tuple, list] = {}
        for f in report.findings:
            groups.setdefault((f.level, f.kind, f.instruction, f.tensor), []).append(f)
        lines = [str(fs[0]) if len(fs) == 1 else _group_line(fs) for fs in groups.values()]
    n_err = len(report.errors)
    n_exp = len(report.findings) - n_err
    lines.append(f"{len(report.findings)} finding(s): {n_err} error(s), {n_exp} expected"
                 + ("" if n_err else " - clean")
                 + ("; one line per finding with --verbose" if len(lines) < len(report.findings) else ""))
    return lines


def _group_line(fs: list) -> str:
    first = fs[0]
    at = f" at {first.source}" if first.source else ""
    return (f"[{first.level}] {first.kind}: {first.instruction}{at} {first.tensor}: {len(fs)} findings on "
            f"core(s) {_ranges(sorted({f.core for f in fs}))}; first: {core_and_tile(first.core, first.tile)} "
            f"{first.offset:+d} ({first.nbytes} B): {first.detail}")


def _ranges(values: list[int]) -> str:
    """[0, 1, 2, 5, 7, 8] -> '0-2, 5, 7-8'."""
    out, i = [], 0
    while i < len(values):
        j = i
        while j + 1 < len(values) and values[j + 1] == values[j] + 1:
            j += 1
        out.append(str(values[i]) if i == j else f"{values[i]}-{values[j]}")
        i = j + 1
    return ", ".join(out)
