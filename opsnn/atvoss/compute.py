"""Runs a DAG's vector ops on one tile: every tensor node in its planned UB buffer, scalar
holders and scalar ops as values. The schedules do the copies in and out; this does the rest."""
from __future__ import annotations

from functools import cache

import numpy as np

from opsnn.ascendc import CMPMODE, And, Compare, EmulatorError, LocalTensor, Or, SelectTensors
from opsnn.ascendc.add_sub_arch35 import Add, Sub
from opsnn.ascendc.cast import cast_values
from opsnn.ascendc.cast_arch35 import Cast
from opsnn.ascendc.local_tensor import close_local, open_local
from opsnn.ascendc.mul_arch35 import Mul

from .buffers import BufferPlan
from .dag import Const, Dag, Node, ScalarIn, Var, _dtype

_MIRROR = {CMPMODE.LT: CMPMODE.GT, CMPMODE.GT: CMPMODE.LT, CMPMODE.LE: CMPMODE.GE, CMPMODE.GE: CMPMODE.LE,
           CMPMODE.EQ: CMPMODE.EQ, CMPMODE.NE: CMPMODE.NE}


class TileRunner:
    """One core's view of the DAG: the UB buffers (slot_bytes each, from `ub`) and the scalars."""

    def __init__(self, dag: Dag, plan: BufferPlan, ub: LocalTensor, slot_bytes: int, scalar_data: bytes):
        self.dag = dag
        self.plan = plan
        self.ub = ub
        self.slot_bytes = slot_bytes
        self.vars = np.frombuffer(bytes(scalar_data).ljust(16, b"\0")[:16], dtype=np.float32)
        self.scalar_inputs: dict[int, np.generic] = {}  # ScalarIn values the schedule read from GM
        self.program = _program(dag)
        # every tensor node's tile, ping and pong, made once per core (not per tile): one
        # LocalTensor per (buffer, type), where the buffers are the same on every core
        views, tiles = _tile_layout(dag, plan)
        buffer, base = ub.buffer, ub.offset
        lts = [LocalTensor(buffer, dtype, base + buf * slot_bytes) for buf, dtype in views]
        self._tiles = {node_id: (lts[ping], lts[pong]) for node_id, ping, pong in tiles}

    def tensor(self, node: Node, parity: int) -> LocalTensor:
        return self._tiles[id(node)][parity]

    def value(self, arg, parity: int, scalars: dict):
        """A LocalTensor for a tensor node, a numpy scalar for a holder or scalar op."""
        if isinstance(arg, Node):
            return scalars[id(arg)] if arg.is_scalar else self._tiles[id(arg)][parity]
        if isinstance(arg, ScalarIn):
            return self.scalar_inputs[arg.index]
        if isinstance(arg, Var):
            return np.asarray(self.vars[arg.index]).astype(_np(arg.dtype))[()]
        if isinstance(arg, Const):
            return np.asarray(arg.value, dtype=_np(arg.dtype))[()]
        raise EmulatorError(f"unknown DAG operand {arg!r}")

    def _operand(self, arg):
        """(kind, payload), resolved once per core: 0 tiles by parity, 1 a constant value, 2 a
        ScalarIn index (read per tile), 3 a scalar op's node id (computed per tile)."""
        if isinstance(arg, Node):
            return (3, id(arg)) if arg.is_scalar else (0, self._tiles[id(arg)])
        if isinstance(arg, ScalarIn):
            return 2, arg.index
        return 1, self.value(arg, 0, {})

    @property
    def steps(self) -> list:
        steps = self.__dict__.get("_steps")
        if steps is None:
            steps = self.__dict__["_steps"] = [
                (f, None if f.is_scalar else self._tiles[id(f)], [self._operand(a) for a in args])
                for f, args in self.program]
        return steps

    @property
    def calls(self) -> tuple | None:
        """Per parity, the DAG's instructions as (function, leading arguments), the count to be
        appended: bound once per core, for a DAG whose operands are all tiles and constants (no
        ScalarIn, no scalar op: those are read or computed per tile, by the general path)."""
        if "_calls" not in self.__dict__:
            program, tiles = _static_program(self.dag), self._tiles
            self.__dict__["_calls"] = None if program is None else tuple(
                tuple(_bind(f, tiles[id(f)][parity],
                            [tiles[id(a)][parity] if isinstance(a, Node) else self.value(a, 0, {}) for a in args])
                      for f, args in program)
                for parity in (0, 1))
        return self.__dict__["_calls"]

    def run(self, parity: int, count: int) -> None:
        """Every compute node of the DAG over `count` elements of the tile of this parity."""
        calls = self.calls
        if calls is not None:
            for fn, args in calls[parity]:
                fn(*args, count)
            return
        scalars: dict[int, np.generic] = {}
        inputs = self.scalar_inputs
        for f, dst, operands in self.steps:
            values = [p[parity] if k == 0 else p if k == 1 else inputs[p] if k == 2 else scalars[p]
                      for k, p in operands]
            if dst is None:
                scalars[id(f)] = _scalar_op(f, values)
            else:
                _tensor_op(f, dst[parity], values, count)


_LAYOUTS: dict[int, tuple] = {}  # id(plan) -> (plan, dag, layout): a plan is immutable (and unhashable)


