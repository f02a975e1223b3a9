"""An aclnn API's signature, declared once in the operator's folder (`op_api/aclnn_signature.py`,
a tuple `APIS`), from which the C header `aclnnop/aclnn_<op>.h` and the C entry points are
generated (opsnn/capi/codegen.py): a new operator gets its C ABI with no C written by hand.

    APIS = (AclnnApi("aclnnThreshold", header="aclnn_threshold", python="threshold",
                     params=(Param("self", TENSOR, dtypes=...), Param("threshold", SCALAR), ...,
                             Param("out", OUT))),)

Phase 1's C parameters are the params in order, then `uint64_t *workspaceSize, aclOpExecutor
**executor`; phase 2 is the same four parameters for every operator. The Python functions are
`<python>_get_workspace_size(*params)` and `<python>(workspace, size, executor, stream)` of the
operator's registered aclnn module."""
from __future__ import annotations

import re
from dataclasses import dataclass

# Parameter kinds: what the C side passes and how the Python side receives it.
TENSOR = "tensor"  # const aclTensor *        -> AclTensor (None for NULL)
OUT = "out"  # aclTensor * written by the op  -> AclTensor
REF = "ref"  # aclTensor * read and written (in-place) -> AclTensor
SCALAR = "scalar"  # const aclScalar *        -> AclScalar
INT_ARRAY = "int_array"  # const aclIntArray * -> tuple of int
TENSOR_LIST = "tensor_list"  # const aclTensorList * -> list of AclTensor
ATTR = "attr"  # a plain C value (c_type below)  -> bool / int / float

# C type -> (Py_BuildValue code after C's default promotions, Python converter)
ATTR_TYPES = {"bool": ("i", bool), "int64_t": ("L", int), "double": ("d", float), "float": ("d", float)}
_HANDLE_TYPES = {TENSOR: "const aclTensor *", OUT: "aclTensor *", REF: "aclTensor *",
                 SCALAR: "const aclScalar *", INT_ARRAY: "const aclIntArray *",
                 TENSOR_LIST: "const aclTensorList *"}
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


@dataclass(frozen=True)
class Param:
    name: str  # the C parameter name, as upstream's header spells it (gradOutput, selfRef)
    kind: str  # one of the kinds above
    dtypes: tuple[str, ...] = ()  # tensors: the dtypes the op takes on Ascend910B (docs; the op checks)
    c_type: str = ""  # ATTR only: a key of ATTR_TYPES
    doc: str = ""

    def __post_init__(self):
        if not _IDENT.match(self.name):
            raise ValueError(f"parameter name {self.name!r} is not a C identifier")
        if self.kind == ATTR:
            if self.c_type not in ATTR_TYPES:
                raise ValueError(f"attr {self.name}: c_type must be one of {sorted(ATTR_TYPES)}")
        elif self.kind not in _HANDLE_TYPES:
            raise ValueError(f"parameter {self.name}: unknown kind {self.kind!r}")

    @property
    def c_decl(self) -> str:
        ctype = self.c_type if self.kind == ATTR else _HANDLE_TYPES[self.kind]
        return f"{ctype}{'' if ctype.endswith('*') else ' '}{self.name}"

    @property
    def build_code(self) -> str:
        """The Py_BuildValue code the generated C passes this parameter with (handles: 'K')."""
        return ATTR_TYPES[self.c_type][0] if self.kind == ATTR else "K"

    @property
    def is_handle(self) -> bool:
        return self.kind != ATTR


@dataclass(frozen=True)
class AclnnApi:
    name: str  # aclnnThresholdBackward
    header: str  # file stem under aclnnop/: aclnn_threshold_backward
    python: str  # phase 2's Python name; phase 1 is python + "_get_workspace_size"
    params: tuple[Param, ...]
    summary: str = ""
    # the opsnn numpy-API function computing what `out` holds (opsnn.<numpy_api>): it takes the
    # non-out params in declaration order (tensors as arrays, scalars and attrs as numbers) and
    # the keywords semantics= and backend=; `opsnn atk` runs cases through it ("" for none)
    numpy_api: str = ""
    # the aten op computing the same under semantics="torch" (e.g. "leaky_relu_backward"): opsnn.torch
    # registers torch.ops.opsnn.<numpy_api> for it and npu_semantics intercepts aten.<aten> ("": none).
    # An aten name ending in "_backward" is an elementwise backward, linear in its first tensor.
    aten: str = ""
    # True where the result is computed and rounds (SigmoidBackward: dy*y*(1-y)), so an ATK case's
    # accuracy standard ("acc": "single_bm") applies against torch; False for a selection operator
    # (ThresholdBackward), held to torch's bits whatever its case file says
    arithmetic: bool = False

    def __post_init__(self):
        if not self.name.startswith("aclnn") or not _IDENT.match(self.name):
            raise ValueError(f"{self.name!r} is not an aclnn API name")
        names = [p.name for p in self.params]
        if len(set(names)) != len(names) or {"workspaceSize", "executor"} & set(names):
            raise ValueError(f"{self.name}: parameter names must be distinct and not workspaceSize/executor")

    @property
    def inputs(self) -> tuple[Param, ...]:
        """The params the numpy API takes, in order: all but OUT."""
        return tuple(p for p in self.params if p.kind != OUT)

    @property
    def phase1_name(self) -> str:
        return f"{self.name}GetWorkspaceSize"

    @property
    def python_phase1(self) -> str:
        return f"{self.python}_get_workspace_size"

    def phase1_decl(self) -> str:
        params = [p.c_decl for p in self.params] + ["uint64_t *workspaceSize", "aclOpExecutor **executor"]
        return f"aclnnStatus {self.phase1_name}({', '.join(params)})"

    def phase2_decl(self) -> str:
        return (f"aclnnStatus {self.name}(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, "
                "aclrtStream stream)")
