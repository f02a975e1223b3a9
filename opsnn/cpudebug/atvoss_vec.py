"""The count-form vector instructions the C++ atvoss framework's Vec ops run (opsnn/cpudebug/include/
atvoss/util/vec.h calls them as "Atvoss.<name>"), on Ascend950 as opsnn's Python atvoss runs the
same DAG ops (opsnn/atvoss/compute.py): the same emulator functions, so a DAG written in C++ and
the same DAG written in Python compute the same bits.

The arch35 forms where Ascend950 differs from Atlas A2 (add_sub_arch35, mul_arch35, cast_arch35,
the platform-aware Compare, SelectTensors, a Duplicate of every type, packed-bit And/Or); the A2
functions where the rule is the same for the float types the DAGs compute in (Div, Max, Min, the
scalar forms, the unary ops, the high-level math and Axpy). A Vec op no function here computes
fails the launch naming it."""
from __future__ import annotations

import numpy as np

from opsnn import ascendc
from opsnn.ascendc import EmulatorError, LocalTensor, SelectTensors
from opsnn.ascendc.add_sub_arch35 import Add, Sub
from opsnn.ascendc.cast_arch35 import Cast
from opsnn.ascendc.local_tensor import close_local, open_local, read_local
from opsnn.ascendc.mul_arch35 import Mul


def duplicate(dst: LocalTensor, scalar, count: int) -> None:
    """Every element type (the A2 Duplicate has no 8- or 64-bit types)."""
    count = int(count)
    if count <= 0:
        return
    out, direct = open_local(dst, count, "Duplicate")
    with np.errstate(all="ignore"):
        out.fill(np.asarray(scalar).astype(dst.dtype))
    close_local(dst, out, direct, "Duplicate")


def copy(dst: LocalTensor, src: LocalTensor, count: int) -> None:
    """UB -> UB, the bits unchanged."""
    count = int(count)
    if count <= 0:
        return
    values = read_local(src, count, "Copy").copy()  # src and dst may overlap
    out, direct = open_local(dst, count, "Copy")
    out[...] = values
    close_local(dst, out, direct, "Copy")


def select(dst: LocalTensor, mask: LocalTensor, src0, src1, mode: ascendc.SELMODE | None, count: int) -> None:
    """src0 where the mask bit is set, src1 elsewhere. The tensor-tensor form names its SELMODE;
    VSEL_CMPMASK_SPR (the mask from SetCmpMask's register, not the mask tensor) is not modelled."""
    if mode is ascendc.SELMODE.VSEL_CMPMASK_SPR:
        raise EmulatorError("Vec::Select with SELMODE VSEL_CMPMASK_SPR (the CMPMASK register) is not modelled; "
                            "the DAG's Select reads its mask tensor in VSEL_TENSOR_TENSOR_MODE")
    SelectTensors(dst, mask, src0, src1, count)


def power(dst: LocalTensor, src0, src1, count: int) -> None:
    """Vec::Power runs AscendC's Power with PowerConfig DOUBLE_FLOAT_TECH (math_adv.Power)."""
    ascendc.Power(dst, src0, src1, count, ascendc.PowerAlgo.DOUBLE_FLOAT_TECH)


def axpy(dst: LocalTensor, src1: LocalTensor, src2: LocalTensor, scalar, count: int) -> None:
    """dst = src1 + src2 * scalar as the hardware runs Vec::Axpy: Axpy into src1's own tile (which a
    later reader of src1 then sees), then a copy to dst."""
    ascendc.Axpy(src1, src2, scalar, count)
    copy(dst, src1, count)


def _swapped(tensor_scalar):
    """A scalar-first op the hardware runs as its tensor-scalar instruction (commutative)."""
    def run(dst: LocalTensor, scalar, src: LocalTensor, count: int) -> None:
        tensor_scalar(dst, src, scalar, count)
    return run


