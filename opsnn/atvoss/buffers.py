"""DAG buffer accounting: how many tile-sized UB buffers a DAG needs (upstream DAGSch with
MemOptCfg LEVEL_2) and which buffer each node's tile lives in.

Walk the FunList keeping the set of live nodes. A node is a *temporary* when it is a tensor op
that neither is a copy-in nor feeds a CopyOut directly. The temporaries live at once bound the
scratch buffers; every GM tensor input and every CopyOut (that is not a bare copy of an input)
gets two buffers, ping and pong, so that tile t+1's copies can overlap tile t's compute."""
from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

# No import of .dag (it imports this module): a DAG is whatever has fun_list / args / inputs /
# outputs / copy_brc_num, its nodes whatever has op / is_scalar / is_copy_in / index.
Dag = Any
Node = Any


def _is_tensor_node(a) -> bool:
    return getattr(a, "is_scalar", True) is False  # holders have no is_scalar; scalar ops are True


def _tensor_args(dag: Dag, f: Node) -> list[Node]:
    return [a for a in dag.args(f) if _is_tensor_node(a)]


def _feeds_copy_out(dag: Dag) -> set[int]:
    return {id(dag.args(f)[0]) for f in dag.fun_list if f.op == "CopyOut"}


def _last_use(dag: Dag) -> dict[int, int]:
    last: dict[int, int] = {}
    for i, f in enumerate(dag.fun_list):
        for a in _tensor_args(dag, f):
            last[id(a)] = i
    return last


def _is_temp(f: Node, to_out: set[int], brc_is_temp: bool = False) -> bool:
    copy_in = f.op == "CopyIn" or (f.op == "CopyInBrc" and not brc_is_temp)
    return not (f.is_scalar or copy_in or f.op == "CopyOut" or id(f) in to_out)


def max_temp(dag: Dag, reserve_brc: bool = False, brc_is_temp: bool = False) -> int:
    """Most temporaries live at one node. reserve_brc: CopyInBrc tiles are cached (persistent),
    not live nodes; brc_is_temp: a live CopyInBrc tile (broadcast in UB, not by NDDMA) counts
    as a temporary. (The ops here need no scratch of their own: upstream's TempSize is 0.)"""
    to_out, last = _feeds_copy_out(dag), _last_use(dag)
    alive: dict[int, Node] = {}
    best = 0
    for i, f in enumerate(dag.fun_list):
        for n in _tensor_args(dag, f) + ([] if f.op == "CopyOut" or f.is_scalar else [f]):
            if not (reserve_brc and n.op == "CopyInBrc"):
                alive[id(n)] = n
        best = max(best, sum(1 for n in alive.values() if _is_temp(n, to_out, brc_is_temp)))
        for a in _tensor_args(dag, f):
            if last[id(a)] == i:
                alive.pop(id(a), None)
    return best


def _tensor_inputs(dag: Dag) -> int:
    return sum(1 for info in dag.inputs.values() if not info.scalar)


def _buffered_outputs(dag: Dag) -> int:
    return sum(1 for o in dag.outputs if not dag.args(o)[0].is_copy_in)


def buffer_num(dag: Dag, use_nddma: bool = True, cache_brc: bool = False) -> int:
    """GetBufferNum<use_nddma, cache_brc>() at LEVEL_2."""
    ub_brc = not use_nddma and cache_brc
    temps = max_temp(dag, reserve_brc=cache_brc, brc_is_temp=not use_nddma)
    persistent = dag.copy_brc_num if ub_brc else 0
    return temps + 2 * _tensor_inputs(dag) + 2 * _buffered_outputs(dag) + persistent


@dataclass(frozen=True)
class Slot:
    kind: str  # "in" (ping/pong per input), "out" (ping/pong per output), "temp", "cache"
    index: int  # input index, output index, temp number or cache number


@dataclass(frozen=True)
class BufferPlan:
    """Where each tensor node's tile lives; buffer numbers count from the start of the TBuf."""
    slots: dict  # id(node) -> Slot
    inputs: tuple[int, ...]  # tensor input indices, in buffer order
    outputs: int
    temps: int
    caches: int

    def buffer(self, slot: Slot, parity: int) -> int:
        n_in = len(self.inputs)
        if slot.kind == "in":
            return 2 * self.inputs.index(slot.index) + parity
        if slot.kind == "out":
            return 2 * n_in + 2 * slot.index + parity
        if slot.kind == "temp":
            return 2 * n_in + 2 * self.outputs + slot.index
        return 2 * n_in + 2 * self.outputs + self.temps + slot.index

    @property
    def total(self) -> int:
        return 2 * len(self.inputs) + 2 * self.outputs + self.temps + self.caches


@cache  # a DAG is immutable: every core of every launch shares one plan
def plan_buffers(dag: Dag, caches: int = 0) -> BufferPlan:
    """Greedy slot assignment along the FunList: a temporary takes the lowest scratch buffer no
    live temporary holds; on interval lifetimes that needs exactly max_temp() buffers."""
    to_out, last = _feeds_copy_out(dag), _last_use(dag)
    outs = {id(dag.args(o)[0]): o.index for o in dag.outputs}
    slots: dict[int, Slot] = {}
    held: dict[int, int] = {}  # id(node) -> temp number, for live temporaries
    top = 0
    for i, f in enumerate(dag.fun_list):
        if f.is_copy_in:
            slots[id(f)] = Slot("in", f.index)
        elif id(f) in outs and not f.is_scalar:
            slots[id(f)] = Slot("out", outs[id(f)])
        elif _is_temp(f, to_out):
            busy = set(held.values())
            k = next(j for j in range(len(busy) + 1) if j not in busy)
            held[id(f)] = k
            top = max(top, k + 1)
            slots[id(f)] = Slot("temp", k)
        for a in _tensor_args(dag, f):
            if last[id(a)] == i:
                held.pop(id(a), None)
    inputs = tuple(i for i, info in dag.inputs.items() if not info.scalar)
    return BufferPlan(slots, inputs, len(dag.outputs), top, caches)
