"""Cross-core checks. Cores of one launch run in no defined order, so on hardware (a) two cores
writing the same GM bytes leave whichever finished last, and (b) a core reading GM bytes another
core writes reads old or new data depending on timing. Both are errors.

Only accesses of one phase can race: SyncAll orders everything before it on every core before
everything after it, so the checks run per phase (GmRange.phase). Atomic writes of one kind
(SetAtomicAdd<float> on every core, say) commute: they do not race with each other, but they do
with a plain write or another kind of atomic write to the same bytes, and with any read."""
from __future__ import annotations

from collections.abc import Iterable, Iterator
from operator import itemgetter

from . import findings as fk
from .core import GmRange
from .findings import core_and_tile

FILL_PREFIX = "fill of 0x"  # the kind of an InitGlobalMemory write: cores filling one value do not race

# The ranges arrive as plain tuples of GmRange's fields (see core.GmRange); the sweeps read them by
# position, which keeps this post-launch pass at a few per cent of a launch.
_START, _END, _CORE, _PHASE, _ATOMIC = 0, 1, 2, 7, 8
_BY_START_CORE_END = itemgetter(0, 2, 1)


class _Furthest:
    """The furthest-reaching range seen so far, and the furthest-reaching one of any other core
    than that one's: enough to answer "does a range of a core other than c reach past x?"."""

    __slots__ = ("best", "second")

    def __init__(self):
        self.best = self.second = None

    def other_than(self, core: int):
        best = self.best
        return best if best is not None and best[_CORE] != core else self.second

    def add(self, r: tuple) -> None:
        best, second = self.best, self.second
        if best is None or r[_END] > best[_END]:
            if best is not None and best[_CORE] != r[_CORE]:
                self.second = best
            self.best = r
        elif r[_CORE] != best[_CORE] and (second is None or r[_END] > second[_END]):
            self.second = r


def _against_earlier(probes: list[tuple], others: list[tuple], ties_count: bool) -> Iterator[tuple[tuple, tuple]]:
    """(probe, other) for each probe that a range of `others` from another core, starting before it
    (or at the same byte when ties_count), reaches into: the furthest-reaching such range. Both
    lists sorted by start; one merge pass, O(k) after the O(k log k) sorts."""
    seen, j, n = _Furthest(), 0, len(others)
    for p in probes:
        start = p[_START]
        while j < n and (others[j][_START] <= start if ties_count else others[j][_START] < start):
            seen.add(others[j])
            j += 1
        other = seen.other_than(p[_CORE])
        if other is not None and other[_END] > start:
            yield p, other


def write_overlaps(writes: Iterable[tuple]) -> list[fk.Finding]:
    """One gm_write_overlap finding per write that an earlier-starting write of another core runs
    into. The finding is the earlier write's core's (it spilled past its range into the later one's,
    the usual defect: a count or a tail too long), with the later write's core as other_core, and
    names the shared bytes (offset in the spilling write's tensor). Two writes starting at the same
    byte: the higher core's (cores all writing from one offset: the first core's is the right one).

    `writes`: GmRange, or tuples of its fields (what the accessors record)."""
    found, seen = [], _Furthest()
    for t in sorted(writes, key=_BY_START_CORE_END):
        other = seen.other_than(t[_CORE])
        if other is not None and other[_END] > t[_START]:
            w, o = GmRange._make(other), GmRange._make(t)  # w spills into o
            if w.start == o.start:
                w, o = o, w
            lo, hi = max(w.start, o.start), min(w.end, o.end)
            found.append(fk.Finding(
                fk.GM_WRITE_OVERLAP, w.core, w.tile, w.instruction, w.tensor, lo - w.tensor_base, hi - lo,
                f"{core_and_tile(w.core, w.tile)} writes bytes [{lo - w.tensor_base}, {hi - w.tensor_base}) of "
                f"{w.tensor}, running into the range {core_and_tile(o.core, o.tile)} writes ({o.instruction} to "
                f"{o.tensor}): the result depends on which core finishes last", other_core=o.core, source=w.source))
        seen.add(t)
    return found


def _cross_pairs(xs: list[tuple], ys: list[tuple]) -> list[tuple[tuple, tuple, int]]:
    """(x, y, first shared byte) for each range of `xs` that a range of `ys` of another core
    overlaps: either a y starts at or before x (first pass) or x starts before a y that reaches
    into it (second pass). Both lists sorted by start."""
    if not xs or not ys:
        return []
    pairs = [(x, y, x[_START]) for x, y in _against_earlier(xs, ys, True)]
    pairs += [(x, y, y[_START]) for y, x in _against_earlier(ys, xs, False)]
    return pairs


