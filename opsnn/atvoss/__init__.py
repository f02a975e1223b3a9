"""atvoss: the Ascend950 (arch35) elementwise / broadcast framework on the emulator.

Upstream (opbase `op_common/atvoss`) lets an operator describe its computation as a DAG of vector
ops; the framework derives the UB buffer count from the DAG, tiles the shapes
(ElewiseBaseTiling / BroadcastBaseTiling) and schedules the DAG core by core. This package is
the same, operator-agnostic: it knows no operator; an operator brings a DAG and calls a tiling
and a schedule. Facts and formulas: docs/arch35-atvoss.md.

1. Describe the computation (dtypes are opsnn dtype names: "float32", "float16", "bfloat16",
   "int8", "uint8", "int16", "int32", "int64"):

    from opsnn.atvoss import (CMP, CopyIn, CopyInBrc, CopyOut, Cast, Compare, Const, Dag,
                              Duplicate, Mul, RoundMode, ScalarIn, Select, ToFloat, Var)

    x = CopyIn(0, "float16")            # tensor input 0 (elementwise schedules)
    s = CopyInBrc(1, "float16")         # tensor input 1 that the broadcast schedules may broadcast
    thr = ScalarIn(1, "float16")        # InN<T, ScalarAttr<1>>: element 0 of input 1, re-read per tile
    t = Var(0, "float32")               # Var<float, 0>: slot 0 of the tiling's scalar_data
    c = Const(0.0, "float32")           # a compile-time constant
    d = Duplicate(t)                    # a full tile of a scalar (a tensor node, takes a buffer)
    f = Cast(x, "float32", RoundMode.CAST_NONE)
    m = Compare(f, d, CMP.LE)           # a uint8 mask node (packed bits in UB, sized 1 B/element by
                                        # the DAG accounting); either side may be a scalar holder
    r = Select(m, c, f)                 # src0 where the mask is set, src1 elsewhere; nodes or scalars
    p = Mul(f, f)                       # elementwise product in the operand dtype
    q = Sub(Add(p, c), f)               # sum / difference (Adds with a scalar side; Sub's left a tensor)
    tf = ToFloat(thr)                   # a scalar op: the scalar widened to float32
    dag = Dag("MyDag<half>", [CopyOut(Cast(r, "float16", RoundMode.CAST_RINT), 0)])

   A Dag derives from its nodes: `inputs` (index -> InputInfo(dtype, scalar, brc)), `outputs`,
   `fun_list` (post-order, same-dtype Casts removed), `buffer_num(use_nddma=True, cache_brc=False)`
   (upstream's MemOptCfg LEVEL_2 count: ping/pong inputs and outputs plus the live temporaries),
   `max_dtype_bytes`, `min_dtype_bytes`, `var_num`, `copy_brc_num`.

2. Tile it (all raise TilingError, a ValueError, on what upstream returns GRAPH_FAILED for):

    ElewiseBaseTiling(dag, platform, extra_size=0, extra_buffer_num=0)
        .do_tiling(output_shape, input_shapes) -> EleBaseTilingData   # 80 bytes, sche_mode 1
    BroadcastBaseTiling(dag, platform, extra_size=0, extra_buffer_num=0)
        .do_tiling(input_shapes, output_shape=None) -> BroadcastTilingResult
        # .schedule_mode (1/2/101-104/109/201), .block_dim, .workspace_size (16 MiB),
        # .tiling_data: BroadcastOneDimTilingData (56 B, mode 201) or BroadcastBaseTilingData
        # (632 B for 2 inputs), .collapsed (DimensionCollapse), .ub_broadcast, .buffer_num,
        # .set_scalar(*floats) -> a copy with scalar_data[0..] set (float32 each)
    dimension_collapse(input_shapes, output_shape) -> Collapsed
    tiling_key((TplUint(bits, values), value), (TplDtype(bits), value), ...) -> int
    brc_tiling_key(schedule_mode, dtype_tpl) -> int   # index(schMode) | dtype_tpl << 16

   Every struct is a frozen dataclass with exact `to_bytes()` / `from_bytes()` (little-endian,
   upstream's layout; BroadcastBaseTilingData.from_bytes also takes the DAG's input_size and
   copy_brc_num) and `upstream_dict()` (field names: upstream's in snake_case).

3. Run it on the emulator (inputs, then outputs, in DAG index order; KernelArg nbytes = the
   tensor's exact size; a ScalarIn input may be one element). The schedules copy with DataCopyPad,
   so they touch no GM byte past a tensor and declare no padding:

    launch_elementwise(dag, gm=, platform=, tiling=EleBaseTilingData | bytes, inputs=[KernelArg],
                       outputs=[KernelArg], sanitize=False) -> LaunchReport
    launch_broadcast(dag, gm=, platform=, schedule_mode=, tiling=struct | bytes, inputs=, outputs=,
                     sanitize=False) -> LaunchReport
    elementwise_kernel(dag) / broadcast_kernel(dag, schedule_mode): the raw kernels for
        opsnn.ascendc.launch, `kernel(ctx, *gm_ptrs, tiling_bytes)`.
"""
from .broadcast_sch import broadcast_kernel, launch_broadcast
from .broadcast_tiling import BroadcastBaseTiling, BroadcastTilingResult, KeyedBroadcastTiling
from .collapse import Collapsed, dimension_collapse
from .dag import (
    CMP,
    Add,
    And,
    Cast,
    Compare,
    Const,
    CopyIn,
    CopyInBrc,
    CopyOut,
    Dag,
    Duplicate,
    InputInfo,
    Mul,
    Node,
    Or,
    RoundMode,
    ScalarIn,
    Select,
    Sub,
    ToFloat,
    Var,
)
from .elewise_sch import elementwise_kernel, launch_elementwise
from .elewise_tiling import ElewiseBaseTiling
from .errors import TilingError
from .structs import BroadcastBaseTilingData, BroadcastOneDimTilingData, EleBaseTilingData
from .tiling_key import BRC_SCH_MODES, TplBool, TplDtype, TplUint, brc_tiling_key, tiling_key

__all__ = [
    "Add", "And", "BRC_SCH_MODES", "BroadcastBaseTiling", "BroadcastBaseTilingData", "BroadcastOneDimTilingData",
    "BroadcastTilingResult", "CMP", "Cast", "Collapsed", "Compare", "Const", "CopyIn", "CopyInBrc", "CopyOut",
    "Dag", "Duplicate", "EleBaseTilingData", "ElewiseBaseTiling", "InputInfo", "KeyedBroadcastTiling", "Mul",
    "Node", "Or", "RoundMode", "ScalarIn", "Select", "Sub", "TilingError", "ToFloat", "TplBool", "TplDtype", "TplUint",
    "Var", "brc_tiling_key", "broadcast_kernel", "dimension_collapse", "elementwise_kernel", "launch_broadcast",
    "launch_elementwise", "tiling_key",
]
