"""A literal, loop-by-loop transcription of how AscendC's Ascend950 implementation of
ReduceSum / ReduceMax / ReduceMin<T, Pattern::Reduce::AR | RA, isReuseSource> orders its
operations, on plain numpy registers (vl lanes, float32 arithmetic correctly rounded as numpy's
is). Independent of opsnn.ascendc.reduce_pattern's vectorised code: the tests compare the two.

Registers are numpy arrays of vl lanes; `op` is "sum", "max" or "min" (no NaN in these inputs:
the NaN rules are tested on their own)."""
from __future__ import annotations

import numpy as np


def _f(op: str, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    if op == "sum":
        return a + b
    return np.maximum(a, b) if op == "max" else np.minimum(a, b)


def register_reduce(op: str, lanes: np.ndarray, active: int) -> np.generic:
    """One register's reduction over its first `active` lanes: the pairwise tree (lane 2k with
    2k + 1, then pairs of those), inactive lanes as the identity."""
    if op != "sum":
        return (np.max if op == "max" else np.min)(lanes[:active])
    v = [lanes[k] if k < active else lanes.dtype.type(-0.0) for k in range(lanes.size)]
    while len(v) > 1:
        v = [v[2 * k] + v[2 * k + 1] for k in range(len(v) // 2)]
    return v[0]


def _main_r(n: int) -> int:
    m = 1
    for i in range(1, 16):
        if n >> i == 0:
            break
        m = 1 << i
    return m


def _halve(op: str, regs: list) -> list:
    h = len(regs) // 2
    return [_f(op, regs[k], regs[k + h]) for k in range(h)]


def reduce_ar(op: str, x: np.ndarray, reuse: bool) -> np.ndarray:
    """x [rows, cols] (float32) -> one result a row."""
    rows, cols = x.shape
    vl = 64
    out = np.empty(rows, x.dtype)
    aligned = (cols * 4) % 32 == 0 or cols == 1
    for r in range(rows):
        row = x[r].copy()
        if cols == 1:
            out[r] = row[0]
            continue
        if cols <= vl:
            if aligned and cols < vl // 2 and cols != 8:
                acc = row[0:8].copy()
                for k in range(1, cols // 8):
                    acc = _f(op, row[8 * k:8 * k + 8], acc)
                out[r] = register_reduce(op, acc, 8)
            else:
                out[r] = register_reduce(op, np.concatenate([row, np.zeros(vl - cols, row.dtype)]), cols)
            continue
        main = _main_r(cols)
        tail = cols - main
        if aligned and not reuse and tail == 0:
            main //= 2
            tail = main
        if not aligned or reuse:
            work = row
            for i in range(tail):
                work[i] = _f(op, work[i:i + 1], row[main + i:main + i + 1])[0]
        else:
            work = np.empty(main, row.dtype)
            whole = tail // vl
            for c in range(whole):
                work[c * vl:(c + 1) * vl] = _f(op, row[c * vl:(c + 1) * vl], row[main + c * vl:main + (c + 1) * vl])
            for c in range(whole, main // vl):
                work[c * vl:(c + 1) * vl] = row[c * vl:(c + 1) * vl]
            for j in range(tail - whole * vl):  # the tail's partial register goes onto register 0
                work[j] = _f(op, work[j:j + 1], row[main + whole * vl + j:main + whole * vl + j + 1])[0]
        regs = [work[c * vl:(c + 1) * vl].copy() for c in range(main // vl)]
        while len(regs) >= 16:
            if aligned:  # groups of 16 consecutive registers
                regs = [_halve(op, _halve(op, _halve(op, _halve(op, regs[16 * g:16 * g + 16]))))[0]
                        for g in range(len(regs) // 16)]
            else:  # the halvings span the whole row
                for _ in range(4):
                    regs = _halve(op, regs)
        while len(regs) > 1:
            regs = _halve(op, regs)
        out[r] = register_reduce(op, regs[0], vl)
    return out


def reduce_ra(op: str, x: np.ndarray, reuse: bool, batch_invariant: bool = False) -> np.ndarray:
    """x [rows, cols] -> one result a column."""
    rows, cols = x.shape
    vl = 64
    if rows == 1:
        return x[0].copy()
    aligned = (cols * 4) % 32 == 0 or batch_invariant
    if not aligned:
        variant = "global"
    elif cols <= vl // 2:
        variant = "concat"
    elif cols <= vl or batch_invariant:
        variant = "local"
    else:
        variant = "global"
    reuse = reuse or batch_invariant
    main = _main_r(rows)
    tail = rows - main
    if aligned and not reuse and tail == 0:
        main //= 2
        tail = main
    if variant == "concat" and rows == 2:
        return _f(op, x[0], x[1])
    work = [x[i].copy() for i in range(main)]
    for i in range(tail):
        work[i] = _f(op, x[i], x[main + i])
    if variant == "concat":
        while len(work) > 1:
            work = _halve(op, work)
        return work[0]
    while len(work) >= 16:
        if variant == "local":
            work = [_halve(op, _halve(op, _halve(op, _halve(op, work[16 * g:16 * g + 16]))))[0]
                    for g in range(len(work) // 16)]
        else:
            for _ in range(4):
                work = _halve(op, work)
    while len(work) > 1:
        work = _halve(op, work)
    return work[0]
