'''`opsnn new-op NAME`: the folder a new elementwise operator needs, in upstream's layout, with
every operator-specific part marked `OPERATOR:` (a comment above it, or a
`raise NotImplementedError("OPERATOR: ...")` where code must go) and nothing that opsnn already
does (the numpy function's checks, out=, the express entry: opsnn.op_common.elementwise; the
block split, kernel skeleton and launch: opsnn.op_common; the two phases: opsnn.aclnn).

    opsnn new-op softshrink_grad --api aclnnSoftshrinkBackward --python softshrink_backward --dir mypkg

writes mypkg/softshrink_grad/: __init__.py (the registration), numpy_api.py (the declaration and
the element rule per semantics), functional_models.py, op_host/ (definition, 910B tiling, arch35
tiling), op_kernel/ (the 910B kernel on BlockSplitKernel and its tiling struct, the arch35 DAG),
op_api/ (the l0 op, the two phases, the C signature), examples/ (Python and C++), tests/. It
registers and reaches the numpy, torch and dask surfaces once its numpy rules are written; the
kernels, tilings and aclnn checks are skeletons to finish against docs/operators.md.'''
from __future__ import annotations

import keyword
import re
from pathlib import Path

MARK = "OPERATOR:"  # every place the operator's own code goes
SCALAR_MARK = "OPERATOR (a scalar attribute):"  # the places a scalar attribute reaches
MAX_NAME = 64  # characters: the longest generated file name then stays far below a file system's 255 bytes
_SNAKE = re.compile(r"[a-z][a-z0-9_]*\Z")


def camel(name: str) -> str:
    return "".join(part.capitalize() for part in name.split("_"))


def names(name: str, api: str | None = None, python: str | None = None) -> dict[str, str]:
    """The template's names for an operator folder `name` (snake case, e.g. softshrink_grad)."""
    if not _SNAKE.match(name) or keyword.iskeyword(name) or name.endswith("_"):
        raise ValueError(f"operator name {name[:80]!r} must be snake case (a-z, 0-9, _), e.g. softshrink_grad")
    python = python or (name[:-5] + "_backward" if name.endswith("_grad") else name)
    if not _SNAKE.match(python) or keyword.iskeyword(python):
        raise ValueError(f"python name {python[:80]!r} must be snake case")
    api = api or "aclnn" + camel(python)
    if not re.fullmatch(r"aclnn[A-Z][A-Za-z0-9]*", api):
        raise ValueError(f"aclnn API name {api[:80]!r} must look like aclnnSoftshrinkBackward")
    for what, value in (("operator name", name), ("python name", python), ("aclnn API name", api)):
        if len(value) > MAX_NAME:
            raise ValueError(f"{what} is {len(value)} characters; at most {MAX_NAME}")
    return {"name": name, "Op": camel(name), "python": python, "api": api, "NAME": name.upper()}


def files(n: dict[str, str]) -> dict[str, str]:
    """Relative path -> text of every file of the folder."""
    out = {path.format(**n): text.replace("{{", "\0").replace("}}", "\1").format(**n)
           .replace("\0", "{").replace("\1", "}") for path, text in _TEMPLATES.items()}
    return out


def taken(n: dict[str, str]) -> str | None:
    """What already uses one of the new operator's names (an operator opsnn or an installed
    package registers, its op type, numpy function or aclnn API), or None: two operators of one
    name would shadow each other in the registry, opsnn.<python> and the C ABI."""
    from opsnn import registry
    from opsnn.aclnn.declarations import all_apis
    for op in registry.discover().values():
        if n["name"] == op.name or n["Op"] == op.op_def.op_type:
            return f"operator {op.name} (op type {op.op_def.op_type}, {op.package})"
        if n["python"] in op.python_api:
            return f"opsnn.{n['python']} ({op.name}'s numpy function)"
    for api in all_apis():
        if api.name == n["api"]:
            return f"{api.name} (declared by an operator)"
    return None


def write(name: str, directory: str | Path = ".", *, api: str | None = None, python: str | None = None,
          force: bool = False) -> Path:
    """Write the folder directory/name; FileExistsError where it exists (unless force); ValueError
    for a name an operator has already (unless force) or a directory that is not one; OSError
    (with the path) where the folder cannot be written."""
    n = names(name, api, python)
    if not force and (user := taken(n)) is not None:
        raise ValueError(f"a name of {name!r} is taken: {user}; choose another (--force writes it anyway)")
    directory = Path(directory)
    if directory.exists() and not directory.is_dir():
        raise ValueError(f"--dir {directory} is not a directory")
    root = directory / name
    if root.exists() and not force:
        raise FileExistsError(f"{root} exists")
    for rel, text in files(n).items():
        path = root / rel
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
        except OSError as e:
            raise OSError(f"cannot write {path}: {e.strerror or e}") from None
    return root


