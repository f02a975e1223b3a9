"""Operator-definition data (what upstream's OpDef builder records), and a registry of them.

Later layers read these records: the aclnn layer its dtype lists, the tiling its attr default.
The registry is filled once at import of each operator's op_host and never changed after."""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class TensorDef:
    name: str
    param_type: str  # "REQUIRED" | "OPTIONAL" | "DYNAMIC"
    dtypes: tuple[str, ...]  # index-wise: the i-th combination is (inputs[k].dtypes[i] for k)
    formats: tuple[str, ...]
    unknown_shape_formats: tuple[str, ...]


@dataclass(frozen=True)
class AttrDef:
    name: str
    attr_type: str  # "REQUIRED" | "OPTIONAL"
    value_type: str  # "Float" | "Int" | ...
    default: object


@dataclass(frozen=True)
class AICoreConfig:
    dynamic_compile_static: bool
    dynamic_format: bool
    dynamic_rank: bool
    dynamic_shape: bool
    need_check_support: bool
    precision_reduce: bool
    extend_cfg_info: tuple[tuple[str, str], ...]  # e.g. (("opFile.value", "threshold_grad_v2_d"),)


def nd_tensor(name: str, dtypes: tuple[str, ...], param_type: str = "REQUIRED") -> TensorDef:
    """A tensor in ND format for every dtype (the one format these elementwise operators have)."""
    nd = ("ND",) * len(dtypes)
    return TensorDef(name, param_type, tuple(dtypes), nd, nd)


def elementwise_aicore(op_file: str | None = None) -> AICoreConfig:
    """The AICore flags every elementwise operator here declares: dynamic compile-static, rank and
    shape; no dynamic format, no support check; precision reduce; the kernel file if it names one."""
    return AICoreConfig(dynamic_compile_static=True, dynamic_format=False, dynamic_rank=True, dynamic_shape=True,
                        need_check_support=False, precision_reduce=True,
                        extend_cfg_info=(("opFile.value", op_file),) if op_file else ())


@dataclass(frozen=True)
class OpDef:
    op_type: str
    inputs: tuple[TensorDef, ...]
    outputs: tuple[TensorDef, ...]
    attrs: tuple[AttrDef, ...]
    aicore: dict[str, AICoreConfig] = field(default_factory=dict)  # SoC family -> config

    def input(self, name: str) -> TensorDef:
        return _by_name(self.inputs, name, "input", self.op_type)

    def output(self, name: str) -> TensorDef:
        return _by_name(self.outputs, name, "output", self.op_type)

    def attr(self, name: str) -> AttrDef:
        return _by_name(self.attrs, name, "attr", self.op_type)

    def dtype_combinations(self) -> list[tuple[str, ...]]:
        """The supported (input..., output...) dtype tuples, index-wise as OpDef pairs them."""
        tensors = self.inputs + self.outputs
        return list(zip(*(t.dtypes for t in tensors), strict=True))

    def supports(self, family: str) -> bool:
        return family in self.aicore


def _by_name(items, name, what, op_type):
    for item in items:
        if item.name == name:
            return item
    raise KeyError(f"{op_type} has no {what} {name!r}")


_REGISTRY: dict[str, OpDef] = {}


def register(op: OpDef) -> OpDef:
    if _REGISTRY.setdefault(op.op_type, op) is not op:
        raise ValueError(f"operator {op.op_type} registered twice")
    return op


def get_op(op_type: str) -> OpDef:
    try:
        return _REGISTRY[op_type]
    except KeyError:
        raise KeyError(f"unknown operator {op_type!r}; registered: {', '.join(sorted(_REGISTRY))}") from None
