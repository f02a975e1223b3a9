"""The mask/repeat ("level 0") addressing of the Atlas A2 vector unit, shared by every instruction's
mask/repeat form, and the per-core mask state (SetMaskCount, SetMaskNorm, SetVectorMask, ResetMask).

The model (AscendC's documented semantics)
-------------------------------------------
One repeat processes 256 bytes: 8 blocks of 32 bytes, ``256 // sizeof(T)`` elements. Element j of
a repeat lies in block ``b = j // (32 // sizeof(T))`` at position ``k = j % (32 // sizeof(T))``;
for repeat r of an operand with strides (blkStride, repStride), counted in 32-byte blocks, it is at
byte ``(r * repStride + b * blkStride) * 32 + k * sizeof(T)`` from the operand's start.

Which elements take part (`active_elements`):

- normal mode (the default; SetMaskNorm), `mask` an int: continuous mode, the first `mask` elements
  of each of the `repeatTimes` repeats, 1 <= mask <= 256 // sizeof(T);
- normal mode, `mask` a sequence of two uint64, in C++'s ``uint64_t mask[2]`` order: ``mask[0]`` is
  the low word (bit i = element i, i < 64), ``mask[1]`` the high word (bit i = element 64 + i);
  for 32-bit types only the low word counts (a repeat has 64 elements); not both zero;
- normal mode, `mask` None (AscendC's ``isSetMask = false`` with MASK_PLACEHOLDER): the bit mask
  the core's SetVectorMask set (ResetMask: all ones);
- counter mode (SetMaskCount): the first N elements, N the count SetVectorMask gave, over as
  many repeats as they fill (the last one partial); `mask` and `repeatTimes` are ignored.

Masked-off elements are neither read nor written (dst keeps them); the sanitizer sees exactly the
bytes of the active elements (`gather`, `scatter`). An instruction reads all its operands before
it writes: a dst that overlaps a source gets results computed from the sources' old values.
Where two active elements of dst fall on the same address (repStride 0, say), the later one in
processing order (repeat by repeat, element by element) is what stays.

API (stable: other instructions build on it)
--------------------------------------------
``active_elements(dtype, mask, repeat_times, ctx) -> (repeat, index)``
    int64 arrays: the repeat and the element-in-repeat of every active element, in processing order.
``element_offsets(dtype, repeat, index, blk_stride, rep_stride) -> offsets``
    int64 element offsets (units of `dtype`) from the operand's start of those elements, for an
    operand of type `dtype` with those strides (the mask's type and an operand's type may differ).
``repeat_offsets(dtype, mask, repeat_times, blk_stride, rep_stride, ctx)``
    the two above in one, for an operand of the mask's type.
``gather(lt, offsets, instruction) -> values`` / ``scatter(lt, offsets, values, instruction)``
    read / write those elements of a LocalTensor through the sanitizer (overflow, underflow,
    read-before-write); scatter counts the instruction once (--stats).
``BinaryRepeatParams``, ``UnaryRepeatParams``
    AscendC's stride structs (strides in 32-byte blocks).
``split_args(name, args, count_arity, repeat_arity)``
    which form a call is: the count form or the mask/repeat form, by argument count.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .core import FULL_MASK, CoreContext, MaskState
from .errors import ApiContractError, EmulatorError
from .local_tensor import LocalTensor, _span, mark_undefined, read_local

BLOCK_BYTES = 32
REPEAT_BYTES = 256
MAX_REPEAT_TIMES = 255  # repeatTimes is a uint8_t
MAX_COUNTER_ELEMENTS = 1 << 24  # an emulator limit: far more than UB holds, refused beyond


@dataclass
class BinaryRepeatParams:
    """AscendC's BinaryRepeatParams: strides of dst, src0 and src1, in 32-byte blocks."""
    dstBlkStride: int = 1  # noqa: N815 - AscendC field names
    src0BlkStride: int = 1  # noqa: N815
    src1BlkStride: int = 1  # noqa: N815
    dstRepStride: int = 8  # noqa: N815
    src0RepStride: int = 8  # noqa: N815
    src1RepStride: int = 8  # noqa: N815

    def strides(self) -> tuple[tuple[int, int], ...]:
        """((blk, rep) of dst, of src0, of src1)."""
        return ((self.dstBlkStride, self.dstRepStride), (self.src0BlkStride, self.src0RepStride),
                (self.src1BlkStride, self.src1RepStride))


@dataclass
class UnaryRepeatParams:
    """AscendC's UnaryRepeatParams: strides of dst and src, in 32-byte blocks."""
    dstBlkStride: int = 1  # noqa: N815 - AscendC field names
    srcBlkStride: int = 1  # noqa: N815
    dstRepStride: int = 8  # noqa: N815
    srcRepStride: int = 8  # noqa: N815

    def strides(self) -> tuple[tuple[int, int], ...]:
        """((blk, rep) of dst, of src)."""
        return (self.dstBlkStride, self.dstRepStride), (self.srcBlkStride, self.srcRepStride)


