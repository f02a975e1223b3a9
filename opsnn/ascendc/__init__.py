"""An emulator of the AscendC programming model: GM, UB, TPipe/TQue/TBuf, the vector
instructions an elementwise kernel needs, multi-core launch and a sanitizer (docs/threshold-grad-v2d.md §6, §7).

It knows nothing about any operator: a kernel is a Python callable written the way an AscendC
author writes one, receiving its CoreContext, its GM_ADDR arguments and its tiling bytes."""
from .arith import Duplicate
from .binary import Add, And, Div, Max, Min, Mul, Or, Sub, add_values, div_values, mul_values, sub_values
from .broadcast import Broadcast
from .cast import ALLOWED_CASTS, Cast, cast_values
from .cmpmask import GetCmpMask, SetCmpMask
from .compare import CMPMODE, Compares, CompareScalar
from .compare_tensor import Compare
from .copy import Copy, CopyRepeatParams
from .core import CoreContext, GetBlockIdx, GetBlockNum
from .datacopy import DataCopy
from .datacopy_pad import DataCopyNd, DataCopyPad, GetValue
from .datacopy_params import DataCopyExtParams, DataCopyPadExtParams, DataCopyParams
from .errors import CoreAborted, EmulatorError
from .findings import ERROR, EXPECTED, KINDS, Finding
from .global_tensor import GlobalTensor, GmPtr
from .gm import GlobalMemory, GMError
from .launch import KernelArg, LaunchReport, Padding, launch
from .local_tensor import LocalTensor, close_local, mark_undefined, open_local, read_local, write_local
from .pipe import QuePosition, TBuf, TPipe, TQue
from .que_bind import TQueBind
from .reduce import (
    BlockReduceMax,
    BlockReduceMin,
    BlockReduceSum,
    Brcb,
    BrcbRepeatParams,
    ReduceOrder,
    WholeReduceMax,
    WholeReduceMin,
    WholeReduceSum,
)
from .repeat import BinaryRepeatParams, ResetMask, SetMaskCount, SetMaskNorm, SetVectorMask, UnaryRepeatParams
from .rounding import RoundMode
from .scalar_ops import Adds, LeakyRelu, Maxs, Mins, Muls, ShiftLeft, ShiftRight
from .select import SELMODE, Select
from .select_tensor import SelectTensors
from .trans_data_5hd import TransDataTo5HD, TransDataTo5HDParams, local_at
from .unary import Abs, Exp, Ln, Not, Reciprocal, Relu, Rsqrt, Sqrt, abs_values

__all__ = [
    "ALLOWED_CASTS", "CMPMODE", "ERROR", "EXPECTED", "KINDS", "SELMODE", "Cast", "CompareScalar", "Compares",
    "CoreAborted", "CoreContext", "DataCopy", "Duplicate", "EmulatorError", "Finding", "GMError", "GetBlockIdx",
    "GetBlockNum", "GlobalMemory", "GlobalTensor", "GmPtr", "KernelArg", "LaunchReport", "LocalTensor", "Mul",
    "Padding", "QuePosition", "RoundMode", "Select", "TBuf", "TPipe", "TQue", "TQueBind", "launch",
    # Ascend950 (arch35) instructions the atvoss schedules use
    "And", "Broadcast", "Compare", "DataCopyNd", "DataCopyPad", "GetValue", "Or", "SelectTensors",
    # the Atlas A2 burst forms' params (DataCopy / DataCopyPad with them in count's place)
    "DataCopyExtParams", "DataCopyPadExtParams", "DataCopyParams",
    # the mask/repeat ("level 0") machinery (repeat.py)
    "BinaryRepeatParams", "ResetMask", "SetMaskCount", "SetMaskNorm", "SetVectorMask", "UnaryRepeatParams",
    # the CMPMASK register (cmpmask.py)
    "GetCmpMask", "SetCmpMask",
    # reductions and the block broadcast (reduce.py)
    "BlockReduceMax", "BlockReduceMin", "BlockReduceSum", "Brcb", "BrcbRepeatParams", "ReduceOrder",
    "WholeReduceMax", "WholeReduceMin", "WholeReduceSum",
    # UB -> UB moves: Copy (copy.py) and the NCHW -> NC1HWC0 block transpose (trans_data_5hd.py)
    "Copy", "CopyRepeatParams", "TransDataTo5HD", "TransDataTo5HDParams", "local_at",
    # Atlas A2 arithmetic (binary.py, scalar_ops.py, unary.py): count and mask/repeat forms
    "Abs", "Add", "Adds", "Div", "Exp", "LeakyRelu", "Ln", "Max", "Maxs", "Min", "Mins", "Muls", "Not",
    "Reciprocal", "Relu", "Rsqrt", "ShiftLeft", "ShiftRight", "Sqrt", "Sub",
    # for an operator's own instruction: a LocalTensor's elements read, written in place, marked undefined
    "close_local", "mark_undefined", "open_local", "read_local", "write_local",
    # for functional models: the instructions' arithmetic on numpy arrays, rounded as the device rounds
    "abs_values", "add_values", "cast_values", "div_values", "mul_values", "sub_values",
]
