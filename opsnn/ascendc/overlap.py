"""Cross-core check: did two cores write the same GM bytes? (A race on hardware: the result
depends on which core finishes last.)"""
from __future__ import annotations

from collections.abc import Iterable

from . import findings as fk
from .core import WriteRange


def write_overlaps(writes: Iterable[WriteRange]) -> list[fk.Finding]:
    """One gm_write_overlap finding per write that overlaps an earlier-starting write of another core.

    A sweep in start order that remembers the furthest-reaching range and the furthest-reaching
    range of any *other* core: O(k log k) for k writes."""
    found = []
    best = second = None  # best: largest end so far; second: largest end among cores != best.core
    for w in sorted(writes, key=lambda r: (r.start, r.core, r.end)):
        other = best if best is not None and best.core != w.core else second
        if other is not None and other.end > w.start:
            lo, hi = w.start, min(w.end, other.end)
            found.append(fk.Finding(
                fk.GM_WRITE_OVERLAP, w.core, w.tile, "DataCopy", w.tensor, lo - w.tensor_base, hi - lo,
                f"core {w.core} tile {w.tile} writes bytes also written by core {other.core} tile {other.tile} "
                f"({other.tensor}): the result depends on which core finishes last"))
        if best is None or w.end > best.end:
            if best is not None and best.core != w.core:
                second = best
            best = w
        elif w.core != best.core and (second is None or w.end > second.end):
            second = w
    return found