# --- the mask state --------------------------------------------------------------------------

def SetMaskCount(ctx: CoreContext) -> None:  # noqa: N802 - AscendC name
    """Counter mode: a mask/repeat instruction processes the element count SetVectorMask gives."""
    ctx.vector_mask = ctx.vector_mask._replace(counter=True)


def SetMaskNorm(ctx: CoreContext) -> None:  # noqa: N802 - AscendC name
    """Normal mode (the default): repeatTimes repeats under a per-repeat mask."""
    ctx.vector_mask = ctx.vector_mask._replace(counter=False)


def SetVectorMask(ctx: CoreContext, *args: int) -> None:  # noqa: N802 - AscendC name
    """``SetVectorMask(ctx, maskHigh, maskLow)`` or ``SetVectorMask(ctx, len)``.

    Normal mode: (maskHigh, maskLow) is the bit mask; len is the continuous mask of the first len
    elements (stored as those bits). Counter mode: maskLow, or len, is the element count (maskHigh
    is ignored; AscendC says to pass 0). What the instructions read when their mask is None.

    Parameters
    ----------
    ctx : CoreContext
        The core.
    *args : int
        (maskHigh, maskLow) or (len,).
    """
    if len(args) == 2:
        high, low = (_uint64(v, "SetVectorMask") for v in args)
    elif len(args) == 1:
        n = int(args[0])
        if n < 0:
            raise EmulatorError(f"SetVectorMask(len={n}): len must be >= 0")
        if ctx.vector_mask.counter:
            high, low = 0, n
        else:
            if n > 128:
                raise EmulatorError(f"SetVectorMask(len={n}) in normal mode: at most 128 elements a repeat")
            low, high = (1 << min(n, 64)) - 1, (1 << max(n - 64, 0)) - 1
    else:
        raise EmulatorError(f"SetVectorMask takes (maskHigh, maskLow) or (len), got {len(args)} arguments")
    ctx.vector_mask = MaskState(ctx.vector_mask.counter, high, low)


def ResetMask(ctx: CoreContext) -> None:  # noqa: N802 - AscendC name
    """The mask register back to all ones (the mode stays)."""
    ctx.vector_mask = ctx.vector_mask._replace(high=FULL_MASK, low=FULL_MASK)


def _uint64(v, what: str) -> int:
    v = int(v)
    if not 0 <= v <= FULL_MASK:
        raise EmulatorError(f"{what}: mask word {v:#x} is not a uint64")
    return v


# --- addressing ------------------------------------------------------------------------------

def per_repeat(dtype) -> int:
    """Elements of `dtype` in one 256-byte repeat."""
    return REPEAT_BYTES // np.dtype(dtype).itemsize


def _bits_to_indices(low: int, high: int, n: int) -> np.ndarray:
    words = np.array([low, high], dtype="<u8").view(np.uint8)  # little-endian: bit i of low first
    bits = np.unpackbits(words, bitorder="little")[:n]
    return np.flatnonzero(bits).astype(np.int64)


def active_elements(dtype, mask, repeat_times: int, ctx: CoreContext) -> tuple[np.ndarray, np.ndarray]:
    """(repeat, index): the active elements, in processing order (see the module docstring).

    Parameters
    ----------
    dtype : numpy dtype-like
        The type that sizes a repeat (256 // sizeof elements).
    mask : int, sequence of two int, or None
        Continuous count, [low, high] bit words, or None for the core's SetVectorMask mask.
    repeat_times : int
        0..255 (normal mode; ignored in counter mode).
    ctx : CoreContext
        The core (its mask mode and register).

    Returns
    -------
    (numpy.ndarray, numpy.ndarray)
        int64 repeat indices and element-in-repeat indices.
    """
    n = per_repeat(dtype)
    state = ctx.vector_mask
    if state.counter:
        count = state.low
        if count > MAX_COUNTER_ELEMENTS:
            raise EmulatorError(f"counter mode with {count} elements: the emulator takes at most "
                                f"{MAX_COUNTER_ELEMENTS}")
        i = np.arange(count, dtype=np.int64)
        return i // n, i % n
    repeat_times = int(repeat_times)
    if not 0 <= repeat_times <= MAX_REPEAT_TIMES:
        raise EmulatorError(f"repeatTimes {repeat_times}: 0..{MAX_REPEAT_TIMES} (a uint8_t)")
    if mask is None:
        index = _bits_to_indices(state.low, state.high, n)
    elif isinstance(mask, (int, np.integer)):
        m = int(mask)
        if not 0 <= m <= n:  # AscendC's CheckMaskValue: 0..elements a repeat (0: a NOP)
            raise ApiContractError(f"continuous mask {m} for {np.dtype(dtype)}: AscendC takes 0..{n} "
                                   f"(the elements of one repeat)")
        index = np.arange(m, dtype=np.int64)
    elif isinstance(mask, (Sequence, np.ndarray)) and len(mask) == 2:
        low, high = (_uint64(v, "mask") for v in mask)
        if n <= 64:
            high = 0  # 32-bit types: only the low word counts
        if low == 0 and high == 0:
            raise EmulatorError("bit mask with no bit set (AscendC: mask[0], mask[1] not both 0)")
        index = _bits_to_indices(low, high, n)
    else:
        raise EmulatorError(f"mask must be an int (continuous), [low, high] (bit mode) or None, got {mask!r}")
    repeat = np.repeat(np.arange(repeat_times, dtype=np.int64), index.size)
    return repeat, np.tile(index, repeat_times)


