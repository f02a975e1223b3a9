"""The DAG an operator describes its computation with: holders (where values come from) and
nodes (vector ops), ending in CopyOut nodes. Upstream writes these as C++ types (`Bind<Op, ...>`);
here they are immutable Python objects, compared by identity.

Holders take no UB: a ScalarIn (element 0 of a GM input), a Var (a float from the tiling's
scalar_data) and a Const. Nodes produce a tile (or, for a scalar op, one value)."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from opsnn.ascendc import CMPMODE, RoundMode
from opsnn.dtypes import BY_NAME

from .buffers import buffer_num
from .errors import DagError

CMP = CMPMODE  # upstream's CMPMODE: LT, GT, EQ, LE, GE, NE

__all__ = ["CMP", "Add", "And", "Cast", "Compare", "Const", "CopyIn", "CopyInBrc", "CopyOut", "Dag", "Duplicate",
           "InputInfo", "Mul", "Node", "Or", "RoundMode", "ScalarIn", "Select", "Sub", "ToFloat", "Var"]

_DTYPES = dict(BY_NAME, int16=np.dtype(np.int16))


def _dtype(name: str) -> np.dtype:
    try:
        return _DTYPES[name]
    except KeyError:
        raise DagError(f"unknown dtype {name!r}; known: {', '.join(_DTYPES)}") from None


# ---- holders ---------------------------------------------------------------------------------

@dataclass(frozen=True, eq=False)
class ScalarIn:
    """`PlaceHolder::In<index, T, ScalarAttr<1>>`: element 0 of GM input `index`."""
    index: int
    dtype: str


@dataclass(frozen=True, eq=False)
class Var:
    """`Var<T, index>`: slot `index` of the scalar_data the tiling wrote (SetScalar)."""
    index: int
    dtype: str = "float32"


@dataclass(frozen=True, eq=False)
class Const:
    """A constant known when the DAG is written."""
    value: float
    dtype: str


Holder = ScalarIn | Var | Const


# ---- nodes -----------------------------------------------------------------------------------

@dataclass(frozen=True, eq=False)
class Node:
    """One vector op. `op` names it; `args` are nodes or holders; `dtype` is its output."""
    op: str
    args: tuple
    dtype: str
    attrs: tuple = ()  # op-specific: (index,) for copies, (mode,) for Cast / Compare

    @property
    def is_copy_in(self) -> bool:
        return self.op in ("CopyIn", "CopyInBrc")

    @cached_property
    def is_scalar(self) -> bool:
        """Upstream's IsScalarOp: every input a scalar holder or scalar op, and not a Duplicate."""
        if self.op in ("Duplicate", "CopyIn", "CopyInBrc", "CopyOut"):
            return False
        return all(isinstance(a, (ScalarIn, Var, Const)) or (isinstance(a, Node) and a.is_scalar)
                   for a in self.args)

    @property
    def index(self) -> int:
        return self.attrs[0]


def CopyIn(index: int, dtype: str) -> Node:  # noqa: N802 - upstream name
    """Tile of GM input `index` (same shape as the output)."""
    _dtype(dtype)
    return Node("CopyIn", (), dtype, (int(index),))


def CopyInBrc(index: int, dtype: str) -> Node:  # noqa: N802
    """Tile of GM input `index`, broadcast to the output tile by the broadcast schedules."""
    _dtype(dtype)
    return Node("CopyInBrc", (), dtype, (int(index),))


def CopyOut(src: Node, index: int) -> Node:  # noqa: N802
    """Write `src`'s tile to GM output `index`."""
    _need_tensor(src, "CopyOut")
    return Node("CopyOut", (src,), src.dtype, (int(index),))


def Duplicate(src: Holder | Node) -> Node:  # noqa: N802
    """A full tile of the scalar `src`."""
    if isinstance(src, Node) and not src.is_scalar:
        raise DagError("Duplicate takes a scalar holder or a scalar op")
    return Node("Duplicate", (src,), src.dtype)