def _tile_layout(dag: Dag, plan: BufferPlan) -> tuple:
    """((buffer, dtype) per distinct view, (id(node), ping view, pong view) per tensor node)."""
    hit = _LAYOUTS.get(id(plan))
    if hit is not None and hit[0] is plan and hit[1] is dag:
        return hit[2]
    layout = _LAYOUTS[id(plan)] = (plan, dag, _layout(dag, plan))
    return layout[2]


def _layout(dag: Dag, plan: BufferPlan) -> tuple:
    views: dict[tuple[int, str], int] = {}
    tiles = []
    for f in dag.fun_list:
        if id(f) in plan.slots:
            ping, pong = (views.setdefault((plan.buffer(plan.slots[id(f)], parity), f.dtype), len(views))
                          for parity in (0, 1))
            tiles.append((id(f), ping, pong))
    return tuple((buf, _np(name)) for buf, name in views), tuple(tiles)


@cache
def _program(dag: Dag) -> tuple:
    """The compute nodes in FunList order with their operands (no-op Casts skipped)."""
    return tuple((f, dag.args(f)) for f in dag.fun_list if not (f.is_copy_in or f.op == "CopyOut"))


@cache
def _static_program(dag: Dag) -> tuple | None:
    """_program(dag) where every compute node is a tensor op whose operands are tiles, Vars and
    Consts (what TileRunner.calls binds once per core); None where a ScalarIn or a scalar op
    makes an operand change from tile to tile."""
    program = _program(dag)
    for f, args in program:
        if f.is_scalar or any(isinstance(a, ScalarIn) or (isinstance(a, Node) and a.is_scalar) for a in args):
            return None
    return program


def _np(name: str) -> np.dtype:
    return _dtype(name)


def _scalar_op(f: Node, args: list):
    if f.op in ("ToFloat", "Cast"):
        mode = f.attrs[0] if f.op == "Cast" else None
        src = np.asarray(args[0]).reshape(1)
        out = cast_values(src, _np(f.dtype), mode) if mode is not None else src.astype(np.float32)
        return out[0]
    raise EmulatorError(f"{f.op} is not a scalar op here")


_LOGIC = {"And": And, "Or": Or}
_ARITH = {"Add": Add, "Sub": Sub}


def _bind(f: Node, dst: LocalTensor, args: list) -> tuple:
    """(function, arguments before the count): what _tensor_op would call, resolved once."""
    op = f.op
    if op == "Duplicate":
        return duplicate_scalar, (dst, args[0])
    if op == "Cast":
        if not isinstance(args[0], LocalTensor):
            return duplicate_scalar, (dst, cast_values(np.asarray(args[0]).reshape(1), dst.dtype, f.attrs[0])[0])
        return Cast, (dst, args[0], f.attrs[0])
    if op == "Compare":
        a, b, mode = args[0], args[1], f.attrs[0]
        if not isinstance(a, LocalTensor):
            a, b, mode = b, a, _MIRROR[mode]
        return Compare, (dst, a, b, mode)
    if op == "Select":
        return SelectTensors, (dst, args[0], args[1], args[2])
    if op in _LOGIC:
        return _LOGIC[op], (dst, args[0], args[1])
    if op == "Mul":
        a, b = args
        if not isinstance(a, LocalTensor):
            a, b = b, a
        return Mul, (dst, a, b)
    if op in _ARITH:
        a, b = args
        if op == "Add" and not isinstance(a, LocalTensor):
            a, b = b, a
        return _ARITH[op], (dst, a, b)
    raise EmulatorError(f"DAG op {op} has no emulator instruction")


def _tensor_op(f: Node, dst: LocalTensor, args: list, n: int) -> None:
    op = f.op
    if op == "Duplicate":
        duplicate_scalar(dst, args[0], n)
    elif op == "Cast":
        if not isinstance(args[0], LocalTensor):
            duplicate_scalar(dst, cast_values(np.asarray(args[0]).reshape(1), dst.dtype, f.attrs[0])[0], n)
        else:
            Cast(dst, args[0], f.attrs[0], n)
    elif op == "Compare":
        a, b, mode = args[0], args[1], f.attrs[0]
        if not isinstance(a, LocalTensor):
            a, b, mode = b, a, _MIRROR[mode]
        Compare(dst, a, b, mode, n)
    elif op == "Select":
        SelectTensors(dst, args[0], args[1], args[2], n)
    elif op in _LOGIC:
        _LOGIC[op](dst, args[0], args[1], n)
    elif op == "Mul":
        a, b = args
        if not isinstance(a, LocalTensor):
            a, b = b, a
        Mul(dst, a, b, n)
    elif op in _ARITH:
        fn, args = _bind(f, dst, args)
        fn(*args, n)
    else:
        raise EmulatorError(f"DAG op {op} has no emulator instruction")


def duplicate_scalar(dst: LocalTensor, scalar, n: int) -> None:
    """Duplicate for every arch35 type (arith.Duplicate is the A2 one: no 8-bit or 64-bit types)."""
    if n <= 0:
        return
    out, direct = open_local(dst, n, "Duplicate")
    out.fill(np.asarray(scalar, dtype=dst.dtype))
    close_local(dst, out, direct, "Duplicate")