def element_offsets(dtype, repeat: np.ndarray, index: np.ndarray, blk_stride: int,
                    rep_stride: int) -> np.ndarray:
    """Element offsets (units of `dtype`) of elements (repeat, index) in an operand of type `dtype`.

    Parameters
    ----------
    dtype : numpy dtype-like
        The operand's element type.
    repeat, index : numpy.ndarray
        From active_elements.
    blk_stride, rep_stride : int
        The operand's strides in 32-byte blocks (>= 0).

    Returns
    -------
    numpy.ndarray
        int64 offsets.
    """
    blk_stride, rep_stride = int(blk_stride), int(rep_stride)
    if blk_stride < 0 or rep_stride < 0:
        raise EmulatorError(f"strides must be >= 0, got blkStride {blk_stride}, repStride {rep_stride}")
    per_block = BLOCK_BYTES // np.dtype(dtype).itemsize
    blocks = repeat * rep_stride + (index // per_block) * blk_stride
    return blocks * per_block + index % per_block


def repeat_offsets(dtype, mask, repeat_times: int, blk_stride: int, rep_stride: int,
                   ctx: CoreContext) -> np.ndarray:
    """element_offsets(active_elements(...)) for an operand of the mask's type.

    Returns
    -------
    numpy.ndarray
        int64 element offsets, in processing order.
    """
    r, j = active_elements(dtype, mask, repeat_times, ctx)
    return element_offsets(dtype, r, j, blk_stride, rep_stride)


# --- access through the sanitizer -------------------------------------------------------------

def _runs(sorted_unique: np.ndarray) -> list[tuple[int, int]]:
    """[start, stop) runs of consecutive values in a sorted array without duplicates."""
    if sorted_unique.size == 0:
        return []
    breaks = np.flatnonzero(np.diff(sorted_unique) != 1) + 1
    starts = np.concatenate(([0], breaks))
    stops = np.concatenate((breaks, [sorted_unique.size]))
    return [(int(sorted_unique[a]), int(sorted_unique[b - 1]) + 1) for a, b in zip(starts, stops, strict=True)]


def _contiguous(offsets: np.ndarray) -> bool:
    return bool(offsets.size) and int(offsets[-1]) - int(offsets[0]) + 1 == offsets.size and \
        bool((np.diff(offsets) == 1).all())


def gather(lt: LocalTensor, offsets: np.ndarray, instruction: str) -> np.ndarray:
    """The elements of lt at `offsets` (a new array, in the order of `offsets`).

    Each maximal run of consecutive elements is one read as the sanitizer sees it (overflow past
    the buffer, underflow, read-before-write); bytes beyond the end of UB read as zeros.

    Parameters
    ----------
    lt : LocalTensor
        The operand.
    offsets : numpy.ndarray
        int64 element offsets (element_offsets).
    instruction : str
        Names the findings.

    Returns
    -------
    numpy.ndarray
    """
    if offsets.size == 0:
        return np.empty(0, lt.dtype)
    pending = lt.buffer.ctx.undefined_inputs
    first = len(pending)
    if _contiguous(offsets):
        out = read_local(lt[int(offsets[0])], offsets.size, instruction).copy()
        _undefined_by_position(pending, first, [(int(offsets[0]), first)], offsets)
        return out
    u = np.unique(offsets)
    lo = int(u[0])
    window = np.zeros(int(u[-1]) - lo + 1, dtype=lt.dtype)
    runs = []
    for a, b in _runs(u):
        runs.append((a, len(pending)))
        window[a - lo:b - lo] = read_local(lt[a], b - a, instruction)
    _undefined_by_position(pending, first, runs, offsets)
    return window[offsets - lo]


def _undefined_by_position(pending: list, first: int, runs: list[tuple[int, int]], offsets: np.ndarray) -> None:
    """The sanitizer's undefined elements that the reads of one gather recorded (pending[first:];
    run r's entries start at runs[r][1], relative to element runs[r][0]) as positions in the
    gather's processing order: one entry (instruction, positions, None, origin, elements read)."""
    found = pending[first:]
    if not found:
        return
    del pending[first:]
    undefined = np.zeros(offsets.size, dtype=bool)
    bounds = [at - first for _, at in runs] + [len(found)]
    for r, (a, _) in enumerate(runs):
        for _, e_lo, e_hi, _ in found[bounds[r]:bounds[r + 1]]:
            undefined |= (offsets >= a + e_lo) & (offsets < a + e_hi)
    pending.append((found[0][0], np.flatnonzero(undefined), None, found[0][3], offsets.size))


def scatter(lt: LocalTensor, offsets: np.ndarray, values: np.ndarray, instruction: str, issue: bool = True) -> None:
    """Store values[i] at element offsets[i] of lt; the instruction is counted once (not at all
    with issue=False: a caller storing one instruction in pieces counts it itself).

    Each maximal run of consecutive elements is one write as the sanitizer sees it; bytes beyond
    the end of UB are dropped. Where offsets repeat, the later value stays.

    Parameters
    ----------
    lt : LocalTensor
        The destination.
    offsets : numpy.ndarray
        int64 element offsets (element_offsets).
    values : numpy.ndarray
        lt's type, one per offset.
    instruction : str
        Names the findings and the --stats count.
    """
    ctx = lt.buffer.ctx
    if issue:
        ctx.counters.issue(instruction)
    if offsets.size == 0:
        return
    # the undefined inputs the gathers found: placed here by position, not by _store's own writes
    pending = [p for p in ctx.undefined_inputs if p[0] == instruction]
    ctx.undefined_inputs.clear()
    values = np.asarray(values, dtype=lt.dtype)
    if _contiguous(offsets):
        _store(lt[int(offsets[0])], values, instruction)
    else:
        _scatter_runs(lt, offsets, values, instruction)
    for entry in pending:
        positions, origin = entry[1], entry[3]
        if entry[2] is not None or len(entry) < 5 or entry[4] != offsets.size:
            positions = np.arange(offsets.size)  # another shape (a reduction): every result is undefined
        mark_undefined(lt, offsets[positions], origin)


def reads_earlier_repeats(dst: LocalTensor, dst_offsets: np.ndarray, src: LocalTensor, src_offsets: np.ndarray,
                          repeats: np.ndarray) -> bool:
    """Whether some repeat reads from `src` an element an earlier repeat writes to `dst` (one
    repeat index per offset, in `repeats`): the repeats then depend on each other's results."""
    if src.buffer is not dst.buffer or dst_offsets.size == 0 or src_offsets.size == 0:
        return False
    size = dst.dtype.itemsize
    written = dst.offset + dst_offsets * size  # byte address of each element's start
    read = src.offset + src_offsets * src.dtype.itemsize
    order = np.lexsort((repeats, written))  # by address, then repeat: the first write of each address
    addresses, first = np.unique(written[order], return_index=True)
    first_repeat = repeats[order][first]
    k = np.searchsorted(addresses, read)
    hit = (k < addresses.size) & (addresses[np.minimum(k, addresses.size - 1)] == read)
    return bool(np.any(first_repeat[k[hit]] < repeats[hit]))


def _scatter_runs(lt: LocalTensor, offsets: np.ndarray, values: np.ndarray, instruction: str) -> None:
    # The last occurrence of each offset wins: unique over the reversed order keeps it.
    rev_u, rev_i = np.unique(offsets[::-1], return_index=True)
    picked = values[::-1][rev_i]
    lo = int(rev_u[0])
    window = np.zeros(int(rev_u[-1]) - lo + 1, dtype=lt.dtype)
    window[rev_u - lo] = picked
    for a, b in _runs(rev_u):
        _store(lt[a], window[a - lo:b - lo], instruction)


def _store(lt: LocalTensor, values: np.ndarray, instruction: str) -> None:
    """write_local without counting the instruction (scatter counted it once)."""
    raw = np.ascontiguousarray(values).view(np.uint8).reshape(-1)
    start, stop, head = _span(lt, raw.size, instruction, True, True)
    lt.buffer.storage[start:stop] = raw[head:head + stop - start]


# --- dispatch ----------------------------------------------------------------------------------

def split_args(name: str, args: tuple, count_arity: int, repeat_arity: int) -> bool:
    """True for the mask/repeat form, False for the count form (by the number of arguments).

    Raises
    ------
    EmulatorError
        Neither arity.
    """
    if len(args) == count_arity:
        return False
    if len(args) == repeat_arity:
        return True
    raise EmulatorError(f"{name} takes {count_arity} arguments (count form) or {repeat_arity} (mask, "
                        f"repeatTimes, repeatParams), got {len(args)}")
