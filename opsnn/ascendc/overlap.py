"""Cross-core checks. Cores of one launch run in no defined order, so on hardware (a) two cores
writing the same GM bytes leave whichever finished last, and (b) a core reading GM bytes another
core writes reads old or new data depending on timing. Both are errors."""
from __future__ import annotations

from collections.abc import Iterable, Iterator
from operator import itemgetter

from . import findings as fk
from .core import GmRange

# The ranges arrive as plain tuples of GmRange's fields (see core.GmRange); the sweeps read them by
# position, which keeps this post-launch pass at a few per cent of a launch.
_START, _END, _CORE = 0, 1, 2
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
                f"core {w.core} tile {w.tile} writes bytes [{lo - w.tensor_base}, {hi - w.tensor_base}) of "
                f"{w.tensor}, running into the range core {o.core} tile {o.tile} writes ({o.instruction} to "
                f"{o.tensor}): the result depends on which core finishes last", other_core=o.core))
        seen.add(t)
    return found


def read_write_races(reads: Iterable[tuple], writes: Iterable[tuple]) -> list[fk.Finding]:
    """gm_read_write_race findings: a core read GM bytes another core of the launch writes.

    Each finding is the reading core's (core, instruction, tensor, tile) with the writer as
    other_core. Every racing read is found: either a write starts at or before it (first pass)
    or it starts before a write that reaches into it (second pass)."""
    reads, writes = sorted(reads, key=_BY_START_CORE_END), sorted(writes, key=_BY_START_CORE_END)
    if not reads or not writes:
        return []
    pairs = [(r, w, r[_START]) for r, w in _against_earlier(reads, writes, True)]
    pairs += [(r, w, w[_START]) for w, r in _against_earlier(writes, reads, False)]
    found, reported = [], set()
    for rt, wt, lo in pairs:
        r, w = GmRange._make(rt), GmRange._make(wt)
        hi = min(r.end, w.end)
        key = (r.core, r.tile, r.instruction, r.tensor, lo, hi)
        if key in reported:
            continue
        reported.add(key)
        found.append(fk.Finding(
            fk.GM_READ_WRITE_RACE, r.core, r.tile, r.instruction, r.tensor, lo - r.tensor_base, hi - lo,
            f"core {r.core} tile {r.tile} reads bytes [{lo - r.tensor_base}, {hi - r.tensor_base}) of {r.tensor} "
            f"that core {w.core} tile {w.tile} writes ({w.instruction} to {w.tensor}): what it reads depends "
            f"on which core runs first", other_core=w.core))
    return found