def marked(root: Path, mark: str = MARK) -> list[tuple[str, int, str]]:
    """(file, line, text) of every `mark` left in a folder written by `write`."""
    found = []
    for path in sorted(root.rglob("*")):
        if path.is_file():
            for i, line in enumerate(path.read_text().splitlines(), 1):
                if mark in line:
                    found.append((str(path.relative_to(root)), i, line.strip()))
    return found


def main(argv: list[str]) -> int:
    import argparse
    p = argparse.ArgumentParser(prog="opsnn new-op", description=__doc__.split("\n\n")[0])
    p.add_argument("name", help="the operator folder's name, snake case (softshrink_grad)")
    p.add_argument("--api", help="its aclnn API (default: aclnn + the Python name in CamelCase)")
    p.add_argument("--python", help="its numpy function, opsnn.<python> (default: NAME less _grad, + _backward)")
    p.add_argument("--dir", default=".", help="where to write the folder")
    p.add_argument("--force", action="store_true", help="overwrite an existing folder")
    args = p.parse_args(argv)
    root = write(args.name, args.dir, api=args.api, python=args.python, force=args.force)
    marks = [m for m in marked(root) if SCALAR_MARK not in m[2]]
    print(f"wrote {root} ({len(list(root.rglob('*.py')))} Python files); {len(marks)} places marked \"{MARK}\":")
    for rel, line, text in marks:
        print(f"  {rel}:{line}: {text}")
    scalar = marked(root, SCALAR_MARK)
    print(f"an operator with a scalar attribute (softshrink's lambd) also fills the {len(scalar)} places marked "
          f"\"{SCALAR_MARK}\" (opsnn/activation/softshrink_grad is a worked example):")
    for rel, line, _ in scalar:
        print(f"  {rel}:{line}")
    return 0