def Cast(src: Node | Holder, dtype: str, mode: RoundMode = RoundMode.CAST_NONE) -> Node:  # noqa: N802
    _dtype(dtype)
    if not isinstance(mode, RoundMode):
        raise DagError(f"Cast mode must be a RoundMode, got {mode!r}")
    return Node("Cast", (src,), dtype, (mode,))


def ToFloat(src: Holder | Node) -> Node:  # noqa: N802
    """A scalar widened to float32 (upstream ToFloatScalar); a scalar op."""
    if isinstance(src, Node) and not src.is_scalar:
        raise DagError("ToFloat takes a scalar")
    return Node("ToFloat", (src,), "float32")


def Compare(a: Node | Holder, b: Node | Holder, mode: CMPMODE) -> Node:  # noqa: N802
    """uint8 mask: a <mode> b, element by element (NaN compares false, NE included)."""
    if a.dtype != b.dtype:
        raise DagError(f"Compare of {a.dtype} with {b.dtype}")
    if not isinstance(mode, CMPMODE):
        raise DagError(f"Compare mode must be a CMP, got {mode!r}")
    return Node("Compare", (a, b), "uint8", (mode,))


_MASKS = ("Compare", "And", "Or")  # the ops whose result is a packed uint8 bit mask


def And(a: Node, b: Node) -> Node:  # noqa: N802 - upstream name (And<uint8_t>)
    """Both conditions: the bitwise AND of two masks."""
    return _logic("And", a, b)


def Or(a: Node, b: Node) -> Node:  # noqa: N802 - upstream name (Or<uint8_t>)
    """Either condition: the bitwise OR of two masks."""
    return _logic("Or", a, b)


def _logic(op: str, a: Node, b: Node) -> Node:
    for m in (a, b):
        if not isinstance(m, Node) or m.op not in _MASKS:
            raise DagError(f"{op} combines masks (Compare, And, Or), not {getattr(m, 'op', m)!r}")
    return Node(op, (a, b), "uint8")


def Select(mask: Node, src0: Node | Holder, src1: Node | Holder) -> Node:  # noqa: N802
    """src0 where the mask is set, src1 elsewhere (values move as bit patterns)."""
    if not isinstance(mask, Node) or mask.op not in _MASKS:
        raise DagError("Select's mask must be a Compare, And or Or node")
    if src0.dtype != src1.dtype:
        raise DagError(f"Select of {src0.dtype} and {src1.dtype}")
    return Node("Select", (mask, src0, src1), src0.dtype)


def Mul(a: Node | Holder, b: Node | Holder) -> Node:  # noqa: N802
    if a.dtype != b.dtype:
        raise DagError(f"Mul of {a.dtype} with {b.dtype}")
    return Node("Mul", (a, b), a.dtype)


def Add(a: Node | Holder, b: Node | Holder) -> Node:  # noqa: N802
    """a + b in the operand dtype (Adds when one side is a scalar)."""
    return _arith("Add", a, b)


def Sub(a: Node, b: Node | Holder) -> Node:  # noqa: N802
    """a - b in the operand dtype; `a` a tensor node (a scalar minus a tensor: Duplicate it first)."""
    _need_tensor(a, "Sub")
    return _arith("Sub", a, b)


def _arith(op: str, a, b) -> Node:
    if a.dtype != b.dtype:
        raise DagError(f"{op} of {a.dtype} with {b.dtype}")
    return Node(op, (a, b), a.dtype)


def _need_tensor(node, op: str) -> None:
    if not isinstance(node, Node) or node.is_scalar:
        raise DagError(f"{op} takes a tensor node")


# ---- the DAG ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class InputInfo:
    dtype: str
    scalar: bool  # a ScalarIn: only element 0 is read
    brc: bool  # fed to a CopyInBrc node


def _real(node):
    """The node a consumer really reads: a Cast to its own source's dtype is no op (upstream
    drops it from the DAG)."""
    while isinstance(node, Node) and node.op == "Cast" and node.args[0].dtype == node.dtype:
        node = node.args[0]
    return node