def read_write_races(reads: Iterable[tuple], writes: Iterable[tuple]) -> list[fk.Finding]:
    """gm_read_write_race findings: a core read GM bytes another core of the launch writes.

    Each finding is the reading core's (core, instruction, tensor, tile) with the writer as
    other_core. Every racing read is found."""
    pairs = _cross_pairs(sorted(reads, key=_BY_START_CORE_END), sorted(writes, key=_BY_START_CORE_END))
    found, reported = [], set()
    for rt, wt, lo in pairs:
        r, w = GmRange._make(rt), GmRange._make(wt)
        hi = min(r.end, w.end)
        key = (r.core, r.tile, r.instruction, r.tensor, lo, hi)
        if key in reported:
            continue
        reported.add(key)
        how = f"{w.instruction} to {w.tensor}" + (f", atomic {w.atomic}" if w.atomic else "")
        found.append(fk.Finding(
            fk.GM_READ_WRITE_RACE, r.core, r.tile, r.instruction, r.tensor, lo - r.tensor_base, hi - lo,
            f"{core_and_tile(r.core, r.tile)} reads bytes [{lo - r.tensor_base}, {hi - r.tensor_base}) of {r.tensor} "
            f"that {core_and_tile(w.core, w.tile)} writes ({how}): what it reads depends "
            f"on which core runs first", other_core=w.core, source=r.source))
    return found


def _mixed_writes(atomics: list[tuple], others: list[tuple]) -> list[fk.Finding]:
    """gm_write_overlap findings where an atomic write (or a fill of one value, InitGlobalMemory's)
    meets another core's write of another kind (a plain one, an atomic one of another operation or
    type, a fill of another value): the order decides the result."""
    pairs = _cross_pairs(sorted(atomics, key=_BY_START_CORE_END), sorted(others, key=_BY_START_CORE_END))
    found, reported = [], set()
    for at, ot, lo in pairs:
        a, o = GmRange._make(at), GmRange._make(ot)
        hi = min(a.end, o.end)
        key = (a.core, a.tile, a.instruction, a.tensor, lo, hi)
        if key in reported:
            continue
        reported.add(key)
        other = "plain" if not o.atomic else o.atomic if o.atomic.startswith(FILL_PREFIX) else f"atomic {o.atomic}"
        how = f"as a {a.atomic}" if a.atomic.startswith(FILL_PREFIX) else f"atomically ({a.atomic})"
        found.append(fk.Finding(
            fk.GM_WRITE_OVERLAP, a.core, a.tile, a.instruction, a.tensor, lo - a.tensor_base, hi - lo,
            f"{core_and_tile(a.core, a.tile)} writes bytes [{lo - a.tensor_base}, {hi - a.tensor_base}) of {a.tensor} "
            f"{how} where {core_and_tile(o.core, o.tile)} makes a {other} write ({o.instruction} to "
            f"{o.tensor}): the result depends on which core runs first", other_core=o.core, source=a.source))
    return found


def cross_core_findings(reads: Iterable[tuple], writes: Iterable[tuple]) -> list[fk.Finding]:
    """Every cross-core finding of a launch: per phase (SyncAll separates them), overlapping plain
    writes, atomic writes meeting writes of another kind, and reads of bytes another core writes.

    `reads`, `writes`: GmRange, or tuples of its fields (what the accessors record)."""
    phases: dict[int, tuple[list, list]] = {}
    for w in writes:
        phases.setdefault(w[_PHASE], ([], []))[1].append(w)
    for r in reads:
        phases.setdefault(r[_PHASE], ([], []))[0].append(r)
    found = []
    for phase in sorted(phases):
        rs, ws = phases[phase]
        plain, atomics = [], {}
        for w in ws:
            if w[_ATOMIC] is None:
                plain.append(w)
            else:
                atomics.setdefault(w[_ATOMIC], []).append(w)
        found += write_overlaps(plain)
        kinds = sorted(atomics)
        for i, kind in enumerate(kinds):
            found += _mixed_writes(atomics[kind], plain + [w for k in kinds[i + 1:] for w in atomics[k]])
        found += read_write_races(rs, ws)
    return found
