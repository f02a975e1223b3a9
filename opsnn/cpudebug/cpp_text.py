"""Reading bits of C++ source text: the one splitter both sides need (ICPU_RUN_KF's argument text
in the bridge, template and ASCENDC_TPL_* argument lists in `opsnn ut`)."""
from __future__ import annotations


def top_level_split(text: str, opening: str = "([{", closing: str = ")]}") -> list[str]:
    """`text` split at its commas outside the given brackets, each piece stripped (empty pieces
    kept: the caller decides what an empty argument means)."""
    out, depth, cur = [], 0, []
    for ch in text:
        if ch in opening:
            depth += 1
        elif ch in closing:
            depth -= 1
        if ch == "," and depth == 0:
            out.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    out.append("".join(cur))
    return [s.strip() for s in out]