@dataclass(frozen=True, eq=False)
class Dag:
    name: str
    outputs: Sequence[Node]  # CopyOut nodes, in output order
    args_of: dict = field(init=False, repr=False)

    def __post_init__(self):
        outs = tuple(self.outputs)
        for o in outs:
            if not isinstance(o, Node) or o.op != "CopyOut":
                raise DagError(f"{self.name}: outputs must be CopyOut nodes")
        object.__setattr__(self, "outputs", outs)
        object.__setattr__(self, "args_of", {})

    def args(self, node: Node) -> tuple:
        """node's operands with no-op Casts skipped."""
        got = self.args_of.get(id(node))
        if got is None:
            got = tuple(_real(a) for a in node.args)
            self.args_of[id(node)] = got
        return got

    @cached_property
    def fun_list(self) -> tuple[Node, ...]:
        """Post-order from the CopyOut nodes, operands left to right, first occurrence kept."""
        order: list[Node] = []
        seen: set[int] = set()

        def visit(node: Node) -> None:
            if id(node) in seen:
                return
            for a in self.args(node):
                if isinstance(a, Node):
                    visit(a)
            seen.add(id(node))
            order.append(node)

        for o in self.outputs:
            visit(o)
        return tuple(order)

    @cached_property
    def inputs(self) -> dict[int, InputInfo]:
        """GM inputs by index, from the copy nodes and ScalarIn holders."""
        found: dict[int, InputInfo] = {}

        def add(index: int, info: InputInfo) -> None:
            old = found.setdefault(index, info)
            if old.dtype != info.dtype:
                raise DagError(f"{self.name}: input {index} read as {old.dtype} and {info.dtype}")
            if old.scalar != info.scalar:
                raise DagError(f"{self.name}: input {index} read both as a tensor and as a scalar")
            if info.brc and not old.brc:
                found[index] = info

        for f in self.fun_list:
            if f.is_copy_in:
                add(f.index, InputInfo(f.dtype, False, f.op == "CopyInBrc"))
            for a in self.args(f):
                if isinstance(a, ScalarIn):
                    add(a.index, InputInfo(a.dtype, True, False))
        want = set(range(len(found)))
        if set(found) != want:
            raise DagError(f"{self.name}: inputs {sorted(found)} are not numbered 0..{len(found) - 1}")
        return dict(sorted(found.items()))

    @property
    def input_size(self) -> int:
        return len(self.inputs)

    @property
    def output_size(self) -> int:
        return len(self.outputs)

    @cached_property
    def copy_brc_inputs(self) -> tuple[int, ...]:
        """Input index of each CopyInBrc node, in FunList order (the broadcast struct's order)."""
        return tuple(f.index for f in self.fun_list if f.op == "CopyInBrc")

    @property
    def copy_brc_num(self) -> int:
        return len(self.copy_brc_inputs)

    @cached_property
    def var_num(self) -> int:
        return len({a.index for f in self.fun_list for a in self.args(f) if isinstance(a, Var)})

    @cached_property
    def max_dtype_bytes(self) -> int:
        return max(_dtype(f.dtype).itemsize for f in self.fun_list)

    @cached_property
    def min_dtype_bytes(self) -> int:
        return min(_dtype(f.dtype).itemsize for f in self.fun_list)

    def buffer_num(self, use_nddma: bool = True, cache_brc: bool = False) -> int:
        key = ("buffer_num", bool(use_nddma), bool(cache_brc))
        got = self.args_of.get(key)  # memo: the DAG never changes
        if got is None:
            got = self.args_of[key] = buffer_num(self, use_nddma, cache_brc)
        return got

    def dtype_of(self, index: int) -> np.dtype:
        return _dtype(self.inputs[index].dtype)

    def output_dtype(self, index: int) -> np.dtype:
        return _dtype(self.outputs[index].dtype)