def _scalar_first(binary):
    """scalar <op> tensor as the hardware runs it for a Vec op with the scalar first: the scalar
    duplicated into dst, then the tensor op dst = dst <op> src."""
    def run(dst: LocalTensor, scalar, src: LocalTensor, count: int) -> None:
        duplicate(dst, scalar, count)
        binary(dst, dst, src, count)
    return run


def _tensor_scalar(binary):
    """tensor <op> scalar for the ops with no scalar instruction: the scalar duplicated into dst,
    then dst = src <op> dst."""
    def run(dst: LocalTensor, src: LocalTensor, scalar, count: int) -> None:
        duplicate(dst, scalar, count)
        binary(dst, src, dst, count)
    return run


def copy_in_nd(dst: LocalTensor, src, cache: LocalTensor, ub_broadcast: bool, rank: int, *dims_strides) -> None:
    """A CopyInBrc block of a multi-dimension broadcast tile (broadcast_sch.h): gathered by NDDMA
    with the input's strides (0 on a broadcast axis), or its un-broadcast block copied into the
    cache tile and broadcast in UB -- as opsnn's Python atvoss's schedules do."""
    dims, strides = tuple(dims_strides[:rank]), tuple(dims_strides[8:8 + rank])
    if not ub_broadcast:
        ascendc.DataCopyNd(dst, src, dims, strides)
        return
    compact = tuple(1 if s == 0 else d for d, s in zip(dims, strides, strict=True))
    ascendc.DataCopyNd(cache, src, compact, strides)
    ascendc.Broadcast(dst, cache, dims, compact)


OPS = {
    "Duplicate": duplicate, "Copy": copy,
    "Cast": Cast,
    "Compare": ascendc.Compare,  # Ascend950: any count, src1 a tensor or a scalar
    "Select": select,
    "Add": Add, "Sub": Sub, "Mul": Mul,
    "Adds": Add, "Muls": Mul, "AddsScalarFirst": _swapped(Add), "MulsScalarFirst": _swapped(Mul),
    "Div": ascendc.Div, "Max": ascendc.Max, "Min": ascendc.Min,
    "Maxs": ascendc.Maxs, "Mins": ascendc.Mins, "MinsScalarFirst": _swapped(ascendc.Mins),
    "LeakyRelu": ascendc.LeakyRelu,
    "Subs": _tensor_scalar(Sub), "Divs": _tensor_scalar(ascendc.Div),
    "SubsScalarFirst": _scalar_first(Sub), "DivsScalarFirst": _scalar_first(ascendc.Div),
    "MaxsScalarFirst": _scalar_first(ascendc.Max),
    "And": ascendc.And, "Or": ascendc.Or,  # uint8: packed masks, count in bits
    "Abs": ascendc.Abs, "Exp": ascendc.Exp, "Log": ascendc.Ln, "Sqrt": ascendc.Sqrt,
    "Reciprocal": ascendc.Reciprocal, "Relu": ascendc.Relu, "Not": ascendc.Not,
    # AscendC's high-level math (math_adv.py: AscendC's steps, or float64 rounded once where its
    # polynomial coefficients are not documented)
    "Power": power, "PowerScalarFirst": power, "Erf": ascendc.Erf, "Erfc": ascendc.Erfc, "Sin": ascendc.Sin,
    "Cos": ascendc.Cos, "Axpy": axpy, "CopyInNd": copy_in_nd,
}


def broadcast_sch(mode: int) -> None:
    """BroadcastSch's non-contiguous modes (301-305)."""
    raise EmulatorError(f"atvoss BroadcastSch schedule mode {mode} is not modelled by opsnn (1, 2, 101-104, 109, "
                        "201 and 202 are); the tiling chose a non-contiguous schedule")


def run(name: str, args: list) -> None:
    if name == "BroadcastSch":
        broadcast_sch(*args)
    fn = OPS.get(name)
    if fn is None:
        raise EmulatorError(f"atvoss Vec::{name} is not modelled by opsnn's emulator")
    fn(*args)