_TEMPLATES = {
    "__init__.py": '''\
"""{Op}: OPERATOR: the formula (the op behind {api}, torch's {python}).

Importing it registers the operator with opsnn.registry; nothing heavy is imported here. Outside
opsnn, make it found by every process with an entry point (pyproject.toml):
[project.entry-points."opsnn.operators"] {name} = "<your package>.{name}"."""
from opsnn.registry import Operator, register  # noqa: F401 - Option, for a scalar attribute

from .op_host.{name}_def import {NAME}

OPERATOR = register(Operator(
    name="{name}",
    op_def={NAME},
    package=__name__,
    summary="OPERATOR: out = ... ({api})",
    tools=f"{{__name__}}.tools",
    # OPERATOR (a scalar attribute): its `opsnn tiling|sanitize` option, Option("alpha", float, 1.0, "the attr")
    options=(),
    aclnn_module=f"{{__name__}}.op_api.aclnn_{python}",
    aclnn_functions=("{python}_get_workspace_size", "{python}"),
    example="test_aclnn_{python}.py",
    python_api={{"{python}": f"{{__name__}}.numpy_api:{python}"}},
))
''',
    "numpy_api.py": '''\
"""opsnn.{python}: torch's {python} and what {api} returns on each SoC, on numpy arrays.
Everything but the element rules is the builder's (opsnn.op_common.elementwise: names, scalars,
operands, promotion, broadcasting, out=, the express entry; docs/operators.md)."""
from __future__ import annotations

from opsnn.op_common import elementwise as ew
from opsnn.op_common.emulated import declared_run

from . import functional_models as fm


# OPERATOR (a scalar attribute): the rules take its value after the tensors: torch_rule(call, grad, x, alpha)
def torch_rule(call, grad, x):
    """torch's CPU kernel on operands cast to the result dtype (halves: widen to float32, compute,
    round once, as torch's opmath does)."""
    # OPERATOR: the element rule under torch semantics
    raise NotImplementedError("OPERATOR: torch_rule ({name}/numpy_api.py)")


def ascend_rule(call, grad, x):
    """The NPU kernel's result for call.semantics ("ascend910b" or "ascend950"), bit for bit."""
    return fm.{name}(grad, x, call.semantics)


{python} = ew.build(ew.Elementwise(
    name="{python}",
    tensors=("grad", "x"),  # OPERATOR: the tensor parameters, in aclnn's order
    scalars=(),             # OPERATOR: ew.Scalar("alpha", 1.0), ... (and the rules take them after the tensors)
    # OPERATOR (a scalar attribute): TorchRule(scalar=ew.torch_scalar_as_dtype) where torch converts it
    # to the tensors' dtype; AscendRule(check=...) for the values aclnn refuses (docs/operators.md)
    torch=ew.TorchRule("{python}", torch_rule),
    ascend=ew.AscendRule("{api}", ascend_rule,
                         dtypes=lambda soc: ("float16", "float32", "bfloat16"),  # OPERATOR: the API's list
                         emulator_run=declared_run(__package__)),  # the API's tensors and scalars, in order
    doc="""OPERATOR: out = ..., grad and x broadcast together, under `semantics` ("torch",
    "ascend910b", "ascend950"); backend "auto" / "fast" / "reference" / "emulator" (ascend only).""",
))
''',
    "functional_models.py": '''\
"""{Op}'s kernels as plain numpy: the oracle the emulated kernels are tested against and the
numpy API's ascend semantics. Use the emulator's value arithmetic (opsnn.ascendc.mul_values,
cast_values, ...) to round as the device rounds."""
from __future__ import annotations

import numpy as np

F32 = np.dtype(np.float32)


# OPERATOR (a scalar attribute): its value (as the kernel reads it: float32) after the tensors
def {name}(grad: np.ndarray, x: np.ndarray, family: str) -> np.ndarray:
    """The kernel of `family` ("ascend910b": op_kernel/{name}.py, "ascend950": op_kernel/arch35)."""
    # OPERATOR: the kernel's arithmetic, step by step, in its compute dtype
    raise NotImplementedError("OPERATOR: functional_models.{name}")
''',
    "op_host/__init__.py": '''from .{name}_def import {NAME}
from .{name}_tiling import {name}_tiling

__all__ = ["{NAME}", "{name}_tiling"]
''',
    "op_host/{name}_def.py": '''\
"""{Op}'s definition as data (upstream op_host/{name}_def.cpp)."""
from opsnn.opdef import OpDef, elementwise_aicore, nd_tensor, register

DTYPES = ("float16", "float32", "bfloat16")  # OPERATOR: the dtypes of the binaries

{NAME} = register(OpDef(
    op_type="{Op}",
    inputs=(nd_tensor("dy", DTYPES), nd_tensor("x", DTYPES)),  # OPERATOR: the inputs, upstream's names and order
    outputs=(nd_tensor("z", DTYPES),),
    attrs=(),  # OPERATOR: the attributes
    aicore={{"ascend910b": elementwise_aicore("{name}"), "ascend950": elementwise_aicore("{name}_apt")}},
))
''',
    "op_host/{name}_tiling.py": '''\
"""{Op}'s 910B tiling: the block split over big and small cores (opsnn.op_common.block_tiling),
the UB shared by UB_FACTOR tile-sized buffers."""
from __future__ import annotations

from opsnn.op_common.block_tiling import TilingResult, block_split_tiling
from opsnn.platform import Platform

from ..op_kernel.{name}_tiling_data import {Op}TilingData

# OPERATOR: tile-sized buffers in UB per dtype: the kernel's queues (2 per input and output, double
# buffered: 6 here) plus its temporaries, in the dtype's units, and a margin for what UB reserves
UB_FACTOR = {{"float32": 8, "float16": 16, "bfloat16": 16}}


# OPERATOR (a scalar attribute): a parameter, passed by field name: block_split_tiling(..., alpha=alpha)
def {name}_tiling(num_elements: int, dtype, platform: Platform | str | None = None) -> TilingResult:
    return block_split_tiling("{Op} (910B)", num_elements, dtype, platform, UB_FACTOR, {Op}TilingData)
''',
    "op_host/arch35/__init__.py": '''from .{name}_tiling_arch35 import {name}_tiling_arch35

__all__ = ["{name}_tiling_arch35"]
''',
    "op_host/arch35/{name}_tiling_arch35.py": '''\
"""{Op}'s arch35 tiling: atvoss's ElewiseBaseTiling of the dtype's DAG (op_kernel/arch35)."""
from __future__ import annotations

from typing import NamedTuple

from opsnn.atvoss import EleBaseTilingData, ElewiseBaseTiling, TilingError
from opsnn.platform import Platform, get_platform

from ...op_kernel.arch35 import TILING_KEYS, {name}_dag

WORKSPACE_SIZE = 16 * 1024 * 1024


class {Op}Arch35Tiling(NamedTuple):
    block_dim: int
    tiling_key: int
    workspace_size: int
    tiling_data: EleBaseTilingData
    dtype: str


def {name}_tiling_arch35(shapes, dtypes, platform: Platform | str | None = None) -> {Op}Arch35Tiling:
    """shapes, dtypes: (inputs..., output)."""
    platform = platform if isinstance(platform, Platform) else get_platform(platform)
    # OPERATOR: what upstream's arch35 tiling refuses (dtypes, shapes), as TilingError
    if len(set(dtypes)) != 1 or dtypes[0] not in TILING_KEYS:
        raise TilingError(f"{Op} (arch35) takes operands of one dtype in {{list(TILING_KEYS)}}, got {{dtypes}}")
    base = ElewiseBaseTiling({name}_dag(dtypes[0]), platform).do_tiling(shapes[-1], list(shapes[:-1]))
    # OPERATOR (a scalar attribute): the DAG's Var after the base struct: a BaseWithVars subclass
    # (opsnn.op_common.tiling_struct) with NAMES = ("alpha",), built as Struct(base, (alpha,))
    return {Op}Arch35Tiling(base.block_num, TILING_KEYS[dtypes[0]], WORKSPACE_SIZE, base, dtypes[0])
''',
    "op_kernel/__init__.py": "",
    "op_kernel/{name}_tiling_data.py": '''\
"""{Op}TilingData: the block split's eight uint64 fields (64 bytes, little-endian)."""
from __future__ import annotations

from opsnn.op_common.block_tiling import BlockSplitTilingData


class {Op}TilingData(BlockSplitTilingData):
    """smallCoreDataNum ... tailBlockNum, the struct {Op}'s 910B kernel reads."""
    # OPERATOR (a scalar attribute): a field after the eight (alpha: float), LAYOUT = struct.Struct("<8Qf4x")
    # and CAMEL = (*BlockSplitTilingData.CAMEL, "alpha"), as ThresholdGradV2DTilingData does
''',
    "op_kernel/{name}.py": '''\
"""The {Op} 910B kernel on the emulator: the block-split skeleton (opsnn.op_common.block_kernel:
Init, Process, CopyIn, CopyOut) and {Op}'s Compute."""
from __future__ import annotations

from opsnn.ascendc import CoreContext, GlobalMemory, GmPtr, KernelArg, LaunchReport, LocalTensor, TPipe
from opsnn.op_common.block_kernel import BlockSplitKernel
from opsnn.op_common.kernel_run import launch_kernel
from opsnn.platform import Platform, get_platform

from .{name}_tiling_data import {Op}TilingData

ARG_NAMES = ("dy", "x", "z")  # OPERATOR: the kernel's GM arguments, inputs then output


class Kernel{Op}(BlockSplitKernel):
    INPUTS = (("dy", "in_queue_dy"), ("x", "in_queue_x"))
    OUTPUT = ("z", "out_queue_z")

    def init_buffers(self, pipe: TPipe, tiling_data) -> None:
        """OPERATOR: the temporaries Compute needs (TBuf + pipe.InitBuffer), counted in UB_FACTOR."""

    def compute(self, inputs: list[LocalTensor], z: LocalTensor, n: int) -> None:
        # OPERATOR (a scalar attribute): read it in Init from the tiling data (tiling_data.alpha)
        # OPERATOR: Compute on n elements with opsnn.ascendc's instructions (Cast, Mul, Sub, ...)
        raise NotImplementedError("OPERATOR: Kernel{Op}.compute")


def {name}(ctx: CoreContext, dy: GmPtr, x: GmPtr, z: GmPtr, tiling: bytes, *, dtype) -> None:
    """The kernel entry: GET_TILING_DATA, Init, Process."""
    op = Kernel{Op}(ctx, dtype)
    op.Init([dy, x], z, {Op}TilingData.from_bytes(tiling), TPipe(ctx))
    op.Process()


def run_kernel(*, gm: GlobalMemory, platform: Platform | str, dtype, block_dim: int, tiling: bytes,
               sanitize: bool = False, **args: KernelArg) -> LaunchReport:
    platform = get_platform(platform) if isinstance(platform, str) else platform

    def kernel(ctx, dy, x, z, raw):
        {name}(ctx, dy, x, z, raw, dtype=dtype)
    return launch_kernel(kernel, ARG_NAMES, gm=gm, platform=platform, block_dim=block_dim, tiling=bytes(tiling),
                         args=args, sanitize=sanitize)
''',
    "op_kernel/arch35/__init__.py": '''from .{name}_apt import TILING_KEYS, run_kernel, {name}_dag

__all__ = ["TILING_KEYS", "run_kernel", "{name}_dag"]
''',
    "op_kernel/arch35/{name}_apt.py": '''\
"""{Op}'s arch35 kernel as an atvoss DAG, one per dtype, run by atvoss's ElementwiseSch."""
from __future__ import annotations

from functools import cache
from types import MappingProxyType

from opsnn.ascendc import EmulatorError, GlobalMemory, KernelArg, LaunchReport
from opsnn.atvoss import Dag, elementwise_kernel
from opsnn.atvoss.sch_common import run_launch
from opsnn.platform import Platform, get_platform

DTYPES = ("float16", "bfloat16", "float32")  # OPERATOR: the dtypes with a binary
TILING_KEYS = MappingProxyType({{t: (i + 1) * 10**14 + 100 for i, t in enumerate(DTYPES)}})
ARG_NAMES = ("dy", "x", "z")


@cache
def {name}_dag(dtype: str) -> Dag:
    """The DAG for a dtype name; KeyError for one without a binary."""
    if dtype not in DTYPES:
        raise KeyError(dtype)
    # OPERATOR: the DAG: CopyIn(index, dtype) nodes, Cast / Mul / ... (opsnn.atvoss), CopyOut(node, 0)
    raise NotImplementedError("OPERATOR: {name}_dag")


def run_kernel(*, gm: GlobalMemory, platform: Platform | str, dtype: str, tiling_key: int, block_dim: int,
               tiling: bytes, dy: KernelArg, x: KernelArg, z: KernelArg, sanitize: bool = False) -> LaunchReport:
    platform = get_platform(platform) if isinstance(platform, str) else platform
    if TILING_KEYS.get(dtype) != tiling_key:
        raise EmulatorError(f"no {Op} kernel for key {{tiling_key}} and dtype {{dtype}}")
    dag = {name}_dag(dtype)
    return run_launch(elementwise_kernel(dag), dag, gm=gm, platform=platform, block_dim=block_dim,
                      tiling=bytes(tiling), inputs=[dy, x], outputs=[z], sanitize=sanitize)
''',
    "op_api/__init__.py": "",
    "op_api/{name}.py": '''\
"""l0 {Op}: z of dy's shape and dtype; the 910B kernel with its tiling (the last core's block
padding declared) or the arch35 DAG kernel."""
from __future__ import annotations

from opsnn.aclnn.executor import Executor
from opsnn.aclnn.l0_tensor import L0Tensor
from opsnn.op_common import block_padding, plan_of
from opsnn.op_common.l0_launch import add_kernel_launch, find_kernel, run_tiling

from ..op_host import {NAME}, {name}_tiling
from ..op_host.arch35 import {name}_tiling_arch35

OP_TYPE = {NAME}.op_type
_MODULES = {{"ascend910b": f"{{__package__.rpartition('.')[0]}}.op_kernel.{name}",
            "ascend950": f"{{__package__.rpartition('.')[0]}}.op_kernel.arch35"}}


# OPERATOR (a scalar attribute): its value a parameter here, passed to both tilings
def {name}(executor: Executor, dy: L0Tensor, x: L0Tensor) -> L0Tensor:
    """Record {Op} on dense tensors of one shape and dtype; z in a new workspace slot."""
    platform, family = executor.platform, executor.platform.family
    z = executor.new_tensor(dy.dtype_name, dy.dtype, dy.shape, f"{{OP_TYPE}} output")
    run_kernel = find_kernel(OP_TYPE, family, {NAME}.supports(family), _MODULES.get(family, ""))
    if family == "ascend950":
        t = run_tiling(OP_TYPE, {name}_tiling_arch35, (dy.shape, x.shape, z.shape),
                       (dy.dtype_name, x.dtype_name, z.dtype_name), platform)
        args, options, padding = (("dy", dy), ("x", x), ("z", z)), {{"tiling_key": t.tiling_key}}, {{}}
    else:
        t = run_tiling(OP_TYPE, {name}_tiling, z.numel, z.dtype_name, platform)
        args, options = (("dy", dy), ("x", x), ("z", z)), {{}}
        pad = block_padding(plan_of(t.tiling_data, t.block_dim), z.numel, z.dtype.itemsize)
        padding = dict.fromkeys(("dy", "x", "z"), pad)
    add_kernel_launch(executor, OP_TYPE, run_kernel, block_dim=t.block_dim, tiling_data=t.tiling_data.to_bytes(),
                      workspace_size=t.workspace_size, args=args, options={{"dtype": z.dtype_name, **options}},
                      padding=padding)
    return z
''',
    "op_api/aclnn_{python}.py": '''\
"""{api}, the two phases.

    workspace_size, executor, ret = {python}_get_workspace_size(grad_output, self, grad_input)
    ret = {python}(workspace, workspace_size, executor, stream)
"""
from __future__ import annotations

import functools

from opsnn.aclnn import checks, two_phase
from opsnn.aclnn.executor import Executor
from opsnn.aclnn.l0 import broadcast_to, cast, contiguous, view_copy
from opsnn.aclnn.l0_tensor import L0Tensor

from .{name} import {name}

API_NAME = "{api}"
DTYPES = ("float16", "float32", "bfloat16")  # OPERATOR: the API's dtype list (per SoC where it differs)


def supported_dtypes(family: str) -> tuple[str, ...]:
    return DTYPES


# OPERATOR (a scalar attribute): a parameter in the API's order (an AclScalar: checks.check_not_null(lambd,
# "lambd", AclScalar); its value lambd.to_float()), its refusal as AclnnError(ACLNN_ERR_PARAM_INVALID,
# KIND_ATTR, ...), passed to the l0 op; and in the two function signatures below
def _plan(executor: Executor, grad_output, self, grad_input) -> None:
    # OPERATOR: upstream's checks, in its order (opsnn.aclnn.checks; a refused attribute value:
    # AclnnError(ACLNN_ERR_PARAM_INVALID, KIND_ATTR, ...))
    for t, name in ((grad_output, "gradOutput"), (self, "self"), (grad_input, "gradInput")):
        checks.check_not_null(t, name)
        checks.check_dtype_supported(t, name, supported_dtypes(executor.platform.family))
        checks.check_max_dim(t, name)
    shape = checks.broadcast_shape(grad_output, "gradOutput", self, "self")
    checks.check_shape(grad_input, "gradInput", shape, "the broadcast shape")
    if grad_output.numel == 0 or self.numel == 0:
        return
    g, x = (contiguous(executor, L0Tensor.from_acl(t)) for t in (grad_output, self))
    if g.shape != x.shape:
        g, x = broadcast_to(executor, g, shape), broadcast_to(executor, x, shape)
    target = L0Tensor.from_acl(grad_input)
    z = {name}(executor, cast(executor, g, target.dtype_name), cast(executor, x, target.dtype_name))
    view_copy(executor, z, target)


def {python}_get_workspace_size(grad_output, self, grad_input):
    """Phase 1: (workspace_size, executor, status)."""
    return two_phase.get_workspace_size(API_NAME, functools.partial(
        _plan, grad_output=grad_output, self=self, grad_input=grad_input))


def {python}(workspace, workspace_size, executor, stream) -> int:
    """Phase 2: queue the planned work on `stream`."""
    return two_phase.run(API_NAME, workspace, workspace_size, executor, stream)
''',
    "op_api/aclnn_signature.py": '''\
"""{api}'s C signature: its C header aclnnop/aclnn_{python}.h, the C entry points, the torch op
(torch.ops.opsnn.{python}), opsnn.dask.{python} and `opsnn atk` come from this declaration."""
from opsnn.aclnn.signature import OUT, TENSOR, AclnnApi, Param

from .aclnn_{python} import DTYPES

APIS = (
    AclnnApi("{api}", header="aclnn_{python}", python="{python}", numpy_api="{python}",
             aten="{python}",  # OPERATOR: the aten op it mirrors ("" for none)
             summary="OPERATOR: gradInput = ...",
             # OPERATOR (a scalar attribute): Param("alpha", SCALAR) in the API's order
             params=(Param("gradOutput", TENSOR, DTYPES), Param("self", TENSOR, DTYPES),  # OPERATOR: the params
                     Param("gradInput", OUT, DTYPES))),
)
''',
    "examples/test_aclnn_{python}.py": '''\
"""{api} example, as an Ascend developer writes it: the device, the tensors, the two phases, the
result back. `opsnn example {name}` runs main() and exits with what it returns."""
from __future__ import annotations

import sys

import numpy as np

from opsnn import acl, aclnn


def tensor(host: np.ndarray):
    """(device address, aclTensor) of a float32 host array, copied to the device."""
    addr, ret = acl.rt.malloc(host.nbytes, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    assert ret == acl.ACL_SUCCESS
    acl.rt.memcpy(addr, host.nbytes, acl.util.numpy_to_ptr(host), host.nbytes, acl.ACL_MEMCPY_HOST_TO_DEVICE)
    strides = [int(s // host.itemsize) for s in host.strides]
    return addr, acl.create_tensor(list(host.shape), acl.ACL_FLOAT, strides, 0, acl.ACL_FORMAT_ND,
                                   list(host.shape), addr)


def main() -> int:
    if acl.init() != acl.ACL_SUCCESS or acl.rt.set_device(0) != acl.ACL_SUCCESS:
        return 1
    stream, _ = acl.rt.create_stream()
    grad = np.array([1, 2, 3, 4], np.float32)   # OPERATOR: the example's inputs
    x = np.array([-1, 0.5, 2, 3], np.float32)
    (ga, g), (xa, xt), (oa, out) = tensor(grad), tensor(x), tensor(np.zeros(4, np.float32))
    # OPERATOR (a scalar attribute): acl.create_scalar(value, acl.ACL_FLOAT), passed in the API's order
    size, executor, ret = aclnn.{python}_get_workspace_size(g, xt, out)
    if ret != aclnn.ACLNN_SUCCESS:
        print(f"{api}GetWorkspaceSize failed: {{ret}} {{aclnn.get_recent_err_msg()}}", file=sys.stderr)
        return 1
    workspace = acl.rt.malloc(size, acl.ACL_MEM_MALLOC_HUGE_FIRST)[0] if size else 0
    if aclnn.{python}(workspace, size, executor, stream) != aclnn.ACLNN_SUCCESS:
        return 1
    acl.rt.synchronize_stream(stream)
    result = np.zeros(4, np.float32)
    acl.rt.memcpy(acl.util.numpy_to_ptr(result), result.nbytes, oa, result.nbytes, acl.ACL_MEMCPY_DEVICE_TO_HOST)
    for i, v in enumerate(result):
        print(f"result[{{i}}] is: {{v:f}}")
    for t in (g, xt, out):
        acl.destroy_tensor(t)
    for a in (ga, xa, oa) + ((workspace,) if size else ()):
        acl.rt.free(a)
    acl.rt.destroy_stream(stream)
    acl.rt.reset_device(0)
    acl.finalize()
    return 0


if __name__ == "__main__":
    sys.exit(main())
''',
    "examples/test_aclnn_{python}.cpp": '''\
// {api} example against opsnn's C ABI (`opsnn example {name} --cpp`): upstream's shape.
#include <cstdio>
#include <vector>
#include "acl/acl.h"
#include "aclnnop/aclnn_{python}.h"

int main() {{
    aclInit(nullptr);
    aclrtSetDevice(0);
    aclrtStream stream;
    aclrtCreateStream(&stream);
    std::vector<int64_t> shape = {{4}};
    std::vector<float> grad = {{1, 2, 3, 4}}, x = {{-1, 0.5f, 2, 3}}, out(4);  // OPERATOR: the inputs
    std::vector<int64_t> strides = {{1}};
    void *ga, *xa, *oa;
    aclrtMalloc(&ga, 16, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&xa, 16, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&oa, 16, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(ga, 16, grad.data(), 16, ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemcpy(xa, 16, x.data(), 16, ACL_MEMCPY_HOST_TO_DEVICE);
    aclTensor *g = aclCreateTensor(shape.data(), 1, ACL_FLOAT, strides.data(), 0, ACL_FORMAT_ND, shape.data(), 1, ga);
    aclTensor *xt = aclCreateTensor(shape.data(), 1, ACL_FLOAT, strides.data(), 0, ACL_FORMAT_ND, shape.data(), 1, xa);
    aclTensor *o = aclCreateTensor(shape.data(), 1, ACL_FLOAT, strides.data(), 0, ACL_FORMAT_ND, shape.data(), 1, oa);
    uint64_t size = 0;
    aclOpExecutor *executor;
    // OPERATOR (a scalar attribute): aclCreateScalar(&value, ACL_FLOAT), passed in the API's order
    if ({api}GetWorkspaceSize(g, xt, o, &size, &executor) != ACLNN_SUCCESS) return 1;
    void *ws = nullptr;
    if (size > 0) aclrtMalloc(&ws, size, ACL_MEM_MALLOC_HUGE_FIRST);
    if ({api}(ws, size, executor, stream) != ACLNN_SUCCESS) return 1;
    aclrtSynchronizeStream(stream);
    aclrtMemcpy(out.data(), 16, oa, 16, ACL_MEMCPY_DEVICE_TO_HOST);
    for (int i = 0; i < 4; i++) printf("result[%d] is: %f\\n", i, out[i]);
    aclDestroyTensor(g); aclDestroyTensor(xt); aclDestroyTensor(o);
    aclrtFree(ga); aclrtFree(xa); aclrtFree(oa);
    if (ws) aclrtFree(ws);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}}
''',
    "tools.py": '''\
"""`opsnn tiling {name}` / `opsnn sanitize {name}` (opsnn.registry): input shapes (dy, x), one
of them; the 910B block split, or arch35 on an ascend950 platform. Sanitize runs the kernel on
exactly-sized random tensors (special values mixed in) against functional_models, bit for bit."""
from __future__ import annotations

import math

import numpy as np

from opsnn.dtypes import to_numpy
from opsnn.op_common import block_padding, elementwise_report, plan_of
from opsnn.op_common.block_report import BlockSplitReport
from opsnn.op_common.elementwise_tools import TilingReport, one_shape, tiling_fields, with_specials
from opsnn.op_common.kernel_run import ExactRun
from opsnn.registry import ToolRequest

from . import functional_models as fm
from .op_host import {NAME}, {name}_tiling
from .op_host.arch35 import {name}_tiling_arch35

SPECIALS = (np.nan, np.inf, -np.inf, -0.0, 1.0)  # OPERATOR: the values the rule treats apart


def _tiling(request: ToolRequest):
    shape = one_shape(request, "{Op}", "dy and x")
    if request.platform.family == "ascend950":
        return {name}_tiling_arch35((shape,) * 3, (request.dtype,) * 3, request.platform)
    return {name}_tiling(math.prod(shape), request.dtype, request.platform)


def tiling_report(request: ToolRequest):
    t = _tiling(request)
    if request.platform.family != "ascend950":
        return BlockSplitReport({NAME}.op_type, t, request)
    return TilingReport(f"{Op} arch35 tiling  shape={{list(request.input_shapes[0])}}  dtype={{t.dtype}}",
                        tiling_fields(t.block_dim, t.tiling_key, t.tiling_data, t.workspace_size),
                        elementwise_report.core_rows(t.tiling_data), plan=True)


def prepare_run(request: ToolRequest, seed: int = 0) -> ExactRun:
    t, family = _tiling(request), request.platform.family
    dtype, n = to_numpy(request.dtype), math.prod(request.input_shapes[0])
    rng = np.random.default_rng(seed)
    inputs = {{"dy": with_specials(rng, dtype, n, SPECIALS), "x": with_specials(rng, dtype, n, SPECIALS)}}
    if family == "ascend950":
        from .op_kernel.arch35 import run_kernel
        options, padding = {{"tiling_key": t.tiling_key}}, {{}}
    else:
        from .op_kernel.{name} import run_kernel
        options = {{}}
        padding = dict.fromkeys(("dy", "x", "z"), block_padding(plan_of(t.tiling_data, t.block_dim), n,
                                                                 dtype.itemsize))
    return ExactRun(run_kernel, platform=request.platform, block_dim=t.block_dim, tiling=t.tiling_data.to_bytes(),
                    inputs=inputs, outputs={{"z": (dtype, n)}}, padding=padding, dtype=request.dtype,
                    model=lambda ins: {{"z": fm.{name}(ins["dy"], ins["x"], family)}}, **options)
''',
    "tests/__init__.py": "",
    "tests/test_{name}.py": '''\
"""{Op}: opsnn's surface checks (numpy, dask, torch with opcheck), and the rule's own cases."""
import numpy as np

from opsnn.atk.surfaces import check_surfaces


def test_every_surface_answers_as_the_numpy_function():
    from .. import OPERATOR  # noqa: F401 - registers the operator (an installed entry point does this too)
    grad = np.array([1, -2, 3, 4], np.float32)  # OPERATOR: inputs that exercise the rule
    x = np.array([0.5, -1, 2, np.nan], np.float32)
    check_surfaces("{python}", grad, x, semantics=("torch",))  # OPERATOR: the ascend semantics once written
''',
}
