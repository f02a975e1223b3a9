"""The vector instructions HardtanhGrad's DAG needs beyond what opsnn.atvoss runs, and the tile
runner that binds them. Kept in this folder because the shared emulator lacks them:

  And / Or (And<uint8_t>, Or<uint8_t>)   bitwise on the packed masks Compare writes (bit i of the
                                         mask = element i), ceil(count / 8) bytes each
  Compare NE                             IEEE not-equal: true when either side is NaN. The shared
                                         Compare treats every comparison with NaN as false, NE
                                         included; upstream's DAG uses Compare(x, x, NE) as its NaN
                                         test (its golden and its ST cases expect NaN self -> grad),
                                         so on arch35 NE must be the unordered compare.

Everything reads and writes UB through read_local / write_local, so the sanitizer sees it."""
from __future__ import annotations

import numpy as np

from opsnn.ascendc import CMPMODE, Compare, EmulatorError, LocalTensor, SelectTensors
from opsnn.ascendc.cast_arch35 import Cast
from opsnn.ascendc.local_tensor import read_local, write_local
from opsnn.atvoss import Node
from opsnn.atvoss.compute import TileRunner


def _mask_bytes(count: int) -> int:
    return -(-int(count) // 8)


def And(dst: LocalTensor, src0: LocalTensor, src1: LocalTensor, count: int) -> None:  # noqa: N802
    """dst = src0 & src1 over the mask bytes of `count` elements."""
    if count <= 0:
        return
    n = _mask_bytes(count)
    write_local(dst, np.bitwise_and(read_local(src0, n, "And"), read_local(src1, n, "And")), "And")


def Or(dst: LocalTensor, src0: LocalTensor, src1: LocalTensor, count: int) -> None:  # noqa: N802
    """dst = src0 | src1 over the mask bytes of `count` elements."""
    if count <= 0:
        return
    n = _mask_bytes(count)
    write_local(dst, np.bitwise_or(read_local(src0, n, "Or"), read_local(src1, n, "Or")), "Or")


def CompareNotEqual(dst: LocalTensor, src0: LocalTensor, src1, count: int) -> None:  # noqa: N802
    """Compare(..., NE) with IEEE semantics: bit i = src0[i] != src1[i] (or the scalar), true
    for NaN. src1 may be src0 itself (the NaN test)."""
    if count <= 0:
        return
    a = read_local(src0, count, "Compare")
    b = read_local(src1, count, "Compare") if isinstance(src1, LocalTensor) else np.asarray(src1, a.dtype)
    with np.errstate(invalid="ignore"):
        bits = np.not_equal(a, b)
    write_local(dst, np.packbits(bits, bitorder="little"), "Compare")


def _bind(f: Node, dst: LocalTensor, args: list) -> tuple:
    op = f.op
    if op == "Cast":
        return Cast, (dst, args[0], f.attrs[0])
    if op == "Compare":
        mode = f.attrs[0]
        if not isinstance(args[0], LocalTensor):
            raise EmulatorError(f"{op}: the first operand must be a tile")
        if mode is CMPMODE.NE:
            return CompareNotEqual, (dst, args[0], args[1])
        return Compare, (dst, args[0], args[1], mode)
    if op == "And":
        return And, (dst, *args)
    if op == "Or":
        return Or, (dst, *args)
    if op == "Select":
        return SelectTensors, (dst, *args)
    raise EmulatorError(f"HardtanhGrad's DAG has no op {op}")


class MaskTileRunner(TileRunner):
    """atvoss's TileRunner with this DAG's instructions bound once per core (the DAG reads only
    tiles, Vars and Consts, so every operand is known before the first tile)."""

    @property
    def calls(self) -> tuple:
        if "_calls" not in self.__dict__:
            program = [(f, self.dag.args(f)) for f in self.dag.fun_list if not (f.is_copy_in or f.op == "CopyOut")]
            self.__dict__["_calls"] = tuple(
                tuple(_bind(f, self.tensor(f, parity),
                            [self.tensor(a, parity) if isinstance(a, Node) else self.value(a, 0, {}) for a in args])
                      for f, args in program)
                for parity in (0, 1))
        return self.__dict__["_calls"]
