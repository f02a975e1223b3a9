"""An emulator of the AscendC programming model: GM, UB, TPipe/TQue/TBuf, the vector
instructions an elementwise kernel needs, multi-core launch and a sanitizer (docs/threshold-grad-v2d.md §6, §7).

It knows nothing about any operator: a kernel is a Python callable written the way an AscendC
author writes one, receiving its CoreContext, its GM_ADDR arguments and its tiling bytes.

The names below are loaded on first use (PEP 562): `from opsnn.ascendc import Padding` or
`from opsnn.ascendc.gm import GMError` must not import the whole emulator (~25 ms), which a
process that only plans launches, or runs them on the fast engine, never uses."""
from __future__ import annotations

import importlib

# module -> the public names it defines; each name written once, here
_MODULES = {
    "arith": ("Duplicate",),
    "atomic": ("SetAtomicAdd", "SetAtomicMax", "SetAtomicMin", "SetAtomicNone", "SetAtomicType"),
    "binary": ("Add", "And", "Div", "Max", "Min", "Mul", "Or", "Sub", "add_values", "div_values", "mul_values",
        "sub_values"),
    "broadcast": ("Broadcast",),
    "broadcast_adv": ("BroadCast",),
    "cast": ("ALLOWED_CASTS", "cast_values"),
    "cast_repeat": ("Cast",),
    "cmpmask": ("GetCmpMask", "SetCmpMask"),
    "compare": ("CMPMODE", "Compares", "CompareScalar"),
    "compare_tensor": ("Compare",),
    "copy": ("Copy", "CopyRepeatParams", "Transpose"),
    "core": ("CoreContext", "GetBlockIdx", "GetBlockNum"),
    "cores": ("CrossCoreSetFlag", "CrossCoreWaitFlag", "SyncAll"),
    "cumsum": ("CumSum", "CumSumInfo", "cumsum_values"),
    "datacopy": ("DataCopy",),
    "datacopy_pad": ("DataCopyNd", "DataCopyNdDma", "DataCopyPad", "GetValue"),
    "datacopy_params": ("DataCopyExtParams", "DataCopyMVType", "DataCopyPadExtParams", "DataCopyParams",
        "LoopModeParams", "PaddingMode", "ResetLoopModePara", "SetLoopModePara"),
    "deq": ("SetDeqScale",),
    "errors": ("ApiContractError", "CoreAborted", "CoreFailed", "EmulatorError"),
    "findings": ("ERROR", "EXPECTED", "KINDS", "Finding"),
    "global_tensor": ("GlobalTensor", "GmPtr", "InitGlobalMemory"),
    "gather": ("Gather", "GatherRepeatParams", "Gatherb", "Scatter"),
    "gather_mask": ("GatherMask", "GatherMaskParams", "GetGatherMaskRemainCount"),
    "gm": ("GlobalMemory", "GMError"),
    "interleave": ("DeInterleave", "Interleave"),
    "kernel_arg": ("KernelArg", "Padding"),
    "kernel_launch": ("LaunchReport", "launch"),
    "local_tensor": ("LocalTensor", "close_local", "mark_undefined", "open_local", "read_local", "write_local"),
    "math_adv": ("Acos", "Asin", "Atan", "Ceil", "Cos", "Cosh", "Erf", "Erfc", "ExpHighLevel", "Floor", "Log", "Log10",
        "Log2", "Power", "PowerAlgo", "Round", "Sign", "Sin", "Sinh", "Tan", "Tanh", "Trunc"),
    "pipe": ("QuePosition", "TBuf", "TBufPool", "TPipe", "TQue"),
    "que_bind": ("TQueBind",),
    "reduce": ("BlockReduceMax", "BlockReduceMin", "BlockReduceSum", "Brcb", "BrcbRepeatParams", "PairReduceSum",
        "ReduceOrder", "RepeatReduceSum", "WholeReduceMax", "WholeReduceMin", "WholeReduceSum"),
    "reduce_full": ("ReduceMax", "ReduceMin", "ReduceSum", "Sum", "SumParams"),
    "reduce_pattern": ("BatchInvariantReduceSumRA", "PatternReduceMax", "PatternReduceMin", "PatternReduceSum",
        "ReducePattern"),
    "reduce_tile": ("ReduceTileCopyIn", "ReduceTilePad"),
    "repeat": ("BinaryRepeatParams", "ResetMask", "SetMaskCount", "SetMaskNorm", "SetVectorMask", "UnaryRepeatParams"),
    "rounding": ("RoundMode",),
    "scalar_bits": ("CountLeadingZero", "GetBitCount", "GetSFFValue", "ScalarCountLeadingZero",
        "ScalarGetCountOfValue", "ScalarGetSFFValue", "sbitset0", "sbitset1"),
    "scalar_ops": ("Adds", "Divs", "LeakyRelu", "Maxs", "Mins", "Muls", "ShiftLeft", "ShiftRight"),
    "softmax": ("SimpleSoftMax", "SoftMax", "SoftMaxShapeInfo", "SoftMaxTiling", "SoftmaxGrad", "SoftmaxGradFront"),
    "sort": ("Concat", "Extract", "GetMrgSortResult", "GetSortLen", "GetSortOffset", "MrgSort", "MrgSort4Info",
        "MrgSortSrcList", "Sort", "Sort32"),
    "spr": ("GetAccVal", "GetCtrlSpr", "GetReduceMaxMinCount", "GetReduceRepeatMaxMinSpr", "GetReduceRepeatSumSpr",
        "ResetCtrlSpr", "SetCtrlSpr"),
    "select": ("SELMODE", "Select"),
    "select_bytes_mask": ("SelectWithBytesMask", "SelectWithBytesMaskShapeInfo"),
    "select_tensor": ("SelectTensors",),
    "ternary": ("Axpy", "FusedMulAdd", "MulAddDst"),
    "trans_data_5hd": ("TransDataTo5HD", "TransDataTo5HDParams", "local_at"),
    "unary": ("Abs", "Exp", "Ln", "Not", "Reciprocal", "Relu", "Rsqrt", "Sqrt", "abs_values"),
    "vec_index": ("ArithProgression", "CreateVecIndex"),
}
_WHERE = {name: module for module, names in _MODULES.items() for name in names}
__all__ = sorted(_WHERE)


def __getattr__(name: str):
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value  # the next access is a plain attribute
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
